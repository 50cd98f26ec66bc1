/*
 * mx_e2ee.c — the bot as an end-to-end encryption device: its Olm account
 * kept in the store (kv "e2e_account", encrypted with the configuration's
 * crypto_key, for the device kv "e2e_device"), its signed device keys,
 * one-time keys topped up to half of what the account holds as the sync's
 * device_one_time_keys_count falls, a fallback key whenever the sync says
 * none is unused, and self cross-signing on first start: master,
 * self-signing and user-signing keys (kv "e2e_x_master", "e2e_x_self",
 * "e2e_x_user", pickled the same way) uploaded with user-interactive auth
 * by password, then the device signed by the self-signing key. The keys
 * are saved before the request that publishes them, so a crash never
 * publishes a key the store has lost.
 *
 * Encryption is on (n->e2e.ready) only once the device is cross-signed:
 * clients that hide devices their owner did not verify (MSC4153) would
 * otherwise drop the bot's messages. Anything that stops it is logged once
 * with what to do. Keys and pickles never reach the log. Not here: rooms'
 * sessions, sending and receiving.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mx_net.h"

#define MX_E2E_PICKLE_MAX 65536 /* bytes of a pickle in the kv, NUL included */

/* The first sync, when it waited for the device, starts. */
static void release_sync(mx_net *n)
{
    if (n->e2e.hold_sync) {
        n->e2e.hold_sync = false;
        mx__sync_begin(n);
    }
}

/* Says once why encryption is off, and frees the account. */
static void e2e_off(mx_net *n, const char *why)
{
    mx_olm_free(n->e2e.olm);
    n->e2e.olm = NULL;
    n->e2e.ready = false;
    if (!n->e2e.told_off)
        log_msg(LOG_WARN, "%s: end-to-end encryption is off: %s; encrypted rooms are refused",
                n->c.name, why);
    n->e2e.told_off = true;
    release_sync(n);
}

bool mx__e2ee_hold_sync(mx_net *n)
{
    n->e2e.hold_sync = n->e2e.olm != NULL && !n->e2e.ready;
    return n->e2e.hold_sync;
}

/* Saves a pickle (malloc'd, freed here) under key; false when it could not. */
static bool save_pickle(mx_net *n, const char *key, char *pickle)
{
    if (pickle == NULL)
        return false;
    bool ok = host_kv_set(n->env.host, n->scope, key, pickle) == 0;
    size_t len = strlen(pickle);
    volatile char *p = pickle;
    for (size_t i = 0; i < len; i++)
        p[i] = '\0';
    free(pickle);
    if (!ok)
        log_msg(LOG_ERROR, "%s: cannot save the device's keys: %s", n->c.name,
                host_errmsg(n->env.host));
    return ok;
}

static bool save_account(mx_net *n)
{
    return save_pickle(n, "e2e_account", mx_olm_pickle(n->e2e.olm, n->c.crypto_key));
}

/* The kv's pickle under key (malloc'd, "" none), NULL on a store error. */
static char *load_pickle(mx_net *n, const char *key)
{
    char *buf = malloc(MX_E2E_PICKLE_MAX);
    if (buf == NULL)
        return NULL;
    int r = host_kv_get(n->env.host, n->scope, key, buf, MX_E2E_PICKLE_MAX);
    if (r < 0) {
        log_msg(LOG_ERROR, "%s: cannot read the device's keys: %s", n->c.name,
                host_errmsg(n->env.host));
        free(buf);
        return NULL;
    }
    return buf;
}

static void start_upload(mx_net *n);
static void start_xsign(mx_net *n);

void mx__e2ee_start(mx_net *n)
{
    if (n->e2e.olm != NULL && strcmp(n->e2e.olm_device, n->device) == 0) {
        if (!n->e2e.device_sent && !n->e2e.uploading)
            start_upload(n);
        return;
    }
    mx__e2ee_free(n);
    if (!n->c.crypto)
        return; /* off by configuration: today's refusals, nothing logged */
    if (!mx_crypto_available()) {
        e2e_off(n, "this porrazo-bot was built without libolm (install libolm-dev and build "
                   "again)");
        return;
    }
    if (n->c.crypto_key[0] == '\0') {
        e2e_off(n, "no crypto_key is set for this network (add crypto_key = "
                   "${PORRAZO_MATRIX_CRYPTO_KEY}, or crypto = off to say so)");
        return;
    }
    if (n->device[0] == '\0') {
        e2e_off(n, "the homeserver did not say which device the bot is");
        return;
    }
    char dev[MX_ID_MAX];
    (void)mx__kv_get(n, "e2e_device", dev, sizeof dev);
    char *pickle = strcmp(dev, n->device) == 0 ? load_pickle(n, "e2e_account") : NULL;
    if (strcmp(dev, n->device) == 0 && pickle == NULL) {
        e2e_off(n, "the store cannot be read");
        return;
    }
    int rc = mx_olm_new(&n->e2e.olm, n->c.crypto_key, pickle);
    bool fresh = pickle == NULL || pickle[0] == '\0';
    free(pickle);
    if (rc != 0) {
        n->e2e.olm = NULL;
        e2e_off(n, rc == MX_CRYPTO_EPICKLE
                       ? "crypto_key does not open the device's saved keys (was it changed? "
                         "the old key opens them)"
                       : mx_crypto_strerror(rc));
        return;
    }
    snprintf(n->e2e.olm_device, sizeof n->e2e.olm_device, "%s", n->device);
    if (fresh) {
        if (!save_account(n)) {
            e2e_off(n, "the device's keys cannot be saved");
            return;
        }
        mx__kv_set(n, "e2e_device", n->device);
        mx__kv_set(n, "e2e_signed", "");
        log_msg(LOG_INFO, "%s: new end-to-end encryption keys for device %s (ed25519 %s)",
                n->c.name, n->device, mx_olm_ed25519(n->e2e.olm));
    }
    n->e2e.otks_server = -1;
    start_upload(n);
}

