import Foundation
import SkillJSON
import SkillTestSupport
import Synchronization
import Testing

@testable import SkillHostCore

/// Calls queued in a worker for a pipelined caller (WorkerSlot+Queue.swift), with real workers of the hostile
/// plugin: answers match calls, a call taken back never runs, a slow or crashing call holds up none queued
/// behind it, and the entry words settle "started" against "taken back" exactly once.
@Suite("Queued worker calls", .serialized)
struct QueuedCallTests {
    /// Polls a ``CallReplyPoller`` on a thread of its own, as `skillhost mcp`'s read loop does.
    final class PollerDriver: Sendable {
        let poller = CallReplyPoller()
        private let stopped = Atomic<Bool>(false)
        private let ended = Mutex<Bool>(false)

        func start() {
            let thread = Thread { [self] in
                while !stopped.load(ordering: .relaxed) {
                    if poller.poll() == 0 { usleep(20) }
                }
                ended.withLock { $0 = true }
            }
            thread.start()
        }

        func stop() {
            stopped.store(true, ordering: .relaxed)
            while !ended.withLock({ $0 }) { usleep(100) }
        }
    }

    /// The order calls finished in.
    final class FinishOrder: Sendable {
        let names = Mutex<[String]>([])
    }

    private static func served(_ executor: WorkerPoolExecutor, path: String) async throws -> Int64 {
        try #require(try await executor.execute(HostilePlugins.call("served", path: path))["served"]?.intValue)
    }

    /// A one-worker executor of the hostile plugin whose worker already runs, and a poller being polled.
    private static func warmExecutor() async throws -> (path: String, executor: WorkerPoolExecutor, driver: PollerDriver) {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        _ = try await executor.execute(HostilePlugins.call("ok", path: path))
        let driver = PollerDriver()
        driver.start()
        return (path, executor, driver)
    }

    private static func result(_ executor: WorkerPoolExecutor, _ call: SkillCall) async -> Result<JSONValue, HostError> {
        do throws(HostError) {
            return .success(try await executor.execute(call))
        } catch {
            return .failure(error)
        }
    }

    private static func failure(_ executor: WorkerPoolExecutor, _ call: SkillCall) async -> HostError? {
        if case .failure(let error) = await result(executor, call) { return error }
        return nil
    }

    @Test("entry words: a queued request is started or taken back, never both; unmarked requests run")
    func entryWords() throws {
        let (host, worker) = try SharedCallSlotTests.pair()
        host.markQueued(5)
        #expect(worker.start(5))
        #expect(!host.withdraw(5), "a started request cannot be taken back")
        #expect(host.hasStarted(5))
        host.markQueued(6)
        #expect(host.withdraw(6))
        #expect(!worker.start(6), "a withdrawn request does not run")
        #expect(!host.hasStarted(6))
        #expect(worker.start(7), "a request the host did not queue runs")
        // Request 69 shares request 5's word: an old state of the word says nothing about it.
        host.markQueued(69)
        #expect(!host.hasStarted(69))
        #expect(host.withdraw(69))
        #expect(worker.start(5 + 64 * 2), "a word owned by another request does not withdraw this one")
    }

    @Test("a worker whose request pipe holds less than a whole queue is not given queued calls")
    func smallPipes() throws {
        #expect(WorkerProcess.canQueue(hasSlot: true, requestPipeBytes: 64 << 10))
        #expect(!WorkerProcess.canQueue(hasSlot: true, requestPipeBytes: 4096), "one page (over pipe-user-pages-soft)")
        #expect(!WorkerProcess.canQueue(hasSlot: false, requestPipeBytes: 64 << 10))
        #expect(!WorkerProcess.canQueue(hasSlot: true, requestPipeBytes: -1), "capacity unknown")
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        // The bound a batch's write relies on: what this kernel gives a new pipe, and what one page gives.
        #expect(WorkerProcess.pipeCapacity(ends[1]) >= WorkerProcess.queuedBytesBound)
        #expect(WorkerSlot.queuedEntryLimit * WorkerSlot.queuedFrameLimit <= WorkerProcess.queuedBytesBound)
        _ = fcntl(ends[1], 1031, 4096)  // F_SETPIPE_SZ
        #expect(!WorkerProcess.canQueue(hasSlot: true, requestPipeBytes: WorkerProcess.pipeCapacity(ends[1])))
    }

