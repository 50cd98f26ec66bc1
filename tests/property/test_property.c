/*
 * test_property.c — the property test of libporrazo, in the spirit of
 * OpenSpiel's random simulation test. It plays thousands of random games
 * (2 to 8 players, random valid options, targets, dealers, starting scores
 * and packs) through the public API only, choosing uniformly among
 * pz_legal_actions(-1), and at every step checks what porrazo.h promises:
 * the 52 cards conserved, save -> restore -> save byte-identical (the game
 * then goes on from the restored copy), every listed action accepted by a
 * clone, a sample of unlisted actions of every kind refused with the game
 * byte-for-byte untouched, score events adding up to the scores, views that
 * hold no other player's card, a finished game refusing everything with
 * game_over, and the same set-up and actions giving the same game.
 *
 * It is not a rule test: it knows no rule beyond what the header states, so
 * it finds crashes, leaks between seats and broken contracts, not wrong
 * scores (those are the scenarios' job). The randomness is the test's own
 * SplitMix64, never rand(). A failure prints the game's set-up and actions
 * as a REPLAY.md scenario. `test_property [GAMES [SEED]]`, or the variables
 * PZ_PROPERTY_GAMES and PZ_PROPERTY_SEED, change the count and the seed.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prop.h"

#define PROP_DEFAULT_GAMES 10000L
#define PROP_DEFAULT_SEED 0x706f7272617a6fULL /* "porrazo" */
#define PROP_SAME_SEED_GAMES 20               /* games played twice by the seed test */
#define PROP_MAX_STEPS 20000                  /* a game longer than this fails */

static long opt_games = PROP_DEFAULT_GAMES;
static uint64_t opt_seed = PROP_DEFAULT_SEED;

/* Documented in prop.h. */
void prop_rng_pack(prop_rng *r, pz_card pack[PZ_CARDS])
{
    for (int i = 0; i < PZ_CARDS; i++)
        pack[i] = (pz_card)i;
    for (int i = PZ_CARDS - 1; i > 0; i--) {
        int j = prop_rng_below(r, i + 1);
        pz_card t = pack[i];
        pack[i] = pack[j];
        pack[j] = t;
    }
}

/* ------------------------------------------------------------------------ */
/* Random set-ups                                                           */

/* A target: mostly small so games end soon, some the default 61. */
static int random_target(prop_rng *r)
{
    int roll = prop_rng_below(r, 100);
    if (roll < 12)
        return 61;
    if (roll < 16)
        return 62 + prop_rng_below(r, 40);
    if (roll < 30)
        return 21 + prop_rng_below(r, 40);
    return 1 + prop_rng_below(r, 20);
}

/* Random options valid for `players` (R9): every option varies. */
static void random_options(prop_rng *r, int players, pz_options *o)
{
    pz_options_default(o);
    o->target = random_target(r);
    o->wrap = prop_rng_below(r, 2) != 0;
    o->declarations = (pz_declarations)prop_rng_below(r, 3);
    o->tendido = (pz_tendido_mode)prop_rng_below(r, 2);
    o->odd_leftover = (pz_leftover_mode)prop_rng_below(r, 2);
    o->final_sweep = (pz_sweep_mode)prop_rng_below(r, 2);
    o->partnerships = players >= 4 && players % 2 == 0 && prop_rng_below(r, 2) != 0;
    int sides = o->partnerships ? players / 2 : players;
    o->card_score =
        sides == 2 && prop_rng_below(r, 2) != 0 ? PZ_CARD_SCORE_EXCESS26 : PZ_CARD_SCORE_DIFFERENCE;
}

/* Fills c->rec with a random set-up and no actions. */
static void random_setup(prop_ctx *c)
{
    pz_setup *s = &c->rec.setup;
    prop_rng *r = &c->rng;
    pz_setup_default(s);
    s->players = PZ_MIN_PLAYERS + prop_rng_below(r, PZ_MAX_PLAYERS - 1);
    random_options(r, s->players, &s->options);
    s->dealer = prop_rng_below(r, 5) == 0 ? -1 : prop_rng_below(r, s->players);
    s->seed = prop_rng_next(r);
    s->has_scores = prop_rng_below(r, 4) == 0;
    for (int i = 0; i < PZ_MAX_SIDES; i++)
        s->scores[i] = s->has_scores ? prop_rng_below(r, s->options.target) : 0;
    c->rec.has_pack = prop_rng_below(r, 5) == 0;
    if (c->rec.has_pack)
        prop_rng_pack(r, c->rec.pack);
    s->pack = c->rec.has_pack ? c->rec.pack : NULL;
    c->rec.nsteps = 0;
}

