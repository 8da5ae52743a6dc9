import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows
import Synchronization

/// `skillhost workflow validate|run|resume|show|runs`: skills composed into a graph (docs/workflows.md).
enum WorkflowCommand: Command {
    static let name = "workflow"
    static let summary = "check, run and resume workflows: skills composed into a graph"
    static let help = """
        usage: skillhost workflow validate FILE [--json]
               skillhost workflow run FILE [INPUT_JSON|-] [--yes] [--json] [--parallel N] [--state DIR]
               skillhost workflow resume RUN [--yes] [--json] [--parallel N] [--state DIR]
               skillhost workflow show RUN [--json] [--state DIR]
               skillhost workflow runs [--json] [--state DIR]
               skillhost workflow install FILE
               skillhost workflow list
               skillhost workflow schedule NAME 'CRON' [INPUT_JSON]   (unschedule NAME; schedules)
               skillhost workflow due [--yes] [--json] [--parallel N] [--install-timer]

        A workflow file (YAML, as SKILL.md frontmatter, or JSON) names typed inputs and steps; each step calls
        one skill (a plugin's, an MCP server's tool, or run_skill_script for an instruction skill's script)
        with arguments that may refer to the input (${{ inputs.zone }}) or to an earlier step's output
        (${{ steps.cal.output.events }}); 'deliver' writes the result to a file under
        ~/.local/share/skillhost/deliveries. See docs/workflows.md.

          validate  check the file against the installed skills: every fault at once, one line each
                    (FILE:LINE:COLUMN: what and the fix); exit 0 when it may run
          run       check, then run it: independent steps at once, each step a card (pending, running,
                    done, failed, skipped) with its time; prints the run id first
          resume    go on with a run that was stopped (killed, crashed): finished steps are not run again;
                    a step of a non-idempotent skill that had started is asked about first (--yes: run it
                    again, with the same idempotency key RUN/STEP)
          show      a run and its steps; runs: the latest runs
          install   check FILE and install it as the skill workflow.NAME ('skillhost call workflow.NAME JSON');
                    its write/dangerous steps are approved once per run, up front
          list      the installed workflows
          schedule  run the installed workflow NAME at the times CRON names (5 fields, the system's local
                    time or the zone of a TZ= prefix: '0 9 * * 1-5' is 9:00 on weekdays,
                    'TZ=Europe/Paris 0 9 * * *' 9:00 in Paris; @hourly, @daily…)
          due       run every scheduled workflow whose time has come: once per scheduled minute however
                    often it is called (from cron or a timer, every minute); --yes approves their
                    write/dangerous steps; --install-timer writes a systemd user timer and service that
                    call it every minute (~/.config/systemd/user/skillhost-workflows.{timer,service})

        Every step is a call like any other: approvals (--yes, or a y/N prompt on a terminal), timeouts,
        the sandbox and the history apply (trace shows them with front end "workflow").

        Options:
          --yes        approve write/dangerous steps without asking
          --json       validate: {"ok","problems":[…]}; run/resume: one JSON event per line
          --parallel N steps running at once, at most (1-64; each skill's max_workers still applies)
          --state DIR  folder of the history database (env SKILLHOST_STATE)

        Exit codes: 0 the run finished, \(ExitCode.invalidArguments) the workflow or input is invalid, \(ExitCode.skillFailed) a step failed, \(ExitCode.notFound) no such run.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--yes", "--json", "--install-timer"], options: HistoryOptions.options.union(["--now", "--parallel"]))
        _ = try parallel(parsed)
        guard let action = parsed.positionals.first else { throw UsageError("expected validate, run, resume, show, runs, install, list, schedule, unschedule, schedules or due") }
        let rest = Array(parsed.positionals.dropFirst())
        switch action {
        case "validate":
            guard rest.count == 1 else { throw UsageError("expected: workflow validate FILE") }
            return await validate(file: rest[0], parsed)
        case "run":
            guard (1...2).contains(rest.count) else { throw UsageError("expected: workflow run FILE [INPUT_JSON]") }
            return try await start(file: rest[0], input: rest.count == 2 ? rest[1] : "{}", parsed)
        case "resume":
            guard rest.count == 1 else { throw UsageError("expected: workflow resume RUN") }
            return try await resume(runID: rest[0], parsed)
        case "show":
            guard rest.count == 1 else { throw UsageError("expected: workflow show RUN") }
            return try show(runID: rest[0], parsed)
        case "install":
            guard rest.count == 1 else { throw UsageError("expected: workflow install FILE") }
            return try await install(file: rest[0], parsed)
        case "list":
            guard rest.isEmpty else { throw UsageError("expected: workflow list") }
            let host = HostOptions.host(parsed)
            let sources = MCPSourceText.backend(parsed, host: host, base: HostSkillBackend(host: host))
            defer { sources.shutdown() }
            let tools = (try? await backend(wrapping: sources, host: host, parsed).listTools()) ?? []
            for (name, path) in installed(parsed).files().sorted(by: { $0.key < $1.key }) {
                let id = InstalledWorkflows.prefix + name
                print("\(id)  \(tools.contains { $0.id == id } ? "ok" : "invalid (run 'skillhost workflow validate \(path)')")  \(path)")
            }
            return ExitCode.success
        case "schedule":
            guard (2...3).contains(rest.count) else { throw UsageError("expected: workflow schedule NAME 'CRON' [INPUT_JSON]") }
            return try WorkflowSchedules.schedule(name: rest[0], cron: rest[1], input: rest.count == 3 ? rest[2] : "{}", parsed)
        case "unschedule":
            guard rest.count == 1 else { throw UsageError("expected: workflow unschedule NAME") }
            let removed = try HistoryOptions.open(parsed, registry: nil).removeWorkflowSchedule(name: rest[0])
            print(removed ? "removed the schedule of \(rest[0])" : "\(rest[0]) had no schedule")
            return removed ? ExitCode.success : ExitCode.notFound
        case "schedules":
            guard rest.isEmpty else { throw UsageError("expected: workflow schedules") }
            for schedule in try HistoryOptions.open(parsed, registry: nil).workflowSchedules() {
                print("\(schedule.name)  '\(schedule.cron)'  \(schedule.input)")
            }
            return ExitCode.success
        case "due":
            guard rest.isEmpty else { throw UsageError("expected: workflow due [--install-timer]") }
            if parsed.has("--install-timer") { return try WorkflowSchedules.installTimer(parsed) }
            return try await WorkflowSchedules.runDue(parsed)
        case "runs":
            guard rest.isEmpty else { throw UsageError("expected: workflow runs") }
            let store = try HistoryOptions.open(parsed, registry: nil)
            let runs = try store.workflowRuns()
            if parsed.has("--json") {
                HostOptions.printJSON(.array(runs.map(runJSON)))
            } else {
                for run in runs { print("\(run.id)  \(run.workflow)  \(run.status)  \(run.file)") }
            }
            return ExitCode.success
        default:
            throw UsageError("unknown workflow action '\(action)'; expected validate, run, resume, show, runs, install, list, schedule, unschedule, schedules or due")
        }
    }

    /// The installed workflows' folder for these options.
    static func installed(_ parsed: ParsedArguments) -> InstalledWorkflows {
        InstalledWorkflows(folder: InstalledWorkflows.folder(plugins: HostOptions.paths(parsed).plugins, environment: Posix.environment()))
    }

    /// `inner` (the host's skills and the registry's MCP servers' tools, ``MCPSourceText/backend(_:host:base:)``)
    /// with the installed workflows added as skills (`workflow.NAME`), runs kept in the history: the one
    /// composition `call`, `chat`, `mcp` and `workflow` use, so a step may call what any of them may.
    static func backend(wrapping inner: any SkillBackend, host: SkillHost, _ parsed: ParsedArguments) -> WorkflowSkillBackend {
        let directory = HistoryOptions.directory(parsed)
        var backend = WorkflowSkillBackend(inner: inner, steps: steps(over: inner, host: host, parsed), installed: installed(parsed)) {
            try? HistoryStore(directory: directory)
        }
        backend.deliveries = WorkflowDelivery.folder(data: host.paths.data)
        backend.maxParallel = try? parallel(parsed)
        return backend
    }

    /// What steps call: `inner` (native skills, MCP servers' tools) and the instruction skills' script tool
    /// (`run_skill_script`, in the run's session workspace).
    static func steps(over inner: any SkillBackend, host: SkillHost, _ parsed: ParsedArguments) -> any SkillBackend {
        ScriptToolBackend(base: inner, host: host, stateDirectory: HistoryOptions.directory(parsed))
    }

    /// The step backend of `workflow validate|run|resume|due`: the host's skills, the MCP servers' tools (kill
    /// the servers with `sources.shutdown()`) and the script tool.
    static func stepSources(host: SkillHost, _ parsed: ParsedArguments) -> (steps: any SkillBackend, sources: MCPSourceBackend) {
        let sources = MCPSourceText.backend(parsed, host: host, base: HostSkillBackend(host: host))
        return (steps(over: sources, host: host, parsed), sources)
    }

    /// `--parallel N`: steps at once in all, at most (each source's worker limit still applies); nil: not given.
    static func parallel(_ parsed: ParsedArguments) throws -> Int? {
        guard let text = parsed.options["--parallel"] else { return nil }
        guard let count = Int(text), (1...64).contains(count) else {
            throw UsageError("--parallel takes a whole number from 1 to 64 (steps at once; each skill's max_workers still applies), not '\(text)'")
        }
        return count
    }

    static func install(file: String, _ parsed: ParsedArguments) async throws -> Int32 {
        let host = HostOptions.host(parsed)
        let text = try readFile(file)
        let (steps, sources) = stepSources(host: host, parsed)
        defer { sources.shutdown() }
        guard let workflow = await checked(file: file, text: text, host: host, steps: steps) else { return ExitCode.invalidArguments }
        let path = try installed(parsed).install(workflow, text: text)
        print("installed \(InstalledWorkflows.prefix)\(workflow.name) (\(path)); call it with 'skillhost call \(InstalledWorkflows.prefix)\(workflow.name) JSON'")
        return ExitCode.success
    }

    /// `list`'s output with the installed workflows after the plugins (a `WORKFLOW` table; in JSON a
    /// `workflows` member), unchanged when none is installed (so the listing cache's answer stays as it is).
    static func listingWithWorkflows(_ listing: String, json: Bool, _ parsed: ParsedArguments) async -> String {
        let files = installed(parsed).files()
        guard !files.isEmpty else { return listing }
        let host = HostOptions.host(parsed)
        let sources = MCPSourceText.backend(parsed, host: host, base: HostSkillBackend(host: host))
        defer { sources.shutdown() }
        let tools = (try? await backend(wrapping: sources, host: host, parsed).listTools()) ?? []
        let rows = files.sorted { $0.key < $1.key }.map { name, path in
            let tool = tools.first { $0.id == InstalledWorkflows.prefix + name }
            return (id: InstalledWorkflows.prefix + name, tool: tool, path: path)
        }
        if json {
            guard case .object(var object)? = try? JSONValue(parsing: listing) else { return listing }
            object["workflows"] = .array(rows.map { row in
                [
                    "id": .string(row.id), "status": .string(row.tool == nil ? "invalid" : "ok"), "path": .string(row.path),
                    "permission": row.tool.map { .string($0.permission.rawValue) } ?? .null,
                ]
            })
            return JSONValue.object(object).serialized(options: .prettyPrinted) + "\n"
        }
        let width = max(10, rows.map(\.id.count).max() ?? 0) + 2
        var lines = ["", "WORKFLOW".padding(toLength: width, withPad: " ", startingAt: 0) + "STATUS    PERMISSION  PATH"]
        for row in rows {
            lines.append(row.id.padding(toLength: width, withPad: " ", startingAt: 0)
                + (row.tool == nil ? "invalid   -           " : "ok        " + row.tool!.permission.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0))
                + row.path)
        }
        if rows.contains(where: { $0.tool == nil }) { lines.append("  ! an invalid workflow: see 'skillhost workflow validate PATH'") }
        return listing + lines.joined(separator: "\n") + "\n"
    }

    /// `inspect workflow.NAME`: the skill an installed workflow is, with its steps.
    static func inspect(_ id: String, _ parsed: ParsedArguments) async throws -> Int32 {
        let name = String(id.dropFirst(InstalledWorkflows.prefix.count))
        guard let path = installed(parsed).files()[name] else {
            throw HostError(.notFound, "no workflow \"\(name)\" is installed; see 'skillhost workflow list'", skillID: id)
        }
        let host = HostOptions.host(parsed)
        let sources = MCPSourceText.backend(parsed, host: host, base: HostSkillBackend(host: host))
        defer { sources.shutdown() }
        let tool = (try? await backend(wrapping: sources, host: host, parsed).listTools())?.first { $0.id == id }
        let workflow = try? WorkflowParser.load(path: path).get()
        let steps: [JSONValue] = (workflow?.steps ?? []).map { ["id": .string($0.id), "skill": .string($0.skill), "needs": .array($0.dependencies.map(JSONValue.string))] }
        if parsed.has("--json") {
            HostOptions.printJSON([
                "id": .string(id), "status": .string(tool == nil ? "invalid" : "ok"), "path": .string(path),
                "description": .string(tool?.description ?? workflow?.description ?? ""), "permission": tool.map { .string($0.permission.rawValue) } ?? .null,
                "parameters": workflow?.inputs ?? .null, "steps": .array(steps),
            ])
        } else {
            print("\(id)  (\(tool == nil ? "invalid: run 'skillhost workflow validate \(path)'" : "workflow, \(tool!.permission.rawValue)"))")
            print("  description: \(tool?.description ?? workflow?.description ?? "")")
            print("  parameters:  \((workflow?.inputs ?? .null).serialized())")
            print("  path:        \(path)")
            for step in workflow?.steps ?? [] {
                print("  step \(step.id): \(step.skill)" + (step.dependencies.isEmpty ? "" : " after \(step.dependencies.joined(separator: ", "))"))
            }
        }
        return ExitCode.success
    }

    /// The checker over what `steps` offers (native skills, MCP servers' tools, the script tool): a skill that
    /// is not offered says why (not found, disabled, its server's answer), and a script step's script must
    /// exist in its skill's folder.
    static func checker(_ host: SkillHost, steps: any SkillBackend) async -> WorkflowChecker {
        let offered = Dictionary(((try? await steps.listTools()) ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var checker = WorkflowChecker { id in
            if let tool = offered[id] { return .usable(tool) }
            do throws(HostError) {
                let skill = try host.skill(id)
                guard skill.enabled else {
                    return .unusable("skill \(skill.id) is disabled; enable it with 'skillhost enable \(skill.id)'")
                }
                return .usable(SkillTool(skill))
            } catch {
                // Not a native skill: what the step backend says of it (an MCP server's tool, the script tool).
                do throws(HostError) { _ = try steps.prepare(skillID: id, arguments: .object(JSONObject())) } catch let other {
                    if other.kind != .invalidArguments { return .unusable(other.message) }
                }
                return .unusable(error.message)
            }
        }
        checker.stepCheck = { step, tool in
            guard tool.id == ScriptToolBackend.toolID, let name = step.arguments["name"]?.stringValue,
                let path = step.arguments["path"]?.stringValue, !name.contains("${{"), !path.contains("${{") else { return nil }
            guard let record = try? host.currentCatalog().instructions.first(where: { $0.id == name }) else {
                return ("name", "no instruction skill '\(name)'; see 'skillhost list' for the instruction skills")
            }
            guard record.isUsable else { return ("name", "instruction skill \(name) is disabled; run 'skillhost enable \(name)'") }
            do throws(HostError) { _ = try SkillScript.resolve(skill: record.id, folder: record.folder, path: path) } catch {
                return ("path", error.message)
            }
            return nil
        }
        return checker
    }

    /// Reads and checks `file` against what `steps` offers. Returns the workflow, its faults, and notes on
    /// what could not be checked.
    static func load(
        file: String, text: String? = nil, host: SkillHost, steps: any SkillBackend
    ) async -> (workflow: Workflow, problems: [WorkflowProblem], notes: [WorkflowProblem]) {
        // Read once: the parser and the checker's line map share the text.
        let read = text ?? (try? String(contentsOfFile: file, encoding: .utf8))
        let parsed = read.map { WorkflowParser.parse($0, file: file) } ?? WorkflowParser.load(path: file)
        switch parsed {
        case .failure(let faults):
            return (Workflow(name: "", steps: [], file: file), faults.problems, [])
        case .success(let workflow):
            let source = read ?? ""
            let report = await checker(host, steps: steps).report(of: workflow, source: source)
            return (workflow, report.problems, report.notes)
        }
    }

    /// A workflow file's text, or the usage error that names it.
    static func readFile(_ file: String) throws -> String {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw UsageError("cannot read the workflow file '\(file)'; check the path")
        }
        return text
    }

    /// The workflow in `text` when it has no faults; nil when it has, each printed (``printProblems(_:)``).
    static func checked(file: String, text: String, host: SkillHost, steps: any SkillBackend) async -> Workflow? {
        let (workflow, problems, _) = await load(file: file, text: text, host: host, steps: steps)
        guard problems.isEmpty else {
            printProblems(problems)
            return nil
        }
        return workflow
    }

    static func validate(file: String, _ parsed: ParsedArguments) async -> Int32 {
        let host = HostOptions.host(parsed)
        let (steps, sources) = stepSources(host: host, parsed)
        defer { sources.shutdown() }
        let (workflow, problems, notes) = await load(file: file, host: host, steps: steps)
        func json(_ problem: WorkflowProblem) -> JSONValue {
            ["file": .string(problem.file), "line": .int(Int64(problem.position.line)), "column": .int(Int64(problem.position.column)), "message": .string(problem.message)]
        }
        if parsed.has("--json") {
            HostOptions.printJSON([
                "ok": .bool(problems.isEmpty), "workflow": .string(workflow.name),
                "problems": .array(problems.map(json)), "notes": .array(notes.map(json)),
            ])
        } else if problems.isEmpty {
            print("\(file): ok, workflow \(workflow.name), \(workflow.steps.count) step\(workflow.steps.count == 1 ? "" : "s"): " + workflow.steps.map { "\($0.id) (\($0.skill))" }.joined(separator: ", "))
            if let delivery = workflow.delivery { print("  delivers to \(WorkflowDelivery.folder(data: host.paths.data))/\(delivery.to)") }
            for note in notes { print(note.description) }
        } else {
            printProblems(problems)
        }
        return problems.isEmpty ? ExitCode.success : ExitCode.invalidArguments
    }

    /// Each fault on a line of its own, as compilers print them: `FILE:LINE:COLUMN: message`.
    static func printProblems(_ problems: [WorkflowProblem]) {
        for problem in problems { Posix.writeAll(2, Array((problem.description + "\n").utf8)) }
    }
}
