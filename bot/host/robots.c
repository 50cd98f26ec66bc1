/*
 * robots.c — computer players at the table: seated in a lobby (addbot,
 * "new 2 bot"), and moving when the clock says it is their turn, through
 * the same path as a person's move (host__act(): the engine, the
 * announcements, the action log, one transaction). Prefix host__robot_.
 *
 * A computer player is a seat whose player id is "bot:LEVEL#N" and whose
 * name is "Robot N (LEVEL)" (robot_ids.c). It is never sent a private
 * line. When it is to act, the game's next clock time is robot_delay_secs
 * after the last save (people can follow the table); then its decision is
 * made from what its seat may know — pz_view_seat() and
 * pz_public_record(), never the game itself — either inline or on the
 * worker thread (think.h). A decision from the worker is applied only if
 * the game is still exactly as it was seen (the fingerprint of its saved
 * state), else the clock asks again. Not here: the commands (cmd/robots.c),
 * the players themselves (engine/ai).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hclock.h"
#include "hctx.h"
#include "hgame.h"
#include "hlearn.h"
#include "hrooms.h"
#include "hseats.h"
#include "i18n.h"
#include "porrazo_ai.h"
#include "think.h"

#define THINK_WAIT_SECS 30 /* a decision handed to the worker: asked again after this */
#define THINK_FULL_SECS 1  /* the worker's queue was full: try again after this */

/* Seats a computer player of level in the lobby (which may start it). */
void host__robot_seat(ctx *c, int level)
{
    char id[STORE_ID_MAX], nick[STORE_ID_MAX];
    host__robot_identity(c, (int)level, id, sizeof id, nick, sizeof nick);
    host__add(c, id, nick);
}

void host__robot_fill(ctx *c, int level)
{
    pzai_level lv = level >= 0 ? (pzai_level)level : (pzai_level)host__room_level(c);
    while (!c->failed && c->row.status == STORE_LOBBY && c->nseats < c->set.max_players)
        host__robot_seat(c, lv);
}

int host__robot_to_act(ctx *c)
{
    if (c->g == NULL || c->row.status != STORE_PLAYING)
        return -1;
    int seat = host__game_actor(c->g);
    return host__absent_computer(c, seat) ? seat : -1;
}

/* FNV-1a of the game's saved state: the same game, the same number. */
uint64_t host__robot_fingerprint(const ctx *c)
{
    static char doc[PZ_SAVE_MAX]; /* the loop's thread only */
    uint64_t x = UINT64_C(0xcbf29ce484222325);
    int n = pz_save(c->g, doc, sizeof doc);
    for (int i = 0; i < n; i++)
        x = (x ^ (unsigned char)doc[i]) * UINT64_C(0x100000001b3);
    return x;
}

/* Sets the loaded game's next clock time to at, without saving it. */
static void due_at(ctx *c, int64_t at)
{
    c->row.next_due = at;
    int err = store_game_set_due(c->h->st, c->row.id, at);
    if (err != 0)
        host__failed(c, err);
    else
        host__timers_saved(c->h, at);
}

int host__robot_choose(const ctx *c, int seat, pz_action *out)
{
    pz_view v;
    pz_record r;
    pzai_budget budget = {0, NULL, NULL};
    pz_action a;
    if (pz_view_seat(c->g, seat, &v) == 0 && pz_public_record(c->g, &r) == 0 &&
        pzai_decide(&v, &r, PZAI_EXPERT, (uint64_t)c->row.id ^ (uint64_t)c->now, &budget, &a) ==
            1) {
        *out = a;
        return 0;
    }
    return pz_default_action(c->g, seat, out);
}

/* Plays j's decision for its seat; the default move when it has none. */
static void robot_play(ctx *c, const think_job *j)
{
    int seat = j->view.seat;
    pz_action a = j->action;
    if (j->result != 1 && pz_default_action(c->g, seat, &a) != 0) {
        host__game_save(c); /* nothing to do after all: the clock looks again */
        return;
    }
    if (host__act(c, &a, NULL) != 0) {
        if (pz_default_action(c->g, seat, &a) == 0)
            (void)host__act(c, &a, NULL); /* never happens with a correct player */
        return;
    }
    host__learn_explain_move(c, j, &a); /* a practice table: why, to the learner */
}

void host__robot_turn(ctx *c, int seat)
{
    int64_t at = c->row.updated + c->h->cfg.robot_delay_secs;
    if (c->now < at) {
        due_at(c, at);
        return;
    }
    int level;
    think_job j;
    memset(&j, 0, sizeof j);
    if (host__robot_level_of(c->seats[seat].player, &level) != 0)
        level = host__room_level(c); /* an absent person's seat */
    j.game = c->row.id;
    snprintf(j.network, sizeof j.network, "%s", c->network);
    snprintf(j.room, sizeof j.room, "%s", c->row.room);
    j.fingerprint = host__robot_fingerprint(c);
    j.level = (pzai_level)level;
    j.seed = j.fingerprint ^ ((uint64_t)seat << 56);
    j.iterations = c->h->cfg.robot_iterations;
    j.explain = c->set.practice;
    if (pz_view_seat(c->g, seat, &j.view) != 0 || pz_public_record(c->g, &j.record) != 0) {
        j.result = -1; /* cannot happen for a seat of the game: the default move */
        robot_play(c, &j);
        return;
    }
    if (c->h->think == NULL) {
        host__think_run(&j);
        robot_play(c, &j);
        return;
    }
    due_at(c,
           c->now + (host__think_submit(c->h->think, &j) == 0 ? THINK_WAIT_SECS : THINK_FULL_SECS));
}

/* Applies one decision of the worker in its own transaction. */
static int collect_one(host *h, const think_job *j, int64_t now)
{
    if (store_begin(h->st) != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        return -1;
    }
    ctx c = {.h = h, .now = now, .network = j->network};
    if (host__game_load(&c, j->room) > 0 && c.row.id == j->game) {
        I18N_SCOPE(host_room_lang(h, j->network, j->room));
        if (host__robot_to_act(&c) == j->view.seat && host__robot_fingerprint(&c) == j->fingerprint)
            robot_play(&c, j);
        else
            host__game_save(&c); /* the game moved on: its clock is written anew */
    }
    host__game_unload(&c);
    if (c.failed || store_commit(h->st) != 0) {
        if (!c.failed)
            snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        store_rollback(h->st);
        return -1; /* the clock asks again after THINK_WAIT_SECS */
    }
    host__events_flush(&c);
    return 0;
}

int host__robot_collect(host *h, int64_t now)
{
    think_job j;
    int rc = 0;
    while (h->think != NULL && host__think_take(h->think, &j) == 1)
        if ((j.purpose == THINK_MOVE ? collect_one(h, &j, now) : host__learn_deliver(h, &j, now)) !=
            0)
            rc = -1;
    return rc;
}
