/*
 * arena.c — porrazo-arena: plays computer players against each other and
 * measures who wins and how fast they think.
 *
 * `porrazo-arena --a LEVEL --b LEVEL --games N ...` plays N games between
 * two levels through the engine's public API and pzai_decide(), the same
 * entry point the bot uses: each seat sees only its pz_view and the hand's
 * pz_record. Seats alternate between A and B (by side in partnerships),
 * the first dealer rotates with every pair of games, and each deal is
 * played twice (the same game seed with A and B swapped) to cut luck. It
 * prints one line of figures (see usage()). Timing uses the clock; the
 * engine and the players never do (a deadline reaches them as a stop
 * callback). Not here: any rule or any player; the arena only asks,
 * applies and counts.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "porrazo.h"
#include "porrazo_ai.h"

#define ARENA_GAMES_MAX 1000000
#define ARENA_MS_MAX 600000
#define ARENA_ACTIONS_MAX 200000 /* actions in one game before it is called stuck */
#define ARENA_SEAT_ACTS_MAX 8    /* actions one seat may take before the turn moves */
#define ARENA_OPTIONS_MAX 512

/* What the command line asks for. */
typedef struct arena_args {
    pzai_level a, b;
    bool a_hint; /* --a hint: A's seats play pzai_hint's action (the bot's hint) */
    int players;
    int games;
    bool partners;
    int ms;         /* 0: no deadline */
    int iterations; /* 0: each level's default */
    uint64_t seed;
    pz_options options;
    bool verbose;
} arena_args;

/* Decision times in milliseconds, a growing array. */
typedef struct arena_times {
    double *ms;
    size_t n, cap;
} arena_times;

/* What the games gave. */
typedef struct arena_tally {
    int games;
    int a_wins;
    double margin_sum;
    long illegal;
    arena_times times;
} arena_tally;

/* One game's seats: which belong to A. */
typedef struct arena_seats {
    bool is_a[PZ_MAX_PLAYERS];
} arena_seats;

/* The deadline of one decision, for pzai_budget.stop. */
typedef struct arena_deadline {
    struct timespec at;
} arena_deadline;

static const char usage_text[] =
    "usage: porrazo-arena --a LEVEL --b LEVEL [--players N] [--games N] [--partners]\n"
    "                     [--ms MS] [--iterations K] [--seed S] [--options 'name=value,...']\n"
    "                     [--verbose]\n"
    "\n"
    "Plays N games of Porrazo between two computer levels (beginner, greedy, expert,\n"
    "strong) through pzai_decide(), the entry point the bot uses.\n"
    "\n"
    "  --a, --b LEVEL   the two levels; A is the level under test. --a hint: A's seats\n"
    "                   play every hint the bot would give them (pzai_hint), a learner\n"
    "                   who follows each one\n"
    "  --players N      2..8 players (default 2); seats alternate A, B, A, ...\n"
    "  --games N        games to play (default 100); they come in pairs: each game seed\n"
    "                   is played twice with A and B swapped (an odd N plays the first\n"
    "                   game of the last pair only); the first dealer rotates by pair\n"
    "  --partners       partnerships (even N >= 4): side 0 is A's, side 1 B's, ...\n"
    "  --ms MS          a deadline per decision, given to the players as budget.stop;\n"
    "                   searching levels then think until it (or --iterations) passes\n"
    "  --iterations K   the search budget (default 0: each level's own default)\n"
    "  --seed S         the first game seed (default 1); the same seed and an\n"
    "                   iteration budget (no --ms) give the same games\n"
    "  --options LIST   rule options as name=value pairs separated by commas or spaces\n"
    "                   (target=61,declarations=manual,...; see RULES.md R9)\n"
    "  --verbose        one line per game on standard error\n"
    "  --help           this text\n"
    "\n"
    "Prints one line:\n"
    "  a_win_rate=W ci95_low=L ci95_high=H mean_margin=M ms_per_move_median=T\n"
    "  ms_per_move_p99=P illegal=I games=N\n"
    "W is the share of games won by A's seats, with its 95% Wilson interval; M is A's\n"
    "final score minus B's (the mean of each one's sides), averaged over the games; T and\n"
    "P are the median and 99th percentile of the time of A's decisions only (each\n"
    "pzai_decide() call of an A seat that returned an action, CLOCK_MONOTONIC). An\n"
    "illegal action (refused by the engine) is counted and reported, the seat's default\n"
    "action is played instead, and the exit status is 1. Exit status 2: bad arguments.\n";

