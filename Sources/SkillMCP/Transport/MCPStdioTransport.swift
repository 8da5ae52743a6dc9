import Foundation
import Glibc
import Synchronization

/// MCP's stdio transport (spec 2025-11-25, basic/transports): newline-delimited JSON-RPC on stdin and
/// stdout, nothing else on stdout. The protocol gets a private copy of stdout and the process's stdout
/// is pointed at stderr, so a stray `print` (ours or an in-process plugin's) cannot corrupt the stream.
/// Input is read on a thread of its own (``MCPServer/receive(_:)`` may block); the run ends at end of
/// input, after every call in flight was answered.
public final class MCPStdioTransport: Sendable {
    /// Lines longer than this are dropped and answered with -32700.
    public static let maximumLineLength = 64 << 20

    private let output: Int32
    private let input: Int32
    private let pending = Mutex(Outbox())

    /// Lines waiting to be written, and whether a thread is writing them now.
    private struct Outbox {
        var bytes: [UInt8] = []
        var writing = false
    }

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
    /// at once.
    public func write(_ line: String) {
        let becameWriter = pending.withLock { outbox in
            outbox.bytes.append(contentsOf: line.utf8)
            outbox.bytes.append(0x0A)
            if outbox.writing { return false }
            outbox.writing = true
            return true
        }
        guard becameWriter else { return }
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
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }  // the client went away; input will end too
            offset += written
        }
    }

    /// Reads lines into `server` until end of input, then waits for the calls in flight.
    public func run(_ server: MCPServer) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                readLines(into: server)
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

    private func readLines(into server: MCPServer) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var discarding = false
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            var start = 0
            for index in 0..<count where buffer[index] == 0x0A {
                if discarding {
                    discarding = false
                } else if pending.isEmpty {
                    server.receive(buffer[start..<index])
                } else {
                    pending += buffer[start..<index]
                    server.receive(pending)
                    pending.removeAll(keepingCapacity: true)
                }
                start = index + 1
            }
            if !discarding { pending += buffer[start..<count] }
            if pending.count > Self.maximumLineLength {
                pending.removeAll()
                discarding = true
                write(JSONRPCMessage.errorLine(id: nil, error: JSONRPCError(
                    code: JSONRPCError.parseErrorCode, "a line is longer than \(Self.maximumLineLength) bytes and was dropped; send smaller messages")))
            }
        }
        if !pending.isEmpty, !discarding { server.receive(pending) }
    }
}
