/*
 * mx_e2ee_room.c — rooms' Megolm sessions. Sending: one outbound session
 * per room (kv "mgo:ROOM": created, messages, pickle, and the pickle as it
 * was made, at index 0), its key given by Olm-encrypted m.room_key to
 * every current device of the room's members — invited ones too, as
 * Element does, unless the room's history is for joined members only —
 * (kv "mgs:ROOM": the session id, then "USER DEVICE CURVE" per line), made
 * anew after MX_MEGOLM_MSGS messages, after MX_MEGOLM_AGE_MS, or when a
 * device it was given to is no longer a current device of a member (a
 * member left, a device went). A device given the key late gets it from
 * index 0 when the room's history is shared, so that it reads what was
 * sent before (a player's first hand, sent while they were invited);
 * otherwise from the session's current index. The session is saved after
 * each encryption and before the event is handed to the request: a crash
 * never reuses an index. Receiving: inbound sessions from m.room_key (kv
 * "mgi:ROOM|SID": sender, device's curve25519 and ed25519, pickle, then
 * the session's replay window: its last MX_REPLAY_WINDOW indexes, each
 * with a hash of its event's id); an event decrypts only when it comes
 * from the user whose device gave the key, that device is a current,
 * signature-checked device of theirs, its room id is the room's, and its
 * index was not seen with another event id nor is older than the window.
 * An event whose key has not come waits (at most MX_E2E_WAITS_MAX, each
 * MX_E2E_WAIT_MS).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mx_net.h"

#define MEGOLM_ALG "m.megolm.v1.aes-sha2"
#define PICKLE_MAX 65536
#define SHARED_MAX 131072
#define KEY_MAX (2 * MX_ID_MAX + 64)

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* kv value of key (malloc'd, cap bytes; "" none), NULL on a store error. */
static char *kv_load(mx_net *n, const char *key, size_t cap)
{
    char *v = malloc(cap);
    if (v != NULL && host_kv_get(n->env.host, n->scope, key, v, cap) < 0) {
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
        free(v);
        return NULL;
    }
    return v;
}

static bool kv_save(mx_net *n, const char *key, const char *value)
{
    if (host_kv_set(n->env.host, n->scope, key, value) == 0)
        return true;
    log_msg(LOG_ERROR, "%s: cannot save a room's encryption state: %s", n->c.name,
            host_errmsg(n->env.host));
    return false;
}

/* ---- The outbound session ---------------------------------------------------- */

typedef struct outs {
    int64_t created;
    int count;
    char *pickle; /* malloc'd; NULL none */
    char *first;  /* the same session at index 0 (malloc'd; NULL: not kept) */
    char sid[128];
} outs;

static void outs_free(outs *o)
{
    free(o->pickle);
    free(o->first);
    o->pickle = o->first = NULL;
}

static bool outs_load(mx_net *n, const char *room, outs *o)
{
    char key[KEY_MAX];
    memset(o, 0, sizeof *o);
    snprintf(key, sizeof key, "mgo:%s", room);
    char *v = kv_load(n, key, PICKLE_MAX);
    if (v == NULL)
        return false;
    long long created = 0;
    int count = 0, used = 0;
    unsigned idx;
    if (sscanf(v, "%lld %d %n", &created, &count, &used) == 2 && v[used] != '\0') {
        o->created = created;
        o->count = count;
        char *sp = strchr(v + used, ' '), sid0[128];
        if (sp != NULL) { /* rows saved before the first pickle was kept have none */
            *sp = '\0';
            o->first = strdup(sp + 1);
        }
        o->pickle = strdup(v + used);
        if (o->pickle == NULL ||
            mx_megolm_out_info(n->c.crypto_key, o->pickle, o->sid, sizeof o->sid, &idx, NULL) != 0)
            outs_free(o);
        if (o->first != NULL &&
            (mx_megolm_out_info(n->c.crypto_key, o->first, sid0, sizeof sid0, &idx, NULL) != 0 ||
             idx != 0 || strcmp(sid0, o->sid) != 0)) {
            free(o->first);
            o->first = NULL;
        }
    }
    free(v);
    return true;
}

