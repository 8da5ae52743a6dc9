import ICalendar
import SkillSDK

/// `reminders.complete`: marks one reminder done.
struct CompleteReminder: Skill {
    struct Arguments: Decodable {
        var uid: String?
        var title: String?
    }

    struct Output: Encodable {
        var uid: String
        var title: String
        /// False when it was already done (nothing changed).
        var changed: Bool
        var file: String
        /// Lines of the file that cannot be read (kept as they were), one each with its line.
        var warnings: [String]
    }

    let name = "complete"
    let title = "Complete a reminder"
    let description = """
        Marks one reminder (to-do item) as done, found by its uid or by its title (case-insensitive; the title \
        must match exactly one open reminder). Completing a done reminder changes nothing. Not for deleting \
        calendar events and not for adding reminders (use reminders.add).
        """
    let parameters = ParameterSchema.object(
        [
            "uid": .string("The reminder's uid, from reminders.list", minLength: 1, maxLength: 300),
            "title": .string("The reminder's title, when the uid is not known", minLength: 1, maxLength: 200),
        ], required: [])
    let permission = SkillPermission.write
    let isIdempotent = true
    let timeout = 10.0
    let summary: String? = "Marked \"{title}\" done."
    let examples = [
        "mark {title} as done", "complete the reminder {title}", "I finished {title}", "tick off {title}",
        "complete reminder {uid}",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let settings = try ReminderSettings(context)
        guard arguments.uid != nil || arguments.title != nil else {
            throw SkillError.invalidArguments(field: "", message: "neither uid nor title is given",
                                              remedy: "name the reminder by uid (see reminders.list) or by title")
        }
        let stamp = ReminderSettings.now()
        var warnings: [String] = []
        let (uid, title, changed): (String, String, Bool) = try settings.update { document in
            warnings = settings.file.warnings(
                about: document, zones: ICalZoneCatalog(document: document, floating: settings.zone))
            let path = try find(arguments, in: document)
            var component = document[path: path]
            let todo = ICalTodo(component)
            let uid = todo.uid ?? ""
            let title = todo.summary ?? "(no title)"
            if todo.isDone { return (uid, title, false) }
            component.markCompleted(at: stamp)
            document[path: path] = component
            return (uid, title, true)
        }
        return Output(uid: uid, title: title, changed: changed, file: settings.store.path, warnings: warnings)
    }

    /// Where the VTODO the arguments name is in the document (any VTODO of the file, as reminders.list
    /// lists them).
    private func find(_ arguments: Arguments, in document: ICalendarDocument) throws(SkillError) -> [Int] {
        let todos = document.paths(of: "VTODO")
        if let uid = arguments.uid {
            guard let path = todos.first(where: { document[path: $0].property("UID")?.value == uid }) else {
                throw SkillError.invalidArguments(field: "/uid", message: "no reminder has the uid \"\(uid)\"",
                                                  remedy: "take the uid from reminders.list")
            }
            return path
        }
        let wanted = (arguments.title ?? "").lowercased()
        let named = todos.filter { document[path: $0].property("SUMMARY")?.text.lowercased() == wanted }
        let open = named.filter { !ICalTodo(document[path: $0]).isDone }
        let candidates = open.isEmpty ? named : open
        guard let first = candidates.first else {
            throw SkillError.invalidArguments(
                field: "/title", message: "no reminder is titled \"\(arguments.title ?? "")\"",
                remedy: "check the title with reminders.list, or give the uid")
        }
        guard candidates.count == 1 else {
            let uids = candidates.compactMap { document[path: $0].property("UID")?.value }
            throw SkillError.invalidArguments(
                field: "/title", message: "\(candidates.count) open reminders are titled \"\(arguments.title ?? "")\"",
                remedy: "give the uid instead: one of \(uids.joined(separator: ", "))")
        }
        return first
    }
}
