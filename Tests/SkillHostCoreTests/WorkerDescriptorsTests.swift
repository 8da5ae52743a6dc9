import Foundation
@testable import SkillHostCore
import SkillJSON
import Testing

/// Both ways a pool starts a worker (a spawn, a spare adopted) hand it the shared call slot: a worker that
/// lost it would still answer, on its pipes alone and slower, so only its memory map shows it.
@Suite("Worker descriptors")
struct WorkerDescriptorsTests {
    /// Whether `pid` maps a shared call slot (`/dev/shm/skillhost-slot-…`, unlinked at once).
    private func mapsSlot(_ pid: Int64) -> Bool {
        HostTestSupport.memoryMap(of: pid).contains("/skillhost-slot-")
    }

    private func workerPID(_ executor: WorkerPoolExecutor, _ path: String) async throws -> Int64 {
        try #require(try await executor.execute(HostilePlugins.call("pid", path: path))["pid"]?.intValue)
    }

    @Test("a spawned worker maps the shared call slot, and so does an adopted spare")
    func slotReachesEveryWorker() async throws {
        let path = try HostilePlugins.library("hostile")
        let spawned = try HostilePlugins.executor(path, maxWorkers: 1)
        let pid = try await workerPID(spawned, path)
        #expect(mapsSlot(pid), "the spawned worker \(pid) runs without its slot")
        await spawned.shutdown()

        let prestart = WorkerPrestart()
        await prestart.start(executable: try HostilePlugins.workerExecutable(), namespaces: false)  // the pool below has no sandbox
        let spare = try #require(prestart.sparePID)
        var configuration = WorkerPoolConfiguration(
            pluginID: "hostile", pluginPath: path, workerExecutable: try HostilePlugins.workerExecutable(), maxWorkers: 1)
        configuration.prestart = prestart
        let adopting = WorkerPoolExecutor(configuration)
        #expect(try await workerPID(adopting, path) == Int64(spare))
        #expect(mapsSlot(Int64(spare)), "the adopted spare \(spare) runs without its slot")
        await adopting.shutdown()
        await prestart.shutdown()
    }
}
