#if canImport(Glibc)
import Glibc
#endif

/// A script an instruction skill bundles, resolved for running: the file (inside the skill's folder, symlinks
/// resolved) and the interpreter that runs it — named by its `#!` line, or else by its extension (`.py`
/// python3, `.sh` sh, `.bash` bash, `.js`/`.mjs`/`.cjs` node) — found among the system's programs. A script is
/// never run through a shell: the interpreter gets the file and the arguments as a list.
public struct SkillScript: Sendable, Equatable {
    /// The skill's name.
    public var skill: String
    /// The path relative to the skill's folder, as asked.
    public var path: String
    /// The file, absolute and free of symlinks.
    public var file: String
    /// The interpreter (absolute path) and the words its `#!` line gives before the file.
    public var interpreter: String
    public var interpreterArguments: [String]

    /// The interpreters skills' scripts may name, by name, and the one that runs them.
    static let interpreters: [String: String] = [
        "python3": "python3", "python": "python3", "sh": "sh", "dash": "sh", "bash": "bash", "node": "node", "nodejs": "node",
    ]
    /// Where interpreters are looked for: the system's programs only (one in the user's home would need the
    /// sandbox to let the script run what is there).
    static let searchFolders = ["/usr/bin", "/bin", "/usr/local/bin"]

    /// The script at `path` of the skill in `folder`.
    /// - Throws: ``HostError`` (`invalidArguments` for a path outside the folder, that does not exist or is not a
    ///   file; `notFound` for an interpreter this machine lacks), each in one line with the fix.
    public static func resolve(skill: String, folder: String, path: String) throws(HostError) -> SkillScript {
        let field = "path"
        if path.isEmpty || path.hasPrefix("/") || path.hasPrefix("~") || path.split(separator: "/").contains("..") {
            throw HostError(.invalidArguments, "\(field) \"\(path)\" is refused: give a path inside the skill \(skill)'s folder, relative to it and without \"..\" (e.g. scripts/run.py)", skillID: skill)
        }
        guard let root = Posix.resolvedPath(folder), let file = Posix.resolvedPath(folder + "/" + path) else {
            throw HostError(.invalidArguments, "\(field) \"\(path)\" does not exist in the skill \(skill); its scripts are listed by inspect \(skill)", skillID: skill)
        }
        guard file.hasPrefix(root + "/") else {
            throw HostError(.invalidArguments, "\(field) \"\(path)\" is refused: a symlink leads out of the skill \(skill)'s folder (to \(file))", skillID: skill)
        }
        guard (try? Posix.status(ofPath: file))?.isRegularFile == true else {
            throw HostError(.invalidArguments, "\(field) \"\(path)\" is not a file of the skill \(skill); give a script's path", skillID: skill)
        }
        let (name, words) = interpreterName(file: file, path: path)
        guard let name, let wanted = interpreters[name] else {
            let named = name.map { "its #! line names \"\($0)\"" } ?? "it has no #! line and no known extension"
            throw HostError(.invalidArguments, "\(path) of the skill \(skill) cannot be run: \(named); scripts run with python3, bash, sh or node (a #! line or .py, .sh, .bash, .js)", skillID: skill)
        }
        guard let interpreter = searchFolders.map({ $0 + "/" + wanted }).first(where: Posix.isExecutableFile) else {
            throw HostError(.notFound, "\(path) of the skill \(skill) needs \(wanted), which is not installed here (looked in \(searchFolders.joined(separator: ", "))); install it (Debian: \(wanted == "node" ? "nodejs" : wanted))", skillID: skill)
        }
        return SkillScript(skill: skill, path: path, file: file, interpreter: interpreter, interpreterArguments: words)
    }

    /// The interpreter's name from the file's `#!` line (`#!/usr/bin/env python3`, `#!/bin/bash -e`), else from
    /// its extension, and the words the `#!` line passes before the file.
    static func interpreterName(file: String, path: String) -> (String?, [String]) {
        let head = (try? Posix.readPrefix(ofFile: file, count: 256)) ?? []
        if head.starts(with: Array("#!".utf8)) {
            let line = String(decoding: head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !words.isEmpty else { return (nil, []) }
            var program = Posix.lastPathComponent(of: words.removeFirst())
            if program == "env" {
                words.removeAll { $0.hasPrefix("-") }
                guard !words.isEmpty else { return (nil, []) }
                program = words.removeFirst()
            }
            return (program, words)
        }
        switch path.split(separator: ".").last.map(String.init) {
        case "py": return ("python3", [])
        case "sh": return ("sh", [])
        case "bash": return ("bash", [])
        case "js", "mjs", "cjs": return ("node", [])
        default: return (nil, [])
        }
    }
}
