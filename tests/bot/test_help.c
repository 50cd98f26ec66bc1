/*
 * test_help.c — the help and rules texts (bot/render/help.c) as players read
 * them: every help topic and every rules topic, with and without a game,
 * is free of rule IDs ("R8.2"), engine words ("ltr", "rtl") and seat
 * numbers; the rules of a game say its target and its other options.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "command.h"
#include "help.h"
#include "porrazo.h"
#include "render.h"

/* The rules topics, their aliases, and words that are no topic. */
static const char *const RULES_TOPICS[] = {
    "",        "capture", "place",   "limpia",  "porrazo", "tendido", "ronda", "scoring",
    "end",     "counter", "rondine", "win",     "arrange", "take",    "score", "declare",
    "bidding", "\xff",    "sealed",  "sellado", "justo",   "fair",
};

/* Help topics other than the verbs: aliases, and words that are none. */
static const char *const HELP_TOPICS[] = {"", "ronda", "rondine", "jugar", "xyzzy", "!play"};

/* Case-insensitive strstr. */
static bool has_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = line; *p != '\0'; p++)
        if (strncasecmp(p, word, n) == 0)
            return true;
    return false;
}

/* Fails when a line of out shows a rule ID, an engine word or a seat number. */
static void expect_players_words(const render_lines *out, const char *what)
{
    assert_true(out->n > 0);
    for (int i = 0; i < out->n; i++) {
        const char *l = out->line[i];
        for (const char *p = l; *p != '\0'; p++)
            if (p[0] == 'R' && p[1] >= '0' && p[1] <= '9')
                fail_msg("%s: a rule ID in \"%s\"", what, l);
        if (has_word(l, "ltr") || has_word(l, "rtl"))
            fail_msg("%s: an engine direction in \"%s\"", what, l);
        if (has_word(l, "seat "))
            fail_msg("%s: a seat in \"%s\"", what, l);
    }
}

static void test_every_help_topic_is_in_players_words(void **state)
{
    (void)state;
    char what[64];
    for (int v = CMD_NEW; v <= CMD_SKIP; v++) {
        render_lines out = {0};
        render_help(cmd_verb_name((cmd_verb)v), "!", &out);
        snprintf(what, sizeof what, "help %s", cmd_verb_name((cmd_verb)v));
        expect_players_words(&out, what);
    }
    for (size_t i = 0; i < sizeof HELP_TOPICS / sizeof HELP_TOPICS[0]; i++) {
        render_lines out = {0};
        render_help(HELP_TOPICS[i], "!", &out);
        snprintf(what, sizeof what, "help '%s'", HELP_TOPICS[i]);
        expect_players_words(&out, what);
    }
}

static void test_every_rules_topic_is_in_players_words_with_or_without_a_game(void **state)
{
    (void)state;
    pz_options o;
    pz_options_default(&o);
    o.target = 31;
    o.declarations = PZ_DECL_MANUAL;
    o.partnerships = true;
    o.wrap = false;
    o.tendido = PZ_TENDIDO_LAST;
    o.odd_leftover = PZ_LEFTOVER_DEAL;
    o.final_sweep = PZ_SWEEP_DEALER;
    char what[64];
    for (size_t i = 0; i < sizeof RULES_TOPICS / sizeof RULES_TOPICS[0]; i++) {
        render_lines plain = {0}, game = {0};
        render_rules(RULES_TOPICS[i], &plain);
        snprintf(what, sizeof what, "rules '%s'", RULES_TOPICS[i]);
        expect_players_words(&plain, what);
        help_rules(RULES_TOPICS[i], &o, &game);
        snprintf(what, sizeof what, "rules '%s' of a game", RULES_TOPICS[i]);
        expect_players_words(&game, what);
        /* each topic's one worked example, last */
        if (RULES_TOPICS[i][0] != '\0' && strstr(RULES_TOPICS[i], "nosuch") == NULL &&
            strncmp(plain.line[plain.n - 1], "Example: ", 9) != 0 &&
            strncmp(plain.line[0], "No rules topic", 14) != 0)
            fail_msg("rules '%s' has no worked example: %s", RULES_TOPICS[i],
                     plain.line[plain.n - 1]);
    }
}

