/// The known name a mistyped one most likely meant, for "did you mean" hints in error messages
/// (`skillhost lst`, `list --jsn`, `call clock.nwo`), as git and cargo give them.
///
/// Closeness is the optimal string alignment distance over bytes: one insertion, deletion, substitution
/// or swap of two neighbours counts 1. A name qualifies when it is at most ``maximumDistance(for:)`` away,
/// so short words only match a one-letter slip and nothing is suggested for a word unlike every name.
public enum NearestName {
    /// The candidate closest to `typed`, or `nil` when none is close enough or `typed` is itself a candidate.
    /// Among equally close candidates the first in `candidates`' order wins, so callers pass a stable order.
    public static func suggestion(for typed: String, among candidates: some Sequence<String>) -> String? {
        let typedBytes = Array(typed.utf8)
        let limit = maximumDistance(for: typedBytes.count)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let bytes = Array(candidate.utf8)
            if bytes == typedBytes { return nil }
            let bound = min(limit, (best?.distance ?? limit + 1) - 1)
            guard abs(bytes.count - typedBytes.count) <= bound else { continue }
            let found = distance(typedBytes, bytes)
            if found <= bound { best = (candidate, found) }
        }
        return best?.name
    }

    /// The "did you mean" part of a message about `typed`, the one wording of it: `did you mean "clock.now"? `
    /// (ending in a space, ready to stand before the message's remedy), or "" when no candidate is close.
    public static func didYouMean(_ typed: String, among candidates: some Sequence<String>) -> String {
        suggestion(for: typed, among: candidates).map(didYouMean(named:)) ?? ""
    }

    /// ``didYouMean(_:among:)``'s wording for a name found another way.
    public static func didYouMean(named name: String) -> String {
        "did you mean \"\(name)\"? "
    }

    /// How far a typed word of `length` bytes may be from a name: 1 under five bytes, 2 under nine, else 3.
    public static func maximumDistance(for length: Int) -> Int {
        length < 5 ? 1 : length < 9 ? 2 : 3
    }

    /// The optimal string alignment distance between `a` and `b` (Levenshtein plus adjacent swaps).
    public static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var twoBack = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var value = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
