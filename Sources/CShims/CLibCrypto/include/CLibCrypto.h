#ifndef CLIBCRYPTO_H
#define CLIBCRYPTO_H

/* The one C shim over libcrypto (OpenSSL 3); only the Ed25519 target imports this module.

   libcrypto is loaded on first use (dlopen of libcrypto.so.3, which libcurl already brings), not
   linked: the dashboard signs and checks packages only in `apps` commands, and its start should
   not pay for the library. Only Ed25519 is used: a key from its 32-byte seed, a signature, a check.
   No header of OpenSSL's is needed; its key and context types stay opaque here. */

#include <stddef.h>
#include <stdint.h>

/* Loads libcrypto and resolves what the functions below call, once per process (thread-safe).
   Returns NULL when they are ready, else a description of what failed. */
const char *tc_crypto_load(void);

/* The public key (32 bytes) of the secret key whose seed is `seed` (32 bytes). 1 on success. */
int tc_ed25519_public_key(const uint8_t seed[32], uint8_t public_key[32]);

/* The signature (64 bytes) of `message` by the key whose seed is `seed`. 1 on success. */
int tc_ed25519_sign(const uint8_t seed[32], const uint8_t *message, size_t length, uint8_t signature[64]);

/* 1 when `signature` is `public_key`'s of `message`; 0 when it is not or cannot be checked. */
int tc_ed25519_verify(const uint8_t public_key[32], const uint8_t *message, size_t length, const uint8_t signature[64]);

#endif
