/*
 * test_mx_format.c — the host's plain lines as Matrix m.notice content
 * (adapters/matrix/mx_format.h): the JSON of each event read back with json-c and
 * judged as a client would read it — msgtype, body, format and
 * formatted_body, m.mentions — HTML escaping, red suits, score bars and
 * the score board's table, m.text prompts, names cleaned for display, the
 * pill of the player to move, invalid UTF-8, and the cutting of a text too
 * large for one event: every part under the cap, valid UTF-8, cut at line
 * breaks or spaces when there are some, the parts together giving the
 * text back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "mx_format.h"
#include "text.h"

#define HEART "\xE2\x99\xA5"
#define DIAMOND "\xE2\x99\xA6"
#define SPADE "\xE2\x99\xA0"
#define CLUB "\xE2\x99\xA3"
#define DOT "\xC2\xB7"
#define FULL "\xE2\x96\x88"
#define LIGHT "\xE2\x96\x91"
#define RED_OPEN "<font color=\"#d00000\" data-mx-color=\"#d00000\">"

static const mx_person PEOPLE[] = {
    {"Ann", "@ann:test"},
    {"Bob", "@bob:test"},
    {"Annabel", "@annabel:test"},
};
#define NPEOPLE ((int)(sizeof PEOPLE / sizeof PEOPLE[0]))

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

/* One event's content, parsed; the test fails when it is not a JSON object. */
static json_object *parse(const mx_format_out *out, int i)
{
    assert_true(i < out->n);
    assert_int_equal(strlen(out->content[i]), out->len[i]);
    json_object *o = json_tokener_parse(out->content[i]);
    assert_non_null(o);
    assert_true(json_object_is_type(o, json_type_object));
    return o;
}

static const char *field(json_object *o, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

/* The user ids of m.mentions ("" none, "-" when m.mentions is missing). */
static void mentions(json_object *o, char *buf, size_t cap)
{
    json_object *m, *ids;
    buf[0] = '\0';
    if (!json_object_object_get_ex(o, "m.mentions", &m)) {
        snprintf(buf, cap, "-");
        return;
    }
    if (!json_object_object_get_ex(m, "user_ids", &ids))
        return;
    for (size_t i = 0; i < json_object_array_length(ids); i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", i ? "," : "",
                 json_object_get_string(json_object_array_get_idx(ids, i)));
    }
}

/* Formats text with PEOPLE under cap; one part expected; returns its content. */
static json_object *one(const char *text, size_t cap)
{
    mx_format_out out = {0};
    assert_int_equal(mx_format_notice(text, strlen(text), PEOPLE, NPEOPLE, cap, &out), 0);
    assert_int_equal(out.n, 1);
    json_object *o = parse(&out, 0);
    mx_format_out_fini(&out);
    return o;
}

/* ------------------------------------------------------------------------ */
/* One event                                                                */

static void test_plain_text_becomes_a_notice_with_body_and_html(void **state)
{
    (void)state;
    json_object *o = one("Deal 1 of 6: hands come privately.", MX_FORMAT_CONTENT_MAX);
    char m[64];
    assert_string_equal(field(o, "msgtype"), "m.notice");
    assert_string_equal(field(o, "body"), "Deal 1 of 6: hands come privately.");
    assert_string_equal(field(o, "format"), "org.matrix.custom.html");
    assert_string_equal(field(o, "formatted_body"), "Deal 1 of 6: hands come privately.");
    mentions(o, m, sizeof m);
    assert_string_equal(m, ""); /* present and empty: nobody is pinged */
    json_object_put(o);
}

static void test_html_special_characters_are_escaped_and_body_is_not(void **state)
{
    (void)state;
    json_object *o = one("a <b> & \"c\" 'd'", MX_FORMAT_CONTENT_MAX);
    assert_string_equal(field(o, "body"), "a <b> & \"c\" 'd'");
    assert_string_equal(field(o, "formatted_body"), "a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;");
    json_object_put(o);
}

static void test_red_suits_are_coloured_and_black_suits_are_not(void **state)
{
    (void)state;
    json_object *o = one("7" HEART " K" SPADE " 10" DIAMOND " 2" CLUB " " HEART, 4096);
    assert_string_equal(field(o, "formatted_body"),
                        RED_OPEN "7" HEART "</font> K" SPADE " " RED_OPEN "10" DIAMOND
                                 "</font> 2" CLUB " " RED_OPEN HEART "</font>");
    assert_string_equal(field(o, "body"), "7" HEART " K" SPADE " 10" DIAMOND " 2" CLUB " " HEART);
    json_object_put(o);
}

