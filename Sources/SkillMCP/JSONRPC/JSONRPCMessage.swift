import SkillJSON

/// One incoming JSON-RPC 2.0 message, decoded strictly from one line of the stdio transport.
///
/// - A request has `"jsonrpc": "2.0"`, a string or integer `id`, a string `method` and optional object or
///   array `params`.
/// - A notification is a request without `id`.
/// - A response (to a request of ours) has `id` and `result` or `error`; this server sends no requests, so
///   responses are accepted and ignored.
public enum JSONRPCMessage: Sendable, Equatable {
    /// A call that wants an answer.
    case request(id: JSONValue, method: String, params: JSONValue?)
    /// A one-way message.
    case notification(method: String, params: JSONValue?)
    /// A client's answer to a server request.
    case response(id: JSONValue)

    /// Decodes one line.
    /// - Throws: ``JSONRPCError`` -32700 when the line is not JSON (with line:column), -32600 when it is
    ///   not a JSON-RPC 2.0 message; `id` in the thrown error's `data` when one could be read.
    public init(line: some Collection<UInt8>) throws(JSONRPCError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line, sharing: Self.sharedStrings)
        } catch {
            throw JSONRPCError(code: JSONRPCError.parseErrorCode,
                               "the line is not JSON (\(error.description)); send one JSON-RPC message per line")
        }
        try self.init(value: value)
    }

    /// Decodes a message already parsed (an HTTP body).
    /// - Throws: ``JSONRPCError`` -32600 when it is not a JSON-RPC 2.0 message.
    public init(value: JSONValue) throws(JSONRPCError) {
        guard case .object(let object) = value else {
            let what = value.typeName == "array" ? "a batch (array); batches are not supported, send one message per line" : "a JSON \(value.typeName)"
            throw JSONRPCError(code: JSONRPCError.invalidRequestCode, "the message is \(what); send a JSON-RPC 2.0 object")
        }
        let id = object["id"]
        if let id, !Self.isValidID(id) {
            // A number with a fraction, an exponent or beyond 64 bits is a double here, whose JSON Schema type
            // name may be "integer" (1.0, 1e20): say what is wrong with it instead of naming a type.
            let what: String
            switch id {
            case .double: what = "\(id.serialized()) is not an integer from -2^63 to 2^63-1 written without a fraction or exponent"
            case .array, .object: what = "is an \(id.typeName)"
            default: what = "is a \(id.typeName)"
            }
            throw JSONRPCError(code: JSONRPCError.invalidRequestCode, "\"id\" \(what); use a string or an integer")
        }
        guard object["jsonrpc"] == .string("2.0") else {
            throw JSONRPCError(code: JSONRPCError.invalidRequestCode, "\"jsonrpc\" must be \"2.0\"", data: id.map { ["id": $0] })
        }
        guard let methodValue = object["method"] else {
            if let id, object["result"] != nil || object["error"] != nil {
                self = .response(id: id)
                return
            }
            throw JSONRPCError(code: JSONRPCError.invalidRequestCode, "the message has no \"method\"", data: id.map { ["id": $0] })
        }
        guard case .string(let method) = methodValue else {
            throw JSONRPCError(code: JSONRPCError.invalidRequestCode, "\"method\" must be a string", data: id.map { ["id": $0] })
        }
        let params = object["params"]
        if let params {
            switch params {
            case .object, .array: break
            default:
                throw JSONRPCError(code: JSONRPCError.invalidRequestCode,
                                   "\"params\" of \(method) is a \(params.typeName); use an object", data: id.map { ["id": $0] })
            }
        }
        if let id {
            self = .request(id: id, method: method, params: params)
        } else {
            self = .notification(method: method, params: params)
        }
    }

    /// Ids are strings or integers (MCP forbids null).
    static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string, .int: true
        default: false
        }
    }

    /// The line of a successful response.
    public static func responseLine(id: JSONValue, result: JSONValue) -> String {
        JSONValue.object(["jsonrpc": "2.0", "id": id, "result": result]).serialized()
    }

    /// Whether a response line is an error (`{"jsonrpc":"2.0","id":…,"error":{…}}`, as ``errorLine(id:error:)``
    /// writes it), read from its bytes: the first top-level `,"error":{` or `,"result":` decides.
    public static func isErrorLine(_ line: String) -> Bool {
        var line = line
        return line.withUTF8 { bytes in
            // Both markers are 10 bytes and start `,"`: the first place either starts decides (the eight bytes
            // after `,"` compared as one word).
            guard bytes.count >= 10, let base = bytes.baseAddress else { return false }
            let result = word(#"result":"#), error = word(#"error":{"#)
            for start in 0...(bytes.count - 10) where base[start] == UInt8(ascii: ",") && base[start + 1] == UInt8(ascii: "\"") {
                let rest = UnsafeRawPointer(base + start + 2).loadUnaligned(as: UInt64.self)
                if rest == result { return false }
                if rest == error { return true }
            }
            return false
        }
    }

    /// The eight bytes of `text` (exactly eight long) as one word, as ``isErrorLine(_:)`` loads them.
    private static func word(_ text: StaticString) -> UInt64 {
        UnsafeRawPointer(text.utf8Start).loadUnaligned(as: UInt64.self)
    }

    /// The line of an error response (`id` null when the request's id could not be read).
    public static func errorLine(id: JSONValue?, error: JSONRPCError) -> String {
        JSONValue.object(["jsonrpc": "2.0", "id": id ?? .null, "error": error.json]).serialized()
    }

    /// The line of a notification the server sends.
    public static func notificationLine(method: String, params: JSONValue? = nil) -> String {
        var object: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { object["params"] = params }
        return JSONValue.object(object).serialized()
    }
}
