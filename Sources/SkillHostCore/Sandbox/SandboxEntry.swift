import CSandbox
#if canImport(Glibc)
import Glibc
#endif

/// Entering the sandbox, for a process about to load plugin code (a worker, the scanner): the namespaces
/// first where the policy wants them and the kernel lets (``SandboxPolicy/namespaces``; the caller's process
/// then stays outside as the supervisor and only the sandboxed child returns), then a session of its own,
/// no capabilities, Landlock and seccomp. Run while the process has one thread.
enum SandboxEntry {
    /// Why the process must not load plugin code.
    struct Failure: Error {
        var message: String
    }

    /// What was entered.
    struct Entered {
        /// The SKH_NS_* bits of the namespaces the process is in (0: none).
        var namespaces: Int32
    }

    /// Enters `policy`, granting execution of `executables` (the plugin files) besides the system's
    /// libraries and the runtime. `processLimit`: with `processes`, the most processes in the PID namespace.
    static func enter(_ policy: SandboxPolicy, executables: [String], processLimit: Int? = nil) -> Result<Entered, Failure> {
        var namespaces: Int32 = 0
        var error = [CChar](repeating: 0, count: 512)
        func reason() -> String { String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        // Entered at start (a constructor, or a spare right after its fork) when the command line said so;
        // otherwise now. Refused by the kernel (0): the second layer holds alone.
        switch skh_early_namespaces(&error, error.count) {
        case -2:
            if policy.namespaces {
                namespaces = skh_namespaces_enter(0, processLimit ?? 0, &error, error.count)
                if namespaces < 0 { return .failure(Failure(message: "cannot enter the sandbox's namespaces (\(reason()))")) }
            }
        case -1:
            return .failure(Failure(message: "cannot enter the sandbox's namespaces (\(reason()))"))
        case 0:
            namespaces = 0
        case let entered:
            guard policy.namespaces else {
                return .failure(Failure(message: "this worker is in namespaces its sandbox does not want (a spare adopted for the wrong plugin); this is a bug in skillhost"))
            }
            namespaces = entered
        }
        var paths: [(String, Int32)] = systemRules()
        for file in executables { paths.append((file, Int32(SKH_ACCESS_EXECUTE.rawValue))) }
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
        let useLandlock: Int32 = policy.mode == .required || KernelSandbox.landlockABI > 0 ? 1 : 0
        var status: Int32 = -1
        rules.withUnsafeMutableBufferPointer { ruleBuffer in
            ports.withUnsafeMutableBufferPointer { portBuffer in
                var spec = skh_sandbox_spec(
                    rules: ruleBuffer.baseAddress, rule_count: ruleBuffer.count, network: network,
                    ports: portBuffer.baseAddress, port_count: portBuffer.count, processes: policy.processes ? 1 : 0, exec_descriptor: 0)
                status = skh_sandbox_enter(&spec, useLandlock, &error, error.count)
                if status != 0, policy.mode == .bestEffort, useLandlock == 1 {
                    // Best effort: without Landlock, still seccomp, no capabilities and no_new_privs.
                    status = skh_sandbox_enter(&spec, 0, &error, error.count)
                }
            }
        }
        guard status == 0 else { return .failure(Failure(message: "cannot enter the sandbox (\(reason()))")) }
        return .success(Entered(namespaces: namespaces))
    }

    /// What every sandboxed process may read: the system's libraries and data, the Swift runtime wherever it
    /// is installed (the executable and every loaded library, and the toolchain folder of libswiftCore.so),
    /// /proc, the CPU list in /sys, and harmless devices.
    static func systemRules() -> [(String, Int32)] {
        let execute = Int32(SKH_ACCESS_EXECUTE.rawValue), read = Int32(SKH_ACCESS_READ.rawValue)
        var rules: [(String, Int32)] = [
            ("/usr/lib", execute), ("/usr/lib64", execute), ("/usr/local/lib", execute), ("/lib", execute),
            ("/lib64", execute), ("/usr/share", read), ("/etc/ld.so.cache", read), ("/etc/localtime", read),
            ("/etc/timezone", read),
            // The Swift runtime's dispatch reads /proc/<tid>/stat of its threads (and crashes without it), so
            // /proc is readable: in a PID namespace it is a /proc of the namespace's own; without one, other
            // processes' private entries (environ, mem, maps, fd) stay closed because the process holds no
            // capability and Landlock denies ptrace-mode access outside its domain.
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
    /// where the mapped one lives when this process links the runtime dynamically; otherwise (the installed,
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
