import CSandbox
#if canImport(Glibc)
import Glibc
#endif

/// The worker's side of the sandbox: enters the ``SandboxPolicy`` it was started with before any plugin
/// code runs, and kills whatever the plugin left behind when the worker ends.
///
/// Landlock restricts the calling thread and the threads it creates later, so the sandbox is entered first
/// thing in the worker process, while it has one thread (``enterEarly(workerArguments:)``, called from the
/// CLI's entry point); ``WorkerServer`` then only asks for the outcome (``failure(for:)``).
public enum WorkerSandbox {
    /// How entering went: nil = not tried yet.
    nonisolated(unsafe) private static var outcome: Result<Void, SandboxFailure>?
    nonisolated(unsafe) private static var entered: SandboxPolicy?

    struct SandboxFailure: Error { var message: String }

    /// Enters the sandbox described by the `--sandbox …` words among a worker's arguments (the words after
    /// `__worker`); with none (`sandbox: off`) only arms the death signal. Call before anything starts a thread.
    public static func enterEarly(workerArguments: [String]) {
        // Every worker dies with its host, sandboxed or not: a host killed with SIGKILL cannot stop them.
        _ = skh_die_with_parent()
        let (_, afterLimits) = ResourceLimits.parse(workerArguments: workerArguments)
        let (policy, rest) = SandboxPolicy.parse(workerArguments: afterLimits)
        guard let policy, let plugin = rest.first else { return }
        outcome = enter(policy, pluginPath: plugin)
    }

    /// Why the worker must not load its plugin under `policy`, or nil when it may. Enters the sandbox now if
    /// ``enterEarly(workerArguments:)`` was not called (then Landlock needs the process to be single-threaded).
    static func failure(for policy: SandboxPolicy?, pluginPath: String) -> String? {
        guard let policy else { return nil }
        if outcome == nil { outcome = enter(policy, pluginPath: pluginPath) }
        if case .failure(let failure) = outcome { return failure.message }
        return nil
    }

    /// Kills every process the plugin started (and, as subreaper, every orphan of theirs). Called when the
    /// worker ends; SIGTERM does the same through a handler installed when processes are allowed.
    public static func killLeftovers() {
        guard entered?.processes == true else { return }
        skh_kill_descendants(64)
    }