/* Prints the usage error msg (with arg) and the hint; returns 2. */
static int arena_bad(const char *msg, const char *arg)
{
    fprintf(stderr, "porrazo-arena: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "porrazo-arena: see porrazo-arena --help\n");
    return 2;
}

/* Parses a decimal integer in [lo, hi] that is the whole of s; 0 or -1. */
static int arena_parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s)
        return -1;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Parses an unsigned 64-bit decimal that is the whole of s; 0 or -1. */
static int arena_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || end == s)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/*
 * Applies "name=value" pairs separated by commas or spaces to *o. Returns
 * 0, or 2 after printing what is wrong.
 */
static int arena_parse_options(const char *list, pz_options *o)
{
    char buf[ARENA_OPTIONS_MAX];
    size_t len = strlen(list);
    if (len >= sizeof buf)
        return arena_bad("--options is too long", NULL);
    memcpy(buf, list, len + 1);
    char *p = buf;
    while (*p) {
        while (*p == ',' || *p == ' ')
            p++;
        if (!*p)
            break;
        char *item = p;
        while (*p && *p != ',' && *p != ' ')
            p++;
        if (*p)
            *p++ = '\0';
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1])
            return arena_bad("an option must be name=value", item);
        *eq = '\0';
        char why[PZ_WHY_MAX];
        if (pz_options_set(o, item, eq + 1, why, sizeof why) != 0)
            return arena_bad(why, NULL);
    }
    return 0;
}

/* The value of option argv[*i], moving *i past it; NULL when it is missing. */
static const char *arena_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/*
 * Reads the command line into *a. Returns 0 to play, 1 when --help was
 * printed, or 2 after printing what is wrong.
 */
static int arena_parse_args(int argc, char **argv, arena_args *a)
{
    memset(a, 0, sizeof *a);
    a->players = 2;
    a->games = 100;
    a->seed = 1;
    pz_options_default(&a->options);
    bool have_a = false, have_b = false;
    const char *options = NULL;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        long v = 0;
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            fputs(usage_text, stdout);
            return 1;
        } else if (!strcmp(opt, "--partners")) {
            a->partners = true;
        } else if (!strcmp(opt, "--verbose")) {
            a->verbose = true;
        } else if (!strcmp(opt, "--a") || !strcmp(opt, "--b")) {
            const char *s = arena_value(argc, argv, &i);
            pzai_level *lv = opt[2] == 'a' ? &a->a : &a->b;
            if (!s)
                return arena_bad("a level is missing after", opt);
            if (opt[2] == 'a')
                a->a_hint = strcmp(s, "hint") == 0;
            if (opt[2] == 'a' && a->a_hint)
                *lv = PZAI_STRONG;
            else if (pzai_level_parse(s, lv) != 0)
                return arena_bad("unknown level (beginner, greedy, expert, strong)", s);
            *(opt[2] == 'a' ? &have_a : &have_b) = true;
        } else if (!strcmp(opt, "--players")) {
            if (arena_parse_int(arena_value(argc, argv, &i), PZ_MIN_PLAYERS, PZ_MAX_PLAYERS, &v) !=
                0)
                return arena_bad("--players takes a number from 2 to 8", NULL);
            a->players = (int)v;
        } else if (!strcmp(opt, "--games")) {
            if (arena_parse_int(arena_value(argc, argv, &i), 1, ARENA_GAMES_MAX, &v) != 0)
                return arena_bad("--games takes a number from 1 to 1000000", NULL);
            a->games = (int)v;
        } else if (!strcmp(opt, "--ms")) {
            if (arena_parse_int(arena_value(argc, argv, &i), 1, ARENA_MS_MAX, &v) != 0)
                return arena_bad("--ms takes a number of milliseconds from 1 to 600000", NULL);
            a->ms = (int)v;
        } else if (!strcmp(opt, "--iterations")) {
            if (arena_parse_int(arena_value(argc, argv, &i), 0, INT_MAX / 2, &v) != 0)
                return arena_bad("--iterations takes a number from 0 (the default) up", NULL);
            a->iterations = (int)v;
        } else if (!strcmp(opt, "--seed")) {
            if (arena_parse_u64(arena_value(argc, argv, &i), &a->seed) != 0)
                return arena_bad("--seed takes a number from 0 to 2^64-1", NULL);
        } else if (!strcmp(opt, "--options")) {
            options = arena_value(argc, argv, &i);
            if (!options)
                return arena_bad("a list is missing after --options", NULL);
        } else {
            return arena_bad("unknown argument", opt);
        }
    }
    if (!have_a || !have_b)
        return arena_bad("both --a and --b are required", NULL);
    if (options && arena_parse_options(options, &a->options) != 0)
        return 2;
    if (a->partners)
        a->options.partnerships = true;
    char why[PZ_WHY_MAX];
    if (pz_options_check(&a->options, a->players, why, sizeof why) != 0)
        return arena_bad(why, NULL);
    return 0;
}