/* True when a line of out contains s. */
static bool any_line_has(const render_lines *out, const char *s)
{
    for (int i = 0; i < out->n; i++)
        if (strstr(out->line[i], s) != NULL)
            return true;
    return false;
}

/* rules sealed (sellado, justo): the seal players see on a hand's first
   line, what the record reveals after the game and how it is checked; the
   topic lists name it. */
static void test_the_rules_explain_the_sealed_pack(void **state)
{
    (void)state;
    static const char *const words[] = {"sealed", "sellado", "justo", "SEAL"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        render_lines out = {0};
        render_rules(words[i], &out);
        assert_int_equal(out.n, 4);
        assert_true(any_line_has(&out, "\"pack sealed 847e357ca8ab\""));
        assert_true(any_line_has(&out, "ending in .json is that record"));
        assert_true(any_line_has(&out, "seed"));
        assert_true(any_line_has(&out, "salt"));
        assert_true(any_line_has(&out, "porrazo-replay --verify"));
        assert_true(any_line_has(&out, "the game's page"));
    }
    render_lines out = {0};
    render_rules("", &out);
    assert_true(any_line_has(&out, "end, sealed, options."));
    out.n = 0;
    render_rules("nosuch", &out);
    assert_true(any_line_has(&out, "end, sealed, options."));
}

/* rules options: every option a game can be made with, by name and by
   the word a player types (excess26, nowrap, ...), with its example. */
static void test_the_rules_name_every_option(void **state)
{
    (void)state;
    static const char *const words[] = {"options", "excess26", "nowrap",
                                        "manual",  "partners", "opciones"};
    static const char *const told[] = {"to N",
                                       "nowrap",
                                       "declarations manual",
                                       "silent",
                                       "tendido last",
                                       "partners",
                                       "excess26",
                                       "leftover deal",
                                       "sweep dealer",
                                       "Example: new 2 to 31 excess26"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        render_lines out = {0};
        render_rules(words[i], &out);
        if (out.n != 5)
            print_error("rules %s: %d lines, %s\n", words[i], out.n, out.n ? out.line[0] : "");
        assert_int_equal(out.n, 5);
        for (size_t k = 0; k < sizeof told / sizeof told[0]; k++)
            assert_true(any_line_has(&out, told[k]));
    }
}

/* The topics a newcomer stalled on say what they left out: where the
   tendido's cards come from, the counter's formula, the place positions,
   which declared ronda scores. */
