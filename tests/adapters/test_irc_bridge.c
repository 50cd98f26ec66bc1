/*
 * test_irc_bridge.c — libircclient as the adapter's event dispatcher: the
 * events each server line becomes, in order and at once, lines the library
 * would mishandle kept from it, long lines cut, and its own answers thrown
 * away.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "irc_bridge.h"

#define SEEN_MAX 16

typedef struct seen {
    int n;
    irc_bridge_kind kind[SEEN_MAX];
    unsigned code[SEEN_MAX];
    char nick[SEEN_MAX][64];
    char origin[SEEN_MAX][300];
    char p0[SEEN_MAX][600];
    char p1[SEEN_MAX][600];
    unsigned count[SEEN_MAX];
} seen;

static void record(void *arg, const irc_bridge_event *ev)
{
    seen *s = arg;
    if (s->n == SEEN_MAX)
        return;
    int i = s->n++;
    s->kind[i] = ev->kind;
    s->code[i] = ev->code;
    snprintf(s->nick[i], sizeof s->nick[i], "%s", ev->nick);
    snprintf(s->origin[i], sizeof s->origin[i], "%s", ev->origin);
    snprintf(s->p0[i], sizeof s->p0[i], "%s", ev->count > 0 ? ev->params[0] : "");
    snprintf(s->p1[i], sizeof s->p1[i], "%s", ev->count > 1 ? ev->params[1] : "");
    s->count[i] = ev->count;
}

typedef struct fixture {
    irc_bridge *b;
    seen s;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    char why[256];
    assert_non_null(f);
    assert_int_equal(irc_bridge_new(&f->b, record, &f->s, why, sizeof why), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    irc_bridge_free(f->b);
    free(f);
    return 0;
}

/* Parses line and delivers it; returns irc_bridge_deliver's result. */
static int deliver(fixture *f, const char *line)
{
    static ircp_msg m;
    assert_int_equal(ircp_parse(line, strlen(line), &m), 0);
    return irc_bridge_deliver(f->b, &m);
}

static void test_a_channel_message_is_dispatched_before_deliver_returns(void **state)
{
    fixture *f = *state;
    assert_int_equal(deliver(f, ":ann!a@host.example PRIVMSG #porrazo :!play 7h"), 1);
    assert_int_equal(f->s.n, 1);
    assert_int_equal(f->s.kind[0], IRC_BRIDGE_MESSAGE);
    assert_string_equal(f->s.nick[0], "ann");
    assert_string_equal(f->s.origin[0], "ann!a@host.example");
    assert_string_equal(f->s.p0[0], "#porrazo");
    assert_string_equal(f->s.p1[0], "!play 7h");
}

static void test_events_come_in_the_order_of_the_lines(void **state)
{
    fixture *f = *state;
    const char *lines[] = {
        ":ann!a@h JOIN #porrazo",
        ":ann!a@h PRIVMSG porrazo :hand",
        ":ann!a@h NICK :anna",
        ":srv.example 404 porrazo #porrazo :Cannot send to channel (no colors)",
        ":anna!a@h NOTICE porrazo :hello",
        ":op!o@h KICK #porrazo porrazo :bye",
        ":op!o@h INVITE porrazo :#friends",
        ":anna!a@h PART #porrazo :later",
        ":anna!a@h QUIT :gone",
        ":op!o@h MODE #porrazo +c",
    };
    irc_bridge_kind want[] = {
        IRC_BRIDGE_JOIN, IRC_BRIDGE_MESSAGE, IRC_BRIDGE_NICK, IRC_BRIDGE_NUMERIC, IRC_BRIDGE_NOTICE,
        IRC_BRIDGE_KICK, IRC_BRIDGE_INVITE,  IRC_BRIDGE_PART, IRC_BRIDGE_QUIT,    IRC_BRIDGE_OTHER};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        assert_int_equal(deliver(f, lines[i]), 1);
        assert_int_equal(f->s.n, (int)i + 1);
        assert_int_equal(f->s.kind[i], want[i]);
    }
    assert_string_equal(f->s.p0[2], "anna");
    assert_int_equal(f->s.code[3], 404);
    assert_string_equal(f->s.p1[3], "#porrazo");
    assert_string_equal(f->s.p1[5], "porrazo");
    assert_string_equal(f->s.p1[6], "#friends");
    assert_string_equal(f->s.p1[9], "+c");
}

static void test_message_tags_never_reach_the_library(void **state)
{
    fixture *f = *state;
    assert_int_equal(deliver(f, "@time=2026-11-22T10:00:00Z;account=ann :ann!a@h PRIVMSG "
                                "#porrazo :!score"),
                     1);
    assert_int_equal(f->s.n, 1);
    assert_string_equal(f->s.nick[0], "ann");
    assert_string_equal(f->s.p1[0], "!score");
}

