import Foundation

/// Python's `icalendar` and `recurring_ical_events`, the peers the calendar tests compare with: installed
/// from PyPI into `.build/peers/icalendar` by the first test that needs them, driven through
/// `Tests/Fixtures/ICalendar/peer/icalendar_peer.py`.
public enum ICalendarPeer {
    /// The versions the expectations were checked against.
    public static let packages = ["icalendar==7.3.2", "recurring-ical-events==3.8.2"]
    public static let environment = PythonVirtualEnvironment(
        name: "icalendar", packages: packages,
        probe: "import importlib.metadata as m; assert m.version('icalendar') == '7.3.2'; import recurring_ical_events")
    /// The peer script.
    public static var script: String { TestPackage.root + "/Tests/Fixtures/ICalendar/peer/icalendar_peer.py" }

    /// The peer script's output for `arguments` (e.g. `["corpus"]`).
    public static func run(_ arguments: [String]) throws -> String {
        try TestProcess.output(try environment.python(), [script] + arguments)
    }
}
