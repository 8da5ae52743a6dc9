import SkillHostCore
import SkillJSON

/// Turns a call's outcome into the text of its tool message: the (trimmed) result JSON, or an error
/// object the model can act on: `{"error": {"kind", "message", "details"?}, "next_step": "…"}`.
struct ToolResultFormatter: Sendable {
    let trimmer: ResultTrimmer

    /// The tool message text for a success.
    func text(for result: JSONValue) -> String { trimmer.trimmedText(result) }

    /// The tool message text for a failure.
    func text(for error: HostError) -> String {
        var body = JSONObject()
        body["kind"] = .string(error.kind.rawValue)
        body["message"] = .string(error.message)
        if let details = error.details { body["details"] = details }
        let object: JSONValue = ["error": .object(body), "next_step": .string(Self.nextStep(for: error.kind))]
        return trimmer.trimmedText(object)
    }

    /// What the model should do about a failure of this kind.
    static func nextStep(for kind: HostError.Kind) -> String {
        switch kind {
        case .invalidArguments:
            return "Correct the arguments so they match the tool's parameter schema and call the tool again."
        case .notFound:
            return "Call only the tools you were given; pick the right one and try again."
        case .disabled:
            return "Do not call it again; tell the user the skill is disabled and can be enabled with 'skillhost enable'."
        case .denied:
            return "Do not retry; tell the user the action was not approved or not permitted."
        case .timeout:
            return "The skill took too long; tell the user, or retry once with a smaller request."
        case .rateLimited:
            return "Do not retry now; tell the user to try again in a minute."
        case .cancelled:
            return "The call was cancelled; do not retry."
        case .skillFailed, .pluginCrashed, .invalidPlugin, .registry, .io:
            return "Tell the user what failed and how to fix it; retry only if the message suggests a correction."
        }
    }
}
