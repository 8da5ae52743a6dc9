import SkillJSON

/// Reads Chat Completions responses: whole (non-streaming) bodies and the error bodies of failed requests.
/// Liberal in what it accepts: `content` as a string, null or an array of text parts; `arguments` as a JSON
/// string, an object or invalid text (kept as text; the agent reports it to the model).
enum OpenAIResponseDecoder {
    /// The reply in a non-streaming response body.
    /// - Throws: ``ModelProviderError`` (`invalidResponse`, or the server's own error object).
    static func reply(from body: [UInt8]) throws(ModelProviderError) -> ModelReply {
        let document = try AnswerDocument.parse(body, endpoint: "an OpenAI-compatible /v1 endpoint")
        if let message = errorMessage(in: document) {
            throw ModelProviderError(.badRequest, "the server reported an error: \(message)")
        }
        guard let choice = document["choices"]?.arrayValue?.first, let message = choice["message"] else {
            throw ModelProviderError(
                .invalidResponse,
                "the server's answer has no choices[0].message; check that the base URL is a Chat Completions endpoint")
        }
        var calls: [ToolCall] = []
        for call in message["tool_calls"]?.arrayValue ?? [] {
            let function = call["function"]
            calls.append(
                ToolCall(
                    id: call["id"]?.stringValue ?? "",
                    name: function?["name"]?.stringValue ?? "",
                    argumentsText: argumentsText(function?["arguments"]) ?? ""))
        }
        return ModelReply(
            content: text(of: message["content"]), toolCalls: calls,
            finishReason: choice["finish_reason"]?.stringValue)
    }

    /// Text of a `content` field: a string, null, or an array of `{type: "text", text}` parts.
    static func text(of content: JSONValue?) -> String {
        switch content {
        case .string(let text): return text
        case .array(let parts): return parts.compactMap { $0["text"]?.stringValue }.joined()
        default: return ""
        }
    }

    /// Arguments as JSON text: strings stay as they are, objects (from lenient servers) are serialized.
    static func argumentsText(_ value: JSONValue?) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: return other.serialized()
        }
    }

    /// The server's error message in a body like `{"error": {"message": …}}` or `{"error": "…"}`.
    static func errorMessage(in document: JSONValue) -> String? {
        guard let error = document["error"] else { return nil }
        if let text = error.stringValue { return text }
        if let text = error["message"]?.stringValue { return text }
        return error.isNull ? nil : error.serialized()
    }

    /// The error message of a failed request's body, cut to one short line ("" when there is none).
    static func errorSummary(from body: [UInt8]) -> String {
        let text: String
        if let document = try? JSONValue(parsing: body), let message = errorMessage(in: document) {
            text = message
        } else {
            text = String(decoding: body.prefix(300), as: UTF8.self)
        }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingWhitespace()
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
