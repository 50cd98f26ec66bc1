/*
 * robots_bench.c — porrazo-robots-bench: computer players at many tables
 * at once, and what a person waiting for an answer sees meanwhile.
 *
 * T tables of four seats are opened on a fresh SQLite file, each by a
 * person who then says "away 30d bot", so that computer players (strong,
 * or --level) play every seat: the tables run by themselves. The loop of
 * the bot is played here: host_tick whenever host_next_tick says so, and
 * between ticks a person's "!turn" in one of the rooms, timed. Two runs:
 * the decisions on the worker thread (host_think_async, as porrazo-bot
 * runs), then inline in host_tick (as the console and the tests run).
 * Printed per run: moves applied per second over all tables, the time of
 * one host_tick (median, p99, max: how long the loop is held), and the
 * "!turn" answer time (median, p99). The figures are this machine's; the
 * run is the measurement, never a pass or fail.
 *
 * usage: porrazo-robots-bench [--tables T] [--seconds S] [--level L]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host.h"
#include "porrazo_ai.h"
#include "store.h"

#define NET "bench"
#define SAMPLES_MAX 200000

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile of v[0..n) (sorted here). */
static double quantile(double *v, int n, double q)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i];
}

static void say(host *h, const char *room, const char *nick, const char *text, int64_t now)
{
    host_msg m = {NET, room, nick, nick, text, strlen(text), NULL, false, false, NULL, false};
    if (host_handle(h, &m, now) != 0)
        fprintf(stderr, "robots-bench: %s\n", host_errmsg(h));
}

/* Counts applied moves: every "E" line the host queues is one move or more. */
static int moves_in_outbox(store *st)
{
    int n = 0;
    store_outbox_count(st, NET, &n);
    return n;
}

static void wake(void *arg)
{
    (void)arg;
}

/* One run; threaded: decisions on the worker. */
static int run(int tables, double seconds, const char *level, int threaded)
{
    char dir[] = "/tmp/pz-robots-bench-XXXXXX", path[96], why[256];
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(path, sizeof path, "%s/bench.db", dir);
    store *st;
    host *h;
    if (store_open(&st, path, why, sizeof why) != 0) {
        fprintf(stderr, "robots-bench: %s\n", why);
        return 1;
    }
    host_config c = {.prefix = "!",
                     .bot_name = "porrazo",
                     .max_games = tables + 1,
                     .robot_level = level,
                     .robot_delay_secs = 0};
    if (host_new(&h, st, &c, why, sizeof why) != 0) {
        fprintf(stderr, "robots-bench: %s\n", why);
        return 1;
    }
    if (threaded && host_think_async(h, wake, NULL) != 0)
        return 1;
    int64_t clock = 1800000000;
    for (int t = 0; t < tables; t++) {
        char room[32], nick[32];
        snprintf(room, sizeof room, "#t%d", t);
        snprintf(nick, sizeof nick, "p%d", t);
        say(h, room, nick, "!away 30d bot", clock);
        say(h, room, nick, "!new 4 bots to 121", clock);
    }
    static double ticks[SAMPLES_MAX], answers[SAMPLES_MAX];
    int nticks = 0, nanswers = 0, before = moves_in_outbox(st);
    double start = now_ms(), end = start + seconds * 1e3, t0;
    while ((t0 = now_ms()) < end) {
        clock = 1800000000 + (int64_t)((t0 - start) / 1e3);
        if (host_next_tick(h, clock) <= clock) {
            host_tick(h, clock);
            if (nticks < SAMPLES_MAX)
                ticks[nticks++] = now_ms() - t0;
        }
        double a = now_ms();
        say(h, "#t0", "p0", "!turn", clock);
        if (nanswers < SAMPLES_MAX)
            answers[nanswers++] = now_ms() - a;
        usleep(1000);
    }
    double took = (now_ms() - start) / 1e3;
    int lines = moves_in_outbox(st) - before - nanswers; /* !turn answers are volatile */
    printf("%-7s tables=%d level=%s  room lines/s=%.0f  host_tick ms: median=%.2f p99=%.2f "
           "max=%.1f  !turn ms: median=%.3f p99=%.2f\n",
           threaded ? "thread" : "inline", tables, level, (lines > 0 ? lines : 0) / took,
           quantile(ticks, nticks, 0.5), quantile(ticks, nticks, 0.99),
           quantile(ticks, nticks, 1.0), quantile(answers, nanswers, 0.5),
           quantile(answers, nanswers, 0.99));
    host_free(h);
    store_close(st);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    return system(path) == 0 ? 0 : 1;
}

#define USAGE "usage: porrazo-robots-bench [--tables 1..10000] [--seconds S>0] [--level L]\n"

/* A whole-number argument in lo..hi; 0, or -1 with what was wrong said. */
static int int_arg(const char *name, const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "porrazo-robots-bench: %s wants a number from %ld to %ld, not '%s'\n", name,
                lo, hi, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    int tables = 20;
    double seconds = 10;
    const char *level = "strong";
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) {
            fprintf(stderr, "porrazo-robots-bench: %s wants a value\n" USAGE, argv[i]);
            return 2;
        }
        if (strcmp(argv[i], "--tables") == 0) {
            if (int_arg("--tables", argv[i + 1], 1, 10000, &tables) != 0)
                return 2;
        } else if (strcmp(argv[i], "--seconds") == 0) {
            char *end;
            seconds = strtod(argv[i + 1], &end);
            if (end == argv[i + 1] || *end != '\0' || !(seconds > 0 && seconds <= 86400)) {
                fprintf(stderr,
                        "porrazo-robots-bench: --seconds wants a time in (0, 86400], not '%s'\n",
                        argv[i + 1]);
                return 2;
            }
        } else if (strcmp(argv[i], "--level") == 0) {
            pzai_level l;
            level = argv[i + 1];
            if (pzai_level_parse(level, &l) != 0) {
                fprintf(
                    stderr,
                    "porrazo-robots-bench: %s is not a level (beginner, greedy, expert, strong)\n",
                    level);
                return 2;
            }
        } else {
            fprintf(stderr, USAGE);
            return 2;
        }
    }
    return run(tables, seconds, level, 1) || run(tables, seconds, level, 0);
}
