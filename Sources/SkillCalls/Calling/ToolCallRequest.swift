import SkillHostCore
import SkillJSON

/// One call a front end asks ``ToolCaller`` to make.
public struct ToolCallRequest: Sendable {
    /// The tool name the caller used.
    public var toolName: String
    /// The tool it names; nil when no enabled tool has that name (the call then fails with `notFound`,
    /// saying ``unknownTool``).
    public var tool: SkillTool?
    /// The arguments as the caller got them.
    public var arguments: CallArguments
    /// The caller's id for the call (a model's tool call id, an MCP server's numbered call).
    public var callID: String
    /// Who made it.
    public var origin: CallOrigin
    /// The skill id the call is recorded under when it is not the tool's (an instruction skill's activation
    /// is recorded under that skill's id, as its call card shows it); nil: the tool's.
    public var recordedSkillID: String?
    /// What to say when ``tool`` is nil (the front end's wording of the remedy, from ``ToolNameMap/unknownTool(_:use:)``).
    public var unknownTool: String?
    /// The error the front end got looking the tool up, when ``tool`` is nil and it is more than "not found"
    /// (a skill of a plugin that is invalid or broken: `invalidPlugin`, `pluginCrashed`); the call fails
    /// with it as it is.
    public var lookupFailure: HostError?

    /// A request with these parts.
    public init(
        toolName: String, tool: SkillTool?, arguments: CallArguments, callID: String, origin: CallOrigin,
        recordedSkillID: String? = nil, unknownTool: String? = nil, lookupFailure: HostError? = nil
    ) {
        self.toolName = toolName
        self.tool = tool
        self.arguments = arguments
        self.callID = callID
        self.origin = origin
        self.recordedSkillID = recordedSkillID
        self.unknownTool = unknownTool
        self.lookupFailure = lookupFailure
    }
}

/// A call's arguments as its front end got them: text or bytes (a model's tool call, `skillhost call`'s
/// argument), parsed once by ``ToolCaller``, or a value parsed with the rest of a request (MCP's
/// `params.arguments`).
public enum CallArguments: Sendable {
    /// JSON text.
    case text(String)
    /// JSON bytes.
    case bytes([UInt8])
    /// Already parsed.
    case value(JSONValue)

    /// The parsed value, or why the text is not JSON.
    func parsed() -> Result<JSONValue, JSONParseError> {
        switch self {
        case .value(let value): return .success(value)
        case .text(let text): return Result { () throws(JSONParseError) in try JSONValue(parsing: text) }
        case .bytes(let bytes): return Result { () throws(JSONParseError) in try JSONValue(parsing: bytes) }
        }
    }

    /// The text as given (a value's serialization), for a call whose arguments are not JSON.
    public var text: String {
        switch self {
        case .text(let text): return text
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .value(let value): return value.serialized()
        }
    }
}
