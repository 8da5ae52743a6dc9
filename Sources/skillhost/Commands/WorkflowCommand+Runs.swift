import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows
import Synchronization

// `skillhost workflow run|resume|show`: starting a run, resuming one, running an installed workflow, and
// showing a run (docs/workflows.md).
extension WorkflowCommand {
    static func start(file: String, input inputText: String, _ parsed: ParsedArguments) async throws -> Int32 {
        let host = HostOptions.host(parsed)
        let text = try readFile(file)
        let (steps, sources) = stepSources(host: host, parsed)
        defer { sources.shutdown() }
        guard let workflow = await checked(file: file, text: text, host: host, steps: steps) else { return ExitCode.invalidArguments }
        let raw = inputText == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : inputText
        let given: JSONValue
        do { given = try JSONValue(parsing: raw) } catch {
            throw UsageError("INPUT_JSON is not valid JSON (\(error)); give one object, e.g. '{\"zone\":\"UTC\"}'")
        }
        let input: JSONValue
        switch WorkflowInput.prepare(given, for: workflow) {
        case .success(let value): input = value
        case .failure(let faults):
            for problem in faults.problems { ErrorReporter.printError(problem.message) }
            return ExitCode.invalidArguments
        }
        let store = try HistoryOptions.open(parsed, registry: nil)
        let runID = WorkflowRunID.make()
        try store.saveWorkflowRun(WorkflowRunRecord(
            id: runID, workflow: workflow.name, file: file, definition: text, input: input.serialized(), status: "running",
            startedMilliseconds: Posix.unixMilliseconds()))
        return await execute(workflow, runID: runID, input: input, store: store, host: host, steps: steps, interrupted: [], finished: [], resumed: false, parsed)
    }

    static func resume(runID: String, _ parsed: ParsedArguments) async throws -> Int32 {
        let store = try HistoryOptions.open(parsed, registry: nil)
        guard var run = try store.workflowRun(id: runID) else {
            ErrorReporter.printError("no workflow run '\(runID)'; 'skillhost workflow runs' lists them")
            return ExitCode.notFound
        }
        let host = HostOptions.host(parsed)
        let (steps, sources) = stepSources(host: host, parsed)
        defer { sources.shutdown() }
        let (workflow, problems, _) = await load(file: run.file, text: run.definition, host: host, steps: steps)
        guard problems.isEmpty else {
            printProblems(problems)
            return ExitCode.invalidArguments
        }
        let records = try store.workflowSteps(run: runID)
        let interrupted = Set(records.filter { $0.status == "running" }.map(\.stepID))
        // Done steps are not run again, so they are not asked about again.
        let finished = Set(records.filter { $0.status == "done" }.map(\.stepID))
        run.status = "running"
        run.finishedMilliseconds = nil
        try store.saveWorkflowRun(run)
        let input = (try? JSONValue(parsing: run.input)) ?? .object(JSONObject())
        return await execute(
            workflow, runID: runID, input: input, store: store, host: host, steps: steps, interrupted: interrupted, finished: finished, resumed: true, parsed)
    }

