/*
 * store_game.c — games and their seats in the store.
 *
 * A game row holds what the host needs to resume it (settings, seed, the
 * saved game, pz_pack() or older pz_save(), timers); the partial unique index games_active
 * keeps one lobby/playing/paused game per room, which is STORE_CONFLICT
 * here. Strings are checked against their struct buffers when written, so
 * they always fit when read back; the seed is stored as decimal text, as
 * SQLite's integers are signed. Functions that call back read every row
 * first and call back afterwards, so the callback may use the store freely
 * (read, write, begin a transaction). Not here: what a game means.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

#define GAME_COLS                                                                                  \
    "id, network, room, status, creator, settings, seed, state, created, updated, turn_since, "    \
    "reminded, winner, next_due"

/* Frees g->state and sets it NULL; the struct is the caller's. */
void store_game_fini(store_game *g)
{
    if (g == NULL)
        return;
    free(g->state);
    g->state = NULL;
}

/* Checks that every string of g fits its buffer and the status is known. */
static int check_game(store *s, const store_game *g)
{
    int rc = store__fits(s, g->network, sizeof g->network, "the network");
    if (rc == 0)
        rc = store__fits(s, g->room, sizeof g->room, "the room");
    if (rc == 0)
        rc = store__fits(s, g->creator, sizeof g->creator, "the creator");
    if (rc == 0)
        rc = store__fits(s, g->settings, sizeof g->settings, "the settings");
    if (rc == 0 && (g->status < STORE_LOBBY || g->status > STORE_STOPPED))
        rc = store__say(s, STORE_ERROR, "unknown game status %d", (int)g->status);
    return rc;
}

/* Parses a seed column: decimal digits only, within uint64_t. */
static int read_seed(store *s, sqlite3_stmt *st, int col, uint64_t *out)
{
    char text[24];
    int rc = store__text(s, st, col, text, sizeof text);
    if (rc != 0)
        return store__say(s, STORE_CORRUPT, "a game's seed is not a number");
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno == ERANGE)
        return store__say(s, STORE_CORRUPT, "a game's seed is not a number: \"%s\"", text);
    *out = (uint64_t)v;
    return 0;
}

/* Reads a row of GAME_COLS into *g (all of it, state malloc'd). On error
   nothing is left allocated. 0 or a store_err. */
static int read_game(store *s, sqlite3_stmt *st, store_game *g)
{
    int status = 0;
    memset(g, 0, sizeof *g);
    g->id = sqlite3_column_int64(st, 0);
    int rc = store__text(s, st, 1, g->network, sizeof g->network);
    if (rc == 0)
        rc = store__text(s, st, 2, g->room, sizeof g->room);
    if (rc == 0)
        rc = store__int(s, st, 3, STORE_LOBBY, STORE_STOPPED, STORE_CORRUPT, &status);
    if (rc == 0)
        rc = store__text(s, st, 4, g->creator, sizeof g->creator);
    if (rc == 0)
        rc = store__text(s, st, 5, g->settings, sizeof g->settings);
    if (rc == 0)
        rc = read_seed(s, st, 6, &g->seed);
    if (rc == 0)
        rc = store__int(s, st, 12, INT_MIN, INT_MAX, STORE_CORRUPT, &g->winner);
    if (rc == 0)
        rc = store__dup(s, st, 7, &g->state);
    g->status = (store_status)status;
    g->created = sqlite3_column_int64(st, 8);
    g->updated = sqlite3_column_int64(st, 9);
    g->turn_since = sqlite3_column_int64(st, 10);
    g->reminded = sqlite3_column_int64(st, 11);
    g->next_due =
        sqlite3_column_type(st, 13) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 13);
    return rc;
}

/* The seed as decimal text (SQLite has no unsigned 64-bit integers). */
static int format_seed(store *s, uint64_t value, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%" PRIu64, value);
    if (n < 0 || (size_t)n >= cap)
        return store__say(s, STORE_ERROR, "cannot format the seed");
    return 0;
}

