#if canImport(Glibc)
import Glibc
#endif

/// The system calls every target shares, in one place (SkillHostCore re-exports this module; SkillStore,
/// ICalendar, the SDK and the CLI use it directly): errno text, file facts, folders and paths, process
/// reaping and signals (one wording for a signal), descriptor reads and writes. Durable, locked writes of
/// user state are in `Posix+DurableFiles.swift` and throw ``Failure`` (`Posix+Failure.swift`), the clocks
/// are in `Posix+Clocks.swift`. SkillHostCore gives the calls it makes a `HostError` face (open, stat,
/// `writeFileAtomically`, `lockExclusively`, pipes, spawning) in its own `Support/Posix.swift`.
public enum Posix {
    // MARK: - errno

    /// The text of an `errno` value, e.g. "No such file or directory".
    package static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    // MARK: - Dynamic libraries

    /// The address of an exported symbol, or nil when the library does not export it.
    package static func symbol(_ name: String, in handle: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        _ = dlerror()
        return dlsym(handle, name)
    }

    // MARK: - Files

    /// What the host needs to know about a file: the scan cache key and the permission bits.
    package struct FileStatus: Equatable, Sendable {
        package var size: Int64
        package var modificationNanoseconds: Int64
        package var inode: UInt64
        package var mode: UInt32
        package var ownerID: UInt32
        package var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
        package var isDirectory: Bool { mode & S_IFMT == S_IFDIR }

        package init(size: Int64, modificationNanoseconds: Int64, inode: UInt64, mode: UInt32, ownerID: UInt32) {
            self.size = size
            self.modificationNanoseconds = modificationNanoseconds
            self.inode = inode
            self.mode = mode
            self.ownerID = ownerID
        }
    }

    /// Whether something exists at `path`.
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether `path` is a file this process may execute.
    package static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// Releases a lock taken with ``openLockedExclusively(_:mode:)`` and closes its descriptor.
    package static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The folder part of a path ("/a/b" → "/a", "b" → ".").
    package static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last part of a path ("/a/b" → "b", "b" → "b").
    package static func lastPathComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The names in a folder (without "." and ".."), or nil when it cannot be read.
    package static func directoryEntries(_ path: String) -> [String]? {
        typedDirectoryEntries(path)?.map(\.name)
    }

