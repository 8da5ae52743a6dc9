// CalendarSkill: events in the user's iCalendar (RFC 5545) file.
//
// Provides:
//   calendar.create_event     add an event (write; the call's idempotency key gives its UID)
//   calendar.list_events      events in a range, recurring ones expanded
//   calendar.find_free_slots  gaps in the working hours of a day or range
//
// The file is `config.calendar_file` in the plugin's registry entry, else `<data folder>/calendar.ics`.
// Built as libCalendarSkill.so; exports only `skill_plugin_entry` (see Plugins/skill_exports.map).
import SkillSDK

/// The plugin's one exported symbol.
@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    calendarPlugin.export(major, minor, host)
}

/// The calendar plugin: its id, version and skills.
let calendarPlugin = SkillPlugin(
    id: "calendar", name: "Calendar", version: "1.0.0",
    description: """
        Events in the user's iCalendar (.ics) file: add events, list them (recurring ones expanded), find free \
        time. Not for to-do items or reminders (use the reminders plugin).
        """,
    skills: [CreateEvent(), ListEvents(), FindFreeSlots()])
    .declaring(SkillCapabilities.none.configuredPath("calendar_file", .readWrite))
