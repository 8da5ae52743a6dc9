import Foundation
import SkillJSON

#if canImport(Glibc)
import Glibc
#endif

/// The world the attacker's suite (issue #34) runs `skillhost` in, as root or as an unprivileged user: a
/// home with a private key, another plugin's data, a file in /tmp, a listener of every kind of socket, a
/// victim process of the same user, and secrets in the host's environment. After an attack the suite asks the
/// world what changed: the victim's scheduling, limits and signals, files planted, datagrams received.
public final class AttackWorld: @unchecked Sendable {
    /// Who runs `skillhost`.
    public enum Identity: String, Sendable, CaseIterable {
        /// The test's own user (root in CI).
        case root
        /// A throw-away unprivileged user the suite creates when it runs as root (`skhattack`).
        case user

    }

    /// The unprivileged user's name.
    public static let userName = "skhattack"
    /// Whether this run can act as `identity` (root needs euid 0; the user needs root to switch to it).
    public static func available(_ identity: Identity) -> Bool { geteuid() == 0 }

    public let identity: Identity
    /// The folder everything lives in (owned by the identity).
    public let root: String
    /// A secret of the host's environment (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GITHUB_TOKEN`).
    public let secret = "sk-attack-" + UUID().uuidString
    /// The victim's pid (a process of the identity that logs SIGURG and SIGUSR1 to ``signalLog``).
    public private(set) var victim: pid_t = 0
    public var home: String { root + "/home" }
    public var plugins: String { root + "/plugins" }
    public var signalLog: String { root + "/victim-signals" }
    public let tmpFile: String
    public let tcpPort: Int
    public let udpPort: Int
    public let unixPath: String
    public let abstractName = "skillhost-attack-\(UUID().uuidString.prefix(8))"
    private var descriptors: [Int32] = []
    private var victimProcess: Process?
    /// The owner's uid and gid (the identity's).
    public private(set) var uid: uid_t = getuid()
    public private(set) var gid: gid_t = getgid()