/* Appends a step to the record and returns it (aborts when out of memory). */
static prop_step *record_step(prop_ctx *c, const pz_action *a)
{
    prop_game *rec = &c->rec;
    if (rec->nsteps == rec->cap) {
        size_t cap = rec->cap ? rec->cap * 2 : 256;
        prop_step *p = realloc(rec->steps, cap * sizeof *p);
        assert_non_null(p);
        rec->steps = p;
        rec->cap = cap;
    }
    prop_step *st = &rec->steps[rec->nsteps++];
    st->a = *a;
    st->a.pack = NULL;
    st->has_pack = false;
    return st;
}

/* ------------------------------------------------------------------------ */
/* Playing                                                                  */

/* Creates the game of c->rec's set-up (events into c->ev when ev). */
static pz_game *create_game(prop_ctx *c, pz_events *ev)
{
    char why[PZ_WHY_MAX] = "";
    pz_game *g = NULL;
    const pz_setup *s = &c->rec.setup;
    PROP_CHECK(c, pz_options_check(&s->options, s->players, why, sizeof why) == 0,
               "valid options refused: %s", why);
    if (ev != NULL)
        ev->n = 0;
    int rc = pz_new(&g, s, ev, why, sizeof why);
    PROP_CHECK(c, rc == 0 && g != NULL, "pz_new refused: %s", why);
    return g;
}

/* Chooses a listed action at random (a next_hand may bring a pack). */
static void choose_and_apply(prop_ctx *c, pz_game *g)
{
    char why[PZ_WHY_MAX] = "";
    pz_action a = c->legal[prop_rng_below(&c->rng, c->nlegal)];
    prop_step *st = record_step(c, &a);
    if (a.kind == PZ_ACT_NEXT_HAND && prop_rng_below(&c->rng, 3) == 0) {
        prop_rng_pack(&c->rng, st->pack);
        st->has_pack = true;
        a.pack = st->pack;
    }
    c->ev.n = 0;
    int rc = pz_apply(g, &a, &c->ev, why, sizeof why);
    PROP_CHECK_ACTION(c, &a, rc == 0, why);
    prop_check_events(c, g, &c->ev);
    c->st.applied[a.kind]++;
}

/* (e) The recorded actions replayed on a new game give the final save. */
static void check_replay(prop_ctx *c)
{
    char why[PZ_WHY_MAX] = "", doc[PZ_SAVE_MAX];
    pz_game *g = create_game(c, NULL);
    for (size_t i = 0; i < c->rec.nsteps; i++) {
        pz_action a = c->rec.steps[i].a;
        if (c->rec.steps[i].has_pack)
            a.pack = c->rec.steps[i].pack;
        int rc = pz_apply(g, &a, NULL, why, sizeof why);
        PROP_CHECK(c, rc == 0, "replay: action %zu refused: %s", i, why);
    }
    int len = pz_save(g, doc, sizeof doc);
    PROP_CHECK(c, len == c->doclen && memcmp(doc, c->doc, (size_t)len) == 0,
               "replay ends elsewhere:\n%s\n%s", c->doc, doc);
    pz_free(g);
}

/* Starts game number `index` of the run: its generator and its record. */
static void start_game(prop_ctx *c, long index)
{
    c->game_index = index;
    c->rng.s = c->seed ^ ((uint64_t)index * 0xd1b54a32d192ed03ULL);
    prop_rng_pack(&c->rng, c->good_pack);
    random_setup(c);
    c->winner_event = -1;
    c->end_reason = -1;
    const pz_setup *s = &c->rec.setup;
    for (int i = 0; i < PZ_MAX_SIDES; i++)
        c->score[i] = s->has_scores ? s->scores[i] : 0;
}

