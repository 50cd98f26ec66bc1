/*
 * save_games.h — what the saved-game tests (test_save.c, test_pack.c)
 * share: random games of a set-up played by legal actions, the tests' own
 * deterministic choices. cmocka assertions inside: for tests only.
 */
#ifndef PZ_SAVE_GAMES_H
#define PZ_SAVE_GAMES_H

#include <stddef.h>
#include <stdint.h>

#include "porrazo.h"

/* A set-up: players, then option name/value pairs (NULL-terminated). */
typedef struct setup {
    int players;
    const char *opts[8];
} setup;

/* A new game of set-up s and seed; the dealer is drawn. */
pz_game *sg_new_game(const setup *s, uint64_t seed);
/* A xorshift step of *x (never 0 when *x is not). */
uint64_t sg_next(uint64_t *x);
/* Applies one legal action chosen with *x; 0 when there is none. */
int sg_step(pz_game *g, uint64_t *x);
/* Saves g as JSON into doc (PZ_SAVE_MAX bytes) and returns the length. */
size_t sg_save(const pz_game *g, char *doc);
/* Plays g and r on with the same choices from x, to the end or 3,000
   actions, asserting after each that both save to the same JSON. */
void sg_play_on_alike(pz_game *g, pz_game *r, uint64_t x);

#endif /* PZ_SAVE_GAMES_H */
