/*
 * mx_e2ee_devs.c — the devices of the people the bot plays with, and what
 * goes between devices: /keys/query for the members of encrypted rooms
 * (again for a user named in the sync's device_lists.changed; a device
 * whose keys are not signed by its own ed25519 key, or name another user
 * or device, is ignored and logged), /keys/claim of one-time keys (each
 * checked against its device's signature) for Olm sessions kept in the kv
 * ("olm:CURVE25519"), and the to-device events of a sync: Olm-encrypted
 * m.room_key messages whose sender and recipient fields are checked
 * before the room key is taken, and m.room_key.withheld: a player whose
 * client will not give the bot its keys is told why, privately. Not here: rooms' Megolm sessions
 * (mx_e2ee_room.c), the bot's own keys (mx_e2ee.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "log.h"
#include "mx_net.h"

#define OLM_ALG "m.olm.v1.curve25519-aes-sha2"
#define SESSION_MAX 65536 /* bytes of an Olm session's pickle, NUL included */

static mx_kuser *kuser(mx_net *n, const char *user, bool create)
{
    mx_e2e *e = &n->e2e;
    for (int i = 0; i < e->nusers; i++)
        if (strcmp(e->users[i].user, user) == 0)
            return &e->users[i];
    if (!create)
        return NULL;
    if (e->nusers == e->users_cap) {
        int cap = e->users_cap ? 2 * e->users_cap : 32;
        mx_kuser *p = realloc(e->users, (size_t)cap * sizeof *p);
        if (p == NULL)
            return NULL;
        e->users = p;
        e->users_cap = cap;
    }
    mx_kuser *u = &e->users[e->nusers++];
    memset(u, 0, sizeof *u);
    snprintf(u->user, sizeof u->user, "%s", user);
    return u;
}

int mx__e2ee_devices(mx_net *n, const char *user, mx_dev **out, int cap)
{
    int k = 0;
    for (int i = 0; i < n->e2e.ndevs && k < cap; i++)
        if (strcmp(n->e2e.devs[i].user, user) == 0)
            out[k++] = &n->e2e.devs[i];
    return k;
}

/* Forgets user's devices. */
static void devs_drop(mx_net *n, const char *user)
{
    mx_e2e *e = &n->e2e;
    for (int i = 0; i < e->ndevs;)
        if (strcmp(e->devs[i].user, user) == 0)
            e->devs[i] = e->devs[--e->ndevs];
        else
            i++;
}

static mx_dev *dev_add(mx_net *n)
{
    mx_e2e *e = &n->e2e;
    if (e->ndevs == e->devs_cap) {
        int cap = e->devs_cap ? 2 * e->devs_cap : 32;
        mx_dev *p = realloc(e->devs, (size_t)cap * sizeof *p);
        if (p == NULL)
            return NULL;
        e->devs = p;
        e->devs_cap = cap;
    }
    mx_dev *d = &e->devs[e->ndevs++];
    memset(d, 0, sizeof *d);
    return d;
}

/* Starts a /keys/query for the users not known or stale (at most
   MX_E2E_QUERY_MAX), unless one is under way. */
static void query_start(mx_net *n)
{
    if (mx__call_find(n, MX_CALL_KEYS_QUERY, NULL, NULL) != NULL)
        return;
    json_object *want = json_object_new_object(), *body = json_object_new_object();
    int k = 0;
    for (int i = 0; i < n->e2e.nusers && k < MX_E2E_QUERY_MAX; i++) {
        mx_kuser *u = &n->e2e.users[i];
        if (!u->known || u->stale) {
            json_object_object_add(want, u->user, json_object_new_array());
            k++;
        }
    }
    json_object_object_add(body, "device_keys", want);
    char url[MX_URL_MAX];
    mx_call *c = NULL;
    if (k > 0 && mx__url(n, url, sizeof url, "/keys/query") == 0)
        c = mx__call_new(n, MX_CALL_KEYS_QUERY, "POST", url,
                         json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN), true);
    json_object_put(body);
    if (c != NULL)
        mx__call_go(n, c);
}

