/*
 * mx_crypto.c — mx_crypto.h on libolm 3.2: an OlmAccount for the device,
 * OlmPkSigning for cross-signing keys, whose 32-byte seeds are kept as
 * pickled OlmPkDecryption objects (libolm's pickle is its only encrypted
 * container; the seed is stored as the "private key" and read back
 * unchanged), olm_ed25519_verify for signatures. Random bytes from
 * getrandom(2). Buffers holding secrets are zeroed before they are freed.
 */
#include "mx_crypto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mx_cjson.h"

const char *mx_crypto_strerror(int err)
{
    switch (err) {
    case 0:
        return "ok";
#define MX_CRYPTO_ERR_STR_(name, val, msg)                                                         \
    case val:                                                                                      \
        return msg;
        MX_CRYPTO_ERRNO_MAP(MX_CRYPTO_ERR_STR_)
#undef MX_CRYPTO_ERR_STR_
    }
    return "unknown error";
}

#ifdef PZ_HAVE_OLM

#include <olm/pk.h>
#include <sys/random.h>

#include "mx_crypto_int.h"

struct mx_xkey {
    OlmPkSigning *sig;
    unsigned char seed[32];
    char pub[KEY_B64];
};

bool mx_crypto_available(void)
{
    return true;
}

void mx__crypto_wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

void mx__crypto_free_wiped(void *p, size_t n)
{
    if (p == NULL)
        return;
    mx__crypto_wipe(p, n);
    free(p);
}

unsigned char *mx__crypto_random(size_t n)
{
    unsigned char *r = malloc(n ? n : 1);
    size_t got = 0;
    while (r != NULL && got < n) {
        ssize_t k = getrandom(r + got, n - got, 0);
        if (k <= 0) {
            free(r);
            return NULL;
        }
        got += (size_t)k;
    }
    return r;
}

/* A string (possibly NULL-terminated) read from libolm's JSON of the identity
   keys: copies obj[name] into out. */
static int json_key(json_object *o, const char *name, char *out, size_t cap)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_string))
        return -1;
    const char *s = json_object_get_string(v);
    if (strlen(s) >= cap)
        return -1;
    snprintf(out, cap, "%s", s);
    return 0;
}

static int olm_load_ids(mx_olm *a)
{
    size_t n = olm_account_identity_keys_length(a->acc);
    char *buf = malloc(n + 1);
    if (buf == NULL)
        return MX_CRYPTO_ENO_MEMORY;
    if (olm_account_identity_keys(a->acc, buf, n) == olm_error()) {
        free(buf);
        return MX_CRYPTO_EOLM;
    }
    buf[n] = '\0';
    json_object *o = json_tokener_parse(buf);
    free(buf);
    int rc = o != NULL && json_key(o, "curve25519", a->curve, sizeof a->curve) == 0 &&
                     json_key(o, "ed25519", a->ed, sizeof a->ed) == 0
                 ? 0
                 : MX_CRYPTO_EOLM;
    json_object_put(o);
    return rc;
}

