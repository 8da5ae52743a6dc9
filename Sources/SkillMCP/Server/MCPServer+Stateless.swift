import SkillCalls
import SkillJSON
import SkillPosix

/// One open `subscriptions/listen` stream (2026-07-28, basic/patterns/subscriptions): which changes it asked
/// for and where they go, each notification carrying the stream's request id as `subscriptionId`.
struct MCPSubscription: Sendable {
    var id: JSONValue
    var tools: Bool
    var resources: Bool
    var notify: MCPServer.Sink

    func send(_ method: String) {
        notify(JSONRPCMessage.notificationLine(method: method, params: ["_meta": ["io.modelcontextprotocol/subscriptionId": id]]))
    }
}

// The stateless revision (2026-07-28): results say their type and how long they may be cached;
// `subscriptions/listen` replaces the connection's list-change notifications.
extension MCPServer {
    /// Methods whose results are cacheable (`ttlMs`, `cacheScope`): the lists and the files of instruction
    /// skills, the same for every client of this server.
    static let cacheableMethods: Set<String> = [
        "tools/list", "resources/list", "resources/templates/list", "resources/read", "skills/list", "skills/get",
        "resources/directory/read",
    ]

    /// `result` as the stateless revision sends it: `resultType: "complete"`, and for cacheable results
    /// `ttlMs` and `cacheScope: "public"` (nothing in them depends on who asks).
    func statelessResult(_ result: JSONValue, method: String) -> JSONValue {
        guard case .object(var object) = result else { return result }
        if object["resultType"] == nil { object["resultType"] = "complete" }
        if Self.cacheableMethods.contains(method) {
            object["ttlMs"] = .int(Int64(configuration.listTTLMilliseconds))
            object["cacheScope"] = "public"
        }
        return .object(object)
    }

    /// `subscriptions/listen`: acknowledges the changes this server reports (tool and resource list
    /// changes) and keeps the stream open until the client ends it (`notifications/cancelled` on stdio,
    /// closing the response stream on HTTP).
    func listen(id: JSONValue, params: JSONValue?, context: MCPRequestContext, envelope: MCPRequestEnvelope?) {
        let respond = context.respond ?? send
        guard envelope != nil else {
            respond(JSONRPCMessage.errorLine(id: id, error: JSONRPCError(
                code: JSONRPCError.invalidRequestCode,
                "subscriptions/listen is a request of the \(MCPProtocolVersion.discoverVersion) revision; send it with params._meta (protocol version and client capabilities), or use the notifications of an initialized connection")))
            return
        }
        guard case .object(let filter)? = params?["notifications"] else {
            respond(JSONRPCMessage.errorLine(id: id, error: .invalidParams(
                "subscriptions/listen: params.notifications is missing or not an object; pass {\"toolsListChanged\": true, \"resourcesListChanged\": true}")))
            return
        }
        let tools = filter["toolsListChanged"] == .bool(true)
        let resources = filter["resourcesListChanged"] == .bool(true)
        let key = CallKey(id, scope: context.scope)
        let subscription = MCPSubscription(id: id, tools: tools, resources: resources, notify: context.notify ?? send)
        let taken = state.withLock { state -> Bool in
            if state.calls[key] != nil || state.subscriptions[key] != nil { return false }
            state.subscriptions[key] = subscription
            return true
        }
        guard taken else {
            respond(JSONRPCMessage.errorLine(id: id, error: JSONRPCError(
                code: JSONRPCError.invalidRequestCode, "request id \(id.serialized()) is already in flight; use a new id per request")))
            return
        }
        // What is honored: the changes asked for that this server reports (it has no prompts, and resources
        // change only as a list).
        var honored: JSONObject = [:]
        if tools { honored["toolsListChanged"] = true }
        if resources { honored["resourcesListChanged"] = true }
        // Notice changes from now on: the lists are compared with what is stored.
        _ = try? catalog()
        if resources, state.withLock({ $0.instructionSkills == nil }) {
            let skills = try? self.skills.source.skills().sorted { $0.name < $1.name }
            state.withLock { if $0.instructionSkills == nil { $0.instructionSkills = skills } }
        }
        subscription.notify(JSONRPCMessage.notificationLine(
            method: "notifications/subscriptions/acknowledged",
            params: ["notifications": .object(honored), "_meta": ["io.modelcontextprotocol/subscriptionId": id]]))
        if verbose { log("mcp: subscriptions/listen \(id.serialized()) opened (tools: \(tools), resources: \(resources))") }
    }

    /// Ends a `subscriptions/listen` stream; false when there is none with this key.
    func endSubscription(_ key: CallKey) -> Bool {
        state.withLock { $0.subscriptions.removeValue(forKey: key) } != nil
    }

    /// The request with `id` in `scope` is abandoned (its HTTP client hung up): a call is cancelled, a
    /// listen stream ends. No answer is sent for it.
    public func abandon(requestID: JSONValue, scope: UInt64) {
        _ = cancelCall(CallKey(requestID, scope: scope))
    }

    /// The permission of the tool a `tools/call` names, nil when no tool has that name (for the HTTP
    /// transport's scope check before anything runs).
    public func permission(ofTool name: String) -> SkillTool.Permission? {
        if let found = state.withLock({ $0.catalog?.call(named: name) }) { return found.tool.permission }
        return (try? refreshedCatalog())?.tool(named: name)?.permission
    }
}
