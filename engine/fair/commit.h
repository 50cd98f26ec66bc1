/*
 * commit.h — the commitment of a fair deal (FAIRNESS.md, "The commitment"),
 * written once for everything that computes it: the host as it seals a
 * hand, the record and the game's page as they show it, and
 * porrazo-replay --verify as it checks it. Prefix pzf_.
 */
#ifndef PZ_FAIR_COMMIT_H
#define PZ_FAIR_COMMIT_H

#include <stdint.h>

#define PZF_COMMIT_HEX 64 /* a commitment: SHA-256 as lowercase hex */
#define PZF_SEAL_HEX 12   /* the part of it the room reads before the first card */

/*
 * Writes the commitment of seed under salt into out (PZF_COMMIT_HEX
 * digits and NUL): SHA-256 of the ASCII text "porrazo-commit-v1:SEED:SALT",
 * SEED in decimal, SALT as given (the record's lowercase hex). 0, or -1 if
 * the salt is too long or OpenSSL fails.
 */
int pzf_commit(uint64_t seed, const char *salt, char out[PZF_COMMIT_HEX + 1]);

#endif /* PZ_FAIR_COMMIT_H */
