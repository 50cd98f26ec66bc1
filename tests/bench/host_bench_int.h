/*
 * host_bench_int.h — what host_bench.c (the timing) and host_bench_db.c
 * (databases and the bench adapter) share. Internal to porrazo-bench.
 */
#ifndef PZ_HOST_BENCH_INT_H
#define PZ_HOST_BENCH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host.h"
#include "outq.h"
#include "store.h"

#define HB_NETWORK "bench"
#define HB_T0 INT64_C(1800000000) /* the virtual clock's start (2027-01-15) */
#define HB_REMINDER_SECS 600      /* the bot's default */
#define HB_MAX_GAMES 1000000      /* host_config.max_games: never the limit */
#define HB_PATH_MAX 1024
#define HB_LINE_MAX 1280 /* "PRIVMSG " + target + " :" + text + CRLF */
#define HB_DRAIN_TURNS_MAX 1000000L

/* Monotonic time in nanoseconds. */
int64_t hb_now_ns(void);
/* Whether snprintf's result len fitted in cap bytes. */
bool hb_fmt_ok(int len, size_t cap);

/* ---- The bench adapter ---------------------------------------------------- */

/* One network's queue and the two ends of a socketpair (both non-blocking). */
typedef struct hb_adapter {
    outq *q;
    int wfd, rfd;
    int64_t t_last_write; /* hb_now_ns() after the last write() */
    const char *watch;    /* a target whose last write time is noted, or NULL */
    int64_t t_watch;
    long sent; /* lines written */
} hb_adapter;

/* Makes the socketpair and the queue of network over st, whose lines h
   renders when they are taken (as the bot's adapters do). 0 or -1 (said). */
int hb_adapter_init(hb_adapter *a, store *st, const char *network, host *h);
void hb_adapter_fini(hb_adapter *a);
/*
 * One turn in the real adapters' order: outq_load, every message taken
 * and written as one line, outq_sent each, one outq_flush_done. Returns
 * outq_load's result (1: more rows wait in the store, 0), or < 0.
 */
int hb_adapter_turn(hb_adapter *a);
/* Turns until the store has nothing more and the queue is empty. 0 or -1. */
int hb_adapter_drain(hb_adapter *a);
/* Reads and discards what waits at the socket's other end. */
void hb_sock_discard(hb_adapter *a);

/* ---- Games and databases -------------------------------------------------- */

typedef struct hb_names {
    char room[STORE_ID_MAX];
    char a[STORE_ID_MAX], b[STORE_ID_MAX];           /* player ids */
    char nick_a[STORE_ID_MAX], nick_b[STORE_ID_MAX]; /* display names */
} hb_names;

/* The names of bench game k: room "#g<k>", players "p<k>a" and "p<k>b"
   (their nicks), their ids with id_prefix before ("" or "n:" as on IRC). */
void hb_names_of(long k, const char *id_prefix, hb_names *n);
/* A display name from a player id: what follows "n:" or "a:", if any. */
const char *hb_nick_of_id(const char *id);
/* One line to the host at time now. 0, or -1 (said on stderr). */
int hb_say(host *h, const char *network, const char *room, const char *sender, const char *nick,
           const char *text, int64_t now);
/* "!new 2" by n->a then "!join" by n->b in n->room: the cards are dealt. */
int hb_make_game(host *h, const char *network, const hb_names *n, int64_t now);
/* A host as the bot's defaults (reminders at 600 s), max_games high. */
/* A host over st whose adapter queue (host_config.outq_of) is *queue, read
   at each call: the bench adapter's, as in the bot (NULL until it exists). */
host *hb_open_host(store *st, outq **queue);
/* store_open, or NULL (said on stderr). */
store *hb_open_store(const char *path);
/* Removes path and its -wal and -shm files. */
void hb_remove_db(const char *path);
/*
 * Builds games 1..count into a new file at path (through path.tmp, renamed
 * once complete), player ids with id_prefix (see hb_names_of), the last
 * game named by last when not NULL, at the
 * virtual time HB_T0 (or the real time with real_time), every message sent
 * through a bench adapter. Prints "# build ..." with how long it took.
 * 0 or -1.
 */
int hb_build_db(const char *path, const char *network, long count, const char *id_prefix,
                const hb_names *last, bool real_time);
/*
 * Whether path holds a usable built database: PRAGMA user_version ==
 * STORE_SCHEMA_VERSION, `games` active games, an empty outbox on network,
 * and an active game in room (when not NULL). Says why not on stdout.
 */
bool hb_cached_ok(const char *path, const char *network, long games, const char *room);
/* Copies the file src to dst (removing dst's -wal and -shm). 0 or -1. */
int hb_copy_db(const char *src, const char *dst);

#endif /* PZ_HOST_BENCH_INT_H */
