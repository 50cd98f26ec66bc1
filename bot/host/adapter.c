/*
 * adapter.c — what the adapters ask of the host besides commands: lines of
 * their own queued with what must land with them, a room that moved (a
 * Matrix upgrade), who sits in a room, the rooms a player plays in, how
 * many moves were made, lines already handled, their own kv values and a
 * player's NOTICE choice. Each call is one store transaction or one read:
 * the adapters never see the store (host.h names it opaque), so what they
 * do to games goes through here, with the host's checks.
 *
 * Not here: commands (host.c, cmd/), the clock (timers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hhost.h"
#include "hprefs.h"
#include "i18n.h"

_Static_assert(HOST_ID_MAX == STORE_ID_MAX, "host.h's ids are the store's");

/* Notes the store's last error for host_errmsg and returns -1. */
static int failed(host *h)
{
    snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
    return -1;
}

/* Rolls the open transaction back, then failed(). */
static int failed_rb(host *h)
{
    snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
    store_rollback(h->st);
    return -1;
}

/*
 * Inside an open transaction: records once (when not NULL) as handled on
 * network at now into *fresh (true when it was not before). 0 or the
 * store_err.
 */
static int note_once(host *h, const char *network, const char *once, int64_t now, bool *fresh)
{
    *fresh = true;
    return once != NULL ? store_seen_add(h->st, network, once, now, fresh) : 0;
}

int host_say(host *h, const host_say_line *l, int64_t now)
{
    bool fresh = false;
    if (store_begin(h->st) != 0)
        return failed(h);
    if (note_once(h, l->network, l->once, now, &fresh) != 0)
        return failed_rb(h);
    if (!fresh) {
        store_rollback(h->st); /* handled before: nothing to do */
        return 0;
    }
    if (l->scope != NULL && store_kv_set(h->st, l->scope, l->key, l->value) != 0)
        return failed_rb(h);
    /* in its reader's language: an adapter's N_() text is looked up here */
    pz_lang before = i18n_use(host_reader_lang(h, l->network, l->target, l->kind));
    const char *text = l->text != NULL ? _(l->text) : NULL;
    i18n_use(before);
    if (text != NULL &&
        store_outbox_add(h->st, l->network, l->target, l->kind, 0, text, now, NULL) != 0)
        return failed_rb(h);
    if (store_commit(h->st) != 0)
        return failed_rb(h);
    return 1;
}

/*
 * Inside an open transaction: moves the active game of old_room to
 * new_room unless new_room has one, *game the id moved (0 none). 0 or the
 * store_err.
 */
static int move_game(host *h, const char *network, const char *old_room, const char *new_room,
                     int64_t *game)
{
    store_game g = {0}, other = {0};
    int rc = store_game_active(h->st, network, old_room, &g);
    *game = 0;
    if (rc == STORE_NOT_FOUND) {
        rc = 0; /* nothing to move */
    } else if (rc == 0) {
        /* 0 when new_room has its own game: the old one stays where it is */
        rc = store_game_active(h->st, network, new_room, &other);
        if (rc == STORE_NOT_FOUND) {
            int k = snprintf(g.room, sizeof g.room, "%s", new_room);
            rc = k < 0 || (size_t)k >= sizeof g.room ? STORE_TOO_BIG : store_game_update(h->st, &g);
            if (rc == 0)
                *game = g.id;
        }
    }
    store_game_fini(&g);
    store_game_fini(&other);
    return rc;
}

int host_room_moved(host *h, const char *network, const char *old_room, const char *new_room,
                    const char *once, const char *text, int64_t now, int64_t *game)
{
    bool fresh = false;
    int64_t moved = 0;
    if (store_begin(h->st) != 0)
        return failed(h);
    if (note_once(h, network, once, now, &fresh) != 0)
        return failed_rb(h);
    if (!fresh) {
        store_rollback(h->st);
        if (game != NULL)
            *game = 0;
        return 0;
    }
    int rc =
        strcmp(old_room, new_room) == 0 ? 0 : move_game(h, network, old_room, new_room, &moved);
    if (rc == STORE_TOO_BIG) {
        store_rollback(h->st);
        snprintf(h->err, sizeof h->err, "a room id longer than %d bytes", STORE_ID_MAX - 1);
        return -1;
    }
    if (rc != 0)
        return failed_rb(h);
    if (text != NULL &&
        store_outbox_add(h->st, network, old_room, MSG_ROOM, 0, text, now, NULL) != 0)
        return failed_rb(h);
    if (store_commit(h->st) != 0)
        return failed_rb(h);
    if (game != NULL)
        *game = moved;
    return 1;
}

