import SkillAgent

/// A two-way map between skill ids and MCP tool names (`[A-Za-z0-9_.-]{1,128}`, spec 2025-11-25,
/// server/tools "Tool names"): the agent's ``ToolNameMap`` with MCP's ``ToolNameGrammar``.
///
/// A skill id that already fits the grammar is its own name (`clock.now`). Other characters become `_`;
/// ids whose names would then collide, and ids longer than 128 characters, all get a suffix `-` + 8 hex
/// digits of a stable hash of the id (salted on a clash), so names never depend on which other skills are
/// enabled first. Lookups are exact: MCP names are case-sensitive.
public struct MCPToolNameMap: Sendable, Equatable {
    /// The longest name MCP allows.
    public static let maximumLength = ToolNameGrammar.mcp.maximumLength

    private let map: ToolNameMap

    /// The map for these skill ids (duplicates ignored).
    public init<S: Sequence>(skillIDs: S) where S.Element == String {
        map = ToolNameMap(skillIDs: skillIDs, grammar: .mcp)
    }

    /// The tool name of a skill id, nil when the id is not in the map.
    public func toolName(for skillID: String) -> String? { map.toolName(for: skillID) }

    /// The skill id a tool name stands for, nil for an unknown name.
    public func skillID(for toolName: String) -> String? { map.skillID(for: toolName) }

    /// Whether `name` fits MCP's tool name grammar.
    public static func isValidToolName(_ name: String) -> Bool { ToolNameGrammar.mcp.isValid(name) }
}
