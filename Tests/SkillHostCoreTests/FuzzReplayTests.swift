import Foundation
import ManifestCheck
import SkillJSON
@testable import SkillHostCore
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the manifest,
/// ELF, frame, registry and SKILL.md targets through the same entry points as Tests/Fuzz/Targets/: each is
/// read or rejected with a message, never a crash.
@Suite struct FuzzReplayTests {
    @Test func manifestInputsAreCheckedOrRejected() {
        let inputs = FuzzCorpus.inputs("manifest")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            do { _ = try ManifestValidator.validate(bytes: bytes, file: name) } catch {
                #expect(!"\(error)".isEmpty, "\(name)")
            }
        }
    }

    @Test func elfInputsAreCheckedOrRejected() throws {
        let path = NSTemporaryDirectory() + "/skillhost-fuzz-replay-\(getpid()).so"
        defer { unlink(path) }
        let inputs = FuzzCorpus.inputs("elf")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do { try ELFCheck.check(path: path) } catch {
                #expect(error.message.contains(path), "\(name): \(error)")
            }
        }
    }

    @Test func frameInputsDecodeOrFailCleanly() {
        let inputs = FuzzCorpus.inputs("frame")
        #expect(!inputs.isEmpty)
        for (_, bytes) in inputs where bytes.count >= WorkerFrame.headerSize {
            bytes.withUnsafeBytes { raw in
                _ = WorkerFrame.parseHeader(UnsafeRawBufferPointer(rebasing: raw[..<WorkerFrame.headerSize]))
                let payload = UnsafeRawBufferPointer(rebasing: raw[WorkerFrame.headerSize...])
                // What decodes survives decode → encode → decode (as in Tests/Fuzz/Targets/FrameFuzz.swift).
                if let reply = try? WorkerCallReply(payload: payload) {
                    let frame = reply.encodedFrame()
                    let again = frame.withUnsafeBytes { try? WorkerCallReply(payload: UnsafeRawBufferPointer(rebasing: $0[8...])) }
                    #expect(again == reply)
                }
                if let request = try? WorkerCallRequest(payload: payload) {
                    let frame = request.encodedFrame()
                    let again = frame.withUnsafeBytes { try? WorkerCallRequest(payload: UnsafeRawBufferPointer(rebasing: $0[8...])) }
                    #expect(again == request)
                }
            }
        }
    }

    /// The frame-stream target's property (Tests/Fuzz/Targets/FrameStreamFuzz.swift) against a second
    /// reader: the replies a queued-call host takes from its worker's pipe in chunks are the ones a channel
    /// that is handed all the bytes at once takes, in order, ending where that one ends.
    @Test func frameStreamInputsReadAlikeInChunksAndWhole() {
        let inputs = FuzzCorpus.inputs("frame-stream")
        #expect(!inputs.isEmpty)
        func replies(_ bytes: [UInt8], chunk: Int) -> [WorkerCallReply?] {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return [] }
            let channel = FrameChannel(input: ends[0], output: -1)
            defer { close(ends[0]) }
            var taken: [WorkerCallReply?] = []
            var ended = false
            func take() {
                while !ended, channel.frameIsReady() {
                    do {
                        taken.append(try channel.receive(deadline: nil) { kind, payload throws(FrameError) in
                            guard kind == .reply else { throw FrameError("not a reply") }
                            return try WorkerCallReply(payload: payload)
                        })
                    } catch {
                        taken.append(nil)  // a bad frame or the end: the host stops reading this worker
                        ended = true
                    }
                }
            }
            for start in stride(from: 0, to: bytes.count, by: chunk) where !ended {
                let piece = Array(bytes[start..<min(start + chunk, bytes.count)])
                _ = piece.withUnsafeBytes { write(ends[1], $0.baseAddress!, $0.count) }
                take()
            }
            close(ends[1])
            take()
            return taken
        }
        for (name, input) in inputs {
            guard let first = input.first else { continue }
            let bytes = Array(input.dropFirst())
            let whole = replies(bytes, chunk: max(bytes.count, 1))
            #expect(whole.last == .some(nil), "\(name): the stream ends with its end or a bad frame")
            #expect(replies(bytes, chunk: Int(first % 64) + 1) == whole, "\(name)")
        }
    }

    @Test func registryInputsAreReadOrRejected() {
        for (name, bytes) in FuzzCorpus.inputs("registry") {
            guard let document = try? JSONValue(parsing: bytes) else { continue }
            do { _ = try Registry(document: document, file: name) } catch {
                #expect(!error.message.isEmpty, "\(name)")
            }
        }
    }

    @Test func skillDocumentInputsAreReadOrRejected() {
        let inputs = FuzzCorpus.inputs("yaml")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            do { _ = try SkillDocument(bytes: bytes) } catch { #expect(!error.message.isEmpty, "\(name)") }
            _ = try? YAMLSubsetParser.parse(String(decoding: bytes, as: UTF8.self))
        }
    }
}
