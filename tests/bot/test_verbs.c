/*
 * test_verbs.c — the command table (bot/parse/verbs.def) as the parser and
 * the help read it: every word of every row parses to that row's verb,
 * with the arguments of the row's own example; no word names two verbs;
 * the help list shows every verb and "help WORD" answers for every word,
 * with the row's usage; the words help used to advertise while the parser
 * refused them (sentarse, irse, expulsar, juega, quien...) are the verbs
 * help says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "command.h"
#include "i18n.h"
#include "render.h"

/* The table's rows, as the tests read them. */
typedef struct row {
    cmd_verb verb;
    const char *name, *shown, *more, *list, *usage, *example;
} row;

static const row ROWS[] = {
#define X(id, name, shown, more, flags, section, list, usage, what, example, refuse, handler)      \
    {CMD_##id, name, shown, more, list, usage, example},
#include "verbs.def"
#undef X
};
#define NROWS ((int)(sizeof ROWS / sizeof ROWS[0]))

#define WORDS_MAX 24 /* words of one row, at most */

/* The words of a row: its name, then the shown and the other words. */
static int words_of(const row *r, char out[WORDS_MAX][64])
{
    const char *lists[3] = {r->name, r->shown, r->more};
    int n = 0;
    for (int l = 0; l < 3; l++)
        for (const char *p = lists[l]; *p != '\0';) {
            size_t k = strcspn(p, " ");
            assert_true(k > 0 && k < 64 && n < WORDS_MAX);
            memcpy(out[n], p, k);
            out[n++][k] = '\0';
            p += k;
            while (*p == ' ')
                p++;
        }
    return n;
}

/* Parses text (prefix "!"); fails unless it is a command of verb v. */
static void expect_verb(const char *text, bool in_channel, cmd_verb v)
{
    cmd c;
    char err[CMD_ERROR_MAX] = "";
    cmd_result r = cmd_parse(text, strlen(text), in_channel, "!", &c, err, sizeof err);
    if (r != CMD_OK)
        fail_msg("'%s' gave %d, not %s: %s", text, (int)r, cmd_verb_name(v), err);
    if (c.verb != v)
        fail_msg("'%s' is %s, not %s", text, cmd_verb_name(c.verb), cmd_verb_name(v));
}

/* The row's example with its first word replaced by word. */
static void example_with(const row *r, const char *word, char *out, size_t cap)
{
    const char *args = r->example + strcspn(r->example, " ");
    int n = snprintf(out, cap, "%s%s", word, args);
    assert_true(n > 0 && (size_t)n < cap);
}

static void test_every_word_of_every_row_parses_to_its_verb(void **state)
{
    (void)state;
    char words[WORDS_MAX][64], line[200], chan[210];
    assert_int_equal(NROWS, CMD_NVERBS);
    for (int i = 0; i < NROWS; i++) {
        assert_int_equal((int)ROWS[i].verb, i);
        assert_string_equal(cmd_verb_name(ROWS[i].verb), ROWS[i].name);
        int n = words_of(&ROWS[i], words);
        for (int w = 0; w < n; w++) {
            example_with(&ROWS[i], words[w], line, sizeof line);
            assert_true(snprintf(chan, sizeof chan, "!%s", line) < (int)sizeof chan);
            expect_verb(line, false, ROWS[i].verb);
            expect_verb(chan, true, ROWS[i].verb);
        }
    }
}

static void test_no_word_names_two_verbs(void **state)
{
    (void)state;
    char a[WORDS_MAX][64], b[WORDS_MAX][64];
    for (int i = 0; i < NROWS; i++) {
        int na = words_of(&ROWS[i], a);
        for (int j = i; j < NROWS; j++) {
            int nb = words_of(&ROWS[j], b);
            for (int x = 0; x < na; x++)
                for (int y = 0; y < nb; y++)
                    if ((i != j || x != y) && strcmp(a[x], b[y]) == 0)
                        fail_msg("'%s' names %s and %s", a[x], ROWS[i].name, ROWS[j].name);
        }
    }
}

/* True when a line of out holds s. */
static bool any_line_has(const render_lines *out, const char *s)
{
    for (int i = 0; i < out->n; i++)
        if (strstr(out->line[i], s) != NULL)
            return true;
    return false;
}

static void test_the_help_list_shows_every_verb_by_a_word_the_parser_takes(void **state)
{
    (void)state;
    render_lines out = {0};
    char entry[80], word[80], line[200];
    render_help("", "!", &out);
    assert_true(out.n >= 3 && out.n <= 5);
    for (int i = 0; i < NROWS; i++) {
        size_t k = strcspn(ROWS[i].list, " ");
        assert_true(snprintf(entry, sizeof entry, "!%.*s", (int)k, ROWS[i].list) <
                    (int)sizeof entry);
        if (!any_line_has(&out, entry))
            fail_msg("the help list lacks %s (%s)", entry, ROWS[i].name);
        snprintf(word, sizeof word, "%s", entry + 1);
        example_with(&ROWS[i], word, line, sizeof line);
        expect_verb(line, false, ROWS[i].verb);
    }
    for (int i = 0; i < out.n; i++) /* none cut at RENDER_LINE_MAX */
        assert_true(strlen(out.line[i]) < RENDER_LINE_MAX - 8);
}

static void test_help_answers_every_word_with_its_rows_usage(void **state)
{
    (void)state;
    char words[WORDS_MAX][64], usage[80];
    for (int i = 0; i < NROWS; i++) {
        size_t k = strcspn(ROWS[i].usage, "|");
        assert_true(snprintf(usage, sizeof usage, "!%.*s", (int)k, ROWS[i].usage) <
                    (int)sizeof usage);
        int n = words_of(&ROWS[i], words);
        for (int w = 0; w < n; w++) {
            render_lines out = {0};
            render_help(words[w], "!", &out);
            if (out.n != 2 || strncmp(out.line[0], usage, strlen(usage)) != 0)
                fail_msg("help %s: \"%s\", not %s's usage", words[w], out.line[0], ROWS[i].name);
            assert_int_equal(strncmp(out.line[1], "Example: !", 10), 0);
        }
    }
}

static void test_the_words_help_used_to_advertise_are_the_verbs_it_says(void **state)
{
    (void)state;
    static const struct {
        const char *word;
        cmd_verb verb;
    } drift[] = {
        {"sentarse", CMD_JOIN},         {"irse", CMD_LEAVE},          {"expulsar bob", CMD_KICK},
        {"juega 7h", CMD_PLAY},         {"juego 7h", CMD_PLAY},       {"quien", CMD_PLAYERS},
        {"arreglar best", CMD_ARRANGE}, {"tiempo 10m", CMD_DEADLINE},
    };
    char line[80];
    for (size_t i = 0; i < sizeof drift / sizeof drift[0]; i++) {
        expect_verb(drift[i].word, false, drift[i].verb);
        assert_true(snprintf(line, sizeof line, "!%s", drift[i].word) < (int)sizeof line);
        expect_verb(line, true, drift[i].verb);
        /* help names the same verb for the word as for its canonical name */
        render_lines by_word = {0}, by_name = {0};
        size_t k = strcspn(drift[i].word, " ");
        assert_true(snprintf(line, sizeof line, "%.*s", (int)k, drift[i].word) < (int)sizeof line);
        render_help(line, "!", &by_word);
        render_help(cmd_verb_name(drift[i].verb), "!", &by_name);
        assert_int_equal(by_word.n, 2);
        assert_string_equal(by_word.line[0], by_name.line[0]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_word_of_every_row_parses_to_its_verb),
        cmocka_unit_test(test_no_word_names_two_verbs),
        cmocka_unit_test(test_the_help_list_shows_every_verb_by_a_word_the_parser_takes),
        cmocka_unit_test(test_help_answers_every_word_with_its_rows_usage),
        cmocka_unit_test(test_the_words_help_used_to_advertise_are_the_verbs_it_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