bool mx__e2ee_user_ready(mx_net *n, const char *user)
{
    mx_kuser *u = kuser(n, user, true);
    if (u == NULL)
        return false;
    if (u->known && !u->stale)
        return true;
    query_start(n);
    return false;
}

/* Takes one device of a /keys/query answer, when its signature holds. */
static void take_device(mx_net *n, const char *user, const char *id, json_object *dk)
{
    char kid[MX_ID_MAX + 16];
    const char *du = mx__str(dk, "user_id"), *did = mx__str(dk, "device_id");
    json_object *keys = mx__obj(dk, "keys");
    snprintf(kid, sizeof kid, "curve25519:%s", id);
    const char *curve = mx__str(keys, kid);
    snprintf(kid, sizeof kid, "ed25519:%s", id);
    const char *ed = mx__str(keys, kid);
    if (du == NULL || did == NULL || strcmp(du, user) != 0 || strcmp(did, id) != 0 ||
        curve == NULL || ed == NULL || strlen(curve) >= MX_E2E_KEY_MAX ||
        strlen(ed) >= MX_E2E_KEY_MAX || strlen(id) >= MX_ID_MAX ||
        mx_crypto_verify_json(dk, user, kid, ed) != 0) {
        log_msg(LOG_WARN, "%s: device %s of %s has keys that are not signed by it: ignored",
                n->c.name, id, user);
        return;
    }
    mx_dev *d = dev_add(n);
    if (d == NULL)
        return;
    snprintf(d->user, sizeof d->user, "%s", user);
    snprintf(d->id, sizeof d->id, "%s", id);
    snprintf(d->curve, sizeof d->curve, "%s", curve);
    snprintf(d->ed, sizeof d->ed, "%s", ed);
}

void mx__on_keys_query(mx_net *n, mx_call *c, int status, json_object *body)
{
    (void)c;
    if (n->e2e.olm == NULL)
        return;
    json_object *dks = mx__obj(body, "device_keys");
    if (status != 200 || dks == NULL) {
        log_msg(LOG_WARN, "%s: /keys/query answered HTTP %d; asked again with the next send",
                n->c.name, status);
        return;
    }
    json_object_object_foreach(dks, user, devs)
    {
        mx_kuser *u = kuser(n, user, true);
        if (u == NULL || !json_object_is_type(devs, json_type_object))
            continue;
        devs_drop(n, user);
        json_object_object_foreach(devs, id, dk)
        {
            if (strcmp(user, n->me) != 0 || strcmp(id, n->device) != 0)
                take_device(n, user, id, dk);
        }
        u->known = true;
        u->stale = false;
    }
    query_start(n); /* users added meanwhile */
    mx__e2ee_retry(n);
}

/* ---- Olm sessions ---------------------------------------------------------- */

static void session_key(const char *curve, char *key, size_t cap)
{
    snprintf(key, cap, "olm:%s", curve);
}

/* The session kept for curve (malloc'd; "" none), NULL on a store error. */
static char *session_load(mx_net *n, const char *curve)
{
    char key[MX_E2E_KEY_MAX + 8];
    char *p = malloc(SESSION_MAX);
    session_key(curve, key, sizeof key);
    if (p != NULL && host_kv_get(n->env.host, n->scope, key, p, SESSION_MAX) < 0) {
        free(p);
        return NULL;
    }
    return p;
}

static bool session_save(mx_net *n, const char *curve, const char *pickle)
{
    char key[MX_E2E_KEY_MAX + 8];
    session_key(curve, key, sizeof key);
    if (host_kv_set(n->env.host, n->scope, key, pickle) == 0)
        return true;
    log_msg(LOG_ERROR, "%s: cannot save an Olm session: %s", n->c.name, host_errmsg(n->env.host));
    return false;
}

bool mx__e2ee_has_session(mx_net *n, const mx_dev *d)
{
    char *p = session_load(n, d->curve);
    bool has = p != NULL && p[0] != '\0';
    free(p);
    return has;
}

