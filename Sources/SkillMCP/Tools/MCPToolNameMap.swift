/// A two-way map between skill ids and MCP tool names (`[A-Za-z0-9_.-]{1,128}`, spec 2025-11-25,
/// server/tools "Tool names").
///
/// A skill id that already fits the grammar is its own name (`clock.now`). Other characters become `_`;
/// ids whose names would then collide, and ids longer than 128 characters, all get a suffix `-` + 8 hex
/// digits of a stable hash of the id (salted on a clash), so names never depend on which other skills are
/// enabled first and the same ids give the same names on every run. (``ToolNameMap`` in SkillAgent does
/// the same for OpenAI's narrower grammar.)
public struct MCPToolNameMap: Sendable, Equatable {
    /// The longest name MCP allows.
    public static let maximumLength = 128

    private var namesByID: [String: String] = [:]
    private var idsByName: [String: String] = [:]

    /// The map for these skill ids (duplicates ignored).
    public init<S: Sequence>(skillIDs: S) where S.Element == String {
        let ids = Array(Set(skillIDs)).sorted()
        var plainCounts: [String: Int] = [:]
        for id in ids { plainCounts[Self.plainName(for: id), default: 0] += 1 }
        var taken = Set<String>()
        var needsSuffix: [String] = []
        for id in ids {
            let plain = Self.plainName(for: id)
            if plainCounts[plain] == 1, plain.utf8.count <= Self.maximumLength {
                namesByID[id] = plain
                taken.insert(plain)
            } else {
                needsSuffix.append(id)
            }
        }
        for id in needsSuffix {
            var salt = 0
            var name = Self.suffixedName(for: id, salt: salt)
            while taken.contains(name) {
                salt += 1
                name = Self.suffixedName(for: id, salt: salt)
            }
            namesByID[id] = name
            taken.insert(name)
        }
        for (id, name) in namesByID { idsByName[name] = id }
    }

    /// The tool name of a skill id, nil when the id is not in the map.
    public func toolName(for skillID: String) -> String? { namesByID[skillID] }

    /// The skill id a tool name stands for, nil for an unknown name (exact match only: MCP names are
    /// case-sensitive).
    public func skillID(for toolName: String) -> String? { idsByName[toolName] }

    /// Whether `name` fits MCP's tool name grammar.
    public static func isValidToolName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumLength && name.utf8.allSatisfy(isAllowed)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// Every character outside the grammar becomes `_` (a multi-byte character becomes one `_`).
    static func plainName(for id: String) -> String {
        let name = String(id.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && isAllowed(UInt8(scalar.value)) ? Character(scalar) : "_"
        })
        return name.isEmpty ? "_" : name
    }

    /// The plain name cut to fit, then `-` and 8 hex digits of the id's FNV-1a hash.
    static func suffixedName(for id: String, salt: Int) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in (salt == 0 ? id : "\(id)#\(salt)").utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        let suffix = "-" + String(repeating: "0", count: 8 - hex.count) + hex
        return String(plainName(for: id).prefix(maximumLength - suffix.count)) + suffix
    }
}
