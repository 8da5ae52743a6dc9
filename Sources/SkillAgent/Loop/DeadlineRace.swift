import Synchronization

/// Runs an operation in its own task and returns whichever comes first: its result, the deadline, or the
/// caller's cancellation. The loser is cancelled and never awaited, so a skill that ignores cancellation
/// cannot hold up the turn (the host's worker process is what finally stops it).
enum DeadlineRace {
    /// The outcome of `operation`, or `onTimeout()` after `seconds`, or `onCancel()` if the calling task is
    /// cancelled first.
    static func run<T: Sendable>(
        seconds: Double,
        operation: @escaping @Sendable () async -> T,
        onTimeout: @escaping @Sendable () -> T,
        onCancel: @escaping @Sendable () -> T
    ) async -> T {
        let race = Race<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                race.start(continuation)
                let work = Task {
                    let value = await operation()
                    race.finish(value)
                }
                let timer = Task {
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
