import Dispatch
import Foundation
import SkillHostCore
import Synchronization
import Testing

/// The rate-limit window shared between processes through the cache folder.
@Suite("Shared rate-limit window")
struct IsolationRateWindowTests {
    final class FakeClock: Sendable {
        let now = Mutex<Double>(1_764_000_000)
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    private func cacheFolder() -> String {
        NSTemporaryDirectory() + "skillhost-rate-\(UUID().uuidString.prefix(8))"
    }

    @Test("two windows over the same folder (two processes) count together")
    func sharedBetweenInstances() throws {
        let folder = cacheFolder()
        let clock = FakeClock()
        let first = RateLimitWindowFile(cacheDirectory: folder, clock: { clock.now.withLock { $0 } })
        let second = RateLimitWindowFile(cacheDirectory: folder, clock: { clock.now.withLock { $0 } })
        try first.admit(skillID: "a.b", limitPerMinute: 2)
        clock.advance(15)
        try second.admit(skillID: "a.b", limitPerMinute: 2)
        do {
            try first.admit(skillID: "a.b", limitPerMinute: 2)
            Issue.record("a third call within the minute was admitted")
        } catch {
            #expect(error.kind == .rateLimited)
            #expect(error.message.contains("retry in 45 s"), "\(error.message)")
        }
        clock.advance(45.5)
        try second.admit(skillID: "a.b", limitPerMinute: 2)
    }

    @Test("concurrent admissions never exceed the limit")
    func concurrentAdmissions() {
        let window = RateLimitWindowFile(cacheDirectory: cacheFolder())
        let admitted = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 10) { _ in
            if (try? window.admit(skillID: "a.b", limitPerMinute: 4)) != nil {
                admitted.add(1, ordering: .relaxed)
            }
        }
        #expect(admitted.load(ordering: .relaxed) == 4)
    }

    @Test("skills without a limit do not touch the file; a corrupt file is replaced")
    func unlimitedAndCorrupt() throws {
        let folder = cacheFolder()
        let window = RateLimitWindowFile(cacheDirectory: folder)
        try window.admit(skillID: "a.b", limitPerMinute: nil)
        #expect(!FileManager.default.fileExists(atPath: window.path))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("[broken".utf8).write(to: URL(fileURLWithPath: window.path))
        try window.admit(skillID: "a.b", limitPerMinute: 1)
        #expect(throws: HostError.self) { try window.admit(skillID: "a.b", limitPerMinute: 1) }
    }
}
