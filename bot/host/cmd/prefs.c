/*
 * prefs.c — a player's own clock: their time zone (tz), daily quiet hours
 * (quiet: no reminders, and the turn deadline's clock stops), a vacation
 * (away: their games wait, up to away_max, or a computer player plays for
 * them), and the list of their games with each deadline in their local
 * time (games, for a player who is not an owner).
 *
 * Each choice is kept in the store's kv, scope "tz", "quiet" or "away",
 * key "network\x1fplayer", so it holds in every room of that network and
 * across restarts. Reading them costs a kv lookup per choice, done only
 * for the player to act when a game is saved or ticked, and once per call
 * (ctx.prefs_memo) however often a save asks. Not here: the
 * zone database and local times (tz.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_int.h"
#include "text.h"
#include "tz.h"

#define TZ_SCOPE "tz"
#define QUIET_SCOPE "quiet"
#define AWAY_SCOPE "away"
#define REMINDERS_SCOPE "reminders"

/* The kv key of player's choices on the context's network. */
static void pref_key(const ctx *c, const char *player, char *key, size_t cap)
{
    if (snprintf(key, cap, "%s\x1f%s", c->network, player) >= (int)cap)
        key[0] = '\0';
}

/* Reads player's choices from the store: a kv lookup per choice. */
static void prefs_read(const ctx *c, const char *player, prefs *p)
{
    char key[2 * STORE_ID_MAX + 2], value[96];
    memset(p, 0, sizeof *p);
    pref_key(c, player, key, sizeof key);
    if (key[0] == '\0' || robot_is(player))
        return;
    if (store_kv_get(c->h->st, TZ_SCOPE, key, p->tz, sizeof p->tz) != 0)
        p->tz[0] = '\0';
    if (store_kv_get(c->h->st, QUIET_SCOPE, key, value, sizeof value) == 0 &&
        tz_quiet_parse(value, &p->quiet) == 0)
        p->has_quiet = true;
    p->no_reminders = store_kv_get(c->h->st, REMINDERS_SCOPE, key, value, sizeof value) == 0 &&
                      strcmp(value, "off") == 0;
    if (store_kv_get(c->h->st, AWAY_SCOPE, key, value, sizeof value) == 0) {
        char *end;
        long long until = strtoll(value, &end, 10);
        if (end != value && until > c->now) {
            p->away_until = until;
            p->away_bot = strcmp(end, " bot") == 0;
        }
    }
}

int prefs_load(ctx *c, const char *player, prefs *p)
{
    for (int i = 0; i < c->nprefs_memo; i++)
        if (strcmp(c->prefs_memo[i].player, player) == 0) {
            *p = c->prefs_memo[i].p;
            return 0;
        }
    prefs_read(c, player, p);
    /* an id too long to keep is read again next time: never a wrong answer */
    if (c->nprefs_memo < PZ_MAX_PLAYERS && strlen(player) < STORE_ID_MAX) {
        snprintf(c->prefs_memo[c->nprefs_memo].player, STORE_ID_MAX, "%s", player);
        c->prefs_memo[c->nprefs_memo++].p = *p;
    }
    return 0;
}

static void retime(ctx *c);

/* Sets (or with value "" clears) the sender's choice in scope. */
static void pref_set(ctx *c, const char *scope, const char *value)
{
    char key[2 * STORE_ID_MAX + 2];
    pref_key(c, c->m->sender, key, sizeof key);
    c->nprefs_memo = 0; /* what was read is no longer so */
    int err = key[0] == '\0' ? STORE_TOO_BIG : store_kv_set(c->h->st, scope, key, value);
    if (err != 0)
        store_failed(c, err);
}

int64_t prefs_deadline(ctx *c, int seat, int64_t start, int64_t secs)
{
    prefs p;
    if (seat < 0 || seat >= c->nseats || prefs_load(c, c->seats[seat].player, &p) != 0)
        return start + secs;
    int64_t at = tz_paused_deadline(start, secs, p.tz, p.has_quiet ? &p.quiet : NULL);
    if (p.away_until > at && !p.away_bot) { /* the game waits, up to the room's away_max */
        room_settings rs;
        room_defaults(c, c->row.room, &rs);
        int64_t cap = rs.away_max > 0 ? start + rs.away_max : p.away_until;
        at = p.away_until < cap ? p.away_until : cap > at ? cap : at;
    }
    return at;
}

