#if canImport(Glibc)
import Glibc
#endif

/// How a worker process ended, in the words the host's messages use.
enum WorkerExit: Equatable, Sendable {
    /// It called exit (or returned from main) with this status.
    case exited(Int32)
    /// A signal killed it.
    case signaled(Int32)

    /// Decodes a `waitpid` status.
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// "signal 11 (SIGSEGV, Segmentation fault)" (``Posix/signalName(_:)``, the one wording) or "exit status 3".
    var description: String {
        switch self {
        case .exited(let status): return "exit status \(status)"
        case .signaled(let signal): return Posix.signalName(signal)
        }
    }
}
