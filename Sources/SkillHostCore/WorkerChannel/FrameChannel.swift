#if canImport(Glibc)
import Glibc
#endif

/// Sends and receives ``WorkerFrame``s on a pair of file descriptors with plain `read`/`write`/`poll`: no
/// Foundation on the hot path, one reusable read buffer, normally one `write` per frame sent and one
/// `read` per frame received.
///
/// Not thread-safe: one thread uses a channel at a time (a worker serves one call at a time).
package final class FrameChannel {
    /// Why a frame could not be sent or received.
    package enum Failure: Error {
        /// The other side closed its end (the process exited or was killed).
        case closed
        /// The deadline passed before a whole frame arrived.
        case timedOut
        /// The bytes on the pipe are not a valid frame.
        case corrupt(FrameError)
        /// A system call failed with this errno.
        case system(call: String, errno: Int32)
    }

    /// Descriptor frames are read from.
    let input: Int32
    /// Descriptor frames are written to.
    let output: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
        buffer = [UInt8](repeating: 0, count: Self.initialBufferBytes)
    }

    /// The read buffer's starting size.
    static let initialBufferBytes = 64 << 10
    /// A buffer grown past this for a large frame is replaced by a fresh one once the frame is consumed.
    static let retainedBufferBytes = 1 << 20

    /// Writes a whole frame.
    func send(_ frame: [UInt8]) throws(Failure) {
        var written = 0
        while written < frame.count {
            let count = frame.withUnsafeBytes { write(output, $0.baseAddress! + written, $0.count - written) }
            if count >= 0 {
                written += count
                continue
            }
            let code = errno
            if code == EINTR { continue }
            if code == EPIPE { throw .closed }
            throw .system(call: "write", errno: code)
        }
    }

    /// Waits for the next frame and hands its kind and payload to `body`; the payload bytes are only valid
    /// inside `body`.
    /// - Parameter deadline: CLOCK_MONOTONIC nanoseconds after which ``Failure/timedOut`` is thrown; nil waits
    ///   forever.
    func receive<Result>(
        deadline: UInt64?, _ body: (WorkerFrame.Kind, UnsafeRawBufferPointer) throws(FrameError) -> Result
    ) throws(Failure) -> Result {
        try fill(atLeast: WorkerFrame.headerSize, deadline: deadline)
        let header = buffer.withUnsafeBytes { raw in
            WorkerFrame.parseHeader(UnsafeRawBufferPointer(rebasing: raw[start..<start + WorkerFrame.headerSize]))
        }
        let kind: WorkerFrame.Kind
        let length: Int
        switch header {
        case .success(let parsed): (kind, length) = parsed
        case .failure(let error): throw .corrupt(error)
        }
        try fill(atLeast: WorkerFrame.headerSize + length, deadline: deadline)
        let payloadStart = start + WorkerFrame.headerSize
        start = payloadStart + length
        if start == end {
            start = 0
            end = 0
        }
        let result = buffer.withUnsafeBytes { raw in
            Swift.Result { () throws(FrameError) -> Result in
                try body(kind, UnsafeRawBufferPointer(rebasing: raw[payloadStart..<payloadStart + length]))
            }
        }
        if start == end, buffer.count > Self.retainedBufferBytes {
            // Do not keep a large reply's buffer for the life of the worker.
            buffer = [UInt8](repeating: 0, count: Self.initialBufferBytes)
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .corrupt(error)
        }
    }

    /// Bytes the read buffer holds now (tests: it grows with what arrives, not with what a header claims).
    var bufferBytes: Int { buffer.count }

    /// Whether a whole frame is buffered (``receive(deadline:_:)`` then takes it without a system call).
    var hasBufferedFrame: Bool {
        guard end - start >= WorkerFrame.headerSize else { return false }
        let header = buffer.withUnsafeBytes { raw in
            WorkerFrame.parseHeader(UnsafeRawBufferPointer(rebasing: raw[start..<start + WorkerFrame.headerSize]))
        }
        switch header {
        case .success(let parsed): return end - start >= WorkerFrame.headerSize + parsed.length
        case .failure: return true  // receive reports it at once
        }
    }

    /// Whether ``receive(deadline:_:)`` would return now without waiting: a whole frame is buffered, or
    /// what one read that does not block brings completes one, or the other side closed, or the bytes are
    /// not a frame. Reads at most once.
    func frameIsReady() -> Bool {
        if hasBufferedFrame { return true }
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        if descriptor.revents & Int16(POLLIN) == 0 { return true }  // hung up or failed, nothing to read
        if buffer.count - end < WorkerFrame.headerSize {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start) }
                end -= start
                start = 0
            }
            if buffer.count - end < WorkerFrame.headerSize { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        }
        let got = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress! + end, $0.count - end) }
        if got <= 0 { return got == 0 || errno != EINTR }
        end += got
        return hasBufferedFrame
    }

    /// Reads until `count` unread bytes are buffered, growing or compacting the buffer as needed.
    private func fill(atLeast count: Int, deadline: UInt64?) throws(Failure) {
        if end - start >= count { return }
        if buffer.count - start < count, start > 0 {
            buffer.withUnsafeMutableBytes { raw in
                _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        while end - start < count {
            if end == buffer.count {
                // Grown as the bytes come (doubling), not at once to the length a header claims: a worker
                // that dies after announcing 80 MiB costs no 80 MiB buffer.
                let grown = min(start + count, max(buffer.count * 2, Self.initialBufferBytes))
                buffer.append(contentsOf: repeatElement(0, count: grown - buffer.count))
            }
            if let deadline { try waitReadable(deadline: deadline) }
            let got = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress! + end, $0.count - end) }
            if got > 0 {
                end += got
            } else if got == 0 {
                throw .closed
            } else if errno != EINTR {
                throw .system(call: "read", errno: errno)
            }
        }
    }

    private func waitReadable(deadline: UInt64) throws(Failure) {
        while true {
            let now = Posix.monotonicNanoseconds()
            guard now < deadline else { throw .timedOut }
            // Round up so the wait never ends before the deadline.
            let milliseconds = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let result = poll(&descriptor, 1, milliseconds)
            if result > 0 { return }
            if result < 0, errno != EINTR { throw .system(call: "poll", errno: errno) }
        }
    }

}
