/*
 * ai_test.h — what the computer players' tests share (tests/ai): their own
 * generator, random set-ups over every option and player count, random
 * play through the engine's public API, the scale the environment asks
 * for, and saves compared without what no player can know. Test code.
 */
#ifndef AI_TEST_H
#define AI_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "porrazo.h"

/* The tests' generator: SplitMix64, independent of the engine's and the
   players'. */
uint64_t at_next(uint64_t *rng);
/* A uniform draw in [0, bound), bound >= 1 (slightly biased: tests only). */
int at_below(uint64_t *rng, int bound);

/* PZ_AI_TEST_SCALE (default 1): the factor on every loop count; 0.1 under
   valgrind and the sanitizers. n scaled, at least 1. */
int at_scaled(int n);

/* A random set-up: 2 to 8 players, every option varied (partnerships when
   possible, excess26 with two sides), small targets mostly, a random
   dealer and seed. players 0: random; else that many. */
void at_random_setup(uint64_t *rng, int players, pz_setup *s);

/* A new game of s (fails the test when refused). */
pz_game *at_new_game(const pz_setup *s);

/* Applies one action chosen uniformly among pz_legal_actions(g, -1).
   Returns false when the game is over. */
bool at_random_step(pz_game *g, uint64_t *rng);

/* Plays 0..max random steps; false when the game ended on the way. */
bool at_random_steps(pz_game *g, uint64_t *rng, int max);

/*
 * Saves g into doc (PZ_SAVE_MAX) with what differs between a game and its
 * determinized copy though no rule reads it blanked: the generator, and
 * the last play and pending porrazo fields while there is none (the engine
 * leaves stale values there). Returns the length.
 */
int at_save_public(const pz_game *g, char *doc);

/* True when a and b are the same action (the fields their kind uses). */
bool at_same_action(const pz_action *a, const pz_action *b);

/* A copy of g with the cards seat cannot see re-dealt at random among the
   places that hold them (other hands, the stock; its own hand while hidden):
   what a seat decides must not change (the leak tests). */
pz_game *at_redeal_hidden(const pz_game *g, int seat, uint64_t *rng);

#endif /* AI_TEST_H */
