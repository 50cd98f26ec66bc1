/*
 * bench.c — porrazo-bench, the engine's speed and size measured: random
 * legal games (pz_legal_actions, a cheap pick, pz_apply) in actions per
 * second for 2, 4 and 8 players; save + restore time per game state (JSON,
 * then packed); the size of a game in memory and saved. Every timing is run
 * several times and printed as median [min .. max], single-threaded,
 * against the project's targets (>= 5 M actions/s for 2 players, save +
 * restore < 10 us, a game < 2 KiB), each marked PASS or MISS.
 *
 * It is a measurement, not a test: it exits 0 whether targets are met or
 * not, and 1 only when the engine misbehaves (a listed action refused, a
 * save that does not restore). `porrazo-bench [ACTIONS [RUNS]]`: actions
 * per run and per player count (default 1000000), runs (default 5).
 * `porrazo-bench --host ...` measures the game host instead (host_bench.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host_bench.h"
#include "porrazo.h"

#define BENCH_DEFAULT_ACTIONS 1000000L
#define BENCH_DEFAULT_RUNS 5
#define BENCH_MAX_RUNS 101
#define BENCH_STATES_MAX 2000     /* game states timed for save/restore */
#define BENCH_TARGET_APS 5e6      /* actions per second, 2 players */
#define BENCH_TARGET_SAVE_US 10.0 /* save + restore, microseconds */
#define BENCH_TARGET_SIZE 2048    /* bytes of a game in memory */

/* The bench's pick: xorshift64, cheap and good enough to choose moves. */
typedef struct bench_rng {
    uint64_t x;
} bench_rng;

/* Median, min and max of several runs. */
typedef struct bench_stat {
    double median, min, max;
} bench_stat;

/* Saved sizes seen: a histogram by length. */
typedef struct bench_sizes {
    long count[PZ_SAVE_MAX];
    long total;
    int max;
} bench_sizes;

static bool bench_failed;

/* Monotonic time in seconds. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A draw in [0, n) for n >= 1 (xorshift64, multiply-shift). */
static int bench_pick(bench_rng *r, int n)
{
    r->x ^= r->x << 13;
    r->x ^= r->x >> 7;
    r->x ^= r->x << 17;
    return (int)(((r->x >> 32) * (uint64_t)n) >> 32);
}

/* Sorts n doubles in place (insertion sort: n is a handful of runs). */
static void sort_doubles(double *v, int n)
{
    for (int i = 1; i < n; i++) {
        double x = v[i];
        int j = i - 1;
        for (; j >= 0 && v[j] > x; j--)
            v[j + 1] = v[j];
        v[j + 1] = x;
    }
}

/* The median, min and max of n >= 1 values (v is sorted on return). */
static bench_stat stat_of(double *v, int n)
{
    bench_stat s;
    sort_doubles(v, n);
    s.min = v[0];
    s.max = v[n - 1];
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return s;
}

/* Reports an engine failure; the bench goes on but exits 1. */
static void bench_error(const char *what, int rc)
{
    fprintf(stderr, "porrazo-bench: %s: %s\n", what, pz_strerror(rc));
    bench_failed = true;
}

/* A new game of `players` with the default options, or NULL. */
static pz_game *new_game(int players, uint64_t seed)
{
    pz_setup s;
    pz_game *g = NULL;
    char why[PZ_WHY_MAX] = "";
    pz_setup_default(&s);
    s.players = players;
    s.dealer = -1;
    s.seed = seed;
    int rc = pz_new(&g, &s, NULL, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr, "porrazo-bench: pz_new: %s\n", why);
        bench_failed = true;
        return NULL;
    }
    return g;
}

/*
 * Plays one random legal action of g with events into ev (NULL: none).
 * Returns false when the game is over or the engine refused its own list.
 */
static bool play_one(pz_game *g, bench_rng *r, pz_events *ev)
{
    pz_action list[PZ_LEGAL_MAX];
    int n = pz_legal_actions(g, -1, list, PZ_LEGAL_MAX);
    if (n <= 0)
        return false;
    if (ev != NULL)
        ev->n = 0;
    int rc = pz_apply(g, &list[bench_pick(r, n)], ev, NULL, 0);
    if (rc != 0) {
        bench_error("a listed action was refused", rc);
        return false;
    }
    return true;
}

