#if canImport(Glibc)
import Glibc
#endif

/// Writes to user state, once for every target: a file is replaced whole (temporary file beside it, fsync,
/// rename, fsync of the folder) and changed under an exclusive `flock`, so a reader sees the old bytes or the
/// new ones, a crash leaves the old file, two processes take turns, and the temporary file a writer that
/// died left behind is removed by the next writer.
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
            if isNamed(descriptor, path) { return descriptor }
            close(descriptor)
        }
        throw Failure("flock", path: path, code: EAGAIN)
    }

    /// Whether the open file `descriptor` is (still) the file at `path`: same device and inode. A lock taken
    /// on a file another process has since replaced or removed protects nothing.
    package static func isNamed(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var current = stat()
        return fstat(descriptor, &opened) == 0 && stat(path, &current) == 0 && opened.st_ino == current.st_ino
            && opened.st_dev == current.st_dev
    }

    /// The permission bits of an open file (`fstat`), or nil.
    package static func permissions(of descriptor: Int32) -> mode_t? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Replaces the file at `path` durably: writes `bytes` to a new temporary file beside it
    /// (`.NAME.PID.RANDOM.tmp`, created with `O_EXCL` and `mode`, and locked with `flock` for as long as it
    /// exists under that name), fsyncs it, renames it over `path` (a link at `path` is replaced, not
    /// followed: resolve it first to keep it) and fsyncs the folder. The folder must exist. On any failure
    /// the temporary file is removed and `path` keeps its old bytes.
    ///
    /// The one place that cleans up after writers that died (SIGKILL, a crash, a power cut) while their
    /// temporary file existed: before writing, the temporary files of `path` that no live writer holds are
    /// removed (``removeAbandonedTemporaries(of:)``), so every durable file — the registry, the caches, the
    /// calendar files — is left with at most the temporaries of writers still at work.
    package static func replaceFile(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(Failure) {
        removeAbandonedTemporaries(of: path)
        // A cleaner that judged the temporary abandoned before it was locked may have removed it (its
        // rename then fails with ENOENT): write it again.
        for attempt in 0..<3 {
            do {
                return try replaceFileOnce(path, with: bytes, mode: mode)
            } catch where error.code == ENOENT && attempt < 2 {
                continue
            }
        }
    }

    private static func replaceFileOnce(_ path: String, with bytes: [UInt8], mode: mode_t) throws(Failure) {
        let folder = directoryName(of: path)
        let prefix = temporaryPrefix(of: path) + "\(getpid())."
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<16 where descriptor < 0 {
            temporary = prefix + "\(UInt32.random(in: 0...UInt32.max)).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor < 0 && errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw Failure("open", path: temporary) }
        // Held until the descriptor is closed, after the rename: a temporary file nobody holds was left by a
        // writer that died.
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        var failure: Failure?
        if !writeAll(descriptor, bytes) {
            failure = Failure("write", path: temporary, code: errno == 0 ? EIO : errno)
        } else if fsync(descriptor) != 0 {
            failure = Failure("fsync", path: temporary)
        } else if Glibc.rename(temporary, path) != 0 {
            failure = Failure("rename", path: "\(temporary) to \(path)")
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw failure
        }
        syncDirectory(folder)
    }

    /// `<folder>/.NAME.`: how the temporary files of `path` begin.
    private static func temporaryPrefix(of path: String) -> String {
        let folder = directoryName(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return (path.contains("/") ? (folder == "/" ? "/" : folder + "/") : "") + "." + name + "."
    }

    /// How old an unlocked temporary file must be before it counts as abandoned even when the process its
    /// name gives still seems to live: a live writer locks its temporary file microseconds after creating
    /// it, and a process id seen from another pid namespace (a sandboxed worker) may name another process.
    static let abandonedTemporaryAge: Int64 = 1_000_000_000

    /// Removes the temporary files ``replaceFile(_:with:mode:)`` left beside `path` when its writer died:
    /// `.NAME.PID.*.tmp` that no process holds locked and whose process is gone, or that were last written
    /// more than ``abandonedTemporaryAge`` ago. Best effort: what cannot be opened or removed stays.
    package static func removeAbandonedTemporaries(of path: String) {
        let prefix = temporaryPrefix(of: path)
        let folder = directoryName(of: prefix + "x")
        let namePrefix = String(prefix.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nowNanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        for entry in directoryEntries(folder) ?? [] where entry.hasPrefix(namePrefix) && entry.hasSuffix(".tmp") {
            let candidate = (folder == "/" ? "" : folder) + "/" + entry
            let descriptor = open(candidate, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var info = stat()
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                continue  // its writer lives (or it is not a file this code made)
            }
            let written = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            let pid = entry.dropFirst(namePrefix.count).split(separator: ".").first.flatMap { Int32($0) }
            let writerGone = pid.map { $0 > 0 && kill($0, 0) != 0 && errno == ESRCH } ?? true
            guard writerGone || nowNanoseconds - written > abandonedTemporaryAge, isNamed(descriptor, candidate) else { continue }
            unlink(candidate)
        }
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
