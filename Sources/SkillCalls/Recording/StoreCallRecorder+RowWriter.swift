import Dispatch
import SkillHostCore
import SkillPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension StoreCallRecorder {
    /// The thread that turns a server's finished calls into rows, logs and commits them (redaction,
    /// serialization, the finish record, SQLite): none of that runs on the loop that answers the calls, which
    /// only appends the call to a list. The thread runs at the lowest priority (nice 19), so recording takes
    /// the processor time answering does not want: a burst of calls is answered first and recorded as soon as
    /// there is room (at the latest when the server stops: ``drain()`` runs at normal priority). It commits
    /// what it logged every ``commitInterval`` or when the finish log fills half its map.
    final class RowWriter: Sendable {
        private struct State {
            var rows: [PendingRow] = []
            var working = false
        }
        private let waiting = Mutex(State())
        private let thread = BlockingThread()
        /// Writes one row; returns whether the store wants its logged rows committed now.
        private let write: @Sendable (PendingRow) -> Bool
        private let commit: @Sendable () -> Void
        /// Seconds between two commits of the logged rows while calls keep coming.
        static let commitInterval = 0.05
        /// How long (2 ms: `usleep` counts microseconds; the name said nanoseconds) the thread waits for more
        /// calls before it sleeps until woken: a sequential client's next call usually comes within it, so the
        /// thread is not woken once per call.
        static let gatherMicroseconds: UInt32 = 2_000

        init(write: @escaping @Sendable (PendingRow) -> Bool, commit: @escaping @Sendable () -> Void) {
            self.write = write
            self.commit = commit
            thread.submit { Posix.setThreadNice(19) }
        }

        deinit { thread.finish() }

        /// Hands a row over; wakes the thread when it is not already at work.
        func add(_ row: consuming PendingRow) {
            // Moved into the list, not copied (a copy retains every part of the call and its outcome).
            var row = Optional(row)
            let wake = waiting.withLock { state -> Bool in
                state.rows.append(row.take()!)
                defer { state.working = true }
                return !state.working
            }
            if wake { thread.submit { [self] in work() } }
        }

        /// Writes what is waiting, until nothing is, committing along the way; then commits.
        private func work() {
            var lastCommit = Posix.monotonicNanoseconds()
            while true {
                var batch = waiting.withLock { state -> [PendingRow] in
                    defer { state.rows.removeAll(keepingCapacity: true) }
                    return state.rows
                }
                if batch.isEmpty {
                    // Calls still coming are gathered for a moment before the thread goes to sleep.
                    usleep(Self.gatherMicroseconds)
                    batch = waiting.withLock { state -> [PendingRow] in
                        defer { state.rows.removeAll(keepingCapacity: true) }
                        if state.rows.isEmpty { state.working = false }
                        return state.rows
                    }
                    if batch.isEmpty { break }
                }
                // A batch gathered while the thread waited for the processor can outgrow the finish log's
                // map: committing when the log asks for it, row by row, keeps every record a copy into the
                // map instead of a `pwrite` each.
                // Lent where they lie in the batch: a copy of each row out of the list retained every part
                // of it once more.
                batch.withUnsafeBufferPointer { rows in
                    for index in rows.indices {
                        if write(rows[index]) { commit() }
                    }
                }
                let now = Posix.monotonicNanoseconds()
                if Double(now &- lastCommit) / 1e9 >= Self.commitInterval {
                    commit()
                    lastCommit = now
                }
            }
            commit()
        }

        /// Returns once every row handed over before the call is written and committed, at normal priority.
        func drain() {
            let done = DispatchSemaphore(value: 0)
            let submitted = thread.submit { [self] in
                Posix.setThreadNice(0)
                work()
                done.signal()
            }
            if submitted { done.wait() }
        }
    }
}
