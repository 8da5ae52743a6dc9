#if canImport(Glibc)
import Glibc
#endif

/// A worker process started before the host knows which plugin it will serve: `skillhost __worker
/// --await-load`, with its frame pipes and shared-memory slot set up as for any worker. It starts its runtime
/// while the host checks the catalog, trust and permissions, and waits on stdin for a ``WorkerLoadOrder``.
///
/// Handed to ``WorkerProcess/launch(executable:pluginPath:limits:startupTimeout:sandbox:spare:started:)``,
/// which sends the order and from then on owns the process and its descriptors. Not adopted, it is
/// ``discard()``ed: it never loaded anything, so it is killed at once.
package final class SpareWorker: @unchecked Sendable {
    /// The executable it runs; only a launch of the same executable may adopt it.
    package let executable: String
    let child: Posix.PipedChild
    let slot: SharedCallSlot?
    /// Its stderr, read from the start; the adopting launch names the plugin it now serves.
    let output: PluginOutputCollector.Source?
    /// Whether it entered its sandbox's namespaces at start: only a launch whose sandbox wants them may adopt it
    /// (and only one that wants none may adopt a spare without).
    package let namespaces: Bool
    /// Set when a ``WorkerProcess`` took over the descriptors.
    private var adopted = false

    init(executable: String, child: Posix.PipedChild, slot: SharedCallSlot?, namespaces: Bool) {
        self.executable = executable
        self.child = child
        self.slot = slot
        self.namespaces = namespaces
        output = child.errors >= 0 ? PluginOutputCollector.shared.read(child.errors, label: "spare worker", sink: .discard) : nil
    }

    deinit {
        if !adopted {
            close(child.input)
            close(child.output)
        }
    }

    /// Spawns `executable __worker --await-load --sb-ns 0|1` (inside namespaces of its own when `namespaces`:
    /// by default when this host wants them, ``KernelSandbox/namespacesWanted``). Spawn from a thread that outlives the worker: the
    /// death signal a worker arms (`PR_SET_PDEATHSIG`) follows the thread that started it.
    package static func start(executable: String, namespaces: Bool = KernelSandbox.namespacesWanted) throws(HostError) -> SpareWorker {
        let (child, slot) = try WorkerDescriptors.spawn(
            executable, arguments: ["__worker", WorkerLoadOrder.awaitFlag, "--sb-ns", namespaces ? "1" : "0"],
            environment: WorkerEnvironment.base(), namespaces: namespaces)
        return SpareWorker(executable: executable, child: child, slot: slot, namespaces: namespaces)
    }

    /// The process id.
    package var pid: pid_t { child.pid }

    /// Hands the descriptors to the ``WorkerProcess`` that adopts this spare (it closes them from now on).
    func markAdopted() {
        adopted = true
    }

    /// Kills the unused spare (it has loaded nothing) and reaps it; `reaped` when it was reaped already.
    package func discard(reaped: Bool = false) {
        guard !adopted else { return }
        adopted = true
        close(child.input)
        close(child.output)
        if reaped { return }
        Posix.sendSignal(SIGKILL, to: child.pid)
        _ = Posix.reap(child.pid, waitingUpTo: nil)
    }
}