/* next_due as the text of an integer for binding, or NULL for "none"
   (store__bind has no NULL integer; CAST makes the column an integer). */
static const char *due_text(int64_t due, char buf[24])
{
    if (due == INT64_MAX)
        return NULL;
    snprintf(buf, 24, "%" PRId64, due);
    return buf;
}

/*
 * Inserts g as a new game and sets g->id (ids are never reused). Returns
 * 0; STORE_CONFLICT if the room already has a lobby/playing/paused game
 * and g is one too; STORE_TOO_BIG if a string does not fit its buffer;
 * else a store_err. On error g is untouched and nothing is written.
 */
int store_game_insert(store *s, store_game *g)
{
    char seed[24], due[24];
    int rc = format_seed(s, g->seed, seed, sizeof seed);
    if (rc == 0)
        rc = check_game(s, g);
    if (rc != 0 || (rc = store__op_begin(s)) != 0)
        return rc;
    store__gc_drop_room(s, g->network, g->room);
    rc = store__run(
        s, ST_GAME_INSERT,
        "INSERT INTO games (network, room, status, creator, settings, seed, state, "
        "created, updated, turn_since, reminded, winner, next_due) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, CAST(?13 AS INTEGER))",
        "ttdttttiiiidt", g->network, g->room, (int)g->status, g->creator, g->settings, seed,
        g->state, g->created, g->updated, g->turn_since, g->reminded, g->winner,
        due_text(g->next_due, due));
    int64_t id = sqlite3_last_insert_rowid(s->db);
    if (rc == STORE_CONFLICT)
        store__say(s, rc, "room %s of %s already has an active game", g->room, g->network);
    rc = store__op_end(s, rc);
    if (rc == 0)
        g->id = id;
    return rc;
}

/* Runs UPDATE sql (slot id) with g's fields bound as ?1 (its id) to ?14;
   0 or a store_err, and how many rows it changed into *changed. */
static int update_with(store *s, enum store_stmt id, const char *sql, const store_game *g,
                       int *changed)
{
    char seed[24], due[24];
    int rc = format_seed(s, g->seed, seed, sizeof seed);
    if (rc == 0)
        rc = store__run(s, id, sql, "ittdttttiiiidt", g->id, g->network, g->room, (int)g->status,
                        g->creator, g->settings, seed, g->state, g->created, g->updated,
                        g->turn_since, g->reminded, g->winner, due_text(g->next_due, due));
    *changed = rc == 0 ? sqlite3_changes(s->db) : 0;
    return rc;
}

/*
 * Writes every field of g to the game g->id. Returns 0, STORE_NOT_FOUND
 * (no such game), STORE_CONFLICT (it would make a second active game in
 * its room), STORE_TOO_BIG, or a store_err; on error nothing is written.
 */
int store_game_update(store *s, const store_game *g)
{
    int changed = 0, rc = check_game(s, g);
    if (rc != 0 || (rc = store__op_begin(s)) != 0)
        return rc;
    store__gc_drop(s, g->id);
    store__gc_drop_room(s, g->network, g->room);
    /* A move changes neither the room nor the status: then only the
       columns no index or trigger reads besides updated and next_due are
       set. SQLite maintains every index one of whose columns (or whose
       WHERE's) a SET names, whatever the value, and fires the triggers
       UPDATE OF status: a SET of all the columns rewrote the game's
       games_active entry at every move, a leaf no recent command read at
       100,000 games, copied and written to the -wal (issue 34). */
    rc = update_with(s, ST_GAME_UPDATE_SAME,
                     "UPDATE games SET creator = ?5, settings = ?6, seed = ?7, state = ?8, "
                     "created = ?9, updated = ?10, turn_since = ?11, reminded = ?12, "
                     "winner = ?13, next_due = CAST(?14 AS INTEGER) "
                     "WHERE id = ?1 AND network = ?2 AND room = ?3 AND status = ?4",
                     g, &changed);
    if (rc == 0 && changed == 1)
        return store__op_end(s, 0);
    if (rc == 0) /* another room or status, or no such game */
        rc = update_with(s, ST_GAME_UPDATE,
                         "UPDATE games SET network = ?2, room = ?3, status = ?4, creator = ?5, "
                         "settings = ?6, seed = ?7, state = ?8, created = ?9, updated = ?10, "
                         "turn_since = ?11, reminded = ?12, winner = ?13, "
                         "next_due = CAST(?14 AS INTEGER) WHERE id = ?1",
                         g, &changed);
    if (rc == 0 && changed == 0)
        rc = store__say(s, STORE_NOT_FOUND, "no game %" PRId64, g->id);
    else if (rc == STORE_CONFLICT)
        store__say(s, rc, "room %s of %s already has an active game", g->room, g->network);
    return store__op_end(s, rc);
}

