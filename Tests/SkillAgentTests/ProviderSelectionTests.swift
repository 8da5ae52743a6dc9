import Testing

@testable import SkillAgent

@Suite struct ProviderSelectionTests {
    @Test func offlineWhenNothingIsConfigured() throws {
        #expect(try ProviderSelection.resolve(environment: [:], baseURLFlag: nil, modelFlag: nil, offline: false) == .offline)
    }

    @Test func flagsWinOverEnvironment() throws {
        let environment = ["OPENAI_BASE_URL": "http://env/v1", "SKILLHOST_MODEL": "env-model"]
        #expect(
            try ProviderSelection.resolve(environment: environment, baseURLFlag: "http://localhost:11434/v1", modelFlag: "llama3.1", offline: false)
                == .openAI(baseURL: "http://localhost:11434/v1", model: "llama3.1"))
        #expect(
            try ProviderSelection.resolve(environment: environment, baseURLFlag: nil, modelFlag: nil, offline: false)
                == .openAI(baseURL: "http://env/v1", model: "env-model"))
    }

    @Test func apiKeyAloneSelectsOpenAI() throws {
        #expect(
            try ProviderSelection.resolve(environment: ["OPENAI_API_KEY": "sk-x"], baseURLFlag: nil, modelFlag: nil, offline: false)
                == .openAI(baseURL: "https://api.openai.com/v1", model: "gpt-4o-mini"))
    }

    @Test func offlineFlagWins() throws {
        #expect(try ProviderSelection.resolve(environment: ["OPENAI_API_KEY": "sk-x"], baseURLFlag: nil, modelFlag: nil, offline: true) == .offline)
    }

    @Test func aServerWithoutAModelIsAnError() {
        #expect(throws: ModelProviderError.self) {
            try ProviderSelection.resolve(environment: [:], baseURLFlag: "http://localhost:8080/v1", modelFlag: nil, offline: false)
        }
    }

    @Test func skillhostStreamTurnsStreamingOffForEitherProvider() throws {
        for value in ["0", "false", "OFF", "no"] { #expect(try ProviderSelection.streams(environment: ["SKILLHOST_STREAM": value]) == false) }
        for value in ["1", "true", "On", "yes", "", " "] { #expect(try ProviderSelection.streams(environment: ["SKILLHOST_STREAM": value])) }
        #expect(try ProviderSelection.streams(environment: [:]))
        let openAI = ProviderSelection.openAI(baseURL: "http://h/v1", model: "m")
        let anthropic = ProviderSelection.anthropic(baseURL: "http://h", model: "m")
        let off = ["SKILLHOST_STREAM": "off"]
        #expect((openAI.makeProvider(environment: off) as? OpenAIProvider)?.configuration.stream == false)
        #expect((anthropic.makeProvider(environment: off) as? AnthropicProvider)?.configuration.stream == false)
        #expect((openAI.makeProvider(environment: [:]) as? OpenAIProvider)?.configuration.stream == true)
        #expect((anthropic.makeProvider(environment: [:]) as? AnthropicProvider)?.configuration.stream == true)
    }

    @Test func aBadSkillhostStreamSaysWhatItTakes() {
        do {
            _ = try ProviderSelection.resolve(
                environment: ["SKILLHOST_STREAM": "sometimes", "OPENAI_API_KEY": "sk-x"], baseURLFlag: nil, modelFlag: nil, offline: false)
            Issue.record("no error")
        } catch {
            #expect(error.kind == .badRequest)
            #expect(error.message == "SKILLHOST_STREAM is 'sometimes'; set it to 0 (or false, off, no) to turn streaming off, 1 (or true, on, yes) or unset to keep it")
        }
    }

    @Test func baseURLLosesTrailingSlashes() {
        #expect(OpenAIConfiguration(baseURL: "http://h/v1/ ", model: "m").chatCompletionsURL == "http://h/v1/chat/completions")
    }

    @Test func credentialsInTheBaseURLStayOutOfMessages() {
        #expect(OpenAIConfiguration.redacted("http://user:secret@localhost:8080/v1") == "http://localhost:8080/v1")
        #expect(OpenAIConfiguration.redacted("http://localhost:8080/v1/a@b") == "http://localhost:8080/v1/a@b")
        #expect(OpenAIConfiguration.redacted("https://api.openai.com/v1") == "https://api.openai.com/v1")
        let provider = OpenAIProvider(configuration: OpenAIConfiguration(baseURL: "http://u:secret@127.0.0.1:9/v1", model: "m"))
        let error = provider.error(for: HTTPResponseHead(status: 401, headers: [:]), detail: "")
        #expect(!error.message.contains("secret"))
    }
}
