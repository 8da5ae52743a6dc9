/// What a model API or protocol accepts as a tool name, for ``ToolNameMap``: OpenAI's
/// `[A-Za-z0-9_-]{1,64}` and MCP's `[A-Za-z0-9_.-]{1,128}` (spec 2025-11-25, server/tools "Tool names").
public struct ToolNameGrammar: Sendable, Equatable {
    /// The longest name, in bytes.
    public var maximumLength: Int
    /// Whether `.` is allowed (MCP) or becomes `_` (OpenAI).
    public var allowsDot: Bool
    /// Whether a lookup must match exactly (MCP names are case-sensitive), or also accepts the dotted skill
    /// id and a case-insensitive match (models sometimes echo what they read).
    public var exactLookup: Bool

    /// OpenAI Chat Completions and the providers that copy it.
    public static let openAI = ToolNameGrammar(maximumLength: 64, allowsDot: false, exactLookup: false)
    /// The Model Context Protocol.
    public static let mcp = ToolNameGrammar(maximumLength: 128, allowsDot: true, exactLookup: true)

    /// Whether `byte` may appear in a name.
    public func allows(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || (allowsDot && byte == UInt8(ascii: "."))
    }

    /// Whether `name` is a valid tool name.
    public func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumLength && name.utf8.allSatisfy(allows)
    }
}
