import SkillHostCore
import StableHash

/// A two-way map between skill ids and tool names in a ``ToolNameGrammar``: OpenAI's by default
/// (`[A-Za-z0-9_-]{1,64}`), or MCP's (`skillhost mcp`).
///
/// Characters outside the grammar become underscores (for OpenAI, `clock.now` → `clock_now`; for MCP a
/// canonical skill id is its own name). Ids whose plain names would
/// collide (`a.b_c` and `a_b.c` both give `a_b_c`) all get a suffix `-` + 8 hex digits of a stable hash of
/// the id, so no name depends on which other skills happen to be enabled first. Names longer than the
/// grammar allows are cut and get the same suffix. The result is the same for the same set of ids on every run.
public struct ToolNameMap: Sendable, Equatable {
    /// The longest tool name OpenAI accepts.
    public static let maximumLength = ToolNameGrammar.openAI.maximumLength

    /// The names' grammar.
    public let grammar: ToolNameGrammar
    private var namesByID: [String: String] = [:]
    private var idsByName: [String: String] = [:]

    /// Builds the map for these skill ids (duplicates are ignored).
    public init<S: Sequence>(skillIDs: S, grammar: ToolNameGrammar = .openAI) where S.Element == String {
        self.grammar = grammar
        let ids = Array(Set(skillIDs)).sorted()
        var plainCounts: [String: Int] = [:]
        for id in ids { plainCounts[Self.plainName(for: id, grammar: grammar), default: 0] += 1 }
        var taken = Set<String>()
        // Plain names first, so a hashed name can never steal a plain one.
        var needsSuffix: [String] = []
        for id in ids {
            let plain = Self.plainName(for: id, grammar: grammar)
            if plainCounts[plain] == 1, plain.utf8.count <= grammar.maximumLength {
                namesByID[id] = plain
                taken.insert(plain)
            } else {
                needsSuffix.append(id)
            }
        }
        for id in needsSuffix {
            var salt = 0
            var name = Self.suffixedName(for: id, salt: salt, grammar: grammar)
            while taken.contains(name) {
                salt += 1
                name = Self.suffixedName(for: id, salt: salt, grammar: grammar)
            }
            namesByID[id] = name
            taken.insert(name)
        }
        for (id, name) in namesByID { idsByName[name] = id }
    }

    /// Every skill id in the map, sorted.
    public var skillIDs: [String] { namesByID.keys.sorted() }

    /// The tool name for a skill id, or nil when the id is not in the map.
    public func toolName(for skillID: String) -> String? { namesByID[skillID] }

    /// The skill id a tool name stands for. Unless the grammar asks for exact lookups, also accepts the
    /// skill id itself (models sometimes echo the dotted id they read in a description), and ignores case
    /// when that is unambiguous.
    public func skillID(for toolName: String) -> String? {
        if let id = idsByName[toolName] { return id }
        if grammar.exactLookup { return nil }
        if namesByID[toolName] != nil { return toolName }
        let lowered = toolName.lowercased()
        let matches = idsByName.filter { $0.key.lowercased() == lowered }
        return matches.count == 1 ? matches.first?.value : nil
    }

    /// Whether a string is a valid OpenAI tool name.
    public static func isValidToolName(_ name: String) -> Bool { ToolNameGrammar.openAI.isValid(name) }

    /// Every character outside `grammar` becomes `_` (for OpenAI, `clock.now` → `clock_now`).
    static func plainName(for id: String, grammar: ToolNameGrammar = .openAI) -> String {
        let name = String(id.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && grammar.allows(UInt8(scalar.value)) ? Character(scalar) : "_"
        })
        return name.isEmpty ? "_" : name
    }

    /// The plain name cut to fit, then `-` and 8 hex digits of the id's hash (salted on a clash).
    static func suffixedName(for id: String, salt: Int, grammar: ToolNameGrammar = .openAI) -> String {
        let suffix = "-" + FNV1a.hex(stableHash(salt == 0 ? id : "\(id)#\(salt)"))
        let plain = plainName(for: id, grammar: grammar)
        return String(plain.prefix(grammar.maximumLength - suffix.count)) + suffix
    }

    /// 32-bit FNV-1a: stable across runs and platforms, unlike `Hasher`.
    static func stableHash(_ text: String) -> UInt32 { FNV1a.hash32(text.utf8) }

    /// Every tool name in the map, sorted by skill id.
    public var toolNames: [String] { skillIDs.compactMap { toolName(for: $0) } }

    /// Why a call of tool `name` cannot be made, in the one wording every front end gives: `unknown tool
    /// "X"; did you mean "Y"? ` and the remedy (`use`: what to do instead, e.g. "call tools/list for the
    /// tools served").
    public func unknownTool(_ name: String, use remedy: String) -> String {
        "unknown tool \"\(name)\"; \(NearestName.didYouMean(name, among: toolNames))\(remedy)"
    }
}
