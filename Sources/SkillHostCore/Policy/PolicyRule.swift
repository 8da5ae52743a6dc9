import SkillJSON

/// One rule of the administrator's policy (docs/policy.md): what it selects and where it was written.
/// Every field it names must match; a rule names at least one.
public struct PolicyRule: Sendable, Equatable {
    /// What a rule selects.
    public enum Kind: String, Sendable {
        /// Plugins (by id, version, SHA-256 or publisher), or with ``PolicyRule/skill`` skills in them.
        case plugin
        /// Instruction skills (Agent Skills folders), by id or the SHA-256 of `SKILL.md`.
        case instructionSkill
        /// MCP servers used as skill sources (issue #35), by id.
        case mcpSource
    }

    /// The list it is in: `block`, `require_approval`, `require_sandbox`.
    public var list: String
    /// Its place: the policy file, the JSON pointer (`/block/2`) and the line.
    public var file: String
    public var pointer: String
    public var line: Int
    /// The rule's own `name` and `reason`, when given.
    public var name: String?
    public var reason: String?

    public var kind: Kind
    /// Id patterns (`*` matches any run of characters).
    public var plugin: String?
    public var skill: String?
    public var instructionSkill: String?
    public var mcpSource: String?
    var versions: VersionRange?
    /// Lower-case hex.
    public var sha256: String?
    /// A key id (upper-case hex).
    public var publisher: String?

    /// Where it is, for messages: `/etc/skillhost/policy.json:12 (block[2] "weather-leak")`.
    public var label: String {
        let index = pointer.split(separator: "/").last.map { "[\($0)]" } ?? ""
        return "\(file):\(line) (\(list)\(index)\(name.map { " \"\($0)\"" } ?? ""))"
    }

    /// Whether the rule says anything about a skill (rather than its whole plugin).
    var selectsSkills: Bool { skill != nil }

    /// Whether the plugin-level fields match `plugin` (a rule with a `skill` pattern still needs its plugin
    /// fields to match). `digest` is asked only when the rule names a SHA-256.
    func matches(plugin subject: PolicySubject) -> Bool {
        guard kind == .plugin else { return false }
        if let plugin, !Self.glob(plugin, subject.id) { return false }
        if let versions, !(subject.version.map(versions.contains) ?? false) { return false }
        if let publisher, subject.publisher != publisher { return false }
        if let sha256, subject.digest() != sha256 { return false }
        return true
    }

    /// Whether the rule selects the skill `skillID` of `plugin`.
    func matches(skill skillID: String, of subject: PolicySubject) -> Bool {
        guard let skill, Self.glob(skill, skillID) else { return false }
        return matches(plugin: subject)
    }

    /// Whether the rule selects the instruction skill `id` (`digest`: the SHA-256 of its `SKILL.md`).
    func matches(instructionSkill id: String, digest: () -> String?) -> Bool {
        guard kind == .instructionSkill, let instructionSkill, Self.glob(instructionSkill, id) else { return false }
        if let sha256, digest() != sha256 { return false }
        return true
    }

    /// Whether the rule selects the MCP source `id`.
    public func matches(mcpSource id: String) -> Bool {
        guard kind == .mcpSource, let mcpSource else { return false }
        return Self.glob(mcpSource, id)
    }

    /// `pattern` against `text`: `*` matches any run of characters (none included), everything else itself.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(Array.init)
        let characters = Array(text)
        guard parts.count > 1 else { return pattern == text }
        guard characters.starts(with: parts[0]) else { return false }
        var index = parts[0].count
        for part in parts.dropFirst().dropLast() {
            guard let found = find(part, in: characters, from: index) else { return false }
            index = found + part.count
        }
        let last = parts[parts.count - 1]
        return characters.count - index >= last.count && characters.suffix(last.count).elementsEqual(last)
    }

    private static func find(_ part: [Character], in characters: [Character], from start: Int) -> Int? {
        if part.isEmpty { return start }
        var index = start
        while index + part.count <= characters.count {
            if characters[index..<(index + part.count)].elementsEqual(part) { return index }
            index += 1
        }
        return nil
    }
}

/// A plugin as the policy sees it: its id, version, verified publisher and (computed only when a rule asks)
/// the SHA-256 of its file.
struct PolicySubject {
    var id: String
    var version: String?
    /// The key id of a signature that verified; nil for an unsigned or unverified plugin.
    var publisher: String?
    var digest: () -> String?
}
