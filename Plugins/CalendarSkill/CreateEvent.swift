import Foundation
import ICalendar
import SkillSDK

/// `calendar.create_event`: adds one event to the calendar file.
struct CreateEvent: Skill {
    struct Arguments: Decodable {
        var title: String
        var start: String
        var end: String?
        var duration_minutes: Int?
        var location: String?
        var notes: String?
    }

    struct Output: Encodable {
        var uid: String
        var title: String
        var start: String
        var end: String
        var all_day: Bool
        var location: String?
        /// False when the call's idempotency key had already created this event (a retry).
        var created: Bool
        var file: String
        /// Lines of the file that cannot be read (kept as they were), one each with its line.
        var warnings: [String]
    }

    let name = "create_event"
    let title = "Add a calendar event"
    let description = """
        Adds an event (a meeting, appointment, workout session…) to the user's calendar file: a title, a start, \
        and an end or a duration (60 minutes when neither is given; a date without a time makes an all-day \
        event). Times without an offset are in the user's time zone. Not for to-do items or reminders with a \
        due time (use reminders.add), and not for looking at the calendar (use calendar.list_events or \
        calendar.find_free_slots).
        """
    let parameters = ParameterSchema.object(
        [
            "title": .string("What the event is, e.g. \"Dentist\"", minLength: 1, maxLength: 200),
            "start": CalendarSchema.dateTime("Start: 2026-12-01T10:00 (user's zone), with Z/+01:00, or a date for all day"),
            "end": CalendarSchema.dateTime("End, after the start; give end or duration_minutes, not both"),
            "duration_minutes": .integer("Length in minutes (default 60, or one day for an all-day event)",
                                         minimum: 1, maximum: 20_160),
            "location": .string("Where it takes place", maxLength: 200),
            "notes": .string("Description or notes", maxLength: 4000),
        ], required: ["title", "start"])
    let permission = SkillPermission.write
    let timeout = 10.0
    let summary: String? = "Added \"{title}\" to the calendar from {start} to {end}."
    let examples = [
        "add {title} to my calendar on {start}", "schedule {title} at {start}",
        "create an event {title} at {start} for {duration_minutes} minutes",
        "put {title} in my calendar at {start}", "add a calendar event {title} on {start} at {location}",
        "book {title} from {start} to {end}",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let settings = try CalendarSettings(context)
        guard arguments.end == nil || arguments.duration_minutes == nil else {
            throw SkillError.invalidArguments(
                field: "/duration_minutes", message: "both end and duration_minutes are given",
                remedy: "give only one of them")
        }
        guard !arguments.title.allSatisfy(\.isWhitespace) else {
            throw SkillError.invalidArguments(field: "/title", message: "the title is blank", remedy: "name the event")
        }
        let start = try value(arguments.start, field: "/start", settings: settings)
        var end: ICalDateValue
        if let endText = arguments.end {
            end = try value(endText, field: "/end", settings: settings)
            if start.isDate != end.isDate {
                throw SkillError.invalidArguments(
                    field: "/end", message: "the start is \(start.isDate ? "a date" : "a time") but the end is not",
                    remedy: "give both as dates (all day) or both as times")
            }
        } else if start.isDate {
            end = ICalDateValue(start.local.adding(days: max(1, (arguments.duration_minutes ?? 1440) / 1440)), .date)
        } else {
            let seconds = start.local.secondsSinceEpoch + Int64((arguments.duration_minutes ?? 60) * 60)
            end = ICalDateValue(CivilDateTime(secondsSinceEpoch: seconds), .utc)
        }
        guard end.local > start.local else {
            throw SkillError.invalidArguments(
                field: "/end", message: "the end \(arguments.end ?? "") is not after the start \(arguments.start)",
                remedy: "give an end after the start, or a duration")
        }
        let uid = ComponentUID.make(idempotencyKey: context.idempotencyKey)
        let stamp = ICalDateValue(CivilDateTime(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)), .utc)
        let created: Bool
        do {
            created = try settings.store.update { document in
                if document.component("VEVENT", uid: uid) != nil { return false }
                let event = ICalComponent.event(
                    uid: uid, stamp: stamp, title: arguments.title,
                    start: document.preferredValue(start, zone: settings.zone),
                    end: document.preferredValue(end, zone: settings.zone),
                    location: arguments.location, notes: arguments.notes)
                document.calendar.components.append(event)
                return true
            }
        } catch let error as CalendarFileError {
            throw CalendarSettings.failure(error)
        }
        let (document, zones) = try settings.read()
        guard let component = document.component("VEVENT", uid: uid), let event = try? ICalEvent(component),
            let occurrence = event.occurrences(overlapping: -(1 << 40)..<(1 << 40), zones: zones).first
        else {
            throw SkillError.failed(message: "the event \(uid) is not in \(settings.store.path) after writing it",
                                    remedy: "check that nothing else rewrites the file, then retry")
        }
        let shown = settings.event(occurrence)
        return Output(
            uid: uid, title: shown.title, start: shown.start, end: shown.end, all_day: shown.all_day,
            location: shown.location, created: created, file: settings.store.path,
            warnings: settings.file.warnings(about: document, zones: zones))
    }

    /// A start or end: a date, or a UTC time (written in the user's zone when the file carries its
    /// VTIMEZONE; see ``ICalendarDocument/preferredValue(_:zone:)``).
    private func value(_ text: String, field: String, settings: CalendarSettings) throws(SkillError) -> ICalDateValue {
        if case .date(let day)? = ISOTimeText.parse(text) { return ICalDateValue(day, .date) }
        return ICalDateValue(CivilDateTime(secondsSinceEpoch: try settings.instant(text, field: field)), .utc)
    }
}
