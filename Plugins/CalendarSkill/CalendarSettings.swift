import ICalendar
import SkillSDK

/// What every calendar skill reads from its context: the file and the user's zone.
struct CalendarSettings {
    /// The config key naming the calendar file.
    static let fileKey = "calendar_file"
    /// The file used when the config names none, inside the plugin's data folder.
    static let defaultFileName = "calendar.ics"

    let store: CalendarFileStore
    let zone: SystemZone

    /// The settings of a call.
    /// - Throws: ``SkillError`` when `config.timezone` names no zone or `config.calendar_file` is not a string.
    init(_ context: SkillContext) throws(SkillError) {
        let configured = context.configuration[Self.fileKey]
        guard configured == nil || configured?.stringValue != nil else {
            throw SkillError.failed(
                message: "config.\(Self.fileKey) of the calendar plugin is not a string",
                remedy: "set it to a file path, e.g. \"~/Calendars/calendar.ics\" (a folder of its own: the sandbox grants that folder), in skill_registry.json")
        }
        let path = CalendarFileLocation.path(
            configured: configured?.stringValue, dataDirectory: context.dataDirectory, defaultName: Self.defaultFileName)
        store = CalendarFileStore(path: path)
        let zoneName = context.configuration["timezone"]?.stringValue
        guard let zone = CalendarFileLocation.zone(configured: zoneName) else {
            throw SkillError.failed(
                message: "config.timezone \"\(zoneName ?? "")\" of the calendar plugin is not a time zone",
                remedy: "use an IANA name such as Europe/Paris, or remove it to use the system's zone")
        }
        self.zone = zone
    }

    /// The calendar in the file, with its zones.
    func read() throws(SkillError) -> (ICalendarDocument, ICalZoneCatalog) {
        do {
            let document = try store.read()
            return (document, try ICalZoneCatalog(document: document, floating: zone))
        } catch let error as CalendarFileError {
            throw Self.failure(error)
        } catch {
            throw SkillError.failed(
                message: "\(store.path): \(error)", remedy: "fix the calendar file at the line named, then retry")
        }
    }

    /// A file problem as a skill failure.
    static func failure(_ error: CalendarFileError) -> SkillError {
        SkillError.failed(
            message: error.syntax.map { "\(error.path): line \($0.line):\($0.column): \($0.message)" }
                ?? "\(error.path): \(error.message)",
            remedy: error.syntax?.remedy ?? error.remedy)
    }

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
    static let dateTimePattern =
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|z|[+-][0-9]{2}:[0-9]{2})?)?$"
    /// A clock time "HH:MM".
    static let clockPattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$"

    static func dateTime(_ description: String) -> SchemaProperty {
        .string(description, pattern: dateTimePattern, maxLength: 40)
    }
}
