import Dispatch
import Foundation
import SkillHostCore
import Testing

/// The crash history kept in the cache folder.
@Suite("Worker health store")
struct WorkerHealthStoreTests {
    private func setUp() throws -> (store: PluginHealthStore, plugin: String) {
        let folder = NSTemporaryDirectory() + "skillhost-health-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/cache", withIntermediateDirectories: true)
        let plugin = folder + "/libp.so"
        try Data("plugin".utf8).write(to: URL(fileURLWithPath: plugin))
        return (PluginHealthStore(cacheDirectory: folder + "/cache"), plugin)
    }

    @Test("crashes count up to the limit, then the plugin is broken; clear forgets them")
    func counting() throws {
        let (store, plugin) = try setUp()
        #expect(store.record(pluginID: "p", path: plugin) == nil)
        for expected in 1...3 {
            let record = try store.recordCrash(pluginID: "p", path: plugin, message: "crash \(expected)", limit: 3)
            #expect(record.consecutiveCrashes == expected)
            #expect(record.broken == (expected == 3))
        }
        #expect(store.brokenReason(pluginID: "p", path: plugin) == "crashed 3 times in a row; last: crash 3")
        try store.clear(pluginID: "p")
        #expect(store.record(pluginID: "p", path: plugin) == nil)
    }

    @Test("crashes recorded at the same time from many threads all count (the file is locked)")
    func concurrentCrashes() throws {
        let (store, plugin) = try setUp()
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            _ = try? store.recordCrash(pluginID: "p", path: plugin, message: "crash \(index)", limit: 100)
        }
        #expect(store.record(pluginID: "p", path: plugin)?.consecutiveCrashes == 12)
    }

    @Test("a changed plugin file starts a fresh history")
    func changedFile() throws {
        let (store, plugin) = try setUp()
        try store.recordCrash(pluginID: "p", path: plugin, message: "crash", limit: 1)
        #expect(store.brokenReason(pluginID: "p", path: plugin) != nil)
        try Data("plugin, fixed".utf8).write(to: URL(fileURLWithPath: plugin))
        #expect(store.brokenReason(pluginID: "p", path: plugin) == nil)
        #expect(try store.recordCrash(pluginID: "p", path: plugin, message: "again", limit: 5).consecutiveCrashes == 1)
    }

    @Test("a corrupt health file is replaced, not fatal")
    func corruptFile() throws {
        let (store, plugin) = try setUp()
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(store.record(pluginID: "p", path: plugin) == nil)
        #expect(try store.recordCrash(pluginID: "p", path: plugin, message: "crash", limit: 5).consecutiveCrashes == 1)
        #expect(store.record(pluginID: "p", path: plugin)?.lastCrash == "crash")
    }
}
