/*
 * test_learn.c — learning from the bot at the host's tables (issue 22):
 * a hint is the strong level's choice for the asker's own decision with
 * the same seed (worked out here from the stored game, as the host does),
 * said privately and counted in stats once the game is finished; a room's
 * moderators turn hints off and they are refused there; a practice table
 * explains its computer players' moves to the learner and counts in
 * neither stats nor top; review on sends at most three lines a hand.
 *
 * Every message the host queues is read raw from the store's outbox
 * (learn_table.h): the checks look for plain phrases in them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "learn_table.h"
#include "porrazo_ai.h"

static table *open_table(void)
{
    return open_table_seeded(77);
}

static int count(const table *t, const char *target, const char *s)
{
    return count_from(t, 0, target, s);
}

/* What the hint for seat in g starts with, worked out as the host must:
   the strong level, seat's view, the FNV-1a of the saved game ^ seat << 56. */
static void expected_hint(const pz_game *g, int seat, char *buf, size_t cap)
{
    char doc[PZ_SAVE_MAX], card[8];
    int n = pz_save(g, doc, sizeof doc);
    uint64_t x = UINT64_C(0xcbf29ce484222325);
    for (int i = 0; i < n; i++)
        x = (x ^ (unsigned char)doc[i]) * UINT64_C(0x100000001b3);
    pz_view v;
    pz_record r;
    pz_action a;
    pzai_why why;
    pzai_budget budget = {ITERATIONS, NULL, NULL};
    assert_int_equal(pz_view_seat(g, seat, &v), 0);
    assert_int_equal(pz_public_record(g, &r), 0);
    assert_int_equal(pzai_hint(&v, &r, x ^ ((uint64_t)seat << 56), &budget, &a, &why), 1);
    if (a.kind == PZ_ACT_TENDIDO) {
        snprintf(buf, cap, "Hint in #t: tendido %s", a.now ? "now" : "later");
    } else if (a.kind == PZ_ACT_ARRANGE) {
        snprintf(buf, cap, "Hint in #t: arrange best");
    } else {
        assert_int_equal(a.kind, PZ_ACT_PLAY);
        card_words(a.card, card, sizeof card);
        snprintf(buf, cap, "Hint in #t: %s%s", card,
                 a.mode == PZ_MODE_CAPTURE ? " capture"
                 : a.mode == PZ_MODE_PLACE ? " place"
                                           : "");
    }
}

/* What ann types for the engine's default action at seat. */
static void default_move(table *t, const pz_game *g, int seat)
{
    pz_action a;
    char line[64], card[3];
    assert_int_equal(pz_default_action(g, seat, &a), 0);
    if (a.kind == PZ_ACT_TENDIDO)
        snprintf(line, sizeof line, "!tendido %s", a.now ? "now" : "later");
    else if (a.kind == PZ_ACT_ARRANGE)
        snprintf(line, sizeof line, "!arrange best");
    else {
        pz_card_format(a.card, card);
        snprintf(line, sizeof line, "!play %s%s", card,
                 a.mode == PZ_MODE_CAPTURE ? " capture"
                 : a.mode == PZ_MODE_PLACE ? " place"
                                           : "");
    }
    say(t, "ann", line);
}

/* Plays the room's game to its end, ann at seat 0 asking for a hint at
   each of her decisions when `hints` (checked against the strong level);
   returns the hints checked. */
static int play_out(table *t, bool hints)
{
    int checked = 0;
    for (int step = 0; step < 4000; step++) {
        pz_game *g = game_now(t);
        if (g == NULL)
            return checked;
        if (to_act(g) == 0) {
            if (hints) {
                char want[128];
                expected_hint(g, 0, want, sizeof want);
                int before = t->nmsg;
                say(t, "ann", "!hint");
                if (count_from(t, before, "ann", want) != 1)
                    fail_msg("hint %d: wanted \"%s\", got \"%s\"", checked, want,
                             t->nmsg > before ? t->msg[before].text : "(nothing)");
                checked++;
            }
            default_move(t, g, 0);
        } else {
            tick(t, 1);
        }
        pz_free(g);
    }
    fail_msg("the game did not end in 4000 steps");
    return checked;
}

static void test_a_hint_is_the_strong_level_choice_said_privately_and_counted(void **state)
{
    (void)state;
    table *t = open_table();
    say(t, "ann", "!new 2 bot to 11");
    int checked = play_out(t, true);
    assert_true(checked > 5);
    assert_int_equal(count(t, ROOM, "Hint in"), 0); /* never in the room */
    assert_int_equal(count(t, ROOM, "ann: I answered you privately"), checked);
    say(t, "ann", "!stats");
    char want[64];
    snprintf(want, sizeof want, "%d hints asked for", checked);
    assert_int_equal(count(t, ROOM, want), 1);
    close_table(t);
}

