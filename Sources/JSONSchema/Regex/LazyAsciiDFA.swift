import Synchronization

/// An ``AsciiDFA`` built on the first search that wants it, not when its pattern is compiled: building one
/// costs ~600,000 instructions for a date pattern, and many patterns are compiled and never searched, or
/// searched once (a one-shot `skillhost call` checks its arguments once; a schema checked against the
/// meta-schema only compiles its patterns to see that they are valid). Searches made while another thread
/// builds it use the bitset matcher, without waiting.
final class LazyAsciiDFA: @unchecked Sendable {
    private let matcher: BitsetMatcher
    private let anchored: Bool
    /// 0: not built; 1: being built; 2: ``built`` is set (nil when the pattern has no automaton).
    private let state = Atomic<Int>(0)
    /// Written once, before ``state`` becomes 2 (releasing); read only after 2 is seen (acquiring).
    private var built: AsciiDFA?

    init(_ matcher: BitsetMatcher, anchored: Bool) {
        self.matcher = matcher
        self.anchored = anchored
    }

    /// ``AsciiDFA/search(_:)`` of the automaton, built now if no thread has; nil when there is none (yet,
    /// for this thread) or a non-ASCII character decides (the caller then uses the other engines).
    func search(_ input: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch state.load(ordering: .acquiring) {
        case 2:
            return built.flatMap { $0.search(input) }
        case 0:
            guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else { return nil }
            built = AsciiDFA(matcher, anchored: anchored)
            state.store(2, ordering: .releasing)
            return built.flatMap { $0.search(input) }
        default:
            return nil
        }
    }

    /// Whether a search built it already (tests).
    var isBuilt: Bool { state.load(ordering: .acquiring) == 2 }
}
