import SkillJSON

/// A JSON-RPC 2.0 error object (`{"code", "message", "data"?}`), thrown by handlers and written as the
/// `error` member of a response. The codes are JSON-RPC's own; MCP adds none that this server uses.
public struct JSONRPCError: Error, Sendable, Equatable {
    /// The error code.
    public var code: Int
    /// One line: what was wrong and how to fix it.
    public var message: String
    /// Extra detail, e.g. the supported protocol versions.
    public var data: JSONValue?

    /// An error with these parts.
    public init(code: Int, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// -32700: the line is not JSON.
    public static let parseErrorCode = -32700
    /// -32600: JSON, but not a JSON-RPC 2.0 request or notification (or sent before `initialize`).
    public static let invalidRequestCode = -32600
    /// -32601: no such method.
    public static let methodNotFoundCode = -32601
    /// -32602: the params are wrong (also an unknown tool, resource or skill URI).
    public static let invalidParamsCode = -32602
    /// -32603: the server failed.
    public static let internalErrorCode = -32603

    /// -32602 with a message.
    public static func invalidParams(_ message: String) -> JSONRPCError { JSONRPCError(code: invalidParamsCode, message) }

    /// The `error` member's value.
    public var json: JSONValue {
        var object: JSONObject = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }
}
