@testable import SkillHostCore

/// The worker frame decoder on both sides: the first 8 bytes as a frame header, the rest as the payload
/// read as the host reads a reply and as the worker reads a call. What decodes must round-trip: encoding
/// it gives a frame whose header names its kind and length and whose payload decodes to the same value.
func fuzzFrame(_ input: [UInt8]) {
    input.withUnsafeBytes { bytes in
        guard bytes.count >= WorkerFrame.headerSize else { return }
        _ = WorkerFrame.parseHeader(UnsafeRawBufferPointer(rebasing: bytes[..<WorkerFrame.headerSize]))
        let payload = UnsafeRawBufferPointer(rebasing: bytes[WorkerFrame.headerSize...])
        if let reply = try? WorkerCallReply(payload: payload) {
            let again = roundTrip(reply.encodedFrame(), kind: .reply) { (payload) throws(FrameError) in try WorkerCallReply(payload: payload) }
            if again != reply { fatalError("a reply frame does not survive decode → encode → decode") }
        }
        if let request = try? WorkerCallRequest(payload: payload) {
            let again = roundTrip(request.encodedFrame(), kind: .call) { (payload) throws(FrameError) in try WorkerCallRequest(payload: payload) }
            if again != request { fatalError("a call frame does not survive decode → encode → decode") }
        }
    }
}

/// Checks `frame`'s header (kind, payload length) and decodes its payload.
private func roundTrip<Value>(
    _ frame: [UInt8], kind: WorkerFrame.Kind, _ decode: (UnsafeRawBufferPointer) throws(FrameError) -> Value
) -> Value {
    frame.withUnsafeBytes { bytes in
        guard case .success(let header) = WorkerFrame.parseHeader(
            UnsafeRawBufferPointer(rebasing: bytes[..<WorkerFrame.headerSize]))
        else { fatalError("an encoded frame's header does not parse") }
        guard header.kind == kind, header.length == bytes.count - WorkerFrame.headerSize else {
            fatalError("an encoded frame's header says \(header), the frame holds \(kind) and \(bytes.count) bytes")
        }
        do {
            return try decode(UnsafeRawBufferPointer(rebasing: bytes[WorkerFrame.headerSize...]))
        } catch {
            fatalError("an encoded frame does not decode: \(error)")
        }
    }
}
