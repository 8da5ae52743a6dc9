import Foundation
import Glibc
import SkillPosix
import Synchronization

/// Polls the status of a few files and folders (the registry, the plugins folder, skill folders) on a
/// thread of its own and calls `onChange` when any of them changed: created, removed, replaced (the
/// registry's atomic rename), modified, or an entry added or removed. A poll costs one `stat` per path
/// and entry (folders to depth 3, at most 4,096 entries), so four polls a second are cheap. A change the
/// files do not show (an MCP server's `notifications/tools/list_changed`) is reported with ``poke()``: the
/// next poll calls `onChange` on the same thread.
public final class MCPChangeWatcher: Sendable {
    /// What is watched.
    public let paths: [String]
    /// Time between polls.
    public let interval: Duration
    private let onChange: @Sendable () -> Void
    private let stopped = Mutex(false)
    private let poked = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// A watcher; call ``start()`` to begin polling.
    public init(paths: [String], interval: Duration = .milliseconds(250), onChange: @escaping @Sendable () -> Void) {
        self.paths = paths
        self.interval = interval
        self.onChange = onChange
    }

    /// Takes the first status now (so a change right after this call is seen) and starts the polling thread.
    public func start() {
        let baseline = fingerprint()
        let thread = Thread { [self] in run(from: baseline) }
        thread.name = "skillhost-mcp-watch"
        thread.start()
    }

    /// Something changed that the files do not show: the next poll (within ``interval``) calls `onChange`,
    /// on the watcher's thread. Any thread may call it; pokes before that poll count once.
    public func poke() {
        poked.store(true, ordering: .releasing)
    }

    /// Stops polling and waits for the thread to end.
    public func stop() {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        if !wasStopped { finished.wait() }
    }

    private func run(from baseline: [String: Posix.FileIdentity]) {
        var last = baseline
        let micros = UInt32(max(1, interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000))
        while !stopped.withLock({ $0 }) {
            usleep(micros)
            let now = fingerprint()
            let wasPoked = poked.exchange(false, ordering: .acquiringAndReleasing)
            if now != last || wasPoked {
                last = now
                onChange()
            }
        }
        finished.signal()
    }

    /// The identity of every watched path and its entries (`Posix.FileIdentity`: a `chmod` counts too,
    /// since it changes what the permission gate decides).
    func fingerprint() -> [String: Posix.FileIdentity] {
        var result: [String: Posix.FileIdentity] = [:]
        var budget = 4096
        for path in paths { add(path, depth: 0, to: &result, budget: &budget) }
        return result
    }

    private func add(_ path: String, depth: Int, to result: inout [String: Posix.FileIdentity], budget: inout Int) {
        guard budget > 0 else { return }
        budget -= 1
        let identity = Posix.FileIdentity(path: path)
        result[path] = identity
        guard !identity.isMissing, identity.mode & UInt32(S_IFMT) == UInt32(S_IFDIR), depth < 3,
            let entries = Posix.directoryEntries(path)
        else { return }
        for name in entries { add(path + "/" + name, depth: depth + 1, to: &result, budget: &budget) }
    }
}
