/*
 * ai_beginner.c — the beginner level: plays sensibly but misses things.
 * It sees the points a play scores at once (captures that score, porrazos,
 * limpias, in-place cards) but judges them with a wobble drawn from the
 * seed, ignores what it leaves to the next player, now and then plays a
 * card at random, takes the tendido now or later on a whim and does not
 * always find the best arrangement. No look-ahead. When it is first to
 * play with a holding to declare (manual mode), it sometimes forgets to
 * declare (ai.c decides that, where declarations are made).
 *
 * Not here: claims and declarations (ai.c makes them for every level).
 */
#include "ai_int.h"

#define RANDOM_PLAY 0.2 /* the chance of a play chosen at random */
#define WOBBLE 3.0      /* points of noise on each play's value, either way */
#define TENDIDO_NOW 0.6 /* the chance of "now" */
#define BEST_ROW 0.6    /* the chance of the best arrangement */

/* A play in sampled game g: the highest value plus noise, or a random one. */
static int beginner_play(const pz_game *g, const pz_view *v, pzai_rng *rng, pz_action *out)
{
    pz_action plays[PZ_LEGAL_MAX];
    int n = pzai__plays(g, v->seat, plays), best = -1;
    double best_v = 0;
    if (n <= 0)
        return PZ_EINVALID_ACTION;
    if (pzai__rng_unit(rng) < RANDOM_PLAY) {
        *out = plays[pzai__rng_below(rng, (uint32_t)n)];
        return 1;
    }
    for (int i = 0; i < n; i++) {
        int value = pzai__action_value(g, &plays[i], NULL);
        if (value == INT32_MIN)
            return PZ_ENO_MEMORY;
        double noisy = value + WOBBLE * (2 * pzai__rng_unit(rng) - 1);
        if (best < 0 || noisy > best_v)
            best = i, best_v = noisy;
    }
    *out = plays[best];
    return 1;
}

/* One of the sixteen rows of the tendido on view, chosen at random. */
static pz_action random_row(const pz_view *v, pzai_rng *rng)
{
    unsigned k = pzai__rng_below(rng, 16);
    const pz_card *l = &v->tendido[k & 1 ? 2 : 0], *r = &v->tendido[k & 1 ? 0 : 2];
    int sl = k >> 1 & 1, sr = k >> 2 & 1;
    pz_card row[4] = {l[sl], l[!sl], r[sr], r[!sr]};
    return pz_act_arrange(v->seat, row, k >> 3 ? PZ_RTL : PZ_LTR);
}

/* The beginner level's decision; see ai_int.h. */
int pzai__beginner(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                   pz_action *out)
{
    (void)budget; /* it does not search */
    pzai_rng rng;
    pzai__rng_seed(&rng, seed);
    if (v->phase == PZ_PHASE_TENDIDO_CHOICE) {
        *out = pz_act_tendido(v->seat, pzai__rng_unit(&rng) < TENDIDO_NOW);
        return 1;
    }
    if (v->phase == PZ_PHASE_ARRANGE) {
        *out = pzai__rng_unit(&rng) < BEST_ROW ? pz_act_arrange_best(v->seat) : random_row(v, &rng);
        return 1;
    }
    pz_game *g = NULL;
    int rc = pzai__sample(v, r, &rng, &g);
    if (rc != 0)
        return rc;
    rc = beginner_play(g, v, &rng, out);
    pz_free(g);
    return rc;
}
