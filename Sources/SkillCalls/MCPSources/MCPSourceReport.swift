import SkillHostCore
import SkillJSON

/// What every front end shows of the registry's MCP servers used as skill sources (docs/mcp-sources.md):
/// each server's state and tools, as `skillhost list --json`'s `mcp_servers`, `inspect --json` and the web
/// page's Skills tab show them. One description, so the CLI and the page cannot drift apart.
public enum MCPSourceReport {
    /// One server: its entry, status (`ok`, `disabled`, `denied`, `broken`, `error`), the error of a status
    /// other than `ok`/`disabled`, its tools (disabled ones included) and tools that cannot be skills.
    public struct ServerState: Sendable {
        public var entry: MCPServerEntry
        public var status: String
        public var error: String?
        public var tools: [MCPRemoteTool] = []
        public var invalid: [MCPRemoteTool.Invalid] = []

        public init(entry: MCPServerEntry, status: String, error: String? = nil) {
            self.entry = entry
            self.status = status
            self.error = error
        }
    }

    /// Every server's state; enabled servers are started (confined) to list their tools.
    public static func states(_ backend: MCPSourceBackend) async throws(HostError) -> [ServerState] {
        var states: [ServerState] = []
        for entry in try backend.host.mcpServers() {
            var state = ServerState(entry: entry, status: entry.enabled ? "ok" : "disabled")
            if let block = backend.host.mcpPolicyBlock(entry.name) {
                state.status = "denied"
                state.error = block
            } else if entry.enabled {
                do {
                    (state.tools, state.invalid) = try await backend.listing(of: entry)
                } catch {
                    state.status = error.kind == .pluginCrashed ? "broken" : "error"
                    state.error = error.message
                }
            }
            states.append(state)
        }
        return states
    }

    /// `list --json`'s `mcp_servers`.
    public static func json(_ states: [ServerState]) -> JSONValue {
        .array(states.map { state in
            [
                "name": .string(state.entry.name), "status": .string(state.status), "enabled": .bool(state.entry.enabled),
                "error": state.error.map(JSONValue.string) ?? .null, "transport": transportJSON(state.entry),
                "tools": .array(state.tools.map { tool in
                    [
                        "id": .string(tool.skill.id), "name": .string(tool.remoteName), "title": .string(tool.skill.title),
                        "description": .string(tool.skill.description), "enabled": .bool(tool.skill.enabled),
                        "permission": .string(tool.skill.permission.rawValue),
                    ]
                }),
                "invalid": .array(state.invalid.map { ["name": .string($0.remoteName), "reason": .string($0.reason)] }),
            ]
        })
    }

    /// How the server is reached; header names only (their values may hold secrets' references).
    public static func transportJSON(_ entry: MCPServerEntry) -> JSONValue {
        switch entry.transport {
        case .stdio(let command, let arguments):
            return ["type": "stdio", "command": .string(command), "args": .array(arguments.map(JSONValue.string))]
        case .http(let url, let headers):
            return ["type": "http", "url": .string(url), "headers": .array(headers.keys.sorted().map(JSONValue.string))]
        }
    }

    /// The sandbox a server runs in: its installation, data folder, the files, network and processes its
    /// entry grants, the names of the variables it gets.
    public static func sandboxJSON(_ entry: MCPServerEntry, launcher: MCPServerLauncher) -> JSONValue {
        guard case .stdio = entry.transport else { return ["confined": false, "why": "an HTTP server runs elsewhere; only its answers reach skillhost"] }
        let policy = launcher.policy(for: entry)
        let network: JSONValue = switch policy.network {
        case .none: "none"
        case .any: "any"
        case .tcpConnect(let ports): .array(ports.map { .int(Int64($0)) })
        }
        return [
            "confined": true,
            "installation": .array((launcher.installation(for: entry)?.paths ?? []).map(JSONValue.string)),
            "data": .string(launcher.paths.dataDirectory(forMCPServer: entry.name)),
            "files": .array(policy.rules.dropFirst().filter { !MCPServerLauncher.systemConfiguration.contains($0.path) }.map { ["path": .string($0.path), "access": .string($0.access.rawValue)] }),
            "network": network, "processes": .bool(policy.processes),
            "env": .array(entry.environment.keys.sorted().map(JSONValue.string)),
            "system": "read and run /usr/bin, /bin, /usr/lib, /lib*, /usr/local/{bin,lib}, /usr/libexec; read /usr/share, /etc/ssl, name resolution and git's system settings",
        ]
    }

    /// `inspect NAME --json` of a server in `states`.
    public static func serverJSON(_ state: ServerState, launcher: MCPServerLauncher) -> JSONValue {
        var json = Self.json([state]).arrayValue?.first?.objectValue ?? [:]
        json["sandbox"] = sandboxJSON(state.entry, launcher: launcher)
        json["sha256"] = state.entry.sha256.map(JSONValue.string) ?? .null
        return .object(json)
    }

    /// `inspect NAME.tool --json`: the tool's skill, schemas, annotations and its server's sandbox.
    public static func toolJSON(_ tool: MCPRemoteTool, of entry: MCPServerEntry, launcher: MCPServerLauncher) -> JSONValue {
        let skill = tool.skill
        return [
            "id": .string(skill.id), "name": .string(tool.remoteName), "title": .string(skill.title),
            "description": .string(skill.description), "server": .string(entry.name), "transport": transportJSON(entry),
            "enabled": .bool(skill.enabled), "permission": .string(skill.permission.rawValue),
            "approval": .string(skill.approval.rawValue), "timeout": .double(skill.timeout),
            "input_schema": skill.parameters, "output_schema": skill.outputSchema ?? .null, "annotations": tool.annotations,
            "sandbox": sandboxJSON(entry, launcher: launcher),
        ]
    }
}
