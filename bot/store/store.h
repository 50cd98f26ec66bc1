/*
 * store.h — the bot's persistence in one SQLite file: games, seats, the
 * action log, the outbox of messages not yet sent, statistics, and small
 * key/value state for the adapters.
 *
 * Every accepted action is committed together with the messages it
 * produces (store_begin ... store_commit), so after a crash at any instant
 * no accepted move and no announcement is lost: unsent messages are still
 * in the outbox. The schema is versioned (PRAGMA user_version) with
 * migrations; a database from a newer bot, a corrupted or truncated file,
 * or a file that is not ours is refused at open with a clear message, and
 * nothing in it is changed. Not here: what games mean (the host's job).
 */
#ifndef PZ_STORE_H
#define PZ_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg_kind.h"

#define STORE_SCHEMA_VERSION 8
#define STORE_ID_MAX 128  /* network, room, player ids, nicks: bytes incl. NUL */
#define STORE_WHY_MAX 256 /* a message buffer of this size holds any error */

typedef struct store store;

/* Errors: 0 or a negative code from one table; store_errmsg() says more
   (SQLite's own words) about the last one. */
#define STORE_ERRNO_MAP(XX)                                                                        \
    XX(ERROR, -1, "the database failed (I/O, a full disk, a lock)")                                \
    XX(CORRUPT, -2, "the file is damaged or not a porrazo database")                               \
    XX(VERSION, -3, "the database was written by a newer porrazo-bot")                             \
    XX(NOT_FOUND, -4, "no such row")                                                               \
    XX(CONFLICT, -5, "a conflict (e.g. a second active game in one room)")                         \
    XX(TOO_BIG, -6, "a value longer than its buffer")                                              \
    XX(BUSY, -7, "another process holds the database's lock: try again later")                     \
    XX(FULL, -8, "the disk (or the configured size cap) is full")                                  \
    XX(LOCKED, -9, "another porrazo-bot already runs on this database")

typedef enum store_err {
    STORE_OK = 0,
#define STORE_ERR_ENUM_(name, val, msg) STORE_##name = (val),
    STORE_ERRNO_MAP(STORE_ERR_ENUM_)
#undef STORE_ERR_ENUM_
} store_err;

/* A human message for err ("ok" for 0, "unknown error" otherwise). Never NULL. */
const char *store_strerror(int err);

/* True for the errors that pass by themselves (busy, full, I/O): the
   operation may be tried again later with nothing lost. */
bool store_err_transient(int err);

/*
 * Opens (creating if absent) the database at path, checks it (integrity,
 * application id, schema version), applies migrations, and sets WAL mode,
 * foreign keys and a busy timeout. Returns 0 and *out, or a store_err with
 * a message in why that names the file and what to do. A refused file is
 * left byte-for-byte as it was. An existing file (and its -wal and -shm)
 * that its group or others may read is made 0600, as new files are, or
 * refused with the chmod to run when that fails (store_set_alert tells).
 */
int store_open(store **out, const char *path, char *why, size_t why_len);
void store_close(store *s);

/*
 * Makes this process the only bot on the file: an exclusive lock (flock)
 * held on the database until store_close, so a second bot started on the
 * same file is refused at start (STORE_LOCKED, why names the file).
 * Readers (--export, sqlite3) are not affected. 0 or a store_err.
 */
int store_lock_instance(store *s, char *why, size_t why_len);

/*
 * Caps the file at max_bytes (0: no cap) through PRAGMA max_page_count:
 * past it every write fails as on a full disk (STORE_FULL). For operators
 * who bound the database, and for tests of a full disk. 0 or a store_err.
 */
int store_set_max_bytes(store *s, int64_t max_bytes);

/* The busy timeout in ms (default STORE_BUSY_MS_DEFAULT, short: the loop
   must never block long on another process's lock). */
#define STORE_BUSY_MS_DEFAULT 100
void store_set_busy_ms(store *s, int ms);

/*
 * The pages of the file kept in memory: SQLite's page cache of cache_kib
 * KiB (the process's own memory, used as pages are read) and a memory map
 * of the file's first mmap_mib MiB (0: none; pages are then read with
 * pread). store_open sets the defaults; porrazo-bot's database_cache_kib
 * and database_mmap_mib keys change them (porrazo.conf(5)). 0 or a
 * store_err (a size out of its range, SQLite refusing).
 */
/*
 * The page size of a new file. A game's row (its packed state, settings,
 * timers: ~500 bytes) fits one 1 KiB page with another, and what a command
 * touches at 100,000 games is a few leaves no recent command read: a
 * smaller page is fewer bytes to search and, for a move, to copy into the
 * cache and write to the -wal (tests/bench/README.md, "Fourth pass").
 */
