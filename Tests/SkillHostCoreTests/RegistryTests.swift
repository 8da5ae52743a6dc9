import Foundation
import SkillHostCore
import SkillJSON
import Testing

@Suite("Registry: decisions, defaults, malformed files, concurrent writers")
struct RegistryTests {
    func store() -> (RegistryStore, String) {
        let path = HostTestSupport.temporaryDirectory() + "/config/skill_registry.json"
        return (RegistryStore(path: path), path)
    }

    @Test("a missing file reads as defaults: new plugins enabled, trust warn, isolation process")
    func defaults() throws {
        let (store, _) = store()
        let registry = try store.read()
        #expect(registry.pluginEnabled("anything"))
        #expect(registry.trustPolicy == .warn)
        #expect(registry.pluginSettings("anything").isolation == .process)
        #expect(registry.pluginSettings("anything").maxWorkers == 2)
        #expect(registry.skillEnabled("anything.x", plugin: "anything"))
    }

    @Test("enable and disable are persisted; skills follow their plugin unless set")
    func persisted() throws {
        let (store, _) = store()
        try store.update { $0.setPluginEnabled("Clock", false) }
        try store.update { $0.setSkillEnabled("clock.now", plugin: "clock", false) }
        let registry = try store.read()
        #expect(!registry.pluginEnabled("clock"))
        #expect(!registry.skillEnabled("clock.add", plugin: "clock"))
        try store.update { $0.setPluginEnabled("clock", true) }
        let after = try store.read()
        #expect(after.skillEnabled("clock.add", plugin: "clock"))
        #expect(!after.skillEnabled("clock.now", plugin: "clock"))
    }

    @Test("unknown members survive writes; hand-written keys are matched after normalization")
    func unknownFieldsPreserved() throws {
        let (store, path) = store()
        try HostTestSupport.write("""
            {"version": 1, "x-note": {"keep": [1, 2]}, "new_plugins": "disabled",
             "plugins": {"Clock": {"enabled": true, "custom": "yes", "config": {"tz": "UTC"},
                                   "skills": {"Clock.Now": {"timeout": 3, "approval": "deny", "rate_limit_per_minute": 5}}}}}
            """, to: path)
        try store.update { $0.setSkillEnabled("clock.now", plugin: "clock", false) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let document = try JSONValue(parsing: text)
        #expect(document["x-note"] == ["keep": [1, 2]])
        #expect(document["plugins"]?["Clock"]?["custom"] == "yes")
        #expect(document["plugins"]?["Clock"]?["skills"]?["Clock.Now"]?["enabled"] == false)
        let registry = try store.read()
        #expect(registry.newPlugins == .disabled)
        #expect(!registry.pluginEnabled("other"))
        let skill = registry.skillSettings("clock.now", plugin: "clock")
        #expect(skill == SkillSettings(enabled: false, timeout: 3, approval: .deny, rateLimitPerMinute: 5))
        #expect(registry.pluginSettings("clock").configuration == ["tz": "UTC"])
    }

    @Test("all documented fields are read: isolation, sha256, limits, max_workers over defaults")
    func allFields() throws {
        let (store, path) = store()
        let hash = String(repeating: "ab", count: 32)
        try HostTestSupport.write("""
            {"version": 1, "trust": "required",
             "defaults": {"isolation": "inprocess", "max_workers": 3, "limits": {"address_space_mb": 1024, "cpu_seconds": 60, "open_files": 64}},
             "plugins": {"clock": {"isolation": "process", "sha256": "\(hash)", "max_workers": 1, "limits": {"address_space_mb": 2048}}}}
            """, to: path)
        let registry = try store.read()
        #expect(registry.trustPolicy == .required)
        let clock = registry.pluginSettings("clock")
        #expect(clock.isolation == .process)
        #expect(clock.sha256 == hash)
        #expect(clock.maxWorkers == 1)
        #expect(clock.limits == ResourceLimits(addressSpaceMB: 2048, cpuSeconds: 60, openFiles: 64, processes: 64, fileSizeMB: 1024))
        let other = registry.pluginSettings("other")
        #expect(other.isolation == .inprocess)
        #expect(other.maxWorkers == 3)
    }

    @Test("a malformed file is an error with line and column and is never overwritten")
    func malformedUntouched() throws {
        let (store, path) = store()
        let text = "{\n  \"version\": 1,\n  \"plugins\": {\"clock\": {\"enabled\": tru}}\n}\n"
        try HostTestSupport.write(text, to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            try store.update { $0.setPluginEnabled("clock", false) }
            Issue.record("update succeeded on a malformed file")
        } catch {
            #expect(error.kind == .registry)
            #expect(error.message.contains(path))
            #expect(error.message.contains("line 3, column"))
            #expect(!error.message.contains("\n"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a wrongly typed member names its JSON pointer and is never overwritten",
          arguments: [
              (#"{"plugins": {"clock": {"enabled": "yes"}}}"#, "/plugins/clock/enabled"),
              (#"{"new_plugins": "maybe"}"#, "/new_plugins"),
              (#"{"plugins": {"clock": {"skills": {"clock.now": {"approval": "sometimes"}}}}}"#, "/plugins/clock/skills/clock.now/approval"),
              (#"{"plugins": {"clock": {"isolation": "vm"}}}"#, "/plugins/clock/isolation"),
              (#"{"version": 7}"#, "/version"),
              (#"[1, 2]"#, "must be a JSON object"),
          ])
    func badMember(text: String, expected: String) throws {
        let (store, path) = store()
        try HostTestSupport.write(text, to: path)
        do {
            try store.update { $0.setPluginEnabled("clock", true) }
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.kind == .registry)
            #expect(error.message.contains(expected))
            #expect(error.message.hasPrefix(path))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test("20 concurrent enable/disable processes lose no update")
    func concurrentProcesses() throws {
        let (host, root) = try HostTestSupport.makeHost()
        // Twenty plugins with distinct ids, each toggled by its own process.
        for index in 0..<20 {
            try HostTestSupport.install(try HostTestSupport.fixturePlugin(["PLUGIN_ID=\"p\(index)\""]), into: root + "/plugins", as: "p\(index).so")
        }
        _ = try host.catalog()  // fill the scan cache once
        let binary = try HostTestSupport.skillhostBinary()
        var processes: [Process] = []
        for index in 0..<20 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            let word = index % 2 == 0 ? "disable" : "enable"
            process.arguments = [word, "p\(index).echo", "--plugins", root + "/plugins",
                                 "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append(process)
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let registry = try host.registryStore.read()
        for index in 0..<20 {
            #expect(registry.skillSettings("p\(index).echo", plugin: "p\(index)").enabled == (index % 2 == 1))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root + "/config").filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)
    }
}
