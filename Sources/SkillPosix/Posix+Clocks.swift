#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// Nanoseconds on CLOCK_MONOTONIC (deadlines, durations; never jumps with the wall clock).
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Seconds on CLOCK_MONOTONIC.
    @Sendable public static func monotonicSeconds() -> Double {
        Double(monotonicNanoseconds()) / 1e9
    }

    /// Seconds since the Unix epoch (CLOCK_REALTIME): what is shared with other processes and plugins.
    @Sendable public static func unixSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Milliseconds since the Unix epoch (the ABI's `deadline_unix_ms`).
    public static func unixMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// CPU nanoseconds the calling thread has used (CLOCK_THREAD_CPUTIME_ID).
    public static func threadCPUNanoseconds() -> UInt64 {
        var used = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used)
        return UInt64(used.tv_sec) * 1_000_000_000 + UInt64(used.tv_nsec)
    }

    /// CPU seconds this process has used (CLOCK_PROCESS_CPUTIME_ID).
    public static func processCPUSeconds() -> Double {
        var used = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used)
        return Double(used.tv_sec) + Double(used.tv_nsec) / 1e9
    }
}
