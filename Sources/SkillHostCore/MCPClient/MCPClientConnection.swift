import Foundation
import SkillJSON
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The client side of one MCP connection (docs/mcp-sources.md): to a stdio server, JSON-RPC 2.0 as
/// newline-delimited JSON on its stdin and stdout; to a Streamable HTTP server, one `POST` per message
/// (``MCPHTTPWire``), whose answers arrive here as the stdio reader's lines do. Requests wait for their answer by id; the server's
/// `notifications/progress` reach the request that carried the token, `notifications/tools/list_changed`
/// reaches ``onToolsChanged``; a server's own requests are answered (`ping`) or refused (-32601). Its stderr
/// is read on a thread of its own into sanitized lines for the trace, never the terminal. When the server
/// ends, every waiting request fails with how it ended and the last lines it wrote.
///
/// Thread-safe. Started by ``MCPServerLauncher``; ``close()`` kills the process (SIGTERM, then SIGKILL).
public final class MCPClientConnection: Sendable {
    /// What was answered.
    typealias Answer = Result<JSONValue, HostError>

    /// A request waiting for its answer; it leaves ``State/pending`` when answered, timed out or forgotten.
    struct Pending {
        var completion: CallCompletion<JSONValue>
        var progress: (@Sendable (JSONValue) -> Void)?
        var method: String
        /// Its limit in seconds, counted again from each progress report.
        var timeout: Double
        /// When it fails unanswered (monotonic seconds): ``timeout`` after it was sent or last reported progress.
        var deadline: Double
        /// A call loop reads its answer (``CallReplyPoller``), not the reading thread.
        var watched = false
    }

    struct State {
        var pending: [Int64: Pending] = [:]
        var nextID: Int64 = 1
        var ended: HostError?
        var stderrTail: [String] = []
        /// When the reading thread wakes next to fail late requests (monotonic seconds; infinity: only for
        /// input). A request due earlier wakes it through ``wakeup``.
        var plannedWake = Double.infinity
        /// The reading thread sleeps on its wake-up alone, not on the output: a call loop reads it
        /// (``MCPClientConnection/parkSeconds``). A request no loop watches wakes it.
        var parked = false
        /// When a call loop last sent a request it watches for the answer (monotonic seconds).
        var lastWatched = -Double.infinity
    }

    /// The server's name (for messages).
    public let name: String
    /// The process's id.
    public let pid: pid_t
    private let input: Int32
    let output: Int32
    private let errors: Int32
    let state = Mutex(State())
    /// What was read of the server's stdout and not yet handled; held while reading and handling, by the
    /// connection's reading thread or by a call loop that looks for its reply (``CallReplyPoller``).
    let reading = Mutex(Reading())
    /// Wakes the reading thread when a request is due before it planned to wake (stdio only).
    let wakeup: Posix.Wakeup?
    /// How many answers a caller's loop read itself (``CallReplyPoller``), not the reading thread.
    package let answersReadByCallers = Atomic<Int>(0)
    /// The HTTP wire (nil: the stdio pipes).
    private let http: MCPHTTPWire?
    /// `_meta` members every request carries (the stateless revision's protocol version and capabilities).
    private let requestMeta = Mutex(JSONObject())
    /// The same members as written into every request line to a stdio server.
    private let requestLine = Mutex(MCPRequestLine())
    private let writeLock = Mutex(())
    /// Called (on the reading thread) when the server says its tool list changed.
    let onToolsChanged: Mutex<(@Sendable () -> Void)?> = Mutex(nil)
    /// Called (on the reading thread) once when the server's stdout ends.
    let onEnded: Mutex<(@Sendable (HostError) -> Void)?> = Mutex(nil)
    private let sink: PluginOutputSink
    private let done = Mutex(false)
    private let termination = Mutex<(reaped: Bool, how: Posix.Termination?)>((false, nil))
    /// Signalled when the stderr reader reached the end (no reader: never waited for).
    private let errorsRead = DispatchSemaphore(value: 0)

