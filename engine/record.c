/*
 * record.c — the public record of a hand (pz_public_record): what any
 * attentive player at the table knows beyond the present state a view
 * shows: the cards gone from play, the cards each seat played this deal
 * and the deal before, declarations, the last holdings and claims, the
 * pending porrazo's cards. Computer players read it with their view.
 *
 * Not here: sampling what is hidden, or rebuilding a game from a view and
 * a record (determinize.c).
 */
#include <string.h>

#include "game.h"

/* The mask of n cards. */
static uint64_t mask_of(const pz_card *cards, int n)
{
    uint64_t m = 0;
    for (int i = 0; i < n; i++)
        m |= UINT64_C(1) << cards[i];
    return m;
}

/* The holding kind seat's holding h shows as declared, or PZ_HOLD_NONE. */
static uint8_t declared_kind(const pz_holding *h)
{
    return h->declared ? h->kind : (uint8_t)PZ_HOLD_NONE;
}

/* Fills *r with the public record of g's hand; see porrazo.h. */
int pz_public_record(const pz_game *g, pz_record *r)
{
    memset(r, 0, sizeof *r);
    uint64_t pending = mask_of(g->pend_cards, g->pend_n);
    r->gone = g->won;
    r->shown = g->won | pending | mask_of(g->table, g->ntable) | mask_of(g->tendido, g->ntendido);
    r->last_capturer = g->last_capturer;
    r->first_play_done = g->first_play_done;
    r->tendido_done = g->tendido_done;
    r->holdings_unknown = g->r3_off;
    r->claim_open = g->claim_open;
    for (int s = 0; s < g->players && s < PZ_MAX_PLAYERS; s++) {
        r->played[s] = g->played[s];
        r->played_prev[s] = g->played_prev[s];
        r->declared[s] = g->r3_off ? (uint8_t)PZ_HOLD_NONE : declared_kind(&g->hold[s]);
        r->declared_prev[s] = declared_kind(&g->prev[s]);
        r->held_prev[s] = g->prev[s].kind;
        r->held_prev_rank[s] = g->prev[s].kind != PZ_HOLD_NONE ? g->prev[s].rank : 0;
        r->claimed_prev[s] = g->prev[s].claimed;
    }
    r->npending = g->pend_n;
    memcpy(r->pending_cards, g->pend_cards, g->pend_n);
    if (g->pend_kind != PZ_PENDING_NONE) {
        r->pending_limpia = g->pend_limpia;
        r->pending_last_rank = g->pend_last_rank;
    }
    return 0;
}
