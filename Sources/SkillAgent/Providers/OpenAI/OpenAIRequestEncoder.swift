import SkillJSON

/// Builds the JSON body of a Chat Completions request (openai/openai-openapi, `CreateChatCompletionRequest`).
/// Conservative in what it sends, so OpenAI, Ollama and llama.cpp all accept it.
struct OpenAIRequestEncoder: Sendable {
    let model: String

    /// The request body for `request`; `stream` selects SSE.
    func body(for request: ModelRequest, stream: Bool) -> JSONValue {
        var body = JSONObject()
        body["model"] = .string(model)
        body["messages"] = .array(Self.mergingLeadingSystemMessages(request.messages).map(Self.encode))
        if !request.tools.isEmpty {
            body["tools"] = .array(request.tools.map(Self.encode))
            body["tool_choice"] = .string(request.toolChoice.rawValue)
        }
        if stream { body["stream"] = true }
        return .object(body)
    }

    /// One message in the wire format: an assistant's calls carry `arguments` as a JSON string; a tool
    /// message names the call it answers.
    static func encode(_ message: ChatMessage) -> JSONValue {
        var object = JSONObject()
        object["role"] = .string(message.role.rawValue)
        switch message.role {
        case .assistant where !message.toolCalls.isEmpty:
            // "" rather than null: llama-cpp-python's validation refuses a null content beside tool_calls
            // (HTTP 500), and every other server accepts the empty string (issue 13).
            object["content"] = .string(message.content)
            object["tool_calls"] = .array(
                message.toolCalls.map { call in
                    [
                        "id": .string(call.id), "type": "function",
                        "function": ["name": .string(call.name), "arguments": .string(call.argumentsText)],
                    ]
                })
        case .tool:
            object["tool_call_id"] = .string(message.toolCallID ?? "")
            object["content"] = .string(message.content)
        default:
            object["content"] = .string(message.content)
        }
        return .object(object)
    }

    /// One tool as `{"type": "function", "function": {name, description, parameters}}`.
    static func encode(_ spec: ToolSpec) -> JSONValue {
        let description = spec.tool.description.isEmpty ? spec.tool.title : spec.tool.description
        return [
            "type": "function",
            "function": [
                "name": .string(spec.name), "description": .string(description), "parameters": spec.tool.parameters,
            ],
        ]
    }

    /// Joins the system messages at the start into one: several chat templates of local servers accept
    /// only a single leading system message.
    static func mergingLeadingSystemMessages(_ messages: [ChatMessage]) -> [ChatMessage] {
        let head = messages.prefix { $0.role == .system }
        guard head.count > 1 else { return messages }
        let merged = ChatMessage.system(head.map(\.content).joined(separator: "\n\n"))
        return [merged] + messages.dropFirst(head.count)
    }
}