/*
 * Plays `actions` actions of random games of `players` (new games as they
 * end, their creation not timed) and returns actions per second.
 */
static double actions_per_second(int players, long actions, pz_events *ev)
{
    bench_rng r = {0x9e3779b97f4a7c15ULL};
    uint64_t seed = 1;
    long done = 0;
    double spent = 0;
    while (done < actions && !bench_failed) {
        pz_game *g = new_game(players, seed++);
        if (g == NULL)
            break;
        double t0 = now_seconds();
        while (done < actions && play_one(g, &r, ev))
            done++;
        spent += now_seconds() - t0;
        pz_free(g);
    }
    return spent > 0 ? (double)done / spent : 0;
}

/* Prints one line: a measurement, median [min .. max], unit. */
static void print_stat(const char *what, bench_stat s, double scale, const char *unit)
{
    printf("%-34s %9.3f %s  [%.3f .. %.3f]\n", what, s.median / scale, unit, s.min / scale,
           s.max / scale);
}

/* Prints PASS or MISS for one target. */
static void print_target(const char *what, bool pass)
{
    printf("  target %-40s %s\n", what, pass ? "PASS" : "MISS");
}

/* Actions per second for 2, 4 and 8 players, with and without events. */
static void bench_actions(long actions, int runs, pz_events *ev)
{
    static const int counts[3] = {2, 4, 8};
    double v[BENCH_MAX_RUNS];
    char what[64];
    for (int c = 0; c < 3; c++)
        for (int with_ev = 0; with_ev < 2; with_ev++) {
            for (int i = 0; i < runs; i++)
                v[i] = actions_per_second(counts[c], actions, with_ev ? ev : NULL);
            bench_stat s = stat_of(v, runs);
            int len = snprintf(what, sizeof what, "actions/s, %d players%s", counts[c],
                               with_ev ? ", events" : "");
            if (len < 0 || (size_t)len >= sizeof what)
                what[0] = '\0';
            print_stat(what, s, 1e6, "M/s");
            if (counts[c] == 2)
                print_target(with_ev ? ">= 5 M actions/s (2 players, events)"
                                     : ">= 5 M actions/s (2 players)",
                             s.median >= BENCH_TARGET_APS);
        }
}

/* Saves g and counts the length; false when the save fails. */
static bool count_size(const pz_game *g, bench_sizes *sz)
{
    char doc[PZ_SAVE_MAX];
    int len = pz_save(g, doc, sizeof doc);
    if (len <= 0 || len >= PZ_SAVE_MAX) {
        bench_error("pz_save", len);
        return false;
    }
    sz->count[len]++;
    sz->total++;
    if (len > sz->max)
        sz->max = len;
    return true;
}

/*
 * Plays random games of 2 to 8 players, saving every state for the size
 * histogram and keeping clones of up to `want` states (one in 8) in
 * states. Returns how many it kept.
 */
static int collect_states(pz_game **states, int want, bench_sizes *sz)
{
    bench_rng r = {0x2545f4914f6cdd1dULL};
    int kept = 0;
    for (uint64_t seed = 1; kept < want && !bench_failed; seed++) {
        pz_game *g = new_game(2 + (int)(seed % 7), seed);
        if (g == NULL)
            break;
        do {
            if (!count_size(g, sz))
                break;
            if (kept < want && bench_pick(&r, 8) == 0)
                states[kept++] = pz_clone(g);
        } while (play_one(g, &r, NULL));
        pz_free(g);
    }
    for (int i = 0; i < kept; i++)
        if (states[i] == NULL)
            bench_error("pz_clone", PZ_ENO_MEMORY);
    return bench_failed ? 0 : kept;
}

/* A writer of a game's document: pz_save (JSON) or pz_pack (packed). */
typedef int (*bench_writer)(const pz_game *g, char *buf, size_t cap);

/* One save + restore (+ free) of g; false when it fails. */
static bool save_restore(const pz_game *g, bench_writer write, bool save, bool restore,
                         char doc[PZ_SAVE_MAX], int *len)
{
    pz_game *r = NULL;
    if (save)
        *len = write(g, doc, PZ_SAVE_MAX);
    if (*len <= 0)
        return false;
    if (!restore)
        return true;
    int rc = pz_restore(&r, doc, (size_t)*len, NULL, 0);
    pz_free(r);
    return rc == 0;
}

