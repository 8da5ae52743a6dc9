/// Appends payload fields to a frame buffer (see ``WorkerFrame``). Reuses the caller's buffer.
struct FrameEncoder {
    var buffer: [UInt8]

    init(_ kind: WorkerFrame.Kind, reusing buffer: [UInt8] = []) {
        self.buffer = buffer
        WorkerFrame.begin(kind, in: &self.buffer)
    }

    mutating func append(_ value: Int32) { append(UInt32(bitPattern: value)) }

    mutating func append(_ value: UInt32) {
        buffer.append(UInt8(truncatingIfNeeded: value))
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value >> 16))
        buffer.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    mutating func append(_ value: Int64) {
        let bits = UInt64(bitPattern: value)
        append(UInt32(truncatingIfNeeded: bits))
        append(UInt32(truncatingIfNeeded: bits >> 32))
    }

    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        append(UInt32(bytes.count))
        buffer.append(contentsOf: bytes)
    }

    mutating func append(bytes: [UInt8]) {
        append(UInt32(bytes.count))
        buffer.append(contentsOf: bytes)
    }

    /// The finished frame (header length filled in).
    mutating func finish() -> [UInt8] {
        WorkerFrame.finish(&buffer)
        return buffer
    }
}

/// Reads payload fields in the order ``FrameEncoder`` wrote them. Every read checks bounds and throws
/// ``FrameError`` instead of trapping on a short or corrupt payload.
struct FrameDecoder {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func uint32() throws(FrameError) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw FrameError("payload ends inside a number at byte \(offset)") }
        let value =
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
        offset += 4
        return value
    }

    mutating func int32() throws(FrameError) -> Int32 { Int32(bitPattern: try uint32()) }

    mutating func int64() throws(FrameError) -> Int64 {
        let low = UInt64(try uint32())
        let high = UInt64(try uint32())
        return Int64(bitPattern: high << 32 | low)
    }

    /// A length-prefixed byte string, as a slice of the payload (valid while the payload is).
    mutating func byteString() throws(FrameError) -> UnsafeRawBufferPointer {
        let count = Int(try uint32())
        guard bytes.count - offset >= count else {
            throw FrameError("payload ends inside a \(count)-byte field at byte \(offset)")
        }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    mutating func bytesArray() throws(FrameError) -> [UInt8] { Array(try byteString()) }

    mutating func string() throws(FrameError) -> String {
        String(decoding: try byteString(), as: UTF8.self)
    }
}
