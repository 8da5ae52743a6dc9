#if canImport(Glibc)
import Glibc
#endif

/// Writes to user state, once for every target: a file is replaced whole (temporary file beside it, fsync,
/// rename, fsync of the folder) and changed under an exclusive `flock`, so a reader sees the old bytes or the
/// new ones, a crash leaves the old file, two processes take turns and no temporary file is left behind.
/// The host's registry and caches (SkillHostCore's `writeFileAtomically`, `lockExclusively` and
/// `makeDirectories` give these a `HostError`), the calendar files (`CalendarFileStore`) and the history's
/// finish log use these.
extension Posix {
    /// How a `flock` is taken.
    package enum LockMode: Sendable {
        /// Readers: many at once, none while a writer holds the lock.
        case shared
        /// A writer: alone.
        case exclusive

        var operation: Int32 { self == .shared ? LOCK_SH : LOCK_EX }
    }

    /// `flock(descriptor, mode)`, retried on `EINTR`. Without `waiting`, a lock another descriptor holds fails
    /// at once with `EWOULDBLOCK`.
    package static func lock(_ descriptor: Int32, _ mode: LockMode, waiting: Bool = true, path: String) throws(Failure) {
        let operation = mode.operation | (waiting ? 0 : LOCK_NB)
        while flock(descriptor, operation) != 0 {
            if errno == EINTR { continue }
            throw Failure("flock", path: path)
        }
    }

    /// Opens `path` read-write (creating it with `mode`) and takes an exclusive `flock` on it, waiting for
    /// other processes. When another process renamed a new file over `path` while this one waited, the lock
    /// is on a file nobody reads any more: it is dropped and taken again on the file now at `path`. The
    /// folder must exist. Returns the descriptor (positioned at the start) to pass to ``unlock(_:)``.
    package static func openLockedExclusively(_ path: String, mode: mode_t = 0o644) throws(Failure) -> Int32 {
        for _ in 0..<100 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)
            guard descriptor >= 0 else { throw Failure("open", path: path) }
            do {
                try lock(descriptor, .exclusive, path: path)
            } catch {
                close(descriptor)
                throw error
            }
            var opened = stat()
            var current = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &current) == 0, opened.st_ino == current.st_ino,
                opened.st_dev == current.st_dev
            {
                return descriptor
            }
            close(descriptor)
        }
        throw Failure("flock", path: path, code: EAGAIN)
    }

    /// The permission bits of an open file (`fstat`), or nil.
    package static func permissions(of descriptor: Int32) -> mode_t? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Replaces the file at `path` durably: writes `bytes` to a new temporary file beside it
    /// (`.NAME.PID.RANDOM.tmp`, created with `O_EXCL` and `mode`), fsyncs it, renames it over `path` (a link
    /// at `path` is replaced, not followed: resolve it first to keep it) and fsyncs the folder. The folder
    /// must exist. On any failure the temporary file is removed and `path` keeps its old bytes.
    package static func replaceFile(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(Failure) {
        let folder = directoryName(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let prefix = (path.contains("/") ? (folder == "/" ? "/" : folder + "/") : "") + "." + name + ".\(getpid())."
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<16 where descriptor < 0 {
            temporary = prefix + "\(UInt32.random(in: 0...UInt32.max)).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor < 0 && errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw Failure("open", path: temporary) }
        var failure: Failure?
        if !writeAll(descriptor, bytes) {
            failure = Failure("write", path: temporary, code: errno == 0 ? EIO : errno)
        } else if fsync(descriptor) != 0 {
            failure = Failure("fsync", path: temporary)
        }
        close(descriptor)
        if failure == nil, Glibc.rename(temporary, path) != 0 {
            failure = Failure("rename", path: "\(temporary) to \(path)")
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        syncDirectory(folder)
    }

    /// fsyncs a folder, so a rename or a new entry in it survives a crash; best effort.
    package static func syncDirectory(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// `rename(2)`: moves `source` to `target` in one step (replacing a file there).
    package static func rename(_ source: String, to target: String) throws(Failure) {
        guard Glibc.rename(source, target) == 0 else { throw Failure("rename", path: "\(source) to \(target)") }
    }

    /// `unlink(2)`: removes a file; one that is already gone is no failure.
    package static func removeFile(_ path: String) throws(Failure) {
        guard unlink(path) == 0 || errno == ENOENT else { throw Failure("unlink", path: path) }
    }

    /// Creates a folder and its parents (mode 0700 for new ones), like `mkdir -p`.
    package static func createDirectories(_ path: String) throws(Failure) {
        if path.isEmpty || exists(path) { return }
        let parent = directoryName(of: path)
        if parent != path { try createDirectories(parent) }
        if mkdir(path, 0o700) == -1 && errno != EEXIST { throw Failure("mkdir", path: path) }
    }
}
