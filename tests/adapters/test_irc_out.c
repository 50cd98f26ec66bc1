/*
 * test_irc_out.c — the outgoing side of IRC (adapters/irc/irc_out.h) with a
 * fake clock: CR/LF/NUL stripping and format-string safety, suit colours,
 * splitting at the exact byte limit with multi-byte characters and colour
 * codes at every boundary, the token bucket, the pacing models (ngircd,
 * InspIRCd, Solanum, the default and the switch between them, each checked
 * against the server's own counting replayed at every phase of its clock),
 * fairness between targets, priority, 707 requeue, tags reported after the
 * last part, the queue's cap, and the CTCP VERSION answer with its rate
 * limit.
 *
 * The checks of split lines use their own small parsers of UTF-8 and mIRC
 * codes, so a line is judged by what an IRC client would read, not by the
 * module's own idea of it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "irc_out.h"

#define T0 1000000 /* the fake clock's start, in ms */
#define HEART "\xE2\x99\xA5"
#define DIAMOND "\xE2\x99\xA6"
#define SPADE "\xE2\x99\xA0"
#define CLUB "\xE2\x99\xA3"
#define CLEF "\xF0\x9D\x84\x9E" /* 𝄞: four bytes */

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* Whether s[0..n) is valid UTF-8 (written apart from the module's). */
static int utf8_ok(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > n || (len == 2 && c < 0xC2))
            return 0;
        for (size_t k = 1; k < len; k++)
            if ((u[i + k] & 0xC0) != 0x80)
                return 0;
        i += len;
    }
    return 1;
}

/* The end of the mIRC colour code at t[j] (a \x03), as a client reads it. */
static size_t code_end(const char *t, size_t j)
{
    size_t e = j + 1, d = 0;
    while (d < 2 && t[e] >= '0' && t[e] <= '9')
        e++, d++;
    if (t[e] == ',' && t[e + 1] >= '0' && t[e + 1] <= '9') {
        e++;
        for (d = 0; d < 2 && t[e] >= '0' && t[e] <= '9'; d++)
            e++;
    }
    return e;
}

/* Whether a cut before t[pos] falls inside a UTF-8 character or a code. */
static int cut_is_bad(const char *t, size_t pos)
{
    if (((unsigned char)t[pos] & 0xC0) == 0x80)
        return 1;
    for (size_t j = pos > 6 ? pos - 6 : 0; j < pos; j++)
        if (t[j] == '\x03' && code_end(t, j) > pos)
            return 1;
    return 0;
}

/* What a client tracks of the format: colours and bold. */
typedef struct look {
    int fg, bg, bold;
} look;

/* Reads up to two digits at t into *v; returns how many. */
static size_t two_digits(const char *t, int *v)
{
    size_t n = 0;
    for (*v = 0; n < 2 && t[n] >= '0' && t[n] <= '9'; n++)
        *v = *v * 10 + (t[n] - '0');
    return n;
}

/* Reads t[0..n) onto *l as a client would (a code without foreground
   resets both colours). */
static void look_read(look *l, const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int fg, bg;
        if (t[i] == '\x02') {
            l->bold = !l->bold;
        } else if (t[i] == '\x0F') {
            l->fg = l->bg = -1, l->bold = 0;
        } else if (t[i] == '\x03') {
            size_t nf = two_digits(t + i + 1, &fg), j = i + 1 + nf;
            if (nf == 0)
                l->fg = l->bg = -1;
            else
                l->fg = fg;
            if (nf > 0 && t[j] == ',' && two_digits(t + j + 1, &bg) > 0)
                l->bg = bg;
            i = code_end(t, i) - 1;
        }
    }
}

/* Appends s to t[cap]: the tests' own bounded strcat. */
static void append(char *t, size_t cap, const char *s)
{
    size_t used = strlen(t), n = strlen(s);
    assert_true(used + n < cap);
    memcpy(t + used, s, n + 1);
}

/* A queue with no pacing, for tests of content and order. */
static void open_fast(irc_out *q)
{
    assert_int_equal(irc_out_init(q, 1, 0), 0);
}

/* The next line at now, which must exist; returns it in buf[513]. */
static irc_out_sent take(irc_out *q, int64_t now, char *buf)
{
    irc_out_sent s;
    assert_int_equal(irc_out_next(q, now, buf, IRC_OUT_LINE_MAX + 1, &s), 1);
    assert_int_equal(s.len, strlen(buf));
    return s;
}

/* Asserts that nothing may be sent at now. */
static void expect_nothing(irc_out *q, int64_t now)
{
    char buf[IRC_OUT_LINE_MAX + 1];
    irc_out_sent s;
    assert_int_equal(irc_out_next(q, now, buf, sizeof buf, &s), 0);
}

/* Asserts the target of the next line (its "PRIVMSG target :" start). */
static void expect_target(irc_out *q, int64_t now, const char *target)
{
    char buf[IRC_OUT_LINE_MAX + 1], want[IRC_OUT_TARGET_MAX + 16];
    take(q, now, buf);
    int n = snprintf(want, sizeof want, "PRIVMSG %s :", target);
    assert_true(n > 0 && (size_t)n < sizeof want);
    assert_memory_equal(buf, want, (size_t)n);
}

/* A deterministic generator (xorshift64). */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* ------------------------------------------------------------------------ */
/* Text safety                                                              */

static void test_sanitize_turns_cr_and_lf_into_spaces_and_drops_nul(void **state)
{
    (void)state;
    char out[32];
    static const char src[] = "a\r\nb\0c";
    assert_int_equal(irc_out_sanitize(out, sizeof out, src, sizeof src - 1), 5);
    assert_string_equal(out, "a  bc");
}

static void test_sanitize_replaces_each_invalid_utf8_byte_by_a_question_mark(void **state)
{
    (void)state;
    char out[64];
    /* a stray byte, an overlong '/', a surrogate, then a heart cut short */
    static const char src[] = "x\xFF"
                              "\xC0\xAF" HEART "\xED\xA0\x80"
                              "y\xE2\x99";
    size_t n = irc_out_sanitize(out, sizeof out, src, sizeof src - 1);
    assert_string_equal(out, "x???" HEART "???y??");
    assert_int_equal(n, strlen(out));
    assert_true(utf8_ok(out, n));
}

static void test_sanitize_cuts_at_a_character_boundary_when_the_buffer_is_small(void **state)
{
    (void)state;
    char out[8];
    assert_int_equal(irc_out_sanitize(out, 5, "ab" HEART, 5), 2);
    assert_string_equal(out, "ab");
    assert_int_equal(irc_out_sanitize(out, 6, "ab" HEART, 5), 5);
    assert_string_equal(out, "ab" HEART);
}

static void test_a_pushed_cr_lf_cannot_inject_a_second_command(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    open_fast(&q);
    assert_int_equal(irc_out_push(&q, "#porrazo", IRC_OUT_PRIVMSG, 0, 0, "hi\r\nQUIT :bye\r", 1),
                     1);
    take(&q, T0, buf);
    assert_string_equal(buf, "PRIVMSG #porrazo :hi  QUIT :bye \r\n");
    irc_out_fini(&q);
}

static void test_user_text_is_never_used_as_a_format(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    open_fast(&q);
    assert_int_equal(irc_out_push(&q, "bob", IRC_OUT_NOTICE, 0, 1, "%s%n%x %d%% %.*s", 1), 1);
    take(&q, T0, buf);
    assert_string_equal(buf, "NOTICE bob :%s%n%x %d%% %.*s\r\n");
    irc_out_fini(&q);
}

static void test_only_a_whole_ctcp_message_keeps_its_01_bytes(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    open_fast(&q);
    irc_out_push(&q, "#g", IRC_OUT_PRIVMSG, 0, 0,
                 "'\x01"
                 "ACTION dances\x01' is not a card",
                 1);
    irc_out_push(&q, "bob", IRC_OUT_NOTICE, 0, 0, "\x01VERSION porrazo-bot 0.1.0\x01", 2);
    take(&q, T0, buf);
    assert_string_equal(buf, "PRIVMSG #g :' ACTION dances ' is not a card\r\n");
    take(&q, T0, buf);
    assert_string_equal(buf, "NOTICE bob :\x01VERSION porrazo-bot 0.1.0\x01\r\n");
    irc_out_fini(&q);
}

/* ------------------------------------------------------------------------ */
/* Colours                                                                  */

static void test_colour_paints_red_cards_with_their_rank_and_leaves_black_ones(void **state)
{
    (void)state;
    char out[256];
    const char *want = "\x03"
                       "047" HEART "\x03 K" SPADE " \x03"
                       "0410" DIAMOND "\x03 A" CLUB;
    assert_int_equal(irc_out_colour(out, sizeof out, "7" HEART " K" SPADE " 10" DIAMOND " A" CLUB),
                     (int)strlen(want));
    assert_string_equal(out, want);
}

