import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// At most one ``SpareWorker`` a host starts ahead of need, so a one-shot `skillhost call` overlaps the
/// worker's start-up with its own catalog, trust and permission gates (issue #9). The first worker launch
/// for the same executable adopts it (``WorkerPoolConfiguration/prestart``) and sends it the plugin to load;
/// a call refused by a gate never gets that far, so its plugin is never loaded, and ``shutdown()`` kills the
/// unused spare.
///
/// The spare is spawned on a thread of this object's own, which lives until ``shutdown()``: a worker's
/// death signal (`PR_SET_PDEATHSIG`) fires when the thread that spawned it ends, so that thread must outlive
/// every worker made from the spare. Shut the executors down first (``SkillHost/shutdown()`` does).
public final class WorkerPrestart: Sendable {
    private let thread = BlockingThread()
    private let spare = Mutex<SpareWorker?>(nil)

    public init() {}

    /// Starts a spare worker running `executable` (replacing an unused one), inside namespaces of its own when
    /// `namespaces` (a launch adopts it only when its sandbox wants the same). A spawn that fails leaves none:
    /// the launch then spawns as usual and reports the failure.
    public func start(executable: String, namespaces: Bool = KernelSandbox.namespacesWanted) async {
        let made = await thread.run { try? SpareWorker.start(executable: executable, namespaces: namespaces) }
        guard let made else { return }
        let previous = spare.withLock { current in
            defer { current = made }
            return current
        }
        previous?.discard()
    }

    /// Keeps `spare` (made by ``SpareWorker/forkEarly(executable:)``) for adoption, replacing an unused one.
    package func hold(_ spare: SpareWorker) {
        let previous = self.spare.withLock { current in
            defer { current = spare }
            return current
        }
        previous?.discard()
    }

    /// Whether a spare waits to be adopted.
    public var hasSpare: Bool { spare.withLock { $0 != nil } }

    /// The process id of the spare waiting to be adopted.
    package var sparePID: pid_t? { spare.withLock { $0?.pid } }

    /// The spare, when it runs `executable`; it is no longer held here.
    func take(executable: String) -> SpareWorker? {
        spare.withLock { current in
            guard let found = current, found.executable == executable else { return nil }
            current = nil
            return found
        }
    }

    /// Kills an unused spare and lets the spawning thread end. Call after every worker made from the spare
    /// was stopped.
    public func shutdown() async {
        let unused = spare.withLock { current in
            defer { current = nil }
            return current
        }
        unused?.discard()
        thread.finish()
    }
}
