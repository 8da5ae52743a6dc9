#if canImport(Glibc)
import Glibc
#endif

/// The write end of ``Posix/StopSignals``' pipe, read by its signal handler (set before the handler is).
nonisolated(unsafe) private var stopSignalWriteEnd: Int32 = -1

extension Posix {
    /// SIGINT and SIGTERM as a stop request a server waits for. ``install()`` takes effect before it returns
    /// (a handler that writes a byte into a pipe), so a signal sent the moment the server says it is
    /// listening is never lost — unlike `SIG_IGN` plus a dispatch signal source, which discards a signal
    /// that comes before the source is registered on dispatch's manager thread.
    package enum StopSignals {
        /// Catches SIGINT and SIGTERM from now on; returns the descriptor that becomes readable when one
        /// came (-1 when no pipe could be made: the signals then keep their default action). Call once.
        package static func install() -> Int32 {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return -1 }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // The handler must never block, even after many signals.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            stopSignalWriteEnd = ends[1]
            let handler: @convention(c) (Int32) -> Void = { _ in
                var byte: UInt8 = 1
                _ = write(stopSignalWriteEnd, &byte, 1)
            }
            // glibc's signal() keeps the handler and restarts interrupted system calls (BSD semantics).
            signal(SIGINT, handler)
            signal(SIGTERM, handler)
            return ends[0]
        }

        /// Blocks the calling thread until a stop signal came (after ``install()``).
        package static func wait(_ descriptor: Int32) {
            guard descriptor >= 0 else {
                while true { pause() }
            }
            var byte: UInt8 = 0
            while read(descriptor, &byte, 1) < 0, errno == EINTR {}
        }
    }
}
