/*
 * rng.c — the engine's own random generator and shuffle.
 *
 * xoshiro256** seeded through SplitMix64, Lemire's unbiased bounded draw
 * and a Fisher–Yates shuffle, exactly as porrazo.h documents them, so the
 * same seed gives the same pack on every machine. Not here: where the
 * seed comes from (the host reads the operating system's random source).
 */
#include "game.h"

/* One step of SplitMix64 (Steele, Lea, Flood 2014). */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* Fills the state with four SplitMix64 outputs from seed. */
void pz__rng_seed(pz_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

/* The next xoshiro256** output. */
uint64_t pz__rng_next(pz_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/*
 * A uniform draw below bound (>= 1): Lemire's multiply-shift on the high
 * 32 bits of an output, rejecting the low products that would bias it.
 */
uint32_t pz__rng_below(pz_rng *r, uint32_t bound)
{
    uint64_t m = (pz__rng_next(r) >> 32) * (uint64_t)bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            m = (pz__rng_next(r) >> 32) * (uint64_t)bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Fisher–Yates over the pack in index order. */
void pz__rng_shuffle(pz_rng *r, pz_card pack[PZ_CARDS])
{
    for (int i = 0; i < PZ_CARDS; i++)
        pack[i] = (pz_card)i;
    for (int i = PZ_CARDS - 1; i > 0; i--) {
        uint32_t j = pz__rng_below(r, (uint32_t)i + 1);
        pz_card t = pack[i];
        pack[i] = pack[j];
        pack[j] = t;
    }
}

/* The first pack a generator seeded with seed gives. */
void pz_shuffle(uint64_t seed, pz_card out[PZ_CARDS])
{
    pz_rng r;
    pz__rng_seed(&r, seed);
    pz__rng_shuffle(&r, out);
}
