/*
 * mx_crypto_sess.c — Olm (device to device) and Megolm (room) sessions on
 * libolm, each call from a pickle to a pickle (mx_crypto.h): a session
 * lives in memory only for one operation, so what the store holds is
 * always what was used last. Part of the module to swap with mx_crypto.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mx_crypto.h"

#ifdef PZ_HAVE_OLM

#include <olm/inbound_group_session.h>
#include <olm/outbound_group_session.h>

#include "mx_crypto_int.h"

/* A copy of s (libolm decodes its inputs in place), or NULL. */
static char *dup_n(const char *s, size_t *len)
{
    *len = strlen(s);
    char *c = malloc(*len + 1);
    if (c != NULL)
        memcpy(c, s, *len + 1);
    return c;
}

/* ---- One way for every kind (mx_crypto_obj.c) ---- */

/* The object of kind k that pickle holds, or NULL (bad pickle or memory: *rc says). */
static void *load(const mx_olm_kind *k, const char *key, const char *pickle, int *rc)
{
    void *o = mx__olm_obj_new(k);
    *rc = o == NULL ? MX_CRYPTO_ENO_MEMORY : mx__olm_obj_load(k, o, key, pickle);
    if (*rc == 0)
        return o;
    mx__olm_obj_free(k, o);
    return NULL;
}

/* Replaces *pickle with o's pickle. 0 or a negative code. */
static int save(const mx_olm_kind *k, void *o, const char *key, char **pickle)
{
    char *p = NULL;
    int rc = mx__olm_obj_pickle(k, o, key, &p);
    if (rc != 0)
        return rc;
    if (*pickle != NULL)
        mx__crypto_free_wiped(*pickle, strlen(*pickle));
    *pickle = p;
    return 0;
}

/* ---- Olm sessions ---- */

int mx_olm_session_new(mx_olm *a, const char *key, const char *their_curve, const char *their_otk,
                       char **pickle)
{
    OlmSession *s = mx__olm_obj_new(&mx__olm_session);
    if (s == NULL)
        return MX_CRYPTO_ENO_MEMORY;
    size_t rn = olm_create_outbound_session_random_length(s);
    unsigned char *r = mx__crypto_random(rn);
    int rc = 0;
    if (r == NULL)
        rc = MX_CRYPTO_ENO_MEMORY;
    else if (olm_create_outbound_session(s, a->acc, their_curve, strlen(their_curve), their_otk,
                                         strlen(their_otk), r, rn) == olm_error())
        rc = MX_CRYPTO_EOLM;
    mx__crypto_free_wiped(r, rn);
    *pickle = NULL;
    if (rc == 0)
        rc = save(&mx__olm_session, s, key, pickle);
    mx__olm_obj_free(&mx__olm_session, s);
    return rc;
}

int mx_olm_encrypt(const char *key, char **pickle, const char *plain, int *type, char **cipher)
{
    int rc = 0;
    OlmSession *s = load(&mx__olm_session, key, *pickle, &rc);
    if (s == NULL)
        return rc;
    size_t rn = olm_encrypt_random_length(s), cn = olm_encrypt_message_length(s, strlen(plain));
    unsigned char *r = mx__crypto_random(rn);
    char *c = malloc(cn + 1);
    *type = (int)olm_encrypt_message_type(s);
    if (r == NULL || c == NULL)
        rc = MX_CRYPTO_ENO_MEMORY;
    else if (olm_encrypt(s, plain, strlen(plain), r, rn, c, cn) == olm_error())
        rc = MX_CRYPTO_EOLM;
    mx__crypto_free_wiped(r, rn);
    if (rc == 0)
        rc = save(&mx__olm_session, s, key, pickle);
    mx__olm_obj_free(&mx__olm_session, s);
    if (rc != 0) {
        free(c);
        return rc;
    }
    c[cn] = '\0';
    *cipher = c;
    return 0;
}

/* Decrypts with s: *plain malloc'd. */
static int session_decrypt(OlmSession *s, int type, const char *cipher, char **plain)
{
    size_t n;
    char *copy = dup_n(cipher, &n);
    if (copy == NULL)
        return MX_CRYPTO_ENO_MEMORY;
    size_t max = olm_decrypt_max_plaintext_length(s, (size_t)type, copy, n);
    free(copy);
    if (max == olm_error())
        return MX_CRYPTO_EOLM;
    char *out = malloc(max + 1);
    copy = dup_n(cipher, &n);
    int rc = 0;
    size_t got = 0;
    if (out == NULL || copy == NULL)
        rc = MX_CRYPTO_ENO_MEMORY;
    else if ((got = olm_decrypt(s, (size_t)type, copy, n, out, max)) == olm_error())
        rc = MX_CRYPTO_EOLM;
    free(copy);
    if (rc != 0) {
        mx__crypto_free_wiped(out, out != NULL ? max : 0);
        return rc;
    }
    out[got] = '\0';
    *plain = out;
    return 0;
}

