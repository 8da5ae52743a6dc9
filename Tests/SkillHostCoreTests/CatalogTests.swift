import Foundation
import SkillHostCore
import SkillJSON
import Testing

@Suite("Catalog: scan cache, rescans, duplicates, statuses")
struct CatalogTests {
    @Test("every file is listed with its status; an invalid one never hides the valid ones")
    func everyFileListed() throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(["NO_ENTRY"]), into: root + "/plugins", as: "nosymbol.so")
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(["CRASH_ON_LOAD", "PLUGIN_ID=\"crashy\""]), into: root + "/plugins", as: "crashy.so")
        try HostTestSupport.write("not a library", to: root + "/plugins/text.so")
        try HostTestSupport.write("ignored", to: root + "/plugins/readme.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/plugins/gone.so", withDestinationPath: root + "/nowhere.so")
        try FileManager.default.createDirectory(atPath: root + "/plugins/folder.so", withIntermediateDirectories: true)
        let catalog = try host.catalog()
        let byFile = Dictionary(uniqueKeysWithValues: catalog.plugins.map { (($0.path as NSString).lastPathComponent, $0) })
        #expect(byFile.keys.sorted() == ["crashy.so", "fixture.so", "gone.so", "nosymbol.so", "text.so"])
        #expect(byFile["gone.so"]?.status == .invalid)
        #expect(byFile["fixture.so"]?.status == .ok)
        #expect(byFile["fixture.so"]?.skills.count == 7)
        #expect(byFile["nosymbol.so"]?.status == .invalid)
        #expect(byFile["nosymbol.so"]?.error?.contains("skill_plugin_entry") == true)
        #expect(byFile["crashy.so"]?.status == .broken)
        #expect(byFile["crashy.so"]?.error?.contains("SIGSEGV") == true)
        #expect(byFile["text.so"]?.status == .invalid)
        #expect(byFile["text.so"]?.id == "text")
        #expect(catalog.enabledSkills.allSatisfy { $0.pluginID == "fixture" })
    }

    @Test("unchanged files come from the cache: no child runs, even with no scanner at all")
    func cacheHit() throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(["CRASH_ON_LOAD", "PLUGIN_ID=\"crashy\""]), into: root + "/plugins", as: "crashy.so")
        let first = try host.catalog()
        let noScanner = SkillHost(paths: host.paths, helperExecutable: "/nonexistent/skillhost")
        let second = try noScanner.catalog()
        #expect(second == first)
        #expect(second.plugin("crashy")?.status == .broken)
    }

    @Test("a changed file is scanned again; rescan scans everything")
    func rescanAfterChange() throws {
        let (host, root) = try HostTestSupport.makeHost()
        let target = try HostTestSupport.install(try HostTestSupport.fixturePlugin(["CRASH_ON_LOAD"]), into: root + "/plugins", as: "fixture.so")
        #expect(try host.catalog().plugins.first?.status == .broken)
        // Replace the file (new inode, size, mtime): the broken mark goes away.
        try FileManager.default.removeItem(atPath: target)
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        #expect(try host.catalog().plugins.first?.status == .ok)
        // A broken mark (e.g. from a worker) lasts until the file changes or a rescan.
        try host.scanCache.markBroken(path: target, reason: "crashed 3 times")
        #expect(try host.catalog().plugins.first?.error == "crashed 3 times")
        #expect(try host.rescan().plugins.first?.status == .ok)
        #expect(try host.catalog().plugins.first?.status == .ok)
    }

    @Test("inspect --json shows a skill's summary template, null when it has none")
    func detailJSONSummary() {
        var skill = SkillDescription(
            id: "clock.now", title: "Current time", description: "Now.", parameters: ["type": "object"],
            permission: .read, timeout: 5, idempotent: true, examples: [], pluginID: "clock", pluginPath: "/p/clock.so",
            enabled: true, approval: .allow)
        #expect(skill.detailJSON["summary"] == .null)
        skill.summary = "It is {time}."
        #expect(skill.detailJSON["summary"] == "It is {time}.")
        #expect(skill.summaryJSON["summary"] == nil, "list --json stays as it was")
    }

    @Test("a missing plugins folder is an empty catalog")
    func missingFolder() throws {
        let root = HostTestSupport.temporaryDirectory()
        let host = SkillHost(paths: HostTestSupport.paths(root: root), helperExecutable: try HostTestSupport.skillhostBinary())
        #expect(try host.catalog().plugins.isEmpty)
    }

    @Test("two files with one plugin id are duplicates: both invalid, each naming the other file")
    func duplicatePluginIDs() throws {
        let (host, root) = try HostTestSupport.makeHost()
        let a = try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "a.so")
        let b = try HostTestSupport.install(try HostTestSupport.fixturePlugin(["PLUGIN_ID=\"fixture\"", "DUPLICATE_COPY"]), into: root + "/plugins", as: "b.so")
        let catalog = try host.catalog()
        #expect(catalog.plugins.count == 2)
        for record in catalog.plugins {
            #expect(record.id == "fixture")
            #expect(record.status == .invalid)
            #expect(record.error?.contains("duplicate plugin id \"fixture\"") == true)
            #expect(record.error?.contains(a) == true)
            #expect(record.error?.contains(b) == true)
        }
        #expect(catalog.enabledSkills.isEmpty)
    }

    /// The plugin receives skill ids exactly as its manifest wrote them, so a manifest in any other form
    /// than the canonical one is invalid (and listed as such), never `ok` with ids the plugin cannot match.
    @Test("a manifest whose ids are in upper case or carry invisible characters is invalid, with the form to write",
          arguments: ["Fixture\u{200B}", "ＦＩＸＴＵＲＥ", "FIXTURE"])
    func nonCanonicalPluginIDs(variant: String) throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(["PLUGIN_ID=\"\(variant)\""]), into: root + "/plugins", as: "b.so")
        let record = try #require(try host.catalog().plugins.first)
        #expect(record.status == .invalid)
        #expect(record.error?.contains("manifest /id") == true, "\(record.error ?? "")")
        #expect(try host.catalog().enabledSkills.isEmpty)
    }

    @Test("skills are found by any spelling of their id")
    func lookupNormalizes() throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        let catalog = try host.catalog()
        for spelling in ["fixture.echo", "Fixture.Echo\n", "ｆｉｘｔｕｒｅ.echo", "fixture.echo\u{200B}"] {
            #expect(catalog.skill(spelling)?.skill.id == "fixture.echo")
        }
        #expect(catalog.plugin(" FIXTURE ")?.id == "fixture")
    }

    @Test("a corrupt scan cache is treated as empty and rewritten")
    func corruptCache() throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try HostTestSupport.write("{\"version\": 1, \"entries\": [garbage", to: host.scanCache.file)
        #expect(try host.catalog().plugins.first?.status == .ok)
        #expect(host.scanCache.load().count == 1)
    }

    @Test("repeated worker crashes recorded in the health store show as broken until rescan")
    func workerCrashHistory() throws {
        let (host, root) = try HostTestSupport.makeHost()
        let path = try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        let health = PluginHealthStore(cacheDirectory: host.paths.cache)
        try health.recordCrash(pluginID: "fixture", path: path, message: "plugin fixture crashed: signal 11", limit: 1)
        let broken = try #require(try host.catalog().plugin("fixture"))
        #expect(broken.status == .broken)
        #expect(broken.error?.contains("signal 11") == true)
        #expect(try host.enabledSkills().isEmpty)
        #expect(try host.rescan().plugin("fixture")?.status == .ok)
    }

    @Test("paths come from flags, then SKILLHOST_* variables, then XDG defaults")
    func pathResolution() {
        let environment = ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "SKILLHOST_CACHE": "/envcache"]
        let paths = HostPaths.resolve(plugins: "/flag/plugins", environment: environment)
        #expect(paths.plugins == "/flag/plugins")
        #expect(paths.registry == "/cfg/skillhost/skill_registry.json")
        #expect(paths.cache == "/envcache")
        #expect(paths.data == "/home/u/.local/share/skillhost/data")
        #expect(paths.dataDirectory(forPlugin: "Clock") == "/home/u/.local/share/skillhost/data/clock")
        let defaults = HostPaths.resolve(environment: ["HOME": "/home/u", "SKILLHOST_PLUGINS": ""])
        #expect(defaults.plugins == "/home/u/.local/share/skillhost/plugins")
        #expect(defaults.cache == "/home/u/.cache/skillhost")
    }
}
