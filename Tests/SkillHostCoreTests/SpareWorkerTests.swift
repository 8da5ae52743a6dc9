import Foundation
@testable import SkillHostCore
import SkillHostCore
import SkillJSON
import Testing

/// A worker started ahead of need (`__worker --await-load`, `SkillHost.startSpareWorker()`): it serves the
/// call that adopts it, learns its plugin only after the gates, and a refused call never loads the plugin.
@Suite("Spare worker")
struct SpareWorkerTests {
    private func payload(of frame: [UInt8]) -> [UInt8] { Array(frame[WorkerFrame.headerSize...]) }

    private func decode(_ bytes: [UInt8]) -> Result<WorkerLoadOrder, FrameError> {
        bytes.withUnsafeBytes { raw in
            Result { () throws(FrameError) -> WorkerLoadOrder in try WorkerLoadOrder(payload: raw) }
        }
    }

    /// Whether `pid` still exists (a zombie counts; a reaped process does not).
    private func exists(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

    /// Whether `pid` has ended and waits to be reaped.
    private func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return false
        }
        return stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    /// Whether the process maps a file whose path is `path`.
    private func maps(_ pid: pid_t, _ path: String) -> Bool {
        HostTestSupport.memoryMap(of: Int64(pid)).contains(path)
    }

    @Test("a load order survives encoding and decoding")
    func roundTrip() throws {
        let order = WorkerLoadOrder(workerArguments: ["/p/libx.so", "--as-mb", "4096", "--sb-read", "/ünï code"])
        let frame = order.encodedFrame()
        #expect(frame[4] == WorkerFrame.Kind.load.rawValue)
        #expect(try decode(payload(of: frame)).get() == order)
    }

