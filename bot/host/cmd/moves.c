/*
 * moves.c — moves: a seated player's legal moves now, each with what it
 * would take or score, sent privately ("7♥ takes 7♣ 8♦: limpia +1 · K♠
 * lays"). Each move is tried on a copy of the game and its events are
 * rendered (render_outcome), so what is said is what the engine would do.
 * Not here: making a move (play.c), the referee's claims (a claim that
 * would succeed tells what another hand holds: never listed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hverbs.h"
#include "i18n.h"

#define MOVES_LINE 360 /* bytes of one private line of moves, at most */

/* Whether a is worth a line of its own in the player's list: claims are
   never shown, an arrangement only as "best", and a play whose mode the
   rules decide only once (as asked with no mode). */
static bool shown(const pz_action *a, const pz_action *all, int n)
{
    if (a->kind == PZ_ACT_CLAIM || a->kind == PZ_ACT_NEXT_HAND)
        return false;
    if (a->kind == PZ_ACT_ARRANGE)
        return a->best;
    if (a->kind != PZ_ACT_PLAY || a->mode == PZ_MODE_ANY)
        return true;
    for (int i = 0; i < n; i++)
        if (all[i].kind == PZ_ACT_PLAY && all[i].card == a->card && all[i].mode == PZ_MODE_ANY)
            return false;
    return true;
}

/* Sends line to the sender privately, headed by the game's room. */
static void send_moves(ctx *c, const char *line, bool more)
{
    host__say_private(c, c->m->sender, 0,
                      more ? N_("Your moves in %s (more): %s") : N_("Your moves in %s: %s"),
                      c->row.room, line);
}

void host__verb_moves(ctx *c, const cmd *k)
{
    (void)k;
    if (c->g == NULL) {
        host__reply(c, N_("the game has not started: %d seated; the creator says %sstart"),
                    c->nseats, host__prefix(c));
        return;
    }
    int seat = host__game_seat_of(c, c->m->sender);
    if (seat < 0) {
        host__reply(c, N_("you are not playing in this game"));
        return;
    }
    pz_action *acts = malloc(PZ_LEGAL_MAX * sizeof *acts);
    pz_events *ev = malloc(sizeof *ev);
    if (acts == NULL || ev == NULL) {
        free(acts);
        free(ev);
        host__failed(c, -1);
        return;
    }
    int n = pz_legal_actions(c->g, seat, acts, PZ_LEGAL_MAX);
    render_names names = host__game_names(c);
    char line[MOVES_LINE] = "", one[RENDER_LINE_MAX];
    size_t len = 0;
    int listed = 0, lines = 0;
    /* a private line: in the sender's own language (else the room's) */
    I18N_SCOPE(host_player_lang(c->h, c->network, c->m->sender, c->row.room));
    for (int i = 0; i < n && !c->failed; i++) {
        if (!shown(&acts[i], acts, n))
            continue;
        pz_game *copy = pz_clone(c->g);
        ev->n = 0;
        if (copy == NULL || pz_apply(copy, &acts[i], ev, NULL, 0) != 0) {
            pz_free(copy);
            host__failed(c, -1);
            break;
        }
        render_outcome(copy, &names, &acts[i], ev, one, sizeof one);
        pz_free(copy);
        size_t add = strlen(one) + (len > 0 ? 4 : 0); /* " · " is 4 bytes */
        if (len > 0 && len + add >= sizeof line) {
            send_moves(c, line, lines++ > 0);
            len = 0;
            add = strlen(one);
        }
        int w = snprintf(line + len, sizeof line - len, "%s%s", len > 0 ? " \xC2\xB7 " : "", one);
        if (w < 0 || (size_t)w >= sizeof line - len) {
            line[len] = '\0'; /* a move longer than a line is left out whole */
            continue;
        }
        len += (size_t)w;
        listed++;
    }
    free(acts);
    free(ev);
    if (!c->failed && listed > 0)
        send_moves(c, line, lines > 0);
    if (c->failed || listed > 0)
        return;
    int actor = host__game_actor(c->g);
    if (actor >= 0 && actor < c->nseats)
        host__reply(c, N_("nothing for you to do now: it is %s's turn"), c->seats[actor].nick);
    else
        host__reply(c, N_("nothing for you to do now"));
}
