import SkillJSON

/// Joins the SSE events of a streamed Messages API answer into one ``ModelReply``: `message_start`, then
/// per content block `content_block_start` (a `text` or a `tool_use` block with its id and name), its
/// `content_block_delta`s (`text_delta` text, `input_json_delta` fragments of the tool input), and
/// `content_block_stop`; `message_delta` carries the `stop_reason`; `message_stop` ends the message.
/// `ping` events are ignored; an `error` event ends the stream with that error.
struct AnthropicStreamAccumulator {
    private struct Block {
        var index: Int
        var isToolUse: Bool
        var id = ""
        var name = ""
        var input = ""
        /// The input given whole at the block's start, used when no deltas follow.
        var startInput: JSONValue?
    }

    private var blocks: [Block] = []
    private var content = ""
    private var stopReason: String?
    /// Whether `message_stop` arrived.
    private(set) var finished = false
    /// Whether any event carried content (a block or a stop reason).
    private(set) var sawContent = false

    /// Adds one event's JSON; returns the text token it carried ("" when none).
    /// - Throws: ``ModelProviderError`` when the event is not JSON or is an `error` event.
    mutating func add(_ payload: String) throws(ModelProviderError) -> String {
        let event: JSONValue
        do {
            event = try JSONValue(parsing: payload)
        } catch {
            throw ModelProviderError(.invalidResponse, "a streamed event is not JSON (\(error)); try again")
        }
        let index = event["index"]?.intValue.map(Int.init) ?? blocks.last?.index ?? 0
        switch event["type"]?.stringValue {
        case "error":
            throw AnthropicResponseDecoder.streamError(event)
        case "content_block_start":
            let block = event["content_block"]
            let isToolUse = block?["type"]?.stringValue == "tool_use"
            var started = Block(index: index, isToolUse: isToolUse)
            if isToolUse {
                started.id = block?["id"]?.stringValue ?? ""
                started.name = block?["name"]?.stringValue ?? ""
                if let input = block?["input"], input.objectValue?.isEmpty == false { started.startInput = input }
            }
            blocks.append(started)
            sawContent = true
            if let text = block?["text"]?.stringValue, !text.isEmpty {
                content += text
                return text
            }
        case "content_block_delta":
            let delta = event["delta"]
            guard let position = blocks.lastIndex(where: { $0.index == index }) else { return "" }
            switch delta?["type"]?.stringValue {
            case "text_delta":
                let text = delta?["text"]?.stringValue ?? ""
                content += text
                return text
            case "input_json_delta":
                blocks[position].input += delta?["partial_json"]?.stringValue ?? ""
            default:
                break  // thinking and signature deltas are not part of the answer
            }
        case "message_delta":
            if let reason = event["delta"]?["stop_reason"]?.stringValue {
                stopReason = reason
                sawContent = true
            }
        case "message_stop":
            finished = true
        default:
            break  // message_start, content_block_stop, ping, and event types added later
        }
        return ""
    }

    /// The complete reply.
    var reply: ModelReply {
        let calls = blocks.filter(\.isToolUse).map { block in
            // A tool without parameters streams no input at all: that is `{}`.
            let input = block.input.isEmpty ? (block.startInput?.serialized() ?? "{}") : block.input
            return ToolCall(id: block.id, name: block.name, argumentsText: input)
        }
        return ModelReply(content: content, toolCalls: calls, finishReason: AnthropicResponseDecoder.finishReason(stopReason))
    }
}
