/*
 * store_int.h — what the files of the store module share and nobody else
 * sees: struct store, its cache of prepared statements, and the helpers
 * that prepare, bind, step and read them, turn SQLite's result codes into
 * store_err with a message, and wrap a write in a transaction or a
 * savepoint. store.c holds the lifecycle (open, checks, migrations,
 * transactions), store_sql.c these helpers, store_files.c the files on
 * disk (their modes at open, the -wal, -shm and the file watched while
 * running), store_game.c games and seats, store_actions.c the action
 * log, store_outbox.c the outbox and the adapters' key/value state, store_stats.c the
 * statistics, store_fair.c the fair deals' salts and seeds, store_cache.c
 * the page cache and the memory map, store_gcache.c the games kept in
 * memory. Not part of the API.
 */
#ifndef PZ_STORE_INT_H
#define PZ_STORE_INT_H

#ifndef PZ_INSIDE_STORE
#error "store_int.h is the store's inside: other layers include store.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

#include <sqlite3.h>

#include "store.h"

/* The statement cache: one slot per SQL text, prepared on first use. */
enum store_stmt {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_SAVEPOINT,
    ST_RELEASE,
    ST_ROLLBACK_TO,
    ST_SYNC_NORMAL,
    ST_SYNC_FULL,
    ST_GAME_INSERT,
    ST_GAME_UPDATE,
    ST_GAME_UPDATE_SAME,
    ST_GAME_ACTIVE,
    ST_GAME_GET,
    ST_GAME_EACH,
    ST_ROOM_EACH,
    ST_GAME_EXISTS,
    ST_SEATS_DELETE,
    ST_SEAT_INSERT,
    ST_SEATS_GET,
    ST_GAMES_OF_PLAYER,
    ST_ACTION_NEXT,
    ST_ACTION_INSERT,
    ST_ACTION_EACH,
    ST_OUTBOX_ADD,
    ST_OUTBOX_PEEK,
    ST_OUTBOX_DONE,
    ST_OUTBOX_COUNT,
    ST_STATS_ADD,
    ST_STATS_NICK,
    ST_STATS_GET,
    ST_STATS_TOP,
    ST_TALLY_ADD,
    ST_TALLY_READ,
    ST_TALLY_DROP,
    ST_KV_SET,
    ST_KV_GET,
    ST_KV_EACH,
    ST_SEEN_ADD,
    ST_SEEN_HAS,
    ST_SEEN_PRUNE,
    ST_GAME_COUNT,
    ST_GAME_NEXT_DUE,
    ST_GAME_DUE,
    ST_GAME_CLOCK,
    ST_GAME_SET_DUE,
    ST_GAME_RECENT,
    ST_OUTBOX_SINCE,
    ST_OUTBOX_TARGET_COUNT,
    ST_OUTBOX_PURGE,
    ST_OUTBOX_LAST,
    ST_BEGIN_READ,
    ST_FAIR_START,
    ST_FAIR_RESET,
    ST_FAIR_GET,
    ST_HAND_ADD,
    ST_HAND_EACH,
    ST_KV_DEL,
    ST_DATA_VERSION,
    ST_COUNT
};

#define STORE_INSTANCE_MAX 17 /* 16 hex digits and NUL */
#define STORE_ALERT_MAX 512   /* a message of store_set_alert's, bytes incl. NUL */

/* A file as the kernel knows it: which one SQLite holds open. */
typedef struct store_file_id {
    bool known; /* false: not seen yet (nothing to compare with) */
    dev_t dev;
    ino_t ino;
} store_file_id;

typedef struct store_gcache store_gcache;

struct store {
    sqlite3 *db;
    bool in_txn;                       /* between store_begin and commit/rollback */
    char instance[STORE_INSTANCE_MAX]; /* this file's random id, part of every txn */
    char msg[STORE_WHY_MAX];           /* the last error */
    sqlite3_stmt *stmt[ST_COUNT];
    const char *sql[ST_COUNT]; /* the text each slot was prepared from */
    uint64_t outbox_version;   /* see store_outbox_version */
    int lock_fd;               /* store_lock_instance's descriptor, or -1 */
    bool relaxed;              /* synchronous = NORMAL until this transaction ends */
    char *path;                /* the file, as opened */
    char shown[100];           /* the file as messages name it */
    char *wal_path, *shm_path; /* path with "-wal", "-shm" */
    store_file_id wal, shm;    /* the -wal and -shm this connection has open */
    bool rescue_told;          /* a failed rescue of a lost -wal was told */
    bool moved_told;           /* the file's deletion or move was told */
    store_alert_fn alert;      /* store_set_alert's */
    void *alert_arg;
    char pending[STORE_ALERT_MAX];    /* a warning of store_open, for store_set_alert */
    int64_t cache_hits, cache_misses; /* store_cache_stats's totals */
    store_gcache *gc;                 /* the games kept in memory; NULL: none */
};

#if defined(__GNUC__)
#define STORE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define STORE_PRINTF(f, a)
#endif

/* Formats a message into buf of len bytes (nothing when buf is NULL or
   len is 0); one that does not fit is cut and ends in "...". */
void store__format(char *buf, size_t len, const char *fmt, ...) STORE_PRINTF(3, 4);

/* Formats a message into s->msg as store__format and returns err. */
int store__say(store *s, int err, const char *fmt, ...) STORE_PRINTF(3, 4);

/* Maps SQLite result code rc to a store_err (CORRUPT for damage, CONFLICT
   for a unique key, NOT_FOUND for a missing parent row, TOO_BIG, else
   ERROR), writes "what: SQLite's message" to s->msg and returns it. */
