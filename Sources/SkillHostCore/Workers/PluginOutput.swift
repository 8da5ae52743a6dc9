import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where what plugin code writes to stderr goes: a worker's stderr is a pipe the host reads (never the
/// user's terminal), turned into lines fit for a terminal (``TerminalText``), each with the plugin it came
/// from, and handed to this sink. Whoever makes the host decides where they go: the CLI prints them with
/// `--verbose`, and the trace keeps them. The library never prints.
public struct PluginOutputSink: Sendable {
    /// One line of a plugin's output.
    public struct Line: Sendable, Equatable {
        /// The plugin it came from.
        public var pluginID: String
        /// The line, sanitized (no escape sequences or control characters, at most 1000 characters).
        public var text: String

        public init(pluginID: String, text: String) {
            self.pluginID = pluginID
            self.text = text
        }
    }

    private let consume: @Sendable (Line) -> Void
    /// Whether lines go nowhere (nothing to wait for when the host ends).
    let isDiscard: Bool

    /// A sink that hands each line to `consume` (on the reading thread; keep it short).
    public init(_ consume: @escaping @Sendable (Line) -> Void) {
        self.consume = consume
        isDiscard = false
    }

    private init(discarding: Void) {
        consume = { _ in }
        isDiscard = true
    }

    /// Hands one line on.
    public func emit(_ line: Line) { consume(line) }

    /// Drops every line (the pipe is still read, so a plugin never blocks on a full one).
    public static let discard = PluginOutputSink(discarding: ())

    /// The most bytes of one process's output that are turned into lines; past it the rest is read and
    /// dropped, and one line says so.
    public static let maximumBytesPerProcess = 1 << 20
}

/// Reads the stderr pipes of plugin processes on one thread of its own (started by the first pipe), so no
/// plugin ever blocks writing to a full pipe and nothing it writes reaches the terminal unread.
final class PluginOutputCollector: @unchecked Sendable {
    /// The collector of this process.
    static let shared = PluginOutputCollector()

    /// One pipe being read: who it belongs to (a spare learns its plugin when adopted) and what came so far.
    final class Source: @unchecked Sendable {
        private let owner: Mutex<(label: String, sink: PluginOutputSink)>
        fileprivate var splitter = TerminalText.LineSplitter()
        fileprivate var bytes = 0
        fileprivate var dropped = false

        init(label: String, sink: PluginOutputSink) {
            owner = Mutex((label, sink))
        }

        /// Names the plugin the process now serves (an adopted spare).
        func assign(label: String, sink: PluginOutputSink) {
            owner.withLock { $0 = (label, sink) }
        }

        fileprivate func emit(_ text: String) {
            let (label, sink) = owner.withLock { $0 }
            sink.emit(PluginOutputSink.Line(pluginID: label, text: text))
        }

        fileprivate var isShown: Bool { owner.withLock { !$0.sink.isDiscard } }
    }

    /// The pipes being read, with their descriptors: a list, not a dictionary keyed by descriptor (a process
    /// reads a handful, and the first dictionary of a new key type costs a protocol-conformance lookup at start,
    /// ≈0.2 ms in a one-shot `call`).
    private let state = Mutex<(sources: [(descriptor: Int32, source: Source)], thread: Bool)>(([], false))
    /// Written to wake the thread when a pipe is added.
    private var wake: (read: Int32, write: Int32) = (-1, -1)

    private init() {
        if let ends = try? Posix.makePipe() {
            for end in [ends.read, ends.write] { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            wake = ends
        }
    }

    /// Starts reading `descriptor` (the host's end of a child's stderr pipe; closed here at end of file).
    @discardableResult
    func read(_ descriptor: Int32, label: String, sink: PluginOutputSink) -> Source {
        let source = Source(label: label, sink: sink)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let start = state.withLock { current -> Bool in
            current.sources.removeAll { $0.descriptor == descriptor }
            current.sources.append((descriptor, source))
            defer { current.thread = true }
            return !current.thread
        }
        if start {
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            pthread_create(&thread, &attributes, { context in
                Unmanaged<PluginOutputCollector>.fromOpaque(context!).takeRetainedValue().loop()
                return nil
            }, context)
            pthread_attr_destroy(&attributes)
        } else {
            var byte: UInt8 = 1
            _ = Glibc.write(wake.write, &byte, 1)
        }
        return source
    }

    /// Waits (up to `seconds`) until every pipe whose lines go somewhere has reached its end, so the last
    /// lines of workers that were just stopped are handed on before the process exits.
    func finishShownOutput(within seconds: Double) {
        let end = Posix.monotonicSeconds() + seconds
        // Woken as each pipe ends (a sleep of a millisecond per look cost every `skillhost call` about one).
        while state.withLock({ $0.sources.contains { $0.source.isShown } }) {
            let left = end - Posix.monotonicSeconds()
            guard left > 0 else { return }
            _ = sourceEnded.wait(timeout: .now() + left)
        }
    }

    /// Signalled each time a pipe reached its end and left ``state`` (``finishShownOutput(within:)`` looks again).
    private let sourceEnded = DispatchSemaphore(value: 0)

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let sources = state.withLock { $0.sources }
            var descriptors = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            descriptors += sources.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 || errno == EINTR else { return }
            if descriptors[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while Glibc.read(wake.read, &drain, drain.count) > 0 {}
            }
            for (entry, (_, source)) in zip(descriptors.dropFirst(), sources) where entry.revents != 0 {
                var ended = false
                while true {
                    let count = Glibc.read(entry.fd, &buffer, buffer.count)
                    if count > 0 {
                        take(Array(buffer[0..<count]), from: source)
                        continue
                    }
                    ended = count == 0 || (errno != EAGAIN && errno != EINTR)
                    break
                }
                if ended {
                    if let last = source.splitter.finish(), !source.dropped { source.emit(last) }
                    state.withLock { $0.sources.removeAll { $0.descriptor == entry.fd } }
                    close(entry.fd)
                    sourceEnded.signal()
                }
            }
        }
    }

    private func take(_ bytes: [UInt8], from source: Source) {
        guard !source.dropped else { return }
        source.bytes += bytes.count
        for line in source.splitter.feed(bytes) { source.emit(line) }
        if source.bytes > PluginOutputSink.maximumBytesPerProcess {
            source.dropped = true
            source.emit("(more output dropped: over \(PluginOutputSink.maximumBytesPerProcess >> 20) MiB from this process)")
        }
    }
}