json_object *mx__e2ee_olm_for(mx_net *n, const mx_dev *d, json_object *payload)
{
    char *pickle = session_load(n, d->curve), *cipher = NULL;
    if (pickle == NULL || pickle[0] == '\0') {
        free(pickle);
        return NULL;
    }
    json_object_object_add(payload, "recipient", json_object_new_string(d->user));
    json_object *rk = json_object_new_object();
    json_object_object_add(rk, "ed25519", json_object_new_string(d->ed));
    json_object_object_add(payload, "recipient_keys", rk);
    int type = 0;
    int rc = mx_olm_encrypt(n->c.crypto_key, &pickle,
                            json_object_to_json_string_ext(payload, JSON_C_TO_STRING_PLAIN), &type,
                            &cipher);
    if (rc != 0 || !session_save(n, d->curve, pickle)) {
        free(pickle);
        free(cipher);
        return NULL;
    }
    free(pickle);
    json_object *out = json_object_new_object(), *ct = json_object_new_object(),
                *one = json_object_new_object();
    json_object_object_add(out, "algorithm", json_object_new_string(OLM_ALG));
    json_object_object_add(out, "sender_key",
                           json_object_new_string(mx_olm_curve25519(n->e2e.olm)));
    json_object_object_add(one, "type", json_object_new_int(type));
    json_object_object_add(one, "body", json_object_new_string(cipher));
    json_object_object_add(ct, d->curve, one);
    json_object_object_add(out, "ciphertext", ct);
    free(cipher);
    return out;
}

void mx__e2ee_claim(mx_net *n, const char *room, mx_dev **devs, int ndevs)
{
    if (mx__call_find(n, MX_CALL_KEYS_CLAIM, NULL, NULL) != NULL)
        return;
    json_object *body = json_object_new_object(), *otk = json_object_new_object();
    for (int i = 0; i < ndevs; i++) {
        json_object *u = mx__obj(otk, devs[i]->user);
        if (u == NULL) {
            u = json_object_new_object();
            json_object_object_add(otk, devs[i]->user, u);
        }
        json_object_object_add(u, devs[i]->id, json_object_new_string("signed_curve25519"));
    }
    json_object_object_add(body, "one_time_keys", otk);
    char url[MX_URL_MAX];
    mx_call *c = NULL;
    if (mx__url(n, url, sizeof url, "/keys/claim") == 0)
        c = mx__call_new(n, MX_CALL_KEYS_CLAIM, "POST", url,
                         json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN), true);
    if (c != NULL) {
        snprintf(c->room, sizeof c->room, "%s", room);
        mx__call_go(n, c);
    }
    /* a device the answer leaves out waits MX_E2E_CLAIM_RETRY_MS (marked now, cleared
       for those that get a session) */
    for (int i = 0; i < ndevs; i++)
        devs[i]->claim_failed = loop_now(n->env.loop);
    json_object_put(body);
}

static mx_dev *dev_find(mx_net *n, const char *user, const char *id)
{
    for (int i = 0; i < n->e2e.ndevs; i++)
        if (strcmp(n->e2e.devs[i].user, user) == 0 && strcmp(n->e2e.devs[i].id, id) == 0)
            return &n->e2e.devs[i];
    return NULL;
}

void mx__on_keys_claim(mx_net *n, mx_call *c, int status, json_object *body)
{
    (void)c;
    if (n->e2e.olm == NULL)
        return;
    json_object *otks = mx__obj(body, "one_time_keys");
    if (status != 200 || otks == NULL) {
        log_msg(LOG_WARN, "%s: /keys/claim answered HTTP %d", n->c.name, status);
        return;
    }
    json_object_object_foreach(otks, user, devs)
    {
        json_object_object_foreach(devs, id, keys)
        {
            mx_dev *d = dev_find(n, user, id);
            if (d == NULL || !json_object_is_type(keys, json_type_object))
                continue;
            json_object_object_foreach(keys, kid, k)
            {
                char sig[MX_ID_MAX + 16];
                const char *key = mx__str(k, "key");
                snprintf(sig, sizeof sig, "ed25519:%s", d->id);
                (void)kid;
                if (key == NULL || mx_crypto_verify_json(k, user, sig, d->ed) != 0) {
                    log_msg(LOG_WARN, "%s: a one-time key of %s's device %s is not signed by it",
                            n->c.name, user, id);
                    continue;
                }
                char *pickle = NULL;
                if (mx_olm_session_new(n->e2e.olm, n->c.crypto_key, d->curve, key, &pickle) == 0 &&
                    session_save(n, d->curve, pickle))
                    d->claim_failed = 0;
                free(pickle);
            }
        }
    }
}

