import SkillHostCore

/// Decides, before anyone is asked, that a call needs no question: the tools an active instruction skill
/// lists in its `allowed-tools` (issue #30; ``AllowedTools``). ``ToolCaller`` consults it only for calls the
/// registry says to ask about, never for a retry's question; a registry `deny` has refused the call before.
/// It skips a question, nothing more: the call runs with the same checks, limits and sandbox.
public protocol PreApproval: Sendable {
    /// Whether `call` may run without asking, given what the session holds (`context`: its active skills).
    func preApproves(_ call: PreparedCall, context: SessionContext) -> Bool
}
