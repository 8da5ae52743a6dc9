import SkillJSON

/// How an ``MCPServer`` behaves.
public struct MCPServerConfiguration: Sendable {
    /// `serverInfo.name`.
    public var name: String
    /// `serverInfo.version`.
    public var version: String
    /// `instructions` of `initialize` and `server/discover`.
    public var instructions: String?
    /// Who allows write and dangerous skills.
    public var approval: MCPApprovalPolicy
    /// Items per page of the list methods.
    public var pageSize: Int
    /// A call that runs this long gets `notifications/progress` (when the client sent a `progressToken`),
    /// and again at each further interval.
    public var progressInterval: Duration
    /// Calls in flight at once; more wait to be read (the worker pool bounds what really runs).
    public var maximumCallsInFlight: Int
    /// How tools are named: portable names (`clock_now`, what every model API accepts; the default) or the
    /// skill ids (`clock.now`). `tools/call` takes either.
    public var toolNames: MCPToolNaming = .portable
    /// `ttlMs` of cacheable results of the stateless revision (lists, `server/discover`).
    public var listTTLMilliseconds = 30_000
    /// What the server's call ids start with (they must be unique per call in the history): nil for the
    /// caller's session id; servers that share a caller (HTTP sessions) each get their own.
    public var callIDPrefix: String?
    /// Logs one line per request (method, tool, time, outcome).
    public var verbose = false
    /// The key that seals approval questions' `requestState` (every replica must have the same); nil: a
    /// random key of this process.
    public var requestStateKey: [UInt8]?

    /// A configuration.
    public init(
        name: String = "skillhost", version: String = "0.1.0", instructions: String? = nil,
        approval: MCPApprovalPolicy, pageSize: Int = 100, progressInterval: Duration = .seconds(2),
        maximumCallsInFlight: Int = 1024
    ) {
        self.name = name
        self.version = version
        self.instructions = instructions
        self.approval = approval
        self.pageSize = pageSize
        self.progressInterval = progressInterval
        self.maximumCallsInFlight = maximumCallsInFlight
    }
}

/// How `tools/list` names tools.
public enum MCPToolNaming: String, Sendable, CaseIterable {
    /// `[A-Za-z0-9_-]{1,64}`: what OpenAI's API and most providers accept (`clock_now`).
    case portable
    /// The skill ids (`clock.now`), MCP's wider grammar.
    case ids
}