    /// Starts a server with `spawn` on a thread of its own, which then reads its stdout for as long as it is
    /// open: the server dies with the thread that started it (the sandbox's parent-death signal is the
    /// thread's, not the process's), so that thread must be one that lives as long as the server, not a
    /// pool thread that may retire while the server is idle.
    static func start(
        name: String, sink: PluginOutputSink, _ spawn: @escaping @Sendable () throws(HostError) -> Posix.PipedChild
    ) throws(HostError) -> MCPClientConnection {
        let started = Mutex<Result<MCPClientConnection, HostError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let reader = Thread {
            var connection: MCPClientConnection?
            do throws(HostError) {
                let child = try spawn()
                let made = MCPClientConnection(name: name, pid: child.pid, input: child.input, output: child.output, errors: child.errors, sink: sink)
                connection = made
                started.withLock { $0 = .success(made) }
            } catch {
                started.withLock { $0 = .failure(error) }
            }
            ready.signal()
            connection?.readLoop()
        }
        reader.name = "mcp-client-\(name)"
        reader.start()
        ready.wait()
        return try started.withLock { $0! }.get()
    }

    /// Takes over a started process: writes to `input`, reads `errors` on a thread of its own; `output` is
    /// read by the caller's thread (``start(name:sink:_:)``). Each is closed on ``close()``.
    private init(name: String, pid: pid_t, input: Int32, output: Int32, errors: Int32, sink: PluginOutputSink) {
        self.name = name
        self.pid = pid
        self.input = input
        self.output = output
        self.errors = errors
        self.sink = sink
        self.http = nil
        // Read without blocking: a call loop may read a reply between its other work, the thread waits in poll.
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        wakeup = Posix.Wakeup()
        if errors >= 0 {
            let errorReader = Thread { [self] in errorLoop() }
            errorReader.name = "mcp-client-stderr-\(name)"
            errorReader.start()
        }
    }

    /// A connection to a Streamable HTTP server through `wire` (no process: ``pid`` is 0).
    init(http wire: MCPHTTPWire) {
        name = wire.name
        pid = 0
        input = -1
        output = -1
        errors = -1
        sink = .discard
        http = wire
        wakeup = nil
    }

    /// Whether it reaches its server over HTTP.
    public var isHTTP: Bool { http != nil }

    /// Settles the revision: `meta` goes into every later request's `_meta`; over HTTP the version is also
    /// sent as `MCP-Protocol-Version` (and, when `stateless`, `Mcp-Method` and `Mcp-Name` too).
    func settle(version: String?, stateless: Bool, meta: JSONObject) {
        requestMeta.withLock { $0 = meta }
        requestLine.withLock { $0 = MCPRequestLine(meta: meta) }
        http?.settle(version: version, stateless: stateless)
    }

    /// Over HTTP, opens the session's standalone `GET` stream so the server's own messages (its
    /// `notifications/tools/list_changed`) reach the connection (``MCPHTTPWire/listen(to:)``); over stdio they
    /// arrive on stdout anyway.
    func listenForServerMessages() {
        http?.listen(to: self)
    }

    /// Whether the server has ended (its stdout closed).
    public var hasEnded: Bool { state.withLock { $0.ended != nil } }

