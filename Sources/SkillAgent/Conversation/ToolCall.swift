import SkillCalls
import SkillJSON

/// One tool call as the model made it: the call id, the tool name and the arguments exactly as received.
///
/// Servers send arguments as a JSON string (OpenAI), an object (some Ollama and llama.cpp versions) or
/// text that is not JSON at all; ``argumentsText`` keeps what arrived and ``parsedArguments()`` decides.
public struct ToolCall: Sendable, Equatable {
    /// The id the model gave the call; every call gets exactly one tool message with this id.
    public var id: String
    /// The tool name the model used (an OpenAI-safe name, see ``ToolNameMap``).
    public var name: String
    /// The arguments as JSON text, as received (objects from lenient servers are serialized).
    public var argumentsText: String

    /// A call with these parts.
    public init(id: String, name: String, argumentsText: String) {
        self.id = id
        self.name = name
        self.argumentsText = argumentsText
    }

    /// A call whose arguments are already a JSON value.
    public init(id: String, name: String, arguments: JSONValue) {
        self.init(id: id, name: name, argumentsText: arguments.serialized())
    }

    /// The arguments as a JSON object. Empty text counts as `{}` (models send "" for tools without
    /// parameters).
    /// - Throws: ``JSONParseError`` when the text is not JSON; the agent returns it to the model.
    public func parsedArguments() throws(JSONParseError) -> JSONValue {
        let trimmed = argumentsText.trimmingWhitespace()
        if trimmed.isEmpty { return .object(JSONObject()) }
        return try JSONValue(parsing: trimmed)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
