/// Where an OpenAI-compatible server is and how to talk to it.
///
/// The API key comes only from the environment (`OPENAI_API_KEY`), never from a flag or a file, and is
/// never part of a message or a description.
public struct OpenAIConfiguration: Sendable, ProviderConfiguration {
    /// The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1` (no trailing slash).
    public var baseURL: String
    /// The model name, e.g. `gpt-4o-mini`, `llama3.1`.
    public var model: String
    /// The bearer token, when the server needs one.
    public var apiKey: String?
    /// Whether to ask for an SSE stream (falls back to a whole answer when the server will not stream).
    public var stream: Bool
    /// Seconds without data before a request fails.
    public var idleTimeout: Double
    /// Retries after HTTP 429 or 5xx.
    public var maxRetries: Int
    /// The longest wait between retries, in seconds (a larger `retry-after` fails instead).
    public var maxRetryDelay: Double
    /// The first 5xx back-off, in seconds (doubled for each retry).
    public var initialRetryDelay: Double

    /// OpenAI's own endpoint.
    public static let openAIBaseURL = "https://api.openai.com/v1"
    /// The model used with OpenAI's endpoint when none is named.
    public static let defaultOpenAIModel = "gpt-4o-mini"

    /// A configuration with these parts.
    public init(
        baseURL: String, model: String, apiKey: String? = nil, stream: Bool = true, idleTimeout: Double = 120,
        maxRetries: Int = 2, maxRetryDelay: Double = 30, initialRetryDelay: Double = 0.5
    ) {
        self.baseURL = Self.normalized(baseURL: baseURL)
        self.model = model
        self.apiKey = apiKey
        self.stream = stream
        self.idleTimeout = idleTimeout
        self.maxRetries = max(0, maxRetries)
        self.maxRetryDelay = maxRetryDelay
        self.initialRetryDelay = initialRetryDelay
    }

    /// `url` without credentials (`http://user:secret@host/v1` → `http://host/v1`), for messages.
    public static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + String(rest[rest.index(after: at)...])
    }

    /// The Chat Completions endpoint.
    public var chatCompletionsURL: String { baseURL + "/chat/completions" }
}
