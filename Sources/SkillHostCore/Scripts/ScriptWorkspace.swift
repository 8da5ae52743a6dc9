#if canImport(Glibc)
import Glibc
#endif

/// The folder a skill's scripts work in for one session (`<state>/workspaces/<session>/`): their working folder,
/// the only place they may write, where the user's attached files go, and where what they wrote is found.
public struct ScriptWorkspace: Sendable, Equatable {
    /// The folder.
    public var folder: String

    /// The most entries a look at the folder reads (deeper or further entries are not listed as written).
    static let maximumEntries = 20_000
    /// A folder inside it for the scripts' temporary files (`TMPDIR`), emptied after each run and never listed.
    static let temporaryName = ".skillhost-tmp"

    /// The workspace of `session` under `stateDirectory`, created (0700) when missing.
    /// - Throws: ``HostError`` (`io`) when it cannot be created.
    public static func forSession(_ session: String, stateDirectory: String) throws(HostError) -> ScriptWorkspace {
        let safe = session.isEmpty ? "default" : String(session.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        let workspace = ScriptWorkspace(folder: stateDirectory + "/workspaces/" + safe)
        try Posix.makeDirectories(workspace.folder)
        return workspace
    }

    public init(folder: String) {
        self.folder = folder
    }

    /// The scripts' temporary folder.
    var temporaryFolder: String { folder + "/" + Self.temporaryName }

    /// One file as a look saw it.
    struct Stamp: Equatable {
        var size: Int64
        var modified: Int64
    }

    /// Every regular file below the folder (relative path → size and modification time), skipping the
    /// temporary folder; symlinks are neither followed nor listed.
    func look() -> [String: Stamp] {
        var found: [String: Stamp] = [:]
        var queue = [""]
        var seen = 0
        while let relative = queue.popLast(), seen < Self.maximumEntries {
            let folderPath = relative.isEmpty ? folder : folder + "/" + relative
            for (name, type) in Posix.typedDirectoryEntries(folderPath) ?? [] {
                seen += 1
                if type == UInt8(DT_LNK) || (relative.isEmpty && name == Self.temporaryName) { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                guard let status = try? Posix.status(ofPath: folder + "/" + path) else { continue }
                if status.isDirectory {
                    queue.append(path)
                } else if status.isRegularFile {
                    found[path] = Stamp(size: status.size, modified: status.modificationNanoseconds)
                }
            }
        }
        return found
    }
}
