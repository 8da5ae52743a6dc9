/* OpenSSL libcrypto (Debian: libssl-dev), used for SHA-256 of plugin files. */
#include <openssl/evp.h>
#include <openssl/sha.h>
