import Dispatch
import SkillJSON
import Synchronization

/// Scans plugin files through the scanner child (`<helper> __scan FILE`): the host checks the ELF structure
/// itself (bytes only), then a child process loads the library and reports one JSON line. A child that
/// crashes or passes the time limit makes the file `broken`, with the signal or the timeout as the reason.
public struct PluginScanner: Sendable {
    /// The `skillhost` executable started as the child.
    public var helperExecutable: String
    /// Seconds a child may take before it is killed.
    public var timeout: Double
    /// How many children may run at once.
    public var parallelism: Int

    /// Counts the children started by all scanners in this process (tests use it to prove cache hits).
    public static var childrenStarted: Int { startedCount.load(ordering: .relaxed) }
    private static let startedCount = Atomic<Int>(0)

    /// A scanner that starts `helperExecutable __scan FILE`, killing it after `timeout` seconds, with at most
    /// `parallelism` children at once.
    public init(helperExecutable: String, timeout: Double = 10, parallelism: Int = 2) {
        self.helperExecutable = helperExecutable
        self.timeout = timeout
        self.parallelism = max(1, parallelism)
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
        Self.startedCount.add(1, ordering: .relaxed)
        // The Swift runtime's crash backtracer would print pages and slow every crash down: the signal is enough.
        let child = ChildProcess(executable: helperExecutable, arguments: ["__scan", path], timeout: timeout,
                                 extraEnvironment: ["SWIFT_BACKTRACE=enable=no"])
        let outcome: ChildProcess.Outcome
        do {
            outcome = try child.run()
        } catch {
            throw HostError(.io, "cannot start the plugin scanner \(helperExecutable): \(error.message)")
        }
        return interpret(outcome, path: path)
    }

    /// Scans several files, at most ``parallelism`` at a time; the result is keyed by path.
    public func scan(paths: [String]) throws(HostError) -> [String: ScanOutcome] {
        let results = Mutex<[String: Result<ScanOutcome, HostError>]>([:])
        let queue = Mutex(paths)
        DispatchQueue.concurrentPerform(iterations: min(parallelism, paths.count)) { _ in
            while let path = queue.withLock({ $0.popLast() }) {
                let result = Result { () throws(HostError) in try scan(path: path) }
                results.withLock { $0[path] = result }
            }
        }
        var outcomes: [String: ScanOutcome] = [:]
        for (path, result) in results.withLock({ $0 }) { outcomes[path] = try result.get() }
        return outcomes
    }

    private func interpret(_ outcome: ChildProcess.Outcome, path: String) -> ScanOutcome {
        let rescan = "fix or remove the file, then run 'skillhost rescan'"
        if outcome.timedOut {
            return ScanOutcome(status: .broken,
                error: "\(path): the scanner did not finish within \(Self.format(timeout)) s (the plugin hangs while loading); \(rescan)")
        }
        if case .signaled(let signal)? = outcome.termination {
            return ScanOutcome(status: .broken,
                error: "\(path): the scanner crashed with \(Posix.signalName(signal)) while loading the plugin; \(rescan)")
        }
        let line = outcome.output.split(separator: UInt8(ascii: "\n")).last.map(Array.init) ?? []
        if let json = try? JSONValue(parsing: line), let result = ScanOutcome(json: json) {
            return result
        }
        let code: Int32 = if case .exited(let value)? = outcome.termination { value } else { -1 }
        var reason = "\(path): the scanner exited with status \(code) without a report (the plugin may call exit() while loading)"
        let tail = String(decoding: outcome.errorTail, as: UTF8.self)
            .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        if !tail.isEmpty { reason += "; its last message: \(tail.prefix(200))" }
        return ScanOutcome(status: .broken, error: reason + "; \(rescan)")
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