bool prefs_quiet_at(ctx *c, int seat, int64_t t, int64_t *until)
{
    prefs p;
    *until = t;
    if (seat < 0 || seat >= c->nseats || prefs_load(c, c->seats[seat].player, &p) != 0)
        return false;
    if (p.no_reminders) {
        *until = INT64_MAX;
        return true;
    }
    if (p.away_until > t) { /* no reminders on vacation either */
        *until = p.away_until;
        return true;
    }
    if (!p.has_quiet || !tz_in_quiet(t, p.tz, &p.quiet))
        return false;
    *until = tz_quiet_end(t, p.tz, &p.quiet);
    return true;
}

bool prefs_away_bot(ctx *c, int seat)
{
    prefs p;
    return seat >= 0 && seat < c->nseats && !robot_is(c->seats[seat].player) &&
           prefs_load(c, c->seats[seat].player, &p) == 0 && p.away_bot && p.away_until > c->now;
}

void cmd_tz(ctx *c, const cmd *k)
{
    char canon[TZ_NAME_MAX], hint[2 * TZ_NAME_MAX + 8], when[64];
    prefs p;
    prefs_load(c, c->m->sender, &p);
    if (k->name[0] == '\0' && !k->off) {
        tz_format(c->now, p.tz, false, when, sizeof when);
        reply(c, "your time zone is %s (it is %s there); say %stz Europe/Madrid to change it",
              p.tz[0] != '\0' ? p.tz : "UTC", when, ctx_prefix(c));
        return;
    }
    if (k->off) {
        pref_set(c, TZ_SCOPE, "");
        retime(c);
        reply(c, "your times are shown in UTC again");
        return;
    }
    if (tz_check(k->name, canon, sizeof canon, hint, sizeof hint) != 0) {
        if (hint[0] != '\0')
            reply(c, "%s is not a time zone: did you mean %s?", k->name, hint);
        else
            reply(c, "%s is not a time zone: say a region and city, e.g. %stz America/Chicago",
                  k->name, ctx_prefix(c));
        return;
    }
    pref_set(c, TZ_SCOPE, canon);
    retime(c);
    tz_format(c->now, canon, false, when, sizeof when);
    reply(c, "your time zone is %s: it is %s there", canon, when);
}

void cmd_quiet(ctx *c, const cmd *k)
{
    tz_quiet q;
    char shown[32];
    prefs p;
    prefs_load(c, c->m->sender, &p);
    if (k->off) {
        pref_set(c, QUIET_SCOPE, "");
        retime(c);
        reply(c, "no quiet hours: reminders come at any time");
        return;
    }
    if (tz_quiet_parse(k->name, &q) != 0) {
        reply(c, "quiet hours are two times of day: e.g. %squiet 23:00-08:00, or %squiet off",
              ctx_prefix(c), ctx_prefix(c));
        return;
    }
    tz_quiet_format(&q, shown, sizeof shown);
    pref_set(c, QUIET_SCOPE, shown);
    retime(c);
    reply(c, "quiet %s %s every day: no reminders then, and your turn deadlines stop", shown,
          p.tz[0] != '\0' ? p.tz : "UTC (say tz ZONE for yours)");
}

void cmd_reminders(ctx *c, const cmd *k)
{
    pref_set(c, REMINDERS_SCOPE, k->on ? "" : "off");
    retime(c);
    reply(c, k->on ? "reminders on: a private line when your turn has waited a while"
                   : "reminders off: no private line when your turn waits (the deadline stays)");
}

void cmd_notices(ctx *c, const cmd *k)
{
    pref_set(c, HOST_NOTICE_SCOPE, k->on ? "on" : "");
    reply(c, k->on ? "your private lines come as NOTICE from now on (on IRC)"
                   : "your private lines come as private messages (PRIVMSG)");
}

