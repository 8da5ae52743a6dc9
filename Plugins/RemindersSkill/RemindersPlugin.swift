// RemindersSkill: to-do items (VTODO) in the user's iCalendar (RFC 5545) file.
//
// Provides:
//   reminders.add       add a reminder (write; the call's idempotency key gives its UID)
//   reminders.list      open or done reminders, optionally due before a time
//   reminders.complete  mark a reminder done (write)
//
// The file is `config.reminders_file` in the plugin's registry entry, else `<data folder>/reminders.ics`.
// Built as libRemindersSkill.so; exports only `skill_plugin_entry` (see Plugins/skill_exports.map).
import SkillSDK

/// The plugin's one exported symbol.
@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    remindersPlugin.export(major, minor, host)
}

/// The reminders plugin: its id, version and skills.
let remindersPlugin = SkillPlugin(
    id: "reminders", name: "Reminders", version: "1.0.0",
    description: """
        To-do items with an optional due time, kept as VTODO entries in an iCalendar (.ics) file: add, list, \
        complete. Not for events that block time in the calendar (use the calendar plugin).
        """,
    skills: [AddReminder(), ListReminders(), CompleteReminder()])
    .declaring(SkillCapabilities.none.configuredPath("reminders_file", .readWrite))
