/// A string of at most 16 UTF-8 bytes packed into two words, so comparing a property name or an `enum`
/// string with a known one is two integer comparisons (by bytes, that is by code points, as JSON
/// Schema compares strings), with no hashing and no `String` comparison.
struct PackedName: Equatable, Sendable {
    /// The most bytes a packed name holds.
    static let capacity = 16

    private let count: Int
    private let low: UInt64
    private let high: UInt64

    /// `text` packed; nil when it is longer than ``capacity`` bytes (or not stored contiguously).
    @inline(__always)
    init?(_ text: String) {
        let count = text.utf8.count
        guard count <= Self.capacity else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        }
        guard copied != nil else { return nil }
        self.count = count
        low = words.0
        high = words.1
    }
}
