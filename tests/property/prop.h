/*
 * prop.h — the shared parts of the property test (test_property.c): its
 * context, its generator, and the checks its modules export. The checks
 * use the engine's public header only. Not a library: test code.
 *
 *   prop_report.c  printing a failing game as a scenario, PROP_CHECK
 *   prop_state.c   checks of one state: cards, words, views, events, saves
 *   prop_refuse.c  the legal list, and unlisted actions refused
 */
#ifndef PROP_H
#define PROP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "porrazo.h"

#define PROP_SAMPLE_REFUSALS 6 /* unlisted actions tried at each step */
#define PROP_FULL_EVERY 256    /* 1 step in this many tries them all */
#define PROP_ROWS 20           /* rows tried per seat: 16 good, 4 bad */
#define PROP_MALFORMED 14      /* cases of malformed_action() */
#define PROP_KINDS 6           /* pz_action_kind values */

/* Categories of unlisted actions, for coverage. */
enum {
    CAT_PLAY,
    CAT_TENDIDO,
    CAT_ARRANGE_BEST,
    CAT_ARRANGE_ROW,
    CAT_DECLARE,
    CAT_CLAIM,
    CAT_NEXT_HAND,
    CAT_MALFORMED,
    CAT_COUNT
};

/* The test's own generator: SplitMix64, independent of the engine's. */
typedef struct prop_rng {
    uint64_t s;
} prop_rng;

/* One action of a game, with the pack a next_hand brought, if any. */
typedef struct prop_step {
    pz_action a; /* a.pack is NULL here; see has_pack */
    bool has_pack;
    pz_card pack[PZ_CARDS];
} prop_step;

/* A game's set-up and every action applied, to replay and to report. */
typedef struct prop_game {
    pz_setup setup; /* setup.pack points at pack when has_pack */
    bool has_pack;
    pz_card pack[PZ_CARDS];
    prop_step *steps;
    size_t nsteps, cap;
} prop_game;

/* An action not expected in the list, and how it must be refused. */
typedef struct prop_cand {
    pz_action a;
    int cat;
    bool well_formed; /* every field in its domain */
    bool listable;    /* false: never legal (a bad pack) */
} prop_cand;

typedef struct prop_stats {
    long games, steps, hands, san_benitos, full_enumerations;
    long refused[CAT_COUNT];
    long applied[PROP_KINDS];
    int max_doc, max_legal;
    size_t max_steps;
} prop_stats;

typedef struct prop_ctx {
    long games;
    uint64_t seed;
    prop_rng rng;
    long game_index;
    prop_game rec;
    prop_stats st;
    int score[PZ_MAX_SIDES]; /* running totals from score events */
    int winner_event;        /* side of the game_end event, else -1 */
    int end_reason;
    char doc[PZ_SAVE_MAX]; /* the save of the current state */
    int doclen;
    unsigned char *snap; /* the game's bytes before refusals */
    size_t game_size;
    pz_action legal[PZ_LEGAL_MAX];
    int nlegal;
    pz_card good_pack[PZ_CARDS];
    pz_card bad_pack[PZ_CARDS];
    pz_events ev;
} prop_ctx;
/* ------------------------------------------------------------------------ */
/* Generator                                                                */

/* The next 64 random bits of r (SplitMix64, Vigna). */
static inline uint64_t prop_rng_next(prop_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A draw in [0, bound) for bound >= 1; the tiny bias does not matter. */
static inline int prop_rng_below(prop_rng *r, int bound)
{
    return (int)(((prop_rng_next(r) >> 32) * (uint64_t)bound) >> 32);
}

/* Fills pack with the 52 cards in a random order (Fisher-Yates). */
void prop_rng_pack(prop_rng *r, pz_card pack[PZ_CARDS]);

/* ------------------------------------------------------------------------ */
/* Reporting (prop_report.c)                                                */

/* Names of the CAT_* categories. */
extern const char *const prop_cat_names[CAT_COUNT];

/* Prints any action to stderr, as REPLAY.md when it is well formed. */
void prop_print_action(const pz_action *a);

/*
 * Reports a broken property at file:line: what broke, the game and step,
 * the reproducer; then fails the running cmocka test (does not return).
 */
void prop_fail(const prop_ctx *c, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#define PROP_CHECK(c, cond, ...)                                                                   \
    do {                                                                                           \
        if (!(cond))                                                                               \
            prop_fail((c), __FILE__, __LINE__, __VA_ARGS__);                                       \
    } while (0)

/* Reports that action a broke a property, printing the action first. */
#define PROP_CHECK_ACTION(c, a, cond, what)                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fputs("action: ", stderr);                                                             \
            prop_print_action(a);                                                                  \
            fputc('\n', stderr);                                                                   \
            prop_fail((c), __FILE__, __LINE__, "%s", (what));                                      \
        }                                                                                          \
    } while (0)

/* ------------------------------------------------------------------------ */
/* One state (prop_state.c)                                                 */

/* (a) The 52 cards: each in one place, none lost but a pending porrazo's. */
void prop_check_cards(prop_ctx *c, const pz_game *g);
/* Phase, turn, dealer, deal, sides, winner and scores agree. */
void prop_check_words(prop_ctx *c, const pz_game *g);
/* (g) Every seat's view holds its own cards and no other seat's. */
void prop_check_views(prop_ctx *c, const pz_game *g);
/* Score events add up to the scores; counts hands and san benitos. */
void prop_check_events(prop_ctx *c, const pz_game *g, const pz_events *ev);
/*
 * (b) Saves g into c->doc, restores, saves again: same bytes. Frees g and
 * returns the restored game, which the game goes on from.
 */
pz_game *prop_round_trip(prop_ctx *c, pz_game *g);

/* ------------------------------------------------------------------------ */
/* Actions (prop_refuse.c)                                                  */

/* Lists everyone's actions into c->legal (none once the game is over). */
void prop_list_legal(prop_ctx *c, const pz_game *g);
/* (c) Every listed action is accepted by a clone; the default is listed. */
void prop_check_listed_accepted(prop_ctx *c, const pz_game *g);
/* (d) A sample of `count` unlisted actions (or all) refused, g untouched. */
void prop_check_refusals(prop_ctx *c, pz_game *g, int count);
/* (f) A finished game refuses everything with game_over. */
void prop_check_finished(prop_ctx *c, pz_game *g);

#endif /* PROP_H */
