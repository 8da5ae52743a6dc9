import CSandbox
#if canImport(Glibc)
import Glibc
#endif

/// The worker's side of the sandbox: enters the ``SandboxPolicy`` it was started with before any plugin
/// code runs, and kills whatever the plugin left behind when the worker ends.
///
/// Landlock restricts the calling thread and the threads it creates later, and a user namespace needs a
/// process with one thread, so the sandbox is entered first thing in the worker process
/// (``enterEarly(workerArguments:)``, called from the CLI's entry point); ``WorkerServer`` then only asks for
/// the outcome (``failure(for:)``).
public enum WorkerSandbox {
    /// How entering went: nil = not tried.
    nonisolated(unsafe) private static var outcome: Result<SandboxEntry.Entered, SandboxEntry.Failure>?
    nonisolated(unsafe) private static var entered: SandboxPolicy?

    /// Enters the sandbox described by the `--sandbox …` words among a worker's arguments (the words after
    /// `__worker`); with none (`sandbox: off`) only arms the death signal and leaves the user's terminal (a
    /// session of its own). Call before anything starts a thread.
    public static func enterEarly(workerArguments: [String]) {
        // Every worker dies with its host, sandboxed or not: a host killed with SIGKILL cannot stop them.
        _ = skh_die_with_parent()
        let (limits, afterLimits) = ResourceLimits.parse(workerArguments: workerArguments)
        let (policy, rest) = SandboxPolicy.parse(workerArguments: afterLimits)
        guard let policy, let plugin = rest.first else {
            _ = setsid()
            return
        }
        outcome = SandboxEntry.enter(policy, executables: [plugin], processLimit: limits.processes)
        if case .success = outcome {
            entered = policy
            if policy.processes { skh_kill_descendants_on_sigterm() }
        }
    }

    /// Whether the worker runs in a user namespace of its own (its process limit then counts only its own).
    static var inUserNamespace: Bool {
        if case .success(let entered)? = outcome { return entered.namespaces & Int32(SKH_NS_USER.rawValue) != 0 }
        return false
    }

    /// Why the worker must not load its plugin under `policy`, or nil when it may.
    static func failure(for policy: SandboxPolicy?, pluginPath: String) -> String? {
        guard policy != nil else { return nil }
        switch outcome {
        case nil:
            return "the sandbox was not entered before the worker started (skillhost __worker must call WorkerSandbox.enterEarly first); the plugin was not loaded"
        case .failure(let failure)?:
            return "\(failure.message); the plugin was not loaded. To run it anyway set its registry \"sandbox\" to \"best-effort\" or \"off\" (docs/registry.md)"
        case .success?:
            return nil
        }
    }

    /// Kills every process the plugin started (and, as subreaper, every orphan of theirs). Called when the
    /// worker ends; SIGTERM does the same through a handler installed when processes are allowed. In a PID
    /// namespace the supervisor kills the whole namespace afterwards as well.
    public static func killLeftovers() {
        guard entered?.processes == true else { return }
        skh_kill_descendants(64)
    }
}
