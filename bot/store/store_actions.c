/*
 * store_actions.c — a game's action log in the store: every action in
 * order, appended with the next number (the log has no gaps), read back
 * whole for a replay or an export. Not here: the games (store_game.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* The number of actions of game (its next seq) into *n. */
static int next_seq(store *s, int64_t game, int *n)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(
        s, ST_ACTION_NEXT, "SELECT coalesce(max(seq) + 1, 0) FROM actions WHERE game_id = ?1", &st);
    if (rc == 0)
        rc = store__bind(s, st, "i", game);
    if (rc == 0 && (rc = store__step(s, st)) == 1)
        rc = store__int(s, st, 0, 0, INT_MAX, STORE_CORRUPT, n);
    else if (rc == 0)
        rc = store__say(s, STORE_ERROR, "no count of actions");
    if (st != NULL)
        store__reset(st);
    return rc;
}

/*
 * Appends action seq of game with its JSON text and time. seq must be the
 * game's number of actions (the log has no gaps): STORE_CONFLICT
 * otherwise. STORE_NOT_FOUND if there is no such game; else 0 or a
 * store_err, and on error nothing is written.
 */
int store_action_append(store *s, int64_t game, int seq, const char *json, int64_t at)
{
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    int next = 0;
    rc = store__game_exists(s, game);
    if (rc == 0)
        rc = next_seq(s, game, &next);
    if (rc == 0 && seq != next)
        rc = store__say(s, STORE_CONFLICT, "action %d of game %" PRId64 " comes after %d", seq,
                        game, next);
    if (rc == 0)
        rc = store__run(s, ST_ACTION_INSERT,
                        "INSERT INTO actions (game_id, seq, json, at) VALUES (?1, ?2, ?3, ?4)",
                        "idti", game, seq, json, at);
    return store__op_end(s, rc);
}

/* How many actions game has into *n (0 for no such game); 0 or a store_err
   with *n untouched. */
int store_action_count(store *s, int64_t game, int *n)
{
    return next_seq(s, game, n);
}

/* An action as store_action_each reads it. */
typedef struct action {
    int seq;
    char *json;
} action;

/* Frees the n actions of v and v. */
static void free_actions(action *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].json);
    free(v);
}

/* Every action of game in order into a malloc'd *all of *n. */
static int read_actions(store *s, int64_t game, action **all, size_t *n)
{
    sqlite3_stmt *st = NULL;
    action *v = NULL;
    size_t cap = 0, k = 0;
    int rc = store__prepare(s, ST_ACTION_EACH,
                            "SELECT seq, json FROM actions WHERE game_id = ?1 ORDER BY seq", &st);
    if (rc == 0)
        rc = store__bind(s, st, "i", game);
    while (rc == 0 && (rc = store__step(s, st)) == 1) {
        action *grown = store__grow(s, v, &cap, k, sizeof *v);
        if (grown == NULL) {
            rc = STORE_ERROR;
            break;
        }
        v = grown;
        rc = store__int(s, st, 0, 0, INT_MAX, STORE_CORRUPT, &v[k].seq);
        if (rc == 0)
            rc = store__dup(s, st, 1, &v[k].json);
        if (rc == 0)
            k++;
    }
    if (st != NULL)
        store__reset(st);
    if (rc != 0) {
        free_actions(v, k);
        return rc;
    }
    *all = v;
    *n = k;
    return 0;
}

/*
 * Calls fn(arg, seq, json) for each action of game in order (none for no
 * such game). The log is read before the first call, so fn may use s
 * freely; json is valid during the call only. Stops at fn's first non-0
 * return and returns it; else 0 or a store_err (then fn is not called).
 */
int store_action_each(store *s, int64_t game, int (*fn)(void *arg, int seq, const char *json),
                      void *arg)
{
    action *all = NULL;
    size_t n = 0;
    int rc = read_actions(s, game, &all, &n);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = fn(arg, all[i].seq, all[i].json != NULL ? all[i].json : "");
    free_actions(all, n);
    return rc;
}
