/*
 * declare.c — holdings and declarations (R3): the best set a seat was dealt
 * (R3.1), manual declarations in their window (R3.2), the score of the best
 * declared holding and its holder's partners at a deal's end (R3.3–R3.4),
 * and claims of missed declarations (R3.6).
 *
 * Not here: dealing (rules.c) or announcing automatic declarations, which
 * happens as play begins (rules.c, pz__begin_play).
 */
#include "rules_int.h"

/* The value of a holding (R1.6). */
static int holding_value(const pz_holding *h)
{
    switch (h->kind) {
    case PZ_HOLD_RONDA:
        return pz_ronda_value(h->rank);
    case PZ_HOLD_RONDINE:
        return pz_rondine_value(h->rank);
    case PZ_HOLD_FOUR:
        return pz_four_value(h->rank);
    default:
        return 0;
    }
}

static pz_reason holding_reason(const pz_holding *h)
{
    return h->kind == PZ_HOLD_FOUR      ? PZ_REASON_FOUR
           : h->kind == PZ_HOLD_RONDINE ? PZ_REASON_RONDINE
                                        : PZ_REASON_RONDA;
}

/* R3.3: true when a beats b (kind first, then rank; A lowest). */
static bool holding_beats(const pz_holding *a, const pz_holding *b)
{
    if (a->kind != b->kind)
        return a->kind > b->kind;
    return a->rank > b->rank;
}

/* R3.1: the best set among a hand of cards dealt in one deal. */
pz_holding pz__holding_of(const pz_card *hand, int n)
{
    uint8_t count[PZ_RANKS] = {0};
    pz_holding h = {PZ_HOLD_NONE, 0, 0, 0};
    for (int i = 0; i < n; i++)
        count[pz_card_rank(hand[i])]++;
    for (int r = 0; r < PZ_RANKS; r++) {
        if (count[r] < 2)
            continue;
        pz_holding cand = {(uint8_t)(count[r] >= 4   ? PZ_HOLD_FOUR
                                     : count[r] == 3 ? PZ_HOLD_RONDINE
                                                     : PZ_HOLD_RONDA),
                           (uint8_t)r, 0, 0};
        if (h.kind == PZ_HOLD_NONE || holding_beats(&cand, &h))
            h = cand;
    }
    return h;
}

/* R3.4: scores the best holding of the deal and, with partnerships, its
   holder's partners' own. Returns true when that ends the game. */
bool pz__score_holdings(ctx *c)
{
    pz_game *g = c->g;
    bool all = g->opt.declarations == PZ_DECL_SILENT;
    int best = -1;
    for (int k = 1; k <= g->players; k++) {
        int s = (g->dealer + k) % g->players;
        const pz_holding *h = &g->hold[s];
        if (h->kind == PZ_HOLD_NONE || !(all || h->declared))
            continue;
        if (best < 0 || holding_beats(h, &g->hold[best]))
            best = s;
    }
    if (best < 0)
        return false;
    int side = pz__side(g, best);
    if (pz__add_score(c, side, best, holding_reason(&g->hold[best]), holding_value(&g->hold[best])))
        return true;
    if (!g->opt.partnerships)
        return false;
    for (int k = 1; k <= g->players; k++) {
        int s = (g->dealer + k) % g->players;
        const pz_holding *h = &g->hold[s];
        if (s == best || pz__side(g, s) != side || h->kind == PZ_HOLD_NONE || !(all || h->declared))
            continue;
        if (pz__add_score(c, side, s, holding_reason(h), holding_value(h)))
            return true;
    }
    return false;
}

/* R3.2 manual: a seat declares its holding before the deal's first card. */
int pz__apply_declare(ctx *c, const pz_action *a, char *why, size_t why_len)
{
    pz_game *g = c->g;
    if (g->opt.declarations != PZ_DECL_MANUAL) {
        pz__why(why, why_len, "declarations are %s in this game: nothing to do",
                g->opt.declarations == PZ_DECL_AUTO ? "automatic" : "silent");
        return PZ_EINVALID_ACTION;
    }
    if (g->phase != PZ_PHASE_PLAY) {
        pz__why(why, why_len, "declarations are made once the deal's play begins");
        return PZ_EWRONG_PHASE;
    }
    if (g->first_play_done) {
        pz__why(why, why_len, "declarations closed when this deal's first card was played");
        return PZ_EDECLARATION_CLOSED;
    }
    pz_holding *h = &g->hold[a->seat];
    if (g->r3_off || h->kind == PZ_HOLD_NONE) {
        pz__why(why, why_len, "seat %d holds no ronda or rondine this deal", a->seat);
        return PZ_ENOTHING_TO_DECLARE;
    }
    if (h->declared) {
        pz__why(why, why_len, "seat %d has already declared", a->seat);
        return PZ_ENOTHING_TO_DECLARE;
    }
    h->declared = 1;
    pz_event *e = pz__emit(c, PZ_EV_DECLARE);
    e->seat = (int8_t)a->seat;
    e->holding = h->kind;
    return 0;
}

/* R3.6: a claim that another side's seat missed its declaration. */
int pz__apply_claim(ctx *c, const pz_action *a, char *why, size_t why_len)
{
    pz_game *g = c->g;
    int t = a->claimed;
    if (g->opt.declarations != PZ_DECL_MANUAL) {
        pz__why(why, why_len, "claims exist only with manual declarations");
        return PZ_EINVALID_ACTION;
    }
    if (!g->claim_open) {
        pz__why(why, why_len,
                "claims are made after a deal ends, before the next deal's first card");
        return PZ_EBAD_CLAIM;
    }
    if (t < 0 || t >= g->players) {
        pz__why(why, why_len, "there is no seat %d", t);
        return PZ_EBAD_CLAIM;
    }
    if (pz__side(g, t) == pz__side(g, a->seat)) {
        pz__why(why, why_len, "a claim is against another side, not seat %d", t);
        return PZ_EBAD_CLAIM;
    }
    pz_holding *h = &g->prev[t];
    if (h->kind == PZ_HOLD_NONE || h->declared || h->claimed) {
        pz__why(why, why_len, "seat %d did not miss a declaration in the last deal%s", t,
                h->claimed ? " (already claimed)" : "");
        return PZ_EBAD_CLAIM;
    }
    h->claimed = 1;
    pz__add_score(c, pz__side(g, a->seat), a->seat, PZ_REASON_MISSED_DECLARATION, holding_value(h));
    return 0;
}
