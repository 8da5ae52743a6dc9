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
    /// What a parser reads (pointers into memory this table owns and never changes).
    let lookup: Lookup

    /// The longest string shared (a longer one is never looked up).
    public static let maximumLength = 64

    /// The table as raw memory: a parser finds a string without reference counting or bounds checks.
    struct Lookup {
        /// Every string's UTF-8 bytes back to back.
        let bytes: UnsafeMutablePointer<UInt8>
        /// Each string's first byte in `bytes` and its length, by its position in `strings`.
        let spans: UnsafeMutablePointer<(start: Int, count: Int)>
        /// The strings, by position.
        let strings: UnsafeMutablePointer<String>
        let count: Int
        /// Open addressing: the position in `strings` plus one, 0 for an empty slot.
        let slots: UnsafeMutablePointer<Int32>
        let mask: Int

        /// The shared string whose UTF-8 bytes are `utf8`, nil when there is none.
        @inline(__always)
        func string(for utf8: UnsafeBufferPointer<UInt8>) -> String? {
            let length = utf8.count
            guard length > 0, length <= JSONSharedStrings.maximumLength, let base = utf8.baseAddress else { return nil }
            var slot = JSONSharedStrings.hash(base, length) & mask
            while true {
                let entry = Int(slots[slot])
                if entry == 0 { return nil }
                let span = spans[entry - 1]
                if span.count == length,
                    JSONValue.equalBytes(UnsafeBufferPointer(start: bytes + span.start, count: length), utf8)
                {
                    return strings[entry - 1]
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// A table of `strings` (empty ones, longer ones than ``maximumLength`` and repeats are left out).
    public init(_ strings: [String]) {
        var kept: [String] = []
        for string in strings where !string.isEmpty && string.utf8.count <= Self.maximumLength && !kept.contains(string) {
            kept.append(string)
        }
        self.strings = kept
        let total = kept.reduce(0) { $0 + $1.utf8.count }
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(total, 1))
        let spans = UnsafeMutablePointer<(start: Int, count: Int)>.allocate(capacity: Swift.max(kept.count, 1))
        let stored = UnsafeMutablePointer<String>.allocate(capacity: Swift.max(kept.count, 1))
        var offset = 0
        for (position, string) in kept.enumerated() {
            let utf8 = Array(string.utf8)
            (bytes + offset).initialize(from: utf8, count: utf8.count)
            (spans + position).initialize(to: (offset, utf8.count))
            (stored + position).initialize(to: string)
            offset += utf8.count
        }
        var size = 16
        while size < kept.count * 3 { size *= 2 }
        let slots = UnsafeMutablePointer<Int32>.allocate(capacity: size)
        slots.initialize(repeating: 0, count: size)
        for position in 0..<kept.count {
            let span = spans[position]
            var slot = Self.hash(bytes + span.start, span.count) & (size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(position + 1)
        }
        lookup = Lookup(bytes: bytes, spans: spans, strings: stored, count: kept.count, slots: slots, mask: size - 1)
    }

    deinit {
        lookup.bytes.deallocate()
        lookup.spans.deallocate()
        lookup.strings.deinitialize(count: lookup.count)
        lookup.strings.deallocate()
        lookup.slots.deallocate()
    }

    /// The shared string whose UTF-8 bytes are `utf8`, nil when there is none.
    func string(for utf8: UnsafeBufferPointer<UInt8>) -> String? { lookup.string(for: utf8) }

    /// A hash of the length, the first, middle and last bytes (`count` > 0).
    @inline(__always)
    static func hash(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var hash = UInt32(truncatingIfNeeded: count) &* 0x9E37_79B1
        hash ^= UInt32(bytes[0]) &* 0x85EB_CA77
        hash ^= UInt32(bytes[count >> 1]) &* 0xC2B2_AE3D
        hash ^= UInt32(bytes[count - 1]) &* 0x27D4_EB2F
        return Int(hash ^ hash >> 15)
    }
}
