/*
 * test_ai.c — pzai_decide() for every level (engine/ai/porrazo_ai.h):
 * - the leak test: two games that differ only in the cards a seat cannot
 *   see (re-dealt among the other hands and the stock, counts kept) give
 *   that seat the same view, the same record and, for every level with the
 *   same seed and iteration budget, the same action;
 * - the property test: random games (2 to 8 players, partnerships, every
 *   option) with random levels at random seats: every action a player
 *   returns is accepted by pz_apply(), every game ends within a bound, and
 *   a player says 0 only when the rules give its seat nothing to do;
 * - the level names, refused inputs, and the same answer for the same seed.
 *
 * PZ_AI_TEST_SCALE scales the loop counts (0.1 under valgrind and the
 * sanitizers); strong searches with a small iteration budget here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "ai_test.h"
#include "game.h" /* to re-deal the hidden cards of a real game */
#include "porrazo_ai.h"

#define STRONG_ITERATIONS 24 /* small: the test checks behaviour, not strength */
#define MAX_STEPS 20000      /* actions in one game, at most */

static const pzai_budget BUDGET = {STRONG_ITERATIONS, NULL, NULL};

/* ------------------------------------------------------------------------ */
/* The leak test                                                            */

static void test_no_level_decides_on_cards_its_seat_cannot_see(void **state)
{
    (void)state;
    uint64_t rng = 21;
    long compared = 0, acted = 0;
    for (int i = 0; i < at_scaled(300); i++) {
        pz_setup s;
        at_random_setup(&rng, 0, &s);
        pz_game *g = at_new_game(&s);
        if (!at_random_steps(g, &rng, 250)) {
            pz_free(g);
            continue;
        }
        int turn = pz_get_turn(g);
        int seat = turn >= 0 && at_below(&rng, 4) != 0 ? turn : at_below(&rng, g->players);
        pz_game *h = at_redeal_hidden(g, seat, &rng);
        pz_view v1, v2;
        pz_record r1, r2;
        assert_int_equal(pz_view_seat(g, seat, &v1), 0);
        assert_int_equal(pz_view_seat(h, seat, &v2), 0);
        assert_int_equal(pz_public_record(g, &r1), 0);
        assert_int_equal(pz_public_record(h, &r2), 0);
        assert_memory_equal(&v1, &v2, sizeof v1); /* the view shows no hidden card */
        assert_memory_equal(&r1, &r2, sizeof r1); /* nor does the record */
        uint64_t seed = at_next(&rng);
        for (int level = 0; level < PZAI_LEVELS; level++) {
            pz_action a1, a2;
            memset(&a1, 0, sizeof a1);
            memset(&a2, 0, sizeof a2);
            int rc1 = pzai_decide(&v1, &r1, (pzai_level)level, seed, &BUDGET, &a1);
            int rc2 = pzai_decide(&v2, &r2, (pzai_level)level, seed, &BUDGET, &a2);
            assert_int_equal(rc1, rc2);
            assert_true(rc1 == 0 || rc1 == 1);
            compared++;
            if (rc1 == 1) {
                acted++;
                if (!at_same_action(&a1, &a2))
                    fail_msg("level %s decided differently on re-dealt hidden cards",
                             pzai_level_name((pzai_level)level));
                pz_game *k = pz_clone(g);
                char why[PZ_WHY_MAX] = "";
                if (pz_apply(k, &a1, NULL, why, sizeof why) != 0)
                    fail_msg("level %s chose a refused action: %s",
                             pzai_level_name((pzai_level)level), why);
                pz_free(k);
            }
        }
        pz_free(h);
        pz_free(g);
    }
    assert_true(acted > 0 && compared > acted);
}

/* ------------------------------------------------------------------------ */
/* The property test                                                        */

/* What the players chose, for coverage: by action kind, plus plays by
   mode and tendido choices by "now". */
typedef struct tally {
    long kind[PZ_ACT_NEXT_HAND + 1], mode[PZ_MODE_LAY + 1], now[2];
} tally;

/* One seat's turn to be asked: 1 when it acted (and pz_apply accepted). */
static int ask(pz_game *g, int seat, pzai_level level, uint64_t seed, tally *t)
{
    pz_view v;
    pz_record r;
    pz_action a, legal[PZ_LEGAL_MAX];
    char why[PZ_WHY_MAX] = "";
    assert_int_equal(pz_view_seat(g, seat, &v), 0);
    assert_int_equal(pz_public_record(g, &r), 0);
    int rc = pzai_decide(&v, &r, level, seed, &BUDGET, &a);
    if (rc < 0)
        fail_msg("level %s refused a real view: %s", pzai_level_name(level), pz_err_name(rc));
    if (rc == 0) {
        /* Nothing to do: the rules list nothing for this seat either. */
        if (pz_legal_actions(g, seat, legal, PZ_LEGAL_MAX) != 0)
            fail_msg("level %s said 0 for seat %d, which has %d things to do (first kind %d)",
                     pzai_level_name(level), seat, pz_legal_actions(g, seat, legal, PZ_LEGAL_MAX),
                     legal[0].kind);
        return 0;
    }
    assert_int_equal(rc, 1);
    assert_int_equal(a.seat, seat);
    if (pz_apply(g, &a, NULL, why, sizeof why) != 0)
        fail_msg("level %s chose an action the engine refused: %s", pzai_level_name(level), why);
    t->kind[a.kind]++;
    if (a.kind == PZ_ACT_PLAY)
        t->mode[a.mode]++;
    if (a.kind == PZ_ACT_TENDIDO)
        t->now[a.now]++;
    return 1;
}

