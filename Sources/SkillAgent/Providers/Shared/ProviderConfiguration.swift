/// What every HTTP model provider's configuration holds (``OpenAIConfiguration``,
/// ``AnthropicConfiguration``): where the API is, which model, the key, streaming, and the limits.
protocol ProviderConfiguration: Sendable {
    /// The API root, without trailing slashes.
    var baseURL: String { get }
    /// The model name.
    var model: String { get }
    /// The key, when the server needs one (from the environment only; never in a message).
    var apiKey: String? { get }
    /// Whether to ask for an SSE stream.
    var stream: Bool { get }
    /// Seconds without data before a request fails.
    var idleTimeout: Double { get }
    /// Retries after HTTP 429 or 5xx.
    var maxRetries: Int { get }
    /// The longest wait between retries, in seconds.
    var maxRetryDelay: Double { get }
    /// The first back-off, in seconds.
    var initialRetryDelay: Double { get }
}

extension ProviderConfiguration {
    /// The retry limits as one value.
    var retryPolicy: RetryPolicy {
        RetryPolicy(maxRetries: maxRetries, maxRetryDelay: maxRetryDelay, initialRetryDelay: initialRetryDelay)
    }

    /// The base URL for messages, without any `user:password@` part.
    var redactedBaseURL: String { OpenAIConfiguration.redacted(baseURL) }

    /// `text` without surrounding whitespace and trailing slashes, as configurations store a base URL.
    static func normalized(baseURL text: String) -> String {
        var base = text.trimmingWhitespace()
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}
