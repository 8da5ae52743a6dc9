import Testing

@testable import SkillHostCore

#if canImport(Glibc)
import Glibc
#endif

/// The shared-memory lane between host and worker (SharedCallSlot): frames pass while both sides spin,
/// and a side that went to sleep on its pipe is never posted to (the post is taken back).
@Suite("Worker shared call slot")
struct SharedCallSlotTests {
    /// A host side and a worker side over one memfd, in this process.
    static func pair() throws -> (host: SharedCallSlot, worker: SharedCallSlot) {
        let host = try #require(SharedCallSlot.create())
        let copy = dup(host.descriptor)
        let worker = try #require(SharedCallSlot.attach(environment: String(copy)))
        return (host, worker)
    }

    static func frame(_ kind: WorkerFrame.Kind, _ text: String) -> [UInt8] {
        var encoder = FrameEncoder(kind)
        encoder.append(text)
        return encoder.finish()
    }

    @Test("a request and its reply travel through the slot when both sides are awake")
    func roundTrip() throws {
        let (host, worker) = try Self.pair()
        let request = WorkerCallRequest(
            skillID: "bench.echo", callID: "c1", sessionID: "", idempotencyKey: "", dataDirectory: "/tmp",
            deadlineUnixMilliseconds: 0, configurationJSON: Array("{}".utf8), argumentsJSON: Array(#"{"a":1}"#.utf8),
            context: [:])
        #expect(host.postRequest(request.encodedFrame()))
        let received = try #require(worker.takeRequest(WorkerCallRequest.decode(slotFrame:)))
        let decoded = try received.get()
        #expect(decoded.skillID == "bench.echo")
        #expect(decoded.argumentsJSON == Array(#"{"a":1}"#.utf8))
        let reply = WorkerCallReply(status: 0, json: Array(#"{"ok":true}"#.utf8))
        #expect(worker.postReply(reply.encodedFrame()))
        let bytes = try #require(host.takeReply { Array($0) })
        #expect(bytes == reply.encodedFrame())
    }

    @Test("a worker that gave up spinning is not posted to: the host sends on the pipe instead")
    func sleepingWorkerGetsThePipe() throws {
        let (host, worker) = try Self.pair()
        #expect(worker.takeRequest { _ in 0 } == nil)  // nothing came: the worker goes to sleep on its pipe
        #expect(!host.postRequest(Self.frame(.call, "x")))
        worker.workerWoke()  // a request came on the pipe; the worker is awake again
        #expect(host.postRequest(Self.frame(.call, "y")))
        #expect(worker.takeRequest { Array($0) } == Self.frame(.call, "y"))
    }

    @Test("a host that gave up spinning gets the reply on the pipe, and the slot is free again")
    func sleepingHostGetsThePipe() throws {
        let (host, worker) = try Self.pair()
        #expect(host.postRequest(Self.frame(.call, "x")))
        #expect(worker.takeRequest { _ in 0 } == 0)
        #expect(host.takeReply { _ in 0 } == nil)  // the skill is slow: the host sleeps on its pipe
        #expect(!worker.postReply(Self.frame(.reply, "r")))
        host.hostWoke()
        #expect(host.postRequest(Self.frame(.call, "next")))
        #expect(worker.takeRequest { Array($0) } == Self.frame(.call, "next"))
    }

    @Test("a worker of a pipelined host sleeps at once instead of spinning; without the word it spins its budget")
    func pipelinedHostStopsTheWorkerSpin() throws {
        // Not pipelined: a wait with nothing to take lasts the whole spin budget (a lower bound, whatever the load).
        let (plainHost, plainWorker) = try Self.pair()
        let plainStart = Posix.monotonicNanoseconds()
        #expect(plainWorker.takeRequest { _ in 0 } == nil)
        #expect(Posix.monotonicNanoseconds() - plainStart >= SpinBudget.maximum)
        #expect(!plainHost.postRequest(Self.frame(.call, "x")))  // it sleeps on its pipe now
        // Pipelined: one look, then asleep. The fastest of a few waits is far below the budget (a single
        // wait may be preempted on a loaded machine; all of them are not).
        var fastest = UInt64.max
        for _ in 0..<5 {
            let (host, worker) = try Self.pair()
            host.announcePipelined(true)
            let start = Posix.monotonicNanoseconds()
            #expect(worker.takeRequest { _ in 0 } == nil)
            fastest = min(fastest, Posix.monotonicNanoseconds() - start)
            #expect(!host.postRequest(Self.frame(.call, "x")))  // the worker sleeps: the request takes the pipe
            // The host stops pipelining: the worker, awake again, spins for the next request as before.
            worker.workerWoke()
            host.announcePipelined(false)
            let again = Posix.monotonicNanoseconds()
            #expect(worker.takeRequest { _ in 0 } == nil)
            #expect(Posix.monotonicNanoseconds() - again >= SpinBudget.maximum)
        }
        #expect(fastest < SpinBudget.maximum / 2)
    }

    @Test("a frame larger than the slot goes on the pipe")
    func largeFrames() throws {
        let (host, _) = try Self.pair()
        #expect(!host.postRequest([UInt8](repeating: 1, count: SharedCallSlot.capacity + 1)))
    }

    @Test("a corrupt frame in the slot is a protocol error, not a crash")
    func corruptFrame() throws {
        let (host, worker) = try Self.pair()
        #expect(host.postRequest([1, 2, 3, 4, 5, 6, 7, 8, 9]))
        let received = try #require(worker.takeRequest(WorkerCallRequest.decode(slotFrame:)))
        guard case .failure(.corrupt) = received else {
            Issue.record("expected a corrupt-frame failure, got \(received)")
            return
        }
    }

    @Test("the worker only accepts a shared-memory file of the slot's size as its slot")
    func attachChecksTheDescriptor() {
        #expect(SharedCallSlot.attach(environment: nil) == nil)
        #expect(SharedCallSlot.attach(environment: "banana") == nil)
        #expect(SharedCallSlot.attach(environment: "1") == nil)
        let file = open("/dev/null", O_RDONLY)
        #expect(SharedCallSlot.attach(environment: String(file)) == nil)
        close(file)
    }
}
