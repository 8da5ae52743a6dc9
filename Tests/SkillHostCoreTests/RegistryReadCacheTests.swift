import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// A read of unchanged registry bytes reuses the last parse; any change of the bytes is read, however soon.
@Suite("Registry: reads reuse the last parse of the same bytes")
struct RegistryReadCacheTests {
    @Test("a file rewritten in place within the same instant, to the same size, is read anew")
    func changeOfTheSameSizeIsSeen() throws {
        let path = HostTestSupport.temporaryDirectory() + "/skill_registry.json"
        let store = RegistryStore(path: path)
        // Same length, written in place (same inode): neither size nor inode tells them apart, and the
        // modification time may not either at the kernel's clock granularity.
        try #"{"version": 1, "plugins": {"clock": {"enabled": false}}}"#.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try !store.read().pluginEnabled("clock"))
        #expect(try !store.read().pluginEnabled("clock"), "the same bytes again")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(#"{"version": 1, "plugins": {"clack": {"enabled": false}}}"#.utf8))
        try handle.close()
        #expect(try store.read().pluginEnabled("clock"))
        #expect(try !store.read().pluginEnabled("clack"))
    }

    @Test("a file broken after a good read is an error, not the last good registry")
    func brokenAfterGoodIsAnError() throws {
        let path = HostTestSupport.temporaryDirectory() + "/skill_registry.json"
        let store = RegistryStore(path: path)
        try #"{"version": 1, "trust": "warn"}"#.write(toFile: path, atomically: false, encoding: .utf8)
        _ = try store.read()
        try #"{"version": 1, "trust": "warn""#.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: HostError.self) { try store.read() }
        try #"{"version": 1, "trust": "warn"}"#.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try store.read().trustPolicy == .warn)
    }
}
