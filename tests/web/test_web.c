/*
 * test_web.c — the game pages' pure parts (bot/web): the escapes of HTML
 * and JSON against hostile names (markup, quotes, bidi controls, broken
 * UTF-8), hex for player ids in paths, cards marked up with their spoken
 * names, the SVG chart (a dot per point and series, the target line, the
 * names escaped), the action log's JSON read back into actions, and the
 * fair deals' block: seals only while under way, seeds, salt and the
 * server's checks once ended (FAIRNESS.md's own example commitment); and
 * the same parts in Spanish, as a Spanish room's pages write them (the
 * build's catalogue, read as the bot reads it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "i18n.h"
#include "wbuf.h"
#include "wgame.h"
#include "wpage.h"
#include "wsvg.h"

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static void test_html_escapes_markup(void **state)
{
    (void)state;
    wbuf b = {0};
    wb_html(&b, "<script>alert(\"x\")</script> & '\"><img src=x onerror=alert(1)>");
    assert_string_equal(b.s, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; "
                             "&#39;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
    assert_null(strchr(b.s, '<'));
    assert_null(strchr(b.s, '>'));
    wb_free(&b);
}

static void test_controls_and_bidi_replaced(void **state)
{
    (void)state;
    wbuf b = {0};
    /* RLO, LRI, PDI, LRM, a newline, ESC, a C1 control, a lone continuation
       byte and a truncated sequence: each one U+FFFD */
    wb_html(&b, "a\xE2\x80\xAE"
                "b\xE2\x81\xA6"
                "c\xE2\x81\xA9"
                "d\xE2\x80\x8E"
                "e\nf\x1b"
                "g\xC2\x85"
                "h\x80i\xE2\x82");
    assert_string_equal(b.s, "a\xEF\xBF\xBD"
                             "b\xEF\xBF\xBD"
                             "c\xEF\xBF\xBD"
                             "d\xEF\xBF\xBD"
                             "e\xEF\xBF\xBD"
                             "f\xEF\xBF\xBD"
                             "g\xEF\xBF\xBD"
                             "h\xEF\xBF\xBD"
                             "i\xEF\xBF\xBD\xEF\xBF\xBD");
    wb_free(&b);
    /* ordinary text beyond ASCII is kept */
    wb_html(&b, "Jos\xC3\xA9 \xF0\x9F\x83\x8F \xE2\x99\xA5");
    assert_string_equal(b.s, "Jos\xC3\xA9 \xF0\x9F\x83\x8F \xE2\x99\xA5");
    wb_free(&b);
}

static void test_json_escapes(void **state)
{
    (void)state;
    wbuf b = {0};
    wb_json(&b, "a\"b\\c</script>&\t");
    assert_string_equal(b.s, "a\\\"b\\\\c\\u003c/script\\u003e\\u0026\xEF\xBF\xBD");
    wb_free(&b);
}

static void test_hex_round_trip(void **state)
{
    (void)state;
    wbuf b = {0};
    char back[64];
    wb_hex(&b, "@ann:example.org");
    assert_string_equal(b.s, "40616e6e3a6578616d706c652e6f7267");
    assert_int_equal(wb_unhex(b.s, b.len, back, sizeof back), 0);
    assert_string_equal(back, "@ann:example.org");
    assert_int_equal(wb_unhex("4", 1, back, sizeof back), -1);    /* odd */
    assert_int_equal(wb_unhex("4G", 2, back, sizeof back), -1);   /* not hex */
    assert_int_equal(wb_unhex("41FF", 4, back, sizeof back), -1); /* upper case */
    assert_int_equal(wb_unhex("4100", 4, back, sizeof back), -1); /* a NUL */
    assert_int_equal(wb_unhex("414141", 6, back, 3), -1);         /* too long */
    wb_free(&b);
}

static void test_cards_marked_up(void **state)
{
    (void)state;
    wbuf b = {0};
    wp_text(&b, "ann 7\xE2\x99\xA5 takes 10\xE2\x99\xA3 K\xE2\x99\xA6, limpia +1 <b>");
    assert_non_null(strstr(b.s, "<span class=\"card red\" role=\"img\" "
                                "aria-label=\"seven of hearts\">7\xE2\x99\xA5</span>"));
    assert_non_null(strstr(b.s, "<span class=\"card\" role=\"img\" "
                                "aria-label=\"ten of clubs\">10\xE2\x99\xA3</span>"));
    assert_non_null(strstr(b.s, "aria-label=\"king of diamonds\""));
    assert_non_null(strstr(b.s, ", limpia +1 &lt;b&gt;"));
    assert_int_equal(count(b.s, "<span"), 3);
    wb_free(&b);
    /* a card glued to a word is not a card: "x7♥" */
    wp_text(&b, "x7\xE2\x99\xA5");
    assert_int_equal(count(b.s, "<span"), 0);
    wb_free(&b);
}

