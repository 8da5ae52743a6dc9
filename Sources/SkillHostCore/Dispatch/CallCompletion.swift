import Synchronization

/// Delivers the first of several racing outcomes (the plugin thread finishing, the timeout, task
/// cancellation) to one awaiting task; later outcomes are dropped.
package final class CallCompletion<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<Value, HostError>, Never>?
        var result: Result<Value, HostError>?
    }

    private let state = Mutex(State())

    /// Waits for nothing yet.
    package init() {}

    /// Waits for the first outcome.
    package func wait() async -> Result<Value, HostError> {
        await withCheckedContinuation { continuation in
            let ready: Result<Value, HostError>? = state.withLock { state in
                if let result = state.result {
                    return result
                }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Offers an outcome; ignored when one was offered before.
    package func finish(_ result: Result<Value, HostError>) {
        let continuation: CheckedContinuation<Result<Value, HostError>, Never>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            guard let continuation = state.continuation else { return nil }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(returning: result)
    }
}