static void test_colour_paints_a_lone_suit_and_no_rank_inside_a_word(void **state)
{
    (void)state;
    char out[256];
    irc_out_colour(out, sizeof out, "trumps: " DIAMOND " \xC2\xB7 x7" HEART " \xC2\xB7Q" HEART);
    assert_string_equal(out, "trumps: \x03"
                             "04" DIAMOND "\x03 \xC2\xB7 x7\x03"
                             "04" HEART "\x03 \xC2\xB7\x03"
                             "04Q" HEART "\x03");
}

static void test_colour_keeps_a_following_digit_or_comma_out_of_the_code(void **state)
{
    (void)state;
    char out[256];
    irc_out_colour(out, sizeof out, "7" HEART ",8" DIAMOND "5");
    assert_string_equal(out, "\x03"
                             "047" HEART "\x03\x02\x02,\x03"
                             "048" DIAMOND "\x03\x02\x02"
                             "5");
}

static void test_colour_refuses_a_small_buffer_and_leaves_it_untouched(void **state)
{
    (void)state;
    char out[8] = "keep";
    assert_int_equal(irc_out_colour(out, sizeof out, "7" HEART " 8" HEART), IRC_OUT_ENO_SPACE);
    assert_string_equal(out, "keep");
}

static void test_push_colours_only_when_asked(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    open_fast(&q);
    assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 1, "play 7" HEART, 1), 1);
    assert_int_equal(irc_out_push(&q, "#b", IRC_OUT_PRIVMSG, 0, 0, "play 7" HEART, 2), 1);
    take(&q, T0, buf);
    assert_string_equal(buf, "PRIVMSG #a :play \x03"
                             "047" HEART "\x03\r\n");
    take(&q, T0, buf);
    assert_string_equal(buf, "PRIVMSG #b :play 7" HEART "\r\n");
    irc_out_fini(&q);
}

/* ------------------------------------------------------------------------ */
/* Splitting                                                                */

static void test_a_new_pace_keeps_the_queued_lines_and_applies_at_once(void **state)
{
    (void)state;
    irc_out q;
    assert_int_equal(irc_out_init(&q, 2, 1000), 0);
    for (int i = 0; i < 6; i++)
        assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "line", i + 1), 1);
    char buf[IRC_OUT_LINE_MAX + 1];
    take(&q, 0, buf);
    take(&q, 0, buf); /* the burst of 2 is spent */
    expect_nothing(&q, 500);
    assert_int_equal(irc_out_set_pace(&q, IRC_OUT_PACE_CUSTOM, 1, 100), 0);
    assert_int_equal(irc_out_count(&q), 4); /* nothing lost */
    take(&q, 600, buf);                     /* a line per 100 ms now */
    expect_nothing(&q, 650);
    take(&q, 700, buf);
    assert_int_equal(irc_out_set_pace(&q, IRC_OUT_PACE_CUSTOM, 0, 100), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_CUSTOM);
    assert_int_equal(irc_out_set_pace(&q, IRC_OUT_PACE_NGIRCD, 4, 1500), 0);
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_NGIRCD);
    assert_int_equal(irc_out_count(&q), 2);
    irc_out_fini(&q);
}

static void test_budget_counts_the_servers_prefix_and_the_command(void **state)
{
    (void)state;
    /* 512 - CRLF - ":porrazo!~porrazo@<63> " - "PRIVMSG #porrazo :" */
    assert_int_equal(irc_out_budget(7, 8, 0, IRC_OUT_PRIVMSG, 8), 512 - 2 - 82 - 18);
    assert_int_equal(irc_out_budget(7, 8, 20, IRC_OUT_NOTICE, 3), 512 - 2 - 39 - 12);
    assert_int_equal(irc_out_budget(255, 255, 255, IRC_OUT_PRIVMSG, 8), 0);
}

static void test_split_fills_a_line_to_exactly_the_byte_limit(void **state)
{
    (void)state;
    irc_out q;
    char text[1001], buf[IRC_OUT_LINE_MAX + 1];
    memset(text, 'x', 1000);
    text[1000] = '\0';
    open_fast(&q);
    assert_int_equal(irc_out_set_prefix(&q, 10, 10, 20), 0);
    size_t prefix = 1 + 10 + 1 + 10 + 1 + 20 + 1;
    int n = irc_out_push(&q, "#t", IRC_OUT_PRIVMSG, 0, 0, text, 7);
    assert_int_equal(n, 3);
    size_t total = 0;
    for (int k = 0; k < n; k++) {
        irc_out_sent s = take(&q, T0, buf);
        if (k < 2)
            assert_int_equal(prefix + s.len, IRC_OUT_LINE_MAX); /* exactly full */
        total += s.len - strlen("PRIVMSG #t :\r\n");
    }
    assert_int_equal(total, 1000);
    irc_out_fini(&q);
}

