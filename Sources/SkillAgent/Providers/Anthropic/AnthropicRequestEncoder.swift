import SkillJSON

/// Builds the JSON body of a Messages API request (`POST /v1/messages`): system messages go to the
/// top-level `system`, an assistant's calls become `tool_use` blocks with `input` objects, and the tool
/// messages that answer them become `tool_result` blocks of the next user message. Consecutive messages of
/// one role are merged, since the API wants user and assistant turns to alternate; a turn that is one text
/// block is sent as a string.
struct AnthropicRequestEncoder: Sendable {
    let model: String
    let maxTokens: Int

    /// The request body for `request`; `stream` selects SSE.
    func body(for request: ModelRequest, stream: Bool) -> JSONValue {
        var body = JSONObject()
        body["model"] = .string(model)
        body["max_tokens"] = .int(Int64(maxTokens))
        let system = request.messages.filter { $0.role == .system }.map(\.content).filter { !$0.isEmpty }
        if !system.isEmpty { body["system"] = .string(system.joined(separator: "\n\n")) }
        body["messages"] = .array(Self.turns(request.messages.filter { $0.role != .system }))
        if !request.tools.isEmpty {
            body["tools"] = .array(request.tools.map(Self.encode))
            body["tool_choice"] = ["type": .string(request.toolChoice == .none ? "none" : "auto")]
        }
        if stream { body["stream"] = true }
        return .object(body)
    }

    /// The messages as alternating `{role, content: [blocks]}` turns; a turn of one text block sends its
    /// text as a plain string (the API's short form), which translators to Chat Completions (LiteLLM) pass on
    /// as a string: a list there reaches local servers' chat templates as a list, which some print as
    /// Python's repr of it.
    static func turns(_ messages: [ChatMessage]) -> [JSONValue] {
        var turns: [(role: String, blocks: [JSONValue])] = []
        for message in messages {
            let role = message.role == .assistant ? "assistant" : "user"
            let blocks = self.blocks(of: message)
            guard !blocks.isEmpty else { continue }
            if turns.last?.role == role {
                turns[turns.count - 1].blocks += blocks
            } else {
                turns.append((role, blocks))
            }
        }
        return turns.map { turn in
            if turn.blocks.count == 1, turn.blocks[0]["type"] == "text", let text = turn.blocks[0]["text"] {
                return ["role": .string(turn.role), "content": text]
            }
            return ["role": .string(turn.role), "content": .array(turn.blocks)]
        }
    }

    /// The content blocks of one message.
    static func blocks(of message: ChatMessage) -> [JSONValue] {
        switch message.role {
        case .tool:
            return [
                [
                    "type": "tool_result", "tool_use_id": .string(message.toolCallID ?? ""),
                    "content": .string(message.content),
                ]
            ]
        default:
            var blocks: [JSONValue] = []
            if !message.content.isEmpty { blocks.append(["type": "text", "text": .string(message.content)]) }
            for call in message.toolCalls {
                // `input` must be an object; arguments that were not one (the model's mistake, already
                // answered with an error result) go back as an empty object.
                let input = (try? JSONValue(parsing: call.argumentsText)).flatMap { $0.objectValue.map(JSONValue.object) } ?? [:]
                blocks.append(["type": "tool_use", "id": .string(call.id), "name": .string(call.name), "input": input])
            }
            return blocks
        }
    }

    /// One tool as `{name, description, input_schema}`.
    static func encode(_ spec: ToolSpec) -> JSONValue {
        let description = spec.tool.description.isEmpty ? spec.tool.title : spec.tool.description
        return ["name": .string(spec.name), "description": .string(description), "input_schema": spec.tool.parameters]
    }
}
