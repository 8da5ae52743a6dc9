/// FNV-1a, the one stable hash: the same bytes give the same number on every run and machine (unlike
/// `Hasher`). Used where a hash is written down or compared across processes: the listing cache's
/// checksum, the manifest rules' fingerprint, the finish log's record checksum, call idempotency keys,
/// suffixes of clashing tool names, and calendar UIDs made from idempotency keys.
public enum FNV1a {
    /// The 64-bit offset basis.
    public static let basis64: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The 32-bit offset basis.
    public static let basis32: UInt32 = 0x811c_9dc5

    /// The 64-bit hash of `bytes`, starting from `seed` (another basis gives an independent hash).
    @inlinable
    public static func hash64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = basis64) -> UInt64 {
        var hash = seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// The 64-bit hash of the bytes of `bytes`.
    @inlinable
    public static func hash64<Bytes: Sequence<UInt8>>(_ bytes: Bytes, seed: UInt64 = basis64) -> UInt64 {
        if let hash = bytes.withContiguousStorageIfAvailable({ hash64(UnsafeRawBufferPointer($0), seed: seed) }) { return hash }
        var hash = seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// The 64-bit hash of a string's UTF-8.
    @inlinable
    public static func hash64(_ text: String, seed: UInt64 = basis64) -> UInt64 {
        var text = text
        return text.withUTF8 { hash64(UnsafeRawBufferPointer($0), seed: seed) }
    }

    /// The 32-bit hash of `bytes`.
    @inlinable
    public static func hash32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash = basis32
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    /// The 32-bit hash of the bytes of `bytes`.
    @inlinable
    public static func hash32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        if let hash = bytes.withContiguousStorageIfAvailable({ hash32(UnsafeRawBufferPointer($0)) }) { return hash }
        var hash = basis32
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    /// `value` as 16 lowercase hex digits, zero-padded.
    public static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            writeHex(value, into: buffer)
            return 16
        }
    }

    /// `value` as 8 lowercase hex digits, zero-padded.
    public static func hex(_ value: UInt32) -> String {
        String(hex(UInt64(value)).dropFirst(8))
    }

    /// Writes `value` as 16 lowercase hex digits at the start of `buffer` (at least 16 bytes).
    public static func writeHex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            let nibble = Int((value >> UInt64(60 - 4 * index)) & 0xf)
            buffer[index] = digits.utf8Start[nibble]
        }
    }
}