static void test_the_rules_answer_a_newcomers_questions(void **state)
{
    (void)state;
    static const struct {
        const char *topic, *says;
    } cases[] = {
        {"tendido", "next 4 cards of the undealt pack"},
        {"porrazo", "score 3 (6 for a J, 9 for a Q, 12 for a K)"},
        {"porrazo", "a porrazo with a deal's last card stands at once"},
        {"porrazo", "their counter porrazo scores 3 plus that limpia of 1"},
        {"place", "a 2 laid as the table's second card 2"},
        {"ronda", "only the best declared one at the table scores"},
        {"ronda", "only your kings score, 4"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        render_lines out = {0};
        render_rules(cases[i].topic, &out);
        assert_true(any_line_has(&out, cases[i].says));
    }
}

static void test_the_rules_of_a_game_say_its_target_and_options(void **state)
{
    (void)state;
    pz_options o;
    pz_options_default(&o);
    o.target = 31;
    o.declarations = PZ_DECL_MANUAL;
    render_lines out = {0};
    help_rules("", &o, &out);
    assert_true(out.n >= 4 && out.n <= 6);
    assert_true(any_line_has(&out, "the first side to reach 31 points wins"));
    assert_false(any_line_has(&out, "61"));
    assert_true(any_line_has(&out, "This game: first to 31"));
    assert_true(any_line_has(&out, "manual"));
    out.n = 0;
    help_rules("end", &o, &out);
    assert_true(any_line_has(&out, "reach 31 points"));
    assert_false(any_line_has(&out, "61"));
    out.n = 0;
    help_rules("", NULL, &out); /* no game: the default, no game line */
    assert_true(any_line_has(&out, "reach 61 points"));
    assert_false(any_line_has(&out, "This game"));
    out.n = 0;
    help_rules("capture", &o, &out); /* other topics are the rules' */
    assert_false(any_line_has(&out, "This game"));
}

/* R5.5 and R1.3: what surprises in play is in the rules, and "after K
   comes A" only where the game's options let sequences go on. */
static void test_the_rules_say_capture_is_compulsory_and_wrap_only_where_allowed(void **state)
{
    (void)state;
    pz_options o;
    pz_options_default(&o);
    render_lines out = {0};
    help_rules("", &o, &out);
    assert_true(any_line_has(&out, "Capturing is compulsory"));
    assert_true(any_line_has(&out, "K then A then 2"));
    out.n = 0;
    help_rules("capture", &o, &out);
    assert_true(any_line_has(&out, "Capturing is compulsory"));
    assert_true(any_line_has(&out, "After K comes A, then 2"));
    assert_false(any_line_has(&out, "nowrap"));
    out.n = 0;
    render_rules("capture", &out); /* no game: the default, and the option that changes it */
    assert_true(any_line_has(&out, "After K comes A, then 2"));
    assert_true(any_line_has(&out, "nowrap stops at K"));
    o.wrap = false;
    out.n = 0;
    help_rules("", &o, &out);
    assert_true(any_line_has(&out, "Capturing is compulsory"));
    assert_true(any_line_has(&out, "up to K"));
    assert_false(any_line_has(&out, "K then A"));
    out.n = 0;
    help_rules("capture", &o, &out);
    assert_true(any_line_has(&out, "stops at K"));
    assert_false(any_line_has(&out, "After K comes A"));
}

static void test_help_shows_directions_and_ranks_as_players_say_them(void **state)
{
    (void)state;
    render_lines out = {0};
    render_help("arrange", "!", &out);
    assert_true(any_line_has(&out, "[left|right]"));
    assert_true(any_line_has(&out, "left to right"));
    assert_true(any_line_has(&out, "Example: !arrange 2 4 3 7 left"));
    out.n = 0;
    render_rules("tendido", &out);
    assert_true(any_line_has(&out, "from left to right or from right to left"));
    out.n = 0;
    render_rules("ronda", &out);
    assert_true(any_line_has(&out, "pagat's rule"));
}

static void test_an_unknown_help_topic_is_echoed_without_invisible_characters(void **state)
{
    (void)state;
    render_lines out = {0};
    /* "pl" U+200B "ay" and U+202E "x" U+FEFF: they would look like "play" */
    render_help("pl\xe2\x80\x8b"
                "ay\xe2\x80\xaex\xef\xbb\xbf",
                "!", &out);
    assert_true(out.n > 1);
    assert_string_equal(out.line[0], "There is no command \"playx\". The commands are:");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_help_topic_is_in_players_words),
        cmocka_unit_test(test_every_rules_topic_is_in_players_words_with_or_without_a_game),
        cmocka_unit_test(test_the_rules_of_a_game_say_its_target_and_options),
        cmocka_unit_test(test_the_rules_say_capture_is_compulsory_and_wrap_only_where_allowed),
        cmocka_unit_test(test_the_rules_explain_the_sealed_pack),
        cmocka_unit_test(test_the_rules_name_every_option),
        cmocka_unit_test(test_the_rules_answer_a_newcomers_questions),
        cmocka_unit_test(test_help_shows_directions_and_ranks_as_players_say_them),
        cmocka_unit_test(test_an_unknown_help_topic_is_echoed_without_invisible_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
