#if canImport(Glibc)
import Glibc
#endif
@testable import SkillHostCore

/// What a worker writes on its reply pipe, read as the host reads queued replies (`WorkerSlot+Queue.swift`):
/// the bytes reach a ``FrameChannel`` over a real pipe in chunks (the first input byte sets the chunk size),
/// the host asks ``FrameChannel/frameIsReady()`` after each chunk and takes every frame it reports, then the
/// pipe closes. What it reads must be what one pass over the whole byte string finds: the same replies in
/// the same order, ending at the first frame that is not a reply (bad header, another kind, a bad payload:
/// the host stops that worker) or at the end of the bytes (mid-frame or not). `frameIsReady()` must never
/// report a frame that `receive` then waits for (the fuzzer would hang: libFuzzer reports it as a timeout).
func fuzzFrameStream(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let chunk = Int(first % 64) + 1
    let bytes = Array(input.dropFirst())
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return }
    let channel = FrameChannel(input: ends[0], output: -1)
    defer { close(ends[0]) }
    var read: [FrameReading] = []
    var ended = false
    func take() {
        while !ended, channel.frameIsReady() {
            let next = FrameReading(channel)
            read.append(next)
            if next.endsStream { ended = true }
        }
    }
    var offset = 0
    while offset < bytes.count, !ended {
        let end = min(offset + chunk, bytes.count)
        let written = bytes[offset..<end].withUnsafeBytes { write(ends[1], $0.baseAddress!, $0.count) }
        guard written == end - offset else { fatalError("a pipe write of \(end - offset) bytes wrote \(written)") }
        offset = end
        take()
    }
    close(ends[1])
    take()
    if !ended { fatalError("after end of input frameIsReady() reported nothing (it must report the end)") }
    let expected = FrameReading.pass(over: bytes)
    if read != expected { fatalError("the stream read \(read), one pass over the bytes finds \(expected)") }
}

/// One thing the host took from a worker's reply pipe.
enum FrameReading: Equatable, CustomStringConvertible {
    /// A reply frame that decoded.
    case reply(WorkerCallReply)
    /// Not a reply frame (a bad header, another kind, a bad payload): the host stops reading that worker.
    case corrupt
    /// The pipe closed (cleanly between frames, or in the middle of one).
    case closed

    var endsStream: Bool { self == .corrupt || self == .closed }

    var description: String {
        switch self {
        case .reply(let reply): return "reply(\(reply.status), \(reply.json.count) bytes)"
        case .corrupt: return "corrupt"
        case .closed: return "closed"
        }
    }

    /// The next frame from `channel`, as the queued path takes it (`receive` with no deadline).
    init(_ channel: FrameChannel) {
        do {
            self = .reply(try channel.receive(deadline: nil) { kind, payload throws(FrameError) in
                guard kind == .reply else { throw FrameError("not a reply") }
                return try WorkerCallReply(payload: payload)
            })
        } catch .closed {
            self = .closed
        } catch .corrupt {
            self = .corrupt
        } catch {
            fatalError("reading a pipe failed: \(error)")
        }
    }

    /// What one pass over the whole byte string finds.
    static func pass(over bytes: [UInt8]) -> [FrameReading] {
        var found: [FrameReading] = []
        var offset = 0
        return bytes.withUnsafeBytes { raw in
            while true {
                guard raw.count - offset >= WorkerFrame.headerSize else { return found + [.closed] }
                let header = WorkerFrame.parseHeader(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + WorkerFrame.headerSize]))
                guard case .success(let (kind, length)) = header else { return found + [.corrupt] }
                guard raw.count - offset - WorkerFrame.headerSize >= length else { return found + [.closed] }
                let payload = UnsafeRawBufferPointer(rebasing: raw[offset + WorkerFrame.headerSize..<offset + WorkerFrame.headerSize + length])
                guard kind == .reply, let reply = try? WorkerCallReply(payload: payload) else { return found + [.corrupt] }
                found.append(.reply(reply))
                offset += WorkerFrame.headerSize + length
            }
        }
    }
}