static bool outs_save(mx_net *n, const char *room, const outs *o)
{
    char key[KEY_MAX], head[64];
    snprintf(key, sizeof key, "mgo:%s", room);
    snprintf(head, sizeof head, "%lld %d ", (long long)o->created, o->count);
    const char *first = o->first != NULL ? o->first : "";
    size_t len = strlen(head) + strlen(o->pickle) + strlen(first) + 2;
    char *v = malloc(len);
    if (v == NULL)
        return false;
    snprintf(v, len, "%s%s%s%s", head, o->pickle, first[0] != '\0' ? " " : "", first);
    bool ok = kv_save(n, key, v);
    free(v);
    return ok;
}

/* Whether "USER DEVICE CURVE" of d is a line of shared. */
static bool shared_has(const char *shared, const mx_dev *d)
{
    char line[3 * MX_ID_MAX];
    snprintf(line, sizeof line, "\n%s %s %s\n", d->user, d->id, d->curve);
    return strstr(shared, line) != NULL;
}

/* Whether every device of shared is a current device of a member. */
static bool shared_current(mx_net *n, const char *shared, mx_dev **cur, int ncur)
{
    const char *p = strchr(shared, '\n');
    while (p != NULL && p[1] != '\0') {
        const char *e = strchr(p + 1, '\n');
        if (e == NULL)
            break;
        bool found = false;
        for (int i = 0; i < ncur && !found; i++) {
            char line[3 * MX_ID_MAX];
            int k =
                snprintf(line, sizeof line, "%s %s %s", cur[i]->user, cur[i]->id, cur[i]->curve);
            found = (size_t)k == (size_t)(e - p - 1) && strncmp(p + 1, line, (size_t)k) == 0;
        }
        if (!found)
            return false;
        p = e;
    }
    (void)n;
    return true;
}

/* A new outbound session for room (why: for the log). */
static bool rotate(mx_net *n, mx_room *r, outs *o, const char *why)
{
    char key[KEY_MAX];
    outs_free(o);
    unsigned idx;
    if (mx_megolm_out_new(n->c.crypto_key, &o->pickle) != 0 ||
        mx_megolm_out_info(n->c.crypto_key, o->pickle, o->sid, sizeof o->sid, &idx, NULL) != 0 ||
        (o->first = strdup(o->pickle)) == NULL)
        return false;
    o->created = wall_ms();
    o->count = 0;
    snprintf(key, sizeof key, "mgs:%s", r->id);
    char shared[160];
    snprintf(shared, sizeof shared, "%s\n", o->sid);
    if (!outs_save(n, r->id, o) || !kv_save(n, key, shared))
        return false;
    log_msg(LOG_INFO, "%s: a new room key for %s (%s)", n->c.name, r->id, why);
    return true;
}

/* Gives the room key to devs (all with an Olm session): one /sendToDevice;
   from index 0 when the room's history is shared (and that is kept). */
