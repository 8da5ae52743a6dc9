import SkillHostCore
import SkillJSON

/// `/name` at the start of a message activates the instruction skill `name` directly, as the Agent Skills
/// client guide describes for a user's explicit choice: the skill's activation (its instructions, files and
/// the scripts hint, as `activate_skill` returns them) goes in front of the rest of the message, so the model
/// need not be asked to activate it.
public enum SlashActivation {
    /// What a message means.
    public enum Reading: Equatable, Sendable {
        /// Not a slash command: send it as typed.
        case plain
        /// `/name` of an enabled skill: send `message` instead (the activation, then the rest).
        case activated(skill: String, message: String)
        /// `/name` that names no enabled instruction skill: what to tell the user (one line).
        case unknown(String)
    }

    /// Reads `text` against the enabled skills of `library`. A first word that is a path (`/etc/hosts`) or not
    /// an id is plain text.
    public static func read(_ text: String, library: any InstructionLibrary) -> Reading {
        guard text.hasPrefix("/") else { return .plain }
        let word = text.dropFirst().prefix { !$0.isWhitespace }
        guard !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return .plain }
        let name = Identifier.normalize(String(word))
        let rest = text.dropFirst(word.count + 1).drop { $0.isWhitespace }
        let enabled = ((try? library.enabledSkills()) ?? []).map(\.name)
        guard enabled.contains(name), let skill = try? library.skill(named: name) else {
            return .unknown(
                "/\(word) is not an enabled instruction skill, so the message was not sent; use one of: "
                    + (enabled.isEmpty ? "(none; add one with 'skillhost add DIR')" : enabled.map { "/" + $0 }.joined(separator: ", ")))
        }
        let activation = InstructionTools.activation(skill).serialized()
        let message = "<activated_skill name=\"\(name)\">\n\(activation)\n</activated_skill>\n\n"
            + (rest.isEmpty ? "Follow the \(name) skill's instructions." : String(rest))
        return .activated(skill: name, message: message)
    }
}
