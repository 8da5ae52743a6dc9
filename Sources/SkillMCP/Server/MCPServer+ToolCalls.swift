import SkillCalls
import SkillHostCore
import SkillJSON
import SkillPosix

// `tools/call`: a task per call, bounded and cancellable (see ``MCPServer``).
extension MCPServer {
    func startCall(id: JSONValue, params: JSONValue?, context: MCPRequestContext, envelope: MCPRequestEnvelope?) {
        startCall(
            id: id, name: params?["name"]?.stringValue, arguments: params?["arguments"],
            progressToken: params?["_meta"]?["progressToken"], context: context, envelope: envelope, params: params)
    }

    /// A `tools/call` of tool `name` (nil: params had no string name) with `givenArguments` (nil: none given).
    /// `envelope`: the request's `_meta` of the stateless revision (nil for an initialized connection's
    /// request); `params`: the whole params when they were decoded (its approval answer, for that revision).
    func startCall(
        id: JSONValue, name: String?, arguments givenArguments: JSONValue?, progressToken: JSONValue?,
        context: MCPRequestContext, envelope: MCPRequestEnvelope?, params: JSONValue?
    ) {
        let respond = context.respond ?? send
        let began = verbose ? Posix.monotonicNanoseconds() : 0
        let tool: SkillTool
        let limit: CallLimit?
        var who: CallOrigin
        let approval: MCPCallApproval?
        do throws(JSONRPCError) {
            // The tool is looked up in the stored catalog under the lock (copying the catalog out would
            // cost a retain and release of each of its parts per call).
            let (phase, known, caller) = state.withLock { state -> (Phase, (SkillTool, CallLimit?)?, CallOrigin) in
                guard let name, let found = state.catalog?.call(named: name) else { return (state.phase, nil, state.origin) }
                return (state.phase, found, state.origin)
            }
            who = caller
            if let envelope { who = .mcp(client: envelope.clientName) }
            guard envelope != nil || phase != .new else {
                throw JSONRPCError(code: JSONRPCError.invalidRequestCode, "tools/call before initialize; send initialize first")
            }
            guard let name else {
                throw JSONRPCError.invalidParams("tools/call: params.name is missing or not a string; pass {\"name\": \"<tool>\", \"arguments\": {...}}")
            }
            if let known {
                (tool, limit) = known
            } else {
                // Not listed yet, or enabled since the last look.
                let catalog = try refreshedCatalog()
                guard let found = catalog.tool(named: name) else {
                    throw JSONRPCError.invalidParams("tools/call: " + catalog.names.unknownTool(
                        name, use: "call tools/list for the tools served (a disabled skill is not served)"))
                }
                tool = found
                limit = catalog.limits[found.id]
            }
            approval = try envelope.map { envelope throws(JSONRPCError) in
                try callApproval(params: params, envelope: envelope, tool: tool, arguments: givenArguments ?? .object([:]), context: context)
            }
        } catch {
            respond(JSONRPCMessage.errorLine(id: id, error: error))
            report("tools/call", name: name, started: began, outcome: "error \(error.code)")
            return
        }
        if let principal = context.principal, !principal.allows(tool.permission) {
            let text = "denied: the token \(principal.name) has scope \(principal.scope.rawValue) and skill \(tool.id) needs \(tool.permission.rawValue); nothing was run. Use a token made with 'skillhost token create NAME --scope write'"
            respond(JSONRPCMessage.responseLine(id: id, result: ["content": [["type": "text", "text": .string(text)]], "isError": true]))
            report("tools/call", name: name, started: began, outcome: "denied (scope)")
            return
        }
        let arguments = givenArguments ?? .object([:])
        let origin = who
        let key = CallKey(id, scope: context.scope)
        if callExecutor == nil { places.enter() } else { places.enterWithoutWaiting() }
        // Reserve the id first: the call may finish before its task is stored (see below), and a
        // `notifications/cancelled` for it can only arrive on this thread, after this function returns.
        let number: Int? = state.withLock { locked in
            // One hash of the key: put it in, and put back what was there when the id is taken.
            if let taken = locked.calls.updateValue(.starting, forKey: key) {
                locked.calls[key] = taken
                return nil
            }
            locked.nextCall += 1
            return locked.nextCall
        }
        guard let number else {
            places.leave()
            respond(JSONRPCMessage.errorLine(id: id, error: JSONRPCError(
                code: JSONRPCError.invalidRequestCode, "request id \(id.serialized()) is already in flight; use a new id per request")))
            return
        }
        let callID = callIDStem + String(number)
        inFlight.enter()
        // The call's task runs from here to its answer. With a limit it exists only once the call holds a
        // place: a call that must wait for one waits in the limiter as a start closure (cancelling it
        // there answers nothing and runs nothing).
        let notify = context.notify ?? send
        let principal = context.principal?.name ?? ""
        let stateless = envelope != nil
        let operation: @Sendable () async -> Void = { [self, limit, replyPoller] in
            var answer = ""
            if !Task.isCancelled {
                answer = await run(
                    tool, arguments, id: id, callID: callID, origin: origin, progressToken: progressToken, notify: notify,
                    stateless: stateless, approval: approval, principal: principal, poller: replyPoller)
            }
            if let limit { limiter.release(limit) }
            let cancelled = Task.isCancelled
            state.withLock { _ = $0.calls.removeValue(forKey: key) }
            if !cancelled { respond(answer) }
            if verbose { report("tools/call", name: name, started: began, outcome: cancelled ? "cancelled" : Self.outcome(of: answer)) }
            places.leave()
            inFlight.leave()
        }
        guard let limit else {
            // On the read loop's executor the task runs on the reading thread once this chunk of input is
            // handled, and resumes there; otherwise it runs here until it first waits: a call that finds an
            // idle worker and a quick reply is answered without any thread hand-off; one that must wait
            // continues on the pool. The host's blocking work runs on threads it owns either way.
            let task = callExecutor.map { Task(executorPreference: $0, operation: operation) } ?? Task.immediate(operation: operation)
            store(task, for: key)
            return
        }
        let started = limiter.takeOrQueue(limit, ticket: number) {
            { [self] in
                // A place passed to this call in `release` (on the thread of the call that gave it back).
                let task = callExecutor.map { Task(executorPreference: $0, operation: operation) } ?? Task(operation: operation)
                store(task, for: key)
            }
        }
        if started {
            let task = callExecutor.map { Task(executorPreference: $0, operation: operation) } ?? Task.immediate(operation: operation)
            store(task, for: key)
        } else {
            state.withLock { locked in
                if case .starting? = locked.calls[key] { locked.calls[key] = .queued(limit, ticket: number) }
            }
        }
    }

