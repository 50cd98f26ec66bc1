/*
 * game.c — the game of a room as one call holds it: loaded from the store
 * (its row, seats, settings and engine state), saved back with the time
 * the clock next needs it, and the seats looked up by player or name.
 * A restored game is kept beside its row in the store's game cache, or,
 * when the cache keeps no such row (one read in a write transaction), as
 * the host's last (host__game_restore), each with the exact text it came
 * from: a command's lines are expanded from the game the command just
 * read, and the next command in a room reads the game the last one left;
 * a game is restored from one text the same way every time, so the kept
 * one is that game, and any other text is restored anew.
 * Prefix host__game_.
 *
 * Not here: what changes a game (seats.c, act.c), the clock (timers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hclock.h"
#include "hgame.h"
#include "hseats.h"

int host__game_load(ctx *c, const char *room)
{
    char why[PZ_WHY_MAX];
    host__game_unload(c);
    int err = store_game_active(c->h->st, c->network, room, &c->row);
    if (err == STORE_NOT_FOUND)
        return 0;
    if (err == 0)
        err = store_seats_get(c->h->st, c->row.id, c->seats, PZ_MAX_PLAYERS, &c->nseats);
    if (err != 0) {
        host__failed(c, err);
        return -1;
    }
    c->have_game = true;
    if (host__settings_parse(&c->set, c->row.settings) != 0) {
        snprintf(c->h->err, sizeof c->h->err, "game %lld: unreadable settings",
                 (long long)c->row.id);
        c->failed = -1;
        return -1;
    }
    const pz_game *saved = c->row.state != NULL
                               ? host__game_restore(c->h, c->row.id, c->row.state, why, sizeof why)
                               : NULL;
    if (c->row.state != NULL && saved == NULL) {
        snprintf(c->h->err, sizeof c->h->err, "game %lld cannot be restored: %s",
                 (long long)c->row.id, why);
        c->failed = -1;
        return -1;
    }
    if (saved != NULL && (c->g = pz_clone(saved)) == NULL) { /* the call's own, to change */
        snprintf(c->h->err, sizeof c->h->err, "out of memory loading game %lld",
                 (long long)c->row.id);
        c->failed = -1;
        return -1;
    }
    return 1;
}

static void free_game(void *g)
{
    pz_free(g);
}

const pz_game *host__game_restore(host *h, int64_t id, const char *state, char *why, size_t why_len)
{
    const pz_game *kept = store_game_memo(h->st, id, state);
    if (kept != NULL)
        return kept;
    if (h->last_game != NULL && h->last_state != NULL && strcmp(h->last_state, state) == 0)
        return h->last_game;
    pz_game *g = NULL;
    if (pz_restore(&g, state, strlen(state), why, why_len) != 0)
        return NULL;
    if (store_game_memo_set(h->st, id, state, g, free_game, pz_game_size()))
        return g;
    host__game_forget(h);
    h->last_state = strdup(state); /* NULL (out of memory): kept, never matched */
    h->last_game = g;
    return g;
}

void host__game_forget(host *h)
{
    pz_free(h->last_game);
    free(h->last_state);
    h->last_game = NULL;
    h->last_state = NULL;
}

void host__game_save(ctx *c)
{
    if (c->failed || !c->have_game)
        return;
    if (c->vq != NULL) { /* a programmer's error: a read-only verb that writes */
        snprintf(c->h->err, sizeof c->h->err, "a read-only command tried to save game %lld",
                 (long long)c->row.id);
        c->failed = STORE_ERROR;
        return;
    }
    /* The packed form (pz_pack): a fifth of the JSON, so five games where
       there were two in a page of the file, and a fifth of the text every
       command reads back; pz_restore reads both, so rows saved as JSON by
       an older bot are read as they are and packed at their next save. */
    char doc[PZ_PACK_MAX];
    host__settings_format(&c->set, c->row.settings, sizeof c->row.settings);
    free(c->row.state);
    c->row.state = NULL;
    if (c->g != NULL) {
        if (pz_pack(c->g, doc, sizeof doc) < 0) {
            snprintf(c->h->err, sizeof c->h->err, "a game does not fit PZ_PACK_MAX");
            c->failed = -1;
            return;
        }
        c->row.state = strdup(doc);
        if (c->row.state == NULL) {
            c->failed = -1;
            return;
        }
    }
    c->row.updated = c->now;
    c->row.next_due =
        host__timers_due(c->h, c->row.status, &c->set, c->row.turn_since, c->row.reminded);
    int actor = c->g != NULL && c->row.status == STORE_PLAYING ? host__game_actor(c->g) : -1;
    if (actor >= 0 && actor < c->nseats && !host__absent_computer(c, actor))
        c->row.next_due = host__timers_person_due(c, actor); /* their clock: quiet, away */
    /* a computer player to act moves robot_delay_secs from now (robots.c) */
    int64_t robot = actor >= 0 && host__absent_computer(c, actor)
                        ? c->now + c->h->cfg.robot_delay_secs
                        : INT64_MAX;
    if (robot < c->row.next_due)
        c->row.next_due = robot;
    int err = store_game_update(c->h->st, &c->row);
    if (err != 0)
        host__failed(c, err);
    else
        host__timers_saved(c->h, c->row.next_due);
}

void host__game_unload(ctx *c)
{
    if (c->have_game)
        store_game_fini(&c->row);
    pz_free(c->g);
    c->g = NULL;
    c->have_game = false;
    c->nseats = 0;
}

int host__game_seat_of(const ctx *c, const char *player)
{
    for (int i = 0; i < c->nseats; i++)
        if (strcmp(c->seats[i].player, player) == 0)
            return i;
    return -1;
}

int host__game_seat_named(const ctx *c, const char *name)
{
    for (int i = 0; i < c->nseats; i++)
        if (strcasecmp(c->seats[i].nick, name) == 0 || strcmp(c->seats[i].player, name) == 0)
            return i;
    return -1;
}

render_names host__game_names(const ctx *c)
{
    render_names n = {c->nseats, {NULL}, host__prefix(c)};
    for (int i = 0; i < c->nseats; i++)
        n.nick[i] = c->seats[i].nick;
    return n;
}

/* The seat to act now (play, choose or arrange the tendido), or -1. */
int host__game_actor(const pz_game *g)
{
    switch (pz_get_phase(g)) {
    case PZ_PHASE_PLAY:
        return pz_get_turn(g);
    case PZ_PHASE_TENDIDO_CHOICE:
    case PZ_PHASE_ARRANGE:
        return pz_get_dealer(g);
    default:
        return -1;
    }
}
