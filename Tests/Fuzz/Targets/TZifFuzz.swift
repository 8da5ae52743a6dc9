import ZoneInfo

/// The TZif reader (the clock plugin's time zones): parse, then ask the zone about instants and local times
/// across its range, and read the bytes as a POSIX TZ string too.
func fuzzTZif(_ input: [UInt8]) {
    if let file = try? TZifFile(parsing: input) {
        let rules = ZoneRules(file)
        for instant: Int64 in [Int64.min, Int64.min / 4, -2_208_988_800, -1, 0, 1_796_000_000, 4_102_444_800, Int64.max / 4, Int64.max] {
            _ = rules.localTimeType(at: instant)
            _ = rules.resolve(localSeconds: instant)
            _ = rules.isDaylightSavingWithPositiveSavings(at: instant)
        }
        for transition in file.transitions.prefix(64) { _ = rules.resolve(localSeconds: transition &+ rules.utcOffset(at: transition)) }
    }
    if input.count < 256, let rule = try? PosixTimeZoneRule(parsing: String(decoding: input, as: UTF8.self)) {
        for instant: Int64 in [Int64.min, -1, 0, 1_796_000_000, Int64.max] { _ = rule.localTimeType(at: instant) }
    }
}