    public init(_ identity: Identity) throws {
        self.identity = identity
        let root = TestPackage.temporaryDirectory("skillhost-attack")
        self.root = root
        tmpFile = "/tmp/skillhost-attack-\(UUID().uuidString.prefix(8))"
        unixPath = root + "/listening.sock"
        (descriptors, tcpPort, udpPort) = try Self.listeners()
        if identity == .user { (uid, gid) = try Self.ensureUser() }
        for folder in [home + "/.ssh", plugins, root + "/data/other", root + "/config", root + "/cache", root + "/state"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try TestPackage.write("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n", to: home + "/.ssh/id_ed25519")
        try TestPackage.write("another plugin's secret\n", to: root + "/data/other/secret.txt")
        try TestPackage.write("a file in /tmp\n", to: tmpFile)
        chmod(tmpFile, 0o644)
        descriptors.append(try Self.unixListener(path: unixPath, abstract: false))
        descriptors.append(try Self.unixListener(path: abstractName, abstract: true))
        chmod(unixPath, 0o777)
        try own(root)
        chmod(root, 0o700)
        try startVictim()
    }

    deinit {
        victimProcess?.terminate()
        if victim > 0 { kill(victim, SIGKILL) }
        descriptors.forEach { close($0) }
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.removeItem(atPath: tmpFile)
    }

    /// Creates the unprivileged user once per machine (useradd, no home, no login).
    static func ensureUser() throws -> (uid_t, gid_t) {
        if getpwnam(userName) == nil {
            let made = try TestProcess.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", userName])
            guard made.status == 0 || getpwnam(userName) != nil else {
                throw TestSetupError("useradd \(userName) failed: \(made.stderr)")
            }
        }
        guard let entry = getpwnam(userName) else { throw TestSetupError("no user \(userName)") }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Gives `path` and everything below it to the identity.
    public func own(_ path: String) throws {
        guard identity == .user else { return }
        let result = try TestProcess.run("/bin/chown", ["-R", "\(uid):\(gid)", path])
        guard result.status == 0 else { throw TestSetupError("chown \(path): \(result.stderr)") }
    }

    /// The command line that runs `arguments` as the identity, with exactly `environment`.
    public func commandLine(_ arguments: [String], environment: [String: String]) -> (String, [String]) {
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        switch identity {
        case .root:
            return ("/usr/bin/env", ["-i"] + variables + arguments)
        case .user:
            return ("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", "/usr/bin/env", "-i"] + variables + arguments)
        }
    }

    /// The host's environment for `skillhost`: its folders, and the secrets a host keeps for itself.
    public func hostEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment: [String: String] = [
            "HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
            "SKILLHOST_PLUGINS": plugins, "SKILLHOST_REGISTRY": root + "/config/skill_registry.json",
            "SKILLHOST_CACHE": root + "/cache", "SKILLHOST_STATE": root + "/state", "XDG_DATA_HOME": root + "/data",
            "SKILLHOST_SKILLS": root + "/skills",
            "OPENAI_API_KEY": secret, "ANTHROPIC_API_KEY": secret, "GITHUB_TOKEN": secret,
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs `skillhost arguments` (the built binary, or `binary`) as the identity in this world.
    public func skillhost(
        _ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil, binary: String? = nil
    ) throws -> ProcessResult {
        let (executable, words) = commandLine([try binary ?? TestPackage.skillhostBinary()] + arguments, environment: hostEnvironment(extra))
        return try TestProcess.run(executable, words, stdin: stdin)
    }

    /// Installs a plugin file as `name` in the plugins folder (mode 0755, the identity's).
    public func install(_ file: String, as name: String) throws {
        let target = plugins + "/" + name
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: file, toPath: target)
        chmod(target, 0o755)
        try own(target)
    }

    /// Writes the registry.
    public func registry(_ text: String) throws {
        try TestPackage.write(text, to: root + "/config/skill_registry.json")
        try own(root + "/config")
    }

    /// What the attacker is told about the world (`attack.all`'s arguments).
    public var worldArguments: JSONValue {
        [
            "home": .string(home), "other_data": .string(root + "/data/other/secret.txt"), "tmp_file": .string(tmpFile),
            "port": .int(Int64(tcpPort)), "udp_port": .int(Int64(udpPort)), "unix_path": .string(unixPath),
            "abstract_name": .string(abstractName), "secret": .string(String(secret.reversed())),
            "victim": .int(Int64(victim)), "targets": [.int(Int64(getpid())), .int(Int64(victim))],
        ]
    }

    // MARK: - What the attack changed

    /// What the victim looks like from outside: nice value, scheduling policy, open-file limit, CPUs, I/O
    /// priority, whether it lives, and the signals it logged.
    public struct VictimState: Equatable, CustomStringConvertible {
        public var alive: Bool
        public var nice: Int
        public var policy: Int
        public var openFiles: String
        public var cpus: String
        public var ioPriority: String
        public var signals: String
        public var description: String {
            "alive \(alive), nice \(nice), policy \(policy), open files \(openFiles), CPUs \(cpus), I/O priority \(ioPriority), signals [\(signals)]"
        }
    }

    /// The victim as it is now.
    public func victimState() -> VictimState {
        let stat = (try? String(contentsOfFile: "/proc/\(victim)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last.map { $0.split(separator: " ").map(String.init) } ?? []
        // After ")": field 3 is fields[0]; nice is field 19, policy field 41.
        let nice = fields.count > 16 ? Int(fields[16]) ?? 0 : 0
        let policy = fields.count > 38 ? Int(fields[38]) ?? 0 : 0
        let limits = (try? String(contentsOfFile: "/proc/\(victim)/limits", encoding: .utf8)) ?? ""
        let openFiles = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2).joined(separator: " ") } ?? "?"
        let status = (try? String(contentsOfFile: "/proc/\(victim)/status", encoding: .utf8)) ?? ""
        let cpus = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
            .map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) } ?? "?"
        let ioPriority = ((try? TestProcess.run("/usr/bin/ionice", ["-p", String(victim)]))?.stdout ?? "?")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let signals = ((try? String(contentsOfFile: signalLog, encoding: .utf8)) ?? "")
            .split(separator: "\n").joined(separator: ",")
        let alive = kill(victim, 0) == 0 && !stat.contains(") Z")
        return VictimState(alive: alive, nice: nice, policy: policy, openFiles: openFiles, cpus: cpus, ioPriority: ioPriority, signals: signals)
    }

    /// Files an attempt may have planted outside the sandbox.
    public func plantedFiles() -> [String] {
        var found: [String] = []
        for (folder, prefix) in [(home, "planted-"), (home, "moved-"), ("/tmp", "skh-attack-"), ("/dev/shm", "skh-attack-")] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
                found.append(folder + "/" + name)
            }
        }
        if !FileManager.default.fileExists(atPath: home + "/.ssh/id_ed25519") { found.append("the key was moved away") }
        return found
    }

    /// Datagrams the UDP socket received since the last look.
    public func datagramsReceived() -> Int {
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 64)
        while recv(descriptors[1], &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 { count += 1 }
        return count
    }

    // MARK: - Set-up

    private func startVictim() throws {
        let ready = root + "/victim.pid"
        let script = """
            import os, signal, sys, time
            log, ready = sys.argv[1], sys.argv[2]
            def note(number, frame):
                with open(log, "a") as f: f.write(f"{number}\\n")
            for s in (signal.SIGURG, signal.SIGUSR1, signal.SIGUSR2): signal.signal(s, note)
            with open(ready + ".tmp", "w") as f: f.write(str(os.getpid()))
            os.rename(ready + ".tmp", ready)
            while True: time.sleep(1)
            """
        try TestPackage.write(script, to: root + "/victim.py")
        try own(root + "/victim.py")
        let (executable, words) = commandLine(
            ["/usr/bin/python3", root + "/victim.py", signalLog, ready],
            environment: ["PATH": "/usr/bin:/bin", "VICTIM_SECRET": secret])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = words
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        victimProcess = process
        for _ in 0..<500 {
            if let text = try? String(contentsOfFile: ready, encoding: .utf8), let pid = pid_t(text) {
                victim = pid
                return
            }
            usleep(10_000)
        }
        throw TestSetupError("the victim process did not start")
    }

    private static func listeners() throws -> ([Int32], Int, Int) {
        func bound(_ type: Int32) throws -> (Int32, Int) {
            let fd = socket(AF_INET, type, 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
                }
            }
            guard fd >= 0, ok else { throw TestSetupError("cannot bind a socket on 127.0.0.1") }
            return (fd, Int(UInt16(bigEndian: address.sin_port)))
        }
        let (tcp, tcpPort) = try bound(Int32(SOCK_STREAM.rawValue))
        guard listen(tcp, 16) == 0 else { throw TestSetupError("listen failed") }
        let (udp, udpPort) = try bound(Int32(SOCK_DGRAM.rawValue))
        return ([tcp, udp], tcpPort, udpPort)
    }

    private static func unixListener(path: String, abstract: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let offset = abstract ? 1 : 0
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() where index + offset < raw.count { raw[index + offset] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
        }
        guard fd >= 0, ok, listen(fd, 16) == 0 else { throw TestSetupError("cannot listen on UNIX socket \(path)") }
        return fd
    }
}

/// The attacker's plugins (Tests/Fixtures/Attack): the C one compiled by `cc`, the Swift one built by SwiftPM.
public enum AttackPlugins {
    /// Which plugin.
    public enum Kind: String, Sendable, CaseIterable {
        case c
        case swift
        /// The plugin id (and the prefix of its skill ids).
        public var pluginID: String { self == .c ? "attack" : "swiftattack" }
    }

    /// The plugin file; `defines` are extra `-D` words for the C one (e.g. `ATTACK_CTOR_DIR`).
    public static func library(_ kind: Kind, defines: [String] = []) throws -> String {
        switch kind {
        case .c:
            let folder = TestPackage.root + "/Tests/Fixtures/Attack/"
            return try CFixtureCompiler.sharedLibrary(
                [folder + "attack_plugin.c", folder + "attack_attempts.c"], flags: ["-O1"] + defines.map { "-D" + $0 },
                name: "libattack.so")
        case .swift:
            let path = TestPackage.buildDirectory + "/libAttackSkill.so"
            guard FileManager.default.fileExists(atPath: path) else {
                throw TestSetupError("missing \(path): run 'swift build' (scripts/test.sh does) before the tests")
            }
            return path
        }
    }
}
