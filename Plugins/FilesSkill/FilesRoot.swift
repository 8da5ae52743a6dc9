import Foundation
import SkillJSON
import SkillSDK

/// The one folder the files skills may read below, and the checks that keep every path inside it.
///
/// A path from the model is relative to the root. It is refused when it is absolute, when any of its
/// components is `..`, or when, once symlinks are resolved (`realpath`), it is not the root or below it.
struct FilesRoot: Sendable {
    /// The root as configured (after `~/` expansion), for messages.
    let configured: String
    /// The root with symlinks resolved: every resolved path must equal it or start with it plus "/".
    let resolved: String

    /// The default root when the registry gives none.
    static let defaultRoot = "~/Documents"

    /// The root from the plugin's configuration (`config.root`), or ``defaultRoot``.
    /// - Throws: ``SkillError`` (failed) when the root is not absolute, does not exist or is not a folder.
    init(configuration: JSONValue) throws(SkillError) {
        let value = configuration["root"]
        if let value, value.stringValue == nil {
            throw SkillError.failed(
                message: "the files plugin's config.root is not a string",
                remedy: "set plugins.files.config.root in skill_registry.json to a folder path, e.g. \"~/Documents\"")
        }
        let text = value?.stringValue ?? FilesRoot.defaultRoot
        let expanded = FilesRoot.expandingHome(text)
        guard expanded.hasPrefix("/") else {
            throw SkillError.failed(
                message: "the files plugin's root \"\(text)\" is not an absolute path",
                remedy: "set plugins.files.config.root in skill_registry.json to an absolute path or one starting with ~/")
        }
        guard let resolved = FilesRoot.realPath(expanded), FilesRoot.isDirectory(resolved) else {
            throw SkillError.failed(
                message: "the files plugin's root \"\(text)\" does not exist or is not a folder",
                remedy: "create it, or set plugins.files.config.root in skill_registry.json to an existing folder")
        }
        configured = expanded
        self.resolved = resolved
    }

    /// `~` and `~/…` with the user's home folder (in a worker, `HOME` is the plugin's data folder).
    static func expandingHome(_ path: String) -> String {
        WorkerHome.expandingTilde(path)
    }

    /// The absolute, symlink-free path of `relative` (a path from the model, "" or "." for the root itself),
    /// checked to lie inside the root.
    /// - Parameter field: the JSON pointer of the argument, for error messages.
    /// - Throws: ``SkillError`` naming the path and why it is refused, or that it does not exist.
    func resolve(_ relative: String, field: String) throws(SkillError) -> String {
        if relative.hasPrefix("/") || relative.hasPrefix("~") {
            throw SkillError.invalidArguments(
                field: field, message: "absolute path \"\(relative)\" is refused: paths are relative to the root \(configured)",
                remedy: "give a path relative to the root, e.g. \"notes/todo.txt\"")
        }
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        if components.contains("..") {
            throw SkillError.invalidArguments(
                field: field, message: "path \"\(relative)\" is refused: \"..\" would leave the root \(configured)",
                remedy: "give a path below the root without \"..\"")
        }
        let joined = components.isEmpty ? resolved : resolved + "/" + components.joined(separator: "/")
        guard let real = FilesRoot.realPath(joined) else {
            throw SkillError.invalidArguments(
                field: field, message: "\"\(relative)\" does not exist below the root \(configured)",
                remedy: "call files.list or files.search to find the right path")
        }
        guard contains(real) else {
            throw SkillError.permissionDenied(
                message: "path \"\(relative)\" is refused: a symlink leads outside the root \(configured) (to \(real))",
                remedy: "only files below the root can be read; set plugins.files.config.root to a wider folder")
        }
        return real
    }

    /// Whether the resolved absolute path `real` is the root or below it.
    func contains(_ real: String) -> Bool {
        real == resolved || real.hasPrefix(resolved == "/" ? "/" : resolved + "/")
    }

    /// `real` relative to the root ("." for the root itself).
    func relativePath(of real: String) -> String {
        if real == resolved { return "." }
        return String(real.dropFirst(resolved == "/" ? 1 : resolved.count + 1))
    }

    /// `realpath(3)`: nil when the path does not exist.
    static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Whether `path` (followed through symlinks) is a regular file: never open a pipe or a device, which
    /// could block the call.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
