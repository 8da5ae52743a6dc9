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
    /// Tool name → position in ``tools`` and the tool's limit: what a `tools/call` needs, in one look-up.
    private let byName: [String: (position: Int, limit: MCPCallLimit?)]

    /// The catalog of these skills.
    public init(tools: [AgentTool], limits: [String: MCPCallLimit] = [:]) {
        self.limits = limits
        let sorted = tools.sorted { $0.skillID < $1.skillID }
        let names = MCPToolNameMap(skillIDs: sorted.map(\.skillID))
        self.tools = sorted
        var byName: [String: (position: Int, limit: MCPCallLimit?)] = [:]
        for (position, tool) in sorted.enumerated() {
            guard let name = names.toolName(for: tool.skillID), byName[name] == nil else { continue }
            byName[name] = (position, limits[tool.skillID])
        }
        self.byName = byName
        self.names = names
        self.entries = sorted.map { Self.entry(for: $0, name: names.toolName(for: $0.skillID) ?? $0.skillID) }
    }

    /// The skill behind a tool name, nil when there is none.
    public func tool(named name: String) -> AgentTool? {
        byName[name].map { tools[$0.position] }
    }

    /// The tool behind a name and its limit (``limits`` of its skill id), nil when there is none.
    func call(named name: String) -> (tool: AgentTool, limit: MCPCallLimit?)? {
        byName[name].map { (tools[$0.position], $0.limit) }
    }

    public static func == (lhs: MCPToolCatalog, rhs: MCPToolCatalog) -> Bool {
        lhs.tools == rhs.tools && lhs.names == rhs.names && lhs.entries == rhs.entries && lhs.limits == rhs.limits
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
