import Foundation

/// What a stdio MCP server needs of its own installation to start, read-only (docs/mcp-sources.md,
/// "Sandbox"): the executable, and, when it lives in a virtual environment (a `pyvenv.cfg` in its prefix),
/// that whole prefix; a Python entry point outside one (a `#!` line naming python) adds its prefix's
/// `site-packages`. What the system offers every confined program (`/usr`, `/lib…`) is not repeated.
public struct MCPServerInstallation: Sendable, Equatable {
    /// The program as the registry names it.
    public var program: String
    /// The interpreter its `#!` line names, when it is a script.
    public var interpreter: String?
    /// Folders and files read (and run) beside the system's.
    public var paths: [String]

    /// Looks at `program` on disk.
    public init(program: String) {
        self.program = program
        interpreter = Self.shebangInterpreter(of: program)
        var paths = [program]
        let bin = Posix.directoryName(of: program)
        let prefix = Posix.directoryName(of: bin)
        if Posix.exists(prefix + "/pyvenv.cfg") {
            paths = [prefix]
            // The interpreter the environment was made from (its `home`), with its standard library.
            if let home = Self.virtualEnvironmentHome(prefix) {
                let base = Posix.directoryName(of: home)
                paths += [home, base + "/lib"]
            }
        } else if let interpreter, Posix.lastPathComponent(of: interpreter).hasPrefix("python") {
            // A user or system install: its site-packages only, never the whole prefix (~/.local holds more).
            let lib = prefix + "/lib"
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? [] where entry.hasPrefix("python") {
                let site = lib + "/" + entry + "/site-packages"
                if Posix.exists(site) { paths.append(site) }
            }
        }
        if let interpreter, !Self.systemCovered(interpreter) { paths.append(interpreter) }
        self.paths = paths.filter { !Self.systemCovered($0) || $0 == program }
    }

    /// The `home` of a virtual environment's `pyvenv.cfg`: the folder of the interpreter it was made from.
    static func virtualEnvironmentHome(_ prefix: String) -> String? {
        guard let text = try? String(contentsOfFile: prefix + "/pyvenv.cfg", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == "home", parts[1].hasPrefix("/") { return parts[1] }
        }
        return nil
    }

    /// The `#!` interpreter of a script (its first word), nil for a binary.
    static func shebangInterpreter(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = handle.readData(ofLength: 256)
        guard head.starts(with: Array("#!".utf8)) else { return nil }
        let line = String(decoding: head.dropFirst(2).prefix { $0 != 0x0A }, as: UTF8.self)
        let words = line.split(separator: " ").map(String.init)
        guard let first = words.first else { return nil }
        if Posix.lastPathComponent(of: first) == "env", words.count > 1 { return Self.resolve(command: words[1]) ?? words[1] }
        return first
    }

    /// The absolute path of `command`: as given when it has a slash (made absolute), else the first
    /// executable of that name in `PATH`; nil when there is none.
    public static func resolve(command: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        if command.contains("/") {
            let absolute = Posix.absolutePath(command)
            return Posix.isExecutableFile(absolute) ? absolute : nil
        }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/" + command
            if Posix.isExecutableFile(candidate) { return Posix.absolutePath(candidate) }
        }
        return nil
    }

    /// Whether every confined program may already read and run `path` (the system's folders).
    static func systemCovered(_ path: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/lib/", "/lib/", "/lib64/", "/usr/local/bin/", "/usr/local/lib/", "/usr/libexec/"]
            .contains { path.hasPrefix($0) }
    }
}
