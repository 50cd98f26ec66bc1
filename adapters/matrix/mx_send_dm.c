/*
 * mx_send_dm.c — the direct rooms the outbox makes for players (see
 * mx_send.c): createRoom with the player invited (encrypted when the
 * bot's device is ready, as Element makes them), MX_DMS_MAX at once, the
 * room's encryption checked when the bot cannot serve it, and the players
 * whose direct room could not be made (their private messages dropped).
 */
#include "mx_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "log.h"
bool mx__dm_failed(mx_net *n, const char *user)
{
    for (int i = 0; i < n->send.ndm_failed; i++)
        if (strcmp(n->send.dm_failed[i], user) == 0)
            return true;
    return false;
}

void mx__dm_make(mx_net *n, const char *user)
{
    char url[MX_URL_MAX];
    int making = 0;
    for (int i = 0; i < MX_CALLS_MAX; i++)
        making += n->calls[i].used && n->calls[i].kind == MX_CALL_CREATE_DM;
    if (mx__call_find(n, MX_CALL_CREATE_DM, NULL, user) != NULL ||
        mx__call_find(n, MX_CALL_DM_CHECK, NULL, user) != NULL || making >= MX_DMS_MAX)
        return;
    mx_call *c = NULL;
    json_object *b = json_object_new_object(), *inv = json_object_new_array();
    if (b != NULL && inv != NULL && mx__url(n, url, sizeof url, "/createRoom") == 0) {
        json_object_array_add(inv, json_object_new_string(user));
        json_object_object_add(b, "preset", json_object_new_string("trusted_private_chat"));
        json_object_object_add(b, "is_direct", json_object_new_boolean(1));
        json_object_object_add(b, "invite", json_object_get(inv));
        json_object_object_add(b, "topic", json_object_new_string("Porrazo: your private hands"));
        if (n->e2e.ready) { /* encrypted, as Element makes direct rooms */
            json_object *st = json_object_new_array(), *ev = json_object_new_object(),
                        *ct = json_object_new_object();
            json_object_object_add(ct, "algorithm", json_object_new_string("m.megolm.v1.aes-sha2"));
            json_object_object_add(ev, "type", json_object_new_string("m.room.encryption"));
            json_object_object_add(ev, "state_key", json_object_new_string(""));
            json_object_object_add(ev, "content", ct);
            json_object_array_add(st, ev);
            json_object_object_add(b, "initial_state", st);
        }
        c = mx__call_new(n, MX_CALL_CREATE_DM, "POST", url,
                         json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN), true);
    }
    json_object_put(b);
    json_object_put(inv);
    if (c == NULL) {
        (void)loop_timer_start(&n->send.unpark, MX_UNPARK_MS, 0);
        return;
    }
    snprintf(c->user, sizeof c->user, "%s", user);
    log_msg(LOG_INFO, "%s: making a direct room for %s", n->c.name, user);
    mx__call_go(n, c);
}

/* Adds user to the players whose private messages are dropped. */
static void dm_fail(mx_net *n, const char *user)
{
    char(*p)[MX_ID_MAX] = realloc(n->send.dm_failed, (size_t)(n->send.ndm_failed + 1) * sizeof *p);
    if (p == NULL || mx__dm_failed(n, user)) {
        if (p != NULL)
            n->send.dm_failed = p;
        return;
    }
    n->send.dm_failed = p;
    snprintf(n->send.dm_failed[n->send.ndm_failed++], MX_ID_MAX, "%s", user);
}

/*
 * Asks whether the direct room just made for user is encrypted (a server
 * that encrypts private rooms by default does so whatever the bot asked):
 * GET its m.room.encryption state. The player's queue stays parked until
 * the answer. When no request can be made, the room is taken as it is
 * known (the sync's state marks it encrypted otherwise).
 */
static void dm_check(mx_net *n, const char *user, const char *room)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], enc[3 * MX_ID_MAX];
    mx_call *c = NULL;
    if (mx__enc(room, enc, sizeof enc) == 0 &&
        snprintf(path, sizeof path, "/rooms/%s/state/m.room.encryption/", enc) < (int)sizeof path &&
        mx__url(n, url, sizeof url, path) == 0)
        c = mx__call_new(n, MX_CALL_DM_CHECK, "GET", url, NULL, true);
    if (c == NULL) {
        mx__dm_set(n, user, room);
        return;
    }
    snprintf(c->room, sizeof c->room, "%s", room);
    snprintf(c->user, sizeof c->user, "%s", user);
    mx__call_go(n, c);
}

/* host_player_rooms's callback: tells the game's room, once, that hands
   cannot be delivered on this server. */
static int tell_game_room(void *arg, const char *room)
{
    (void)mx__unreachable(arg, "", room);
    return 0;
}

