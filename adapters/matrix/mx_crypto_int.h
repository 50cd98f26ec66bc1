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

/*
 * One libolm object type: its size and calls, behind thunks of one
 * signature (mx_crypto_obj.c), so that one helper makes, loads, saves
 * and frees each type the same way.
 */
typedef struct mx_olm_kind {
    size_t (*size)(void);
    void *(*init)(void *mem);
    size_t (*clear)(void *o);
    size_t (*pickle_len)(void *o);
    size_t (*pickle)(void *o, const char *key, size_t kn, void *out, size_t n);
    size_t (*unpickle)(void *o, const char *key, size_t kn, void *in, size_t n);
} mx_olm_kind;

/* The account, an Olm session, an outbound and an inbound Megolm session,
   a pk decryption (what holds a cross-signing seed). */
extern const mx_olm_kind mx__olm_account, mx__olm_session, mx__olm_out, mx__olm_in, mx__olm_pkd;

/* A new object of kind k, not set up yet; NULL out of memory. */
void *mx__olm_obj_new(const mx_olm_kind *k);
/* Clears and frees o (NULL: nothing). */
void mx__olm_obj_free(const mx_olm_kind *k, void *o);
/* Reads pickle (NULL: none) into o: 0, MX_CRYPTO_ENO_MEMORY or MX_CRYPTO_EPICKLE. */
int mx__olm_obj_load(const mx_olm_kind *k, void *o, const char *key, const char *pickle);
/* o's pickle into *out (malloc'd; untouched on failure): 0,
   MX_CRYPTO_ENO_MEMORY or MX_CRYPTO_EOLM. */
int mx__olm_obj_pickle(const mx_olm_kind *k, void *o, const char *key, char **out);

#endif /* PZ_MX_CRYPTO_INT_H */
