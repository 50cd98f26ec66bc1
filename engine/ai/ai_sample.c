/*
 * ai_sample.c — determinization: the hidden cards (other hands, the stock,
 * the dealer's own hand before the tendido choice) dealt at random
 * consistently with what the seat knows, and the sampled game built from
 * them by pz_new_determinized(). Also the card-mask helpers the module
 * shares.
 *
 * Only the view and the record are read, never a game, so a sample can
 * depend on nothing the seat cannot see. Not here: choosing actions.
 */
#include <string.h>

#include "ai_int.h"

#define JOINT_TRIES 32 /* whole deals tried before dealing seat by seat */
#define SEAT_TRIES 64  /* hands tried for one seat's declaration */
#define SEAT_PASSES 16 /* seat-by-seat deals tried before a declaration is dropped */

/* The number of cards in m; see ai_int.h. */
int pzai__count(uint64_t m)
{
    int n = 0;
    for (; m != 0; m &= m - 1)
        n++;
    return n;
}

/* The mask of n cards (anything not a card left out); see ai_int.h. */
uint64_t pzai__mask(const pz_card *cards, int n)
{
    uint64_t m = 0;
    for (int i = 0; i < n; i++)
        if (cards[i] < PZ_CARDS)
            m |= UINT64_C(1) << cards[i];
    return m;
}

/* R3.1: four, rondine or ronda by the largest count of one rank. */
pz_holding_kind pzai__holding_kind(uint64_t cards)
{
    int most = 0;
    for (int r = 0; r < PZ_RANKS; r++) {
        int n = pzai__count(cards >> (4 * r) & 15);
        if (n > most)
            most = n;
    }
    return most >= 4   ? PZ_HOLD_FOUR
           : most == 3 ? PZ_HOLD_RONDINE
           : most == 2 ? PZ_HOLD_RONDA
                       : PZ_HOLD_NONE;
}

/* What the seat knows is not hidden; see ai_int.h. */
uint64_t pzai__unseen(const pz_view *v, const pz_record *r)
{
    uint64_t known = r->gone | pzai__mask(v->table, v->ntable) |
                     pzai__mask(v->tendido, v->ntendido) |
                     pzai__mask(r->pending_cards, r->npending);
    if (!v->hand_hidden)
        known |= pzai__mask(v->hand, v->nhand);
    for (int s = 0; s < v->players; s++)
        known |= r->played[s];
    return PZAI_ALL_CARDS & ~known;
}

/* One sampling: the places to fill and what each seat's cards must make. */
typedef struct plan {
    int nplaces; /* hidden hands, then the stock last */
    int seat[PZ_MAX_PLAYERS + 1];
    int count[PZ_MAX_PLAYERS + 1];
    int want[PZ_MAX_PLAYERS + 1]; /* holding kind required, or -1 */
    uint64_t played[PZ_MAX_PLAYERS + 1];
    int npool;
    pz_card pool[PZ_CARDS];
} plan;

/* True when the seat's hidden hand may see its hand (not hidden from it). */
static bool is_hidden(const pz_view *v, int s)
{
    return s != v->seat || v->hand_hidden;
}

/* The holding a hidden seat must have this deal, or -1 (see ai_int.h). */
static int wanted(const pz_view *v, const pz_record *r, int s)
{
    if (v->phase != PZ_PHASE_PLAY || r->holdings_unknown)
        return -1;
    /* Fewer than the 3 cards of a deal known: a game restored from a
       document older than the record, whose played cards are lost. */
    if (v->hand_count[s] + pzai__count(r->played[s]) < 3)
        return -1;
    if (v->options.declarations == PZ_DECL_AUTO)
        return r->declared[s];
    if (v->options.declarations == PZ_DECL_MANUAL && r->declared[s] != PZ_HOLD_NONE)
        return r->declared[s];
    return -1;
}

/* Fills *p; PZ_EBAD_SETUP when the counts do not match the unseen cards. */
static int make_plan(const pz_view *v, const pz_record *r, plan *p)
{
    uint64_t unseen = pzai__unseen(v, r);
    int total = 0;
    memset(p, 0, sizeof *p);
    for (int s = 0; s < v->players; s++) {
        if (!is_hidden(v, s) || v->hand_count[s] == 0)
            continue;
        int k = p->nplaces++;
        p->seat[k] = s;
        p->count[k] = v->hand_count[s];
        p->want[k] = wanted(v, r, s);
        p->played[k] = r->played[s];
        total += v->hand_count[s];
    }
    int k = p->nplaces++;
    p->seat[k] = -1;
    p->count[k] = v->stock;
    p->want[k] = -1;
    total += v->stock;
    for (int c = 0; c < PZ_CARDS; c++)
        if (unseen >> c & 1)
            p->pool[p->npool++] = (pz_card)c;
    return total == p->npool ? 0 : PZ_EBAD_SETUP;
}

/* Swaps pool[i] and pool[j]. */
static void swap(pz_card *pool, int i, int j)
{
    pz_card t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
}

/* Moves a uniformly chosen n of pool[from..npool) to pool[from..from+n). */
static void draw(pz_card *pool, int from, int npool, int n, pzai_rng *rng)
{
    for (int i = from; i < from + n && i < npool - 1; i++)
        swap(pool, i, i + (int)pzai__rng_below(rng, (uint32_t)(npool - i)));
}

