import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore

/// Runs a checked workflow as a graph of calls through one ``ToolCaller`` (so approvals, timeouts,
/// recording and the sandbox apply to every step as to any call): a step starts once every step it depends
/// on has ended, independent steps run at once (no more calls of a plugin than its worker limit, the registry's
/// `max_workers` as ``SkillBackend/callLimits()`` gives it; a source without one — an MCP server, the script
/// tool — as many as a plugin by default, ``defaultLimit``; and at most ``maxParallel`` in all when set), failed calls are tried again after a doubling back-off,
/// a step's `timeout` cancels it, `if` skips it, and a failure stops only the steps that depend on it
/// (unless the failed step has `continue-on-error`). Every state change is written to the ``WorkflowJournal``
/// before it is reported, so a killed run resumes from where it stood (``resume``).
public struct WorkflowRunner: Sendable {
    public let workflow: Workflow
    /// The tool of each step, by step id (``WorkflowChecker/tools(of:)``).
    public let tools: [String: SkillTool]
    public let caller: ToolCaller
    public let journal: any WorkflowJournal
    /// Steps running at once, at most, whatever their sources allow (nil: only the sources' limits).
    public var maxParallel: Int?
    /// Where `deliver` writes (``WorkflowDelivery/folder(data:)``); nil: a workflow that delivers fails at its end.
    public var deliveries: String?
    /// Calls at once of one source that gives no limit of its own: the registry's default `max_workers`.
    public static let defaultLimit = PluginSettings().maxWorkers
    /// How calls say who made them: front end `workflow`, client the workflow's name.
    public var origin: CallOrigin

    public init(
        workflow: Workflow, tools: [String: SkillTool], caller: ToolCaller, journal: any WorkflowJournal, maxParallel: Int? = nil,
        deliveries: String? = nil
    ) {
        self.workflow = workflow
        self.tools = tools
        self.caller = caller
        self.journal = journal
        self.maxParallel = maxParallel.map { max(1, $0) }
        self.deliveries = deliveries
        origin = CallOrigin(frontEnd: "workflow", client: workflow.name)
    }

    /// How a run ended.
    public struct Outcome: Sendable {
        public var runID: String
        public var state: StepState
        /// Each done step's output by id.
        public var outputs: JSONObject
        /// Each step's final state.
        public var states: [String: StepState]
        /// The file `deliver` wrote, nil when the workflow does not deliver or the run failed.
        public var delivered: String? = nil
    }