static void test_a_ctcp_request_is_reported_and_never_answered_by_the_library(void **state)
{
    fixture *f = *state;
    size_t before = irc_bridge_discarded(f->b);
    assert_int_equal(deliver(f, ":ann!a@h PRIVMSG porrazo :\x01VERSION\x01"), 1);
    assert_int_equal(f->s.n, 1);
    assert_int_equal(f->s.kind[0], IRC_BRIDGE_CTCP);
    assert_string_equal(f->s.p0[0], "VERSION");
    /* Our callback replaced the library's answer: it wrote nothing. */
    assert_int_equal(irc_bridge_discarded(f->b), before);
}

static void test_the_librarys_pong_is_discarded(void **state)
{
    fixture *f = *state;
    size_t before = irc_bridge_discarded(f->b);
    assert_int_equal(deliver(f, "PING :tok123"), 1);
    assert_int_equal(f->s.n, 0);
    /* "PONG tok123\r\n" went to the bridge, not to any server. */
    assert_int_equal(irc_bridge_discarded(f->b), before + strlen("PONG tok123\r\n"));
}

static void test_lines_the_library_would_mishandle_are_not_delivered(void **state)
{
    fixture *f = *state;
    assert_int_equal(deliver(f, ":ann!a@h NOTICE porrazo"), 0);
    assert_int_equal(deliver(f, ":ann!a@h PRIVMSG #porrazo"), 0);
    assert_int_equal(deliver(f, ":ann!a@h PRIVMSG #porrazo :"), 0);
    assert_int_equal(deliver(f, ":ann!a@h PRIVMSG porrazo :\x01"
                                "DCC SEND x 1 2 3\x01"),
                     0);
    assert_int_equal(f->s.n, 0);
    /* The bridge still works afterwards. */
    assert_int_equal(deliver(f, ":ann!a@h PRIVMSG #porrazo :ok"), 1);
    assert_int_equal(f->s.n, 1);
}

static void test_a_long_line_is_cut_at_a_character_boundary(void **state)
{
    fixture *f = *state;
    char line[1200];
    int n = snprintf(line, sizeof line, ":ann!a@h PRIVMSG #porrazo :");
    while (n < 1100) /* "é" is two bytes: the cut must not split one */
        n += snprintf(line + n, sizeof line - (size_t)n, "\xc3\xa9");
    assert_int_equal(deliver(f, line), 1);
    assert_int_equal(f->s.n, 1);
    size_t text = strlen(f->s.p1[0]);
    assert_true(text > 400);
    assert_true(strlen(":ann!a@h PRIVMSG #porrazo :") + text <= IRC_BRIDGE_LINE_MAX);
    assert_int_equal(text % 2, 0);
    /* The next line is still its own event. */
    assert_int_equal(deliver(f, ":bob!b@h PRIVMSG #porrazo :next"), 1);
    assert_string_equal(f->s.p1[1], "next");
}

static void test_many_lines_in_a_row_each_give_one_event(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < 2000; i++) {
        char line[100];
        snprintf(line, sizeof line, ":ann!a@h PRIVMSG #porrazo :line %d", i);
        int want = i % SEEN_MAX;
        if (want == 0)
            f->s.n = 0;
        assert_int_equal(deliver(f, line), 1);
        assert_int_equal(f->s.n, want + 1);
        char text[32];
        snprintf(text, sizeof text, "line %d", i);
        assert_string_equal(f->s.p1[want], text);
    }
}

static void test_reset_makes_a_working_session_again(void **state)
{
    fixture *f = *state;
    char why[256];
    assert_int_equal(irc_bridge_reset(f->b, why, sizeof why), 0);
    assert_int_equal(deliver(f, ":ann!a@h PRIVMSG #porrazo :after reset"), 1);
    assert_int_equal(f->s.n, 1);
    assert_string_equal(f->s.p1[0], "after reset");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_a_channel_message_is_dispatched_before_deliver_returns),
        T(test_events_come_in_the_order_of_the_lines),
        T(test_message_tags_never_reach_the_library),
        T(test_a_ctcp_request_is_reported_and_never_answered_by_the_library),
        T(test_the_librarys_pong_is_discarded),
        T(test_lines_the_library_would_mishandle_are_not_delivered),
        T(test_a_long_line_is_cut_at_a_character_boundary),
        T(test_many_lines_in_a_row_each_give_one_event),
        T(test_reset_makes_a_working_session_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