/* ---- To-device -------------------------------------------------------------- */

/* One Olm-encrypted to-device event. */
static void on_olm(mx_net *n, json_object *ev)
{
    const char *sender = mx__str(ev, "sender");
    json_object *content = mx__obj(ev, "content");
    const char *alg = mx__str(content, "algorithm"), *curve = mx__str(content, "sender_key");
    json_object *mine = mx__obj(mx__obj(content, "ciphertext"), mx_olm_curve25519(n->e2e.olm));
    const char *cipher = mx__str(mine, "body");
    json_object *tv = NULL;
    if (sender == NULL || alg == NULL || strcmp(alg, OLM_ALG) != 0 || curve == NULL ||
        strlen(curve) >= MX_E2E_KEY_MAX || cipher == NULL ||
        !json_object_object_get_ex(mine, "type", &tv))
        return;
    int type = json_object_get_int(tv);
    char *pickle = session_load(n, curve), *plain = NULL;
    if (pickle == NULL)
        return;
    int rc = mx_olm_decrypt(n->e2e.olm, n->c.crypto_key, &pickle, curve, type, cipher, &plain);
    if (rc != 0) {
        log_msg(LOG_WARN, "%s: cannot read an encrypted message from %s's device (%s)", n->c.name,
                sender, mx_crypto_strerror(rc));
        free(pickle);
        return;
    }
    (void)session_save(n, curve, pickle);
    free(pickle);
    char *acc = mx_olm_pickle(n->e2e.olm, n->c.crypto_key); /* a one-time key went */
    if (acc != NULL && host_kv_set(n->env.host, n->scope, "e2e_account", acc) != 0)
        log_msg(LOG_ERROR, "%s: cannot save the device's keys", n->c.name);
    free(acc);
    json_object *p = mx__parse(plain, strlen(plain));
    free(plain);
    const char *ps = mx__str(p, "sender"), *rcpt = mx__str(p, "recipient");
    const char *rk = mx__str(mx__obj(p, "recipient_keys"), "ed25519");
    const char *ed = mx__str(mx__obj(p, "keys"), "ed25519"), *ptype = mx__str(p, "type");
    if (ps == NULL || strcmp(ps, sender) != 0 || rcpt == NULL || strcmp(rcpt, n->me) != 0 ||
        rk == NULL || strcmp(rk, mx_olm_ed25519(n->e2e.olm)) != 0 || ed == NULL ||
        strlen(ed) >= MX_E2E_KEY_MAX || ptype == NULL) {
        log_msg(LOG_WARN,
                "%s: an encrypted message from %s names another sender or recipient: "
                "ignored",
                n->c.name, sender);
    } else if (strcmp(ptype, "m.room_key") == 0) {
        mx__e2ee_room_key(n, sender, curve, ed, mx__obj(p, "content"));
    }
    json_object_put(p);
}

