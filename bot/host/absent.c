/*
 * absent.c — a game never waits for good on a person who is not there.
 *
 * At a turn deadline the expert computer player moves for the absent
 * person (timers.c) and the turn is counted as missed; after absent_after
 * missed turns in a row (3) a computer player plays that seat at the
 * robots' pace until the person comes back: "back", or any move of theirs.
 * Kept in the settings' away and missed fields (seat bits, and four bits
 * of missed turns per seat). Prefix host__absent_.
 *
 * Not here: a seat given for good to a computer player or offered to
 * another person (seats.c), the computer players themselves (robots.c),
 * the clock (timers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hctx.h"
#include "hgame.h"
#include "hprefs.h"
#include "hrooms.h"
#include "hseats.h"
#include "porrazo_ai.h"

#define MISSED_MAX 15 /* four bits a seat */

static int missed_of(const settings *s, int seat)
{
    return (int)((s->missed >> (4 * seat)) & 15u);
}

static void set_missed(settings *s, int seat, int n)
{
    s->missed &= ~(15u << (4 * seat));
    s->missed |= (unsigned)(n > MISSED_MAX ? MISSED_MAX : n) << (4 * seat);
}

bool host__absent_computer(ctx *c, int seat)
{
    return seat >= 0 && seat < c->nseats &&
           (host__is_robot(c->seats[seat].player) || (c->set.away & (1u << seat)) != 0 ||
            host__prefs_away_bot(c, seat));
}

void host__absent_missed(ctx *c, int seat)
{
    if (seat < 0 || seat >= c->nseats || host__is_robot(c->seats[seat].player))
        return;
    int n = missed_of(&c->set, seat) + 1, after = c->h->cfg.absent_after;
    set_missed(&c->set, seat, n);
    if (after <= 0 || n < after || (c->set.away & (1u << seat)) != 0)
        return;
    c->set.away |= 1u << seat;
    host__say_room(
        c, c->row.room,
        N_("%s has missed %d turns in a row: a computer player plays for them until they are "
           "back (%sback)"),
        c->seats[seat].nick, n, host__prefix(c));
    host__event(c, "%s is away after %d missed turns: a computer player plays for them",
                c->seats[seat].nick, n);
}

void host__absent_forget(ctx *c, int seat)
{
    c->set.away &= ~(1u << seat);
    set_missed(&c->set, seat, 0);
}

bool host__absent_back(ctx *c, int seat)
{
    if ((c->set.away & (1u << seat)) != 0) {
        host__absent_acted(c, seat);
        return true;
    }
    set_missed(&c->set, seat, 0);
    return false;
}

void host__absent_acted(ctx *c, int seat)
{
    if (seat < 0 || seat >= c->nseats)
        return;
    set_missed(&c->set, seat, 0);
    if ((c->set.away & (1u << seat)) == 0)
        return;
    c->set.away &= ~(1u << seat);
    host__say_room(c, c->row.room, N_("%s is back and plays again"), c->seats[seat].nick);
}
