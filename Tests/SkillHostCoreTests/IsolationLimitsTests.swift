import SkillHostCore
import SkillJSON
import Synchronization
import Testing

/// Rate limits per skill and resource limits read from the registry.
@Suite("Rate and resource limits")
struct IsolationLimitsTests {
    /// A clock the test moves by hand.
    final class FakeClock: Sendable {
        let now = Mutex<Double>(1000)
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    @Test("calls beyond the per-minute limit are refused with when to retry")
    func rateLimit() throws {
        let clock = FakeClock()
        let limiter = RateLimiter(clock: { clock.now.withLock { $0 } })
        try limiter.admit(skillID: "a.b", limitPerMinute: 2)
        clock.advance(10)
        try limiter.admit(skillID: "a.b", limitPerMinute: 2)
        do {
            try limiter.admit(skillID: "a.b", limitPerMinute: 2)
            Issue.record("a third call within a minute was admitted")
        } catch {
            #expect(error.kind == .rateLimited)
            #expect(error.message.contains("limited to 2 calls per minute; retry in 50 s"), "\(error.message)")
            #expect(error.details?["retry_after_seconds"] == 50)
        }
        // Other skills have their own window.
        try limiter.admit(skillID: "a.c", limitPerMinute: 2)
        // Once the first call leaves the window, one more fits.
        clock.advance(50.5)
        try limiter.admit(skillID: "a.b", limitPerMinute: 2)
        #expect(throws: HostError.self) { try limiter.admit(skillID: "a.b", limitPerMinute: 2) }
    }

    @Test("no limit, or a limit of 0, admits everything")
    func unlimited() throws {
        let limiter = RateLimiter()
        for _ in 0..<1000 {
            try limiter.admit(skillID: "a.b", limitPerMinute: nil)
            try limiter.admit(skillID: "a.c", limitPerMinute: 0)
        }
    }

    @Test("the rate-limit gate names the plugin and skill")
    func gate() throws {
        let gate = RateLimitGate()
        let skill = SkillDescription(
            id: "p.s", title: "S", description: "d", parameters: ["type": "object"], permission: .read, timeout: 5,
            idempotent: true, examples: [], pluginID: "p", pluginPath: "/x/libp.so", enabled: true, approval: .allow,
            rateLimitPerMinute: 1)
        let plugin = PluginRecord(id: "p", path: "/x/libp.so", status: .ok, enabled: true)
        try gate.check(skill, plugin: plugin)
        do {
            try gate.check(skill, plugin: plugin)
            Issue.record("the second call was admitted")
        } catch {
            #expect(error.kind == .rateLimited && error.skillID == "p.s" && error.pluginID == "p")
        }
    }

    @Test("registry limits lay over the defaults; 0 and null mean no limit")
    func overlay() throws {
        let limits = try ResourceLimits.defaults.overlaid(
            with: ["address_space_mb": 2048, "open_files": 0, "cpu_seconds": nil, "processes": 16, "other": "ignored"],
            at: "/plugins/clock/limits")
        #expect(limits == ResourceLimits(addressSpaceMB: 2048, cpuSeconds: nil, openFiles: nil, processes: 16, fileSizeMB: 1024))
        #expect(try ResourceLimits.defaults.overlaid(with: ["file_size_mb": 0], at: "/defaults/limits").fileSizeMB == nil)
        #expect(try ResourceLimits.defaults.overlaid(with: nil, at: "/defaults/limits") == .defaults)
    }

    @Test("bad registry limits name the JSON pointer and the fix")
    func badOverlay() {
        for (value, pointer) in [
            (["cpu_seconds": -1] as JSONValue, "/plugins/x/limits/cpu_seconds"),
            (["open_files": "many"], "/plugins/x/limits/open_files"),
            (["address_space_mb": 1.5], "/plugins/x/limits/address_space_mb"),
            (["processes": -2], "/plugins/x/limits/processes"),
            (["file_size_mb": "big"], "/plugins/x/limits/file_size_mb"),
            ([1, 2], "/plugins/x/limits"),
        ] {
            do {
                _ = try ResourceLimits.defaults.overlaid(with: value, at: "/plugins/x/limits")
                Issue.record("\(value.serialized()) was accepted")
            } catch {
                #expect(error.kind == .registry)
                #expect(error.message.contains(pointer), "\(error.message)")
            }
        }
    }

    @Test("limits cross to the worker as arguments and back")
    func workerArguments() {
        let limits = ResourceLimits(addressSpaceMB: 512, cpuSeconds: nil, openFiles: 32)
        let parsed = ResourceLimits.parse(workerArguments: ["/p/libx.so"] + limits.workerArguments)
        #expect(parsed.limits == limits)
        #expect(parsed.rest == ["/p/libx.so"])
    }
}
