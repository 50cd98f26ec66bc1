/*
 * ai_int.h — what the files of the computer players (engine/ai) share: the
 * module's generator, the sampler of hidden cards (determinization), the
 * evaluation helpers and each level's entry point. Internal: hosts see
 * only porrazo_ai.h.
 *
 * Every level entry point has the signature of pzai__strong() below and
 * is called by pzai_decide() only once the inputs are checked and only
 * when the seat must act: its tendido choice, its arrangement or its play.
 * Claims and declarations (manual mode) are made by pzai_decide() itself,
 * the same for every level, before it asks the level. A level returns 1
 * and an action pz_apply() accepts, or a negative PZ_E code.
 */
#ifndef PZAI_INT_H
#define PZAI_INT_H

#include <stdint.h>

#include "porrazo.h"
#include "porrazo_ai.h"

/* ------------------------------------------------------------------------ */
/* The generator: xoshiro256** (Blackman, Vigna 2018) seeded by SplitMix64,
   its state in the caller's pzai_rng (no globals). */

typedef struct pzai_rng {
    uint64_t s[4];
} pzai_rng;

/* SplitMix64: the next output of *x (advances it). */
static inline uint64_t pzai__splitmix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Seeds r from seed (any value, 0 included). */
static inline void pzai__rng_seed(pzai_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = pzai__splitmix(&seed);
}

/* x rotated left by k bits (0 < k < 64). */
static inline uint64_t pzai__rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The next 64 random bits of r. */
static inline uint64_t pzai__rng_next(pzai_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = pzai__rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = pzai__rotl(s[3], 45);
    return out;
}

/* A uniform draw in [0, bound), bound >= 1 (Lemire, with rejection). */
static inline uint32_t pzai__rng_below(pzai_rng *r, uint32_t bound)
{
    uint64_t m = (uint64_t)(uint32_t)(pzai__rng_next(r) >> 32) * bound;
    if ((uint32_t)m < bound) {
        uint32_t floor = (uint32_t)(-bound) % bound;
        while ((uint32_t)m < floor)
            m = (uint64_t)(uint32_t)(pzai__rng_next(r) >> 32) * bound;
    }
    return (uint32_t)(m >> 32);
}

