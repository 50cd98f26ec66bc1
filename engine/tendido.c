/*
 * tendido.c — the tendido (R4): dealing it, the dealer's "now or later"
 * choice, the arrangement by row and direction and its points (R4.3), the
 * sets it forms with the table (R4.4), and the best arrangement (R4.6).
 *
 * Not here: when the tendido must be dealt (rules.c decides at each deal).
 */
#include <string.h>

#include "rules_int.h"

/* R4.1: the dealer deals the four tendido cards face up. */
void pz__deal_tendido(ctx *c)
{
    pz_game *g = c->g;
    pz_event *e = pz__emit(c, PZ_EV_TENDIDO);
    e->seat = (int8_t)g->dealer;
    for (int i = 0; i < 4; i++)
        e->cards[i] = g->tendido[i] = pz__draw(g);
    e->ncards = g->ntendido = 4;
    g->tendido_done = 1;
    g->phase = PZ_PHASE_ARRANGE;
    g->turn = -1;
}

/* R4.3: the points of a row counted in direction dir. */
int pz_tendido_place_points(const pz_card row[4], pz_direction dir)
{
    int points = 0;
    for (int i = 0; i < 4; i++) {
        int pos = dir == PZ_LTR ? i + 1 : 4 - i;
        if (row[i] < PZ_CARDS && pz_card_rank(row[i]) + 1 == pos)
            points += pos;
    }
    return points;
}

/* True when {a, b} and {x, y} are the same two cards. */
static bool same_pair(pz_card a, pz_card b, pz_card x, pz_card y)
{
    return (a == x && b == y) || (a == y && b == x);
}

/* R4.3: the row is one pair on the left, the other on the right. */
static bool is_arrangement(const pz_game *g, const pz_card row[4])
{
    const pz_card *t = g->tendido;
    return (same_pair(row[0], row[1], t[0], t[1]) && same_pair(row[2], row[3], t[2], t[3])) ||
           (same_pair(row[0], row[1], t[2], t[3]) && same_pair(row[2], row[3], t[0], t[1]));
}

/* R4.6: the first best row in the documented order; returns its points. */
int pz_best_arrangement(const pz_game *g, pz_card row[4], pz_direction *dir)
{
    if (g->phase != PZ_PHASE_ARRANGE)
        return PZ_EWRONG_PHASE;
    int best = -1;
    for (int first = 0; first < 2; first++)
        for (int swap_l = 0; swap_l < 2; swap_l++)
            for (int swap_r = 0; swap_r < 2; swap_r++) {
                const pz_card *l = &g->tendido[first ? 2 : 0], *r = &g->tendido[first ? 0 : 2];
                pz_card cand[4] = {l[swap_l], l[!swap_l], r[swap_r], r[!swap_r]};
                for (int d = PZ_LTR; d <= PZ_RTL; d++) {
                    int p = pz_tendido_place_points(cand, (pz_direction)d);
                    if (p > best) {
                        best = p;
                        memcpy(row, cand, 4);
                        *dir = (pz_direction)d;
                    }
                }
            }
    return best;
}

/* R4.4: the sets the tendido forms on the table (already laid). */
static int tendido_sets(const pz_game *g, const pz_card row[4])
{
    uint8_t count[PZ_RANKS] = {0};
    bool in_tendido[PZ_RANKS] = {false};
    int points = 0;
    for (int i = 0; i < g->ntable; i++)
        count[pz_card_rank(g->table[i])]++;
    for (int i = 0; i < 4; i++)
        in_tendido[pz_card_rank(row[i])] = true;
    for (int r = 0; r < PZ_RANKS; r++) {
        if (!in_tendido[r] || count[r] < 2)
            continue;
        points += count[r] == 2   ? pz_ronda_value(r)
                  : count[r] == 3 ? pz_rondine_value(r)
                                  : pz_four_value(r);
    }
    return points;
}

/* R4.3–R4.4: the dealer's arrangement, its points, then play begins. */
int pz__apply_arrange(ctx *c, const pz_action *a, char *why, size_t why_len)
{
    pz_game *g = c->g;
    pz_card row[4];
    pz_direction dir;
    if (g->phase != PZ_PHASE_ARRANGE) {
        pz__why(why, why_len, "there is no tendido to arrange now");
        return PZ_EWRONG_PHASE;
    }
    if (a->seat != g->dealer) {
        pz__why(why, why_len, "only the dealer (seat %d) arranges the tendido", g->dealer);
        return PZ_ENOT_DEALER;
    }
    if (a->best) {
        pz_best_arrangement(g, row, &dir);
    } else {
        if (!is_arrangement(g, a->row) || (unsigned)a->direction > PZ_RTL) {
            pz__why(why, why_len,
                    "lay one pair of the tendido on the left and the other on the right, "
                    "each pair in either order, counted ltr or rtl");
            return PZ_EBAD_ARRANGEMENT;
        }
        memcpy(row, a->row, 4);
        dir = a->direction;
    }
    int place = pz_tendido_place_points(row, dir);
    pz_event *e = pz__emit(c, PZ_EV_ARRANGED);
    e->seat = (int8_t)g->dealer;
    memcpy(e->cards, row, 4);
    e->ncards = 4;
    e->direction = (uint8_t)dir;
    e->points = (int16_t)place;
    memcpy(&g->table[g->ntable], row, 4);
    g->ntable = (uint8_t)(g->ntable + 4);
    g->ntendido = 0;
    int side = pz__side(g, g->dealer);
    if (pz__add_score(c, side, g->dealer, PZ_REASON_TENDIDO_PLACE, place) ||
        pz__add_score(c, side, g->dealer, PZ_REASON_TENDIDO_SETS, tendido_sets(g, row)))
        return 0;
    if (g->deal == g->deals && g->opt.tendido == PZ_TENDIDO_CHOICE)
        pz__lay_leftover(c);
    pz__begin_play(c);
    return 0;
}

/* R4.1–R4.2: the dealer says now or later. */
int pz__apply_tendido(ctx *c, const pz_action *a, char *why, size_t why_len)
{
    pz_game *g = c->g;
    if (g->phase != PZ_PHASE_TENDIDO_CHOICE) {
        pz__why(why, why_len, "the dealer chooses the tendido only right after a deal");
        return PZ_EWRONG_PHASE;
    }
    if (a->seat != g->dealer) {
        pz__why(why, why_len, "only the dealer (seat %d) chooses the tendido", g->dealer);
        return PZ_ENOT_DEALER;
    }
    if (a->now)
        pz__deal_tendido(c);
    else
        pz__begin_play(c);
    return 0;
}