    /// Runs every step that has not ended yet of run `runID` with `input` (already valid against the input
    /// schema); `events` hears each change. Steps the journal holds as `done` are not run again (skipped ones are decided again: their reasons
    /// may be gone).
    public func run(
        runID: String, input: JSONValue, resumed: Bool = false, events: @escaping @Sendable (WorkflowEvent) -> Void = { _ in }
    ) async -> Outcome {
        let begin = Posix.monotonicNanoseconds()
        let stored = Dictionary(((try? journal.steps(run: runID)) ?? []).map { ($0.stepID, $0) }, uniquingKeysWith: { a, _ in a })
        var states: [String: StepState] = [:]
        var outputs = JSONObject()
        var attempts: [String: Int] = [:]
        for step in workflow.steps {
            let record = stored[step.id]
            switch record?.status {
            case "done"?:
                states[step.id] = .done
                outputs[step.id] = record?.output.flatMap { try? JSONValue(parsing: $0) } ?? .null
            default:
                states[step.id] = .pending
            }
            attempts[step.id] = record?.attempts ?? 0
        }
        events(.runStarted(runID: runID, workflow: workflow.name, steps: workflow.steps.map { ($0.id, $0.skill, states[$0.id]!) }, resumed: resumed))
        var limits = (try? caller.backend.callLimits()) ?? [:]
        for tool in tools.values where limits[tool.id] == nil {
            // A source without a limit of its own (an MCP server's tools, the script tool): the default, per source.
            let source = tool.id.split(separator: ".").first.map(String.init) ?? tool.id
            limits[tool.id] = CallLimit(group: "source:" + source, limit: Self.defaultLimit)
        }
        var busy: [CallLimit.GroupKey: Int] = [:]
        var failed = Set<String>()
        var running = 0
        await withTaskGroup(of: (String, StepState, JSONValue?).self) { group in
            while true {
                // Settle every pending step whose dependencies have all ended: skip it, or start it.
                var progressed = true
                while progressed {
                    progressed = false
                    for step in workflow.steps where states[step.id] == .pending {
                        let dependencies = step.dependencies
                        guard dependencies.allSatisfy({ [.done, .failed, .skipped].contains(states[$0] ?? .done) }) else { continue }
                        if let blocker = dependencies.first(where: { states[$0] == .skipped || (states[$0] == .failed && workflow.step($0)?.continueOnError != true) }) {
                            let why = states[blocker] == .failed ? "step \(blocker) failed" : "step \(blocker) was skipped"
                            skip(step, why, runID: runID, &states, events)
                            progressed = true
                            continue
                        }
                        let lookup = { (reference: WorkflowReference) -> JSONValue? in
                            reference.value(in: reference.stepID.map { outputs[$0] ?? .null } ?? input)
                        }
                        if let text = step.condition, let condition = try? WorkflowCondition(text), !condition.holds(lookup) {
                            skip(step, "its condition is false: \(text)", runID: runID, &states, events)
                            progressed = true
                            continue
                        }
                        let key = limits[tools[step.id]?.id ?? ""]?.key
                        if let maxParallel, running >= maxParallel { continue }
                        if let key, let limit = limits[tools[step.id]?.id ?? ""], busy[key, default: 0] >= limit.limit { continue }
                        if let key { busy[key, default: 0] += 1 }
                        running += 1
                        states[step.id] = .running
                        let arguments: Result<JSONValue, WorkflowSyntaxError> = Result { () throws(WorkflowSyntaxError) in
                            let resolved = try WorkflowTemplate.resolve(step.arguments, lookup)
                            return workflow.scalarsAreText ? SchemaTyping.typed(resolved, for: tools[step.id]?.parameters) : resolved
                        }
                        let previous = attempts[step.id] ?? 0
                        group.addTask { await self.execute(step, arguments: arguments, runID: runID, previousAttempts: previous, events) }
                        progressed = true
                    }
                }
                guard let (id, state, output) = await group.next() else { break }
                running -= 1
                if let key = limits[tools[id]?.id ?? ""]?.key { busy[key, default: 1] -= 1 }
                states[id] = state
                if state == .done { outputs[id] = output ?? .null }
                if state == .failed {
                    failed.insert(id)
                    if workflow.step(id)?.continueOnError == true { outputs[id] = .null }
                }
            }
        }
        let hardFailure = failed.contains { workflow.step($0)?.continueOnError != true }
        var state: StepState = hardFailure ? .failed : .done
        var deliveredPath: String?
        if state == .done, let delivery = workflow.delivery {
            let lookup = { (reference: WorkflowReference) -> JSONValue? in
                reference.value(in: reference.stepID.map { outputs[$0] ?? .null } ?? input)
            }
            do throws(WorkflowSyntaxError) {
                guard let deliveries else { throw WorkflowSyntaxError("this front end has no deliveries folder; run it with 'skillhost workflow run'") }
                let (path, text) = try delivery.resolve(lookup)
                let written = try WorkflowDelivery.write(text, to: path, under: deliveries)
                deliveredPath = written
                events(.delivered(path: written, bytes: text.utf8.count, error: nil))
            } catch {
                state = .failed
                events(.delivered(path: nil, bytes: 0, error: "deliver: \(error.reason)"))
            }
        }
        let seconds = Double(Posix.monotonicNanoseconds() &- begin) / 1e9
        if var run = try? journal.run(id: runID) {
            run.status = state.rawValue
            run.finishedMilliseconds = Posix.unixMilliseconds()
            try? journal.saveRun(run)
        }
        events(.runFinished(runID: runID, state: state, seconds: seconds, output: .object(outputs)))
        return Outcome(runID: runID, state: state, outputs: outputs, states: states, delivered: deliveredPath)
    }

    private func skip(_ step: WorkflowStep, _ why: String, runID: String, _ states: inout [String: StepState], _ events: (WorkflowEvent) -> Void) {
        states[step.id] = .skipped
        let now = Posix.unixMilliseconds()
        try? journal.saveStep(WorkflowStepRecord(stepID: step.id, status: "skipped", error: why, startedMilliseconds: now, finishedMilliseconds: now), run: runID)
        events(.stepFinished(stepID: step.id, state: .skipped, seconds: 0, text: why, output: nil))
    }

