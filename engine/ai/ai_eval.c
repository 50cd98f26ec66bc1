/*
 * ai_eval.c — what the levels share to judge actions on a (sampled) game:
 * the plays a seat may make, and the immediate value of an action for its
 * side (its score events, what it leaves pending, a win or a loss).
 *
 * Not here: sampling (ai_sample.c) or any level's preferences.
 */
#include "ai_int.h"

/* The points a pending porrazo or counter porrazo of g will score when it
   stands (R6.2, R6.4), 0 when none is pending. */
int pzai__pending_points(const pz_game *g)
{
    int seat;
    pz_pending_kind k = pz_get_pending(g, &seat);
    if (k == PZ_PENDING_NONE)
        return 0;
    pz_card cards[16];
    int n = pz_get_pending_cards(g, cards);
    int rank = pz_card_rank(cards[0]);
    int points = k == PZ_PENDING_COUNTER ? pz_rondine_value(rank) : pz_ronda_value(rank);
    pz_card tbl[PZ_CARDS];
    if (pz_get_table(g, tbl) == 0 && n >= 2) {
        /* A limpia: the porrazo's last taken card (a counter's card is last). */
        int last = k == PZ_PENDING_COUNTER ? n - 2 : n - 1;
        points += pz_ronda_value(pz_card_rank(cards[last]));
    }
    return points;
}

/* The value of a for its side; see ai_int.h. */
int pzai__action_value(const pz_game *g, const pz_action *a, pz_game **after)
{
    pz_game *copy = pz_clone(g);
    pz_events ev;
    if (copy == NULL)
        return INT32_MIN;
    ev.n = 0;
    if (pz_apply(copy, a, &ev, NULL, 0) != 0) {
        pz_free(copy);
        return INT32_MIN;
    }
    int side = pz_side_of(g, a->seat), value = 0;
    for (int i = 0; i < ev.n; i++)
        if (ev.ev[i].kind == PZ_EV_SCORE)
            value += ev.ev[i].side == side ? ev.ev[i].points : -ev.ev[i].points;
    int winner = pz_get_winner(copy);
    if (winner >= 0) {
        value = winner == side ? PZAI_WIN : -PZAI_WIN;
    } else {
        int seat;
        if (pz_get_pending(copy, &seat) != PZ_PENDING_NONE)
            value += pz_side_of(copy, seat) == side ? pzai__pending_points(copy)
                                                    : -pzai__pending_points(copy);
    }
    if (after != NULL)
        *after = copy;
    else
        pz_free(copy);
    return value;
}

/* The plays of seat in g, ANY dropped where a mode is also listed. */
int pzai__plays(const pz_game *g, int seat, pz_action out[PZ_LEGAL_MAX])
{
    pz_action all[PZ_LEGAL_MAX];
    int n = pz_legal_actions(g, seat, all, PZ_LEGAL_MAX), k = 0;
    if (n > PZ_LEGAL_MAX)
        n = PZ_LEGAL_MAX;
    for (int i = 0; i < n; i++) {
        if (all[i].kind != PZ_ACT_PLAY)
            continue;
        bool other_mode = false;
        for (int j = 0; j < n && all[i].mode == PZ_MODE_ANY; j++)
            other_mode |= j != i && all[j].kind == PZ_ACT_PLAY && all[j].card == all[i].card;
        if (!other_mode)
            out[k++] = all[i];
    }
    return k;
}

/* R1.3 in a game with options o: the rank after r, or -1. */
static int next_rank(const pz_options *o, int r)
{
    return r == 12 ? (o->wrap ? 0 : -1) : r + 1;
}

/* The cards of each rank on a table of n cards. */
static void count_ranks(const pz_card *table, int n, int count[PZ_RANKS])
{
    for (int k = 0; k < PZ_RANKS; k++)
        count[k] = 0;
    for (int i = 0; i < n; i++)
        count[pz_card_rank(table[i])]++;
}

/* The rank whose capture would clear the whole table (R5.2, R5.6), or -1:
   one card of each rank of a run. *last receives the run's last rank. */