/* A uniform draw in [0, 1). */
static inline double pzai__rng_unit(pzai_rng *r)
{
    return (double)(pzai__rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* ------------------------------------------------------------------------ */
/* Cards as masks                                                           */

#define PZAI_ALL_CARDS ((UINT64_C(1) << PZ_CARDS) - 1)

/* The number of cards in mask m. */
int pzai__count(uint64_t m);
/* The mask of n cards. */
uint64_t pzai__mask(const pz_card *cards, int n);
/* R3.1: the holding kind a set of cards dealt in one deal makes. */
pz_holding_kind pzai__holding_kind(uint64_t cards);

/* ------------------------------------------------------------------------ */
/* Determinization (ai_sample.c)                                            */

/*
 * The cards seat v->seat cannot place: every card not gone, not on the
 * table, not in the tendido or the pending porrazo and not in its own hand
 * (unless hidden from it). They are in the other hands and the stock.
 */
uint64_t pzai__unseen(const pz_view *v, const pz_record *r);

/*
 * Deals the unseen cards at random among the hidden places: hands[s]
 * (v->hand_count[s] cards) for every seat whose hand the seat cannot see,
 * and stock (v->stock cards). Uniform over the deals consistent with the
 * view and the record: in auto mode each seat's cards this deal (hand and
 * played) make exactly the holding it declared (none included); in manual
 * mode a declared holding is respected (not for a seat whose played cards
 * the record lacks: a game restored from an older document). When a
 * bounded number of whole deals finds none meeting every declaration,
 * seats are dealt one at a time (declared ones first, in random order,
 * each hand drawn until it meets its declaration or built around it) over
 * a bounded number of passes, close to uniform but not exactly; only then
 * is a declaration that cannot be met dropped (so an inconsistent record
 * never stalls a player). Returns 0, or PZ_EBAD_SETUP when the counts do
 * not match the unseen cards.
 */
int pzai__sample_cards(const pz_view *v, const pz_record *r, pzai_rng *rng,
                       pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], pz_card stock[PZ_CARDS]);

/*
 * A sampled game: pzai__sample_cards() then pz_new_determinized() seeded
 * from rng. Returns 0 and *out (the caller frees it with pz_free()), or a
 * negative PZ_E code (inputs inconsistent, out of memory).
 */
int pzai__sample(const pz_view *v, const pz_record *r, pzai_rng *rng, pz_game **out);

/* ------------------------------------------------------------------------ */
/* Evaluation helpers (ai_eval.c)                                           */

/*
 * The immediate value of action a in game g for a's seat's side: the
 * points its events score for that side minus those they score for any
 * other side, plus what it leaves pending for the seat (porrazo, counter
 * and their limpia), PZAI_WIN if it wins the game and -PZAI_WIN if it
 * makes another side win. When after is not NULL, *after receives the
 * game after a (the caller frees it). Returns INT32_MIN when g refuses a
 * or memory runs out (then *after is untouched).
 */
#define PZAI_WIN 100000
/* The points g's pending porrazo (or counter, with its limpia) will score
   when it stands, 0 when none is pending. */
int pzai__pending_points(const pz_game *g);
int pzai__action_value(const pz_game *g, const pz_action *a, pz_game **after);

/* The plays the seat to move may make in g (each card with each mode it
   accepts, ANY left out when another mode is listed). Returns the count. */
int pzai__plays(const pz_game *g, int seat, pz_action out[PZ_LEGAL_MAX]);

/*
 * What the player to move next in `after` (a game just after seat's play)
 * may score at once on the public table: a porrazo on the card just laid,
 * a limpia, an in-place card, each counted when a card of the rank it
 * needs is among `unseen` (the cards seat cannot place). Positive for a
 * player of another side, negative for a partner, 0 when seat moves next
 * or the deal is over. Reads only the public part of `after`.
 */
int pzai__exposure(const pz_game *after, int seat, uint64_t unseen);

/* The kinds of pzai__exposure's threat, and each one's points into out
   (0 for none). Returns the next player's seat, or -1 when seat moves
   next or the deal is over (all 0). */
enum {
    PZAI_THREAT_PORRAZO,
    PZAI_THREAT_COUNTER,
    PZAI_THREAT_LIMPIA,
    PZAI_THREAT_IN_PLACE,
    PZAI_THREATS
};
int pzai__threats(const pz_game *after, int seat, uint64_t unseen, int out[PZAI_THREATS]);

/*
 * How well `side` stands in g: its score plus its won cards at `weight`
 * points each (pzai__card_weight) plus a porrazo it has pending, less the
 * same for the best other side; +-PZAI_WIN once the game is won. Only
 * public parts of g are read.
 */
double pzai__standing(const pz_game *g, int side, double weight);
/* The points one won card is worth towards R7.2's card score, roughly. */
double pzai__card_weight(const pz_game *g);

/* The rank whose capture would clear the n cards of table (R5.6), or -1;
 *last receives the rank of the last card it would take. */
int pzai__limpia_rank(const pz_options *o, const pz_card *table, int n, int *last);

/*
 * R3.6 and R3.2 in manual mode (ai.c): the claim the record proves that
 * scores most (the deal before's holdings were all played face up), else
 * the seat's own declaration while its window is open. 1 and *out, or 0.
 */
int pzai__claim_or_declare(const pz_view *v, const pz_record *r, pz_action *out);

/* ------------------------------------------------------------------------ */
/* The levels                                                               */

/* Each level's decision for a seat that must act (see the top of this
   file): ai_beginner.c, ai_greedy.c, ai_expert.c, ai_strong.c. */
int pzai__beginner(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                   pz_action *out);
int pzai__greedy(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                 pz_action *out);
int pzai__expert(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                 pz_action *out);
int pzai__strong(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                 pz_action *out);

#endif /* PZAI_INT_H */