    /// Runs one step: every try, with its back-off, under the step's timeout.
    private func execute(
        _ step: WorkflowStep, arguments: Result<JSONValue, WorkflowSyntaxError>, runID: String, previousAttempts: Int,
        _ events: @escaping @Sendable (WorkflowEvent) -> Void
    ) async -> (String, StepState, JSONValue?) {
        let begin = Posix.monotonicNanoseconds()
        let started = Posix.unixMilliseconds()
        var attempt = previousAttempts
        func finish(_ state: StepState, _ text: String, output: JSONValue?) -> (String, StepState, JSONValue?) {
            let record = WorkflowStepRecord(
                stepID: step.id, status: state.rawValue, attempts: attempt, output: output?.serialized(),
                error: state == .failed ? text : nil, startedMilliseconds: started, finishedMilliseconds: Posix.unixMilliseconds())
            try? journal.saveStep(record, run: runID)
            events(.stepFinished(stepID: step.id, state: state, seconds: Double(Posix.monotonicNanoseconds() &- begin) / 1e9, text: text, output: output))
            return (step.id, state, output)
        }
        let values: JSONValue
        switch arguments {
        case .success(let resolved): values = resolved
        case .failure(let error): return finish(.failed, "step \(step.id): \(error.reason)", output: nil)
        }
        let tool = tools[step.id]
        let deadline = step.timeout.map { begin &+ UInt64($0 * 1e9) }
        var lastError = ""
        for number in 1...(step.retry.count + 1) {
            attempt += 1
            // Durable before the call: a run killed from here on knows the step may have taken effect.
            try? journal.saveStep(WorkflowStepRecord(stepID: step.id, status: "running", attempts: attempt, startedMilliseconds: started), run: runID)
            events(.stepStarted(stepID: step.id, skill: step.skill, attempt: attempt))
            let request = ToolCallRequest(
                toolName: step.skill, tool: tool, arguments: .value(values), callID: step.id, origin: origin,
                unknownTool: "no enabled skill '\(step.skill)'; see 'skillhost list'")
            let outcome: ToolCallOutcome?
            if let deadline {
                let left = Double(deadline &- min(deadline, Posix.monotonicNanoseconds())) / 1e9
                outcome = await Self.within(seconds: left) { await caller.call(request) }
            } else {
                outcome = await caller.call(request)
            }
            guard let outcome else {
                return finish(.failed, "step \(step.id) timed out after \(SecondsText.format(step.timeout ?? 0)) (its timeout); raise 'timeout' or make the step do less", output: nil)
            }
            let final: Bool
            switch outcome.result {
            case .success(let output):
                guard let failure = Self.scriptFailure(output, tool: tool) else {
                    return finish(.done, ToolCallOutcome.summary(of: output, tool: tool), output: output)
                }
                // A script that exited non-zero, was killed or ran out of time failed its step (tried again as any failure).
                lastError = failure
                final = false
            case .failure(let error):
                lastError = "\(error.kind.rawValue): \(error.message)"
                final = [.invalidArguments, .notFound, .disabled, .denied, .invalidPlugin, .cancelled].contains(error.kind) || outcome.refused
            }
            guard number <= step.retry.count, !final else { break }
            let delay = step.retry.delay(beforeRetry: number)
            if let deadline, Posix.monotonicNanoseconds() &+ UInt64(delay * 1e9) >= deadline { break }
            events(.stepRetrying(stepID: step.id, attempt: attempt, delay: delay, error: lastError))
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        }
        return finish(.failed, lastError, output: nil)
    }

    /// Why a script step's result is a failure (exit status not 0, a signal, its time limit), nil otherwise.
    static func scriptFailure(_ output: JSONValue, tool: SkillTool?) -> String? {
        guard tool?.id == ScriptToolBackend.toolID else { return nil }
        let stderr = (output["stderr"]?.stringValue ?? "").split(separator: "\n").last.map { ": " + String($0.prefix(300)) } ?? ""
        if let status = output["exit_status"]?.intValue, status != 0 {
            return "scriptFailed: \(output["path"]?.stringValue ?? "the script") exited with status \(status)\(stderr)"
        }
        if let signal = output["signal"]?.stringValue { return "scriptFailed: \(output["path"]?.stringValue ?? "the script") was killed by \(signal)\(stderr)" }
        if let limit = output["timed_out"]?.stringValue { return "timeout: \(output["path"]?.stringValue ?? "the script") was \(limit)" }
        return nil
    }

    /// `body`'s value, or nil when it takes longer than `seconds` (it is then cancelled).
    static func within<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async -> T) async -> T? {
        guard seconds > 0 else { return nil }
        return await withTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