int mx_olm_new(mx_olm **out, const char *key, const char *pickle)
{
    if (out == NULL || key == NULL || key[0] == '\0')
        return MX_CRYPTO_EINVAL;
    mx_olm *a = calloc(1, sizeof *a);
    OlmAccount *acc = mx__olm_obj_new(&mx__olm_account);
    if (a == NULL || acc == NULL) {
        free(a);
        mx__olm_obj_free(&mx__olm_account, acc);
        return MX_CRYPTO_ENO_MEMORY;
    }
    a->acc = acc;
    int rc = 0;
    if (pickle != NULL && pickle[0] != '\0') {
        rc = mx__olm_obj_load(&mx__olm_account, a->acc, key, pickle);
    } else {
        size_t n = olm_create_account_random_length(a->acc);
        unsigned char *r = mx__crypto_random(n);
        if (r == NULL)
            rc = MX_CRYPTO_ENO_MEMORY;
        else if (olm_create_account(a->acc, r, n) == olm_error())
            rc = MX_CRYPTO_EOLM;
        mx__crypto_free_wiped(r, n);
    }
    if (rc == 0)
        rc = olm_load_ids(a);
    if (rc != 0) {
        mx_olm_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

void mx_olm_free(mx_olm *a)
{
    if (a == NULL)
        return;
    mx__olm_obj_free(&mx__olm_account, a->acc);
    free(a);
}

char *mx_olm_pickle(mx_olm *a, const char *key)
{
    char *p = NULL;
    return mx__olm_obj_pickle(&mx__olm_account, a->acc, key, &p) == 0 ? p : NULL;
}

const char *mx_olm_curve25519(const mx_olm *a)
{
    return a->curve;
}

const char *mx_olm_ed25519(const mx_olm *a)
{
    return a->ed;
}

/* Sets o.signatures[signer][key_id] = sig (base64). */
static int put_signature(json_object *o, const char *signer, const char *key_id, const char *sig)
{
    json_object *sigs = NULL, *mine = NULL;
    if (!json_object_object_get_ex(o, "signatures", &sigs) ||
        !json_object_is_type(sigs, json_type_object)) {
        sigs = json_object_new_object();
        if (sigs == NULL || json_object_object_add(o, "signatures", sigs) != 0)
            return MX_CRYPTO_ENO_MEMORY;
    }
    if (!json_object_object_get_ex(sigs, signer, &mine) ||
        !json_object_is_type(mine, json_type_object)) {
        mine = json_object_new_object();
        if (mine == NULL || json_object_object_add(sigs, signer, mine) != 0)
            return MX_CRYPTO_ENO_MEMORY;
    }
    return json_object_object_add(mine, key_id, json_object_new_string(sig)) == 0
               ? 0
               : MX_CRYPTO_ENO_MEMORY;
}

int mx_olm_sign_json(mx_olm *a, json_object *o, const char *user, const char *device)
{
    char key_id[128];
    if (!json_object_is_type(o, json_type_object) ||
        snprintf(key_id, sizeof key_id, "ed25519:%s", device) >= (int)sizeof key_id)
        return MX_CRYPTO_EINVAL;
    char *msg = mx_cjson(o, 1);
    if (msg == NULL)
        return MX_CRYPTO_EJSON;
    size_t n = olm_account_signature_length(a->acc);
    char *sig = malloc(n + 1);
    int rc = MX_CRYPTO_ENO_MEMORY;
    if (sig != NULL) {
        if (olm_account_sign(a->acc, msg, strlen(msg), sig, n) == olm_error()) {
            rc = MX_CRYPTO_EOLM;
        } else {
            sig[n] = '\0';
            rc = put_signature(o, user, key_id, sig);
        }
    }
    free(sig);
    free(msg);
    return rc;
}

json_object *mx_olm_device_keys(mx_olm *a, const char *user, const char *device)
{
    char id[160];
    json_object *o = json_object_new_object(), *algs = json_object_new_array(),
                *keys = json_object_new_object();
    if (o == NULL || algs == NULL || keys == NULL)
        goto fail;
    json_object_object_add(o, "user_id", json_object_new_string(user));
    json_object_object_add(o, "device_id", json_object_new_string(device));
    json_object_array_add(algs, json_object_new_string("m.olm.v1.curve25519-aes-sha2"));
    json_object_array_add(algs, json_object_new_string("m.megolm.v1.aes-sha2"));
    json_object_object_add(o, "algorithms", algs);
    algs = NULL;
    snprintf(id, sizeof id, "curve25519:%s", device);
    json_object_object_add(keys, id, json_object_new_string(a->curve));
    snprintf(id, sizeof id, "ed25519:%s", device);
    json_object_object_add(keys, id, json_object_new_string(a->ed));
    json_object_object_add(o, "keys", keys);
    keys = NULL;
    if (mx_olm_sign_json(a, o, user, device) != 0)
        goto fail;
    return o;
fail:
    json_object_put(o);
    json_object_put(algs);
    json_object_put(keys);
    return NULL;
}

int mx_olm_max_otks(const mx_olm *a)
{
    return (int)olm_account_max_number_of_one_time_keys(a->acc);
}

/* libolm's {"curve25519": {ID: KEY}} (from get, n bytes) as signed keys
   "signed_curve25519:ID" added to out; fallback marks them so. */
static int signed_keys(mx_olm *a, size_t (*get)(OlmAccount *, void *, size_t), size_t n,
                       bool fallback, const char *user, const char *device, json_object *out)
{
    char *buf = malloc(n + 1);
    if (buf == NULL)
        return MX_CRYPTO_ENO_MEMORY;
    if (get(a->acc, buf, n) == olm_error()) {
        free(buf);
        return MX_CRYPTO_EOLM;
    }
    buf[n] = '\0';
    json_object *all = json_tokener_parse(buf), *curve = NULL;
    free(buf);
    int rc = 0;
    if (all == NULL || !json_object_object_get_ex(all, "curve25519", &curve)) {
        json_object_put(all);
        return MX_CRYPTO_EOLM;
    }
    json_object_object_foreach(curve, id, key)
    {
        char name[128];
        json_object *k = json_object_new_object();
        if (k == NULL) {
            rc = MX_CRYPTO_ENO_MEMORY;
            break;
        }
        json_object_object_add(k, "key", json_object_get(key));
        if (fallback)
            json_object_object_add(k, "fallback", json_object_new_boolean(1));
        snprintf(name, sizeof name, "signed_curve25519:%s", id);
        rc = mx_olm_sign_json(a, k, user, device);
        json_object_object_add(out, name, k);
        if (rc != 0)
            break;
    }
    json_object_put(all);
    return rc;
}

static size_t get_otks(OlmAccount *acc, void *buf, size_t n)
{
    return olm_account_one_time_keys(acc, buf, n);
}

static size_t get_fallback(OlmAccount *acc, void *buf, size_t n)
{
    return olm_account_unpublished_fallback_key(acc, buf, n);
}

int mx_olm_new_keys(mx_olm *a, int n, bool fallback, const char *user, const char *device,
                    json_object **otks, json_object **fb)
{
    if (n < 0 || n > mx_olm_max_otks(a) || otks == NULL || (fallback && fb == NULL))
        return MX_CRYPTO_EINVAL;
    if (n > 0) {
        size_t rn = olm_account_generate_one_time_keys_random_length(a->acc, (size_t)n);
        unsigned char *r = mx__crypto_random(rn);
        if (r == NULL)
            return MX_CRYPTO_ENO_MEMORY;
        size_t ok = olm_account_generate_one_time_keys(a->acc, (size_t)n, r, rn);
        mx__crypto_free_wiped(r, rn);
        if (ok == olm_error())
            return MX_CRYPTO_EOLM;
    }
    if (fallback) {
        size_t rn = olm_account_generate_fallback_key_random_length(a->acc);
        unsigned char *r = mx__crypto_random(rn);
        if (r == NULL)
            return MX_CRYPTO_ENO_MEMORY;
        size_t ok = olm_account_generate_fallback_key(a->acc, r, rn);
        mx__crypto_free_wiped(r, rn);
        if (ok == olm_error())
            return MX_CRYPTO_EOLM;
    }
    json_object *o = json_object_new_object(), *f = fallback ? json_object_new_object() : NULL;
    if (o == NULL || (fallback && f == NULL)) {
        json_object_put(o);
        json_object_put(f);
        return MX_CRYPTO_ENO_MEMORY;
    }
    int rc =
        signed_keys(a, get_otks, olm_account_one_time_keys_length(a->acc), false, user, device, o);
    if (rc == 0 && fallback)
        rc = signed_keys(a, get_fallback, olm_account_unpublished_fallback_key_length(a->acc), true,
                         user, device, f);
    if (rc != 0) {
        json_object_put(o);
        json_object_put(f);
        return rc;
    }
    *otks = o;
    if (fb != NULL)
        *fb = f;
    return 0;
}

void mx_olm_published(mx_olm *a)
{
    olm_account_mark_keys_as_published(a->acc);
}

int mx_crypto_verify_json(json_object *o, const char *user, const char *key_id, const char *ed25519)
{
    json_object *sigs, *mine, *sig;
    if (!json_object_is_type(o, json_type_object) ||
        !json_object_object_get_ex(o, "signatures", &sigs) ||
        !json_object_object_get_ex(sigs, user, &mine) ||
        !json_object_object_get_ex(mine, key_id, &sig) ||
        !json_object_is_type(sig, json_type_string))
        return MX_CRYPTO_ESIGNATURE;
    char *msg = mx_cjson(o, 1);
    if (msg == NULL)
        return MX_CRYPTO_EJSON;
    size_t sl = (size_t)json_object_get_string_len(sig);
    char *s = malloc(sl + 1); /* libolm decodes the signature in place */
    void *mem = malloc(olm_utility_size());
    int rc = MX_CRYPTO_ENO_MEMORY;
    if (s != NULL && mem != NULL) {
        memcpy(s, json_object_get_string(sig), sl + 1);
        OlmUtility *u = olm_utility(mem);
        rc = olm_ed25519_verify(u, ed25519, strlen(ed25519), msg, strlen(msg), s, sl) == olm_error()
                 ? MX_CRYPTO_ESIGNATURE
                 : 0;
        olm_clear_utility(u);
    }
    free(mem);
    free(s);
    free(msg);
    return rc;
}

/* ---- Cross-signing keys ---- */

static int xkey_from_seed(mx_xkey *k)
{
    size_t pn = olm_pk_signing_public_key_length();
    char pub[KEY_B64];
    if (pn >= sizeof pub ||
        olm_pk_signing_key_from_seed(k->sig, pub, pn, k->seed, sizeof k->seed) == olm_error())
        return MX_CRYPTO_EOLM;
    pub[pn] = '\0';
    snprintf(k->pub, sizeof k->pub, "%s", pub);
    return 0;
}

int mx_xkey_new(mx_xkey **out, const char *key, const char *pickle)
{
    if (out == NULL || key == NULL || key[0] == '\0' ||
        olm_pk_signing_seed_length() != sizeof((mx_xkey *)0)->seed ||
        olm_pk_private_key_length() != sizeof((mx_xkey *)0)->seed)
        return MX_CRYPTO_EINVAL;
    mx_xkey *k = calloc(1, sizeof *k);
    void *mem = malloc(olm_pk_signing_size());
    if (k == NULL || mem == NULL) {
        free(k);
        free(mem);
        return MX_CRYPTO_ENO_MEMORY;
    }
    k->sig = olm_pk_signing(mem);
    int rc = 0;
    if (pickle != NULL && pickle[0] != '\0') {
        OlmPkDecryption *d = mx__olm_obj_new(&mx__olm_pkd);
        rc = d == NULL ? MX_CRYPTO_ENO_MEMORY : mx__olm_obj_load(&mx__olm_pkd, d, key, pickle);
        if (rc == 0 && olm_pk_get_private_key(d, k->seed, sizeof k->seed) == olm_error())
            rc = MX_CRYPTO_EPICKLE;
        mx__olm_obj_free(&mx__olm_pkd, d);
    } else {
        unsigned char *r = mx__crypto_random(sizeof k->seed);
        if (r == NULL)
            rc = MX_CRYPTO_ENO_MEMORY;
        else
            memcpy(k->seed, r, sizeof k->seed);
        mx__crypto_free_wiped(r, sizeof k->seed);
    }
    if (rc == 0)
        rc = xkey_from_seed(k);
    if (rc != 0) {
        mx_xkey_free(k);
        return rc;
    }
    *out = k;
    return 0;
}

void mx_xkey_free(mx_xkey *k)
{
    if (k == NULL)
        return;
    olm_clear_pk_signing(k->sig);
    free(k->sig);
    mx__crypto_wipe(k->seed, sizeof k->seed);
    free(k);
}

char *mx_xkey_pickle(mx_xkey *k, const char *key)
{
    OlmPkDecryption *d = mx__olm_obj_new(&mx__olm_pkd);
    char pub[KEY_B64];
    char *p = NULL;
    if (d != NULL && olm_pk_key_length() < sizeof pub &&
        olm_pk_key_from_private(d, pub, olm_pk_key_length(), k->seed, sizeof k->seed) !=
            olm_error())
        (void)mx__olm_obj_pickle(&mx__olm_pkd, d, key, &p);
    mx__olm_obj_free(&mx__olm_pkd, d);
    return p;
}

const char *mx_xkey_public(const mx_xkey *k)
{
    return k->pub;
}

int mx_xkey_sign_json(mx_xkey *k, json_object *o, const char *user)
{
    char key_id[96];
    if (!json_object_is_type(o, json_type_object))
        return MX_CRYPTO_EINVAL;
    snprintf(key_id, sizeof key_id, "ed25519:%s", k->pub);
    char *msg = mx_cjson(o, 1);
    if (msg == NULL)
        return MX_CRYPTO_EJSON;
    size_t n = olm_pk_signature_length();
    char *sig = malloc(n + 1);
    int rc = MX_CRYPTO_ENO_MEMORY;
    if (sig != NULL) {
        if (olm_pk_sign(k->sig, (const uint8_t *)msg, strlen(msg), (uint8_t *)sig, n) ==
            olm_error()) {
            rc = MX_CRYPTO_EOLM;
        } else {
            sig[n] = '\0';
            rc = put_signature(o, user, key_id, sig);
        }
    }
    free(sig);
    free(msg);
    return rc;
}

#else /* built without libolm: nothing can be made, so nothing else is reached */

void mx_olm_free(mx_olm *a)
{
    (void)a;
}

char *mx_olm_pickle(mx_olm *a, const char *key)
{
    (void)a, (void)key;
    return NULL;
}

const char *mx_olm_curve25519(const mx_olm *a)
{
    (void)a;
    return "";
}

const char *mx_olm_ed25519(const mx_olm *a)
{
    (void)a;
    return "";
}

int mx_olm_sign_json(mx_olm *a, json_object *o, const char *user, const char *device)
{
    (void)a, (void)o, (void)user, (void)device;
    return MX_CRYPTO_EUNAVAILABLE;
}

json_object *mx_olm_device_keys(mx_olm *a, const char *user, const char *device)
{
    (void)a, (void)user, (void)device;
    return NULL;
}

int mx_olm_max_otks(const mx_olm *a)
{
    (void)a;
    return 0;
}

int mx_olm_new_keys(mx_olm *a, int n, bool fallback, const char *user, const char *device,
                    json_object **otks, json_object **fb)
{
    (void)a, (void)n, (void)fallback, (void)user, (void)device, (void)otks, (void)fb;
    return MX_CRYPTO_EUNAVAILABLE;
}

void mx_olm_published(mx_olm *a)
{
    (void)a;
}

void mx_xkey_free(mx_xkey *k)
{
    (void)k;
}

char *mx_xkey_pickle(mx_xkey *k, const char *key)
{
    (void)k, (void)key;
    return NULL;
}

const char *mx_xkey_public(const mx_xkey *k)
{
    (void)k;
    return "";
}

int mx_xkey_sign_json(mx_xkey *k, json_object *o, const char *user)
{
    (void)k, (void)o, (void)user;
    return MX_CRYPTO_EUNAVAILABLE;
}

bool mx_crypto_available(void)
{
    return false;
}

int mx_olm_new(mx_olm **out, const char *key, const char *pickle)
{
    (void)out, (void)key, (void)pickle;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_xkey_new(mx_xkey **out, const char *key, const char *pickle)
{
    (void)out, (void)key, (void)pickle;
    return MX_CRYPTO_EUNAVAILABLE;
}

int mx_crypto_verify_json(json_object *o, const char *user, const char *key_id, const char *ed25519)
{
    (void)o, (void)user, (void)key_id, (void)ed25519;
    return MX_CRYPTO_EUNAVAILABLE;
}

#endif
