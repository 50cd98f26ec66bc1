/*
 * view.c — reading a game: the referee accessors, which see everything,
 * and pz_view_seat(), which fills a view holding only what one seat may
 * know (public state, its own hand and holding, other hands as counts).
 *
 * Not here: anything that changes a game.
 */
#include <string.h>

#include "game.h"

pz_phase pz_get_phase(const pz_game *g)
{
    return (pz_phase)g->phase;
}
int pz_get_players(const pz_game *g)
{
    return g->players;
}
int pz_get_sides(const pz_game *g)
{
    return g->sides;
}
const pz_options *pz_get_options(const pz_game *g)
{
    return &g->opt;
}
int pz_get_dealer(const pz_game *g)
{
    return g->dealer;
}
int pz_get_deal(const pz_game *g)
{
    return g->deal;
}
int pz_get_deals_per_hand(const pz_game *g)
{
    return g->deals;
}
int pz_get_stock(const pz_game *g)
{
    return g->nstock;
}
int pz_get_winner(const pz_game *g)
{
    return g->winner;
}

/* R1.5: the side of seat, -1 out of range. */
int pz_side_of(const pz_game *g, int seat)
{
    return seat >= 0 && seat < g->players ? pz__side(g, seat) : -1;
}

/* The dealer during the tendido phases, the player in play, else -1. */
int pz_get_turn(const pz_game *g)
{
    if (g->phase == PZ_PHASE_TENDIDO_CHOICE || g->phase == PZ_PHASE_ARRANGE)
        return g->dealer;
    return g->phase == PZ_PHASE_PLAY ? g->turn : -1;
}

int pz_get_score(const pz_game *g, int side)
{
    return side >= 0 && side < g->sides ? g->score[side] : 0;
}

int pz_get_pile(const pz_game *g, int side)
{
    return side >= 0 && side < g->sides ? g->pile[side] : 0;
}

int pz_get_table(const pz_game *g, pz_card out[PZ_CARDS])
{
    memcpy(out, g->table, g->ntable);
    return g->ntable;
}

int pz_get_hand(const pz_game *g, int seat, pz_card out[PZ_CARDS])
{
    if (seat < 0 || seat >= g->players)
        return 0;
    memcpy(out, g->hand[seat], g->nhand[seat]);
    return g->nhand[seat];
}

int pz_get_tendido(const pz_game *g, pz_card out[4])
{
    memcpy(out, g->tendido, g->ntendido);
    return g->ntendido;
}

pz_pending_kind pz_get_pending(const pz_game *g, int *seat)
{
    if (seat != NULL)
        *seat = g->pend_kind != PZ_PENDING_NONE ? g->pend_seat : -1;
    return (pz_pending_kind)g->pend_kind;
}

int pz_get_pending_cards(const pz_game *g, pz_card out[16])
{
    memcpy(out, g->pend_cards, g->pend_n);
    return g->pend_n;
}

/* Fills the public part of a view. */
static void view_public(const pz_game *g, pz_view *v)
{
    v->players = g->players;
    v->sides = g->sides;
    v->dealer = g->dealer;
    v->deal = g->deal;
    v->deals_per_hand = g->deals;
    v->turn = pz_get_turn(g);
    v->phase = (pz_phase)g->phase;
    v->options = g->opt;
    for (int s = 0; s < g->sides; s++) {
        v->scores[s] = g->score[s];
        v->piles[s] = g->pile[s];
    }
    v->ntable = g->ntable;
    memcpy(v->table, g->table, g->ntable);
    for (int s = 0; s < g->players; s++)
        v->hand_count[s] = g->nhand[s];
    v->stock = g->nstock;
    v->ntendido = g->ntendido;
    memcpy(v->tendido, g->tendido, g->ntendido);
    v->pending = (pz_pending_kind)g->pend_kind;
    v->pending_seat = g->pend_kind != PZ_PENDING_NONE ? g->pend_seat : -1;
    v->pending_rank = g->pend_kind != PZ_PENDING_NONE ? g->pend_rank : -1;
    v->has_last_play = g->has_last;
    v->last_play_seat = g->has_last ? g->last_seat : -1;
    v->last_play_card = g->has_last ? g->last_card : PZ_NO_CARD;
    v->last_play_captured = g->has_last && g->last_captured;
    v->winner = g->winner;
}

/* What seat may know; see porrazo.h. */
int pz_view_seat(const pz_game *g, int seat, pz_view *v)
{
    if (seat < 0 || seat >= g->players)
        return PZ_EINVALID_ACTION;
    memset(v, 0, sizeof *v);
    view_public(g, v);
    v->seat = seat;
    v->side = pz__side(g, seat);
    /* R4.2: the dealer sees the new hand only after the tendido choice. */
    v->hand_hidden = g->phase == PZ_PHASE_TENDIDO_CHOICE && seat == g->dealer;
    if (!v->hand_hidden) {
        v->nhand = g->nhand[seat];
        memcpy(v->hand, g->hand[seat], g->nhand[seat]);
    }
    const pz_holding *h = &g->hold[seat];
    v->holding = g->r3_off ? PZ_HOLD_NONE : (pz_holding_kind)h->kind;
    v->holding_rank = v->holding != PZ_HOLD_NONE ? h->rank : -1;
    v->holding_declared = v->holding != PZ_HOLD_NONE && h->declared;
    v->may_declare = g->opt.declarations == PZ_DECL_MANUAL && g->phase == PZ_PHASE_PLAY &&
                     !g->first_play_done && v->holding != PZ_HOLD_NONE && !h->declared;
    return 0;
}
