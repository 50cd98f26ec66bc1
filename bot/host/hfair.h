/*
 * hfair.h — provably fair deals (FAIRNESS.md): each hand's seed drawn from
 * the operating system and recorded, the game's salt, and the commitment
 * a hand's first line shows before its first card. Prefix host__fair_.
 */
#ifndef PZ_HFAIR_H
#define PZ_HFAIR_H

#ifndef PZ_INSIDE_HOST
#error "hfair.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include <stdint.h>

#include "hhost.h"

/* The commitment itself: engine/fair (pzf_commit). */

/*
 * Starts the fair deals of c's game (c->row.id): draws its salt and the
 * first hand's seed from the operating system (sealed until the game
 * ends), or with a fixed seed (tests, demos) that seed and a salt derived
 * from it (nothing sealed); records both and sets c->seal. 0 and *seed;
 * -1 after a reply saying why (the random source failed) or host__failed().
 */
int host__fair_first_hand(ctx *c, uint64_t *seed);

/*
 * The next hand's seed of c's game, fresh from the operating system (or
 * derived from the fixed seed), recorded, with c->seal set. 0 and *seed;
 * 1 for a game from before fair deals (the engine's generator deals on);
 * -1 after host__failed().
 */
int host__fair_next_hand(ctx *c, uint64_t *seed);

#endif /* PZ_HFAIR_H */