void cmd_away(ctx *c, const cmd *k)
{
    char value[48], until[64], how[32];
    prefs p;
    prefs_load(c, c->m->sender, &p);
    if (k->off) {
        pref_set(c, AWAY_SCOPE, "");
        retime(c);
        reply(c, "welcome back: your games count on you again");
        return;
    }
    int64_t at = c->now + k->deadline_secs;
    snprintf(value, sizeof value, "%lld%s", (long long)at, k->robots ? " bot" : "");
    pref_set(c, AWAY_SCOPE, value);
    retime(c);
    tz_format(at, p.tz, true, until, sizeof until);
    if (k->robots) {
        reply(c, "away until %s: a computer player plays for you meanwhile (%saway off ends it)",
              until, ctx_prefix(c));
        return;
    }
    text_duration(c->h->cfg.away_max_secs, how, sizeof how);
    reply(c, "away until %s: your games wait for you (at most %s a turn), with no reminders", until,
          c->h->cfg.away_max_secs > 0 ? how : "as long as you are away");
}

/* ---- The player's games -------------------------------------------------- */

/* Saves one game of the sender again, so its clock follows their new
   choices (a deadline put off or brought back, a computer player). */
static int retime_one(void *arg, int64_t id, const char *room)
{
    ctx *outer = arg;
    ctx c = {.h = outer->h, .now = outer->now, .m = outer->m, .network = outer->network};
    if (load_game(&c, room) > 0 && c.row.id == id && c.row.status == STORE_PLAYING)
        save_game(&c);
    unload_game(&c);
    if (c.failed)
        outer->failed = c.failed;
    return c.failed;
}

/* Every game of the sender timed again (after tz, quiet or away). */
static void retime(ctx *c)
{
    int err = store_games_of_player(c->h->st, c->network, c->m->sender, retime_one, c);
    if (err != 0 && !c->failed)
        store_failed(c, err);
}

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
    if (load_game(&c, room) > 0 && c.row.id == id) {
        char line[400], state[200] = "", when[64];
        if (c.row.status == STORE_LOBBY) {
            snprintf(state, sizeof state, "open table, %d of %d seated", c.nseats,
                     c.set.max_players);
        } else if (c.g != NULL) {
            int actor = actor_of(c.g);
            const char *who = actor >= 0 && actor < c.nseats ? c.seats[actor].nick : "nobody";
            bool mine =
                actor >= 0 && actor < c.nseats && strcmp(c.seats[actor].player, g->player) == 0;
            snprintf(state, sizeof state, "%s%s", mine ? "your turn" : who, mine ? "" : " to play");
            if (c.set.deadline > 0 && actor >= 0 && c.row.status == STORE_PLAYING) {
                int64_t at = prefs_deadline(&c, actor, c.row.turn_since, c.set.deadline);
                tz_format(at, g->p.tz, true, when, sizeof when);
                size_t n = strlen(state);
                snprintf(state + n, sizeof state - n, ", deadline %s", when);
            }
            if (c.row.status == STORE_PAUSED)
                snprintf(state, sizeof state, "paused");
        }
        snprintf(line, sizeof line, "#%lld %s%s%s: %s", (long long)id, g->several ? g->network : "",
                 g->several ? " " : "", room, state);
        say_private(g->c, g->c->m->sender, 0, "%s", line);
        g->shown++;
    }
    unload_game(&c);
    return c.failed;
}

void cmd_my_games(ctx *c)
{
    my_games g = {.c = c};
    link_ids ids;
    prefs_load(c, c->m->sender, &g.p);
    int err = link_group(c, c->network, c->m->sender, c->m->nick, &ids);
    for (int i = 1; err == 0 && i < ids.n; i++)
        g.several = g.several || strcmp(ids.network[i], c->network) != 0;
    for (int i = 0; err == 0 && i < ids.n; i++) {
        g.network = ids.network[i];
        g.player = ids.player[i];
        err = store_games_of_player(c->h->st, g.network, g.player, one_game, &g);
    }
    if (err != 0) {
        store_failed(c, err);
        return;
    }
    if (g.shown == 0 && ids.n > 1)
        say_private(c, c->m->sender, 0, "you sit in no game, here or on the networks tied to you");
    else if (g.shown == 0)
        say_private(c, c->m->sender, 0, "you sit in no game on %s", c->network);
    else if (g.more > 0)
        say_private(c, c->m->sender, 0, "and %d more", g.more);
}