void mx__e2ee_free(mx_net *n)
{
    mx_olm_free(n->e2e.olm);
    free(n->e2e.devs);
    free(n->e2e.users);
    for (int i = 0; i < MX_E2E_WAITS_MAX; i++)
        json_object_put(n->e2e.waits[i].ev);
    memset(&n->e2e, 0, sizeof n->e2e);
}

/* POSTs body (a JSON object, consumed) to path as a call of kind. */
static mx_call *post_json(mx_net *n, mx_kind kind, const char *path, json_object *body)
{
    char url[MX_URL_MAX];
    mx_call *c = NULL;
    if (body != NULL && mx__url(n, url, sizeof url, path) == 0)
        c = mx__call_new(n, kind, "POST", url,
                         json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN), true);
    json_object_put(body);
    if (c != NULL)
        mx__call_go(n, c);
    return c;
}

/*
 * Uploads what the server lacks: the device keys (once a run), one-time
 * keys up to half of the account's room, and a fallback key when the sync
 * said there is no unused one. The new keys are saved first.
 */
static void start_upload(mx_net *n)
{
    mx_e2e *e = &n->e2e;
    if (e->olm == NULL || e->uploading)
        return;
    int target = mx_olm_max_otks(e->olm) / 2;
    int want = e->otks_server < 0 ? 0 : target - e->otks_server;
    if (!e->device_sent && e->otks_server < 0)
        want = 0; /* the first upload learns the count; the top-up follows */
    bool fallback = !e->device_sent || (e->fallback_known && !e->fallback_unused);
    if (e->device_sent && want <= 0 && !fallback)
        return;
    json_object *otks = NULL, *fb = NULL, *body = json_object_new_object();
    int rc = mx_olm_new_keys(e->olm, want > 0 ? want : 0, fallback, n->me, n->device, &otks,
                             fallback ? &fb : NULL);
    if (rc != 0 || body == NULL || !save_account(n)) {
        json_object_put(otks);
        json_object_put(fb);
        json_object_put(body);
        e2e_off(n, rc != 0 ? mx_crypto_strerror(rc) : "the device's keys cannot be saved");
        return;
    }
    if (!e->device_sent)
        json_object_object_add(body, "device_keys", mx_olm_device_keys(e->olm, n->me, n->device));
    json_object_object_add(body, "one_time_keys", otks);
    if (fb != NULL)
        json_object_object_add(body, "fallback_keys", fb);
    mx_call *c = post_json(n, MX_CALL_KEYS_UPLOAD, "/keys/upload", body);
    e->uploading = c != NULL;
    if (c != NULL)
        c->flags = fb != NULL;
}

void mx__on_keys_upload(mx_net *n, mx_call *c, int status, json_object *body)
{
    mx_e2e *e = &n->e2e;
    e->uploading = false;
    if (e->olm == NULL)
        return;
    if (status != 200) {
        const char *err = mx__str(body, "error");
        e2e_off(n, err != NULL ? err : "the homeserver refused the device's keys");
        log_msg(LOG_WARN, "%s: /keys/upload answered HTTP %d", n->c.name, status);
        return;
    }
    bool first = !e->device_sent;
    mx_olm_published(e->olm);
    (void)save_account(n);
    e->device_sent = true;
    if (c->flags) /* it carried a fallback key: the next sync says whether it is used */
        e->fallback_known = false;
    json_object *counts = mx__obj(body, "one_time_key_counts"), *v = NULL;
    e->otks_server = counts != NULL && json_object_object_get_ex(counts, "signed_curve25519", &v)
                         ? json_object_get_int(v)
                         : 0;
    if (first) {
        log_msg(LOG_INFO, "%s: device %s's keys uploaded (%d one-time keys on the server)",
                n->c.name, n->device, e->otks_server);
        start_xsign(n);
    }
    start_upload(n); /* the top-up, when the count is low */
}