void mx__e2ee_to_device(mx_net *n, json_object *sync)
{
    if (n->e2e.olm == NULL)
        return;
    json_object *lists = mx__obj(sync, "device_lists");
    json_object *changed = mx__arr(lists, "changed"), *left = mx__arr(lists, "left");
    for (size_t i = 0; changed != NULL && i < json_object_array_length(changed); i++) {
        const char *u = json_object_get_string(json_object_array_get_idx(changed, i));
        mx_kuser *k = u != NULL ? kuser(n, u, false) : NULL;
        if (k != NULL)
            k->stale = true;
    }
    for (size_t i = 0; left != NULL && i < json_object_array_length(left); i++) {
        const char *u = json_object_get_string(json_object_array_get_idx(left, i));
        mx_kuser *k = u != NULL ? kuser(n, u, false) : NULL;
        if (k != NULL)
            k->stale = true;
    }
    json_object *evs = mx__arr(mx__obj(sync, "to_device"), "events");
    for (size_t i = 0; evs != NULL && i < json_object_array_length(evs); i++) {
        json_object *ev = json_object_array_get_idx(evs, i);
        const char *type = mx__str(ev, "type");
        if (type != NULL && strcmp(type, "m.room.encrypted") == 0)
            on_olm(n, ev);
        else if (type != NULL && (strcmp(type, "m.room_key.withheld") == 0 ||
                                  strcmp(type, "org.matrix.room_key.withheld") == 0))
            mx__e2ee_withheld(n, ev); /* the second: its name before Matrix 1.1 */
    }
    if (evs != NULL && json_object_array_length(evs) > 0)
        mx__e2ee_retry(n);
}

/* ---- Keys withheld --------------------------------------------------------- */

/* What a withheld code means to the player and what they can change. */
static const struct {
    const char *code, *why;
} withheld_codes[] = {
    {"m.unverified",
     N_("your client sends its keys only to sessions you have verified, and you have not "
        "verified mine. Verify my session, or turn off \"Never send encrypted messages to "
        "unverified sessions\" in your client's security settings.")},
    {"m.blacklisted", N_("your client has blocked my session. Unblock it in your client's list "
                         "of my sessions.")},
    {"m.unauthorised",
     N_("your client does not count my session among those allowed to read this room. Check "
        "that you verified my session and that I am still a member there.")},
    {"m.unavailable",
     N_("your client no longer has the key of one of your messages. Say it again.")},
    {"m.no_olm", N_("your client could not open an encrypted channel to my session. Say it "
                    "again in a minute; if this goes on, sign out of your client and in "
                    "again.")},
};

void mx__e2ee_withheld(mx_net *n, json_object *ev)
{
    const char *sender = mx__str(ev, "sender");
    json_object *content = mx__obj(ev, "content");
    const char *code = mx__str(content, "code"), *curve = mx__str(content, "sender_key");
    if (!mx__id_ok(sender) || strcmp(sender, n->me) == 0 || code == NULL || curve == NULL ||
        strlen(curve) >= MX_E2E_KEY_MAX)
        return;
    size_t k = 0, nk = sizeof withheld_codes / sizeof withheld_codes[0];
    while (k < nk && strcmp(withheld_codes[k].code, code) != 0)
        k++;
    if (k == nk) { /* the spec's codes only: another is a client's own, unknown here */
        log_msg(LOG_WARN,
                "%s: %s's client withholds a room key from the bot with a code it "
                "does not know: ignored",
                n->c.name, sender);
        return;
    }
    const char *device = curve; /* the device's id when it is a known device of theirs */
    mx_dev *d[64];
    int nd = mx__e2ee_devices(n, sender, d, 64);
    for (int i = 0; i < nd; i++)
        if (strcmp(d[i]->curve, curve) == 0)
            device = d[i]->id;
    char key[2 * MX_ID_MAX + MX_E2E_KEY_MAX + 32], told[8];
    snprintf(key, sizeof key, "mgw:%s|%s|%s", sender, device, code);
    if (mx__kv_get(n, key, told, sizeof told) == 0)
        return; /* told already */
    log_msg(LOG_WARN,
            "%s: %s's device %s withholds its room keys from the bot (%s): the bot cannot "
            "read them there; telling them",
            n->c.name, sender, device, code);
    char text[1024];
    pz_lang before = i18n_use(host_reader_lang(n->env.host, n->c.name, sender, MSG_PRIVATE));
    snprintf(text, sizeof text, _("I cannot read your encrypted messages to my session %s: %s"),
             n->device, _(withheld_codes[k].why));
    i18n_use(before);
    if (mx__say(n, NULL, sender, text) == 0)
        mx__kv_set(n, key, "1");
}
