import SkillCalls
import SkillHostCore

/// The knobs of an agent. Defaults suit a terminal chat with a hosted or local model.
public struct AgentConfiguration: Sendable {
    /// The first message of every request.
    public var systemPrompt: String
    /// Model rounds that may call tools in one turn; after that the model must answer without tools.
    public var maxSteps: Int
    /// Skill calls of one model reply that run at the same time.
    public var maxConcurrentCalls: Int
    /// Characters of one skill result sent to the model; longer results are trimmed (and say so).
    public var maxResultCharacters: Int
    /// Estimated tokens of conversation sent per request; older turns are summarized beyond it.
    public var historyTokenBudget: Int
    /// Asked before `write` and `dangerous` skills run (and before a retry of a call that may have taken
    /// effect), before the skill's clock starts.
    public var approval: any ApprovalHandler
    /// The conversation's session id, handed to skills.
    public var sessionID: String
    /// Values the conversation's skills store for later skills (a resumed session's, or a new one).
    public var sessionContext = SessionContext()
    /// How many tools and tool-definition tokens one request may carry (see ``ToolBudget``).
    public var toolBudget = ToolBudget()
    /// Hears about every skill call as it starts and ends, and may replay or question repeats (the SQLite
    /// history's ``StoreCallRecorder``); nil records nothing.
    public var recorder: (any CallRecorder)? = nil

    /// A configuration; every part has a default.
    public init(
        systemPrompt: String = AgentConfiguration.defaultSystemPrompt, maxSteps: Int = 8,
        maxConcurrentCalls: Int = 4, maxResultCharacters: Int = 4000, historyTokenBudget: Int = 6000,
        approval: any ApprovalHandler = DenyAllApproval(), sessionID: String = ""
    ) {
        self.systemPrompt = systemPrompt
        self.maxSteps = max(0, maxSteps)
        self.maxConcurrentCalls = max(1, maxConcurrentCalls)
        self.maxResultCharacters = max(200, maxResultCharacters)
        self.historyTokenBudget = max(200, historyTokenBudget)
        self.approval = approval
        self.sessionID = sessionID
    }

    /// Tells the model to use the tools for actions and to report what it did.
    public static let defaultSystemPrompt = """
        You are an assistant that acts through tools. Split the user's request into steps, call the tools \
        with complete, schema-valid arguments, and then answer briefly with what was done, using the tool \
        results. If a tool returns an error, fix the arguments and try again, or explain what failed and \
        how to fix it. Never claim an action that no tool performed.
        """

    /// Asks for a final answer when the step cap is reached.
    /// The assistant message a turn cancelled before its answer (Ctrl-C) ends with, so the stored session
    /// says it was cancelled (`skillhost debug`: `cancelled`, not `thinking`) and the next request does not
    /// follow the unanswered one directly.
    public static let cancelledNote = "(The request was cancelled before it was answered.)"

    /// How the assistant message of a turn that failed without an answer (model unreachable) starts.
    public static let failedNotePrefix = "(No answer: "

    static let stepCapPrompt = """
        The tool-call limit for this request is reached. Do not call tools. Answer now with what was done \
        and what is still missing.
        """
}