static void test_without_colours_red_suits_are_plain_and_the_rest_is_kept(void **state)
{
    (void)state;
    const char *text = "7" HEART " <K" SPADE "> 10" DIAMOND " " HEART;
    mx_format_out out = {0};
    assert_int_equal(
        mx_format_message("m.notice", false, text, strlen(text), PEOPLE, NPEOPLE, 4096, &out), 0);
    assert_int_equal(out.n, 1);
    json_object *o = parse(&out, 0);
    assert_string_equal(field(o, "formatted_body"),
                        "7" HEART " &lt;K" SPADE "&gt; 10" DIAMOND " " HEART);
    assert_string_equal(field(o, "body"), text);
    json_object_put(o);
    mx_format_out_fini(&out);
}

static void test_score_bar_is_kept_in_code_inside_a_line(void **state)
{
    (void)state;
    json_object *o = one("so far [" FULL FULL LIGHT LIGHT "] 19", 4096);
    assert_string_equal(field(o, "formatted_body"),
                        "so far <code>[" FULL FULL LIGHT LIGHT "]</code> 19");
    json_object_put(o);
}

static void test_a_score_board_is_a_table_and_its_body_stays_aligned(void **state)
{
    (void)state;
    const char *text = "Score " DOT " first to 61\nAnn      [" FULL LIGHT
                       "] 19\nAnnabel  [" LIGHT LIGHT "] 3\nAnn to play";
    json_object *o = one(text, 4096);
    assert_string_equal(field(o, "body"), text);
    assert_string_equal(field(o, "formatted_body"),
                        "Score " DOT " first to 61<table><tr><td>Ann</td><td><code>[" FULL LIGHT
                        "]</code></td><td>19</td></tr><tr><td>Annabel</td><td><code>[" LIGHT LIGHT
                        "]</code></td><td>3</td></tr></table>Ann to play");
    json_object_put(o);
}

static void test_a_prompt_may_be_a_text_message_that_notifies(void **state)
{
    (void)state;
    mx_format_out out = {0};
    assert_int_equal(mx_format_message("m.text", true, "your turn", 9, PEOPLE, NPEOPLE, 4096, &out),
                     0);
    json_object *o = parse(&out, 0);
    assert_string_equal(field(o, "msgtype"), "m.text");
    assert_string_equal(field(o, "body"), "your turn");
    json_object_put(o);
    mx_format_out_fini(&out);
    assert_int_equal(mx_format_message("m.emote", true, "x", 1, PEOPLE, NPEOPLE, 4096, &out),
                     MX_FORMAT_EINVAL);
    assert_int_equal(out.n, 0);
}

/* mx_format_clean_name of name, into a buffer of cap bytes. */
static const char *cleaned(const char *name, size_t cap)
{
    static char buf[256];
    assert_true(cap <= sizeof buf);
    size_t n = mx_format_clean_name(name, buf, cap);
    assert_int_equal(n, strlen(buf));
    return buf;
}

static void test_names_lose_bidi_controls_and_zero_width_characters(void **state)
{
    (void)state;
    assert_string_equal(cleaned("\xE2\x80\xAE"
                                "Eve"
                                "\xE2\x80\xAC",
                                64),
                        "Eve");
    assert_string_equal(cleaned("A\xE2\x80\x8Bn\xE2\x81\xA0n\xEF\xBB\xBF", 64), "Ann");
    assert_string_equal(cleaned("\xE2\x81\xA6"
                                "B\xD8\x9C"
                                "o\xE2\x80\x8E"
                                "b\xE2\x81\xA9",
                                64),
                        "Bob");
    assert_string_equal(cleaned("\xE2\x80\x8F"
                                "Dan\xE2\x80\xAA\xE2\x80\xAB\xE2\x80\xAD",
                                64),
                        "Dan");
    assert_string_equal(cleaned("  Jos\xC3\xA9\x07\xC2\x85 \xE2\x80\xA8", 64), "Jos\xC3\xA9");
    assert_string_equal(cleaned("\xF0\x9F\x82\xA1 Ace", 64), "\xF0\x9F\x82\xA1 Ace");
    assert_string_equal(cleaned("bad\xFF\xC3name", 64), "badname");
}

