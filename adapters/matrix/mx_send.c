/*
 * mx_send.c — the host's outbox to the homeserver, over outq (bot/outbox/outq.h):
 * the network's outbox in memory, one queue per target, read from the
 * store by range (only what was added) before the loop sleeps, and served
 * round robin across every target with something to send, hands first.
 * Up to MX_SENDS_MAX messages are under way at once, one per target, so a
 * room's messages leave in order: each event is a
 * PUT /rooms/{room}/send/m.room.message/{txn} with the message's own txn
 * (the outbox row's; ".1", ".2"... for the further events of a message too
 * large for one), so the homeserver answers a repeat — after an error, a
 * lost answer or a restart — with the event it already has. 429, 5xx and
 * time-outs are the engine's to retry (mx_call.c), the message still
 * taken, so nothing overtakes it in its room.
 *
 * Once the homeserver returned the last event's id, the message leaves the
 * queue (outq_sent) and the id joins a list; once per loop turn both are
 * written in one transaction (outq_flush_done_seen): the outbox rows
 * deleted and the event ids recorded as seen (mx_events.c stops paging a
 * gap back at them). When the store refuses, the batch is kept and tried
 * again after a back-off; nothing is sent twice by this process meanwhile,
 * and a crash before the write only makes the restarted bot repeat
 * transactions, which the homeserver answers from its cache. Volatile
 * messages (outq_add_volatile: the store could not take them) go the same
 * way without a row.
 *
 * Private messages go to the player's direct room; when there is none yet
 * one is made (mx_send_dm.c: createRoom, is_direct, trusted_private_chat, the player
 * invited; MX_DMS_MAX at once) and the player's queue is parked meanwhile,
 * as is a room's while the bot joins it (a direct room is used only once
 * the homeserver said it is not encrypted; a server that encrypts them is
 * told to the game's room once). The queue's expander (merge_expand) puts
 * the messages waiting behind one for the same room in its event, one line
 * each, so a command costs the rate limit one event per room; the answers
 * to a command said in a thread go to that thread. A final 4xx drops the message
 * (logged), so one bad message never blocks a room; a direct room that
 * refuses the bot (it left, the room is gone) is forgotten once and the
 * message goes to a new one. Not here: retries and back-off (mx_call.c),
 * formatting (mx_format.c).
 */
#include "mx_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "log.h"
#include "mx_format.h"

int mx__say(mx_net *n, const char *room, const char *user, const char *text)
{
    host_say_line l = {.network = n->c.name,
                       .target = room != NULL ? room : user,
                       .kind = room != NULL ? MSG_ROOM : MSG_PRIVATE,
                       .text = text};
    if (host_say(n->env.host, &l, (int64_t)time(NULL)) == 1)
        return 0;
    log_msg(LOG_ERROR, "%s: cannot queue a message: %s", n->c.name, host_errmsg(n->env.host));
    return -1;
}

/* ---- Marks -------------------------------------------------------------------- */

/* Notes event (the last event of a message sent) for the next flush. Past
   MX_SEEN_PENDING_MAX (a store down for long) it is not kept: it only
   bounds how far a gap is paged back. */
static void seen_note(mx_net *n, const char *event)
{
    if (event == NULL || event[0] == '\0' || strlen(event) >= MX_ID_MAX)
        return;
    if (n->send.nseen == n->send.seen_cap) {
        int cap = n->send.seen_cap ? n->send.seen_cap * 2 : 16;
        char(*p)[MX_ID_MAX] =
            cap <= MX_SEEN_PENDING_MAX ? realloc(n->send.seen, (size_t)cap * sizeof *p) : NULL;
        if (p == NULL)
            return;
        n->send.seen = p;
        n->send.seen_cap = cap;
    }
    snprintf(n->send.seen[n->send.nseen++], MX_ID_MAX, "%s", event);
}

int mx__send_flush(mx_net *n)
{
    if (outq_done_pending(n->send.q) == 0 && n->send.nseen == 0)
        return 0;
    int rc = outq_flush_done_seen(n->send.q, n->send.nseen > 0 ? n->send.seen[0] : NULL,
                                  sizeof n->send.seen[0], n->send.nseen, (int64_t)time(NULL));
    if (rc == 0)
        n->send.nseen = 0;
    return rc;
}

