import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A worker's shared-memory fast lane for calls: one request/reply slot in shared memory that the host creates,
/// maps, and hands to the worker (descriptor 3, named by `SKILLHOST_WORKER_CHANNEL`). A call whose frames
/// fit travels through the slot while the other side is spinning for it — no system call, no wake-up;
/// everything else (large frames, a side that went to sleep) travels through the worker's pipes exactly as
/// before, so the pipes stay the only place anyone blocks: deadlines, crash detection (end of file) and a
/// host that died all work as without the slot.
///
/// Protocol. The slot holds the same bytes as a pipe frame (``WorkerFrame``: header and payload).
/// `state` moves idle → request → claimed → reply → taken → request … (`taken`, like `idle`, means the slot
/// holds no post). Each side spins a bounded, adaptive time
/// for the other; when it gives up it raises its `sleeping` flag and blocks on its pipe. A side that posts
/// into the slot then checks the peer's flag (both with sequentially consistent ordering, so at least one
/// of the two sees the other) and, if the peer sleeps, takes its post back with a compare-and-swap and
/// sends it on the pipe instead. Exactly one of "the peer claimed it" and "it was taken back" happens.
///
/// Pipelined hosts. A host that sends its requests from an event loop doing other work between them (a
/// ``CallReplyPoller``: `skillhost mcp` under a burst) says so in the `pipelined` word. Its next request
/// never comes within a spin (the loop parses, checks and answers other calls first), so the worker does
/// not spin for it: it goes to sleep on its pipe at once and leaves the core to the host and its client.
///
/// Not thread-safe per side: the host's slot is used by the thread running the call, the worker's by its
/// serving thread.
final class SharedCallSlot: @unchecked Sendable {
    /// Bytes mapped (the frame area is this minus ``dataOffset``).
    static let mappedBytes = 128 << 10
    /// Where frame bytes start: right after `state` and `length`, on their cache line, so that a small frame
    /// (a trivial call's reply) crosses between the cores together with the state that announces it. The
    /// `sleeping` flags, read on every post but rarely written, keep cache lines of their own before it.
    static let dataOffset = 136
    /// Where the words of queued calls start (``entryCount`` of them, at the end of the mapping; see
    /// `SharedCallSlot+Queue.swift`).
    static let entryOffset = mappedBytes - entryCount * 4
    /// The largest frame the slot carries.
    static var capacity: Int { entryOffset - dataOffset }
    /// The descriptor number the worker finds the slot at.
    static let workerDescriptor: Int32 = 3
    /// The environment variable that tells a worker it has a slot.
    static let environmentKey = "SKILLHOST_WORKER_CHANNEL"

    private enum State: UInt32 {
        case idle = 0, request = 1, claimed = 2, reply = 3, taken = 4
    }

    /// The memfd (the host keeps it to hand to the worker; the worker's is closed after mapping).
    let descriptor: Int32
    private let base: UnsafeMutableRawPointer
    private var hostSleeping: UnsafeMutablePointer<Atomic<UInt32>> { word(0) }
    /// Beside `hostSleeping`, on its cache line (which the worker reads for every reply anyway): how the host
    /// sends its requests (``HostMode``: 1 from a loop that does other work between them, 2 queued on the
    /// pipe; see the type's notes).
    var hostPipelined: UnsafeMutablePointer<Atomic<UInt32>> { word(4) }
    private var workerSleeping: UnsafeMutablePointer<Atomic<UInt32>> { word(64) }
    private var state: UnsafeMutablePointer<Atomic<UInt32>> { word(128) }
    /// Beside `state`, on its cache line: the peer that sees a post reads both with one miss.
    private var length: UnsafeMutablePointer<Atomic<UInt32>> { word(132) }
    /// Adapts how long this side spins (see ``SpinBudget``).
    private var budget = SpinBudget()
    /// Host: what ``hostPipelined`` was last set to (written only when it changes).
    private var announcedMode = HostMode.spinning

