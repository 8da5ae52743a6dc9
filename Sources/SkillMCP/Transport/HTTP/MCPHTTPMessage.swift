import SkillJSON

/// The JSON-RPC message a POST carries, read once: a `tools/call` of the plain shape by the shortcut
/// (``JSONRPCToolsCall``: no outer objects built, the common request over HTTP), anything else parsed whole.
/// The transport reads its method, id and params to route and check it, then delivers it to a server.
enum MCPHTTPMessage {
    /// A `tools/call` request read by the shortcut.
    case toolsCall(JSONRPCToolsCall)
    /// Any other message: a JSON object, parsed whole.
    case parsed(JSONValue)

    /// The message in `body`.
    /// - Throws: -32700 when the body is not JSON, -32600 when it is not one object.
    init(body: [UInt8]) throws(JSONRPCError) {
        if let call = JSONRPCToolsCall(line: body[...]) {
            self = .toolsCall(call)
            return
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body, sharing: JSONRPCMessage.sharedStrings)
        } catch {
            throw JSONRPCError(code: JSONRPCError.parseErrorCode, "the body is not JSON (\(error.description)); POST one JSON-RPC message")
        }
        guard case .object = value else {
            throw JSONRPCError(
                code: JSONRPCError.invalidRequestCode,
                "the body is a JSON \(value.typeName); POST one JSON-RPC message (an object; batches are not served)")
        }
        self = .parsed(value)
    }

    /// `method` when it is a string.
    var method: String? {
        switch self {
        case .toolsCall: "tools/call"
        case .parsed(let value): value["method"]?.stringValue
        }
    }

    /// `id` (nil for a notification).
    var id: JSONValue? {
        switch self {
        case .toolsCall(let call): call.id
        case .parsed(let value): value["id"]
        }
    }

    /// `params` (made on demand for a shortcut's call).
    var params: JSONValue? {
        switch self {
        case .toolsCall(let call): call.params
        case .parsed(let value): value["params"]
        }
    }

    /// `params.name` when it is a string.
    var name: String? {
        switch self {
        case .toolsCall(let call): call.name
        case .parsed(let value): value["params"]?["name"]?.stringValue
        }
    }

    /// `params._meta`.
    var meta: JSONValue? {
        switch self {
        case .toolsCall(let call): call.meta
        case .parsed(let value): value["params"]?["_meta"]
        }
    }

    /// Hands the message to `server` as ``MCPServer/receive(message:context:)`` does.
    func deliver(to server: MCPServer, context: MCPRequestContext) {
        switch self {
        case .toolsCall(let call): server.receive(call, context: context)
        case .parsed(let value): server.receive(message: value, context: context)
        }
    }
}
