/// The rules of one time zone: which local time type (offset, daylight saving, abbreviation) holds at any
/// instant, and which instants a local wall-clock time names. Built from a ``TZifFile`` or a fixed offset.
public struct ZoneRules: Sendable {
    private let transitions: [Int64]
    private let transitionTypes: [UInt8]
    private let types: [TZifFile.LocalTimeType]
    private let footer: PosixTimeZoneRule?
    /// Local time types that take part in negative daylight saving time: a daylight saving type with a
    /// lower offset than the standard type it follows or precedes, and that standard type.
    private let negativeSavingTypes: Set<Int>

    /// Coordinated Universal Time.
    public static let utc = ZoneRules(fixedOffset: 0, abbreviation: "UTC")

    /// A zone that is always `fixedOffset` seconds east of UTC.
    public init(fixedOffset: Int32, abbreviation: String) {
        transitions = []
        transitionTypes = []
        types = [TZifFile.LocalTimeType(utcOffset: fixedOffset, isDaylightSaving: false, abbreviation: abbreviation)]
        footer = nil
        negativeSavingTypes = []
    }

    /// The zone a TZif file describes. Leap seconds (the `right/` zones) are ignored: instants are POSIX
    /// time, as everywhere else on the system.
    public init(_ file: TZifFile) {
        transitions = file.transitions
        transitionTypes = file.transitionTypes
        types = file.types
        footer = file.footer
        // A daylight saving type below the standard type it alternates with, back and forth at least twice
        // since 1970. One-off changes are not negative saving: zones that moved west while entering summer
        // time (Kyiv 1941, Nome 1983) just changed their standard time.
        var changes: [Int: Int] = [:]  // (daylight type << 8 | standard type) → how many changes between them
        let sequence = file.transitionTypes.map(Int.init)
        for index in sequence.indices.dropFirst() where file.transitions[index] >= 0 {
            let (before, after) = (sequence[index - 1], sequence[index])
            let (a, b) = (file.types[before], file.types[after])
            guard a.isDaylightSaving != b.isDaylightSaving else { continue }
            let (daylight, standard) = a.isDaylightSaving ? (before, after) : (after, before)
            if file.types[daylight].utcOffset < file.types[standard].utcOffset { changes[daylight << 8 | standard, default: 0] += 1 }
        }
        var negative: Set<Int> = []
        for (pair, count) in changes where count >= 4 { negative.formUnion([pair >> 8, pair & 0xFF]) }
        negativeSavingTypes = negative
    }

    /// The local time type at `instant` (seconds since 1970, UTC).
    public func localTimeType(at instant: Int64) -> TZifFile.LocalTimeType {
        guard let last = transitions.last else { return footer?.localTimeType(at: instant) ?? types[0] }
        if instant >= last, let footer { return footer.localTimeType(at: instant) }
        // Before the first transition: type 0 (RFC 8536 section 3.2); else the last transition's type.
        return types[typeIndex(at: instant) ?? 0]
    }

    /// Whether daylight saving time is in effect at `instant`, counted the traditional way: where the
    /// database gives a zone *negative* daylight saving time (Europe/Dublin's winter "GMT", Africa/Casablanca's
    /// "+00" of Ramadan), the higher offset counts as daylight saving time instead, as ICU and the tz data's
    /// "rearguard" format have it. ``localTimeType(at:)`` keeps the file's own flag.
    public func isDaylightSavingWithPositiveSavings(at instant: Int64) -> Bool {
        if let last = transitions.last, instant >= last, let footer {
            let type = footer.localTimeType(at: instant)
            guard let daylight = footer.daylight else { return type.isDaylightSaving }
            return type.isDaylightSaving != (daylight.type.utcOffset < footer.standard.utcOffset)
        }
        guard let index = typeIndex(at: instant) else { return localTimeType(at: instant).isDaylightSaving }
        return types[index].isDaylightSaving != negativeSavingTypes.contains(index)
    }

    /// The index of the type in effect at `instant` from the transitions (nil for a zone without any).
    private func typeIndex(at instant: Int64) -> Int? {
        guard !transitions.isEmpty else { return nil }
        guard instant >= transitions[0] else { return 0 }
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return Int(transitionTypes[low])
    }

    /// Seconds east of UTC at `instant`.
    public func utcOffset(at instant: Int64) -> Int64 { Int64(localTimeType(at: instant).utcOffset) }

    /// What a local wall-clock time names.
    public enum LocalTime: Equatable, Sendable {
        /// One instant.
        case unique(Int64)
        /// Two instants, as when clocks go back: the earlier (first occurrence) and the later.
        case repeated(earlier: Int64, later: Int64)
        /// None, as when clocks go forward; `offsetBefore` is the offset in effect before the gap.
        case skipped(offsetBefore: Int64)
    }

    /// The instants `localSeconds` (local wall-clock seconds since 1970, as if the zone were UTC) names.
    public func resolve(localSeconds: Int64) -> LocalTime {
        // Offsets in effect a little more than a day either side bracket every offset that can apply.
        let before = utcOffset(at: localSeconds &- 90_000)
        let after = utcOffset(at: localSeconds &+ 90_000)
        var candidates: [Int64] = []
        for offset in [before, after, utcOffset(at: localSeconds &- before), utcOffset(at: localSeconds &- after)] {
            let instant = localSeconds &- offset
            if utcOffset(at: instant) == offset, !candidates.contains(instant) { candidates.append(instant) }
        }
        guard let earliest = candidates.min(), let latest = candidates.max() else { return .skipped(offsetBefore: before) }
        return earliest == latest ? .unique(earliest) : .repeated(earlier: earliest, later: latest)
    }
}
