import Foundation
import SkillHostCore
import SkillJSON
import Testing

@Suite("Calling skills through the SkillHost facade (in-process)")
struct InvokeTests {
    /// A host with the fixture plugin installed and set to in-process isolation.
    func fixtureHost(registry: String? = nil) throws -> (SkillHost, String) {
        if let registry { return try HostTestSupport.fixtureHost(registry: registry) }
        return try HostTestSupport.fixtureHost()
    }

    func failure(_ body: () async throws(HostError) -> JSONValue) async -> HostError? {
        await HostTestSupport.failure(of: body)
    }

    @Test("a read skill runs with the call and session ids; the id is normalized first")
    func success() async throws {
        let (host, _) = try fixtureHost()
        let result = try await host.invoke(
            skillID: "Fixture.Echo\u{200B}", arguments: ["text": "hi"], options: InvocationOptions(sessionID: "s1", callID: "c1"))
        #expect(result == ["echo": ["text": "hi"], "call_id": "c1", "session_id": "s1"])
    }

    /// Unknown plugin code never runs in the host process unless the registry says `inprocess`.
    @Test("a host made without a worker executor refuses process-isolated plugins instead of loading them")
    func noWorkerMakerRefuses() async throws {
        let root = HostTestSupport.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let host = SkillHost(paths: HostTestSupport.paths(root: root), helperExecutable: try HostTestSupport.skillhostBinary(),
                             executorFactory: ExecutorFactory())
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        let error = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: ["text": "hi"]) }
        #expect(error?.kind == .denied)
        #expect(error?.message.contains("without a worker executor") == true)
        #expect(!PluginLibrary.isLoaded(path: root + "/plugins/fixture.so"))
    }

    @Test("arguments are validated against the schema before the plugin runs; each error names its pointer")
    func invalidArguments() async throws {
        let (host, _) = try fixtureHost()
        let error = await failure { () throws(HostError) in
            try await host.invoke(skillID: "fixture.echo", arguments: ["text": 5, "count": -1])
        }
        #expect(error?.kind == .invalidArguments)
        #expect(error?.message.contains("`/text`") == true)
        #expect(error?.message.contains("`/count`") == true)
        #expect(error?.message.contains("\n") == false)
        #expect(error?.details?.arrayValue?.count == 2)
        let notObject = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: [1]) }
        #expect(notObject?.kind == .invalidArguments)
    }

    @Test("unknown skills, and plugins called as skills, are not found")
    func notFound() async throws {
        let (host, _) = try fixtureHost()
        let missing = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.nope", arguments: [:]) }
        #expect(missing?.kind == .notFound)
        let plugin = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture", arguments: [:]) }
        #expect(plugin?.kind == .notFound)
        #expect(plugin?.message.contains("fixture.echo") == true)
    }

    @Test("a disabled skill or plugin is never invoked")
    func disabled() async throws {
        let (host, root) = try fixtureHost()
        try host.setEnabled(["fixture.note"], false)
        let skill = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.note", arguments: ["text": "x"], options: InvocationOptions(approved: true)) }
        #expect(skill?.kind == .disabled)
        #expect(!FileManager.default.fileExists(atPath: root + "/data/fixture/note.txt"))
        #expect(try !host.enabledSkills().contains { $0.id == "fixture.note" })
        try host.setEnabled(["FIXTURE"], false)
        let plugin = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: [:]) }
        #expect(plugin?.kind == .disabled)
        #expect(try host.enabledSkills().isEmpty)
        let unknown = await failure { () throws(HostError) in
            _ = try host.setEnabled(["fixture.echo", "ghost"], true)
            return .null
        }
        #expect(unknown?.kind == .notFound)
        #expect(try host.catalog().plugin("fixture")?.enabled == false)  // nothing written
    }

    @Test("write skills need approval: unapproved calls are refused, approved ones run, the registry can allow or deny")
    func approval() async throws {
        let (host, root) = try fixtureHost()
        let prepared = try host.prepare(skillID: "fixture.note", arguments: ["text": "x"])
        #expect(prepared.needsApproval)
        #expect(try !host.prepare(skillID: "fixture.echo", arguments: [:]).needsApproval)
        let notAsked = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.note", arguments: ["text": "x"]) }
        #expect(notAsked?.kind == .denied)
        #expect(notAsked?.message.contains("--yes") == true)
        #expect(notAsked?.message.contains("plugins.fixture.skills.fixture.note.approval") == true)
        #expect(!FileManager.default.fileExists(atPath: root + "/data/fixture/note.txt"))
        let result = try await host.execute(prepared, options: InvocationOptions(approved: true))
        #expect(result["path"] == .string(root + "/data/fixture/note.txt"))
        #expect(FileManager.default.fileExists(atPath: root + "/data/fixture/note.txt"))

        try host.registryStore.update { $0.setSkillValue("allow", forKey: "approval", skill: "fixture.note", plugin: "fixture") }
        #expect(try !host.prepare(skillID: "fixture.note", arguments: ["text": "y"]).needsApproval)
        _ = try await host.invoke(skillID: "fixture.note", arguments: ["text": "y"])
        try host.registryStore.update { $0.setSkillValue("deny", forKey: "approval", skill: "fixture.echo", plugin: "fixture") }
        let denied = await failure { () throws(HostError) in
            try await host.invoke(skillID: "fixture.echo", arguments: [:], options: InvocationOptions(approved: true))
        }
        #expect(denied?.kind == .denied)
        #expect(denied?.message.contains("is \"deny\"") == true)
    }

    @Test("a skill that passes its timeout (registry override) reports timeout; the next call works")
    func timeout() async throws {
        let (host, _) = try fixtureHost(registry: #"{"plugins": {"fixture": {"isolation": "inprocess", "skills": {"fixture.slow": {"timeout": 0.3}}}}}"#)
        // fixture.slow spins until its cancel flag is set: only the timeout can end this call.
        let error = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.slow", arguments: [:]) }
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("(limit 0.3 s)") == true, "\(error?.message ?? "")")
        #expect(try await host.invoke(skillID: "fixture.echo", arguments: [:])["echo"] == [:])
    }

    @Test("cancelling the calling task cancels the call")
    func cancellation() async throws {
        let (host, _) = try fixtureHost()
        let task = Task { () async throws(HostError) -> JSONValue in try await host.invoke(skillID: "fixture.slow", arguments: [:]) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("the call finished")
            return
        }
        #expect((error as? HostError)?.kind == .cancelled)
    }

    @Test("skill failures carry the plugin's message and remedy; invalid result JSON is a failure")
    func failures() async throws {
        let (host, _) = try fixtureHost()
        let failed = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.fail", arguments: [:]) }
        #expect(failed?.kind == .skillFailed)
        #expect(failed?.message == "skill fixture.fail failed: `/x`: the fixture always fails; do not call fail")
        let bad = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.badjson", arguments: [:]) }
        #expect(bad?.kind == .skillFailed)
        #expect(bad?.message.contains("invalid JSON") == true)
    }

    @Test("the session context is shared between calls; the registry config reaches the plugin")
    func contextAndConfiguration() async throws {
        let (host, _) = try fixtureHost(registry: #"{"plugins": {"fixture": {"isolation": "inprocess", "config": {"units": "metric"}}}}"#)
        let session = SessionContext()
        let options = InvocationOptions(sessionID: "s", sessionContext: session)
        #expect(try await host.invoke(skillID: "fixture.context", arguments: ["step": 1], options: options) == .null)
        #expect(try await host.invoke(skillID: "fixture.context", arguments: ["step": 2], options: options) == ["step": 1])
        #expect(session.value(forKey: "last") == ["step": 2])
        #expect(try await host.invoke(skillID: "fixture.config", arguments: [:]) == ["units": "metric"])
    }

    @Test("calls into a plugin that is not thread_safe are serialized but all complete")
    func concurrentCalls() async throws {
        let (host, _) = try fixtureHost()
        let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for index in 0..<8 {
                group.addTask { try await host.invoke(skillID: "fixture.echo", arguments: ["count": .int(Int64(index))]) }
            }
            var all: [JSONValue] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(Set(results.compactMap { $0["echo"]?["count"]?.intValue }) == Set(0..<8))
    }

    @Test("a library whose manifest differs from the scanned one is refused: run skillhost rescan")
    func changedSinceScan() async throws {
        let executor = InProcessExecutor(
            path: try HostTestSupport.fixturePlugin(), expectedManifest: ["id": "something-else"], threadSafe: false)
        let call = SkillCall(pluginID: "fixture", pluginPath: "", skillID: "fixture.echo", arguments: [:], callID: "c",
                             timeout: 5, dataDirectory: NSTemporaryDirectory())
        do {
            _ = try await executor.execute(call)
            Issue.record("a changed plugin ran")
        } catch {
            #expect(error.kind == .invalidPlugin)
            #expect(error.message.contains("changed since scan; run 'skillhost rescan'"))
        }
    }

    @Test("an invalid or broken plugin's skills cannot be called")
    func unusablePlugin() async throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "a.so")
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "b.so")
        let error = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: [:]) }
        #expect(error?.kind == .invalidPlugin)
        #expect(error?.message.contains("duplicate plugin id") == true)
    }
}
