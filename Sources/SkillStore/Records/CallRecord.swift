/// Where a skill call is.
public enum CallStatus: String, Sendable, Equatable, CaseIterable {
    /// Running (or the process died while it ran: see ``interrupted``).
    case started
    /// Returned a result.
    case succeeded
    /// Failed; ``CallRecord/errorKind`` says how (`timeout`, `skillFailed`, …).
    case failed
    /// The process stopped while the call ran (marked when the session is opened again).
    case interrupted
    /// Not run: the result of an earlier call with the same idempotency key was returned.
    case replayed
    /// Not run: whoever was asked did not allow it (``CallRecord/errorKind`` `denied`), or the call was
    /// cancelled while they were asked (`cancelled`). Not a failure of the skill: `inspect` does not count
    /// it, nor its (zero) duration.
    case refused
}

/// One skill call: what ran, with what, how it ended and how long it took.
public struct CallRecord: Sendable, Equatable {
    /// Row id (unique in the database).
    public var rowID: Int64
    /// The model's call id (unique within one turn).
    public var callID: String
    /// The session.
    public var sessionID: String
    /// Position of the assistant message that asked for the call.
    public var messagePosition: Int?
    /// The skill.
    public var skillID: String
    /// The plugin's version, when known.
    public var pluginVersion: String?
    /// SHA-256 of the plugin file, when known.
    public var pluginSHA256: String?
    /// The arguments as JSON text, with secrets and `writeOnly` fields redacted.
    public var argumentsJSON: String
    /// Where it is.
    public var status: CallStatus
    /// The result JSON (redacted), for successful calls.
    public var resultJSON: String?
    /// One line about the result (the card's text).
    public var summary: String?
    /// The failure's kind (a `HostError` kind name).
    public var errorKind: String?
    /// The failure's message.
    public var error: String?
    /// Unix milliseconds when it started.
    public var startedMilliseconds: Int64
    /// How long it ran, in milliseconds; nil while running or when interrupted.
    public var durationMilliseconds: Double?
    /// The key that makes retries of one logical call one call.
    public var idempotencyKey: String?
    /// The worker process that ran it, when known.
    public var workerPID: Int64?
    /// The front end that made the call (`chat`, `mcp`, `call`, …); nil on rows written before schema
    /// version 5 (all of them by `chat`).
    public var frontEnd: String?
    /// The client of the front end, when it has one (an MCP client's `clientInfo.name`).
    public var client: String?

    /// A record with these parts.
    public init(
        rowID: Int64 = 0, callID: String, sessionID: String, messagePosition: Int? = nil, skillID: String,
        pluginVersion: String? = nil, pluginSHA256: String? = nil, argumentsJSON: String, status: CallStatus,
        resultJSON: String? = nil, summary: String? = nil, errorKind: String? = nil, error: String? = nil,
        startedMilliseconds: Int64, durationMilliseconds: Double? = nil, idempotencyKey: String? = nil,
        workerPID: Int64? = nil, frontEnd: String? = nil, client: String? = nil
    ) {
        self.frontEnd = frontEnd
        self.client = client
        self.rowID = rowID
        self.callID = callID
        self.sessionID = sessionID
        self.messagePosition = messagePosition
        self.skillID = skillID
        self.pluginVersion = pluginVersion
        self.pluginSHA256 = pluginSHA256
        self.argumentsJSON = argumentsJSON
        self.status = status
        self.resultJSON = resultJSON
        self.summary = summary
        self.errorKind = errorKind
        self.error = error
        self.startedMilliseconds = startedMilliseconds
        self.durationMilliseconds = durationMilliseconds
        self.idempotencyKey = idempotencyKey
        self.workerPID = workerPID
    }
}

/// How a finished call ended.
public struct CallOutcome: Sendable, Equatable {
    /// `succeeded`, `failed` or `replayed`.
    public var status: CallStatus
    /// Result JSON (already redacted).
    public var resultJSON: String?
    /// The card's line.
    public var summary: String?
    /// A `HostError` kind name for failures.
    public var errorKind: String?
    /// A failure's message.
    public var error: String?
    /// Milliseconds it ran.
    public var durationMilliseconds: Double
    /// When it really started, for a row written ahead (``HistoryStore/appendMessages(_:session:calls:)``).
    public var startedMilliseconds: Int64? = nil
    /// The idempotency key, for a row written ahead without one.
    public var idempotencyKey: String? = nil
    /// The plugin's version, for a row written ahead without one.
    public var pluginVersion: String? = nil
    /// The plugin file's SHA-256, for a row written ahead without one.
    public var pluginSHA256: String? = nil
    /// The pid of the worker process that ran the call (nil: it ran in the recording process, or never ran).
    public var workerPID: Int64? = nil

    /// An outcome with these parts.
    public init(
        status: CallStatus, resultJSON: String? = nil, summary: String? = nil, errorKind: String? = nil,
        error: String? = nil, durationMilliseconds: Double
    ) {
        self.status = status
        self.resultJSON = resultJSON
        self.summary = summary
        self.errorKind = errorKind
        self.error = error
        self.durationMilliseconds = durationMilliseconds
    }
}
