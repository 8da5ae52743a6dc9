import SkillHostCore
import SkillJSON

extension AgentEvent {
    /// The event as one JSON object, the shape `skillhost chat --json` prints one per line:
    /// `{"event": "state", "state": "thinking"}`, `{"event": "token", "text"}`,
    /// `{"event": "skillStarted", "call_id", "tool", "skill", "arguments"}`,
    /// `{"event": "skillSucceeded", …, "result", "summary", "seconds"}` (with `"replayed": true` when an
    /// earlier call's result was returned without running the skill),
    /// `{"event": "skillFailed", …, "error": {"kind", "message"}, "seconds"}`,
    /// `{"event": "messageCompleted", "role", "content", "tool_calls"}`,
    /// `{"event": "turnFailed", "error": {"kind", "message"}}`, `{"event": "notice", "text"}`.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        switch self {
        case .stateChanged(let state):
            object["event"] = "state"
            object["state"] = .string(state.rawValue)
        case .token(let text):
            object["event"] = "token"
            object["text"] = .string(text)
        case .skillStarted(let info):
            object["event"] = "skillStarted"
            Self.describe(info, into: &object)
        case .skillSucceeded(let info, let result, let seconds):
            object["event"] = "skillSucceeded"
            Self.describe(info, into: &object)
            object["result"] = result
            object["summary"] = .string(info.summary(of: result))
            object["seconds"] = .double(Self.rounded(seconds))
        case .skillFailed(let info, let error, let seconds):
            object["event"] = "skillFailed"
            Self.describe(info, into: &object)
            var body: JSONObject = ["kind": .string(error.kind.rawValue), "message": .string(error.message)]
            if let details = error.details { body["details"] = details }
            object["error"] = .object(body)
            object["seconds"] = .double(Self.rounded(seconds))
        case .messageCompleted(let message):
            object["event"] = "messageCompleted"
            object["role"] = .string(message.role.rawValue)
            object["content"] = .string(message.content)
            object["tool_calls"] = .array(
                message.toolCalls.map { call in
                    ["id": .string(call.id), "name": .string(call.name), "arguments": .string(call.argumentsText)]
                })
        case .turnFailed(let error):
            object["event"] = "turnFailed"
            object["error"] = ["kind": .string(error.kind.rawValue), "message": .string(error.message)]
        case .notice(let text):
            object["event"] = "notice"
            object["text"] = .string(text)
        }
        return .object(object)
    }

    private static func describe(_ info: SkillCallInfo, into object: inout JSONObject) {
        object["call_id"] = .string(info.callID)
        object["tool"] = .string(info.toolName)
        object["skill"] = info.skillID.map(JSONValue.string) ?? .null
        object["arguments"] = (try? JSONValue(parsing: info.argumentsText)) ?? .string(info.argumentsText)
        if info.replayed { object["replayed"] = true }
    }

    private static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