static const int VALUES[2][5] = {{0, 5, 12, 40, 61}, {0, 9, 9, 30, 44}};

static int value(void *arg, int s, int i)
{
    (void)arg;
    return VALUES[s][i];
}

static int group(void *arg, int i)
{
    (void)arg;
    return i < 3 ? 1 : 2;
}

static void test_svg_chart(void **state)
{
    (void)state;
    wbuf b = {0};
    wsvg_chart c = {.title = "Score <1>",
                    .series = 2,
                    .name = {"<script>x</script>", "bob"},
                    .npoints = 5,
                    .value = value,
                    .group = group,
                    .group_word = "hand <x>",
                    .target = 61};
    wsvg_chart_draw(&b, &c);
    assert_int_equal(strncmp(b.s, "<svg ", 5), 0);
    assert_int_equal(count(b.s, "class=\"pt s0\""), 5);
    assert_int_equal(count(b.s, "class=\"pt s1\""), 5);
    assert_int_equal(count(b.s, "<polyline"), 2);
    assert_int_equal(count(b.s, "class=\"target\""), 1);
    assert_int_equal(count(b.s, "class=\"hand\""), 2); /* hands 1 and 2 start */
    assert_non_null(strstr(b.s, ">hand &lt;x&gt;</text>"));
    assert_non_null(strstr(b.s, "text-anchor=\"middle\">1</text>"));
    assert_non_null(strstr(b.s, "text-anchor=\"middle\">2</text>"));
    assert_null(strstr(b.s, "<script>"));
    assert_non_null(strstr(b.s, "&lt;script&gt;x&lt;/script&gt;"));
    assert_non_null(strstr(b.s, "<title id=\"chart-title\">Score &lt;1&gt;</title>"));
    /* the y axis at round values up to 61: 0, 20, 40 and the target (60 is
       too close to it) */
    assert_non_null(strstr(b.s, ">20</text>"));
    assert_non_null(strstr(b.s, ">40</text>"));
    assert_non_null(strstr(b.s, ">61</text>"));
    assert_null(strstr(b.s, ">60</text>"));
    /* the target (61) and the top point lie on the same line: y of 61 */
    assert_non_null(strstr(b.s, "class=\"target\" x1=\"66\" y1=\"14\" x2=\"624\" y2=\"14\""));
    assert_non_null(strstr(b.s, "cx=\"624\" cy=\"14\""));
    /* the legend is HTML after the chart, its names isolated; colours are
       the stylesheet's classes, none written in the chart */
    assert_non_null(strstr(b.s, "</svg><ul class=\"legend\"><li><span class=\"key s0\""));
    assert_null(strstr(b.s, "#"));
    wb_free(&b);
    c.target = 0;
    c.group = NULL;
    wsvg_chart_draw(&b, &c);
    assert_int_equal(count(b.s, "class=\"target\""), 0);
    assert_int_equal(count(b.s, "class=\"hand\""), 0);
    wb_free(&b);
}

/* A name inside a line is isolated wherever it is shown, and never read as
   a card: a right-to-left nick, a nick "K♥", a nick holding the marks. */
static void test_names_isolated(void **state)
{
    (void)state;
    wbuf b = {0};
    char rtl[64], king[64], sly[64], line[256];
    wb_mark("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D", rtl, sizeof rtl); /* shalom */
    wb_mark("K\xE2\x99\xA5", king, sizeof king);
    wb_mark("a\x0f<b>\x0e", sly, sizeof sly);
    snprintf(line, sizeof line, "%s 3\xE2\x99\xA3 · %s K\xE2\x99\xA5 · %s 0", rtl, king, sly);
    wp_text(&b, line);
    assert_non_null(
        strstr(b.s, "<bdi>\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D</bdi> <span class=\"card\""));
    assert_non_null(strstr(b.s, "<bdi>K\xE2\x99\xA5</bdi> <span class=\"card red\""));
    assert_int_equal(count(b.s, "aria-label=\"king of hearts\""), 1); /* the card, not the nick */
    /* marks inside a nick are not marks: no bdi opened or closed early */
    assert_non_null(strstr(b.s, "<bdi>a\xEF\xBF\xBD&lt;b&gt;\xEF\xBF\xBD</bdi> 0"));
    assert_int_equal(count(b.s, "<bdi>"), 3);
    assert_int_equal(count(b.s, "</bdi>"), 3);
    wb_free(&b);
    /* a line cut in a name still closes it */
    line[strlen(rtl) - 1] = '\0';
    wp_text(&b, line);
    assert_int_equal(count(b.s, "<bdi>"), count(b.s, "</bdi>"));
    wb_free(&b);
    /* a title: isolates; JSON: the name alone; plain wb_html: no marks */
    wb_marked(&b, rtl, false, WB_FSI, WB_PDI);
    assert_string_equal(b.s, WB_FSI "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D" WB_PDI);
    wb_free(&b);
    wb_marked(&b, sly, true, "", "");
    assert_string_equal(b.s, "a\xEF\xBF\xBD\\u003cb\\u003e\xEF\xBF\xBD");
    wb_free(&b);
    wb_html(&b, rtl);
    assert_string_equal(b.s, "\xEF\xBF\xBD\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D\xEF\xBF\xBD");
    wb_free(&b);
    /* a name too long for its buffer is cut at a character's start */
    wb_mark("\xD7\xA9\xD7\x9C\xD7\x95", king, 6);
    assert_string_equal(king, "\x0e\xD7\xA9\x0f");
    /* a score board's bar is hidden from screen readers, its number is not */
    wp_text(&b, "ann  [\xE2\x96\x88\xE2\x96\x91] 10");
    assert_non_null(strstr(
        b.s, "<span class=\"bar\" aria-hidden=\"true\">[\xE2\x96\x88\xE2\x96\x91]</span> 10"));
    wb_free(&b);
}

