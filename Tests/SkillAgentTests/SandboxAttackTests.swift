import Foundation
import SkillHostCore
import SkillJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The attacker's suite (issue #34): a hostile plugin (Tests/Fixtures/Attack, in C and in Swift) tries every
/// way out of its sandbox it knows — files, links, /proc, ptrace, signals, sockets of every family, the
/// terminal, inherited descriptors, namespaces, io_uring, bpf, keyrings, memfd exec, other processes'
/// scheduling and limits, the environment, resources — through `skillhost call`, `chat` and `mcp`, as root
/// and as an unprivileged user. Every attempt must fail, and what it aimed at (a victim process, files, a UDP
/// socket) must be unchanged; with the sandbox off the same attempts get through.
@Suite("The attacker's suite", .serialized, .enabled(if: KernelSandbox.landlockABI >= 6 && AttackWorld.available(.user), "needs Landlock ABI 6 and root (to act as a second user)"))
struct SandboxAttackTests {
    /// The front end the attack goes through.
    enum FrontEnd: String, CaseIterable, Sendable {
        case call, chat, mcp
    }

    /// The classes of the threat model every run must cover (issue #34's list).
    static let classes: Set<String> = [
        "files", "links", "proc", "ptrace", "signals", "sockets", "terminal", "descriptors", "namespaces", "kernel",
        "processes", "privileges", "other processes", "environment",
    ]

    /// Runs `<plugin>.<skill>` with `arguments` through `frontEnd` in `world`; the skill's result.
    static func attack(
        _ world: AttackWorld, _ plugin: AttackPlugins.Kind, via frontEnd: FrontEnd, skill: String = "all",
        arguments: JSONValue, environment: [String: String] = [:], binary: String? = nil
    ) throws -> JSONValue {
        let id = "\(plugin.pluginID).\(skill)"
        switch frontEnd {
        case .call:
            let run = try world.skillhost(["call", id, arguments.serialized()], environment: environment, binary: binary)
            guard run.status == 0 else { throw TestFailure("call \(id) exited \(run.status): \(run.stderr)") }
            return try JSONValue(parsing: run.stdout)
        case .chat:
            return try viaChat(world, toolName: "\(plugin.pluginID)_\(skill)", shownAs: id, arguments: arguments, environment: environment, binary: binary)
        case .mcp:
            return try viaMCP(world, toolName: id, arguments: arguments, environment: environment, binary: binary)
        }
    }

    /// One call of `toolName` with `arguments` made by `skillhost chat --yes` against a scripted model (the call,
    /// then "done"); the result of the call whose card shows `shownAs`.
    static func viaChat(
        _ world: AttackWorld, toolName: String, shownAs: String, arguments: JSONValue, environment: [String: String] = [:], binary: String? = nil
    ) throws -> JSONValue {
        let call = #"{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"\#(toolName)","arguments":\#(JSONValue.string(arguments.serialized()).serialized())}}]}}]}"#
        let answer = #"{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"done"}}]}"#
        let server = try ReplayServer([
            .init(status: 200, headers: ["Content-Type": "application/json"], body: Array(call.utf8), pieceSize: 0),
            .init(status: 200, headers: ["Content-Type": "application/json"], body: Array(answer.utf8), pieceSize: 0),
        ], lifetime: 120)
        defer { server.stop() }
        let run = try world.skillhost(
            ["chat", "--json", "--yes", "--provider", "openai", "--base-url", server.baseURL, "--model", "m", "attack"],
            environment: environment, binary: binary)
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        guard let result = events.first(where: { $0["event"] == "skillSucceeded" && $0["skill"]?.stringValue == shownAs })?["result"] else {
            throw TestFailure("chat did not run \(shownAs) (exit \(run.status)): \(run.stderr)\n\(run.stdout.prefix(2000))")
        }
        return result
    }