static void test_split_cuts_after_a_space_only_in_the_second_half_of_the_line(void **state)
{
    (void)state;
    char text[400];
    irc_out_part p[8];
    size_t n;
    memset(text, 'a', 90);
    text[90] = ' ';
    memset(text + 91, 'b', 50);
    text[141] = '\0';
    assert_int_equal(irc_out_split(text, 100, p, 8, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(p[0].len, 91); /* "aaa...a " */
    assert_int_equal(p[1].off, 91);
    memcpy(text, "a ", 2); /* a space too early to cut at */
    memset(text + 2, 'b', 200);
    text[202] = '\0';
    assert_int_equal(irc_out_split(text, 100, p, 8, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(p[0].len, 100);
}

static void test_split_never_cuts_inside_a_utf8_character(void **state)
{
    (void)state;
    char text[1200] = "";
    irc_out_part p[32];
    size_t n;
    for (int k = 0; k < 120; k++)
        append(text, sizeof text, k % 3 == 0 ? CLEF : HEART);
    for (size_t budget = 100; budget < 108; budget++) {
        assert_int_equal(irc_out_split(text, budget, p, 32, &n), 0);
        size_t at = 0;
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(p[k].off, at);
            assert_true(p[k].len + strlen(p[k].reopen) <= budget);
            if (k + 1 < n)
                assert_true(p[k].len + 3 >= budget); /* as full as whole characters allow */
            assert_true(utf8_ok(text + p[k].off, p[k].len));
            at += p[k].len;
        }
        assert_int_equal(at, strlen(text));
    }
}

static void test_split_never_separates_a_colour_code_from_its_digits(void **state)
{
    (void)state;
    char text[600];
    irc_out_part p[16];
    size_t n;
    for (size_t pad = 0; pad < 14; pad++) {
        memset(text, 'x', pad);
        text[pad] = '\0';
        for (int k = 0; k < 40; k++)
            append(text, sizeof text,
                   k % 2 ? "\x03"
                           "04,12ab"
                         : "\x03"
                           "7,3c");
        assert_int_equal(irc_out_split(text, 100, p, 16, &n), 0);
        for (size_t k = 1; k < n; k++) {
            assert_false(cut_is_bad(text, p[k].off));
            look seen = {-1, -1, 0}, reopened = {-1, -1, 0};
            look_read(&seen, text, p[k].off);
            look_read(&reopened, p[k].reopen, strlen(p[k].reopen));
            assert_memory_equal(&seen, &reopened, sizeof seen);
        }
    }
}

static void test_split_reopens_colour_and_bold_at_the_start_of_the_next_part(void **state)
{
    (void)state;
    char text[400] = "\x02\x03"
                     "04,01";
    irc_out_part p[4];
    size_t n;
    memset(text + 7, 'r', 300);
    text[307] = '\0';
    assert_int_equal(irc_out_split(text, 200, p, 4, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(p[0].reopen, "");
    assert_string_equal(p[1].reopen, "\x03"
                                     "04,01\x02");
    assert_int_equal(p[0].len, 200);
    memcpy(text,
           "\x03"
           "04",
           3);
    memset(text + 3, 'r', 197);
    memcpy(text + 200, ",5 and more", 12); /* a comma and a digit right after the cut */
    assert_int_equal(irc_out_split(text, 200, p, 4, &n), 0);
    assert_int_equal(p[0].len, 200);
    assert_string_equal(p[1].reopen, "\x03"
                                     "04\x02\x02");
}

static void test_split_refuses_a_tiny_budget_or_too_few_parts_untouched(void **state)
{
    (void)state;
    char text[300];
    irc_out_part p[2] = {{7, 7, ""}, {7, 7, ""}};
    size_t n = 99;
    memset(text, 'z', 299);
    text[299] = '\0';
    assert_int_equal(irc_out_split(text, 99, p, 2, &n), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_split(text, 100, p, 2, &n), IRC_OUT_ENO_SPACE);
    assert_int_equal(n, 99);
    assert_int_equal(p[1].off, 7);
    assert_int_equal(irc_out_split("", 100, p, 2, &n), 0);
    assert_int_equal(n, 0);
}

/* Appends to t (cap bytes) random pieces until about len bytes. */
static void random_text(char *t, size_t cap, size_t len, uint64_t *seed)
{
    static const char *const PIECES[] = {"a",
                                         "bc",
                                         " ",
                                         " ",
                                         HEART,
                                         DIAMOND,
                                         SPADE,
                                         CLEF,
                                         "\xC3\xA9",
                                         "\x02",
                                         "\x03"
                                         "04",
                                         "\x03"
                                         "4,12",
                                         "\x03",
                                         "\x0F",
                                         "7",
                                         ",",
                                         "12",
                                         "10" HEART,
                                         "K" DIAMOND};
    size_t used = 0;
    t[0] = '\0';
    while (used < len) {
        const char *piece = PIECES[rnd(seed) % (sizeof PIECES / sizeof PIECES[0])];
        size_t n = strlen(piece);
        if (used + n >= cap)
            break;
        memcpy(t + used, piece, n + 1);
        used += n;
    }
}

/* Checks one raw line for target against part p of text (see below). */
static void check_line(const char *line, size_t prefix, const char *target, const char *text,
                       const irc_out_part *p)
{
    char head[IRC_OUT_TARGET_MAX + 16];
    size_t len = strlen(line);
    int h = snprintf(head, sizeof head, "PRIVMSG %s :", target);
    assert_true(h > 0 && (size_t)h < sizeof head);
    assert_true(prefix + len <= IRC_OUT_LINE_MAX);
    assert_string_equal(line + len - 2, "\r\n");
    assert_null(memchr(line, '\r', len - 2));
    assert_null(memchr(line, '\n', len - 2));
    assert_memory_equal(line, head, (size_t)h);
    const char *body = line + h;
    size_t body_len = len - 2 - (size_t)h, open = strlen(p->reopen);
    assert_true(utf8_ok(body, body_len));
    assert_int_equal(body_len, open + p->len);
    assert_memory_equal(body, p->reopen, open);
    assert_memory_equal(body + open, text + p->off, p->len);
    if (p->off > 0)
        assert_false(cut_is_bad(text, p->off));
    look seen = {-1, -1, 0}, reopened = {-1, -1, 0};
    look_read(&seen, text, p->off);
    look_read(&reopened, p->reopen, open);
    assert_memory_equal(&seen, &reopened, sizeof seen);
}

static void test_random_messages_make_lines_that_fit_and_add_up_to_the_text(void **state)
{
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15u;
    static char text[IRC_OUT_TEXT_MAX + 1], ready[IRC_OUT_TEXT_MAX * 3 + 1];
    static irc_out_part parts[256];
    char line[IRC_OUT_LINE_MAX + 1];
    for (int round = 0; round < 400; round++) {
        irc_out q;
        open_fast(&q);
        size_t nick = 1 + rnd(&seed) % 30, user = 1 + rnd(&seed) % 11, host = rnd(&seed) % 64;
        const char *target = round % 2 ? "#porrazo" : "SomeoneWithALongNick";
        int colour = round % 3 == 0;
        assert_int_equal(irc_out_set_prefix(&q, nick, user, host), 0);
        random_text(text, sizeof text, 1 + rnd(&seed) % IRC_OUT_TEXT_MAX, &seed);
        if (colour)
            assert_true(irc_out_colour(ready, sizeof ready, text) >= 0);
        else
            memcpy(ready, text, strlen(text) + 1);
        size_t budget = irc_out_budget(nick, user, host, IRC_OUT_PRIVMSG, strlen(target)), n;
        assert_int_equal(irc_out_split(ready, budget, parts, 256, &n), 0);
        assert_int_equal(irc_out_push(&q, target, IRC_OUT_PRIVMSG, 0, colour, text, round), n);
        size_t prefix = 4 + nick + user + (host ? host : IRC_OUT_HOST_UNKNOWN), at = 0;
        for (size_t k = 0; k < n; k++) {
            irc_out_sent s = take(&q, T0, line);
            assert_int_equal(s.done, k + 1 == n);
            assert_int_equal(s.tag, round);
            assert_int_equal(parts[k].off, at);
            check_line(line, prefix, target, ready, &parts[k]);
            at += parts[k].len;
        }
        assert_int_equal(at, strlen(ready)); /* the slices put together are the text */
        assert_int_equal(irc_out_count(&q), 0);
        irc_out_fini(&q);
    }
}

/* ------------------------------------------------------------------------ */
/* The send queue                                                           */

static void test_the_bucket_sends_a_burst_then_one_line_per_interval(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    assert_int_equal(irc_out_init(&q, IRC_OUT_BURST_DEFAULT, IRC_OUT_LINE_MS_DEFAULT), 0);
    for (int k = 0; k < 8; k++)
        assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "chatter", k), 1);
    for (int k = 0; k < 4; k++)
        take(&q, T0, buf);
    expect_nothing(&q, T0);
    assert_int_equal(irc_out_wait_ms(&q, T0), 1500);
    expect_nothing(&q, T0 + 1499);
    assert_int_equal(irc_out_wait_ms(&q, T0 + 1499), 1);
    take(&q, T0 + 1500, buf);
    expect_nothing(&q, T0 + 2999);
    take(&q, T0 + 3000, buf);
    take(&q, T0 + 4500, buf);
    assert_int_equal(irc_out_wait_ms(&q, T0 + 4500), 1500);
    take(&q, T0 + 6000, buf);
    assert_int_equal(irc_out_wait_ms(&q, T0 + 6000), -1); /* all sent */
    irc_out_fini(&q);
}

static void test_an_idle_queue_refills_only_up_to_the_burst(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    assert_int_equal(irc_out_init(&q, 4, 1500), 0);
    for (int k = 0; k < 6; k++)
        irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "x", k);
    take(&q, T0, buf);
    int64_t later = T0 + 3600 * 1000; /* an hour of quiet */
    for (int k = 0; k < 4; k++)
        take(&q, later, buf);
    expect_nothing(&q, later);
    assert_int_equal(irc_out_wait_ms(&q, later), 1500);
    irc_out_fini(&q);
}

static void test_line_ms_0_sends_every_line_back_to_back(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    assert_int_equal(irc_out_init(&q, 1, 0), 0); /* a server that exempts the bot */
    for (int k = 0; k < 50; k++)
        assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "chatter", k), 1);
    for (int k = 0; k < 50; k++) {
        assert_int_equal(irc_out_bucket_wait_ms(&q, T0), 0);
        irc_out_sent s = take(&q, T0, buf); /* the same instant: no credit needed */
        assert_int_equal(s.tag, k);
    }
    assert_int_equal(irc_out_wait_ms(&q, T0), -1);
    irc_out_fini(&q);
}

static void test_a_burst_of_1000_goes_at_once_then_the_interval_holds(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    assert_int_equal(irc_out_init(&q, IRC_OUT_BURST_MAX, IRC_OUT_LINE_MS_MAX), 0);
    for (int k = 0; k < IRC_OUT_BURST_MAX + 1; k++)
        assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "x", k), 1);
    for (int k = 0; k < IRC_OUT_BURST_MAX; k++)
        take(&q, T0, buf);
    expect_nothing(&q, T0);
    assert_int_equal(irc_out_wait_ms(&q, T0), IRC_OUT_LINE_MS_MAX);
    take(&q, T0 + IRC_OUT_LINE_MS_MAX, buf);
    irc_out_fini(&q);
}

static void test_bucket_wait_says_when_the_next_line_has_credit_queued_or_not(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    assert_int_equal(irc_out_init(&q, 2, 1000), 0);
    assert_int_equal(irc_out_bucket_wait_ms(&q, T0), 0); /* full */
    irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "one", 1);
    irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "two", 2);
    take(&q, T0, buf);
    take(&q, T0, buf);
    assert_int_equal(irc_out_wait_ms(&q, T0), -1);          /* nothing queued */
    assert_int_equal(irc_out_bucket_wait_ms(&q, T0), 1000); /* but no credit either */
    assert_int_equal(irc_out_bucket_wait_ms(&q, T0 + 400), 600);
    assert_int_equal(irc_out_bucket_wait_ms(&q, T0 + 1000), 0);
    irc_out_fini(&q);
}

static void test_two_busy_channels_take_turns(void **state)
{
    (void)state;
    irc_out q;
    open_fast(&q);
    for (int k = 0; k < 5; k++)
        irc_out_push(&q, "#busy", IRC_OUT_PRIVMSG, 0, 0, "busy game", k);
    for (int k = 0; k < 2; k++)
        irc_out_push(&q, "#quiet", IRC_OUT_PRIVMSG, 0, 0, "quiet game", 10 + k);
    expect_target(&q, T0, "#busy");
    expect_target(&q, T0, "#quiet");
    irc_out_push(&q, "#third", IRC_OUT_PRIVMSG, 0, 0, "a new game", 20);
    expect_target(&q, T0, "#third"); /* a new target joins the round */
    expect_target(&q, T0, "#busy");
    expect_target(&q, T0, "#quiet");
    expect_target(&q, T0, "#busy");
    expect_target(&q, T0, "#busy");
    expect_target(&q, T0, "#busy");
    assert_int_equal(irc_out_count(&q), 0);
    irc_out_fini(&q);
}

