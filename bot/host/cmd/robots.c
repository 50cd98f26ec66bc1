/*
 * robots.c — the commands that seat computer players at an open table and
 * take them away: addbot [N] [level], removebot [NAME].
 *
 * Not here: the computer players themselves (the core's robots.c).
 */
#include <stdio.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hrooms.h"
#include "hseats.h"
#include "hverbs.h"
#include "porrazo_ai.h"

void host__verb_addbot(ctx *c, const cmd *k)
{
    int room = c->set.max_players - c->nseats;
    if (k->count > room) {
        host__reply(c,
                    P_("the table has %d free seat, not %d", "the table has %d free seats, not %d",
                       (unsigned long)room),
                    room, k->count);
        return;
    }
    pzai_level lv = k->level >= 0 ? (pzai_level)k->level : (pzai_level)host__room_level(c);
    for (int i = 0; i < k->count && !c->failed && c->row.status == STORE_LOBBY; i++)
        host__robot_seat(c, lv);
}

void host__verb_removebot(ctx *c, const cmd *k)
{
    int seat = -1;
    if (k->name[0] != '\0') {
        seat = host__robot_named(c, k->name);
        if (seat >= 0 && !host__is_robot(c->seats[seat].player)) {
            host__reply(c, N_("%s is a person: only a computer player can be removed this way"),
                        c->seats[seat].nick);
            return;
        }
    } else {
        for (int s = 0; s < c->nseats; s++)
            if (host__is_robot(c->seats[s].player))
                seat = s; /* the last one seated */
    }
    if (seat < 0 && k->name[0] != '\0')
        host__reply(c, N_("no computer player called %s is seated here"), k->name);
    else if (seat < 0)
        host__reply(c, N_("no computer player is seated here"));
    if (seat < 0)
        return;
    host__unseat(c, seat);
}