    /// The names in a folder (without "." and "..") with their `d_type` (`DT_DIR`, `DT_REG`, `DT_LNK`, or
    /// `DT_UNKNOWN` where the file system does not say), in the order `readdir` gives; nil when it cannot be read.
    package static func typedDirectoryEntries(_ path: String) -> [(name: String, type: UInt8)]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var entries: [(name: String, type: UInt8)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { entries.append((name, entry.pointee.d_type)) }
        }
        return entries
    }

    /// `realpath(3)`: the absolute path with every link and "." or ".." resolved; nil (errno set) when
    /// something on the way does not exist.
    package static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The absolute form of `path` (relative to the working directory), without resolving links.
    package static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return cwd == "/" ? "/" + relative : cwd + "/" + relative
    }

    // MARK: - Processes

    /// How a child process ended.
    package enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)

        /// Decodes a `waitpid` status.
        package init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        }

        /// "signal 11 (SIGSEGV, Segmentation fault)" (``Posix/signalName(_:)``, the one wording) or
        /// "exit status 3".
        package var description: String {
            switch self {
            case .exited(let status): return "exit status \(status)"
            case .signaled(let signal): return Posix.signalName(signal)
            }
        }
    }

    /// Reaps `pid` (waiting for it when `blocking`); nil while it still runs.
    package static func reap(_ pid: pid_t, blocking: Bool) -> Termination? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == -1 && errno == EINTR { continue }
            if result <= 0 { return result == 0 ? nil : .exited(-1) }
            break
        }
        return Termination(waitStatus: status)
    }

    /// Reaps `pid`, waiting up to `milliseconds` for it to end (nil = as long as it takes); nil when it
    /// still runs. A process someone else reaped reads as `exited(-1)`.
    package static func reap(_ pid: pid_t, waitingUpTo milliseconds: Int?) -> Termination? {
        guard let milliseconds else { return reap(pid, blocking: true) }
        if let ended = reap(pid, blocking: false) { return ended }
        // Sleep until the child ends (a pidfd); poll every millisecond only where there is none.
        switch awaitEnd(of: pid, milliseconds: milliseconds) {
        case true?: return reap(pid, blocking: true)
        case false?: return reap(pid, blocking: false)
        case nil: break
        }
        let deadline = monotonicNanoseconds() + UInt64(max(0, milliseconds)) * 1_000_000
        while true {
            if let ended = reap(pid, blocking: false) { return ended }
            if monotonicNanoseconds() >= deadline { return nil }
            usleep(1000)
        }
    }

    /// Sends a signal; a process that is already gone is fine.
    package static func sendSignal(_ signal: Int32, to pid: pid_t) { _ = kill(pid, signal) }

    /// Waits until one of `descriptors` is readable or `milliseconds` pass. Returns the readable ones.
    package static func waitReadable(_ descriptors: [Int32], milliseconds: Int32) -> [Int32] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let result = poll(&fds, nfds_t(fds.count), milliseconds)
        guard result > 0 else { return [] }
        return fds.filter { $0.revents != 0 }.map(\.fd)
    }

    /// One `read(2)` into `buffer`; 0 at end of file, -1 on error (other than EINTR).
    package static func readSome(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == -1 && errno == EINTR { continue }
            return count
        }
    }

    /// Reads from the descriptor's position to the end of the file, retrying on `EINTR`; stops once it holds
    /// more than `limit` bytes (the caller sees the count above `limit` and refuses the file).
    /// - Parameter path: names the file in the ``Failure``.
    package static func readAll(_ descriptor: Int32, path: String, limit: Int = Int.max) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        // Read into uninitialized room: a zeroed 64 KiB chunk per file cost a `skillhost call` ~650,000
        // instructions of memset for its ten small files.
        let failure = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65536) { chunk -> Int32? in
            while bytes.count <= limit {
                let count = read(descriptor, chunk.baseAddress, chunk.count)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { break }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<count]))
            }
            return nil
        }
        if let failure { throw Failure("read", path: path, code: failure) }
        return bytes
    }

    /// Writes all of `bytes` to a descriptor (stdout, stderr, a pipe); false when the reader is gone.
    @discardableResult
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count == -1 && errno == EINTR { continue }
            if count <= 0 { return false }
            written += count
        }
        return true
    }

    /// Writes all of `bytes` at `offset` of a file (`pwrite`, the file's own offset untouched) and returns
    /// how many were written: fewer than `bytes.count` when the write failed (`errno` says why).
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int) -> Int {
        bytes.withUnsafeBytes { writeAll(descriptor, $0, at: offset) }
    }

    /// ``writeAll(_:_:at:)`` of bytes in place.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        var written = 0
        while written < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
            if count == -1 && errno == EINTR { continue }
            if count <= 0 { break }
            written += count
        }
        return written
    }

    /// How every message words a signal: "signal 11 (SIGSEGV, Segmentation fault)".
    package static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
            SIGSYS: "SIGSYS",
        ]
        let text = strsignal(signal).map { String(cString: $0) } ?? "unknown signal"
        return "signal \(signal) (\(names[signal].map { $0 + ", " } ?? "")\(text))"
    }
}

extension Posix {
    /// Points fd 1 at stderr and returns a new descriptor for the original stdout, so that code loaded
    /// afterwards (plugins) cannot write into the protocol stream.
    package static func redirectStandardOutputToStandardError() -> Int32 {
        let saved = fcntl(1, F_DUPFD_CLOEXEC, 3)
        _ = dup2(2, 1)
        return saved >= 0 ? saved : 1
    }
}
