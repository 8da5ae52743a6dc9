import Foundation
import SkillHostCore
import SkillJSON
import Testing

@Suite("Listing cache: list's output remembered until an input changes")
struct ListingCacheTests {
    /// Counts how often the catalog had to be rendered (a cache miss).
    final class Renders: @unchecked Sendable {
        var count = 0
        func render(_ catalog: Catalog) -> [UInt8] {
            count += 1
            return Array(catalog.json.serialized().utf8)
        }
    }

    /// A host with the fixture plugin and a crashing one installed.
    func hostWithPlugins() throws -> (host: SkillHost, root: String, fixture: String) {
        let (host, root) = try HostTestSupport.makeHost()
        let fixture = try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try HostTestSupport.install(
            try HostTestSupport.fixturePlugin(["CRASH_ON_LOAD", "PLUGIN_ID=\"crashy\""]), into: root + "/plugins", as: "crashy.so")
        chmod(root + "/plugins", 0o700)
        return (host, root, fixture)
    }

    /// Lists until the output comes from the cache (the first build writes the scan cache, so the second
    /// stores the listing); returns the output and how many renders that took.
    func warm(_ host: SkillHost, _ renders: Renders) throws -> [UInt8] {
        var output: [UInt8] = []
        for _ in 0..<3 { output = try host.listing(format: "test", render: renders.render) }
        return output
    }

    @Test("an unchanged catalog is served from the cache, byte for byte what a fresh build renders")
    func hitEqualsFresh() throws {
        let (host, _, _) = try hostWithPlugins()
        let renders = Renders()
        let output = try warm(host, renders)
        #expect(renders.count == 2, "cold build, then a build that stores, then a hit")
        #expect(try host.listing(format: "test", render: renders.render) == output)
        #expect(renders.count == 2)
        #expect(output == Array(try host.catalog().json.serialized().utf8))
        #expect(try host.listing(format: "other", render: renders.render) == output)
        #expect(renders.count == 3, "another format is another key")
    }

