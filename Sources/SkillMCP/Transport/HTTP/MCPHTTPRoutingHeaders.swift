import Foundation
import SkillHTTP
import SkillJSON

/// What an MCP exchange over HTTP says in its headers and status (the 2026-07-28 revision): the status of a
/// JSON-RPC answer, and whether a stateless request's routing headers match its body.
enum MCPHTTPRoutingHeaders {
    /// The HTTP status of a response line: 200 for results, and for errors the revision's table (-32601 →
    /// 404; parse, request, params, header and version errors → 400).
    static func status(of line: String) -> Int {
        guard JSONRPCMessage.isErrorLine(line), case .object(let object)? = try? JSONValue(parsing: line),
            case .int(let code)? = object["error"]?["code"]
        else { return 200 }
        switch Int(code) {
        case JSONRPCError.methodNotFoundCode: return 404
        case JSONRPCError.parseErrorCode, JSONRPCError.invalidRequestCode, JSONRPCError.invalidParamsCode,
            MCPRequestEnvelope.headerMismatchCode, MCPRequestEnvelope.missingCapabilityCode, MCPRequestEnvelope.unsupportedVersionCode:
            return 400
        default: return 200
        }
    }

    private static let routingHeaders = ["mcp-protocol-version", "mcp-method", "mcp-name"]

    /// Why the routing headers of a stateless request do not match its body, nil when they do.
    static func mismatch(_ request: HTTPServerRequest, method: String, message: MCPHTTPMessage) -> String? {
        for name in routingHeaders where request.fields.count(of: name) > 1 {
            return "the \(name) header is sent more than once; send it once"
        }
        let version = message.meta?[MCPRequestEnvelope.versionKey]?.stringValue
        guard let header = request.fields["mcp-protocol-version"], header == version else {
            return "the MCP-Protocol-Version header (\(request.fields["mcp-protocol-version"] ?? "missing")) does not match params._meta's protocol version (\(version ?? "none")); send the same version in both"
        }
        guard request.fields["mcp-method"] == method else {
            return "the Mcp-Method header (\(request.fields["mcp-method"]?.prefix(60) ?? "missing")) does not match the body's method \(method); send the same in both"
        }
        let key: String? = method == "tools/call" || method == "prompts/get" ? "name" : method == "resources/read" ? "uri" : nil
        if let key, let body = key == "name" ? message.name : message.params?[key]?.stringValue {
            guard let header = request.fields["mcp-name"].flatMap(decodeHeaderValue), header == body else {
                return "the Mcp-Name header (\(request.fields["mcp-name"]?.prefix(60) ?? "missing")) does not match params.\(key) (\(body.prefix(60))); send the same in both (base64 as =?base64?…?= when not plain ASCII)"
            }
        }
        return nil
    }

    /// A header value, decoding the `=?base64?…?=` form (nil when that form is malformed).
    static func decodeHeaderValue(_ value: String) -> String? {
        guard value.hasPrefix("=?base64?"), value.hasSuffix("?="), value.count >= 11 else { return value }
        let payload = String(value.dropFirst(9).dropLast(2))
        guard let data = Data(base64Encoded: payload), data.base64EncodedString() == payload else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