void mx__e2ee_sync(mx_net *n, json_object *sync)
{
    mx_e2e *e = &n->e2e;
    if (e->olm == NULL || !e->device_sent)
        return;
    json_object *counts = mx__obj(sync, "device_one_time_keys_count"), *v = NULL;
    if (counts != NULL && !e->uploading) /* while uploading, the upload's answer counts */
        e->otks_server =
            json_object_object_get_ex(counts, "signed_curve25519", &v) ? json_object_get_int(v) : 0;
    json_object *fb = mx__arr(sync, "device_unused_fallback_key_types");
    if (fb != NULL) {
        e->fallback_known = true;
        e->fallback_unused = false;
        for (size_t i = 0; i < json_object_array_length(fb); i++) {
            const char *t = json_object_get_string(json_object_array_get_idx(fb, i));
            if (t != NULL && strcmp(t, "signed_curve25519") == 0)
                e->fallback_unused = true;
        }
    }
    start_upload(n);
}

/* ---- Cross-signing ------------------------------------------------------------ */

/* The cross-signing key kept under kv key, made (and saved) when absent.
   NULL when it cannot be read or saved (logged). */
static mx_xkey *xkey_load(mx_net *n, const char *key, bool *made)
{
    char *pickle = load_pickle(n, key);
    if (pickle == NULL)
        return NULL;
    mx_xkey *k = NULL;
    int rc = mx_xkey_new(&k, n->c.crypto_key, pickle);
    bool fresh = pickle[0] == '\0';
    free(pickle);
    if (rc != 0) {
        e2e_off(n, rc == MX_CRYPTO_EPICKLE
                       ? "crypto_key does not open the saved cross-signing keys (was it changed?)"
                       : mx_crypto_strerror(rc));
        return NULL;
    }
    if (fresh) {
        *made = true;
        if (!save_pickle(n, key, mx_xkey_pickle(k, n->c.crypto_key))) {
            mx_xkey_free(k);
            e2e_off(n, "the cross-signing keys cannot be saved");
            return NULL;
        }
    }
    return k;
}

/* A cross-signing key object {user_id, usage, keys} for k. */
static json_object *xkey_object(mx_net *n, mx_xkey *k, const char *usage)
{
    char id[96];
    json_object *o = json_object_new_object(), *u = json_object_new_array(),
                *keys = json_object_new_object();
    snprintf(id, sizeof id, "ed25519:%s", mx_xkey_public(k));
    json_object_object_add(o, "user_id", json_object_new_string(n->me));
    json_object_array_add(u, json_object_new_string(usage));
    json_object_object_add(o, "usage", u);
    json_object_object_add(keys, id, json_object_new_string(mx_xkey_public(k)));
    json_object_object_add(o, "keys", keys);
    return o;
}

/* The keys' upload, with the password for session (NULL: the first try). */
static void xsign_upload(mx_net *n, const char *session)
{
    bool made = false;
    mx_xkey *m = xkey_load(n, "e2e_x_master", &made);
    mx_xkey *s = m ? xkey_load(n, "e2e_x_self", &made) : NULL;
    mx_xkey *u = s ? xkey_load(n, "e2e_x_user", &made) : NULL;
    if (u == NULL) {
        mx_xkey_free(m);
        mx_xkey_free(s);
        n->e2e.xstep = MX_X_FAILED;
        return;
    }
    json_object *body = json_object_new_object();
    json_object *mo = xkey_object(n, m, "master"), *so = xkey_object(n, s, "self_signing"),
                *uo = xkey_object(n, u, "user_signing");
    (void)mx_olm_sign_json(n->e2e.olm, mo, n->me, n->device);
    (void)mx_xkey_sign_json(m, so, n->me);
    (void)mx_xkey_sign_json(m, uo, n->me);
    json_object_object_add(body, "master_key", mo);
    json_object_object_add(body, "self_signing_key", so);
    json_object_object_add(body, "user_signing_key", uo);
    if (session != NULL) {
        json_object *auth = json_object_new_object(), *id = json_object_new_object();
        json_object_object_add(id, "type", json_object_new_string("m.id.user"));
        json_object_object_add(id, "user", json_object_new_string(n->me));
        json_object_object_add(auth, "type", json_object_new_string("m.login.password"));
        json_object_object_add(auth, "identifier", id);
        json_object_object_add(auth, "password", json_object_new_string(n->c.password));
        json_object_object_add(auth, "session", json_object_new_string(session));
        json_object_object_add(body, "auth", auth);
    }
    mx_xkey_free(m);
    mx_xkey_free(s);
    mx_xkey_free(u);
    n->e2e.xstep = MX_X_UPLOAD;
    mx_call *c = post_json(n, MX_CALL_XSIGN_UPLOAD, "/keys/device_signing/upload", body);
    if (c != NULL && session != NULL)
        c->flags = 1; /* with the password: a second 401 is a refusal */
}

