/*
 * ai_expert.c — the expert level: hand-written judgement with look-ahead,
 * from RULES.md. Each play is weighed on a few sampled deals of the hidden
 * cards (consistent with the view and the record) by how the seat's side
 * stands (scores, won cards towards R7.2, porrazos pending) once the round
 * has gone on in that deal: every other player answering with its best
 * play at once (partners for the side, R1.5), then the seat's own answer.
 * That round sees:
 * - porrazo and counter-porrazo risk (R6.1–R6.3): a card laid where the
 *   next player may porrazo it, a porrazo the next player may counter,
 *   and the seat's own porrazo on a card laid by the player before it;
 * - the limpia left to the next player (R5.6) and in-place cards (R5.4),
 *   the capture-or-place choice of R5.5 included;
 * - the final sweep (R7.1): in the hand's last deal the hand is played out
 *   to its end in each sample (every player's best play at once, in turn),
 *   so capturing last, and the table that goes with it, is seen.
 * Ties go to the play that leaves the least on the public table, then the
 * lowest card. The dealer takes the tendido now only when its expected
 * points at once (arrangement and sets with the table now, R4.3–R4.4) are
 * high: otherwise later, as four cards laid early are the first player's
 * to take (measured: later wins clearly more often against greedy). It
 * always arranges the best row (the sets do not depend on the row).
 *
 * Not here: claims and declarations (ai.c makes them for every level).
 */
#include "ai_int.h"

#define SAMPLES 12         /* sampled deals per decision */
#define TENDIDO_SAMPLES 16 /* sampled deals for the tendido choice */
#define TENDIDO_NOW 7.0    /* expected points that make "now" worth it */
#define ROLLOUT_STEPS 64   /* plays at most in a played-out end of hand */

/* The plays of the seat to move in a game. */
typedef struct options {
    int n;
    pz_action play[PZ_LEGAL_MAX];
} options;

/* The best play for the seat to move in g by its own side's standing after
   it (the greedy answer), applied to g. Returns 0, or -1 on no memory. */
static int play_greedy(pz_game *g, double weight)
{
    options o;
    int seat = pz_get_turn(g), best = -1;
    double best_v = 0;
    pz_game *best_g = NULL;
    o.n = pzai__plays(g, seat, o.play);
    for (int i = 0; i < o.n; i++) {
        pz_game *after = NULL;
        if (pzai__action_value(g, &o.play[i], &after) == INT32_MIN)
            continue;
        double v = pzai__standing(after, pz_side_of(g, seat), weight);
        if (best < 0 || v > best_v) {
            pz_free(best_g);
            best = i, best_v = v, best_g = after;
        } else {
            pz_free(after);
        }
    }
    if (best_g == NULL)
        return -1;
    pz_action a = o.play[best];
    pz_free(best_g);
    return pz_apply(g, &a, NULL, NULL, 0) == 0 ? 0 : -1;
}

/* The seat's side's standing once every other player has answered in
   `after` (each its own best at once, partners for the side) and the seat
   has answered in turn, or the deal ended. after is changed. */
static double after_round(pz_game *after, int seat, double weight)
{
    int players = pz_get_players(after);
    for (int k = 0; k <= players && pz_get_phase(after) == PZ_PHASE_PLAY; k++) {
        int t = pz_get_turn(after), deal = pz_get_deal(after);
        if (play_greedy(after, weight) != 0 || t == seat || pz_get_deal(after) != deal)
            break;
    }
    return pzai__standing(after, pz_side_of(after, seat), weight);
}

/* The seat's side's standing once the hand is played out greedily. */
static double played_out(pz_game *after, int seat, double weight)
{
    for (int k = 0; k < ROLLOUT_STEPS && pz_get_phase(after) == PZ_PHASE_PLAY; k++)
        if (play_greedy(after, weight) != 0)
            break;
    return pzai__standing(after, pz_side_of(after, seat), weight);
}

/* True in the hand's last deal (R7.1's sweep to the last capturer comes at
   its end): short enough to play out, and the sweep is worth seeing. */
static bool last_deal(const pz_view *v)
{
    return v->deal == v->deals_per_hand && v->stock == 0;
}