/* The store refused (what): no outbox read or write before a back-off. */
static void store_refused(mx_net *n, const char *what, int rc)
{
    int64_t delay = mx__backoff_next(n, &n->send.store_backoff);
    n->send.store_hold_ms = loop_now(n->env.loop) + delay;
    log_msg(outq_err_transient(rc) ? LOG_WARN : LOG_ERROR,
            "%s: cannot %s: %s; trying again in %lld ms", n->c.name, what, outq_errmsg(n->send.q),
            (long long)delay);
    (void)loop_timer_start(&n->send.wake, delay, 0);
}

void mx__on_wake(loop_timer *t, void *arg)
{
    (void)t, (void)arg; /* the loop's next turn runs mx__send_turn */
}

void mx__on_unpark(loop_timer *t, void *arg)
{
    (void)t;
    mx__send_unpark(arg);
}

void mx__send_unpark(mx_net *n)
{
    outq_unpark_all(n->send.q);
}

/* ---- Which messages may go ---------------------------------------------------- */

/*
 * outq's ready callback: where m goes (into n->send.ready_room) and whether it
 * may go now. A player without a direct room: one is made and the queue
 * parked; a room being joined: parked; nowhere to go: dropped (logged).
 */
static outq_verdict ready(void *arg, const outq_msg *m)
{
    mx_net *n = arg;
    char *room = n->send.ready_room;
    room[0] = '\0';
    if (m->kind == MSG_ROOM) {
        snprintf(room, MX_ID_MAX, "%s", m->target);
    } else if (mx__dm_failed(n, m->target)) {
        log_msg(LOG_WARN, "%s: dropping a private message to %s: no direct room", n->c.name,
                m->target);
        return OUTQ_DROP;
    } else {
        mx__dm_room(n, m->target, room, MX_ID_MAX);
        if (room[0] == '\0' && m->target[0] == '@') {
            mx__dm_make(n, m->target);
            return OUTQ_PARK;
        }
    }
    if (room[0] != '!') {
        log_msg(LOG_WARN, "%s: dropping a message to %s: not a room id", n->c.name,
                room[0] != '\0' ? room : m->target);
        return OUTQ_DROP;
    }
    if (mx__call_find(n, MX_CALL_JOIN, room, NULL) != NULL)
        return OUTQ_PARK; /* sent once the bot is in */
    mx_room *r = mx__room(n, room, false);
    if (r != NULL && r->encrypted && m->kind == MSG_PRIVATE && n->e2e.olm == NULL) {
        log_msg(LOG_WARN, "%s: dropping a private message to %s: %s is encrypted", n->c.name,
                m->target, room);
        return OUTQ_DROP; /* never a hand in an encrypted room */
    }
    if (r != NULL && r->forbidden)
        return OUTQ_DROP; /* said once (forbidden), until its power levels change */
    return OUTQ_SEND;
}

/* ---- Threads ---------------------------------------------------------------- */

void mx__thread_note(mx_net *n, mx_room *r, const char *thread, const char *id, int64_t lo,
                     int64_t hi)
{
    if (thread == NULL) {
        r->thread[0] = '\0';
        return;
    }
    snprintf(r->thread, sizeof r->thread, "%s", thread);
    snprintf(r->reply_to, sizeof r->reply_to, "%s", id);
    r->thread_lo = lo;
    r->thread_hi = hi;
    r->thread_ms = loop_now(n->env.loop);
}

/* The room whose thread m answers in (a reply to the command said there,
   not a game's announcement), or NULL: m goes to the main timeline. */
static mx_room *thread_of(mx_net *n, const outq_msg *m)
{
    mx_room *r = m->kind == MSG_ROOM ? mx__room(n, m->target, false) : NULL;
    if (r == NULL || r->thread[0] == '\0' || (unsigned char)m->raw[0] == 0xFF)
        return NULL;
    bool caused = m->id > r->thread_lo && m->id <= r->thread_hi;
    bool soon = m->id < 0 && loop_now(n->env.loop) - r->thread_ms < MX_THREAD_VOLATILE_MS;
    return caused || soon ? r : NULL;
}

/* content (an event's JSON) with an m.thread relation to r's thread, as a
   reply to its command; malloc'd, or NULL (out of memory). */
