import ICalendar
import SkillSDK

/// `reminders.add`: adds one to-do item.
struct AddReminder: Skill {
    struct Arguments: Decodable {
        var title: String
        var due: String?
        var priority: String?
        var notes: String?
    }

    struct Output: Encodable {
        var uid: String
        var title: String
        var due: String?
        /// "due 2026-12-01 at 10:00", "due 2026-12-01" or "with no due date", for the summary.
        var due_text: String
        var priority: String?
        /// False when the call's idempotency key had already added this reminder (a retry).
        var created: Bool
        var file: String
        /// Lines of the file that cannot be read (kept as they were), one each with its line.
        var warnings: [String]
    }

    let name = "add"
    let title = "Add a reminder"
    let description = """
        Adds a reminder (a to-do item) with an optional due date or time, priority and notes to the user's \
        reminders file. A time without an offset is in the user's time zone. Not for events that take up time \
        in the calendar (use calendar.create_event), and not for marking a reminder done (use reminders.complete).
        """
    let parameters = ParameterSchema.object(
        [
            "title": .string("What to be reminded of, e.g. \"Workout\"", minLength: 1, maxLength: 200),
            "due": ReminderSchema.dateTime("When it is due: 2026-12-01T10:00 (user's zone), with Z/+01:00, or a date"),
            "priority": .string("How important it is", oneOf: ["high", "medium", "low"]),
            "notes": .string("Details", maxLength: 4000),
        ], required: ["title"])
    let permission = SkillPermission.write
    let timeout = 10.0
    let summary: String? = "Added the reminder \"{title}\" {due_text}."
    let examples = [
        "add a {due} {title} reminder", "remind me to {title} at {due}", "add a reminder {title} at {due}",
        "add a reminder to {title}", "remind me to {title}", "add {title} to my reminders",
        "create a {priority} priority reminder {title} due {due}", "add a {title} reminder at {due}",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let settings = try ReminderSettings(context)
        guard !arguments.title.allSatisfy(\.isWhitespace) else {
            throw SkillError.invalidArguments(field: "/title", message: "the title is blank",
                                              remedy: "say what the reminder is for")
        }
        let due = try arguments.due.map { text throws(SkillError) in try settings.due(text, field: "/due") }
        var priority: Int?
        if let word = arguments.priority {
            guard let level = ReminderSettings.priorities[word] else {
                throw SkillError.invalidArguments(field: "/priority", message: "unknown priority \"\(word)\"",
                                                  remedy: "use high, medium or low")
            }
            priority = level
        }
        let uid = ComponentUID.make(idempotencyKey: context.idempotencyKey)
        let stamp = ReminderSettings.now()
        let created = try settings.update { document in
            if document.component("VTODO", uid: uid) != nil { return false }
            let todo = ICalComponent.todo(
                uid: uid, stamp: stamp, title: arguments.title, due: due, priority: priority, notes: arguments.notes)
            document.calendar.components.append(todo)
            return true
        }
        let (document, zones) = try settings.read()
        guard let component = document.component("VTODO", uid: uid) else {
            throw SkillError.failed(message: "the reminder \(uid) is not in \(settings.store.path) after writing it",
                                    remedy: "check that nothing else rewrites the file, then retry")
        }
        let todo = ICalTodo(component)
        let shown = settings.output(todo, zones: zones)
        var dueText = "with no due date"
        if let value = todo.due {
            if value.isDate {
                dueText = "due \(value.local.dateText)"
            } else {
                let instant = zones.instant(value)
                let local = settings.zone.local(atUTC: instant)
                dueText = "due \(local.dateText) at \(ISOTimeText.clock(instant, in: settings.zone))"
            }
        }
        return Output(
            uid: uid, title: shown.title, due: shown.due, due_text: dueText, priority: shown.priority,
            created: created, file: settings.store.path, warnings: settings.file.warnings(about: document, zones: zones))
    }
}
