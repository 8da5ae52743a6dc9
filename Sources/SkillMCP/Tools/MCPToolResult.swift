import SkillAgent
import SkillHostCore
import SkillJSON

/// `tools/call` results (spec 2025-11-25, server/tools "Tool Result" and "Error Handling"): a skill's
/// result becomes a text content (the manifest's summary template when it renders, else the JSON) plus
/// `structuredContent` when it is an object; a failure becomes `isError: true` with a text the model can
/// act on.
public enum MCPToolResult {
    /// The result of a call that succeeded; with `check`, a result that does not conform to the tool's
    /// output schema is a failure instead (the spec requires conforming `structuredContent`).
    public static func success(_ result: JSONValue, tool: AgentTool, check: ResultSchemaCheck?) -> JSONValue {
        if let check, let problem = check.problem(with: result, of: tool.skill) {
            return failure(text: "invalidResult: " + problem)
        }
        return success(result, tool: tool)
    }

    /// The result of a call that succeeded.
    public static func success(_ result: JSONValue, tool: AgentTool) -> JSONValue {
        let text = tool.summary.flatMap { ResultSummaryTemplate($0).render(result) } ?? result.serialized()
        var object: JSONObject = ["content": [["type": "text", "text": .string(text)]], "isError": false]
        if case .object = result { object["structuredContent"] = result }
        return .object(object)
    }

    /// The result of a call that failed: the host's one-line message (what, where, how to fix it), led by
    /// the failure kind, with `details` (e.g. every invalid argument's JSON pointer) as structured content.
    public static func failure(_ error: HostError) -> JSONValue {
        failure(text: "\(error.kind.rawValue): \(error.message)", details: error.details)
    }

    /// A failure with this text.
    public static func failure(text: String, details: JSONValue? = nil) -> JSONValue {
        var object: JSONObject = ["content": [["type": "text", "text": .string(text)]], "isError": true]
        if let details, case .object = details { object["structuredContent"] = details }
        return .object(object)
    }
}
