/// Where an agent turn is: idle → thinking → needSkill → executingSkill → generating → finished, or failed.
///
/// `thinking` waits for the model; `needSkill` holds the tool calls it made; `executingSkill` runs them;
/// after the results the turn thinks again; `generating` streams the final text.
public enum AgentState: String, Sendable, Equatable, CaseIterable {
    /// No turn is running.
    case idle
    /// A request to the model is in flight.
    case thinking
    /// The model asked for one or more skills.
    case needSkill
    /// The skills are running.
    case executingSkill
    /// The model is writing text.
    case generating
    /// The turn ended with an answer.
    case finished
    /// The turn ended without one (model unreachable, cancelled).
    case failed

    /// The states a turn may move to from this one.
    public var successors: Set<AgentState> {
        switch self {
        case .idle: return [.thinking, .failed]
        case .thinking: return [.generating, .needSkill, .finished, .failed]
        case .generating: return [.needSkill, .finished, .failed]
        case .needSkill: return [.executingSkill, .failed]
        case .executingSkill: return [.thinking, .failed]
        case .finished, .failed: return [.idle]
        }
    }

    /// Whether the turn is over.
    public var isTerminal: Bool { self == .finished || self == .failed }
}

/// Tracks a turn's state and refuses transitions the state diagram does not have.
struct AgentStateMachine {
    private(set) var state: AgentState = .idle

    /// Moves to `next`; returns false (and stays) when the diagram has no such edge.
    @discardableResult
    mutating func move(to next: AgentState) -> Bool {
        guard state.successors.contains(next) else { return false }
        state = next
        return true
    }
}
