import Foundation
import SkillJSON
import Testing

@testable import SkillHostCore

/// Package signatures against the real minisign (Debian's 0.11) and BLAKE2b against Python's hashlib: keys
/// and signatures made by either side are read and verified by the other.
@Suite("minisign keys and signatures", .serialized)
struct MinisignTests {
    static func folder() -> String { HostTestSupport.temporaryDirectory("minisign") }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("BLAKE2b-512 and BLAKE2b-256 agree with Python's hashlib at block boundaries")
    func blake2bMatchesHashlib() throws {
        let lengths = [0, 1, 3, 127, 128, 129, 255, 256, 257, 1000]
        let script = """
            import hashlib, sys
            for n in [\(lengths.map(String.init).joined(separator: ","))]:
                data = bytes((i * 7 + 3) % 256 for i in range(n))
                print(hashlib.blake2b(data).hexdigest(), hashlib.blake2b(data, digest_size=32).hexdigest())
            """
        let result = try HostTestSupport.run("/usr/bin/env", ["python3", "-c", script])
        try #require(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        try #require(lines.count == lengths.count)
        for (index, length) in lengths.enumerated() {
            let data = (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
            let expected = lines[index].split(separator: " ")
            #expect(MinisignText.hex(BLAKE2b.hash(data)) == String(expected[0]), "BLAKE2b-512 of \(length) bytes")
            #expect(MinisignText.hex(BLAKE2b.hash(data, outputLength: 32)) == String(expected[1]), "BLAKE2b-256 of \(length) bytes")
        }
    }

    @Test("a key minisign made signs here, and minisign verifies the signature")
    func minisignKeySignsHere() throws {
        let folder = Self.folder()
        let (secretPath, publicPath) = try MinisignPeer.generateKey(in: folder)
        let secret = try MinisignSecretKey(parsing: try Self.text(secretPath), source: secretPath) { () throws(HostError) in
            Issue.record("a key without password asked for one")
            return ""
        }
        let publicKey = try MinisignPublicKey(parsing: try Self.text(publicPath), source: publicPath)
        #expect(secret.publicKey.key == publicKey.key)
        // minisign prints the id without leading zeros (one key in 16 has one); ours has 16 digits.
        let unpadded = String(publicKey.id.drop { $0 == "0" })
        #expect(publicKey.comment == "minisign public key \(unpadded)", "the key id is the number minisign prints")
        #expect(MinisignText.normalizedKeyID(unpadded) == publicKey.id)
        let content = Array("package contents\n".utf8)
        try Data(content).write(to: URL(fileURLWithPath: folder + "/file"))
        let signature = try MinisignSignature.sign(content, with: secret, trustedComment: "timestamp:1\tfile:file\thashed")
        try signature.fileText.write(toFile: folder + "/file.minisig", atomically: true, encoding: .utf8)
        let verified = try MinisignPeer.run(["-V", "-p", publicPath, "-m", folder + "/file"])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        #expect(verified.stdout.contains("Trusted comment: timestamp:1\tfile:file\thashed"))
    }

    @Test("a key made here signs with minisign, and signatures minisign makes verify here (prehashed and legacy)")
    func keyMadeHereWorksInMinisign() throws {
        let folder = Self.folder()
        let key = try MinisignSecretKey.generate()
        try key.write(secretKeyTo: folder + "/k.key", publicKeyTo: folder + "/k.pub", replacing: false)
        #expect(try Posix.status(ofPath: folder + "/k.key").mode & 0o777 == 0o600, "the secret key is private")
        let content = Array("hello\n".utf8)
        try Data(content).write(to: URL(fileURLWithPath: folder + "/file"))
        for legacy in [false, true] {
            let made = try MinisignPeer.run(["-S", "-s", folder + "/k.key", "-m", folder + "/file"] + (legacy ? ["-l"] : []))
            try #require(made.status == 0, "minisign could not use our secret key: \(made.stderr)")
            let signature = try MinisignSignature(parsing: try Self.text(folder + "/file.minisig"), source: "file.minisig")
            #expect(signature.algorithm == (legacy ? .legacy : .prehashed))
            #expect(signature.problem(verifying: content, with: key.publicKey) == nil)
            #expect(signature.problem(verifying: Array("hellO\n".utf8), with: key.publicKey)?.contains("does not match") == true)
            var edited = signature
            edited.trustedComment += " edited"
            #expect(edited.problem(verifying: content, with: key.publicKey)?.contains("trusted comment was changed") == true)
            let other = try MinisignSecretKey.generate().publicKey
            #expect(signature.problem(verifying: content, with: other)?.contains("made with key \(key.publicKey.id)") == true)
        }
        #expect(throws: HostError.self) {
            try key.write(secretKeyTo: folder + "/k.key", publicKeyTo: folder + "/k.pub", replacing: false)
        }
    }

    @Test("a password-protected minisign key opens with its password and says so for a wrong one")
    func encryptedKey() throws {
        let folder = Self.folder()
        let made = try MinisignPeer.run(["-G", "-p", folder + "/e.pub", "-s", folder + "/e.key"], stdin: "s3cret\ns3cret\n")
        try #require(made.status == 0, "\(made.stderr)")
        let text = try Self.text(folder + "/e.key")
        #expect(MinisignSecretKey.isEncrypted(text) == true)
        let opened = try MinisignSecretKey(parsing: text, source: "e.key") { () throws(HostError) in "s3cret" }
        let publicKey = try MinisignPublicKey(parsing: try Self.text(folder + "/e.pub"), source: "e.pub")
        #expect(opened.publicKey.key == publicKey.key)
        do {
            _ = try MinisignSecretKey(parsing: text, source: "e.key") { () throws(HostError) in "wrong" }
            Issue.record("a wrong password opened the key")
        } catch {
            #expect(error.message == "e.key is not a usable minisign secret key: wrong password (its checksum does not match)")
        }
    }

    @Test("files that are not keys or signatures are refused in one line")
    func malformed() {
        for (text, fragment) in [("", "it has 0 lines"), ("untrusted comment: x\nnot base64!\n", "not base64 of 42 bytes"),
                                 ("nope\nRWQuqQ3iJh5ba5+8UNGvrsvPWa3cbez9042/3Da1udEehAOnK9NIU6dl\n", "does not start with"),
                                 (String(decoding: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0x0A, 0xFF], as: UTF8.self), "it is not text (a binary file?)")] {
            do {
                _ = try MinisignPublicKey(parsing: text, source: "k.pub")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.message.contains(fragment), "\(error.message)")
                #expect(!error.message.contains("\n"))
            }
        }
        #expect(throws: HostError.self) { try MinisignSignature(parsing: "untrusted comment: a\nAAAA\n", source: "s") }
    }
}
