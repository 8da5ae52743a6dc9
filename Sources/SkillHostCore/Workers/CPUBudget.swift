#if canImport(Glibc)
import Glibc
#endif

/// Keeps RLIMIT_CPU a per-call budget in a long-lived worker: before each call, when less than half of the
/// budget is left, the soft limit is moved to "CPU used so far + budget". A call that spins past it gets
/// SIGXCPU and the host reports the crash.
struct CPUBudget {
    private let seconds: Int?
    private var softLimit: Double = 0

    init(secondsPerCall seconds: Int?) {
        self.seconds = seconds
        if let seconds { softLimit = Double(seconds) }
    }

    mutating func topUp() {
        guard let seconds else { return }
        let usedSeconds = Posix.processCPUSeconds()
        guard softLimit - usedSeconds < Double(seconds) / 2 else { return }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_CPU.rawValue), &limit)
        let wanted = rlim_t(usedSeconds) + rlim_t(seconds)
        limit.rlim_cur = limit.rlim_max == rlim_t.max ? wanted : min(wanted, limit.rlim_max)
        if setrlimit(Int32(RLIMIT_CPU.rawValue), &limit) == 0 { softLimit = Double(limit.rlim_cur) }
    }
}
