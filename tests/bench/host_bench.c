/*
 * host_bench.c — `porrazo-bench --host`: the game host measured the way a
 * chat network uses it, with 1 to 100,000 games in progress in its SQLite
 * file.
 *
 * Every game is made through the host's own entry point (host_handle:
 * "!new 2" in room "#g<K>" of network "bench" by player "p<K>a", "!join" by
 * "p<K>b"), so the database is exactly what the bot would have written. A
 * built database is cached (DIR/host-<N>.db, rebuilt when its PRAGMA
 * user_version is not STORE_SCHEMA_VERSION, its pages not STORE_PAGE_BYTES,
 * its games' states not packed, or it does not hold N active games and an
 * empty outbox) and each measurement runs on a copy of it.
 *
 * One sample is one command answered through the host to a socket, as an
 * unpaced adapter would: host_handle, then outq_load, every message taken
 * with outq_take and written as one line "PRIVMSG target :text\r\n" to one
 * end of a socketpair(AF_UNIX, SOCK_STREAM), outq_sent, then one
 * outq_flush_done. Its time runs from before host_handle to after the last
 * write() returned; the other end is read and discarded by the same thread
 * after that (inside the window only when the socket is full). Commands
 * alternate: "!turn" in a random room, then privately "hand #g<K>" or the
 * player to act's legal move ("!play 7H", "!tendido now", "!arrange best":
 * the engine's default action for that seat, read from the store just
 * before, as after an opponent's move). A game that ends is made again,
 * untimed. The host's clock is virtual (HB_T0 onwards, reminders on at
 * 600 s as the bot's default), so no reminder falls due while measuring.
 *
 * Per size it prints one line each:
 *   host games=N median_us= p99_us= cpu_us= rss_kib= ...
 *   clock games=N next_tick_us= calls=
 *   restart games=N ready_ms= drained_ms= ...
 * and lines starting with '#' for everything else (builds, the legend).
 * Each size is built, measured and restarted in processes of its own, so
 * one size's memory never shows in another's rss_kib.
 *
 * `--make-db FILE --games N [--id-prefix P] [--room ROOM --players ID1,ID2]`
 * only builds a database (for tests/bench/peers/run.sh): N games, player
 * ids with P before ("n:" as the IRC adapter makes them), the last game in
 * ROOM between the two player ids, at the real time, the outbox sent.
 *
 * It is a measurement, not a test: it exits 0 whatever the figures, and 1
 * only when the host or the store failed. Building, caching and the bench
 * adapter are in host_bench_db.c; here, what is timed and how it is shown.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host_bench.h"
#include "host_bench_int.h"
#include "porrazo.h"

#ifndef PZ_BENCH_DB_DIR
#define PZ_BENCH_DB_DIR "bench-db"
#endif

#define HB_GAMES_MAX 1000000L /* largest size accepted */
#define HB_SAMPLES_MAX 1000000L
#define HB_SIZES_MAX 16
#define HB_WARMUP_DEFAULT 20000L        /* untimed commands before the samples */
#define HB_SLOW_US 50000.0              /* a sample slower than this is printed */
#define HB_CLOCK_BUDGET_NS 3000000000LL /* host_next_tick timed for at most 3 s */

enum { KIND_TURN, KIND_HAND, KIND_PLAY, KINDS };

typedef struct hb_opts {
    long sizes[HB_SIZES_MAX];
    int nsizes;
    long samples;
    long warmup;              /* untimed commands before the samples */
    long cache_kib, mmap_mib; /* store_set_cache's, in the measured processes */
    long game_cache_mib;      /* store_set_game_cache's */
    uint64_t seed;
    bool restart;
    char db_dir[HB_PATH_MAX];
    /* --make-db */
    const char *make_db;
    long games;
    const char *network;
    const char *room;
    const char *id_prefix;
    char players[2][STORE_ID_MAX];
} hb_opts;

/* Xorshift64: which room, cheap and good enough. */
static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* The process's CPU time (user + system, getrusage RUSAGE_SELF) in ns. */
static int64_t cpu_ns(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
           ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

/* A VmRSS-like field of /proc/self/status in KiB, or -1. */
static long proc_status_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t len = strlen(field);
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, field, len) == 0 && line[len] == ':') {
            char *end = NULL;
            v = strtol(line + len + 1, &end, 10);
            break;
        }
    fclose(f);
    return v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v and returns its median (0 when n is 0). */
