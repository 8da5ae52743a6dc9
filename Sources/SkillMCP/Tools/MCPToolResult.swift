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
        // Built as bytes (appending to a String costs far more per piece), made a String once.
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        id.write(to: &line)
        line.append(contentsOf: #","result":{"content":[{"type":"text","text":"#.utf8)
        if let text = tool.summary.flatMap({ ResultSummaryTemplate($0).render(result) }) {
            JSONValue.writeString(text, to: &line)
            line.append(contentsOf: #"}],"isError":false"#.utf8)
            if case .object = result {
                line.append(contentsOf: #","structuredContent":"#.utf8)
                result.write(to: &line)
            }
        } else {
            // The text is the result's JSON: serialized once, escaped as the text, copied as is after.
            let json = result.serializedBytes()
            json.withUnsafeBufferPointer { JSONValue.writeString(utf8: $0, to: &line) }
            line.append(contentsOf: #"}],"isError":false"#.utf8)
            if case .object = result {
                line.append(contentsOf: #","structuredContent":"#.utf8)
                line.append(contentsOf: json)
            }
        }
        line.append(contentsOf: "}}".utf8)
        return String(decoding: line, as: UTF8.self)
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
