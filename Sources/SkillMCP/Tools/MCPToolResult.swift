import SkillCalls
import SkillHostCore
import SkillJSON

/// `tools/call` results (spec 2025-11-25, server/tools "Tool Result" and "Error Handling"), from the
/// tool-call layer's outcome: a skill's result becomes a text content (the manifest's summary template when
/// it renders, else the JSON) plus `structuredContent` when it is an object; a failure becomes `isError:
/// true` with a text the model can act on.
public enum MCPToolResult {
    /// The whole JSON-RPC response line for request `id` of a call that ended with `outcome` (the tool-call
    /// layer has checked a result against the tool's output schema).
    public static func responseLine(id: JSONValue, outcome: ToolCallOutcome) -> String {
        switch outcome.result {
        case .success(let result):
            guard let tool = outcome.tool else { return JSONRPCMessage.responseLine(id: id, result: success(result, tool: nil)) }
            return responseLine(id: id, success: result, tool: tool)
        case .failure(let error):
            return JSONRPCMessage.responseLine(id: id, result: failure(error))
        }
    }

    /// The whole JSON-RPC response line for request `id` whose call succeeded with `result`: the same bytes
    /// as ``JSONRPCMessage/responseLine(id:result:)`` of ``success(_:tool:)``, with the result serialized
    /// once (the text content and `structuredContent` share it) and no intermediate objects.
    public static func responseLine(id: JSONValue, success result: JSONValue, tool: SkillTool) -> String {
        // Built as bytes (appending to a String costs far more per piece), made a String once.
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        id.write(to: &line)
        line.append(contentsOf: #","result":{"content":[{"type":"text","text":"#.utf8)
        if let text = ToolCallOutcome.templatedText(of: result, tool: tool) {
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
    public static func success(_ result: JSONValue, tool: SkillTool?) -> JSONValue {
        let text = tool.flatMap { ToolCallOutcome.templatedText(of: result, tool: $0) } ?? result.serialized()
        var object: JSONObject = ["content": [["type": "text", "text": .string(text)]], "isError": false]
        if case .object = result { object["structuredContent"] = result }
        return .object(object)
    }

    /// The result of a call that failed: one line led by the failure kind, the host's message (what, where,
    /// how to fix it) and the next step (``ToolCallOutcome/text(of:)``, the one wording of every front end),
    /// with `details` (e.g. every invalid argument's JSON pointer) as structured content.
    public static func failure(_ error: HostError) -> JSONValue {
        var object: JSONObject = ["content": [["type": "text", "text": .string(ToolCallOutcome.text(of: error))]], "isError": true]
        if let details = error.details, case .object = details { object["structuredContent"] = details }
        return .object(object)
    }
}