int mx_olm_decrypt(mx_olm *a, const char *key, char **pickle, const char *their_curve, int type,
                   const char *cipher, char **plain)
{
    int rc = 0;
    OlmSession *s = NULL;
    if (*pickle != NULL && (*pickle)[0] != '\0') {
        s = load(&mx__olm_session, key, *pickle, &rc);
        if (s == NULL)
            return rc;
        size_t n;
        char *copy = type == 0 ? dup_n(cipher, &n) : NULL;
        bool ours =
            type != 0 || (copy != NULL && olm_matches_inbound_session_from(
                                              s, their_curve, strlen(their_curve), copy, n) == 1);
        free(copy);
        if (ours) {
            rc = session_decrypt(s, type, cipher, plain);
            if (rc == 0)
                rc = save(&mx__olm_session, s, key, pickle);
            mx__olm_obj_free(&mx__olm_session, s);
            return rc;
        }
        mx__olm_obj_free(&mx__olm_session, s);
    }
    if (type != 0)
        return MX_CRYPTO_EOLM;
    s = mx__olm_obj_new(&mx__olm_session);
    size_t n;
    char *copy = dup_n(cipher, &n);
    if (s == NULL || copy == NULL)
        rc = MX_CRYPTO_ENO_MEMORY;
    else if (olm_create_inbound_session_from(s, a->acc, their_curve, strlen(their_curve), copy,
                                             n) == olm_error())
        rc = MX_CRYPTO_EOLM;
    free(copy);
    if (rc == 0)
        rc = session_decrypt(s, type, cipher, plain);
    if (rc == 0) {
        (void)olm_remove_one_time_keys(a->acc, s); /* a fallback key is kept */
        rc = save(&mx__olm_session, s, key, pickle);
    }
    mx__olm_obj_free(&mx__olm_session, s);
    return rc;
}

/* ---- Megolm ---- */

int mx_megolm_out_new(const char *key, char **pickle)
{
    OlmOutboundGroupSession *s = mx__olm_obj_new(&mx__olm_out);
    if (s == NULL)
        return MX_CRYPTO_ENO_MEMORY;
    size_t rn = olm_init_outbound_group_session_random_length(s);
    unsigned char *r = mx__crypto_random(rn);
    int rc = r == NULL                                                  ? MX_CRYPTO_ENO_MEMORY
             : olm_init_outbound_group_session(s, r, rn) == olm_error() ? MX_CRYPTO_EOLM
                                                                        : 0;
    mx__crypto_free_wiped(r, rn);
    *pickle = NULL;
    if (rc == 0)
        rc = save(&mx__olm_out, s, key, pickle);
    mx__olm_obj_free(&mx__olm_out, s);
    return rc;
}

int mx_megolm_out_info(const char *key, const char *pickle, char *sid, size_t cap, unsigned *index,
                       char **session_key)
{
    int rc = 0;
    OlmOutboundGroupSession *s = load(&mx__olm_out, key, pickle, &rc);
    if (s == NULL)
        return rc;
    size_t n = olm_outbound_group_session_id_length(s);
    if (n >= cap || olm_outbound_group_session_id(s, (uint8_t *)sid, n) == olm_error())
        rc = MX_CRYPTO_EINVAL;
    else
        sid[n] = '\0';
    *index = olm_outbound_group_session_message_index(s);
    if (rc == 0 && session_key != NULL) {
        size_t kn = olm_outbound_group_session_key_length(s);
        char *k = malloc(kn + 1);
        if (k == NULL) {
            rc = MX_CRYPTO_ENO_MEMORY;
        } else if (olm_outbound_group_session_key(s, (uint8_t *)k, kn) == olm_error()) {
            free(k);
            rc = MX_CRYPTO_EOLM;
        } else {
            k[kn] = '\0';
            *session_key = k;
        }
    }
    mx__olm_obj_free(&mx__olm_out, s);
    return rc;
}

