#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// Sets the calling thread's nice value (Linux keeps one per thread): 19 lets the thread have only the
    /// processor time others do not want; 0 is the normal share.
    package static func setThreadNice(_ value: Int32) {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, value)
    }
}
