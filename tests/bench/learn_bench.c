/*
 * learn_bench.c — porrazo-learn-bench: what a hint and a hand's review
 * cost (issue 22), beside the strong level's own decision, in one run.
 *
 * Random positions of every decision kind (a play, the tendido now or
 * later, the arrangement, a declaration and a claim in manual mode; 2 to 8
 * players, every option varied) are drawn by playing random legal actions
 * from random set-ups. At each, for the seat to decide, three things are
 * timed on this thread, one after the other, with the same seed:
 *   strong  pzai_decide at the strong level (its default budget): what a
 *           strong computer player takes to move;
 *   hint    what the host does for "hint": the worker's pzai_hint (the
 *           same decision and its figures) and the loop's words
 *           (pzai_sample_game, pz_apply on it, render_outcome);
 *   review  what judging one of the player's plays costs (the practice
 *           table's line, the review's item; a play only): pzai_hint,
 *           pzai_why_of of the play made, the words of both.
 * Printed per decision kind: how many, and the median and p99 of each in
 * milliseconds. The hand's end itself only reads what was judged (a kv
 * row) and is not timed here. The figures are this machine's; the run is
 * the measurement, never a pass or fail.
 *
 * usage: porrazo-learn-bench [--positions N] [--iterations I]
 *   N: positions per decision kind (default 40); I: the strong level's
 *   iterations (default 0: its own budget).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "porrazo.h"
#include "porrazo_ai.h"
#include "render.h"

#define KINDS 5 /* play, tendido, arrange, declare, claim */
#define ATTEMPTS_PER_POSITION 40

