import Glibc

/// The files of one skill folder, found without following links out of it or round in circles.
///
/// Walks with `lstat` only (no file is opened, so a FIFO cannot block it), at most `maximumEntries`
/// entries and `maximumDepth` levels. A link is kept when it leads to a file inside the folder; a link
/// that loops (`ELOOP`, or to a folder that contains it), dangles, or leaves the folder is a problem.
struct SkillFolderWalk {
    /// Most entries looked at in one folder.
    static let maximumEntries = 5000
    /// Deepest sub-folder level looked at.
    static let maximumDepth = 16

    /// Regular files (and links to files inside the folder), relative paths, sorted.
    var files: [String] = []
    /// One line per problem (links that loop, dangle or escape; too many entries).
    var problems: [String] = []

    /// Walks the folder at `folder` (absolute).
    init(folder: String) {
        let root = Self.realPath(folder) ?? folder
        var entries = 0
        walk(root: root, folder: folder, relative: "", depth: 0, entries: &entries)
        files.sort()
    }

    private mutating func walk(root: String, folder: String, relative: String, depth: Int, entries: inout Int) {
        guard depth <= Self.maximumDepth else {
            problems.append("folder \(relative) is nested deeper than \(Self.maximumDepth) levels; flatten it")
            return
        }
        guard let names = Self.entries(of: relative.isEmpty ? folder : folder + "/" + relative) else { return }
        for name in names.sorted() {
            entries += 1
            if entries > Self.maximumEntries {
                if !problems.contains(where: { $0.hasPrefix("more than") }) {
                    problems.append("more than \(Self.maximumEntries) files in the skill folder; remove some")
                }
                return
            }
            let path = relative.isEmpty ? name : relative + "/" + name
            let full = folder + "/" + path
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                files.append(path)
            case S_IFDIR:
                walk(root: root, folder: folder, relative: path, depth: depth + 1, entries: &entries)
            case S_IFLNK:
                checkLink(root: root, full: full, relative: path)
            default:
                continue  // FIFOs, sockets, devices: never opened, never listed.
            }
        }
    }

    private mutating func checkLink(root: String, full: String, relative: String) {
        guard let target = Self.realPath(full) else {
            let loop = errno == ELOOP
            problems.append(loop
                ? "symlink loop at \(relative); remove the link"
                : "dangling symlink \(relative); remove it or restore its target")
            return
        }
        guard target == root || target.hasPrefix(root + "/") else {
            problems.append("symlink \(relative) leads outside the skill folder; copy the file in instead")
            return
        }
        var info = stat()
        guard stat(target, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            let linkFolder = Self.realPath(Posix.directoryName(of: full)) ?? ""
            if linkFolder == target || linkFolder.hasPrefix(target + "/") {
                problems.append("symlink loop at \(relative): it points back to a folder that contains it; remove the link")
            }
        } else if info.st_mode & S_IFMT == S_IFREG {
            files.append(relative)
        }
    }

    /// `realpath(3)`, or nil (errno set).
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Names in a folder (without `.` and `..`), or nil when it cannot be read.
    static func entries(of folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