/* Plays one game of random levels to its end; returns the actions taken. */
static int play_game(uint64_t *rng, int players, tally *t)
{
    pz_setup s;
    at_random_setup(rng, players, &s);
    pz_game *g = at_new_game(&s);
    pzai_level level[PZ_MAX_PLAYERS];
    for (int p = 0; p < s.players; p++)
        level[p] = (pzai_level)at_below(rng, PZAI_LEVELS);
    int steps = 0;
    while (pz_get_phase(g) != PZ_PHASE_GAME_OVER) {
        if (++steps > MAX_STEPS)
            fail_msg("a game of %d players did not end in %d actions", s.players, MAX_STEPS);
        int first = at_below(rng, s.players), acted = 0;
        for (int k = 0; k < s.players && !acted; k++) {
            int seat = (first + k) % s.players;
            acted = ask(g, seat, level[seat], at_next(rng), t);
        }
        if (acted)
            continue;
        /* Nobody had anything to do: only between hands. */
        assert_int_equal(pz_get_phase(g), PZ_PHASE_HAND_OVER);
        pz_action next = pz_act_next_hand(NULL);
        assert_int_equal(pz_apply(g, &next, NULL, NULL, 0), 0);
    }
    pz_free(g);
    return steps;
}

static void test_every_level_plays_only_legal_actions_and_every_game_ends(void **state)
{
    (void)state;
    uint64_t rng = 22;
    long steps = 0;
    tally t = {{0}, {0}, {0}};
    for (int i = 0; i < at_scaled(120); i++)
        steps += play_game(&rng, 2 + i % 7, &t);
    assert_true(steps > 0);
    if (at_scaled(120) < 120)
        return; /* a short run need not cover everything */
    /* Every decision kind was made: plays captured, placed and laid, the
       tendido taken now and later, arranged, declared, claimed. */
    for (int k = PZ_ACT_PLAY; k <= PZ_ACT_CLAIM; k++)
        assert_true(t.kind[k] > 0);
    assert_true(t.mode[PZ_MODE_CAPTURE] > 0 && t.mode[PZ_MODE_PLACE] > 0);
    assert_true(t.now[0] > 0 && t.now[1] > 0);
}

/* ------------------------------------------------------------------------ */
/* Names, inputs, determinism                                               */

static void test_level_names_read_back(void **state)
{
    (void)state;
    pzai_level l;
    for (int i = 0; i < PZAI_LEVELS; i++) {
        assert_int_equal(pzai_level_parse(pzai_level_name((pzai_level)i), &l), 0);
        assert_int_equal(l, i);
    }
    assert_int_equal(pzai_level_parse("StRoNg", &l), 0);
    assert_int_equal(l, PZAI_STRONG);
    assert_int_equal(pzai_level_parse("strongest", &l), -1);
    assert_int_equal(pzai_level_parse("", &l), -1);
    assert_int_equal(pzai_level_parse(NULL, &l), -1);
    assert_string_equal(pzai_level_name(PZAI_LEVELS), "unknown");
}

static void test_inputs_that_are_not_a_seat_view_are_refused(void **state)
{
    (void)state;
    uint64_t rng = 23;
    pz_setup s;
    at_random_setup(&rng, 3, &s);
    pz_game *g = at_new_game(&s);
    pz_view v;
    pz_record r;
    pz_action a;
    assert_int_equal(pz_view_seat(g, 0, &v), 0);
    assert_int_equal(pz_public_record(g, &r), 0);
    assert_int_equal(pzai_decide(NULL, &r, PZAI_GREEDY, 1, NULL, &a), PZ_EINVALID_ACTION);
    assert_int_equal(pzai_decide(&v, NULL, PZAI_GREEDY, 1, NULL, &a), PZ_EINVALID_ACTION);
    assert_int_equal(pzai_decide(&v, &r, PZAI_LEVELS, 1, NULL, &a), PZ_EINVALID_ACTION);
    pz_view bad = v;
    bad.seat = 7;
    assert_int_equal(pzai_decide(&bad, &r, PZAI_GREEDY, 1, NULL, &a), PZ_EINVALID_ACTION);
    bad = v;
    bad.table[0] = 99, bad.ntable = bad.ntable > 0 ? bad.ntable : 1;
    assert_int_equal(pzai_decide(&bad, &r, PZAI_GREEDY, 1, NULL, &a), PZ_EINVALID_ACTION);
    pz_record badr = r;
    badr.gone |= UINT64_C(1) << 60;
    assert_int_equal(pzai_decide(&v, &badr, PZAI_GREEDY, 1, NULL, &a), PZ_EINVALID_ACTION);
    bad = v;
    bad.hand_count[1]++; /* counts that do not add up */
    bad.turn = bad.seat, bad.phase = PZ_PHASE_PLAY;
    assert_true(pzai_decide(&bad, &r, PZAI_GREEDY, 1, NULL, &a) < 0);
    pz_free(g);
}

