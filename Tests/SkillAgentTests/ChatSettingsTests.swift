import Foundation
import SkillAgent
import SkillJSON
import Testing

/// The registry's `chat` object (written by `skillhost ui`'s Settings tab): its rules, and `skillhost chat`
/// reading it after its flags and environment.
@Suite(.serialized) struct ChatSettingsTests {
    @Test func eachBadMemberIsRefusedInOneLineNamingIt() {
        let cases: [(JSONObject, String)] = [
            (["provider": "gemini"], "unknown provider 'gemini' (from r.json: chat.provider); use one of: openai, anthropic, offline"),
            (["base_url": "localhost:11434"], "r.json: chat.base_url must be the API root as an http:// or https:// URL (e.g. http://localhost:11434/v1), not 'localhost:11434'"),
            (["model": 7], "r.json: chat.model must be a string, not 7"),
            (["context_tokens": 100], "r.json: chat.context_tokens needs a whole number from 512 to 10000000 (the model's context size), not '100'"),
            (["max_steps": "many"], "r.json: chat.max_steps needs a whole number from 0 to 100, not 'many'"),
            (["max_steps": 101], "r.json: chat.max_steps needs a whole number from 0 to 100, not '101'"),
        ]
        for (object, message) in cases {
            #expect(throws: ModelProviderError.self) { try ChatSettings(registry: object, file: "r.json") }
            do {
                _ = try ChatSettings(registry: object, file: "r.json")
            } catch {
                #expect(error.message == message)
                #expect(!error.message.contains("\n"))
            }
        }
    }

    @Test func goodMembersAreReadAndApplied() throws {
        let settings = try ChatSettings(
            registry: ["provider": "OpenAI", "base_url": "http://127.0.0.1:9/v1", "model": "m", "context_tokens": 2048, "max_steps": "3"],
            file: "r.json")
        #expect(settings == ChatSettings(provider: "openai", baseURL: "http://127.0.0.1:9/v1", model: "m", contextTokens: 2048, maxSteps: 3))
        var configuration = AgentConfiguration()
        settings.apply(to: &configuration)
        #expect(configuration.maxSteps == 3)
        #expect(configuration.historyTokenBudget == 1024)
        #expect(try ChatSettings(registry: ["model": .null, "base_url": ""], file: "r.json") == ChatSettings())
    }

    @Test func chatUsesTheRegistrysModelServerWhenNoFlagNamesOne() throws {
        let server = try ReplayServer([.json("llamacpp_call_clock_now.json"), .json("answer_time.json")])
        defer { server.stop() }
        let folder = TestPackage.temporaryDirectory("chat-settings")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let registry = folder + "/skill_registry.json"
        try TestPackage.write(#"{"version": 1, "chat": {"base_url": "\#(server.baseURL)", "model": "from-registry", "max_steps": 2}}"#, to: registry)
        let run = try ChatCommandTests.chat(["--json", "time in Tokyo"], environment: ["SKILLHOST_REGISTRY": registry])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requests.first?.body?["model"] == "from-registry")
        #expect(run.stdout.contains("It is 10:00 in Tokyo."))
        // A flag still wins over the registry.
        let flagged = try ReplayServer([.json("answer_time.json")])
        defer { flagged.stop() }
        let again = try ChatCommandTests.chat(["--model", "from-flag", "--base-url", flagged.baseURL, "hi"], environment: ["SKILLHOST_REGISTRY": registry])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(flagged.requests.first?.body?["model"] == "from-flag")
    }

    @Test func aBadRegistryMemberFailsChatInOneLine() throws {
        let folder = TestPackage.temporaryDirectory("chat-settings")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let registry = folder + "/skill_registry.json"
        try TestPackage.write(#"{"version": 1, "chat": {"context_tokens": "lots"}}"#, to: registry)
        let run = try ChatCommandTests.chat(["hi"], environment: ["SKILLHOST_REGISTRY": registry])
        #expect(run.status == 12, "\(run.stderr)")
        #expect(run.stderr.contains("\(registry): chat.context_tokens needs a whole number from 512 to 10000000"), "\(run.stderr)")
    }

    /// A flag overrides its registry member, so a bad saved value there does not stop the command: `--provider
    /// offline` works with a misspelt `chat.provider`, `--context-tokens` with a bad `chat.context_tokens`; a
    /// bad member no flag overrides still fails.
    @Test func aFlagOverridesABadRegistryMember() throws {
        let folder = TestPackage.temporaryDirectory("chat-settings")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let registry = folder + "/skill_registry.json"
        try TestPackage.write(#"{"version": 1, "chat": {"provider": "gemni", "context_tokens": "lots"}}"#, to: registry)
        let environment = ["SKILLHOST_REGISTRY": registry]
        let overridden = try ChatCommandTests.chat(["--provider", "offline", "--context-tokens", "4096", "hi"], environment: environment)
        #expect(overridden.status == 0, "\(overridden.stderr)")
        let offline = try ChatCommandTests.chat(["--offline", "--context-tokens", "4096", "hi"], environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        let stillBad = try ChatCommandTests.chat(["--provider", "offline", "hi"], environment: environment)
        #expect(stillBad.status == 12 && stillBad.stderr.contains("chat.context_tokens"), "\(stillBad.stderr)")
    }
}
