import Foundation
import CalendarSkillSupport
import ICalendar
import SkillSDK

/// What every reminders skill reads from its context: the file and the user's zone.
struct ReminderSettings {
    /// The config key naming the reminders file.
    static let fileKey = "reminders_file"
    /// The file used when the config names none, inside the plugin's data folder.
    static let defaultFileName = "reminders.ics"
    /// Priorities in words and their iCalendar PRIORITY values (RFC 5545 section 3.8.1.9).
    static let priorities = ["high": 1, "medium": 5, "low": 9]

    /// The shared reader (CalendarSkillSupport), also used by the calendar plugin.
    let file: CalendarFileSettings
    var store: CalendarFileStore { file.store }
    var zone: SystemZone { file.zone }

    /// The settings of a call.
    /// - Throws: ``SkillError`` when `config.timezone` names no zone or `config.reminders_file` is not a string.
    init(_ context: SkillContext) throws(SkillError) {
        file = try CalendarFileSettings(
            context, plugin: "reminders", fileKey: Self.fileKey, defaultFileName: Self.defaultFileName,
            productID: "-//SkillHost//Reminders 1.0//EN")
    }

    /// Runs `change` on the file under its lock, mapping file problems to skill failures.
    func update<Result>(_ change: (inout ICalendarDocument) throws -> Result) throws -> Result {
        try file.update(change)
    }

    /// The reminders in the file, with its zones.
    func read() throws(SkillError) -> (ICalendarDocument, ICalZoneCatalog) { try file.read() }

    static func failure(_ error: CalendarFileError) -> SkillError { CalendarFileSettings.failure(error) }

    /// A due argument as written to the file: a date, or a UTC time (a time without offset is in the
    /// user's zone).
    func due(_ text: String, field: String) throws(SkillError) -> ICalDateValue {
        switch ISOTimeText.parse(text) {
        case .date(let day)?: return ICalDateValue(day, .date)
        case .local(let local)?:
            return ICalDateValue(CivilDateTime(secondsSinceEpoch: zone.utcSeconds(forLocal: local)), .utc)
        case .instant(let seconds)?: return ICalDateValue(CivilDateTime(secondsSinceEpoch: seconds), .utc)
        case nil:
            throw SkillError.invalidArguments(
                field: field, message: "\"\(text)\" is not a date or date and time",
                remedy: "write it as 2026-12-01 or 2026-12-01T10:00 (optionally with Z or +01:00)")
        }
    }

    /// The reminder as a skill result.
    func output(_ todo: ICalTodo, zones: ICalZoneCatalog) -> ReminderOutput {
        var due: String?
        if let value = todo.due {
            due = value.isDate
                ? value.local.dateText
                : ISOTimeText.format(zones.instant(value), in: zone)
        }
        let priority = todo.priority.map { $0 <= 4 ? "high" : $0 == 5 ? "medium" : "low" }
        return ReminderOutput(
            uid: todo.uid ?? "", title: todo.summary ?? "(no title)", due: due, priority: priority,
            notes: todo.notes, done: todo.isDone, status: todo.status ?? (todo.isDone ? "COMPLETED" : "NEEDS-ACTION"))
    }

    /// Now as a UTC date-time value.
    static func now() -> ICalDateValue {
        ICalDateValue(CivilDateTime(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)), .utc)
    }
}

/// One reminder in a result.
struct ReminderOutput: Encodable {
    var uid: String
    var title: String
    var due: String?
    var priority: String?
    var notes: String?
    var done: Bool
    var status: String
}

/// Schemas shared by the reminders skills.
enum ReminderSchema {
    static let dateTimePattern = CalendarFileSettings.dateTimePattern

    static func dateTime(_ description: String) -> SchemaProperty {
        .string(description, pattern: dateTimePattern, maxLength: 40)
    }
}
