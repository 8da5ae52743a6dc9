@testable import SkillHostCore

/// The worker frame decoder on both sides: the first 8 bytes as a frame header, the rest as the payload
/// read as the host reads a reply and as the worker reads a call.
func fuzzFrame(_ input: [UInt8]) {
    input.withUnsafeBytes { bytes in
        guard bytes.count >= WorkerFrame.headerSize else { return }
        _ = WorkerFrame.parseHeader(UnsafeRawBufferPointer(rebasing: bytes[..<WorkerFrame.headerSize]))
        let payload = UnsafeRawBufferPointer(rebasing: bytes[WorkerFrame.headerSize...])
        _ = try? WorkerCallReply(payload: payload)
        _ = try? WorkerCallRequest(payload: payload)
    }
}
