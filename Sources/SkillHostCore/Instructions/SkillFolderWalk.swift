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
        self.folder = folder
        var entries = 0
        walk(relative: "", depth: 0, entries: &entries)
        files.sort()
    }

    private let folder: String
    /// The folder's real path, resolved on the first link (most folders have none).
    private var resolvedRoot: String?
    private mutating func root() -> String {
        if let resolvedRoot { return resolvedRoot }
        let resolved = Posix.resolvedPath(folder) ?? folder
        resolvedRoot = resolved
        return resolved
    }

    private mutating func walk(relative: String, depth: Int, entries: inout Int) {
        guard depth <= Self.maximumDepth else {
            problems.append("folder \(relative) is nested deeper than \(Self.maximumDepth) levels; flatten it")
            return
        }
        guard let names = Posix.typedDirectoryEntries(relative.isEmpty ? folder : folder + "/" + relative) else { return }
        for (name, type) in names.sorted(by: { $0.name < $1.name }) {
            entries += 1
            if entries > Self.maximumEntries {
                if !problems.contains(where: { $0.hasPrefix("more than") }) {
                    problems.append("more than \(Self.maximumEntries) files in the skill folder; remove some")
                }
                return
            }
            let path = relative.isEmpty ? name : relative + "/" + name
            let full = folder + "/" + path
            var mode = Self.mode(ofType: type)
            if mode == nil {  // DT_UNKNOWN (some file systems): ask lstat.
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                mode = info.st_mode & S_IFMT
            }
            switch mode {
            case S_IFREG:
                files.append(path)
            case S_IFDIR:
                walk(relative: path, depth: depth + 1, entries: &entries)
            case S_IFLNK:
                checkLink(root: root(), full: full, relative: path)
            default:
                continue  // FIFOs, sockets, devices: never opened, never listed.
            }
        }
    }

    private mutating func checkLink(root: String, full: String, relative: String) {
        guard let target = Posix.resolvedPath(full) else {
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
            let linkFolder = Posix.resolvedPath(Posix.directoryName(of: full)) ?? ""
            if linkFolder == target || linkFolder.hasPrefix(target + "/") {
                problems.append("symlink loop at \(relative): it points back to a folder that contains it; remove the link")
            }
        } else if info.st_mode & S_IFMT == S_IFREG {
            files.append(relative)
        }
    }

    /// The `st_mode` file type for a `d_type`, or nil when unknown.
    static func mode(ofType type: UInt8) -> mode_t? {
        switch Int32(type) {
        case Int32(DT_REG): return S_IFREG
        case Int32(DT_DIR): return S_IFDIR
        case Int32(DT_LNK): return S_IFLNK
        case Int32(DT_FIFO): return S_IFIFO
        case Int32(DT_SOCK): return S_IFSOCK
        case Int32(DT_CHR): return S_IFCHR
        case Int32(DT_BLK): return S_IFBLK
        default: return nil
        }
    }
}