static void test_private_hands_with_priority_go_before_channel_chatter(void **state)
{
    (void)state;
    irc_out q;
    open_fast(&q);
    for (int k = 0; k < 4; k++)
        irc_out_push(&q, "#game", IRC_OUT_PRIVMSG, 0, 0, "chatter", k);
    irc_out_push(&q, "alice", IRC_OUT_PRIVMSG, 1, 0, "your hand: 7" HEART, 10);
    irc_out_push(&q, "bob", IRC_OUT_NOTICE, 1, 0, "your hand: K" SPADE, 11);
    irc_out_push(&q, "carol", IRC_OUT_PRIVMSG, 0, 0, "no priority", 12);
    expect_target(&q, T0, "alice");
    char buf[IRC_OUT_LINE_MAX + 1];
    take(&q, T0, buf);
    assert_string_equal(buf, "NOTICE bob :your hand: K" SPADE "\r\n");
    expect_target(&q, T0, "carol"); /* then round robin at priority 0 */
    expect_target(&q, T0, "#game");
    expect_target(&q, T0, "#game");
    irc_out_fini(&q);
}

static void test_a_higher_priority_message_waits_for_a_started_one(void **state)
{
    (void)state;
    irc_out q;
    char text[700];
    open_fast(&q);
    memset(text, 'm', 699);
    text[699] = '\0';
    assert_int_equal(irc_out_push(&q, "dave", IRC_OUT_PRIVMSG, 0, 0, text, 1), 2);
    assert_int_equal(irc_out_push(&q, "dave", IRC_OUT_PRIVMSG, 0, 0, "later", 2), 1);
    char buf[IRC_OUT_LINE_MAX + 1];
    assert_int_equal(take(&q, T0, buf).tag, 1); /* the long one has begun */
    assert_int_equal(irc_out_push(&q, "dave", IRC_OUT_PRIVMSG, 5, 0, "urgent", 3), 1);
    irc_out_sent s = take(&q, T0, buf);
    assert_true(s.tag == 1 && s.done);
    assert_int_equal(take(&q, T0, buf).tag, 3); /* before "later" */
    assert_int_equal(take(&q, T0, buf).tag, 2);
    irc_out_fini(&q);
}

static void test_a_tag_is_reported_only_after_the_last_part(void **state)
{
    (void)state;
    irc_out q;
    char text[1101], buf[IRC_OUT_LINE_MAX + 1];
    open_fast(&q);
    for (int k = 0; k < 1100; k++)
        text[k] = k % 10 == 9 ? ' ' : 'w';
    text[1100] = '\0';
    assert_int_equal(irc_out_push(&q, "#g", IRC_OUT_PRIVMSG, 0, 0, text, 42), 3);
    assert_true(irc_out_has_tag(&q, 42));
    irc_out_sent s = take(&q, T0, buf);
    assert_true(s.tag == 42 && !s.done);
    s = take(&q, T0, buf);
    assert_true(s.tag == 42 && !s.done);
    assert_true(irc_out_has_tag(&q, 42));
    s = take(&q, T0, buf);
    assert_true(s.tag == 42 && s.done);
    assert_false(irc_out_has_tag(&q, 42));
    irc_out_fini(&q);
}

static void test_707_puts_the_last_line_back_and_pauses_only_that_target(void **state)
{
    (void)state;
    irc_out q;
    char first[IRC_OUT_LINE_MAX + 1], buf[IRC_OUT_LINE_MAX + 1];
    open_fast(&q);
    irc_out_push(&q, "Bob[away]", IRC_OUT_PRIVMSG, 1, 0, "your hand", 1);
    irc_out_push(&q, "Bob[away]", IRC_OUT_PRIVMSG, 1, 0, "your turn", 2);
    irc_out_push(&q, "#game", IRC_OUT_PRIVMSG, 0, 0, "chatter", 3);
    assert_true(take(&q, T0, first).done);
    /* the server spells the target in another case (rfc1459: [ is { ) */
    assert_int_equal(irc_out_requeue(&q, "bob{AWAY}", T0 + 10, 5000), 0);
    assert_int_equal(irc_out_count(&q), 3);
    expect_target(&q, T0 + 20, "#game"); /* bob is paused, the channel is not */
    expect_nothing(&q, T0 + 20);
    assert_int_equal(irc_out_wait_ms(&q, T0 + 20), 4990);
    expect_nothing(&q, T0 + 5009);
    irc_out_sent s = take(&q, T0 + 5010, buf);
    assert_string_equal(buf, first);    /* the same line again */
    assert_true(s.tag == 1 && !s.done); /* its tag was already reported */
    s = take(&q, T0 + 5010, buf);
    assert_true(s.tag == 2 && s.done);
    irc_out_fini(&q);
}

static void test_requeue_without_a_line_sent_to_the_target_is_refused(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    open_fast(&q);
    assert_int_equal(irc_out_requeue(&q, "nobody", T0, 1000), IRC_OUT_ENOT_FOUND);
    irc_out_push(&q, "erin", IRC_OUT_PRIVMSG, 0, 0, "hi", 1);
    assert_int_equal(irc_out_requeue(&q, "erin", T0, 1000), IRC_OUT_ENOT_FOUND);
    take(&q, T0, buf);
    assert_int_equal(irc_out_requeue(&q, "erin", T0, -1), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_requeue(&q, "erin", T0, 1000), 0);
    assert_int_equal(irc_out_requeue(&q, "erin", T0, 1000), IRC_OUT_ENOT_FOUND);
    assert_int_equal(irc_out_count(&q), 1);
    irc_out_fini(&q);
}

static void test_the_queue_refuses_lines_beyond_its_cap(void **state)
{
    (void)state;
    irc_out q;
    char text[700];
    open_fast(&q);
    for (int k = 0; k < IRC_OUT_LINES_MAX - 1; k++)
        assert_int_equal(irc_out_push(&q, k % 2 ? "#a" : "#b", IRC_OUT_PRIVMSG, 0, 0, "x", k), 1);
    memset(text, 'y', 699);
    text[699] = '\0'; /* two lines: one too many */
    assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, text, -1), IRC_OUT_EFULL);
    assert_int_equal(irc_out_count(&q), IRC_OUT_LINES_MAX - 1);
    assert_false(irc_out_has_tag(&q, -1));
    assert_int_equal(irc_out_push(&q, "#c", IRC_OUT_PRIVMSG, 0, 0, "last", -2), 1);
    assert_int_equal(irc_out_push(&q, "#c", IRC_OUT_PRIVMSG, 0, 0, "over", -3), IRC_OUT_EFULL);
    assert_int_equal(irc_out_count(&q), IRC_OUT_LINES_MAX);
    assert_non_null(strstr(irc_out_strerror(IRC_OUT_EFULL), "full"));
    irc_out_fini(&q);
}

static void test_clear_drops_unsent_lines_without_reporting_their_tags(void **state)
{
    (void)state;
    irc_out q;
    char text[700], buf[IRC_OUT_LINE_MAX + 1];
    memset(text, 'c', 699);
    text[699] = '\0';
    open_fast(&q);
    irc_out_push(&q, "#g", IRC_OUT_PRIVMSG, 0, 0, text, 5);
    assert_false(take(&q, T0, buf).done); /* first part out, then the link drops */
    irc_out_push(&q, "frank", IRC_OUT_PRIVMSG, 1, 0, "hand", 6);
    irc_out_clear(&q);
    assert_int_equal(irc_out_count(&q), 0);
    assert_false(irc_out_has_tag(&q, 5));
    expect_nothing(&q, T0 + 60000);
    assert_int_equal(irc_out_wait_ms(&q, T0), -1);
    assert_int_equal(irc_out_requeue(&q, "#g", T0, 0), IRC_OUT_ENOT_FOUND);
    irc_out_push(&q, "#g", IRC_OUT_PRIVMSG, 0, 0, text, 5); /* pushed again on reconnect */
    assert_false(take(&q, T0, buf).done);
    assert_true(take(&q, T0, buf).done);
    irc_out_fini(&q);
}

