import Testing

@testable import SkillAgent

/// `--provider`, `SKILLHOST_PROVIDER`, the registry's `chat.provider` and `ANTHROPIC_*` select the
/// Anthropic provider.
@Suite struct AnthropicSelectionTests {
    static func resolve(
        _ environment: [String: String], provider: String? = nil, registry: String? = nil, baseURL: String? = nil, model: String? = nil
    ) throws -> ProviderSelection {
        try ProviderSelection.resolve(
            environment: environment, providerFlag: provider, registrySetting: registry, baseURLFlag: baseURL, modelFlag: model,
            offline: false)
    }

    @Test func theFlagSelectsAnthropicWithItsDefaults() throws {
        #expect(try Self.resolve([:], provider: "anthropic") == .anthropic(baseURL: "https://api.anthropic.com", model: "claude-haiku-4-5"))
        #expect(
            try Self.resolve(["ANTHROPIC_BASE_URL": "http://127.0.0.1:9/", "SKILLHOST_MODEL": "claude-x"], provider: "Anthropic")
                == .anthropic(baseURL: "http://127.0.0.1:9/", model: "claude-x"))
        #expect(try Self.resolve([:], provider: "anthropic", baseURL: "http://b", model: "m") == .anthropic(baseURL: "http://b", model: "m"))
    }

    @Test func flagBeatsEnvironmentBeatsRegistry() throws {
        let environment = ["SKILLHOST_PROVIDER": "anthropic", "OPENAI_API_KEY": "sk-x"]
        #expect(try Self.resolve(environment, provider: "offline") == .offline)
        #expect(try Self.resolve(environment, registry: "openai") == .anthropic(baseURL: "https://api.anthropic.com", model: "claude-haiku-4-5"))
        #expect(try Self.resolve(["OPENAI_API_KEY": "sk-x"], registry: "anthropic") == .anthropic(baseURL: "https://api.anthropic.com", model: "claude-haiku-4-5"))
        #expect(try Self.resolve([:], registry: "offline") == .offline)
    }

    @Test func anthropicKeyAloneSelectsAnthropicButOpenAIComesFirst() throws {
        #expect(try Self.resolve(["ANTHROPIC_API_KEY": "sk-ant"]) == .anthropic(baseURL: "https://api.anthropic.com", model: "claude-haiku-4-5"))
        #expect(
            try Self.resolve(["ANTHROPIC_API_KEY": "sk-ant", "OPENAI_API_KEY": "sk-x"])
                == .openAI(baseURL: "https://api.openai.com/v1", model: "gpt-4o-mini"))
    }

    @Test func anUnknownProviderSaysWhereItCameFrom() {
        #expect(throws: ModelProviderError.self) { try Self.resolve([:], provider: "gemini") }
        do {
            _ = try Self.resolve(["SKILLHOST_PROVIDER": "gemini"])
            Issue.record("no error")
        } catch let error as ModelProviderError {
            #expect(error.message.contains("unknown provider 'gemini' (from SKILLHOST_PROVIDER)"))
            #expect(error.message.contains("openai, anthropic, offline"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theProviderIsNamedAndTheKeyReadFromTheEnvironment() {
        let provider = ProviderSelection.anthropic(baseURL: "https://api.anthropic.com", model: "claude-haiku-4-5")
            .makeProvider(environment: ["ANTHROPIC_API_KEY": "sk-ant-1"])
        #expect(provider.name == "anthropic:claude-haiku-4-5")
        #expect((provider as? AnthropicProvider)?.configuration.apiKey == "sk-ant-1")
        #expect((provider as? AnthropicProvider)?.configuration.messagesURL == "https://api.anthropic.com/v1/messages")
        #expect(AnthropicConfiguration(baseURL: "http://h/v1/").messagesURL == "http://h/v1/messages")
    }
}
