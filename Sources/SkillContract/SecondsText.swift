/// Seconds as people read them, in every message and listing: `5`, `2.5`, `0.21`, `12.4` (at most two
/// decimals below 10 s and one above, no trailing zeros). Timeouts, durations and cards all use it.
public enum SecondsText {
    /// `seconds` rounded for reading, without a unit.
    public static func format(_ seconds: Double) -> String {
        guard seconds.isFinite else { return String(seconds) }
        let scale = abs(seconds) < 10 ? 100.0 : 10.0
        let rounded = (seconds * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
