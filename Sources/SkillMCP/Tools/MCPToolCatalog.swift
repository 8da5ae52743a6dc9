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

    /// The catalog of these skills, named `naming`'s way. `tools/call` finds a tool by either name: its
    /// portable name (`clock_now`) or its skill id (`clock.now`, MCP's wider grammar; a skill id always has
    /// a dot, a portable name never, so the two cannot clash).
    public init(tools: [SkillTool], limits: [String: CallLimit] = [:], naming: MCPToolNaming = .portable) {
        self.limits = limits
        // Sorted by skill id: a stable `tools/list` order, the same on every replica and every run.
        let sorted = tools.sorted { $0.id < $1.id }
        let portable = ToolNameMap(skillIDs: sorted.map(\.id), grammar: .portable)
        let ids = ToolNameMap(skillIDs: sorted.map(\.id), grammar: .mcp)
        let names = naming == .portable ? portable : ids
        self.tools = sorted
        var byName: [String: (position: Int, limit: CallLimit?)] = [:]
        for map in [names, naming == .portable ? ids : portable] {
            for (position, tool) in sorted.enumerated() {
                guard let name = map.toolName(for: tool.id), byName[name] == nil else { continue }
                byName[name] = (position, limits[tool.id])
            }
        }
        self.byName = byName
        self.names = names
        self.entries = sorted.map { Self.entry(for: $0, name: names.toolName(for: $0.id) ?? $0.id) }
    }

    /// The `_meta` key of a tool's skill id.
    public static let skillIDMetaKey = "dev.skillhost/skillId"

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
        // The title keeps the skill id (the portable name replaced its dot), and so does `_meta`.
        let title = tool.title.isEmpty || tool.title == tool.id ? tool.id : "\(tool.title) (\(tool.id))"
        var entry: JSONObject = [
            "name": .string(name),
            "title": .string(title),
            "description": .string(description),
            "inputSchema": tool.parameters,
            "annotations": tool.annotations.json,
        ]
        if let outputSchema = tool.outputSchema { entry["outputSchema"] = outputSchema }
        entry["_meta"] = [.init(stringLiteral: skillIDMetaKey): .string(tool.id)]
        return .object(entry)
    }
}
