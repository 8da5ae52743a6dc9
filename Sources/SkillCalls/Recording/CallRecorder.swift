import SkillHostCore
import SkillJSON

/// Where ``ToolCaller`` reports each call as it happens (started, then finished) and asks whether a call
/// needs to run at all. ``StoreCallRecorder`` writes to the SQLite history of a process that keeps it open
/// (`chat`, `mcp`); ``DetachedCallRecorder`` leaves each call for the next process that opens it (`call`);
/// without a recorder nothing is kept.
///
/// Implementation requirements: thread-safe (calls run at once); quick (it is on every call's path); never
/// throws: a recorder that cannot write reports the problem through its own sink.
public protocol CallRecorder: Sendable {
    /// Decides before `call` runs: run it, return an earlier result (replay), or ask the user first.
    func decision(for call: RecordedCall) -> CallDecision
    /// `call` is about to run (or be replayed); returns a handle for ``callFinished(_:call:outcome:)``.
    func callStarted(_ call: RecordedCall) -> CallHandle
    /// `call` ended with `outcome`.
    func callFinished(_ handle: CallHandle, call: RecordedCall, outcome: ToolCallOutcome)
}

/// A recorder's reference to one started call.
public struct CallHandle: Sendable, Equatable {
    /// The recorder's id for the call (a database row id), or nil when it could not record it.
    public var id: Int64?
    /// When the call really started, for a row written ahead of it.
    public var startedMilliseconds: Int64?
    /// Whether the row already holds the call's idempotency key (so the finish need not write it).
    public var storedIdempotencyKey = false
    /// Whether the call has no row yet: the recorder writes it whole when the call finishes (``id`` is nil).
    public var writtenAtFinish = false

    /// A handle with this id.
    public init(id: Int64?, startedMilliseconds: Int64? = nil, storedIdempotencyKey: Bool = false, writtenAtFinish: Bool = false) {
        self.id = id
        self.startedMilliseconds = startedMilliseconds
        self.storedIdempotencyKey = storedIdempotencyKey
        self.writtenAtFinish = writtenAtFinish
    }
}

/// What ``ToolCaller`` knows about one call before it runs: the request as the front end made it, its
/// arguments parsed, its session, and what the recorder and the run add (the key, the worker).
public struct RecordedCall: Sendable {
    /// The request: tool name and tool, arguments as given, call id, who made it.
    public var request: ToolCallRequest
    /// The arguments, parsed (nil when they are not JSON: the request's text is what is stored).
    public var arguments: JSONValue?
    /// The session.
    public var sessionID: String
    /// The key of this logical call (``IdempotencyKey``), set from the recorder's decision; handed to the
    /// skill through its call context.
    public var idempotencyKey: String?
    /// The pid of the worker process that ran the call, once it has run (nil: it ran in this process, was
    /// not run, or its backend does not say).
    public var workerPID: Int32?

    /// A call of `request` in `sessionID`, its arguments parsed as `arguments`.
    public init(_ request: ToolCallRequest, arguments: JSONValue?, sessionID: String) {
        self.request = request
        self.arguments = arguments
        self.sessionID = sessionID
    }

    /// The caller's call id.
    public var callID: String { request.callID }
    /// The tool called, nil for an unknown tool.
    public var tool: SkillTool? { request.tool }
    /// The skill it is recorded under (the tool's, or ``ToolCallRequest/recordedSkillID``), nil for an unknown tool.
    public var skillID: String? {
        guard let tool = request.tool else { return nil }
        return request.recordedSkillID ?? tool.id
    }
}

/// What to do with a call before it runs.
public enum CallDecision: Sendable, Equatable {
    /// Run it, under this idempotency key (nil: the backend chooses one).
    case run(idempotencyKey: String?)
    /// Do not run it: an earlier call with the same key succeeded with `result`.
    case replay(result: JSONValue, idempotencyKey: String)
    /// An earlier call with the same key of this non-idempotent skill failed (`reason`): it may have taken
    /// effect, so ask the user before running it again.
    case confirmRetry(reason: String, idempotencyKey: String)

    /// The key the decision gives the call.
    public var idempotencyKey: String? {
        switch self {
        case .run(let key): return key
        case .replay(_, let key), .confirmRetry(_, let key): return key
        }
    }
}
