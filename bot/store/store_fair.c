/*
 * store_fair.c — what makes a game's deals checkable (FAIRNESS.md): its
 * salt, whether its seeds are sealed until it ends, and the seed of each
 * hand. A sealed seed is dealt once in a file: the unique index on sealed
 * seeds refuses a second, and the host draws again.
 *
 * Not here: drawing seeds or computing commitments (the host's fair.c,
 * engine/fair): a commitment is kept as given.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* true if text is exactly len lowercase hex digits. */
static bool is_hex(const char *text, size_t len)
{
    size_t n = strnlen(text, len + 1);
    for (size_t i = 0; i < n; i++)
        if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
            return false;
    return n == len;
}

/* 0 if salt is exactly STORE_SALT_HEX lowercase hex digits. */
static int check_salt(store *s, const char *salt)
{
    if (!is_hex(salt, STORE_SALT_HEX))
        return store__say(s, STORE_ERROR, "a salt is %d lowercase hex digits", STORE_SALT_HEX);
    return 0;
}

int store_fair_start(store *s, int64_t game, const char *salt, bool sealed)
{
    int rc = check_salt(s, salt);
    if (rc != 0 || (rc = store__op_begin(s)) != 0)
        return rc;
    /* a start that failed before its first line left seeds nobody saw */
    rc = store__run(s, ST_FAIR_RESET, "DELETE FROM hand_seeds WHERE game_id = ?1", "i", game);
    if (rc == 0)
        rc = store__run(s, ST_FAIR_START,
                        "INSERT OR REPLACE INTO fair (game_id, salt, sealed) VALUES (?1, ?2, ?3)",
                        "itd", game, salt, (int)sealed);
    return store__op_end(s, rc);
}

int store_fair_get(store *s, int64_t game, char salt[STORE_SALT_HEX + 1], bool *sealed)
{
    sqlite3_stmt *st = NULL;
    char text[STORE_SALT_HEX + 1];
    int flag = 0;
    int rc =
        store__prepare(s, ST_FAIR_GET, "SELECT salt, sealed FROM fair WHERE game_id = ?1", &st);
    if (rc == 0)
        rc = store__bind(s, st, "i", game);
    if (rc == 0 && (rc = store__step(s, st)) == 1) {
        rc = store__text(s, st, 0, text, sizeof text);
        if (rc == 0)
            rc = store__int(s, st, 1, 0, 1, STORE_CORRUPT, &flag);
        if (rc == 0 && check_salt(s, text) != 0)
            rc = store__say(s, STORE_CORRUPT, "game %" PRId64 "'s salt is damaged", game);
    } else if (rc == 0) {
        rc = store__say(s, STORE_NOT_FOUND, "game %" PRId64 " has no salt", game);
    }
    if (st != NULL)
        store__reset(st);
    if (rc == 0) {
        memcpy(salt, text, sizeof text);
        *sealed = flag != 0;
    }
    return rc;
}

int store_hand_add(store *s, int64_t game, int hand, uint64_t seed, const char *digest)
{
    char text[24];
    snprintf(text, sizeof text, "%" PRIu64, seed); /* at most 20 digits */
    if (!is_hex(digest, STORE_DIGEST_HEX))
        return store__say(s, STORE_ERROR, "a commitment is %d lowercase hex digits",
                          STORE_DIGEST_HEX);
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    rc = store__run(s, ST_HAND_ADD,
                    "INSERT INTO hand_seeds (game_id, hand, seed, sealed, digest) "
                    "SELECT ?1, ?2, ?3, sealed, ?4 FROM fair WHERE game_id = ?1",
                    "idtt", game, hand, text, digest);
    if (rc == 0 && sqlite3_changes(s->db) == 0)
        rc = store__say(s, STORE_NOT_FOUND, "game %" PRId64 " has no salt", game);
    else if (rc == STORE_CONFLICT)
        store__say(s, rc, "hand %d of game %" PRId64 " has a seed, or the seed was dealt before",
                   hand, game);
    return store__op_end(s, rc);
}

/* One hand's seed as store_hand_each reads it. */
typedef struct hand_seed {
    int hand;
    uint64_t seed;
    char digest[STORE_DIGEST_HEX + 1]; /* "" when not kept */
} hand_seed;

/* Reads a row (hand, seed, digest) into *row. */
static int read_hand(store *s, sqlite3_stmt *st, void *row)
{
    hand_seed *h = row;
    char text[24], *end = NULL;
    int rc = store__int(s, st, 0, 1, INT_MAX, STORE_CORRUPT, &h->hand);
    if (rc == 0)
        rc = store__text(s, st, 1, text, sizeof text);
    if (rc != 0)
        return store__say(s, STORE_CORRUPT, "a hand's seed is damaged");
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno == ERANGE)
        return store__say(s, STORE_CORRUPT, "a hand's seed is not a number: \"%s\"", text);
    h->seed = (uint64_t)v;
    h->digest[0] = '\0';
    if (sqlite3_column_type(st, 2) != SQLITE_NULL &&
        (store__text(s, st, 2, h->digest, sizeof h->digest) != 0 ||
         !is_hex(h->digest, STORE_DIGEST_HEX)))
        return store__say(s, STORE_CORRUPT, "hand %d's commitment is damaged", h->hand);
    return 0;
}

int store_hand_each(store *s, int64_t game,
                    int (*fn)(void *arg, int hand, uint64_t seed, const char *digest), void *arg)
{
    sqlite3_stmt *st = NULL;
    int n = 0;
    /* hands of one game are few; a generous cap, read all at once */
    enum { HANDS_MAX = 4096 };
    hand_seed *all = malloc(HANDS_MAX * sizeof *all);
    if (all == NULL)
        return store__say(s, STORE_ERROR, "out of memory");
    int rc = store__prepare(
        s, ST_HAND_EACH,
        "SELECT hand, seed, digest FROM hand_seeds WHERE game_id = ?1 ORDER BY hand", &st);
    if (rc == 0)
        rc = store__bind(s, st, "i", game);
    rc = store__rows(s, st, rc, read_hand, all, sizeof *all, HANDS_MAX, &n);
    for (int i = 0; rc == 0 && i < n; i++)
        rc = fn(arg, all[i].hand, all[i].seed, all[i].digest);
    free(all);
    return rc;
}