    /// One `tools/call` of `toolName` with `arguments` through `skillhost mcp` (plus `options`) on stdio; the
    /// call's structured result.
    static func viaMCP(
        _ world: AttackWorld, toolName: String, arguments: JSONValue, options: [String] = [], environment: [String: String] = [:],
        binary: String? = nil
    ) throws -> JSONValue {
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"attack-suite","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"\#(toolName)","arguments":\#(arguments.serialized())}}"#,
        ]
        let run = try world.skillhost(["mcp"] + options, environment: environment, stdin: requests.joined(separator: "\n") + "\n", binary: binary)
        let replies = run.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        guard let reply = replies.first(where: { $0["id"] == 2 }), let structured = reply["result"]?["structuredContent"] else {
            throw TestFailure("mcp did not answer the call (exit \(run.status)): \(run.stderr)\n\(run.stdout.prefix(2000))")
        }
        return structured
    }

    /// The attempts of `result` that got through, by name.
    static func escaped(_ result: JSONValue) -> [String: String] {
        var found: [String: String] = [:]
        for entry in result["results"]?.arrayValue ?? [] where entry["escaped"] == true {
            found[entry["attempt"]?.stringValue ?? "?"] = entry["detail"]?.stringValue ?? ""
        }
        return found
    }

    /// A world as `identity` with `plugin` installed.
    static func world(_ identity: AttackWorld.Identity, _ plugin: AttackPlugins.Kind) throws -> AttackWorld {
        let world = try AttackWorld(identity)
        try world.install(try AttackPlugins.library(plugin), as: "\(plugin.pluginID).so")
        return world
    }

    @Test("every attempt fails, and nothing it aimed at changed", arguments: AttackWorld.Identity.allCases, AttackPlugins.Kind.allCases)
    func everyAttemptFails(_ identity: AttackWorld.Identity, _ plugin: AttackPlugins.Kind) throws {
        for frontEnd in FrontEnd.allCases {
            let world = try Self.world(identity, plugin)
            let before = world.victimState()
            let result = try Self.attack(world, plugin, via: frontEnd, arguments: world.worldArguments)
            let attempts = result["results"]?.arrayValue ?? []
            #expect(attempts.count >= 30, "\(frontEnd): only \(attempts.count) attempts")
            let covered = Set(attempts.compactMap { $0["threat"]?.stringValue })
            #expect(Self.classes.isSubset(of: covered), "\(frontEnd): classes not tried: \(Self.classes.subtracting(covered))")
            let tried = attempts.filter { !($0["detail"]?.stringValue ?? "").hasPrefix("not tried") }.count
            #expect(tried == attempts.count, "\(frontEnd): some attempts were not tried: \(result)")
            #expect(Self.escaped(result).isEmpty, "\(identity) \(plugin) via \(frontEnd): got through: \(Self.escaped(result))")
            usleep(100_000)  // a signal that got through would be logged by now
            #expect(world.victimState() == before, "\(frontEnd): the victim changed")
            #expect(world.plantedFiles().isEmpty, "\(frontEnd): planted \(world.plantedFiles())")
            #expect(world.datagramsReceived() == 0, "\(frontEnd): a datagram got out")
        }
    }

    @Test("without namespaces (refused by the kernel, or SKILLHOST_SANDBOX_NAMESPACES=off) Landlock and seccomp hold alone", arguments: AttackWorld.Identity.allCases)
    func secondLayerAlone(_ identity: AttackWorld.Identity) throws {
        let world = try Self.world(identity, .c)
        let before = world.victimState()
        let result = try Self.attack(
            world, .c, via: .call, arguments: world.worldArguments, environment: [KernelSandbox.namespacesVariable: "off"])
        // What only the PID namespace hides: that other processes exist, their command lines, the descriptor
        // numbers of processes of the same user (docs/isolation.md, threat model).
        let documented: Set<String> = ["proc_cmdline", "proc_fd", "proc_others"]
        let escaped = Self.escaped(result)
        #expect(Set(escaped.keys).isSubset(of: documented), "\(identity): got through: \(escaped)")
        #expect(escaped["proc_others"] != nil, "without a PID namespace the other processes are visible: is the layer really off?")
        #expect(world.victimState() == before)
        #expect(world.plantedFiles().isEmpty)
        #expect(world.datagramsReceived() == 0)
    }

    @Test("without skillhost-sandbox beside skillhost, a worker makes its namespaces itself: the same attempts fail")
    func namespacesWithoutTheHelper() throws {
        let world = try Self.world(.user, .c)
        // A copy of skillhost in a folder of its own, without the program that usually makes the namespaces.
        let folder = world.root + "/bin"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try TestPackage.skillhostBinary(), toPath: folder + "/skillhost")
        try world.own(folder)
        chmod(folder, 0o755)
        // `call` adopts a spare it forked (which makes them right after the fork); `mcp` spawns its worker (which
        // makes them in a constructor, before main).
        for frontEnd in [FrontEnd.call, .mcp] {
            let result = try Self.attack(world, .c, via: frontEnd, arguments: world.worldArguments, binary: folder + "/skillhost")
            #expect(Self.escaped(result).isEmpty, "\(frontEnd): got through: \(Self.escaped(result))")
            // proc_others fails only inside a PID namespace with a /proc of its own: the layer is there.
            let proc = result["results"]?.arrayValue?.first { $0["attempt"] == "proc_others" }
            #expect(proc?["escaped"] == false && proc?["errno"] == .int(Int64(ENOENT)), "\(frontEnd): \(proc ?? .null)")
        }
    }

    @Test("with the sandbox off the same attempts get through (the suite can fail)", arguments: AttackWorld.Identity.allCases)
    func sandboxOffLetsThemThrough(_ identity: AttackWorld.Identity) throws {
        let world = try Self.world(identity, .c)
        try world.registry(#"{"version": 1, "plugins": {"attack": {"sandbox": "off"}}}"#)
        let before = world.victimState()
        let escaped = Self.escaped(try Self.attack(world, .c, via: .call, arguments: world.worldArguments))
        for attempt in [
            "read_home_ssh", "write_home", "read_other_data", "read_tmp", "write_tmp", "write_dev_shm", "symlink_out",
            "rename_out", "proc_environ", "proc_others", "tcp_connect", "udp_send", "unix_pathname", "unix_abstract",
            "netlink_route", "start_process", "renice_victim", "limit_victim", "idle_victim", "ioprio_victim", "signal_victim",
        ] {
            #expect(escaped[attempt] != nil, "\(identity): \(attempt) was refused with the sandbox off")
        }
        // What no worker ever gets, sandbox or not: the host's environment and its terminal.
        for attempt in ["environment_secret", "self_environ", "memory_secret", "tiocsti", "controlling_terminal"] {
            #expect(escaped[attempt] == nil, "\(identity): \(attempt) got through with the sandbox off: \(escaped[attempt] ?? "")")
        }
        #expect(world.victimState() != before)
        #expect(world.datagramsReceived() > 0)
    }

    @Test("resources: a fork bomb, a disk fill and a memory hog stop at the limits", arguments: AttackWorld.Identity.allCases)
    func resourcesStopAtTheLimits(_ identity: AttackWorld.Identity) throws {
        let world = try Self.world(identity, .c)
        try world.registry(#"""
            {"version": 1, "plugins": {"attack": {"grants": ["processes"],
             "limits": {"processes": 16, "file_size_mb": 4, "address_space_mb": 1024}}}}
            """#)
        // Root is exempt from RLIMIT_NPROC: its bound is the PID namespace's pid_max (301 at least).
        let processBound = identity == .root ? 301 : 16
        let bombs = try Self.attack(world, .c, via: .call, skill: "run", arguments: ["attempt": "fork_bomb", "bound": .int(Int64(processBound))])
        #expect(bombs["escaped"] == false, "\(bombs)")
        #expect(bombs["errno"] == .int(Int64(EAGAIN)), "\(bombs)")
        let fill = try Self.attack(world, .c, via: .call, skill: "run", arguments: ["attempt": "disk_fill", "bound": .int(4 << 20)])
        #expect(fill["escaped"] == false, "\(fill)")
        #expect(fill["errno"] == .int(Int64(EFBIG)), "\(fill)")
        let memory = try Self.attack(world, .c, via: .call, skill: "run", arguments: ["attempt": "memory_fill", "bound": .int(1 << 30)])
        #expect(memory["escaped"] == false, "\(memory)")
        // The host is fine: another call works at once.
        let list = try world.skillhost(["call", "attack.list"])
        #expect(list.status == 0, "\(list.stderr)")
    }

    @Test("a constructor never runs outside a sandbox: list, validate, pack, install (package and file), inspect, rescan, mcp", arguments: AttackWorld.Identity.allCases)
    func constructorsStayInside(_ identity: AttackWorld.Identity) throws {
        let world = try AttackWorld(identity)
        // A folder anyone may write: without a sandbox the constructor would leave a file here.
        let marks = TestPackage.temporaryDirectory("skillhost-ctor")
        chmod(marks, 0o1777)
        defer { try? FileManager.default.removeItem(atPath: marks) }
        let plugin = try AttackPlugins.library(.c, defines: ["ATTACK_CTOR_DIR=\"\(marks)\""])
        let outside = world.root + "/downloads/attack.so"
        try FileManager.default.createDirectory(atPath: world.root + "/downloads", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: plugin, toPath: outside)
        try world.own(world.root + "/downloads")
        func marksLeft() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: marks)) ?? [] }
        for (what, arguments) in [
            ("validate", ["validate", outside]),
            ("pack", ["pack", outside, "--unsigned", "--output", world.root + "/downloads/attack.skillpkg"]),
            ("install a package", ["install", world.root + "/downloads/attack.skillpkg", "--allow-unsigned"]),
            ("install a file", ["install", outside]), ("list", ["list"]),
            ("inspect", ["inspect", "attack"]), ("rescan", ["rescan"]),
        ] {
            let run = try world.skillhost(arguments)
            #expect(run.status == 0, "\(what): \(run.stderr)")
            #expect(marksLeft().isEmpty, "\(what) ran the constructor outside a sandbox: \(marksLeft())")
        }
        // The registry's "sandbox": "off" is about calls; scanning stays sandboxed.
        try world.registry(#"{"version": 1, "plugins": {"attack": {"sandbox": "off"}}}"#)
        _ = try world.skillhost(["rescan"])
        let served = try world.skillhost(["mcp"], stdin: """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}
            {"jsonrpc":"2.0","id":2,"method":"tools/list"}

            """)
        #expect(served.stdout.contains("attack.all"), "\(served.stderr)")
        #expect(marksLeft().isEmpty, "the scanner ran the constructor outside a sandbox: \(marksLeft())")
    }

    @Test("a worker cannot push keystrokes into the user's terminal (TIOCSTI)", arguments: AttackWorld.Identity.allCases)
    func noTerminalInjection(_ identity: AttackWorld.Identity) throws {
        let world = try Self.world(identity, .c)
        let marker = "skh-injected-\(UUID().uuidString.prefix(8))"
        // Runs `skillhost call` on a pseudo-terminal (its stdin, stdout and stderr, and controlling terminal) and
        // prints everything the terminal showed; an injected line is echoed by the terminal when pushed.
        let script = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            out = b""
            while True:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            os.waitpid(pid, 0)
            sys.stdout.write(out.decode("utf-8", "replace"))
            """
        try TestPackage.write(script, to: world.root + "/on_terminal.py")
        try world.own(world.root + "/on_terminal.py")
        let arguments: JSONValue = ["attempt": "tiocsti", "inject": .string("echo \(marker)\n")]
        let (executable, words) = world.commandLine(
            ["/usr/bin/python3", world.root + "/on_terminal.py", try TestPackage.skillhostBinary(), "call", "attack.run", arguments.serialized()],
            environment: world.hostEnvironment())
        let run = try TestProcess.run(executable, words)
        #expect(run.stdout.contains("\"escaped\": false") || run.stdout.contains("\"escaped\":false"), "\(run.stdout)")
        // Nothing prints the marker but the terminal echoing injected input.
        #expect(!run.stdout.contains(marker), "the terminal received the injected line: \(run.stdout)")
    }

    @Test("in a real terminal (tmux), nothing a worker pushes is run by the user's shell after skillhost exits",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "needs tmux (scripts/ensure-deps.sh installs it)"))
    func nothingRunsInTheUsersShell() throws {
        let world = try Self.world(.root, .c)
        let marker = "/tmp/skh-typed-\(UUID().uuidString.prefix(8))"
        defer { unlink(marker) }
        let arguments: JSONValue = ["attempt": "tiocsti", "inject": .string("touch \(marker)\n")]
        let exports = world.hostEnvironment().sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'" }
        try TestPackage.write(
            (exports + ["'\(try TestPackage.skillhostBinary())' call attack.run '\(arguments.serialized())'", "echo call-ended"]).joined(separator: "\n") + "\n",
            to: world.root + "/call.sh")
        // tmux's server outlives the command that starts it: started through Foundation's Process it would keep
        // the socket Process watches for the child's end, and the wait would never return. So: posix_spawn.
        let server = "skh-\(UUID().uuidString.prefix(8))"
        let screenFile = world.root + "/screen.txt"
        func tmux(_ arguments: [String]) -> Int32 {
            TestProcess.runLeavingDaemons(["/usr/bin/tmux", "-L", server] + arguments)
        }
        func screenNow() -> String {
            _ = TestProcess.runLeavingDaemons(["/bin/sh", "-c", "/usr/bin/tmux -L \(server) capture-pane -p -t main > \(screenFile)"])
            return (try? String(contentsOfFile: screenFile, encoding: .utf8)) ?? ""
        }
        #expect(tmux(["new-session", "-d", "-s", "main", "-x", "200", "-y", "50", "bash --norc --noprofile"]) == 0)
        defer { _ = tmux(["kill-server"]) }
        _ = tmux(["send-keys", "-t", "main", "sh \(world.root)/call.sh", "Enter"])
        var screen = ""
        for _ in 0..<300 where !screen.contains("call-ended") {
            usleep(20_000)
            screen = screenNow()
        }
        #expect(screen.contains("call-ended"), "the call did not finish: \(screen)")
        // Give the shell time to read and run whatever was pushed into its input.
        usleep(700_000)
        screen = screenNow()
        #expect(screen.contains("\"escaped\": false"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the user's shell ran a command the plugin typed: \(screen)")
    }

    @Test("what a plugin writes to stderr never reaches the terminal raw; --verbose shows it sanitized and attributed")
    func stderrIsSanitized() throws {
        let world = try Self.world(.root, .c)
        let quiet = try world.skillhost(["call", "attack.noise", #"{"lines": 3}"#])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("attack noise"), "\(quiet.stderr)")
        let verbose = try world.skillhost(["--verbose", "call", "attack.noise", #"{"lines": 3}"#])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        let lines = verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("[attack] ") }
        #expect(lines.count == 3, "\(verbose.stderr)")
        #expect(lines.first?.hasPrefix("[attack] attack noise 0 xxx") == true, "\(verbose.stderr)")
        #expect(lines.first?.hasSuffix(TerminalText.cutMark) == true, "a 1200-character line is cut: \(lines.first ?? "")")
        for byte in verbose.stderr.utf8 where byte < 0x20 && byte != 0x0A {
            Issue.record("a control byte \(byte) reached the terminal")
        }
        #expect(!verbose.stderr.contains("pwned-title"), "an escape sequence's text reached the terminal")
    }

    @Test("inspect names the layers that hold on this machine: namespaces first, or why not", arguments: AttackWorld.Identity.allCases)
    func inspectNamesTheLayers(_ identity: AttackWorld.Identity) throws {
        let world = try Self.world(identity, .c)
        let both = try world.skillhost(["inspect", "attack"])
        #expect(both.stdout.contains("layers:      namespaces (user, PID, mount, IPC; a /proc of its own), Landlock ABI"), "\(both.stdout)")
        let json = try JSONValue(parsing: try world.skillhost(["inspect", "attack", "--json"]).stdout)
        #expect(json["sandbox"]?["layers"]?["namespaces"] == true && json["sandbox"]?["layers"]?["private_proc"] == true, "\(json)")
        let second = try world.skillhost(["inspect", "attack"], environment: [KernelSandbox.namespacesVariable: "off"])
        #expect(second.stdout.contains("layers:      no namespaces (turned off by SKILLHOST_SANDBOX_NAMESPACES=off), Landlock ABI"), "\(second.stdout)")
        try world.registry(#"{"version": 1, "plugins": {"attack": {"sandbox": "off"}}}"#)
        #expect(try world.skillhost(["inspect", "attack"]).stdout.contains("layers:      none: sandbox off in the registry"))
    }

    @Test("a host variable reaches a plugin only once the user granted it")
    func grantedVariable() throws {
        let world = try Self.world(.root, .c)
        let attempt: JSONValue = ["attempt": "environment_secret"]
        #expect(try Self.attack(world, .c, via: .call, skill: "run", arguments: attempt)["escaped"] == false)
        let grant = try world.skillhost(["grant", "attack", "env:GITHUB_TOKEN"])
        #expect(grant.status == 0, "\(grant.stderr)")
        let granted = try Self.attack(world, .c, via: .call, skill: "run", arguments: attempt)
        #expect(granted["escaped"] == true && granted["detail"] == "GITHUB_TOKEN is set", "\(granted)")
        let inspect = try world.skillhost(["inspect", "attack"])
        #expect(inspect.stdout.contains("env:GITHUB_TOKEN"), "\(inspect.stdout)")
        #expect(try world.skillhost(["grant", "attack", "env:GITHUB_TOKEN", "--revoke"]).status == 0)
        #expect(try Self.attack(world, .c, via: .call, skill: "run", arguments: attempt)["escaped"] == false)
        let refused = try world.skillhost(["grant", "attack", "env:LD_PRELOAD"])
        #expect(refused.status == 2, "\(refused.stderr)")
    }
}