/* The device keys signed by the self-signing key, uploaded. */
static void sign_device(mx_net *n)
{
    bool made = false;
    mx_xkey *s = xkey_load(n, "e2e_x_self", &made);
    if (s == NULL) {
        n->e2e.xstep = MX_X_FAILED;
        return;
    }
    json_object *dk = mx_olm_device_keys(n->e2e.olm, n->me, n->device);
    json_object_object_del(dk, "signatures");
    (void)mx_xkey_sign_json(s, dk, n->me);
    mx_xkey_free(s);
    json_object *mine = json_object_new_object(), *body = json_object_new_object();
    json_object_object_add(mine, n->device, dk);
    json_object_object_add(body, n->me, mine);
    n->e2e.xstep = MX_X_SIGN;
    (void)post_json(n, MX_CALL_SIGS_UPLOAD, "/keys/signatures/upload", body);
}

/* Encryption is on once the device is cross-signed. */
static void e2e_ready(mx_net *n)
{
    n->e2e.xstep = MX_X_DONE;
    n->e2e.ready = true;
    log_msg(LOG_INFO, "%s: device %s is cross-signed by %s: end-to-end encryption is on", n->c.name,
            n->device, n->me);
    release_sync(n);
}

static void start_xsign(mx_net *n)
{
    char v[MX_ID_MAX], pub[MX_ID_MAX];
    if (mx__kv_get(n, "e2e_signed", v, sizeof v) == 0 && strcmp(v, n->device) == 0) {
        e2e_ready(n);
        return;
    }
    if (mx__kv_get(n, "e2e_x_uploaded", pub, sizeof pub) == 0)
        sign_device(n); /* the keys are on the server: only this device is new */
    else
        xsign_upload(n, NULL);
}

/* Why cross-signing failed: encryption stays off. */
static void xsign_failed(mx_net *n, const char *why)
{
    n->e2e.xstep = MX_X_FAILED;
    e2e_off(n, why);
}

void mx__on_xsign_upload(mx_net *n, mx_call *c, int status, json_object *body)
{
    if (n->e2e.olm == NULL)
        return;
    if (status == 200) {
        bool made = false;
        mx_xkey *m = xkey_load(n, "e2e_x_master", &made);
        if (m == NULL)
            return;
        mx__kv_set(n, "e2e_x_uploaded", mx_xkey_public(m));
        log_msg(LOG_INFO, "%s: cross-signing keys uploaded (master %s)", n->c.name,
                mx_xkey_public(m));
        mx_xkey_free(m);
        sign_device(n);
        return;
    }
    const char *session = mx__str(body, "session");
    bool password_flow = false;
    json_object *flows = mx__arr(body, "flows");
    for (size_t i = 0; flows != NULL && i < json_object_array_length(flows); i++) {
        json_object *stages = mx__arr(json_object_array_get_idx(flows, i), "stages");
        if (stages != NULL && json_object_array_length(stages) == 1 &&
            strcmp(json_object_get_string(json_object_array_get_idx(stages, 0)),
                   "m.login.password") == 0)
            password_flow = true;
    }
    if (status == 401 && c->flags == 0 && session != NULL && strlen(session) < 256) {
        if (!password_flow) {
            xsign_failed(n, "the homeserver asks for an authentication other than the password "
                            "to cross-sign the device (set the keys up once from a client)");
        } else if (n->c.password[0] == '\0') {
            xsign_failed(n, "the homeserver asks for the account's password to cross-sign the "
                            "device, and only an access_token is configured (add password)");
        } else {
            char s[256];
            snprintf(s, sizeof s, "%s", session);
            xsign_upload(n, s);
        }
        return;
    }
    const char *err = mx__str(body, "error");
    char why[512];
    snprintf(why, sizeof why, "the homeserver refused the cross-signing keys (HTTP %d: %s)", status,
             err != NULL ? err : "no reason");
    xsign_failed(n, why);
}

void mx__on_sigs_upload(mx_net *n, mx_call *c, int status, json_object *body)
{
    (void)c;
    if (n->e2e.olm == NULL)
        return;
    json_object *failures = mx__obj(body, "failures");
    if (status != 200 || (failures != NULL && json_object_object_length(failures) > 0)) {
        char why[256];
        snprintf(why, sizeof why, "the homeserver refused the device's cross-signature (HTTP %d)",
                 status);
        xsign_failed(n, why);
        return;
    }
    mx__kv_set(n, "e2e_signed", n->device);
    e2e_ready(n);
}
