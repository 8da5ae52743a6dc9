import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C in `skillhost chat`: while a turn runs, SIGINT cancels it (and with it the running skills);
/// otherwise it ends the program with status 130.
final class InterruptHandler: Sendable {
    private let cancelCurrent = Mutex<(@Sendable () -> Void)?>(nil)
    /// Dispatch sources are thread-safe; the type is just not marked `Sendable`.
    private nonisolated(unsafe) let source: any DispatchSourceSignal

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in
            guard let cancel = self?.cancelCurrent.withLock({ $0 }) else {
                ChatRenderer.write("\n")
                exit(ExitCode.interrupted)
            }
            cancel()
        }
        source.resume()
    }

    deinit { source.cancel() }

    /// Runs `body` as the current turn, cancellable by Ctrl-C.
    func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        let task = Task { await body() }
        cancelCurrent.withLock { $0 = { task.cancel() } }
        defer { cancelCurrent.withLock { $0 = nil } }
        return await task.value
    }
}
