import SkillCalls
import SkillHostCore
import SkillJSON
import SkillPosix

// Approval of a `write` or `dangerous` call through Multi Round-Trip Requests (2026-07-28,
// basic/patterns/mrtr): the answer is `resultType: "input_required"` with an `elicitation/create` form and
// a sealed `requestState`; the client's retry carries the user's answer in `inputResponses`.
extension MCPServer {
    /// The approval context of a stateless `tools/call`: whether its client can be asked, and its verified
    /// answer when it retries with one.
    /// - Throws: -32602 when `requestState` was changed, expired, or belongs to another call or token.
    func callApproval(
        params: JSONValue?, envelope: MCPRequestEnvelope, tool: SkillTool, arguments: JSONValue, context: MCPRequestContext
    ) throws(JSONRPCError) -> MCPCallApproval {
        guard let sealed = params?["requestState"] else {
            return MCPCallApproval(canAsk: envelope.canElicitForms, answer: .none)
        }
        let now = Int64(Posix.unixSeconds())
        guard case .string(let text) = sealed, let state = MCPRequestState.open(text, with: stateKey),
            state.matches(skillID: tool.id, arguments: arguments, principal: context.principal?.name ?? "", now: now)
        else {
            throw .invalidParams(
                "tools/call: requestState is not one this server gave for this call (changed, expired after \(MCPRequestState.lifetime) s, or for other arguments or another token); call \(tool.id) again without inputResponses and requestState to be asked again")
        }
        let response = params?["inputResponses"]?[MCPCallApproval.inputKey]
        let answer: MCPCallApproval.Answer
        switch response?["action"]?.stringValue {
        case "accept"?:
            answer = response?["content"]?["approve"] == .bool(true) ? .approved : .declined("declined")
        case "decline"?: answer = .declined("declined")
        case "cancel"?: answer = .declined("dismissed the question about")
        default: answer = .none
        }
        return MCPCallApproval(canAsk: envelope.canElicitForms, answer: answer)
    }

    /// The `input_required` result that asks the client's user to approve the call.
    func approvalQuestion(id: JSONValue, asked: ApprovalRequest, arguments: JSONValue, principal: String) -> String {
        let skill = asked.skill
        let state = MCPRequestState(skillID: skill.id, arguments: arguments, principal: principal, now: Int64(Posix.unixSeconds()))
        var shown = arguments.serialized()
        if shown.utf8.count > 400 { shown = String(shown.prefix(400)) + "…" }
        let what = skill.permission == .dangerous ? "is dangerous" : "writes"
        let message = "Allow \(skill.id) (\(skill.manifest.title.isEmpty ? skill.id : skill.manifest.title)) to run? It \(what) (permission \(skill.permission.rawValue)). Arguments: \(shown)"
        let question: JSONValue = [
            "method": "elicitation/create",
            "params": [
                "mode": "form",
                "message": .string(message),
                "requestedSchema": [
                    "type": "object",
                    "properties": ["approve": ["type": "boolean", "title": .string("Run \(skill.id)"), "description": "true runs the call once"]],
                    "required": ["approve"],
                ],
            ],
        ]
        let result: JSONValue = [
            "resultType": "input_required",
            "inputRequests": [.init(stringLiteral: MCPCallApproval.inputKey): question],
            "requestState": .string(state.sealed(with: stateKey)),
        ]
        return JSONRPCMessage.responseLine(id: id, result: result)
    }
}
