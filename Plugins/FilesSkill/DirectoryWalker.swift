import Foundation
import SkillSDK

/// One entry of a folder, as the files skills report it.
struct FileEntry: Encodable, Equatable {
    /// The entry's name.
    var name: String
    /// Its path relative to the root.
    var path: String
    /// `file`, `directory`, `symlink` or `other`.
    var type: String
    /// Size in bytes (files only).
    var size: Int64?
    /// Last modification, ISO 8601 in UTC.
    var modified: String?
}

/// Why a folder or file could not be read: the errno, as its text.
struct ReadRefusal: Error {
    var code: Int32
    var reason: String { String(cString: strerror(code)) }
}

/// Walks folders below a ``FilesRoot`` breadth-first, in name order, without following symlinked folders
/// (a symlink is reported as one, so a link cycle or a link out of the root is never entered).
///
/// A folder that cannot be read is never passed over as if it were empty: the folder the walk starts from
/// fails the call with the reason and the real path (a sandbox refusal then names what to grant), and a
/// sub-folder is listed in ``unreadable``, which the skills return.
struct DirectoryWalker {
    let root: FilesRoot
    var includeHidden: Bool
    /// Sub-folders the walk could not read, relative to the root, with the reason.
    private(set) var unreadable: [String] = []

    init(root: FilesRoot, includeHidden: Bool) {
        self.root = root
        self.includeHidden = includeHidden
    }

    /// Outcome of a visit: keep going or stop the walk.
    enum Step { case next, stop }

    /// Calls `visit` for each entry below the folder `start` (an absolute resolved path inside the root), down
    /// to `recursive ? unlimited : 1` levels, with the absolute path and the entry.
    /// - Throws: ``SkillError`` (permission denied, or failed) when `start` itself cannot be read; what
    ///   `visit` throws.
    mutating func walk(from start: String, recursive: Bool, visit: (String, FileEntry) throws -> Step) throws {
        var queue = [start]
        var next = 0
        while next < queue.count {
            let folder = queue[next]
            next += 1
            let names: [String]
            switch DirectoryWalker.names(in: folder) {
            case .success(let found):
                names = found
            case .failure(let refusal) where folder == start:
                throw DirectoryWalker.refusal(reading: folder, refusal)
            case .failure(let refusal):
                unreadable.append("\(root.relativePath(of: folder)) (\(refusal.reason))")
                continue
            }
            for name in names where includeHidden || !name.hasPrefix(".") {
                let absolute = folder == "/" ? "/" + name : folder + "/" + name
                let entry = DirectoryWalker.entry(named: name, at: absolute, relative: root.relativePath(of: absolute))
                if try visit(absolute, entry) == .stop { return }
                if recursive && entry.type == "directory" { queue.append(absolute) }
            }
        }
    }

    /// Why a folder that cannot be read fails the call: its real path, and what to do about it.
    static func refusal(reading folder: String, _ refusal: ReadRefusal) -> SkillError {
        if refusal.code == EACCES || refusal.code == EPERM {
            return SkillError.permissionDenied(
                message: "cannot read the folder \(folder): \(refusal.reason)")
        }
        return SkillError.failed(message: "cannot read the folder \(folder): \(refusal.reason)")
    }

    /// The names in a folder, sorted; why not when it cannot be read.
    static func names(in folder: String) -> Result<[String], ReadRefusal> {
        guard let directory = opendir(folder) else { return .failure(ReadRefusal(code: errno)) }
        defer { closedir(directory) }
        var names: [String] = []
        while let item = readdir(directory) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names.sorted())
    }

    /// The entry for `absolute`, from `lstat` (a symlink is reported as a symlink).
    static func entry(named name: String, at absolute: String, relative: String) -> FileEntry {
        var info = stat()
        guard lstat(absolute, &info) == 0 else { return FileEntry(name: name, path: relative, type: "other") }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = "file"
        case S_IFDIR: kind = "directory"
        case S_IFLNK: kind = "symlink"
        default: kind = "other"
        }
        return FileEntry(
            name: name, path: relative, type: kind, size: kind == "file" ? Int64(info.st_size) : nil,
            modified: iso8601(seconds: Int64(info.st_mtim.tv_sec)))
    }

    /// `seconds` since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
    static func iso8601(seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
