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
/// the thread's alone.
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

    /// How long a call loop looks for an answer before it leaves the wait to the reading thread (which
    /// reads it all along): as long as a worker reply is polled for (a quick server answers well within it).
    static let pollNanoseconds: UInt64 = 2_000_000

    /// The reading thread: handles what the server writes until its stdout ends, fails requests that are
    /// due, then reports how the server ended.
    func readLoop() {
        let wake = wakeup?.descriptor ?? -1
        var descriptors = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        var drained = [UInt8](repeating: 0, count: 64)
        while true {
            let milliseconds = planWake()
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            if poll(&descriptors, wake >= 0 ? 2 : 1, milliseconds) < 0, errno != EINTR { break }
            if descriptors[1].revents != 0 { _ = Posix.readSome(wake, into: &drained) }
            if descriptors[0].revents != 0, !reading.withLock({ readAvailable(&$0) }) { break }
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
        let tail = recentErrors.suffix(3).joined(separator: " | ")
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
        poller.add(watching: output) { [self] in
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
            return answered || Posix.monotonicNanoseconds() &- since >= Self.pollNanoseconds
        }
    }

    /// When the reading thread must wake to fail a late request: the earliest deadline, in milliseconds
    /// from now for `poll` (-1: none). Noted in ``State/plannedWake`` so that an earlier request wakes it.
    func planWake() -> Int32 {
        state.withLock { state in
            let earliest = state.pending.values.lazy.map(\.deadline).min() ?? .infinity
            state.plannedWake = earliest
            guard earliest.isFinite else { return -1 }
            let left = (earliest - Posix.monotonicSeconds()) * 1000
            return left <= 0 ? 0 : Int32(min(left.rounded(.up), Double(Int32.max)))
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
