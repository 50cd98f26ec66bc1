/*
 * robots.c — computer players at the table: seated in a lobby (addbot,
 * "new 2 bot"), removed (removebot), and moving when the clock says it is
 * their turn, through the same path as a person's move (act(): the engine,
 * the announcements, the action log, one transaction).
 *
 * A computer player is a seat whose player id is "bot:LEVEL#N" and whose
 * name is "Robot N (LEVEL)". It is never sent a private line. When it is
 * to act, the game's next clock time is robot_delay_secs after the last
 * save (people can follow the table); then its decision is made from what
 * its seat may know — pz_view_seat() and pz_public_record(), never the
 * game itself — either inline or on the worker thread (think.h). A
 * decision from the worker is applied only if the game is still exactly
 * as it was seen (the fingerprint of its saved state), else the clock
 * asks again. Not here: the players themselves (engine/ai).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_int.h"
#include "porrazo_ai.h"
#include "think.h"

#define ROBOT_ID "bot:"
#define THINK_WAIT_SECS 30 /* a decision handed to the worker: asked again after this */
#define THINK_FULL_SECS 1  /* the worker's queue was full: try again after this */

bool robot_is(const char *player)
{
    return strncmp(player, ROBOT_ID, strlen(ROBOT_ID)) == 0;
}

/* The level of a computer player's id; 0 and *out, or -1. */
static int robot_level(const char *player, pzai_level *out)
{
    char name[16];
    if (!robot_is(player))
        return -1; /* a person's id may be shorter than the prefix: look no further */
    const char *p = player + strlen(ROBOT_ID);
    size_t n = strcspn(p, "#");
    if (n == 0 || n >= sizeof name)
        return -1;
    memcpy(name, p, n);
    name[n] = '\0';
    return pzai_level_parse(name, out);
}

void robot_stats_id(const char *player, char *id, size_t id_cap, char *nick, size_t nick_cap)
{
    pzai_level level;
    if (robot_level(player, &level) != 0)
        level = PZAI_STRONG;
    snprintf(id, id_cap, "%s%s", ROBOT_ID, pzai_level_name(level));
    snprintf(nick, nick_cap, "Robot (%s)", pzai_level_name(level));
}

/* The smallest robot number not seated, 1..PZ_MAX_PLAYERS. */
static int free_number(const ctx *c)
{
    for (int k = 1; k <= PZ_MAX_PLAYERS; k++) {
        bool used = false;
        for (int s = 0; s < c->nseats; s++) {
            const char *hash = strchr(c->seats[s].player, '#');
            used |= robot_is(c->seats[s].player) && hash != NULL && strtol(hash + 1, NULL, 10) == k;
        }
        if (!used)
            return k;
    }
    return PZ_MAX_PLAYERS;
}

void robot_identity(const ctx *c, int level, char *id, size_t id_cap, char *nick, size_t nick_cap)
{
    int k = free_number(c);
    const char *name = pzai_level_name((pzai_level)level);
    snprintf(id, id_cap, "%s%s#%d", ROBOT_ID, name, k);
    snprintf(nick, nick_cap, "Robot %d (%s)", k, name);
}

/* Seats a computer player of level in the lobby (which may start it). */
static void seat_robot(ctx *c, pzai_level level)
{
    char id[STORE_ID_MAX], nick[STORE_ID_MAX];
    robot_identity(c, (int)level, id, sizeof id, nick, sizeof nick);
    seat_add(c, id, nick);
}

void robots_fill(ctx *c, int level)
{
    pzai_level lv = level >= 0 ? (pzai_level)level : (pzai_level)room_level(c);
    while (!c->failed && c->row.status == STORE_LOBBY && c->nseats < c->set.max_players)
        seat_robot(c, lv);
}

void cmd_addbot(ctx *c, const cmd *k)
{
    int room = c->set.max_players - c->nseats;
    if (k->count > room) {
        reply(c, "the table has %d free seat%s, not %d", room, room == 1 ? "" : "s", k->count);
        return;
    }
    pzai_level lv = k->level >= 0 ? (pzai_level)k->level : (pzai_level)room_level(c);
    for (int i = 0; i < k->count && !c->failed && c->row.status == STORE_LOBBY; i++)
        seat_robot(c, lv);
}

