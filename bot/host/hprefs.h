/*
 * hprefs.h — a player's own choices (prefs.c: time zone, quiet hours,
 * away, reminders, and every other row of the settings table's player
 * scope) and their ids tied on several networks (links.c), as the store's
 * kv keeps them, key "network\x1fplayer". Prefixes host__prefs_, host__link_.
 */
#ifndef PZ_HPREFS_H
#define PZ_HPREFS_H

#ifndef PZ_INSIDE_HOST
#error "hprefs.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "cmd_settings.h"
#include "hctx.h"

/* ---- prefs.c ---- */
/* The kv scope of player setting id (settings.def's row CMD_SETTING_<id>,
   its stored), key "network\x1fplayer": the scopes the host always had. */
#define PREFS_SCOPE(id) (cmd_setting_row_of(CMD_SETTING_##id)->stored)
#define TZ_SCOPE PREFS_SCOPE(TZ)
#define QUIET_SCOPE PREFS_SCOPE(QUIET)
#define AWAY_SCOPE PREFS_SCOPE(PLAYER_AWAY)
#define REMINDERS_SCOPE PREFS_SCOPE(REMINDERS)
/* player's switch id (a player's SK_SWITCH row) on network: as kept in its
   kv scope, else the row's dflt (cmd_switch_read). */
bool host__prefs_switch(host *h, const char *network, const char *player, int id);
/* player's choices on the context's network (defaults when none), read
   once per context. 0. */
int host__prefs_load(ctx *c, const char *player, prefs *p);
/* Sets (or with value "" clears) the sender's choice in scope. */
void host__prefs_set(ctx *c, const char *scope, const char *value);
/* When seat's turn deadline of secs from start runs out: its clock stops
   in their quiet hours, and waits while they are away (up to away_max). */
int64_t host__prefs_deadline(ctx *c, int seat, int64_t start, int64_t secs);
/* Whether seat's player is not to be reminded at t (quiet hours, away);
 *until: when that ends. */
bool host__prefs_quiet_at(ctx *c, int seat, int64_t t, int64_t *until);
/* Whether seat's player is away and asked a computer player to play. */
bool host__prefs_away_bot(ctx *c, int seat);

/* ---- links.c: one person's ids on several networks ---- */
#define LINK_MAX 4 /* ids tied together at most */
#define LINK_SCOPE "link"
#define LINK_ID_LEN (2 * STORE_ID_MAX + 2) /* bytes of "network\x1fplayer", NUL included */
typedef struct link_ids {
    int n;
    char network[LINK_MAX][STORE_ID_MAX];
    char player[LINK_MAX][STORE_ID_MAX];
    char nick[LINK_MAX][STORE_ID_MAX]; /* as it was when tied: how its person is named */
} link_ids;
/* The kv key of player on network into id ("" when it does not fit). */
void host__link_key(const char *network, const char *player, char *id, size_t cap);
/* Splits a group's line s[0..len) "network\x1fplayer\x1fnick" into part.
   0, or -1 when it is no such line. */
int host__link_split(const char *s, size_t len, char part[3][STORE_ID_MAX]);
/* player's id on network (called nick) and the ids tied to it, that one
   first (n >= 1 unless the id is too long to keep). 0 or a store_err. */
int host__link_group(ctx *c, const char *network, const char *player, const char *nick,
                     link_ids *out);

#endif /* PZ_HPREFS_H */
