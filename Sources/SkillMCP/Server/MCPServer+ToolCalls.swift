import SkillAgent
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
        let tool: AgentTool
        let arguments: JSONValue
        let limit: MCPCallLimit?
        do throws(JSONRPCError) {
            // The tool is looked up in the stored catalog under the lock (copying the catalog out would
            // cost a retain and release of each of its parts per call).
            let (phase, known) = state.withLock { state -> (Phase, (AgentTool, MCPCallLimit?)?) in
                guard let name, let found = state.catalog?.call(named: name) else { return (state.phase, nil) }
                return (state.phase, found)
            }
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
                    let served = catalog.tools.compactMap { catalog.names.toolName(for: $0.skillID) }
                    let hint = NearestName.suggestion(for: name, among: served).map { "did you mean \"\($0)\"? " } ?? ""
                    throw JSONRPCError.invalidParams("tools/call: unknown tool \"\(name)\"; \(hint)call tools/list for the tools served (a disabled skill is not served)")
                }
                tool = found
                limit = catalog.limits[found.skillID]
            }
            arguments = givenArguments ?? .object([:])
        } catch {
            send(JSONRPCMessage.errorLine(id: id, error: error))
            return
        }
        guard case .object = arguments else {
            send(JSONRPCMessage.responseLine(id: id, result: MCPToolResult.failure(
                text: "invalidArguments: the arguments of \(tool.skillID) are a JSON \(arguments.typeName); pass an object matching the tool's inputSchema")))
            return
        }
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
                    await run(tool, arguments, id: id, callID: callID, progressToken: progressToken)
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

    /// Runs one call; returns the response line for request `id`.
    nonisolated(nonsending) private func run(_ tool: AgentTool, _ arguments: JSONValue, id: JSONValue, callID: String, progressToken: JSONValue?) async -> String {
        let result = await result(tool, arguments, callID: callID, progressToken: progressToken)
        switch result {
        case .success(let value):
            return MCPToolResult.responseLine(id: id, success: value, tool: tool, check: resultCheck)
        case .failure(let failure):
            return JSONRPCMessage.responseLine(id: id, result: failure.result)
        }
    }

    /// The skill's result, or the tool result that reports its failure.
    nonisolated(nonsending) private func result(
        _ tool: AgentTool, _ arguments: JSONValue, callID: String, progressToken: JSONValue?
    ) async -> Result<JSONValue, ToolFailure> {
        let (approval, refused) = configuration.approval.handler()
        let invocation = SkillInvocation(
            skillID: tool.skillID, arguments: arguments, callID: callID, sessionID: sessionID, approval: approval)
        let reporter = progressToken.map { MCPProgressReporter(token: $0, skillID: tool.skillID, interval: configuration.progressInterval, send: send) }
        let outcome = await backend.run(invocation)
        reporter?.stop()
        switch outcome {
        case .success(let value):
            return .success(value)
        case .failure(let error) where error.kind == .denied && refused.isSet:
            return .failure(ToolFailure(MCPToolResult.failure(text: configuration.approval.refusal(for: tool))))
        case .failure(let error) where error.kind == .invalidArguments:
            var fixed = error
            fixed.message += " (fix the arguments to match the tool's inputSchema and call again)"
            return .failure(ToolFailure(MCPToolResult.failure(fixed)))
        case .failure(let error):
            return .failure(ToolFailure(MCPToolResult.failure(error)))
        }
    }

    /// A tool result with `isError: true`, as an `Error` for `Result`.
    private struct ToolFailure: Error {
        let result: JSONValue
        init(_ result: JSONValue) { self.result = result }
    }
}
