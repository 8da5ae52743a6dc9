/// Which calls `skillhost trace` (and ``HistoryStore/calls(matching:)``) returns: newest first.
public struct TraceFilter: Sendable, Equatable {
    /// Only this skill.
    public var skillID: String?
    /// Only this session.
    public var sessionID: String?
    /// Only failed, interrupted (and still running) calls.
    public var failedOnly: Bool
    /// Only calls started at or after these Unix milliseconds.
    public var sinceMilliseconds: Int64?
    /// At most this many.
    public var limit: Int

    /// A filter; by default the newest 50 calls.
    public init(
        skillID: String? = nil, sessionID: String? = nil, failedOnly: Bool = false, sinceMilliseconds: Int64? = nil,
        limit: Int = 50
    ) {
        self.skillID = skillID
        self.sessionID = sessionID
        self.failedOnly = failedOnly
        self.sinceMilliseconds = sinceMilliseconds
        self.limit = max(1, limit)
    }
}

/// Numbers about one skill's recent calls (`skillhost inspect`).
public struct SkillCallStats: Sendable, Equatable {
    /// Calls recorded.
    public var calls: Int
    /// Of those, failed or interrupted.
    public var failures: Int
    /// Median duration of finished calls, milliseconds.
    public var p50Milliseconds: Double?
    /// 95th percentile duration of finished calls, milliseconds.
    public var p95Milliseconds: Double?
}
