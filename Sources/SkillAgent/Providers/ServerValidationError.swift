/// Recognises a server's request-validation failure (pydantic's "1 validation error for …" from
/// llama-cpp-python, vLLM's and FastAPI's `422`, "invalid request" bodies) and explains it in plain words.
///
/// Such an error is the same on every retry, so it is never retried, and it must not end a turn as a bare
/// "HTTP 500" (issue 13): the message says that the server refused the conversation's shape, what it said,
/// and what the user can do.
enum ServerValidationError {
    /// Phrases of validation failures, lowercased.
    private static let markers = [
        "validation error", "validationerror", "field required", "input should be", "extra inputs are not permitted",
        "unprocessable entity", "is not valid under any of the given schemas",
    ]

    /// Whether `detail` (the server's error text) reads like a validation failure.
    static func matches(_ detail: String) -> Bool {
        let lowered = detail.lowercased()
        return markers.contains { lowered.contains($0) }
    }

    /// The explained error for a failed request, or nil when this is not a validation failure.
    /// `400`, `422` and `5xx` bodies qualify; `401`, `404`, `429` keep their own messages.
    static func explain(status: Int, detail: String, host: String) -> ModelProviderError? {
        guard status == 400 || status == 422 || (500...599).contains(status), status == 422 || matches(detail) else { return nil }
        let said = detail.isEmpty ? "" : ": \(detail)"
        return ModelProviderError(
            .badRequest,
            "\(host) refused the conversation as invalid (HTTP \(status), a request validation error\(said)); "
                + "this server does not accept one of the messages or tool definitions as sent, so the model could not go on — "
                + "start a new chat, or try another --model or server",
            status: status)
    }
}