static void test_a_clean_name_is_cut_between_characters(void **state)
{
    (void)state;
    assert_string_equal(cleaned("J\xC3\xA9r\xC3\xB4me", 4), "J\xC3\xA9");
    assert_string_equal(cleaned("\xE2\x80\xAE\xE2\x80\xAE", 64), "");
    char one_byte[1];
    assert_int_equal(mx_format_clean_name("Ann", one_byte, 1), 0);
    assert_string_equal(one_byte, "");
}

static void test_a_long_name_is_cut_between_graphemes_and_says_so(void **state)
{
    (void)state;
    /* "Jose" + U+0301: the accent does not fit, so neither does its e */
    assert_string_equal(cleaned("Jose\xCC\x81 Luis", 9), "Jos\xE2\x80\xA6");
    assert_string_equal(cleaned("Jose\xCC\x81 Luis", 10), "Jose\xCC\x81\xE2\x80\xA6");
    /* a flag with its tag sequence is kept whole or not at all */
    const char *flag = "\xF0\x9F\x8F\xB4\xF3\xA0\x81\xA7\xF3\xA0\x81\xA2\xF3\xA0\x81\xA5"
                       "\xF3\xA0\x81\xAE\xF3\xA0\x81\xA7\xF3\xA0\x81\xBF";
    char name[64];
    int k = snprintf(name, sizeof name, "Ann%s", flag);
    assert_true(k > 0 && (size_t)k < sizeof name);
    assert_string_equal(cleaned(name, 64), name);
    assert_string_equal(cleaned(name, 20), "Ann\xE2\x80\xA6");
    /* combining marks: not before any character, at most 8 after one */
    char zalgo[128] = "\xCC\x81\xCC\x81Z";
    for (int i = 0; i < 20; i++)
        memcpy(zalgo + 5 + 2 * i, "\xCC\xB6", 3);
    assert_int_equal(strlen(cleaned(zalgo, 128)), 1 + 8 * 2);
    assert_int_equal(cleaned(zalgo, 128)[0], 'Z');
}

static void test_a_name_where_nothing_shows_is_no_name(void **state)
{
    (void)state;
    /* combining marks alone, zero-width and tag characters, a Hangul filler,
       blanks, the soft hyphen: nothing a reader sees */
    assert_string_equal(cleaned("\xCC\x81\xCC\xB6\xE2\x80\x8B\xF3\xA0\x81\xA7\xE3\x85\xA4 "
                                "\xC2\xA0\xC2\xAD\xE2\x80\x83",
                                64),
                        "");
    assert_int_equal(mx_format_clean_name("\xE2\x80\xAE\xCC\x81", (char[8]){0}, 8), 0);
}

static void test_a_548_byte_name_is_bounded_and_shows(void **state)
{
    (void)state;
    /* an RTL override, a letter under 30 marks, zero-width characters, a
       tag-sequence flag, HTML, ZWJ families, Arabic, then playing cards */
    char name[600] = "\xE2\x80\xAEZ";
    size_t n = strlen(name);
    for (int i = 0; i < 30; i++, n += 2)
        memcpy(name + n, "\xCC\xB6", 2);
    const char *rest = "o\xE2\x80\x8B\xE2\x80\x8D\xF0\x9F\x8F\xB4\xF3\xA0\x81\xA7\xF3\xA0\x81\xBF"
                       "<b>bold</b>\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"
                       "\xD9\x85\xD8\xB1\xE2\x81\xA6\xE2\x81\xA9\xEF\xBB\xBF";
    memcpy(name + n, rest, strlen(rest));
    n += strlen(rest);
    while (n + 4 <= 548) {
        memcpy(name + n, "\xF0\x9F\x83\x8F", 4);
        n += 4;
    }
    while (n < 548)
        name[n++] = '!';
    name[n] = '\0';
    assert_int_equal(strlen(name), 548);
    const char *c = cleaned(name, 128);
    size_t len = strlen(c);
    assert_true(len > 0 && len < 128);
    assert_int_equal(c[0], 'Z');
    assert_true(text_utf8_valid(c, len));
    assert_string_equal(c + len - 3, "\xE2\x80\xA6");
    assert_null(strstr(c, "\xE2\x80\xAE"));
    assert_null(strstr(c, "\xE2\x80\x8B"));
    assert_null(strstr(c, "\xE2\x80\x8D"));
}

