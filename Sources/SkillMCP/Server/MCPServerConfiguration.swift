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
