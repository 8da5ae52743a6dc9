import SkillJSON

/// One tool of an MCP server as a skill (docs/mcp-sources.md, "Tools as skills"): id `NAME.tool` (the
/// tool's name normalized as plugin ids are, which must then be one segment of the id grammar), its input and
/// output schema, annotations, and the permission they imply — `readOnlyHint` → `read`, `destructiveHint` →
/// `dangerous`, otherwise `write` — unless the registry overrides it; approval, timeout and enabled state from
/// the registry (`mcp_servers.NAME.tools.ID`).
public struct MCPRemoteTool: Sendable, Equatable {
    /// The tool's name on the server (what `tools/call` sends).
    public var remoteName: String
    /// The skill, as every front end sees it.
    public var skill: SkillDescription
    /// The server's `annotations` as it sent them.
    public var annotations: JSONValue

    /// A tool the host cannot offer, with why.
    public struct Invalid: Error, Sendable, Equatable {
        public var remoteName: String
        public var reason: String
    }

    /// The tools of `server`'s listing, and those that cannot be skills.
    public static func tools(from listing: [JSONValue], server entry: MCPServerEntry) -> (tools: [MCPRemoteTool], invalid: [Invalid]) {
        var tools: [MCPRemoteTool] = []
        var invalid: [Invalid] = []
        var seen: [String: String] = [:]
        for item in listing {
            guard let name = item["name"]?.stringValue else {
                invalid.append(Invalid(remoteName: item["name"]?.serialized() ?? "(no name)", reason: "has no \"name\" string"))
                continue
            }
            switch tool(item, name: name, server: entry) {
            case .success(let tool):
                if let other = seen[tool.skill.id] {
                    invalid.append(Invalid(remoteName: name, reason: "is \(tool.skill.id) once normalized, as \"\(other)\" is; the first one is offered"))
                    continue
                }
                seen[tool.skill.id] = name
                tools.append(tool)
            case .failure(let problem):
                invalid.append(problem)
            }
        }
        return (tools, invalid)
    }

    static func tool(_ item: JSONValue, name: String, server entry: MCPServerEntry) -> Result<MCPRemoteTool, Invalid> {
        let normalized = Identifier.normalize(name)
        guard Identifier.isValidSegment(normalized), normalized.utf8.count + entry.name.utf8.count < Identifier.maximumLength else {
            let problem = normalized.contains(".")
                ? "contains '.'; a tool's name must be one segment of a-z, 0-9, '_' and '-' (the server names its tools)"
                : Identifier.problem(with: normalized).isEmpty ? "makes an id longer than \(Identifier.maximumLength) bytes" : Identifier.problem(with: normalized)
            return .failure(Invalid(remoteName: name, reason: "cannot be a skill id: \"\(normalized)\" \(problem)"))
        }
        let id = entry.name + "." + normalized
        var parameters = item["inputSchema"] ?? ["type": "object"]
        if case .object(var schema) = parameters, schema["type"] == nil {
            schema["type"] = "object"
            parameters = .object(schema)
        }
        guard case .object = parameters, parameters["type"]?.stringValue == "object" else {
            return .failure(Invalid(remoteName: name, reason: "has an inputSchema that is not an object schema ({\"type\": \"object\", …})"))
        }
        let annotations = item["annotations"] ?? .null
        let settings = entry.toolSettings(id)
        let permission = settings.permission ?? permission(from: annotations)
        let title = item["title"]?.stringValue ?? annotations["title"]?.stringValue ?? ""
        var manifest = SkillManifest(
            id: id, title: title, description: item["description"]?.stringValue ?? title,
            parameters: parameters, permission: permission, timeout: settings.timeout ?? entry.timeout,
            idempotent: annotations["idempotentHint"]?.boolValue ?? false, examples: [])
        if case .object = item["outputSchema"] { manifest.outputSchema = item["outputSchema"] }
        let path: String = switch entry.transport {
        case .stdio(let command, _): command
        case .http(let url, _): url
        }
        var skill = SkillDescription(
            manifest: manifest, pluginID: entry.name, pluginPath: path,
            enabled: entry.enabled && (settings.enabled ?? true),
            approval: settings.approval ?? (permission == .read ? .allow : .ask), rateLimitPerMinute: settings.rateLimitPerMinute)
        skill.settingsOwner = .mcpServer
        return .success(MCPRemoteTool(remoteName: name, skill: skill, annotations: annotations))
    }

    /// The permission a server's annotations imply: `readOnlyHint` → read, `destructiveHint` → dangerous,
    /// otherwise (no hints: a server's word is all there is) write.
    public static func permission(from annotations: JSONValue) -> Permission {
        if annotations["readOnlyHint"]?.boolValue == true { return .read }
        return annotations["destructiveHint"]?.boolValue == true ? .dangerous : .write
    }
}
