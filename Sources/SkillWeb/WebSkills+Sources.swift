import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows

/// The Skills tab's MCP servers (docs/mcp-sources.md) and installed workflows (docs/workflows.md): what
/// `skillhost list --json` and `inspect --json` show of them (SkillCalls' ``MCPSourceReport``), with the
/// state the page shows (`running`, `stopped`, `broken`, `denied`), the trust pin and each tool's recent
/// calls; a workflow with its steps.
extension WebSkills {
    /// `mcp_servers` as `list --json` has them, each with `state`; enabled servers are started (confined)
    /// to list their tools, as `list` does.
    func servers() -> JSONValue {
        guard let sources else { return [] }
        do {
            let states = try MCPSourceBackend.wait { () async throws(HostError) in try await MCPSourceReport.states(sources) }
            let listed = MCPSourceReport.json(states).arrayValue ?? []
            return .array(zip(states, listed).map { state, json in
                var object = json.objectValue ?? [:]
                object["state"] = .string(Self.state(of: state.status))
                return .object(object)
            })
        } catch {
            return ["error": .string(error.message)]
        }
    }

    /// What the page calls a server's status: `running` (it answered), `stopped` (disabled), `broken`
    /// (it would not start or answer), `denied` (the administrator's policy).
    static func state(of status: String) -> String {
        switch status {
        case "ok": "running"
        case "disabled": "stopped"
        case "denied": "denied"
        default: "broken"
        }
    }

    /// The detail of an MCP server or one of its tools, nil when `id` names neither.
    func sourceDetail(_ id: String) throws -> JSONValue? {
        guard let sources else { return nil }
        let servers = try sources.host.mcpServers()
        if let entry = servers.first(where: { $0.name == id }) {
            let state = try MCPSourceBackend.wait { () async throws(HostError) in try await MCPSourceReport.states(sources) }.first { $0.entry.name == entry.name }
                ?? MCPSourceReport.ServerState(entry: entry, status: entry.enabled ? "ok" : "disabled")
            var object = MCPSourceReport.serverJSON(state, launcher: sources.launcher).objectValue ?? [:]
            object["kind"] = "mcp server"
            object["state"] = .string(Self.state(of: state.status))
            object["trust_pin"] = Self.trustPin(entry)
            return .object(object)
        }
        guard let entry = servers.first(where: { Identifier.skillName(id, inPlugin: $0.name) != nil }) else { return nil }
        let tool: MCPRemoteTool
        do {
            tool = try MCPSourceBackend.wait { () async throws(HostError) in try await sources.tool(id, of: entry) }
        } catch {
            throw WebRefusal(error.kind == .notFound ? 404 : 502, error.message)
        }
        var object = MCPSourceReport.toolJSON(tool, of: entry, launcher: sources.launcher).objectValue ?? [:]
        object["kind"] = "mcp tool"
        object["parameters"] = tool.skill.parameters  // the parameter table the page draws for every skill
        object["trust_pin"] = Self.trustPin(entry)
        addCalls(of: id, to: &object)
        return .object(object)
    }

    /// The installed workflows, each with its steps (or why it cannot be read).
    func workflowList() -> JSONValue {
        guard let workflows else { return [] }
        let available = try? tools?.tools()  // once for all of them: it lists every MCP server's tools
        return .array(workflows.files().sorted { $0.key < $1.key }.map { name, path in workflowJSON(name, path: path, available: available) })
    }

    /// The detail of `workflow.NAME`, nil for another id.
    func workflowDetail(_ id: String) -> JSONValue? {
        guard let workflows, id.hasPrefix(InstalledWorkflows.prefix) else { return nil }
        let name = String(id.dropFirst(InstalledWorkflows.prefix.count))
        guard let path = workflows.files()[name] else { return nil }
        var object = workflowJSON(name, path: path, available: try? tools?.tools()).objectValue ?? [:]
        addCalls(of: id, to: &object)
        return .object(object)
    }

    /// A workflow with its steps; `available`: the skills its steps may call (nil: not checked).
    private func workflowJSON(_ name: String, path: String, available: [SkillTool]?) -> JSONValue {
        var object: JSONObject = [
            "id": .string(InstalledWorkflows.prefix + name), "name": .string(name), "kind": "workflow", "file": .string(path),
        ]
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            object["error"] = .string("\(path) cannot be read; install it again with 'skillhost workflow install FILE'")
            return .object(object)
        }
        switch WorkflowParser.parse(text, file: path) {
        case .failure(let faults):
            object["error"] = .string(faults.problems.first?.description ?? "\(path) is not a valid workflow")
        case .success(let workflow):
            object["description"] = .string(workflow.description)
            object["parameters"] = workflow.inputs
            object["steps"] = .array(workflow.steps.map { step in
                [
                    "id": .string(step.id), "skill": .string(step.skill), "needs": .array(step.dependencies.map(JSONValue.string)),
                    "if": step.condition.map(JSONValue.string) ?? .null, "retries": .int(Int64(step.retry.count)),
                    "continue_on_error": .bool(step.continueOnError),
                ]
            })
            // What `workflow validate` would say against the skills offered now (a step's skill switched off…).
            if let available, let problem = WorkflowChecker(tools: available).problems(of: workflow, source: text).first {
                object["error"] = .string(problem.description)
            }
        }
        return .object(object)
    }

    /// Recent calls of `id` with their p50/p95, as a plugin skill's detail has them.
    func addCalls(of id: String, to object: inout JSONObject) {
        object["stats"] = (try? store.stats(skillID: id)).map(RecordJSON.stats) ?? .null
        object["recent_calls"] = .array(((try? store.calls(matching: TraceFilter(skillID: id, limit: 20))) ?? []).map(RecordJSON.call))
    }

    /// The pins `skillhost trust NAME` wrote: the server's script and its interpreter.
    private static func trustPin(_ entry: MCPServerEntry) -> JSONValue {
        guard let pin = entry.sha256 else { return .null }
        return .string(entry.interpreterSHA256.map { "\(pin) (interpreter \($0))" } ?? pin)
    }
}
