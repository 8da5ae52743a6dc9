import SkillCalls
import SkillJSON

/// A snapshot of the tools the server offers: the enabled skills, their MCP names, and the `tools/list`
/// entries (spec 2025-11-25, server/tools). Rebuilt when the registry or the plugins folder changes.
public struct MCPToolCatalog: Sendable, Equatable {
    /// The skills, sorted by id.
    public let tools: [SkillTool]
    /// Skill id ↔ tool name.
    public let names: ToolNameMap
    /// The `tools/list` entries, in the order of ``tools``.
    public let entries: [JSONValue]
    /// Calls at once, by skill id.
    public let limits: [String: CallLimit]
    /// Tool name → position in ``tools`` and the tool's limit: what a `tools/call` needs, in one look-up.
    private let byName: [String: (position: Int, limit: CallLimit?)]

    /// The catalog of these skills.
    public init(tools: [SkillTool], limits: [String: CallLimit] = [:]) {
        self.limits = limits
        let sorted = tools.sorted { $0.id < $1.id }
        let names = ToolNameMap(skillIDs: sorted.map(\.id), grammar: .mcp)
        self.tools = sorted
        var byName: [String: (position: Int, limit: CallLimit?)] = [:]
        for (position, tool) in sorted.enumerated() {
            guard let name = names.toolName(for: tool.id), byName[name] == nil else { continue }
            byName[name] = (position, limits[tool.id])
        }
        self.byName = byName
        self.names = names
        self.entries = sorted.map { Self.entry(for: $0, name: names.toolName(for: $0.id) ?? $0.id) }
    }

    /// The skill behind a tool name, nil when there is none.
    public func tool(named name: String) -> SkillTool? {
        byName[name].map { tools[$0.position] }
    }

    /// The tool behind a name and its limit (``limits`` of its skill id), nil when there is none.
    func call(named name: String) -> (tool: SkillTool, limit: CallLimit?)? {
        byName[name].map { (tools[$0.position], $0.limit) }
    }

    public static func == (lhs: MCPToolCatalog, rhs: MCPToolCatalog) -> Bool {
        lhs.tools == rhs.tools && lhs.names == rhs.names && lhs.entries == rhs.entries && lhs.limits == rhs.limits
    }

    /// One `tools/list` entry: name, title, description, inputSchema (the skill's parameters), the tool's
    /// annotations (``SkillTool/annotations``), and `outputSchema` when the manifest declares `output_schema`.
    static func entry(for tool: SkillTool, name: String) -> JSONValue {
        var description = tool.description
        if tool.permission != .read {
            description += " (permission: \(tool.permission.rawValue); runs only when allowed, see docs/mcp.md)"
        }
        var entry: JSONObject = [
            "name": .string(name),
            "title": .string(tool.title),
            "description": .string(description),
            "inputSchema": tool.parameters,
            "annotations": tool.annotations.json,
        ]
        if let outputSchema = tool.outputSchema { entry["outputSchema"] = outputSchema }
        return .object(entry)
    }
}