/* Adds each play's judged standing in one sampled game g to sum[]. */
static int judge_sample(const pz_game *g, const pz_view *v, const options *o, double sum[])
{
    double weight = pzai__card_weight(g);
    bool end = last_deal(v);
    for (int i = 0; i < o->n; i++) {
        pz_game *after = NULL;
        if (pzai__action_value(g, &o->play[i], &after) == INT32_MIN)
            return PZ_ENO_MEMORY;
        sum[i] += end ? played_out(after, v->seat, weight) : after_round(after, v->seat, weight);
        pz_free(after);
    }
    return 0;
}

/* The expert's play: the best judged over SAMPLES sampled deals. */
static int expert_play(const pz_view *v, const pz_record *r, pzai_rng *rng, pz_action *out)
{
    options o;
    double sum[PZ_LEGAL_MAX] = {0};
    int exposure[PZ_LEGAL_MAX], rc = 0;
    uint64_t unseen = pzai__unseen(v, r);
    o.n = 0;
    for (int k = 0; k < SAMPLES && rc == 0; k++) {
        pz_game *g = NULL;
        if ((rc = pzai__sample(v, r, rng, &g)) != 0)
            break;
        if (k == 0) {
            o.n = pzai__plays(g, v->seat, o.play);
            for (int i = 0; i < o.n; i++) {
                pz_game *after = NULL;
                if (pzai__action_value(g, &o.play[i], &after) == INT32_MIN) {
                    rc = PZ_ENO_MEMORY;
                    break;
                }
                exposure[i] = pzai__exposure(after, v->seat, unseen);
                pz_free(after);
            }
        }
        if (rc == 0 && o.n > 1)
            rc = judge_sample(g, v, &o, sum);
        pz_free(g);
        if (o.n <= 1)
            break; /* nothing to weigh */
    }
    if (rc != 0)
        return rc;
    if (o.n == 0)
        return PZ_EINVALID_ACTION;
    int best = 0;
    for (int i = 1; i < o.n; i++) {
        double d = sum[i] - sum[best];
        if (d > 1e-9 ||
            (d > -1e-9 && (exposure[i] < exposure[best] ||
                           (exposure[i] == exposure[best] && o.play[i].card < o.play[best].card))))
            best = i;
    }
    *out = o.play[best];
    return 1;
}

/* R4.1: now when the tendido's expected points at once reach TENDIDO_NOW,
   else later (at the last deal it comes without a choice). */
static int expert_tendido(const pz_view *v, const pz_record *r, pzai_rng *rng, pz_action *out)
{
    double total = 0;
    int n = 0;
    for (int k = 0; k < TENDIDO_SAMPLES; k++) {
        pz_game *g = NULL;
        int rc = pzai__sample(v, r, rng, &g);
        if (rc != 0)
            return rc;
        int before = pz_get_score(g, v->side);
        pz_action now = pz_act_tendido(v->seat, true), best = pz_act_arrange_best(v->seat);
        if (pz_apply(g, &now, NULL, NULL, 0) == 0 && pz_apply(g, &best, NULL, NULL, 0) == 0) {
            total += pz_get_winner(g) == v->side ? PZAI_WIN : pz_get_score(g, v->side) - before;
            n++;
        }
        pz_free(g);
    }
    *out = pz_act_tendido(v->seat, n == 0 || total / n >= TENDIDO_NOW);
    return 1;
}

/* The expert level's decision; see ai_int.h. */
int pzai__expert(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                 pz_action *out)
{
    (void)budget; /* a fixed number of samples */
    if (pzai__claim_or_declare(v, r, out))
        return 1; /* for callers other than pzai_decide(), which made them */
    if (v->turn != v->seat || v->phase > PZ_PHASE_PLAY ||
        (v->phase == PZ_PHASE_PLAY && v->nhand == 0))
        return 0;
    pzai_rng rng;
    pzai__rng_seed(&rng, seed);
    if (v->phase == PZ_PHASE_TENDIDO_CHOICE)
        return expert_tendido(v, r, &rng, out);
    if (v->phase == PZ_PHASE_ARRANGE) {
        *out = pz_act_arrange_best(v->seat);
        return 1;
    }
    return expert_play(v, r, &rng, out);
}
