import Foundation
import Glibc
import SkillPosix
import SkillHostCore
import Synchronization

/// MCP's stdio transport (spec 2025-11-25, basic/transports): newline-delimited JSON-RPC on stdin and
/// stdout, nothing else on stdout. The protocol gets a private copy of stdout and the process's stdout
/// is pointed at stderr, so a stray `print` (ours or an in-process plugin's) cannot corrupt the stream.
/// Input is read on a thread of its own (``MCPServer/receive(_:)`` may block), which also runs the
/// server's `tools/call` tasks when the server was given ``callExecutor``: a loop that reads a chunk of
/// requests, runs the calls' work, writes their answers in one batch and waits for more input or for a
/// call to resume. The run ends at end of input, after every call in flight was answered.
public final class MCPStdioTransport: Sendable {
    /// Lines longer than this are dropped and answered with -32700.
    public static let maximumLineLength = 64 << 20

    private let output: Int32
    private let input: Int32
    private let pending = Mutex(Outbox())
    /// The reading thread's executor (``callExecutor``).
    private let loop = MCPReadLoopExecutor()

    /// Lines waiting to be written, and whether a thread is writing them now.
    private struct Outbox {
        var bytes: [UInt8] = []
        var writing = false
        /// The reading thread is handling a chunk of input: the lines it writes itself wait for the end
        /// of the chunk (or ``heldBytesLimit``), so a pipelined burst answered on that thread leaves in a
        /// few large writes instead of one `write(2)` per answer.
        var holding = false
    }

    /// Lines the reading thread holds back beyond this many bytes are written at once.
    static let heldBytesLimit = 32 << 10

    /// `pthread_self()` of the reading thread while it runs (0 before).
    private let reader = Atomic<UInt>(0)

    /// Takes over stdin and stdout of this process.
    public init() {
        signal(SIGPIPE, SIG_IGN)
        input = 0
        output = dup(1)
        dup2(2, 1)
    }

    /// Writes one message line (plus the newline) to the protocol's stdout; thread-safe. Lines are written
    /// whole and in the order of the calls. When another thread is writing, the line joins its batch and
    /// this call returns at once: under load many answers leave in one `write(2)`; alone, a line leaves
    /// at once. Lines written by the reading thread while it handles a chunk of input leave at the end of
    /// that chunk.
    public func write(_ line: String) {
        let held = reader.load(ordering: .relaxed) == UInt(pthread_self())
        let becameWriter = pending.withLock { outbox in
            outbox.bytes.append(contentsOf: line.utf8)
            outbox.bytes.append(0x0A)
            if outbox.writing { return false }
            if held, outbox.holding, outbox.bytes.count < Self.heldBytesLimit { return false }
            outbox.writing = true
            return true
        }
        if becameWriter { writePending() }
    }

    /// The reading thread starts (`true`) or ends (`false`) handling a chunk of input; at the end, what it
    /// held back is written.
    private func hold(_ holding: Bool) {
        let becameWriter = pending.withLock { outbox in
            outbox.holding = holding
            if holding || outbox.writing || outbox.bytes.isEmpty { return false }
            outbox.writing = true
            return true
        }
        if becameWriter { writePending() }
    }

