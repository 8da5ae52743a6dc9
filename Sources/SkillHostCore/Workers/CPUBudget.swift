#if canImport(Glibc)
import Glibc
#endif

/// Keeps RLIMIT_CPU a per-call budget in a long-lived worker: before each call, when less than half of the
/// budget is left, the soft limit is moved to "CPU used so far + budget". A call that spins past it gets
/// SIGXCPU and the host reports the crash.
///
/// Reading the process's CPU clock is a system call, so a worker serving calls back to back does not read
/// it per call: since the last reading the process cannot have used more CPU than the wall time passed
/// times the processors, and while even that leaves half a budget the limit needs no move.
struct CPUBudget {
    private let seconds: Int?
    private var softLimit: Double = 0
    /// The last reading of the CPU clock (seconds) and when it was taken (CLOCK_MONOTONIC ns; 0: none yet).
    private var lastUsed: Double = 0
    private var lastReading: UInt64 = 0
    private static let processors = Double(max(1, sysconf(Int32(_SC_NPROCESSORS_CONF))))

    init(secondsPerCall seconds: Int?) {
        self.seconds = seconds
        if let seconds { softLimit = Double(seconds) }
    }

    mutating func topUp() {
        guard let seconds else { return }
        let now = Posix.monotonicNanoseconds()
        if lastReading != 0 {
            let mostUsed = lastUsed + Double(now &- lastReading) / 1e9 * Self.processors
            if softLimit - mostUsed >= Double(seconds) / 2 { return }
        }
        let usedSeconds = Posix.processCPUSeconds()
        lastUsed = usedSeconds
        lastReading = now
        guard softLimit - usedSeconds < Double(seconds) / 2 else { return }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_CPU.rawValue), &limit)
        let wanted = rlim_t(usedSeconds) + rlim_t(seconds)
        limit.rlim_cur = limit.rlim_max == rlim_t.max ? wanted : min(wanted, limit.rlim_max)
        if setrlimit(Int32(RLIMIT_CPU.rawValue), &limit) == 0 { softLimit = Double(limit.rlim_cur) }
    }
}