static void test_a_new_target_replaces_an_idle_one_or_is_refused(void **state)
{
    (void)state;
    irc_out q;
    char name[16], buf[IRC_OUT_LINE_MAX + 1];
    open_fast(&q);
    for (int k = 0; k < IRC_OUT_TARGETS_MAX; k++) {
        int n = snprintf(name, sizeof name, "#t%03d", k);
        assert_true(n > 0 && (size_t)n < sizeof name);
        assert_int_equal(irc_out_push(&q, name, IRC_OUT_PRIVMSG, 0, 0, "x", k), 1);
    }
    assert_int_equal(irc_out_push(&q, "#new", IRC_OUT_PRIVMSG, 0, 0, "x", -1), IRC_OUT_EFULL);
    expect_target(&q, T0, "#t000"); /* now idle */
    assert_int_equal(irc_out_push(&q, "#new", IRC_OUT_PRIVMSG, 0, 0, "x", -1), 1);
    assert_int_equal(irc_out_requeue(&q, "#t000", T0, 0), IRC_OUT_ENOT_FOUND); /* forgotten */
    expect_target(&q, T0, "#t001"); /* the round robin goes on where it was */
    for (int k = 2; k < IRC_OUT_TARGETS_MAX; k++)
        take(&q, T0, buf);
    expect_target(&q, T0, "#new");
    irc_out_fini(&q);
}

static void test_push_refuses_bad_targets_long_texts_and_a_huge_prefix(void **state)
{
    (void)state;
    irc_out q;
    char long_text[IRC_OUT_TEXT_MAX + 2], long_target[IRC_OUT_TARGET_MAX + 1];
    open_fast(&q);
    static const char *const BAD[] = {"", ":x", "a b", "#a,#b", "bob\r\nQUIT", "x\x01"};
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++)
        assert_int_equal(irc_out_push(&q, BAD[k], IRC_OUT_PRIVMSG, 0, 0, "hi", 1),
                         IRC_OUT_EBAD_TARGET);
    memset(long_target, 't', IRC_OUT_TARGET_MAX);
    long_target[IRC_OUT_TARGET_MAX] = '\0';
    assert_int_equal(irc_out_push(&q, long_target, IRC_OUT_PRIVMSG, 0, 0, "hi", 1),
                     IRC_OUT_EBAD_TARGET);
    memset(long_text, 'l', IRC_OUT_TEXT_MAX + 1);
    long_text[IRC_OUT_TEXT_MAX + 1] = '\0';
    assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, long_text, 1),
                     IRC_OUT_ETOO_LONG);
    assert_int_equal(irc_out_set_prefix(&q, 256, 1, 1), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_set_prefix(&q, 255, 255, 255), 0);
    assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "hi", 1), IRC_OUT_ENO_ROOM);
    assert_int_equal(irc_out_count(&q), 0);
    irc_out_fini(&q);
}

static void test_an_empty_text_queues_nothing(void **state)
{
    (void)state;
    irc_out q;
    open_fast(&q);
    assert_int_equal(irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 1, "", 9), 0);
    assert_false(irc_out_has_tag(&q, 9));
    assert_int_equal(irc_out_wait_ms(&q, T0), -1);
    irc_out_fini(&q);
}

static void test_init_and_next_refuse_bad_arguments(void **state)
{
    (void)state;
    irc_out q;
    char small[IRC_OUT_LINE_MAX];
    irc_out_sent s;
    assert_int_equal(irc_out_init(&q, 0, 1500), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_init(&q, IRC_OUT_BURST_MAX + 1, 1500), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_init(&q, 4, -1), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_init(&q, 4, IRC_OUT_LINE_MS_MAX + 1), IRC_OUT_EINVAL);
    open_fast(&q);
    irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "hi", 1);
    assert_int_equal(irc_out_next(&q, T0, small, sizeof small, &s), IRC_OUT_ENO_SPACE);
    assert_int_equal(irc_out_count(&q), 1);
    irc_out_fini(&q);
}

/* ------------------------------------------------------------------------ */
/* Pacing models                                                            */

#define DRAIN_MAX 256

/* A queue paced by pace whose prefix leaves room for lines of up to 505
   bytes. */
static void open_paced(irc_out *q, irc_out_pace pace)
{
    assert_int_equal(irc_out_init_pace(q, pace, IRC_OUT_BURST_DEFAULT, IRC_OUT_LINE_MS_DEFAULT), 0);
    assert_int_equal(irc_out_set_prefix(q, 1, 1, 1), 0);
}

/* Queues one PRIVMSG to target whose raw line is len bytes, CR LF included. */
static void push_len(irc_out *q, const char *target, size_t len, int64_t tag)
{
    char text[IRC_OUT_LINE_MAX];
    size_t overhead = strlen("PRIVMSG  :\r\n") + strlen(target);
    assert_true(len > overhead && len - overhead < sizeof text);
    memset(text, 'x', len - overhead);
    text[len - overhead] = '\0';
    assert_int_equal(irc_out_push(q, target, IRC_OUT_PRIVMSG, 0, 0, text, tag), 1);
}

/* Sends every queued line as soon as the queue allows, from now on, each
   at the time irc_out_wait_ms names (where irc_out_next must agree);
   writes the times and lengths; returns how many. */
static size_t drain(irc_out *q, int64_t now, int64_t *at, size_t *len)
{
    char buf[IRC_OUT_LINE_MAX + 1];
    irc_out_sent s;
    size_t n = 0;
    for (int64_t wait; (wait = irc_out_wait_ms(q, now)) >= 0;) {
        if (wait > 0)
            expect_nothing(q, now + wait - 1);
        now += wait;
        assert_int_equal(irc_out_next(q, now, buf, sizeof buf, &s), 1);
        assert_true(n < DRAIN_MAX);
        at[n] = now;
        len[n++] = s.len;
    }
    return n;
}

/* floor(a / b) for b > 0. */
static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/*
 * ngircd 26.1's counting (conn.c: Read_Request, Handle_Buffer) of lines
 * sent at at[] with len[] bytes, its clock's seconds starting at phase ms:
 * 1 when it would add a penalty. Each line is one read (lines of the same
 * ms: one read); the first read of a second is not counted (bps is reset
 * after adding it), the others add up, and 256 (COMMAND_LEN / 2) is a
 * penalty; so is a read of more than 3 lines (MAX_COMMANDS).
 */
static int ngircd_penalizes(const int64_t *at, const size_t *len, size_t n, int64_t phase)
{
    int64_t second = INT64_MIN;
    uint64_t bps = 0;
    for (size_t i = 0, same = 0; i < n; i++) {
        same = i > 0 && at[i] == at[i - 1] ? same + 1 : 1;
        int64_t s = floor_div(at[i] - phase, 1000);
        if (s != second) {
            second = s;
            bps = 0;
        } else {
            bps += len[i];
        }
        if (bps >= 256 || same > 3)
            return 1;
    }
    return 0;
}

/* InspIRCd 3's penalty (command_parse.cpp, users.cpp, usermanager.cpp)
   over lines of 1000 ms each at at[], let go by 1000 once a second at
   phase: 1 when a line would wait (fake lag) or reach the threshold of 10 s
   (Excess Flood without fake lag). A tick at a line's very ms comes after it. */
static int inspircd_lags(const int64_t *at, size_t n, int64_t phase)
{
    int64_t penalty = 0, tick = at[0] + floor_div(phase - at[0], 1000) * 1000;
    for (size_t i = 0; i < n; i++) {
        for (; tick < at[i]; tick += 1000)
            penalty = penalty > 1000 ? penalty - 1000 : 0;
        if (penalty >= 10000 || penalty + 1000 >= 10000)
            return 1;
        penalty += 1000;
    }
    return 0;
}

/* Solanum's count (packet.c: parse_client_queued, flood_recalc): each line
   one more, 2 less once a second at phase, a line waits when 5 are
   counted (client_flood_burst_max). 1 when a line would wait. */
static int solanum_lags(const int64_t *at, size_t n, int64_t phase)
{
    int64_t count = 0, tick = at[0] + floor_div(phase - at[0], 1000) * 1000;
    for (size_t i = 0; i < n; i++) {
        for (; tick < at[i]; tick += 1000)
            count = count > 2 ? count - 2 : 0;
        if (count >= 5)
            return 1;
        count++;
    }
    return 0;
}

static void test_ngircd_lets_a_line_and_another_130_bytes_go_per_window(void **state)
{
    (void)state;
    irc_out q;
    int64_t at[DRAIN_MAX];
    size_t len[DRAIN_MAX];
    open_paced(&q, IRC_OUT_PACE_NGIRCD);
    for (int k = 0; k < 6; k++)
        push_len(&q, "#a", 150, k);
    assert_int_equal(drain(&q, T0, at, len), 6);
    /* Two at once: ngircd does not count the first read of a second, and
       150 bytes are within IRC_OUT_NGIRCD_BYTES; a third would make 300. */
    int64_t want[] = {T0, T0, T0 + 1100, T0 + 1100, T0 + 2200, T0 + 2200};
    for (int k = 0; k < 6; k++)
        assert_int_equal(at[k], want[k]);
    irc_out_fini(&q);
}