static const char *const KIND_NAME[KINDS] = {"play", "tendido", "arrange", "declare", "claim"};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t next(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int below(uint64_t *x, int n)
{
    return (int)(next(x) % (uint64_t)n);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(double *v, int n, double q)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[(int)(q * (n - 1) + 0.5)];
}

/* The kind index of a strong decision, or -1. */
static int kind_of(const pz_action *a)
{
    switch (a->kind) {
    case PZ_ACT_PLAY:
        return 0;
    case PZ_ACT_TENDIDO:
        return 1;
    case PZ_ACT_ARRANGE:
        return 2;
    case PZ_ACT_DECLARE:
        return 3;
    case PZ_ACT_CLAIM:
        return 4;
    default:
        return -1;
    }
}

/* A random game of 2 to 8 players, every option varied, played on at
   random for up to `steps` actions; NULL when it ended on the way. */
static pz_game *random_position(uint64_t *rng)
{
    pz_setup s;
    pz_setup_default(&s);
    s.players = 2 + below(rng, 7);
    pz_options *o = &s.options;
    o->target = 121;
    o->wrap = below(rng, 2);
    o->declarations = below(rng, 2) ? PZ_DECL_MANUAL : PZ_DECL_AUTO;
    o->tendido = below(rng, 4) ? PZ_TENDIDO_CHOICE : PZ_TENDIDO_LAST;
    o->partnerships = s.players >= 4 && s.players % 2 == 0 && below(rng, 2);
    s.dealer = below(rng, s.players);
    s.seed = next(rng);
    pz_game *g = NULL;
    if (pz_new(&g, &s, NULL, NULL, 0) != 0)
        return NULL;
    int steps = below(rng, 200);
    pz_action acts[PZ_LEGAL_MAX];
    for (int i = 0; i < steps && pz_get_phase(g) != PZ_PHASE_GAME_OVER; i++) {
        int n = pz_legal_actions(g, -1, acts, PZ_LEGAL_MAX);
        if (n <= 0 ||
            pz_apply(g, &acts[below(rng, n < PZ_LEGAL_MAX ? n : PZ_LEGAL_MAX)], NULL, NULL, 0) != 0)
            break;
    }
    if (pz_get_phase(g) == PZ_PHASE_GAME_OVER) {
        pz_free(g);
        return NULL;
    }
    return g;
}

/* The words of v->seat's move a, as the host says them (learn.c). */
static void words(const pz_view *v, const pz_record *r, uint64_t seed, const pz_action *a)
{
    static const char *const nick[PZ_MAX_PLAYERS] = {"ann", "bob", "cat", "dan",
                                                     "eve", "fay", "gus", "hal"};
    render_names names = {v->players, {0}, "!"};
    for (int i = 0; i < PZ_MAX_PLAYERS; i++)
        names.nick[i] = nick[i];
    pz_game *g = NULL;
    pz_events *ev = malloc(sizeof *ev);
    char buf[RENDER_LINE_MAX];
    if (ev != NULL && pzai_sample_game(v, r, seed, &g) == 0) {
        ev->n = 0;
        if (pz_apply(g, a, ev, NULL, 0) == 0) {
            ev->n = pzai_move_events(ev, a);
            render_outcome(g, &names, a, ev, buf, sizeof buf);
        }
    }
    pz_free(g);
    free(ev);
}

int main(int argc, char **argv)
{
    int per_kind = 40, iterations = 0;
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
        bool ok = end != NULL && *end == '\0' && end != argv[i + 1];
        if (strcmp(argv[i], "--positions") == 0 && ok && v >= 1 && v <= 100000)
            per_kind = (int)v;
        else if (strcmp(argv[i], "--iterations") == 0 && ok && v >= 0 && v <= 10000000)
            iterations = (int)v;
        else {
            fprintf(stderr, "usage: porrazo-learn-bench [--positions N] [--iterations I]\n");
            return 2;
        }
        i++;
    }
    double *t[KINDS][3];
    int n[KINDS] = {0}, nreview = 0;
    for (int k = 0; k < KINDS; k++)
        for (int m = 0; m < 3; m++)
            if ((t[k][m] = calloc((size_t)per_kind, sizeof(double))) == NULL)
                return 1;
    pzai_budget budget = {iterations, NULL, NULL};
    uint64_t rng = 22;
    long positions = 0, limit = (long)per_kind * KINDS * ATTEMPTS_PER_POSITION;
    bool full = false;
    for (; positions < limit && !full; positions++) {
        pz_game *g = random_position(&rng);
        if (g == NULL)
            continue;
        for (int seat = 0; seat < pz_get_players(g); seat++) {
            pz_view v;
            pz_record r;
            pz_action a, h;
            pzai_why why, why_played;
            if (pz_view_seat(g, seat, &v) != 0 || pz_public_record(g, &r) != 0)
                continue;
            uint64_t seed = next(&rng);
            double t0 = now_ms();
            if (pzai_decide(&v, &r, PZAI_STRONG, seed, &budget, &a) != 1)
                continue;
            double t1 = now_ms();
            int k = kind_of(&a);
            if (k < 0 || n[k] >= per_kind)
                continue;
            if (pzai_hint(&v, &r, seed, &budget, &h, &why) != 1) {
                fprintf(stderr, "learn-bench: a hint failed where the strong level decided\n");
                return 1;
            }
            words(&v, &r, seed, &h);
            double hint_ms = now_ms() - t1;
            if (k == 0) { /* a play judged: the strong choice, and another play made */
                pz_action legal[PZ_LEGAL_MAX];
                int nl = pz_legal_actions(g, seat, legal, PZ_LEGAL_MAX);
                pz_action played = legal[below(&rng, nl < PZ_LEGAL_MAX ? nl : PZ_LEGAL_MAX)];
                double t2 = now_ms();
                if (pzai_hint(&v, &r, seed, &budget, &h, &why) != 1 ||
                    pzai_why_of(&v, &r, &played, seed, &why_played) != 0) {
                    fprintf(stderr, "learn-bench: judging a legal play failed\n");
                    return 1;
                }
                words(&v, &r, seed, &h);
                words(&v, &r, seed, &played);
                t[k][2][nreview++] = now_ms() - t2;
            }
            t[k][0][n[k]] = t1 - t0;
            t[k][1][n[k]] = hint_ms;
            n[k]++;
        }
        pz_free(g);
        full = true;
        for (int k = 0; k < KINDS; k++)
            full &= n[k] >= per_kind;
    }
    printf("learn-bench: strong level's budget %s, %ld random positions (2-8 players), ms on "
           "this machine\n",
           iterations > 0 ? "set" : "its own", positions);
    printf("%-8s %6s %14s %14s %14s\n", "kind", "n", "strong med/p99", "hint med/p99",
           "review med/p99");
    for (int k = 0; k < KINDS; k++) {
        char review[32] = "-";
        if (k == 0 && nreview > 0) {
            double med = quantile(t[k][2], nreview, 0.5), p99 = quantile(t[k][2], nreview, 0.99);
            snprintf(review, sizeof review, "%.2f/%.2f", med, p99);
        }
        double sm = quantile(t[k][0], n[k], 0.5), s99 = quantile(t[k][0], n[k], 0.99);
        double hm = quantile(t[k][1], n[k], 0.5), h99 = quantile(t[k][1], n[k], 0.99);
        printf("%-8s %6d %7.2f/%-6.2f %7.2f/%-6.2f %14s\n", KIND_NAME[k], n[k], sm, s99, hm, h99,
               review);
    }
    for (int k = 0; k < KINDS; k++)
        for (int m = 0; m < 3; m++)
            free(t[k][m]);
    return 0;
}
