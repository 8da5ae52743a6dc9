import SkillJSON

/// A JSON-RPC request as the line a stdio MCP server reads, written as bytes in one pass. Every request's
/// params carry the `_meta` members of the settled revision (the stateless 2026-07-28 one: its
/// `protocolVersion` and `clientCapabilities`) and a `progressToken` (the request's id): those members are
/// serialized once, when the revision is settled, not merged into a new object and written again per call.
struct MCPRequestLine: Sendable {
    /// The settled `_meta` members as JSON text without the braces (`"a":1,"b":{…}`; empty: none).
    private let settledMembers: [UInt8]
    /// Their keys: a member of the caller's own `_meta` under one of them (or `progressToken`) gives way.
    private let settledKeys: Set<String>

    /// Lines whose params carry `meta`'s members in their `_meta`.
    init(meta: JSONObject = JSONObject()) {
        var members: [UInt8] = []
        for (key, value) in meta { Self.member(key, value, to: &members) }
        settledMembers = members
        settledKeys = Set(meta.keys)
    }

    /// `{"jsonrpc":"2.0","id":ID,"method":METHOD[,"params":PARAMS]}` and a newline. Params that are an object
    /// get a `_meta`: the caller's `_meta` members (when it is an object), then the settled members, then
    /// `"progressToken":ID` (a later member replaces an earlier one of the same key). Other params go as given.
    func bytes(id: Int64, method: String, params: JSONValue?) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(128 + settledMembers.count)
        Self.append(#"{"jsonrpc":"2.0","id":"#, to: &line)
        Self.append(String(id), to: &line)
        Self.append(#","method":"#, to: &line)
        JSONValue.string(method).write(to: &line)
        if let params {
            Self.append(#","params":"#, to: &line)
            if case .object(let object) = params {
                line.append(UInt8(ascii: "{"))
                var given: JSONObject?
                for (key, value) in object {
                    if key == "_meta" {
                        given = value.objectValue
                        continue
                    }
                    Self.member(key, value, to: &line)
                }
                Self.append(#""_meta":{"#, to: &line)
                for (key, value) in given ?? JSONObject() where key != "progressToken" && !settledKeys.contains(key) {
                    Self.member(key, value, to: &line)
                }
                line.append(contentsOf: settledMembers)
                Self.append(#""progressToken":"#, to: &line)
                Self.append(String(id), to: &line)
                Self.append("}}", to: &line)
            } else {
                params.write(to: &line)
            }
        }
        Self.append("}\n", to: &line)
        return line
    }

    /// `"key":value,` (members end with a comma; the `progressToken` written last closes the list).
    private static func member(_ key: String, _ value: JSONValue, to output: inout [UInt8]) {
        JSONValue.string(key).write(to: &output)
        output.append(UInt8(ascii: ":"))
        value.write(to: &output)
        output.append(UInt8(ascii: ","))
    }

    private static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }
}