static void test_ngircd_sends_a_line_longer_than_its_budget_alone(void **state)
{
    (void)state;
    irc_out q;
    int64_t at[DRAIN_MAX];
    size_t len[DRAIN_MAX];
    open_paced(&q, IRC_OUT_PACE_NGIRCD);
    push_len(&q, "#a", 500, 1);
    push_len(&q, "#a", 40, 2);
    push_len(&q, "#a", 500, 3);
    assert_int_equal(drain(&q, T0, at, len), 3);
    assert_int_equal(at[0], T0);                            /* first in its window: not counted */
    assert_int_equal(at[1], T0);                            /* 40 counted */
    assert_int_equal(at[2], T0 + IRC_OUT_NGIRCD_WINDOW_MS); /* 540 would be: alone, later */
    for (int64_t phase = 0; phase < 1000; phase++)
        assert_false(ngircd_penalizes(at, len, 3, phase));
    irc_out_fini(&q);
}

static void test_ngircd_sends_three_short_lines_a_read_and_counts_their_bytes(void **state)
{
    (void)state;
    irc_out q;
    int64_t at[DRAIN_MAX];
    size_t len[DRAIN_MAX];
    open_paced(&q, IRC_OUT_PACE_NGIRCD);
    for (int k = 0; k < 9; k++)
        push_len(&q, "#a", 31, k);
    assert_int_equal(drain(&q, T0, at, len), 9);
    /* 3 lines per 300 ms, and in 1100 ms the bytes of all but the first
       line within 230: 7 more lines of 31 (217), the 8th waits. */
    int64_t want[] = {T0, T0, T0, T0 + 300, T0 + 300, T0 + 300, T0 + 600, T0 + 600, T0 + 1100};
    for (int k = 0; k < 9; k++)
        assert_int_equal(at[k], want[k]);
    irc_out_fini(&q);
}

static void test_ngircd_waits_out_its_penalties_for_welcome_errors_and_mode(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    open_paced(&q, IRC_OUT_PACE_NGIRCD);
    irc_out_welcome(&q, T0);
    push_len(&q, "#a", 40, 1);
    assert_int_equal(irc_out_wait_ms(&q, T0), IRC_OUT_NGIRCD_WELCOME_MS);
    irc_out_error_reply(&q, T0 + 500); /* adds to the penalty still running */
    assert_int_equal(irc_out_wait_ms(&q, T0 + 500), 2500);
    expect_nothing(&q, T0 + 2999);
    take(&q, T0 + 3000, buf);
    irc_out_charge(&q, T0 + 3000, "MODE #a\r\n", 9);
    push_len(&q, "#a", 40, 2);
    assert_int_equal(irc_out_wait_ms(&q, T0 + 3000), IRC_OUT_NGIRCD_SLOW_MS);
    irc_out_error_reply(&q, T0 + 9000); /* long after: from then */
    assert_int_equal(irc_out_wait_ms(&q, T0 + 9000), IRC_OUT_NGIRCD_ERROR_MS);
    irc_out_fini(&q);
}

static void test_ngircd_counts_lines_sent_outside_the_queue(void **state)
{
    (void)state;
    irc_out q;
    open_paced(&q, IRC_OUT_PACE_NGIRCD);
    irc_out_charge(&q, T0, "PONG :irc.example.org\r\n", 23);
    irc_out_charge(&q, T0, "JOIN #a,#b,#c\r\n", 15);
    irc_out_charge(&q, T0, "PRIVMSG x :hello\r\n", 18);
    push_len(&q, "#a", 40, 1);
    assert_int_equal(irc_out_wait_ms(&q, T0), IRC_OUT_NGIRCD_LINES_MS); /* a 4th in a read */
    push_len(&q, "#b", 300, 2);
    irc_out_fini(&q);
}

static void test_inspircd_lets_eight_lines_go_then_one_per_1112_ms(void **state)
{
    (void)state;
    irc_out q;
    int64_t at[DRAIN_MAX];
    size_t len[DRAIN_MAX];
    open_paced(&q, IRC_OUT_PACE_INSPIRCD);
    for (int k = 0; k < 12; k++)
        push_len(&q, "#a", 400, k); /* InspIRCd counts commands, not bytes */
    assert_int_equal(drain(&q, T0, at, len), 12);
    for (int k = 0; k < 8; k++)
        assert_int_equal(at[k], T0);
    /* 1000 penalty ms a line, 900 let go a second. */
    assert_int_equal(at[8], T0 + 1112);
    assert_int_equal(at[9], T0 + 2223);
    assert_int_equal(at[11], T0 + 4445);
    irc_out_fini(&q);
}

static void test_inspircd_charges_a_join_two_lines_and_a_pong_nothing(void **state)
{
    (void)state;
    irc_out q;
    open_paced(&q, IRC_OUT_PACE_INSPIRCD);
    for (int k = 0; k < 3; k++)
        irc_out_charge(&q, T0, "JOIN #a\r\n", 9); /* 6 s of penalty */
    irc_out_charge(&q, T0, "PONG :x\r\n", 9);
    push_len(&q, "#a", 40, 1);
    push_len(&q, "#a", 40, 2);
    push_len(&q, "#a", 40, 3);
    char buf[IRC_OUT_LINE_MAX + 1];
    take(&q, T0, buf);
    take(&q, T0, buf);
    expect_nothing(&q, T0);
    assert_int_equal(irc_out_wait_ms(&q, T0), 1112);
    irc_out_fini(&q);
}

static void test_solanum_lets_four_lines_go_then_eighteen_per_ten_seconds(void **state)
{
    (void)state;
    irc_out q;
    int64_t at[DRAIN_MAX];
    size_t len[DRAIN_MAX];
    open_paced(&q, IRC_OUT_PACE_SOLANUM);
    for (int k = 0; k < 40; k++)
        push_len(&q, "#a", 60, k);
    assert_int_equal(drain(&q, T0, at, len), 40);
    for (int k = 0; k < 4; k++)
        assert_int_equal(at[k], T0);
    assert_int_equal(at[4], T0 + 556); /* 1.8 lines a second */
    size_t in_ten = 0;
    for (int k = 0; k < 40; k++)
        in_ten += at[k] <= T0 + 10000;
    assert_int_equal(in_ten, 4 + 18);
    irc_out_fini(&q);
}

static void test_solanum_counts_every_line_sent_outside_the_queue(void **state)
{
    (void)state;
    irc_out q;
    open_paced(&q, IRC_OUT_PACE_SOLANUM);
    for (int k = 0; k < 4; k++)
        irc_out_charge(&q, T0, "PONG :x\r\n", 9);
    push_len(&q, "#a", 40, 1);
    assert_int_equal(irc_out_wait_ms(&q, T0), 556);
    irc_out_fini(&q);
}

static void test_custom_ignores_lines_sent_outside_the_queue_as_before(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    assert_int_equal(irc_out_init(&q, 2, 1000), 0);
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_CUSTOM);
    for (int k = 0; k < 10; k++)
        irc_out_charge(&q, T0, "JOIN #a\r\n", 9);
    irc_out_welcome(&q, T0);
    irc_out_error_reply(&q, T0);
    irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "one", 1);
    irc_out_push(&q, "#a", IRC_OUT_PRIVMSG, 0, 0, "two", 2);
    take(&q, T0, buf);
    take(&q, T0, buf);
    assert_int_equal(irc_out_server_version(&q, "ngircd-26.1"), 0); /* configured: stays */
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_CUSTOM);
    irc_out_fini(&q);
}

static void test_the_default_sends_short_lines_exactly_as_the_old_bucket(void **state)
{
    (void)state;
    irc_out def, old;
    int64_t at_def[DRAIN_MAX], at_old[DRAIN_MAX];
    size_t len_def[DRAIN_MAX], len_old[DRAIN_MAX];
    uint64_t seed = 7;
    open_paced(&def, IRC_OUT_PACE_AUTO);
    assert_int_equal(irc_out_model(&def), IRC_OUT_PACE_AUTO);
    assert_int_equal(irc_out_init(&old, IRC_OUT_BURST_DEFAULT, IRC_OUT_LINE_MS_DEFAULT), 0);
    assert_int_equal(irc_out_set_prefix(&old, 1, 1, 1), 0);
    for (int k = 0; k < 30; k++) {
        size_t n = 20 + rnd(&seed) % 57; /* short: 4 lines of 76 count 228 bytes */
        push_len(&def, "#a", n, k);
        push_len(&old, "#a", n, k);
    }
    assert_int_equal(drain(&def, T0, at_def, len_def), 30);
    assert_int_equal(drain(&old, T0, at_old, len_old), 30);
    assert_memory_equal(at_def, at_old, sizeof at_def[0] * 30);
    irc_out_fini(&def);
    irc_out_fini(&old);
}

