import CSandbox
#if canImport(Glibc)
import Glibc
#endif

extension SpareWorker {
    /// Which side of ``forkEarly(executable:)`` returned.
    package enum EarlyFork {
        /// The host: the child is its spare.
        case parent(SpareWorker)
        /// The child: its stdin and stdout are the frame pipes and the shared slot is descriptor 3; go on as
        /// `__worker --await-load`.
        case child
        /// No fork (the process already has threads, or a system call failed): spawn a spare instead.
        case unavailable
    }

    /// Forks this process into a spare worker, for a one-shot `skillhost call`, while the process still has
    /// one thread (first thing in `main`): the child skips the exec, the loader's relocations and the
    /// runtime's start that a spawned `__worker` pays (issue #9), then waits for its ``WorkerLoadOrder`` like
    /// any spare and from there starts exactly as a spawned worker does (sandbox and death signal first).
    /// The child gets the same descriptors a spawned worker gets: frame pipes on 0 and 1, a stderr pipe the
    /// host reads on 2, the shared slot on 3; anything else the host had open is closed by the worker's own
    /// descriptor hygiene, as for a spawned worker. It starts a session of its own and replaces the
    /// environment it inherited — the strings too, not only `environ` — with a worker's
    /// (``WorkerEnvironment/replaceInheritedEnvironment()``): the host's secrets never reach plugin code.
    /// - Parameter executable: this process's executable (the spare may only be adopted for it).
    package static func forkEarly(executable: String) -> EarlyFork {
        guard (Posix.directoryEntries("/proc/self/task")?.count ?? 0) == 1 else { return .unavailable }
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { return .unavailable }
        guard pipe(&fromChild) == 0, pipe(&errors) == 0 else {
            (toChild + fromChild).filter { $0 >= 0 }.forEach { close($0) }
            return .unavailable
        }
        for end in toChild + fromChild + errors { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let slot = SharedCallSlot.create()
        let namespaces = KernelSandbox.namespacesWanted
        let pid = fork()
        if pid < 0 {
            (toChild + fromChild + errors).forEach { close($0) }
            return .unavailable
        }
        if pid == 0 {
            // The child: the layout of a spawned worker (frames on 0 and 1, stderr a pipe, the slot on 3),
            // nothing else kept; no terminal, and none of the host's environment.
            _ = setsid()
            WorkerEnvironment.replaceInheritedEnvironment()
            guard WorkerDescriptors.installInForkedChild(
                frameInput: (toChild[0], toChild[1]), frameOutput: (fromChild[0], fromChild[1]),
                errors: (errors[0], errors[1]), slot: slot)
            else { _exit(WorkerServer.protocolFailureStatus) }
            // Namespaces now, before the child has touched anything a later fork would make it fault in again
            // (this process stays outside as their supervisor; only the sandboxed child returns).
            if namespaces {
                guard skh_die_with_parent() == 0, skh_namespaces_enter_early(0, ResourceLimits.defaults.processes ?? 0) >= 0 else { _exit(WorkerServer.protocolFailureStatus) }
            }
            return .child
        }
        close(toChild[0])
        close(fromChild[1])
        close(errors[1])
        let child = Posix.PipedChild(pid: pid, input: toChild[1], output: fromChild[0], errors: errors[0])
        return .parent(SpareWorker(executable: executable, child: child, slot: slot, namespaces: namespaces))
    }
}