static void share(mx_net *n, mx_room *r, outs *o, mx_dev **devs, int k)
{
    char *skey = NULL, sid[128];
    unsigned idx;
    const char *from = o->first != NULL && r->history == MX_HIST_SHARED ? o->first : o->pickle;
    if (mx_megolm_out_info(n->c.crypto_key, from, sid, sizeof sid, &idx, &skey) != 0)
        return;
    json_object *msgs = json_object_new_object();
    int sent = 0;
    for (int i = 0; i < k; i++) {
        json_object *p = json_object_new_object(), *c = json_object_new_object(),
                    *keys = json_object_new_object();
        json_object_object_add(c, "algorithm", json_object_new_string(MEGOLM_ALG));
        json_object_object_add(c, "room_id", json_object_new_string(r->id));
        json_object_object_add(c, "session_id", json_object_new_string(sid));
        json_object_object_add(c, "session_key", json_object_new_string(skey));
        json_object_object_add(p, "type", json_object_new_string("m.room_key"));
        json_object_object_add(p, "content", c);
        json_object_object_add(p, "sender", json_object_new_string(n->me));
        json_object_object_add(p, "sender_device", json_object_new_string(n->device));
        json_object_object_add(keys, "ed25519", json_object_new_string(mx_olm_ed25519(n->e2e.olm)));
        json_object_object_add(p, "keys", keys);
        json_object *enc = mx__e2ee_olm_for(n, devs[i], p);
        json_object_put(p);
        if (enc == NULL)
            continue;
        json_object *u = mx__obj(msgs, devs[i]->user);
        if (u == NULL) {
            u = json_object_new_object();
            json_object_object_add(msgs, devs[i]->user, u);
        }
        json_object_object_add(u, devs[i]->id, enc);
        sent++;
    }
    volatile char *w = skey;
    for (size_t i = 0; w[i] != '\0'; i++)
        w[i] = '\0';
    free(skey);
    json_object *body = json_object_new_object();
    json_object_object_add(body, "messages", msgs);
    char url[MX_URL_MAX], path[256], txn[64];
    /* unique across restarts (the seed of n->rng is not: --seed): the wall
       clock and a count; a retry of this call keeps its URL */
    static unsigned shares;
    snprintf(txn, sizeof txn, "rk%lld.%u", (long long)wall_ms(), ++shares);
    snprintf(path, sizeof path, "/sendToDevice/m.room.encrypted/%s", txn);
    mx_call *c = NULL;
    if (sent > 0 && mx__url(n, url, sizeof url, path) == 0)
        c = mx__call_new(n, MX_CALL_TO_DEVICE, "PUT", url,
                         json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN), true);
    json_object_put(body);
    if (c == NULL)
        return;
    snprintf(c->room, sizeof c->room, "%s", r->id);
    snprintf(c->event, sizeof c->event, "%s", sid);
    mx__call_go(n, c);
}

/* Reads a room's joined and invited members (once a run: the sync's state
   may be old, or not have come yet for a room the bot just made). */
static void members_fetch(mx_net *n, mx_room *r)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], room[3 * MX_ID_MAX];
    if (mx__call_find(n, MX_CALL_MEMBERS, r->id, NULL) != NULL ||
        mx__enc(r->id, room, sizeof room) != 0 ||
        snprintf(path, sizeof path, "/rooms/%s/members?not_membership=leave", room) >=
            (int)sizeof path ||
        mx__url(n, url, sizeof url, path) != 0)
        return;
    mx_call *c = mx__call_new(n, MX_CALL_MEMBERS, "GET", url, NULL, true);
    if (c == NULL)
        return;
    snprintf(c->room, sizeof c->room, "%s", r->id);
    mx__call_go(n, c);
}

void mx__on_members(mx_net *n, mx_call *c, int status, json_object *body)
{
    mx_room *r = mx__room(n, c->room, false);
    json_object *chunk = mx__arr(body, "chunk");
    if (r == NULL || status != 200 || chunk == NULL) {
        log_msg(LOG_WARN, "%s: cannot read the members of %s (HTTP %d)", n->c.name, c->room,
                status);
        return;
    }
    for (size_t i = 0; i < json_object_array_length(chunk); i++) {
        json_object *ev = json_object_array_get_idx(chunk, i), *content = mx__obj(ev, "content");
        const char *user = mx__str(ev, "state_key"), *m = mx__str(content, "membership");
        if (user == NULL || m == NULL || strcmp(user, n->me) == 0 || !mx__id_ok(user) ||
            (strcmp(m, "join") != 0 && strcmp(m, "invite") != 0))
            continue; /* a ban (or a knock) holds no key */
        const char *name = mx__str(content, "displayname");
        (void)mx__member_set(n, r, user, name != NULL ? name : "", NULL, 0);
        mx__member_invited(r, user, strcmp(m, "invite") == 0);
    }
    r->members_known = true;
}