/* Sets one number, card or card set of v or r to a random value (never a
   bool: any other byte there is undefined behaviour, not a damaged input). */
static void damage(pz_view *v, pz_record *r, uint64_t *rng)
{
    int x = (int)(at_next(rng) % 200) - 100, k = at_below(rng, PZ_MAX_PLAYERS);
    pz_card c = (pz_card)at_next(rng);
    switch (at_below(rng, 16)) {
    case 0:
        v->seat = x;
        break;
    case 1:
        v->players = x;
        break;
    case 2:
        v->dealer = x;
        break;
    case 3:
        v->turn = x;
        break;
    case 4:
        v->ntable = x;
        break;
    case 5:
        v->nhand = x;
        break;
    case 6:
        v->hand_count[k] = x;
        break;
    case 7:
        v->stock = x;
        break;
    case 8:
        v->phase = (pz_phase)x;
        break;
    case 9:
        v->table[k] = c;
        break;
    case 10:
        v->hand[k] = c;
        break;
    case 11:
        r->gone ^= at_next(rng);
        break;
    case 12:
        r->played[k] ^= at_next(rng);
        break;
    case 13:
        r->npending = x;
        break;
    case 14:
        r->declared[k] = (uint8_t)x;
        break;
    default:
        r->last_capturer = x;
        break;
    }
}

static void test_damaged_views_and_records_are_refused_or_answered_never_crash(void **state)
{
    (void)state;
    uint64_t rng = 25;
    long refused = 0;
    for (int i = 0; i < at_scaled(300); i++) {
        pz_setup s;
        at_random_setup(&rng, 0, &s);
        pz_game *g = at_new_game(&s);
        at_random_steps(g, &rng, 150);
        int seat = pz_get_turn(g) >= 0 ? pz_get_turn(g) : 0;
        pz_view v;
        pz_record r;
        assert_int_equal(pz_view_seat(g, seat, &v), 0);
        assert_int_equal(pz_public_record(g, &r), 0);
        damage(&v, &r, &rng);
        pz_action a;
        int rc = pzai_decide(&v, &r, (pzai_level)at_below(&rng, PZAI_LEVELS), at_next(&rng),
                             &BUDGET, &a);
        assert_true(rc == 0 || rc == 1 || rc == PZ_EINVALID_ACTION || rc == PZ_EBAD_SETUP);
        refused += rc < 0;
        pz_free(g);
    }
    assert_true(refused > 0);
}

static void test_the_same_seed_gives_the_same_action(void **state)
{
    (void)state;
    uint64_t rng = 24;
    for (int i = 0; i < at_scaled(40); i++) {
        pz_setup s;
        at_random_setup(&rng, 0, &s);
        pz_game *g = at_new_game(&s);
        if (at_random_steps(g, &rng, 200) && pz_get_turn(g) >= 0) {
            pz_view v;
            pz_record r;
            assert_int_equal(pz_view_seat(g, pz_get_turn(g), &v), 0);
            assert_int_equal(pz_public_record(g, &r), 0);
            for (int level = 0; level < PZAI_LEVELS; level++) {
                pz_action a, b;
                memset(&a, 0, sizeof a);
                memset(&b, 0, sizeof b);
                assert_int_equal(pzai_decide(&v, &r, (pzai_level)level, 77, &BUDGET, &a), 1);
                assert_int_equal(pzai_decide(&v, &r, (pzai_level)level, 77, &BUDGET, &b), 1);
                assert_true(at_same_action(&a, &b));
            }
        }
        pz_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_level_names_read_back),
        cmocka_unit_test(test_inputs_that_are_not_a_seat_view_are_refused),
        cmocka_unit_test(test_damaged_views_and_records_are_refused_or_answered_never_crash),
        cmocka_unit_test(test_the_same_seed_gives_the_same_action),
        cmocka_unit_test(test_no_level_decides_on_cards_its_seat_cannot_see),
        cmocka_unit_test(test_every_level_plays_only_legal_actions_and_every_game_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
