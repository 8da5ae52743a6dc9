import Foundation
import SkillJSON
import Testing

/// `skillhost chat --provider anthropic` against LiteLLM's Messages endpoint (`litellm[proxy]` from PyPI,
/// ``LiteLLMPeer``), in front of a scripted OpenAI-compatible backend: the Anthropic provider checked
/// against an implementation of the API we did not write (issue 38). LiteLLM translates our Messages
/// requests into Chat Completions requests for the backend, and its answers back into Messages answers and
/// events; the tests check both ends: what the user sees and what reached the backend.
@Suite("The Anthropic provider through LiteLLM's Messages endpoint (litellm[proxy] from PyPI)", .serialized)
struct LiteLLMInteropTests {
    /// Runs one `skillhost chat --json --provider anthropic` (or the interactive session, with `stdin`)
    /// against the proxy, after the backend is given `script`.
    static func chat(
        _ script: [ReplayServer.Response], _ arguments: [String], stdin: String? = nil
    ) throws -> (run: ChatCommandTests.Run, events: [JSONValue], backend: [ReplayServer.Request]) {
        let peer = try LiteLLMPeer.shared.get()
        peer.backend.play(script)
        let run = try ChatCommandTests.chat(
            ["--provider", "anthropic", "--base-url", peer.baseURL, "--model", LiteLLMPeer.model] + arguments, stdin: stdin,
            environment: ["ANTHROPIC_API_KEY": LiteLLMPeer.masterKey, "NO_PROXY": "127.0.0.1"])
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        #expect(!run.stdout.contains(LiteLLMPeer.masterKey) && !run.stderr.contains(LiteLLMPeer.masterKey))
        return (run, events, peer.backend.requests)
    }

    /// The backend's messages of one role.
    static func messages(_ request: ReplayServer.Request, role: String) -> [JSONValue] {
        (request.body?["messages"]?.arrayValue ?? []).filter { $0["role"]?.stringValue == role }
    }

