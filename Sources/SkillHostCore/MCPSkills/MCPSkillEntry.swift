import SkillJSON

/// One skill an MCP server serves through the Skills extension (SEP-2640, `io.modelcontextprotocol/skills`,
/// docs/mcp-sources.md "Their skills too"): a `skills/list` entry, read and checked. Its identity is the pair
/// (server label, `uri`) — ``qualifiedName`` spells both — never the `uri` or the name alone.
public struct MCPSkillEntry: Sendable, Equatable {
    /// One file of the skill as the entry lists it.
    public struct File: Sendable, Equatable {
        /// The resource URI.
        public var uri: String
        /// Path relative to the skill's root (`SKILL.md`, `references/a.md`).
        public var path: String
        /// SHA-256 of the bytes, 64 lowercase hex digits.
        public var sha256: String
        /// Size in bytes.
        public var size: Int64
    }

    /// The extension's per-skill limits: files listed, and their total size.
    public static let maximumFiles = 512
    public static let maximumTotalSize: Int64 = 16 << 20
    /// The extension id declared under `capabilities.extensions`.
    public static let extensionID = "io.modelcontextprotocol/skills"

    /// The registry name of the server (the host's label for it; never its self-reported `serverInfo.name`).
    public var server: String
    /// The URI of the skill's `SKILL.md`.
    public var uri: String
    /// `frontmatter.name`.
    public var name: String
    /// The skill's root: `uri` without `/SKILL.md`, and without `skill://` for that scheme (`acme/billing/refunds`).
    public var skillPath: String
    /// The frontmatter as the entry gives it.
    public var frontmatter: JSONValue
    /// The files (`SKILL.md` included); nil for a `"dynamic"` skill.
    public var files: [File]?
    /// Why the skill cannot be used (one line), nil when it can.
    public var refusal: String?
    /// The ``qualifiedName`` of a listed skill this one is nested in (its files are that skill's too).
    public var nestedIn: String?

    /// The name the host, the model and the user use: `SERVER:PATH` (`docs:pdf-processing`), both halves of the
    /// skill's identity; no local instruction skill's name has a `:`.
    public var qualifiedName: String { server + ":" + skillPath }
    /// The frontmatter's description, or "".
    public var description: String { frontmatter["description"]?.stringValue ?? "" }
    /// Whether the entry's `resources` is `"dynamic"`.
    public var isDynamic: Bool { files == nil }
    /// The URI of the skill's root folder (`uri` without `/SKILL.md`).
    public var rootURI: String { String(uri.dropLast("/SKILL.md".count)) }
    /// Where a refusal or message names the skill.
    public var label: String { "MCP server \(server)'s skill \(qualifiedName) (\(uri))" }

    /// The listed file at `path` (relative to the root), if any.
    public func file(at path: String) -> File? { files?.first { $0.path == path } }

    /// Reads one `skills/list` entry of `server`. Throws a one-line reason when it is no entry at all (no
    /// `uri`); an entry that is there but cannot be used is returned with ``refusal`` set, so `list` shows it.
    public init(_ value: JSONValue, server: String) throws(HostError) {
        guard let uri = value["uri"]?.stringValue, uri.hasSuffix("/SKILL.md"), uri.count > "/SKILL.md".count else {
            throw HostError(.invalidPlugin,
                "MCP server \(server) listed a skill whose uri is not a SKILL.md's (\(TerminalText.sanitized(String((value["uri"] ?? .null).serialized().prefix(200))))); it is skipped: its author must fix the skills/list entry",
                pluginID: server)
        }
        self.server = server
        self.uri = uri
        let root = String(uri.dropLast("/SKILL.md".count))
        skillPath = root.hasPrefix("skill://") ? String(root.dropFirst("skill://".count)) : root
        frontmatter = value["frontmatter"] ?? .null
        name = frontmatter["name"]?.stringValue ?? ""
        files = nil
        refusal = nil
        nestedIn = nil
        refusal = Self.problem(value, entry: &self)
    }

    /// What makes the entry unusable (and, for a usable one, fills ``files``).
    private static func problem(_ value: JSONValue, entry: inout MCPSkillEntry) -> String? {
        let at = entry.label
        guard case .object = entry.frontmatter, !entry.name.isEmpty, entry.frontmatter["description"]?.stringValue != nil else {
            return "\(at) is refused: its entry's frontmatter has no name or description; the server's author must fix it"
        }
        let last = entry.skillPath.split(separator: "/").last.map(String.init) ?? ""
        guard last == entry.name else {
            return "\(at) is refused: its uri ends in \"\(last)\" but its frontmatter's name is \"\(entry.name)\" (the extension requires them equal)"
        }
        guard let resources = value["resources"] else {
            return "\(at) is refused: its entry has no resources (a list of files or \"dynamic\")"
        }
        if resources.stringValue == "dynamic" { return nil }
        guard case .array(let items) = resources else {
            return "\(at) is refused: its resources are neither a list of files nor \"dynamic\""
        }
        guard items.count <= maximumFiles else {
            return "\(at) is refused: it lists \(items.count) files, over the Skills extension's limit of \(maximumFiles)"
        }
        var files: [File] = []
        var total: Int64 = 0
        let prefix = entry.rootURI + "/"
        for item in items {
            guard let uri = item["uri"]?.stringValue, uri.hasPrefix(prefix) else {
                return "\(at) is refused: its resource \(TerminalText.sanitized(String((item["uri"] ?? .null).serialized().prefix(200)))) is not inside the skill (\(prefix)…)"
            }
            let path = String(uri.dropFirst(prefix.count))
            guard !path.isEmpty, !path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                return "\(at) is refused: its resource \(uri) has an empty, '.' or '..' path segment"
            }
            guard let digest = item["digest"]?.stringValue, digest.hasPrefix("sha256:"),
                  case let hex = digest.dropFirst("sha256:".count), hex.count == 64, hex.allSatisfy({ "0123456789abcdef".contains($0) })
            else {
                return "\(at) is refused: its resource \(uri) has no digest \"sha256:<64 lowercase hex digits>\""
            }
            guard let size = item["size"]?.intValue, size >= 0 else {
                return "\(at) is refused: its resource \(uri) has no size (bytes, required by the extension)"
            }
            guard !files.contains(where: { $0.path == path }) else {
                return "\(at) is refused: its resource \(uri) is listed twice"
            }
            total += size
            files.append(File(uri: uri, path: path, sha256: String(hex), size: size))
        }
        guard total <= maximumTotalSize else {
            return "\(at) is refused: its files total \(total) bytes, over the Skills extension's limit of \(maximumTotalSize) (16 MiB)"
        }
        guard files.contains(where: { $0.path == "SKILL.md" }) else {
            return "\(at) is refused: its resources do not list its SKILL.md (\(entry.uri))"
        }
        entry.files = files.sorted { $0.path < $1.path }
        return nil
    }

    /// Marks nested skills (a skill whose root is inside another listed skill's root of the same server).
    public static func markNesting(_ entries: inout [MCPSkillEntry]) {
        let roots = entries.map { ($0.rootURI + "/", $0.qualifiedName) }
        for index in entries.indices {
            let root = entries[index].rootURI + "/"
            entries[index].nestedIn = roots.filter { root != $0.0 && root.hasPrefix($0.0) }.max { $0.0.count < $1.0.count }?.1
        }
    }
}