    private static func enter(_ policy: SandboxPolicy, pluginPath: String) -> Result<Void, SandboxFailure> {
        var paths: [(String, Int32)] = systemRules()
        paths.append((pluginPath, Int32(SKH_ACCESS_EXECUTE.rawValue)))
        for rule in policy.rules {
            paths.append((rule.path, Int32(rule.access == .readWrite ? SKH_ACCESS_READ_WRITE.rawValue : SKH_ACCESS_READ.rawValue)))
        }
        let strings = paths.map { strdup($0.0) }
        defer { strings.forEach { free($0) } }
        var rules = zip(strings, paths).map { skh_path_rule(path: $0.0, access: $0.1.1) }
        var ports: [UInt16] = []
        let network: Int32
        switch policy.network {
        case .none: network = Int32(SKH_NETWORK_NONE.rawValue)
        case .any: network = Int32(SKH_NETWORK_ANY.rawValue)
        case .tcpConnect(let list):
            network = Int32(SKH_NETWORK_PORTS.rawValue)
            ports = list.map { UInt16(clamping: $0) }
        }
        var error = [CChar](repeating: 0, count: 512)
        let useLandlock: Int32 = policy.mode == .required || KernelSandbox.landlockABI > 0 ? 1 : 0
        var status: Int32 = -1
        rules.withUnsafeMutableBufferPointer { ruleBuffer in
            ports.withUnsafeMutableBufferPointer { portBuffer in
                var spec = skh_sandbox_spec(
                    rules: ruleBuffer.baseAddress, rule_count: ruleBuffer.count, network: network,
                    ports: portBuffer.baseAddress, port_count: portBuffer.count, processes: policy.processes ? 1 : 0)
                status = skh_sandbox_enter(&spec, useLandlock, &error, error.count)
                if status != 0, policy.mode == .bestEffort, useLandlock == 1 {
                    // Best effort: without Landlock, still seccomp and no_new_privs.
                    status = skh_sandbox_enter(&spec, 0, &error, error.count)
                }
            }
        }
        guard status == 0 else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(SandboxFailure(message:
                "cannot enter the sandbox (\(reason)); the plugin was not loaded. To run it anyway set its registry \"sandbox\" to \"best-effort\" or \"off\" (docs/registry.md)"))
        }
        entered = policy
        if policy.processes { skh_kill_descendants_on_sigterm() }
        return .success(())
    }

    /// What every worker may read: the system's libraries and data, the Swift runtime wherever it is
    /// installed (the executable and every loaded library, and the toolchain folder of libswiftCore.so), /proc,
    /// the CPU list in /sys, and harmless devices.
    static func systemRules() -> [(String, Int32)] {
        let execute = Int32(SKH_ACCESS_EXECUTE.rawValue), read = Int32(SKH_ACCESS_READ.rawValue)
        var rules: [(String, Int32)] = [
            ("/usr/lib", execute), ("/usr/lib64", execute), ("/usr/local/lib", execute), ("/lib", execute),
            ("/lib64", execute), ("/usr/share", read), ("/etc/ld.so.cache", read), ("/etc/localtime", read),
            ("/etc/timezone", read),
            // The Swift runtime's dispatch reads /proc/<tid>/stat of its threads (and crashes without it), so
            // /proc is readable; other processes' private entries (environ, mem, maps, fd) stay closed: Landlock
            // denies ptrace-mode access to processes outside the sandbox.
            ("/proc", read), ("/sys/devices/system/cpu", read),
            ("/dev/urandom", read), ("/dev/random", read), ("/dev/zero", read),
            ("/dev/null", Int32(SKH_ACCESS_READ_WRITE.rawValue)),
        ]
        // Mapped files outside the folders above (the skillhost binary, a toolchain in /opt), one rule each;
        // the toolchain's runtime folder (…/usr/lib/swift) whole, for the Foundation a plugin may load.
        var mapped = Set<String>()
        var buffer = [CChar](repeating: 0, count: 64 << 10)
        let used = skh_loaded_objects(&buffer, buffer.count)
        for path in buffer[..<used].split(separator: 0) {
            mapped.insert(String(decoding: path.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var covered = rules.filter { $0.1 == execute }.map { $0.0 + "/" }
        if let runtime = swiftRuntimeFolder(mapped: mapped) {
            rules.append((runtime, execute))
            covered.append(runtime + "/")
        }
        for path in mapped.sorted() where !path.hasSuffix(" (deleted)") && !covered.contains(where: path.hasPrefix) {
            rules.append((path, execute))
        }
        return rules
    }

    /// The toolchain's runtime folder (`…/usr/lib/swift`) that Swift plugins load `libswiftCore.so` from:
    /// where the mapped one lives when this worker links the runtime dynamically; otherwise (the installed,
    /// statically linked `skillhost`) the toolchain of the `swift` on PATH, then the usual install places. Never
    /// taken from the plugin file (its RUNPATH is the plugin author's to choose).
    static func swiftRuntimeFolder(mapped: Set<String>) -> String? {
        if let core = mapped.first(where: { $0.hasSuffix("/libswiftCore.so") }) {
            return Posix.directoryName(of: Posix.directoryName(of: core))
        }
        var candidates: [String] = []
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for folder in path.split(separator: ":") {
            let swift = String(folder) + "/swift"
            guard Posix.exists(swift), let real = Posix.resolvedPath(swift) else { continue }
            // <toolchain>/usr/bin/swift → <toolchain>/usr/lib/swift
            let bin = Posix.directoryName(of: real)
            candidates.append(Posix.directoryName(of: bin) + "/lib/swift")
        }
        candidates += ["/opt/swift/usr/lib/swift", "/usr/lib/swift", "/usr/local/lib/swift"]
        return candidates.first { Posix.exists($0 + "/linux/libswiftCore.so") }
    }
}