#define STORE_PAGE_BYTES 1024
#define STORE_PAGE_BYTES_TEXT "1024"
#define STORE_CACHE_KIB_DEFAULT 2000 /* SQLite's own default */
#define STORE_CACHE_KIB_MIN 64
#define STORE_CACHE_KIB_MAX 4194304 /* 4 GiB */
#define STORE_MMAP_MIB_DEFAULT 1024
#define STORE_MMAP_MIB_MAX 2047 /* Debian's SQLITE_MAX_MMAP_SIZE is just under 2 GiB */
int store_set_cache(store *s, int cache_kib, int mmap_mib);

/* The page cache's counters since store_open (sqlite3_db_status). */
typedef struct store_cache_stat {
    int64_t hits;       /* pages found in the cache */
    int64_t misses;     /* pages read from the file or the -wal */
    int64_t used_bytes; /* what the cache holds now */
} store_cache_stat;
void store_cache_stats(store *s, store_cache_stat *out);

/*
 * The games kept in memory (store_gcache.c): a game's row and seats as
 * last read, so a command in a room whose game nothing changed since reads
 * no page of the file, up to mib MiB (0: none; the default
 * STORE_GAME_CACHE_MIB_DEFAULT; ~1.5 KiB a game with its restored state,
 * so the default holds ~170,000 games; memory is used only for games
 * read). A write of this connection drops the game it writes; another
 * connection's commit (PRAGMA data_version) empties the cache, seen at the
 * next transaction's first read, or by a read outside one within
 * STORE_GAME_CACHE_FRESH_MS. Changing the size empties it. 0 or a
 * store_err (out of range, out of memory).
 */
#define STORE_GAME_CACHE_FRESH_MS 1
#define STORE_GAME_CACHE_MIB_DEFAULT 256
#define STORE_GAME_CACHE_MIB_MAX 65536
int store_set_game_cache(store *s, int mib);

/*
 * What the caller made of game id's state (the host: the restored game),
 * kept beside its cached row: store_game_memo gives it back while the row
 * kept holds exactly state (NULL else); store_game_memo_set gives memo to
 * the store when it does (true: the store frees it with free_fn when the
 * row goes, which may be at the next read of a game; false: the caller
 * keeps it). bytes is counted against the cache's size.
 */
void *store_game_memo(store *s, int64_t id, const char *state);
bool store_game_memo_set(store *s, int64_t id, const char *state, void *memo,
                         void (*free_fn)(void *), size_t bytes);

/* The game cache's counters since it was turned on. */
typedef struct store_game_cache_stat {
    int64_t hits, misses; /* reads of a game or its seats answered or not */
    int64_t games, bytes; /* held now */
    int64_t max_bytes;    /* the bound */
} store_game_cache_stat;
void store_game_cache_stats(store *s, store_game_cache_stat *out);

/*
 * Where the store tells the operator of trouble with its files that it
 * handled by itself: fn(arg, serious, msg), msg one line that says what
 * was done and what to do, naming files, never their contents:
 *   - at open, a database file (or its -wal/-shm) that others could read
 *     was made 0600 (a warning, told when fn is set: store_open has no log);
 *   - while running, checked before each write transaction (a stat() of
 *     the -wal and -shm, SQLITE_FCNTL_HAS_MOVED of the file): the -wal or
 *     -shm deleted or replaced (a cleaner, a careless rm), after which the
 *     store has already copied what the old -wal held into the database
 *     and started a fresh -wal, so nothing is lost; or the database file
 *     itself deleted or moved, which it cannot mend (both serious).
 * Each event is told once. NULL fn: nothing is told.
 */
typedef void (*store_alert_fn)(void *arg, bool serious, const char *msg);
void store_set_alert(store *s, store_alert_fn fn, void *arg);

/*
 * Checks the files now as before a write, and saves a lost -wal at once
 * (for a caller told that the database's folder changed: an idle bot has
 * no write to check before). Nothing inside a transaction or while a
 * statement is under way; the next write checks again.
 */
void store_check_files(store *s);

/* The last error message of s (never NULL). */
const char *store_errmsg(const store *s);

/* A transaction: every write between begin and commit lands together or
   not at all. Nested begins are refused. */
int store_begin(store *s);
int store_commit(store *s);
void store_rollback(store *s);
/* A transaction for marks that only cause a resend if undone (messages
   sent): its commit survives a crash of the process but not always a power
   cut (synchronous = NORMAL), which saves an fsync. End it as any other. */
