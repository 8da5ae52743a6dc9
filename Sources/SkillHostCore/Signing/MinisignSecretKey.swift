import COpenSSL
import Foundation

/// A publisher's secret key in minisign's format (`minisign -G` writes one, password-protected unless `-W`;
/// `skillhost keys generate` writes one without a password). After the comment line, base64 of 158 bytes:
///
/// | bytes | what |
/// |---|---|
/// | 2 | `"Ed"` |
/// | 2 | key derivation: `"Sc"` (scrypt, password-protected) or two zero bytes (none) |
/// | 2 | checksum algorithm `"B2"` (BLAKE2b-256) |
/// | 32 | scrypt salt |
/// | 8 + 8 | scrypt's libsodium opslimit and memlimit, little-endian |
/// | 8 | key number |
/// | 64 | Ed25519 secret key: seed, then public key (libsodium's layout) |
/// | 32 | BLAKE2b-256 of `"Ed"`, key number and secret key |
///
/// With a password, the last 104 bytes are XORed with scrypt(password, salt) (minisign's parameters take
/// 1 GiB of memory and a few seconds). minisign 0.11 writes a zero checksum for a key without password; the
/// public half matching the seed is checked instead then.
public struct MinisignSecretKey: Sendable {
    /// The 8-byte key number that signatures name.
    public var keyNumber: [UInt8]
    /// The Ed25519 seed (the secret).
    var seed: [UInt8]
    /// The matching public key.
    public var publicKey: MinisignPublicKey

    private static let layoutSize = 158

    /// Whether the key file's text holds a password-protected key (nil when it is no secret key at all).
    public static func isEncrypted(_ text: String) -> Bool? {
        let lines = MinisignText.lines(text)
        guard lines.count == 2, let bytes = MinisignText.base64(lines[1]), bytes.count == layoutSize else { return nil }
        return bytes[2] == 0x53 && bytes[3] == 0x63
    }

    /// Reads a secret key file's text; `password` is asked only for a password-protected key.
    /// - Throws: ``HostError`` `invalidArguments` for a file that is no minisign secret key or a wrong
    ///   password (both say so), or what `password` throws.
    public init(parsing text: String, source: String, password: () throws(HostError) -> String) throws(HostError) {
        func invalid(_ reason: String) -> HostError {
            HostError(.invalidArguments, "\(source) is not a usable minisign secret key: \(reason)")
        }
        let lines = MinisignText.lines(text)
        guard lines.count == 2, MinisignText.value(of: lines[0], prefix: "untrusted comment: ") != nil else {
            throw invalid("a secret key file has 2 lines, the first starting with \"untrusted comment: \"")
        }
        guard var bytes = MinisignText.base64(lines[1].trimmingCharacters(in: .whitespaces)), bytes.count == Self.layoutSize
        else { throw invalid("line 2 is not base64 of \(Self.layoutSize) bytes") }
        guard bytes[0] == 0x45, bytes[1] == 0x64 else { throw invalid("it is not an Ed25519 key") }
        guard bytes[4] == 0x42, bytes[5] == 0x32 else { throw invalid("its checksum is not BLAKE2b") }
        let encrypted: Bool
        switch (bytes[2], bytes[3]) {
        case (0x53, 0x63): encrypted = true
        case (0, 0): encrypted = false
        default: throw invalid("its key derivation is \(MinisignText.hex(Array(bytes[2..<4]))), neither scrypt nor none")
        }
        if encrypted {
            let salt = Array(bytes[6..<38])
            let opsLimit = Self.little64(bytes, 38)
            let memLimit = Self.little64(bytes, 46)
            let stream = try Self.scrypt(password: Array(try password().utf8), salt: salt, opsLimit: opsLimit, memLimit: memLimit, count: 104)
            for index in 0..<104 { bytes[54 + index] ^= stream[index] }
        }
        let keyNumber = Array(bytes[54..<62])
        let secret = Array(bytes[62..<126])
        let checksum = Array(bytes[126..<158])
        let expected = BLAKE2b.hash([0x45, 0x64] + keyNumber + secret, outputLength: 32)
        if checksum != expected, encrypted || checksum.contains(where: { $0 != 0 }) {
            throw invalid(encrypted ? "wrong password (its checksum does not match)" : "its checksum does not match (a damaged file)")
        }
        let seed = Array(secret[0..<32])
        let derived: [UInt8]
        do { derived = try Ed25519.publicKey(seed: seed) } catch { throw invalid(error.reason) }
        guard derived == Array(secret[32..<64]) else { throw invalid("its public half does not match its seed (a damaged file)") }
        self.keyNumber = keyNumber
        self.seed = seed
        self.publicKey = MinisignPublicKey(keyNumber: keyNumber, key: derived)
    }

