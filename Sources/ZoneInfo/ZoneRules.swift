/// The rules of one time zone: which local time type (offset, daylight saving, abbreviation) holds at any
/// instant, and which instants a local wall-clock time names. Built from a ``TZifFile`` or a fixed offset.
public struct ZoneRules: Sendable {
    private let transitions: [Int64]
    private let transitionTypes: [UInt8]
    private let types: [TZifFile.LocalTimeType]
    private let footer: PosixTimeZoneRule?

    /// Coordinated Universal Time.
    public static let utc = ZoneRules(fixedOffset: 0, abbreviation: "UTC")

    /// A zone that is always `fixedOffset` seconds east of UTC.
    public init(fixedOffset: Int32, abbreviation: String) {
        transitions = []
        transitionTypes = []
        types = [TZifFile.LocalTimeType(utcOffset: fixedOffset, isDaylightSaving: false, abbreviation: abbreviation)]
        footer = nil
    }

    /// The zone a TZif file describes. Leap seconds (the `right/` zones) are ignored: instants are POSIX
    /// time, as everywhere else on the system.
    public init(_ file: TZifFile) {
        transitions = file.transitions
        transitionTypes = file.transitionTypes
        types = file.types
        footer = file.footer
    }

    /// The local time type at `instant` (seconds since 1970, UTC).
    public func localTimeType(at instant: Int64) -> TZifFile.LocalTimeType {
        guard let last = transitions.last else { return footer?.localTimeType(at: instant) ?? types[0] }
        if instant >= last, let footer { return footer.localTimeType(at: instant) }
        // Before the first transition: type 0 (RFC 8536 section 3.2).
        guard instant >= transitions[0] else { return types[0] }
        var low = 0
        var high = transitions.count - 1
        while low < high {  // the last transition at or before the instant
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return types[Int(transitionTypes[low])]
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
