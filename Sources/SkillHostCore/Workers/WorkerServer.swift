import SkillJSON
#if canImport(Glibc)
import Glibc
#endif

/// The worker process's side of isolation: `skillhost __worker FILE [--as-mb N] [--cpu-s N] [--nofile N]`.
///
/// Startup order matters and is part of the contract (docs/isolation.md, "The worker"):
/// 1. close pipes and sockets inherited from the host;
/// 2. unblock signals on the serving thread;
/// 3. keep the real stdin and stdout as private descriptors for frames, then point descriptor 0 at /dev/null
///    and descriptor 1 at stderr, so a plugin that reads stdin or prints can never touch a frame;
/// 4. restore the default action of crash signals (no Swift backtracer) and apply the resource limits with
///    `setrlimit`;
/// 5. load the plugin (``PluginLibrary``; its constructors run here, not in the host);
/// 6. send `ready` (or `loadFailed` with the reason, and exit 3);
/// 7. serve calls one at a time until the host closes the pipe (exit 0).
public enum WorkerServer {
    /// Exit status when the plugin could not be loaded.
    public static let loadFailureStatus: Int32 = 3
    /// Exit status when the host sent something that is not a frame.
    public static let protocolFailureStatus: Int32 = 4

    /// Runs the worker on a thread of its own (plugin code may block; the Swift concurrency pool must stay
    /// free for a Swift plugin's async skills) and returns its exit status once the host closes the pipe.
    /// - Parameter arguments: the words after `__worker`: the plugin file, then the limit options.
    public static func run(arguments: [String]) async -> Int32 {
        await BlockingThread.runDetached { serve(arguments: arguments) }
    }

    /// The blocking body of ``run(arguments:)``.
    static func serve(arguments: [String]) -> Int32 {
        closeInheritedDescriptors()
        // The host spawns from a thread that blocks signals and the mask survives exec: unblock them here, on
        // the thread the plugin runs on, so SIGTERM stops the worker and SIGXCPU enforces the CPU limit.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        defer { WorkerSandbox.killLeftovers() }
        let (limits, afterLimits) = ResourceLimits.parse(workerArguments: arguments)
        let (sandbox, rest) = SandboxPolicy.parse(workerArguments: afterLimits)
        // 3. Frames travel on private copies of stdin and stdout; the plugin gets /dev/null and stderr.
        let frameInput = fcntl(0, F_DUPFD_CLOEXEC, 3)
        let frameOutput = fcntl(1, F_DUPFD_CLOEXEC, 3)
        let nothing = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard frameInput >= 0, frameOutput >= 0, nothing >= 0, dup2(nothing, 0) == 0, dup2(2, 1) == 1 else {
            PluginLog.write(label: "worker", level: 3, text: "cannot set up the frame pipes: \(Posix.describe(errno: errno))")
            return protocolFailureStatus
        }
        close(nothing)
        let channel = FrameChannel(input: frameInput, output: frameOutput)
        // The shared-memory fast lane the host may have passed (descriptor 3); plugins never see the variable.
        let slot = SharedCallSlot.attach(environment: getenv(SharedCallSlot.environmentKey).map { String(cString: $0) })
        unsetenv(SharedCallSlot.environmentKey)
        guard rest.count == 1, let path = rest.first else {
            return fail(channel, "usage: skillhost __worker FILE [--as-mb N] [--cpu-s N] [--nofile N]")
        }
        // Crashes end the worker at once with the signal's default action: the host reports them in one line,
        // so the Swift runtime's backtracer (slow, pages of output) is switched off here.
        for crash in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { signal(crash, SIG_DFL) }
        // A write past the file size limit fails with EFBIG inside the plugin instead of killing the worker.
        signal(SIGXFSZ, SIG_IGN)
        // 4. Limits before any plugin code runs.
        do {
            // The process limit counts threads too: it applies only to a plugin that may start processes.
            try limits.apply(countsOwnProcesses: WorkerSandbox.inUserNamespace && sandbox?.processes == true)
        } catch {
            return fail(channel, error.message)
        }
        // 4b. The sandbox (entered first thing in the process; see WorkerSandbox).
        if let failure = WorkerSandbox.failure(for: sandbox, pluginPath: path) { return fail(channel, failure) }
        // 5. Load.
        let library: PluginLibrary
        do {
            library = try PluginLibrary.load(path: path)
        } catch {
            return fail(channel, error.message)
        }
        // 6. Ready.
        var encoder = FrameEncoder(.ready)
        guard (try? channel.send(encoder.finish())) != nil else { return 0 }
        // 7. Serve.
        var budget = CPUBudget(secondsPerCall: limits.cpuSeconds)
        var replyBuffer: [UInt8] = []
        var memo = CallMemo(label: library.label)
        // Requests are numbered in arrival order, as the host numbers them (SharedCallSlot+Queue.swift).
        var served: UInt64 = 0
        while true {
            let request: WorkerCallRequest
            do {
                if let slot, let fromSlot = slot.takeRequest(WorkerCallRequest.decode(slotFrame:)) {
                    request = try fromSlot.get()
                } else {
                    request = try channel.receive(deadline: nil) { kind, payload throws(FrameError) in
                        guard kind == .call else { throw FrameError("the host sent a \(kind) frame; only calls are served") }
                        return try WorkerCallRequest(payload: payload)
                    }
                    slot?.workerWoke()
                }
            } catch .closed {
                return 0
            } catch {
                PluginLog.write(label: "worker", level: 3, text: "stopping: \(error)")
                return protocolFailureStatus
            }
            let sequence = served
            served &+= 1
            let queued = slot?.hostQueues ?? false
            let reply: WorkerCallReply
            if queued, let slot, !slot.start(sequence) {
                reply = WorkerCallReply(status: WorkerCallReply.withdrawn, json: [])
            } else {
                budget.topUp()
                reply = serve(request, with: library, memo: &memo)
            }
            replyBuffer = reply.encodedFrame(reusing: replyBuffer)
            // Replies to queued requests go on the pipe, in order, each at once (the next request may be slow).
            if !queued, let slot, slot.postReply(replyBuffer) { continue }
            guard (try? channel.send(replyBuffer)) != nil else { return 0 }
        }
    }

