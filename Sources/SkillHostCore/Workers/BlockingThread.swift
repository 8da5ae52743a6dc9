import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread the host owns, for work that blocks: waiting on a worker's pipe, or running the worker's serve
/// loop. Blocking calls never run on the Swift concurrency pool, which has one thread per core and would
/// deadlock on a 2-core machine.
///
/// Jobs run one after another in submission order. Thread-safe.
package final class BlockingThread: @unchecked Sendable {
    private let jobs = Mutex<(queue: [@Sendable () -> Void], finished: Bool)>(([], false))
    private let wakeup: UnsafeMutablePointer<sem_t>

    /// Starts the thread.
    package init() {
        wakeup = .allocate(capacity: 1)
        sem_init(wakeup, 0, 0)
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let owner = Unmanaged<BlockingThread>.fromOpaque(raw!).takeRetainedValue()
            owner.loop()
            return nil
        }, box)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }

    deinit {
        sem_destroy(wakeup)
        wakeup.deallocate()
    }

    /// Queues `job`; it runs on this thread after the jobs queued before it. Returns false (and drops the
    /// job) once ``finish()`` was called.
    @discardableResult
    package func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = jobs.withLock { state in
            if state.finished { return false }
            state.queue.append(job)
            return true
        }
        if accepted { sem_post(wakeup) }
        return accepted
    }

    /// Lets the thread end once its queued jobs have run.
    package func finish() {
        jobs.withLock { $0.finished = true }
        sem_post(wakeup)
    }

    /// Runs `body` on this thread and suspends the calling task until it returns. After ``finish()``, runs
    /// it on a new thread instead.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withUnsafeContinuation { continuation in
            if !submit({ continuation.resume(returning: body()) }) {
                let fallback = BlockingThread()
                fallback.submit { continuation.resume(returning: body()) }
                fallback.finish()
            }
        }
    }

    /// Runs `body` on a new thread of its own (ended afterwards) and suspends the calling task until it
    /// returns.
    package static func runDetached<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        let thread = BlockingThread()
        defer { thread.finish() }
        return await thread.run(body)
    }

    private func loop() {
        while true {
            while sem_wait(wakeup) != 0 && errno == EINTR {}
            let next: (@Sendable () -> Void)?? = jobs.withLock { state in
                if !state.queue.isEmpty { return state.queue.removeFirst() }
                return state.finished ? .some(nil) : .none
            }
            switch next {
            case .some(.some(let job)): job()
            case .some(.none): return
            case .none: continue
            }
        }
    }
}