static void test_line_breaks_become_br(void **state)
{
    (void)state;
    json_object *o = one("one\ntwo", 4096);
    assert_string_equal(field(o, "formatted_body"), "one<br>two");
    assert_string_equal(field(o, "body"), "one\ntwo");
    json_object_put(o);
}

static void test_player_to_move_gets_a_pill_and_a_mention(void **state)
{
    (void)state;
    json_object *o = one("Table: 3" HEART " 5" CLUB " " DOT " Bob to play", 4096);
    char m[64];
    assert_string_equal(field(o, "formatted_body"),
                        "Table: " RED_OPEN "3" HEART "</font> 5" CLUB " " DOT
                        " <a href=\"https://matrix.to/#/@bob:test\">Bob</a> to play");
    assert_string_equal(field(o, "body"), "Table: 3" HEART " 5" CLUB " " DOT " Bob to play");
    mentions(o, m, sizeof m);
    assert_string_equal(m, "@bob:test");
    json_object_put(o);
}

static void test_tendido_phrases_mention_the_dealer(void **state)
{
    (void)state;
    char m[64];
    json_object *o = one("table empty " DOT " Ann deals and chooses: !tendido now or !tendido "
                         "later",
                         4096);
    mentions(o, m, sizeof m);
    assert_string_equal(m, "@ann:test");
    json_object_put(o);
    o = one("Table: " DOT " Annabel arranges the tendido 4" HEART " 5" HEART, 4096);
    mentions(o, m, sizeof m);
    assert_string_equal(m, "@annabel:test");
    json_object_put(o);
}

static void test_a_name_that_begins_a_longer_name_is_not_taken_for_it(void **state)
{
    (void)state;
    size_t at = 0, len = 0;
    const char *t = "Table: 4" SPADE " " DOT " Annabel to play";
    const mx_person *p = mx_format_to_move(t, strlen(t), PEOPLE, NPEOPLE, &at, &len);
    assert_non_null(p);
    assert_string_equal(p->user_id, "@annabel:test");
    assert_int_equal(len, strlen("Annabel"));
    assert_memory_equal(t + at, "Annabel", len);
}

static void test_names_outside_the_status_phrases_are_not_mentioned(void **state)
{
    (void)state;
    char m[64];
    json_object *o = one("Bob plays 7" HEART " and takes 7" SPADE ": Bob 12 points", 4096);
    mentions(o, m, sizeof m);
    assert_string_equal(m, "");
    assert_null(strstr(field(o, "formatted_body"), "<a "));
    json_object_put(o);
    size_t at, len;
    const char *t = DOT " Zed to play";
    assert_null(mx_format_to_move(t, strlen(t), PEOPLE, NPEOPLE, &at, &len));
}

static void test_names_are_escaped_inside_the_pill(void **state)
{
    (void)state;
    mx_person odd[] = {{"<i>x</i>", "@x:test"}};
    mx_format_out out = {0};
    const char *t = DOT " <i>x</i> to play";
    assert_int_equal(mx_format_notice(t, strlen(t), odd, 1, 4096, &out), 0);
    json_object *o = parse(&out, 0);
    assert_string_equal(field(o, "formatted_body"),
                        DOT " <a href=\"https://matrix.to/#/@x:test\">&lt;i&gt;x&lt;/i&gt;</a> "
                            "to play");
    json_object_put(o);
    mx_format_out_fini(&out);
}

static void test_invalid_utf8_becomes_the_replacement_character(void **state)
{
    (void)state;
    const char bad[] = "a\xFF"
                       "b\xC3";
    mx_format_out out = {0};
    assert_int_equal(mx_format_notice(bad, sizeof bad - 1, NULL, 0, 4096, &out), 0);
    json_object *o = parse(&out, 0);
    assert_string_equal(field(o, "body"), "a\xEF\xBF\xBD"
                                          "b\xEF\xBF\xBD");
    assert_true(utf8_ok(out.content[0], out.len[0]));
    json_object_put(o);
    mx_format_out_fini(&out);
}

static void test_a_host_line_stays_one_event_under_the_default_cap(void **state)
{
    (void)state;
    char text[1024];
    size_t k = 0;
    while (k + 8 < sizeof text) { /* a worst case: every character escaped or coloured */
        memcpy(text + k, k % 16 ? "<&" : HEART, k % 16 ? 2 : 3);
        k += k % 16 ? 2 : 3;
    }
    text[k] = '\0';
    mx_format_out out = {0};
    assert_int_equal(mx_format_notice(text, k, PEOPLE, NPEOPLE, MX_FORMAT_CONTENT_MAX, &out), 0);
    assert_int_equal(out.n, 1);
    assert_true(out.len[0] <= MX_FORMAT_CONTENT_MAX);
    mx_format_out_fini(&out);
}

