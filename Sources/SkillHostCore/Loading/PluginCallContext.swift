import SkillJSON

/// What one call gives the plugin through `skill_call_context` (see skill_abi.h), as Swift values.
/// ``PluginLibrary/invoke(skillID:arguments:context:)`` turns it into the C struct for the duration of
/// the call.
public struct PluginCallContext: Sendable {
    /// Unique id of this call.
    public var callID: String
    /// Session id, "" outside a session.
    public var sessionID: String
    /// Same for retries of one logical call.
    public var idempotencyKey: String
    /// Wall-clock deadline in milliseconds since the Unix epoch; 0 for none.
    public var deadlineUnixMilliseconds: Int64
    /// The plugin's configuration, a JSON object.
    public var configuration: JSONValue
    /// ``configuration`` as JSON text, when the caller already has it (a worker gets it as bytes): the call
    /// then hands it to the plugin as is instead of serializing ``configuration`` again. Must say the same.
    public var configurationText: String? = nil
    /// Folder the plugin may keep data in (must exist).
    public var dataDirectory: String
    /// Answers the plugin's `is_cancelled` polls; called from any thread.
    public var isCancelled: @Sendable () -> Bool
    /// Backs `context_get` / `context_set`.
    public var sessionContext: SessionContext
    /// Receives the plugin's `log` lines (level, text); by default they go to stderr with a prefix.
    public var log: @Sendable (Int32, String) -> Void

    /// Creates a context; `log` receives the plugin's log lines.
    public init(
        callID: String, sessionID: String = "", idempotencyKey: String = "", deadlineUnixMilliseconds: Int64 = 0,
        configuration: JSONValue = [:], dataDirectory: String, isCancelled: @escaping @Sendable () -> Bool = { false },
        sessionContext: SessionContext = SessionContext(), log: @escaping @Sendable (Int32, String) -> Void
    ) {
        self.callID = callID
        self.sessionID = sessionID
        self.idempotencyKey = idempotencyKey
        self.deadlineUnixMilliseconds = deadlineUnixMilliseconds
        self.configuration = configuration
        self.dataDirectory = dataDirectory
        self.isCancelled = isCancelled
        self.sessionContext = sessionContext
        self.log = log
    }
}

/// What a plugin's `invoke` returned: its status code and a copy of its result JSON bytes.
public struct PluginResult: Sendable, Equatable {
    /// One of the `SKILL_STATUS_*` codes.
    public var status: Int32
    /// The result JSON (status OK) or the error object (otherwise); empty when the plugin gave none.
    public var bytes: [UInt8]

    /// Creates a result.
    public init(status: Int32, bytes: [UInt8]) {
        self.status = status
        self.bytes = bytes
    }
}
