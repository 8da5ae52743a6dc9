import SkillHostCore
import SkillJSON
import Testing

/// The framing host and worker speak: round trips, and bad bytes rejected without trapping.
@Suite("Worker frames")
struct WorkerFrameTests {
    private let request = WorkerCallRequest(
        skillID: "clock.now", callID: "c-1", sessionID: "s-1", idempotencyKey: "k-1", dataDirectory: "/tmp/data",
        deadlineUnixMilliseconds: 1_764_000_000_123, configurationJSON: Array(#"{"zone":"UTC"}"#.utf8),
        argumentsJSON: Array(#"{"timezone":"Europe/Paris","ü":"✓"}"#.utf8),
        context: ["last": Array("[1,2]".utf8), "name": Array(#""x""#.utf8)])

    private func payload(of frame: [UInt8]) -> [UInt8] { Array(frame[WorkerFrame.headerSize...]) }

    @Test("a call request survives encoding and decoding")
    func requestRoundTrip() throws {
        let frame = request.encodedFrame()
        #expect(frame[4] == WorkerFrame.Kind.call.rawValue)
        let length = Int(frame[0]) | Int(frame[1]) << 8 | Int(frame[2]) << 16 | Int(frame[3]) << 24
        #expect(length == frame.count - WorkerFrame.headerSize)
        let decoded = try payload(of: frame).withUnsafeBytes { try WorkerCallRequest(payload: $0) }
        #expect(decoded == request)
    }

    @Test("a reply with context changes survives encoding and decoding")
    func replyRoundTrip() throws {
        let reply = WorkerCallReply(
            status: 2, json: Array(#"{"message":"no"}"#.utf8), contextChanges: [("a", Array("1".utf8)), ("b", Array("{}".utf8))])
        let decoded = try payload(of: reply.encodedFrame()).withUnsafeBytes { try WorkerCallReply(payload: $0) }
        #expect(decoded == reply)
    }

    @Test("reusing a buffer gives the same frame")
    func bufferReuse() {
        let first = request.encodedFrame()
        let again = request.encodedFrame(reusing: WorkerCallReply(status: 0, json: Array(repeating: 7, count: 999)).encodedFrame())
        #expect(first == again)
    }

    @Test("every truncation of a payload is an error, never a trap")
    func truncatedPayloads() {
        let bytes = payload(of: request.encodedFrame())
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[0..<cut])
            #expect(throws: FrameError.self) { try prefix.withUnsafeBytes { try WorkerCallRequest(payload: $0) } }
        }
    }

    @Test("trailing bytes after the last field are refused")
    func trailingBytes() {
        let bytes = payload(of: request.encodedFrame()) + [0]
        #expect(throws: FrameError.self) { try bytes.withUnsafeBytes { try WorkerCallRequest(payload: $0) } }
    }

    @Test("a field length beyond the payload is refused")
    func hugeFieldLength() {
        let bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F, 0x61]
        #expect(throws: FrameError.self) { try bytes.withUnsafeBytes { try WorkerCallReply(payload: $0) } }
    }
}