void mx__e2ee_history(mx_room *r, json_object *content)
{
    const char *h = mx__str(content, "history_visibility");
    r->history = h == NULL                   ? MX_HIST_SHARED
                 : strcmp(h, "joined") == 0  ? MX_HIST_JOINED
                 : strcmp(h, "invited") == 0 ? MX_HIST_INVITED
                                             : MX_HIST_SHARED;
}

/* Whether member m of r is given the room key: invited members too, unless
   the room's history is for joined members only (Element's rule). */
static bool key_for(const mx_room *r, const mx_member *m)
{
    return !m->invited || r->history != MX_HIST_JOINED;
}

int mx__e2ee_room_ready(mx_net *n, mx_room *r)
{
    if (!n->e2e.ready)
        return 0;
    if (!r->members_known) {
        members_fetch(n, r);
        return 0;
    }
    bool all = true;
    for (int i = 0; i < r->nmembers; i++)
        if (key_for(r, &r->members[i]))
            all = mx__e2ee_user_ready(n, r->members[i].user) && all;
    if (!all || mx__call_find(n, MX_CALL_TO_DEVICE, r->id, NULL) != NULL ||
        mx__call_find(n, MX_CALL_KEYS_CLAIM, NULL, NULL) != NULL)
        return 0;
    int cap = n->e2e.ndevs > 0 ? n->e2e.ndevs : 1, ncur = 0;
    mx_dev **cur = malloc((size_t)cap * sizeof *cur);
    if (cur == NULL)
        return 0;
    for (int i = 0; i < r->nmembers; i++)
        if (key_for(r, &r->members[i]))
            ncur += mx__e2ee_devices(n, r->members[i].user, cur + ncur, cap - ncur);
    outs o;
    char key[KEY_MAX];
    snprintf(key, sizeof key, "mgs:%s", r->id);
    char *shared = outs_load(n, r->id, &o) ? kv_load(n, key, SHARED_MAX) : NULL;
    int ready = 0;
    if (shared == NULL)
        goto out;
    char lead[140];
    snprintf(lead, sizeof lead, "%s\n", o.sid);
    const char *why = o.pickle == NULL                            ? "the first"
                      : o.count >= MX_MEGOLM_MSGS                 ? "100 messages"
                      : wall_ms() - o.created >= MX_MEGOLM_AGE_MS ? "a week old"
                      : strncmp(shared, lead, strlen(lead)) != 0  ? "its devices unknown"
                      : !shared_current(n, shared + strlen(o.sid), cur, ncur)
                          ? "a member or a device went"
                          : NULL;
    if (why != NULL) {
        if (!rotate(n, r, &o, why))
            goto out;
        snprintf(shared, SHARED_MAX, "%s\n", o.sid);
    }
    mx_dev **miss = malloc((size_t)cap * sizeof *miss),
           **claim = malloc((size_t)cap * sizeof *claim);
    int nmiss = 0, nclaim = 0;
    int64_t now = loop_now(n->env.loop);
    for (int i = 0; miss != NULL && claim != NULL && i < ncur; i++) {
        if (shared_has(shared + strlen(o.sid), cur[i]))
            continue;
        if (mx__e2ee_has_session(n, cur[i])) {
            if (nmiss < MX_E2E_SHARE_MAX)
                miss[nmiss++] = cur[i];
        } else if (cur[i]->claim_failed == 0 ||
                   now - cur[i]->claim_failed > MX_E2E_CLAIM_RETRY_MS) {
            claim[nclaim++] = cur[i];
        }
    }
    if (nclaim > 0)
        mx__e2ee_claim(n, r->id, claim, nclaim);
    else if (nmiss > 0)
        share(n, r, &o, miss, nmiss);
    else
        ready = miss != NULL && claim != NULL;
    free(miss);
    free(claim);
out:
    free(shared);
    outs_free(&o);
    free(cur);
    return ready;
}

