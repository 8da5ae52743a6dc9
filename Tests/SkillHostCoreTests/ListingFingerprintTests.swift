import Foundation
@testable import SkillHostCore
import Testing

/// The listing cache's key and the per-process catalog reuse read the same list of inputs
/// (``CatalogInputs``): an input in one and not the other would serve a stale `list` or a stale call.
@Suite("The listing key covers every input of the catalog")
struct ListingFingerprintTests {
    /// A host with a plugin file, a registry, an instruction skill and a crash history, so that every kind
    /// of input `CatalogInputs` names exists.
    func populatedHost() throws -> (host: SkillHost, fingerprint: ListingFingerprint) {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try HostTestSupport.write(#"{"version": 1}"#, to: host.paths.registry)
        try HostTestSupport.write("---\nname: notes\ndescription: Notes.\n---\nBody\n", to: host.paths.skills + "/notes/SKILL.md")
        try HostTestSupport.write("{}", to: host.paths.cache + "/" + PluginHealthStore.fileName)
        let fingerprint = ListingFingerprint(paths: host.paths) { () throws(HostError) in try host.registryStore.read() }
        return (host, fingerprint)
    }

    @Test("the key changes when any path CatalogInputs names changes (touched, or created where it was missing)")
    func everyCatalogInputIsInTheKey() throws {
        let (host, fingerprint) = try populatedHost()
        let paths = CatalogInputs.listing(host.paths).paths
        let root = (host.paths.plugins as NSString).deletingLastPathComponent
        #expect(paths.allSatisfy { $0.hasPrefix(root + "/") }, "every input is in the test's folder (never /etc): \(paths)")
        #expect(paths.contains(host.paths.registry) && paths.contains(host.paths.plugins + "/fixture.so"))
        #expect(paths.contains(host.paths.skills + "/notes/SKILL.md"))
        for (index, path) in paths.enumerated() {
            let before = try fingerprint.key(format: "test")
            #expect(try fingerprint.key(format: "test") == before, "\(path): the key is not stable")
            if Posix.exists(path) {
                let moment = Date(timeIntervalSince1970: TimeInterval(1_000_000 + index))
                try FileManager.default.setAttributes([.modificationDate: moment], ofItemAtPath: path)
            } else {
                guard path.hasPrefix(root + "/") else { continue }  // created only inside the test's folder
                try HostTestSupport.write("", to: path)
            }
            #expect(try fingerprint.key(format: "test") != before, "\(path) is a catalog input but not in the listing key")
        }
    }

    @Test("what only a listing depends on: the format and the scan cache")
    func listingExtras() throws {
        let (host, fingerprint) = try populatedHost()
        let key = try fingerprint.key(format: "test")
        #expect(try fingerprint.key(format: "list --json") != key)
        try HostTestSupport.write("{}", to: ScanCache(directory: host.paths.cache).file)
        #expect(try fingerprint.key(format: "test") != key)
    }
}
