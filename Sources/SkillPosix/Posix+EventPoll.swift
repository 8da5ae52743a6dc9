internal import CPosixEvents
#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// An `epoll` instance: descriptors added with a token and the events wanted, and a wait that reports
    /// which are ready. One thread waits on it (its buffer is not shared); adding and removing are
    /// thread-safe (the kernel's). The descriptor is close-on-exec.
    package final class EventPoll {
        /// One readiness report.
        package struct Event {
            /// The token the descriptor was added with.
            package var token: UInt64
            /// What it is ready for (``readable``, ``writable``, ``hangUp``, ``readHangUp``, ``error``).
            package var events: UInt32
        }

        /// Bytes to read (or a connection to accept).
        package static let readable = UInt32(SKILLHOST_EVENT_IN)
        /// Room to write.
        package static let writable = UInt32(SKILLHOST_EVENT_OUT)
        /// An error on the descriptor (always reported).
        package static let error = UInt32(SKILLHOST_EVENT_ERR)
        /// Both directions closed (always reported).
        package static let hangUp = UInt32(SKILLHOST_EVENT_HUP)
        /// The peer closed its writing side.
        package static let readHangUp = UInt32(SKILLHOST_EVENT_RDHUP)
        /// Report changes only (edge-triggered): the owner reads and writes until `EAGAIN` or a short count.
        package static let edgeTriggered = UInt32(1) << 31  // EPOLLET

        /// The epoll descriptor (readable, for `poll`, when an added descriptor is ready).
        package let descriptor: Int32
        private var buffer: [skillhost_event]

        /// A new instance.
        /// - Throws: ``Failure`` when the kernel refuses (out of descriptors).
        package init(capacity: Int = 64) throws(Failure) {
            descriptor = skillhost_epoll_create()
            guard descriptor >= 0 else { throw Failure("epoll_create1", path: "a new event poll") }
            buffer = Array(repeating: skillhost_event(), count: max(1, min(capacity, 256)))
        }

        deinit { close(descriptor) }

        /// Watches `watched` for `events` (besides errors and hang-ups); false when the kernel refuses.
        @discardableResult
        package func add(_ watched: Int32, events: UInt32, token: UInt64) -> Bool {
            skillhost_epoll_control(descriptor, 1, watched, events, token) == 0
        }

        /// Changes what `watched` is watched for.
        @discardableResult
        package func modify(_ watched: Int32, events: UInt32, token: UInt64) -> Bool {
            skillhost_epoll_control(descriptor, 3, watched, events, token) == 0
        }

        /// Stops watching `watched` (closing a descriptor also does).
        package func remove(_ watched: Int32) {
            _ = skillhost_epoll_control(descriptor, 2, watched, 0, 0)
        }

        /// Waits up to `milliseconds` (-1: without end, 0: not at all) and hands each ready descriptor's
        /// event to `body`; returns how many there were (0 on timeout or an interrupted wait).
        @discardableResult
        package func wait(milliseconds: Int32, _ body: (Event) -> Void) -> Int {
            let count = buffer.withUnsafeMutableBufferPointer { raw in
                skillhost_epoll_wait(descriptor, raw.baseAddress, Int32(raw.count), milliseconds)
            }
            guard count > 0 else { return 0 }
            for index in 0..<Int(count) { body(Event(token: buffer[index].token, events: buffer[index].events)) }
            return Int(count)
        }
    }

    /// Accepts a connection on `listener` (`accept4`), non-blocking and close-on-exec from the start (no
    /// child started meanwhile inherits it); -1 with `errno` when none waits or it failed.
    package static func acceptNonBlocking(_ listener: Int32, address: UnsafeMutablePointer<sockaddr>, length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        skillhost_accept_nonblocking(listener, address, length)
    }

    /// A wake-up counter (`eventfd`): ``signal()`` from any thread makes ``descriptor`` readable until
    /// ``drain()``. Non-blocking, close-on-exec; cheaper than a pipe (one descriptor, one 8-byte counter).
    package final class EventCounter: Sendable {
        /// Readable after ``signal()``; -1 when the kernel refused one.
        package let descriptor: Int32

        package init() { descriptor = skillhost_eventfd_create() }

        deinit { if descriptor >= 0 { close(descriptor) } }

        /// Makes ``descriptor`` readable (from any thread).
        package func signal() {
            var one: UInt64 = 1
            _ = write(descriptor, &one, 8)
        }

        /// Resets it (on the waiting thread, after it woke).
        package func drain() {
            var count: UInt64 = 0
            _ = read(descriptor, &count, 8)
        }
    }
}
