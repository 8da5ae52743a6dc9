/* OpenSSL (Debian: libssl-dev): libcrypto for SHA-256 of plugin files and for plugin package signatures
 * (Ed25519, scrypt, random keys), libssl for the model provider's HTTPS client (SkillAgent's
 * SocketHTTPTransport). */
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/* Function forms of OpenSSL macros, which Swift cannot call. */
static inline long skillhost_ssl_set_server_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline int skillhost_ssl_ctx_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}
static inline uint64_t skillhost_ssl_ignore_unexpected_eof_option(void) {
    return SSL_OP_IGNORE_UNEXPECTED_EOF;
}
