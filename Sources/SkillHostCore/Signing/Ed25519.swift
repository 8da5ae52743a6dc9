import COpenSSL

/// Ed25519 signatures through OpenSSL's libcrypto: what minisign signs with. Keys are raw bytes: a 32-byte
/// seed (the secret) and the 32-byte public key.
enum Ed25519 {
    /// Why a key could not be used.
    struct Failure: Error, Equatable {
        var reason: String
    }

    /// A fresh 32-byte seed from OpenSSL's random generator.
    static func randomSeed() throws(Failure) -> [UInt8] {
        try randomBytes(32)
    }

    /// `count` bytes from OpenSSL's random generator.
    static func randomBytes(_ count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw Failure(reason: "OpenSSL could not produce random bytes") }
        return bytes
    }

    /// The public key of the secret `seed`.
    static func publicKey(seed: [UInt8]) throws(Failure) -> [UInt8] {
        let key = try privateKey(seed)
        defer { EVP_PKEY_free(key) }
        var length = 32
        var bytes = [UInt8](repeating: 0, count: 32)
        guard EVP_PKEY_get_raw_public_key(key, &bytes, &length) == 1, length == 32 else {
            throw Failure(reason: "OpenSSL could not derive the Ed25519 public key")
        }
        return bytes
    }

    /// The 64-byte signature of `message` by the secret `seed`.
    static func sign(_ message: [UInt8], seed: [UInt8]) throws(Failure) -> [UInt8] {
        let key = try privateKey(seed)
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw Failure(reason: "OpenSSL could not allocate a signing context") }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: 64)
        var length = 64
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1,
            EVP_DigestSign(context, &signature, &length, message, message.count) == 1, length == 64
        else { throw Failure(reason: "OpenSSL could not make an Ed25519 signature") }
        return signature
    }

    /// Whether `signature` is `publicKey`'s signature of `message`.
    static func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 32,
            let key = EVP_PKEY_new_raw_public_key(NID_ED25519, nil, publicKey, 32)
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1
            && EVP_DigestVerify(context, signature, 64, message, message.count) == 1
    }

    private static func privateKey(_ seed: [UInt8]) throws(Failure) -> OpaquePointer {
        guard seed.count == 32, let key = EVP_PKEY_new_raw_private_key(NID_ED25519, nil, seed, 32) else {
            throw Failure(reason: "not an Ed25519 secret key (OpenSSL refused its 32-byte seed)")
        }
        return key
    }
}
