import SkillCalls
import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// Replays what `scripts/interop-llama.sh` recorded from a real llama-cpp-python server (SmolLM2-135M, in
/// the `chatml-function-calling` format and in the model's own template): the client must make the same
/// requests against the same answers, and end each turn the way it ended against the real server.
@Suite(.serialized) struct LlamaRecordingTests {
    struct Exchange {
        var request: JSONValue
        var status: Int
        var contentType: String
        var body: [UInt8]
    }

    struct Turn: CustomStringConvertible {
        var name: String
        var sentence: String
        var summary: JSONValue
        var exchanges: [Exchange]
        var description: String { name }
    }

    static let root = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/llama")

    /// Every recorded turn, as `<format>/<turn>`.
    static let turns: [Turn] = {
        guard let root else { return [] }
        let files = FileManager.default
        var turns: [Turn] = []
        for format in ((try? files.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            let formatURL = root.appendingPathComponent(format)
            for name in ((try? files.contentsOfDirectory(atPath: formatURL.path)) ?? []).sorted() {
                let directory = formatURL.appendingPathComponent(name)
                guard let summaryData = files.contents(atPath: directory.appendingPathComponent("turn.json").path),
                    let summary = try? JSONValue(parsing: [UInt8](summaryData))
                else { continue }
                var exchanges: [Exchange] = []
                for index in 0..<100 {
                    let stem = directory.appendingPathComponent(String(format: "%02d", index)).path
                    guard let meta = files.contents(atPath: stem + ".json").flatMap({ try? JSONValue(parsing: [UInt8]($0)) }),
                        let body = files.contents(atPath: stem + ".body")
                    else { break }
                    // Status 0: the server closed without answering (it had crashed); nothing to replay.
                    guard meta["status"]?.intValue ?? 0 != 0 else { break }
                    exchanges.append(
                        Exchange(
                            request: meta["request"] ?? .null, status: Int(meta["status"]?.intValue ?? 0),
                            contentType: meta["content_type"]?.stringValue ?? "", body: [UInt8](body)))
                }
                turns.append(Turn(name: "\(format)/\(name)", sentence: summary["sentence"]?.stringValue ?? "", summary: summary, exchanges: exchanges))
            }
        }
        return turns
    }()

    /// llama-cpp-python with `chatml-function-calling` answered the streamed request with tools with `200`
    /// and nothing but `: ping` comments before it crashed (issue 13, failure 1): the client must say it
    /// switches streaming off and ask again whole.
    @Test func theChatmlServersEmptyStreamIsNoticedAndRetriedWhole() async throws {
        let turn = try #require(Self.turns.first { $0.name == "chatml-function-calling/turn1" })
        let first = try #require(turn.exchanges.first)
        #expect(first.status == 200 && first.contentType.contains("event-stream"))
        #expect(!String(decoding: first.body, as: UTF8.self).contains("data:"))
        #expect(turn.summary["notices"]?.arrayValue?.first?.stringValue?.contains("without a single delta") == true)
    }

    @Test func bothChatFormatsWereRecorded() {
        let formats = Set(Self.turns.map { $0.name.split(separator: "/").first.map(String.init) ?? "" })
        #expect(formats == ["chatml-function-calling", "native"])
        #expect(Self.turns.allSatisfy { !$0.exchanges.isEmpty })
    }

    /// The recorded requests themselves: tools within the 2,048-token budget, no null content beside
    /// tool calls.
    @Test(arguments: LlamaRecordingTests.turns)
    func whatWasSentKeptTheRules(turn: Turn) {
        let budget = ToolBudget(contextTokens: 2048)
        for exchange in turn.exchanges {
            let tools = exchange.request["tools"]?.arrayValue ?? []
            #expect(tools.count <= budget.maxTools)
            let characters = tools.map { $0.serialized().count }.reduce(0, +)
            #expect(characters / 4 <= budget.maxTokens, "\(turn.name): \(characters) characters of tools")
            for message in exchange.request["messages"]?.arrayValue ?? [] where message["tool_calls"] != nil {
                #expect(message["content"]?.stringValue != nil, "\(turn.name): assistant content \(String(describing: message["content"]))")
            }
        }
    }

    @Test(arguments: LlamaRecordingTests.turns)
    func replayingTheServerGivesTheSameRequestsAndEnding(turn: Turn) async throws {
        let responses = turn.exchanges.map { exchange in
            ReplayServer.Response(
                status: exchange.status, headers: ["Content-Type": exchange.contentType], body: exchange.body,
                pieceSize: exchange.contentType.contains("event-stream") ? 23 : 0)
        }
        let server = try ReplayServer(responses, lifetime: 60)
        defer { server.stop() }
        let provider = OpenAIProvider(
            configuration: OpenAIConfiguration(
                baseURL: server.baseURL, model: "smollm2", idleTimeout: 20, maxRetries: 2, maxRetryDelay: 5, initialRetryDelay: 0.01))
        var configuration = AgentConfiguration(maxSteps: 2, historyTokenBudget: 1024)
        configuration.toolBudget = ToolBudget(contextTokens: 2048)
        let backend = InMemorySkillBackend(
            BundledSkills.tools.map { spec in
                InMemorySkillBackend.Skill(tool: spec.tool) { _ in ["skill": .string(spec.tool.id), "ok": true] }
            })
        let all = await events(of: Agent(provider: provider, backend: backend, configuration: configuration), turn.sentence)
        let sent = server.requests
        // A turn that failed against the real server may have asked once more than was recorded (the
        // server had crashed: nothing answered); a turn that ended well asked exactly as often.
        if turn.summary["failure"]?.isNull ?? true {
            #expect(sent.count == turn.exchanges.count, "\(turn.name)")
        } else {
            #expect(sent.count >= turn.exchanges.count, "\(turn.name)")
        }
        for (request, recorded) in zip(sent, turn.exchanges) {
            #expect(request.body?["stream"] == recorded.request["stream"], "\(turn.name)")
            let names = request.body?["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } ?? []
            let recordedNames = recorded.request["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } ?? []
            #expect(names == recordedNames, "\(turn.name)")
        }
        let notices = all.compactMap { if case .notice(let text) = $0 { text } else { nil } }
        #expect(notices.count == (turn.summary["notices"]?.arrayValue?.count ?? 0), "\(turn.name)")
        #expect((all.turnFailure == nil) == turn.summary["failure"]?.isNull ?? true, "\(turn.name): \(String(describing: all.turnFailure))")
        if let failure = all.turnFailure { #expect(!failure.message.contains("\n")) }
    }
}
