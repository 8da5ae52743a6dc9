import ICalendar
import SkillSDK

/// `reminders.list`: open or done reminders, soonest due first.
struct ListReminders: Skill {
    struct Arguments: Decodable {
        var status: String?
        var due_before: String?
        var limit: Int?
    }

    struct Output: Encodable {
        var reminders: [ReminderOutput]
        var count: Int
        var status: String
        var truncated: Bool
        /// What was read past in the file, one line each (`<file>: line N: what and why; how to fix it`):
        /// lines that cannot be read, a DUE that is not a date, a due time in a zone nobody defines.
        var warnings: [String]
    }

    let name = "list"
    let title = "List reminders"
    let description = """
        Lists the user's reminders (to-do items): open ones by default, or done ones, or all; optionally only \
        those due before a date or time; soonest due first, undated last. Not for calendar events (use \
        calendar.list_events) and not for adding reminders (use reminders.add).
        """
    let parameters = ParameterSchema.object(
        [
            "status": .string("Which reminders (default open)", oneOf: ["open", "done", "all"]),
            "due_before": ReminderSchema.dateTime("Only reminders due before this date or time (a date includes that day)"),
            "limit": .integer("Most reminders to return (default 100)", minimum: 1, maximum: 1000),
        ], required: [])
    let timeout = 10.0
    let summary: String? = "{count|reminder|reminders} ({status})."
    let examples = [
        "list my reminders", "what are my reminders", "show my {status} reminders", "what is due before {due_before}",
        "list reminders due before {due_before}", "what do I have to do",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let settings = try ReminderSettings(context)
        let status = arguments.status ?? "open"
        var before: Int64?
        if let text = arguments.due_before {
            let value = try settings.due(text, field: "/due_before")
            before = value.isDate
                ? settings.zone.utcSeconds(forLocal: value.local.adding(days: 1)) : value.local.secondsSinceEpoch
        }
        let (document, zones) = try settings.read()
        let todos = document.todos()
        var problems: [String] = []
        for todo in todos where !todo.skipped.isEmpty {
            problems += todo.skipped.map { "line \($0.line): \($0.message); \($0.remedy)" }
        }
        var items: [(due: Int64?, todo: ICalTodo)] = []
        for todo in todos {
            if status == "open" && todo.isDone || status == "done" && !todo.isDone { continue }
            if let due = todo.due, zones.isUnknown(due) {
                problems.append(
                    "line \(todo.component.property("DUE")?.line ?? todo.component.line): \"\(todo.summary ?? "reminder")\" "
                        + "is due in time zone \"\(due.timeZoneID ?? "")\", which neither the file nor the system defines; "
                        + "its due time is read in your zone (\(settings.zone.identifier)); add a VTIMEZONE for it or use an "
                        + "IANA name such as Europe/Paris")
            }
            let due = todo.due.map { zones.instant($0) }
            if let before {
                guard let due, due < before else { continue }
            }
            items.append((due, todo))
        }
        items.sort { ($0.due ?? Int64.max) < ($1.due ?? Int64.max) }
        let limit = arguments.limit ?? 100
        return Output(
            reminders: items.prefix(limit).map { settings.output($0.todo, zones: zones) },
            count: min(limit, items.count), status: status, truncated: items.count > limit,
            warnings: settings.file.warnings(
                (document.skipped + zones.skipped).map { "line \($0.line): \($0.message); \($0.remedy)" } + problems))
    }
}