/* True when place k's cards pool[at..at+count) make what it must. */
static bool meets(const plan *p, int k, int at)
{
    if (p->want[k] < 0)
        return true;
    uint64_t m = p->played[k] | pzai__mask(&p->pool[at], p->count[k]);
    return (int)pzai__holding_kind(m) == p->want[k];
}

/* Whole deals, each uniform, until one meets every declaration. */
static bool deal_jointly(plan *p, pzai_rng *rng)
{
    for (int t = 0; t < JOINT_TRIES; t++) {
        int at = 0;
        bool ok = true;
        for (int k = 0; k < p->nplaces && ok; k++) {
            draw(p->pool, at, p->npool, p->count[k], rng);
            ok = meets(p, k, at);
            at += p->count[k];
        }
        if (ok)
            return true;
    }
    return false;
}

/*
 * Builds place k's hand at pool[at..) around its declaration: a rank that
 * can still make it, chosen at random, the cards of that rank it needs,
 * then the rest at random. For declarations random hands rarely meet (a
 * rondine among forty unseen cards); close to uniform, not exactly.
 */
static void construct(plan *p, int k, int at, pzai_rng *rng)
{
    int want = p->want[k] == PZ_HOLD_FOUR ? 4 : p->want[k] == PZ_HOLD_RONDINE ? 3 : 2;
    int ranks[PZ_RANKS], need[PZ_RANKS], n = 0;
    for (int r = 0; r < PZ_RANKS; r++) {
        int have = pzai__count(p->played[k] >> (4 * r) & 15), avail = 0;
        for (int i = at; i < p->npool; i++)
            avail += pz_card_rank(p->pool[i]) == r;
        int more = want - have;
        if (more >= 0 && more <= avail && more <= p->count[k])
            ranks[n] = r, need[n++] = more;
    }
    int got = 0;
    if (n > 0) {
        int pick = (int)pzai__rng_below(rng, (uint32_t)n);
        for (int i = at; i < p->npool && got < need[pick]; i++)
            if (pz_card_rank(p->pool[i]) == ranks[pick])
                swap(p->pool, i, at + got++);
    }
    draw(p->pool, at + got, p->npool, p->count[k] - got, rng);
}

/*
 * The fallback: one pass dealing the seats with a declaration first, in a
 * random order, one at a time, each hand drawn until it meets its
 * declaration or built around it, then the others and the stock. Returns
 * true when every declaration is met (else the last hand tried stays).
 */
static bool deal_by_seat(plan *p, pzai_rng *rng)
{
    int order[PZ_MAX_PLAYERS + 1], n = 0, start[PZ_MAX_PLAYERS + 1], at = 0;
    bool all = true;
    for (int k = 0; k < p->nplaces; k++)
        if (p->want[k] >= 0)
            order[n++] = k;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pzai__rng_below(rng, (uint32_t)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int k = 0; k < p->nplaces; k++)
        if (p->want[k] < 0)
            order[n++] = k;
    for (int i = 0; i < n; i++) {
        int k = order[i];
        bool ok = false;
        for (int t = 0; t < SEAT_TRIES && !ok; t++) {
            draw(p->pool, at, p->npool, p->count[k], rng);
            ok = meets(p, k, at);
        }
        for (int t = 0; t < SEAT_TRIES && !ok && p->want[k] > PZ_HOLD_NONE; t++) {
            construct(p, k, at, rng);
            ok = meets(p, k, at);
        }
        all &= ok;
        start[k] = at;
        at += p->count[k];
    }
    /* Back to place order: hands first, the stock last. */
    pz_card dealt[PZ_CARDS];
    memcpy(dealt, p->pool, (size_t)p->npool);
    at = 0;
    for (int k = 0; k < p->nplaces; k++) {
        memcpy(&p->pool[at], &dealt[start[k]], (size_t)p->count[k]);
        at += p->count[k];
    }
    return all;
}

/* Deals the unseen cards; see ai_int.h. */
int pzai__sample_cards(const pz_view *v, const pz_record *r, pzai_rng *rng,
                       pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], pz_card stock[PZ_CARDS])
{
    plan p;
    int err = make_plan(v, r, &p);
    if (err != 0)
        return err;
    bool ok = deal_jointly(&p, rng);
    for (int pass = 0; pass < SEAT_PASSES && !ok; pass++)
        ok = deal_by_seat(&p, rng);
    int at = 0;
    for (int k = 0; k < p.nplaces; k++) {
        pz_card *to = p.seat[k] >= 0 ? hands[p.seat[k]] : stock;
        memcpy(to, &p.pool[at], (size_t)p.count[k]);
        at += p.count[k];
    }
    return 0;
}

/* A sampled game; see ai_int.h. */
int pzai__sample(const pz_view *v, const pz_record *r, pzai_rng *rng, pz_game **out)
{
    pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], stock[PZ_CARDS];
    int err = pzai__sample_cards(v, r, rng, hands, stock);
    if (err != 0)
        return err;
    return pz_new_determinized(out, v, r, (const pz_card(*)[PZ_CARDS])hands, stock,
                               pzai__rng_next(rng), NULL, 0);
}
