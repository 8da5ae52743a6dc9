import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Each hostile skill misbehaves in its worker; the host survives, the call reports the cause, and the next
/// call of a healthy skill works.
@Suite("Hostile plugins in worker processes")
struct HostilePluginTests {
    /// Runs `skill`, expects the failure `kind` with `fragment` in its message, then a healthy call.
    private func expectSurvives(_ skill: String, kind: HostError.Kind, fragment: String) async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path)
        let error = await HostilePlugins.failure {
            () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call(skill, path: path))
        }
        #expect(error?.kind == kind, "\(String(describing: error))")
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "no error")")
        #expect(error?.skillID == "hostile.\(skill)")
        let healthy = try await executor.execute(HostilePlugins.call("ok", ["n": 1], path: path))
        #expect(healthy == ["ok": true, "echo": ["n": 1]])
        await executor.shutdown()
    }

    @Test("a segfault fails only its call, with the signal named")
    func segfault() async throws {
        try await expectSurvives(
            "segfault", kind: .pluginCrashed,
            fragment: "plugin hostile crashed: signal 11 (SIGSEGV, Segmentation fault) in skill hostile.segfault")
    }

    @Test("abort() is reported as signal 6")
    func abortCall() async throws {
        try await expectSurvives(
            "abort", kind: .pluginCrashed, fragment: "plugin hostile crashed: signal 6 (SIGABRT, Aborted) in skill hostile.abort")
    }

    @Test("a plugin calling exit() is reported with its status")
    func exitCall() async throws {
        try await expectSurvives("exit", kind: .pluginCrashed, fragment: "crashed: exit status 7")
    }

    @Test("a 64 MiB result is refused as too large")
    func hugeResult() async throws {
        try await expectSurvives("huge", kind: .skillFailed, fragment: "result too large: 64.0 MiB")
    }

    @Test("an infinite loop is killed at its timeout, reported within 10 % of it; the next call works")
    func infiniteLoop() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path)
        _ = try await executor.execute(HostilePlugins.call("ok", path: path))  // worker started and warm
        let started = Date()
        let error = await HostilePlugins.failure {
            () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("loop", path: path, timeout: 2))
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("skill hostile.loop timed out after") == true, "\(error?.message ?? "")")
        #expect(elapsed >= 2.0 && elapsed <= 2.2, "timeout reported after \(elapsed) s")
        #expect(try await executor.execute(HostilePlugins.call("ok", path: path)) == ["ok": true, "echo": [:]])
        await executor.shutdown()
    }

    @Test("garbage on the plugin's stdout goes to stderr and cannot corrupt frames")
    func garbageOnStdout() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        let first = try await executor.execute(HostilePlugins.call("pid", path: path))
        let result = try await executor.execute(HostilePlugins.call("garbage", path: path))
        #expect(result == ["survived": true])
        let after = try await executor.execute(HostilePlugins.call("pid", path: path))
        #expect(first == after, "the same worker keeps serving after the garbage")
        await executor.shutdown()
    }

    @Test("a plugin reading stdin gets end of file, not the host's frames")
    func readingStdin() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        #expect(try await executor.execute(HostilePlugins.call("stdin", path: path)) == ["read": 0])
        #expect(try await executor.execute(HostilePlugins.call("ok", path: path)) == ["ok": true, "echo": [:]])
        await executor.shutdown()
    }

    @Test("a constructor that aborts kills only the worker; other plugins still work")
    func constructorAbort() async throws {
        let broken = try HostilePlugins.library("ctor_abort")
        let executor = try HostilePlugins.executor(broken, pluginID: "ctor_abort")
        let error = await HostilePlugins.failure {
            () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("never", path: broken, pluginID: "ctor_abort"))
        }
        #expect(error?.kind == .pluginCrashed)
        #expect(error?.message.contains("plugin ctor_abort crashed while loading") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("signal 6 (SIGABRT, Aborted)") == true, "\(error?.message ?? "")")
        await executor.shutdown()

        let healthyPath = try HostilePlugins.library("hostile")
        let healthy = try HostilePlugins.executor(healthyPath)
        #expect(try await healthy.execute(HostilePlugins.call("ok", path: healthyPath)) == ["ok": true, "echo": [:]])
        await healthy.shutdown()
    }

    @Test("a constructor that never returns is given up after the startup timeout and killed")
    func constructorHang() async throws {
        let hanging = try HostilePlugins.library("ctor_hang")
        let executor = try HostilePlugins.executor(hanging, pluginID: "ctor_hang", startupTimeout: 1)
        let started = Date()
        let error = await HostilePlugins.failure {
            () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("never", path: hanging, timeout: 60, pluginID: "ctor_hang"))
        }
        #expect(error?.kind == .pluginCrashed, "\(String(describing: error))")
        #expect(error?.message.contains("did not finish loading") == true, "\(error?.message ?? "")")
        // Far below the call's 60 s timeout (generous: other tests may be spinning both cores).
        #expect(Date().timeIntervalSince(started) < 20)
        await executor.shutdown()
        let leftover = try String(contentsOfFile: "/proc/self/task/\(getpid())/children", encoding: .utf8)
        for child in leftover.split(separator: " ") {
            let command = (try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? ""
            #expect(!command.contains("ctor_hang"), "the hung worker \(child) was left running")
        }
    }

    @Test("a skill's reported failure keeps the plugin's message, field and remedy")
    func reportedFailure() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path)
        let error = await HostilePlugins.failure {
            () async throws(HostError) -> JSONValue in
            try await executor.execute(HostilePlugins.call("fail", path: path))
        }
        #expect(error?.kind == .skillFailed)
        #expect(error?.message.contains("the disk is full") == true)
        #expect(error?.message.contains("free some space") == true)
        #expect(error?.details?["field"] == "/path")
        await executor.shutdown()
    }
}