    /// How the host sends requests, in the `hostPipelined` word. Changed only while no request is out.
    enum HostMode: UInt32 {
        /// One at a time, spinning for each reply: the worker spins for the next request too.
        case spinning = 0
        /// One at a time from a loop that does other work (a ``CallReplyPoller``): the worker sleeps at once.
        case pipelined = 1
        /// Several at once on the pipe (`SharedCallSlot+Queue.swift`): the worker reads requests and writes
        /// replies on its pipes only, and checks each request's entry word before it runs it.
        case queued = 2
    }

    private init(descriptor: Int32, base: UnsafeMutableRawPointer) {
        self.descriptor = descriptor
        self.base = base
    }

    deinit {
        munmap(base, Self.mappedBytes)
        if descriptor >= 0 { close(descriptor) }
    }

    func word(_ offset: Int) -> UnsafeMutablePointer<Atomic<UInt32>> {
        (base + offset).assumingMemoryBound(to: Atomic<UInt32>.self)
    }

    /// Host: a new zeroed slot (close-on-exec; the spawn maps it to ``workerDescriptor`` in the worker).
    /// Nil when memfds are not available: the worker then runs on its pipes alone.
    static func create() -> SharedCallSlot? {
        // A POSIX shared-memory object unlinked at once: like a memfd (which Glibc's Swift module does not
        // declare), nameless and gone when the last mapping goes.
        var descriptor: Int32 = -1
        for _ in 0..<8 {
            let name = "/skillhost-slot-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            descriptor = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                shm_unlink(name)
                break
            }
            if errno != EEXIST { return nil }
        }
        guard descriptor >= 0 else { return nil }
        guard ftruncate(descriptor, off_t(mappedBytes)) == 0 else {
            close(descriptor)
            return nil
        }
        return map(descriptor, keep: true)
    }

    /// Worker: the slot the host handed over, when `SKILLHOST_WORKER_CHANNEL` names its descriptor and it is
    /// a memfd of the right size; nil otherwise (the worker then serves on its pipes alone).
    static func attach(environment value: String?) -> SharedCallSlot? {
        guard let value, let descriptor = Int32(value), descriptor > 2 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == mappedBytes else {
            return nil
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return map(descriptor, keep: false)
    }

    private static func map(_ descriptor: Int32, keep: Bool) -> SharedCallSlot? {
        guard let base = mmap(nil, mappedBytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            close(descriptor)
            return nil
        }
        if !keep { close(descriptor) }
        return SharedCallSlot(descriptor: keep ? descriptor : -1, base: base)
    }

    // MARK: - Posting (either side)

    /// Copies `frame` into the slot and publishes it as `posted`; false when it does not fit, or when the peer
    /// is asleep on its pipe and the post was taken back — send the frame on the pipe then.
    private func post(_ frame: [UInt8], as posted: State, peerSleeping: UnsafeMutablePointer<Atomic<UInt32>>) -> Bool {
        guard frame.count <= Self.capacity, peerSleeping.pointee.load(ordering: .sequentiallyConsistent) == 0 else {
            return false
        }
        frame.withUnsafeBytes { bytes in
            (base + Self.dataOffset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        length.pointee.store(UInt32(frame.count), ordering: .relaxed)
        state.pointee.store(posted.rawValue, ordering: .sequentiallyConsistent)
        if peerSleeping.pointee.load(ordering: .sequentiallyConsistent) == 0 { return true }
        // The peer went to sleep: take the post back unless it claimed it in the meantime.
        let (tookBack, _) = state.pointee.compareExchange(
            expected: posted.rawValue, desired: State.idle.rawValue, ordering: .sequentiallyConsistent)
        return !tookBack
    }

    /// Spins for a post of kind `wanted` and claims it; on success hands the frame bytes to `body`. When the
    /// budget runs out, raises `ownSleeping` (so the peer stops posting here) and makes a last claim.
    /// With `spinning` false it raises the flag at once (one look, no spin, the budget untouched).
    private func take<Result>(
        _ wanted: State, claimingAs claimed: State, ownSleeping: UnsafeMutablePointer<Atomic<UInt32>>,
        spinning: Bool = true, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result? {
        let start = spinning ? Posix.monotonicNanoseconds() : 0
        let limit = spinning ? budget.nanoseconds : 0
        var claimedIt = false
        var spins = 0
        while spinning {
            if state.pointee.load(ordering: .acquiring) == wanted.rawValue, claim(wanted, as: claimed) {
                claimedIt = true
                break
            }
            spins += 1
            if spins & 31 == 0 {
                let elapsed = Posix.monotonicNanoseconds() &- start
                if elapsed >= limit { break }
                // On a busy machine the peer may need this core: let it run, but only late in the spin (a
                // trivial call takes a few µs on each side, and an early yield costs more than it saves).
                if elapsed > 15_000 { sched_yield() }
            }
        }
        if !claimedIt {
            ownSleeping.pointee.store(1, ordering: .sequentiallyConsistent)
            guard claim(wanted, as: claimed) else {
                if spinning { budget.missed() }
                return nil
            }
            ownSleeping.pointee.store(0, ordering: .sequentiallyConsistent)
        }
        if spinning { budget.hit() }
        let count = Int(length.pointee.load(ordering: .relaxed))
        // No store after reading: the claim already says "nobody's post", and a write here would pull the line
        // back from the peer, which is spinning on it for the next post.
        return body(UnsafeRawBufferPointer(start: base + Self.dataOffset, count: min(count, Self.capacity)))
    }

    private func claim(_ wanted: State, as claimed: State) -> Bool {
        state.pointee.compareExchange(expected: wanted.rawValue, desired: claimed.rawValue, ordering: .sequentiallyConsistent).exchanged
    }

    // MARK: - Host side

    /// Host: offers a request frame to the worker; false means send it on the pipe.
    func postRequest(_ frame: [UInt8]) -> Bool {
        post(frame, as: .request, peerSleeping: workerSleeping)
    }

    /// Host: spins for the reply; nil means wait on the pipe (and call ``hostWoke()`` after).
    func takeReply<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        take(.reply, claimingAs: .taken, ownSleeping: hostSleeping, body)
    }

    /// Host: takes the reply if it is in the slot now, without spinning or going to sleep; nil when it is
    /// not (yet) there. The worker keeps posting into the slot meanwhile, as the host is not asleep.
    func tryTakeReply<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard state.pointee.load(ordering: .acquiring) == State.reply.rawValue, claim(.reply, as: .taken) else { return nil }
        let count = Int(length.pointee.load(ordering: .relaxed))
        return body(UnsafeRawBufferPointer(start: base + Self.dataOffset, count: min(count, Self.capacity)))
    }

    /// Host: tells the worker whether requests come from a loop that does other work between them
    /// (a ``CallReplyPoller``), so that it sleeps at once after its reply instead of spinning for the next
    /// request. Call before sending each request; the shared word is written only when the answer changes.
    func announcePipelined(_ pipelined: Bool) {
        announce(pipelined ? .pipelined : .spinning)
    }

    /// Host: sets the mode word (written only when it changes). Only while no request is out: the worker
    /// reads it once per request, after the request arrived.
    func announce(_ mode: HostMode) {
        guard mode != announcedMode else { return }
        announcedMode = mode
        hostPipelined.pointee.store(mode.rawValue, ordering: .relaxed)
    }

    /// Worker: whether the host queues requests on the pipe (``HostMode/queued``); read once per request.
    var hostQueues: Bool { hostPipelined.pointee.load(ordering: .relaxed) == HostMode.queued.rawValue }

    /// Host: done waiting on the pipe; the worker may post replies again.
    func hostWoke() {
        hostSleeping.pointee.store(0, ordering: .sequentiallyConsistent)
    }

    // MARK: - Worker side

    /// Worker: spins for the next request (not at all while the host is pipelined: see
    /// ``announcePipelined(_:)``); nil means read the pipe (and call ``workerWoke()`` after).
    func takeRequest<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        let spinning = hostPipelined.pointee.load(ordering: .relaxed) == HostMode.spinning.rawValue
        return take(.request, claimingAs: .claimed, ownSleeping: workerSleeping, spinning: spinning, body)
    }

    /// Worker: a request came on the pipe; the host may post requests again.
    func workerWoke() {
        workerSleeping.pointee.store(0, ordering: .sequentiallyConsistent)
    }

    /// Worker: offers a reply frame to the host; false means send it on the pipe. Either way the slot is
    /// free for the next request afterwards.
    func postReply(_ frame: [UInt8]) -> Bool {
        if post(frame, as: .reply, peerSleeping: hostSleeping) { return true }
        state.pointee.store(State.idle.rawValue, ordering: .sequentiallyConsistent)
        return false
    }
}

