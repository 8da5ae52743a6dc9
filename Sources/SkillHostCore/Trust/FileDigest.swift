import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 of files, computed with OpenSSL's libcrypto (the `COpenSSL` system library).
///
/// Used to pin a plugin file: `skillhost trust ID` records the digest in the registry, and the host refuses
/// a trusted plugin whose file no longer has it.
public enum FileDigest {
    /// The SHA-256 of the file at `path`, as 64 lowercase hex digits.
    /// - Throws: ``HostError`` of kind `io` when the file cannot be opened or read.
    public static func sha256(ofFile path: String) throws(HostError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw HostError(.io, "cannot read \(path) to compute its SHA-256: \(Posix.describe(errno: errno))")
        }
        defer { close(descriptor) }
        guard let context = EVP_MD_CTX_new() else {
            throw HostError(.io, "cannot compute the SHA-256 of \(path): OpenSSL could not allocate a digest context")
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw HostError(.io, "cannot compute the SHA-256 of \(path): OpenSSL refused to start SHA-256")
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw HostError(.io, "cannot read \(path) to compute its SHA-256: \(Posix.describe(errno: errno))")
            }
            _ = buffer.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, count) }
        }
        return try finish(context, what: path)
    }

    /// The SHA-256 of `bytes`, as 64 lowercase hex digits.
    public static func sha256(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBytes { output in
                _ = EVP_Digest(
                    input.baseAddress, input.count, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
                    EVP_sha256(), nil)
            }
        }
        return hex(digest.prefix(Int(length)))
    }

    private static func finish(_ context: OpaquePointer, what path: String) throws(HostError) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        guard status == 1 else {
            throw HostError(.io, "cannot compute the SHA-256 of \(path): OpenSSL failed to finish the digest")
        }
        return hex(digest.prefix(Int(length)))
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