    /// Runs the installed workflow `name` with `input` (JSON text) as run `runID`.
    static func runInstalled(name: String, input inputText: String, runID: String, store: HistoryStore, _ parsed: ParsedArguments) async -> Int32 {
        guard let path = installed(parsed).files()[name], let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            ErrorReporter.printError("no installed workflow '\(name)'; install it with 'skillhost workflow install FILE'")
            return ExitCode.notFound
        }
        let host = HostOptions.host(parsed)
        let (steps, sources) = stepSources(host: host, parsed)
        defer { sources.shutdown() }
        guard let workflow = await checked(file: path, text: text, host: host, steps: steps) else { return ExitCode.invalidArguments }
        guard case .success(let input) = WorkflowInput.prepare((try? JSONValue(parsing: inputText)) ?? .null, for: workflow) else {
            ErrorReporter.printError("the scheduled input of \(name) does not fit its inputs; schedule it again with a valid INPUT_JSON")
            return ExitCode.invalidArguments
        }
        do {
            try store.saveWorkflowRun(WorkflowRunRecord(
                id: runID, workflow: workflow.name, file: path, definition: text, input: input.serialized(), status: "running",
                startedMilliseconds: Posix.unixMilliseconds()))
        } catch {
            ErrorReporter.printError("\(error)")
            return ExitCode.failure
        }
        return await execute(workflow, runID: runID, input: input, store: store, host: host, steps: steps, interrupted: [], finished: [], resumed: false, parsed)
    }

    static func execute(
        _ workflow: Workflow, runID: String, input: JSONValue, store: HistoryStore, host: SkillHost, steps: any SkillBackend,
        interrupted: Set<String>, finished: Set<String>, resumed: Bool, _ parsed: ParsedArguments
    ) async -> Int32 {
        let sessionID = "workflow-" + runID
        try? store.createSession(id: sessionID, title: "workflow \(workflow.name), run \(runID)")
        let inner = StoreCallRecorder(
            store: store, sessionID: sessionID, context: SessionContext(), redactor: SecretRedactor.standard(environment: Posix.environment()),
            report: { ErrorReporter.printError("warning: history: \($0.message)") })
        let recorder = StepCallRecorder(runID: runID, inner: inner, interrupted: interrupted)
        let tools = await checker(host, steps: steps).tools(of: workflow)
        // The write/dangerous steps still to run are approved once, up front, in one question that lists them.
        let approval = await RunApproval.ask(
            TerminalApproval.handler(assumeYes: parsed.has("--yes")), workflow: workflow, tools: tools, input: input, path: workflow.file,
            finished: finished)
        let caller = ToolCaller(backend: steps, approval: approval, recorder: recorder, sessionID: sessionID)
        let runner = WorkflowRunner(
            workflow: workflow, tools: tools, caller: caller, journal: store, maxParallel: (try? parallel(parsed)) ?? nil,
            deliveries: WorkflowDelivery.folder(data: host.paths.data))
        let json = parsed.has("--json")
        let printer = WorkflowCards(json: json)
        let outcome = await runner.run(runID: runID, input: input, resumed: resumed) { printer.show($0) }
        inner.flush()
        await host.shutdown()
        return outcome.state == .done ? ExitCode.success : ExitCode.skillFailed
    }

    static func show(runID: String, _ parsed: ParsedArguments) throws -> Int32 {
        let store = try HistoryOptions.open(parsed, registry: nil)
        guard let run = try store.workflowRun(id: runID) else {
            ErrorReporter.printError("no workflow run '\(runID)'; 'skillhost workflow runs' lists them")
            return ExitCode.notFound
        }
        let steps = try store.workflowSteps(run: runID)
        if parsed.has("--json") {
            var object = runJSON(run).objectValue ?? JSONObject()
            object["steps"] = .array(steps.map { step in
                [
                    "id": .string(step.stepID), "state": .string(step.status), "attempts": .int(Int64(step.attempts)),
                    "output": step.output.flatMap { try? JSONValue(parsing: $0) } ?? .null, "error": step.error.map(JSONValue.string) ?? .null,
                    "seconds": step.finishedMilliseconds.flatMap { end in step.startedMilliseconds.map { .double(Double(end - $0) / 1000) } } ?? .null,
                ]
            })
            HostOptions.printJSON(.object(object))
        } else {
            print("run \(run.id): workflow \(run.workflow) (\(run.file)), \(run.status)")
            for step in steps {
                let seconds = step.finishedMilliseconds.flatMap { end in step.startedMilliseconds.map { " (\(SecondsText.format(Double(end - $0) / 1000)) s)" } } ?? ""
                print("  [\(step.status)] \(step.stepID)\(step.error.map { ": " + $0 } ?? "")\(seconds)")
            }
        }
        return ExitCode.success
    }

    static func runJSON(_ run: WorkflowRunRecord) -> JSONValue {
        [
            "run": .string(run.id), "workflow": .string(run.workflow), "file": .string(run.file), "state": .string(run.status),
            "input": (try? JSONValue(parsing: run.input)) ?? .null, "started_ms": .int(run.startedMilliseconds),
            "finished_ms": run.finishedMilliseconds.map(JSONValue.int) ?? .null,
        ]
    }
}
