/*
 * legal.c — what a seat may do now: the exact list of accepted actions
 * (pz_legal_actions) and the host's default choice for a seat whose time
 * ran out (pz_default_action).
 *
 * Plays are listed from pz__play_modes(), the very function pz_apply()
 * decides plays with, so the two cannot disagree. Not here: applying actions.
 */
#include <string.h>

#include "game.h"

/* Appends a to out when there is room; counts it either way. */
static void push(pz_action *out, int cap, int *n, pz_action a)
{
    if (*n < cap)
        out[*n] = a;
    (*n)++;
}

/* The plays of seat (its turn), each with every mode it accepts. */
static void list_plays(const pz_game *g, int seat, pz_action *out, int cap, int *n)
{
    for (int i = 0; i < g->nhand[seat]; i++) {
        unsigned modes = pz__play_modes(g, g->hand[seat][i]);
        for (int m = PZ_MODE_ANY; m <= PZ_MODE_PLACE; m++)
            if (modes & (1u << m))
                push(out, cap, n, pz_act_play(seat, g->hand[seat][i], (pz_mode)m));
    }
}

/* The dealer's sixteen explicit rows and "best" (R4.3, R4.6). */
static void list_arrangements(const pz_game *g, int seat, pz_action *out, int cap, int *n)
{
    push(out, cap, n, pz_act_arrange_best(seat));
    for (int first = 0; first < 2; first++)
        for (int swap_l = 0; swap_l < 2; swap_l++)
            for (int swap_r = 0; swap_r < 2; swap_r++) {
                const pz_card *l = &g->tendido[first ? 2 : 0], *r = &g->tendido[first ? 0 : 2];
                pz_card row[4] = {l[swap_l], l[!swap_l], r[swap_r], r[!swap_r]};
                push(out, cap, n, pz_act_arrange(seat, row, PZ_LTR));
                push(out, cap, n, pz_act_arrange(seat, row, PZ_RTL));
            }
}

/* The claims of seat that would succeed (R3.6). */
static void list_claims(const pz_game *g, int seat, pz_action *out, int cap, int *n)
{
    if (!g->claim_open)
        return;
    for (int t = 0; t < g->players; t++) {
        const pz_holding *h = &g->prev[t];
        if (pz__side(g, t) != pz__side(g, seat) && h->kind != PZ_HOLD_NONE && !h->declared &&
            !h->claimed)
            push(out, cap, n, pz_act_claim(seat, t));
    }
}

/* Everything seat may do now. */
static void list_seat(const pz_game *g, int seat, pz_action *out, int cap, int *n)
{
    switch (g->phase) {
    case PZ_PHASE_TENDIDO_CHOICE:
        if (seat == g->dealer) {
            push(out, cap, n, pz_act_tendido(seat, true));
            push(out, cap, n, pz_act_tendido(seat, false));
        }
        break;
    case PZ_PHASE_ARRANGE:
        if (seat == g->dealer)
            list_arrangements(g, seat, out, cap, n);
        break;
    case PZ_PHASE_PLAY:
        if (seat == g->turn)
            list_plays(g, seat, out, cap, n);
        if (g->opt.declarations == PZ_DECL_MANUAL && !g->first_play_done && !g->r3_off &&
            g->hold[seat].kind != PZ_HOLD_NONE && !g->hold[seat].declared)
            push(out, cap, n, pz_act_declare(seat));
        break;
    default:
        break;
    }
    if (g->phase != PZ_PHASE_GAME_OVER)
        list_claims(g, seat, out, cap, n);
}

/* The exact list of accepted actions; see porrazo.h. */
int pz_legal_actions(const pz_game *g, int seat, pz_action *out, int cap)
{
    int n = 0;
    if (seat >= g->players || seat < -1)
        return 0;
    if (seat >= 0) {
        list_seat(g, seat, out, cap, &n);
        return n;
    }
    for (int s = 0; s < g->players; s++)
        list_seat(g, s, out, cap, &n);
    if (g->phase == PZ_PHASE_HAND_OVER)
        push(out, cap, &n, pz_act_next_hand(NULL));
    return n;
}

/*
 * The value of a play for the seat's side: points its events score for
 * the side, plus what it leaves pending for the seat, a win above all.
 */
static int play_value(const pz_game *g, const pz_action *a)
{
    pz_game copy;
    pz_events ev;
    int side = pz__side(g, a->seat);
    int value = 0;
    memcpy(&copy, g, sizeof copy);
    ev.n = 0;
    if (pz_apply(&copy, a, &ev, NULL, 0) != 0)
        return -1;
    if (copy.phase == PZ_PHASE_GAME_OVER)
        return copy.winner == side ? 1 << 20 : -1;
    for (int i = 0; i < ev.n; i++)
        if (ev.ev[i].kind == PZ_EV_SCORE && ev.ev[i].side == side)
            value += ev.ev[i].points;
    if (copy.pend_kind != PZ_PENDING_NONE && copy.pend_seat == a->seat) {
        value += copy.pend_kind == PZ_PENDING_COUNTER ? pz_rondine_value(copy.pend_rank)
                                                      : pz_ronda_value(copy.pend_rank);
        if (copy.pend_limpia)
            value += pz_ronda_value(copy.pend_last_rank);
    }
    return value;
}

/* The default choice of a seat; see porrazo.h. */
int pz_default_action(const pz_game *g, int seat, pz_action *out)
{
    if (seat < 0 || seat >= g->players)
        return PZ_EINVALID_ACTION;
    if (g->phase == PZ_PHASE_TENDIDO_CHOICE && seat == g->dealer) {
        *out = pz_act_tendido(seat, true);
        return 0;
    }
    if (g->phase == PZ_PHASE_ARRANGE && seat == g->dealer) {
        *out = pz_act_arrange_best(seat);
        return 0;
    }
    if (g->phase != PZ_PHASE_PLAY || seat != g->turn)
        return PZ_EWRONG_PHASE;
    pz_action plays[2 * PZ_CARDS + PZ_CARDS];
    int n = 0;
    list_plays(g, seat, plays, (int)(sizeof plays / sizeof plays[0]), &n);
    int best = -1, best_value = -2;
    for (int i = 0; i < n; i++) {
        int v = play_value(g, &plays[i]);
        bool better = v > best_value;
        if (v == best_value) { /* ties: lowest card, then ANY, capture, place */
            const pz_action *b = &plays[best];
            better =
                plays[i].card < b->card || (plays[i].card == b->card && plays[i].mode < b->mode);
        }
        if (better)
            best = i, best_value = v;
    }
    if (best < 0)
        return PZ_EWRONG_PHASE;
    *out = plays[best];
    return 0;
}
