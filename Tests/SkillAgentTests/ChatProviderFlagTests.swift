import Foundation
import SkillJSON
import Testing

/// `skillhost chat --provider …`, `--context-tokens` and the notice line, as a user runs them.
@Suite(.serialized) struct ChatProviderFlagTests {
    @Test func anUnknownProviderIsAUsageError() throws {
        let run = try ChatCommandTests.chat(["--provider", "gemini", "hi"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown provider 'gemini' (from --provider); use one of: openai, anthropic, offline"))
    }

    @Test func aBadContextSizeIsAUsageError() throws {
        let run = try ChatCommandTests.chat(["--context-tokens", "ten", "hi"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--context-tokens needs a whole number from 512 to 10000000"))
    }

    @Test func anthropicRunsARealSkill() throws {
        let server = try ReplayServer([
            AnthropicProviderTests.json("call_clock_now.json"), AnthropicProviderTests.json("answer_time.json"),
        ])
        defer { server.stop() }
        let run = try ChatCommandTests.chat(
            ["--json", "--provider", "anthropic", "--context-tokens", "2048", "time in Tokyo"],
            environment: ["ANTHROPIC_BASE_URL": "http://127.0.0.1:\(server.port)", "ANTHROPIC_API_KEY": "sk-ant-do-not-print"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        #expect(events.contains { $0["event"] == "skillSucceeded" && $0["skill"] == "clock.now" })
        #expect(events.last { $0["event"] == "messageCompleted" }?["content"] == "It is 10:00 in Tokyo.")
        #expect(!run.stdout.contains("sk-ant-do-not-print") && !run.stderr.contains("sk-ant-do-not-print"))
        #expect(server.requests.first?.headers["x-api-key"] == "sk-ant-do-not-print")
    }

    @Test func theStreamingFallbackIsSaidOnceInOneLine() throws {
        let server = try ReplayServer([
            .stream("llamacpp_empty_stream.sse"), .json("llamacpp_call_clock_now.json"), .json("answer_time.json"),
        ])
        defer { server.stop() }
        let run = try ChatCommandTests.chat(["--base-url", server.baseURL, "--model", "smollm2", "time on Mars"])
        #expect(run.status == 0, "\(run.stderr)")
        let notes = run.stderr.split(separator: "\n").filter { $0.hasPrefix("note: ") }
        #expect(notes.count == 1)
        #expect(notes.first?.contains("streaming is off for this session") == true)
        #expect(run.stdout.contains("It is 10:00 in Tokyo."))
    }
}

/// `SKILLHOST_STREAM`: whole answers from the first request, or a usage error for a value it does not take.
@Suite(.serialized) struct ChatStreamSettingTests {
    @Test func streamingOffAsksForWholeAnswersWithoutANotice() throws {
        let server = try ReplayServer([AnthropicProviderTests.json("call_clock_now.json"), AnthropicProviderTests.json("answer_time.json")])
        defer { server.stop() }
        let run = try ChatCommandTests.chat(
            ["--provider", "anthropic", "--base-url", "http://127.0.0.1:\(server.port)", "time in Tokyo"],
            environment: ["SKILLHOST_STREAM": "0"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("It is 10:00 in Tokyo."))
        #expect(!run.stderr.contains("note: "))
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.body?["stream"] == nil && $0.headers["accept"] == "application/json" })
    }

    @Test func aValueItDoesNotTakeIsAUsageError() throws {
        let run = try ChatCommandTests.chat(["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hi"], environment: ["SKILLHOST_STREAM": "maybe"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("SKILLHOST_STREAM is 'maybe'; set it to 0 (or false, off, no) to turn streaming off"))
    }
}

/// The registry's `"chat": {"provider": …}` setting selects the provider when no flag or variable does.
@Suite(.serialized) struct ChatRegistryProviderTests {
    @Test func theRegistrySettingSelectsAnthropic() throws {
        let server = try ReplayServer([AnthropicProviderTests.json("answer_time.json")])
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chat-registry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = folder.appendingPathComponent("registry.json")
        try Data(#"{"version": 1, "chat": {"provider": "anthropic"}}"#.utf8).write(to: registry)
        let run = try ChatCommandTests.chat(
            ["--json", "hi"],
            environment: [
                "SKILLHOST_REGISTRY": registry.path, "ANTHROPIC_BASE_URL": "http://127.0.0.1:\(server.port)",
                // Without the setting, this OpenAI server (where nothing listens) would be used.
                "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "SKILLHOST_MODEL": "claude-haiku-4-5",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requests.first?.path == "/v1/messages")
        #expect(run.stdout.contains("It is 10:00 in Tokyo."))
    }
}
