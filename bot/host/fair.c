/*
 * fair.c — provably fair deals (FAIRNESS.md): every hand is shuffled from
 * a seed of its own, drawn from the operating system when the hand is
 * dealt and never dealt twice; a game has a salt; before a hand's first
 * card its first line shows the start of the commitment (SHA-256 of the
 * seed and the salt), and the record reveals seeds and salt once the game
 * is over (export.c). Prefix host__fair_.
 *
 * Not here: the shuffle (the engine's pz_shuffle, from the seed given),
 * the record (export.c), checking it (porrazo-replay --verify).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "commit.h"
#include "hctx.h"
#include "hfair.h"
#include "i18n.h"

/* Draws again at most this often when a sealed seed was dealt before. */
#define FRESH_TRIES 4

/* One SplitMix64 step: the fixed seed's derived salt and seeds. */
static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Fills *v with n bytes from the operating system; 0 or -1. */
static int os_random(void *v, size_t n)
{
    return getrandom(v, n, 0) == (ssize_t)n ? 0 : -1;
}

/* c->seal: the start of a hand's commitment, for its first line. */
static void set_seal(ctx *c, const char *digest)
{
    snprintf(c->seal, sizeof c->seal, "%.*s", PZF_SEAL_HEX, digest);
}

/*
 * Records hand's seed and its commitment under salt: with fixed seeds the
 * seed derived from the game's first seed, else a fresh one from the
 * system (drawn again if the store says it was dealt before); sets
 * c->seal. 0 and *seed, 1 when the system's random source failed, -1 when
 * the commitment cannot be computed, or a store_err.
 */
static int record_seed(ctx *c, int hand, uint64_t first, const char *salt, uint64_t *seed)
{
    char digest[PZF_COMMIT_HEX + 1];
    int err = 1;
    for (int i = 0; i < FRESH_TRIES; i++) {
        uint64_t s = first;
        if (c->h->cfg.fixed_seed) {
            uint64_t x = first ^ UINT64_C(0x4A4E44);
            for (int k = 1; k < hand; k++)
                s = mix(&x);
        } else if (os_random(&s, sizeof s) != 0) {
            return 1;
        }
        if (pzf_commit(s, salt, digest) != 0)
            return -1;
        err = store_hand_add(c->h->st, c->row.id, hand, s, digest);
        if (err == 0) {
            *seed = s;
            set_seal(c, digest);
            return 0;
        }
        if (err != STORE_CONFLICT || c->h->cfg.fixed_seed)
            return err;
    }
    return err;
}

int host__fair_first_hand(ctx *c, uint64_t *seed)
{
    char salt[STORE_SALT_HEX + 1];
    unsigned char raw[STORE_SALT_HEX / 2];
    bool sealed = !c->h->cfg.fixed_seed;
    if (sealed) {
        if (os_random(raw, sizeof raw) != 0) {
            host__reply(c, _("the system's random source failed: try again"));
            return -1;
        }
    } else {
        uint64_t x = c->h->cfg.seed ^ UINT64_C(0x5A17);
        for (size_t i = 0; i < sizeof raw; i += 8) {
            uint64_t v = mix(&x);
            memcpy(raw + i, &v, 8);
        }
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(salt + 2 * i, 3, "%02x", raw[i]);
    int err = store_fair_start(c->h->st, c->row.id, salt, sealed);
    if (err == 0)
        err = record_seed(c, 1, c->h->cfg.seed, salt, seed);
    if (err == 1) {
        host__reply(c, _("the system's random source failed: try again"));
        return -1;
    }
    if (err != 0) {
        host__failed(c, err);
        return -1;
    }
    return 0;
}

/* What host__fair_next_hand needs of the recorded hands. */
typedef struct hands_seen {
    int n;          /* hands recorded */
    uint64_t first; /* hand 1's seed */
} hands_seen;

/* Counts the recorded hands (store_hand_each's callback). */
static int count_hand(void *arg, int hand, uint64_t seed, const char *digest)
{
    (void)digest;
    hands_seen *h = arg;
    h->n++;
    if (hand == 1)
        h->first = seed;
    return 0;
}

int host__fair_next_hand(ctx *c, uint64_t *seed)
{
    char salt[STORE_SALT_HEX + 1];
    bool sealed;
    hands_seen seen = {0, 0};
    int err = store_fair_get(c->h->st, c->row.id, salt, &sealed);
    if (err == STORE_NOT_FOUND)
        return 1;
    if (err == 0)
        err = store_hand_each(c->h->st, c->row.id, count_hand, &seen);
    if (err == 0 && seen.n == 0)
        err = -1; /* a salt without a first hand: cannot be */
    if (err == 0)
        err = record_seed(c, seen.n + 1, seen.first, salt, seed);
    if (err != 0) {
        host__failed(c, err == 1 ? -1 : err);
        return -1;
    }
    return 0;
}
