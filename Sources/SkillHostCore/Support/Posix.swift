@_exported import SkillPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The system calls the host library makes that fail with a ``HostError`` (the rest of ``Posix`` is in the
/// SkillPosix target, re-exported here so code keeps saying `Posix.`): each goes through
/// ``retrying(_:path:kind:_:)``, which retries on `EINTR` and turns `errno` into a ``HostError`` that names
/// the call and the file (the shape of NIOPosix's `System.swift`), or through ``hostError(_:_:)``, which
/// gives one of SkillPosix's calls (durable writes, locks, folders) the same ``HostError``.
extension Posix {
    /// Runs `body` until it does not fail with `EINTR`; a result of -1 becomes a ``HostError`` of kind `kind`
    /// that says which call failed on which file and why.
    @discardableResult
    static func retrying<Result: BinaryInteger>(
        _ call: String, path: String, kind: HostError.Kind = .io, _ body: () -> Result
    ) throws(HostError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw HostError(kind, "\(call) \(path): \(describe(errno: code))")
        }
    }

    /// `dlopen(absolutePath, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)`. The host never calls `dlclose`: a Swift
    /// image that is unloaded leaves the runtime's caches pointing into freed memory.
    static func openLibrary(atPath path: String) throws(HostError) -> UnsafeMutableRawPointer {
        guard path.hasPrefix("/") else {
            throw HostError(.invalidPlugin, "\(path): plugin paths must be absolute before dlopen")
        }
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            throw HostError(.invalidPlugin, "\(path): cannot load the library: \(reason)")
        }
        return handle
    }

    /// `stat(2)` (follows symbolic links).
    static func status(ofPath path: String) throws(HostError) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw HostError(code == ENOENT ? .notFound : .io, "stat \(path): \(describe(errno: code))")
        }
        return FileStatus(
            size: Int64(info.st_size),
            modificationNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            inode: UInt64(info.st_ino), mode: UInt32(info.st_mode), ownerID: UInt32(info.st_uid))
    }

    /// Reads a whole file, refusing one larger than `limit` bytes.
    static func readFile(atPath path: String, limit: Int = 64 << 20) throws(HostError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw HostError(code == ENOENT ? .notFound : .io, "open \(path): \(describe(errno: code))")
        }
        defer { close(descriptor) }
        let bytes = try hostError { () throws(Failure) in try readAll(descriptor, path: path, limit: limit) }
        if bytes.count > limit { throw HostError(.io, "\(path): file is larger than \(limit) bytes") }
        return bytes
    }

    /// Runs one of SkillPosix's calls, turning its ``Posix/Failure`` into a ``HostError`` of kind `kind`
    /// ("CALL PATH: REASON").
    static func hostError<Result>(
        _ kind: HostError.Kind = .io, _ body: () throws(Failure) -> Result
    ) throws(HostError) -> Result {
        do {
            return try body()
        } catch {
            throw HostError(kind, error.description)
        }
    }

    /// Reads up to `count` bytes from the start of a file (fewer when the file is shorter).
    static func readPrefix(ofFile path: String, count: Int) throws(HostError) -> [UInt8] {
        let descriptor = try retrying("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(filled))
            }
            if got == -1 && errno == EINTR { continue }
            if got < 0 { throw HostError(.io, "read \(path): \(describe(errno: errno))") }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[0..<filled])
    }

    /// Creates a folder and its parents (mode 0700 for new ones), like `mkdir -p`
    /// (``Posix/createDirectories(_:)``).
    static func makeDirectories(_ path: String) throws(HostError) {
        try hostError { () throws(Failure) in try createDirectories(path) }
    }

    /// Replaces a file durably, creating its folder first (``Posix/replaceFile(_:with:mode:)``: a temporary
    /// file beside it, fsync, rename, fsync of the folder). A reader sees the old bytes or the new ones, never
    /// a mix; a crash leaves the old file.
    static func writeFileAtomically(_ path: String, bytes: [UInt8], mode: mode_t = 0o644) throws(HostError) {
        try makeDirectories(directoryName(of: path))
        try hostError { () throws(Failure) in try replaceFile(path, with: bytes, mode: mode) }
    }

    /// Takes an exclusive `flock` on `path` (created if needed, with its folder), waiting for other processes
    /// (``Posix/openLockedExclusively(_:mode:)``). Returns the descriptor to pass to ``unlock(_:)``.
    static func lockExclusively(_ path: String) throws(HostError) -> Int32 {
        try makeDirectories(directoryName(of: path))
        return try hostError { () throws(Failure) in try openLockedExclusively(path) }
    }

    /// Serializes pipe creation with spawning (see ``makePipe()``).
    private static let spawnLock = Mutex<Void>(())

    /// A pipe whose ends are closed on exec.
    static func makePipe() throws(HostError) -> (read: Int32, write: Int32) {
        // Creating the pipe and marking it close-on-exec happen under the spawn lock, so a spawn on another
        // thread cannot slip in between and leak the ends into its child (pipe2 is not visible to Swift).
        try spawnLock.withLock { _ throws(HostError) -> (read: Int32, write: Int32) in
            var ends: [Int32] = [0, 0]
            try retrying("pipe", path: "(pipe)") { pipe(&ends) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
    }

    /// Starts `executable` with `arguments` (argv[1...]) through `posix_spawn`, with the given descriptors as
    /// its stdin, stdout and stderr (-1 = /dev/null) and exactly `environment` (`NAME=value` entries; nothing
    /// of the host's own environment is inherited). `descriptor3`, when given, becomes the child's descriptor 3
    /// (a worker's shared call slot). With `newSession` the child starts a session of its own: it has no
    /// controlling terminal and shares no process group with the host or the user's shell.
    static func spawn(
        _ executable: String, arguments: [String], stdin: Int32 = -1, stdout: Int32, stderr: Int32,
        environment: [String], descriptor3: Int32 = -1, newSession: Bool = true
    ) throws(HostError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if descriptor3 > 3 { posix_spawn_file_actions_adddup2(&actions, descriptor3, 3) }
        for (source, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            if source >= 0 {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        // The child starts with no blocked signals and default handlers for the ones the parent may ignore
        // or catch (chat ignores SIGINT, the CLI ignores SIGPIPE): a worker must die on SIGTERM/SIGINT.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let setsid: Int32 = newSession ? 0x80 /* POSIX_SPAWN_SETSID (glibc 2.26) */ : 0
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | setsid))
        var pid: pid_t = 0
        let result = spawnLock.withLock { _ in posix_spawn(&pid, executable, &actions, &attributes, argv, envp) }
        guard result == 0 else {
            throw HostError(.io, "posix_spawn \(executable): \(describe(errno: result))")
        }
        return pid
    }

    /// A child started by ``spawnPiped(_:arguments:pipeStandardInput:standardError:environment:descriptor3:)``:
    /// its pid and the parent's ends of its pipes (-1 where there is no pipe). The caller closes them.
    struct PipedChild {
        var pid: pid_t
        /// Where the parent writes the child's stdin; -1 when its stdin is /dev/null.
        var input: Int32
        /// Where the parent reads the child's stdout.
        var output: Int32
        /// Where the parent reads the child's stderr; -1 when the child writes to an inherited descriptor.
        var errors: Int32
    }

    /// Where a piped child's stderr goes.
    enum ChildStandardError {
        /// A pipe the parent reads (``PipedChild/errors``).
        case pipe
        /// A descriptor of the parent (2: the host's own stderr).
        case inherit(Int32)
    }

    /// The one way the host starts a helper process (the scanner child, a worker): pipes for stdout, and
    /// optionally stdin and stderr, created close-on-exec, then ``spawn(_:arguments:stdin:stdout:stderr:environment:descriptor3:newSession:)``;
    /// the child's ends are closed in the parent, and every descriptor is closed again when anything fails.
    static func spawnPiped(
        _ executable: String, arguments: [String], pipeStandardInput: Bool, standardError: ChildStandardError,
        environment: [String], descriptor3: Int32 = -1
    ) throws(HostError) -> PipedChild {
        var opened: [Int32] = []
        func pipeOrClose() throws(HostError) -> (read: Int32, write: Int32) {
            do {
                let ends = try makePipe()
                opened += [ends.read, ends.write]
                return ends
            } catch {
                for descriptor in opened { close(descriptor) }
                throw error
            }
        }
        let input = pipeStandardInput ? try pipeOrClose() : nil
        let output = try pipeOrClose()
        var errors: (read: Int32, write: Int32)?
        if case .pipe = standardError { errors = try pipeOrClose() }
        let errorTarget: Int32 = if case .inherit(let descriptor) = standardError { descriptor } else { errors!.write }
        let pid: pid_t
        do {
            pid = try spawn(executable, arguments: arguments, stdin: input?.read ?? -1, stdout: output.write,
                            stderr: errorTarget, environment: environment, descriptor3: descriptor3)
        } catch {
            for descriptor in opened { close(descriptor) }
            throw error
        }
        for descriptor in [input?.read, output.write, errors?.write].compactMap({ $0 }) { close(descriptor) }
        return PipedChild(pid: pid, input: input?.write ?? -1, output: output.read, errors: errors?.read ?? -1)
    }
}
