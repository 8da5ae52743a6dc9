import SkillHostCore
import SkillJSON

/// How a call through ``ToolCaller`` ended, and the one mapping of that to what a front end shows: the
/// result with its summary line (the manifest's template when it renders), or the failure with its kind,
/// its message (what, where, how to fix) and the next step for a model.
public struct ToolCallOutcome: Sendable {
    /// The tool called (nil: the name named none).
    public var tool: SkillTool?
    /// The skill's result (checked against its output schema), or why there is none.
    public var result: Result<JSONValue, HostError>
    /// How long the call took, in seconds, without the time spent waiting for a person (an approval, a
    /// retry question): the checks and the skill's run.
    public var seconds: Double
    /// The result is an earlier call's, returned without running the skill (same idempotency key).
    public var replayed = false
    /// Whoever was asked did not allow the call, or the call was cancelled while they were asked: it never
    /// ran (recorded as `refused`).
    public var refused = false

    /// An outcome with these parts.
    public init(tool: SkillTool?, result: Result<JSONValue, HostError>, seconds: Double, replayed: Bool = false, refused: Bool = false) {
        self.tool = tool
        self.result = result
        self.seconds = seconds
        self.replayed = replayed
        self.refused = refused
    }

    /// The failure, if the call failed.
    public var failure: HostError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// `result` on one line in plain words: the tool's summary template when it renders, else a generic
    /// line (``ResultSummary``).
    public static func summary(of result: JSONValue, tool: SkillTool?, limit: Int = 120) -> String {
        ResultSummary.line(for: result, template: tool?.summary, limit: limit)
    }

    /// The text a client reads for a result: the tool's summary template filled from it when it renders,
    /// else nil (the result's JSON stands for itself).
    public static func templatedText(of result: JSONValue, tool: SkillTool) -> String? {
        tool.summary.flatMap { ResultSummaryTemplate($0).render(result) }
    }

    /// A failure on one line: `kind: message` and the next step.
    public static func text(of error: HostError) -> String {
        "\(error.kind.rawValue): \(error.message). \(nextStep(for: error.kind))"
    }

    /// What a model (or any client) should do about a failure of this kind.
    public static func nextStep(for kind: HostError.Kind) -> String {
        switch kind {
        case .invalidArguments:
            return "Correct the arguments so they match the tool's parameter schema (inputSchema) and call the tool again."
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
        case .invalidResult:
            return "Tell the user the skill returned a malformed result; it needs fixing by its author."
        case .skillFailed, .pluginCrashed, .invalidPlugin, .registry, .io:
            return "Tell the user what failed and how to fix it; retry only if the message suggests a correction."
        }
    }
}