static char *in_thread(const char *content, const mx_room *r)
{
    json_object *c = mx__parse(content, strlen(content)), *rel = json_object_new_object();
    json_object *reply = json_object_new_object();
    char *out = NULL;
    if (c != NULL && rel != NULL && reply != NULL) {
        json_object_object_add(reply, "event_id", json_object_new_string(r->reply_to));
        json_object_object_add(rel, "rel_type", json_object_new_string("m.thread"));
        json_object_object_add(rel, "event_id", json_object_new_string(r->thread));
        json_object_object_add(rel, "is_falling_back", json_object_new_boolean(1));
        json_object_object_add(rel, "m.in_reply_to", json_object_get(reply));
        json_object_object_add(c, "m.relates_to", json_object_get(rel));
        const char *s = json_object_to_json_string_ext(c, JSON_C_TO_STRING_PLAIN |
                                                              JSON_C_TO_STRING_NOSLASHESCAPE);
        out = s != NULL ? strdup(s) : NULL;
    }
    json_object_put(reply);
    json_object_put(rel);
    json_object_put(c);
    return out;
}

/* ---- One event per turn ------------------------------------------------------ */

/* A growing text for the expander, at most MX_MERGE_TEXT_MAX bytes. */
typedef struct merge_buf {
    char *s;
    size_t len;
} merge_buf;

/* Appends "\n" (unless first) and piece; false when it would pass the cap
   (unless `any`) or memory is short (the text is unchanged then). */
static bool merge_add(merge_buf *b, const char *piece, bool any)
{
    size_t add = strlen(piece) + (b->len > 0 ? 1 : 0);
    if (!any && b->len + add > MX_MERGE_TEXT_MAX)
        return false;
    char *p = realloc(b->s, b->len + add + 1);
    if (p == NULL)
        return false;
    b->s = p;
    if (b->len > 0)
        b->s[b->len++] = '\n';
    memcpy(b->s + b->len, piece, strlen(piece) + 1);
    b->len += strlen(piece);
    return true;
}

/* The message k places after m in its target's list (NULL: none). */
static const outq_msg *msg_after(const outq_msg *m, int k)
{
    for (; m != NULL && k > 0; k--)
        m = m->next;
    return m;
}

/*
 * How many messages m told besides itself when it was sent before (kv
 * "merge:TARGET" = "TXN N", written before each send, so that a restart
 * sends the same lines again under the same transaction id, which the
 * homeserver answers from its cache, rather than posting them twice in
 * another grouping), or -1 when it was not sent.
 */
static int merged_before(mx_net *n, const outq_msg *m)
{
    char key[MX_ID_MAX + 16], value[64];
    size_t tl = strlen(m->txn);
    if (snprintf(key, sizeof key, "merge:%s", m->target) >= (int)sizeof key ||
        mx__kv_get(n, key, value, sizeof value) != 0 || strncmp(value, m->txn, tl) != 0 ||
        value[tl] != ' ')
        return -1;
    char *end;
    long v = strtol(value + tl + 1, &end, 10);
    return *end == '\0' && v >= 0 && v <= 63 ? (int)v : -1;
}

/* Notes, before m is sent, how many messages its text tells (see merged_before). */
static void merged_note(mx_net *n, const outq_msg *m)
{
    char key[MX_ID_MAX + 16], value[64];
    if (snprintf(key, sizeof key, "merge:%s", m->target) < (int)sizeof key &&
        snprintf(value, sizeof value, "%s %d", m->txn, m->nmerged) < (int)sizeof value)
        mx__kv_set(n, key, value);
}

/*
 * The queue's expander (outq_set_expander): the host renders m
 * (host_expand), then every message waiting behind it for the same target
 * and priority is rendered too and told in the same text, one line after
 * the other, up to MX_MERGE_TEXT_MAX bytes and 63 messages (outq's
 * bound), so what one command makes for a room goes as one event and a
 * rate limit counts it once. A message the host finds obsolete is merged
 * without a line (it leaves the queue with m, unwritten, as a drop would).
 */