static void test_the_default_keeps_long_lines_within_ngircds_byte_count(void **state)
{
    (void)state;
    irc_out q;
    int64_t at[DRAIN_MAX];
    size_t len[DRAIN_MAX];
    open_paced(&q, IRC_OUT_PACE_AUTO);
    for (int k = 0; k < 4; k++)
        push_len(&q, "#a", 300, k);
    assert_int_equal(drain(&q, T0, at, len), 4);
    assert_int_equal(at[0], T0);
    assert_int_equal(at[1], T0 + 1100);
    assert_int_equal(at[2], T0 + 2200);
    assert_int_equal(at[3], T0 + 3300);
    for (int64_t phase = 0; phase < 1000; phase++)
        assert_false(ngircd_penalizes(at, len, 4, phase));
    irc_out_fini(&q);
}

static void test_auto_switches_from_the_default_when_the_server_names_itself(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    open_paced(&q, IRC_OUT_PACE_AUTO);
    for (int k = 0; k < 6; k++)
        push_len(&q, "#a", 31, k);
    for (int k = 0; k < 4; k++)
        take(&q, T0, buf); /* the default: the old burst of 4 */
    assert_int_equal(irc_out_wait_ms(&q, T0), IRC_OUT_LINE_MS_DEFAULT);
    assert_int_equal(irc_out_server_version(&q, "unknownd-1.2"), 0);
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_AUTO);
    assert_int_equal(irc_out_server_version(&q, "ngircd-26.1"), 1);
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_NGIRCD);
    assert_int_equal(irc_out_server_version(&q, "ngIRCd-27"), 0); /* the same model */
    /* ngircd's books were kept: 4 lines in this ms, so 300 ms. */
    assert_int_equal(irc_out_wait_ms(&q, T0), IRC_OUT_NGIRCD_LINES_MS);
    take(&q, T0 + IRC_OUT_NGIRCD_LINES_MS, buf);
    assert_int_equal(irc_out_server_version(&q, "InspIRCd-3"), 1);
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_INSPIRCD);
    assert_int_equal(irc_out_server_version(&q, "solanum-1.0-dev"), 1);
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_SOLANUM);
    /* Solanum's books: 5 lines in 300 ms, 2.3 over its 4: 7300 / 9 ms. */
    assert_int_equal(irc_out_wait_ms(&q, T0 + IRC_OUT_NGIRCD_LINES_MS), 812);
    assert_int_equal(irc_out_server_version(&q, "charybdis-4.1"), 0);
    assert_int_equal(irc_out_server_version(&q, "hybrid-8"), 1);
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_AUTO);
    irc_out_clear(&q); /* a disconnect keeps the model and the books */
    assert_int_equal(irc_out_model(&q), IRC_OUT_PACE_AUTO);
    irc_out_fini(&q);
}

static void test_bucket_wait_asks_about_the_line_that_would_go(void **state)
{
    (void)state;
    irc_out q;
    char buf[IRC_OUT_LINE_MAX + 1];
    open_paced(&q, IRC_OUT_PACE_NGIRCD);
    push_len(&q, "#a", 200, 1);
    take(&q, T0, buf);
    assert_int_equal(irc_out_bucket_wait_ms(&q, T0), 0); /* a short line fits: 64 */
    push_len(&q, "#a", 300, 2); /* over the budget: alone, once the first left */
    assert_int_equal(irc_out_bucket_wait_ms(&q, T0), IRC_OUT_NGIRCD_WINDOW_MS);
    assert_int_equal(irc_out_wait_ms(&q, T0), IRC_OUT_NGIRCD_WINDOW_MS);
    irc_out_fini(&q);
}

static void test_an_eight_player_deal_takes_under_10_s_on_ngircd(void **state)
{
    (void)state;
    irc_out q;
    int64_t at[DRAIN_MAX];
    size_t len[DRAIN_MAX];
    char nick[16];
    open_paced(&q, IRC_OUT_PACE_NGIRCD);
    irc_out_welcome(&q, T0 - 60000);
    push_len(&q, "#porrazo", 100, 0);
    for (int k = 0; k < 8; k++) {
        snprintf(nick, sizeof nick, "player%d", k);
        push_len(&q, nick, 150, 1 + k);
    }
    push_len(&q, "#porrazo", 100, 9);
    assert_int_equal(drain(&q, T0, at, len), 10);
    assert_int_equal(at[9], T0 + 4 * IRC_OUT_NGIRCD_WINDOW_MS); /* two lines a window: 4.4 s */
    for (int64_t phase = 0; phase < 1000; phase++)
        assert_false(ngircd_penalizes(at, len, 10, phase));
    irc_out_fini(&q);
}

/* Random lines pushed at random times to one of a few targets and drained
   under pace: the times they went at, in at[] and len[]; returns how many. */
static size_t random_traffic(irc_out_pace pace, uint64_t seed, int64_t *at, size_t *len)
{
    irc_out q;
    char target[8];
    open_paced(&q, pace);
    int64_t now = T0;
    size_t n = 0;
    for (int round = 0; round < 8; round++) {
        int lines = 1 + (int)(rnd(&seed) % 12);
        for (int k = 0; k < lines; k++) {
            snprintf(target, sizeof target, "#t%d", (int)(rnd(&seed) % 3));
            push_len(&q, target, 20 + rnd(&seed) % 480, round * 100 + k);
            if (rnd(&seed) % 4 == 0)
                irc_out_charge(&q, now, "PONG :irc.example.org\r\n", 23);
        }
        size_t got = drain(&q, now, at + n, len + n);
        now = (got > 0 ? at[n + got - 1] : now) + (int64_t)(rnd(&seed) % 3000);
        n += got;
    }
    irc_out_fini(&q);
    return n;
}

static void test_random_traffic_never_trips_the_servers_own_counts_at_any_phase(void **state)
{
    (void)state;
    int64_t at[DRAIN_MAX];
    size_t len[DRAIN_MAX];
    for (uint64_t seed = 1; seed <= 20; seed++) {
        size_t n = random_traffic(IRC_OUT_PACE_NGIRCD, seed, at, len);
        for (int64_t phase = 0; phase < 1000; phase += 7)
            if (ngircd_penalizes(at, len, n, phase))
                fail_msg("ngircd would penalize seed %llu at phase %lld", (unsigned long long)seed,
                         (long long)phase);
        n = random_traffic(IRC_OUT_PACE_INSPIRCD, seed, at, len);
        for (int64_t phase = 0; phase < 1000; phase += 7)
            if (inspircd_lags(at, n, phase))
                fail_msg("InspIRCd would lag seed %llu at phase %lld", (unsigned long long)seed,
                         (long long)phase);
        n = random_traffic(IRC_OUT_PACE_SOLANUM, seed, at, len);
        for (int64_t phase = 0; phase < 1000; phase += 7)
            if (solanum_lags(at, n, phase))
                fail_msg("Solanum would lag seed %llu at phase %lld", (unsigned long long)seed,
                         (long long)phase);
    }
}

static void test_pace_names_read_back_and_bad_ones_are_refused(void **state)
{
    (void)state;
    irc_out q;
    irc_out_pace p = IRC_OUT_PACE_CUSTOM;
    for (int i = IRC_OUT_PACE_AUTO; i <= IRC_OUT_PACE_CUSTOM; i++) {
        assert_int_equal(irc_out_pace_parse(irc_out_pace_name((irc_out_pace)i), &p), 0);
        assert_int_equal(p, i);
    }
    assert_int_equal(irc_out_pace_parse("Auto", &p), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_pace_parse("", &p), IRC_OUT_EINVAL);
    assert_int_equal(p, IRC_OUT_PACE_CUSTOM);
    assert_string_equal(irc_out_pace_name((irc_out_pace)9), "unknown");
    assert_int_equal(irc_out_init_pace(&q, (irc_out_pace)5, 4, 1500), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_init_pace(&q, IRC_OUT_PACE_NGIRCD, 0, 1500), IRC_OUT_EINVAL);
    assert_int_equal(irc_out_init_pace(&q, IRC_OUT_PACE_AUTO, 4, 1500), 0);
    irc_out_fini(&q);
}

/* ------------------------------------------------------------------------ */
/* CTCP                                                                     */

static void test_ctcp_version_is_answered_at_most_once_per_interval(void **state)
{
    (void)state;
    irc_out_ctcp c;
    char reply[64];
    irc_out_ctcp_init(&c, IRC_OUT_CTCP_MS_DEFAULT);
    assert_int_equal(
        irc_out_ctcp_decide(&c, "\x01VERSION\x01", T0, "porrazo-bot 0.1.0", reply, sizeof reply),
        IRC_OUT_CTCP_REPLY);
    assert_string_equal(reply, "\x01VERSION porrazo-bot 0.1.0\x01");
    assert_int_equal(irc_out_ctcp_decide(&c, "\x01version", T0 + 9999, "v", reply, sizeof reply),
                     IRC_OUT_CTCP_IGNORE);
    assert_int_equal(
        irc_out_ctcp_decide(&c, "\x01Version\x01", T0 + 10000, "v", reply, sizeof reply),
        IRC_OUT_CTCP_REPLY);
    assert_string_equal(reply, "\x01VERSION v\x01");
}