    /// Sends a request and waits for its result (or its error), at most `timeout` seconds; the clock restarts
    /// whenever the server reports progress for it. A cancelled task stops waiting (`notifications/cancelled`
    /// is sent to the server).
    public func request(
        _ method: String, params: JSONValue?, timeout: Double, onProgress: (@Sendable (JSONValue) -> Void)? = nil
    ) async throws(HostError) -> JSONValue {
        let completion = CallCompletion<JSONValue>()
        // Called from a loop that collects replies (`skillhost mcp`), the loop reads the answer itself and
        // wakes the reading thread (for the deadline, or to read) only when it leaves the wait to it
        // (``lookForAnswer``): no wake-up per call. Else the thread must plan for this request now.
        let poller = http == nil ? CallReplyPoller.current : nil
        let registered: (Int64, HostError?, wake: Bool) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            if let ended = state.ended { return (id, ended, false) }
            let now = Posix.monotonicSeconds()
            let deadline = now + timeout
            state.pending[id] = Pending(
                completion: completion, progress: onProgress, method: method, timeout: timeout, deadline: deadline, watched: poller != nil)
            if poller != nil {
                state.lastWatched = now
                return (id, nil, false)
            }
            return (id, nil, state.parked || deadline < state.plannedWake)
        }
        let id = registered.0
        if let ended = registered.1 { throw ended }
        if registered.wake { wakeup?.signal() }
        let sent: Bool
        if let http {
            var message: JSONObject = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
            if var params {
                if case .object(var object) = params {
                    var meta = object["_meta"]?.objectValue ?? JSONObject()
                    for (key, value) in requestMeta.withLock({ $0 }) { meta[key] = value }
                    meta["progressToken"] = .int(id)
                    object["_meta"] = .object(meta)
                    params = .object(object)
                }
                message["params"] = params
            }
            http.post(message, idleTimeout: timeout + 5, to: self)
            sent = true
        } else {
            let line = requestLine.withLock { $0 }.bytes(id: id, method: method, params: params)
            sent = writeLock.withLock { _ in Posix.writeAll(input, line) }
        }
        guard sent else {
            forget(id)
            throw state.withLock { $0.ended } ?? HostError(.pluginCrashed, "MCP server \(name) stopped reading its input", pluginID: name)
        }
        // The deadline: over stdio the reading thread fails the request when it is due (``failLateRequests()``);
        // an HTTP exchange has no such thread, a watcher task waits for it.
        let watcher = http == nil ? nil : Task.detached { [self] in await watchDeadline(of: id) }
        // Called from a loop that collects replies (`skillhost mcp`): the loop reads the answer itself.
        if let poller { lookForAnswer(to: id, on: poller) }
        let result = await withTaskCancellationHandler {
            await completion.wait()
        } onCancel: {
            completion.finish(.failure(HostError(.cancelled, "the call was cancelled", pluginID: name)))
            notifyCancelled(id)
        }
        watcher?.cancel()
        forget(id)
        return try result.get()
    }

    /// Sends a notification.
    public func notify(_ method: String, params: JSONValue? = nil) {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = params }
        _ = send(message)
    }

    /// Whether ``close()`` was called (the host ended it: not a crash).
    public var wasClosed: Bool { done.withLock { $0 } }

    /// Kills the server and fails whatever still waits.
    public func close() {
        let first = done.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        if let http {
            http.close()
            fail(HostError(.cancelled, "the connection to MCP server \(name) was closed", pluginID: name))
            return
        }
        Glibc.close(input)
        kill(pid, SIGTERM)
        Thread.detachNewThread { [self] in
            if reapOnce(waitingUpTo: 100) == nil {
                termination.withLock { if !$0.reaped { kill(pid, SIGKILL) } }
                _ = reapOnce(waitingUpTo: nil)
            }
        }
    }

    /// The last lines the server wrote to stderr (sanitized).
    public var recentErrors: [String] { state.withLock { $0.stderrTail } }

    /// Waits for the process once (a pid is never waited for twice, nor signalled after it was reaped).
    func reapOnce(waitingUpTo milliseconds: Int?) -> Posix.Termination? {
        termination.withLock { state in
            if state.reaped { return state.how }
            if let how = Posix.reap(pid, waitingUpTo: milliseconds) { state = (true, how) }
            return state.how
        }
    }

    func notifyCancelled(_ id: Int64) {
        notify("notifications/cancelled", params: ["requestId": .int(id), "reason": "cancelled by the host"])
    }

    private func forget(_ id: Int64) {
        _ = state.withLock { $0.pending.removeValue(forKey: id) }
        http?.finished(id)
    }

    /// Whether request `id` still waits for its answer (not answered, timed out, failed or forgotten).
    func isWaiting(_ id: Int64) -> Bool { state.withLock { $0.pending[id] != nil } }

    /// Fails request `id` alone (its HTTP exchange failed).
    func fail(requestID id: Int64, _ error: HostError) {
        state.withLock { $0.pending.removeValue(forKey: id) }?.completion.finish(.failure(error))
    }

    /// The connection is over (an HTTP server forgot its session): every waiting request fails with `error`.
    func end(_ error: HostError) { fail(error) }

    private func send(_ message: JSONObject, idleTimeout: Double = 30) -> Bool {
        if let http {
            http.post(message, idleTimeout: idleTimeout, to: self)
            return true
        }
        // Written as bytes straight away (no String made and copied twice on every call).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        JSONValue.object(message).write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return writeLock.withLock { _ in Posix.writeAll(input, bytes) }
    }

    /// The largest message read (a huge result is refused, not buffered without end): the limit of a skill's
    /// result (``PluginResult/maximumResultBytes``, 16 MiB), the same over stdio and HTTP.
    public static let maximumMessageBytes = PluginResult.maximumResultBytes

    func fail(_ error: HostError) {
        let (waiting, first): ([Pending], Bool) = state.withLock { state in
            let first = state.ended == nil
            if first { state.ended = error }
            defer { state.pending = [:] }
            return (Array(state.pending.values), first)
        }
        // The owner hears first (once), so a caller that sees its call fail also sees the crash counted.
        if first { onEnded.withLock { $0 }?(error) }
        for pending in waiting { pending.completion.finish(.failure(error)) }
    }

    func receive(_ line: ArraySlice<UInt8>) {
        guard let value = try? JSONValue(parsing: line) else { return }
        receive(value)
    }

    /// One message from the server (a batch: each of its messages).
    func receive(_ value: JSONValue) {
        if case .array(let batch) = value {
            for item in batch { receive(item) }
            return
        }
        guard case .object(let message) = value else { return }
        let method = message["method"]?.stringValue
        if let method, let id = message["id"] {
            // The server's own request: ping is answered, nothing else is offered.
            let answer: JSONValue = method == "ping"
                ? ["jsonrpc": "2.0", "id": id, "result": [:]]
                : ["jsonrpc": "2.0", "id": id, "error": ["code": -32601, "message": .string("skillhost offers no \(method) to servers")]]
            _ = send(answer.objectValue ?? [:])
            return
        }
        if let method {
            switch method {
            case "notifications/progress":
                guard let token = message["params"]?["progressToken"]?.intValue else { return }
                // Progress starts the request's clock again.
                let progress = state.withLock { state -> (@Sendable (JSONValue) -> Void)?? in
                    guard let pending = state.pending[token] else { return nil }
                    state.pending[token]?.deadline = Posix.monotonicSeconds() + pending.timeout
                    return .some(pending.progress)
                }
                progress??(message["params"] ?? .null)
            case "notifications/tools/list_changed":
                onToolsChanged.withLock { $0 }?()
            default:
                break
            }
            return
        }
        guard let id = message["id"]?.intValue else { return }
        let pending = state.withLock { $0.pending.removeValue(forKey: id) }
        guard let pending else { return }
        if let error = message["error"] {
            let text = error["message"]?.stringValue ?? error.serialized()
            let code = error["code"]?.intValue ?? 0
            let kind: HostError.Kind = code == -32602 ? .invalidArguments : .skillFailed
            pending.completion.finish(.failure(HostError(
                kind, "MCP server \(name) answered with error \(code): \(TerminalText.sanitized(text))", pluginID: name,
                details: ["code": .int(code)])))
        } else {
            pending.completion.finish(.success(message["result"] ?? .null))
        }
    }

    private func errorLoop() {
        var splitter = TerminalText.LineSplitter()
        var chunk = [UInt8](repeating: 0, count: 8192)
        var total = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
            guard total <= PluginOutputSink.maximumBytesPerProcess else { continue }
            for line in splitter.feed(Array(chunk[0..<count])) where !line.isEmpty {
                state.withLock { state in
                    state.stderrTail.append(line)
                    if state.stderrTail.count > 20 { state.stderrTail.removeFirst() }
                }
                sink.emit(PluginOutputSink.Line(pluginID: name, text: line))
            }
        }
        Glibc.close(errors)
        errorsRead.signal()
    }

    /// The server's last stderr lines once it ended: its stderr is read to the end first (at most `milliseconds`,
    /// since a process it left behind may hold the pipe), so that the crash message has its last words — the
    /// exit status could be seen before the other thread read them.
    func lastErrors(waitingUpTo milliseconds: Int) -> [String] {
        if errors >= 0 { _ = errorsRead.wait(timeout: .now() + .milliseconds(milliseconds)) }
        return recentErrors
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
