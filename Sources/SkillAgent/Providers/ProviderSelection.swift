/// Chooses the model provider from flags and environment: an OpenAI-compatible server when one is
/// configured, else the offline planner.
///
/// - `--offline` always selects the offline planner.
/// - A base URL (`--base-url`, else `OPENAI_BASE_URL`) selects that server; it needs a model
///   (`--model`, else `SKILLHOST_MODEL`).
/// - Without a base URL, `OPENAI_API_KEY` selects OpenAI itself (model defaults to `gpt-4o-mini`).
/// - Otherwise: offline.
public enum ProviderSelection: Sendable, Equatable {
    /// The embedded offline planner.
    case offline
    /// An OpenAI-compatible server.
    case openAI(baseURL: String, model: String)

    /// The selection for these flags and environment.
    /// - Throws: ``ModelProviderError`` (`badRequest`) when a server is named but no model is.
    public static func resolve(
        environment: [String: String], baseURLFlag: String?, modelFlag: String?, offline: Bool
    ) throws(ModelProviderError) -> ProviderSelection {
        if offline { return .offline }
        let model = nonEmpty(modelFlag) ?? nonEmpty(environment["SKILLHOST_MODEL"])
        if let base = nonEmpty(baseURLFlag) ?? nonEmpty(environment["OPENAI_BASE_URL"]) {
            guard let model else {
                throw ModelProviderError(
                    .badRequest,
                    "no model named for \(OpenAIConfiguration.redacted(base)); pass --model NAME or set SKILLHOST_MODEL (e.g. llama3.1 for Ollama)")
            }
            return .openAI(baseURL: base, model: model)
        }
        if nonEmpty(environment["OPENAI_API_KEY"]) != nil {
            return .openAI(baseURL: OpenAIConfiguration.openAIBaseURL, model: model ?? OpenAIConfiguration.defaultOpenAIModel)
        }
        return .offline
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingWhitespace(), !value.isEmpty else { return nil }
        return value
    }
}

extension ProviderSelection {
    /// The provider this selection names. The API key is read here, from `OPENAI_API_KEY` in
    /// `environment`, and goes nowhere but the `Authorization` header.
    public func makeProvider(environment: [String: String]) -> any ModelProvider {
        switch self {
        case .offline:
            return OfflineProvider()
        case .openAI(let baseURL, let model):
            let key = environment["OPENAI_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            return OpenAIProvider(configuration: OpenAIConfiguration(baseURL: baseURL, model: model, apiKey: key))
        }
    }
}
