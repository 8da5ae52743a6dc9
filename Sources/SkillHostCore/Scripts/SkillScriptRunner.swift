import Foundation
import SkillJSON

/// Runs a skill's script confined (issue #30): in the worker's sandbox through `skillhost-sandbox --confine`
/// (``ConfinedProgram``), with the skill's folder read-only, the session's workspace read-write and its working
/// folder, the system's interpreters and libraries, no network and nothing of the user's unless granted, the
/// environment an allow-list, and limits on CPU, memory, output and time; every process it starts dies with it.
public struct SkillScriptRunner: Sendable {
    /// The `skillhost` executable (`skillhost-sandbox` is found beside it).
    public var hostExecutable: String
    /// Seconds a run may take before it is killed, with everything it started.
    public var timeout: Double
    /// The most stdout kept (the rest is read and dropped, and the result says so).
    public var outputLimit: Int
    /// The most stderr kept (its end).
    public var errorLimit: Int
    /// The run's resource limits (its processes included).
    public var limits: ResourceLimits

    /// Seconds a run may take unless its runner says otherwise.
    public static let defaultTimeout: Double = 120

    public init(
        hostExecutable: String, timeout: Double = defaultTimeout, outputLimit: Int = 1 << 20, errorLimit: Int = 64 << 10,
        limits: ResourceLimits = ResourceLimits(addressSpaceMB: 4096, cpuSeconds: 300, openFiles: 256, processes: 64, fileSizeMB: 512)
    ) {
        self.hostExecutable = hostExecutable
        self.timeout = timeout
        self.outputLimit = outputLimit
        self.errorLimit = errorLimit
        self.limits = limits
    }

    /// Runs `script` with `arguments` (never through a shell) and `input` on its stdin, in `workspace`.
    /// - Parameters:
    ///   - skillFolder: the skill's folder (read-only to the script).
    ///   - grants: what the user granted the skill beyond that (`skillhost grant SKILL …`): paths, network,
    ///     environment variables.
    /// - Throws: ``HostError`` when it cannot be started (`denied` without `skillhost-sandbox`, `io`).
    public func run(
        _ script: SkillScript, arguments: [String], input: String?, workspace: ScriptWorkspace, skillFolder: String,
        grants: PluginCapabilities = .minimal
    ) throws(HostError) -> ScriptRun {
        try Posix.makeDirectories(workspace.temporaryFolder)
        defer { try? FileManager.default.removeItem(atPath: workspace.temporaryFolder) }
        var policy = SandboxPolicy.resolve(
            capabilities: grants, mode: .automatic, dataDirectory: workspace.folder, configuration: [:], home: HostPaths.homeDirectory)
        policy.rules.append(.init(path: skillFolder, access: .read))
        let program = ConfinedProgram(
            program: script.interpreter, arguments: script.interpreterArguments + [script.file] + arguments, policy: policy,
            workingDirectory: workspace.folder, limits: limits)
        let (executable, words) = try program.launchCommand(hostExecutable: hostExecutable)
        var environment = WorkerEnvironment.merged(
            WorkerEnvironment.base(),
            WorkerEnvironment.plugin(dataDirectory: workspace.folder, granted: grants.environment))
        environment = WorkerEnvironment.merged(environment, [
            "TMPDIR=\(workspace.temporaryFolder)", "PYTHONDONTWRITEBYTECODE=1",
            // `from scripts.helpers import …` works as when the skill's folder is the working folder.
            "PYTHONPATH=\(skillFolder)",
        ])
        let before = workspace.look()
        let started = Posix.monotonicSeconds()
        let child = ChildProcess(
            executable: executable, arguments: words, timeout: timeout, environment: environment, namespaces: false,
            input: Array((input ?? "").utf8), outputLimit: outputLimit, killsPastOutputLimit: false,
            errorTailBytes: errorLimit)
        let outcome = try child.run()
        let seconds = Posix.monotonicSeconds() - started
        let errorText = String(decoding: outcome.errorTail, as: UTF8.self)
        if case .exited(126)? = outcome.termination, errorText.contains("skillhost-sandbox: cannot") {
            throw HostError(.denied, "the script \(script.path) of \(script.skill) was not run: " + TerminalText.sanitized(errorText), skillID: script.skill)
        }
        let after = workspace.look()
        let written = after.filter { before[$0.key] != $0.value }.keys.sorted().map { path in
            ScriptRun.WrittenFile(path: path, file: workspace.folder + "/" + path, size: after[path]?.size ?? 0)
        }
        return ScriptRun(
            termination: outcome.termination, stdout: String(decoding: outcome.output, as: UTF8.self), stderr: errorText,
            stdoutCut: outcome.outputCut, stderrCut: outcome.errorCut, outputLimit: outputLimit, errorLimit: errorLimit,
            seconds: seconds, timeout: timeout, written: written)
    }
}

/// How a script's run went: what the model and the user are told.
public struct ScriptRun: Sendable, Equatable {
    /// A file the run created or changed in the workspace.
    public struct WrittenFile: Sendable, Equatable {
        /// Relative to the workspace.
        public var path: String
        /// Absolute, where the user finds it.
        public var file: String
        public var size: Int64
    }

    /// How it ended; nil when it was killed at its time limit.
    package var termination: Posix.Termination?
    public var stdout: String
    public var stderr: String
    public var stdoutCut: Bool
    public var stderrCut: Bool
    public var outputLimit: Int
    public var errorLimit: Int
    public var seconds: Double
    public var timeout: Double
    public var written: [WrittenFile]

    /// Whether it ended with exit status 0.
    public var succeeded: Bool { termination == .exited(0) }

    /// Its exit status, when it exited.
    public var exitStatus: Int32? { if case .exited(let code)? = termination { code } else { nil } }

    /// Whether it was killed at its time limit.
    public var timedOut: Bool { termination == nil }

    /// The tool result: exit status (or signal, or the time limit), where the files written are (`written`, a
    /// line; `files`, each with its path, absolute file and size), stdout and stderr with their caps said, and
    /// the duration.
    public var json: JSONValue {
        var object: JSONObject = [:]
        switch termination {
        case .exited(let code)?: object["exit_status"] = .int(Int64(code))
        case .signaled(let signal)?: object["signal"] = .string(Posix.signalName(signal))
        case nil: object["timed_out"] = .string("killed after \(Int(timeout)) s, with every process it started")
        }
        // Where the files are, first after the status: one-line summaries (history, trace) show the first
        // fields, and a list shows there only as its count.
        let shown = written.prefix(10).map(\.file).joined(separator: ", ")
        object["written"] = .string(written.isEmpty ? "nothing" : shown + (written.count > 10 ? " and \(written.count - 10) more" : ""))
        object["files"] = .array(written.map { ["path": .string($0.path), "file": .string($0.file), "size": .int($0.size)] })
        object["stdout"] = .string(stdout)
        if stdoutCut { object["stdout_cut"] = .string("only the first \(outputLimit >> 10) KiB of stdout are kept") }
        object["stderr"] = .string(stderr)
        if stderrCut { object["stderr_cut"] = .string("only the last \(errorLimit >> 10) KiB of stderr are kept") }
        object["seconds"] = .double((seconds * 1000).rounded() / 1000)
        return .object(object)
    }
}