    @Test("a pipelined burst is queued in the workers: each call gets its own answer, in the workers it was given")
    func burst() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        let before = try await Self.served(executor, path: path)
        let driver = PollerDriver()
        driver.start()
        let answers = await CallReplyPoller.$current.withValue(driver.poller) {
            await withTaskGroup(of: (Int, JSONValue?).self) { group in
                for index in 0..<40 {
                    group.addTask {
                        (index, try? await executor.execute(HostilePlugins.call("ok", ["n": .int(Int64(index))], path: path)))
                    }
                }
                return await group.reduce(into: [Int: JSONValue]()) { $0[$1.0] = $1.1 }
            }
        }
        driver.stop()
        #expect(answers.count == 40)
        for (index, answer) in answers { #expect(answer["echo"]?["n"]?.intValue == Int64(index)) }
        #expect(try await Self.served(executor, path: path) == before + 41, "each call ran once, in the one worker")
        #expect(executor.pool.sharedPlacesGiven >= 20, "the calls were queued in the worker, not run one by one")
        await executor.shutdown()
    }

    @Test("a queued call cancelled before its worker started it never runs; one behind a slow call is handed back")
    func takenBack() async throws {
        let path = try HostilePlugins.library("hostile")
        let configuration = WorkerPoolConfiguration(
            pluginID: "hostile", pluginPath: path, workerExecutable: try HostilePlugins.workerExecutable())
        let slot = WorkerSlot()
        func request(_ name: String, _ arguments: JSONValue = [:]) -> WorkerCallRequest {
            WorkerCallRequest(HostilePlugins.call(name, arguments, path: path), deadlineUnixMilliseconds: 0)
        }
        func far() -> UInt64 { Posix.monotonicNanoseconds() + 10_000_000_000 }
        guard case .reply = await slot.call(request("served"), deadline: far(), configuration: configuration) else {
            Issue.record("the first call did not start the worker")
            return
        }
        let accepts = slot.acceptsQueuedCalls.load(ordering: .sequentiallyConsistent)
        #expect(accepts)
        let driver = PollerDriver()  // not polling yet: nothing queued is written before start()
        func queued(_ name: String, _ arguments: JSONValue = [:]) -> Task<WorkerSlot.Outcome, Never> {
            Task { await slot.queuedCall(request(name, arguments), timeout: 10, poller: driver.poller, configuration: configuration) }
        }
        func waitForEntries(_ count: Int) async {
            while slot.owned.withLock({ $0.queue.entries.count }) < count { try? await Task.sleep(nanoseconds: 1_000_000) }
        }
        let slow = queued("sleep", ["ms": 300])
        await waitForEntries(1)
        let behind = queued("ok")
        await waitForEntries(2)
        let cancelled = queued("ok")
        await waitForEntries(3)
        cancelled.cancel()
        guard case .cancelled = await cancelled.value else {
            Issue.record("the cancelled call was not reported cancelled at once")
            return
        }
        driver.start()
        let slowOutcome = await slow.value
        let behindOutcome = await behind.value
        driver.stop()
        func ran(_ outcome: WorkerSlot.Outcome, _ name: String) -> Bool {
            switch outcome {
            case .reply(let reply): return reply.status == 0
            case .notStarted: return false  // taken back: behind the slow call, or not started within the poll time
            default:
                Issue.record("the \(name) call: \(outcome)")
                return false
            }
        }
        let slowRan = ran(slowOutcome, "slow")
        // Taken back once the slow call's reply was not there within 2 ms (it ran only if the poller was
        // starved for the slow call's whole 300 ms).
        let behindRan = ran(behindOutcome, "queued")
        // Back to a call of its own: the answers to the calls taken back are read first.
        guard case .reply(let reply) = await slot.call(request("served"), deadline: far(), configuration: configuration) else {
            Issue.record("the next call on the slot failed")
            return
        }
        let served = try JSONValue(parsing: reply.json)["served"]?.intValue
        let expected = 1 + (slowRan ? 1 : 0) + (behindRan ? 1 : 0)
        #expect(served.map(Int.init) == expected, "the cancelled call never ran (served \(String(describing: served)), expected \(expected))")
        #expect(!behindRan || slowRan, "a call queued behind the slow one did not run before it")
        await slot.shutdown()
    }

