import SkillJSON

/// The offline planner's reading of one request: the skill calls to make, in order, and the clauses it
/// could not turn into a call, each with the reason.
struct OfflinePlan: Sendable, Equatable {
    /// One planned call.
    struct Step: Sendable, Equatable {
        /// The clause it came from.
        var clause: String
        /// The tool to call.
        var toolName: String
        /// The filled arguments.
        var arguments: JSONValue
    }

    /// A clause that did not become a call.
    struct Unmapped: Sendable, Equatable {
        /// Why the clause did not become a call.
        enum Reason: Sendable, Equatable {
            /// No enabled tool knows its words.
            case noMatch
            /// It reads as this tool, but its required parameters were not in the clause (so the tool is
            /// not called with guessed values).
            case missing(toolName: String, parameters: [String])
            /// It reads as this tool, but the words in a parameter's place are not a value of it ("what
            /// time is it on Mars").
            case unreadable(toolName: String, parameter: String, text: String)
            /// Several tools fit about equally well (best first).
            case ambiguous(toolNames: [String])
            /// It reads as this tool, but a date or time the user said cannot be placed in it as said (`text`):
            /// asked back instead of guessed ("when should I remind you?").
            case question(toolName: String, parameter: String, text: String, why: DateQuestion)
            /// It reads as this tool, but the tool is disabled: `enable` is what `skillhost enable` needs.
            case disabled(skillID: String, title: String, enable: [String])
        }

        /// The clause as the user wrote it (without filler).
        var clause: String
        var reason: Reason
    }

    /// The calls, in the order the user asked for them.
    var steps: [Step]
    /// Clauses that did not become calls, in order.
    var unmapped: [Unmapped]

    /// Why a date or time cannot be placed as said.
    enum DateQuestion: Sendable, Equatable {
        /// The words are no date or time the planner reads ("later", "half nine-ish").
        case unreadable
        /// A part of the day ("tomorrow morning") where one time is needed.
        case needsTime
        /// A time of day already past today (`time`, "09:00"), for a skill that changes something ("remind me
        /// at 9" at 17:00).
        case past(time: String)
        /// The skill takes no date or time at all ("what time is it in Tokyo tomorrow").
        case noParameter
        /// The skill takes no time zone (a follow-up "and in Paris?" after "list my reminders").
        case noZone
    }

    /// The clauses that did not become calls.
    var unmappedClauses: [String] { unmapped.map(\.clause) }
}
