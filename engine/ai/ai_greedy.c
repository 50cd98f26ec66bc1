/*
 * ai_greedy.c — the greedy level: the best immediate score. The dealer
 * takes the tendido now and arranges it best (points at once, R4.3); a
 * play is the one whose events score most for the seat's side (what
 * pz_default_action() counts: points, and the porrazo it leaves pending),
 * ties going to the play that leaves the next player the least on the
 * public table (no card to porrazo, no limpia, no in-place card: R5.4,
 * R5.6, R6.1), then to the lowest card. No look-ahead beyond that.
 *
 * Not here: claims and declarations (ai.c makes them for every level).
 */
#include "ai_int.h"

/* Orders plays: true when (value, exposure) of a beats those of b, the
   lowest card (rank, then suit) and mode last. */
static bool better(int va, int ea, const pz_action *a, int vb, int eb, const pz_action *b)
{
    if (va != vb)
        return va > vb;
    if (ea != eb)
        return ea < eb;
    if (a->card != b->card)
        return a->card < b->card;
    return a->mode < b->mode;
}

/* The greedy play in a sampled game g for seat v->seat. */
static int greedy_play(const pz_game *g, const pz_view *v, const pz_record *r, pz_action *out)
{
    pz_action plays[PZ_LEGAL_MAX];
    int n = pzai__plays(g, v->seat, plays), best = -1, best_v = 0, best_e = 0;
    uint64_t unseen = pzai__unseen(v, r);
    for (int i = 0; i < n; i++) {
        pz_game *after = NULL;
        int value = pzai__action_value(g, &plays[i], &after);
        if (value == INT32_MIN)
            return PZ_ENO_MEMORY;
        int exposure = pzai__exposure(after, v->seat, unseen);
        pz_free(after);
        if (best < 0 || better(value, exposure, &plays[i], best_v, best_e, &plays[best]))
            best = i, best_v = value, best_e = exposure;
    }
    if (best < 0)
        return PZ_EINVALID_ACTION;
    *out = plays[best];
    return 1;
}

/* The greedy level's decision; see ai_int.h. */
int pzai__greedy(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                 pz_action *out)
{
    (void)budget; /* it does not search */
    if (v->phase == PZ_PHASE_TENDIDO_CHOICE) {
        *out = pz_act_tendido(v->seat, true);
        return 1;
    }
    if (v->phase == PZ_PHASE_ARRANGE) {
        *out = pz_act_arrange_best(v->seat);
        return 1;
    }
    pzai_rng rng;
    pz_game *g = NULL;
    pzai__rng_seed(&rng, seed);
    int rc = pzai__sample(v, r, &rng, &g);
    if (rc != 0)
        return rc;
    rc = greedy_play(g, v, r, out);
    pz_free(g);
    return rc;
}
