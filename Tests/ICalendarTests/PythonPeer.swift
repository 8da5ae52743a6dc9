import Foundation
import ICalendar
import Testing

/// Python's `icalendar` (and `recurring_ical_events` for recurrences), installed from PyPI into
/// `.build/peers/icalendar` by the test itself when missing, driven through
/// `Tests/Fixtures/ICalendar/peer/icalendar_peer.py`.
enum PythonPeer {
    static let packageRoot = TestPackage.root
    static let fixtures = packageRoot + "/Tests/Fixtures/ICalendar"
    static let script = ICalendarPeer.script
    /// The versions the expectations were checked against.
    static let packages = ICalendarPeer.packages
    static let peer = ICalendarPeer.environment
    static var environment: String { peer.folder }

    /// The virtual environment's python, created and filled on first use.
    static func python() throws -> String { try peer.python() }

    /// The peer's reading of `file`, occurrences between two dates (UTC midnights).
    static func dump(_ file: String, from: CivilDateTime, to: CivilDateTime) throws -> PeerDump {
        let output = try run(try python(), [script, "dump", file, from.dateText, to.dateText])
        return try JSONDecoder().decode(PeerDump.self, from: Data(output.utf8))
    }

    /// A calendar the peer writes with its own API.
    static func write(_ file: String) throws {
        try run(try python(), [script, "write", file])
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        try TestProcess.output(executable, arguments)
    }
}