    @Test func twoToolCallsRunAndTheirResultsReachTheModel() throws {
        let (run, events, backend) = try Self.chat(
            [
                ScriptedCompletions.streamedCalls([
                    ("call_tokyo", "clock_now", #"{"timezone": "Asia/Tokyo"}"#),
                    ("call_words", "text_stats", #"{"text": "hello brave new world"}"#),
                ]),
                ScriptedCompletions.streamedText(["It is late", " in Tokyo, and the text", " has 4 words."]),
            ], ["--json", "what time is it in Tokyo, and count the words in: hello brave new world"])
        #expect(run.status == 0, "\(run.stderr)")
        let succeeded = events.filter { $0["event"] == "skillSucceeded" }
        #expect(succeeded.compactMap { $0["skill"]?.stringValue }.sorted() == ["clock.now", "text.stats"])
        #expect(succeeded.first { $0["skill"] == "clock.now" }?["arguments"] == ["timezone": "Asia/Tokyo"])
        #expect(succeeded.first { $0["skill"] == "text.stats" }?["result"]?["words"] == 4)
        #expect(events.last { $0["event"] == "messageCompleted" }?["content"] == "It is late in Tokyo, and the text has 4 words.")
        #expect(!events.contains { $0["event"] == "notice" })

        // What LiteLLM made of our two Messages requests.
        #expect(backend.count == 2)
        #expect(backend.allSatisfy { $0.path == "/v1/chat/completions" && $0.body?["stream"] == true && $0.body?["model"] == "scripted" })
        // A text-only turn went as a string and stays one (a list would reach the backend as a list).
        #expect(
            Self.messages(backend[0], role: "user").first?["content"] == "what time is it in Tokyo, and count the words in: hello brave new world")
        let tools = backend[0].body?["tools"]?.arrayValue ?? []
        let names = tools.compactMap { $0["function"]?["name"]?.stringValue }
        #expect(names.contains("clock_now") && names.contains("text_stats"))
        #expect(tools.first { $0["function"]?["name"] == "clock_now" }?["function"]?["parameters"]?["type"] == "object")
        let calls = Self.messages(backend[1], role: "assistant").last?["tool_calls"]?.arrayValue ?? []
        #expect(calls.compactMap { $0["id"]?.stringValue } == ["call_tokyo", "call_words"])
        #expect(calls.compactMap { $0["function"]?["name"]?.stringValue } == ["clock_now", "text_stats"])
        let results = Self.messages(backend[1], role: "tool")
        #expect(results.compactMap { $0["tool_call_id"]?.stringValue } == ["call_tokyo", "call_words"])
        let wordsResult = try JSONValue(parsing: Self.text(of: results.last?["content"]))
        #expect(wordsResult["words"] == 4)
        #expect(try JSONValue(parsing: Self.text(of: results.first?["content"]))["timezone"] == "Asia/Tokyo")
    }

    @Test func aToolErrorGoesBackToTheModelWhichAnswers() throws {
        let (run, events, backend) = try Self.chat(
            [
                ScriptedCompletions.streamedCalls([("call_mars", "clock_now", #"{"timezone": "Mars/Olympus"}"#)]),
                ScriptedCompletions.streamedText(["Mars has no time zone I know of."]),
            ], ["--json", "what time is it on Mars"])
        #expect(run.status == 0, "\(run.stderr)")
        let failed = try #require(events.first { $0["event"] == "skillFailed" })
        #expect(failed["skill"] == "clock.now")
        let kind = try #require(failed["error"]?["kind"]?.stringValue)
        #expect(events.last { $0["event"] == "messageCompleted" }?["content"] == "Mars has no time zone I know of.")
        #expect(backend.count == 2)
        let result = try #require(Self.messages(backend[1], role: "tool").first)
        #expect(result["tool_call_id"] == "call_mars")
        let error = try JSONValue(parsing: Self.text(of: result["content"]))
        #expect(error["error"]?["kind"]?.stringValue == kind)
        #expect(error["error"]?["message"]?.stringValue?.contains("Mars/Olympus") == true)
    }

    @Test func aLongAnswerStreamsThroughPieceByPiece() throws {
        let pieces = (1...400).map { "word\($0) " }
        let (run, events, backend) = try Self.chat([ScriptedCompletions.streamedText(pieces)], ["--json", "tell me a long story"])
        #expect(run.status == 0, "\(run.stderr)")
        let tokens = events.filter { $0["event"] == "token" }.compactMap { $0["text"]?.stringValue }
        #expect(tokens.joined() == pieces.joined())
        // Streamed as it came, not gathered into one piece somewhere on the way.
        #expect(tokens.count >= 100, "only \(tokens.count) token events")
        #expect(events.last { $0["event"] == "messageCompleted" }?["content"]?.stringValue == pieces.joined())
        #expect(backend.count == 1)
    }

    @Test func anEmptyStreamIsAskedAgainWholeAndStreamingStaysOffForTheSession() throws {
        // The issue's case: the backend answers a streamed request with tools with an empty body (as
        // llama-cpp-python does); LiteLLM turns that into one empty text block and `end_turn`.
        let (run, _, backend) = try Self.chat(
            [
                ScriptedCompletions.emptyStream,
                ScriptedCompletions.wholeCalls([("call_tokyo", "clock_now", #"{"timezone": "Asia/Tokyo"}"#)]),
                ScriptedCompletions.wholeText("It is late in Tokyo."),
                ScriptedCompletions.wholeText("Still late in Tokyo."),
            ], [], stdin: "what time is it in Tokyo\nand now?\nexit\n")
        #expect(run.status == 0, "\(run.stderr)")
        let notes = run.stderr.split(separator: "\n").filter { $0.hasPrefix("note: ") }
        #expect(
            notes == [
                "note: \(try LiteLLMPeer.shared.get().baseURL) sent an empty streamed answer (no text, no tool call) to a request with tools; streaming is off for this session"
            ])
        #expect(run.stdout.contains("[ok] clock.now"))
        #expect(run.stdout.contains("It is late in Tokyo."))
        #expect(run.stdout.contains("Still late in Tokyo."))
        #expect(backend.map { $0.body?["stream"] == true } == [true, false, false, false])
    }

    @Test func aBackendThatRefusesToStreamWithToolsIsAskedAgainWhole() throws {
        // llama.cpp's "Cannot use tools with stream": LiteLLM passes it on as an invalid_request_error.
        let refusal = ReplayServer.Response(
            status: 400, headers: ["Content-Type": "application/json"],
            body: Array(#"{"error":{"code":400,"message":"Cannot use tools with stream","type":"invalid_request_error"}}"#.utf8), pieceSize: 0)
        let (run, events, backend) = try Self.chat(
            [refusal, ScriptedCompletions.wholeCalls([("call_up", "sysinfo_uptime", "{}")]), ScriptedCompletions.wholeText("Up for a while.")],
            ["--json", "how long has this machine been up"])
        #expect(run.status == 0, "\(run.stderr)")
        let notices = events.filter { $0["event"] == "notice" }.compactMap { $0["text"]?.stringValue }
        #expect(notices.count == 1)
        #expect(notices.first?.hasSuffix("cannot stream with tools; streaming is off for this session") == true)
        #expect(events.contains { $0["event"] == "skillSucceeded" && $0["skill"] == "sysinfo.uptime" })
        #expect(events.last { $0["event"] == "messageCompleted" }?["content"] == "Up for a while.")
        #expect(backend.map { $0.body?["stream"] == true } == [true, false, false])
    }

    /// A tool message's content: a string, or text parts (LiteLLM may send either).
    static func text(of content: JSONValue?) -> String {
        if let text = content?.stringValue { return text }
        return (content?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined()
    }
}

/// The answers of a scripted OpenAI-compatible model: Chat Completions chunks split as servers split them
/// (a call's id and name first, then its arguments in pieces), or whole `chat.completion` bodies.
enum ScriptedCompletions {
    typealias Call = (id: String, name: String, arguments: String)

    static func chunk(_ delta: JSONValue, finishReason: String? = nil) -> String {
        let choice: JSONValue = ["index": 0, "delta": delta, "finish_reason": finishReason.map { .string($0) } ?? .null]
        let chunk: JSONValue = [
            "id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 1_764_518_400, "model": "scripted", "choices": [choice],
        ]
        return "data: " + chunk.serialized() + "\n\n"
    }

    static func stream(_ chunks: [String]) -> ReplayServer.Response {
        ReplayServer.Response(
            status: 200, headers: ["Content-Type": "text/event-stream"], body: Array((chunks.joined() + "data: [DONE]\n\n").utf8),
            pieceSize: 97, pause: 0.001)
    }

    /// The calls, streamed: each call's first chunk has its id and name, its arguments follow in three pieces.
    static func streamedCalls(_ calls: [Call]) -> ReplayServer.Response {
        var chunks = [chunk(["role": "assistant", "content": .null])]
        for (index, call) in calls.enumerated() {
            let start: JSONValue = [
                "index": .int(Int64(index)), "id": .string(call.id), "type": "function",
                "function": ["name": .string(call.name), "arguments": ""],
            ]
            chunks.append(chunk(["tool_calls": [start]]))
            let characters = Array(call.arguments)
            let third = max(1, (characters.count + 2) / 3)
            for offset in stride(from: 0, to: characters.count, by: third) {
                let piece = String(characters[offset..<min(offset + third, characters.count)])
                chunks.append(chunk(["tool_calls": [["index": .int(Int64(index)), "function": ["arguments": .string(piece)]]]]))
            }
        }
        chunks.append(chunk([:], finishReason: "tool_calls"))
        return stream(chunks)
    }

    /// Text, streamed one piece per chunk.
    static func streamedText(_ pieces: [String]) -> ReplayServer.Response {
        stream([chunk(["role": "assistant", "content": ""])] + pieces.map { chunk(["content": .string($0)]) } + [chunk([:], finishReason: "stop")])
    }

    /// A `200` with an empty body to a streamed request (llama-cpp-python with tools).
    static let emptyStream = ReplayServer.Response(status: 200, headers: ["Content-Type": "text/event-stream"], body: [], pieceSize: 0)

    static func whole(_ message: JSONValue, finishReason: String) -> ReplayServer.Response {
        let body: JSONValue = [
            "id": "chatcmpl-scripted", "object": "chat.completion", "created": 1_764_518_400, "model": "scripted",
            "choices": [["index": 0, "message": message, "finish_reason": .string(finishReason)]],
            "usage": ["prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110],
        ]
        return ReplayServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: body.serializedBytes(), pieceSize: 0)
    }

    static func wholeCalls(_ calls: [Call]) -> ReplayServer.Response {
        let toolCalls: [JSONValue] = calls.map {
            ["id": .string($0.id), "type": "function", "function": ["name": .string($0.name), "arguments": .string($0.arguments)]]
        }
        return whole(["role": "assistant", "content": .null, "tool_calls": .array(toolCalls)], finishReason: "tool_calls")
    }

    static func wholeText(_ text: String) -> ReplayServer.Response {
        whole(["role": "assistant", "content": .string(text)], finishReason: "stop")
    }
}
