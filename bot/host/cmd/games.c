/*
 * games.c — games [all]: an owner's list of the games open or under way
 * (this network's, or all), or for a player their own games on every
 * network tied to them, each with whose turn it is and the deadline in
 * their time zone. Answered privately.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hprefs.h"
#include "hverbs.h"
#include "tz.h"

#define GAMES_LINE_MAX 380 /* bytes of one line of games' list */
#define GAMES_LINES_MAX 6  /* lines of the list; the rest is counted */
#define GAMES_READ_MAX 200 /* the most recently active games looked at */

/* The list being built: entries joined by " | " into lines. */
typedef struct games_list {
    ctx *c;
    char line[GAMES_LINE_MAX + 1];
    size_t len;
    int lines, shown, more;
} games_list;

typedef struct my_games {
    ctx *c;
    int shown, more;
    prefs p;
    const char *network, *player; /* the id being listed: the sender's or one tied to it */
    bool several;                 /* ids on several networks: each line names its network */
} my_games;

/* One game of the sender: "#12 #porrazo: your turn, until Thu 14:05 CET". */
static int one_game(void *arg, int64_t id, const char *room)
{
    my_games *g = arg;
    if (g->shown >= 8) {
        g->more++;
        return 0;
    }
    ctx c = {.h = g->c->h, .now = g->c->now, .m = g->c->m, .network = g->network};
    if (host__game_load(&c, room) > 0 && c.row.id == id) {
        char line[400], state[200] = "", when[64];
        if (c.row.status == STORE_LOBBY) {
            snprintf(state, sizeof state, _("open table, %d of %d seated"), c.nseats,
                     c.set.max_players);
        } else if (c.g != NULL) {
            int actor = host__game_actor(c.g);
            bool someone = actor >= 0 && actor < c.nseats;
            bool mine = someone && strcmp(c.seats[actor].player, g->player) == 0;
            bool due = c.set.deadline > 0 && actor >= 0 && c.row.status == STORE_PLAYING;
            if (due) {
                int64_t at = host__prefs_deadline(&c, actor, c.row.turn_since, c.set.deadline);
                tz_format(at, g->p.tz, true, when, sizeof when);
            }
            if (c.row.status == STORE_PAUSED)
                snprintf(state, sizeof state, "%s", _("paused"));
            else if (mine && due)
                snprintf(state, sizeof state, _("your turn, deadline %s"), when);
            else if (mine)
                snprintf(state, sizeof state, "%s", _("your turn"));
            else if (someone && due)
                snprintf(state, sizeof state, _("%s to play, deadline %s"), c.seats[actor].nick,
                         when);
            else if (someone)
                snprintf(state, sizeof state, _("%s to play"), c.seats[actor].nick);
            else
                snprintf(state, sizeof state, "%s", _("nobody to play"));
        }
        snprintf(line, sizeof line, "#%lld %s%s%s: %s", (long long)id, g->several ? g->network : "",
                 g->several ? " " : "", room, state);
        host__say_private(g->c, g->c->m->sender, 0, "%s", line);
        g->shown++;
    }
    host__game_unload(&c);
    return c.failed;
}

static void my_games_list(ctx *c)
{
    my_games g = {.c = c};
    link_ids ids;
    host__prefs_load(c, c->m->sender, &g.p);
    int err = host__link_group(c, c->network, c->m->sender, c->m->nick, &ids);
    for (int i = 1; err == 0 && i < ids.n; i++)
        g.several = g.several || strcmp(ids.network[i], c->network) != 0;
    for (int i = 0; err == 0 && i < ids.n; i++) {
        g.network = ids.network[i];
        g.player = ids.player[i];
        err = store_games_of_player(c->h->st, g.network, g.player, one_game, &g);
    }
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    if (g.shown == 0 && ids.n > 1)
        host__say_private(c, c->m->sender, 0,
                          N_("you sit in no game, here or on the networks tied to you"));
    else if (g.shown == 0)
        host__say_private(c, c->m->sender, 0, N_("you sit in no game on %s"), c->network);
    else if (g.more > 0)
        host__say_private(c, c->m->sender, 0, N_("and %d more"), g.more);
}
static const char *status_word(store_status s)
{
    return s == STORE_LOBBY ? _("open table") : s == STORE_PAUSED ? _("paused") : _("under way");
}

