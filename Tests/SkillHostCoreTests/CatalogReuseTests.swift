import Foundation
@testable import SkillHostCore
import SkillJSON
import Testing

/// One `SkillHost` keeps its last catalog while nothing it was built from changed, and builds afresh on the
/// next call after any change, including changes made by another process (the CLI).
@Suite("The catalog is reused between calls while its inputs are unchanged")
struct CatalogReuseTests {
    func fixtureHost(registry: String = #"{"version": 1, "plugins": {"fixture": {"isolation": "inprocess"}}}"#) throws
        -> (SkillHost, String)
    {
        try HostTestSupport.fixtureHost(registry: registry)
    }

    func failure(_ body: () async throws(HostError) -> JSONValue) async -> HostError? {
        await HostTestSupport.failure(of: body)
    }

    @Test("unchanged inputs: the second call reuses the first call's catalog")
    func reusedWhileUnchanged() async throws {
        let (host, _) = try fixtureHost()
        let cache = ProcessCatalogCache()
        let first = try cache.current(paths: host.paths) { () throws(HostError) in try host.catalog() }
        let second = try cache.current(paths: host.paths) { () throws(HostError) in
            Issue.record("the catalog was built again although nothing changed")
            return try host.catalog()
        }
        #expect(first.generation == 1 && second.generation == 1)
        #expect(second.route("fixture.echo")?.skill.id == "fixture.echo")
        #expect(second.route("fixture.nope") == nil)
        _ = try await host.invoke(skillID: "fixture.echo", arguments: ["text": "a"])
        _ = try await host.invoke(skillID: "fixture.echo", arguments: ["text": "b"])
    }

    @Test("each input counts: registry, plugins folder, plugin file, skills folder, SKILL.md, crash history")
    func everyInputInvalidates() throws {
        let (host, root) = try fixtureHost()
        try HostTestSupport.write("---\nname: notes\ndescription: Notes.\n---\nBody\n", to: root + "/skills/notes/SKILL.md")
        let paths = HostPaths(plugins: root + "/plugins", registry: host.paths.registry, cache: root + "/cache",
                              data: root + "/data", skills: root + "/skills")
        let changes: [(String, () throws -> Void)] = [
            ("registry rewritten", { try HostTestSupport.write(#"{"version": 1}"#, to: paths.registry) }),
            ("plugin added", { try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: paths.plugins, as: "b.so") }),
            ("plugin file touched", {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -100)],
                                                      ofItemAtPath: paths.plugins + "/fixture.so")
            }),
            ("SKILL.md edited", { try HostTestSupport.write("---\nname: other\ndescription: x\n---\n", to: paths.skills + "/notes/SKILL.md") }),
            ("skill folder added", { try HostTestSupport.write("x", to: paths.skills + "/more/SKILL.md") }),
            ("crash history written", { try HostTestSupport.write("{}", to: paths.cache + "/" + PluginHealthStore.fileName) }),
            ("plugin removed", { try FileManager.default.removeItem(atPath: paths.plugins + "/b.so") }),
        ]
        for (what, change) in changes {
            let inputs = CatalogInputs.listing(paths)
            #expect(inputs.isCurrent, "\(what): unchanged inputs read as changed")
            try change()
            #expect(!inputs.isCurrent, "\(what): not noticed")
        }
    }

    @Test("disable and enable from another process take effect on the next call of the same host")
    func enableDisableFromAnotherProcess() async throws {
        let (host, root) = try fixtureHost()
        _ = try await host.invoke(skillID: "fixture.echo", arguments: ["text": "hi"])
        let disabled = try HostTestSupport.skillhost(["disable", "fixture.echo"], root: root)
        #expect(disabled.status == 0, "\(disabled.stderr)")
        let error = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: ["text": "hi"]) }
        #expect(error?.kind == .disabled)
        #expect(try host.enabledSkills().contains { $0.id == "fixture.echo" } == false)
        let enabled = try HostTestSupport.skillhost(["enable", "fixture.echo"], root: root)
        #expect(enabled.status == 0, "\(enabled.stderr)")
        let result = try await host.invoke(skillID: "fixture.echo", arguments: ["text": "again"])
        #expect(result["echo"] == ["text": "again"])
        #expect(try host.enabledSkills().contains { $0.id == "fixture.echo" })
    }

    @Test("trust from another process takes effect on the next call under the required policy")
    func trustFromAnotherProcess() async throws {
        let (host, root) = try fixtureHost(
            registry: #"{"version": 1, "trust": "required", "plugins": {"fixture": {"isolation": "inprocess"}}}"#)
        let refused = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: ["text": "hi"]) }
        #expect(refused?.kind == .denied)
        let trusted = try HostTestSupport.skillhost(["trust", "fixture"], root: root)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        let result = try await host.invoke(skillID: "fixture.echo", arguments: ["text": "hi"])
        #expect(result["echo"] == ["text": "hi"])
    }

    /// In worker isolation (the default): a replaced file gets fresh workers that load the new code.
    @Test("a plugin file replaced, added or removed takes effect on the next call of the same host")
    func pluginFilesChange() async throws {
        let (host, root) = try fixtureHost(registry: #"{"version": 1}"#)
        defer { Task { await host.shutdown() } }
        _ = try await host.invoke(skillID: "fixture.echo", arguments: ["text": "hi"])
        // Added.
        let second = try HostTestSupport.fixturePlugin(["PLUGIN_ID=\"second\""])
        try HostTestSupport.install(second, into: root + "/plugins", as: "second.so")
        let added = try await host.invoke(skillID: "second.echo", arguments: ["text": "new"])
        #expect(added["echo"] == ["text": "new"])
        // Replaced: fixture.so now holds plugin "third".
        let third = try HostTestSupport.fixturePlugin(["PLUGIN_ID=\"third\""])
        try HostTestSupport.install(third, into: root + "/plugins", as: "fixture.so")
        let gone = await failure { () throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: ["text": "hi"]) }
        #expect(gone?.kind == .notFound)
        let replaced = try await host.invoke(skillID: "third.echo", arguments: ["text": "r"])
        #expect(replaced["echo"] == ["text": "r"])
        // Removed.
        try FileManager.default.removeItem(atPath: root + "/plugins/second.so")
        let removed = await failure { () throws(HostError) in try await host.invoke(skillID: "second.echo", arguments: ["text": "x"]) }
        #expect(removed?.kind == .notFound)
    }
}