/* Plays game number `index` to its end, checking every step. */
static void play_game(prop_ctx *c, long index)
{
    start_game(c, index);
    pz_game *g = create_game(c, &c->ev);
    prop_check_events(c, g, &c->ev);
    for (;;) {
        PROP_CHECK(c, c->rec.nsteps < PROP_MAX_STEPS, "the game goes on");
        prop_check_cards(c, g);
        prop_check_words(c, g);
        prop_check_views(c, g);
        g = prop_round_trip(c, g);
        prop_list_legal(c, g);
        if (pz_get_phase(g) == PZ_PHASE_GAME_OVER)
            break;
        prop_check_listed_accepted(c, g);
        prop_check_refusals(c, g, PROP_SAMPLE_REFUSALS);
        choose_and_apply(c, g);
    }
    prop_check_finished(c, g);
    pz_free(g);
    check_replay(c);
    c->st.games++;
    c->st.steps += (long)c->rec.nsteps;
    if (c->rec.nsteps > c->st.max_steps)
        c->st.max_steps = c->rec.nsteps;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

/* Monotonic time in seconds. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The property run: the configured number of games (10,000 by default),
 * every invariant at every step; prints what it covered.
 */
static void test_random_games_keep_every_invariant_at_every_step(void **state)
{
    prop_ctx *c = *state;
    double t0 = now_seconds();
    for (long i = 0; i < c->games; i++)
        play_game(c, i);
    const prop_stats *st = &c->st;
    print_message("%ld games (seed %llu), %ld actions, %ld hands, %ld san "
                  "benitos, longest %zu actions, %.1f s\n",
                  st->games, (unsigned long long)c->seed, st->steps, st->hands, st->san_benitos,
                  st->max_steps, now_seconds() - t0);
    print_message("save up to %d bytes, up to %d legal actions, %ld full "
                  "refusal sweeps\n",
                  st->max_doc, st->max_legal, st->full_enumerations);
    for (int k = 0; k < CAT_COUNT; k++)
        print_message("refused %-12s %9ld\n", prop_cat_names[k], st->refused[k]);
    for (int k = 0; k < PROP_KINDS; k++)
        print_message("applied kind %d      %9ld\n", k, st->applied[k]);
}

/*
 * The run above exercised every action kind listed and applied, and every
 * category of unlisted action refused (runs of 1000 games or more).
 */
static void test_every_action_kind_was_applied_and_refused(void **state)
{
    const prop_ctx *c = *state;
    if (c->games < 1000) {
        print_message("skipped: fewer than 1000 games\n");
        return;
    }
    for (int k = 0; k < CAT_COUNT; k++)
        assert_true(c->st.refused[k] > 0);
    for (int k = 0; k < PROP_KINDS; k++)
        assert_true(c->st.applied[k] > 0);
    assert_true(c->st.full_enumerations > 0);
    assert_true(c->st.san_benitos + c->st.hands > 0);
}

/* The same seed gives the same choices, the same actions, the same end. */
static void test_same_seed_gives_the_same_games(void **state)
{
    prop_ctx *c = *state;
    char first[PZ_SAVE_MAX];
    for (long i = 0; i < PROP_SAME_SEED_GAMES; i++) {
        play_game(c, i);
        size_t steps = c->rec.nsteps;
        memcpy(first, c->doc, sizeof first);
        play_game(c, i);
        assert_int_equal(steps, c->rec.nsteps);
        assert_string_equal(first, c->doc);
    }
}

/* Allocates the context shared by the tests; -1 when out of memory. */
static int group_setup(void **state)
{
    prop_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return -1;
    c->games = opt_games;
    c->seed = opt_seed;
    c->game_size = pz_game_size();
    c->snap = malloc(c->game_size);
    if (c->snap == NULL) {
        free(c);
        return -1;
    }
    memset(c->bad_pack, 7, sizeof c->bad_pack); /* 52 times the 2S */
    *state = c;
    return 0;
}

/* Frees the context. */
static int group_teardown(void **state)
{
    prop_ctx *c = *state;
    free(c->rec.steps);
    free(c->snap);
    free(c);
    return 0;
}

/* Parses a whole decimal or 0x number; false when it is not one. */
static bool parse_number(const char *s, unsigned long long *out)
{
    char *end = NULL;
    if (s == NULL || *s == '\0' || *s == '-')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0')
        return false;
    *out = v;
    return true;
}

/* Reads GAMES and SEED from argv, else from the environment. */
static int read_config(int argc, char **argv)
{
    const char *games = argc > 1 ? argv[1] : getenv("PZ_PROPERTY_GAMES");
    const char *seed = argc > 2 ? argv[2] : getenv("PZ_PROPERTY_SEED");
    unsigned long long v;
    if (games != NULL) {
        if (!parse_number(games, &v) || v < 1 || v > 100000000ULL) {
            fprintf(stderr, "test_property: GAMES must be 1..100000000\n");
            return -1;
        }
        opt_games = (long)v;
    }
    if (seed != NULL) {
        if (!parse_number(seed, &v)) {
            fprintf(stderr, "test_property: SEED must be a number\n");
            return -1;
        }
        opt_seed = v;
    }
    return 0;
}

/* `test_property [GAMES [SEED]]`: 0 when every test passes. */
int main(int argc, char **argv)
{
    if (argc > 3 || read_config(argc, argv) != 0) {
        fprintf(stderr, "usage: test_property [GAMES [SEED]]\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_keep_every_invariant_at_every_step),
        cmocka_unit_test(test_every_action_kind_was_applied_and_refused),
        cmocka_unit_test(test_same_seed_gives_the_same_games),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
