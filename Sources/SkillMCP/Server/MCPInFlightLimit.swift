import Dispatch
import Synchronization

/// How many `tools/call`s the server holds at once (``MCPServerConfiguration/maximumCallsInFlight``): the
/// reading thread takes a place per call and blocks when all are taken, so a client that pipelines
/// without end cannot make the server queue without end.
///
/// A blocked reader is woken only once half the places are free again, not for every call that ends:
/// under a pipelined burst the reader then reads and starts half a limit of calls per wake-up instead of
/// one (a wake-up per call cost a context switch per call). Thread-safe.
package final class MCPInFlightLimit: Sendable {
    private struct State {
        var running = 0
        var waiting = 0
        var paused = false
    }

    /// Places in all.
    package let maximum: Int
    /// A blocked ``enter()`` resumes once at most this many places are taken.
    package let resumeAt: Int
    private let state = Mutex(State())
    private let wakeup = DispatchSemaphore(value: 0)

    package init(maximum: Int) {
        self.maximum = max(1, maximum)
        resumeAt = self.maximum / 2
    }

    /// Calls holding a place now.
    package var running: Int { state.withLock { $0.running } }

    /// Takes a place, blocking while all are taken (until at most ``resumeAt`` are).
    package func enter() {
        let mustWait = state.withLock { state in
            if state.running < maximum {
                state.running += 1
                return false
            }
            state.waiting += 1
            return true
        }
        if mustWait { wakeup.wait() }  // ``leave()`` took the place for this waiter
    }

    /// Takes a place without blocking, even past ``maximum``: for a caller that instead stops reading
    /// input while ``pausesInput()`` says so (the stdio transport's read loop, which must keep running
    /// the calls that free places).
    package func enterWithoutWaiting() {
        state.withLock { $0.running += 1 }
    }

    /// Whether a reader using ``enterWithoutWaiting()`` should stop reading input now: from the moment
    /// all places are taken until at most ``resumeAt`` are.
    package func pausesInput() -> Bool {
        state.withLock { state in
            if state.running >= maximum {
                state.paused = true
            } else if state.paused, state.running <= resumeAt {
                state.paused = false
            }
            return state.paused
        }
    }

    /// Gives a place back; wakes the blocked callers once enough places are free.
    package func leave() {
        let woken = state.withLock { state in
            state.running -= 1
            guard state.waiting > 0, state.running <= resumeAt else { return 0 }
            let woken = state.waiting
            state.running += woken
            state.waiting = 0
            return woken
        }
        for _ in 0..<woken { wakeup.signal() }
    }
}
