import SkillCalls
import SkillJSON
import Testing

@testable import SkillAgent

@Suite struct StreamParsingTests {
    @Test func eventsSurviveAnySplitAndLineEnding() {
        let text = "data: {\"a\":1}\r\n\r\n: comment\n\ndata: first\ndata: second\n\nevent: x\ndata:[DONE]\r\r"
        let bytes = Array(text.utf8)
        for size in [1, 2, 3, 7, bytes.count] {
            var decoder = ServerSentEventDecoder()
            var events: [String] = []
            var index = 0
            while index < bytes.count {
                events += decoder.feed(bytes[index..<min(index + size, bytes.count)])
                index += size
            }
            #expect(events == ["{\"a\":1}", "first\nsecond", "[DONE]"], "piece size \(size)")
        }
    }

    @Test func unterminatedLastEventIsKept() {
        var decoder = ServerSentEventDecoder()
        #expect(decoder.feed(Array("data: tail".utf8)).isEmpty)
        #expect(decoder.finish() == "tail")
    }

    @Test func fragmentedParallelToolCallsAreJoinedByIndex() throws {
        var accumulator = StreamedReplyAccumulator()
        let chunks = [
            #"{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"clock_now","arguments":""}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"text_count_words","arguments":"{\"te"}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"timezone\":"}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"xt\":\"hi\"}"}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"UTC\"}"}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        ]
        for chunk in chunks { _ = try accumulator.add(chunk) }
        let reply = accumulator.reply
        #expect(reply.finishReason == "tool_calls")
        #expect(reply.toolCalls.map(\.id) == ["a", "b"])
        #expect(try reply.toolCalls[0].parsedArguments() == ["timezone": "UTC"])
        #expect(try reply.toolCalls[1].parsedArguments() == ["text": "hi"])
    }

    @Test func wholeCallsWithObjectArgumentsAndNoIndex() throws {
        var accumulator = StreamedReplyAccumulator()
        _ = try accumulator.add(#"{"choices":[{"delta":{"tool_calls":[{"id":"x","function":{"name":"clock_now","arguments":{"timezone":"UTC"}}}]}}]}"#)
        _ = try accumulator.add(#"{"choices":[{"delta":{"tool_calls":[{"id":"y","function":{"name":"clock_now","arguments":{"timezone":"CET"}}}]}}]}"#)
        let calls = accumulator.reply.toolCalls
        #expect(calls.map(\.id) == ["x", "y"])
        #expect(try calls[1].parsedArguments() == ["timezone": "CET"])
    }

    @Test func textTokensAreReturnedAsTheyCome() throws {
        var accumulator = StreamedReplyAccumulator()
        #expect(try accumulator.add(#"{"choices":[{"delta":{"content":"Hel"}}]}"#) == "Hel")
        #expect(try accumulator.add(#"{"choices":[{"delta":{"content":"lo"}}]}"#) == "lo")
        #expect(accumulator.reply.content == "Hello")
    }

    @Test func errorChunksAndGarbageThrow() {
        var accumulator = StreamedReplyAccumulator()
        #expect(throws: ModelProviderError.self) { try accumulator.add(#"{"error":{"message":"model overloaded"}}"#) }
        #expect(throws: ModelProviderError.self) { try accumulator.add("not json") }
    }

    @Test func nonStreamingBodiesAcceptStringObjectAndPartsContent() throws {
        let body = #"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"tool_calls":[{"id":"1","function":{"name":"n","arguments":{"k":1}}}]},"finish_reason":"tool_calls"}]}"#
        let reply = try OpenAIResponseDecoder.reply(from: Array(body.utf8))
        #expect(reply.content == "ab")
        #expect(reply.toolCalls.first?.argumentsText == #"{"k":1}"#)
        #expect(throws: ModelProviderError.self) { try OpenAIResponseDecoder.reply(from: Array("<html>".utf8)) }
        #expect(throws: ModelProviderError.self) { try OpenAIResponseDecoder.reply(from: Array(#"{"object":"list"}"#.utf8)) }
    }

    @Test func requestBodyHasToolsChoiceAndWireShapedMessages() throws {
        let tool = SkillTool(id: "clock.now", title: "Now", description: "Time.", parameters: ["type": "object"])
        let request = ModelRequest(
            messages: [
                .system("a"), .system("b"), .user("hi"),
                .assistant("", toolCalls: [ToolCall(id: "c1", name: "clock_now", argumentsText: "{}")]),
                .tool(callID: "c1", content: "{\"t\":1}"),
            ],
            tools: [ToolSpec(name: "clock_now", tool: tool)], toolChoice: .none)
        let body = OpenAIRequestEncoder(model: "m").body(for: request, stream: true)
        #expect(body["model"] == "m")
        #expect(body["stream"] == true)
        #expect(body["tool_choice"] == "none")
        #expect(body["tools"]?.arrayValue?.first?["function"]?["name"] == "clock_now")
        let messages = try #require(body["messages"]?.arrayValue)
        #expect(messages.count == 4)
        #expect(messages[0]["content"] == "a\n\nb")
        #expect(messages[2]["content"] == "")  // never null: llama-cpp-python refuses it (issue 13)
        #expect(messages[2]["tool_calls"]?.arrayValue?.first?["function"]?["arguments"] == "{}")
        #expect(messages[3]["tool_call_id"] == "c1")
    }
}