    @Test("a changed plugin file, registry, permission, broken mark or health record makes a new listing")
    func invalidation() throws {
        let (host, root, fixture) = try hostWithPlugins()
        let renders = Renders()
        _ = try warm(host, renders)
        var expected = renders.count

        func expectMiss(_ what: String, _ change: () throws -> Void) throws {
            try change()
            let output = try host.listing(format: "test", render: renders.render)
            expected += 1
            #expect(renders.count == expected, "\(what) must invalidate the listing")
            #expect(output == Array(try host.catalog().json.serialized().utf8), "\(what): stale output")
            _ = try warm(host, renders)
            expected = renders.count
        }
        try expectMiss("a touched plugin") {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: fixture)
        }
        try expectMiss("a new plugin file") {
            try HostTestSupport.install(try HostTestSupport.fixturePlugin(["NO_ENTRY"]), into: root + "/plugins", as: "nosymbol.so")
        }
        try expectMiss("a registry change") {
            _ = try host.setEnabled(["fixture"], false)
        }
        #expect(try host.catalog().plugin("fixture")?.status == .disabled)
        _ = try host.setEnabled(["fixture"], true)
        _ = try warm(host, renders)
        expected = renders.count
        try expectMiss("a plugin file others may write") { chmod(fixture, 0o775) }
        let denied = try host.listing(format: "test", render: renders.render)
        #expect(String(decoding: denied, as: UTF8.self).contains("\"status\":\"denied\""))
        try expectMiss("the file made safe again") { chmod(fixture, 0o755) }
        try expectMiss("a worker's broken mark") {
            try host.scanCache.markBroken(path: fixture, reason: "crashed 3 times")
        }
        #expect(String(decoding: try host.listing(format: "test", render: renders.render), as: UTF8.self).contains("crashed 3 times"))
        try expectMiss("a health record") {
            try PluginHealthStore(cacheDirectory: host.paths.cache).recordCrash(
                pluginID: "fixture", path: fixture, message: "boom", limit: 1)
        }
        try expectMiss("a removed plugin file") { try FileManager.default.removeItem(atPath: root + "/plugins/crashy.so") }
    }

    @Test("an instruction skill added, changed or clashing with a plugin id makes a new listing")
    func instructionSkills() throws {
        let (host, root, _) = try hostWithPlugins()
        let renders = Renders()
        _ = try warm(host, renders)
        func skill(_ name: String, _ description: String) throws {
            try HostTestSupport.write("---\nname: \(name)\ndescription: \(description)\n---\n\nBody.\n",
                                      to: root + "/skills/\(name)/SKILL.md")
        }
        try skill("notes", "Take notes.")
        var text = String(decoding: try warm(host, renders), as: UTF8.self)
        #expect(text.contains("Take notes."))
        #expect(Array(text.utf8) == Array(try host.catalog().json.serialized().utf8))
        let count = renders.count
        try skill("notes", "Write notes down.")
        text = String(decoding: try host.listing(format: "test", render: renders.render), as: UTF8.self)
        #expect(renders.count == count + 1)
        #expect(text.contains("Write notes down."))
        try skill("fixture", "Same id as the plugin.")
        text = String(decoding: try warm(host, renders), as: UTF8.self)
        #expect(text.contains("duplicate id \\\"fixture\\\""))
        #expect(Array(text.utf8) == Array(try host.catalog().json.serialized().utf8))
    }

    @Test("a corrupt, truncated or foreign cache file is ignored and rebuilt")
    func corruptFile() throws {
        let (host, _, _) = try hostWithPlugins()
        let renders = Renders()
        let output = try warm(host, renders)
        let file = ListingCache(directory: host.paths.cache).file
        let good = try Data(contentsOf: URL(fileURLWithPath: file))
        let damaged: [Data] = [
            Data(), good.prefix(good.count / 2), good.prefix(good.count - 1), Data("not a cache".utf8),
            { var copy = good; copy[copy.count / 2] ^= 0x20; return copy }(),
            Data(String(decoding: good, as: UTF8.self).replacingOccurrences(of: "skillhost-listing 1", with: "skillhost-listing 9").utf8),
        ]
        for bytes in damaged {
            try bytes.write(to: URL(fileURLWithPath: file))
            let before = renders.count
            #expect(try host.listing(format: "test", render: renders.render) == output)
            #expect(renders.count == before + 1, "a damaged file is never used")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == good, "and it is rewritten")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: host.paths.cache).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("the file keeps key and output apart and refuses every truncation")
    func fileLayout() {
        let cache = ListingCache(directory: HostTestSupport.temporaryDirectory())
        let key = Array("so a.so 1 2 3\n".utf8)
        let output = Array("{\"plugins\":[]}\n12\n".utf8)
        #expect(throws: Never.self) { try cache.store(output, forKey: key) }
        #expect(cache.output(forKey: key) == output)
        #expect(cache.output(forKey: key + [0x20]) == nil)
        #expect(cache.output(forKey: Array(key.dropLast())) == nil)
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: cache.file))) ?? Data()
        for length in stride(from: 0, to: bytes.count, by: 1) {
            try? bytes.prefix(length).write(to: URL(fileURLWithPath: cache.file))
            #expect(cache.output(forKey: key) == nil, "truncated to \(length) bytes")
        }
    }

    @Test("list --json prints the same bytes cold, on the storing run and from the cache")
    func cliColdWarmEqual() throws {
        let (_, root, fixture) = try hostWithPlugins()
        chmod(fixture, 0o755)
        let cold = try HostTestSupport.skillhost(["list", "--json"], root: root)
        #expect(cold.status == 0)
        let storing = try HostTestSupport.skillhost(["list", "--json"], root: root)
        #expect(FileManager.default.fileExists(atPath: root + "/cache/" + ListingCache.fileName))
        let warm = try HostTestSupport.skillhost(["list", "--json"], root: root)
        #expect(storing.stdout == cold.stdout)
        #expect(warm.stdout == cold.stdout)
        let parsed = try JSONValue(parsing: warm.stdout)
        #expect(parsed["plugins"]?.arrayValue?.count == 2)
        let table = try HostTestSupport.skillhost(["list"], root: root)
        #expect(table.stdout.hasPrefix("PLUGIN"), "the table is its own format, not the cached JSON")
        try FileManager.default.removeItem(atPath: root + "/cache")
        #expect(try HostTestSupport.skillhost(["list", "--json"], root: root).stdout == cold.stdout)
    }
}