int store_begin_relaxed(store *s);
/* A read-only transaction (a deferred BEGIN: it takes no write lock, so it
   works while another process writes): one consistent view of the file.
   End it with store_rollback. */
int store_begin_read(store *s);
/* Whether a transaction of store_begin* is open. */
bool store_in_txn(const store *s);

/* ---- Games ------------------------------------------------------------ */

typedef enum store_status {
    STORE_LOBBY, /* players are joining */
    STORE_PLAYING,
    STORE_PAUSED,
    STORE_FINISHED, /* a side won */
    STORE_STOPPED   /* abandoned */
} store_status;

typedef struct store_game {
    int64_t id;
    char network[STORE_ID_MAX];
    char room[STORE_ID_MAX];
    store_status status;
    char creator[STORE_ID_MAX]; /* player id of the creator */
    char settings[1024];        /* the host's lobby settings, JSON text */
    uint64_t seed;
    char *state;     /* pz_pack() (or older pz_save()) document, malloc'd; NULL in a lobby */
    int64_t created; /* unix seconds */
    int64_t updated;
    int64_t turn_since; /* when the current turn began */
    int64_t reminded;   /* when the last reminder went out, 0 none */
    int winner;         /* winning side, -1 */
    int64_t next_due;   /* when the clock next has work for it; INT64_MAX none */
} store_game;

/* Frees g->state (and sets it NULL); the struct itself is the caller's. */
void store_game_fini(store_game *g);

/* Inserts a new game and sets g->id. STORE_CONFLICT if the room already
   has a game in lobby, playing or paused. */
int store_game_insert(store *s, store_game *g);
/* Writes every field of g (by g->id). */
int store_game_update(store *s, const store_game *g);
/* The active (lobby/playing/paused) game of a room; STORE_NOT_FOUND. */
int store_game_active(store *s, const char *network, const char *room, store_game *out);
/* A game by id; STORE_NOT_FOUND. */
int store_game_get(store *s, int64_t id, store_game *out);
/* Calls fn for every active game, oldest first; stops if fn returns non-0
   and returns that value. */
int store_game_each_active(store *s, int (*fn)(void *arg, store_game *g), void *arg);
/* Calls fn(arg, id, network, room) for every active game, by room,
   from the index of the rooms alone (the games' rows, their states, are
   not read: at 100,000 games ~2 MB read, not ~230 MB). As
   store_game_each_active: all read before the first call, fn may use s,
   a non-0 return of fn stops the walk and is returned. */
int store_room_each_active(store *s,
                           int (*fn)(void *arg, int64_t id, const char *network, const char *room),
                           void *arg);
/* How many games are active (lobby, playing, paused), into *n. */
int store_game_count_active(store *s, int *n);

/* ---- Fair deals (FAIRNESS.md) ------------------------------------------ */

#define STORE_SALT_HEX 32   /* a game's salt: 16 bytes as lowercase hex digits */
#define STORE_DIGEST_HEX 64 /* a hand's commitment: SHA-256 as lowercase hex digits */

/* Starts the fair-deal record of game as its first hand is dealt: its salt
   (STORE_SALT_HEX lowercase hex digits) and whether its seeds stay secret
   until it ends; what an earlier start of the same lobby left (a start
   that failed: nothing of it was shown) is dropped. 0 or a store_err. */
int store_fair_start(store *s, int64_t game, const char *salt, bool sealed);
/* game's salt and sealed flag; STORE_NOT_FOUND for a game from before fair
   deals (its seed is the only one and nothing is sealed). */
int store_fair_get(store *s, int64_t game, char salt[STORE_SALT_HEX + 1], bool *sealed);
/* Records seed as the seed of game's hand (1-based) and digest as its
   commitment (STORE_DIGEST_HEX lowercase hex digits). 0; STORE_CONFLICT
   when the hand has a seed already, or when game is sealed and seed was
   dealt in a sealed game of this file before (the caller draws another);
   else a store_err. Nothing is written on error. */
int store_hand_add(store *s, int64_t game, int hand, uint64_t seed, const char *digest);
/* Calls fn(arg, hand, seed, digest) for each recorded hand of game in order
   (none for a game without them); digest is "" for a hand sealed before
   commitments were kept. The hands are read before the first call. Stops
   at fn's first non-0 return and returns it; else 0 or a store_err. */
int store_hand_each(store *s, int64_t game,
                    int (*fn)(void *arg, int hand, uint64_t seed, const char *digest), void *arg);

/* ---- The clock's index ----------------------------------------------- */

/* A game the clock must look at. */
typedef struct store_due {
    int64_t id;
    char network[STORE_ID_MAX];
    char room[STORE_ID_MAX];
    int64_t due;
} store_due;

