import CalendarSkillSupport
import ICalendar
import SkillSDK

/// What every calendar skill reads from its context: the file and the user's zone.
struct CalendarSettings {
    /// The config key naming the calendar file.
    static let fileKey = "calendar_file"
    /// The file used when the config names none, inside the plugin's data folder.
    static let defaultFileName = "calendar.ics"

    /// The shared reader (CalendarSkillSupport), also used by the reminders plugin.
    let file: CalendarFileSettings
    var store: CalendarFileStore { file.store }
    var zone: SystemZone { file.zone }

    /// The settings of a call.
    /// - Throws: ``SkillError`` when `config.timezone` names no zone or `config.calendar_file` is not a string.
    init(_ context: SkillContext) throws(SkillError) {
        file = try CalendarFileSettings(
            context, plugin: "calendar", fileKey: Self.fileKey, defaultFileName: Self.defaultFileName)
    }

    /// The calendar in the file, with its zones.
    func read() throws(SkillError) -> (ICalendarDocument, ICalZoneCatalog) { try file.read() }

    /// A file problem as a skill failure.
    static func failure(_ error: CalendarFileError) -> SkillError { CalendarFileSettings.failure(error) }

    /// The instant of a skill's date argument; a date alone is its midnight (or the next midnight when
    /// `endOfDay`), a time without offset is read in the user's zone.
    func instant(_ text: String, field: String, endOfDay: Bool = false) throws(SkillError) -> Int64 {
        switch ISOTimeText.parse(text) {
        case .date(let day)?: return zone.utcSeconds(forLocal: endOfDay ? day.adding(days: 1) : day)
        case .local(let local)?: return zone.utcSeconds(forLocal: local)
        case .instant(let seconds)?: return seconds
        case nil:
            throw SkillError.invalidArguments(
                field: field, message: "\"\(text)\" is not a date or date and time",
                remedy: "write it as 2026-12-01 or 2026-12-01T10:00 (optionally with Z or +01:00)")
        }
    }

    /// An instant as the skills show it, in the user's zone.
    func text(_ seconds: Int64) -> String { ISOTimeText.format(seconds, in: zone) }

    /// The occurrence as a skill result.
    func event(_ occurrence: ICalOccurrence) -> EventOutput {
        let allDay = occurrence.event.start.isDate
        return EventOutput(
            uid: occurrence.event.uid ?? "", title: occurrence.event.summary ?? "(no title)",
            start: allDay ? occurrence.localStart.dateText : text(occurrence.start),
            end: allDay ? zone.local(atUTC: occurrence.end).dateText : text(occurrence.end),
            all_day: allDay, location: occurrence.event.location, notes: occurrence.event.notes,
            recurring: occurrence.event.rule != nil || occurrence.event.recurrenceID != nil,
            zone: allDay ? nil : occurrence.zone)
    }
}

/// One event occurrence in a result.
struct EventOutput: Encodable {
    var uid: String
    var title: String
    var start: String
    var end: String
    var all_day: Bool
    var location: String?
    var notes: String?
    var recurring: Bool
    var zone: String?
}

/// Schemas shared by the calendar skills.
enum CalendarSchema {
    /// A date, or a date and time with an optional UTC offset: "2026-12-01", "2026-12-01T10:00",
    /// "2026-12-01T10:00:00+01:00", "2026-12-01T09:00:00Z".
    static let dateTimePattern = CalendarFileSettings.dateTimePattern
    /// A clock time "HH:MM".
    static let clockPattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$"

    static func dateTime(_ description: String) -> SchemaProperty {
        .string(description, pattern: dateTimePattern, maxLength: 40)
    }
}
