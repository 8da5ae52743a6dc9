import SkillJSON
import Testing

@testable import SkillHostCore

/// The request lines a stdio MCP server reads: the settled revision's `_meta` members and the progress token
/// in every object's params, the caller's own `_meta` members kept unless one of those replaces them, other
/// params as given; each line one JSON object that a JSON parser reads back as the message meant.
@Suite struct MCPRequestLineTests {
    let settled: JSONObject = ["protocolVersion": "2026-07-28", "clientCapabilities": ["roots": [:]]]

    func message(_ line: [UInt8]) throws -> JSONValue {
        #expect(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") }, "one line")
        return try JSONValue(parsing: line.dropLast())
    }

    @Test func objectParamsCarryTheSettledMetaAndTheProgressToken() throws {
        let line = MCPRequestLine(meta: settled).bytes(
            id: 7, method: "tools/call", params: ["name": "echo \"x\"", "arguments": ["text": "héllo\n"]])
        #expect(try message(line) == [
            "jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": [
                "name": "echo \"x\"", "arguments": ["text": "héllo\n"],
                "_meta": ["protocolVersion": "2026-07-28", "clientCapabilities": ["roots": [:]], "progressToken": 7],
            ],
        ])
    }

    @Test func theCallersMetaIsKeptUnlessASettledMemberOrTheTokenReplacesIt() throws {
        let line = MCPRequestLine(meta: settled).bytes(id: 3, method: "tools/call", params: [
            "_meta": ["trace": "abc", "protocolVersion": "1999-01-01", "progressToken": "theirs"], "name": "t",
        ])
        let meta = try #require(try message(line)["params"]?["_meta"]?.objectValue)
        #expect(meta == ["trace": "abc", "protocolVersion": "2026-07-28", "clientCapabilities": ["roots": [:]], "progressToken": 3])
        #expect(meta.keys.count == 4, "no key twice")
    }

    @Test func withNothingSettledOnlyTheTokenIsAdded() throws {
        let line = MCPRequestLine().bytes(id: 1, method: "initialize", params: ["capabilities": [:], "_meta": "not an object"])
        #expect(try message(line)["params"] == ["capabilities": [:], "_meta": ["progressToken": 1]])
    }

    @Test func otherParamsGoAsGivenAndNoParamsGoNowhere() throws {
        let settledLine = MCPRequestLine(meta: settled)
        #expect(try message(settledLine.bytes(id: 2, method: "m", params: [1, "two"])) == ["jsonrpc": "2.0", "id": 2, "method": "m", "params": [1, "two"]])
        #expect(try message(settledLine.bytes(id: 9, method: "ping", params: nil)) == ["jsonrpc": "2.0", "id": 9, "method": "ping"])
    }
}
