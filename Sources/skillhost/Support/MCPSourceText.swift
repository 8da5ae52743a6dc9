import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON

/// What the CLI shows of MCP servers used as skill sources (docs/mcp-sources.md): the third section of
/// `list`, `inspect NAME` and `inspect NAME.tool`, and the backend every front end calls them through.
enum MCPSourceText {
    /// The backend that adds the registry's MCP servers' tools to `base` for these options.
    static func backend(_ parsed: ParsedArguments, host: SkillHost, base: any SkillBackend) -> MCPSourceBackend {
        var launcher = MCPServerLauncher(
            hostExecutable: HostOptions.helperExecutable, paths: host.paths, output: HostOptions.pluginOutput(parsed))
        launcher.trustPolicy = (try? host.registryStore.read().trustPolicy) ?? .warn
        launcher.httpClient = SocketHTTPTransport()
        return MCPSourceBackend(base: base, host: host, launcher: launcher)
    }

    /// One server as `list` and `inspect` show it (SkillCalls' ``MCPSourceReport``, which the web page shares).
    typealias ServerState = MCPSourceReport.ServerState

    /// Every server's state; enabled servers are started (confined) to list their tools.
    static func states(_ backend: MCPSourceBackend) async throws(HostError) -> [ServerState] {
        try await MCPSourceReport.states(backend)
    }

    /// The third section of `list`.
    static func table(_ states: [ServerState]) -> String {
        let width = max(12, states.flatMap { [$0.entry.name.count] + $0.tools.map { $0.skill.id.count + 2 } }.max() ?? 0) + 2
        var lines = [CatalogTable.pad("MCP SERVER", width) + CatalogTable.pad("STATUS", 10) + CatalogTable.pad("TOOLS", 10) + "SERVER"]
        for state in states {
            lines.append(CatalogTable.pad(state.entry.name, width) + CatalogTable.pad(state.status, 10)
                + CatalogTable.pad(state.status == "ok" ? "\(state.tools.count)" : "-", 10) + transportText(state.entry))
            if let error = state.error { lines.append("  ! " + error) }
            for tool in state.tools {
                lines.append(CatalogTable.pad("  " + tool.skill.id, width) + CatalogTable.pad(tool.skill.enabled ? "on" : "off", 10)
                    + CatalogTable.pad(tool.skill.permission.rawValue, 10)
                    + (tool.skill.title.nonEmpty ?? String(tool.skill.description.prefix { $0 != "\n" }.prefix(80))))
            }
            for invalid in state.invalid { lines.append("  invalid: \"\(invalid.remoteName)\" \(invalid.reason)") }
        }
        return lines.joined(separator: "\n")
    }

    /// `list --json`'s `mcp_servers`.
    static func json(_ states: [ServerState]) -> JSONValue { MCPSourceReport.json(states) }

    static func transportText(_ entry: MCPServerEntry) -> String {
        switch entry.transport {
        case .stdio(let command, let arguments): return "stdio: " + ([command] + arguments).joined(separator: " ")
        case .http(let url, _): return "http: " + url
        }
    }

    static func transportJSON(_ entry: MCPServerEntry) -> JSONValue { MCPSourceReport.transportJSON(entry) }

    /// The sandbox a server runs in: what `inspect` shows.
    static func sandboxJSON(_ entry: MCPServerEntry, launcher: MCPServerLauncher) -> JSONValue {
        MCPSourceReport.sandboxJSON(entry, launcher: launcher)
    }

