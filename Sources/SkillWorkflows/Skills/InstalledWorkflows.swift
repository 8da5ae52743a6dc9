import SkillHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The folder of installed workflows (`skillhost workflow install FILE`): one `NAME.yaml` or `NAME.json`
/// per workflow, each the skill `workflow.NAME`. By default `workflows/` beside the plugins folder
/// (`~/.local/share/skillhost/workflows`); `SKILLHOST_WORKFLOWS` overrides it.
public struct InstalledWorkflows: Sendable {
    /// The folder.
    public let folder: String

    public init(folder: String) { self.folder = folder }

    /// The folder for a plugins folder and environment.
    public static func folder(plugins: String, environment: [String: String]) -> String {
        if let path = environment["SKILLHOST_WORKFLOWS"], !path.isEmpty { return path }
        var parent = plugins
        while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
        if let slash = parent.lastIndex(of: "/") { parent = String(parent[..<slash]) }
        return (parent.isEmpty ? "." : parent) + "/workflows"
    }

    /// The skill id prefix of workflows.
    public static let prefix = "workflow."

    /// The installed files by workflow name.
    public func files() -> [String: String] {
        var result: [String: String] = [:]
        guard let entries = Posix.directoryEntries(folder) else { return result }
        for entry in entries.sorted() {
            for suffix in [".yaml", ".yml", ".json"] where entry.hasSuffix(suffix) {
                let name = String(entry.dropLast(suffix.count))
                if WorkflowName.isValid(name), result[name] == nil { result[name] = folder + "/" + entry }
            }
        }
        return result
    }

    /// Installs the workflow file `source` (already checked) under its name, atomically; returns the path.
    public func install(_ workflow: Workflow, text: String) throws -> String {
        try Posix.createDirectories(folder)
        let suffix = workflow.scalarsAreText ? ".yaml" : ".json"
        for other in [".yaml", ".yml", ".json"] where other != suffix { unlink(folder + "/" + workflow.name + other) }
        let path = folder + "/" + workflow.name + suffix
        try Posix.replaceFile(path, with: Array(text.utf8))
        return path
    }
}