static void test_other_ctcp_requests_are_ignored_and_use_no_allowance(void **state)
{
    (void)state;
    irc_out_ctcp c;
    char reply[64] = "";
    irc_out_ctcp_init(&c, 10000);
    static const char *const OTHERS[] = {"\x01PING 123\x01",
                                         "\x01"
                                         "ACTION waves\x01",
                                         "\x01"
                                         "CLIENTINFO\x01",
                                         "\x01"
                                         "DCC SEND x 1 2 3\x01",
                                         "\x01VERSIONS\x01",
                                         "\x01"};
    for (size_t k = 0; k < sizeof OTHERS / sizeof OTHERS[0]; k++)
        assert_int_equal(irc_out_ctcp_decide(&c, OTHERS[k], T0, "v", reply, sizeof reply),
                         IRC_OUT_CTCP_IGNORE);
    assert_string_equal(reply, "");
    assert_int_equal(irc_out_ctcp_decide(&c, "\x01VERSION\x01", T0, "v", reply, sizeof reply),
                     IRC_OUT_CTCP_REPLY);
}

static void test_plain_text_and_a_late_01_are_not_ctcp(void **state)
{
    (void)state;
    irc_out_ctcp c;
    char reply[64];
    irc_out_ctcp_init(&c, 10000);
    assert_int_equal(irc_out_ctcp_decide(&c, "!play 7h", T0, "v", reply, sizeof reply),
                     IRC_OUT_CTCP_NONE);
    assert_int_equal(irc_out_ctcp_decide(&c, "hi \x01VERSION\x01", T0, "v", reply, sizeof reply),
                     IRC_OUT_CTCP_NONE);
    assert_int_equal(irc_out_ctcp_decide(&c, "", T0, "v", reply, sizeof reply), IRC_OUT_CTCP_NONE);
}

static void test_ctcp_reply_has_no_control_bytes_and_fits_or_is_refused(void **state)
{
    (void)state;
    irc_out_ctcp c;
    char reply[64], small[8];
    irc_out_ctcp_init(&c, 10000);
    assert_int_equal(
        irc_out_ctcp_decide(&c, "\x01VERSION\x01", T0, "porrazo-bot", small, sizeof small),
        IRC_OUT_ENO_SPACE);
    assert_int_equal(
        irc_out_ctcp_decide(&c, "\x01VERSION\x01", T0, "bad\x01\r\nversion", reply, sizeof reply),
        IRC_OUT_CTCP_REPLY); /* the refusal above used no allowance */
    assert_string_equal(reply, "\x01VERSION badversion\x01");
}

static void test_every_error_code_has_a_message(void **state)
{
    (void)state;
    for (int err = IRC_OUT_ENO_MEMORY; err < 0; err++)
        assert_string_not_equal(irc_out_strerror(err), "unknown error");
    assert_string_equal(irc_out_strerror(0), "ok");
    assert_string_equal(irc_out_strerror(-100), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sanitize_turns_cr_and_lf_into_spaces_and_drops_nul),
        cmocka_unit_test(test_sanitize_replaces_each_invalid_utf8_byte_by_a_question_mark),
        cmocka_unit_test(test_sanitize_cuts_at_a_character_boundary_when_the_buffer_is_small),
        cmocka_unit_test(test_a_pushed_cr_lf_cannot_inject_a_second_command),
        cmocka_unit_test(test_user_text_is_never_used_as_a_format),
        cmocka_unit_test(test_only_a_whole_ctcp_message_keeps_its_01_bytes),
        cmocka_unit_test(test_colour_paints_red_cards_with_their_rank_and_leaves_black_ones),
        cmocka_unit_test(test_colour_paints_a_lone_suit_and_no_rank_inside_a_word),
        cmocka_unit_test(test_colour_keeps_a_following_digit_or_comma_out_of_the_code),
        cmocka_unit_test(test_colour_refuses_a_small_buffer_and_leaves_it_untouched),
        cmocka_unit_test(test_push_colours_only_when_asked),
        cmocka_unit_test(test_a_new_pace_keeps_the_queued_lines_and_applies_at_once),
        cmocka_unit_test(test_budget_counts_the_servers_prefix_and_the_command),
        cmocka_unit_test(test_split_fills_a_line_to_exactly_the_byte_limit),
        cmocka_unit_test(test_split_cuts_after_a_space_only_in_the_second_half_of_the_line),
        cmocka_unit_test(test_split_never_cuts_inside_a_utf8_character),
        cmocka_unit_test(test_split_never_separates_a_colour_code_from_its_digits),
        cmocka_unit_test(test_split_reopens_colour_and_bold_at_the_start_of_the_next_part),
        cmocka_unit_test(test_split_refuses_a_tiny_budget_or_too_few_parts_untouched),
        cmocka_unit_test(test_random_messages_make_lines_that_fit_and_add_up_to_the_text),
        cmocka_unit_test(test_the_bucket_sends_a_burst_then_one_line_per_interval),
        cmocka_unit_test(test_an_idle_queue_refills_only_up_to_the_burst),
        cmocka_unit_test(test_line_ms_0_sends_every_line_back_to_back),
        cmocka_unit_test(test_a_burst_of_1000_goes_at_once_then_the_interval_holds),
        cmocka_unit_test(test_bucket_wait_says_when_the_next_line_has_credit_queued_or_not),
        cmocka_unit_test(test_two_busy_channels_take_turns),
        cmocka_unit_test(test_private_hands_with_priority_go_before_channel_chatter),
        cmocka_unit_test(test_a_higher_priority_message_waits_for_a_started_one),
        cmocka_unit_test(test_a_tag_is_reported_only_after_the_last_part),
        cmocka_unit_test(test_707_puts_the_last_line_back_and_pauses_only_that_target),
        cmocka_unit_test(test_requeue_without_a_line_sent_to_the_target_is_refused),
        cmocka_unit_test(test_the_queue_refuses_lines_beyond_its_cap),
        cmocka_unit_test(test_clear_drops_unsent_lines_without_reporting_their_tags),
        cmocka_unit_test(test_a_new_target_replaces_an_idle_one_or_is_refused),
        cmocka_unit_test(test_push_refuses_bad_targets_long_texts_and_a_huge_prefix),
        cmocka_unit_test(test_an_empty_text_queues_nothing),
        cmocka_unit_test(test_init_and_next_refuse_bad_arguments),
        cmocka_unit_test(test_ngircd_lets_a_line_and_another_130_bytes_go_per_window),
        cmocka_unit_test(test_ngircd_sends_a_line_longer_than_its_budget_alone),
        cmocka_unit_test(test_ngircd_sends_three_short_lines_a_read_and_counts_their_bytes),
        cmocka_unit_test(test_ngircd_waits_out_its_penalties_for_welcome_errors_and_mode),
        cmocka_unit_test(test_ngircd_counts_lines_sent_outside_the_queue),
        cmocka_unit_test(test_inspircd_lets_eight_lines_go_then_one_per_1112_ms),
        cmocka_unit_test(test_inspircd_charges_a_join_two_lines_and_a_pong_nothing),
        cmocka_unit_test(test_solanum_lets_four_lines_go_then_eighteen_per_ten_seconds),
        cmocka_unit_test(test_solanum_counts_every_line_sent_outside_the_queue),
        cmocka_unit_test(test_custom_ignores_lines_sent_outside_the_queue_as_before),
        cmocka_unit_test(test_the_default_sends_short_lines_exactly_as_the_old_bucket),
        cmocka_unit_test(test_the_default_keeps_long_lines_within_ngircds_byte_count),
        cmocka_unit_test(test_auto_switches_from_the_default_when_the_server_names_itself),
        cmocka_unit_test(test_bucket_wait_asks_about_the_line_that_would_go),
        cmocka_unit_test(test_an_eight_player_deal_takes_under_10_s_on_ngircd),
        cmocka_unit_test(test_random_traffic_never_trips_the_servers_own_counts_at_any_phase),
        cmocka_unit_test(test_pace_names_read_back_and_bad_ones_are_refused),
        cmocka_unit_test(test_ctcp_version_is_answered_at_most_once_per_interval),
        cmocka_unit_test(test_other_ctcp_requests_are_ignored_and_use_no_allowance),
        cmocka_unit_test(test_plain_text_and_a_late_01_are_not_ctcp),
        cmocka_unit_test(test_ctcp_reply_has_no_control_bytes_and_fits_or_is_refused),
        cmocka_unit_test(test_every_error_code_has_a_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