static double median_of(double *v, long n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The nearest-rank percentile p (0..100) of v, sorted (0 when empty). */
static double percentile(const double *v, long n, double p)
{
    if (n <= 0)
        return 0;
    long k = (long)((p / 100.0) * (double)n + 0.999999);
    if (k < 1)
        k = 1;
    return v[(k > n ? n : k) - 1];
}

/* ---- One command ---------------------------------------------------------- */

typedef struct hb_cmd {
    int kind;
    char room[STORE_ID_MAX]; /* "" for a private line */
    char sender[STORE_ID_MAX], nick[STORE_ID_MAX];
    char text[STORE_ID_MAX + 32];
} hb_cmd;

/*
 * The command of the player to act in game k: the engine's default action
 * as a player would type it. False when the game is not being played or
 * nobody is to act (the caller then asks "!turn").
 */
static bool play_cmd(store *st, long k, hb_cmd *c)
{
    hb_names n;
    hb_names_of(k, "", &n);
    store_game g = {0};
    pz_game *pg = NULL;
    pz_action act;
    store_seat seats[PZ_MAX_PLAYERS];
    int nseats = 0, seat = -1;
    bool ok = store_game_active(st, HB_NETWORK, n.room, &g) == 0 && g.status == STORE_PLAYING &&
              g.state != NULL && pz_restore(&pg, g.state, strlen(g.state), NULL, 0) == 0 &&
              (seat = pz_get_turn(pg)) >= 0 && pz_default_action(pg, seat, &act) == 0 &&
              store_seats_get(st, g.id, seats, PZ_MAX_PLAYERS, &nseats) == 0;
    int len = -1;
    if (ok && act.kind == PZ_ACT_PLAY) {
        char card[3];
        pz_card_format(act.card, card);
        len = snprintf(c->text, sizeof c->text, "!play %s%s", card,
                       act.mode == PZ_MODE_CAPTURE ? " capture"
                       : act.mode == PZ_MODE_PLACE ? " place"
                                                   : "");
    } else if (ok && act.kind == PZ_ACT_TENDIDO) {
        len = snprintf(c->text, sizeof c->text, "!tendido %s", act.now ? "now" : "later");
    } else if (ok && act.kind == PZ_ACT_ARRANGE) {
        len = snprintf(c->text, sizeof c->text, "!arrange best");
    }
    ok = ok && hb_fmt_ok(len, sizeof c->text);
    int i = 0;
    while (ok && i < nseats && seats[i].seat != seat)
        i++;
    ok = ok && i < nseats;
    if (ok) {
        c->kind = KIND_PLAY;
        snprintf(c->room, sizeof c->room, "%s", n.room);
        snprintf(c->sender, sizeof c->sender, "%s", seats[i].player);
        snprintf(c->nick, sizeof c->nick, "%s", seats[i].nick);
    }
    pz_free(pg);
    store_game_fini(&g);
    return ok;
}

/* Sample i's command in game k: "!turn", then "hand #gK" or a move. */
static void choose_cmd(store *st, long i, long k, hb_cmd *c)
{
    hb_names n;
    hb_names_of(k, "", &n);
    memset(c, 0, sizeof *c);
    if (i % 4 == 3 && play_cmd(st, k, c))
        return;
    snprintf(c->sender, sizeof c->sender, "%s", n.a);
    snprintf(c->nick, sizeof c->nick, "%s", n.nick_a);
    if (i % 4 == 1) {
        c->kind = KIND_HAND;
        if (!hb_fmt_ok(snprintf(c->text, sizeof c->text, "hand %s", n.room), sizeof c->text))
            c->text[0] = '\0'; /* never: room names are short */
    } else {
        c->kind = KIND_TURN;
        snprintf(c->room, sizeof c->room, "%s", n.room);
        snprintf(c->text, sizeof c->text, "!turn");
    }
}

/* A game that ended in a play sample is opened again (untimed); counted
   in *ended. */
static int keep_game(host *h, store *st, hb_adapter *a, long k, int64_t now, long *ended)
{
    hb_names n;
    hb_names_of(k, "", &n);
    store_game g = {0};
    int err = store_game_active(st, HB_NETWORK, n.room, &g);
    store_game_fini(&g);
    if (err == 0)
        return 0;
    if (err != STORE_NOT_FOUND || hb_make_game(h, HB_NETWORK, &n, now) != 0)
        return -1;
    (*ended)++;
    return hb_adapter_drain(a);
}

/* ---- Measuring one size --------------------------------------------------- */

typedef struct hb_samples {
    double *all, *kind[KINDS], *flush, *clock;
    long n, nkind[KINDS], nclock, failed, ended;
    int64_t cpu_total;
    int64_t hits[KINDS], misses[KINDS]; /* page cache counters, per kind */
} hb_samples;

static int samples_alloc(hb_samples *s, long n)
{
    memset(s, 0, sizeof *s);
    s->all = calloc((size_t)n, sizeof(double));
    s->flush = calloc((size_t)n, sizeof(double));
    s->clock = calloc((size_t)n, sizeof(double));
    bool ok = s->all != NULL && s->flush != NULL && s->clock != NULL;
    for (int k = 0; k < KINDS; k++)
        ok = ok && (s->kind[k] = calloc((size_t)n, sizeof(double))) != NULL;
    return ok ? 0 : -1;
}

static void samples_free(hb_samples *s)
{
    free(s->all);
    free(s->flush);
    free(s->clock);
    for (int k = 0; k < KINDS; k++)
        free(s->kind[k]);
}

/* The mean of counts per command of kind k (-1: of every kind); 0 when
   there were none. */
static double per_cmd(const int64_t *counts, const long *n, int k)
{
    int64_t sum = 0;
    long cmds = 0;
    for (int i = 0; i < KINDS; i++)
        if (k < 0 || i == k) {
            sum += counts[i];
            cmds += n[i];
        }
    return cmds > 0 ? (double)sum / (double)cmds : 0;
}

/* One timed command; its time and CPU go into s. 0 or -1. */
static int sample_one(host *h, hb_adapter *a, const hb_cmd *c, int64_t now, hb_samples *s)
{
    host_msg m = {.network = HB_NETWORK,
                  .room = c->room[0] != '\0' ? c->room : NULL,
                  .sender = c->sender,
                  .nick = c->nick,
                  .text = c->text,
                  .len = strlen(c->text)};
    a->t_last_write = 0;
    int64_t cpu0 = cpu_ns(), t0 = hb_now_ns();
    int rc = host_handle(h, &m, now);
    int64_t t_handled = hb_now_ns();
    int turn = rc == 0 ? hb_adapter_turn(a) : -1;
    int64_t t_flushed = hb_now_ns(), cpu1 = cpu_ns();
    if (rc != 0 || turn < 0) {
        fprintf(stderr, "porrazo-bench: %s: %s\n", c->text,
                rc != 0 ? host_errmsg(h) : "the adapter failed");
        s->failed++;
        return -1;
    }
    int64_t t_end = a->t_last_write != 0 ? a->t_last_write : t_handled;
    double us = (double)(t_end - t0) / 1e3;
    s->all[s->n] = us;
    s->flush[s->n] = (double)(t_flushed - t_end) / 1e3;
    s->kind[c->kind][s->nkind[c->kind]++] = us;
    s->n++;
    s->cpu_total += cpu1 - cpu0;
    if (us > HB_SLOW_US) /* outliers are shown, not hidden in the p99 */
        printf("# slow sample: %s%s%s by %s took %.1f ms (host_handle %.1f ms)\n", c->text,
               c->room[0] != '\0' ? " in " : " privately", c->room, c->sender, us / 1e3,
               (double)(t_handled - t0) / 1e6);
    hb_sock_discard(a);
    return turn == 1 ? hb_adapter_drain(a) : 0; /* a backlog beyond LOAD_MAX: never here */
}

/* hb_open_store with the page cache and map of --cache-kib, --mmap-mib. */
static store *open_sized(const hb_opts *o, const char *path)
{
    store *st = hb_open_store(path);
    if (st != NULL && (store_set_cache(st, (int)o->cache_kib, (int)o->mmap_mib) != 0 ||
                       store_set_game_cache(st, (int)o->game_cache_mib) != 0)) {
        fprintf(stderr, "porrazo-bench: %s\n", store_errmsg(st));
        store_close(st);
        return NULL;
    }
    return st;
}

/*
 * The warm-up, untimed: "!turn" and "hand" (no moves, so the games stay
 * as built), first in every room once in a random order, as a bot that
 * has run for a while has read each of its games, then o->warmup more in
 * random rooms of their own random sequence, so the bot is measured as it
 * runs (its map of the file, SQLite's cache and the store's game cache
 * filled), not in its first second. --warmup 0: none at all (every sample
 * then reads a room no earlier command read). 0 or -1.
 */
static int warm_up(host *h, store *st, hb_adapter *a, const hb_opts *o, long games)
{
    uint64_t rng = (o->seed + 1) * UINT64_C(0xD1B54A32D192ED03) ^ (uint64_t)games;
    hb_samples junk;
    if (o->warmup == 0)
        return 0;
    long *order = malloc((size_t)games * sizeof *order);
    if (order == NULL || samples_alloc(&junk, 1) != 0) {
        free(order);
        return -1;
    }
    for (long i = 0; i < games; i++)
        order[i] = 1 + i;
    for (long i = games - 1; i > 0; i--) { /* Fisher-Yates */
        long j = (long)(rng_next(&rng) % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    int rc = 0;
    for (long i = 0; rc == 0 && i < games + o->warmup; i++) {
        hb_cmd c;
        long k = i < games ? order[i] : 1 + (long)(rng_next(&rng) % (uint64_t)games);
        choose_cmd(st, i % 2, k, &c);
        junk.n = junk.nkind[c.kind] = 0;
        rc = sample_one(h, a, &c, HB_T0 + 60, &junk);
    }
    samples_free(&junk);
    free(order);
    return rc;
}

/*
 * The samples of one size on a copy of its built database: prints the
 * "host" and "clock" lines. 0, or 1 when the host or the store failed.
 */
static int measure(const hb_opts *o, long games, const char *run_path)
{
    store *st = open_sized(o, run_path);
    hb_adapter a = {0};
    host *h = st != NULL ? hb_open_host(st, &a.q) : NULL;
    hb_samples s;
    if (h == NULL || hb_adapter_init(&a, st, HB_NETWORK, h) != 0 || samples_alloc(&s, o->samples) != 0)
        return 1;
    uint64_t rng = o->seed ^ (uint64_t)games * UINT64_C(0x9E3779B97F4A7C15);
    int64_t clock_spent = 0;
    int rc = hb_adapter_drain(&a); /* the built outbox is empty: this reads nothing */
    if (rc == 0)
        rc = warm_up(h, st, &a, o, games);
    for (long i = 0; rc == 0 && i < o->samples; i++) {
        long k = 1 + (long)(rng_next(&rng) % (uint64_t)games);
        int64_t now = HB_T0 + 60 + i / 50;
        hb_cmd c;
        choose_cmd(st, i, k, &c);
        store_cache_stat c0, c1;
        store_cache_stats(st, &c0);
        rc = sample_one(h, &a, &c, now, &s);
        store_cache_stats(st, &c1);
        s.hits[c.kind] += c1.hits - c0.hits;
        s.misses[c.kind] += c1.misses - c0.misses;
        if (rc == 0 && c.kind == KIND_PLAY)
            rc = keep_game(h, st, &a, k, now, &s.ended);
        if (rc == 0 && clock_spent < HB_CLOCK_BUDGET_NS) {
            /* The bot asks the clock before every poll, after the reply. */
            int64_t t = hb_now_ns();
            (void)host_next_tick(h, now);
            int64_t d = hb_now_ns() - t;
            s.clock[s.nclock++] = (double)d / 1e3;
            clock_spent += d;
        }
    }
    long rss = proc_status_kib("VmRSS"), hwm = proc_status_kib("VmHWM");
    long anon = proc_status_kib("RssAnon");
    if (rc == 0) {
        double med = median_of(s.all, s.n);
        double kmed[KINDS];
        for (int k = 0; k < KINDS; k++)
            kmed[k] = median_of(s.kind[k], s.nkind[k]);
        printf("host games=%ld median_us=%.1f p99_us=%.1f cpu_us=%.1f rss_kib=%ld samples=%ld "
               "turn_us=%.1f hand_us=%.1f play_us=%.1f n_turn=%ld n_hand=%ld n_play=%ld "
               "max_us=%.1f flush_us=%.1f hwm_kib=%ld games_ended=%ld anon_kib=%ld warmup=%ld\n",
               games, med, percentile(s.all, s.n, 99), (double)s.cpu_total / 1e3 / (double)s.n, rss,
               s.n, kmed[KIND_TURN], kmed[KIND_HAND], kmed[KIND_PLAY], s.nkind[KIND_TURN],
               s.nkind[KIND_HAND], s.nkind[KIND_PLAY], s.all[s.n - 1], median_of(s.flush, s.n), hwm,
               s.ended, anon, o->warmup);
        store_cache_stat cs;
        store_cache_stats(st, &cs);
        printf("pages games=%ld hit_per_cmd=%.2f miss_per_cmd=%.2f turn_hit=%.2f turn_miss=%.2f "
               "play_miss=%.2f cache_kib=%lld\n",
               games, per_cmd(s.hits, s.nkind, -1), per_cmd(s.misses, s.nkind, -1),
               per_cmd(s.hits, s.nkind, KIND_TURN), per_cmd(s.misses, s.nkind, KIND_TURN),
               per_cmd(s.misses, s.nkind, KIND_PLAY), (long long)(cs.used_bytes / 1024));
        store_game_cache_stat gs;
        store_game_cache_stats(st, &gs);
        printf("gcache games=%ld cached=%lld mib=%.1f of=%.0f hits=%lld misses=%lld\n", games,
               (long long)gs.games, (double)gs.bytes / 1048576.0,
               (double)gs.max_bytes / 1048576.0, (long long)gs.hits, (long long)gs.misses);
        double cmed = median_of(s.clock, s.nclock);
        printf("clock games=%ld next_tick_us=%.1f p99_us=%.1f calls=%ld\n", games, cmed,
               percentile(s.clock, s.nclock, 99), s.nclock);
    }
    fflush(stdout);
    samples_free(&s);
    hb_adapter_fini(&a);
    host_free(h);
    store_close(st);
    return rc == 0 ? 0 : 1;
}

/* Queues one private message per game, as unsent at a stop. 0 or -1. */
static int queue_pending(const char *path, long games)
{
    store *st = hb_open_store(path);
    int rc = st != NULL ? store_begin(st) : -1;
    for (long k = 1; rc == 0 && k <= games; k++) {
        hb_names n;
        char text[STORE_ID_MAX + 128];
        hb_names_of(k, "", &n);
        if (!hb_fmt_ok(snprintf(text, sizeof text,
                                "Your hand in %s: 7H KS 2D 9C QH 4S 3D JC AH. Your turn: play "
                                "a card (play 7h).",
                                n.room),
                       sizeof text))
            text[0] = '\0';
        rc = store_outbox_add(st, HB_NETWORK, n.a, STORE_MSG_PRIVATE, 1, text, HB_T0 + 200, NULL);
    }
    if (rc == 0)
        rc = store_commit(st);
    else if (st != NULL)
        store_rollback(st);
    if (rc != 0 && st != NULL)
        fprintf(stderr, "porrazo-bench: queueing pending messages: %s\n", store_errmsg(st));
    store_close(st);
    return rc == 0 ? 0 : -1;
}

/*
 * A start with one pending private message per game in the outbox: from
 * store_open to the host's answer to a first command (ready), and until
 * the bench adapter handed every message to the socket (drained). Prints
 * the "restart" line. 0, or 1 on failure.
 */
static int measure_restart(const hb_opts *o, long games, const char *run_path)
{
    if (queue_pending(run_path, games) != 0)
        return 1;
    uint64_t rng = o->seed ^ (uint64_t)games;
    hb_names n;
    hb_names_of(1 + (long)(rng_next(&rng) % (uint64_t)games), "", &n);
    int64_t now = HB_T0 + 300;
    int64_t t0 = hb_now_ns();
    store *st = open_sized(o, run_path);
    hb_adapter a = {0};
    host *h = st != NULL ? hb_open_host(st, &a.q) : NULL;
    int64_t t_open = hb_now_ns();
    if (h == NULL || host_announce_restart(h, now) != 0) {
        fprintf(stderr, "porrazo-bench: restart: %s\n", h != NULL ? host_errmsg(h) : "no host");
        host_free(h);
        store_close(st);
        return 1;
    }
    int64_t t_announced = hb_now_ns();
    /* As in the bot: the adapter starts, and its first turn (a first part
       of the backlog read and sent) comes before any command can arrive. */
    bool have_adapter = hb_adapter_init(&a, st, HB_NETWORK, h) == 0;
    int rc = have_adapter && hb_adapter_turn(&a) >= 0 ? 0 : -1;
    int64_t t_ready = 0;
    if (rc == 0) {
        a.watch = n.room; /* from the command on: its reply */
        a.t_watch = 0;
        rc = hb_say(h, HB_NETWORK, n.room, n.a, n.nick_a, "!turn", now);
        t_ready = hb_now_ns();
    }
    if (rc == 0) {
        rc = hb_adapter_drain(&a);
        int64_t t_drained = hb_now_ns();
        if (rc == 0)
            printf("restart games=%ld ready_ms=%.1f drained_ms=%.1f open_ms=%.1f "
                   "announce_ms=%.1f reply_ms=%.1f pending=%ld sent=%ld rss_kib=%ld\n",
                   games, (double)(t_ready - t0) / 1e6, (double)(t_drained - t0) / 1e6,
                   (double)(t_open - t0) / 1e6, (double)(t_announced - t_open) / 1e6,
                   a.t_watch != 0 ? (double)(a.t_watch - t0) / 1e6 : -1.0, games, a.sent,
                   proc_status_kib("VmRSS"));
    }
    if (have_adapter)
        hb_adapter_fini(&a);
    fflush(stdout);
    host_free(h);
    store_close(st);
    return rc == 0 ? 0 : 1;
}

/* ---- Driving it ----------------------------------------------------------- */

/* Runs fn(o, games, path) in a child process; its exit status, or 1. */
static int in_child(int (*fn)(const hb_opts *, long, const char *), const hb_opts *o, long games,
                    const char *path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("porrazo-bench: fork");
        return 1;
    }
    if (pid == 0) {
        int rc = fn(o, games, path);
        fflush(stdout);
        exit(rc); /* stdio was flushed before fork; LeakSanitizer runs at exit */
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int build_child(const hb_opts *o, long games, const char *path)
{
    (void)o;
    return hb_build_db(path, HB_NETWORK, games, "", NULL, false) == 0 ? 0 : 1;
}

/* mkdir -p for a directory path. 0 or -1. */
static int make_dirs(const char *dir)
{
    char p[HB_PATH_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s != '\0'; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Builds (or reuses) and measures one size. 0 or 1. */
static int run_size(const hb_opts *o, long games)
{
    char path[HB_PATH_MAX], run[HB_PATH_MAX + 16];
    if (!hb_fmt_ok(snprintf(path, sizeof path, "%s/host-%ld.db", o->db_dir, games), sizeof path) ||
        !hb_fmt_ok(snprintf(run, sizeof run, "%s/host-%ld.run.db", o->db_dir, games), sizeof run))
        return 1;
    if (hb_cached_ok(path, HB_NETWORK, games, NULL))
        printf("# build games=%ld reused %s\n", games, path);
    else if (in_child(build_child, o, games, path) != 0)
        return 1;
    int rc = hb_copy_db(path, run) == 0 ? in_child(measure, o, games, run) : 1;
    if (rc == 0 && o->restart)
        rc = in_child(measure_restart, o, games, run);
    hb_remove_db(run);
    return rc;
}

/* Parses a whole number in 1..max; false otherwise. */
static bool parse_num(const char *s, long max, long *out)
{
    char *end = NULL;
    if (s == NULL || *s < '0' || *s > '9')
        return false;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1 || v > max)
        return false;
    *out = v;
    return true;
}

/* "1,1000,10000": up to HB_SIZES_MAX sizes. */
static bool parse_sizes(const char *s, hb_opts *o)
{
    char buf[256];
    if (!hb_fmt_ok(snprintf(buf, sizeof buf, "%s", s), sizeof buf))
        return false;
    o->nsizes = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        if (o->nsizes == HB_SIZES_MAX || !parse_num(p, HB_GAMES_MAX, &o->sizes[o->nsizes++]))
            return false;
        if (comma == NULL)
            return true;
        p = comma + 1;
    }
}

/* "ID1,ID2": the two players of --room. */
static bool parse_players(const char *s, hb_opts *o)
{
    const char *comma = strchr(s, ',');
    if (comma == NULL || comma == s || comma[1] == '\0' || strchr(comma + 1, ',') != NULL ||
        (size_t)(comma - s) >= STORE_ID_MAX || strlen(comma + 1) >= STORE_ID_MAX)
        return false;
    memcpy(o->players[0], s, (size_t)(comma - s));
    o->players[0][comma - s] = '\0';
    snprintf(o->players[1], sizeof o->players[1], "%s", comma + 1);
    return true;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: porrazo-bench --host [--sizes N,N,...] [--samples N] [--db-dir DIR]\n"
            "                            [--warmup N] [--cache-kib N] [--mmap-mib N]\n"
            "                            [--game-cache-mib N] [--seed N] [--no-restart]\n"
            "       porrazo-bench --host --make-db FILE --games N [--network NET]\n"
            "                            [--id-prefix P] [--room ROOM --players ID1,ID2]\n"
            "  --sizes    games in progress per measurement (default 1,1000,10000,100000)\n"
            "  --samples  commands timed per size (default 2000)\n"
            "  --warmup   untimed !turn/hand commands before them: one in every room,\n"
            "             then N in random rooms (default %ld; 0: none at all)\n"
            "  --cache-kib, --mmap-mib  the store's page cache and map (default %d KiB,\n"
            "             %d MiB; 0: no map), as porrazo-bot's database_cache_kib and\n"
            "             database_mmap_mib\n"
            "  --game-cache-mib  the store's games kept in memory (default %d; 0: none),\n"
            "             as porrazo-bot's database_games_mib\n"
            "  --db-dir   where built databases are cached (default %s)\n"
            "  --make-db  only build FILE: N games, the last in ROOM between ID1 and ID2,\n"
            "             at the real time, every message sent (for tests/bench/peers);\n"
            "             player ids of the others are P<nick> (--id-prefix n: as on IRC)\n",
            HB_WARMUP_DEFAULT, STORE_CACHE_KIB_DEFAULT, STORE_MMAP_MIB_DEFAULT,
            STORE_GAME_CACHE_MIB_DEFAULT, PZ_BENCH_DB_DIR);
}

/* Parses argv (argv[0] is "--host"). 0, or 2 with a message. */
static int parse_args(int argc, char **argv, hb_opts *o)
{
    static const long default_sizes[] = {1, 1000, 10000, 100000};
    memset(o, 0, sizeof *o);
    o->nsizes = 4;
    memcpy(o->sizes, default_sizes, sizeof default_sizes);
    o->samples = 2000;
    o->warmup = HB_WARMUP_DEFAULT;
    o->cache_kib = STORE_CACHE_KIB_DEFAULT;
    o->mmap_mib = STORE_MMAP_MIB_DEFAULT;
    o->game_cache_mib = STORE_GAME_CACHE_MIB_DEFAULT;
    o->seed = 1;
    o->restart = true;
    o->network = HB_NETWORK;
    o->id_prefix = "";
    snprintf(o->db_dir, sizeof o->db_dir, "%s", PZ_BENCH_DB_DIR);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n = 0;
        bool ok = true, takes = true;
        if (strcmp(a, "--sizes") == 0)
            ok = v != NULL && parse_sizes(v, o);
        else if (strcmp(a, "--samples") == 0)
            ok = parse_num(v, HB_SAMPLES_MAX, &o->samples);
        else if (strcmp(a, "--warmup") == 0)
            ok = v != NULL && (strcmp(v, "0") == 0 ? (o->warmup = 0, true)
                                                   : parse_num(v, HB_SAMPLES_MAX, &o->warmup));
        else if (strcmp(a, "--cache-kib") == 0)
            ok = parse_num(v, STORE_CACHE_KIB_MAX, &o->cache_kib) &&
                 o->cache_kib >= STORE_CACHE_KIB_MIN;
        else if (strcmp(a, "--mmap-mib") == 0)
            ok =
                v != NULL && (strcmp(v, "0") == 0 ? (o->mmap_mib = 0, true)
                                                  : parse_num(v, STORE_MMAP_MIB_MAX, &o->mmap_mib));
        else if (strcmp(a, "--game-cache-mib") == 0)
            ok = v != NULL && (strcmp(v, "0") == 0
                                   ? (o->game_cache_mib = 0, true)
                                   : parse_num(v, STORE_GAME_CACHE_MIB_MAX, &o->game_cache_mib));
        else if (strcmp(a, "--seed") == 0 && (ok = parse_num(v, LONG_MAX, &n)))
            o->seed = (uint64_t)n;
        else if (strcmp(a, "--db-dir") == 0)
            ok = v != NULL &&
                 hb_fmt_ok(snprintf(o->db_dir, sizeof o->db_dir, "%s", v), sizeof o->db_dir);
        else if (strcmp(a, "--make-db") == 0)
            ok = (o->make_db = v) != NULL;
        else if (strcmp(a, "--games") == 0)
            ok = parse_num(v, HB_GAMES_MAX, &o->games);
        else if (strcmp(a, "--network") == 0)
            ok = (o->network = v) != NULL && strlen(v) < STORE_ID_MAX;
        else if (strcmp(a, "--id-prefix") == 0)
            ok = (o->id_prefix = v) != NULL && strlen(v) < 16;
        else if (strcmp(a, "--room") == 0)
            ok = (o->room = v) != NULL && strlen(v) < STORE_ID_MAX;
        else if (strcmp(a, "--players") == 0)
            ok = v != NULL && parse_players(v, o);
        else if (strcmp(a, "--no-restart") == 0)
            o->restart = false, takes = false;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return usage(stdout), 1;
        else
            ok = false;
        if (!ok) {
            fprintf(stderr, "porrazo-bench: bad or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        i += takes;
    }
    if (o->make_db != NULL && (o->games == 0 || (o->room != NULL) != (o->players[0][0] != '\0'))) {
        fprintf(stderr, "porrazo-bench: --make-db needs --games, and --room with --players\n");
        return 2;
    }
    return 0;
}

/* --make-db: a fresh database for the peer harness. 0 or 1. */
static int make_db(const hb_opts *o)
{
    hb_names last;
    if (o->room != NULL) {
        /* parse_args checked every length */
        memcpy(last.room, o->room, strlen(o->room) + 1);
        memcpy(last.a, o->players[0], sizeof last.a);
        memcpy(last.b, o->players[1], sizeof last.b);
        memcpy(last.nick_a, hb_nick_of_id(last.a), strlen(hb_nick_of_id(last.a)) + 1);
        memcpy(last.nick_b, hb_nick_of_id(last.b), strlen(hb_nick_of_id(last.b)) + 1);
    }
    hb_remove_db(o->make_db);
    if (hb_build_db(o->make_db, o->network, o->games, o->id_prefix, o->room != NULL ? &last : NULL,
                    true) != 0)
        return 1;
    return hb_cached_ok(o->make_db, o->network, o->games, o->room) ? 0 : 1;
}

int host_bench_main(int argc, char **argv)
{
    hb_opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (o.make_db != NULL)
        return make_db(&o);
    if (make_dirs(o.db_dir) != 0) {
        fprintf(stderr, "porrazo-bench: cannot make the directory %s: %s\n", o.db_dir,
                strerror(errno));
        return 1;
    }
    printf("# porrazo-bench --host: network \"%s\", %ld commands per size, databases in %s\n"
           "# host: one command = host_handle + outq_load/take/write/sent + outq_flush_done on a "
           "socketpair; median_us, p99_us from before host_handle to after the last write(); "
           "cpu_us = MEAN process CPU (getrusage RUSAGE_SELF, user+sys) per command, flush "
           "included; rss_kib = VmRSS after the samples (a process per size); turn/hand/play_us: "
           "medians per kind; flush_us: median outq_flush_done after the last write; "
           "games_ended: games the moves finished (started again, untimed)\n"
           "# clock: host_next_tick after each command (median), for at most 3 s\n"
           "# restart: one pending private message per game; ready = store_open to the first "
           "command handled after host_announce_restart and the adapter's first turn (as in the "
           "bot, before any command can arrive); drained = to the last message written; "
           "reply = to the first command's reply written\n",
           HB_NETWORK, o.samples, o.db_dir);
    for (int i = 0; i < o.nsizes && rc == 0; i++)
        rc = run_size(&o, o.sizes[i]);
    return rc == 0 ? 0 : 1;
}
