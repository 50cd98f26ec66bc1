/*
 * porrazo_ai.h — computer players for Porrazo: one entry point that chooses
 * a seat's next action from what that seat may know.
 *
 * The module sits beside the rules engine under the same purity rules: C11
 * and libc only, no I/O, no clock, no global state, no rand(). Randomness
 * comes from the caller's seed; time comes as an iteration budget or as the
 * caller's own deadline check (a callback polled between iterations), so
 * the same inputs, seed and iteration budget always give the same action.
 *
 * A player never sees a pz_game. Its input is the seat's pz_view (what
 * pz_view_seat() shows) and the hand's pz_record (pz_public_record(): what
 * any attentive player at the table knows: cards gone from play, cards
 * each seat played this deal and the deal before, declarations, the last
 * capturer). The searching levels sample the hidden cards consistently
 * with that information (determinization) and search the sampled games.
 *
 * Every function is reentrant: many players may think at once on as many
 * threads, each with its own inputs. Not here: when a seat should act
 * (the host asks), delays, names, threads.
 */
#ifndef PORRAZO_AI_H
#define PORRAZO_AI_H

#include <stdbool.h>
#include <stdint.h>

#include "porrazo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The levels, weakest first. */
typedef enum pzai_level {
    PZAI_BEGINNER, /* sensible but fallible: some randomness, no look-ahead */
    PZAI_GREEDY,   /* the best immediate score */
    PZAI_EXPERT,   /* hand-written heuristics with look-ahead rules */
    PZAI_STRONG,   /* information-set Monte Carlo tree search */
    PZAI_LEVELS
} pzai_level;

/* "beginner", "greedy", "expert", "strong". */
const char *pzai_level_name(pzai_level level);

/* Parses a level name (case-insensitive); 0 and *out, or -1. */
int pzai_level_parse(const char *name, pzai_level *out);

/*
 * How long a player may think. iterations 0: the level's default budget
 * (for strong, tuned to about 100 ms on one core of the reference machine).
 * stop, when not NULL, is polled between search iterations with stop_arg;
 * a non-zero answer ends the search with the best action found so far.
 * Levels that do not search ignore both.
 */
typedef struct pzai_budget {
    int iterations;
    int (*stop)(void *stop_arg);
    void *stop_arg;
} pzai_budget;

/*
 * Chooses the action of seat v->seat. v and r must come from the same game
 * at the same moment (pz_view_seat() and pz_public_record()). budget may be
 * NULL (the level's default).
 *
 * Returns 1 and writes *out (an action pz_apply() accepts for that seat:
 * a play, the tendido choice, an arrangement, a declaration or a claim in
 * manual mode), 0 when the seat has nothing to do now (not its turn and
 * nothing worth claiming or declaring; the game over), or a negative PZ_E
 * code for inputs that are not a seat's view and the record of one game
 * (PZ_EINVALID_ACTION for NULL or out-of-range inputs, PZ_EBAD_SETUP when
 * they do not add up, PZ_ENO_MEMORY). Claims and declarations come first:
 * a seat to play with a holding to declare gets the declaration, then its
 * play on the next call. With the same inputs,
 * level, seed and an iteration budget the answer is always the same; it
 * never depends on anything the seat cannot see.
 */
int pzai_decide(const pz_view *v, const pz_record *r, pzai_level level, uint64_t seed,
                const pzai_budget *budget, pz_action *out);

/*
 * Why an action, in numbers a player can be told (the hint, the practice
 * table, the hand's review): what it scores at once and what it leaves the
 * next player. Every figure is computed from what the seat may know: the
 * action is tried on a game sampled from v and r (the hidden cards placed
 * at random from seed), and only the move's own events and the public
 * table after it are read, so no figure depends on a hidden card.
 */
typedef struct pzai_why {
    int value;    /* points the move scores at once for the seat's side, less another side's;
                     a porrazo it leaves pending counted at its worth */
    int next;     /* the seat that plays next when of another side, else -1 */
    int porrazo;  /* next may porrazo (or counter) what it lays: worth this; 0 none */
    int limpia;   /* next may clear the table: a limpia worth this; 0 none */
    int in_place; /* next may score a card in place: worth this; 0 none */
    /* The most any other play of the seat would have left next by porrazo,
       and by limpia: when above porrazo and limpia, a risk the move avoids. */
    int worst_porrazo, worst_limpia;
    /* The tendido choice: the points the tendido laid now and arranged at
       its best would score at once, on average over sampled deals. */
    int expected;
    /* What the move itself makes for the seat (PZAI_MADE_* bits): a
       porrazo (pending or scored), a limpia, a card in place. */
    unsigned made;
    /* The porrazo risk the move runs, an expectation over deals sampled
       from what the seat may know (the strong level's sampler). risk_rank:
       the rank that would porrazo the card the move lays (risk_counter
       false) or counter the porrazo it leaves pending (true), for the next
       player of another side; -1 for none. risk_unseen: the cards of that
       rank the seat cannot place. Of risk_worlds sampled deals, risk_held
       gave the next player one, and (counters) risk_lost also gave the
       player after it, of another side than the seat, the fourth: a san
       benito, the game lost. risk_worth: what that porrazo or counter
       would score if it stood (public cards decide it: a fact if it
       happens), 0 when no sampled deal gave the next player the card. */
    int risk_rank, risk_unseen, risk_worlds, risk_held, risk_lost, risk_worth;
    bool risk_counter;
} pzai_why;
enum { PZAI_MADE_PORRAZO = 1, PZAI_MADE_LIMPIA = 2, PZAI_MADE_IN_PLACE = 4 };

/*
 * The figures of action a (one pz_apply() accepts for v->seat now) into
 * *out. Returns 0, or a negative PZ_E code (PZ_EINVALID_ACTION when a is
 * not accepted, PZ_EBAD_SETUP, PZ_ENO_MEMORY). The same inputs always give
 * the same figures.
 */
int pzai_why_of(const pz_view *v, const pz_record *r, const pz_action *a, uint64_t seed,
                pzai_why *out);

/*
 * The strong level's choice for v->seat (pzai_decide with PZAI_STRONG,
 * seed and budget: the same action) and its figures (pzai_why_of). 1, 0
 * (nothing to do now) or a negative PZ_E code, as pzai_decide.
 */
int pzai_hint(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
              pz_action *action, pzai_why *why);

/*
 * The strong level's play for v->seat, to judge a play against: as
 * pzai_hint, but never a claim or a declaration (manual mode), which are
 * no play to compare with. 1 and a play with its figures, 0 when the seat
 * has no play now, or a negative PZ_E code, as pzai_decide.
 */
int pzai_hint_play(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                   pz_action *action, pzai_why *why);

/*
 * How many of ev's first events (those pz_apply() gave for a) are the move
 * a itself, as pzai_why_of reads them: up to the next deal, the tendido,
 * the hand's end and its card score, a declaration other than a's own, or
 * a holding scored at the deal's end (which one scores depends on every
 * hand: on a sampled game, the sample's). The words of a move are these.
 */
int pzai_move_events(const pz_events *ev, const pz_action *a);

/*
 * A game consistent with v and r, the hidden cards placed at random from
 * seed: for trying an action and reading its own events. 0 and *out (the
 * caller frees it with pz_free()), or a negative PZ_E code.
 */
int pzai_sample_game(const pz_view *v, const pz_record *r, uint64_t seed, pz_game **out);

#ifdef __cplusplus
}
#endif

#endif /* PORRAZO_AI_H */