    @Test("a crash of the running call fails it alone; the calls queued behind it run on a fresh worker")
    func crashBehind() async throws {
        let (path, executor, driver) = try await Self.warmExecutor()
        let outcomes = await CallReplyPoller.$current.withValue(driver.poller) {
            await withTaskGroup(of: (Int, Result<JSONValue, HostError>).self) { group in
                group.addTask { (-1, await Self.result(executor, HostilePlugins.call("segfault", path: path))) }
                for index in 0..<6 {
                    group.addTask {
                        (index, await Self.result(executor, HostilePlugins.call("ok", ["n": .int(Int64(index))], path: path)))
                    }
                }
                return await group.reduce(into: [Int: Result<JSONValue, HostError>]()) { $0[$1.0] = $1.1 }
            }
        }
        driver.stop()
        guard case .failure(let crash) = outcomes[-1] else {
            Issue.record("the segfault did not fail")
            return
        }
        #expect(crash.kind == HostError.Kind.pluginCrashed, "\(crash)")
        for index in 0..<6 {
            guard case .success(let value) = outcomes[index] else {
                Issue.record("call \(index) behind the crash failed: \(String(describing: outcomes[index]))")
                continue
            }
            #expect(value["echo"]?["n"]?.intValue == Int64(index))
        }
        await executor.shutdown()
    }

    @Test("a slow call holds up none of the calls queued with it: they finish first, on the other worker")
    func slowAhead() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 2)
        // Start both workers.
        async let first = executor.execute(HostilePlugins.call("sleep", ["ms": 50], path: path))
        async let second = executor.execute(HostilePlugins.call("sleep", ["ms": 50], path: path))
        _ = try await (first, second)
        let driver = PollerDriver()
        driver.start()
        let order = FinishOrder()
        try await CallReplyPoller.$current.withValue(driver.poller) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await executor.execute(HostilePlugins.call("sleep", ["ms": 700], path: path))
                    order.names.withLock { $0.append("slow") }
                }
                try await Task.sleep(nanoseconds: 5_000_000)
                for index in 0..<12 {
                    group.addTask {
                        _ = try await executor.execute(HostilePlugins.call("ok", ["n": .int(Int64(index))], path: path))
                        order.names.withLock { $0.append("ok") }
                    }
                }
                try await group.waitForAll()
            }
        }
        driver.stop()
        let finished = order.names.withLock { $0 }
        #expect(finished.count == 13)
        #expect(finished.last == "slow", "every quick call finished before the slow one: \(finished)")
        await executor.shutdown()
    }

    @Test("a queued call past its timeout stops its worker; a call queued behind it runs")
    func timeoutBehind() async throws {
        let (path, executor, driver) = try await Self.warmExecutor()
        let (hung, after) = await CallReplyPoller.$current.withValue(driver.poller) { () async -> (HostError?, HostError?) in
            async let hung = Self.failure(executor, HostilePlugins.call("hang", path: path, timeout: 0.3))
            try? await Task.sleep(nanoseconds: 5_000_000)
            async let after = Self.failure(executor, HostilePlugins.call("ok", path: path))
            return await (hung, after)
        }
        driver.stop()
        #expect(hung?.kind == .timeout, "\(String(describing: hung))")
        #expect(after == nil, "\(String(describing: after))")
        await executor.shutdown()
    }
}
