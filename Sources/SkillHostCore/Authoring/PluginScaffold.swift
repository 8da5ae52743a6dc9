import Foundation

/// A new plugin package, ready to build: what `skillhost new NAME` writes.
///
/// The package depends on a SkillHost checkout by path: its `SkillSDK` (Swift) or its C headers
/// `skill_abi.h` and `skill_json.h` (C). It holds one sample skill, `<name>.greet`, a unit test of that
/// skill that needs no host, and `build.sh`, which builds `<name>.so` into `out/` and runs
/// `skillhost validate` on it.
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

    /// One file to write, relative to the package folder.
    public struct File: Sendable, Equatable {
        public var path: String
        public var contents: String
        public var isExecutable: Bool
    }

    /// The plugin id, which is also the package folder's name, e.g. `"weather"`.
    public let name: String
    public let language: Language
    /// The SkillHost checkout the package builds against (holds `Package.swift` and `Sources/SkillSDK`).
    public let skillHostRoot: String

    /// A scaffold for the plugin `name`.
    /// - Throws: ``HostError`` (invalidArguments) when `name` is not a plugin id, or (notFound) when
    ///   `skillHostRoot` is not a SkillHost checkout.
    public init(name: String, language: Language, skillHostRoot: String) throws(HostError) {
        guard PluginScaffold.isValidName(name) else {
            throw HostError(
                .invalidArguments,
                "\"\(name)\" cannot name a plugin: use 1-40 characters of a-z, 0-9, '_' and '-', starting with a letter (e.g. \"weather\")")
        }
        var root = skillHostRoot
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        let manager = FileManager.default
        guard manager.fileExists(atPath: root + "/Sources/SkillSDK"),
            manager.fileExists(atPath: root + "/Sources/CSkillABI/include/skill_json.h")
        else {
            throw HostError(
                .notFound,
                "\(root) is not a SkillHost checkout (no Sources/SkillSDK or Sources/CSkillABI/include/skill_json.h); pass --sdk PATH to the checkout")
        }
        self.name = name
        self.language = language
        self.skillHostRoot = root
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

    /// The `skillhost` a generated `build.sh` runs when neither `$SKILLHOST` nor `PATH` has one.
    var checkoutSkillhost: String { skillHostRoot + "/.build/debug/skillhost" }

    /// The shell lines of `build.sh` that find `skillhost`: `$SKILLHOST`, then `PATH`, then the checkout's build.
    var findSkillhostShell: String {
        """
        skillhost=${SKILLHOST:-}
        if [ -z "$skillhost" ]; then
            if command -v skillhost > /dev/null 2>&1; then
                skillhost=skillhost
            elif [ -x "\(checkoutSkillhost)" ]; then
                skillhost="\(checkoutSkillhost)"
            else
                echo "build.sh: no skillhost to validate with: put it on PATH or set SKILLHOST" >&2
                exit 2
            fi
        fi
        """
    }

    /// The sample skill's manifest description, shared by both languages.
    var sampleDescription: String {
        "Writes a short greeting for a person by name, friendly or formal. Not for sending messages: it only returns the text."
    }
}