int robot_named(const ctx *c, const char *name)
{
    int seat = seat_named(c, name);
    if (seat >= 0)
        return seat;
    char nick[STORE_ID_MAX + 8]; /* "2": Robot 2 */
    if (snprintf(nick, sizeof nick, "Robot %s", name) >= (int)sizeof nick)
        return -1;
    size_t n = strlen(nick);
    for (int s = 0; s < c->nseats; s++)
        if (robot_is(c->seats[s].player) && strncmp(c->seats[s].nick, nick, n) == 0 &&
            c->seats[s].nick[n] == ' ')
            return s;
    return -1;
}

void cmd_removebot(ctx *c, const cmd *k)
{
    int seat = -1;
    if (k->name[0] != '\0') {
        seat = robot_named(c, k->name);
        if (seat >= 0 && !robot_is(c->seats[seat].player)) {
            reply(c, "%s is a person: only a computer player can be removed this way",
                  c->seats[seat].nick);
            return;
        }
    } else {
        for (int s = 0; s < c->nseats; s++)
            if (robot_is(c->seats[s].player))
                seat = s; /* the last one seated */
    }
    if (seat < 0 && k->name[0] != '\0')
        reply(c, "no computer player called %s is seated here", k->name);
    else if (seat < 0)
        reply(c, "no computer player is seated here");
    if (seat < 0)
        return;
    unseat(c, seat);
}

int robot_to_act(ctx *c)
{
    if (c->g == NULL || c->row.status != STORE_PLAYING)
        return -1;
    int seat = actor_of(c->g);
    return absent_computer(c, seat) ? seat : -1;
}

int64_t robot_due(ctx *c)
{
    return robot_to_act(c) >= 0 ? c->now + c->h->cfg.robot_delay_secs : INT64_MAX;
}

/* FNV-1a of the game's saved state: the same game, the same number. */
static uint64_t fingerprint(const ctx *c)
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
        store_failed(c, err);
    else
        timers_saved(c->h, at);
}

int robot_choose(const ctx *c, int seat, pz_action *out)
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
        save_game(c); /* nothing to do after all: the clock looks again */
        return;
    }
    if (act(c, &a, NULL) != 0 && pz_default_action(c->g, seat, &a) == 0)
        (void)act(c, &a, NULL); /* never happens with a correct player */
}

void robot_turn(ctx *c, int seat)
{
    int64_t at = c->row.updated + c->h->cfg.robot_delay_secs;
    if (c->now < at) {
        due_at(c, at);
        return;
    }
    pzai_level level;
    think_job j;
    memset(&j, 0, sizeof j);
    if (robot_level(c->seats[seat].player, &level) != 0)
        level = (pzai_level)room_level(c); /* an absent person's seat */
    j.game = c->row.id;
    snprintf(j.network, sizeof j.network, "%s", c->network);
    snprintf(j.room, sizeof j.room, "%s", c->row.room);
    j.fingerprint = fingerprint(c);
    j.level = level;
    j.seed = j.fingerprint ^ ((uint64_t)seat << 56);
    j.iterations = c->h->cfg.robot_iterations;
    if (pz_view_seat(c->g, seat, &j.view) != 0 || pz_public_record(c->g, &j.record) != 0) {
        j.result = -1; /* cannot happen for a seat of the game: the default move */
        robot_play(c, &j);
        return;
    }
    if (c->h->think == NULL) {
        pzai_budget budget = {j.iterations, NULL, NULL};
        j.result = pzai_decide(&j.view, &j.record, j.level, j.seed, &budget, &j.action);
        robot_play(c, &j);
        return;
    }
    due_at(c, c->now + (think_submit(c->h->think, &j) == 0 ? THINK_WAIT_SECS : THINK_FULL_SECS));
}

/* Applies one decision of the worker in its own transaction. */
static int collect_one(host *h, const think_job *j, int64_t now)
{
    if (store_begin(h->st) != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        return -1;
    }
    ctx c = {.h = h, .now = now, .network = j->network};
    if (load_game(&c, j->room) > 0 && c.row.id == j->game) {
        if (robot_to_act(&c) == j->view.seat && fingerprint(&c) == j->fingerprint)
            robot_play(&c, j);
        else
            save_game(&c); /* the game moved on: its clock is written anew */
    }
    unload_game(&c);
    if (c.failed || store_commit(h->st) != 0) {
        if (!c.failed)
            snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        store_rollback(h->st);
        return -1; /* the clock asks again after THINK_WAIT_SECS */
    }
    events_flush(&c);
    return 0;
}

int robots_collect(host *h, int64_t now)
{
    think_job j;
    int rc = 0;
    while (h->think != NULL && think_take(h->think, &j) == 1)
        if (collect_one(h, &j, now) != 0)
            rc = -1;
    return rc;
}