void mx__on_dm_check(mx_net *n, mx_call *c, int status, json_object *body)
{
    mx_room *r = mx__room(n, c->room, true);
    char key[MX_ID_MAX + 32];
    mx__send_unpark(n);
    (void)body;
    if (status != 200 && (r == NULL || !r->encrypted)) {
        if (status != 404)
            log_msg(LOG_WARN, "%s: cannot read whether %s is encrypted (HTTP %d)", n->c.name,
                    c->room, status);
        log_msg(LOG_INFO, "%s: %s is the direct room of %s", n->c.name, c->room, c->user);
        mx__dm_set(n, c->user, c->room);
        return;
    }
    log_msg(LOG_WARN,
            "%s: the server encrypted the direct room %s made for %s: private hands cannot be "
            "delivered on this server until the bot supports encryption",
            n->c.name, c->room, c->user);
    if (r != NULL)
        r->encrypted = true; /* never sent to; its encryption state says nothing more */
    snprintf(key, sizeof key, "said_encrypted:%s", c->room);
    mx__kv_set(n, key, "1");
    mx__kv_set(n, "e2e_dms", "1");
    dm_fail(n, c->user);
    if (host_player_rooms(n->env.host, n->c.name, c->user, tell_game_room, n) != 0)
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
}

/* host_say writes it in the room's language */
#define E2E_ROOM_TEXT                                                                              \
    N_("Private hands cannot be delivered on this server: it encrypts private rooms, and I "       \
       "cannot send into encrypted rooms yet. Games here need a server that does not encrypt "     \
       "them (or an unencrypted direct room with me).")
#define E2E_UNREACHABLE                                                                            \
    "this server encrypts private rooms, and I cannot send your cards into an encrypted room "     \
    "yet, so I cannot seat you"

const char *mx__unreachable(mx_net *n, const char *user, const char *room)
{
    char v[8], key[MX_ID_MAX + 32], dm[MX_ID_MAX];
    if (n->e2e.olm != NULL || mx__kv_get(n, "e2e_dms", v, sizeof v) != 0)
        return NULL; /* encryption on: encrypted direct rooms are served */
    int ns = 0;
    if (room != NULL && snprintf(key, sizeof key, "said_e2e:%s", room) < (int)sizeof key &&
        mx__kv_get(n, key, v, sizeof v) != 0 &&
        host_room_players(n->env.host, n->c.name, room, NULL, 0, &ns) == 1) {
        mx__kv_set(n, key, "1");
        (void)mx__say(n, room, NULL, E2E_ROOM_TEXT);
    }
    if (user[0] == '\0')
        return NULL;
    mx__dm_room(n, user, dm, sizeof dm);
    return dm[0] == '\0' ? E2E_UNREACHABLE : NULL;
}

void mx__dm_prepare(mx_net *n, const char *room, const char *user)
{
    char dm[MX_ID_MAX], v[8];
    mx__dm_room(n, user, dm, sizeof dm);
    if (dm[0] != '\0' || mx__dm_failed(n, user) ||
        (n->e2e.olm == NULL && mx__kv_get(n, "e2e_dms", v, sizeof v) == 0))
        return;
    host_player seats[8];
    int ns = 0;
    bool seated = false;
    if (host_room_players(n->env.host, n->c.name, room, seats, 8, &ns) == 1)
        for (int i = 0; i < ns && !seated; i++)
            seated = strcmp(seats[i].id, user) == 0;
    if (seated)
        mx__dm_make(n, user);
}

void mx__on_create_dm(mx_net *n, mx_call *c, int status, json_object *body)
{
    const char *room = mx__str(body, "room_id");
    mx__send_unpark(n); /* this player's queue, and any that waited for MX_DMS_MAX */
    if (status == 200 && room != NULL && strlen(room) < MX_ID_MAX && n->e2e.ready) {
        char key[MX_ID_MAX + 32];
        mx_room *r = mx__room(n, room, true);
        if (r != NULL)
            r->encrypted = true; /* made so: its state event may come later */
        snprintf(key, sizeof key, "encrypted:%s", room);
        mx__kv_set(n, key, "1");
        log_msg(LOG_INFO, "%s: %s is the encrypted direct room of %s", n->c.name, room, c->user);
        mx__dm_set(n, c->user, room);
        return;
    }
    if (status == 200 && room != NULL && strlen(room) < MX_ID_MAX) {
        dm_check(n, c->user, room);
        return;
    }
    const char *err = mx__str(body, "error");
    log_msg(LOG_ERROR,
            "%s: cannot make a direct room for %s (HTTP %d: %s): their private "
            "messages are dropped",
            n->c.name, c->user, status, err != NULL ? err : "");
    dm_fail(n, c->user);
}
