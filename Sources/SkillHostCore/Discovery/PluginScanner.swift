import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import SkillJSON
import Synchronization

/// Scans plugin files through the scanner child (`<helper> __scan FILE…`): the host checks the ELF structure
/// itself (bytes only), then a child process loads the libraries one after another and reports one JSON line
/// per file as it goes. A file that crashes the child or passes the time limit is `broken`, with the signal
/// or the timeout as the reason; the files after it continue in a new child.
public struct PluginScanner: Sendable {
    /// The `skillhost` executable started as the child.
    public var helperExecutable: String
    /// Seconds a child may take per file before it is killed.
    public var timeout: Double
    /// How many children may run at once.
    public var parallelism: Int
    /// Whether the children try namespaces as their sandbox's first layer (``KernelSandbox/namespacesWanted``).
    public var namespaces: Bool = KernelSandbox.namespacesWanted

    /// The most files one child loads (a batch); more files are split into batches.
    public static let maximumBatch = 32

    /// Counts the children started by all scanners in this process (tests use it to prove cache hits).
    public static var childrenStarted: Int { startedCount.load(ordering: .relaxed) }
    private static let startedCount = Atomic<Int>(0)

    /// The number of processors online, at least 1 and at most 8 (a container may see more processors than
    /// it may use): the default ``parallelism``.
    public static var processorCount: Int { min(8, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    /// A scanner that starts `helperExecutable __scan FILE…`, killing a child that takes more than `timeout`
    /// seconds for one file, with at most `parallelism` children at once (default: one per processor).
    public init(helperExecutable: String, timeout: Double = 10, parallelism: Int? = nil) {
        self.helperExecutable = helperExecutable
        self.timeout = timeout
        self.parallelism = max(1, parallelism ?? Self.processorCount)
    }

    /// Scans one file.
    /// - Throws: ``HostError`` of kind `io` only when the child cannot be started (a host problem, not the
    ///   plugin's). Everything about the file itself is in the outcome.
    public func scan(path: String) throws(HostError) -> ScanOutcome {
        do {
            try ELFCheck.check(path: path)
        } catch {
            return ScanOutcome(status: .invalid, error: error.message)
        }
        return try scanBatch([path])[path] ?? ScanOutcome(status: .broken, error: "\(path): the scanner lost it")
    }

    /// Scans several files; the result is keyed by path. Files that pass the structure checks are split into
    /// batches of at most ``maximumBatch``, loaded by at most ``parallelism`` children at a time.
    public func scan(paths: [String]) throws(HostError) -> [String: ScanOutcome] {
        var outcomes: [String: ScanOutcome] = [:]
        var loadable: [String] = []
        for path in paths {
            do {
                try ELFCheck.check(path: path)
                loadable.append(path)
            } catch {
                outcomes[path] = ScanOutcome(status: .invalid, error: error.message)
            }
        }
        guard !loadable.isEmpty else { return outcomes }
        let lanes = min(parallelism, loadable.count)
        let size = min(Self.maximumBatch, (loadable.count + lanes - 1) / lanes)
        let batches = stride(from: 0, to: loadable.count, by: size).map {
            Array(loadable[$0..<min($0 + size, loadable.count)])
        }
        let queue = Mutex(Array(batches.reversed()))
        let results = Mutex<[String: ScanOutcome]>(outcomes)
        let failure = Mutex<HostError?>(nil)
        let lane: @Sendable (Int) -> Void = { _ in
            while failure.withLock({ $0 == nil }), let batch = queue.withLock({ $0.popLast() }) {
                switch Result(catching: { () throws(HostError) in try scanBatch(batch) }) {
                case .success(let found): results.withLock { $0.merge(found) { $1 } }
                case .failure(let error): failure.withLock { $0 = error }
                }
            }
        }
        if lanes == 1 { lane(0) } else { DispatchQueue.concurrentPerform(iterations: lanes, execute: lane) }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { $0 }
    }

    /// Loads `files` in order in one child, and in a new child for the files after one that crashed or hung.
    private func scanBatch(_ files: [String]) throws(HostError) -> [String: ScanOutcome] {
        var outcomes: [String: ScanOutcome] = [:]
        var remaining = files[...]
        while !remaining.isEmpty {
            Self.startedCount.add(1, ordering: .relaxed)
            // The Swift runtime's crash backtracer would print pages and slow every crash down: the signal is
            // enough. The child gets a worker's environment, never the host's (its secrets).
            let child = ChildProcess(
                executable: helperExecutable, arguments: ["__scan"] + ScannerSandbox.words(namespaces: namespaces) + remaining,
                timeout: timeout, environment: WorkerEnvironment.base() + ["SWIFT_BACKTRACE=enable=no"], namespaces: namespaces)
            let outcome: ChildProcess.Outcome
            do {
                outcome = try child.run { line in
                    // A line counts only for the file expected next (it names its path).
                    guard let expected = remaining.first, let json = try? JSONValue(parsing: Array(line)),
                        json["path"]?.stringValue == Posix.absolutePath(expected),
                        let result = ScanOutcome(json: json)
                    else { return }
                    outcomes[expected] = result
                    remaining.removeFirst()
                }
            } catch {
                throw HostError(.io, "cannot start the plugin scanner \(helperExecutable): \(error.message)")
            }
            if case .exited(ScannerChild.sandboxFailureStatus)? = outcome.termination, outcome.output.isEmpty {
                let reason = TerminalText.sanitized(String(decoding: outcome.errorTail, as: UTF8.self))
                throw HostError(.io, "the plugin scanner could not enter its sandbox, so no plugin was loaded: \(reason)")
            }
            // The child ended before reporting the file it was loading: that file crashed or hung it.
            if !remaining.isEmpty {
                let culprit = remaining.removeFirst()
                outcomes[culprit] = failure(outcome, path: culprit)
            }
        }
        return outcomes
    }

    /// The outcome of the file a child was loading when it died, hung or exited without reporting it.
    private func failure(_ outcome: ChildProcess.Outcome, path: String) -> ScanOutcome {
        let rescan = "fix or remove the file, then run 'skillhost rescan'"
        if outcome.timedOut {
            return ScanOutcome(status: .broken,
                error: "\(path): the scanner did not finish within \(SecondsText.format(timeout)) s (the plugin hangs while loading); \(rescan)")
        }
        if case .signaled(let signal)? = outcome.termination {
            return ScanOutcome(status: .broken,
                error: "\(path): the scanner crashed with \(Posix.signalName(signal)) while loading the plugin; \(rescan)")
        }
        let code: Int32 = if case .exited(let value)? = outcome.termination { value } else { -1 }
        var reason = "\(path): the scanner exited with status \(code) without a report (the plugin may call exit() while loading)"
        // The plugin's own words, made safe for a terminal: `list` shows this reason.
        let tail = TerminalText.sanitized(String(decoding: outcome.errorTail, as: UTF8.self), keepingLineBreaks: true)
            .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        if !tail.isEmpty { reason += "; its last message: \(tail.prefix(200))" }
        return ScanOutcome(status: .broken, error: reason + "; \(rescan)")
    }
}
