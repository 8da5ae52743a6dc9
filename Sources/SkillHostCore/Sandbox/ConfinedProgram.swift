/// A program that is not skillhost — an interpreter running a skill's script, an MCP server — started inside the
/// same sandbox as a worker (docs/isolation.md): `skillhost-sandbox --confine` makes the namespaces and enters
/// Landlock, seccomp and no capabilities for it right before the exec, so none of its code runs outside. It may
/// start processes (they stay in its sandbox and die with it) unless ``singleProcess`` is set and its policy
/// says no processes: then its own start is the one exec it makes, and every fork and other exec is refused.
///
/// The host builds the whole policy here (the system's programs and libraries, the program's own installation,
/// the paths the caller grants) and starts it through ``Posix/spawnPiped(_:arguments:pipeStandardInput:standardError:environment:descriptor3:)``;
/// without `skillhost-sandbox` beside the host nothing is started (``launchCommand(_:)`` throws).
public struct ConfinedProgram: Sendable {
    /// The program (absolute path).
    public var program: String
    /// Its arguments (argv[1...]).
    public var arguments: [String]
    /// What it may touch beyond the system's programs, libraries and data: its data or work folders
    /// (read-write), the skill's own folder (read), and what the user granted.
    public var policy: SandboxPolicy
    /// Folders whose programs and libraries it may read and run besides the system's (e.g. a virtual
    /// environment's prefix).
    public var executablePaths: [String]
    /// Its working folder.
    public var workingDirectory: String?
    /// Its resource limits.
    public var limits: ResourceLimits
    /// Whether the policy's `processes: false` holds for it (an MCP server's entry): no fork, no exec but its
    /// own start. Off for a skill's script, whose interpreter may run commands inside its sandbox.
    public var singleProcess = false

    public init(
        program: String, arguments: [String], policy: SandboxPolicy, executablePaths: [String] = [],
        workingDirectory: String? = nil, limits: ResourceLimits = .defaults
    ) {
        self.program = program
        self.arguments = arguments
        self.policy = policy
        self.executablePaths = executablePaths
        self.workingDirectory = workingDirectory
        self.limits = limits
    }

    /// What every confined program may read and run: the system's programs and libraries (and so the
    /// interpreters and their modules, site-packages included); read: shared data, the loader's cache, the
    /// zone, /proc (the namespace's own), the CPU list, harmless devices; read-write: /dev/null.
    static let systemPaths: [(path: String, words: String)] = [
        ("/usr/bin", "--sb-exec"), ("/bin", "--sb-exec"), ("/usr/local/bin", "--sb-exec"), ("/usr/lib", "--sb-exec"),
        ("/usr/lib64", "--sb-exec"), ("/lib", "--sb-exec"), ("/lib64", "--sb-exec"), ("/usr/local/lib", "--sb-exec"),
        ("/usr/libexec", "--sb-exec"), ("/usr/share", "--sb-read"), ("/etc/ld.so.cache", "--sb-read"),
        ("/etc/localtime", "--sb-read"), ("/etc/timezone", "--sb-read"), ("/proc", "--sb-read"),
        ("/sys/devices/system/cpu", "--sb-read"), ("/dev/urandom", "--sb-read"), ("/dev/random", "--sb-read"),
        ("/dev/zero", "--sb-read"), ("/dev/null", "--sb-write"),
    ]

    /// The command that starts it: `skillhost-sandbox` (beside `hostExecutable`) with the policy words, then
    /// the program.
    /// - Throws: ``HostError`` (`denied`) when `skillhost-sandbox` is not installed beside the host: a program
    ///   that cannot be confined is not run.
    public func launchCommand(hostExecutable: String) throws(HostError) -> (executable: String, arguments: [String]) {
        guard let helper = NamespaceLauncher.program(besides: hostExecutable) else {
            throw HostError(.denied,
                "cannot confine \(program): \(NamespaceLauncher.programName) is not installed beside \(hostExecutable); nothing was run. Reinstall with scripts/install.sh (or build it: scripts/build-sandbox-helper.sh \(Posix.directoryName(of: hostExecutable)))")
        }
        // Without processes (an MCP server's `processes: false`) its own start is the one exec it makes.
        let processes = policy.processes || !singleProcess
        var words = ["--confine", "--sb-procs", processes ? "1" : "0", "--sb-ns", policy.namespaces ? "1" : "0"]
        for (path, word) in Self.systemPaths { words += [word, path] }
        for path in executablePaths + [program] { words += ["--sb-exec", path] }
        for rule in policy.rules { words += [rule.access == .readWrite ? "--sb-write" : "--sb-read", rule.path] }
        switch policy.network {
        case .none: words += ["--sb-net", "none"]
        case .any: words += ["--sb-net", "any"]
        case .tcpConnect(let ports): words += ["--sb-net", ports.map(String.init).joined(separator: ",")]
        }
        words += limits.workerArguments
        if let workingDirectory { words += ["--chdir", workingDirectory] }
        return (helper, words + ["--", program] + arguments)
    }
}
