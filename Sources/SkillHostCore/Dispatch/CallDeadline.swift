/// The one clock of a call: its skill's time limit, counted from when the skill starts. The host makes it
/// when it dispatches a call (``SkillHost/execute(_:options:)``), after every check and after approval,
/// which may wait on a person: waiting for a person is not the skill's time. Every executor measures
/// against it (the in-process executor's timer, the worker pool's wait for a worker and the worker's
/// reply), hands it to the plugin as `deadline_unix_ms`, and reports a missed deadline with
/// ``timeout(_:pluginID:after:detail:)``, the one wording of a timeout.
///
/// A call queued inside a worker behind other calls (a pipelined caller, `WorkerSlot+Queue.swift`) has
/// its clock ``restarted()`` when the worker can start it.
public struct CallDeadline: Sendable, Equatable {
    /// The limit in seconds (the manifest's timeout or the registry's).
    public let seconds: Double
    /// When the clock started (CLOCK_MONOTONIC nanoseconds).
    public let startNanoseconds: UInt64
    /// The same moment in Unix milliseconds (what the plugin's deadline is measured from).
    public let startUnixMilliseconds: Int64

    /// A clock of `seconds` (the default timeout when not positive) starting now.
    public init(seconds: Double) {
        self.seconds = seconds > 0 ? seconds : SkillDefaults.timeout
        startNanoseconds = Posix.monotonicNanoseconds()
        startUnixMilliseconds = Posix.unixMilliseconds()
    }

    /// The deadline on CLOCK_MONOTONIC, in nanoseconds.
    public var nanoseconds: UInt64 { startNanoseconds &+ UInt64(seconds * 1e9) }
    /// The deadline in Unix milliseconds: the plugin's `deadline_unix_ms`.
    public var unixMilliseconds: Int64 { startUnixMilliseconds + Int64(seconds * 1000) }
    /// Whether it has passed.
    public var hasPassed: Bool { Posix.monotonicNanoseconds() >= nanoseconds }
    /// Seconds left (0 once passed).
    public var remainingSeconds: Double {
        let now = Posix.monotonicNanoseconds()
        return now >= nanoseconds ? 0 : Double(nanoseconds - now) / 1e9
    }
    /// Seconds since the clock started.
    public var elapsedSeconds: Double { Double(Posix.monotonicNanoseconds() &- startNanoseconds) / 1e9 }

    /// The same limit, starting now.
    public func restarted() -> CallDeadline { CallDeadline(seconds: seconds) }

    /// The error of a call that missed this deadline: "skill X timed out after N s (limit L s); DETAIL.
    /// Raise plugins.P.skills.X.timeout in the registry if it needs longer". `detail` says what was done
    /// about it (the worker was stopped, the plugin was asked to stop, …).
    public func timeout(_ skillID: String, pluginID: String, after elapsed: Double? = nil, detail: String) -> HostError {
        let waited = SecondsText.format(elapsed ?? elapsedSeconds)
        return HostError(
            .timeout,
            "skill \(skillID) timed out after \(waited) s (limit \(SecondsText.format(seconds)) s); \(detail). Raise "
                + "\(Registry.settingPath(pluginID: pluginID, skillID: skillID, key: "timeout")) in the registry if it needs longer",
            skillID: skillID, pluginID: pluginID)
    }
}
