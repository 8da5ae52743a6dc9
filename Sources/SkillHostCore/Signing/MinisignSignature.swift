import Foundation

/// A signature in minisign's format (`FILE.minisig`), made by `minisign -S` or `skillhost pack --key`:
///
/// ```
/// untrusted comment: signature from minisign secret key
/// RUQuqQ3iJh5baz9HUIrkWKTt…                       base64 of algorithm, key number, Ed25519 signature
/// trusted comment: timestamp:1796287214	file:package.json	hashed
/// dmiuq05debuHshOO5iqlnBSZBq…                     base64 of the Ed25519 signature of (signature + trusted comment)
/// ```
///
/// The algorithm is `ED` (the file's BLAKE2b-512 digest is signed; minisign's default) or `Ed` (the file
/// itself, as minisign before 0.8 did); both are verified, `ED` is what this host writes.
public struct MinisignSignature: Sendable, Equatable {
    /// What was signed.
    public enum Algorithm: String, Sendable {
        /// The file's BLAKE2b-512 digest (`ED`).
        case prehashed = "ED"
        /// The file itself (`Ed`).
        case legacy = "Ed"
    }

    public var algorithm: Algorithm
    /// The key number of the key that signed.
    public var keyNumber: [UInt8]
    /// The Ed25519 signature of the file (or its digest).
    public var signature: [UInt8]
    /// The trusted comment: signed together with ``signature`` by ``globalSignature``.
    public var trustedComment: String
    /// The Ed25519 signature of ``signature`` followed by ``trustedComment``'s bytes.
    public var globalSignature: [UInt8]
    /// The first line's comment: not signed.
    public var untrustedComment: String

    /// The id of the key that signed (``MinisignPublicKey/id``).
    public var keyID: String { MinisignText.keyID(keyNumber) }

    /// Reads a `.minisig` file's text.
    /// - Parameter source: names the file in messages.
    /// - Throws: ``HostError`` `invalidPlugin` saying what is wrong with it.
    public init(parsing text: String, source: String) throws(HostError) {
        func invalid(_ reason: String) -> HostError {
            HostError(.invalidPlugin, "\(source) is not a minisign signature: \(reason); sign again with 'skillhost pack --key' or 'minisign -S'")
        }
        let lines = MinisignText.lines(text)
        guard lines.count == 4 else { throw invalid("it has \(lines.count) lines, a signature has 4") }
        guard let untrusted = MinisignText.value(of: lines[0], prefix: "untrusted comment: ") else {
            throw invalid("line 1 does not start with \"untrusted comment: \"")
        }
        guard let bytes = MinisignText.base64(lines[1].trimmingCharacters(in: .whitespaces)), bytes.count == 74 else {
            throw invalid("line 2 is not base64 of 74 bytes")
        }
        guard let algorithm = Algorithm(rawValue: String(decoding: bytes[0..<2], as: UTF8.self)) else {
            throw invalid("its algorithm is \(MinisignText.hex(Array(bytes[0..<2]))), neither ED nor Ed")
        }
        guard let trusted = MinisignText.value(of: lines[2], prefix: "trusted comment: ") else {
            throw invalid("line 3 does not start with \"trusted comment: \"")
        }
        guard let global = MinisignText.base64(lines[3].trimmingCharacters(in: .whitespaces)), global.count == 64 else {
            throw invalid("line 4 is not base64 of a 64-byte signature")
        }
        self.init(
            algorithm: algorithm, keyNumber: Array(bytes[2..<10]), signature: Array(bytes[10..<74]),
            trustedComment: trusted, globalSignature: global, untrustedComment: untrusted)
    }

    init(
        algorithm: Algorithm, keyNumber: [UInt8], signature: [UInt8], trustedComment: String, globalSignature: [UInt8],
        untrustedComment: String
    ) {
        self.algorithm = algorithm
        self.keyNumber = keyNumber
        self.signature = signature
        self.trustedComment = trustedComment
        self.globalSignature = globalSignature
        self.untrustedComment = untrustedComment
    }

    /// Why this is not `key`'s signature of `content`, nil when it is: another key, a signature that does
    /// not match the content, or a trusted comment that was changed.
    public func problem(verifying content: [UInt8], with key: MinisignPublicKey) -> String? {
        guard keyNumber == key.keyNumber else { return "it was made with key \(keyID), not \(key.id)" }
        let signed = algorithm == .prehashed ? BLAKE2b.hash(content) : content
        guard Ed25519.verify(signature, of: signed, publicKey: key.key) else {
            return "the signature does not match the signed file (it was changed after signing, or signed by another key with the same id)"
        }
        guard Ed25519.verify(globalSignature, of: signature + Array(trustedComment.utf8), publicKey: key.key) else {
            return "the trusted comment was changed after signing"
        }
        return nil
    }

    /// Signs `content` with `secretKey`, prehashed (`ED`), as `minisign -S` does.
    /// - Throws: ``HostError`` `io` when OpenSSL fails.
    public static func sign(
        _ content: [UInt8], with secretKey: MinisignSecretKey, trustedComment: String,
        untrustedComment: String = "signature from minisign secret key"
    ) throws(HostError) -> MinisignSignature {
        do {
            let signature = try Ed25519.sign(BLAKE2b.hash(content), seed: secretKey.seed)
            let global = try Ed25519.sign(signature + Array(trustedComment.utf8), seed: secretKey.seed)
            return MinisignSignature(
                algorithm: .prehashed, keyNumber: secretKey.keyNumber, signature: signature, trustedComment: trustedComment,
                globalSignature: global, untrustedComment: untrustedComment)
        } catch {
            throw HostError(.io, "cannot sign: \(error.reason)")
        }
    }

    /// The file as minisign writes it.
    public var fileText: String {
        let line = Data(Array(algorithm.rawValue.utf8) + keyNumber + signature).base64EncodedString()
        return "untrusted comment: \(untrustedComment)\n\(line)\ntrusted comment: \(trustedComment)\n"
            + Data(globalSignature).base64EncodedString() + "\n"
    }
}