int mx_megolm_encrypt(const char *key, char **pickle, const char *plain, char **cipher)
{
    int rc = 0;
    OlmOutboundGroupSession *s = load(&mx__olm_out, key, *pickle, &rc);
    if (s == NULL)
        return rc;
    size_t cn = olm_group_encrypt_message_length(s, strlen(plain));
    char *c = malloc(cn + 1);
    if (c == NULL)
        rc = MX_CRYPTO_ENO_MEMORY;
    else if (olm_group_encrypt(s, (const uint8_t *)plain, strlen(plain), (uint8_t *)c, cn) ==
             olm_error())
        rc = MX_CRYPTO_EOLM;
    if (rc == 0)
        rc = save(&mx__olm_out, s, key, pickle);
    mx__olm_obj_free(&mx__olm_out, s);
    if (rc != 0) {
        free(c);
        return rc;
    }
    c[cn] = '\0';
    *cipher = c;
    return 0;
}

int mx_megolm_in_new(const char *key, const char *session_key, char **pickle, char *sid, size_t cap)
{
    OlmInboundGroupSession *s = mx__olm_obj_new(&mx__olm_in);
    if (s == NULL)
        return MX_CRYPTO_ENO_MEMORY;
    int rc = 0;
    size_t n = 0;
    if (olm_init_inbound_group_session(s, (const uint8_t *)session_key, strlen(session_key)) ==
        olm_error()) {
        rc = MX_CRYPTO_EOLM;
    } else {
        n = olm_inbound_group_session_id_length(s);
        if (n >= cap || olm_inbound_group_session_id(s, (uint8_t *)sid, n) == olm_error())
            rc = MX_CRYPTO_EINVAL;
        else
            sid[n] = '\0';
    }
    if (rc == 0)
        rc = mx__olm_obj_pickle(&mx__olm_in, s, key, pickle);
    mx__olm_obj_free(&mx__olm_in, s);
    return rc;
}

int mx_megolm_decrypt(const char *key, const char *pickle, const char *cipher, char **plain,
                      unsigned *index)
{
    OlmInboundGroupSession *s = mx__olm_obj_new(&mx__olm_in);
    size_t cn = 0;
    int rc = s == NULL ? MX_CRYPTO_ENO_MEMORY : mx__olm_obj_load(&mx__olm_in, s, key, pickle);
    char *c = rc == 0 ? dup_n(cipher, &cn) : NULL;
    size_t max = c != NULL ? olm_group_decrypt_max_plaintext_length(s, (uint8_t *)c, cn) : 0;
    free(c);
    if (rc == 0 && max == olm_error())
        rc = MX_CRYPTO_EOLM;
    char *out = rc == 0 ? malloc(max + 1) : NULL;
    c = rc == 0 ? dup_n(cipher, &cn) : NULL;
    uint32_t idx = 0;
    size_t got = 0;
    if (rc == 0 && (out == NULL || c == NULL))
        rc = MX_CRYPTO_ENO_MEMORY;
    else if (rc == 0 && (got = olm_group_decrypt(s, (uint8_t *)c, cn, (uint8_t *)out, max, &idx)) ==
                            olm_error())
        rc = MX_CRYPTO_EOLM;
    free(c);
    mx__olm_obj_free(&mx__olm_in, s);
    if (rc != 0) {
        free(out);
        return rc;
    }
    out[got] = '\0';
    *plain = out;
    *index = idx;
    return 0;
}

#else /* built without libolm: no session can be made (see mx_crypto.c) */

int mx_olm_session_new(mx_olm *a, const char *key, const char *their_curve, const char *their_otk,
                       char **pickle)
{
    (void)a, (void)key, (void)their_curve, (void)their_otk, (void)pickle;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_olm_encrypt(const char *key, char **pickle, const char *plain, int *type, char **cipher)
{
    (void)key, (void)pickle, (void)plain, (void)type, (void)cipher;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_olm_decrypt(mx_olm *a, const char *key, char **pickle, const char *their_curve, int type,
                   const char *cipher, char **plain)
{
    (void)a, (void)key, (void)pickle, (void)their_curve, (void)type, (void)cipher, (void)plain;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_megolm_out_new(const char *key, char **pickle)
{
    (void)key, (void)pickle;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_megolm_out_info(const char *key, const char *pickle, char *sid, size_t cap, unsigned *index,
                       char **session_key)
{
    (void)key, (void)pickle, (void)sid, (void)cap, (void)index, (void)session_key;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_megolm_encrypt(const char *key, char **pickle, const char *plain, char **cipher)
{
    (void)key, (void)pickle, (void)plain, (void)cipher;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_megolm_in_new(const char *key, const char *session_key, char **pickle, char *sid, size_t cap)
{
    (void)key, (void)session_key, (void)pickle, (void)sid, (void)cap;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_megolm_decrypt(const char *key, const char *pickle, const char *cipher, char **plain,
                      unsigned *index)
{
    (void)key, (void)pickle, (void)cipher, (void)plain, (void)index;
    return MX_CRYPTO_EUNAVAILABLE;
}

#endif
