import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Pool mechanics with real workers: reuse, the `max_workers` bound, concurrency, cancellation, session
/// context across the process boundary, resource limits, crash back-off and the broken mark.
@Suite("Worker pool")
struct WorkerPoolTests {
    private func pid(_ value: JSONValue) -> Int64? { value["pid"]?.intValue }

    @Test("one worker serves many calls")
    func reuse() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        var pids: Set<Int64> = []
        for _ in 0..<20 {
            if let pid = pid(try await executor.execute(HostilePlugins.call("pid", path: path))) { pids.insert(pid) }
        }
        #expect(pids.count == 1)
        #expect(!pids.contains(Int64(getpid())), "calls run outside the test process")
        await executor.shutdown()
    }

    @Test("a worker killed while idle is replaced without failing the next call")
    func idleWorkerDeath() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        let first = try #require(pid(try await executor.execute(HostilePlugins.call("pid", path: path))))
        kill(pid_t(first), SIGKILL)
        try await Task.sleep(nanoseconds: 100_000_000)
        let second = try #require(pid(try await executor.execute(HostilePlugins.call("pid", path: path))))
        #expect(second != first)
        #expect(executor.brokenReason == nil)
        await executor.shutdown()
    }

    @Test("at most max_workers workers run at once; calls beyond wait their turn")
    func bound() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 2)
        _ = try await executor.execute(HostilePlugins.call("ok", path: path))
        let started = Date()
        let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<4 {
                group.addTask { try await executor.execute(HostilePlugins.call("sleep", ["ms": 300], path: path)) }
            }
            return try await group.reduce(into: [JSONValue]()) { $0.append($1) }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(Set(results.compactMap(pid)).count == 2, "two workers shared four calls")
        #expect(elapsed >= 0.6, "four 300 ms calls on two workers take two rounds (took \(elapsed) s)")
        #expect(elapsed < 1.5, "the two workers ran in parallel (took \(elapsed) s)")
        await executor.shutdown()
    }

    @Test("a call that waits for a busy pool past its timeout fails on time, naming max_workers")
    func queueTimeout() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        _ = try await executor.execute(HostilePlugins.call("ok", path: path))
        let busy = Task { try await executor.execute(HostilePlugins.call("sleep", ["ms": 2000], path: path)) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let started = Date()
        let error = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("ok", path: path, timeout: 0.5))
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("waiting for a free worker") == true && error?.message.contains("max_workers 1") == true)
        #expect(elapsed >= 0.5 && elapsed < 1.5, "reported after \(elapsed) s, before the busy call ended")
        _ = try await busy.value
        await executor.shutdown()
    }

    @Test("cancelling the task kills the worker and reports cancelled; the next call works")
    func cancellation() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        let started = Date()
        let task = Task { () async -> HostError? in
            await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
                try await executor.execute(HostilePlugins.call("sleep", ["ms": 30_000], path: path, timeout: 60))
            }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        let error = await task.value
        #expect(error?.kind == .cancelled, "\(String(describing: error))")
        // Far below the 30 s the skill would sleep (generous: other tests may be spinning both cores).
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(try await executor.execute(HostilePlugins.call("ok", path: path)) == ["ok": true, "echo": [:]])
        await executor.shutdown()
    }

    @Test("the session context goes to the worker and the skill's changes come back")
    func sessionContext() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path)
        let context = SessionContext(["counter": 41, "other": "kept"])
        let first = try await executor.execute(HostilePlugins.call("context", path: path, context: context))
        #expect(first == ["counter": 42])
        #expect(context.value(forKey: "counter") == 42)
        _ = try await executor.execute(HostilePlugins.call("context", path: path, context: context))
        #expect(context.value(forKey: "counter") == 43)
        #expect(context.value(forKey: "other") == "kept")
        await executor.shutdown()
    }

    @Test("a worker hands each call the configuration it came with, also when it changes between calls")
    func configurationPerCall() async throws {
        let path = try HostTestSupport.fixturePlugin()
        let executor = try HostilePlugins.executor(path, pluginID: "fixture", maxWorkers: 1)
        func call(_ configuration: JSONValue) async throws -> JSONValue {
            try await executor.execute(
                SkillCall(
                    pluginID: "fixture", pluginPath: path, skillID: "fixture.config", arguments: [:], callID: "config",
                    timeout: 10, configuration: configuration, dataDirectory: NSTemporaryDirectory()))
        }
        // The worker keeps the last configuration it parsed: each change must still reach the plugin.
        for configuration: JSONValue in [["units": "metric"], ["units": "metric"], [:], ["units": "imperial", "n": 2]] {
            #expect(try await call(configuration) == configuration)
        }
        await executor.shutdown()
    }

    @Test("workers run under the configured resource limits")
    func resourceLimits() async throws {
        let path = try HostilePlugins.library("hostile")
        let limits = ResourceLimits(addressSpaceMB: 1536, cpuSeconds: 120, openFiles: 64)
        let executor = try HostilePlugins.executor(path, limits: limits)
        let result = try await executor.execute(HostilePlugins.call("limits", path: path))
        #expect(result["address_space"]?.intValue == 1536 << 20)
        #expect(result["cpu_seconds"]?.intValue == 120)
        #expect(result["open_files"]?.intValue == 64)
        await executor.shutdown()
    }

    @Test("a skill that spins past the CPU limit is killed by SIGXCPU before its timeout")
    func cpuLimit() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, limits: ResourceLimits(cpuSeconds: 1))
        let error = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("loop", path: path, timeout: 60))
        }
        #expect(error?.kind == .pluginCrashed, "\(String(describing: error))")
        #expect(error?.message.contains("CPU time limit") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("limits.cpu_seconds") == true)
        // No wall-clock bound: 1 s of CPU can take many seconds when other tests spin both cores. Reaching
        // SIGXCPU instead of the 60 s timeout is the point.
        await executor.shutdown()
    }

    @Test("after calls back to back (the CPU clock not read for each), a runaway call still meets SIGXCPU")
    func cpuLimitAfterQuickCalls() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, limits: ResourceLimits(cpuSeconds: 1))
        for _ in 0..<50 {
            let result = try await executor.execute(HostilePlugins.call("ok", path: path))
            #expect(result != .null)
        }
        let error = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("loop", path: path, timeout: 60))
        }
        #expect(error?.kind == .pluginCrashed, "\(String(describing: error))")
        #expect(error?.message.contains("CPU time limit") == true, "\(error?.message ?? "")")
        await executor.shutdown()
    }

    @Test("repeated crashes mark the plugin broken, persistently, until its file changes")
    func brokenAfterRepeatedCrashes() async throws {
        let path = try HostilePlugins.privateCopy("hostile")
        let cache = NSTemporaryDirectory() + "skillhost-health-\(UUID().uuidString.prefix(8))"
        let store = PluginHealthStore(cacheDirectory: cache)
        let policy = CrashPolicy(maximumConsecutiveCrashes: 3, initialBackoff: 0.01, maximumBackoff: 0.05)
        let executor = try HostilePlugins.executor(path, crashPolicy: policy, healthStore: store)
        var last: HostError?
        for _ in 0..<3 {
            last = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
                try await executor.execute(HostilePlugins.call("segfault", path: path))
            }
        }
        #expect(last?.message.contains("marked broken") == true, "\(last?.message ?? "")")
        let refused = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("ok", path: path))
        }
        #expect(refused?.kind == .pluginCrashed)
        #expect(refused?.message.contains("plugin hostile is marked broken") == true, "\(refused?.message ?? "")")
        #expect(executor.brokenReason != nil)
        #expect(store.brokenReason(pluginID: "hostile", path: path)?.contains("signal 11") == true)
        await executor.shutdown()

        // Another process (here: another executor) sees the mark from the store.
        let later = try HostilePlugins.executor(path, crashPolicy: policy, healthStore: store)
        #expect(later.brokenReason != nil)
        await later.shutdown()

        // A replaced file starts over.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        #expect(store.brokenReason(pluginID: "hostile", path: path) == nil)
        let fresh = try HostilePlugins.executor(path, crashPolicy: policy, healthStore: store)
        #expect(try await fresh.execute(HostilePlugins.call("ok", path: path)) == ["ok": true, "echo": [:]])
        await fresh.shutdown()
    }

    @Test("a success resets the crash count")
    func successResetsCount() async throws {
        let path = try HostilePlugins.library("hostile")
        let policy = CrashPolicy(maximumConsecutiveCrashes: 2, initialBackoff: 0.01, maximumBackoff: 0.05)
        let executor = try HostilePlugins.executor(path, crashPolicy: policy)
        for _ in 0..<3 {
            _ = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
                try await executor.execute(HostilePlugins.call("abort", path: path))
            }
            _ = try await executor.execute(HostilePlugins.call("ok", path: path))
        }
        #expect(executor.brokenReason == nil)
        await executor.shutdown()
    }

    @Test("the back-off grows with each crash in a row and is capped")
    func backoff() {
        let policy = CrashPolicy(maximumConsecutiveCrashes: 5, initialBackoff: 0.05, maximumBackoff: 0.3)
        #expect(policy.backoff(afterCrashes: 0) == 0)
        #expect(policy.backoff(afterCrashes: 1) == 0.05)
        #expect(policy.backoff(afterCrashes: 2) == 0.1)
        #expect(policy.backoff(afterCrashes: 3) == 0.2)
        #expect(policy.backoff(afterCrashes: 4) == 0.3)
        #expect(policy.backoff(afterCrashes: 100) == 0.3)
    }

    @Test("shutdown stops the workers")
    func shutdownStopsWorkers() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path)
        let workerPID = try #require(pid(try await executor.execute(HostilePlugins.call("pid", path: path))))
        #expect(kill(pid_t(workerPID), 0) == 0)
        await executor.shutdown()
        #expect(kill(pid_t(workerPID), 0) == -1, "the worker process is gone")
        let error = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("ok", path: path))
        }
        #expect(error != nil, "calls after shutdown fail")
    }

    @Test("a worker executable that does not exist is an io error, not a crash of the host")
    func missingExecutable() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = WorkerPoolExecutor(
            WorkerPoolConfiguration(pluginID: "hostile", pluginPath: path, workerExecutable: "/nonexistent/skillhost"))
        let error = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("ok", path: path))
        }
        #expect(error?.kind == .io || error?.kind == .pluginCrashed, "\(String(describing: error))")
        await executor.shutdown()
    }

    @Test("a file that is not a plugin is reported by the worker as invalid")
    func notAPlugin() async throws {
        let folder = NSTemporaryDirectory() + "skillhost-notplugin-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/libjunk.so"
        try Data("this is not an ELF file".utf8).write(to: URL(fileURLWithPath: path))
        let executor = try HostilePlugins.executor(path, pluginID: "junk")
        let error = await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("x", path: path, pluginID: "junk"))
        }
        #expect(error?.kind == .invalidPlugin, "\(String(describing: error))")
        #expect(error?.message.contains("could not be loaded by its worker") == true)
        await executor.shutdown()
    }
}
