import Synchronization

/// Runs an operation in its own task and returns whichever comes first: its result, the deadline, or the
/// caller's cancellation. The loser is cancelled and never awaited, so a skill that ignores cancellation
/// cannot hold up the turn (the host's worker process is what finally stops it).
///
/// The deadline covers execution only: with `startsTimer` false the clock starts when `operation` calls the
/// `startTimer` closure it is given (after the user answered an approval prompt, say), not when it starts.
enum DeadlineRace {
    /// The outcome of `operation`, or `onTimeout()` `seconds` after the timer started, or `onCancel()` if the
    /// calling task is cancelled first.
    static func run<T: Sendable>(
        seconds: Double,
        startsTimer: Bool = true,
        operation: @escaping @Sendable (_ startTimer: @escaping @Sendable () -> Void) async -> T,
        onTimeout: @escaping @Sendable () -> T,
        onCancel: @escaping @Sendable () -> T
    ) async -> T {
        let race = Race<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                race.start(continuation)
                if startsTimer { race.arm() }
                let work = Task {
                    let value = await operation { race.arm() }
                    race.finish(value)
                }
                let timer = Task {
                    await race.waitUntilArmed()
                    try? await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
                    if !Task.isCancelled { race.finish(onTimeout()) }
                }
                race.attach([work, timer])
            }
        } onCancel: {
            race.finish(onCancel())
        }
    }

    /// The shared state of one race: the continuation, resumed exactly once, and the tasks to cancel.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, Never>?
            var pending: T?
            var tasks: [Task<Void, Never>] = []
            var done = false
            /// Whether the timer runs; the timer task waits in `armWaiter` until then.
            var armed = false
            var armWaiter: CheckedContinuation<Void, Never>?
        }
        private let state = Mutex(State())

        func start(_ continuation: CheckedContinuation<T, Never>) {
            let early: T? = state.withLock { state in
                if let pending = state.pending {
                    state.pending = nil
                    return pending
                }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        func attach(_ tasks: [Task<Void, Never>]) {
            let cancelNow = state.withLock { state in
                state.tasks = tasks
                return state.done
            }
            if cancelNow { tasks.forEach { $0.cancel() } }
        }

        /// Starts the timer (once; later calls do nothing).
        func arm() {
            let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
                guard !state.armed else { return nil }
                state.armed = true
                defer { state.armWaiter = nil }
                return state.armWaiter
            }
            waiter?.resume()
        }

        /// Returns once the timer is armed, or at once when the waiting task is cancelled.
        func waitUntilArmed() async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let already = state.withLock { state in
                        if state.armed { return true }
                        state.armWaiter = continuation
                        return false
                    }
                    if already { continuation.resume() }
                }
            } onCancel: {
                arm()
            }
        }

        func finish(_ value: T) {
            let (continuation, tasks): (CheckedContinuation<T, Never>?, [Task<Void, Never>]) = state.withLock { state in
                guard !state.done else { return (nil, []) }
                state.done = true
                guard let continuation = state.continuation else {
                    state.pending = value  // cancelled before the continuation existed
                    return (nil, state.tasks)
                }
                state.continuation = nil
                return (continuation, state.tasks)
            }
            tasks.forEach { $0.cancel() }
            continuation?.resume(returning: value)
        }
    }
}
