/*
 * prefs.c — a player's own clock as the host reads it: their time zone
 * (tz), daily quiet hours (quiet: no reminders, and the turn deadline's
 * clock stops), a vacation (away: their games wait, up to away_max, or a
 * computer player plays for them), no reminders. Prefix host__prefs_.
 *
 * Each choice is kept in the store's kv, in its row's scope of the
 * settings table (settings.def's stored: "tz", "quiet", "away",
 * "reminders"), key "network\x1fplayer", so it holds in every
 * room of that network and across restarts. Reading them costs a kv
 * lookup per choice, done only for the player to act when a game is saved
 * or ticked, and once per call (ctx.prefs_memo) however often a save asks.
 * Not here: the commands that set them (cmd/prefs.c), the zone database
 * and local times (tz.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hprefs.h"
#include "hrooms.h"
#include "hseats.h"
#include "text.h"
#include "tz.h"

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
    if (key[0] == '\0' || host__is_robot(player))
        return;
    if (store_kv_get(c->h->st, TZ_SCOPE, key, p->tz, sizeof p->tz) != 0)
        p->tz[0] = '\0';
    if (store_kv_get(c->h->st, QUIET_SCOPE, key, value, sizeof value) == 0 &&
        tz_quiet_parse(value, &p->quiet) == 0)
        p->has_quiet = true;
    p->no_reminders = !host__prefs_switch(c->h, c->network, player, CMD_SETTING_REMINDERS);
    if (store_kv_get(c->h->st, AWAY_SCOPE, key, value, sizeof value) == 0) {
        char *end;
        long long until = strtoll(value, &end, 10);
        if (end != value && until > c->now) {
            p->away_until = until;
            p->away_bot = strcmp(end, " bot") == 0;
        }
    }
}

bool host__prefs_switch(host *h, const char *network, const char *player, int id)
{
    char key[2 * STORE_ID_MAX + 2], value[8];
    const cmd_setting_row *r = cmd_setting_row_of(id);
    int k = snprintf(key, sizeof key, "%s\x1f%s", network, player);
    bool kept = k >= 0 && (size_t)k < sizeof key &&
                store_kv_get(h->st, r->stored, key, value, sizeof value) == 0;
    return cmd_switch_read(r, kept ? value : NULL);
}

int host__prefs_load(ctx *c, const char *player, prefs *p)
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

/* Sets (or with value "" clears) the sender's choice in scope. */
void host__prefs_set(ctx *c, const char *scope, const char *value)
{
    char key[2 * STORE_ID_MAX + 2];
    pref_key(c, c->m->sender, key, sizeof key);
    c->nprefs_memo = 0; /* what was read is no longer so */
    int err = key[0] == '\0' ? STORE_TOO_BIG : store_kv_set(c->h->st, scope, key, value);
    if (err != 0)
        host__failed(c, err);
}

int64_t host__prefs_deadline(ctx *c, int seat, int64_t start, int64_t secs)
{
    prefs p;
    if (seat < 0 || seat >= c->nseats || host__prefs_load(c, c->seats[seat].player, &p) != 0)
        return start + secs;
    int64_t at = tz_paused_deadline(start, secs, p.tz, p.has_quiet ? &p.quiet : NULL);
    if (p.away_until > at && !p.away_bot) { /* the game waits, up to the room's away_max */
        room_settings rs;
        host__room_defaults(c, c->row.room, &rs);
        int64_t cap = rs.away_max > 0 ? start + rs.away_max : p.away_until;
        at = p.away_until < cap ? p.away_until : cap > at ? cap : at;
    }
    return at;
}

bool host__prefs_quiet_at(ctx *c, int seat, int64_t t, int64_t *until)
{
    prefs p;
    *until = t;
    if (seat < 0 || seat >= c->nseats || host__prefs_load(c, c->seats[seat].player, &p) != 0)
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

bool host__prefs_away_bot(ctx *c, int seat)
{
    prefs p;
    return seat >= 0 && seat < c->nseats && !host__is_robot(c->seats[seat].player) &&
           host__prefs_load(c, c->seats[seat].player, &p) == 0 && p.away_bot &&
           p.away_until > c->now;
}

/* ---- The player's games -------------------------------------------------- */
