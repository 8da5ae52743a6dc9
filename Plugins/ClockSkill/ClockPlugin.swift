// ClockSkill: what time it is anywhere, and arithmetic on dates.
//
// Provides:
//   clock.now         current date and time in a time zone
//   clock.add         a date plus or minus an amount of minutes … years
//   clock.difference  the time between two dates
//   clock.convert     a wall-clock time in one zone, shown in another
//
// Built as libClockSkill.so; exports only `skill_plugin_entry` (see Plugins/skill_exports.map).
import SkillSDK

/// The plugin's one exported symbol.
@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    clockPlugin.export(major, minor, host)
}

/// The clock plugin: its id, version and skills.
let clockPlugin = SkillPlugin(
    id: "clock", name: "Clock", version: "1.0.0",
    description: "Current time in any time zone, and date arithmetic (add, difference, convert between zones).",
    skills: [Now(), AddTime(), TimeDifference(), ConvertTime()])
    // Reads only the system time-zone data and its arguments: nothing beyond its data folder.
    .declaring(.none)
