import CSkillABI
import Foundation
import SkillJSON

/// A temporary folder holding one calendar or reminders file, and calls to a plugin configured to use it.
struct CalendarFolder {
    let path: String
    let configKey: String
    let timezone: String

    init(configKey: String, timezone: String = "Europe/Berlin") throws {
        var template = Array("/tmp/skillhost-calendar-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
        self.configKey = configKey
        self.timezone = timezone
    }

    /// The file the plugin is configured to use.
    var file: String { path + "/user.ics" }

    /// The file's text ("" when missing).
    var text: String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }

    /// Copies a fixture from Tests/Fixtures/ICalendar into the file.
    func install(fixture name: String) throws {
        try FileManager.default.copyItem(
            atPath: "\(PluginLibrary.repositoryRoot)/Tests/Fixtures/ICalendar/\(name)", toPath: file)
    }

    /// Calls `skillID` with this folder's file in the config and a fresh (or the given) idempotency key.
    func call(
        _ plugin: PluginLibrary, _ skillID: String, _ arguments: JSONValue, key: String = UUID().uuidString,
        configuration: String? = nil
    ) async -> TestHost.Call {
        let config = configuration ?? "{\"\(configKey)\":\"\(file)\",\"timezone\":\"\(timezone)\"}"
        return await TestHost().call(
            plugin.descriptor, skillID, arguments.serialized(), configuration: config, idempotencyKey: key,
            dataDirectory: path)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The `{field}` slots of a summary template.
func templateSlots(_ template: String) -> [String] {
    template.split(separator: "{").dropFirst().compactMap { part in part.firstIndex(of: "}").map { String(part[..<$0]) } }
}
