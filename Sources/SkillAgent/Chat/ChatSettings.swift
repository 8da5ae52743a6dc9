import SkillHostCore
import SkillJSON

/// The model and agent settings every chat front end reads, and their one set of rules: the provider, its
/// base URL and model, the context budget (`context_tokens`) and the model rounds per turn (`max_steps`).
/// `skillhost chat` and `ui` take them from flags, then the environment (``ProviderSelection``), then the
/// registry's `chat` object, which `ui`'s Settings tab writes; a bad value is refused in one line naming
/// where it came from (`--max-steps`, `chat.max_steps`).
public struct ChatSettings: Sendable, Equatable {
    /// `openai`, `anthropic` or `offline`.
    public var provider: String?
    /// The server's API root.
    public var baseURL: String?
    /// The model name.
    public var model: String?
    /// The model's context size in tokens.
    public var contextTokens: Int?
    /// Model rounds that may call skills per turn.
    public var maxSteps: Int?

    /// The values `max_steps` takes.
    public static let maxStepsRange = 0...100
    /// The values `context_tokens` takes.
    public static let contextTokensRange = 512...10_000_000

    /// Settings with these parts.
    public init(provider: String? = nil, baseURL: String? = nil, model: String? = nil, contextTokens: Int? = nil, maxSteps: Int? = nil) {
        self.provider = provider
        self.baseURL = baseURL
        self.model = model
        self.contextTokens = contextTokens
        self.maxSteps = maxSteps
    }

    /// The settings of a registry's `chat` object (`file` names it in errors).
    /// - Throws: ``ModelProviderError`` (`badRequest`): one line naming the member, the value and what it takes.
    public init(registry object: JSONObject, file: String) throws(ModelProviderError) {
        func text(_ key: String) throws(ModelProviderError) -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard let string = value.stringValue else {
                throw ModelProviderError(.badRequest, "\(file): chat.\(key) must be a string, not \(value.serialized())")
            }
            return string.isEmpty ? nil : string
        }
        func number(_ key: String, _ check: (String, String) throws(ModelProviderError) -> Int) throws(ModelProviderError) -> Int? {
            guard let value = object[key], value != .null else { return nil }
            return try check(value.stringValue ?? value.serialized(), "\(file): chat.\(key)")
        }
        provider = try text("provider").map { name throws(ModelProviderError) in try Self.provider(name, from: "\(file): chat.provider") }
        baseURL = try text("base_url").map { url throws(ModelProviderError) in try Self.baseURL(url, from: "\(file): chat.base_url") }
        model = try text("model")
        contextTokens = try number("context_tokens", Self.contextTokens)
        maxSteps = try number("max_steps", Self.maxSteps)
    }

    /// The members of the registry's `chat` object these settings write (nil: removed).
    public var registryMembers: [(key: String, value: JSONValue?)] {
        [
            ("provider", provider.map(JSONValue.string)), ("base_url", baseURL.map(JSONValue.string)),
            ("model", model.map(JSONValue.string)), ("context_tokens", contextTokens.map { .int(Int64($0)) }),
            ("max_steps", maxSteps.map { .int(Int64($0)) }),
        ]
    }

    /// The settings as JSON (`null` for what is not set).
    public var json: JSONValue {
        .object(JSONObject(registryMembers.map { ($0.key, $0.value ?? .null) }))
    }

    /// `configuration` with these limits: the steps, and the tool and history budgets of the context size.
    public func apply(to configuration: inout AgentConfiguration) {
        if let maxSteps { configuration.maxSteps = maxSteps }
        if let contextTokens {
            configuration.toolBudget = ToolBudget(contextTokens: contextTokens)
            configuration.historyTokenBudget = max(200, min(configuration.historyTokenBudget, contextTokens / 2))
        }
    }

    /// A provider name, checked.
    public static func provider(_ name: String, from source: String) throws(ModelProviderError) -> String {
        guard ProviderSelection.providerNames.contains(name.lowercased()) else {
            throw ModelProviderError(
                .badRequest, "unknown provider '\(name)' (from \(source)); use one of: \(ProviderSelection.providerNames.joined(separator: ", "))")
        }
        return name.lowercased()
    }

    /// A base URL, checked: `http://` or `https://` and a host.
    public static func baseURL(_ text: String, from source: String) throws(ModelProviderError) -> String {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), text.split(separator: "/").count >= 2 else {
            throw ModelProviderError(
                .badRequest, "\(source) must be the API root as an http:// or https:// URL (e.g. http://localhost:11434/v1), not '\(text)'")
        }
        return text
    }

    /// A `max_steps` value, checked.
    public static func maxSteps(_ text: String, from source: String) throws(ModelProviderError) -> Int {
        guard let value = Int(text), maxStepsRange.contains(value) else {
            throw ModelProviderError(
                .badRequest, "\(source) needs a whole number from \(maxStepsRange.lowerBound) to \(maxStepsRange.upperBound), not '\(text)'")
        }
        return value
    }

    /// A `context_tokens` value, checked.
    public static func contextTokens(_ text: String, from source: String) throws(ModelProviderError) -> Int {
        guard let value = Int(text), contextTokensRange.contains(value) else {
            throw ModelProviderError(
                .badRequest,
                "\(source) needs a whole number from \(contextTokensRange.lowerBound) to \(contextTokensRange.upperBound) (the model's context size), not '\(text)'")
        }
        return value
    }
}