/* Runs a prepared, bound query of GAME_COLS for at most one game into
 *out (whose old contents are overwritten, not freed). */
static int one_game(store *s, sqlite3_stmt *st, store_game *out, const char *missing)
{
    store_game g;
    g.state = NULL;
    int rc = store__step(s, st);
    if (rc == 1)
        rc = read_game(s, st, &g);
    else if (rc == 0)
        rc = store__say(s, STORE_NOT_FOUND, "%s", missing);
    store__reset(st);
    if (rc != 0) {
        store_game_fini(&g);
        return rc;
    }
    *out = g;
    return 0;
}

/*
 * The lobby/playing/paused game of room on network into *out, whose old
 * contents are overwritten (fini it first if it held a state); the caller
 * frees the new one with store_game_fini. Returns 0, STORE_NOT_FOUND, or
 * a store_err; on error *out is untouched.
 */
int store_game_active(store *s, const char *network, const char *room, store_game *out)
{
    sqlite3_stmt *st;
    int rc = store__gc_game_by_room(s, network, room, out);
    if (rc != 1)
        return rc;
    rc = store__prepare(s, ST_GAME_ACTIVE,
                        "SELECT " GAME_COLS " FROM games "
                        "WHERE network = ?1 AND room = ?2 AND status IN (0, 1, 2)",
                        &st);
    if (rc == 0)
        rc = store__bind(s, st, "tt", network, room);
    if (rc == 0 && (rc = one_game(s, st, out, "no active game in this room")) == 0)
        store__gc_put_game(s, out);
    return rc;
}

/* The game id into *out as store_game_active; STORE_NOT_FOUND if none. */
int store_game_get(store *s, int64_t id, store_game *out)
{
    sqlite3_stmt *st;
    int rc = store__gc_game_by_id(s, id, out);
    if (rc != 1)
        return rc;
    rc = store__prepare(s, ST_GAME_GET, "SELECT " GAME_COLS " FROM games WHERE id = ?1", &st);
    if (rc == 0)
        rc = store__bind(s, st, "i", id);
    if (rc == 0 && (rc = one_game(s, st, out, "no such game")) == 0)
        store__gc_put_game(s, out);
    return rc;
}

/* Every active game, oldest first, into a malloc'd array *all of *n. */
static int read_active(store *s, store_game **all, size_t *n)
{
    sqlite3_stmt *st = NULL;
    store_game *v = NULL;
    size_t cap = 0, k = 0;
    int rc = store__prepare(s, ST_GAME_EACH,
                            "SELECT " GAME_COLS " FROM games WHERE status IN (0, 1, 2) ORDER BY id",
                            &st);
    while (rc == 0 && (rc = store__step(s, st)) == 1) {
        store_game *grown = store__grow(s, v, &cap, k, sizeof *v);
        if (grown == NULL) {
            rc = STORE_ERROR;
            break;
        }
        v = grown;
        rc = read_game(s, st, &v[k]);
        if (rc != 0)
            store_game_fini(&v[k]);
        else
            k++;
    }
    if (st != NULL)
        store__reset(st);
    if (rc != 0) {
        for (size_t i = 0; i < k; i++)
            store_game_fini(&v[i]);
        free(v);
        return rc;
    }
    *all = v;
    *n = k;
    return 0;
}

