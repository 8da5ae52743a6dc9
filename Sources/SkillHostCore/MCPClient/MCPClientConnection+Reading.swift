import Foundation
import SkillJSON
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reading a stdio server's answers, and the requests' deadlines. The connection's reading thread waits
/// (`poll`) for the server's stdout and for the next deadline; a call loop that collects replies
/// (``CallReplyPoller``: `skillhost mcp`) also watches and reads the stdout, without blocking, while its call
/// waits: the answer then resumes the call on the loop's own thread, with no hand-off. Whoever reads holds ``reading``
/// while it reads and handles the lines, so every line is handled once and in order; the other finds
/// nothing to read. The end of the output (and what follows it: the exit status, failing what waits) is
/// the thread's alone. While a loop calls one request after another, the thread is parked (``parkSeconds``):
/// it sleeps on its wake-up and the deadlines alone, so an answer wakes the loop only.
extension MCPClientConnection {
    /// What was read of the stdout and not yet handled.
    struct Reading {
        /// The start of a line whose end has not come yet.
        var partial: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        /// Nothing more is read: the output ended, or a message grew too large (``oversized``).
        var over = false
        var oversized = false
        /// The reading thread closed the descriptor.
        var closed = false
    }

    /// How long a call loop looks for an answer before it leaves the wait to the reading thread: as long as
    /// a worker reply is polled for (a quick server answers well within it).
    static let pollNanoseconds: UInt64 = 2_000_000

    /// How long after a call loop last sent a request it watches the reading thread stays parked (sleeps on
    /// its wake-up alone, so the answers wake only the loop): while a client calls one tool after another it
    /// wakes this often, not per answer; when calls stop, it reads the output again within this time (what
    /// the server writes between calls, its end, waits at most that long).
    static let parkSeconds = 0.01