static void test_action_json(void **state)
{
    (void)state;
    pz_action a;
    pz_card c;
    assert_int_equal(wg_parse_action("{\"seat\":1,\"play\":\"TD\",\"mode\":\"capture\"}", &a), 0);
    assert_int_equal(pz_card_parse("TD", 2, &c), 0);
    assert_int_equal(a.kind, PZ_ACT_PLAY);
    assert_int_equal(a.seat, 1);
    assert_int_equal(a.card, c);
    assert_int_equal(a.mode, PZ_MODE_CAPTURE);
    assert_int_equal(wg_parse_action("{\"seat\":0,\"tendido\":\"now\"}", &a), 0);
    assert_true(a.kind == PZ_ACT_TENDIDO && a.now);
    assert_int_equal(wg_parse_action("{\"seat\":0,\"arrange\":\"best\"}", &a), 0);
    assert_true(a.kind == PZ_ACT_ARRANGE && a.best);
    assert_int_equal(
        wg_parse_action(
            "{\"seat\":2,\"arrange\":[\"AC\",\"2D\",\"3H\",\"4S\"],\"direction\":\"rtl\"}", &a),
        0);
    assert_true(a.kind == PZ_ACT_ARRANGE && !a.best && a.direction == PZ_RTL);
    assert_int_equal(wg_parse_action("{\"seat\":1,\"declare\":true}", &a), 0);
    assert_int_equal(a.kind, PZ_ACT_DECLARE);
    assert_int_equal(wg_parse_action("{\"seat\":1,\"claim\":0}", &a), 0);
    assert_true(a.kind == PZ_ACT_CLAIM && a.claimed == 0);
    assert_int_equal(wg_parse_action("{\"next_hand\":true}", &a), 0);
    assert_int_equal(a.kind, PZ_ACT_NEXT_HAND);
    /* refused: not an action, unknown keys, bad cards, trailing text */
    assert_int_equal(wg_parse_action("{}", &a), -1);
    assert_int_equal(wg_parse_action("{\"seat\":1,\"fly\":true}", &a), -1);
    assert_int_equal(wg_parse_action("{\"seat\":1,\"play\":\"ZZ\"}", &a), -1);
    assert_int_equal(wg_parse_action("{\"seat\":1,\"play\":\"TD\"} x", &a), -1);
    assert_int_equal(wg_parse_action("{\"seat\":9,\"play\":\"TD\"}", &a), -1);
    assert_int_equal(wg_parse_action("{\"seat\":0,\"arrange\":[\"AC\"]}", &a), -1);
}

/* FAIRNESS.md's example: seed 11 under this salt seals 847e357ca8ab... */
#define SALT "675d38cbf780a539b478da0c2b62aff6"
#define COMMIT_11 "847e357ca8ab23e4a88a11e3ed1691325af33682e7d442592978308980fb58eb"