void mx__on_to_device(mx_net *n, mx_call *c, int status, json_object *body)
{
    (void)body;
    if (n->e2e.olm == NULL)
        return;
    if (status != 200) {
        log_msg(LOG_WARN, "%s: a room key for %s was refused (HTTP %d)", n->c.name, c->room,
                status);
        return;
    }
    char key[KEY_MAX];
    snprintf(key, sizeof key, "mgs:%s", c->room);
    char *shared = kv_load(n, key, SHARED_MAX);
    json_object *root = mx__parse(c->body, strlen(c->body)), *all = mx__obj(root, "messages");
    char lead[140];
    snprintf(lead, sizeof lead, "%s\n", c->event);
    if (shared != NULL && all != NULL && strncmp(shared, lead, strlen(lead)) == 0) {
        size_t len = strlen(shared);
        json_object_object_foreach(all, user, devs){json_object_object_foreach(devs, id, v){(void)v;
        mx_dev *d[64];
        int k = mx__e2ee_devices(n, user, d, 64);
        for (int i = 0; i < k; i++) {
            if (strcmp(d[i]->id, id) != 0)
                continue;
            int w = snprintf(shared + len, SHARED_MAX - len, "%s %s %s\n", user, id, d[i]->curve);
            if (w > 0 && (size_t)w < SHARED_MAX - len)
                len += (size_t)w;
            else
                shared[len] = '\0';
        }
    }
}
(void)kv_save(n, key, shared);
}
json_object_put(root);
free(shared);
}

/* ---- Encrypting ---------------------------------------------------------------- */

char *mx__e2ee_encrypt(mx_net *n, mx_room *r, const char *type, const char *content)
{
    outs o;
    json_object *c = mx__parse(content, strlen(content));
    if (c == NULL || !outs_load(n, r->id, &o) || o.pickle == NULL) {
        json_object_put(c);
        return NULL;
    }
    json_object *plain = json_object_new_object();
    json_object_object_add(plain, "type", json_object_new_string(type));
    json_object_object_add(plain, "content", json_object_get(c));
    json_object_object_add(plain, "room_id", json_object_new_string(r->id));
    char *cipher = NULL, *out = NULL;
    int rc = mx_megolm_encrypt(n->c.crypto_key, &o.pickle,
                               json_object_to_json_string_ext(
                                   plain, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
                               &cipher);
    json_object_put(plain);
    o.count++;
    if (rc == 0 && outs_save(n, r->id, &o)) { /* saved before the event goes */
        json_object *e = json_object_new_object(), *rel = mx__obj(c, "m.relates_to");
        json_object_object_add(e, "algorithm", json_object_new_string(MEGOLM_ALG));
        json_object_object_add(e, "sender_key",
                               json_object_new_string(mx_olm_curve25519(n->e2e.olm)));
        json_object_object_add(e, "ciphertext", json_object_new_string(cipher));
        json_object_object_add(e, "session_id", json_object_new_string(o.sid));
        json_object_object_add(e, "device_id", json_object_new_string(n->device));
        if (rel != NULL) /* relations stay readable to the server, as clients send them */
            json_object_object_add(e, "m.relates_to", json_object_get(rel));
        const char *s = json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN);
        out = s != NULL ? strdup(s) : NULL;
        json_object_put(e);
    }
    free(cipher);
    outs_free(&o);
    json_object_put(c);
    return out;
}

/* ---- Receiving ----------------------------------------------------------------- */

