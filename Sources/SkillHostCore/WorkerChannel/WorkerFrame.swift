/// The framing host and worker speak over their pipes: an 8-byte header, then the payload.
///
/// ```
/// offset 0  u32 LE  payload length in bytes
/// offset 4  u8      kind (``WorkerFrame/Kind``)
/// offset 5  u8 u8   "SK", a marker that catches garbage on the pipe
/// offset 7  u8      protocol version (1)
/// ```
/// Payloads are built with ``FrameEncoder`` and read with ``FrameDecoder``: little-endian integers and
/// length-prefixed byte strings; JSON documents travel as their UTF-8 bytes, never re-encoded.
public enum WorkerFrame {
    /// What a frame carries.
    public enum Kind: UInt8, Sendable {
        /// Host → worker: one call (``WorkerCallRequest``).
        case call = 1
        /// Host → worker: the plugin to load, for a worker started before the host knew it
        /// (`__worker --await-load`, ``WorkerLoadOrder``). Payload: the words that follow `__worker` on a
        /// worker's command line. Sent once, first, and only after the call passed every gate.
        case load = 2
        /// Worker → host: the plugin is loaded and the worker waits for calls. Payload: empty.
        case ready = 10
        /// Worker → host: the plugin could not be loaded. Payload: one string, the reason. The worker exits.
        case loadFailed = 11
        /// Worker → host: the outcome of one call (``WorkerCallReply``).
        case reply = 12
    }

    /// Size of the header.
    public static let headerSize = 8
    /// The protocol version in byte 7.
    public static let version: UInt8 = 1
    /// The largest payload either side accepts (a result of up to ``WorkerCallReply/maximumResultBytes``
    /// plus its envelope); a larger length means the stream is corrupt.
    public static let maximumPayloadBytes = 80 << 20

    /// Writes a header for `kind` with room for the payload at `buffer[0..<8]`; call ``finish(_:)`` after
    /// appending the payload to fill in its length.
    static func begin(_ kind: Kind, in buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: [0, 0, 0, 0, kind.rawValue, 0x53, 0x4B, version])
    }

    /// Stores the payload length in the header written by ``begin(_:in:)``.
    static func finish(_ buffer: inout [UInt8]) {
        let length = UInt32(buffer.count - headerSize)
        buffer[0] = UInt8(truncatingIfNeeded: length)
        buffer[1] = UInt8(truncatingIfNeeded: length >> 8)
        buffer[2] = UInt8(truncatingIfNeeded: length >> 16)
        buffer[3] = UInt8(truncatingIfNeeded: length >> 24)
    }

    /// The kind and payload length in a header, or a description of what is wrong with it.
    static func parseHeader(_ bytes: UnsafeRawBufferPointer) -> Result<(kind: Kind, length: Int), FrameError> {
        guard bytes[5] == 0x53, bytes[6] == 0x4B, bytes[7] == version else {
            return .failure(FrameError("bytes on the pipe are not a frame header (is something writing to the worker's stdout?)"))
        }
        guard let kind = Kind(rawValue: bytes[4]) else {
            return .failure(FrameError("unknown frame kind \(bytes[4])"))
        }
        let length = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        guard length <= maximumPayloadBytes else {
            return .failure(FrameError("frame of \(length) bytes is larger than the \(maximumPayloadBytes >> 20) MiB limit"))
        }
        return .success((kind, length))
    }
}

/// A broken frame or payload: the stream cannot be trusted any more and the worker is replaced.
public struct FrameError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in one line.
    public var description: String
    init(_ description: String) { self.description = description }
}