/* Writes game id's entry: "#12 libera #porrazo, under way: ann, bob; ann
   to play". 0, or a store_err. */
static int game_entry(ctx *c, int64_t id, char *out, size_t cap)
{
    store_game g = {0}; /* state NULL: store_game_fini is safe whatever fails */
    store_seat seats[PZ_MAX_PLAYERS];
    int n = 0, turn = -1;
    int err = store_game_get(c->h->st, id, &g);
    if (err == 0)
        err = store_seats_get(c->h->st, id, seats, PZ_MAX_PLAYERS, &n);
    if (err != 0) {
        store_game_fini(&g);
        return err;
    }
    pz_game *pg = NULL;
    if (g.state != NULL && pz_restore(&pg, g.state, strlen(g.state), NULL, 0) == 0) {
        turn = pz_get_turn(pg);
        pz_free(pg);
    }
    int k = snprintf(out, cap, "#%lld %s %s, %s:", (long long)g.id, g.network, g.room,
                     status_word(g.status));
    size_t len = k < 0 ? cap : (size_t)k;
    for (int i = 0; i < n && len < cap; i++) {
        k = snprintf(out + len, cap - len, "%s %s", i > 0 ? "," : "", seats[i].nick);
        len = k < 0 ? cap : len + (size_t)k;
    }
    if (g.status == STORE_PLAYING && turn >= 0 && turn < n && len < cap)
        snprintf(out + len, cap - len, _("; %s to play"), seats[turn].nick);
    store_game_fini(&g);
    return 0;
}

/* Sends the line being built, if any. */
static void games_flush(games_list *l)
{
    if (l->len == 0)
        return;
    host__say_private(l->c, l->c->m->sender, 0, "%s", l->line);
    l->len = 0;
    l->lines++;
}

/* Adds one entry to the list, or counts it when the lines are used up. */
static void games_add(games_list *l, const char *entry)
{
    size_t n = strlen(entry);
    if (l->len > 0 && l->len + 3 + n > GAMES_LINE_MAX)
        games_flush(l);
    if (l->lines >= GAMES_LINES_MAX) {
        l->more++;
        return;
    }
    if (l->len > 0) {
        memcpy(l->line + l->len, " | ", 3);
        l->len += 3;
    }
    /* n < sizeof entry == sizeof l->line, and the line was empty or it fits */
    memcpy(l->line + l->len, entry, n + 1);
    l->len += n;
    l->shown++;
}

/*
 * games [all] (owners): the GAMES_READ_MAX most recently active games
 * (this network's, or all), newest first, in at most GAMES_LINES_MAX
 * private lines. Bounded whatever the number of games: the states read are
 * those of the games shown.
 */
void host__verb_games(ctx *c, const cmd *k)
{
    if (!host__is_owner(c, c->m->sender)) { /* a player: their own games */
        my_games_list(c);
        return;
    }
    store_due *latest = calloc(GAMES_READ_MAX, sizeof *latest);
    int n = 0, active = 0;
    int err = latest == NULL ? -1 : store_game_recent(c->h->st, 0, GAMES_READ_MAX, latest, &n);
    if (err == 0)
        err = store_game_count_active(c->h->st, &active);
    games_list l = {.c = c};
    char entry[GAMES_LINE_MAX + 1];
    for (int i = 0; i < n && err == 0; i++) {
        if (!k->all && strcmp(latest[i].network, c->network) != 0)
            continue;
        if (l.lines >= GAMES_LINES_MAX)
            l.more++;
        else if ((err = game_entry(c, latest[i].id, entry, sizeof entry)) == 0)
            games_add(&l, entry);
    }
    free(latest);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    games_flush(&l);
    if (l.shown == 0)
        if (k->all)
            host__say_private(c, c->m->sender, 0, N_("no game is open or under way"));
        else
            host__say_private(c, c->m->sender, 0, N_("no game is open or under way on %s"),
                              c->network);
    else if (l.more > 0 || active > n)
        host__say_private(c, c->m->sender, 0,
                          N_("%d more not shown (%d games open or under way in all)"),
                          l.more + (active > n ? active - n : 0), active);
}
