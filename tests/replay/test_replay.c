/*
 * test_replay.c — cmocka tests of pzr_run(), the porrazo-replay library
 * (engine/replay/scenario.h, shared/spec/REPLAY.md).
 *
 * They check the tool's own contract — exit statuses, an empty stdout for
 * a malformed scenario, error events for refused actions, JSON escaping,
 * reading exactly len bytes — and as little of the rules as they can; the
 * rules are the scenarios' business (tests/scenarios/). Output goes to
 * tmpfile()s that each test reads back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scenario.h"

#define OUT_MAX 65536 /* what a test reads back from a stream, at most */

/* What one pzr_run() call did: its status and both streams' text. */
typedef struct run_result {
    int status;
    char out[OUT_MAX];
    char err[OUT_MAX];
} run_result;

/* Reads all of f (at most cap - 1 bytes) from its start into buf. */
static void slurp(FILE *f, char *buf, size_t cap)
{
    rewind(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Runs pzr_run() on text[0..len) and returns what it did (caller frees). */
static run_result *run_n(const char *text, size_t len)
{
    run_result *r = calloc(1, sizeof *r);
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(r);
    assert_non_null(out);
    assert_non_null(err);
    r->status = pzr_run(text, len, out, err);
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    return r;
}

/* Runs pzr_run() on the NUL-terminated text. */
static run_result *run(const char *text)
{
    return run_n(text, strlen(text));
}

/* The last line of text (which ends in a newline), or "" when none. */
static const char *last_line(const char *text)
{
    size_t n = strlen(text);
    if (n < 2)
        return "";
    for (size_t i = n - 1; i > 0; i--)
        if (text[i - 1] == '\n')
            return text + i;
    return text;
}

/* True when text begins with prefix. */
static bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* Fails the test unless r is a malformed run: status 2, stdout empty. */
static void assert_malformed(const run_result *r)
{
    assert_int_equal(r->status, PZR_EXIT_MALFORMED);
    assert_string_equal(r->out, "");
    assert_non_null(strstr(r->err, "malformed scenario"));
}

static void test_seed_scenario_prints_its_deal_then_the_state(void **state)
{
    (void)state;
    run_result *r = run("{\"players\": 2, \"seed\": 1, \"actions\": []}");
    assert_int_equal(r->status, PZR_EXIT_OK);
    assert_string_equal(r->err, "");
    assert_true(starts_with(r->out, "{\"event\":\"deal\",\"dealer\":0,\"deal\":1,"));
    assert_true(starts_with(last_line(r->out), "{\"event\":\"state\",\"phase\":"));
    free(r);
}

static void test_same_seed_gives_the_same_output(void **state)
{
    (void)state;
    const char *text = "{\"players\": 3, \"seed\": 99, \"actions\": "
                       "[{\"seat\": 0, \"tendido\": \"now\"}]}";
    run_result *a = run(text), *b = run(text);
    assert_int_equal(a->status, PZR_EXIT_OK);
    assert_string_equal(a->out, b->out);
    free(a);
    free(b);
}

static void test_refused_action_prints_an_error_event_and_goes_on(void **state)
{
    (void)state;
    /* Seat 0 deals: in tendido_choice nobody may play a card yet. */
    run_result *r = run("{\"players\": 2, \"seed\": 1, \"actions\": "
                        "[{\"seat\": 1, \"play\": \"AS\"}, "
                        "{\"seat\": 7, \"declare\": true}]}");
    assert_int_equal(r->status, PZR_EXIT_OK);
    assert_non_null(strstr(r->out, "{\"event\":\"error\",\"action\":0,"
                                   "\"code\":\"wrong_phase\",\"message\":\""));
    assert_non_null(strstr(r->out, "{\"event\":\"error\",\"action\":1,"));
    assert_true(starts_with(last_line(r->out), "{\"event\":\"state\","));
    free(r);
}

static void test_malformed_action_after_good_ones_prints_nothing(void **state)
{
    (void)state;
    run_result *r = run("{\"players\": 2, \"seed\": 1, \"actions\": "
                        "[{\"seat\": 0, \"tendido\": \"now\"}, "
                        "{\"seat\": 0, \"arrange\": \"best\"}, "
                        "{\"seat\": 1, \"play\": \"ZZ\"}]}");
    assert_malformed(r);
    assert_non_null(strstr(r->err, "actions[2].play"));
    free(r);
}

static void test_engine_refusing_the_setup_is_malformed(void **state)
{
    (void)state;
    run_result *r = run("{\"players\": 2, \"seed\": 1, \"dealer\": 2}");
    assert_malformed(r);
    free(r);
}

static void test_next_hand_without_deck_needs_a_pack(void **state)
{
    (void)state;
    /* The last deal of a two-player hand, two cards left: the hand ends. */
    run_result *r = run("{\"players\": 2, \"position\": {\"table\": [\"5C\"], "
                        "\"hands\": [[\"4H\"], [\"6S\"]], \"turn\": 1, \"deal\": 8, "
                        "\"tendido_done\": true}, \"actions\": [{\"seat\": 1, \"play\": "
                        "\"6S\"}, {\"seat\": 0, \"play\": \"4H\"}, {\"next_hand\": true}]}");
    assert_int_equal(r->status, PZR_EXIT_OK);
    const char *e = strstr(r->out, "{\"event\":\"error\",\"action\":2,"
                                   "\"code\":\"invalid_action\",\"message\":\"");
    assert_non_null(e);
    /* The message names the key "deck", its quotes escaped. */
    assert_non_null(strstr(e, "a pack is needed"));
    assert_non_null(strstr(e, "\\\"deck\\\""));
    free(r);
}

static void test_cards_accept_ten_and_lower_case(void **state)
{
    (void)state;
    /* Ten of hearts spelt three ways, and a duplicate hidden by case. */
    run_result *a = run("{\"players\": 2, \"position\": {\"table\": "
                        "[\"10h\"], \"hands\": [[\"ts\"], [\"Tc\"]], "
                        "\"turn\": 1, \"deal\": 8, \"tendido_done\": true}}");
    run_result *b = run("{\"players\": 2, \"position\": {\"table\": "
                        "[\"10h\"], \"hands\": [[\"th\"], [\"Tc\"]], "
                        "\"turn\": 1, \"deal\": 8, \"tendido_done\": true}}");
    assert_int_equal(a->status, PZR_EXIT_OK);
    assert_non_null(strstr(a->out, "\"table\":[\"TH\"],\"hands\":[[\"TS\"],"
                                   "[\"TC\"]]"));
    assert_malformed(b);
    assert_non_null(strstr(b->err, "TH appears twice"));
    free(a);
    free(b);
}

static void test_text_is_read_up_to_len_only(void **state)
{
    (void)state;
    const char text[] = "{\"players\": 2, \"seed\": 1}GARBAGE";
    run_result *r = run_n(text, strlen(text) - strlen("GARBAGE"));
    assert_int_equal(r->status, PZR_EXIT_OK);
    free(r);
}

static void test_nul_byte_inside_the_text_is_malformed(void **state)
{
    (void)state;
    const char text[] = "{\"players\": 2, \"seed\": 1}\0{}";
    run_result *r = run_n(text, sizeof text - 1);
    assert_malformed(r);
    free(r);
}

static void test_text_over_the_cap_is_malformed(void **state)
{
    (void)state;
    size_t len = PZR_INPUT_MAX + 1;
    char *text = malloc(len);
    assert_non_null(text);
    memset(text, ' ', len);
    memcpy(text, "{\"players\": 2, \"seed\": 1}", 26);
    run_result *r = run_n(text, len);
    assert_malformed(r);
    assert_non_null(strstr(r->err, "larger than"));
    free(r);
    free(text);
}

static void test_every_malformed_kind_has_a_message(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        "null",
        "[1]",
        "{\"players\": 2, \"seed\": 1,}",
        "{\"players\": 2, \"seed\": 1, \"seed2\": 1}",
        "{\"players\": 2.0, \"seed\": 1}",
        "{\"players\": 2, \"seed\": 1, \"options\": {\"wrap\": 1}}",
        "{\"players\": 2, \"seed\": 1, \"options\": {\"target\": \"61\"}}",
        "{\"players\": 2, \"seed\": 1, \"actions\": [{\"seat\": 0}]}",
        "{\"players\": 2, \"seed\": 1, \"actions\": [{\"seat\": 0, "
        "\"declare\": false}]}",
        "{\"players\": 2, \"seed\": 1, \"actions\": [{\"seat\": 0, "
        "\"play\": \"AS\", \"direction\": \"ltr\"}]}",
        "{\"players\": 2, \"seed\": 1, \"actions\": [{\"seat\": 0, "
        "\"tendido\": \"soon\"}]}",
        "{\"players\": 2, \"position\": {\"last_play\": {\"seat\": 0}}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_result *r = run(bad[i]);
        assert_malformed(r);
        assert_true(strlen(r->err) > strlen("porrazo-replay: "));
        free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_scenario_prints_its_deal_then_the_state),
        cmocka_unit_test(test_same_seed_gives_the_same_output),
        cmocka_unit_test(test_refused_action_prints_an_error_event_and_goes_on),
        cmocka_unit_test(test_malformed_action_after_good_ones_prints_nothing),
        cmocka_unit_test(test_engine_refusing_the_setup_is_malformed),
        cmocka_unit_test(test_next_hand_without_deck_needs_a_pack),
        cmocka_unit_test(test_cards_accept_ten_and_lower_case),
        cmocka_unit_test(test_text_is_read_up_to_len_only),
        cmocka_unit_test(test_nul_byte_inside_the_text_is_malformed),
        cmocka_unit_test(test_text_over_the_cap_is_malformed),
        cmocka_unit_test(test_every_malformed_kind_has_a_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
