import Synchronization

/// The entry words of queued calls (``SharedCallSlot/HostMode/queued``): while a pipelined host has several
/// requests out to one worker, each request has a word in the slot that says whether the worker may still
/// run it, so a call the host takes back (cancelled, or moved to another worker behind a slow one) never
/// runs, and a call the worker has begun is never taken back.
///
/// Both sides number the requests of one worker process in the order they were sent, from 0 (the worker
/// serves them in that order; requests and replies of a queued worker travel on its pipes only). Request
/// `n` owns word `n % entryCount`, so at most ``SharedCallSlot/entryCount`` requests may be out at once.
/// A word holds `n << 2 | state` (the number cut to 30 bits; a word is only ever compared with the number
/// of the request now owning it), and its state moves one way, settled by a compare-and-swap:
///
///     queued ──(worker)──▶ started
///        └────(host)────▶ withdrawn
///
/// Exactly one of "the worker started it" and "the host took it back" happens. A withdrawn request is still
/// answered, at once and without running anything, with ``WorkerCallReply/withdrawn``, so replies keep
/// matching requests one for one. A request whose word was not marked (the host was not queueing) runs.
extension SharedCallSlot {
    /// Requests a host may have out to one worker at once.
    static let entryCount = 64

    private enum EntryState: UInt32 {
        case queued = 1, started = 2, withdrawn = 3
    }

    private func entry(_ sequence: UInt64) -> UnsafeMutablePointer<Atomic<UInt32>> {
        word(Self.entryOffset + Int(sequence % UInt64(Self.entryCount)) * 4)
    }

    private static func tag(_ sequence: UInt64, _ state: EntryState) -> UInt32 {
        UInt32(truncatingIfNeeded: sequence &<< 2) | state.rawValue
    }

    /// Host: request `sequence` is about to be sent queued; the worker may start it.
    func markQueued(_ sequence: UInt64) {
        entry(sequence).pointee.store(Self.tag(sequence, .queued), ordering: .sequentiallyConsistent)
    }

    /// Host: takes request `sequence` back; true when the worker had not started it (it never will, and
    /// answers it with ``WorkerCallReply/withdrawn``), false when it has begun (or was never queued).
    func withdraw(_ sequence: UInt64) -> Bool {
        entry(sequence).pointee.compareExchange(
            expected: Self.tag(sequence, .queued), desired: Self.tag(sequence, .withdrawn),
            ordering: .sequentiallyConsistent
        ).exchanged
    }

    /// Host: whether the worker has begun request `sequence`.
    func hasStarted(_ sequence: UInt64) -> Bool {
        entry(sequence).pointee.load(ordering: .sequentiallyConsistent) == Self.tag(sequence, .started)
    }

    /// Worker: claims request `sequence` before running it; false when the host took it back (answer it
    /// with ``WorkerCallReply/withdrawn`` and do not run it). A request that was not queued may run.
    func start(_ sequence: UInt64) -> Bool {
        let (exchanged, found) = entry(sequence).pointee.compareExchange(
            expected: Self.tag(sequence, .queued), desired: Self.tag(sequence, .started),
            ordering: .sequentiallyConsistent)
        return exchanged || found != Self.tag(sequence, .withdrawn)
    }
}