int store__fail(store *s, int rc, const char *what);

/* The cached statement of slot id, preparing sql on first use; it is
   reset and has no bindings. 0 and *out, or a store_err. */
int store__prepare(store *s, enum store_stmt id, const char *sql, sqlite3_stmt **out);

/* Binds the arguments to ?1, ?2, ... by the letters of types: 't' a const
   char * (NULL binds NULL), 'i' an int64_t, 'd' an int. 0 or a store_err. */
int store__bind(store *s, sqlite3_stmt *st, const char *types, ...);

/* Steps st: 1 for a row, 0 when done, a store_err on failure (then st is
   reset). */
int store__step(store *s, sqlite3_stmt *st);

/* Resets st and clears its bindings, so it holds no lock and no value. */
void store__reset(sqlite3_stmt *st);

/* Reads one row of st into row (the caller's type). 0 or a store_err. */
typedef int (*store__row_fn)(store *s, sqlite3_stmt *st, void *row);

/*
 * The one loop that reads rows: when rc (the prepare and bind before it)
 * is 0, steps st and reads up to max rows with read into out (rows of size
 * bytes each), then resets st. All or nothing: 0 with out[0..*n) written,
 * or a store_err with out and *n untouched (rows go through a heap copy).
 */
int store__rows(store *s, sqlite3_stmt *st, int rc, store__row_fn read, void *out, size_t size,
                int max, int *n);

/* Prepares slot id, binds as store__bind and steps it to the end, ignoring
   rows. 0 or a store_err. */
int store__run(store *s, enum store_stmt id, const char *sql, const char *types, ...);

/* Copies text column col of st into dst of cap bytes, NUL-terminated (NULL
   reads as ""). STORE_TOO_BIG if it does not fit. */
int store__text(store *s, sqlite3_stmt *st, int col, char *dst, size_t cap);

/* Copies text column col into a malloc'd string in *out (NULL for NULL). */
int store__dup(store *s, sqlite3_stmt *st, int col, char **out);

/* Integer column col of st into *out if within [lo, hi], else err. */
int store__int(store *s, sqlite3_stmt *st, int col, int lo, int hi, int err, int *out);

/* 0 if str (at most cap bytes are read) ends within cap bytes, else
   STORE_TOO_BIG naming what. */
int store__fits(store *s, const char *str, size_t cap, const char *what);

/* The array p of *cap elements of size bytes, grown to hold element n
   (updating *cap); NULL out of memory, p still the caller's to free. */
/* Steps a statement slot's sql (transaction control, PRAGMAs), keeping
   s->msg. SQLITE_OK or an SQLite code. */
int store__quietly(store *s, enum store_stmt id, const char *sql);
void *store__grow(store *s, void *p, size_t *cap, size_t n, size_t size);

/* ---- store_files.c ---- */

/* Makes the existing database at path and its -wal/-shm 0600 when their
   group or others have any access. 0, with what was done (or "") in note;
   or STORE_ERROR with the chmod to run in why. */
int store__private_modes(const char *path, const char *shown, char *note, size_t note_len,
                         char *why, size_t why_len);

/* Sets s->wal_path and s->shm_path from s->path. 0 or STORE_ERROR. */
int store__files_init(store *s);

/* Notes which -wal and -shm the connection has open (after opening and
   after a rescue), for store__files_check to compare with. */
void store__files_note(store *s);

/*
 * Called before a write transaction begins, outside any: if the -wal or
 * -shm was deleted or replaced, copies the connection's -wal into the
 * file and starts a fresh one, and tells; if the file itself was deleted
 * or moved, tells. The transaction goes ahead whatever it found.
 */
void store__files_check(store *s);

/* Tells the operator of a serious trouble through the alert function
   (store_set_alert), if any. */
void store__alert(store *s, const char *fmt, ...) STORE_PRINTF(2, 3);

/* Wraps one write operation: a transaction of its own outside store_begin,
   a savepoint inside one, so every operation lands whole or not at all.
   op_end(s, rc) commits (releases) when rc is 0, else rolls back, and
   returns rc or the commit's error. */
int store__op_begin(store *s);
int store__op_end(store *s, int rc);

/* 0 if game id exists, else STORE_NOT_FOUND or a store_err (store_game.c). */
int store__game_exists(store *s, int64_t id);

/*
 * The games kept in memory (store_gcache.c). A lookup answers 0 (a hit,
 * *out filled as the read it spares would: a malloc'd state), 1 (a miss:
 * read the file) or a store_err; a row or seats just read are offered with
 * put (kept unless in a write transaction); every write of a game or its
 * seats drops the game first. The seats of a game with more than
 * STORE_GC_SEATS_MAX are never kept: a read of seats offered to put asks
 * for one more, so a read that got fewer got them all.
 */
#define STORE_GC_SEATS_MAX 16
int store__gc_game_by_id(store *s, int64_t id, store_game *out);
int store__gc_game_by_room(store *s, const char *network, const char *room, store_game *out);
int store__gc_seats(store *s, int64_t game, store_seat *seats, int max, int *n);
void store__gc_put_game(store *s, const store_game *g);
void store__gc_put_seats(store *s, int64_t game, const store_seat *seats, int n);
void store__gc_drop(store *s, int64_t id);
void store__gc_drop_room(store *s, const char *network, const char *room);
void store__gc_flush(store *s);
void store__gc_txn_end(store *s);
void store__gc_free(store *s);

#endif /* PZ_STORE_INT_H */