/* ------------------------------------------------------------------------ */
/* Several events                                                           */

/*
 * Formats text under cap and checks every part: at most cap bytes, a
 * notice with valid UTF-8, and the bodies, joined by `glue` where the
 * text was cut at a blank, giving the text back. Returns the count.
 */
static int split_and_check(const char *text, size_t cap, const mx_person *people, int np,
                           char *mention_parts, size_t mcap)
{
    mx_format_out out = {0};
    assert_int_equal(mx_format_notice(text, strlen(text), people, np, cap, &out), 0);
    assert_true(out.n >= 1);
    size_t len = strlen(text), pos = 0;
    if (mention_parts != NULL)
        mention_parts[0] = '\0';
    for (int i = 0; i < out.n; i++) {
        assert_true(out.len[i] <= cap);
        assert_true(utf8_ok(out.content[i], out.len[i]));
        json_object *o = parse(&out, i);
        assert_string_equal(field(o, "msgtype"), "m.notice");
        const char *body = field(o, "body");
        assert_non_null(field(o, "formatted_body"));
        size_t bl = strlen(body);
        assert_true(bl > 0);
        while (pos < len && (text[pos] == ' ' || text[pos] == '\n') &&
               strncmp(text + pos, body, bl) != 0)
            pos++; /* the blank where it was cut */
        assert_true(pos + bl <= len);
        assert_memory_equal(text + pos, body, bl);
        pos += bl;
        if (mention_parts != NULL) {
            char m[128];
            mentions(o, m, sizeof m);
            if (m[0] != '\0') {
                size_t ml = strlen(mention_parts);
                snprintf(mention_parts + ml, mcap - ml, "%d:%s ", i, m);
            }
        }
        json_object_put(o);
    }
    assert_int_equal(pos, len);
    int n = out.n;
    mx_format_out_fini(&out);
    return n;
}

static void test_long_text_is_split_under_the_cap_at_line_breaks(void **state)
{
    (void)state;
    char text[8000];
    size_t k = 0;
    for (int line = 0; k + 100 < sizeof text; line++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%sline %d: 7" HEART " & <K" SPADE ">",
                              line ? "\n" : "", line);
    int n = split_and_check(text, 1000, NULL, 0, NULL, 0);
    assert_true(n >= 8);
    /* Cut at line breaks: every part's body starts with "line ". */
    mx_format_out out = {0};
    assert_int_equal(mx_format_notice(text, k, NULL, 0, 1000, &out), 0);
    for (int i = 0; i < out.n; i++) {
        json_object *o = parse(&out, i);
        assert_int_equal(strncmp(field(o, "body"), "line ", 5), 0);
        json_object_put(o);
    }
    mx_format_out_fini(&out);
}

static void test_text_without_blanks_is_cut_between_characters(void **state)
{
    (void)state;
    char text[6000];
    size_t k = 0;
    while (k + 4 < sizeof text) {
        memcpy(text + k, k % 7 ? "\xE2\x82\xAC" : "x", k % 7 ? 3 : 1); /* € and x */
        k += k % 7 ? 3 : 1;
    }
    text[k] = '\0';
    assert_true(split_and_check(text, 600, NULL, 0, NULL, 0) >= 10);
}

static void test_words_are_kept_whole_when_cut_at_spaces(void **state)
{
    (void)state;
    char text[4000];
    size_t k = 0;
    while (k + 20 < sizeof text)
        k += (size_t)snprintf(text + k, sizeof text - k, "word%zu ", k);
    text[k - 1] = '\0';
    mx_format_out out = {0};
    assert_int_equal(mx_format_notice(text, k - 1, NULL, 0, 700, &out), 0);
    assert_true(out.n > 2);
    for (int i = 0; i < out.n; i++) {
        json_object *o = parse(&out, i);
        const char *b = field(o, "body");
        assert_int_equal(strncmp(b, "word", 4), 0);
        assert_true(b[strlen(b) - 1] != ' ');
        json_object_put(o);
    }
    mx_format_out_fini(&out);
    split_and_check(text, 700, NULL, 0, NULL, 0);
}