    static func sandboxText(_ entry: MCPServerEntry, launcher: MCPServerLauncher) -> [String] {
        let json = sandboxJSON(entry, launcher: launcher)
        guard json["confined"]?.boolValue == true else { return ["  sandbox:     none here (\(json["why"]?.stringValue ?? ""))"] }
        let files = (json["files"]?.arrayValue ?? []).map { "\($0["path"]?.stringValue ?? "") (\($0["access"]?.stringValue ?? ""))" }
        return [
            "  sandbox:     confined (skillhost-sandbox): its installation read-only, its data folder, what its entry declares",
            "  installation: " + (json["installation"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "),
            "  data:        " + (json["data"]?.stringValue ?? ""),
            "  files:       " + (files.isEmpty ? "none" : files.joined(separator: ", ")),
            "  network:     " + (json["network"].map { $0.stringValue ?? $0.serialized() } ?? "none"),
            "  env:         " + ((json["env"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ").nonEmpty ?? "none"),
        ]
    }

    /// `inspect NAME` / `inspect NAME.tool` for an MCP server or one of its tools; nil when `id` names neither.
    static func inspect(_ id: String, parsed: ParsedArguments, host: SkillHost) async throws -> (json: JSONValue, text: String)? {
        let name = Identifier.normalize(id)
        let servers = try host.mcpServers()
        let backend = backend(parsed, host: host, base: EmptyBackend())
        defer { backend.shutdown() }
        if let entry = servers.first(where: { $0.name == name }) {
            let states = try await states(backend).filter { $0.entry.name == entry.name }
            var json = states.first.map { MCPSourceReport.serverJSON($0, launcher: backend.launcher) }?.objectValue ?? [:]
            let revision = backend.session(for: entry).revision
            json["protocol"] = revision.map(JSONValue.string) ?? .null
            var lines = ["MCP server \(entry.name)", "  transport:   " + transportText(entry), "  status:      " + (states.first?.status ?? "?")]
            if let revision { lines.append("  protocol:    " + revision + (revision == MCPServerSession.statelessVersion ? " (stateless, through server/discover)" : " (initialize)")) }
            if let error = states.first?.error { lines.append("  error:       " + error) }
            lines += sandboxText(entry, launcher: backend.launcher)
            lines.append("  tools:       " + (states.first?.tools.map(\.skill.id).joined(separator: ", ").nonEmpty ?? "none"))
            for invalid in states.first?.invalid ?? [] { lines.append("  invalid:     \"\(invalid.remoteName)\" \(invalid.reason)") }
            return (.object(json), lines.joined(separator: "\n"))
        }
        guard let entry = servers.first(where: { Identifier.skillName(name, inPlugin: $0.name) != nil }) else { return nil }
        let tool = try await backend.tool(name, of: entry)
        let skill = tool.skill
        let json = MCPSourceReport.toolJSON(tool, of: entry, launcher: backend.launcher)
        var lines = [
            "skill \(skill.id) (MCP tool \"\(tool.remoteName)\" of server \(entry.name))",
            "  title:       \(skill.title)", "  description: \(skill.description)",
            "  enabled:     \(skill.enabled ? "yes" : "no")",
            "  permission:  \(skill.permission.rawValue) " + permissionSource(skill, of: entry),
            "  approval:    \(skill.approval.rawValue)", "  timeout:     \(MCPClientConnectionText.seconds(skill.timeout))",
            "  transport:   " + transportText(entry),
            "  input:       " + skill.parameters.serialized(),
            "  output:      " + (skill.outputSchema?.serialized() ?? "none declared"),
            "  annotations: " + (tool.annotations == .null ? "none" : tool.annotations.serialized()),
        ]
        lines += sandboxText(entry, launcher: backend.launcher)
        return (json, lines.joined(separator: "\n"))
    }
}

extension MCPSourceText {
    /// Where an MCP tool's permission comes from, as `inspect` says it: the registry's override, or the
    /// server's annotations (and how to override them).
    static func permissionSource(_ skill: SkillDescription, of entry: MCPServerEntry) -> String {
        let path = Registry.mcpToolSettingPath(server: entry.name, skillID: skill.id, key: "permission")
        if entry.toolSettings(skill.id).permission != nil { return "(set in the registry at \(path); 'skillhost set \(skill.id) permission --reset' goes back to the server's annotations)" }
        return "(from the server's annotations: readOnlyHint is read, destructiveHint dangerous, otherwise write; 'skillhost set \(skill.id) permission LEVEL' overrides it)"
    }
}

/// A backend with no tools (for `list` and `inspect`, which ask MCP servers only).
struct EmptyBackend: SkillBackend {
    func tools() throws(HostError) -> [SkillTool] { [] }
    func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        throw HostError(.notFound, "no skill \(skillID)")
    }
    nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        throw HostError(.notFound, "no skill \(call.skill.id)")
    }
}

enum MCPClientConnectionText {
    static func seconds(_ value: Double) -> String { value == value.rounded() ? "\(Int(value)) s" : "\(value) s" }
}

extension String {
    /// Nil when empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
