/*
 * test_irc_event.c — a line irc_proto parsed, classified into the IRC
 * adapter's one event: every kind, CTCP's edge cases, lines that are no
 * event, parameters cut at the line's end or beyond the tenth, and the
 * forms of an origin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "irc_event.h"

static ircp_msg msg;
static irc_ev ev;

/* Writes fmt's text into buf (cap bytes), which it must fit; its length. */
static int build(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int build(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < cap);
    return n;
}

/* Fills buf (size bytes) with c, NUL-terminated. */
static void fill(char *buf, size_t size, char c)
{
    memset(buf, c, size - 1);
    buf[size - 1] = '\0';
}

/* Parses line (it must parse) and classifies it into ev. */
static irc_ev_kind classify(const char *line)
{
    assert_int_equal(ircp_parse(line, strlen(line), &msg), 0);
    irc_ev_kind k = irc_ev_classify(&msg, &ev);
    assert_int_equal(k, ev.kind);
    return k;
}

/* Asserts that line is an event of kind want, naming both on failure. */
static void expect_kind(const char *line, irc_ev_kind want)
{
    irc_ev_kind got = classify(line);
    if (got != want)
        fail_msg("%s: %s, not %s", line, irc_ev_kind_name(got), irc_ev_kind_name(want));
}

static void test_each_command_has_its_kind(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        irc_ev_kind kind;
    } cases[] = {
        {":ann!a@h PRIVMSG #porrazo :!play 7h", IRC_EV_MESSAGE},
        {":ann!a@h PRIVMSG porrazo :hand", IRC_EV_MESSAGE},
        {":ann!a@h NOTICE porrazo :hello", IRC_EV_NOTICE},
        {":ann!a@h NOTICE #porrazo :hello all", IRC_EV_NOTICE},
        {":ann!a@h PRIVMSG porrazo :\x01VERSION\x01", IRC_EV_CTCP},
        {":ann!a@h NOTICE porrazo :\x01VERSION hexchat\x01", IRC_EV_CTCP_REPLY},
        {":ann!a@h PRIVMSG #porrazo :\x01"
         "ACTION waves\x01",
         IRC_EV_ACTION},
        {":ann!a@h JOIN #porrazo", IRC_EV_JOIN},
        {":ann!a@h PART #porrazo :later", IRC_EV_PART},
        {":op!o@h KICK #porrazo porrazo :bye", IRC_EV_KICK},
        {":ann!a@h QUIT :gone", IRC_EV_QUIT},
        {":ann!a@h NICK :anna", IRC_EV_NICK},
        {":op!o@h INVITE porrazo :#friends", IRC_EV_INVITE},
        {":srv.example 404 porrazo #porrazo :Cannot send to channel", IRC_EV_NUMERIC},
        {":op!o@h MODE #porrazo +c", IRC_EV_OTHER},
        {":ann!a@h TOPIC #porrazo :cards", IRC_EV_OTHER},
        {"PING :tok123", IRC_EV_OTHER},
        {":srv KILL ann :flooding", IRC_EV_OTHER},
        {":srv CAP * LS :sasl", IRC_EV_OTHER},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_kind(cases[i].line, cases[i].kind);
}

static void test_a_channel_message_has_its_origin_nick_and_params(void **state)
{
    (void)state;
    assert_int_equal(classify(":ann!a@host.example PRIVMSG #porrazo :!play 7h"), IRC_EV_MESSAGE);
    assert_string_equal(ev.name, "PRIVMSG");
    assert_string_equal(ev.nick, "ann");
    assert_string_equal(ev.origin, "ann!a@host.example");
    assert_int_equal(ev.count, 2);
    assert_string_equal(ev.params[0], "#porrazo");
    assert_string_equal(ev.params[1], "!play 7h");
    assert_null(ev.params[2]);
}

