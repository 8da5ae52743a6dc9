import SkillJSON

/// Joins the chunks of a streamed Chat Completions answer into one ``ModelReply``.
///
/// Text arrives as `delta.content` tokens. A tool call's first chunk carries `index`, `id` and
/// `function.name`; later chunks carry `function.arguments` fragments under the same `index`. Servers
/// deviate: some omit `index` (then the id, or a new call, decides), some reuse `index: 0` for every call
/// (then a new id decides), some repeat the id in every chunk, some send a whole call in one chunk with
/// `arguments` as an object.
struct StreamedReplyAccumulator {
    private struct PartialCall {
        var key: Int
        var id: String = ""
        var name: String = ""
        var arguments: String = ""
    }

    private var content = ""
    private var calls: [PartialCall] = []
    private var finishReason: String?
    /// Whether any chunk carried a delta (text, a tool call fragment or a finish reason).
    private(set) var sawDelta = false

    /// Adds one chunk's JSON; returns the text token it carried ("" when none).
    /// - Throws: ``ModelProviderError`` when the chunk is not JSON or is an error object.
    mutating func add(_ payload: String) throws(ModelProviderError) -> String {
        let chunk: JSONValue
        do {
            chunk = try JSONValue(parsing: payload)
        } catch {
            throw ModelProviderError(.invalidResponse, "a streamed chunk is not JSON (\(error)); try without streaming")
        }
        if let message = OpenAIResponseDecoder.errorMessage(in: chunk) {
            throw ModelProviderError(.server, "the server reported an error while streaming: \(message)")
        }
        guard let choice = chunk["choices"]?.arrayValue?.first else { return "" }
        if let reason = choice["finish_reason"]?.stringValue {
            finishReason = reason
            sawDelta = true
        }
        // Some servers put a whole message (not a delta) in the last chunk.
        guard let delta = choice["delta"] ?? choice["message"] else { return "" }
        let token = OpenAIResponseDecoder.text(of: delta["content"])
        if !token.isEmpty || delta["tool_calls"]?.arrayValue?.isEmpty == false { sawDelta = true }
        content += token
        for fragment in delta["tool_calls"]?.arrayValue ?? [] { addToolCallFragment(fragment) }
        return token
    }

    private mutating func addToolCallFragment(_ fragment: JSONValue) {
        let id = fragment["id"]?.stringValue ?? ""
        let function = fragment["function"]
        let index = fragment["index"]?.intValue.map(Int.init)
        let position: Int
        if !id.isEmpty, let found = calls.lastIndex(where: { $0.id == id }) {
            position = found  // vLLM, Fireworks and proxies repeat the id in every chunk
        } else if let index, let found = calls.lastIndex(where: { $0.key == index }), id.isEmpty || calls[found].id.isEmpty {
            position = found
        } else if let index {
            // A new index, or Ollama's `index: 0` reused for a second call with its own id (ollama#15457).
            calls.append(PartialCall(key: index))
            position = calls.count - 1
        } else if id.isEmpty, function?["name"] == nil, !calls.isEmpty {
            position = calls.count - 1  // a bare arguments fragment continues the last call
        } else {
            // No index at all (Ollama before 0.4.7, ollama#7881): a new id or name starts a new call.
            calls.append(PartialCall(key: (calls.map(\.key).max() ?? -1) + 1))
            position = calls.count - 1
        }
        if !id.isEmpty { calls[position].id = id }
        if let name = function?["name"]?.stringValue, !name.isEmpty {
            // Names arrive whole in practice; a server that repeats the name each chunk must not double it.
            if !calls[position].name.hasSuffix(name) || calls[position].name.isEmpty { calls[position].name += name }
        }
        switch function?["arguments"] {
        case .string(let text)?: calls[position].arguments += text
        case .object(let object)?: calls[position].arguments = JSONValue.object(object).serialized()
        case let other? where !other.isNull: calls[position].arguments += other.serialized()
        default: break
        }
    }

    /// The complete reply.
    var reply: ModelReply {
        ModelReply(
            content: content,
            toolCalls: calls.map { ToolCall(id: $0.id, name: $0.name, argumentsText: $0.arguments) },
            finishReason: finishReason)
    }
}
