import Foundation

/// The UTC offsets of a time zone: what the offset is at an instant, and which instant a wall-clock
/// time in the zone is.
public protocol ZoneRules: Sendable {
    /// The zone's name, e.g. `Europe/Berlin` or the TZID of the VTIMEZONE.
    var identifier: String { get }
    /// Seconds east of UTC at `seconds` since the epoch.
    func offset(atUTC seconds: Int64) -> Int
}

extension ZoneRules {
    /// The instant (seconds since the epoch) of wall-clock time `local` in this zone. A time that occurs
    /// twice (clocks set back) is the first one; a time that is skipped (clocks set forward) is read with
    /// the offset before the gap (RFC 5545 section 3.3.5).
    public func utcSeconds(forLocal local: CivilDateTime) -> Int64 {
        let wall = local.secondsSinceEpoch
        let before = Int64(offset(atUTC: wall - 86_400))
        let after = Int64(offset(atUTC: wall + 86_400))
        let candidates = [wall - before, wall - after].filter { Int64(offset(atUTC: $0)) == wall - $0 }
        return candidates.min() ?? wall - before
    }

    /// The wall-clock time in this zone at `seconds` since the epoch.
    public func local(atUTC seconds: Int64) -> CivilDateTime {
        CivilDateTime(secondsSinceEpoch: seconds + Int64(offset(atUTC: seconds)))
    }
}

/// A fixed offset, e.g. UTC.
public struct FixedOffsetZone: ZoneRules {
    public let identifier: String
    public let seconds: Int

    public init(identifier: String, seconds: Int) {
        self.identifier = identifier
        self.seconds = seconds
    }

    public static let utc = FixedOffsetZone(identifier: "UTC", seconds: 0)

    public func offset(atUTC seconds: Int64) -> Int { self.seconds }
}

/// A zone of the system's time zone database (IANA names such as `Europe/Paris`).
public struct SystemZone: ZoneRules {
    public let timeZone: TimeZone
    /// Offsets already looked up, by stretch between transitions (shared by copies of this zone).
    let spans = OffsetSpanCache()

    /// The zone `identifier` names, or nil when the database does not know it. Accepts the names calendar
    /// exports use as well: Windows names (`W. Europe Standard Time`) and ids behind a vendor's prefix
    /// (`/mozilla.org/20050126_1/Europe/Berlin`, `/Europe/Stockholm`); see ``TimeZoneNames``.
    public init?(_ identifier: String) {
        guard let zone = TimeZoneNames.systemZone(for: identifier) else { return nil }
        self.init(timeZone: zone.timeZone)
    }

    /// The zone of exactly this IANA name, or nil.
    init?(exactly identifier: String) {
        guard !identifier.isEmpty, !identifier.contains("\0"), let zone = TimeZone(identifier: identifier) else {
            return nil
        }
        timeZone = zone
    }

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    public var identifier: String { timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier }

    public func offset(atUTC seconds: Int64) -> Int {
        spans.offset(of: timeZone, atUTC: seconds)
    }
}
