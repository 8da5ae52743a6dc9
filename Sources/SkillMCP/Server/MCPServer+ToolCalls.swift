import SkillAgent
import SkillHostCore
import SkillJSON

// `tools/call`: a task per call, bounded and cancellable (see ``MCPServer``).
extension MCPServer {
    func startCall(id: JSONValue, params: JSONValue?) {
        let tool: AgentTool
        let arguments: JSONValue
        var limit: MCPCallLimit?
        do throws(JSONRPCError) {
            guard state.withLock({ $0.phase != .new }) else {
                throw JSONRPCError(code: JSONRPCError.invalidRequestCode, "tools/call before initialize; send initialize first")
            }
            guard let name = params?["name"]?.stringValue else {
                throw JSONRPCError.invalidParams("tools/call: params.name is missing or not a string; pass {\"name\": \"<tool>\", \"arguments\": {...}}")
            }
            var found = try catalog().tool(named: name)
            if found == nil { found = try refreshedCatalog().tool(named: name) }  // enabled since the last look
            guard let found else {
                throw JSONRPCError.invalidParams("tools/call: unknown tool \"\(name)\"; call tools/list for the tools served (a disabled skill is not served)")
            }
            tool = found
            limit = try catalog().limits[found.skillID]
            arguments = params?["arguments"] ?? .object([:])
        } catch {
            send(JSONRPCMessage.errorLine(id: id, error: error))
            return
        }
        guard case .object = arguments else {
            send(JSONRPCMessage.responseLine(id: id, result: MCPToolResult.failure(
                text: "invalidArguments: the arguments of \(tool.skillID) are a JSON \(arguments.typeName); pass an object matching the tool's inputSchema")))
            return
        }
        let key = id.serialized()
        let progressToken = params?["_meta"]?["progressToken"]
        if callExecutor == nil { places.enter() } else { places.enterWithoutWaiting() }
        // Reserve the id first: the call may finish before `Task.immediate` returns (see below), and a
        // `notifications/cancelled` for it can only arrive on this thread, after this function returns.
        let callID: String? = state.withLock { locked in
            guard locked.calls[key] == nil else { return nil }
            locked.calls[key] = .starting
            locked.nextCall += 1
            return "\(sessionID)-\(locked.nextCall)"
        }
        guard let callID else {
            places.leave()
            send(JSONRPCMessage.errorLine(id: id, error: JSONRPCError(
                code: JSONRPCError.invalidRequestCode, "request id \(key) is already in flight; use a new id per request")))
            return
        }
        inFlight.enter()
        // Without an executor the call starts on this (the reading) thread and runs here until its first
        // suspension: a call that finds a free place, an idle worker and a quick reply is answered without
        // any thread hand-off; one that must wait (for a place, a worker, a slow skill) continues on the
        // pool, and this thread goes on reading. The host's blocking work runs on threads it owns either way.
        let operation: @Sendable () async -> Void = { [self, limit, replyPoller] in
            var answer = ""
            if let limit {
                if await limiter.acquire(limit) {
                    answer = await CallReplyPoller.$current.withValue(replyPoller) {
                        await run(tool, arguments, id: id, callID: callID, progressToken: progressToken)
                    }
                    limiter.release(limit)
                }
            } else {
                answer = await CallReplyPoller.$current.withValue(replyPoller) {
                    await run(tool, arguments, id: id, callID: callID, progressToken: progressToken)
                }
            }
            let cancelled = Task.isCancelled
            state.withLock { _ = $0.calls.removeValue(forKey: key) }
            if !cancelled { send(answer) }
            places.leave()
            inFlight.leave()
        }
        // On the read loop's executor the task runs on the reading thread once this chunk of input is
        // handled, and resumes there; otherwise it runs here until it first waits.
        let task = callExecutor.map { Task(executorPreference: $0, operation: operation) } ?? Task.immediate(operation: operation)
        state.withLock { locked in
            // Still there only while the call runs: keep its task for `notifications/cancelled`.
            if locked.calls[key] != nil { locked.calls[key] = .running(task) }
        }
    }

    /// Runs one call; returns the response line for request `id`.
    private func run(_ tool: AgentTool, _ arguments: JSONValue, id: JSONValue, callID: String, progressToken: JSONValue?) async -> String {
        let result = await result(tool, arguments, callID: callID, progressToken: progressToken)
        switch result {
        case .success(let value):
            return MCPToolResult.responseLine(id: id, success: value, tool: tool, check: resultCheck)
        case .failure(let failure):
            return JSONRPCMessage.responseLine(id: id, result: failure.result)
        }
    }

    /// The skill's result, or the tool result that reports its failure.
    private func result(
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
