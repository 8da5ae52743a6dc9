#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// A way to wake a thread that waits for input on a descriptor (a pipe): ``signal()`` from any thread
    /// makes ``descriptor`` readable. Thread-safe.
    package final class Wakeup: Sendable {
        /// Readable once ``signal()`` was called; -1 when no pipe could be made (then nothing wakes).
        package let descriptor: Int32
        private let writeEnd: Int32

        package init() {
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            }
            descriptor = ends[0]
            writeEnd = ends[1]
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
            if writeEnd >= 0 { close(writeEnd) }
        }

        /// Makes ``descriptor`` readable.
        package func signal() {
            guard writeEnd >= 0 else { return }
            _ = writeAll(writeEnd, [1])
        }
    }

    /// One line (without its newline) read from a terminal `descriptor` in canonical mode, where one `read`
    /// returns one line; nil at end of input, or once `wake` is signalled before a line came (nothing is
    /// read then, so the next reader gets the line).
    package static func readLine(_ descriptor: Int32, unlessWoken wake: Wakeup) -> String? {
        let watched = wake.descriptor >= 0 ? [descriptor, wake.descriptor] : [descriptor]
        while true {
            let ready = waitReadable(watched, milliseconds: -1)
            if ready.contains(wake.descriptor) { return nil }
            guard ready.contains(descriptor) else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = readSome(descriptor, into: &buffer)
            guard count > 0 else { return nil }
            var line = buffer[0..<count]
            while let last = line.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { line.removeLast() }
            return String(decoding: line, as: UTF8.self)
        }
    }
}
