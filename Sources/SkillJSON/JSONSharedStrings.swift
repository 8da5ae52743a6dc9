/// Strings a parse hands out shared instead of making them anew: a string in the document (a member name or
/// a value) whose bytes equal one of these is that string, not a new one. The result is the same JSON either
/// way; what is saved is the work of making (and checking, and for longer ones allocating) the same few
/// strings in every message, e.g. JSON-RPC's `jsonrpc`, `method` and `params` in each request a server reads.
/// Sharing also makes look-ups of these names by the same string instances cheap (equal strings compare
/// equal at once).
///
/// Made once and kept (a `static let`): finding a string costs a hash of its length and three of its bytes
/// and one comparison of bytes.
public final class JSONSharedStrings: @unchecked Sendable {
    /// The strings, in the order given.
    public let strings: [String]
    /// Every string's UTF-8 bytes back to back (never freed before the table: it lives as long as it).
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Each string's first byte in `bytes` and its length, by its position in `strings`.
    private let spans: [(start: Int, count: Int)]
    /// Open addressing: the position in `strings` plus one, 0 for an empty slot.
    private let slots: [Int32]
    private let mask: Int

    /// The longest string shared (a longer one is never looked up).
    public static let maximumLength = 64

    /// A table of `strings` (empty ones, longer ones than ``maximumLength`` and repeats are left out).
    public init(_ strings: [String]) {
        var kept: [String] = []
        for string in strings where !string.isEmpty && string.utf8.count <= Self.maximumLength && !kept.contains(string) {
            kept.append(string)
        }
        self.strings = kept
        let total = kept.reduce(0) { $0 + $1.utf8.count }
        bytes = UnsafeMutableBufferPointer.allocate(capacity: Swift.max(total, 1))
        var spans: [(start: Int, count: Int)] = []
        var offset = 0
        for string in kept {
            let utf8 = Array(string.utf8)
            _ = UnsafeMutableBufferPointer(rebasing: bytes[offset..<(offset + utf8.count)]).initialize(from: utf8)
            spans.append((offset, utf8.count))
            offset += utf8.count
        }
        self.spans = spans
        var size = 16
        while size < kept.count * 3 { size *= 2 }
        mask = size - 1
        var slots = [Int32](repeating: 0, count: size)
        for (position, span) in spans.enumerated() {
            var slot = Self.hash(UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.count)])) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(position + 1)
        }
        self.slots = slots
    }

    deinit { bytes.deallocate() }

    /// The shared string whose UTF-8 bytes are `utf8`, nil when there is none.
    @inline(__always)
    func string(for utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard utf8.count > 0, utf8.count <= Self.maximumLength else { return nil }
        var slot = Self.hash(utf8) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            let span = spans[entry - 1]
            if span.count == utf8.count,
                JSONValue.equalBytes(UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.count)]), utf8)
            {
                return strings[entry - 1]
            }
            slot = (slot + 1) & mask
        }
    }

    /// A hash of the length, the first, middle and last bytes (`utf8` is not empty).
    @inline(__always)
    private static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let count = utf8.count
        var hash = UInt32(truncatingIfNeeded: count) &* 0x9E37_79B1
        hash ^= UInt32(utf8[0]) &* 0x85EB_CA77
        hash ^= UInt32(utf8[count >> 1]) &* 0xC2B2_AE3D
        hash ^= UInt32(utf8[count - 1]) &* 0x27D4_EB2F
        return Int(hash ^ hash >> 15)
    }
}