/* Milliseconds from t0 to t1. */
static double arena_ms_between(const struct timespec *t0, const struct timespec *t1)
{
    return (double)(t1->tv_sec - t0->tv_sec) * 1e3 + (double)(t1->tv_nsec - t0->tv_nsec) / 1e6;
}

/* budget.stop: non-zero once the deadline in arg (an arena_deadline) is past. */
static int arena_past_deadline(void *arg)
{
    const arena_deadline *d = arg;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > d->at.tv_sec ||
           (now.tv_sec == d->at.tv_sec && now.tv_nsec >= d->at.tv_nsec);
}

/* Appends one time; -1 when memory runs out. */
static int arena_times_add(arena_times *t, double ms)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        double *p = realloc(t->ms, cap * sizeof *p);
        if (!p)
            return -1;
        t->ms = p;
        t->cap = cap;
    }
    t->ms[t->n++] = ms;
    return 0;
}

/* qsort order of doubles. */
static int arena_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The q-quantile (0..1) of the sorted times, nearest rank; 0 when empty. */
static double arena_quantile(const arena_times *t, double q)
{
    if (t->n == 0)
        return 0;
    size_t rank = (size_t)ceil(q * (double)t->n);
    if (rank < 1)
        rank = 1;
    return t->ms[rank - 1];
}

/* A 64-bit mix of x (SplitMix64's finaliser), for seeds. */
static uint64_t arena_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Writes a short description of action act into buf, for messages. */
static void arena_describe(const pz_action *act, char *buf, size_t cap)
{
    char card[3];
    pz_card_format(act->card, card);
    int n = 0;
    switch (act->kind) {
    case PZ_ACT_PLAY:
        n = snprintf(buf, cap, "seat %d plays %s %s", act->seat, card, pz_mode_name(act->mode));
        break;
    case PZ_ACT_TENDIDO:
        n = snprintf(buf, cap, "seat %d tendido %s", act->seat, act->now ? "now" : "later");
        break;
    case PZ_ACT_ARRANGE:
        n = snprintf(buf, cap, "seat %d arranges%s", act->seat, act->best ? " best" : "");
        break;
    case PZ_ACT_DECLARE:
        n = snprintf(buf, cap, "seat %d declares", act->seat);
        break;
    case PZ_ACT_CLAIM:
        n = snprintf(buf, cap, "seat %d claims on seat %d", act->seat, act->claimed);
        break;
    case PZ_ACT_NEXT_HAND:
        n = snprintf(buf, cap, "next hand");
        break;
    }
    if (n < 0 || (size_t)n >= cap)
        snprintf(buf, cap, "an action");
}

/* One game being played and what it needs to ask its players. */
typedef struct arena_game {
    const arena_args *args;
    pz_game *g;
    arena_seats seats;
    uint64_t seed;
    uint64_t decisions; /* pzai_decide calls so far, for their seeds */
    arena_tally *tally;
} arena_game;

/*
 * Asks seat's level for its action and applies it. Returns 1 when an
 * action was applied (the player's, or the seat's default after an
 * illegal one), 0 when the player had nothing to do, -1 when memory runs
 * out or the engine fails in a way no player can cause.
 */
