import SkillJSON

/// Reads Messages API responses: a whole `message` object, and the `{"type": "error", "error": {type,
/// message}}` bodies of failed requests and of `error` stream events.
enum AnthropicResponseDecoder {
    /// The reply in a non-streaming response body.
    /// - Throws: ``ModelProviderError`` (`invalidResponse`, or the error the body reports).
    static func reply(from body: [UInt8]) throws(ModelProviderError) -> ModelReply {
        let document = try AnswerDocument.parse(body, endpoint: "the Anthropic Messages API")
        if document["type"]?.stringValue == "error" || document["error"] != nil {
            throw streamError(document)
        }
        guard let blocks = document["content"]?.arrayValue else {
            throw ModelProviderError(
                .invalidResponse, "the server's answer has no content blocks; check that the base URL is a Messages API endpoint")
        }
        var text = ""
        var calls: [ToolCall] = []
        for block in blocks {
            switch block["type"]?.stringValue {
            case "text": text += block["text"]?.stringValue ?? ""
            case "tool_use":
                calls.append(
                    ToolCall(
                        id: block["id"]?.stringValue ?? "", name: block["name"]?.stringValue ?? "",
                        argumentsText: (block["input"] ?? [:]).serialized()))
            default: continue  // thinking and other blocks are not part of the answer
            }
        }
        return ModelReply(content: text, toolCalls: calls, finishReason: finishReason(document["stop_reason"]?.stringValue))
    }

    /// The Chat Completions name of a `stop_reason`, so the turn reads the same with either provider.
    static func finishReason(_ stopReason: String?) -> String? {
        switch stopReason {
        case "tool_use": return "tool_calls"
        case "end_turn", "stop_sequence": return "stop"
        case "max_tokens": return "length"
        case "refusal": return "content_filter"
        default: return stopReason
        }
    }

    /// The error type and message of an error body ("" parts when absent).
    static func errorParts(_ document: JSONValue?) -> (type: String, message: String) {
        let error = document?["error"]
        return (error?["type"]?.stringValue ?? "", error?["message"]?.stringValue ?? error?.stringValue ?? "")
    }

    /// The error a stream's `error` event (or a 200 body with an error) reports, by its type.
    static func streamError(_ document: JSONValue) -> ModelProviderError {
        let (type, message) = errorParts(document)
        let said = "the server reported \(type.isEmpty ? "an error" : type): \(message)"
        switch type {
        case "overloaded_error", "api_error": return ModelProviderError(.server, said + "; try again later")
        case "rate_limit_error": return ModelProviderError(.rateLimited, said + "; try again later")
        case "authentication_error", "permission_error": return ModelProviderError(.unauthorized, said + "; check ANTHROPIC_API_KEY")
        case "not_found_error": return ModelProviderError(.notFound, said + "; check --model")
        default: return ModelProviderError(.badRequest, said)
        }
    }

    /// The error message of a failed request's body, cut to one short line ("" when there is none).
    static func errorSummary(from body: [UInt8]) -> String {
        let text: String
        if let document = try? JSONValue(parsing: body), case let (type, message) = errorParts(document), !message.isEmpty {
            text = type.isEmpty ? message : "\(type): \(message)"
        } else {
            text = String(decoding: body.prefix(300), as: UTF8.self)
        }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingWhitespace()
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