    /// What a worker keeps between calls so that each call does less: the plugin's configuration as last
    /// parsed (calls of one plugin carry the same bytes), and the log sink.
    package struct CallMemo {
        private var configurationBytes: [UInt8]?
        private var configuration: (value: JSONValue, text: String?) = ([:], nil)
        let log: @Sendable (Int32, String) -> Void

        package init(label: String) {
            log = { level, text in PluginLog.write(label: label, level: level, text: text) }
        }

        /// The configuration in `bytes`, parsed (an empty object when they are not JSON), and its text when
        /// it can go to the plugin as is.
        mutating func configuration(_ bytes: [UInt8]) -> (value: JSONValue, text: String?) {
            if bytes != configurationBytes {
                let parsed = try? JSONValue(parsing: bytes)
                configuration = (parsed ?? [:], parsed == nil ? nil : String(decoding: bytes, as: UTF8.self))
                configurationBytes = bytes
            }
            return configuration
        }
    }

    /// Runs one call against the plugin and packs its outcome.
    static func serve(_ request: WorkerCallRequest, with library: PluginLibrary) -> WorkerCallReply {
        var memo = CallMemo(label: library.label)
        return serve(request, with: library, memo: &memo)
    }

    /// Runs one call against the plugin and packs its outcome, reusing what `memo` kept from earlier calls.
    package static func serve(_ request: WorkerCallRequest, with library: PluginLibrary, memo: inout CallMemo) -> WorkerCallReply {
        var snapshot: [String: JSONValue] = [:]
        for (key, bytes) in request.context {
            if let value = try? JSONValue(parsing: bytes) { snapshot[key] = value }
        }
        let session = SessionContext(snapshot)
        let configuration = memo.configuration(request.configurationJSON)
        var context = PluginCallContext(
            callID: request.callID, sessionID: request.sessionID, idempotencyKey: request.idempotencyKey,
            deadlineUnixMilliseconds: request.deadlineUnixMilliseconds, configuration: configuration.value,
            dataDirectory: request.dataDirectory, sessionContext: session, log: memo.log)
        context.configurationText = configuration.text
        let result = library.invoke(skillID: request.skillID, arguments: request.argumentsJSON, context: context)
        guard PluginResult.isWithinLimit(result.bytes.count) else {
            return WorkerCallReply(status: WorkerCallReply.resultTooLarge, json: Array(String(result.bytes.count).utf8))
        }
        var changes: [(key: String, json: [UInt8])] = []
        for (key, value) in session.snapshot where snapshot[key] != value {
            changes.append((key, value.serializedBytes()))
        }
        return WorkerCallReply(status: result.status, json: result.bytes, contextChanges: changes)
    }

    /// Closes pipe and socket descriptors above stderr that leaked in from the host process. Descriptors
    /// that are inheritable for a moment in the host (between `pipe` and `fcntl`, or on purpose, like the
    /// socket Foundation's `Process` gives each child to notice its exit) reach any process spawned at that
    /// moment; held open by a long-lived worker, they hide another child's exit from whoever waits for it.
    /// Only FIFOs and sockets are closed: the runtime's own descriptors (eventfd, epoll) are left alone.
    static func closeInheritedDescriptors() {
        for name in Posix.directoryEntries("/proc/self/fd") ?? [] {
            guard let descriptor = Int32(name), descriptor > 2 else { continue }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            if type == S_IFIFO || type == S_IFSOCK { close(descriptor) }
        }
    }

    /// Reports a load failure to the host and returns the exit status.
    private static func fail(_ channel: FrameChannel, _ message: String) -> Int32 {
        var encoder = FrameEncoder(.loadFailed)
        encoder.append(message)
        try? channel.send(encoder.finish())
        return loadFailureStatus
    }
}
