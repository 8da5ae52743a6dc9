/// Where the Anthropic Messages API is and how to talk to it.
///
/// The API key comes only from the environment (`ANTHROPIC_API_KEY`) and travels only in the `x-api-key`
/// header; it is never part of a message.
public struct AnthropicConfiguration: Sendable, ProviderConfiguration {
    /// The API root, e.g. `https://api.anthropic.com` (as `ANTHROPIC_BASE_URL`; a trailing `/v1` is accepted).
    public var baseURL: String
    /// The model name, e.g. `claude-haiku-4-5`.
    public var model: String
    /// The key, when the server needs one.
    public var apiKey: String?
    /// Whether to ask for an SSE stream (falls back to a whole answer once when a stream is unusable).
    public var stream: Bool
    /// `max_tokens` of each request (the Messages API requires it).
    public var maxTokens: Int
    /// Seconds without data before a request fails.
    public var idleTimeout: Double
    /// Retries after HTTP 429, 5xx or 529 (overloaded).
    public var maxRetries: Int
    /// The longest wait between retries, in seconds (a larger `retry-after` fails instead).
    public var maxRetryDelay: Double
    /// The first back-off, in seconds (doubled for each retry).
    public var initialRetryDelay: Double

    /// Anthropic's own endpoint.
    public static let anthropicBaseURL = "https://api.anthropic.com"
    /// The model used when none is named.
    public static let defaultModel = "claude-haiku-4-5"
    /// The API version header value (docs: "Versions", the only stable version).
    public static let apiVersion = "2023-06-01"

    /// A configuration with these parts.
    public init(
        baseURL: String = AnthropicConfiguration.anthropicBaseURL, model: String = AnthropicConfiguration.defaultModel,
        apiKey: String? = nil, stream: Bool = true, maxTokens: Int = 1024, idleTimeout: Double = 120, maxRetries: Int = 2,
        maxRetryDelay: Double = 30, initialRetryDelay: Double = 0.5
    ) {
        self.baseURL = Self.normalized(baseURL: baseURL)
        self.model = model
        self.apiKey = apiKey
        self.stream = stream
        self.maxTokens = max(1, maxTokens)
        self.idleTimeout = idleTimeout
        self.maxRetries = max(0, maxRetries)
        self.maxRetryDelay = maxRetryDelay
        self.initialRetryDelay = initialRetryDelay
    }

    /// The Messages endpoint: `<base>/v1/messages` (or `<base>/messages` when the base ends in `/v1`).
    public var messagesURL: String { baseURL.hasSuffix("/v1") ? baseURL + "/messages" : baseURL + "/v1/messages" }
}
