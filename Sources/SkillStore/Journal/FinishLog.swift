import SkillPosix
import Glibc

/// A store's append-only file of finished calls not yet in the database
/// (`history.sqlite3-finishes-<pid>-<n>` beside it, mode 0600): each finish is one `write(2)`, so it
/// survives a crash of the process (like a WAL commit with `synchronous=NORMAL`) at a fraction of a
/// commit's cost. Emptied once its records are committed; removed when the store closes.
///
/// The owner holds an exclusive `flock` on it for as long as it lives; a file whose lock can be taken was
/// left by a process that died, and the next store to open the database recovers it
/// (``abandoned(beside:)``). Not thread-safe: used under the store's lock.
final class FinishLog {
    let path: String
    private let descriptor: Int32
    /// Bytes written since the last ``clear()``.
    private(set) var size = 0

    /// The file name prefix of the logs of `databasePath`.
    static func prefix(of databasePath: String) -> String { databasePath + "-finishes-" }

    /// Creates a new log for `databasePath` and locks it.
    init(databasePath: String) throws(StoreError) {
        let pid = getpid()
        for attempt in 0..<1000 {
            let candidate = Self.prefix(of: databasePath) + "\(pid)-\(attempt)"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
            if descriptor < 0, errno == EEXIST { continue }  // left by an earlier process with this pid
            guard descriptor >= 0 else { throw Self.failure(candidate, "create") }
            do {
                try Posix.lock(descriptor, .exclusive, waiting: false, path: candidate)
            } catch {
                close(descriptor)
                unlink(candidate)
                throw Self.failure(candidate, "lock", code: error.code)
            }
            self.path = candidate
            self.descriptor = descriptor
            return
        }
        throw StoreError(.cannotOpen, "\(Self.prefix(of: databasePath))\(pid)-*: 1000 finish logs of this pid exist; remove them (their process is gone)")
    }

    deinit { close(descriptor) }

    /// Appends `bytes` whole (one `write` unless the kernel takes fewer bytes).
    func append(_ bytes: [UInt8]) throws(StoreError) {
        guard Posix.writeAll(descriptor, bytes) else {
            let error = Self.failure(path, "write")
            // A partial record would hide the ones after it: cut the file back.
            _ = ftruncate(descriptor, off_t(size))
            throw error
        }
        size += bytes.count
    }

    /// The size past which ``clear()`` truncates the file. Below it committed records stay (a truncate per
    /// commit costs more than the rest of recording a call); recovery skips them, since it only finishes
    /// calls still running.
    static let truncateThreshold = 64 << 10

    /// Marks the records as committed: empties the file once it holds ``truncateThreshold`` bytes.
    func clear() {
        guard size >= Self.truncateThreshold else { return }
        if ftruncate(descriptor, 0) == 0 { size = 0 }
    }

    /// Deletes the file (the store closes; its records are in the database).
    func remove() { unlink(path) }

    static func failure(_ path: String, _ action: String, code: Int32 = errno) -> StoreError {
        StoreError(
            .cannotOpen,
            "\(path): cannot \(action) the history's finish log (\(Posix.describe(errno: code))); check the state folder (disk full? permissions?) or pass --state DIR")
    }
}

/// A finish log whose owner died, locked by this process until ``close()``.
final class AbandonedFinishLog {
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The logs beside `databasePath` that no live process holds, each locked for this process.
    static func abandoned(beside databasePath: String) -> [AbandonedFinishLog] {
        let folder = Posix.directoryName(of: databasePath)
        let prefix = String(FinishLog.prefix(of: databasePath).split(separator: "/").last ?? "")
        var found: [AbandonedFinishLog] = []
        for name in Posix.directoryEntries(folder) ?? [] {
            guard name.hasPrefix(prefix), !name.hasSuffix(".bad") else { continue }
            let path = (folder == "/" ? "" : folder) + "/" + name
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { continue }
            guard (try? Posix.lock(descriptor, .exclusive, waiting: false, path: path)) != nil else {  // its owner lives
                close(descriptor)
                continue
            }
            found.append(AbandonedFinishLog(path: path, descriptor: descriptor))
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The whole file (empty when it was already recovered and removed by another process).
    func contents() throws(StoreError) -> [UInt8] {
        do {
            return try Posix.readAll(descriptor, path: path)
        } catch {
            throw FinishLog.failure(path, "read", code: error.code)
        }
    }

    /// Deletes the file (its records are in the database).
    func remove() { unlink(path) }

    /// Keeps the file as `<path>.bad` (it holds a record that cannot be read).
    func setAside() -> String {
        let target = path + ".bad"
        try? Posix.rename(path, to: target)
        return target
    }
}
