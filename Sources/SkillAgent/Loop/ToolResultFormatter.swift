import SkillCalls
import SkillHostCore
import SkillJSON

/// Turns a call's outcome into the text of its tool message: the (trimmed) result JSON, or an error
/// object the model can act on: `{"error": {"kind", "message", "details"?}, "next_step": "…"}` (the next step in
/// the tool-call layer's one wording, ``ToolCallOutcome/nextStep(for:)``).
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
        let object: JSONValue = ["error": .object(body), "next_step": .string(ToolCallOutcome.nextStep(for: error.kind))]
        return trimmer.trimmedText(object)
    }
}