static void test_each_kind_carries_the_params_its_handler_reads(void **state)
{
    (void)state;
    classify(":op!o@h KICK #porrazo porrazo :bye now");
    assert_int_equal(ev.count, 3);
    assert_string_equal(ev.params[0], "#porrazo");
    assert_string_equal(ev.params[1], "porrazo");
    assert_string_equal(ev.params[2], "bye now");

    classify(":op!o@h INVITE porrazo :#friends");
    assert_string_equal(ev.nick, "op");
    assert_string_equal(ev.params[1], "#friends");

    classify(":ann!a@h NICK :anna");
    assert_int_equal(ev.count, 1);
    assert_string_equal(ev.params[0], "anna");

    classify(":ann!a@h QUIT");
    assert_int_equal(ev.count, 0);
    assert_null(ev.params[0]);

    classify(":op!o@h MODE #porrazo +ov ann bob");
    assert_string_equal(ev.name, "MODE");
    assert_int_equal(ev.count, 4);
    assert_string_equal(ev.params[3], "bob");
}

static void test_a_numeric_has_its_code_and_params_as_sent(void **state)
{
    (void)state;
    classify(":srv.example 352 porrazo #porrazo ~ann host.example srv.example ann H@ :0 Ann A");
    assert_int_equal(ev.kind, IRC_EV_NUMERIC);
    assert_int_equal(ev.code, 352);
    assert_string_equal(ev.name, "352");
    assert_string_equal(ev.nick, "srv.example");
    assert_int_equal(ev.count, 8);
    assert_string_equal(ev.params[5], "ann");
    assert_string_equal(ev.params[7], "0 Ann A");

    classify(":srv 004 porrazo srv ngircd-26 abc");
    assert_int_equal(ev.code, 4);
    classify("001 porrazo :Welcome");
    assert_int_equal(ev.code, 1);
    assert_string_equal(ev.origin, "");
}

static void test_the_command_is_matched_in_any_case_and_tags_are_ignored(void **state)
{
    (void)state;
    expect_kind(":ann!a@h privmsg #porrazo :hi", IRC_EV_MESSAGE);
    expect_kind(":ann!a@h Join #porrazo", IRC_EV_JOIN);
    assert_int_equal(
        classify("@time=2026-11-22T10:00:00Z;account=ann :ann!a@h PRIVMSG #porrazo :!score"),
        IRC_EV_MESSAGE);
    assert_string_equal(ev.origin, "ann!a@h");
    assert_string_equal(ev.params[1], "!score");
}

/* ---- CTCP ------------------------------------------------------------------ */

static void test_a_ctcp_request_gives_its_body_alone(void **state)
{
    (void)state;
    assert_int_equal(classify(":ann!a@h PRIVMSG porrazo :\x01VERSION\x01"), IRC_EV_CTCP);
    assert_int_equal(ev.count, 1);
    assert_string_equal(ev.params[0], "VERSION");
    assert_null(ev.params[1]);
    assert_string_equal(ev.nick, "ann");

    /* to a channel as well */
    assert_int_equal(classify(":ann!a@h PRIVMSG #porrazo :\x01PING 123\x01"), IRC_EV_CTCP);
    assert_string_equal(ev.params[0], "PING 123");
}

static void test_ctcp_framing_edge_cases_follow_the_library(void **state)
{
    (void)state;
    /* a lone \x01 begins and ends the text: an empty body */
    assert_int_equal(classify(":ann!a@h PRIVMSG porrazo :\x01"), IRC_EV_CTCP);
    assert_string_equal(ev.params[0], "");
    assert_int_equal(classify(":ann!a@h PRIVMSG porrazo :\x01\x01"), IRC_EV_CTCP);
    assert_string_equal(ev.params[0], "");
    /* unterminated: a plain message, \x01 and all */
    assert_int_equal(classify(":ann!a@h PRIVMSG porrazo :\x01VERSION"), IRC_EV_MESSAGE);
    assert_string_equal(ev.params[1], "\x01VERSION");
    /* \x01 inside a text does not make it CTCP */
    expect_kind(":ann!a@h PRIVMSG porrazo :a \x01VERSION\x01", IRC_EV_MESSAGE);
    /* ACTION needs its space; in any case */
    assert_int_equal(classify(":ann!a@h PRIVMSG porrazo :\x01"
                              "ACTION\x01"),
                     IRC_EV_CTCP);
    assert_string_equal(ev.params[0], "ACTION");
    assert_int_equal(classify(":ann!a@h PRIVMSG #porrazo :\x01"
                              "action !play 7h\x01"),
                     IRC_EV_ACTION);
    assert_int_equal(ev.count, 2);
    assert_string_equal(ev.params[0], "#porrazo");
    assert_string_equal(ev.params[1], "!play 7h");
}