void mx__e2ee_room_key(mx_net *n, const char *sender, const char *curve, const char *ed,
                       json_object *content)
{
    const char *alg = mx__str(content, "algorithm"), *room = mx__str(content, "room_id");
    const char *sid = mx__str(content, "session_id"), *skey = mx__str(content, "session_key");
    char key[KEY_MAX + 128], got[128];
    if (alg == NULL || strcmp(alg, MEGOLM_ALG) != 0 || !mx__id_ok(room) || sid == NULL ||
        strlen(sid) >= 100 || skey == NULL)
        return;
    snprintf(key, sizeof key, "mgi:%s|%s", room, sid);
    char *have = kv_load(n, key, PICKLE_MAX);
    bool known = have == NULL || have[0] != '\0';
    free(have);
    if (known) /* the first key of a session is kept: a later copy cannot lower its index */
        return;
    char *pickle = NULL;
    if (mx_megolm_in_new(n->c.crypto_key, skey, &pickle, got, sizeof got) != 0 ||
        strcmp(got, sid) != 0) {
        log_msg(LOG_WARN, "%s: a room key from %s for %s does not read: ignored", n->c.name, sender,
                room);
        free(pickle);
        return;
    }
    size_t len = strlen(sender) + strlen(curve) + strlen(ed) + strlen(pickle) + 4;
    char *v = malloc(len);
    if (v != NULL) {
        snprintf(v, len, "%s %s %s %s", sender, curve, ed, pickle);
        if (kv_save(n, key, v))
            log_msg(LOG_INFO, "%s: a room key for %s from %s", n->c.name, room, sender);
    }
    free(v);
    free(pickle);
}

/* ev's event id, for the log. */
static const char *ev_id(json_object *ev)
{
    const char *id = mx__str(ev, "event_id");
    return id != NULL ? id : "?";
}

/* Keeps ev until its key comes (the oldest goes when full). */
static void wait_add(mx_net *n, mx_room *r, json_object *ev, bool commands)
{
    mx_wait *slot = NULL;
    for (int i = 0; i < MX_E2E_WAITS_MAX; i++) {
        mx_wait *w = &n->e2e.waits[i];
        if (w->ev != NULL && strcmp(w->room, r->id) == 0 && strcmp(ev_id(w->ev), ev_id(ev)) == 0)
            return; /* already waiting */
        if (slot == NULL || (slot->ev != NULL && (w->ev == NULL || w->since < slot->since)))
            slot = w;
    }
    if (slot->ev != NULL) {
        log_msg(LOG_WARN, "%s: too many encrypted events wait for their keys: %s given up",
                n->c.name, ev_id(slot->ev));
        json_object_put(slot->ev);
    }
    slot->ev = json_object_get(ev);
    snprintf(slot->room, sizeof slot->room, "%s", r->id);
    slot->commands = commands;
    slot->since = loop_now(n->env.loop);
}

/* The sender's device that gave the key (curve, ed) is a current one of theirs. */
static int sender_device_ok(mx_net *n, const char *sender, const char *curve, const char *ed)
{
    if (!mx__e2ee_user_ready(n, sender))
        return -1; /* asked: wait */
    mx_dev *d[64];
    int k = mx__e2ee_devices(n, sender, d, 64);
    for (int i = 0; i < k; i++)
        if (strcmp(d[i]->curve, curve) == 0 && strcmp(d[i]->ed, ed) == 0)
            return 1;
    return 0;
}

/* ---- Replays: a window of indexes per inbound session ------------------------ */

/* The indexes of a session decrypted lately (the highest MX_REPLAY_WINDOW),
   each with the hash of its event's id. */
typedef struct window {
    int n;
    unsigned idx[MX_REPLAY_WINDOW];
    unsigned long long hash[MX_REPLAY_WINDOW];
} window;

/* FNV-1a, 64 bits: an event id's fingerprint (collisions only hide a replay
   with a chance of 2^-64). */
