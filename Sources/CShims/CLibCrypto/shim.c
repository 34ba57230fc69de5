#include "CLibCrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* OpenSSL's NID_ED25519 (EVP_PKEY_ED25519), fixed by its object identifiers' table. */
#define TC_EVP_PKEY_ED25519 1087

typedef struct evp_pkey_st EVP_PKEY;
typedef struct evp_md_ctx_st EVP_MD_CTX;

/* libcrypto's functions, resolved by tc_crypto_load. */
static struct {
    EVP_PKEY *(*new_raw_private_key)(int, void *, const unsigned char *, size_t);
    EVP_PKEY *(*new_raw_public_key)(int, void *, const unsigned char *, size_t);
    int (*get_raw_public_key)(const EVP_PKEY *, unsigned char *, size_t *);
    void (*pkey_free)(EVP_PKEY *);
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *);
    int (*digest_sign_init)(EVP_MD_CTX *, void **, const void *, void *, EVP_PKEY *);
    int (*digest_sign)(EVP_MD_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*digest_verify_init)(EVP_MD_CTX *, void **, const void *, void *, EVP_PKEY *);
    int (*digest_verify)(EVP_MD_CTX *, const unsigned char *, size_t, const unsigned char *, size_t);
} crypto;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_problem[512];

#define RESOLVE(field, name)                                                                     \
    do {                                                                                         \
        *(void **)(&crypto.field) = dlsym(library, name);                                        \
        if (crypto.field == NULL) {                                                              \
            snprintf(load_problem, sizeof load_problem, "libcrypto lacks %s", name);             \
            return;                                                                              \
        }                                                                                        \
    } while (0)

static void load(void) {
#ifdef __APPLE__
    void *library = dlopen("libcrypto.3.dylib", RTLD_NOW | RTLD_LOCAL);
#else
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
#endif
    if (library == NULL) {
        snprintf(load_problem, sizeof load_problem, "libcrypto.so.3 (OpenSSL 3) could not be loaded");
        return;
    }
    RESOLVE(new_raw_private_key, "EVP_PKEY_new_raw_private_key");
    RESOLVE(new_raw_public_key, "EVP_PKEY_new_raw_public_key");
    RESOLVE(get_raw_public_key, "EVP_PKEY_get_raw_public_key");
    RESOLVE(pkey_free, "EVP_PKEY_free");
    RESOLVE(md_ctx_new, "EVP_MD_CTX_new");
    RESOLVE(md_ctx_free, "EVP_MD_CTX_free");
    RESOLVE(digest_sign_init, "EVP_DigestSignInit");
    RESOLVE(digest_sign, "EVP_DigestSign");
    RESOLVE(digest_verify_init, "EVP_DigestVerifyInit");
    RESOLVE(digest_verify, "EVP_DigestVerify");
}

const char *tc_crypto_load(void) {
    pthread_once(&load_once, load);
    return load_problem[0] ? load_problem : NULL;
}

int tc_ed25519_public_key(const uint8_t seed[32], uint8_t public_key[32]) {
    EVP_PKEY *key = crypto.new_raw_private_key(TC_EVP_PKEY_ED25519, NULL, seed, 32);
    if (key == NULL) return 0;
    size_t length = 32;
    int done = crypto.get_raw_public_key(key, public_key, &length) == 1 && length == 32;
    crypto.pkey_free(key);
    return done;
}

int tc_ed25519_sign(const uint8_t seed[32], const uint8_t *message, size_t length, uint8_t signature[64]) {
    EVP_PKEY *key = crypto.new_raw_private_key(TC_EVP_PKEY_ED25519, NULL, seed, 32);
    if (key == NULL) return 0;
    EVP_MD_CTX *context = crypto.md_ctx_new();
    size_t signatureLength = 64;
    int done = context != NULL && crypto.digest_sign_init(context, NULL, NULL, NULL, key) == 1
        && crypto.digest_sign(context, signature, &signatureLength, message, length) == 1 && signatureLength == 64;
    if (context != NULL) crypto.md_ctx_free(context);
    crypto.pkey_free(key);
    return done;
}

int tc_ed25519_verify(const uint8_t public_key[32], const uint8_t *message, size_t length, const uint8_t signature[64]) {
    EVP_PKEY *key = crypto.new_raw_public_key(TC_EVP_PKEY_ED25519, NULL, public_key, 32);
    if (key == NULL) return 0;
    EVP_MD_CTX *context = crypto.md_ctx_new();
    int valid = context != NULL && crypto.digest_verify_init(context, NULL, NULL, NULL, key) == 1
        && crypto.digest_verify(context, signature, 64, message, length) == 1;
    if (context != NULL) crypto.md_ctx_free(context);
    crypto.pkey_free(key);
    return valid;
}