static void test_the_mention_goes_with_the_part_that_holds_the_name(void **state)
{
    (void)state;
    char text[5000];
    size_t k = 0;
    while (k < 3000)
        k += (size_t)snprintf(text + k, sizeof text - k, "filler %zu\n", k);
    snprintf(text + k, sizeof text - k, "Table: 9" DIAMOND " " DOT " Bob to play");
    char parts[256];
    int n = split_and_check(text, 800, PEOPLE, NPEOPLE, parts, sizeof parts);
    assert_true(n > 3);
    char want[64];
    snprintf(want, sizeof want, "%d:@bob:test ", n - 1);
    assert_string_equal(parts, want);
}

static void test_bad_arguments_are_refused(void **state)
{
    (void)state;
    mx_format_out out = {0};
    mx_person nameless[] = {{NULL, "@a:test"}};
    assert_int_equal(mx_format_notice("x", 1, NULL, 0, 100, &out), MX_FORMAT_EINVAL);
    assert_int_equal(mx_format_notice(NULL, 0, NULL, 0, 4096, &out), MX_FORMAT_EINVAL);
    assert_int_equal(mx_format_notice("x", 1, nameless, 1, 4096, &out), MX_FORMAT_EINVAL);
    assert_int_equal(mx_format_notice("x", 1, NULL, 0, 4096, NULL), MX_FORMAT_EINVAL);
    assert_int_equal(out.n, 0);
    char *html = NULL;
    assert_int_equal(mx_format_html("abc", 3, &PEOPLE[0], 2, 5, &html), MX_FORMAT_EINVAL);
    assert_null(html);
}

static void test_an_empty_text_is_one_empty_notice(void **state)
{
    (void)state;
    json_object *o = one("", 4096);
    assert_string_equal(field(o, "body"), "");
    assert_string_equal(field(o, "formatted_body"), "");
    json_object_put(o);
}

static void test_every_error_has_a_message(void **state)
{
    (void)state;
    assert_string_equal(mx_format_strerror(0), "ok");
    assert_string_equal(mx_format_strerror(12345), "unknown error");
    for (int e = MX_FORMAT_ETOO_BIG; e <= MX_FORMAT_EINVAL; e++)
        assert_string_not_equal(mx_format_strerror(e), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_text_becomes_a_notice_with_body_and_html),
        cmocka_unit_test(test_html_special_characters_are_escaped_and_body_is_not),
        cmocka_unit_test(test_red_suits_are_coloured_and_black_suits_are_not),
        cmocka_unit_test(test_without_colours_red_suits_are_plain_and_the_rest_is_kept),
        cmocka_unit_test(test_score_bar_is_kept_in_code_inside_a_line),
        cmocka_unit_test(test_a_score_board_is_a_table_and_its_body_stays_aligned),
        cmocka_unit_test(test_a_prompt_may_be_a_text_message_that_notifies),
        cmocka_unit_test(test_names_lose_bidi_controls_and_zero_width_characters),
        cmocka_unit_test(test_a_clean_name_is_cut_between_characters),
        cmocka_unit_test(test_a_long_name_is_cut_between_graphemes_and_says_so),
        cmocka_unit_test(test_a_name_where_nothing_shows_is_no_name),
        cmocka_unit_test(test_a_548_byte_name_is_bounded_and_shows),
        cmocka_unit_test(test_line_breaks_become_br),
        cmocka_unit_test(test_player_to_move_gets_a_pill_and_a_mention),
        cmocka_unit_test(test_tendido_phrases_mention_the_dealer),
        cmocka_unit_test(test_a_name_that_begins_a_longer_name_is_not_taken_for_it),
        cmocka_unit_test(test_names_outside_the_status_phrases_are_not_mentioned),
        cmocka_unit_test(test_names_are_escaped_inside_the_pill),
        cmocka_unit_test(test_invalid_utf8_becomes_the_replacement_character),
        cmocka_unit_test(test_a_host_line_stays_one_event_under_the_default_cap),
        cmocka_unit_test(test_long_text_is_split_under_the_cap_at_line_breaks),
        cmocka_unit_test(test_text_without_blanks_is_cut_between_characters),
        cmocka_unit_test(test_words_are_kept_whole_when_cut_at_spaces),
        cmocka_unit_test(test_the_mention_goes_with_the_part_that_holds_the_name),
        cmocka_unit_test(test_bad_arguments_are_refused),
        cmocka_unit_test(test_an_empty_text_is_one_empty_notice),
        cmocka_unit_test(test_every_error_has_a_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
