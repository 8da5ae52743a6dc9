import SkillHostCore
import SkillJSON

/// Where the tools come from and where their calls go: the host (``HostSkillBackend``), the agent's
/// instruction-skill tools on top of it, or a test's skills in memory. Every front end reaches it through
/// ``ToolCaller`` only.
///
/// Implementation requirements: thread-safe (calls run at once). ``tools()`` and ``prepare(skillID:arguments:)``
/// may block on file I/O. ``tools()`` may also block until MCP servers answer (``MCPSourceBackend``), work
/// that needs a thread of Swift's concurrency pool: so it is for threads the caller owns, and async code
/// lists with ``listTools()``, which suspends instead (the compiler refuses ``tools()`` there; a backend
/// over another implements both, each calling the same one of the other). ``prepare(skillID:arguments:)`` checks
/// everything that needs nobody (the skill is known and enabled, the arguments are a JSON object valid
/// against its schema) and says whether approval is needed; ``run(_:options:)`` runs a prepared call that
/// was allowed, with its skill's timeout counted from then (``CallDeadline``), and stops when its task is
/// cancelled. Every failure is a ``HostError``, never a crash.
public protocol SkillBackend: Sendable {
    /// The enabled skills, as tools; blocks this thread while MCP servers are asked (call it from threads you
    /// own).
    @available(*, noasync, message: "use 'await listTools()': waiting for MCP servers here would block a thread of the concurrency pool")
    func tools() throws(HostError) -> [SkillTool]
    /// The enabled skills, as tools, for async code: waits for MCP servers by suspending, never by blocking
    /// a thread of the concurrency pool.
    nonisolated(nonsending) func listTools() async throws(HostError) -> [SkillTool]
    /// Checks a call of `skillID` with `arguments` without running anything.
    func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall
    /// Runs a prepared call and returns the skill's result JSON.
    nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue
    /// The backend whose ``run(_:options:)`` runs `call` itself: a backend that hands the calls it does not
    /// own to another (scripts, workflows, MCP sources over the host) returns that one's runner, so
    /// ``ToolCaller`` runs a call through one `async` frame instead of one per layer. Cheap and without side
    /// effects; a backend that cannot tell cheaply returns itself (its `run` forwards as before).
    func runner(for call: PreparedCall) -> any SkillBackend
    /// How many calls of each skill (by id) may run at once; skills not named are not limited here. Called
    /// with ``tools()``, from threads the caller owns.
    func callLimits() throws(HostError) -> [String: CallLimit]
    /// The caller read new requests: calls started from now on may share one look at the backend's inputs
    /// (see ``SkillHost/beginCallBatch()``). Cheap; a server calls it per read.
    func inputArrived()
}

extension SkillBackend {
    /// ``tools()`` as is: right for a backend that waits for nothing but files (a backend over another
    /// forwards to the other's ``listTools()`` instead).
    public nonisolated(nonsending) func listTools() async throws(HostError) -> [SkillTool] { try blockingTools() }

    /// ``tools()`` (a synchronous frame: ``listTools()``'s default calls it knowing it waits for no pool work).
    private func blockingTools() throws(HostError) -> [SkillTool] { try tools() }

    /// Runs every call itself.
    public func runner(for call: PreparedCall) -> any SkillBackend { self }

    /// No limits of its own.
    public func callLimits() throws(HostError) -> [String: CallLimit] { [:] }
    /// Nothing to share.
    public func inputArrived() {}
}

/// How many calls of a group of skills may be inside the backend at once: the host's worker pool runs
/// `max_workers` calls of a plugin at a time and counts the wait for a free worker against the skill's
/// timeout, so a server keeps the rest of a pipelined burst waiting in its own line instead (that wait is not
/// timed).
public struct CallLimit: Sendable, Equatable {
    /// Skills with the same group share the limit (the host: one plugin file and isolation mode).
    public var group: String
    /// Calls at once.
    public var limit: Int
    /// The group's name with its hash, taken once here (a group names a plugin file by its path).
    public var key: GroupKey { GroupKey(name: group, hash: groupHash) }
    private var groupHash: Int

    /// A limit.
    public init(group: String, limit: Int) {
        self.group = group
        self.limit = max(1, limit)
        groupHash = group.hashValue
    }

    /// A group's name with its hash.
    public struct GroupKey: Hashable, Sendable {
        let name: String
        let hash: Int

        public static func == (lhs: GroupKey, rhs: GroupKey) -> Bool { lhs.hash == rhs.hash && lhs.name == rhs.name }
        public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }
}