int host_room_players(host *h, const char *network, const char *room, host_player *out, int max,
                      int *n)
{
    store_game g = {0};
    store_seat seats[PZ_MAX_PLAYERS];
    int ns = 0;
    *n = 0;
    int rc = store_game_active(h->st, network, room, &g);
    store_game_fini(&g);
    if (rc == STORE_NOT_FOUND)
        return 0;
    if (rc != 0)
        return failed(h);
    if (max <= 0)
        return 1;
    if (store_seats_get(h->st, g.id, seats, PZ_MAX_PLAYERS, &ns) != 0)
        return failed(h);
    for (int i = 0; i < ns && i < max; i++) {
        memcpy(out[i].id, seats[i].player, sizeof out[i].id);
        memcpy(out[i].nick, seats[i].nick, sizeof out[i].nick);
        *n = i + 1;
    }
    return 1;
}

/* host_player_rooms's walk over store_games_of_player. */
typedef struct rooms_walk {
    int (*fn)(void *arg, const char *room);
    void *arg;
    int said; /* fn's non-0 answer, which stopped the walk */
} rooms_walk;

static int each_room(void *arg, int64_t game, const char *room)
{
    rooms_walk *w = arg;
    (void)game;
    return w->said = w->fn(w->arg, room);
}

int host_player_rooms(host *h, const char *network, const char *player,
                      int (*fn)(void *arg, const char *room), void *arg)
{
    rooms_walk w = {fn, arg, 0};
    int rc = store_games_of_player(h->st, network, player, each_room, &w);
    if (w.said != 0)
        return w.said;
    return rc == 0 ? 0 : failed(h);
}

/* host_moves's walk: adds each game's actions to the total. */
typedef struct moves_walk {
    store *st;
    int64_t total;
} moves_walk;

static int add_moves(void *arg, int64_t game, const char *room)
{
    moves_walk *w = arg;
    int k = 0;
    (void)room;
    int rc = store_action_count(w->st, game, &k);
    if (rc == 0)
        w->total += k;
    return rc;
}

int host_moves(host *h, const char *network, const char *room, const char *player, int64_t *count)
{
    moves_walk w = {h->st, 0};
    int rc;
    if (room == NULL) {
        rc = store_games_of_player(h->st, network, player, add_moves, &w);
    } else {
        store_game g = {0};
        rc = store_game_active(h->st, network, room, &g);
        store_game_fini(&g);
        if (rc == 0)
            rc = add_moves(&w, g.id, room);
        else if (rc == STORE_NOT_FOUND)
            rc = 0; /* no game: no moves */
    }
    if (rc != 0)
        return failed(h);
    *count = w.total;
    return 0;
}

int host_seen(host *h, const char *network, const char *id, bool *seen)
{
    return store_seen_has(h->st, network, id, seen) == 0 ? 0 : failed(h);
}

int host_seen_prune(host *h, int64_t before, int *n)
{
    return store_seen_prune(h->st, before, n) == 0 ? 0 : failed(h);
}

/* Whether scope is an adapter's ("KIND:NAME"); else h->err says why. The
   host's own scopes have no colon (hprefs.h, hseats.h, hrooms.h...). */
static bool adapter_scope(host *h, const char *scope)
{
    if (strchr(scope, ':') != NULL)
        return true;
    snprintf(h->err, sizeof h->err, "the kv scope '%s' is the host's own, not an adapter's", scope);
    return false;
}

int host_kv_get(host *h, const char *scope, const char *key, char *value, size_t cap)
{
    if (!adapter_scope(h, scope)) {
        if (cap > 0)
            value[0] = '\0';
        return -1;
    }
    int rc = store_kv_get(h->st, scope, key, value, cap);
    if (rc != 0 && cap > 0)
        value[0] = '\0';
    if (rc == STORE_NOT_FOUND)
        return 1;
    if (rc == STORE_TOO_BIG) {
        snprintf(h->err, sizeof h->err, "%s's %s is longer than %zu bytes", scope, key,
                 cap > 0 ? cap - 1 : 0);
        return -1;
    }
    return rc == 0 ? 0 : failed(h);
}

int host_kv_set(host *h, const char *scope, const char *key, const char *value)
{
    if (!adapter_scope(h, scope))
        return -1;
    if (h->kv_held && !h->kv_open) {
        if (store_begin_relaxed(h->st) != 0)
            return failed(h);
        h->kv_open = true;
    }
    return store_kv_set(h->st, scope, key, value) == 0 ? 0 : failed(h);
}

void host_kv_hold(host *h)
{
    h->kv_held = true;
}

int host_kv_release(host *h)
{
    bool open = h->kv_open;
    h->kv_held = false;
    h->kv_open = false;
    return !open || store_commit(h->st) == 0 ? 0 : failed(h);
}

bool host_wants_notice(host *h, const char *network, const char *player)
{
    return host__prefs_switch(h, network, player, CMD_SETTING_NOTICES);
}
