import SkillPosix
import Glibc
import Synchronization

/// A store's append-only file of finished calls not yet in the database
/// (`history.sqlite3-finishes-<pid>-<n>` beside it, mode 0600): each finish is copied into the file through
/// a shared memory map (no system call: a `write(2)` per call cost more than the rest of logging it), so it
/// is in the kernel's page cache, and survives a crash of the process (like a WAL commit with
/// `synchronous=NORMAL`), as soon as the copy is done. The file is created with ``mappedSize`` bytes of
/// zeros; a record's header is stored after its body, so the log reads up to the first zero header (a
/// record cut short by a crash has none). A record that does not fit in what is left of the map is written
/// after it with `pwrite`. Committed records are zeroed once they fill ``truncateThreshold`` bytes; the file
/// is removed when the store closes. Without a map (`mmap` refused) every record is written with `pwrite`.
///
/// The owner holds an exclusive `flock` on it for as long as it lives; a file whose lock can be taken was
/// left by a process that died, and the next store to open the database recovers it
/// (``abandoned(beside:)``). Not thread-safe: used under the store's lock.
final class FinishLog {
    let path: String
    private let descriptor: Int32
    /// The file's first ``mappedSize`` bytes, or nil when they could not be mapped.
    private let mapping: UnsafeMutableRawPointer?
    /// Bytes written since the last ``clear()`` (where the next record goes).
    private(set) var size = 0

    /// Bytes of the file kept mapped (its size while no record has outgrown it; allocated when it is
    /// created).
    static let mappedSize = 128 << 10

    /// The file name prefix of the logs of `databasePath`.
    static func prefix(of databasePath: String) -> String { databasePath + "-finishes-" }

    /// Creates a new log for `databasePath`, locks it and maps it.
    init(databasePath: String) throws(StoreError) {
        let (path, descriptor) = try Self.createLocked(databasePath: databasePath)
        self.path = path
        self.descriptor = descriptor
        var mapping: UnsafeMutableRawPointer?
        // The blocks are reserved first: a store into a page the file system then could not allocate
        // (disk full) would kill the process with SIGBUS instead of failing a write.
        if posix_fallocate(descriptor, 0, off_t(Self.mappedSize)) == 0 {
            let address = mmap(nil, Self.mappedSize, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
            if let address, address != MAP_FAILED { mapping = address }
        }
        self.mapping = mapping
    }

    /// A new log file beside `databasePath`, created and locked by this process (read-write descriptor).
    /// Another process recovering abandoned logs may take a new file's lock in the moment between its
    /// creation and this process's `flock`, and remove it: a file no longer at its path once locked is
    /// given up and another is made.
    static func createLocked(databasePath: String) throws(StoreError) -> (path: String, descriptor: Int32) {
        let pid = getpid()
        for attempt in 0..<1000 {
            let candidate = prefix(of: databasePath) + "\(pid)-\(attempt)"
            let descriptor = open(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor < 0, errno == EEXIST { continue }  // left by an earlier process with this pid
            guard descriptor >= 0 else { throw failure(candidate, "create") }
            do {
                try Posix.lock(descriptor, .exclusive, waiting: false, path: candidate)
            } catch {
                close(descriptor)
                unlink(candidate)
                throw failure(candidate, "lock", code: error.code)
            }
            guard Posix.isNamed(descriptor, candidate) else {
                close(descriptor)  // recovered and removed before it was locked
                continue
            }
            return (candidate, descriptor)
        }
        throw StoreError(.cannotOpen, "\(prefix(of: databasePath))\(pid)-*: 1000 finish logs of this pid exist; remove them (their process is gone)")
    }

    /// How many finish logs (of any process, live or not) are beside `databasePath`.
    static func count(beside databasePath: String) -> Int {
        let prefix = String(Self.prefix(of: databasePath).split(separator: "/").last ?? "")
        return (Posix.directoryEntries(Posix.directoryName(of: databasePath)) ?? []).reduce(0) { count, name in
            name.hasPrefix(prefix) && !name.hasSuffix(".bad") ? count + 1 : count
        }
    }

    /// Leaves `bytes` (whole encoded records) in a log file of their own beside `databasePath`, for the
    /// next process that opens the database: the file is locked while it is written, so nobody recovers
    /// it half-written, and unlocked (abandoned) when this returns.
    static func leave(_ bytes: [UInt8], databasePath: String) throws(StoreError) {
        let (path, descriptor) = try createLocked(databasePath: databasePath)
        defer { close(descriptor) }
        guard Posix.writeAll(descriptor, bytes, at: 0) == bytes.count else {
            let error = failure(path, "write")
            unlink(path)
            throw error
        }
    }

    deinit {
        if let mapping { munmap(mapping, Self.mappedSize) }
        close(descriptor)
    }

    /// Appends one encoded record (``FinishRecordCoding/headerSize`` header bytes, then its body): copied
    /// into the map when it fits, its header last; else written at its offset with `pwrite`.
    func append(_ bytes: [UInt8]) throws(StoreError) {
        if let failure = bytes.withUnsafeBytes({ append($0) }) { throw failure }
    }

    /// ``append(_:)`` of bytes in place; returns why it failed, nil when the record is in the log.
    func append(_ source: UnsafeRawBufferPointer) -> StoreError? {
        let header = FinishRecordCoding.headerSize
        if let mapping, source.count > header, source.count <= Self.mappedSize - size {
            let target = mapping + size
            (target + header).copyMemory(from: source.baseAddress! + header, byteCount: source.count - header)
            // The header makes the record part of the log: it goes in once the body is whole. The fence
            // keeps the compiler from moving the header's stores before the body's (a kill between them
            // must leave a log that ends before this record).
            atomicMemoryFence(ordering: .releasing)
            target.copyMemory(from: source.baseAddress!, byteCount: header)
            size += source.count
            return nil
        }
        let written = Posix.writeAll(descriptor, source, at: size)
        guard written == source.count else {
            let error = Self.failure(path, "write")
            // A partial record would hide the ones after it: take it back out.
            discard(from: size, count: written)
            return error
        }
        size += source.count
        return nil
    }

    /// Zeroes `count` bytes from `offset` (a record written in part) and gives back what grew past the map.
    private func discard(from offset: Int, count: Int) {
        if let mapping, offset < Self.mappedSize {
            memset(mapping + offset, 0, min(count, Self.mappedSize - offset))
        }
        _ = ftruncate(descriptor, off_t(max(offset, mapping == nil ? 0 : Self.mappedSize)))
    }

    /// The size past which ``clear()`` empties the log. Below it committed records stay (emptying it per
    /// commit would cost more than the rest of recording a call); recovery skips them, since it only
    /// finishes calls still running.
    static let truncateThreshold = 64 << 10

    /// Marks the records as committed: empties the log once they fill ``truncateThreshold`` bytes (zeroes
    /// them from the first, so a crash halfway leaves a log that ends at once).
    func clear() {
        guard size >= Self.truncateThreshold else { return }
        if let mapping {
            memset(mapping, 0, min(size, Self.mappedSize))
            if size > Self.mappedSize { _ = ftruncate(descriptor, off_t(Self.mappedSize)) }
            size = 0
        } else if ftruncate(descriptor, 0) == 0 {
            size = 0
        }
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
