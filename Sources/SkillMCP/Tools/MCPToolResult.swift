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

    /// The whole JSON-RPC response line for request `id` whose call succeeded with `result`: the same bytes
    /// as ``JSONRPCMessage/responseLine(id:result:)`` of ``success(_:tool:check:)``, with the result
    /// serialized once (the text content and `structuredContent` share it) and no intermediate objects.
    public static func responseLine(id: JSONValue, success result: JSONValue, tool: AgentTool, check: ResultSchemaCheck?) -> String {
        if let check, check.problem(with: result, of: tool.skill) != nil {
            return JSONRPCMessage.responseLine(id: id, result: success(result, tool: tool, check: check))
        }
        let json = result.serialized()
        let text = tool.summary.flatMap { ResultSummaryTemplate($0).render(result) } ?? json
        var line = #"{"jsonrpc":"2.0","id":"#
        line.reserveCapacity(64 + 2 * json.utf8.count + 48)
        line += id.serialized()
        line += #","result":{"content":[{"type":"text","text":"#
        JSONValue.writeString(text, to: &line)
        line += #"}],"isError":false"#
        if case .object = result {
            line += #","structuredContent":"#
            line += json
        }
        line += "}}"
        return line
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
