/// Chooses the model provider from flags and environment: an OpenAI-compatible server or the Anthropic
/// Messages API when one is configured, else the offline planner.
///
/// - `--offline` always selects the offline planner.
/// - A provider named by `--provider`, else `SKILLHOST_PROVIDER`, else the registry's `chat.provider`
///   setting (`openai`, `anthropic` or `offline`) is used; `anthropic` takes its base URL from
///   `--base-url`, else `ANTHROPIC_BASE_URL` (default api.anthropic.com), and its model from `--model`,
///   else `SKILLHOST_MODEL` (default `claude-haiku-4-5`).
/// - A base URL (`--base-url`, else `OPENAI_BASE_URL`) selects that server; it needs a model
///   (`--model`, else `SKILLHOST_MODEL`).
/// - Without a base URL, `OPENAI_API_KEY` selects OpenAI itself (model defaults to `gpt-4o-mini`).
/// - Without those, `ANTHROPIC_API_KEY` or `ANTHROPIC_BASE_URL` selects Anthropic.
/// - Otherwise: offline.
/// The registry's `chat.base_url` and `chat.model` (``ChatSettings``, written by `skillhost ui`'s Settings tab)
/// count after the flags and the environment, where a base URL or model would.
///
/// `SKILLHOST_STREAM` (``streams(environment:)``) says whether the HTTP providers ask for streamed answers.
public enum ProviderSelection: Sendable, Equatable {
    /// The embedded offline planner.
    case offline
    /// An OpenAI-compatible server.
    case openAI(baseURL: String, model: String)
    /// The Anthropic Messages API.
    case anthropic(baseURL: String, model: String)

    /// The provider names `--provider` accepts.
    public static let providerNames = ["openai", "anthropic", "offline"]

    /// The selection for these flags and environment.
    /// - Throws: ``ModelProviderError`` (`badRequest`) when a server is named but no model is.
    /// `registryBaseURL` and `registryModel` (the registry's `chat.base_url` and `chat.model`) come after the
    /// flags and the environment.
    public static func resolve(
        environment: [String: String], providerFlag: String? = nil, registrySetting: String? = nil, baseURLFlag: String?,
        modelFlag: String?, offline: Bool, registryBaseURL: String? = nil, registryModel: String? = nil
    ) throws(ModelProviderError) -> ProviderSelection {
        if offline { return .offline }
        _ = try streams(environment: environment)
        let model = nonEmpty(modelFlag) ?? nonEmpty(environment["SKILLHOST_MODEL"]) ?? nonEmpty(registryModel)
        let named: (name: String, source: String)? =
            nonEmpty(providerFlag).map { ($0, "--provider") } ?? nonEmpty(environment["SKILLHOST_PROVIDER"]).map { ($0, "SKILLHOST_PROVIDER") }
            ?? nonEmpty(registrySetting).map { ($0, "the registry's chat.provider") }
        switch named?.name.lowercased() {
        case nil, "openai"?: break
        case "offline"?: return .offline
        case "anthropic"?:
            let base = nonEmpty(baseURLFlag) ?? nonEmpty(environment["ANTHROPIC_BASE_URL"]) ?? nonEmpty(registryBaseURL)
                ?? AnthropicConfiguration.anthropicBaseURL
            return .anthropic(baseURL: base, model: model ?? AnthropicConfiguration.defaultModel)
        case let other?:
            throw ModelProviderError(
                .badRequest,
                "unknown provider '\(other)' (from \(named?.source ?? "--provider")); use one of: \(providerNames.joined(separator: ", "))")
        }
        let openAINamed = named != nil
        if let base = nonEmpty(baseURLFlag) ?? nonEmpty(environment["OPENAI_BASE_URL"]) ?? nonEmpty(registryBaseURL) {
            guard let model else {
                throw ModelProviderError(
                    .badRequest,
                    "no model named for \(OpenAIConfiguration.redacted(base)); pass --model NAME or set SKILLHOST_MODEL (e.g. llama3.1 for Ollama)")
            }
            return .openAI(baseURL: base, model: model)
        }
        if openAINamed || nonEmpty(environment["OPENAI_API_KEY"]) != nil {
            return .openAI(baseURL: OpenAIConfiguration.openAIBaseURL, model: model ?? OpenAIConfiguration.defaultOpenAIModel)
        }
        if nonEmpty(environment["ANTHROPIC_API_KEY"]) != nil || nonEmpty(environment["ANTHROPIC_BASE_URL"]) != nil {
            let base = nonEmpty(environment["ANTHROPIC_BASE_URL"]) ?? AnthropicConfiguration.anthropicBaseURL
            return .anthropic(baseURL: base, model: model ?? AnthropicConfiguration.defaultModel)
        }
        return .offline
    }

    /// Whether the HTTP providers ask for streamed answers: `SKILLHOST_STREAM` `0`, `false`, `off` or `no`
    /// turns streaming off (a server known not to stream with tools is then asked for whole answers from
    /// the first request, without the one retry and notice of the streaming fallback); `1`, `true`, `on`,
    /// `yes` or unset (empty) keeps it on. Case is ignored.
    /// - Throws: ``ModelProviderError`` (`badRequest`) for another value, naming the ones it takes.
    public static func streams(environment: [String: String]) throws(ModelProviderError) -> Bool {
        guard let value = nonEmpty(environment["SKILLHOST_STREAM"]) else { return true }
        switch value.lowercased() {
        case "1", "true", "on", "yes": return true
        case "0", "false", "off", "no": return false
        default:
            throw ModelProviderError(
                .badRequest, "SKILLHOST_STREAM is '\(value)'; set it to 0 (or false, off, no) to turn streaming off, 1 (or true, on, yes) or unset to keep it")
        }
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingWhitespace(), !value.isEmpty else { return nil }
        return value
    }
}

extension ProviderSelection {
    /// The provider this selection names. The API key is read here, from `OPENAI_API_KEY` (or
    /// `ANTHROPIC_API_KEY`) in `environment`, and goes nowhere but the request's key header; streaming
    /// follows `SKILLHOST_STREAM` (``ProviderSelection/streams(environment:)``; ``resolve`` refused a bad value).
    /// The offline planner names the `disabledSkills` a request asks for.
    public func makeProvider(
        environment: [String: String], disabledSkills: @escaping @Sendable () -> [DisabledSkill] = { [] }
    ) -> any ModelProvider {
        let stream = (try? Self.streams(environment: environment)) ?? true
        switch self {
        case .offline:
            return OfflineProvider(disabledSkills: disabledSkills)
        case .openAI(let baseURL, let model):
            let key = environment["OPENAI_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            return OpenAIProvider(configuration: OpenAIConfiguration(baseURL: baseURL, model: model, apiKey: key, stream: stream))
        case .anthropic(let baseURL, let model):
            let key = environment["ANTHROPIC_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            return AnthropicProvider(configuration: AnthropicConfiguration(baseURL: baseURL, model: model, apiKey: key, stream: stream))
        }
    }
}
