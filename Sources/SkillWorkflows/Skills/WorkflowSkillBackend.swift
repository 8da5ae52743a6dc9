import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Installed workflows as skills: a ``SkillBackend`` over another (the host's) that adds `workflow.NAME`
/// for each installed workflow, with the workflow's input schema as its parameters. Its permission is the
/// highest of its steps' skills, so a workflow with `write` or `dangerous` steps is asked about once per
/// run, up front, with those steps listed (the question's skill description names them); its steps then
/// run through a ``ToolCaller`` over `steps` without asking again, each keyed `RUN/STEP`, the run kept in
/// `journal` when there is one. A workflow's file is read and checked once per call: ``prepare(skillID:arguments:)``
/// loads it, ``run(_:options:)`` takes what prepare loaded.
public struct WorkflowSkillBackend: SkillBackend {
    /// The backend every other call goes to.
    public let inner: any SkillBackend
    /// The backend the steps call: `inner` with what steps may use beside it (the CLI adds the instruction
    /// skills' script tool, so a step may be `run_skill_script` in every front end alike).
    public let steps: any SkillBackend
    public let installed: InstalledWorkflows
    /// Where runs are kept (nil: in memory only).
    public let journal: @Sendable () -> (any WorkflowJournal)?
    /// The host's delivery folder (``WorkflowDelivery``); nil: a workflow with `deliver` fails at its end.
    public var deliveries: String?
    /// Steps running at once at most (nil: each source's own worker limit only).
    public var maxParallel: Int?
    private let prepared = PreparedWorkflows()

    public init(
        inner: any SkillBackend, steps: (any SkillBackend)? = nil, installed: InstalledWorkflows,
        journal: @escaping @Sendable () -> (any WorkflowJournal)? = { nil }
    ) {
        self.inner = inner
        self.steps = steps ?? inner
        self.installed = installed
        self.journal = journal
    }

    /// A loaded, checked workflow with its skill.
    struct Loaded: Sendable {
        var workflow: Workflow
        var text: String
        var tools: [String: SkillTool]
        var description: SkillDescription
    }

    func load(_ name: String, path: String, tools available: [SkillTool]) throws(HostError) -> Loaded {
        let id = InstalledWorkflows.prefix + name
        guard let bytes = String(contentsOfPath: path) else {
            throw HostError(.invalidPlugin, "workflow \(name) cannot be read at \(path); install it again with 'skillhost workflow install FILE'", skillID: id)
        }
        let workflow: Workflow
        switch WorkflowParser.parse(bytes, file: path) {
        case .success(let parsed): workflow = parsed
        case .failure(let faults):
            throw HostError(.invalidPlugin, "workflow \(name) is not valid: \(faults.problems.first?.description ?? "")", skillID: id)
        }
        let checker = WorkflowChecker(tools: available)
        if let problem = checker.problems(of: workflow, source: bytes).first {
            throw HostError(.invalidPlugin, "workflow \(name) cannot run: \(problem.description)", skillID: id)
        }
        let tools = checker.tools(of: workflow)
        let description = WorkflowSkill.description(of: workflow, tools: tools, path: path)
        return Loaded(workflow: workflow, text: bytes, tools: tools, description: description)
    }

    @available(*, noasync, message: "use 'await listTools()'")
    public func tools() throws(HostError) -> [SkillTool] {
        let files = installed.files()
        return try workflowTools(files, over: try inner.tools(), steps: files.isEmpty ? [] : try steps.tools())
    }

    public nonisolated(nonsending) func listTools() async throws(HostError) -> [SkillTool] {
        let files = installed.files()
        return try workflowTools(files, over: try await inner.listTools(), steps: files.isEmpty ? [] : try await steps.listTools())
    }

    /// `inner`'s tools and the installed workflows' (those valid against `available`, what steps may call:
    /// the inner tools and the script tool).
    private func workflowTools(_ files: [String: String], over inner: [SkillTool], steps available: [SkillTool]) throws(HostError) -> [SkillTool] {
        var result = inner
        for (name, path) in files.sorted(by: { $0.key < $1.key }) {
            if let loaded = try? load(name, path: path, tools: available) { result.append(SkillTool(loaded.description)) }
        }
        return result
    }

    public func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        guard skillID.hasPrefix(InstalledWorkflows.prefix) else { return try inner.prepare(skillID: skillID, arguments: arguments) }
        let name = String(skillID.dropFirst(InstalledWorkflows.prefix.count))
        guard let path = installed.files()[name] else {
            throw HostError(.notFound, "no workflow \"\(name)\" is installed; install it with 'skillhost workflow install FILE'", skillID: skillID)
        }
        let loaded = try load(name, path: path, tools: try steps.tools())
        switch WorkflowInput.prepare(arguments, for: loaded.workflow) {
        case .success(let input):
            prepared.keep(loaded, path: path)
            return PreparedCall(skill: loaded.description, arguments: input)
        case .failure(let faults):
            throw HostError(.invalidArguments, "the arguments of \(skillID) are not valid: \(faults.problems.map(\.message).joined(separator: "; "))", skillID: skillID)
        }
    }

    /// Itself for a workflow, the inner backend's runner for the rest.
    public func runner(for call: PreparedCall) -> any SkillBackend {
        call.skill.id.hasPrefix(InstalledWorkflows.prefix) ? self : inner.runner(for: call)
    }

    public nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        let id = call.skill.id
        guard id.hasPrefix(InstalledWorkflows.prefix) else { return try await inner.run(call, options: options) }
        let name = String(id.dropFirst(InstalledWorkflows.prefix.count))
        // What prepare loaded (a call prepared elsewhere, or twice at once, loads it here).
        let loaded: Loaded
        if let kept = prepared.take(path: call.skill.pluginPath) { loaded = kept } else {
            loaded = try load(name, path: call.skill.pluginPath, tools: try await steps.listTools())
        }
        let journal = self.journal() ?? MemoryWorkflowJournal()
        let runID = WorkflowRunID.make()
        do {
            try journal.saveRun(WorkflowRunRecord(
                id: runID, workflow: name, file: call.skill.pluginPath, definition: loaded.text, input: call.arguments.serialized(),
                status: "running", startedMilliseconds: Posix.unixMilliseconds()))
        } catch {
            throw HostError(.io, "workflow \(name): the run could not be recorded (\(error)); check the state folder", skillID: id)
        }
        // Approved once, up front (or needing no approval): the steps are not asked about again.
        let caller = ToolCaller(backend: steps, approval: AllowAllApproval(), recorder: StepCallRecorder(runID: runID, inner: nil), sessionID: options.sessionID)
        var runner = WorkflowRunner(workflow: loaded.workflow, tools: loaded.tools, caller: caller, journal: journal)
        runner.maxParallel = maxParallel
        runner.deliveries = deliveries
        let failures = FailureLog()
        let outcome = await runner.run(runID: runID, input: call.arguments) { event in
            if case .stepFinished(let step, .failed, _, let text, _) = event { failures.add("\(step): \(text)") }
            if case .delivered(_, _, let error?) = event { failures.add(error) }
        }
        guard outcome.state == .done else {
            throw HostError(.skillFailed, "workflow \(name) failed (run \(runID)): \(failures.text); fix it and run 'skillhost workflow resume \(runID)'", skillID: id)
        }
        var result: JSONObject = ["run": .string(runID), "state": "done", "outputs": .object(outcome.outputs)]
        if let delivered = outcome.delivered { result["delivered"] = .string(delivered) }
        return .object(result)
    }

    public func callLimits() throws(HostError) -> [String: CallLimit] { try inner.callLimits() }
    public func inputArrived() { inner.inputArrived() }
}

/// Workflows ``WorkflowSkillBackend/prepare(skillID:arguments:)`` loaded, by path, for the run that follows.
final class PreparedWorkflows: Sendable {
    private let loaded = Mutex<[String: [WorkflowSkillBackend.Loaded]]>([:])
    func keep(_ workflow: WorkflowSkillBackend.Loaded, path: String) {
        loaded.withLock { all in all[path] = Array((all[path, default: []] + [workflow]).suffix(8)) }
    }
    func take(path: String) -> WorkflowSkillBackend.Loaded? {
        loaded.withLock { all in
            guard var list = all[path], !list.isEmpty else { return nil }
            let first = list.removeFirst()
            all[path] = list.isEmpty ? nil : list
            return first
        }
    }
}

/// The failed steps' messages of a run, gathered from its events.
final class FailureLog: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var text: String { lines.withLock { $0.joined(separator: "; ") } }
}

/// Run ids: `YYYYMMDD-HHMMSS-` (UTC) and 6 hex digits.
public enum WorkflowRunID {
    public static func make() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let stamp = "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
        let random = UInt32.random(in: 0..<0x100_0000)
        let hex = String(random, radix: 16)
        return stamp + "-" + String(repeating: "0", count: 6 - hex.count) + hex
    }
}
