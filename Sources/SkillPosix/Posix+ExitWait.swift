#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// glibc's `pidfd_open` (2.36 and later), looked up once; nil on an older C library.
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(address, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()

    /// Waits until child `pid` has ended, for up to `milliseconds`, sleeping in the kernel instead of
    /// polling: a pidfd (Linux 5.3+) becomes readable when its process ends. True when it ended (it can then
    /// be reaped without waiting), false when the time ran out, nil when there is no pidfd to wait on.
    package static func awaitEnd(of pid: pid_t, milliseconds: Int) -> Bool? {
        guard let pidfdOpen else { return nil }
        let descriptor = pidfdOpen(pid, 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let deadline = monotonicNanoseconds() + UInt64(max(0, milliseconds)) * 1_000_000
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let now = monotonicNanoseconds()
            let left = now >= deadline ? 0 : Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
            let ready = poll(&entry, 1, left)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { return nil }
        }
    }
}