/// How long one side of a ``SharedCallSlot`` spins before it sleeps on its pipe: 30 µs (a trivial skill
/// answers within a few), or only 2 µs after 8 waits in a row ended on the pipe (a slow skill, a caller
/// that calls rarely, or a machine too loaded to run both sides at once), so an idle or slow peer costs
/// almost no CPU. Even then every 16th wait spins the full 30 µs as a probe, and one wait that ends in
/// the slot restores the full budget. (Judging by the length of recent waits does not work: a wait that
/// ended on the pipe makes the peer's next wait long too, and both sides talk each other out of spinning.)
struct SpinBudget {
    static let minimum: UInt64 = 2_000
    static let maximum: UInt64 = 30_000
    static let missesBeforeBackingOff = 8
    static let probeInterval = 16
    private var misses = 0
    private var waits = 0

    /// The budget for the next wait.
    var nanoseconds: UInt64 {
        mutating get {
            waits &+= 1
            guard misses >= Self.missesBeforeBackingOff, waits % Self.probeInterval != 0 else { return Self.maximum }
            return Self.minimum
        }
    }

    mutating func hit() {
        misses = 0
    }

    mutating func missed() {
        misses = min(misses + 1, Self.missesBeforeBackingOff)
    }
}

extension SharedCallSlot {
    /// The payload of the whole frame of `kind` in `bytes` (taken from a slot), checked as strictly as a
    /// frame from the pipe.
    static func payload(
        of kind: WorkerFrame.Kind, in bytes: UnsafeRawBufferPointer
    ) -> Result<UnsafeRawBufferPointer, FrameChannel.Failure> {
        guard bytes.count >= WorkerFrame.headerSize else {
            return .failure(.corrupt(FrameError("a short frame in the shared slot")))
        }
        let header = WorkerFrame.parseHeader(UnsafeRawBufferPointer(rebasing: bytes[0..<WorkerFrame.headerSize]))
        let found: WorkerFrame.Kind
        let length: Int
        switch header {
        case .failure(let error): return .failure(.corrupt(error))
        case .success(let parsed): (found, length) = parsed
        }
        guard found == kind else {
            return .failure(.corrupt(FrameError("a \(found) frame in the shared slot where a \(kind) belongs")))
        }
        guard WorkerFrame.headerSize + length <= bytes.count else {
            return .failure(.corrupt(FrameError("a frame longer than the shared slot")))
        }
        return .success(UnsafeRawBufferPointer(rebasing: bytes[WorkerFrame.headerSize..<WorkerFrame.headerSize + length]))
    }
}

extension WorkerCallRequest {
    /// Decodes a whole call frame (header and payload) taken from a ``SharedCallSlot``.
    package static func decode(slotFrame bytes: UnsafeRawBufferPointer) -> Result<WorkerCallRequest, FrameChannel.Failure> {
        SharedCallSlot.payload(of: .call, in: bytes).flatMap { payload in
            do throws(FrameError) {
                return .success(try WorkerCallRequest(payload: payload))
            } catch {
                return .failure(.corrupt(error))
            }
        }
    }
}

extension WorkerCallReply {
    /// Decodes a whole reply frame (header and payload) taken from a ``SharedCallSlot``.
    package static func decode(slotFrame bytes: UnsafeRawBufferPointer) -> Result<WorkerCallReply, FrameChannel.Failure> {
        SharedCallSlot.payload(of: .reply, in: bytes).flatMap { payload in
            do throws(FrameError) {
                return .success(try WorkerCallReply(payload: payload))
            } catch {
                return .failure(.corrupt(error))
            }
        }
    }
}