/*
 * Calls fn(arg, g) for every lobby/playing/paused game, oldest first. The
 * games are all read before the first call, so fn may use s in any way
 * (its writes do not change this walk); g is valid during the call only,
 * and fn may take g->state (setting it NULL) to keep it. Stops at the
 * first non-0 return of fn and returns it; else 0, or a store_err if the
 * games cannot be read (then fn is not called).
 */
int store_game_each_active(store *s, int (*fn)(void *arg, store_game *g), void *arg)
{
    store_game *all = NULL;
    size_t n = 0;
    int rc = read_active(s, &all, &n);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = fn(arg, &all[i]);
        store_game_fini(&all[i]);
    }
    free(all);
    return rc;
}

/* The active games' ids with "network\0room\0" of each, in that order,
   packed in one buffer (store_room_each_active). */
struct room_walk {
    int64_t *id;
    char *text;
    size_t n, cap, len, text_cap;
};

/* Appends one row to w; 0, or STORE_ERROR out of memory. */
static int room_walk_add(store *s, struct room_walk *w, int64_t id, const char *network,
                         const char *room)
{
    size_t nlen = strlen(network) + 1, rlen = strlen(room) + 1, need = nlen + rlen;
    int64_t *ids = store__grow(s, w->id, &w->cap, w->n, sizeof *w->id);
    if (ids == NULL)
        return STORE_ERROR;
    w->id = ids;
    if (w->len + need > w->text_cap) {
        size_t cap = w->text_cap != 0 ? 2 * w->text_cap : 4096;
        while (cap < w->len + need)
            cap *= 2;
        char *grown = realloc(w->text, cap);
        if (grown == NULL)
            return store__say(s, STORE_ERROR, "out of memory reading the rooms of the games");
        w->text = grown;
        w->text_cap = cap;
    }
    w->id[w->n++] = id;
    memcpy(w->text + w->len, network, nlen);
    memcpy(w->text + w->len + nlen, room, rlen);
    w->len += need;
    return 0;
}

int store_room_each_active(store *s,
                           int (*fn)(void *arg, int64_t id, const char *network, const char *room),
                           void *arg)
{
    struct room_walk w = {0};
    sqlite3_stmt *st = NULL;
    char network[STORE_ID_MAX], room[STORE_ID_MAX];
    /* network and room are the partial index games_active's columns and
       id its rowid: SQLite reads the index alone (EXPLAIN QUERY PLAN:
       "USING COVERING INDEX games_active") */
    int rc = store__prepare(s, ST_ROOM_EACH,
                            "SELECT id, network, room FROM games INDEXED BY games_active "
                            "WHERE status IN (0, 1, 2)",
                            &st);
    while (rc == 0 && (rc = store__step(s, st)) == 1) {
        rc = store__text(s, st, 1, network, sizeof network);
        if (rc == 0)
            rc = store__text(s, st, 2, room, sizeof room);
        if (rc == 0)
            rc = room_walk_add(s, &w, sqlite3_column_int64(st, 0), network, room);
    }
    if (st != NULL)
        store__reset(st);
    const char *t = w.text;
    for (size_t i = 0; rc == 0 && i < w.n; i++) {
        const char *net = t, *name = t + strlen(t) + 1;
        t = name + strlen(name) + 1;
        rc = fn(arg, w.id[i], net, name);
    }
    free(w.id);
    free(w.text);
    return rc;
}

/* 0 if game id exists, else STORE_NOT_FOUND or a store_err. */
int store__game_exists(store *s, int64_t id)
{
    sqlite3_stmt *st;
    int rc = store__prepare(s, ST_GAME_EXISTS, "SELECT 1 FROM games WHERE id = ?1", &st);
    if (rc == 0)
        rc = store__bind(s, st, "i", id);
    if (rc == 0 && (rc = store__step(s, st)) >= 0) {
        store__reset(st);
        rc = rc == 1 ? 0 : store__say(s, STORE_NOT_FOUND, "no game %" PRId64, id);
    }
    return rc;
}

