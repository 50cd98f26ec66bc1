/*
 * hint.c — learning from the bot, by command: hint (the strong level's
 * choice for the asker's decision now, with its reason, privately). The
 * hand's review, review on|off, is a player's switch of the settings table
 * (settings.def, host__verb_switch in prefs.c); the practice table's verb, learn,
 * is new's (lobby.c).
 *
 * Not here: deciding and the words (the core's learn.c, on the worker).
 */
#include <stdio.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hlearn.h"
#include "hprefs.h"
#include "hverbs.h"
#include "i18n.h"

void host__verb_hint(ctx *c, const cmd *k)
{
    (void)k;
    if (c->g == NULL) {
        host__reply(c, _("the game has not started: there is nothing to hint yet"));
        return;
    }
    int seat = host__game_seat_of(c, c->m->sender);
    if (seat < 0) {
        host__reply(c, _("you are not playing in this game: hints are for its players"));
        return;
    }
    if (!host__learn_hints_allowed(c, c->row.room)) {
        host__reply(c, _("hints are off in %s (its moderators said so)"), c->row.room);
        return;
    }
    int actor = host__game_actor(c->g);
    pz_view v;
    pz_record r;
    /* the seat's own decision: its turn, its declaration, or a claim the
       public record proves (the strong level claims only those) */
    if (pz_view_seat(c->g, seat, &v) != 0 || pz_public_record(c->g, &r) != 0 ||
        (actor != seat && !v.may_declare && !r.claim_open)) {
        if (actor >= 0 && actor < c->nseats)
            host__reply(c, _("nothing for you to decide now: it is %s's turn"),
                        c->seats[actor].nick);
        else
            host__reply(c, _("nothing for you to decide now"));
        return;
    }
    (void)host__learn_hint(c, seat);
}
