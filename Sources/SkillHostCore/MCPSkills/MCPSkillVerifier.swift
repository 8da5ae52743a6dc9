import SkillJSON

/// The Skills extension's checks of what a server sends against the entry the host holds (SEP-2640,
/// "Integrity and Verification"): every read's size and SHA-256 against the entry's; a path the entry does
/// not list is refused as a mismatch is; a `SKILL.md`'s frontmatter must equal the entry's, field by field.
/// Each failure refuses the skill with the reason in one line.
public enum MCPSkillVerifier {
    /// The listed file at `path`, or the refusal of an unlisted one.
    public static func listedFile(_ path: String, of entry: MCPSkillEntry) throws(HostError) -> MCPSkillEntry.File {
        guard let file = entry.file(at: path) else {
            let listed = (entry.files ?? []).map(\.path).filter { $0 != "SKILL.md" }
            throw HostError(.denied,
                "\(entry.label) is refused: \(path) is not among the files its entry lists, so it is not read (the entry lists: \(listed.isEmpty ? "SKILL.md only" : listed.joined(separator: ", ")))",
                skillID: entry.qualifiedName, pluginID: entry.server)
        }
        return file
    }

    /// Checks `bytes` read from `file`'s URI against its size and digest.
    public static func verify(_ bytes: [UInt8], as file: MCPSkillEntry.File, of entry: MCPSkillEntry) throws(HostError) {
        guard Int64(bytes.count) == file.size else {
            throw HostError(.invalidResult,
                "\(entry.label) is refused: \(file.path) is \(bytes.count) bytes, its entry says \(file.size) (changed since it was listed, or tampered with); nothing of it is used",
                skillID: entry.qualifiedName, pluginID: entry.server)
        }
        let digest = FileDigest.sha256(of: bytes)
        guard digest == file.sha256 else {
            throw HostError(.invalidResult,
                "\(entry.label) is refused: \(file.path) has SHA-256 \(digest.prefix(16))…, its entry says \(file.sha256.prefix(16))… (changed since it was listed, or tampered with); nothing of it is used",
                skillID: entry.qualifiedName, pluginID: entry.server)
        }
    }

    /// Reads a fetched `SKILL.md` and checks its frontmatter against the entry's; the document when equal.
    public static func document(_ bytes: [UInt8], of entry: MCPSkillEntry) throws(HostError) -> SkillDocument {
        let document: SkillDocument
        do {
            document = try SkillDocument(bytes: bytes)
        } catch {
            throw HostError(.invalidPlugin, "\(entry.label) is refused: its SKILL.md cannot be read: \(error.message)",
                skillID: entry.qualifiedName, pluginID: entry.server)
        }
        let listed = entry.frontmatter.objectValue ?? [:]
        for key in Set(listed.keys).union(document.frontmatter.keys).sorted() {
            let inEntry = listed[key], inFile = document.frontmatter[key]
            guard let inEntry, let inFile, same(inEntry, inFile) else {
                throw HostError(.invalidResult,
                    "\(entry.label) is refused: its SKILL.md's frontmatter differs from its entry's at \"\(key)\" (file: \(show(inFile)), entry: \(show(inEntry))); the server's author must make them equal",
                    skillID: entry.qualifiedName, pluginID: entry.server)
            }
        }
        return document
    }

    /// Equal as YAML reads them: the file's scalars are all strings (as `strictyaml` reads them), so an
    /// entry's number or boolean equals the string it is written as.
    static func same(_ entry: JSONValue, _ file: JSONValue) -> Bool {
        switch (entry, file) {
        case (.object(let a), .object(let b)):
            return Set(a.keys) == Set(b.keys) && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.string(let a), .string(let b)):
            return a == b
        case (_, .string(let b)):
            switch entry {
            case .int, .double, .bool: return entry.serialized() == b
            case .null: return b.isEmpty || b == "null" || b == "~"
            default: return false
            }
        default:
            return entry == file
        }
    }

    private static func show(_ value: JSONValue?) -> String {
        guard let value else { return "missing" }
        return TerminalText.sanitized(String(value.serialized().prefix(80)))
    }
}