static void test_fair_deals_block(void **state)
{
    (void)state;
    wbuf b = {0};
    wgame w = {0};
    wg_hand hand[3] = {{.seed = 11, .checked = true, .verified = true},
                       {.seed = UINT64_MAX, .checked = true, .verified = true},
                       {.seed = 987654321987, .checked = false, .verified = true}};
    char commit[PZF_COMMIT_HEX + 1];
    assert_int_equal(pzf_commit(11, SALT, commit), 0);
    assert_string_equal(commit, COMMIT_11);
    for (int k = 0; k < 3; k++)
        assert_int_equal(pzf_commit(hand[k].seed, SALT, hand[k].commit), 0);
    snprintf(w.salt, sizeof w.salt, "%s", SALT);
    w.fair_hand = hand;
    w.nhands = 3;
    /* from before fair deals: nothing */
    wp_fairness(&b, &w);
    wp_fairness_json_live(&b, &w);
    assert_true(b.s == NULL || b.s[0] == '\0');
    /* under way: each hand's seal, never a seed, the salt or a whole commitment */
    w.fair = true;
    wp_fairness(&b, &w);
    wp_fairness_json_live(&b, &w);
    assert_non_null(strstr(b.s, "Hand 1: pack sealed <code>847e357ca8ab</code>"));
    assert_non_null(strstr(b.s, "{\"hand\": 1, \"seal\": \"847e357ca8ab\"}"));
    assert_int_equal(count(b.s, "pack sealed <code>"), 3);
    assert_null(strstr(b.s, SALT));
    assert_null(strstr(b.s, COMMIT_11));
    assert_null(strstr(b.s, "18446744073709551615"));
    assert_null(strstr(b.s, "987654321987"));
    assert_null(strstr(b.s, "seed\""));
    assert_null(strstr(b.s, "verified"));
    wb_free(&b);
    /* ended: all of it, with the server's check where the commitment was kept */
    w.ended = true;
    hand[1].verified = false;
    wp_fairness(&b, &w);
    assert_non_null(strstr(b.s, "<code>" SALT "</code>"));
    assert_non_null(strstr(b.s, "<td>1</td><td><code>" COMMIT_11 "</code></td><td><code>11</code>"
                                "</td><td class=\"ok\">verified</td>"));
    assert_non_null(strstr(b.s, "<code>18446744073709551615</code></td><td class=\"bad\">does "
                                "not match</td>"));
    assert_non_null(strstr(b.s, "<code>987654321987</code></td><td></td>"));
    assert_int_equal(count(b.s, ">verified<"), 1);
    assert_non_null(strstr(b.s, "porrazo-replay --verify"));
    assert_null(strstr(b.s, "pack sealed"));
    wb_free(&b);
}

#define SAT_28_NOV_2026_0544 1795844640 /* 2026-11-28 05:44:00 UTC */

static void test_spanish_parts(void **state)
{
    (void)state;
    wbuf b = {0};
    char date[64];
    pz_lang before = i18n_use(PZ_LANG_ES);
    /* the frame says its language; cards are said in Spanish, symbols kept */
    wp_head(&b, "t", NULL);
    assert_non_null(strstr(b.s, "<html lang=\"es\">"));
    wb_free(&b);
    wp_text(&b, "ann 7\xE2\x99\xA5 10\xE2\x99\xA3 Q\xE2\x99\xA0 A\xE2\x99\xA6");
    assert_non_null(strstr(b.s, "aria-label=\"siete de corazones\">7\xE2\x99\xA5</span>"));
    assert_non_null(strstr(b.s, "aria-label=\"diez de tr\xC3\xA9"
                                "boles\""));
    assert_non_null(strstr(b.s, "aria-label=\"reina de picas\""));
    assert_non_null(strstr(b.s, "aria-label=\"as de diamantes\""));
    assert_null(strstr(b.s, " of "));
    wb_free(&b);
    wp_date(SAT_28_NOV_2026_0544, date, sizeof date);
    assert_string_equal(date, "28 nov 2026");
    assert_string_equal(wp_status_word(STORE_FINISHED), "terminada");
    /* the fair deals' block */
    wg_hand hand = {.seed = 11, .checked = true, .verified = true};
    wgame w = {.fair = true, .ended = true, .fair_hand = &hand, .nhands = 1};
    snprintf(w.salt, sizeof w.salt, "%s", SALT);
    assert_int_equal(pzf_commit(11, SALT, hand.commit), 0);
    wp_fairness(&b, &w);
    assert_non_null(strstr(b.s, "<h2>Repartos limpios</h2>"));
    assert_non_null(strstr(b.s, "<td class=\"ok\">comprobada</td>"));
    assert_null(strstr(b.s, "verified"));
    assert_null(strstr(b.s, "Seed"));
    wb_free(&b);
    /* and English again once the language is put back */
    i18n_use(before);
    wp_date(SAT_28_NOV_2026_0544, date, sizeof date);
    assert_string_equal(date, "28 Nov 2026");
    wp_text(&b, "7\xE2\x99\xA5");
    assert_non_null(strstr(b.s, "aria-label=\"seven of hearts\""));
    wb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_html_escapes_markup),
        cmocka_unit_test(test_controls_and_bidi_replaced),
        cmocka_unit_test(test_json_escapes),
        cmocka_unit_test(test_hex_round_trip),
        cmocka_unit_test(test_cards_marked_up),
        cmocka_unit_test(test_svg_chart),
        cmocka_unit_test(test_names_isolated),
        cmocka_unit_test(test_action_json),
        cmocka_unit_test(test_fair_deals_block),
        cmocka_unit_test(test_spanish_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
