import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import Testing

@testable import SkillAgent

/// Whole turns through the real host and the example plugins (`.build/plugins/{clock,text,sysinfo}.so`,
/// run in worker processes of `.build/debug/skillhost`; scripts/test.sh builds both before the tests).
@Suite(.serialized) struct HostEndToEndTests {
    static let packageRoot = TestPackage.root

    struct SetupError: Error, CustomStringConvertible { var description: String }

    /// A host over a temporary folder holding copies of the built plugins.
    static func makeHost() throws -> SkillHost {
        let helper = packageRoot + "/.build/debug/skillhost"
        let built = packageRoot + "/.build/plugins"
        let files = ["clock.so", "text.so", "sysinfo.so"]
        guard FileManager.default.isExecutableFile(atPath: helper),
            files.allSatisfy({ FileManager.default.fileExists(atPath: built + "/" + $0) })
        else {
            throw SetupError(description: "missing \(helper) or \(built)/*.so: run scripts/build-plugins.sh and 'swift build --product skillhost' (scripts/test.sh does both)")
        }
        let root = NSTemporaryDirectory() + "skillagent-e2e-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        for file in files {
            try FileManager.default.copyItem(atPath: built + "/" + file, toPath: root + "/plugins/" + file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root + "/plugins/" + file)
        }
        let paths = HostPaths(plugins: root + "/plugins", registry: root + "/skill_registry.json", cache: root + "/cache", data: root + "/data")
        return SkillHost(paths: paths, helperExecutable: helper)
    }

    /// Removes the temporary folder of a host made by ``makeHost()``.
    static func cleanUp(_ host: SkillHost) {
        try? FileManager.default.removeItem(atPath: (host.paths.plugins as NSString).deletingLastPathComponent)
    }

    static let offline = OfflineProvider(now: { Date(timeIntervalSince1970: 1_770_710_400) }, timeZone: TimeZone(identifier: "UTC")!)

    @Test func offlineTurnRunsTwoRealSkills() async throws {
        let host = try Self.makeHost()
        let agent = Agent(provider: Self.offline, backend: HostSkillBackend(host: host))
        let all = await events(of: agent, "What time is it in Asia/Tokyo, then count the words in hello big world")
        await host.shutdown()
        Self.cleanUp(host)
        #expect(all.skillFailures == [])
        let skills = all.compactMap { if case .skillSucceeded(let info, _, _) = $0 { info.skillID } else { nil } }
        #expect(skills == ["clock.now", "text.stats"])
        let wordCount = all.compactMap { if case .skillSucceeded(_, let result, _) = $0 { result["words"] } else { nil } }
        #expect(wordCount == [3])
        let answer = try #require(all.answer)
        // The bundled skills' summary templates make each line a sentence, not a key/value list.
        let lines = answer.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.wholeMatch(of: /- It is \d\d:\d\d on [A-Z][a-z]+day, \d{4}-\d\d-\d\d \(Asia\/Tokyo\)\./) != nil)
        #expect(lines.last?.hasPrefix("- 3 words and 15 characters in 1 sentence, about ") == true)
        #expect(!answer.contains("iso8601:"))
    }

    @Test func hostValidationErrorsGoBackToTheModel() async throws {
        let host = try Self.makeHost()
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [ToolCall(id: "c1", name: "clock_now", argumentsText: #"{"timezone": 5}"#)]),
            ModelReply(content: "", toolCalls: [ToolCall(id: "c2", name: "clock_now", argumentsText: #"{"timezone": "UTC"}"#)]),
            ModelReply(content: "It is some time in UTC."),
        ])
        let agent = Agent(provider: provider, backend: HostSkillBackend(host: host))
        let all = await events(of: agent, "time in UTC")
        await host.shutdown()
        Self.cleanUp(host)
        #expect(all.skillFailures.map(\.kind) == ["invalidArguments"])
        #expect(all.skillFailures.first?.message.contains("/timezone") == true)
        #expect(all.successes == ["c2"])
        #expect(all.answer == "It is some time in UTC.")
    }

    @Test func toolsAreTheHostsEnabledSkills() async throws {
        let host = try Self.makeHost()
        let tools = try await HostSkillBackend(host: host).tools()
        await host.shutdown()
        Self.cleanUp(host)
        let ids = tools.map(\.id)
        #expect(ids.contains("clock.now"))
        #expect(ids.contains("text.stats"))
        #expect(ids.contains("sysinfo.uptime"))
        #expect(tools.first { $0.id == "clock.now" }?.examples.isEmpty == false)
    }

    /// Arguments that make each bundled skill succeed.
    static let sampleArguments: [String: JSONValue] = [
        "clock.now": ["timezone": "Asia/Tokyo"],
        "clock.add": ["start": "2026-11-30T10:00:00Z", "amount": 3, "unit": "days"],
        "clock.difference": ["from": "2026-01-01", "to": "2026-11-30"],
        "clock.convert": ["time": "2026-11-30T10:00:00", "from_timezone": "Europe/Paris", "to_timezone": "Asia/Tokyo"],
        "text.stats": ["text": "hello world"],
        "text.summarize": ["text": "The cat sat on the mat. The dog sat on the log. Birds fly high. The cat and the dog are friends."],
        "text.keywords": ["text": "the cat sat on the mat with the cat hat"],
    ]

    @Test func everyBundledSkillHasASummaryTemplateThatFitsItsRealResult() async throws {
        let host = try Self.makeHost()
        defer { Self.cleanUp(host) }
        let tools = try await HostSkillBackend(host: host).tools()
        #expect(tools.count >= 12)
        for tool in tools {
            let template = tool.summary
            #expect(template != nil, "\(tool.id) has no summary template")
            let arguments = Self.sampleArguments[tool.id] ?? [:]
            do {
                let result = try await host.invoke(skillID: tool.id, arguments: arguments)
                let sentence = ResultSummary.templated(result, template: template, limit: 200)
                #expect(sentence != nil, "\(tool.id): \(template ?? "") does not fit \(result.serialized())")
                #expect(sentence?.contains("{") == false)
            } catch {
                Issue.record("\(tool.id) failed: \(error.message)")
            }
        }
        await host.shutdown()
    }
}
