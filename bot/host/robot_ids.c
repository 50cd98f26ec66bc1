/*
 * robot_ids.c — who the computer players are: their ids ("bot:LEVEL#N"),
 * their names at a table ("Robot N (LEVEL)", N the smallest number free),
 * the statistics row of each level, and a seat named by a person's name
 * or a robot's number. Prefix host__robot_ (with robots.c).
 *
 * Not here: seating them and their moves (robots.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hseats.h"
#include "porrazo_ai.h"

int host__robot_level_of(const char *player, int *out)
{
    char name[16];
    pzai_level level;
    if (!host__is_robot(player))
        return -1; /* a person's id may be shorter than the prefix: look no further */
    const char *p = player + strlen(ROBOT_ID);
    size_t n = strcspn(p, "#");
    if (n == 0 || n >= sizeof name)
        return -1;
    memcpy(name, p, n);
    name[n] = '\0';
    if (pzai_level_parse(name, &level) != 0)
        return -1;
    *out = (int)level;
    return 0;
}

void host__robot_stats_id(const char *player, char *id, size_t id_cap, char *nick, size_t nick_cap)
{
    int level;
    if (host__robot_level_of(player, &level) != 0)
        level = PZAI_STRONG;
    snprintf(id, id_cap, "%s%s", ROBOT_ID, pzai_level_name((pzai_level)level));
    snprintf(nick, nick_cap, "Robot (%s)", pzai_level_name((pzai_level)level));
}

/* The smallest robot number not seated, 1..PZ_MAX_PLAYERS. */
static int free_number(const ctx *c)
{
    for (int k = 1; k <= PZ_MAX_PLAYERS; k++) {
        bool used = false;
        for (int s = 0; s < c->nseats; s++) {
            const char *hash = strchr(c->seats[s].player, '#');
            used |= host__is_robot(c->seats[s].player) && hash != NULL &&
                    strtol(hash + 1, NULL, 10) == k;
        }
        if (!used)
            return k;
    }
    return PZ_MAX_PLAYERS;
}

void host__robot_identity(const ctx *c, int level, char *id, size_t id_cap, char *nick,
                          size_t nick_cap)
{
    /* the level in the nick as the room reads it ("Robot 1 (fuerte)"); the
       id keeps the engine's word */
    static const char *const shown[] = {N_("beginner"), N_("greedy"), N_("expert"), N_("strong")};
    int k = free_number(c);
    const char *name = pzai_level_name((pzai_level)level);
    snprintf(id, id_cap, "%s%s#%d", ROBOT_ID, name, k);
    snprintf(nick, nick_cap, "Robot %d (%s)", k,
             level >= 0 && level < (int)(sizeof shown / sizeof shown[0]) ? _(shown[level]) : name);
}

int host__robot_named(const ctx *c, const char *name)
{
    int seat = host__game_seat_named(c, name);
    if (seat >= 0)
        return seat;
    char nick[STORE_ID_MAX + 8]; /* "2": Robot 2 */
    if (snprintf(nick, sizeof nick, "Robot %s", name) >= (int)sizeof nick)
        return -1;
    size_t n = strlen(nick);
    for (int s = 0; s < c->nseats; s++)
        if (host__is_robot(c->seats[s].player) && strncmp(c->seats[s].nick, nick, n) == 0 &&
            c->seats[s].nick[n] == ' ')
            return s;
    return -1;
}