static void test_a_dcc_request_is_no_event(void **state)
{
    (void)state;
    expect_kind(":ann!a@h PRIVMSG porrazo :\x01"
                "DCC SEND x 1 2 3\x01",
                IRC_EV_NONE);
    expect_kind(":ann!a@h PRIVMSG porrazo :\x01"
                "dcc chat chat 1 2\x01",
                IRC_EV_NONE);
    expect_kind(":ann!a@h PRIVMSG porrazo :\x01"
                "DCC unterminated",
                IRC_EV_NONE);
    assert_int_equal(ev.count, 0);
    /* in a NOTICE it is a CTCP reply like any other */
    assert_int_equal(classify(":ann!a@h NOTICE porrazo :\x01"
                              "DCC REJECT x\x01"),
                     IRC_EV_CTCP_REPLY);
    assert_string_equal(ev.params[0], "DCC REJECT x");
}

static void test_a_ctcp_body_is_cut_at_a_character_boundary(void **state)
{
    (void)state;
    char line[600];
    int n = build(line, sizeof line, ":ann!a@h PRIVMSG porrazo :\x01VERSION ");
    while (n < 400) /* "é" is two bytes: 127 - 8 = 119 of them would split one */
        n += build(line + n, sizeof line - (size_t)n, "\xc3\xa9");
    build(line + n, sizeof line - (size_t)n, "\x01");
    assert_int_equal(classify(line), IRC_EV_CTCP);
    size_t len = strlen(ev.params[0]);
    assert_int_equal(len, IRC_EV_CTCP_MAX - 1);
    assert_int_equal((len - strlen("VERSION ")) % 2, 0);
    assert_memory_equal(ev.params[0], "VERSION \xc3\xa9", 10);
}

static void test_a_notice_ctcp_reply_keeps_its_whole_body(void **state)
{
    (void)state;
    char line[400], body[300];
    fill(body, sizeof body, 'v');
    build(line, sizeof line, ":ann!a@h NOTICE porrazo :\x01%s\x01", body);
    assert_int_equal(classify(line), IRC_EV_CTCP_REPLY);
    assert_string_equal(ev.params[0], body);
}

/* ---- Lines that are no event -------------------------------------------------- */

static void test_a_privmsg_or_notice_without_target_or_text_is_no_event(void **state)
{
    (void)state;
    static const char *const lines[] = {
        ":ann!a@h PRIVMSG #porrazo",  ":ann!a@h PRIVMSG #porrazo :", ":ann!a@h PRIVMSG",
        ":ann!a@h PRIVMSG :#porrazo", ":ann!a@h NOTICE porrazo",     ":ann!a@h NOTICE porrazo :",
        ":ann!a@h NOTICE :only text",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        expect_kind(lines[i], IRC_EV_NONE);
        assert_int_equal(ev.count, 0);
        assert_null(ev.params[0]);
    }
    /* blanks are a text */
    expect_kind(":ann!a@h PRIVMSG #porrazo :   ", IRC_EV_MESSAGE);
}

static void test_a_parse_without_a_command_is_no_event(void **state)
{
    (void)state;
    memset(&msg, 0, sizeof msg);
    build(msg.nick, sizeof msg.nick, "ann");
    assert_int_equal(irc_ev_classify(&msg, &ev), IRC_EV_NONE);
    assert_int_equal(ev.count, 0);
    /* a made-up command of digits that is no numeric */
    build(msg.command, sizeof msg.command, "12");
    assert_int_equal(irc_ev_classify(&msg, &ev), IRC_EV_OTHER);
    assert_int_equal(ev.code, 0);
}

/* ---- Parameters: the tenth at most, the line's 510 bytes --------------------- */

static void test_parameters_after_the_tenth_are_dropped(void **state)
{
    (void)state;
    classify(":op!o@h MODE #porrazo +oooooooooo a b c d e f g h i j");
    assert_int_equal(ev.count, IRC_EV_PARAMS_MAX);
    assert_string_equal(ev.params[2], "a");
    assert_string_equal(ev.params[9], "h");
    /* the parser's fifteenth takes the rest: still only ten here */
    classify(":srv 005 porrazo A B C D E F G H I J K L M N O P :are supported");
    assert_int_equal(ev.count, IRC_EV_PARAMS_MAX);
    assert_string_equal(ev.params[9], "I");
}