/* Inserts seats[0..n) of game; the caller holds an operation open. */
static int insert_seats(store *s, int64_t game, const store_seat *seats, int n)
{
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        rc = store__fits(s, seats[i].player, sizeof seats[i].player, "a seat's player");
        if (rc == 0)
            rc = store__fits(s, seats[i].nick, sizeof seats[i].nick, "a seat's nick");
        if (rc == 0 && seats[i].seat < 0)
            rc = store__say(s, STORE_ERROR, "seat %d is negative", seats[i].seat);
        if (rc == 0)
            rc = store__run(
                s, ST_SEAT_INSERT,
                "INSERT INTO seats (game_id, seat, player, nick) VALUES (?1, ?2, ?3, ?4)", "idtt",
                game, seats[i].seat, seats[i].player, seats[i].nick);
        if (rc == STORE_CONFLICT)
            store__say(s, rc, "seat %d is given twice", seats[i].seat);
    }
    return rc;
}

/*
 * Replaces all seats of game by seats[0..n) (n 0 empties them). Returns 0,
 * STORE_NOT_FOUND (no such game), STORE_CONFLICT (a seat number twice),
 * STORE_TOO_BIG (a string does not fit), or a store_err; on error the old
 * seats stay.
 */
int store_seats_set(store *s, int64_t game, const store_seat *seats, int n)
{
    if (n < 0)
        return store__say(s, STORE_ERROR, "a negative number of seats");
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    store__gc_drop(s, game);
    rc = store__game_exists(s, game);
    if (rc == 0)
        rc = store__run(s, ST_SEATS_DELETE, "DELETE FROM seats WHERE game_id = ?1", "i", game);
    if (rc == 0)
        rc = insert_seats(s, game, seats, n);
    return store__op_end(s, rc);
}

/*
 * Reads the first max seats of game (by seat number) into seats and their
 * count into *n: 0 for a game without seats or no such game. Returns 0 or
 * a store_err, with seats and *n untouched.
 */
/* Reads one seat row (seat, player, nick). */
static int read_seat(store *s, sqlite3_stmt *st, void *row)
{
    store_seat *seat = row;
    int rc = store__int(s, st, 0, 0, INT_MAX, STORE_CORRUPT, &seat->seat);
    if (rc == 0)
        rc = store__text(s, st, 1, seat->player, sizeof seat->player);
    if (rc == 0)
        rc = store__text(s, st, 2, seat->nick, sizeof seat->nick);
    return rc;
}

int store_seats_get(store *s, int64_t game, store_seat *seats, int max, int *n)
{
    int rc = store__gc_seats(s, game, seats, max, n);
    if (rc != 1)
        return rc;
    sqlite3_stmt *st = NULL;
    rc = store__prepare(s, ST_SEATS_GET,
                        "SELECT seat, player, nick FROM seats WHERE game_id = ?1 "
                        "ORDER BY seat LIMIT ?2",
                        &st);
    if (max > STORE_GC_SEATS_MAX) { /* all the caller asked for, not kept */
        if (rc == 0)
            rc = store__bind(s, st, "id", game, max);
        return store__rows(s, st, rc, read_seat, seats, sizeof *seats, max, n);
    }
    store_seat all[STORE_GC_SEATS_MAX + 1]; /* one more: fewer read is all of them */
    int limit = STORE_GC_SEATS_MAX + 1, k = 0;
    if (rc == 0)
        rc = store__bind(s, st, "id", game, limit);
    rc = store__rows(s, st, rc, read_seat, all, sizeof *all, limit, &k);
    if (rc != 0)
        return rc;
    if (k < limit)
        store__gc_put_seats(s, game, all, k);
    *n = k < max ? k : max;
    if (*n > 0)
        memcpy(seats, all, (size_t)*n * sizeof *seats);
    return 0;
}

