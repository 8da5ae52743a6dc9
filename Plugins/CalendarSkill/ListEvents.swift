import Foundation
import ICalendar
import SkillSDK

/// `calendar.list_events`: the events in a range, recurring events expanded.
struct ListEvents: Skill {
    struct Arguments: Decodable {
        var from: String?
        var to: String?
        var limit: Int?
    }

    struct Output: Encodable {
        var events: [EventOutput]
        var count: Int
        /// True when more events than `limit` fall in the range.
        var truncated: Bool
        var from: String
        var to: String
        var file: String
        /// What the listing read past or could not do exactly, one line each (`<file>: line N: what and why;
        /// how to fix it`): lines and events of the file that cannot be read (left out), events in a zone
        /// nobody defines (read in the user's zone), outdated copies of an event, RRULE parts that are not
        /// expanded (BYWEEKNO, FREQ=HOURLY, …), occurrences left out of a long listing.
        var warnings: [String]
    }

    let name = "list_events"
    let title = "List calendar events"
    let description = """
        Lists the events in the user's calendar file between two dates, in order, with recurring events \
        expanded into their occurrences (from now for 7 days when no range is given; a date alone means the \
        whole day). Not for finding free time (use calendar.find_free_slots), not for adding events (use \
        calendar.create_event), and not for reminders or to-dos (use reminders.list).
        """
    let parameters = ParameterSchema.object(
        [
            "from": CalendarSchema.dateTime("Start of the range: 2026-12-01 or 2026-12-01T08:00; now if absent"),
            "to": CalendarSchema.dateTime("End of the range (a date includes that day); 7 days after from if absent"),
            "limit": .integer("Most events to return (default 100)", minimum: 1, maximum: 1000),
        ], required: [])
    let timeout = 10.0
    let summary: String? = "{count|event|events} between {from} and {to}."
    let examples = [
        "what is in my calendar {from}", "list my events from {from} to {to}", "show my calendar for {from}",
        "what meetings do I have {from}", "list calendar events", "what is on my schedule {from}", "what do I have {from}",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let settings = try CalendarSettings(context)
        let from = try arguments.from.map { text throws(SkillError) in try settings.instant(text, field: "/from") }
            ?? Int64(Date().timeIntervalSince1970)
        let to: Int64
        if let text = arguments.to {
            to = try settings.instant(text, field: "/to", endOfDay: true)
        } else if let text = arguments.from, case .date? = ISOTimeText.parse(text) {
            to = try settings.instant(text, field: "/from", endOfDay: true)
        } else {
            to = from + 7 * 86_400
        }
        guard to > from else {
            throw SkillError.invalidArguments(
                field: "/to", message: "the range ends (\(settings.text(to))) before it starts (\(settings.text(from)))",
                remedy: "give a to after from")
        }
        let (document, zones) = try settings.read()
        var warnings: [String] = []
        let occurrences = document.occurrences(in: from..<to, zones: zones, warnings: &warnings)
        let limit = arguments.limit ?? 100
        var warned = Set<Int>()
        for occurrence in occurrences {
            let event = occurrence.event
            let parts = event.rules.flatMap(\.unsupportedParts)
            guard !parts.isEmpty, warned.insert(event.component.line).inserted else { continue }
            let line = event.component.property("RRULE")?.line ?? event.component.line
            let name = "\"\(event.summary ?? event.uid ?? "event")\""
            let negative = parts.filter { $0.hasPrefix("COUNT=") }
            let approximate = parts.filter { !$0.hasPrefix("COUNT=") }
            if !negative.isEmpty {
                warnings.append(
                    "line \(line): \(name) repeats with RRULE \(negative.joined(separator: ", ")), which is no count and is "
                        + "ignored (as other calendar programs do); fix or remove it in your calendar program")
            }
            if !approximate.isEmpty {
                warnings.append(
                    "line \(line): \(name) repeats with RRULE \(approximate.joined(separator: ", ")), which is not "
                        + "expanded exactly; check its occurrences in your calendar program")
            }
        }
        return Output(
            events: occurrences.prefix(limit).map(settings.event), count: min(limit, occurrences.count),
            truncated: occurrences.count > limit, from: settings.text(from), to: settings.text(to),
            file: settings.store.path, warnings: settings.file.warnings(warnings))
    }
}
