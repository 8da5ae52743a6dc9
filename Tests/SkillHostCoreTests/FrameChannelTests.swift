import Testing

@testable import SkillHostCore

#if canImport(Glibc)
import Glibc
#endif

/// The pipe side of the worker channel as the host reads replies: whole frames only, and memory bounded by
/// what arrives rather than by what a (possibly hostile) worker's header claims.
@Suite("Worker frame channel")
struct FrameChannelTests {
    /// A channel reading the read end of a fresh pipe, and the write end.
    static func pipeChannel() throws -> (channel: FrameChannel, write: Int32, read: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        return (FrameChannel(input: ends[0], output: -1), ends[1], ends[0])
    }

    static func send(_ bytes: [UInt8], to descriptor: Int32) {
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
    }

    @Test("a header announcing 80 MiB, then the end: closed, with no 80 MiB buffer")
    func hugeHeaderThenEnd() throws {
        let (channel, writeEnd, readEnd) = try Self.pipeChannel()
        defer { close(readEnd) }
        let frame = WorkerCallReply(status: 0, json: Array("{}".utf8)).encodedFrame()
        var header = Array(frame[..<WorkerFrame.headerSize])
        let length = UInt32(WorkerFrame.maximumPayloadBytes)
        header.replaceSubrange(0..<4, with: [UInt8(length & 0xff), UInt8(length >> 8 & 0xff), UInt8(length >> 16 & 0xff), UInt8(length >> 24)])
        Self.send(header + Array(repeating: 7, count: 100), to: writeEnd)
        #expect(!channel.frameIsReady(), "an incomplete frame is not ready")
        close(writeEnd)
        #expect(channel.frameIsReady(), "the end of the pipe is reported")
        var closed = false
        do {
            _ = try channel.receive(deadline: nil) { _, _ throws(FrameError) in 0 }
        } catch .closed {
            closed = true
        } catch {}
        #expect(closed)
        #expect(channel.bufferBytes < 1 << 20, "buffer \(channel.bufferBytes) bytes")
    }

    @Test("frames written in pieces are ready only once whole, and read in order")
    func pieces() throws {
        let (channel, writeEnd, readEnd) = try Self.pipeChannel()
        defer { close(readEnd) }
        let frames = (0..<3).map { WorkerCallReply(status: Int32($0), json: Array("{\"n\":\($0)}".utf8)).encodedFrame() }
        let bytes = frames.flatMap { $0 }
        var statuses: [Int32] = []
        for start in stride(from: 0, to: bytes.count, by: 5) {
            Self.send(Array(bytes[start..<min(start + 5, bytes.count)]), to: writeEnd)
            while channel.frameIsReady() {
                statuses.append(try channel.receive(deadline: nil) { _, payload throws(FrameError) in
                    try WorkerCallReply(payload: payload).status
                })
            }
        }
        close(writeEnd)
        #expect(statuses == [0, 1, 2])
    }
}