static void test_a_long_text_is_cut_at_the_lines_end_on_a_character_boundary(void **state)
{
    (void)state;
    static const char head[] = ":ann!a@h PRIVMSG #porrazo :";
    char line[1200];
    int n = build(line, sizeof line, "%s", head);
    while (n < 1100) /* "é" is two bytes; the line's byte 510 falls inside one */
        n += build(line + n, sizeof line - (size_t)n, "\xc3\xa9");
    assert_int_equal(classify(line), IRC_EV_MESSAGE);
    size_t text = strlen(ev.params[1]);
    assert_int_equal(strlen(head) + text, IRC_EV_LINE_MAX - 1); /* 483 bytes of room: 241 "é" */
    assert_int_equal(text % 2, 0);
    assert_ptr_equal(ev.params[1], ev.cut);
    /* without the prefix, more of it fits */
    classify(line + strlen(":ann!a@h "));
    assert_true(strlen(ev.params[1]) > text);
}

static void test_params_past_the_lines_end_are_dropped(void **state)
{
    (void)state;
    char line[1200], word[300];
    fill(word, sizeof word, 'w');
    /* "KICK #c <299 w> <299 w> :reason": the second word crosses byte 510 */
    build(line, sizeof line, ":op!o@h KICK #c %s %s :reason", word, word);
    assert_int_equal(classify(line), IRC_EV_KICK);
    assert_int_equal(ev.count, 3);
    assert_string_equal(ev.params[1], word);
    assert_int_equal(strlen(":op!o@h KICK #c ") + 299 + 1 + strlen(ev.params[2]), IRC_EV_LINE_MAX);
    /* a text that starts past the end: the PRIVMSG has none */
    build(line, sizeof line, ":ann!a@h PRIVMSG %s%s :hi", word, word);
    assert_int_equal(ircp_parse(line, strlen(line), &msg), 0);
    assert_int_equal(irc_ev_classify(&msg, &ev), IRC_EV_NONE);
}

static void test_a_prefix_too_long_for_the_line_is_no_event(void **state)
{
    (void)state;
    char line[1000], part[250];
    fill(part, sizeof part, 'x');
    build(line, sizeof line, ":%s!%s@%s PRIVMSG #porrazo :hi", part, part, part);
    expect_kind(line, IRC_EV_NONE);
    assert_int_equal(ev.count, 0);
    /* one that fits but leaves no room for the text: no event either */
    build(line, sizeof line, ":%s!%s PRIVMSG #porrazo :hi", part, part);
    expect_kind(line, IRC_EV_NONE);
    /* room for all of it */
    build(line, sizeof line, ":%s!%.200s PRIVMSG #porrazo :hi", part, part);
    assert_int_equal(classify(line), IRC_EV_MESSAGE);
    assert_string_equal(ev.params[1], "hi");
}

/* ---- Origins ------------------------------------------------------------------- */

