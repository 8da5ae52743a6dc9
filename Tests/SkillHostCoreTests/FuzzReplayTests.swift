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
