import SkillJSON

/// One call as it crosses to a worker (payload of a ``WorkerFrame/Kind/call`` frame).
///
/// Payload layout, in order: skill id, call id, session id, idempotency key, data folder (strings);
/// deadline in Unix milliseconds (i64, 0 = none); configuration JSON; arguments JSON; context entry
/// count (u32) then that many (key string, value JSON) pairs. JSON stays bytes: the worker hands the
/// arguments to the plugin without parsing them.
public struct WorkerCallRequest: Sendable, Equatable {
    public var skillID: String
    public var callID: String
    public var sessionID: String
    public var idempotencyKey: String
    public var dataDirectory: String
    /// Wall-clock deadline in milliseconds since the Unix epoch; 0 = none.
    public var deadlineUnixMilliseconds: Int64
    /// The plugin's configuration as UTF-8 JSON (an object).
    public var configurationJSON: [UInt8]
    /// The validated arguments as UTF-8 JSON (an object).
    public var argumentsJSON: [UInt8]
    /// A snapshot of the session context: key → UTF-8 JSON of the value.
    public var context: [String: [UInt8]]

    public init(
        skillID: String, callID: String, sessionID: String, idempotencyKey: String, dataDirectory: String,
        deadlineUnixMilliseconds: Int64, configurationJSON: [UInt8], argumentsJSON: [UInt8], context: [String: [UInt8]]
    ) {
        self.skillID = skillID
        self.callID = callID
        self.sessionID = sessionID
        self.idempotencyKey = idempotencyKey
        self.dataDirectory = dataDirectory
        self.deadlineUnixMilliseconds = deadlineUnixMilliseconds
        self.configurationJSON = configurationJSON
        self.argumentsJSON = argumentsJSON
        self.context = context
    }

    /// The request for `call`, with its deadline and a snapshot of its session context. `configurationJSON`:
    /// `call.configuration` already serialized (nil: serialized here).
    public init(_ call: SkillCall, deadlineUnixMilliseconds: Int64, configurationJSON: [UInt8]? = nil) {
        var context: [String: [UInt8]] = [:]
        for (key, value) in call.sessionContext.snapshot { context[key] = value.serializedBytes() }
        self.init(
            skillID: call.skillID, callID: call.callID, sessionID: call.sessionID,
            idempotencyKey: call.idempotencyKey, dataDirectory: call.dataDirectory,
            deadlineUnixMilliseconds: deadlineUnixMilliseconds,
            configurationJSON: configurationJSON ?? call.configuration.serializedBytes(),
            argumentsJSON: call.arguments.serializedBytes(), context: context)
    }

    /// The whole frame (header and payload), built in `buffer` to reuse its storage.
    public func encodedFrame(reusing buffer: [UInt8] = []) -> [UInt8] {
        var encoder = FrameEncoder(.call, reusing: buffer)
        encoder.append(skillID)
        encoder.append(callID)
        encoder.append(sessionID)
        encoder.append(idempotencyKey)
        encoder.append(dataDirectory)
        encoder.append(deadlineUnixMilliseconds)
        encoder.append(bytes: configurationJSON)
        encoder.append(bytes: argumentsJSON)
        encoder.append(UInt32(context.count))
        for (key, value) in context {
            encoder.append(key)
            encoder.append(bytes: value)
        }
        return encoder.finish()
    }

    /// Reads a request from a call frame's payload.
    public init(payload: UnsafeRawBufferPointer) throws(FrameError) {
        var decoder = FrameDecoder(payload)
        skillID = try decoder.string()
        callID = try decoder.string()
        sessionID = try decoder.string()
        idempotencyKey = try decoder.string()
        dataDirectory = try decoder.string()
        deadlineUnixMilliseconds = try decoder.int64()
        configurationJSON = try decoder.bytesArray()
        argumentsJSON = try decoder.bytesArray()
        let count = try decoder.uint32()
        var context: [String: [UInt8]] = [:]
        for _ in 0..<count {
            let key = try decoder.string()
            context[key] = try decoder.bytesArray()
        }
        self.context = context
        guard decoder.isAtEnd else { throw FrameError("call frame has bytes after its last field") }
    }
}