int pzai__limpia_rank(const pz_options *o, const pz_card *table, int n, int *last)
{
    int count[PZ_RANKS];
    count_ranks(table, n, count);
    for (int start = 0; start < PZ_RANKS && n > 0; start++) {
        if (count[start] != 1)
            continue;
        int taken = 0, r = start, end = start;
        while (r >= 0 && count[r] == 1 && taken < n) {
            taken++, end = r;
            r = next_rank(o, r);
            if (r == start)
                break;
        }
        if (taken == n) {
            *last = end;
            return start;
        }
    }
    return -1;
}

/* Some card of rank k is in unseen. */
static bool unseen_rank(uint64_t unseen, int k)
{
    return (unseen >> (4 * k) & 15) != 0;
}

/* What the next player may score at once in `after`, by kind; see ai_int.h. */
int pzai__threats(const pz_game *after, int seat, uint64_t unseen, int out[PZAI_THREATS])
{
    for (int i = 0; i < PZAI_THREATS; i++)
        out[i] = 0;
    int next = pz_get_turn(after);
    if (pz_get_phase(after) != PZ_PHASE_PLAY || next < 0 || next == seat)
        return -1;
    const pz_options *o = pz_get_options(after);
    pz_card table[PZ_CARDS];
    int n = pz_get_table(after, table), last, pseat;
    pz_view pv;
    if (pz_get_pending(after, &pseat) == PZ_PENDING_NONE && pz_view_seat(after, seat, &pv) == 0 &&
        pv.has_last_play && !pv.last_play_captured) {
        /* A porrazo on the card just laid (R6.1). */
        int laid = pz_card_rank(pv.last_play_card);
        if (unseen_rank(unseen, laid))
            out[PZAI_THREAT_PORRAZO] = pz_ronda_value(laid);
    }
    if (pz_get_pending(after, &pseat) != PZ_PENDING_NONE && pseat == seat) {
        /* A counter porrazo on the seat's own (R6.2): the third card. */
        pz_card cards[16];
        pz_get_pending_cards(after, cards);
        if (unseen_rank(unseen, pz_card_rank(cards[0])))
            out[PZAI_THREAT_COUNTER] = pz_rondine_value(pz_card_rank(cards[0]));
    }
    int k = pzai__limpia_rank(o, table, n, &last);
    if (k >= 0 && unseen_rank(unseen, k))
        out[PZAI_THREAT_LIMPIA] = pz_ronda_value(last);
    if (n <= 3 && unseen_rank(unseen, n))
        out[PZAI_THREAT_IN_PLACE] = n + 1; /* R5.4: in place next */
    return next;
}

/* The threat the next player meets in `after`; see ai_int.h. */
int pzai__exposure(const pz_game *after, int seat, uint64_t unseen)
{
    int t[PZAI_THREATS], threat = 0;
    int next = pzai__threats(after, seat, unseen, t);
    if (next < 0)
        return 0;
    for (int i = 0; i < PZAI_THREATS; i++)
        threat += t[i];
    return pz_side_of(after, next) == pz_side_of(after, seat) ? -threat : threat;
}

/* The weight of one won card for side's standing (R7.2): the card score
   goes to the side with most cards, against the next one. */
double pzai__card_weight(const pz_game *g)
{
    if (pz_get_options(g)->card_score == PZ_CARD_SCORE_EXCESS26)
        return 0.5;
    return pz_get_sides(g) == 2 ? 0.5 : 0.25;
}

/* A side's score, its won cards weighted, and the porrazo it has pending. */
static double side_worth(const pz_game *g, int side, double weight, int pend_side, int pend)
{
    return pz_get_score(g, side) + weight * pz_get_pile(g, side) + (side == pend_side ? pend : 0);
}

/* How well side stands in g; see ai_int.h. */
double pzai__standing(const pz_game *g, int side, double weight)
{
    int winner = pz_get_winner(g), seat;
    if (winner >= 0)
        return winner == side ? PZAI_WIN : -PZAI_WIN;
    int pend_side = -1, pend = 0;
    if (pz_get_pending(g, &seat) != PZ_PENDING_NONE) {
        pend_side = pz_side_of(g, seat);
        pend = pzai__pending_points(g);
    }
    double own = side_worth(g, side, weight, pend_side, pend), best = -1e9;
    for (int s = 0; s < pz_get_sides(g); s++) {
        double w = side_worth(g, s, weight, pend_side, pend);
        if (s != side && w > best)
            best = w;
    }
    return own - best;
}
