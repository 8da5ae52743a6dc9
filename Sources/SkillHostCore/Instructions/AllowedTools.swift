import SkillJSON

/// The Agent Skills spec's experimental `allowed-tools` frontmatter field, as SkillHost honours it: while the
/// skill is active in a session, the tools it lists run without the approval question (docs/
/// instruction-skills.md, "allowed-tools"). It never widens the sandbox, a registry `deny` still refuses,
/// and the administrator's policy still asks.
///
/// The field is a space-separated string (`Bash(python3 scripts/fill.py:*) Read`; commas between entries and a
/// YAML list are accepted too), written for clients with a shell tool. Entries map onto our tools:
/// - `Bash(python3 scripts/x.py:*)`, `Bash(scripts/x.py --check)`, `Bash(bash ./scripts/build.sh *)`: this
///   skill's script through `run_skill_script` (the interpreter word is dropped; `:*` or a trailing ` *`
///   allows any further arguments, else the arguments must be exactly those; `scripts/*` any of its scripts);
/// - `Bash`, `Bash(*)`, `run_skill_script`, `run_skill_script(scripts/x.py)`: this skill's scripts;
/// - `Read`, `Grep`, `Glob`, `LS` (any pattern): nothing to do — our reading tools never ask;
/// - a tool of ours by id or name (`files.write`, `files_write`, `mcp__skillhost__files_write`): that tool;
/// - anything else (`Bash(git:*)`, `Write`, `WebFetch`): ignored, with a warning (we have no shell tool).
public struct AllowedTools: Sendable, Equatable {
    /// What one entry pre-approves.
    public enum Grant: Sendable, Equatable {
        /// This skill's script at `path` (relative to its folder; "" any script; a trailing `*` any path that
        /// starts with the rest), with exactly `arguments`, or with `arguments` first and any after (`more`).
        case script(path: String, arguments: [String], more: Bool)
        /// One of our tools, by id or name (`files.write`, `files_write`).
        case tool(String)
        /// A reading tool: ours never ask, so nothing changes.
        case reading
    }

    /// One entry as written, and what it maps to.
    public struct Entry: Sendable, Equatable {
        /// The entry as the frontmatter writes it.
        public var text: String
        /// What it pre-approves; nil when ignored.
        public var grant: Grant?
        /// Why it is ignored (one line), nil when it maps to something.
        public var ignored: String?

        /// What it maps to, for people: `run_skill_script scripts/x.py, any arguments` or `ignored: …`.
        public var mapping: String {
            switch grant {
            case .script(let path, let arguments, let more)?:
                let which = path.isEmpty ? "any script of this skill" : path
                let words = arguments.isEmpty ? (more ? "any arguments" : "no arguments") : "arguments \(arguments.joined(separator: " "))\(more ? " …" : " exactly")"
                return "run_skill_script \(which), \(words)"
            case .tool(let name)?: return name
            case .reading?: return "nothing to approve (reading tools never ask)"
            case nil: return "ignored: " + (ignored ?? "")
            }
        }
    }

    /// The entries, in the order written.
    public var entries: [Entry]

    /// The field's key in the frontmatter.
    public static let key = "allowed-tools"
    static let readingTools: Set<String> = ["Read", "Grep", "Glob", "LS"]
    static let interpreters: Set<String> = [
        "python", "python3", "bash", "sh", "node", "env", "/usr/bin/env", "/usr/bin/python3", "/bin/bash", "/bin/sh", "/usr/bin/node",
    ]
    static let folderPrefixes = ["${CLAUDE_SKILL_DIR}/", "$CLAUDE_SKILL_DIR/", "${SKILL_DIR}/", "$SKILL_DIR/", "{baseDir}/", "./"]

    /// The field of `frontmatter` (nil, or no field: no entries).
    /// - Parameters:
    ///   - knownTools: the ids and names of the tools we have; an entry naming none of them is ignored with a
    ///     warning. Nil: a plain name is taken as a tool's without checking (at call time, where the name is
    ///     matched against the call's tool).
    ///   - scripts: the skill's script paths (`scripts/x.py`); a script entry naming none is ignored. Nil: not checked.
    public init(frontmatter: JSONValue?, knownTools: Set<String>? = nil, scripts: Set<String>? = nil) {
        let words: [String]
        switch frontmatter?[Self.key] {
        case .string(let text)?: words = Self.split(text)
        case .array(let items)?: words = items.flatMap { Self.split($0.stringValue ?? "") }
        default: words = []
        }
        entries = words.map { Self.entry($0, knownTools: knownTools, scripts: scripts) }
    }

