/// The outcome of one call as a worker reports it (payload of a ``WorkerFrame/Kind/reply`` frame).
///
/// Payload layout: status (i32: a `SKILL_STATUS_*` code, ``resultTooLarge`` or ``withdrawn``); the plugin's JSON (result or
/// error object; empty when the plugin returned none); count (u32) of context changes, then that many
/// (key string, value JSON) pairs the skill stored with `context_set`.
public struct WorkerCallReply: Sendable, Equatable {
    /// Status the worker uses when the plugin's result exceeded ``maximumResultBytes``; `json` is then
    /// the decimal byte count of the refused result.
    public static let resultTooLarge: Int32 = -1
    /// Status of the answer to a queued request the host took back before the worker started it
    /// (`SharedCallSlot+Queue.swift`): nothing ran, `json` is empty. The host consumes it; no caller sees it.
    public static let withdrawn: Int32 = -2
    /// The largest result a skill may return through a worker (``PluginResult/maximumResultBytes``).
    public static let maximumResultBytes = PluginResult.maximumResultBytes

    /// `SKILL_STATUS_*`, ``resultTooLarge`` or ``withdrawn``.
    public var status: Int32
    /// The plugin's JSON bytes (result on success, error object otherwise); empty when absent.
    public var json: [UInt8]
    /// Values the skill stored in the session context: key → UTF-8 JSON.
    public var contextChanges: [(key: String, json: [UInt8])]

    public init(status: Int32, json: [UInt8], contextChanges: [(key: String, json: [UInt8])] = []) {
        self.status = status
        self.json = json
        self.contextChanges = contextChanges
    }

    public static func == (lhs: WorkerCallReply, rhs: WorkerCallReply) -> Bool {
        lhs.status == rhs.status && lhs.json == rhs.json
            && lhs.contextChanges.map(\.key) == rhs.contextChanges.map(\.key)
            && lhs.contextChanges.map(\.json) == rhs.contextChanges.map(\.json)
    }

    /// The whole frame (header and payload), built in `buffer` to reuse its storage.
    public func encodedFrame(reusing buffer: [UInt8] = []) -> [UInt8] {
        var encoder = FrameEncoder(.reply, reusing: buffer)
        encoder.append(status)
        encoder.append(bytes: json)
        encoder.append(UInt32(contextChanges.count))
        for change in contextChanges {
            encoder.append(change.key)
            encoder.append(bytes: change.json)
        }
        return encoder.finish()
    }

    /// Reads a reply from a reply frame's payload.
    public init(payload: UnsafeRawBufferPointer) throws(FrameError) {
        var decoder = FrameDecoder(payload)
        status = try decoder.int32()
        json = try decoder.bytesArray()
        let count = try decoder.uint32()
        var changes: [(key: String, json: [UInt8])] = []
        for _ in 0..<count {
            let key = try decoder.string()
            changes.append((key, try decoder.bytesArray()))
        }
        contextChanges = changes
        guard decoder.isAtEnd else { throw FrameError("reply frame has bytes after its last field") }
    }
}
