import Foundation
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

    let store: CalendarFileStore
    let zone: SystemZone

    /// The settings of a call.
    /// - Throws: ``SkillError`` when `config.timezone` names no zone or `config.reminders_file` is not a string.
    init(_ context: SkillContext) throws(SkillError) {
        let configured = context.configuration[Self.fileKey]
        guard configured == nil || configured?.stringValue != nil else {
            throw SkillError.failed(
                message: "config.\(Self.fileKey) of the reminders plugin is not a string",
                remedy: "set it to a file path, e.g. \"~/Calendars/reminders.ics\" (a folder of its own: the sandbox grants that folder), in skill_registry.json")
        }
        store = CalendarFileStore(
            path: CalendarFileLocation.path(
                configured: configured?.stringValue, dataDirectory: context.dataDirectory,
                defaultName: Self.defaultFileName),
            productID: "-//SkillHost//Reminders 1.0//EN")
        let zoneName = context.configuration["timezone"]?.stringValue
        guard let zone = CalendarFileLocation.zone(configured: zoneName) else {
            throw SkillError.failed(
                message: "config.timezone \"\(zoneName ?? "")\" of the reminders plugin is not a time zone",
                remedy: "use an IANA name such as Europe/Paris, or remove it to use the system's zone")
        }
        self.zone = zone
    }

    /// Runs `change` on the file under its lock, mapping file problems to skill failures.
    func update<Result>(_ change: (inout ICalendarDocument) throws -> Result) throws -> Result {
        do {
            return try store.update(change)
        } catch let error as CalendarFileError {
            throw Self.failure(error)
        }
    }

    /// The reminders in the file, with its zones.
    func read() throws(SkillError) -> (ICalendarDocument, ICalZoneCatalog) {
        do {
            let document = try store.read()
            return (document, try ICalZoneCatalog(document: document, floating: zone))
        } catch let error as CalendarFileError {
            throw Self.failure(error)
        } catch {
            throw SkillError.failed(message: "\(store.path): \(error)", remedy: "fix the file at the line named")
        }
    }

    static func failure(_ error: CalendarFileError) -> SkillError {
        SkillError.failed(
            message: error.syntax.map { "\(error.path): line \($0.line):\($0.column): \($0.message)" }
                ?? "\(error.path): \(error.message)",
            remedy: error.syntax?.remedy ?? error.remedy)
    }

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
                : (try? zones.instant(value, line: 0)).map { ISOTimeText.format($0, in: zone) }
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
    static let dateTimePattern =
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|z|[+-][0-9]{2}:[0-9]{2})?)?$"

    static func dateTime(_ description: String) -> SchemaProperty {
        .string(description, pattern: dateTimePattern, maxLength: 40)
    }
}
