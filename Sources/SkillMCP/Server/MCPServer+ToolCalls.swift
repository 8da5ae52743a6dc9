import SkillCalls
import SkillHostCore
import SkillJSON

// `tools/call`: a task per call, bounded and cancellable (see ``MCPServer``).
extension MCPServer {
    func startCall(id: JSONValue, params: JSONValue?) {
        startCall(
            id: id, name: params?["name"]?.stringValue, arguments: params?["arguments"],
            progressToken: params?["_meta"]?["progressToken"])
    }

    /// A `tools/call` of tool `name` (nil: params had no string name) with `givenArguments` (nil: none given).
    func startCall(id: JSONValue, name: String?, arguments givenArguments: JSONValue?, progressToken: JSONValue?) {
        let tool: SkillTool
        let limit: CallLimit?
        let origin: CallOrigin
        do throws(JSONRPCError) {
            // The tool is looked up in the stored catalog under the lock (copying the catalog out would
            // cost a retain and release of each of its parts per call).
            let (phase, known, who) = state.withLock { state -> (Phase, (SkillTool, CallLimit?)?, CallOrigin) in
                guard let name, let found = state.catalog?.call(named: name) else { return (state.phase, nil, state.origin) }
                return (state.phase, found, state.origin)
            }
            origin = who
            guard phase != .new else {
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
        } catch {
            send(JSONRPCMessage.errorLine(id: id, error: error))
            return
        }
        let arguments = givenArguments ?? .object([:])
        let key = CallKey(id)
        if callExecutor == nil { places.enter() } else { places.enterWithoutWaiting() }
        // Reserve the id first: the call may finish before its task is stored (see below), and a
        // `notifications/cancelled` for it can only arrive on this thread, after this function returns.
        let number: Int? = state.withLock { locked in
            guard locked.calls[key] == nil else { return nil }
            locked.calls[key] = .starting
            locked.nextCall += 1
            return locked.nextCall
        }
        guard let number else {
            places.leave()
            send(JSONRPCMessage.errorLine(id: id, error: JSONRPCError(
                code: JSONRPCError.invalidRequestCode, "request id \(id.serialized()) is already in flight; use a new id per request")))
            return
        }
        let callID = "\(sessionID)-\(number)"
        inFlight.enter()
        // The call's task runs from here to its answer. With a limit it exists only once the call holds a
        // place: a call that must wait for one waits in the limiter as a start closure (cancelling it
        // there answers nothing and runs nothing).
        let operation: @Sendable () async -> Void = { [self, limit, replyPoller] in
            var answer = ""
            if !Task.isCancelled {
                answer = await CallReplyPoller.$current.withValue(replyPoller) {
                    await run(tool, arguments, id: id, callID: callID, origin: origin, progressToken: progressToken)
                }
            }
            if let limit { limiter.release(limit) }
            let cancelled = Task.isCancelled
            state.withLock { _ = $0.calls.removeValue(forKey: key) }
            if !cancelled { send(answer) }
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
        let started = limiter.takeOrQueue(limit, ticket: number) { [self] in
            // A place passed to this call in `release` (on the thread of the call that gave it back).
            let task = callExecutor.map { Task(executorPreference: $0, operation: operation) } ?? Task(operation: operation)
            store(task, for: key)
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
            switch locked.calls[key] {
            case nil: return false  // finished already
            case .cancelling?: return true
            default:
                locked.calls[key] = .running(task)
                return false
            }
        }
        if cancel { task.cancel() }
    }

    /// `notifications/cancelled` for the call with request id `key`: cancels its task, or takes it out of
    /// the limiter's queue (it then never runs and is not answered).
    func cancelCall(_ key: CallKey) -> Bool {
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

    /// Runs one call through the tool-call layer; returns the response line for request `id`.
    nonisolated(nonsending) private func run(
        _ tool: SkillTool, _ arguments: JSONValue, id: JSONValue, callID: String, origin: CallOrigin, progressToken: JSONValue?
    ) async -> String {
        let reporter = progressToken.map { MCPProgressReporter(token: $0, skillID: tool.id, interval: configuration.progressInterval, send: send) }
        let outcome = await caller.call(
            ToolCallRequest(toolName: tool.id, tool: tool, arguments: .value(arguments), callID: callID, origin: origin))
        reporter?.stop()
        return MCPToolResult.responseLine(id: id, outcome: outcome)
    }
}
