/*
 * mx_crypto_obj.c — libolm's objects made, loaded, saved and freed one way
 * (mx_crypto_int.h): the account and the pk decryption that holds a
 * cross-signing seed (mx_crypto.c), Olm and Megolm sessions
 * (mx_crypto_sess.c). What differs between the types is a table of their
 * calls, behind thunks of one signature. Built with libolm only.
 */
#include <stdlib.h>
#include <string.h>

#include <olm/inbound_group_session.h>
#include <olm/outbound_group_session.h>
#include <olm/pk.h>

#include "mx_crypto_int.h"

/* The thunks of libolm type T, whose calls are olm_STEM, olm_clear_STEM,
   olm_pickle_STEM_length and olm_pickle_STEM. */
#define OLM_THUNKS(var, T, stem)                                                                   \
    static void *var##_init(void *mem)                                                             \
    {                                                                                              \
        return olm_##stem(mem);                                                                    \
    }                                                                                              \
    static size_t var##_clear(void *o)                                                             \
    {                                                                                              \
        return olm_clear_##stem((T *)o);                                                           \
    }                                                                                              \
    static size_t var##_plen(void *o)                                                              \
    {                                                                                              \
        return olm_pickle_##stem##_length((T *)o);                                                 \
    }                                                                                              \
    static size_t var##_pickle(void *o, const char *key, size_t kn, void *out, size_t n)           \
    {                                                                                              \
        return olm_pickle_##stem((T *)o, key, kn, out, n);                                         \
    }
/* The same for olm_unpickle_STEM, and the table of type T. */
#define OLM_KIND(var, T, stem)                                                                     \
    OLM_THUNKS(var, T, stem)                                                                       \
    static size_t var##_unpickle(void *o, const char *key, size_t kn, void *in, size_t n)          \
    {                                                                                              \
        return olm_unpickle_##stem((T *)o, key, kn, in, n);                                        \
    }                                                                                              \
    const mx_olm_kind var = {olm_##stem##_size, var##_init,   var##_clear,                         \
                             var##_plen,        var##_pickle, var##_unpickle}

OLM_KIND(mx__olm_account, OlmAccount, account);
OLM_KIND(mx__olm_session, OlmSession, session);
OLM_KIND(mx__olm_out, OlmOutboundGroupSession, outbound_group_session);
OLM_KIND(mx__olm_in, OlmInboundGroupSession, inbound_group_session);

/* A pk decryption's unpickling also gives its public key, not needed here. */
OLM_THUNKS(mx__olm_pkd, OlmPkDecryption, pk_decryption)
static size_t mx__olm_pkd_unpickle(void *o, const char *key, size_t kn, void *in, size_t n)
{
    char pub[KEY_B64];
    return olm_unpickle_pk_decryption(o, key, kn, in, n, pub, sizeof pub);
}
const mx_olm_kind mx__olm_pkd = {olm_pk_decryption_size, mx__olm_pkd_init,   mx__olm_pkd_clear,
                                 mx__olm_pkd_plen,       mx__olm_pkd_pickle, mx__olm_pkd_unpickle};

void *mx__olm_obj_new(const mx_olm_kind *k)
{
    void *mem = malloc(k->size());
    return mem == NULL ? NULL : k->init(mem);
}

void mx__olm_obj_free(const mx_olm_kind *k, void *o)
{
    if (o == NULL)
        return;
    k->clear(o);
    free(o); /* libolm's constructors return the memory they were given */
}

int mx__olm_obj_load(const mx_olm_kind *k, void *o, const char *key, const char *pickle)
{
    size_t n = pickle != NULL ? strlen(pickle) : 0;
    char *copy = pickle != NULL ? malloc(n + 1) : NULL; /* libolm decodes in place */
    if (copy == NULL)
        return MX_CRYPTO_ENO_MEMORY;
    memcpy(copy, pickle, n + 1);
    int rc = k->unpickle(o, key, strlen(key), copy, n) == olm_error() ? MX_CRYPTO_EPICKLE : 0;
    mx__crypto_free_wiped(copy, n);
    return rc;
}

int mx__olm_obj_pickle(const mx_olm_kind *k, void *o, const char *key, char **out)
{
    size_t n = k->pickle_len(o);
    char *p = malloc(n + 1);
    if (p == NULL)
        return MX_CRYPTO_ENO_MEMORY;
    if (k->pickle(o, key, strlen(key), p, n) == olm_error()) {
        mx__crypto_free_wiped(p, n);
        return MX_CRYPTO_EOLM;
    }
    p[n] = '\0';
    *out = p;
    return 0;
}