static unsigned long long id_hash(const char *id)
{
    unsigned long long h = 14695981039346656037ULL;
    for (const unsigned char *p = (const unsigned char *)id; *p != '\0'; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return h;
}

/* Reads " INDEX:HASH" items (as window_format writes them) into w. */
static void window_parse(const char *s, window *w)
{
    w->n = 0;
    while (s != NULL && w->n < MX_REPLAY_WINDOW) {
        unsigned idx;
        unsigned long long h;
        int used = 0;
        if (sscanf(s, " %u:%llx%n", &idx, &h, &used) != 2 || used <= 0)
            break;
        w->idx[w->n] = idx;
        w->hash[w->n++] = h;
        s += used;
    }
}

/* Whether index was seen: 1 with this event (the same event again), -1 with
   another (a replay), -2 not, but it is older than a full window; 0 new. */
static int window_check(const window *w, unsigned index, unsigned long long h)
{
    unsigned low = UINT_MAX;
    for (int i = 0; i < w->n; i++) {
        if (w->idx[i] == index)
            return w->hash[i] == h ? 1 : -1;
        low = w->idx[i] < low ? w->idx[i] : low;
    }
    return w->n == MX_REPLAY_WINDOW && index < low ? -2 : 0;
}

/* Adds index (new, not older than a full window) in place of the lowest. */
static void window_add(window *w, unsigned index, unsigned long long h)
{
    int at = w->n;
    if (w->n == MX_REPLAY_WINDOW) {
        at = 0;
        for (int i = 1; i < w->n; i++)
            at = w->idx[i] < w->idx[at] ? i : at;
    } else {
        w->n++;
    }
    w->idx[at] = index;
    w->hash[at] = h;
}

/* w as " INDEX:HASH" items into out[cap] ("" when it does not fit). */
static void window_format(const window *w, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < w->n; i++) {
        int k = snprintf(out + len, cap - len, " %u:%llx", w->idx[i], w->hash[i]);
        if (k < 0 || (size_t)k >= cap - len) {
            out[0] = '\0';
            return;
        }
        len += (size_t)k;
    }
}

/* Notes index of event id in the session's row (key: "mgi:..."; head: its
   "SENDER CURVE ED PICKLE"). 1 noted, 0 a replay or too old (logged), -1
   not saved (out of memory, or the store failed: logged): the event is
   read all the same, as it was when the store failed before. */
static int replay_note(mx_net *n, mx_room *r, const char *key, const char *head, window *w,
                       unsigned index, const char *id)
{
    unsigned long long h = id_hash(id);
    int seen = window_check(w, index, h);
    if (seen == 1)
        return 1; /* the same event again (a gap read twice): nothing changes */
    if (seen < 0) {
        log_msg(LOG_WARN, "%s: %s in %s %s message %u of a room key: ignored", n->c.name, id, r->id,
                seen == -1 ? "replays" : "is older than the replay window, at", index);
        return 0;
    }
    window_add(w, index, h);
    char win[MX_REPLAY_WINDOW * 28 + 1];
    window_format(w, win, sizeof win);
    size_t len = strlen(head) + strlen(win) + 1;
    char *v = malloc(len);
    if (v == NULL)
        return -1;
    snprintf(v, len, "%s%s", head, win);
    bool ok = kv_save(n, key, v);
    free(v);
    return ok ? 1 : -1;
}

/* Decrypts ev: the event, NULL with *wait when its key (or its sender's
   devices) must come first. */
