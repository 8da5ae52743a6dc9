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

    /// The `skillpkg` target (Tests/Fuzz/Targets/PackageFuzz.swift): each input is read or refused with a
    /// message naming it; the seeds themselves are good packages (every one signed by the seed key), so a
    /// reader that started refusing them would fuzz only its first check.
    @Test func packageInputsAreReadOrRefusedNamingThePackage() throws {
        let inputs = FuzzCorpus.inputs("skillpkg")
        #expect(inputs.count >= 4)
        var keys: [MinisignPublicKey] = []
        var signatures: [MinisignSignature] = []
        var packages: [PluginPackage] = []
        for (name, bytes) in inputs {
            if bytes.starts(with: Array("untrusted comment:".utf8)) {
                let text = String(decoding: bytes, as: UTF8.self)
                if let key = try? MinisignPublicKey(parsing: text, source: name) { keys.append(key) }
                if let signature = try? MinisignSignature(parsing: text, source: name) { signatures.append(signature) }
                continue
            }
            do {
                let package = try PluginPackage(data: bytes, name: name)
                _ = try? package.hostLibrary()
                if name.hasPrefix("corpus/") { packages.append(package) }
            } catch {
                #expect(error.message.hasPrefix(name + ":"), "\(name): \(error.message)")
                #expect(!error.message.contains("\n"), "\(name): more than one line")
                #expect(!name.hasPrefix("corpus/"), "a seed is refused: \(error.message)")
            }
        }
        #expect(keys.count == 1 && signatures.count == 1)
        #expect(Set(packages.map(\.pluginID)) == ["fixture"])
        #expect(packages.contains { $0.libraries.count == 2 }, "the zipfile seed holds two architectures")
        let key = try #require(keys.first)
        for package in packages {
            let signature = try #require(package.signature, "\(package.name) is signed")
            #expect(signature.problem(verifying: package.index, with: key) == nil, "\(package.name)")
        }
        let packed = try #require(packages.first { $0.name.contains("pack-") })
        #expect(try #require(signatures.first).problem(verifying: packed.index, with: key) == nil, "the loose signature is the packed seed's")
    }
}
