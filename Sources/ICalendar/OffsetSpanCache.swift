import Foundation
import Synchronization

/// The stretches of time over which a system zone's offset is known to be constant, so that listing a
/// recurring event asks the time zone database once per stretch instead of once per instant (found by
/// fuzzing: a weekly event from the year 1013 asked it for each of its 52,800 occurrences, 5 s per listing
/// under AddressSanitizer). A stretch runs from an instant asked for up to the zone's next transition,
/// which the database reports (raw offset changes such as the end of local mean time included).
final class OffsetSpanCache: Sendable {
    /// The offset in `start..<end` (seconds since the epoch).
    struct Span {
        var start: Int64
        var end: Int64
        var offset: Int
    }

    /// The most stretches kept; the oldest is dropped first.
    static let capacity = 16
    private let spans = Mutex<[Span]>([])

    /// The offset of `timeZone` at `seconds` since the epoch.
    func offset(of timeZone: TimeZone, atUTC seconds: Int64) -> Int {
        if let known = spans.withLock({ list in list.first { $0.start <= seconds && seconds < $0.end } }) {
            return known.offset
        }
        let date = Date(timeIntervalSince1970: Double(seconds))
        let offset = timeZone.secondsFromGMT(for: date)
        let end = timeZone.nextDaylightSavingTimeTransition(after: date).map {
            Int64($0.timeIntervalSince1970.rounded(.up))
        } ?? Int64.max
        guard end > seconds else { return offset }
        spans.withLock { list in
            // A stretch that ends at the same transition with the same offset simply starts earlier now.
            if let index = list.firstIndex(where: { $0.end == end && $0.offset == offset }) {
                list[index].start = min(list[index].start, seconds)
                return
            }
            if list.count >= Self.capacity { list.removeFirst() }
            list.append(Span(start: seconds, end: end, offset: offset))
        }
        return offset
    }
}
