import SkillJSON
import SkillMCP
import Testing

/// `JSONRPCMessage.isErrorLine` reads a response line's bytes (the HTTP transport's status comes from it).
@Suite struct JSONRPCErrorLineTests {
    @Test func theFirstMarkerDecides() {
        let error = JSONRPCMessage.errorLine(id: .int(7), error: JSONRPCError(code: JSONRPCError.invalidParamsCode, "bad"))
        let result = JSONRPCMessage.responseLine(id: .int(7), result: .object(["text": .string(#","error":{"#)]))
        #expect(JSONRPCMessage.isErrorLine(error))
        #expect(!JSONRPCMessage.isErrorLine(result), "a result whose text holds the error marker is no error")
        #expect(JSONRPCMessage.isErrorLine(#"{"jsonrpc":"2.0","id":"x","error":{"code":1}}"#))
        #expect(!JSONRPCMessage.isErrorLine(#"{"jsonrpc":"2.0","id":"x","result":{"error":{}}}"#))
        #expect(!JSONRPCMessage.isErrorLine(#"{"jsonrpc":"2.0","id":1}"#))
        #expect(!JSONRPCMessage.isErrorLine(#","error":"#), "too short for the marker")
        #expect(JSONRPCMessage.isErrorLine(#","error":{"#))
        #expect(!JSONRPCMessage.isErrorLine(""))
    }
}
