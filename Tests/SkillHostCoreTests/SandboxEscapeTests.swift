import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// The escape plugin (`Tests/Fixtures/HostilePlugins/escape.c`) tries each way out of its sandbox; every
/// attempt fails inside the plugin while allowed work and the host go on, and with the matching capability
/// granted exactly that one thing succeeds (issue #10).
@Suite("Sandboxed workers refuse escapes", .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
struct SandboxEscapeTests {
    /// A temporary HOME with a secret, a data folder per plugin, a symlink out of ours, and a TCP listener.
    final class Scene {
        let root = HostTestSupport.temporaryDirectory("skillhost-sandbox")
        var home: String { root + "/home" }
        var data: String { root + "/data/escape" }
        var otherData: String { root + "/data/other" }
        let listener: Int32
        let port: Int

        init() throws {
            for folder in [root + "/home/out", root + "/data/escape", root + "/data/other"] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try "secret\n".write(toFile: root + "/home/secret.txt", atomically: true, encoding: .utf8)
            try "other plugin's\n".write(toFile: root + "/data/other/secret.txt", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: root + "/data/escape/link", withDestinationPath: root + "/home/secret.txt")
            (listener, port) = try Self.openListener()
        }

        deinit {
            close(listener)
            try? FileManager.default.removeItem(atPath: root)
        }

        /// A TCP listener on 127.0.0.1 and an ephemeral port.
        static func openListener() throws -> (Int32, Int) {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && Glibc.listen(descriptor, 8) == 0
                        && getsockname(descriptor, generic, &length) == 0
                }
            }
            guard descriptor >= 0, bound else { throw HostileSetupError("cannot listen on 127.0.0.1") }
            return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
        }

        /// A sandboxed pool for the escape plugin with `capabilities`.
        func executor(_ capabilities: PluginCapabilities = .minimal) throws -> WorkerPoolExecutor {
            var configuration = WorkerPoolConfiguration(
                pluginID: "escape", pluginPath: try HostilePlugins.library("escape"),
                workerExecutable: try HostilePlugins.workerExecutable(), maxWorkers: 1)
            configuration.sandbox = SandboxPolicy.resolve(
                capabilities: capabilities, mode: .required, dataDirectory: data, configuration: [:], home: home)
            return WorkerPoolExecutor(configuration)
        }

        /// Calls `escape.<name>`; the result or the error.
        func call(_ executor: WorkerPoolExecutor, _ name: String, _ arguments: JSONValue = [:]) async -> Result<JSONValue, HostError> {
            let call = SkillCall(
                pluginID: "escape", pluginPath: (try? HostilePlugins.library("escape")) ?? "", skillID: "escape.\(name)",
                arguments: arguments, callID: "sandbox-\(name)", timeout: 10, dataDirectory: data)
            do {
                return .success(try await executor.execute(call))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Expects `name` to be refused with kind `denied`.
    private func expectDenied(
        _ scene: Scene, _ executor: WorkerPoolExecutor, _ name: String, _ arguments: JSONValue = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let outcome = await scene.call(executor, name, arguments)
        guard case .failure(let error) = outcome else {
            Issue.record("escape.\(name) \(arguments.serialized()) was not refused: \(outcome)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.kind == .denied, "\(error.message)", sourceLocation: sourceLocation)
    }

    @Test("every escape fails inside the plugin; its data folder, threads and the host keep working")
    func everyEscapeFails() async throws {
        let scene = try Scene()
        let executor = try scene.executor()
        await expectDenied(scene, executor, "read", ["path": .string(scene.home + "/secret.txt")])
        await expectDenied(scene, executor, "write", ["path": .string(scene.home + "/planted.txt")])
        #expect(!FileManager.default.fileExists(atPath: scene.home + "/planted.txt"))
        await expectDenied(scene, executor, "read", ["path": .string(scene.data + "/link")])
        await expectDenied(scene, executor, "read", ["path": .string(scene.otherData + "/secret.txt")])
        await expectDenied(scene, executor, "connect", ["port": .int(Int64(scene.port))])
        await expectDenied(scene, executor, "signal_parent", ["pid": .int(Int64(getpid()))])
        await expectDenied(scene, executor, "ptrace_parent", ["pid": .int(Int64(getpid()))])
        await expectDenied(scene, executor, "daemon")
        let data = try await executor.execute(SkillCall(
            pluginID: "escape", pluginPath: try HostilePlugins.library("escape"), skillID: "escape.data",
            arguments: [:], callID: "data", timeout: 10, dataDirectory: scene.data))
        #expect(data == ["ok": true, "wrote": 4, "read": "kept"])
        #expect(try await executor.execute(SkillCall(
            pluginID: "escape", pluginPath: try HostilePlugins.library("escape"), skillID: "escape.thread",
            arguments: [:], callID: "thread", timeout: 10, dataDirectory: scene.data)) == ["ok": true])
        await executor.shutdown()
    }

    @Test("a denial names the capability to declare or grant")
    func denialRemedy() async throws {
        let scene = try Scene()
        let executor = try scene.executor()
        let outcome = await scene.call(executor, "connect", ["port": .int(Int64(scene.port))])
        guard case .failure(let error) = outcome else { Issue.record("not refused"); return }
        #expect(error.message.contains("network:tcp:\(scene.port)"), "\(error.message)")
        #expect(error.message.contains("skillhost grant escape"), "\(error.message)")
        await executor.shutdown()
    }

    @Test("reading one home path granted: that read succeeds, writing there and other paths stay refused")
    func homeReadGranted() async throws {
        let scene = try Scene()
        let executor = try scene.executor(.minimal.adding([Capability("home:secret.txt:read")!]))
        #expect(try await scene.call(executor, "read", ["path": .string(scene.home + "/secret.txt")]).get() == ["ok": true, "bytes": 7])
        await expectDenied(scene, executor, "write", ["path": .string(scene.home + "/secret.txt")])
        await expectDenied(scene, executor, "read", ["path": .string(scene.otherData + "/secret.txt")])
        await expectDenied(scene, executor, "connect", ["port": .int(Int64(scene.port))])
        await executor.shutdown()
    }

    @Test("a read-write home folder granted: writing there succeeds, elsewhere in home it does not")
    func homeWriteGranted() async throws {
        let scene = try Scene()
        let executor = try scene.executor(.minimal.adding([Capability("home:out:read-write")!]))
        #expect(try await scene.call(executor, "write", ["path": .string(scene.home + "/out/new.txt")]).get() == ["ok": true, "bytes": 8])
        await expectDenied(scene, executor, "write", ["path": .string(scene.home + "/planted.txt")])
        await expectDenied(scene, executor, "read", ["path": .string(scene.home + "/secret.txt")])
        await executor.shutdown()
    }

    @Test("one TCP port granted: connecting to it succeeds, to another port it does not")
    func portGranted() async throws {
        let scene = try Scene()
        let (second, secondPort) = try Scene.openListener()
        defer { close(second) }
        let executor = try scene.executor(.minimal.adding([.tcpConnect(scene.port)]))
        #expect(try await scene.call(executor, "connect", ["port": .int(Int64(scene.port))]).get() == ["ok": true])
        await expectDenied(scene, executor, "connect", ["port": .int(Int64(secondPort))])
        await expectDenied(scene, executor, "read", ["path": .string(scene.home + "/secret.txt")])
        await executor.shutdown()
    }

    @Test("processes granted: the daemon starts, and no daemon survives the worker's retirement")
    func processesGranted() async throws {
        let scene = try Scene()
        let executor = try scene.executor(.minimal.adding([.processes]))
        _ = try await scene.call(executor, "daemon").get()
        // The daemon holds an exclusive lock on a file of the data folder for as long as it lives (its pid is
        // one of its PID namespace, which means nothing here).
        let lock = open(scene.data + "/daemon.lock", O_RDWR | O_CLOEXEC)
        #expect(lock >= 0)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) != 0, "the daemon should run while the worker does")
        await expectDenied(scene, executor, "signal_parent", ["pid": .int(Int64(getpid()))])
        await executor.shutdown()
        var gone = false
        for _ in 0..<200 where !gone {
            gone = flock(lock, LOCK_EX | LOCK_NB) == 0
            if !gone { usleep(10_000) }
        }
        #expect(gone, "the daemon outlived its worker")
    }
}