static outq_expand_result merge_expand(void *arg, const outq_msg *m, char **text, int *merged)
{
    mx_net *n = arg;
    char *t = NULL;
    int k = 0, total, forced = merged_before(n, m);
    outq_expand_result r = host_expand(n->env.host, m, &t, &k);
    if (r == OUTQ_EXPAND_DROP)
        return r;
    merge_buf b = {NULL, 0};
    if (!merge_add(&b, r == OUTQ_EXPAND_TEXT ? t : m->raw, true)) {
        *text = t, *merged = k;
        return r;
    }
    free(t);
    total = k;
    mx_room *thread = thread_of(n, m);
    for (const outq_msg *x = msg_after(m->next, k); x != NULL && total < 63;) {
        if ((forced >= 0 && total >= forced) || (forced < 0 && thread_of(n, x) != thread))
            break; /* an answer in a thread and an announcement go apart */
        char *xt = NULL;
        int xk = 0;
        outq_expand_result xr = host_expand(n->env.host, x, &xt, &xk);
        if (xr == OUTQ_EXPAND_DROP)
            xk = 0;
        const char *piece = xr == OUTQ_EXPAND_TEXT ? xt : x->raw;
        bool fits =
            total + 1 + xk <= 63 && (xr == OUTQ_EXPAND_DROP || merge_add(&b, piece, forced >= 0));
        free(xt);
        if (!fits)
            break;
        total += 1 + xk;
        x = msg_after(x->next, xk);
    }
    *text = b.s;
    *merged = total;
    return OUTQ_EXPAND_TEXT;
}

void mx__send_init(mx_net *n)
{
    if (n->env.host != NULL)
        outq_set_expander(n->send.q, merge_expand, n);
}

/* Whether raw (a message as stored) is a turn prompt or reminder of the
   host's (the header "\xFFG<game>:P<seat>\xFF" or ":R", bot/host/live.c). */
static bool prompt_raw(const char *raw)
{
    if ((unsigned char)raw[0] != 0xFF || raw[1] != 'G')
        return false;
    size_t i = 2 + strspn(raw + 2, "0123456789");
    return raw[i] == ':' && (raw[i + 1] == 'P' || raw[i + 1] == 'R');
}

/* The message type of m: m.text for a private turn prompt when notify_turn
   is on (clients notify it), else m.notice. */
static const char *msgtype_of(const mx_net *n, const outq_msg *m)
{
    if (!n->c.notify_turn || m->kind != MSG_PRIVATE)
        return "m.notice";
    for (const outq_msg *k = m; k != NULL; k = k->merged)
        if (prompt_raw(k->raw))
            return "m.text";
    return "m.notice";
}

/* ---- Sending ------------------------------------------------------------------ */

/* The seats of the room's game, as people a text may name; *np how many. */
static void game_people(mx_net *n, const char *room, host_player *seats, mx_person *people, int *np)
{
    int ns = 0;
    *np = 0;
    if (host_room_players(n->env.host, n->c.name, room, seats, 8, &ns) == 1) {
        for (int i = 0; i < ns; i++)
            people[i] = (mx_person){seats[i].nick, seats[i].id};
        *np = ns;
    }
}

/* Frees flight f: its message was sent (its last event's id: event) or
   dropped (event NULL), and is marked sent either way. */
static void flight_done(mx_net *n, mx_flight *f, const char *event)
{
    seen_note(n, event);
    outq_sent(n->send.q, f->m);
    f->m = NULL;
}

/* The URL of part of flight f (an event of type) into url. 0 or -1 (too long). */
static int send_url(mx_net *n, const mx_flight *f, const char *type, char *url, size_t cap)
{
    char txn[64], etxn[3 * sizeof txn], room[3 * MX_ID_MAX], path[MX_URL_MAX];
    char merged[16] = "";
    if (f->m->nmerged > 0) /* another text than a send of the bare message */
        snprintf(merged, sizeof merged, "+%d", f->m->nmerged);
    int k = f->part > 0 ? snprintf(txn, sizeof txn, "%s%s.%d", f->m->txn, merged, f->part)
                        : snprintf(txn, sizeof txn, "%s%s", f->m->txn, merged);
    if (k < 0 || (size_t)k >= sizeof txn || mx__enc(f->room, room, sizeof room) != 0 ||
        mx__enc(txn, etxn, sizeof etxn) != 0)
        return -1;
    k = snprintf(path, sizeof path, "/rooms/%s/send/%s/%s", room, type, etxn);
    if (k < 0 || (size_t)k >= sizeof path)
        return -1;
    return mx__url(n, url, cap, path);
}