static json_object *decrypt(mx_net *n, mx_room *r, json_object *ev, bool *wait)
{
    json_object *content = mx__obj(ev, "content");
    const char *alg = mx__str(content, "algorithm"), *sid = mx__str(content, "session_id");
    const char *cipher = mx__str(content, "ciphertext"), *sender = mx__str(ev, "sender");
    const char *id = mx__str(ev, "event_id");
    *wait = false;
    if (alg == NULL || strcmp(alg, MEGOLM_ALG) != 0 || sid == NULL || strlen(sid) >= 100 ||
        cipher == NULL || sender == NULL || !mx__id_ok(id))
        return NULL;
    char key[KEY_MAX + 128];
    snprintf(key, sizeof key, "mgi:%s|%s", r->id, sid);
    char *v = kv_load(n, key, PICKLE_MAX);
    if (v == NULL)
        return NULL;
    char who[MX_ID_MAX], curve[MX_E2E_KEY_MAX], ed[MX_E2E_KEY_MAX];
    int used = 0;
    if (v[0] == '\0' || sscanf(v, "%254s %63s %63s %n", who, curve, ed, &used) != 3) {
        *wait = v[0] == '\0';
        free(v);
        return NULL;
    }
    window seen;
    char *sp = strchr(v + used, ' '); /* the pickle, then the window */
    window_parse(sp, &seen);
    if (sp != NULL)
        *sp = '\0';
    json_object *out = NULL;
    int dev = strcmp(who, sender) == 0 ? sender_device_ok(n, sender, curve, ed) : 0;
    char *plain = NULL;
    unsigned index = 0;
    if (dev < 0) {
        *wait = true;
    } else if (dev == 0) {
        log_msg(LOG_WARN,
                "%s: %s in %s: its key did not come from a current device of %s: "
                "ignored",
                n->c.name, id, r->id, sender);
    } else if (mx_megolm_decrypt(n->c.crypto_key, v + used, cipher, &plain, &index) != 0) {
        log_msg(LOG_WARN, "%s: %s in %s does not decrypt: ignored", n->c.name, id, r->id);
    } else {
        json_object *p = mx__parse(plain, strlen(plain));
        const char *room = mx__str(p, "room_id"), *type = mx__str(p, "type");
        if (room == NULL || strcmp(room, r->id) != 0 || type == NULL ||
            mx__obj(p, "content") == NULL) {
            log_msg(LOG_WARN, "%s: %s in %s was encrypted for another room: ignored", n->c.name, id,
                    r->id);
        } else if (replay_note(n, r, key, v, &seen, index, id) != 0) { /* -1: logged */
            out = json_object_new_object();
            json_object_object_foreach(ev, k, val)
            {
                if (strcmp(k, "type") != 0 && strcmp(k, "content") != 0)
                    json_object_object_add(out, k, json_object_get(val));
            }
            json_object_object_add(out, "type", json_object_new_string(type));
            json_object_object_add(out, "content", json_object_get(mx__obj(p, "content")));
        }
        json_object_put(p);
        free(plain);
    }
    free(v);
    return out;
}

json_object *mx__e2ee_decrypt(mx_net *n, mx_room *r, json_object *ev, bool commands)
{
    if (n->e2e.olm == NULL)
        return NULL;
    bool wait = false;
    json_object *out = decrypt(n, r, ev, &wait);
    if (out == NULL && wait)
        wait_add(n, r, ev, commands);
    return out;
}

void mx__e2ee_retry(mx_net *n)
{
    int64_t now = loop_now(n->env.loop);
    for (int i = 0; i < MX_E2E_WAITS_MAX; i++) {
        mx_wait *w = &n->e2e.waits[i];
        if (w->ev == NULL)
            continue;
        mx_room *r = mx__room(n, w->room, false);
        bool wait = false;
        json_object *out = r != NULL ? decrypt(n, r, w->ev, &wait) : NULL;
        if (out != NULL) {
            json_object *ev = w->ev;
            w->ev = NULL;
            mx__event_decrypted(n, r, out, w->commands);
            json_object_put(out);
            json_object_put(ev);
        } else if (!wait || now - w->since > MX_E2E_WAIT_MS) {
            if (wait)
                log_msg(LOG_WARN, "%s: the key of %s in %s never came: given up", n->c.name,
                        ev_id(w->ev), w->room);
            json_object_put(w->ev);
            w->ev = NULL;
        }
    }
}