/* The earliest next_due of any game into *at (INT64_MAX when none): one
   indexed lookup. */
int store_game_next_due(store *s, int64_t *at);
/* Up to max games whose next_due <= now, earliest first, into out; *n how
   many. Reads no state. */
int store_game_due(store *s, int64_t now, store_due *out, int max, int *n);

/* The fields the clock reads, without the state document. */
typedef struct store_clock_row {
    int64_t id;
    store_status status;
    char settings[1024];
    int64_t turn_since, reminded, next_due;
} store_clock_row;
/* Calls fn for every active game's clock fields (a rebuild of next_due
   after the clock's configuration changed). Rows are read in batches, so
   fn may write through store_game_set_due. Stops at fn's non-0. */
int store_game_each_clock(store *s, int (*fn)(void *arg, const store_clock_row *r), void *arg);
/* Sets one game's next_due (INT64_MAX: none). */
int store_game_set_due(store *s, int64_t id, int64_t due);
/* Active games of network updated at or after since, most recent first,
   at most max: the tables that were live before a restart. */
int store_game_recent(store *s, int64_t since, int max, store_due *out, int *n);

/* ---- Seats ------------------------------------------------------------ */

typedef struct store_seat {
    int seat;                  /* 0..7; in a lobby the join order */
    char player[STORE_ID_MAX]; /* stable id: account or nick, per network */
    char nick[STORE_ID_MAX];   /* display name */
} store_seat;

/* Replaces all seats of a game. */
int store_seats_set(store *s, int64_t game, const store_seat *seats, int n);
/* Reads up to max seats ordered by seat; *n how many. */
int store_seats_get(store *s, int64_t game, store_seat *seats, int max, int *n);
/* Calls fn for every active game in which player (on network) sits. */
int store_games_of_player(store *s, const char *network, const char *player,
                          int (*fn)(void *arg, int64_t game, const char *room), void *arg);

/* ---- The action log --------------------------------------------------- */

/* Appends action number seq (0-based) of a game: REPLAY.md's JSON. */
int store_action_append(store *s, int64_t game, int seq, const char *json, int64_t at);
/* How many actions the game has. */
int store_action_count(store *s, int64_t game, int *n);
/* Calls fn for each action in order. */
int store_action_each(store *s, int64_t game, int (*fn)(void *arg, int seq, const char *json),
                      void *arg);

/* ---- The outbox ------------------------------------------------------- */

/* The kinds of message (msg_kind.h, shared with outq.h and the adapters),
   under the store's names. */
typedef msg_kind store_msg_kind;
#define STORE_MSG_ROOM MSG_ROOM       /* to a channel/room */
#define STORE_MSG_PRIVATE MSG_PRIVATE /* to one player privately */

typedef struct store_msg {
    int64_t id; /* increasing: the send order */
    char network[STORE_ID_MAX];
    char target[STORE_ID_MAX]; /* room, or player id */
    store_msg_kind kind;
    int priority; /* higher goes first within a network (hands: 1) */
    char text[1024];
    char txn[40]; /* a transaction id unique to this message */
    int64_t created;
} store_msg;

/* Queues a message; txn is derived from the new id. Sets *id if not NULL. */
int store_outbox_add(store *s, const char *network, const char *target, store_msg_kind kind,
                     int priority, const char *text, int64_t created, int64_t *id);
/* Up to max unsent messages of a network, highest priority first, then
   oldest; *n how many. */
int store_outbox_peek(store *s, const char *network, store_msg *out, int max, int *n);
/* Marks a message sent (deletes it). */
int store_outbox_done(store *s, int64_t id);
/*
 * A number that changes whenever this process adds a message to the
 * outbox or marks one sent (an add rolled back changes it too). An adapter
 * that read the outbox at this version has nothing new to read: it saves a
 * query on every turn of the loop. One bot process owns the database.
 */
uint64_t store_outbox_version(const store *s);
/* Unsent messages of a network. */
int store_outbox_count(store *s, const char *network, int *n);
/*
 * Up to max unsent messages of network with an id above after, in id
 * order, into out; *n how many. An adapter that keeps the outbox in memory
 * reads only what was added since its last read (one indexed range).
 */
int store_outbox_since(store *s, const char *network, int64_t after, store_msg *out, int max,
                       int *n);
/* The largest unsent message id of network into *id (0: none). */
int store_outbox_last_id(store *s, const char *network, int64_t *id);
/* Marks ids[0..n) sent in one transaction (or one savepoint inside an open
   one); ids already gone are skipped. 0 or a store_err, nothing changed. */