    /// The warnings of the ignored entries of skill `skill`, one line each.
    public func warnings(skill: String) -> [String] {
        entries.compactMap { entry in
            entry.ignored.map { "skill \(skill): allowed-tools entry \"\(entry.text)\" is ignored: \($0)" }
        }
    }

    /// Whether a call of the tool `toolID` with `arguments` is pre-approved while skill `skill` is active:
    /// `run_skill_script` only for `skill`'s own scripts.
    public func approves(toolID: String, arguments: JSONValue, skill: String) -> Bool {
        entries.contains { entry in
            switch entry.grant {
            case .script(let path, let expected, let more)?:
                guard toolID == ScriptPolicy.toolID, arguments["name"]?.stringValue == skill,
                    let given = arguments["path"]?.stringValue
                else { return false }
                let script = Self.strippingFolderPrefix(given)
                let pathMatches = path.isEmpty || (path.hasSuffix("*") ? script.hasPrefix(path.dropLast()) : script == path)
                let words = arguments["args"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let wordsMatch = more ? words.starts(with: expected) : words == expected
                return pathMatches && wordsMatch
            case .tool(let name)?:
                return toolID != ScriptPolicy.toolID && Self.names(toolID).contains(name)
            case .reading?, nil:
                return false
            }
        }
    }

    /// A tool's id and the names it goes by (`files.write`, `files_write`).
    public static func names(_ toolID: String) -> Set<String> {
        [toolID, String(toolID.map { $0 == "." ? "_" : $0 })]
    }

    /// Splits the field at spaces and commas outside parentheses.
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if character == "(" { depth += 1 }
            if character == ")" { depth = max(0, depth - 1) }
            if depth == 0, character.isWhitespace || character == "," {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func strippingFolderPrefix(_ path: String) -> String {
        var path = path
        for prefix in folderPrefixes where path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
        return path
    }

    static func entry(_ text: String, knownTools: Set<String>?, scripts: Set<String>?) -> Entry {
        var name = text
        var pattern: String?
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            name = String(text[..<open])
            pattern = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        if readingTools.contains(name) { return Entry(text: text, grant: .reading) }
        if name == "Bash" || name == ScriptPolicy.toolID {
            return script(text, pattern: pattern, isOurs: name == ScriptPolicy.toolID, scripts: scripts)
        }
        // An MCP client's spelling of a tool of an MCP server: mcp__<server>__<tool>.
        if name.hasPrefix("mcp__"), let range = name.range(of: "__", range: name.index(name.startIndex, offsetBy: 5)..<name.endIndex) {
            name = String(name[range.upperBound...])
        }
        guard pattern == nil else {
            return Entry(text: text, ignored: "a pattern is understood only for Bash (this skill's scripts) and reading tools; list the tool by its name")
        }
        if let knownTools, !knownTools.contains(name) {
            return Entry(text: text, ignored: "SkillHost has no tool \"\(name)\"; name one of its tools (skillhost list) or this skill's scripts (Bash(python3 scripts/x.py:*))")
        }
        return Entry(text: text, grant: .tool(name))
    }

    static func script(_ text: String, pattern given: String?, isOurs: Bool, scripts: Set<String>?) -> Entry {
        var pattern = (given ?? "").trimmingSpaces()
        if pattern.isEmpty || pattern == "*" { return Entry(text: text, grant: .script(path: "", arguments: [], more: true)) }
        var more = isOurs
        for suffix in [":*", " *"] where pattern.hasSuffix(suffix) {
            pattern.removeLast(suffix.count)
            more = true
        }
        var words = pattern.split(whereSeparator: \.isWhitespace).map(String.init)
        if !isOurs {
            while let first = words.first, interpreters.contains(first) { words.removeFirst() }
        }
        guard let first = words.first else {
            return Entry(text: text, ignored: "it names an interpreter, not a script; name the script, e.g. Bash(python3 scripts/x.py:*)")
        }
        let path = strippingFolderPrefix(first)
        guard path.hasPrefix("scripts/") else {
            return Entry(text: text, ignored: "it names the command \"\(first)\", not a script of this skill under scripts/, and SkillHost has no shell tool")
        }
        if let scripts, !path.hasSuffix("*"), !scripts.contains(path) {
            return Entry(text: text, ignored: "this skill has no script \(path)")
        }
        return Entry(text: text, grant: .script(path: path, arguments: isOurs ? [] : Array(words.dropFirst()), more: more))
    }
}
