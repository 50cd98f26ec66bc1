/*
 * mx_crypto.h — the Matrix adapter's end-to-end cryptography behind one
 * small API: the bot's Olm account (identity keys, one-time and fallback
 * keys, signatures) and cross-signing keys, each kept as an encrypted
 * pickle string the caller stores. Built on libolm (Debian's libolm-dev),
 * which upstream deprecated in favour of vodozemac; vodozemac has no C API
 * packaged here, so this file (mx_crypto.c) is the one to swap.
 *
 * Without libolm at build time every constructor returns
 * MX_CRYPTO_EUNAVAILABLE and mx_crypto_available() is false.
 *
 * Keys and pickles are secrets: nothing here logs, and callers must not
 * log what they get (public keys excepted). Not here: HTTP, the store,
 * canonical JSON itself (mx_cjson.h).
 */
#ifndef PZ_MX_CRYPTO_H
#define PZ_MX_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#define MX_CRYPTO_ERRNO_MAP(XX)                                                                    \
    XX(INVAL, -1, "an argument is out of range")                                                   \
    XX(NO_MEMORY, -2, "out of memory")                                                             \
    XX(OLM, -3, "libolm refused the operation")                                                    \
    XX(PICKLE, -4, "the saved keys cannot be read with this crypto_key (changed, or damaged)")     \
    XX(SIGNATURE, -5, "the signature does not verify")                                             \
    XX(JSON, -6, "the object cannot be signed (not canonical JSON)")                               \
    XX(UNAVAILABLE, -7, "built without libolm")

typedef enum mx_crypto_errno {
    MX_CRYPTO_OK = 0,
#define MX_CRYPTO_ERR_ENUM_(name, val, msg) MX_CRYPTO_E##name = (val),
    MX_CRYPTO_ERRNO_MAP(MX_CRYPTO_ERR_ENUM_)
#undef MX_CRYPTO_ERR_ENUM_
} mx_crypto_errno;

/* A human message for err. Never NULL. */
const char *mx_crypto_strerror(int err);

/* Whether the adapter was built with libolm. */
bool mx_crypto_available(void);

/* ---- The device: an Olm account ---- */

typedef struct mx_olm mx_olm;

/*
 * An Olm account: read from pickle (made by mx_olm_pickle with the same
 * key) or, pickle NULL or "", a new one with fresh identity keys. key is
 * the pickle key (any non-empty bytes). 0 with *out, or a negative code.
 */
int mx_olm_new(mx_olm **out, const char *key, const char *pickle);
void mx_olm_free(mx_olm *a);

/* The account as an encrypted pickle (malloc'd), NULL out of memory. */
char *mx_olm_pickle(mx_olm *a, const char *key);

/* The account's public identity keys (base64, owned by a). */
const char *mx_olm_curve25519(const mx_olm *a);
const char *mx_olm_ed25519(const mx_olm *a);

/* Signs o (an object: its canonical JSON without "signatures" and
   "unsigned") as user's device: sets signatures.USER."ed25519:DEVICE". */
int mx_olm_sign_json(mx_olm *a, json_object *o, const char *user, const char *device);

/* The device's signed device_keys object for /keys/upload (new reference). */
json_object *mx_olm_device_keys(mx_olm *a, const char *user, const char *device);

/* How many one-time keys the account keeps at most. */
int mx_olm_max_otks(const mx_olm *a);

/*
 * Makes n new one-time keys, and a new fallback key when fallback, and
 * returns in *otks the unpublished ones as /keys/upload's one_time_keys
 * ("signed_curve25519:ID": {key, signatures}) and in *fb (when fallback;
 * else NULL) its fallback_keys (with "fallback": true), new references.
 * Nothing is marked published: mx_olm_published does that once the
 * server took them.
 */
int mx_olm_new_keys(mx_olm *a, int n, bool fallback, const char *user, const char *device,
                    json_object **otks, json_object **fb);
void mx_olm_published(mx_olm *a);

/* ---- Signature checks ---- */

/*
 * Whether o carries signatures.USER.KEY_ID, a valid ed25519 signature by
 * the public key ed25519 (base64) over o's canonical JSON. 0, or
 * MX_CRYPTO_ESIGNATURE (absent or wrong) or another negative code.
 */
int mx_crypto_verify_json(json_object *o, const char *user, const char *key_id,
                          const char *ed25519);

/* ---- Cross-signing keys (master, self-signing, user-signing) ---- */

typedef struct mx_xkey mx_xkey;

/* A signing key: from pickle (mx_xkey_pickle, same key) or, NULL or "", a
   new random one. 0 with *out, or a negative code. */
int mx_xkey_new(mx_xkey **out, const char *key, const char *pickle);
void mx_xkey_free(mx_xkey *k);
char *mx_xkey_pickle(mx_xkey *k, const char *key);
/* Its public key (base64, unpadded: also its key id's tail). */
const char *mx_xkey_public(const mx_xkey *k);
/* Signs o as user with key id "ed25519:PUBLIC". */
int mx_xkey_sign_json(mx_xkey *k, json_object *o, const char *user);

/* ---- Sessions (mx_crypto_sess.c), kept as encrypted pickles ----
 *
 * Each call takes a session's pickle (key: the pickle key) and, when the
 * session changed, replaces *pickle with the new one (the old string is
 * freed): the caller saves it before it uses what the call produced. */

/* An Olm session to a device (their curve25519 identity key and one of its
   one-time keys): *pickle, malloc'd. */
int mx_olm_session_new(mx_olm *a, const char *key, const char *their_curve, const char *their_otk,
                       char **pickle);
/* Encrypts plain: *type (0 pre-key, 1 normal) and *cipher (malloc'd). */
int mx_olm_encrypt(const char *key, char **pickle, const char *plain, int *type, char **cipher);
/*
 * Decrypts an Olm message from their_curve. *pickle: the session kept for
 * that device (NULL or "" none); a pre-key message that is not for it
 * starts a new inbound session (*pickle replaced; the one-time key it used
 * is removed from the account, which the caller saves too). *plain
 * malloc'd. MX_CRYPTO_EOLM when it cannot be read.
 */
int mx_olm_decrypt(mx_olm *a, const char *key, char **pickle, const char *their_curve, int type,
                   const char *cipher, char **plain);

/* A new Megolm outbound session: *pickle, malloc'd. */
int mx_megolm_out_new(const char *key, char **pickle);
/* Its id (into sid), the index of its next message and, when session_key
   is not NULL, its current session key (malloc'd; a secret). */
int mx_megolm_out_info(const char *key, const char *pickle, char *sid, size_t cap, unsigned *index,
                       char **session_key);
/* Encrypts plain with the next index (*pickle advanced), *cipher malloc'd. */
int mx_megolm_encrypt(const char *key, char **pickle, const char *plain, char **cipher);
/* An inbound session from a session key: *pickle malloc'd, its id in sid. */
int mx_megolm_in_new(const char *key, const char *session_key, char **pickle, char *sid,
                     size_t cap);
/* Decrypts cipher: *plain malloc'd, *index the message's index. */
int mx_megolm_decrypt(const char *key, const char *pickle, const char *cipher, char **plain,
                      unsigned *index);

#endif /* PZ_MX_CRYPTO_H */
