/*
 * mx_crypto_int.h — what mx_crypto.c (the account, signatures,
 * cross-signing) and mx_crypto_sess.c (Olm and Megolm sessions) share:
 * the account's struct and the buffers' hygiene. Built with libolm only.
 */
#ifndef PZ_MX_CRYPTO_INT_H
#define PZ_MX_CRYPTO_INT_H

#ifndef PZ_INSIDE_MX_CRYPTO
#error "mx_crypto_int.h is mx_crypto's inside: others include mx_crypto.h (ARCHITECTURE.md)"
#endif

#include <olm/olm.h>

#include "mx_crypto.h"

#define KEY_B64 64 /* room for a base64 curve25519 or ed25519 key */

struct mx_olm {
    OlmAccount *acc;
    char curve[KEY_B64], ed[KEY_B64];
};

/* Zeroes n bytes of p (kept by the compiler: volatile). */
void mx__crypto_wipe(void *p, size_t n);
/* Zeroes and frees p (n bytes; NULL: nothing). */
void mx__crypto_free_wiped(void *p, size_t n);
/* n random bytes (malloc'd), NULL when the kernel or memory fails. */
unsigned char *mx__crypto_random(size_t n);

#endif /* PZ_MX_CRYPTO_INT_H */