/* A game and its room, as store_games_of_player reads them. */
typedef struct seat_of {
    int64_t game;
    char room[STORE_ID_MAX];
} seat_of;

/* The active games of player on network into a malloc'd *all of *n. */
static int read_games_of(store *s, const char *network, const char *player, seat_of **all,
                         size_t *n)
{
    sqlite3_stmt *st = NULL;
    seat_of *v = NULL;
    size_t cap = 0, k = 0;
    int rc = store__prepare(s, ST_GAMES_OF_PLAYER,
                            "SELECT DISTINCT games.id, games.room FROM seats "
                            "JOIN games ON games.id = seats.game_id WHERE seats.player = ?2 "
                            "AND games.network = ?1 AND games.status IN (0, 1, 2) "
                            "ORDER BY games.id",
                            &st);
    if (rc == 0)
        rc = store__bind(s, st, "tt", network, player);
    while (rc == 0 && (rc = store__step(s, st)) == 1) {
        seat_of *grown = store__grow(s, v, &cap, k, sizeof *v);
        if (grown == NULL) {
            rc = STORE_ERROR;
            break;
        }
        v = grown;
        v[k].game = sqlite3_column_int64(st, 0);
        rc = store__text(s, st, 1, v[k].room, sizeof v[k].room);
        k++;
    }
    if (st != NULL)
        store__reset(st);
    if (rc != 0) {
        free(v);
        return rc;
    }
    *all = v;
    *n = k;
    return 0;
}

/*
 * Calls fn(arg, game, room) for every lobby/playing/paused game of network
 * in which player has a seat, oldest first. The games are read before the
 * first call, so fn may use s freely; room is valid during the call only.
 * Stops at fn's first non-0 return and returns it; else 0 or a store_err.
 */
int store_games_of_player(store *s, const char *network, const char *player,
                          int (*fn)(void *arg, int64_t game, const char *room), void *arg)
{
    seat_of *all = NULL;
    size_t n = 0;
    int rc = read_games_of(s, network, player, &all, &n);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = fn(arg, all[i].game, all[i].room);
    free(all);
    return rc;
}

/* ---- The clock's index ------------------------------------------------ */

/* The number of lobby/playing/paused games into *n (one row kept by
   triggers: no scan). 0 or a store_err. */
int store_game_count_active(store *s, int *n)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_GAME_COUNT, "SELECT n FROM counts WHERE name = 'active'", &st);
    if (rc == 0 && (rc = store__step(s, st)) == 1)
        rc = store__int(s, st, 0, 0, INT_MAX, STORE_TOO_BIG, n);
    else if (rc == 0)
        rc = store__say(s, STORE_ERROR, "no count of games");
    if (st != NULL)
        store__reset(st);
    return rc;
}

/* The least next_due into *at, INT64_MAX when no game has one: the
   partial index games_due answers it without reading a game. */
int store_game_next_due(store *s, int64_t *at)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_GAME_NEXT_DUE,
                            "SELECT min(next_due) FROM games WHERE next_due IS NOT NULL", &st);
    if (rc == 0 && (rc = store__step(s, st)) == 1) {
        *at = sqlite3_column_type(st, 0) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 0);
        rc = 0;
    } else if (rc == 0) {
        *at = INT64_MAX;
    }
    if (st != NULL)
        store__reset(st);
    return rc;
}

/* Reads one (id, network, room, due) row. */
static int read_due(store *s, sqlite3_stmt *st, void *row)
{
    store_due *d = row;
    d->id = sqlite3_column_int64(st, 0);
    d->due = sqlite3_column_int64(st, 3);
    int rc = store__text(s, st, 1, d->network, sizeof d->network);
    return rc != 0 ? rc : store__text(s, st, 2, d->room, sizeof d->room);
}

/*
 * Up to max games whose next_due is at or before now, earliest first:
 * their id, network, room and due time into out and the count into *n.
 * 0 or a store_err (*n untouched).
 */
