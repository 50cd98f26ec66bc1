/*
 * verify.h — porrazo-replay --verify: checks a game's record of fair deals
 * (FAIRNESS.md) — every hand's commitment against its revealed seed and
 * the game's salt, every hand's pack against the shuffle of its seed, and
 * the moves by replaying them — and says what differs, first thing first.
 *
 * Not a second rules engine (the replay is pzr_run's) and not a second
 * shuffle (pz_shuffle, checked against an independent one in
 * tests/shuffle). SHA-256 is OpenSSL's.
 */
#ifndef PZR_VERIFY_H
#define PZR_VERIFY_H

#include <stddef.h>
#include <stdio.h>

enum pzr_verify_exit {
    PZR_VERIFY_OK = 0,        /* every commitment, pack and move checks out */
    PZR_VERIFY_MISMATCH = 1,  /* something differs, or nothing is revealed yet */
    PZR_VERIFY_MALFORMED = 2, /* not a record (or not a scenario) */
    PZR_VERIFY_FAILURE = 3    /* our fault: memory, OpenSSL, output */
};

/*
 * Checks the record in text[0..len) (at most PZR_INPUT_MAX bytes). On
 * success writes one line saying what was checked to out and returns
 * PZR_VERIFY_OK; otherwise one line to err saying what differed (which
 * hand, which digest or card, which action) and one of the other codes.
 */
int pzr_verify(const char *text, size_t len, FILE *out, FILE *err);

#endif /* PZR_VERIFY_H */
