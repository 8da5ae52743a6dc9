import COpenSSL

/// The server's TLS settings (OpenSSL): a certificate chain and private key in PEM files, TLS 1.2 or later.
public final class TLSServerContext: @unchecked Sendable {
    let context: OpaquePointer

    /// Loads `certificateFile` (PEM, the chain) and `keyFile` (PEM) and checks that they belong together.
    /// - Throws: one line naming the file and OpenSSL's reason.
    public init(certificateFile: String, keyFile: String) throws(HTTPServerError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw HTTPServerError("cannot set up TLS" + Self.lastError())
        }
        _ = skillhost_ssl_ctx_require_tls12(context)
        _ = SSL_CTX_set_options(context, skillhost_ssl_ignore_unexpected_eof_option())
        guard SSL_CTX_use_certificate_chain_file(context, certificateFile) == 1 else {
            SSL_CTX_free(context)
            throw HTTPServerError("cannot use the TLS certificate \(certificateFile)\(Self.lastError()); pass a PEM certificate (chain) with --tls-cert")
        }
        guard SSL_CTX_use_PrivateKey_file(context, keyFile, SSL_FILETYPE_PEM) == 1 else {
            SSL_CTX_free(context)
            throw HTTPServerError("cannot use the TLS key \(keyFile)\(Self.lastError()); pass the certificate's PEM private key with --tls-key")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            SSL_CTX_free(context)
            throw HTTPServerError("the TLS key \(keyFile) does not belong to the certificate \(certificateFile); pass the matching pair")
        }
        self.context = context
    }

    deinit { SSL_CTX_free(context) }

    /// OpenSSL's last reason as `: reason` (its error queue cleared), or "".
    static func lastError() -> String { OpenSSLErrors.lastReason().map { ": \($0)" } ?? "" }
}

/// Why the server cannot start (one line: what, and how to fix it).
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