int store_game_due(store *s, int64_t now, store_due *out, int max, int *n)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_GAME_DUE,
                            "SELECT id, network, room, next_due FROM games "
                            "WHERE next_due IS NOT NULL AND next_due <= ?1 "
                            "ORDER BY next_due LIMIT ?2",
                            &st);
    if (rc == 0)
        rc = store__bind(s, st, "id", now, max);
    return store__rows(s, st, rc, read_due, out, sizeof *out, max, n);
}

/*
 * Active games of any network updated at or after since, most recent
 * first, at most max, into out (due holds the update time). 0 or a
 * store_err.
 */
int store_game_recent(store *s, int64_t since, int max, store_due *out, int *n)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_GAME_RECENT,
                            "SELECT id, network, room, updated FROM games "
                            "WHERE status IN (0, 1, 2) AND updated >= ?1 "
                            "ORDER BY updated DESC LIMIT ?2",
                            &st);
    if (rc == 0)
        rc = store__bind(s, st, "id", since, max);
    return store__rows(s, st, rc, read_due, out, sizeof *out, max, n);
}

/* Sets game id's next_due (INT64_MAX: none). 0, STORE_NOT_FOUND or a
   store_err. */
int store_game_set_due(store *s, int64_t id, int64_t due)
{
    char buf[24];
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    store__gc_drop(s, id);
    rc = store__run(s, ST_GAME_SET_DUE,
                    "UPDATE games SET next_due = CAST(?2 AS INTEGER) WHERE id = ?1", "it", id,
                    due_text(due, buf));
    if (rc == 0 && sqlite3_changes(s->db) == 0)
        rc = store__say(s, STORE_NOT_FOUND, "no game %" PRId64, id);
    return store__op_end(s, rc);
}

#define CLOCK_BATCH 512

/*
 * Calls fn for the clock fields of every active game, by id, reading
 * CLOCK_BATCH rows at a time with no statement open during the calls, so
 * fn may write (store_game_set_due). Stops at fn's first non-0 and
 * returns it; 0, or a store_err.
 */
int store_game_each_clock(store *s, int (*fn)(void *arg, const store_clock_row *r), void *arg)
{
    store_clock_row *rows = malloc(CLOCK_BATCH * sizeof *rows);
    if (rows == NULL)
        return store__say(s, STORE_ERROR, "out of memory");
    int64_t after = 0;
    int rc = 0;
    for (;;) {
        sqlite3_stmt *st = NULL;
        int k = 0;
        rc = store__prepare(s, ST_GAME_CLOCK,
                            "SELECT id, status, settings, turn_since, reminded, next_due "
                            "FROM games WHERE status IN (0, 1, 2) AND id > ?1 ORDER BY id "
                            "LIMIT ?2",
                            &st);
        if (rc == 0)
            rc = store__bind(s, st, "id", after, CLOCK_BATCH);
        while (rc == 0 && k < CLOCK_BATCH && (rc = store__step(s, st)) == 1) {
            store_clock_row *r = &rows[k];
            int status = 0;
            r->id = sqlite3_column_int64(st, 0);
            rc = store__int(s, st, 1, STORE_LOBBY, STORE_STOPPED, STORE_CORRUPT, &status);
            r->status = (store_status)status;
            if (rc == 0)
                rc = store__text(s, st, 2, r->settings, sizeof r->settings);
            r->turn_since = sqlite3_column_int64(st, 3);
            r->reminded = sqlite3_column_int64(st, 4);
            r->next_due =
                sqlite3_column_type(st, 5) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 5);
            if (rc == 0)
                k++;
        }
        if (st != NULL)
            store__reset(st);
        if (rc < 0)
            break;
        rc = 0;
        for (int i = 0; i < k && rc == 0; i++)
            rc = fn(arg, &rows[i]);
        if (rc != 0 || k < CLOCK_BATCH)
            break;
        after = rows[k - 1].id;
    }
    free(rows);
    return rc;
}