    /// Keeps a started call's task for `notifications/cancelled` while the call runs, or cancels it at once
    /// when a cancellation came while it waited for its place.
    private func store(_ task: Task<Void, Never>, for key: CallKey) {
        let cancel = state.withLock { locked -> Bool in
            // Looked up once and changed in place.
            guard let index = locked.calls.index(forKey: key) else { return false }  // finished already
            if case .cancelling = locked.calls.values[index] { return true }
            locked.calls.values[index] = .running(task)
            return false
        }
        if cancel { task.cancel() }
    }

    /// `notifications/cancelled` for the call with request id `key`: cancels its task, or takes it out of
    /// the limiter's queue (it then never runs and is not answered).
    func cancelCall(_ key: CallKey) -> Bool {
        if endSubscription(key) { return true }
        let call = state.withLock { locked -> Call? in
            let call = locked.calls[key]
            if case .queued? = call { locked.calls[key] = .cancelling }
            return call
        }
        switch call {
        case .running(let task)?:
            task.cancel()
            return true
        case .queued(let limit, let ticket)?:
            // Still queued: it never starts. Otherwise its start is under way and sees `.cancelling`.
            if limiter.cancel(limit, ticket: ticket) {
                state.withLock { _ = $0.calls.removeValue(forKey: key) }
                places.leave()
                inFlight.leave()
            }
            return true
        default:
            return false
        }
    }

    /// Runs one call through the tool-call layer; returns the response line for request `id`. Inlined into
    /// the call's task (one `async` frame fewer).
    @inline(__always)
    nonisolated(nonsending) private func run(
        _ tool: SkillTool, _ arguments: JSONValue, id: JSONValue, callID: String, origin: CallOrigin, progressToken: JSONValue?,
        notify: @escaping Sink, stateless: Bool, approval: MCPCallApproval?, principal: String, poller: CallReplyPoller?
    ) async -> String {
        let reporter = progressToken.map { MCPProgressReporter(token: $0, skillID: tool.id, interval: configuration.progressInterval, send: notify) }
        let request = ToolCallRequest(toolName: tool.id, tool: tool, arguments: .value(arguments), callID: callID, origin: origin)
        let outcome: ToolCallOutcome
        if let poller, approval == nil, principal.isEmpty {
            // The stdio transport's calls: the one binding, without the frame of `call` below.
            outcome = await CallReplyPoller.$current.withValue(poller) { await caller.call(request) }
        } else {
            outcome = await call(request, poller: poller, approval: approval, workspaceOwner: principal.isEmpty ? nil : principal)
        }
        reporter?.stop()
        if let asked = approval?.asked {
            return approvalQuestion(id: id, asked: asked, arguments: arguments, principal: principal)
        }
        return MCPToolResult.responseLine(id: id, outcome: outcome, stateless: stateless)
    }

    /// `request` through the tool-call layer with the call's task-local values bound: the reply poller its
    /// workers answer into, the stateless revision's approval, and (over HTTP every client shares the
    /// server's session) the token whose scripts get a workspace of their own, never another token's.
    /// Only a value that is set is bound: nothing outside a call's own task binds them, and each binding
    /// costs the task a push, a lock of its status and two more `async` frames (over stdio none but the
    /// poller is set).
    nonisolated(nonsending) private func call(
        _ request: ToolCallRequest, poller: CallReplyPoller?, approval: MCPCallApproval?, workspaceOwner: String?
    ) async -> ToolCallOutcome {
        if let poller {
            return await CallReplyPoller.$current.withValue(poller) {
                await call(request, poller: nil, approval: approval, workspaceOwner: workspaceOwner)
            }
        }
        if let approval {
            return await MCPCallApproval.$current.withValue(approval) {
                await call(request, poller: nil, approval: nil, workspaceOwner: workspaceOwner)
            }
        }
        if let workspaceOwner {
            return await ScriptToolBackend.$workspaceOwner.withValue(workspaceOwner) {
                await call(request, poller: nil, approval: nil, workspaceOwner: nil)
            }
        }
        return await caller.call(request)
    }

    /// `ok`, `isError` or `error <code>` of a response line, for `--verbose`.
    static func outcome(of line: String) -> String {
        if line.contains("\"resultType\":\"input_required\"") { return "input_required" }
        if line.hasPrefix("{\"jsonrpc\":\"2.0\",\"id\":"), let range = line.range(of: "\"error\":{\"code\":") {
            return "error " + line[range.upperBound...].prefix { $0 == "-" || $0.isNumber }
        }
        return line.contains("\"isError\":true") ? "isError" : "ok"
    }
}
