import CSkillABI
import Foundation
import SkillJSON
import Testing

/// The calendar and reminders plugins read their settings through one reader (CalendarSkillSupport): the
/// same checks and the same wording, each naming its own plugin and config key.
@Suite struct CalendarSettingsTests {
    static let plugins: [(product: String, skill: String, key: String, name: String, arguments: JSONValue)] = [
        ("CalendarSkill", "calendar.list_events", "calendar_file", "calendar", ["from": "2030-12-02"]),
        ("RemindersSkill", "reminders.list", "reminders_file", "reminders", [:]),
    ]

    @Test func anUnknownZoneIsRefusedByBothPlugins() async throws {
        for entry in Self.plugins {
            let plugin = try PluginLibrary.swiftProduct(entry.product)
            let folder = try CalendarFolder(configKey: entry.key)
            defer { folder.remove() }
            let call = await folder.call(
                plugin, entry.skill, entry.arguments,
                configuration: "{\"\(entry.key)\":\"\(folder.file)\",\"timezone\":\"Mars/Olympus\"}")
            #expect(call.status != SKILL_STATUS_OK)
            #expect(call.text.contains("config.timezone \\\"Mars/Olympus\\\" of the \(entry.name) plugin is not a time zone"),
                    "\(entry.product): \(call.text)")
        }
    }

    @Test func aFileSettingThatIsNotAStringIsRefusedByBothPlugins() async throws {
        for entry in Self.plugins {
            let plugin = try PluginLibrary.swiftProduct(entry.product)
            let folder = try CalendarFolder(configKey: entry.key)
            defer { folder.remove() }
            let call = await folder.call(plugin, entry.skill, entry.arguments, configuration: "{\"\(entry.key)\": 7}")
            #expect(call.status != SKILL_STATUS_OK)
            #expect(call.text.contains("config.\(entry.key) of the \(entry.name) plugin is not a string"), "\(entry.product): \(call.text)")
            #expect(call.text.contains("~/Calendars/\(entry.name).ics"), "\(entry.product): \(call.text)")
        }
    }
}