    @Test("bad load orders are refused with what is wrong, never a trap")
    func badOrders() {
        let good = payload(of: WorkerLoadOrder(workerArguments: ["/p/libx.so", "--cpu-s", "5"]).encodedFrame())
        for cut in 0..<good.count {
            guard case .failure = decode(Array(good[..<cut])) else {
                Issue.record("a load order cut at byte \(cut) was accepted")
                continue
            }
        }
        let cases: [([UInt8], String)] = [
            (payload(of: WorkerLoadOrder(workerArguments: []).encodedFrame()), "carries 0 words"),
            (good + [0], "bytes after its 3 words"),
            (payload(of: WorkerLoadOrder(workerArguments: ["libx.so"]).encodedFrame()), "absolute path, not 'libx.so'"),
            ([0xFF, 0xFF, 0xFF, 0x7F], "expected 1 to 4096"),
        ]
        for (bytes, expected) in cases {
            guard case .failure(let error) = decode(bytes) else {
                Issue.record("accepted a bad load order (\(expected))")
                continue
            }
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test("a spare whose host closes the pipe exits 0 and says nothing; garbage on stdin is refused in one line")
    func spareWithoutOrder() throws {
        let binary = try HostilePlugins.workerExecutable()
        let closed = try HostTestSupport.run(binary, ["__worker", WorkerLoadOrder.awaitFlag], stdin: "")
        #expect(closed.status == 0 && closed.stdout.isEmpty && closed.stderr.isEmpty, "\(closed)")
        let garbage = try HostTestSupport.run(binary, ["__worker", WorkerLoadOrder.awaitFlag], stdin: "hello, worker")
        #expect(garbage.status == WorkerServer.protocolFailureStatus, "\(garbage)")
        #expect(garbage.stderr.contains("bad load order") && garbage.stderr.split(separator: "\n").count == 1, "\(garbage.stderr)")
    }

    @Test("the first launch adopts the spare: the call runs in the spare's process")
    func adoption() async throws {
        let path = try HostilePlugins.library("hostile")
        let prestart = WorkerPrestart()
        // Without namespaces, as the pool below (no sandbox) wants, and so that the plugin's pid is the host's.
        await prestart.start(executable: try HostilePlugins.workerExecutable(), namespaces: false)
        let spare = try #require(prestart.sparePID)
        #expect(!maps(spare, path), "the spare has not loaded the plugin before its load order")
        var configuration = WorkerPoolConfiguration(
            pluginID: "hostile", pluginPath: path, workerExecutable: try HostilePlugins.workerExecutable(), maxWorkers: 1)
        configuration.prestart = prestart
        let executor = WorkerPoolExecutor(configuration)
        let result = try await executor.execute(HostilePlugins.call("pid", path: path))
        #expect(result["pid"]?.intValue == Int64(spare))
        #expect(maps(spare, path), "after its load order the spare maps the plugin (the map is read whole)")
        #expect(!prestart.hasSpare, "the launch took the spare")
        #expect(try await executor.execute(HostilePlugins.call("pid", path: path))["pid"]?.intValue == Int64(spare))
        await executor.shutdown()
        await prestart.shutdown()
        #expect(!exists(spare), "the adopted worker stops with its pool")
    }

    @Test("a spare in namespaces is not adopted by a launch whose sandbox wants none (and the reverse): it is discarded")
    func namespacesMustMatch() async throws {
        let path = try HostilePlugins.library("hostile")
        for spareInNamespaces in [true, false] {
            let prestart = WorkerPrestart()
            await prestart.start(executable: try HostilePlugins.workerExecutable(), namespaces: spareInNamespaces)
            let spare = try #require(prestart.sparePID)
            var configuration = WorkerPoolConfiguration(
                pluginID: "hostile", pluginPath: path, workerExecutable: try HostilePlugins.workerExecutable(), maxWorkers: 1)
            configuration.prestart = prestart
            // The opposite of the spare: a sandbox with namespaces for a plain spare, none for a namespaced one.
            if !spareInNamespaces {
                configuration.sandbox = SandboxPolicy(mode: .required, rules: [.init(path: NSTemporaryDirectory(), access: .readWrite)], namespaces: true)
            }
            let executor = WorkerPoolExecutor(configuration)
            _ = try await executor.execute(HostilePlugins.call("pid", path: path))
            #expect(!prestart.hasSpare)
            #expect(!exists(spare), "the spare that did not fit was discarded (spare in namespaces: \(spareInNamespaces))")
            await executor.shutdown()
            await prestart.shutdown()
        }
    }

    @Test("a spare nobody adopts is killed and reaped by shutdown; another executable's launch leaves it alone")
    func unused() async throws {
        let prestart = WorkerPrestart()
        await prestart.start(executable: try HostilePlugins.workerExecutable())
        let spare = try #require(prestart.sparePID)
        #expect(prestart.take(executable: "/bin/false") == nil)
        #expect(prestart.hasSpare)
        await prestart.shutdown()
        #expect(!exists(spare))
        #expect(!prestart.hasSpare)
    }

    @Test("a process that already runs threads does not fork a spare (the child would lack them)")
    func noForkWithThreads() throws {
        #expect((try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")).count > 1)
        guard case .unavailable = SpareWorker.forkEarly(executable: try HostilePlugins.workerExecutable()) else {
            Issue.record("forkEarly forked a process with several threads")
            return
        }
    }

    @Test("a spare killed before it was adopted is replaced by a fresh worker")
    func deadSpare() async throws {
        let path = try HostilePlugins.library("hostile")
        let executable = try HostilePlugins.workerExecutable()
        let prestart = WorkerPrestart()
        await prestart.start(executable: executable)
        let spare = try #require(prestart.take(executable: executable))
        kill(spare.pid, SIGKILL)
        // Dead (a zombie) before the launch, as a spare killed while it waited would be.
        for _ in 0..<1000 where !isZombie(spare.pid) { usleep(1000) }
        let worker = try WorkerProcess.launch(
            executable: executable, pluginPath: path, limits: .defaults, startupTimeout: 10, spare: spare)
        #expect(worker.pid != spare.pid)
        #expect(!exists(spare.pid), "the dead spare was reaped")
        worker.stop()
        await prestart.shutdown()
    }

    @Test("a call refused by a gate never loads the plugin; shutdown kills the unused spare")
    func refusedCall() async throws {
        let (root, plugin, paths) = try HostilePlugins.installedRoot(prefix: "skillhost-spare")
        try FileManager.default.createDirectory(atPath: root + "/config", withIntermediateDirectories: true)
        try Data(#"{"version": 1, "trust": "required"}"#.utf8).write(to: URL(fileURLWithPath: paths.registry))
        let host = SkillHost(paths: paths, helperExecutable: try HostilePlugins.workerExecutable())
        await host.startSpareWorker()
        let spare = try #require(host.spareWorkerPID)
        let refused = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await host.invoke(skillID: "hostile.ok", arguments: [:])
        }
        #expect(refused?.kind == .denied)
        #expect(host.spareWorkerPID == spare, "the spare still waits")
        #expect(exists(spare) && !maps(spare, plugin), "the refused call's plugin was never loaded")
        await host.shutdown()
        #expect(!exists(spare), "shutdown killed and reaped the unused spare")

        // Trusted, the same host's next call adopts a new spare and succeeds.
        let again = SkillHost(paths: paths, helperExecutable: try HostilePlugins.workerExecutable())
        try again.trust(pluginID: "hostile")
        await again.startSpareWorker()
        #expect(again.spareWorkerPID != nil)
        #expect(try await again.invoke(skillID: "hostile.ok", arguments: [:]) == ["ok": true, "echo": [:]])
        #expect(again.spareWorkerPID == nil, "the call's worker was the spare")
        await again.shutdown()
    }
}
