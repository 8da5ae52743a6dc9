import SkillJSON

// The tools and instruction skills served, and the notifications sent when they change.
extension MCPServer {
    /// The current tools, computed on first use.
    func catalog() throws(JSONRPCError) -> MCPToolCatalog {
        if let catalog = state.withLock({ $0.catalog }) { return catalog }
        return try refreshedCatalog()
    }

    func refreshedCatalog() throws(JSONRPCError) -> MCPToolCatalog {
        let catalog: MCPToolCatalog
        do {
            catalog = MCPToolCatalog(tools: try backend.tools(), limits: try backend.callLimits(), naming: configuration.toolNames)
        } catch {
            throw JSONRPCError(code: JSONRPCError.internalErrorCode, "the skills could not be listed: \(error.message)")
        }
        let (changed, ready) = state.withLock { state in
            defer { state.catalog = catalog }
            return (state.catalog != nil && state.catalog != catalog, state.phase == .ready)
        }
        // The watcher compares with what is stored: tell the client here, or nobody will.
        if changed { announce(tools: true, resources: false, toConnection: ready) }
        return catalog
    }

    /// Recomputes the tools and the instruction skills and notifies the client of what changed (only after
    /// `notifications/initialized`). Blocks on file I/O: call it from a thread you own.
    public func refresh() {
        // A change was seen after the current call batch took its look at the files: without a new batch the
        // listing would reuse that look and miss the change (and the watcher, having seen it, never asks again).
        backend.inputArrived()
        let tools: MCPToolCatalog?
        do {
            tools = MCPToolCatalog(tools: try backend.tools(), limits: try backend.callLimits(), naming: configuration.toolNames)
        } catch {
            log("mcp: the skills could not be listed after a change (kept the previous list): \(error.message)")
            tools = nil
        }
        let instructionSkills = try? skills.source.skills().sorted { $0.name < $1.name }
        let (toolsChanged, skillsChanged, ready) = state.withLock { state -> (Bool, Bool, Bool) in
            var toolsChanged = false
            var skillsChanged = false
            if let tools, tools != state.catalog {
                toolsChanged = state.catalog != nil
                state.catalog = tools
            }
            if let instructionSkills, instructionSkills != state.instructionSkills {
                skillsChanged = state.instructionSkills != nil
                state.instructionSkills = instructionSkills
            }
            return (toolsChanged, skillsChanged, state.phase == .ready)
        }
        announce(tools: toolsChanged, resources: skillsChanged, toConnection: ready)
    }

    /// Tells of changed lists: the connection (after `notifications/initialized`) and every open
    /// `subscriptions/listen` stream that asked for them (each notification names its stream in `_meta`).
    func announce(tools: Bool, resources: Bool, toConnection: Bool) {
        guard tools || resources else { return }
        if toConnection {
            if tools { send(JSONRPCMessage.notificationLine(method: "notifications/tools/list_changed")) }
            if resources { send(JSONRPCMessage.notificationLine(method: "notifications/resources/list_changed")) }
        }
        for subscription in state.withLock({ Array($0.subscriptions.values) }) {
            if tools, subscription.tools { subscription.send("notifications/tools/list_changed") }
            if resources, subscription.resources { subscription.send("notifications/resources/list_changed") }
        }
    }
}