    private init(keyNumber: [UInt8], seed: [UInt8], publicKey: [UInt8]) {
        self.keyNumber = keyNumber
        self.seed = seed
        self.publicKey = MinisignPublicKey(keyNumber: keyNumber, key: publicKey)
    }

    /// A new random key.
    /// - Throws: ``HostError`` `io` when OpenSSL cannot make one.
    public static func generate() throws(HostError) -> MinisignSecretKey {
        do {
            let seed = try Ed25519.randomSeed()
            return MinisignSecretKey(keyNumber: try Ed25519.randomBytes(8), seed: seed, publicKey: try Ed25519.publicKey(seed: seed))
        } catch {
            throw HostError(.io, "cannot make a key: \(error.reason)")
        }
    }

    /// The file as `minisign -G -W` writes it (no password), with its checksum.
    public var fileText: String {
        let secret = seed + publicKey.key
        var bytes: [UInt8] = [0x45, 0x64, 0, 0, 0x42, 0x32]
        bytes += [UInt8](repeating: 0, count: 32 + 8 + 8)
        bytes += keyNumber + secret + BLAKE2b.hash([0x45, 0x64] + keyNumber + secret, outputLength: 32)
        return "untrusted comment: minisign secret key \(publicKey.id)\n\(Data(bytes).base64EncodedString())\n"
    }

    /// Writes the secret key (mode 0600, its folder made 0700 when new) and the public key, each atomically.
    /// - Throws: ``HostError`` `invalidArguments` when a file exists and `replacing` is false, `io`.
    public func write(secretKeyTo secretPath: String, publicKeyTo publicPath: String, replacing: Bool) throws(HostError) {
        for path in [secretPath, publicPath] where !replacing && Posix.exists(path) {
            throw HostError(
                .invalidArguments,
                "\(path) exists; keep it, or pass --force to replace it (packages signed with a replaced key no longer install for users who trusted it)")
        }
        try Posix.writeFileAtomically(Posix.absolutePath(secretPath), bytes: Array(fileText.utf8), mode: 0o600)
        try Posix.writeFileAtomically(Posix.absolutePath(publicPath), bytes: Array(publicKey.fileText.utf8), mode: 0o644)
    }

    private static func little64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64($1 * 8) }
    }

    /// scrypt as libsodium's `crypto_pwhash_scryptsalsa208sha256` runs it for `opsLimit` and `memLimit`
    /// (its `pickparams`: r = 8, N and p from the limits).
    static func scrypt(password: [UInt8], salt: [UInt8], opsLimit: UInt64, memLimit: UInt64, count: Int) throws(HostError) -> [UInt8] {
        let ops = max(opsLimit, 32768)
        let r: UInt64 = 8
        var logN: UInt64 = 1
        var p: UInt64 = 1
        if ops < memLimit / 32 {
            let maxN = ops / (r * 4)
            while logN < 63, (UInt64(1) << logN) <= maxN / 2 { logN += 1 }
        } else {
            let maxN = memLimit / (r * 128)
            while logN < 63, (UInt64(1) << logN) <= maxN / 2 { logN += 1 }
            p = min((ops / 4) / (UInt64(1) << logN), 0x3fff_ffff) / r
        }
        guard logN < 40, p >= 1, p <= 16 else {
            throw HostError(.invalidArguments, "the key asks for scrypt parameters this host does not run (N = 2^\(logN), p = \(p))")
        }
        let n = UInt64(1) << logN
        var output = [UInt8](repeating: 0, count: count)
        // scrypt needs 128 * r * (N + p) bytes and a little more.
        let memory = 128 * r * (n + p) + (1 << 20)
        let status = password.withUnsafeBufferPointer { pass in
            EVP_PBE_scrypt(pass.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, pass.count,
                           salt, salt.count, n, r, p, memory, &output, count)
        }
        guard status == 1 else {
            throw HostError(.io, "cannot unlock the key: OpenSSL's scrypt failed (it needs \((memory >> 20)) MiB of memory)")
        }
        return output
    }
}
