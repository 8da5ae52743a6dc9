import SkillHostCore
import SkillJSON

/// `/name` at the start of a message activates the instruction skill `name` directly, as the Agent Skills
/// client guide describes for a user's explicit choice: the skill's activation (its instructions, files and
/// the scripts hint, as `activate_skill` returns them) goes in front of the rest of the message, so the model
/// need not be asked to activate it. An MCP server's skill is `/SERVER:PATH` (its name in the library, e.g.
/// `/docs:pdf-tools/forms`): fetched and verified like any activation of it; typing it is the user's own
/// choice, so a nested one needs no second question.
public enum SlashActivation {
    /// What a message means.
    public enum Reading: Equatable, Sendable {
        /// Not a slash command: send it as typed.
        case plain
        /// `/name` of an enabled skill: send `message` instead (the activation, then the rest).
        case activated(skill: String, message: String)
        /// `/name` that names no enabled instruction skill, or one that could not be loaded: what to tell the
        /// user (one line).
        case unknown(String)
    }

    /// A message's first word read against the library, before anything is loaded.
    public enum Choice: Equatable, Sendable {
        /// Not a slash command.
        case plain
        /// `/name` of an enabled skill, and the rest of the message.
        case skill(name: String, rest: String)
        /// What to tell the user (one line).
        case unknown(String)
    }

    /// Reads `text` against the enabled skills of `library`, loading the skill (an MCP skill is fetched and
    /// verified without blocking a thread).
    public static func read(_ text: String, library: any InstructionLibrary) async -> Reading {
        switch choice(text, library: library) {
        case .plain: return .plain
        case .unknown(let why): return .unknown(why)
        case .skill(let name, let rest):
            do throws(HostError) {
                return .activated(skill: name, message: try await message(activating: name, rest: rest, library: library))
            } catch {
                return .unknown("/\(name) could not be activated, so the message was not sent: \(error.message)")
            }
        }
    }

    /// Which skill `text` names, without loading it. A first word that is a path (`/etc/hosts`) or not a
    /// skill's name is plain text.
    public static func choice(_ text: String, library: any InstructionLibrary) -> Choice {
        guard text.hasPrefix("/") else { return .plain }
        let word = text.dropFirst().prefix { !$0.isWhitespace }
        guard let name = skillName(String(word)) else { return .plain }
        let rest = text.dropFirst(word.count + 1).drop { $0.isWhitespace }
        let enabled = ((try? library.enabledSkills()) ?? []).map(\.name)
        guard enabled.contains(name) else {
            return .unknown(
                "/\(word) is not an enabled instruction skill, so the message was not sent; use one of: "
                    + (enabled.isEmpty ? "(none; add one with 'skillhost add DIR')" : enabled.map { "/" + $0 }.joined(separator: ", ")))
        }
        return .skill(name: name, rest: String(rest))
    }

    /// The message that activates `name` (loaded from `library`) and then says `rest`.
    public static func message(activating name: String, rest: String, library: any InstructionLibrary) async throws(HostError) -> String {
        let skill = try await library.loadSkill(named: name)
        let activation = InstructionTools.activation(skill).serialized()
        return openingTag(name) + "\n\(activation)\n" + closingTag + "\n\n"
            + (rest.isEmpty ? "Follow the \(name) skill's instructions." : rest)
    }

    /// The skill a message made by ``message(activating:rest:library:)`` activated, and its activation (the
    /// `activate_skill` result it carries); nil for any other text.
    public static func activated(in text: String) -> (name: String, activation: String)? {
        let prefix = "<activated_skill name=\""
        guard text.hasPrefix(prefix), let nameEnd = text.range(of: "\">\n"),
              let close = text.range(of: "\n" + closingTag, range: nameEnd.upperBound..<text.endIndex) else { return nil }
        let name = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<nameEnd.lowerBound])
        guard openingTag(name) + "\n" == text[..<nameEnd.upperBound] else { return nil }
        return (name, String(text[nameEnd.upperBound..<close.lowerBound]))
    }

    private static func openingTag(_ name: String) -> String { "<activated_skill name=\"\(name)\">" }
    private static let closingTag = "</activated_skill>"

    /// The skill name a slash word spells: a local skill's id (normalized), or an MCP skill's `SERVER:PATH`
    /// as typed (a server id, a colon, path segments of letters, digits, `-`, `_` and `.`); nil for anything
    /// else (a path such as `/etc/hosts` has no colon, so it stays text).
    static func skillName(_ word: String) -> String? {
        guard !word.isEmpty else { return nil }
        let isNameCharacter: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        if word.allSatisfy(isNameCharacter) { return Identifier.normalize(word) }
        let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(isNameCharacter), !parts[1].isEmpty,
            parts[1].split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ segment in
                !segment.isEmpty && segment != "." && segment != ".." && segment.allSatisfy { isNameCharacter($0) || $0 == "." }
            })
        else { return nil }
        return word
    }
}