/*
 * Starts sending flight f's next event. A text that cannot be formatted or
 * addressed is dropped (logged). Returns 0 when a request carries it or
 * it is over, -1 when no request can be made now (f keeps it: the next
 * turn tries again).
 */
static int flight_go(mx_net *n, mx_flight *f)
{
    const outq_msg *m = f->m;
    host_player seats[8];
    mx_person people[8];
    int np = 0;
    mx_format_out out = {0};
    char url[MX_URL_MAX];
    /* an encrypted room: sent encrypted once its key is with every device
       (asked for meanwhile: the flight waits, other rooms go on), never in
       clear while encryption is being set up */
    mx_room *er = mx__room(n, f->room, true); /* made from the kv after a restart */
    bool encrypt = n->e2e.olm != NULL && (er == NULL || er->encrypted);
    if (encrypt && (er == NULL || mx__e2ee_room_ready(n, er) != 1))
        return 0; /* er NULL: unknown whether it is encrypted: never sent in clear */
    if (m->kind == MSG_ROOM)
        game_people(n, f->room, seats, people, &np);
    char *text = mx__room_names_in(n, m->text);
    /* a room's "set colours off" (from the host's memory, per event) */
    bool colours = m->kind != MSG_ROOM || n->env.host == NULL ||
                   host_room_colours(n->env.host, n->c.name, m->target);
    int err = text == NULL ? MX_FORMAT_ENO_MEMORY
                           : mx_format_message(msgtype_of(n, m), colours, text, strlen(text),
                                               people, np, MX_FORMAT_CONTENT_MAX, &out);
    free(text);
    if (err != 0 ||
        send_url(n, f, encrypt ? "m.room.encrypted" : "m.room.message", url, sizeof url) != 0) {
        log_msg(LOG_ERROR, "%s: dropping message %lld to %s: %s", n->c.name, (long long)m->id,
                f->room, err != 0 ? mx_format_strerror(err) : "its address is too long");
        mx_format_out_fini(&out);
        flight_done(n, f, NULL);
        return 0;
    }
    int parts = out.n;
    mx_room *thread = f->part < parts ? thread_of(n, m) : NULL;
    char *threaded = thread != NULL ? in_thread(out.content[f->part], thread) : NULL;
    const char *content =
        f->part < parts ? (threaded != NULL ? threaded : out.content[f->part]) : NULL;
    char *sealed =
        content != NULL && encrypt ? mx__e2ee_encrypt(n, er, "m.room.message", content) : NULL;
    if (content != NULL && encrypt && sealed == NULL) {
        free(threaded);
        mx_format_out_fini(&out);
        log_msg(LOG_ERROR, "%s: cannot encrypt message %lld for %s; trying again", n->c.name,
                (long long)m->id, f->room);
        return -1;
    }
    mx_call *c = content != NULL ? mx__call_new(n, MX_CALL_SEND, "PUT", url,
                                                sealed != NULL ? sealed : content, true)
                                 : NULL;
    free(sealed);
    free(threaded);
    mx_format_out_fini(&out);
    if (f->part >= parts) {
        flight_done(n, f, NULL); /* nothing left to send */
        return 0;
    }
    if (c == NULL)
        return -1;
    if (f->part == 0)
        merged_note(n, m);
    snprintf(c->room, sizeof c->room, "%s", f->room);
    c->msg = m->id;
    c->part = f->part;
    c->flags = parts;
    mx__call_go(n, c);
    return 0;
}

/* The flight of message id, or NULL. */
static mx_flight *flight_of(mx_net *n, int64_t id)
{
    for (int i = 0; i < MX_SENDS_MAX; i++)
        if (n->send.flights[i].m != NULL && n->send.flights[i].m->id == id)
            return &n->send.flights[i];
    return NULL;
}

/* Whether a SEND call (live or waiting to be retried) carries message id. */
static bool carried(mx_net *n, int64_t id)
{
    for (int i = 0; i < MX_CALLS_MAX; i++)
        if (n->calls[i].used && n->calls[i].kind == MX_CALL_SEND && n->calls[i].msg == id)
            return true;
    return false;
}

/*
 * Starts the flights no request carries (none could be made earlier), then
 * takes new messages into free slots. Stops when no request can be made.
 */
