/*
 * absent.c — the commands of absent people and substitutes: "back" (a
 * computer player no longer plays for me; my seat back after I left) and "sub NICK [SEAT]" (a seat
 * offered to NICK, who takes it with join).
 *
 * Not here: missed turns, leaving mid-game and taking an offer (the
 * core's absent.c).
 */
#include <stdio.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hseats.h"
#include "hverbs.h"

void host__verb_back(ctx *c, const cmd *k)
{
    (void)k;
    int seat = host__game_seat_of(c, c->m->sender);
    if (seat < 0) {
        if (!host__take_back(c)) /* a person who left takes their seat back */
            host__reply(c, N_("you are not playing in this game"));
        return;
    }
    bool was_away = host__absent_back(c, seat);
    host__game_save(c);
    if (!was_away)
        host__reply(c, N_("you are playing already: nobody plays for you"));
}

void host__verb_sub(ctx *c, const cmd *k)
{
    if (c->row.status != STORE_PLAYING && c->row.status != STORE_PAUSED) {
        host__reply(c, N_("there is no game under way here: say %sjoin to sit"), host__prefix(c));
        return;
    }
    int mine = host__game_seat_of(c, c->m->sender), seat = mine;
    if (k->name2[0] != '\0') { /* sub NICK SEAT: a seat a computer player holds */
        seat = host__robot_named(c, k->name2);
        if (seat < 0) {
            host__reply(c, N_("nobody called %s plays here"), k->name2);
            return;
        }
        /* another's seat: the table's creator, a moderator or an owner
           decides (its player may be back under another id) */
        if (seat != mine && !host__may_manage(c))
            return;
    } else if (seat < 0) {
        host__reply(c,
                    N_("you are not playing here: the creator may say %ssub %s 1 (Robot 1's seat)"),
                    host__prefix(c), k->name);
        return;
    }
    if (host__game_seat_named(c, k->name) >= 0) {
        host__reply(c, N_("%s plays here already"), k->name);
        return;
    }
    host__offer(c, seat, k->name);
    host__say_room(c, c->row.room, N_("%s's seat is offered to %s: %s, say %sjoin to take it"),
                   c->seats[seat].nick, k->name, k->name, host__prefix(c));
}
