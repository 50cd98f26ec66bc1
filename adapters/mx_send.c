/*
 * mx_send.c — the host's outbox to the homeserver: one ordered queue per
 * room, derived afresh from the outbox before each sleep (the outbox is the
 * queue: nothing is held in memory that a crash could lose), so the head
 * of a room is its first message in outbox order (priority, then id). Each
 * room has at most one PUT /rooms/{room}/send/m.room.message/{txn} on the
 * wire; txn is the outbox row's own transaction id (".1", ".2"... for the
 * further parts of a message too large for one event), so the homeserver
 * answers a repeat — after an error, a lost answer or a restart — with the
 * event it already has. A message is marked sent, and its event id recorded
 * as seen, in one transaction, only after the 200 with the event id.
 *
 * Private messages go to the player's direct room; when there is none yet,
 * one is made (createRoom, is_direct, trusted_private_chat, the player
 * invited) and recorded, and the player's messages wait in the outbox
 * meanwhile. A final 4xx drops the message (logged), so one bad message
 * never blocks a room; a direct room that refuses the bot (it left, the
 * room is gone) is forgotten once and a new one made. Not here: retries
 * and back-off (mx.c's engine), formatting (mx_format.c).
 */
#include "mx_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mx_format.h"

int mx__say(mx_net *n, const char *room, const char *user, const char *text)
{
    store_msg_kind kind = room != NULL ? STORE_MSG_ROOM : STORE_MSG_PRIVATE;
    int r = store_outbox_add(n->env.store, n->c.name, room != NULL ? room : user, kind, 0, text,
                             (int64_t)time(NULL), NULL);
    if (r != 0)
        log_msg(LOG_ERROR, "%s: cannot queue a message: %s", n->c.name, store_errmsg(n->env.store));
    return r;
}

/* Marks outbox message id sent, with the event it became (may be NULL). */
static void outbox_done(mx_net *n, int64_t id, const char *event)
{
    store *st = n->env.store;
    bool fresh;
    if (store_begin(st) == 0) {
        if (store_outbox_done(st, id) == 0 &&
            (event == NULL ||
             store_seen_add(st, n->c.name, event, (int64_t)time(NULL), &fresh) == 0) &&
            store_commit(st) == 0)
            return;
        store_rollback(st);
    }
    log_msg(LOG_ERROR, "%s: cannot mark message %lld sent: %s", n->c.name, (long long)id,
            store_errmsg(st));
}

static bool dm_failed(mx_net *n, const char *user)
{
    for (int i = 0; i < n->ndm_failed; i++)
        if (strcmp(n->dm_failed[i], user) == 0)
            return true;
    return false;
}

/* ---- Direct rooms ---------------------------------------------------------- */

/* Starts making user's direct room, unless that is under way. */
static void make_dm(mx_net *n, const char *user)
{
    char url[MX_URL_MAX];
    if (mx__call_find(n, MX_CALL_CREATE_DM, NULL, user) != NULL ||
        mx__url(n, url, sizeof url, "/createRoom") != 0)
        return;
    json_object *b = json_object_new_object(), *inv = json_object_new_array();
    if (b == NULL || inv == NULL) {
        json_object_put(b);
        json_object_put(inv);
        return;
    }
    json_object_array_add(inv, json_object_new_string(user));
    json_object_object_add(b, "preset", json_object_new_string("trusted_private_chat"));
    json_object_object_add(b, "is_direct", json_object_new_boolean(1));
    json_object_object_add(b, "invite", inv);
    json_object_object_add(b, "topic", json_object_new_string("Porrazo: your private hands"));
    mx_call *c = mx__call_new(n, MX_CALL_CREATE_DM, "POST", url,
                              json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN), true);
    json_object_put(b);
    if (c == NULL)
        return;
    snprintf(c->user, sizeof c->user, "%s", user);
    log_msg(LOG_INFO, "%s: making a direct room for %s", n->c.name, user);
    mx__call_go(n, c);
}

void mx__on_create_dm(mx_net *n, mx_call *c, int status, json_object *body)
{
    const char *room = mx__str(body, "room_id");
    if (status == 200 && room != NULL && strlen(room) < MX_ID_MAX) {
        log_msg(LOG_INFO, "%s: %s is the direct room of %s", n->c.name, room, c->user);
        mx__dm_set(n, c->user, room);
        return;
    }
    const char *err = mx__str(body, "error");
    log_msg(LOG_ERROR,
            "%s: cannot make a direct room for %s (HTTP %d: %s): their private "
            "messages are dropped",
            n->c.name, c->user, status, err != NULL ? err : "");
    char(*p)[MX_ID_MAX] = realloc(n->dm_failed, (size_t)(n->ndm_failed + 1) * sizeof *p);
    if (p == NULL)
        return;
    n->dm_failed = p;
    snprintf(n->dm_failed[n->ndm_failed++], MX_ID_MAX, "%s", c->user);
}

/* ---- Sending ------------------------------------------------------------------ */

/* The seats of the room's game, as people a text may name; *np how many. */
static void game_people(mx_net *n, const char *room, store_seat *seats, mx_person *people, int *np)
{
    store_game g = {0};
    int ns = 0;
    *np = 0;
    if (store_game_active(n->env.store, n->c.name, room, &g) == 0 &&
        store_seats_get(n->env.store, g.id, seats, 8, &ns) == 0) {
        for (int i = 0; i < ns; i++)
            people[i] = (mx_person){seats[i].nick, seats[i].player};
        *np = ns;
    }
    store_game_fini(&g);
}