int store_outbox_done_many(store *s, const int64_t *ids, int n);
/* Unsent messages of network to target, counting at most cap, into *n. */
int store_outbox_target_count(store *s, const char *network, const char *target, int cap, int *n);
/* Deletes every unsent message of network to target; *n how many. */
int store_outbox_purge(store *s, const char *network, const char *target, int *n);

/* ---- Statistics ------------------------------------------------------- */

typedef struct store_stats {
    char player[STORE_ID_MAX];
    char nick[STORE_ID_MAX];
    int games, wins, points, porrazos, limpias, san_benitos;
    int robot_games; /* games with a computer player at the table */
    int hints;       /* hints asked for (the hint verb) */
} store_stats;

/*
 * What counts: finished games only. A game under way keeps its counters
 * in its own tally (store_stats_tally); store_stats_finish adds the tally
 * to the players' statistics when the game is won; a stopped (or deleted)
 * game's tally is dropped and never counts. The reads below see finished
 * games only, and top lists nobody without one.
 */
/* Adds delta's counters to the player's row for (network, room), creating it. */
int store_stats_add(store *s, const char *network, const char *room, const store_stats *delta);
/* Adds delta's counters to delta->player's tally in game (not yet counted). */
int store_stats_tally(store *s, int64_t game, const store_stats *delta);
/* Game is finished: its tally is added to (network, room) and forgotten. */
int store_stats_finish(store *s, int64_t game, const char *network, const char *room);
/* A player's totals in one room, or over every room of the network when
   room is NULL; zeros (and 0 returned) when never played. */
int store_stats_get(store *s, const char *network, const char *room, const char *player,
                    store_stats *out);
/* Whose rows store_stats_top lists. */
typedef enum store_who {
    STORE_PEOPLE, /* people only */
    STORE_ROBOTS, /* computer players only (player ids "bot:...") */
    STORE_EVERYONE
} store_who;
/* The best players by wins, then points: up to max rows; room NULL = all. */
int store_stats_top(store *s, const char *network, const char *room, store_who who,
                    store_stats *out, int max, int *n);

/* ---- Adapter state ---------------------------------------------------- */

/* Small named values per scope (e.g. "matrix:main" / "since"). */
int store_kv_set(store *s, const char *scope, const char *key, const char *value);
/* Forgets key in scope (nothing to do when unset). */
int store_kv_del(store *s, const char *scope, const char *key);
/* STORE_NOT_FOUND when unset; STORE_TOO_BIG when cap is too small. */
int store_kv_get(store *s, const char *scope, const char *key, char *value, size_t cap);
/*
 * Calls fn(arg, key, value) for each key of scope, in key order (a
 * start-up load of a few values, e.g. the rooms' own settings). The
 * strings are valid during the call only; fn must not use the store (the
 * read is open). A non-zero return of fn stops the walk and is returned.
 * 0, fn's value, or a store_err.
 */
int store_kv_each(store *s, const char *scope,
                  int (*fn)(void *arg, const char *key, const char *value), void *arg);

/* ---- Lines already handled ------------------------------------------- */

/*
 * Records that the line with this id (unique per network, e.g. a Matrix
 * event id) was handled at time at. Sets *fresh to true when it was not
 * recorded before, false when it was (nothing changes then). Inside a
 * transaction, the record commits or rolls back with the line's effects.
 */
int store_seen_add(store *s, const char *network, const char *id, int64_t at, bool *fresh);
/* Whether the id was recorded for network (*seen). */
int store_seen_has(store *s, const char *network, const char *id, bool *seen);
/* Forgets ids recorded before time before; *n how many (may be NULL). */
int store_seen_prune(store *s, int64_t before, int *n);

/* ---- Reading only (the web pages) ------------------------------------- */

/*
 * Opens the database at path for reading only, on a connection of the
 * caller's thread: read-only, query_only, no migration (a file of another
 * schema version is refused: STORE_VERSION). The game, seat, action, kv and
 * statistics reads above work on it; every write fails. 0 or a store_err
 * with a message in why.
 */
int store_open_ro(store **out, const char *path, char *why, size_t why_len);

/* A game in a list: no settings, no state. seat: the player's seat when
   listed for a player, else -1. */
typedef struct store_game_brief {
    int64_t id, created, updated;
    store_status status;
    int winner, seat;
} store_game_brief;
/* Calls fn for up to max games of (network, room) past their lobby, newest
   first; only those where player sits when player is not NULL. Stops at
   fn's non-0 and returns it. fn must not use the store. */
int store_ro_games(store *s, const char *network, const char *room, const char *player, int max,
                   int (*fn)(void *arg, const store_game_brief *g), void *arg);

#endif /* PZ_STORE_H */