static void test_the_origin_forms_give_their_nick(void **state)
{
    (void)state;
    static const struct {
        const char *line, *origin, *nick;
    } cases[] = {
        {":ann!~a@host.example JOIN #c", "ann!~a@host.example", "ann"},
        {":ann@host.example JOIN #c", "ann@host.example", "ann"},
        {":ann!a JOIN #c", "ann!a", "ann"},
        {":ann JOIN #c", "ann", "ann"},
        {":irc.example.net NOTICE * :*** Looking up your hostname", "irc.example.net",
         "irc.example.net"},
        {"JOIN #c", "", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        classify(cases[i].line);
        assert_string_equal(ev.origin, cases[i].origin);
        assert_string_equal(ev.nick, cases[i].nick);
    }
}

static void test_a_nick_longer_than_the_field_is_cut(void **state)
{
    (void)state;
    char line[400], nick[200];
    fill(nick, sizeof nick, 'n');
    build(line, sizeof line, ":%s!u@h PRIVMSG #c :hi", nick);
    assert_int_equal(classify(line), IRC_EV_MESSAGE);
    assert_int_equal(strlen(ev.nick), IRCP_NICK_MAX - 1);
    assert_int_equal(strncmp(ev.origin, nick, 199), 0);
}

static void test_an_event_leaves_the_parse_untouched(void **state)
{
    (void)state;
    classify(":ann!a@h PRIVMSG porrazo :\x01VERSION\x01");
    assert_string_equal(ircp_param(&msg, 1), "\x01VERSION\x01");
    assert_string_equal(msg.nick, "ann");
}

/* xorshift64: the same pseudo-random lines on every run. */
static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void test_random_lines_give_events_within_their_bounds(void **state)
{
    (void)state;
    static const char *const pieces[] = {":",    " ",       "!",      "@",    "\x01", "ACTION ",
                                         "DCC ", "PRIVMSG", "NOTICE", "KICK", "352",  "#c",
                                         "é",    "porrazo", "ann",    "\xff"};
    uint64_t x = 0x9E3779B97F4A7C15u;
    char line[1400];
    int events = 0;
    for (int round = 0; round < 20000; round++) {
        size_t len = 0;
        int parts = (int)(next_random(&x) % 40);
        for (int i = 0; i < parts; i++) {
            const char *p = pieces[next_random(&x) % (sizeof pieces / sizeof pieces[0])];
            int repeat = next_random(&x) % 8 == 0 ? 60 : 1; /* now and then a long run */
            for (int r = 0; r < repeat && len + strlen(p) < sizeof line; r++) {
                memcpy(line + len, p, strlen(p));
                len += strlen(p);
            }
        }
        if (ircp_parse(line, len, &msg) != 0)
            continue;
        irc_ev_kind k = irc_ev_classify(&msg, &ev);
        events += k != IRC_EV_NONE;
        assert_int_equal(k, ev.kind);
        assert_true(ev.count <= IRC_EV_PARAMS_MAX);
        for (unsigned i = 0; i < IRC_EV_PARAMS_MAX; i++) {
            if (i < ev.count)
                assert_true(ev.params[i] != NULL && strlen(ev.params[i]) <= IRC_EV_LINE_MAX);
            else
                assert_null(ev.params[i]);
        }
        assert_int_equal(strncmp(ev.origin, ev.nick, strlen(ev.nick)), 0);
        assert_string_equal(ev.name, msg.command);
    }
    assert_true(events > 1000);
}

static void test_every_kind_has_a_name(void **state)
{
    (void)state;
    assert_string_equal(irc_ev_kind_name(IRC_EV_NONE), "NONE");
    assert_string_equal(irc_ev_kind_name(IRC_EV_CTCP_REPLY), "CTCP_REPLY");
    assert_string_equal(irc_ev_kind_name(IRC_EV_OTHER), "OTHER");
    assert_string_equal(irc_ev_kind_name((irc_ev_kind)99), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_command_has_its_kind),
        cmocka_unit_test(test_a_channel_message_has_its_origin_nick_and_params),
        cmocka_unit_test(test_each_kind_carries_the_params_its_handler_reads),
        cmocka_unit_test(test_a_numeric_has_its_code_and_params_as_sent),
        cmocka_unit_test(test_the_command_is_matched_in_any_case_and_tags_are_ignored),
        cmocka_unit_test(test_a_ctcp_request_gives_its_body_alone),
        cmocka_unit_test(test_ctcp_framing_edge_cases_follow_the_library),
        cmocka_unit_test(test_a_dcc_request_is_no_event),
        cmocka_unit_test(test_a_ctcp_body_is_cut_at_a_character_boundary),
        cmocka_unit_test(test_a_notice_ctcp_reply_keeps_its_whole_body),
        cmocka_unit_test(test_a_privmsg_or_notice_without_target_or_text_is_no_event),
        cmocka_unit_test(test_a_parse_without_a_command_is_no_event),
        cmocka_unit_test(test_parameters_after_the_tenth_are_dropped),
        cmocka_unit_test(test_a_long_text_is_cut_at_the_lines_end_on_a_character_boundary),
        cmocka_unit_test(test_params_past_the_lines_end_are_dropped),
        cmocka_unit_test(test_a_prefix_too_long_for_the_line_is_no_event),
        cmocka_unit_test(test_the_origin_forms_give_their_nick),
        cmocka_unit_test(test_a_nick_longer_than_the_field_is_cut),
        cmocka_unit_test(test_an_event_leaves_the_parse_untouched),
        cmocka_unit_test(test_random_lines_give_events_within_their_bounds),
        cmocka_unit_test(test_every_kind_has_a_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
