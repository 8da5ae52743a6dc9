import SkillJSON

extension JSONRPCMessage {
    /// The names and values most messages a client sends carry (JSON-RPC's members, MCP's `params` members,
    /// the 2026-07-28 `_meta` keys, method names and revisions): parsing a message with this table shares
    /// these strings instead of making them for every request (``JSONSharedStrings``). The `_meta` keys are
    /// ``MCPRequestEnvelope``'s own strings, so looking them up compares equal at once.
    public static let sharedStrings = JSONSharedStrings(
        [
            "jsonrpc", "2.0", "id", "method", "params", "result", "error", "code", "message", "data",
            "name", "arguments", "_meta", "progressToken", "requestState", "inputResponses", "cursor", "uri",
            "requestId", "reason", "protocolVersion", "capabilities", "clientInfo", "version", "title",
            "elicitation", "form", "roots", "sampling", "listChanged",
            MCPRequestEnvelope.versionKey, MCPRequestEnvelope.capabilitiesKey, MCPRequestEnvelope.clientInfoKey,
            "tools/call", "tools/list", "resources/read", "resources/list", "resources/templates/list",
            "skills/list", "skills/get", "ping", "initialize", "server/discover", "subscriptions/listen",
            "notifications/initialized", "notifications/cancelled",
        ] + MCPProtocolVersion.supported)
}