    /// Writes until the outbox is empty; the caller set `writing`.
    private func writePending() {
        var batch: [UInt8] = []
        while true {
            let more = pending.withLock { outbox in
                if outbox.bytes.isEmpty {
                    outbox.writing = false
                    return false
                }
                swap(&batch, &outbox.bytes)
                outbox.bytes.removeAll(keepingCapacity: true)
                return true
            }
            guard more else { return }
            writeAll(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        Posix.writeAll(output, bytes)  // false when the client went away; input will end too
    }

    /// Where the server should run `tools/call` tasks (give it to ``MCPServer``'s `callExecutor`): the
    /// reading thread's loop, so calls run between reads with no thread hand-off. Nil when the loop cannot
    /// be set up (no pipe for its wake-ups); the server then uses its default.
    public var callExecutor: (any TaskExecutor)? { loop.isUsable ? loop : nil }

    /// The worker replies of the calls on ``callExecutor`` (give it to ``MCPServer``'s `replyPoller`): the
    /// loop polls them when it has nothing else to do. Nil without the loop.
    public var replyPoller: CallReplyPoller? { loop.isUsable ? poller : nil }
    private let poller = CallReplyPoller()

    /// Reads lines into `server` until end of input, then waits for the calls in flight.
    public func run(_ server: MCPServer) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                if loop.isUsable {
                    serveLoop(server)
                } else {
                    readLines(into: server)
                }
                continuation.resume()
            }
            thread.name = "skillhost-mcp-read"
            thread.start()
        }
        await server.finish()
        drain()
    }

    /// Waits until every line handed to ``write(_:)`` was written (a line may have joined another
    /// thread's batch), so the process can exit.
    public func drain() {
        while pending.withLock({ $0.writing || !$0.bytes.isEmpty }) { usleep(200) }
    }

    /// The read loop (with ``callExecutor``): runs the calls' jobs, writes what they answered in one
    /// batch, then waits for input or more jobs. Stops reading while the server has too many calls in
    /// flight, and ends at end of input once the last call was answered.
    private func serveLoop(_ server: MCPServer) {
        loop.enterLoop()
        reader.store(UInt(pthread_self()), ordering: .relaxed)
        var lines = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        hold(true)
        var spins = 0
        var watched: [Int32] = []
        var due: UInt64 = .max
        while true {
            loop.runJobs()
            // Replies that came in resume their calls (as jobs on this loop): run them first.
            if poller.poll() > 0 { continue }
            hold(false)
            if ended, server.callsInFlight == 0 { break }
            let paused = !ended && server.pausesInput
            let ready: Bool
            if poller.hasPending, poller.descriptors(into: &watched, due: &due) {
                // Only answers to wait for that arrive on descriptors (an MCP server's stdout): sleep until one
                // comes, or input, or the first check's budget ends (a timer wake-up per millisecond cost a
                // server answering in ~1 ms an extra wake-up on about half its calls); a spin would take the
                // core the server and the client need.
                ready = loop.wait(input: ended || paused ? nil : input, watching: watched, milliseconds: Self.milliseconds(until: due))
            } else if poller.hasPending {
                // Only replies to wait for (each at most the slot's spin budget): look at the input now
                // and then, without blocking.
                spins &+= 1
                ready = !ended && !paused && spins & 15 == 0 && inputIsReadable()
                // The workers may need this core to answer.
                if !ready { sched_yield() }
            } else {
                ready = loop.wait(input: ended || paused ? nil : input)
            }
            hold(true)
            guard ready else { continue }
            let count = Posix.readSome(input, into: &buffer)
            if count < 0, errno == EAGAIN { continue }
            // Every request in this chunk arrived before now: the host may check its files once for all.
            server.inputArrived()
            if count <= 0 {
                ended = true
                lines.finish { server.receive($0) }
            } else {
                feed(buffer, count: count, into: server, lines: &lines)
            }
        }
        hold(false)
        loop.close()
        reader.store(0, ordering: .relaxed)
    }

    /// `poll`'s timeout until `due` (CLOCK_MONOTONIC nanoseconds), rounded up; -1 (none) for `UInt64.max`.
    static func milliseconds(until due: UInt64) -> Int32 {
        guard due != .max else { return -1 }
        let now = Posix.monotonicNanoseconds()
        guard due > now else { return 0 }
        return Int32(clamping: (due - now + 999_999) / 1_000_000)
    }

    private func inputIsReadable() -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Without the loop: reads and hands over lines; the server blocks this thread when full.
    private func readLines(into server: MCPServer) {
        reader.store(UInt(pthread_self()), ordering: .relaxed)
        defer { reader.store(0, ordering: .relaxed) }
        var lines = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Posix.readSome(input, into: &buffer)
            hold(true)
            defer { hold(false) }
            server.inputArrived()
            if count <= 0 {
                lines.finish { server.receive($0) }
                break
            }
            feed(buffer, count: count, into: server, lines: &lines)
        }
    }

    private func feed(_ buffer: [UInt8], count: Int, into server: MCPServer, lines: inout LineSplitter) {
        let fits = lines.feed(buffer[0..<count]) { server.receive($0) }
        if !fits {
            write(JSONRPCMessage.errorLine(id: nil, error: JSONRPCError(
                code: JSONRPCError.parseErrorCode, "a line is longer than \(Self.maximumLineLength) bytes and was dropped; send smaller messages")))
        }
    }
}

/// Cuts the input into lines across reads; a line longer than ``MCPStdioTransport/maximumLineLength`` is
/// dropped up to its newline.
private struct LineSplitter {
    private var pending: [UInt8] = []
    private var discarding = false

    /// Hands every complete line in `bytes` to `deliver`; false when a line grew too long (and is being
    /// dropped).
    mutating func feed(_ bytes: ArraySlice<UInt8>, deliver: (ArraySlice<UInt8>) -> Void) -> Bool {
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            if discarding {
                discarding = false
            } else if pending.isEmpty {
                deliver(bytes[start..<index])
            } else {
                pending += bytes[start..<index]
                deliver(pending[...])
                pending.removeAll(keepingCapacity: true)
            }
            start = index + 1
        }
        if !discarding { pending += bytes[start..<bytes.endIndex] }
        if pending.count > MCPStdioTransport.maximumLineLength {
            pending.removeAll()
            discarding = true
            return false
        }
        return true
    }

    /// The last line when the input did not end with a newline.
    mutating func finish(deliver: (ArraySlice<UInt8>) -> Void) {
        if !pending.isEmpty, !discarding { deliver(pending[...]) }
        pending.removeAll()
    }
}
