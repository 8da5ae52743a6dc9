import Foundation

/// A new plugin package, ready to build: what `skillhost new NAME` writes.
///
/// The package builds against the SkillHost SDK (``SDKDependency``): a Swift package depends on its
/// `SkillSDK` and `SkillCheck` products (by path, an installed SDK as `skillhost sdk path` prints it, or by
/// git URL and version, as a published SDK); a C package finds `skill_abi.h` and `skill_json.h` when it
/// builds, through `pkg-config --cflags skillhost` or `skillhost sdk path --include`. It holds one sample
/// skill, `<name>.greet`, a unit test of that skill that needs no host, and `build.sh`, which builds
/// `<name>.so` into `out/` and runs `skillhost validate` on it.
///
/// Swift packages follow the layout that lets several plugins share a package and still `swift test`:
/// skills in a plain library target, one thin export target per plugin holding only
/// `skill_plugin_entry`, and tests that depend on the library only.
public struct PluginScaffold: Sendable {
    /// The language of the generated plugin.
    public enum Language: String, Sendable, CaseIterable {
        case swift
        case c
    }

    /// What the package builds against.
    public enum SDKDependency: Sendable, Equatable {
        /// An SDK folder on this machine (installed, or a SkillHost checkout).
        case path(SDKLocation)
        /// A published SDK package: a git URL and the version to start from (`from:`).
        case git(url: String, version: String)

        /// `--sdk`'s value: `URL@VERSION` (a URL has `://`, or is `git@host:path`) or a folder.
        /// - Throws: ``HostError`` `invalidArguments` for a URL without a semantic version after its last
        ///   `@`; `notFound` for a folder that is no SDK.
        public init(option: String) throws(HostError) {
            let isURL = option.contains("://") || option.hasPrefix("git@")
            guard isURL else {
                self = .path(try SDKLocation.at(option, source: .option))
                return
            }
            guard let at = option.lastIndex(of: "@"), option[..<at].contains("/") || option[..<at].contains(":"),
                SemanticVersion.isValid(String(option[option.index(after: at)...]))
            else {
                throw HostError(
                    .invalidArguments,
                    "--sdk \(option) names a URL without a version; write URL@VERSION, e.g. https://example.com/skillhost-sdk.git@1.0.0")
            }
            self = .git(url: String(option[..<at]), version: String(option[option.index(after: at)...]))
        }

        /// The name SwiftPM gives the dependency (its identity): the folder's or the URL's last component,
        /// lowercased, without `.git`.
        public var packageIdentity: String {
            let last: Substring
            switch self {
            case .path(let location): last = location.package.split(separator: "/").last ?? "skillhost-sdk"
            case .git(let url, _): last = url.split(whereSeparator: { $0 == "/" || $0 == ":" }).last ?? "skillhost-sdk"
            }
            var name = last.lowercased()
            if name.hasSuffix(".git") { name.removeLast(4) }
            return name
        }
    }

    /// One file to write, relative to the package folder.
    public struct File: Sendable, Equatable {
        public var path: String
        public var contents: String
        public var isExecutable: Bool
    }

    /// The plugin id, which is also the package folder's name, e.g. `"weather"`.
    public let name: String
    public let language: Language
    /// What the package builds against.
    public let sdk: SDKDependency
    /// The `skillhost` a generated `build.sh` validates with when neither `$SKILLHOST` nor `PATH` has one
    /// (the one that wrote the package); nil for none.
    public let skillhost: String?
    /// The installed guides, named in the README when known.
    public let documentation: String?

    /// A scaffold for the plugin `name`.
    /// - Throws: ``HostError`` (invalidArguments) when `name` is not a plugin id, or a C package is asked to
    ///   build against a git URL (C needs only the headers).
    public init(
        name: String, language: Language, sdk: SDKDependency, skillhost: String? = nil, documentation: String? = nil
    ) throws(HostError) {
        guard PluginScaffold.isValidName(name) else {
            throw HostError(
                .invalidArguments,
                "\"\(name)\" cannot name a plugin: use 1-40 characters of a-z, 0-9, '_' and '-', starting with a letter (e.g. \"weather\")")
        }
        if language == .c, case .git = sdk {
            throw HostError(
                .invalidArguments,
                "--sdk URL@VERSION is for Swift packages; a C plugin needs only the headers, which its build.sh finds with 'pkg-config --cflags skillhost' or 'skillhost sdk path --include'")
        }
        self.name = name
        self.language = language
        self.sdk = sdk
        self.skillhost = skillhost
        self.documentation = documentation
    }

    /// Whether `name` is a plugin id this scaffold can use as a folder and a Swift type name prefix.
    public static func isValidName(_ name: String) -> Bool {
        guard (1...40).contains(name.count), let first = name.unicodeScalars.first, ("a"..."z").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    /// `name` as a Swift type-name prefix: "my-weather" → "MyWeather".
    public var typePrefix: String {
        name.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }

    /// The files of the package.
    public var files: [File] {
        switch language {
        case .swift: SwiftPluginTemplate(scaffold: self).files
        case .c: CPluginTemplate(scaffold: self).files
        }
    }

    /// Writes the package into a new folder `directory/name`.
    /// - Returns: the package folder.
    /// - Throws: ``HostError`` (io) when the folder exists and is not empty, or a file cannot be written.
    @discardableResult
    public func write(into directory: String) throws(HostError) -> String {
        let folder = (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/" + name
        let manager = FileManager.default
        if let existing = try? manager.contentsOfDirectory(atPath: folder), !existing.isEmpty {
            throw HostError(.io, "\(folder) already exists and is not empty; choose another NAME or --dir")
        }
        for file in files {
            let path = folder + "/" + file.path
            do {
                try manager.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                if file.isExecutable { try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
            } catch {
                throw HostError(.io, "cannot write \(path): \(error.localizedDescription)")
            }
        }
        return folder
    }

    /// The shell lines of `build.sh` that find `skillhost`: `$SKILLHOST`, then `PATH`, then the one that
    /// wrote the package.
    var findSkillhostShell: String {
        var lines = [
            "skillhost=${SKILLHOST:-}",
            "if [ -z \"$skillhost\" ]; then",
            "    if command -v skillhost > /dev/null 2>&1; then",
            "        skillhost=skillhost",
        ]
        if let skillhost {
            lines += ["    elif [ -x \"\(skillhost)\" ]; then", "        skillhost=\"\(skillhost)\""]
        }
        lines += [
            "    else",
            "        echo \"build.sh: no skillhost to validate with: put it on PATH or set SKILLHOST\" >&2",
            "        exit 2",
            "    fi",
            "fi",
        ]
        return lines.joined(separator: "\n")
    }

    /// Where the README sends the author for the guide.
    var guide: String {
        documentation.map { "\($0)/authoring.md" } ?? "docs/authoring.md of SkillHost"
    }

    /// The sample skill's manifest description, shared by both languages.
    var sampleDescription: String {
        "Writes a short greeting for a person by name, friendly or formal. Not for sending messages: it only returns the text."
    }
}