static void send_more(mx_net *n)
{
    for (int i = 0; i < MX_SENDS_MAX; i++) {
        mx_flight *f = &n->send.flights[i];
        if (f->m != NULL && !carried(n, f->m->id) && flight_go(n, f) != 0)
            return;
    }
    for (int i = 0; i < MX_SENDS_MAX; i++) {
        mx_flight *f = &n->send.flights[i];
        if (f->m != NULL)
            continue;
        outq_msg *m = outq_take(n->send.q, ready, n);
        if (m == NULL)
            return;
        f->m = m;
        f->part = 0;
        snprintf(f->room, sizeof f->room, "%s", n->send.ready_room);
        if (flight_go(n, f) != 0)
            return;
    }
}

/*
 * A room refused a message (403: the bot may not speak there, or is no
 * longer in it): its messages are dropped from now on, until its power
 * levels change, rather than tried one by one for ever; the players of its
 * game are told once, privately, and the log says so at warning.
 */
static void forbidden(mx_net *n, const char *room)
{
    mx_room *r = mx__room(n, room, true);
    if (r == NULL || r->forbidden)
        return;
    mx__forbidden_set(n, r, true);
    log_msg(LOG_WARN,
            "%s: %s refuses the bot's messages: nothing more is sent there until its "
            "power levels change",
            n->c.name, room);
    host_player seats[8];
    int ns = 0;
    char text[512], where[MX_ID_MAX + 64];
    mx__room_label(n, room, where, sizeof where);
    if (host_room_players(n->env.host, n->c.name, room, seats, 8, &ns) == 1)
        for (int i = 0; i < ns; i++) { /* each in their own language */
            pz_lang before =
                i18n_use(host_reader_lang(n->env.host, n->c.name, seats[i].id, MSG_PRIVATE));
            snprintf(text, sizeof text,
                     _("I can no longer speak in %s (the room's permissions refuse my messages): "
                       "the game there waits until a moderator lets me speak again."),
                     where);
            i18n_use(before);
            (void)mx__say(n, NULL, seats[i].id, text);
        }
}

void mx__on_send(mx_net *n, mx_call *c, int status, json_object *body)
{
    mx_flight *f = flight_of(n, c->msg);
    if (f == NULL)
        return;
    const char *event = mx__str(body, "event_id");
    if (status == 200 && event != NULL) {
        if (c->part + 1 < c->flags) {
            f->part = c->part + 1;
            (void)flight_go(n, f); /* else the next turn */
            return;
        }
        flight_done(n, f, event);
        return;
    }
    const char *err = mx__str(body, "error"), *code = mx__str(body, "errcode");
    char user[MX_ID_MAX];
    mx__dm_user(n, c->room, user, sizeof user);
    if ((status == 403 || status == 404) && user[0] != '\0' && n->send.rerouted != c->msg) {
        log_msg(LOG_WARN,
                "%s: the direct room %s of %s refused a message (HTTP %d %s): "
                "making a new one",
                n->c.name, c->room, user, status, code != NULL ? code : "");
        n->send.rerouted = c->msg;
        mx__dm_forget(n, user, c->room);
        outq_untake(n->send.q, f->m); /* taken again once the new room is made */
        f->m = NULL;
        return;
    }
    log_msg(LOG_WARN, "%s: dropping message %lld to %s: HTTP %d %s: %s", n->c.name,
            (long long)c->msg, c->room, status, code != NULL ? code : "", err != NULL ? err : "");
    if (status == 403 && user[0] == '\0')
        forbidden(n, c->room);
    flight_done(n, f, NULL);
}

void mx__send_turn(mx_net *n)
{
    bool sending = n->phase == MX_PH_SYNC && n->authed && !n->quitting;
    bool store_ok = loop_now(n->env.loop) >= n->send.store_hold_ms;
    int more = 0;
    if (sending && store_ok && (more = outq_load(n->send.q)) < 0) {
        store_refused(n, "read the outbox", more);
        store_ok = false;
    }
    if (sending)
        send_more(n);
    if (!store_ok)
        return;
    int rc = mx__send_flush(n);
    if (rc != 0) {
        store_refused(n, "mark the messages sent (none is sent again meanwhile)", rc);
        return;
    }
    n->send.store_backoff.next_ms = 0;
    if (more == 1)
        (void)loop_timer_start(&n->send.wake, 0, 0); /* a backlog bigger than one load */
}