static int arena_ask(arena_game *ag, int seat)
{
    const arena_args *args = ag->args;
    bool is_a = ag->seats.is_a[seat];
    pz_view v;
    pz_record r;
    if (pz_view_seat(ag->g, seat, &v) != 0 || pz_public_record(ag->g, &r) != 0)
        return -1;
    arena_deadline dl;
    pzai_budget budget = {.iterations = args->iterations};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (args->ms) {
        dl.at = t0;
        dl.at.tv_sec += args->ms / 1000;
        dl.at.tv_nsec += (long)(args->ms % 1000) * 1000000L;
        if (dl.at.tv_nsec >= 1000000000L) {
            dl.at.tv_sec++;
            dl.at.tv_nsec -= 1000000000L;
        }
        budget.stop = arena_past_deadline;
        budget.stop_arg = &dl;
        if (!args->iterations)
            budget.iterations = INT_MAX / 2;
    }
    pz_action act;
    uint64_t seed = arena_mix(ag->seed ^ arena_mix(++ag->decisions));
    int rc;
    if (is_a && args->a_hint) {
        pzai_why why;
        rc = pzai_hint(&v, &r, seed, &budget, &act, &why);
    } else {
        rc = pzai_decide(&v, &r, is_a ? args->a : args->b, seed, &budget, &act);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    bool is_turn = seat == pz_get_turn(ag->g);
    if (rc == 0 && !is_turn)
        return 0;
    if (rc == 1 && is_a && arena_times_add(&ag->tally->times, arena_ms_between(&t0, &t1)) != 0)
        return -1;
    char why[PZ_WHY_MAX] = "";
    if (rc == 1 && pz_apply(ag->g, &act, NULL, why, sizeof why) == 0)
        return 1;
    char what[96];
    if (rc == 1)
        arena_describe(&act, what, sizeof what);
    else
        snprintf(what, sizeof what, "seat %d: pzai_decide() returned %d", seat, rc);
    ag->tally->illegal++;
    fprintf(stderr, "porrazo-arena: illegal: game seed %" PRIu64 ", %s (%s): %s\n", ag->seed, what,
            pzai_level_name(is_a ? args->a : args->b), why[0] ? why : "refused");
    if (!is_turn || pz_default_action(ag->g, seat, &act) != 0)
        return 0;
    return pz_apply(ag->g, &act, NULL, NULL, 0) == 0 ? 1 : -1;
}

/*
 * In manual mode, lets every seat but skip declare or claim what it
 * wants, in turn order from skip's left. Returns 0 or -1 as arena_ask.
 */
static int arena_poll_others(arena_game *ag, int skip)
{
    if (ag->args->options.declarations != PZ_DECL_MANUAL)
        return 0;
    int n = ag->args->players;
    for (int k = 1; k <= n; k++) {
        int seat = ((skip < 0 ? 0 : skip) + k) % n;
        if (seat == skip)
            continue;
        for (int tries = 0; tries < ARENA_SEAT_ACTS_MAX; tries++) {
            int rc = arena_ask(ag, seat);
            if (rc < 0)
                return -1;
            if (rc == 0)
                break;
        }
    }
    return 0;
}

/*
 * One step of the game: the others' declarations and claims, then the
 * turn seat's actions until the turn moves (or the next hand is dealt).
 * Returns 0 or -1.
 */
static int arena_step(arena_game *ag)
{
    int turn = pz_get_turn(ag->g);
    if (arena_poll_others(ag, turn) != 0)
        return -1;
    /* read after the others: a claim at the hand's end may have won the game */
    pz_phase phase = pz_get_phase(ag->g);
    turn = pz_get_turn(ag->g);
    if (phase == PZ_PHASE_GAME_OVER)
        return 0;
    if (phase == PZ_PHASE_HAND_OVER) {
        pz_action next = pz_act_next_hand(NULL);
        return pz_apply(ag->g, &next, NULL, NULL, 0) == 0 ? 0 : -1;
    }
    for (int tries = 0; tries < ARENA_SEAT_ACTS_MAX; tries++) {
        int rc = arena_ask(ag, turn);
        if (rc < 0)
            return -1;
        if (pz_get_turn(ag->g) != turn || pz_get_phase(ag->g) != phase)
            return 0;
    }
    /* A seat that only declares and never plays: its default moves on. */
    pz_action act;
    ag->tally->illegal++;
    fprintf(stderr, "porrazo-arena: illegal: game seed %" PRIu64 ", seat %d did not play\n",
            ag->seed, turn);
    if (pz_default_action(ag->g, turn, &act) != 0)
        return -1;
    return pz_apply(ag->g, &act, NULL, NULL, 0) == 0 ? 0 : -1;
}

/* A hash of the first hand as dealt (the DEAL events), to show mirrored deals. */
static uint64_t arena_deal_hash(const pz_events *ev)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (int i = 0; i < ev->n; i++) {
        const pz_event *e = &ev->ev[i];
        if (e->kind != PZ_EV_DEAL && e->kind != PZ_EV_LEFTOVER)
            continue;
        for (int c = 0; c < e->ncards; c++)
            h = (h ^ (uint64_t)e->cards[c] ^ ((uint64_t)(uint8_t)e->card_seat[c] << 8)) *
                0x100000001B3ull;
    }
    return h;
}

