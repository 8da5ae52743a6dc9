import SkillAgent
import SkillJSON

/// A snapshot of the tools the server offers: the enabled skills, their MCP names, and the `tools/list`
/// entries (spec 2025-11-25, server/tools). Rebuilt when the registry or the plugins folder changes.
public struct MCPToolCatalog: Sendable, Equatable {
    /// The skills, sorted by id.
    public let tools: [AgentTool]
    /// Skill id ↔ tool name.
    public let names: MCPToolNameMap
    /// The `tools/list` entries, in the order of ``tools``.
    public let entries: [JSONValue]
    /// Calls at once, by skill id.
    public let limits: [String: MCPCallLimit]
    private let positions: [String: Int]

    /// The catalog of these skills.
    public init(tools: [AgentTool], limits: [String: MCPCallLimit] = [:]) {
        self.limits = limits
        let sorted = tools.sorted { $0.skillID < $1.skillID }
        let names = MCPToolNameMap(skillIDs: sorted.map(\.skillID))
        self.tools = sorted
        self.positions = Dictionary(sorted.enumerated().map { ($1.skillID, $0) }, uniquingKeysWith: { first, _ in first })
        self.names = names
        self.entries = sorted.map { Self.entry(for: $0, name: names.toolName(for: $0.skillID) ?? $0.skillID) }
    }

    /// The skill behind a tool name, nil when there is none.
    public func tool(named name: String) -> AgentTool? {
        guard let id = names.skillID(for: name), let index = positions[id] else { return nil }
        return tools[index]
    }

    /// One `tools/list` entry: name, title, description, inputSchema (the skill's parameters), annotations
    /// from the permission (`read` → read-only; `dangerous` → destructive) and `idempotent`, and
    /// `outputSchema` when the manifest declares `output_schema`.
    static func entry(for tool: AgentTool, name: String) -> JSONValue {
        var description = tool.description
        if tool.permission != .read {
            description += " (permission: \(tool.permission.rawValue); runs only when allowed, see docs/mcp.md)"
        }
        let annotations: JSONObject = [
            "title": .string(tool.title),
            "readOnlyHint": .bool(tool.permission == .read),
            "destructiveHint": .bool(tool.permission == .dangerous),
            "idempotentHint": .bool(tool.idempotent),
            "openWorldHint": false,
        ]
        var entry: JSONObject = [
            "name": .string(name),
            "title": .string(tool.title),
            "description": .string(description),
            "inputSchema": tool.parameters,
            "annotations": .object(annotations),
        ]
        if let outputSchema = tool.skill.outputSchema { entry["outputSchema"] = outputSchema }
        return .object(entry)
    }
}
