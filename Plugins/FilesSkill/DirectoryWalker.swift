import Foundation

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

/// Walks folders below a ``FilesRoot`` breadth-first, in name order, without following symlinked folders
/// (a symlink is reported as one, so a link cycle or a link out of the root is never entered).
struct DirectoryWalker {
    let root: FilesRoot
    var includeHidden: Bool

    /// Outcome of a visit: keep going or stop the walk.
    enum Step { case next, stop }

    /// Calls `visit` for each entry below the folder `start` (an absolute resolved path inside the root), down
    /// to `recursive ? unlimited : 1` levels, with the absolute path and the entry.
    func walk(from start: String, recursive: Bool, visit: (String, FileEntry) throws -> Step) rethrows {
        var queue = [start]
        var next = 0
        while next < queue.count {
            let folder = queue[next]
            next += 1
            for name in DirectoryWalker.names(in: folder) where includeHidden || !name.hasPrefix(".") {
                let absolute = folder == "/" ? "/" + name : folder + "/" + name
                let entry = DirectoryWalker.entry(named: name, at: absolute, relative: root.relativePath(of: absolute))
                if try visit(absolute, entry) == .stop { return }
                if recursive && entry.type == "directory" { queue.append(absolute) }
            }
        }
    }

    /// The names in a folder, sorted; empty when it cannot be read.
    static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let item = readdir(directory) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
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
