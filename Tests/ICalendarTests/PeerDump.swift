import Foundation
import ICalendar

/// What a reader makes of a file, in the shape `Tests/Fixtures/ICalendar/peer/icalendar_peer.py dump`
/// prints: the same structure from our library and from Python's `icalendar`, compared field by field.
struct PeerDump: Codable, Equatable {
    struct Event: Codable, Equatable {
        var uid, summary, location, notes, start, end, zone: String
        var offset: Int?
        var recurrence_id: String
    }

    struct Todo: Codable, Equatable {
        var uid, summary, status, due: String
        var priority: Int
    }

    struct Occurrence: Codable, Equatable {
        var uid, summary, start: String
    }

    var events: [Event]
    var todos: [Todo]
    var occurrences: [Occurrence]

    /// Sorted the same way on both sides.
    func sorted() -> PeerDump {
        PeerDump(
            events: events.sorted { ($0.uid, $0.start, $0.recurrence_id) < ($1.uid, $1.start, $1.recurrence_id) },
            todos: todos.sorted { $0.uid < $1.uid },
            occurrences: occurrences.sorted { ($0.uid, $0.start) < ($1.uid, $1.start) })
    }

    /// Our reading of `text`, with occurrences between two UTC midnights; floating times read as UTC.
    init(ours text: String, from: CivilDateTime, to: CivilDateTime) throws {
        let document = try ICalendarDocument(parsing: text)
        let zones = ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
        func value(_ value: ICalDateValue) -> String {
            switch value.kind {
            case .date: return "date:" + value.local.dateText
            case .floating: return "floating:" + value.local.description
            case .utc, .zoned: return "t:\(zones.instant(value))"
            }
        }
        events = document.events().map { event in
            let start = value(event.start)
            var end = ""
            if let dtend = event.end {
                end = value(dtend)
            } else if let duration = event.duration {
                let local = event.start.local.adding(days: duration.days)
                let shifted = ICalDateValue(
                    CivilDateTime(secondsSinceEpoch: local.secondsSinceEpoch + Int64(duration.seconds)), event.start.kind)
                end = value(shifted)
            }
            var offset: Int?
            switch event.start.kind {
            case .utc: offset = 0
            case .zoned:
                offset = zones.zone(of: event.start).offset(atUTC: zones.instant(event.start))
            default: offset = nil
            }
            return Event(
                uid: event.uid ?? "", summary: event.summary ?? "", location: event.location ?? "",
                notes: event.notes ?? "", start: start, end: end,
                zone: event.start.timeZoneID ?? (event.start.kind == .utc ? "UTC" : ""), offset: offset,
                recurrence_id: event.recurrenceID.map { value($0) } ?? "")
        }
        todos = document.todos().map { todo in
            Todo(
                uid: todo.uid ?? "", summary: todo.summary ?? "", status: todo.status ?? "",
                due: todo.due.map { value($0) } ?? "", priority: todo.priority ?? 0)
        }
        occurrences = document.occurrences(in: from.secondsSinceEpoch..<to.secondsSinceEpoch, zones: zones).map {
            occurrence in
            let kind = occurrence.event.start.kind
            let start =
                kind == .date
                ? "date:" + occurrence.localStart.dateText
                : kind == .floating ? "floating:" + occurrence.localStart.description : "t:\(occurrence.start)"
            return Occurrence(uid: occurrence.event.uid ?? "", summary: occurrence.event.summary ?? "", start: start)
        }
    }

    init(events: [Event], todos: [Todo], occurrences: [Occurrence]) {
        self.events = events
        self.todos = todos
        self.occurrences = occurrences
    }
}