/* Whether seat may declare now in g (a holding, manual declarations, before
   the deal's first card). */
static bool may_declare(const pz_game *g, int seat)
{
    pz_action acts[64];
    int n = pz_legal_actions(g, seat, acts, 64);
    for (int i = 0; i < n; i++)
        if (acts[i].kind == PZ_ACT_DECLARE)
            return true;
    return false;
}

static void test_a_declaration_hint_says_why(void **state)
{
    (void)state;
    int told = 0;
    for (uint64_t seed = 1; seed <= 40 && told < 2; seed++) {
        table *t = open_table_seeded(seed);
        say(t, "ann", "!new 2 bot manual to 11");
        for (int step = 0; step < 20; step++) { /* until ann's first decision */
            pz_game *g = game_now(t);
            bool hers = g != NULL && to_act(g) == 0;
            bool declare = hers && may_declare(g, 0);
            pz_free(g);
            if (!hers) {
                tick(t, 1);
                continue;
            }
            if (declare) {
                int before = t->nmsg;
                say(t, "ann", "!hint");
                if (count_from(t, before, "ann", "Hint in #t: ") != 1)
                    fail_msg("seed %d: no hint", (int)seed);
                /* the strong level declares a holding it has (R3.2): and says why */
                if (count_from(t, before, "ann",
                               "the best holding declared scores when the "
                               "deal ends") == 1)
                    told++;
                else if (count_from(t, before, "ann", "declare") > 0)
                    fail_msg("seed %d: a declaration hinted without its reason: %s", (int)seed,
                             t->msg[before].text);
            }
            break;
        }
        close_table(t);
    }
    assert_true(told >= 1);
}

static void test_hints_off_in_a_room_refuses_them_there(void **state)
{
    (void)state;
    table *t = open_table();
    say(t, "ann", "!new 2 bot to 11");
    say(t, "ann", "!set hints off");
    assert_int_equal(count(t, ROOM, "only the room's moderators"), 1);
    say_as(t, "mod", "!set hints off", true);
    assert_int_equal(count(t, ROOM, "#t: no hints here"), 1);
    say(t, "ann", "!settings");
    assert_int_equal(count(t, ROOM, "hints off"), 1);
    for (int i = 0; i < 10; i++) { /* until ann decides */
        pz_game *g = game_now(t);
        bool hers = to_act(g) == 0;
        pz_free(g);
        if (hers)
            break;
        tick(t, 1);
    }
    say(t, "ann", "!hint");
    assert_int_equal(count(t, "ann", "hints are off in #t"), 1);
    assert_int_equal(count(t, NULL, "Hint in"), 0);
    say_as(t, "mod", "!set hints on", true);
    say(t, "ann", "!hint");
    assert_int_equal(count(t, "ann", "Hint in #t: "), 1);
    close_table(t);
}

static void test_a_hint_is_only_for_a_player_of_the_game(void **state)
{
    (void)state;
    table *t = open_table();
    say(t, "ann", "!new 2 bot to 11");
    say(t, "bob", "!hint");
    assert_int_equal(count(t, "bob", "you are not playing in this game"), 1);
    assert_int_equal(count(t, NULL, "Hint in"), 0);
    close_table(t);
}

static void test_a_practice_table_explains_and_counts_nowhere(void **state)
{
    (void)state;
    table *t = open_table();
    say(t, "ann", "!learn to 11");
    assert_int_equal(count(t, ROOM, "ann opens a practice table"), 1);
    assert_int_equal(count(t, ROOM, "Robot 2 (beginner) sits down (3 of 3)"), 1);
    play_out(t, false);
    assert_true(count(t, "ann", "Robot 1 (beginner)") > 3); /* their moves, explained */
    assert_true(count(t, "ann", "Robot 2 (beginner)") > 3);
    assert_int_equal(count(t, ROOM, "Why "), 0); /* to the learner only */
    say(t, "ann", "!top");
    assert_int_equal(count(t, ROOM, "no finished games in #t yet"), 1);
    say(t, "ann", "!stats");
    assert_int_equal(count(t, ROOM, "ann has no finished games in #t yet"), 1);
    close_table(t);
}

/* The runs of review lines in a row (a hand's review each), every run at
   most three lines, all to ann, each line naming its hand (the first run
   hand 1, the next hand 2, ...) and sent before the next hand's first
   line. */