    /// The reading thread: handles what the server writes until its stdout ends, fails requests that are
    /// due, then reports how the server ended.
    func readLoop() {
        let wake = wakeup?.descriptor ?? -1
        // The wake-up first: parked, the thread polls it alone (without one, -1: poll skips it).
        var descriptors = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0), pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
        var drained = [UInt8](repeating: 0, count: 64)
        while true {
            let (milliseconds, parked) = planWake(canPark: wake >= 0)
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            if poll(&descriptors, parked ? 1 : 2, milliseconds) < 0, errno != EINTR { break }
            if descriptors[0].revents != 0 {
                _ = Posix.readSome(wake, into: &drained)
                // A call loop read the end of the output.
                if reading.withLock({ $0.over }) { break }
            }
            if descriptors[1].revents != 0, !reading.withLock({ readAvailable(&$0) }) { break }
            failLateRequests()
        }
        let oversized = reading.withLock { reading in
            reading.over = true
            reading.closed = true
            Glibc.close(output)
            return reading.oversized
        }
        if oversized {
            fail(HostError(.skillFailed, "MCP server \(name) sent a message of more than \(Self.maximumMessageBytes >> 20) MiB; it was stopped", pluginID: name))
            close()
        }
        // How it ended: its exit status (waited for briefly) and its last words.
        let ended = reapOnce(waitingUpTo: 500)
        let how = ended.map { "ended (\($0.description))" } ?? "closed its output"
        let tail = lastErrors(waitingUpTo: 250).suffix(3).joined(separator: " | ")
        fail(HostError(.pluginCrashed, "MCP server \(name) \(how)\(tail.isEmpty ? "" : ": \(tail)")", pluginID: name))
    }

    /// Reads what the server wrote, without blocking, and handles each whole line (the caller holds
    /// ``reading``). False once nothing more will be read (the output ended, or a message is too large).
    func readAvailable(_ reading: inout Reading) -> Bool {
        guard !reading.over else { return false }
        while true {
            let count = reading.chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return true }
            }
            guard count > 0 else { return stop(&reading) }
            var start = 0
            // Whole lines in the chunk are handled where they lie; only a line's start is kept for later.
            while let newline = reading.chunk[start..<count].firstIndex(of: UInt8(ascii: "\n")) {
                if reading.partial.isEmpty {
                    if newline > start { receive(reading.chunk[start..<newline]) }
                } else {
                    reading.partial += reading.chunk[start..<newline]
                    receive(reading.partial[...])
                    reading.partial.removeAll(keepingCapacity: true)
                }
                start = newline + 1
            }
            reading.partial += reading.chunk[start..<count]
            if reading.partial.count > Self.maximumMessageBytes {
                reading.oversized = true
                return stop(&reading)
            }
            // A short read took all there was: no second `read` only to hear EAGAIN.
            if count < reading.chunk.count { return true }
        }
    }

    /// Nothing more is read; the reading thread hears it (a call loop may have read the end) and ends.
    private func stop(_ reading: inout Reading) -> Bool {
        reading.over = true
        wakeup?.signal()
        return false
    }

    /// Lets `poller`'s loop read the answer to request `id` between its other work, for at most
    /// ``pollNanoseconds``; then the wait is the reading thread's alone.
    func lookForAnswer(to id: Int64, on poller: CallReplyPoller) {
        let since = Posix.monotonicNanoseconds()
        poller.add(watching: output, due: since &+ Self.pollNanoseconds) { [self] in
            // When the reading thread is handling the output right now (perhaps the answer), this waits for it
            // (it holds the lock only while it reads and hands out lines): the loop then finds the call
            // resumed instead of going back to sleep until the thread's wake-up.
            let answered = reading.withLock { reading -> Bool in
                guard isWaiting(id) else { return true }
                _ = readAvailable(&reading)
                guard !isWaiting(id) else { return false }
                answersReadByCallers.add(1, ordering: .relaxed)
                return true
            }
            guard !answered else { return true }
            guard Posix.monotonicNanoseconds() &- since >= Self.pollNanoseconds else { return false }
            leaveToReadingThread(id)
            return true
        }
    }

    /// The wait for request `id` is the reading thread's from now: it must read its answer (no longer
    /// parked for it) and plan for its deadline; woken when it is parked or planned to wake later.
    func leaveToReadingThread(_ id: Int64) {
        let wake = state.withLock { state -> Bool in
            guard state.pending[id] != nil else { return false }
            state.pending[id]?.watched = false
            return state.parked || state.pending[id]!.deadline < state.plannedWake
        }
        if wake { wakeup?.signal() }
    }

    /// When the reading thread must wake: the earliest deadline (to fail a late request), and, parked, the
    /// end of ``parkSeconds`` after the last watched request; in milliseconds from now for `poll` (-1:
    /// none). Noted in ``State/plannedWake`` so that an earlier request wakes it. Parked when it `canPark`
    /// (it has a wake-up), a call loop sent a request within ``parkSeconds`` and every waiting request is
    /// watched by a loop.
    func planWake(canPark: Bool) -> (milliseconds: Int32, parked: Bool) {
        state.withLock { state in
            let now = Posix.monotonicSeconds()
            let earliest = state.pending.values.lazy.map(\.deadline).min() ?? .infinity
            let parkedUntil = state.lastWatched + Self.parkSeconds
            state.parked = canPark && parkedUntil > now && state.pending.values.allSatisfy(\.watched)
            state.plannedWake = state.parked ? min(earliest, parkedUntil) : earliest
            guard state.plannedWake.isFinite else { return (-1, state.parked) }
            let left = (state.plannedWake - now) * 1000
            return (left <= 0 ? 0 : Int32(min(left.rounded(.up), Double(Int32.max))), state.parked)
        }
    }

    /// Fails every request whose deadline passed (no answer and no progress for its timeout) and tells the
    /// server it was cancelled.
    func failLateRequests() {
        let now = Posix.monotonicSeconds()
        let late: [(Int64, Pending)] = state.withLock { state in
            guard state.pending.values.contains(where: { $0.deadline <= now }) else { return [] }
            let late = state.pending.filter { $0.value.deadline <= now }
            for id in late.keys { state.pending[id] = nil }
            return late.map { ($0.key, $0.value) }
        }
        guard !late.isEmpty else { return }
        for (_, pending) in late {
            let limit = Self.seconds(pending.timeout)
            pending.completion.finish(.failure(HostError(.timeout,
                "MCP server \(name) did not answer \(pending.method) within \(limit) (limit \(limit), reset by progress); the request was cancelled. Raise the timeout in the registry (mcp_servers.\(name).timeout) if it needs longer",
                pluginID: name)))
        }
        // Written from another thread: a server that stopped reading its input must not stop this one.
        let ids = late.map(\.0)
        Thread.detachNewThread { [self] in for id in ids { notifyCancelled(id) } }
    }

    /// Over HTTP (no reading thread): waits until request `id` is answered or due, and fails it when due.
    func watchDeadline(of id: Int64) async {
        while !Task.isCancelled {
            guard let deadline = state.withLock({ $0.pending[id]?.deadline }) else { return }
            let left = deadline - Posix.monotonicSeconds()
            if left <= 0 {
                failLateRequests()
                return
            }
            try? await Task.sleep(nanoseconds: UInt64(min(left, 0.25) * 1e9))
        }
    }
}
