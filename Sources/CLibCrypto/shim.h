// The parts of OpenSSL's libcrypto that YYImageService uses: one-shot HMAC and SHA-256, and
// CRYPTO_memcmp for comparing signatures in constant time.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