/* Starts sending message m (its next part) to room r. */
static void send_message(mx_net *n, mx_room *r, const store_msg *m)
{
    store_seat seats[8];
    mx_person people[8];
    int np = 0;
    mx_format_out out = {0};
    if (m->kind == STORE_MSG_ROOM)
        game_people(n, r->id, seats, people, &np);
    int err = mx_format_notice(m->text, strlen(m->text), people, np, MX_FORMAT_CONTENT_MAX, &out);
    if (err != 0) {
        log_msg(LOG_ERROR, "%s: dropping message %lld to %s: %s", n->c.name, (long long)m->id,
                r->id, mx_format_strerror(err));
        outbox_done(n, m->id, NULL);
        return;
    }
    int part = r->msg == m->id ? r->next_part : 0;
    char txn[64], path[MX_URL_MAX], url[MX_URL_MAX], room[3 * MX_ID_MAX], etxn[3 * 64];
    if (part > 0)
        snprintf(txn, sizeof txn, "%s.%d", m->txn, part);
    else
        snprintf(txn, sizeof txn, "%s", m->txn);
    mx_call *c = NULL;
    if (part < out.n && mx__enc(r->id, room, sizeof room) == 0 &&
        mx__enc(txn, etxn, sizeof etxn) == 0 &&
        snprintf(path, sizeof path, "/rooms/%s/send/m.room.message/%s", room, etxn) <
            (int)sizeof path &&
        mx__url(n, url, sizeof url, path) == 0)
        c = mx__call_new(n, MX_CALL_SEND, "PUT", url, out.content[part], true);
    int parts = out.n;
    mx_format_out_fini(&out);
    if (c == NULL) {
        if (part >= parts)
            outbox_done(n, m->id, NULL);
        return;
    }
    snprintf(c->room, sizeof c->room, "%s", r->id);
    c->msg = m->id;
    c->part = part;
    c->flags = parts;
    r->sending = true;
    r->msg = m->id;
    r->next_part = part;
    mx__call_go(n, c);
}

void mx__on_send(mx_net *n, mx_call *c, int status, json_object *body)
{
    mx_room *r = mx__room(n, c->room, false);
    const char *event = mx__str(body, "event_id");
    if (r != NULL)
        r->sending = false;
    if (status == 200 && event != NULL) {
        if (c->part + 1 < c->flags && r != NULL) {
            r->next_part = c->part + 1; /* the hook sends the next part */
            return;
        }
        outbox_done(n, c->msg, strlen(event) < MX_ID_MAX ? event : NULL);
        if (r != NULL && r->msg == c->msg)
            r->msg = r->next_part = 0;
        return;
    }
    const char *err = mx__str(body, "error"), *code = mx__str(body, "errcode");
    char user[MX_ID_MAX];
    mx__dm_user(n, c->room, user, sizeof user);
    if ((status == 403 || status == 404) && user[0] != '\0' && n->rerouted != c->msg) {
        log_msg(LOG_WARN,
                "%s: the direct room %s of %s refused a message (HTTP %d %s): "
                "making a new one",
                n->c.name, c->room, user, status, code != NULL ? code : "");
        n->rerouted = c->msg;
        mx__dm_forget(n, user, c->room);
        if (r != NULL)
            r->msg = r->next_part = 0;
        return;
    }
    log_msg(LOG_WARN, "%s: dropping message %lld to %s: HTTP %d %s: %s", n->c.name,
            (long long)c->msg, c->room, status, code != NULL ? code : "", err != NULL ? err : "");
    outbox_done(n, c->msg, NULL);
    if (r != NULL && r->msg == c->msg)
        r->msg = r->next_part = 0;
}

void mx__send_pull(mx_net *n)
{
    int sends = 0, got = 0;
    for (int i = 0; i < MX_CALLS_MAX; i++)
        sends += n->calls[i].used && n->calls[i].kind == MX_CALL_SEND;
    if (sends >= MX_SENDS_MAX)
        return;
    if (n->peek == NULL && (n->peek = malloc(sizeof *n->peek * MX_PEEK_MAX)) == NULL)
        return;
    store_msg *msgs = n->peek;
    if (store_outbox_peek(n->env.store, n->c.name, msgs, MX_PEEK_MAX, &got) != 0)
        log_msg(LOG_ERROR, "%s: cannot read the outbox: %s", n->c.name, store_errmsg(n->env.store));
    n->pass++;
    for (int i = 0; i < got && sends < MX_SENDS_MAX; i++) {
        const store_msg *m = &msgs[i];
        char room[MX_ID_MAX] = "";
        if (m->kind == STORE_MSG_ROOM) {
            snprintf(room, sizeof room, "%s", m->target);
        } else if (dm_failed(n, m->target)) {
            log_msg(LOG_WARN, "%s: dropping a private message to %s: no direct room", n->c.name,
                    m->target);
            outbox_done(n, m->id, NULL);
            continue;
        } else {
            mx__dm_room(n, m->target, room, sizeof room);
            if (room[0] == '\0') {
                if (m->target[0] == '@')
                    make_dm(n, m->target);
                else
                    outbox_done(n, m->id, NULL);
                continue;
            }
        }
        if (mx__call_find(n, MX_CALL_JOIN, room, NULL) != NULL)
            continue; /* sent once the bot is in */
        mx_room *r = room[0] == '!' ? mx__room(n, room, true) : NULL;
        if (r == NULL && room[0] != '!') {
            log_msg(LOG_WARN, "%s: dropping a message to %s: not a room id", n->c.name, room);
            outbox_done(n, m->id, NULL);
            continue;
        }
        if (r == NULL || r->pass == n->pass)
            continue; /* not the head of its room */
        r->pass = n->pass;
        if (r->sending)
            continue;
        send_message(n, r, m);
        sends++;
    }
}