/*
 * Microseconds per state of save and/or restore over the n states, for
 * one run, each written by write. Restore alone restores documents saved
 * beforehand.
 */
static double time_states(pz_game **states, int n, bench_writer write, bool save, bool restore)
{
    static char docs[BENCH_STATES_MAX][PZ_SAVE_MAX];
    static int lens[BENCH_STATES_MAX];
    for (int i = 0; i < n && !save; i++)
        lens[i] = write(states[i], docs[i], PZ_SAVE_MAX);
    double t0 = now_seconds();
    for (int i = 0; i < n; i++)
        if (!save_restore(states[i], write, save, restore, docs[i], &lens[i])) {
            bench_error("save/restore of a game state", PZ_EBAD_DOCUMENT);
            break;
        }
    return (now_seconds() - t0) * 1e6 / n;
}

/* Save + restore per state, and each alone; then the same packed (what
   the host stores). */
static void bench_save_restore(pz_game **states, int n, int runs)
{
    static const char *const names[6] = {
        "save + restore per state", "  save alone", "  restore (+ free) alone",
        "pack + restore per state", "  pack alone", "  restore of packed (+ free) alone"};
    static const bool save[3] = {true, true, false};
    static const bool restore[3] = {true, false, true};
    double v[BENCH_MAX_RUNS];
    for (int k = 0; k < 6; k++) {
        bench_writer write = k < 3 ? pz_save : pz_pack;
        for (int i = 0; i < runs; i++)
            v[i] = time_states(states, n, write, save[k % 3], restore[k % 3]);
        bench_stat s = stat_of(v, runs);
        print_stat(names[k], s, 1, "us");
        if (k == 0)
            print_target("save + restore < 10 us", s.median < BENCH_TARGET_SAVE_US);
    }
}

/* The median length of the saved sizes seen. */
static int median_size(const bench_sizes *sz)
{
    long seen = 0;
    for (int len = 0; len < PZ_SAVE_MAX; len++) {
        seen += sz->count[len];
        if (2 * seen >= sz->total)
            return len;
    }
    return 0;
}

/* Parses a whole positive number no larger than max; false otherwise. */
static bool parse_count(const char *s, long max, long *out)
{
    char *end = NULL;
    if (*s == '\0' || *s == '-')
        return false;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1 || v > max)
        return false;
    *out = v;
    return true;
}

int main(int argc, char **argv)
{
    long actions = BENCH_DEFAULT_ACTIONS, runs = BENCH_DEFAULT_RUNS;
    if (argc > 1 && strcmp(argv[1], "--host") == 0)
        return host_bench_main(argc - 1, argv + 1); /* the host: host_bench.c */
    if (argc > 3 || (argc > 1 && !parse_count(argv[1], 1000000000L, &actions)) ||
        (argc > 2 && !parse_count(argv[2], BENCH_MAX_RUNS, &runs))) {
        fprintf(stderr,
                "usage: porrazo-bench [ACTIONS [RUNS]]\n"
                "       porrazo-bench --host [--help | OPTIONS]  (the host: see --help)\n"
                "  ACTIONS per run and player count (default %ld), "
                "RUNS 1..%d (default %d)\n",
                BENCH_DEFAULT_ACTIONS, BENCH_MAX_RUNS, BENCH_DEFAULT_RUNS);
        return 2;
    }
    static pz_events ev;
    static pz_game *states[BENCH_STATES_MAX];
    static bench_sizes sizes;
    int want = actions / 20 < BENCH_STATES_MAX ? (int)(actions / 20 + 1) : BENCH_STATES_MAX;
    printf("porrazo-bench: %ld runs of %ld actions each; median [min .. max]\n", runs, actions);
    bench_actions(actions, (int)runs, &ev);
    int n = collect_states(states, want, &sizes);
    if (n > 0) {
        printf("(%d game states from %ld saved along the way)\n", n, sizes.total);
        bench_save_restore(states, n, (int)runs);
    }
    printf("%-34s %9zu bytes\n", "game in memory (pz_game_size)", pz_game_size());
    print_target("game < 2 KiB in memory", pz_game_size() < BENCH_TARGET_SIZE);
    printf("%-34s %9d bytes typical (median), %d max, over %ld states\n", "saved game",
           median_size(&sizes), sizes.max, sizes.total);
    for (int i = 0; i < n; i++)
        pz_free(states[i]);
    return bench_failed ? 1 : 0;
}
