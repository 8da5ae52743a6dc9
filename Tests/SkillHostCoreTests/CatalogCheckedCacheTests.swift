import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// The scan cache remembers that an unchanged file's manifest passed every check (`checked_rules`), so the
/// catalog — on every `list` and every `invoke` — does not validate it and compile its schemas again; the
/// memory holds only for the same file version and the same rules.
@Suite("Catalog: checked manifests are cached")
struct CatalogCheckedCacheTests {
    /// Rewrites the scan cache entry of the only plugin with `change`.
    static func editCacheEntry(_ host: SkillHost, _ change: (inout [String: Any]) -> Void) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: host.scanCache.file))
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var entries = try #require(document["entries"] as? [String: Any])
        let path = try #require(entries.keys.first)
        var entry = try #require(entries[path] as? [String: Any])
        change(&entry)
        entries[path] = entry
        document["entries"] = entries
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: host.scanCache.file))
    }

    /// Replaces the first skill's parameters in a cached manifest with a schema that does not compile.
    static func breakParameters(_ entry: inout [String: Any]) {
        var manifest = entry["manifest"] as! [String: Any]
        var skills = manifest["skills"] as! [[String: Any]]
        skills[0]["parameters"] = ["type": "object", "properties": ["x": ["type": "no-such-type"]]]
        manifest["skills"] = skills
        entry["manifest"] = manifest
    }

    @Test("the first catalog records the rules a manifest passed; later catalogs trust that record")
    func checkedOnce() throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        let first = try host.catalog()
        #expect(first.plugin("fixture")?.status == .ok)
        let entry = try #require(host.scanCache.load().values.first)
        #expect(entry.checkedRules == ManifestValidator.rulesFingerprint)
        // Proof that the checks are skipped: a parameters schema that cannot compile, planted in the cache
        // under the current rules, is not noticed.
        try Self.editCacheEntry(host) { Self.breakParameters(&$0) }
        #expect(try host.catalog().plugin("fixture")?.status == .ok)
    }

    @Test("a record made under other rules is checked again (and a bad manifest caught)")
    func otherRulesCheckAgain() throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        _ = try host.catalog()
        try Self.editCacheEntry(host) { entry in
            Self.breakParameters(&entry)
            entry["checked_rules"] = "rules-of-an-older-host"
        }
        let record = try #require(try host.catalog().plugin("fixture"))
        #expect(record.status == .invalid)
        #expect(record.error?.contains("no-such-type") == true)
    }

    @Test("a changed file loses the record: it is scanned and checked again")
    func changedFile() throws {
        let (host, root) = try HostTestSupport.makeHost()
        let target = try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        _ = try host.catalog()
        try Self.editCacheEntry(host) { Self.breakParameters(&$0) }
        // Replace the file (new inode and mtime): the planted entry no longer matches.
        try FileManager.default.removeItem(atPath: target)
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        #expect(try host.catalog().plugin("fixture")?.status == .ok)
        #expect(host.scanCache.load().values.first?.checkedRules == ManifestValidator.rulesFingerprint)
    }

    @Test("the record is kept for a structurally bad cached manifest only if the typed read still passes")
    func typedReadStillRuns() throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        _ = try host.catalog()
        try Self.editCacheEntry(host) { entry in
            var manifest = entry["manifest"] as! [String: Any]
            manifest["version"] = 7  // not a string: the typed reader refuses it whatever the record says
            entry["manifest"] = manifest
        }
        #expect(try host.catalog().plugin("fixture")?.status == .invalid)
    }
}