static int review_runs(const table *t)
{
    int runs = 0, run = 0, hands = 0;
    for (int i = 0; i <= t->nmsg; i++) {
        const char *at = i < t->nmsg ? strstr(t->msg[i].text, "Review of hand ") : NULL;
        hands += i < t->nmsg && strstr(t->msg[i].text, "New hand") != NULL;
        if (at != NULL) {
            assert_int_equal(hands, runs + 1); /* before the next hand's first line */
            char named[48];
            snprintf(named, sizeof named, "Review of hand %d in #t: ", runs + 1);
            if (strstr(t->msg[i].text, named) == NULL)
                print_error("not %s: %s\n", named, t->msg[i].text);
            assert_non_null(strstr(t->msg[i].text, named));
            assert_string_equal(t->msg[i].target, "ann");
            run++;
        } else if (run > 0) {
            assert_true(run <= 3);
            runs++;
            run = 0;
        }
    }
    return runs;
}

static void test_review_on_tells_at_most_three_lines_a_hand(void **state)
{
    (void)state;
    table *t = open_table();
    say(t, "ann", "!review on");
    assert_int_equal(count(t, "ann", "after each hand you get up to three"), 1);
    say(t, "ann", "!new 2 bot to 11");
    play_out(t, false);
    /* a hand's review is queued at once, its lines in a row: at most three */
    int runs = review_runs(t);
    assert_true(runs >= 2);                             /* a game to 11 is more than one hand */
    assert_int_equal(runs, count(t, ROOM, "New hand")); /* one review a hand, the last too */
    close_table(t);
}

/* host_think_async's wake: nothing to do, the test ticks. */
static void on_wake(void *arg)
{
    (void)arg;
}

/* Ticks (the fake clock a second at a time, the real one a millisecond)
   until a message to target holding s has come, at most `tries` times. */
static bool tick_until(table *t, const char *target, const char *s, int tries)
{
    for (int i = 0; i < tries; i++) {
        if (count(t, target, s) > 0)
            return true;
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
        tick(t, 1);
    }
    return count(t, target, s) > 0;
}

static void test_on_the_worker_a_hint_and_a_review_come_by_the_clock(void **state)
{
    (void)state;
    table *t = open_table();
    assert_int_equal(host_think_async(t->h, on_wake, NULL), 0);
    say(t, "ann", "!review on");
    say(t, "ann", "!new 2 bot to 11");
    bool hinted = false;
    for (int step = 0; step < 20000; step++) {
        pz_game *g = game_now(t);
        if (g == NULL)
            break;
        if (to_act(g) == 0) {
            if (!hinted) { /* the answer is the worker's: the clock delivers it */
                char want[128];
                expected_hint(g, 0, want, sizeof want);
                say(t, "ann", "!hint");
                assert_true(tick_until(t, "ann", "Hint in #t", 2000));
                pz_game *same = game_now(t);
                char a[PZ_SAVE_MAX], b[PZ_SAVE_MAX];
                assert_true(pz_save(g, a, sizeof a) > 0 && pz_save(same, b, sizeof b) > 0);
                if (strcmp(a, b) == 0) /* still her decision: the strong level's, as inline */
                    assert_int_equal(count(t, "ann", want), 1);
                pz_free(same);
                hinted = true;
            }
            default_move(t, g, 0);
        } else {
            struct timespec ts = {0, 1000 * 1000};
            nanosleep(&ts, NULL);
            tick(t, 1);
        }
        pz_free(g);
    }
    assert_true(hinted);
    assert_null(game_now(t)); /* over */
    /* every hand's review, the last one's after the game (found by its id) */
    int hands = count(t, ROOM, "New hand");
    for (int i = 0; i < 2000 && review_runs(t) < hands; i++) {
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
        tick(t, 1);
    }
    assert_true(hands >= 2);
    assert_int_equal(review_runs(t), hands);
    host_think_stop(t->h);
    close_table(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_hint_is_the_strong_level_choice_said_privately_and_counted),
        cmocka_unit_test(test_a_declaration_hint_says_why),
        cmocka_unit_test(test_hints_off_in_a_room_refuses_them_there),
        cmocka_unit_test(test_a_hint_is_only_for_a_player_of_the_game),
        cmocka_unit_test(test_a_practice_table_explains_and_counts_nowhere),
        cmocka_unit_test(test_review_on_tells_at_most_three_lines_a_hand),
        cmocka_unit_test(test_on_the_worker_a_hint_and_a_review_come_by_the_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