/*
 * Plays game number index (0-based): pair index / 2, A and B swapped in
 * the odd game of a pair. Adds its result to *t. Returns 0, or -1 after
 * printing why when the game cannot be played to its end.
 */
static int arena_play(const arena_args *args, int index, arena_tally *t)
{
    int pair = index / 2;
    bool swapped = index % 2;
    pz_setup s;
    pz_setup_default(&s);
    s.players = args->players;
    s.options = args->options;
    s.dealer = pair % args->players;
    s.seed = arena_mix(args->seed + (uint64_t)pair);
    arena_game ag = {.args = args, .seed = s.seed, .tally = t};
    pz_events ev = {.n = 0};
    char why[PZ_WHY_MAX];
    if (pz_new(&ag.g, &s, &ev, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-arena: cannot start a game: %s\n", why);
        return -1;
    }
    for (int seat = 0; seat < args->players; seat++)
        ag.seats.is_a[seat] = (pz_side_of(ag.g, seat) % 2 == 0) != swapped;
    long steps = 0;
    while (pz_get_phase(ag.g) != PZ_PHASE_GAME_OVER) {
        if (++steps > ARENA_ACTIONS_MAX || arena_step(&ag) != 0) {
            fprintf(stderr, "porrazo-arena: game seed %" PRIu64 " %s\n", s.seed,
                    steps > ARENA_ACTIONS_MAX ? "does not end" : "failed (out of memory?)");
            pz_free(ag.g);
            return -1;
        }
    }
    int winner = pz_get_winner(ag.g), sides = pz_get_sides(ag.g);
    double sum[2] = {0, 0};
    int count[2] = {0, 0};
    for (int side = 0; side < sides; side++) {
        int who = (side % 2 == 0) != swapped ? 0 : 1;
        sum[who] += pz_get_score(ag.g, side);
        count[who]++;
    }
    bool a_won = winner >= 0 && (winner % 2 == 0) != swapped;
    double margin = sum[0] / (count[0] ? count[0] : 1) - sum[1] / (count[1] ? count[1] : 1);
    t->games++;
    t->a_wins += a_won;
    t->margin_sum += margin;
    if (args->verbose) {
        fprintf(stderr,
                "game=%d seed=%" PRIu64 " deal=%016" PRIx64 " dealer=%d a_seats=", index + 1,
                s.seed, arena_deal_hash(&ev), s.dealer);
        for (int seat = 0; seat < args->players; seat++)
            fputc(ag.seats.is_a[seat] ? 'A' : 'B', stderr);
        fprintf(stderr, " winner=%s margin=%.0f\n", a_won ? "A" : "B", margin);
    }
    pz_free(ag.g);
    return 0;
}

/* The 95% Wilson score interval of wins out of n. */
static void arena_wilson(int wins, int n, double *lo, double *hi)
{
    const double z = 1.959963984540054;
    double p = (double)wins / n, z2 = z * z / n;
    double centre = (p + z2 / 2) / (1 + z2);
    double half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / (1 + z2);
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
}

/* Runs the games and prints the line; the exit status. */
int main(int argc, char **argv)
{
    arena_args args;
    int rc = arena_parse_args(argc, argv, &args);
    if (rc)
        return rc == 1 ? 0 : 2;
    arena_tally t = {0};
    for (int i = 0; i < args.games; i++) {
        if (arena_play(&args, i, &t) != 0) {
            free(t.times.ms);
            return 1;
        }
    }
    qsort(t.times.ms, t.times.n, sizeof *t.times.ms, arena_cmp_double);
    double lo, hi;
    arena_wilson(t.a_wins, t.games, &lo, &hi);
    printf("a_win_rate=%.4f ci95_low=%.4f ci95_high=%.4f mean_margin=%.2f "
           "ms_per_move_median=%.3f ms_per_move_p99=%.3f illegal=%ld games=%d\n",
           (double)t.a_wins / t.games, lo, hi, t.margin_sum / t.games,
           arena_quantile(&t.times, 0.5), arena_quantile(&t.times, 0.99), t.illegal, t.games);
    free(t.times.ms);
    if (fflush(stdout) != 0)
        return 1;
    return t.illegal > 0 ? 1 : 0;
}
