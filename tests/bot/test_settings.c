/*
 * test_settings.c — the settings table (bot/parse/settings.def) as the
 * parser, the stored row, help and the settings line read it: every word
 * of every row names its key in "set" and in cmd_setting_find, no word
 * names two settings; each kind's values are checked, kept and written
 * back as the same row; a row written before the table (the host's old
 * words, unknown words and values among them) reads as it did; "help set
 * KEY" answers with the row's usage for every word of it; every row has
 * its item and its answer in English and in Spanish.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmd_settings.h"
#include "command.h"
#include "i18n.h"
#include "render.h"

/* A value of each kind that sets it, as typed, and the row it leaves. */
static const char *const GOOD[] = {
    [SK_OPTIONS] = "partners to 31",
    [SK_DURATION] = "10m",
    [SK_LEVEL] = "experto",
    [SK_PREFIX] = ">>",
    [SK_SWITCH] = "off",
    [SK_LANG] = "español",
};
static const char *const STORED[] = {
    [SK_OPTIONS] = "o.partnerships=true o.target=31",
    [SK_DURATION] = "=600",
    [SK_LEVEL] = "=expert",
    [SK_PREFIX] = "=>>",
    [SK_SWITCH] = "=off",
    [SK_LANG] = "=es",
};
/* A value of each kind that does not (a prefix of letters, a switch "red"). */
static const char *const BAD[] = {
    [SK_OPTIONS] = "to 500", [SK_DURATION] = "soon", [SK_LEVEL] = "godlike",
    [SK_PREFIX] = "ab",      [SK_SWITCH] = "red",    [SK_LANG] = "klingon",
};

/* The words of row id: its key, then its other words, into out. */
static int words_of(int id, char out[16][64])
{
    const cmd_setting_row *r = cmd_setting_row_of(id);
    int n = 0;
    snprintf(out[n++], 64, "%s", r->key);
    for (const char *w = r->words; *w != '\0' && n < 16; w += strspn(w, " ")) {
        size_t k = strcspn(w, " ");
        snprintf(out[n++], 64, "%.*s", (int)k, w);
        w += k;
    }
    return n;
}

static void test_every_word_names_its_setting_and_no_other(void **state)
{
    (void)state;
    assert_true(CMD_SETTING_COUNT > 0);
    assert_null(cmd_setting_row_of(CMD_SETTING_COUNT));
    for (int id = 0; id < CMD_SETTING_COUNT; id++) {
        char words[16][64], line[160], err[CMD_ERROR_MAX];
        const cmd_setting_row *r = cmd_setting_row_of(id);
        assert_non_null(r->usage);
        assert_non_null(r->what);
        assert_non_null(r->shown);
        assert_non_null(r->told);
        int n = words_of(id, words);
        for (int i = 0; i < n; i++) {
            if (cmd_setting_find(words[i]) != id)
                fail_msg("%s names setting %d, not %s", words[i], cmd_setting_find(words[i]),
                         r->key);
            for (int other = 0; other < CMD_SETTING_COUNT; other++) {
                char theirs[16][64];
                int m = words_of(other, theirs);
                for (int j = 0; j < m && other != id; j++)
                    if (strcmp(words[i], theirs[j]) == 0)
                        fail_msg("%s names %s and %s", words[i], r->key,
                                 cmd_setting_row_of(other)->key);
            }
            cmd c;
            int len = snprintf(line, sizeof line, "set %s %s", words[i], GOOD[r->kind]);
            assert_true(len > 0 && (size_t)len < sizeof line);
            assert_int_equal(cmd_parse(line, strlen(line), false, "!", &c, err, sizeof err),
                             CMD_OK);
            assert_int_equal(c.verb, CMD_SET);
            assert_string_equal(c.name, r->key);
        }
    }
    assert_int_equal(cmd_setting_find("colour-scheme"), -1);
    assert_int_equal(cmd_setting_find(""), -1);
}

/* Each row, set to a good value: written as key=value (the options as
   their o. words), read back to the same values, written the same again. */
static void test_each_setting_is_kept_and_read_back(void **state)
{
    (void)state;
    for (int id = 0; id < CMD_SETTING_COUNT; id++) {
        const cmd_setting_row *r = cmd_setting_row_of(id);
        cmd_settings s, back;
        char why[300], row[CMD_SETTINGS_ROW], again[CMD_SETTINGS_ROW], want[80];
        cmd_settings_clear(&s);
        if (cmd_setting_set(&s, id, GOOD[r->kind], "!", "!", why, sizeof why) != 0)
            fail_msg("set %s %s: %s", r->key, GOOD[r->kind], why);
        assert_true(s.own[id]);
        assert_int_equal(cmd_settings_write(&s, row, sizeof row), 0);
        if (r->kind == SK_OPTIONS)
            snprintf(want, sizeof want, "%s", STORED[r->kind]);
        else
            snprintf(want, sizeof want, "%s%s", r->key, STORED[r->kind]);
        assert_string_equal(row, want);
        cmd_settings_clear(&back);
        cmd_settings_read(row, &back);
        assert_memory_equal(back.own, s.own, sizeof s.own);
        assert_memory_equal(back.num, s.num, sizeof s.num);
        assert_string_equal(back.prefix, s.prefix);
        assert_string_equal(back.options, s.options);
        assert_int_equal(cmd_settings_write(&back, again, sizeof again), 0);
        assert_string_equal(again, row);
        /* a bad value: refused with a reason, nothing changed */
        cmd_settings before = s;
        why[0] = '\0';
        assert_int_equal(cmd_setting_set(&s, id, BAD[r->kind], "!", "!", why, sizeof why), -1);
        assert_true(why[0] != '\0');
        assert_memory_equal(&s, &before, sizeof s);
        /* off (a switch: back on, its default): the room's own value gone
           (a duration of 0 is its own; a level has no off) */
        int off =
            cmd_setting_set(&s, id, r->kind == SK_SWITCH ? "si" : "off", "!", "!", why, sizeof why);
        assert_int_equal(off, r->kind == SK_LEVEL ? -1 : 0);
        if (r->kind == SK_DURATION)
            assert_true(s.own[id] && s.num[id] == 0);
        else if (r->kind != SK_LEVEL)
            assert_false(s.own[id]);
    }
}

/* A row as the host wrote it before the table, with words this version
   does not know and values no longer valid: read as then, and written
   back the same, less what was skipped. */
static void test_a_row_of_the_old_form_still_loads(void **state)
{
    (void)state;
    static const char OLD[] = "deadline=86400 away=259200 level=strong prefix=>> colours=off "
                              "hints=off web=off lang=es o.target=31 o.declarations=manual";
    cmd_settings s;
    char row[CMD_SETTINGS_ROW];
    cmd_settings_clear(&s);
    s.num[CMD_SETTING_LEVEL] = 1; /* the host's defaults, before its row */
    cmd_settings_read(OLD, &s);
    assert_true(s.own[CMD_SETTING_DEADLINE]);
    assert_int_equal(s.num[CMD_SETTING_DEADLINE], 86400);
    assert_int_equal(s.num[CMD_SETTING_AWAY], 259200);
    assert_int_equal(s.num[CMD_SETTING_LEVEL], 3);
    assert_string_equal(s.prefix, ">>");
    assert_int_equal(s.num[CMD_SETTING_COLOURS], 0);
    assert_int_equal(s.num[CMD_SETTING_HINTS], 0);
    assert_int_equal(s.num[CMD_SETTING_WEB], 0);
    assert_int_equal(s.num[CMD_SETTING_LANG], PZ_LANG_ES);
    assert_string_equal(s.options, "o.target=31 o.declarations=manual");
    assert_int_equal(cmd_settings_write(&s, row, sizeof row), 0);
    assert_string_equal(row, OLD);

    cmd_settings_clear(&s);
    s.num[CMD_SETTING_DEADLINE] = 3600;
    cmd_settings_read("deadline=soon level=godlike prefix=ab colours=red lang=xx zoom=2 "
                      "hints=on away=99999999999 =x web",
                      &s);
    for (int id = 0; id < CMD_SETTING_COUNT; id++)
        assert_false(s.own[id]);
    assert_int_equal(s.num[CMD_SETTING_DEADLINE], 3600); /* the default kept */
    assert_int_equal(s.num[CMD_SETTING_HINTS], 1);
    assert_int_equal(cmd_settings_write(&s, row, sizeof row), 0);
    assert_string_equal(row, "");
}

/* "help set" lists every key's usage; "help set WORD" answers with that
   row's usage and words for every word of it, in both languages; every
   row has its item and its answer in the settings line's languages. */
static void test_help_and_the_settings_line_read_the_table(void **state)
{
    (void)state;
    for (int lang = 0; lang < PZ_LANG_COUNT; lang++) {
        pz_lang before = i18n_use((pz_lang)lang);
        render_lines out = {0};
        render_help("set", "!", &out);
        assert_true(out.n > 0);
        for (int id = 0; id < CMD_SETTING_COUNT; id++) {
            const cmd_setting_row *r = cmd_setting_row_of(id);
            if (strstr(out.line[0], _(r->usage)) == NULL)
                fail_msg("help set does not list %s: %s", _(r->usage), out.line[0]);
            char words[16][64], topic[80], item[400], told[400];
            int n = words_of(id, words);
            for (int i = 0; i < n; i++) {
                render_lines one = {0};
                int len = snprintf(topic, sizeof topic, "set %s", words[i]);
                assert_true(len > 0 && (size_t)len < sizeof topic);
                render_help(topic, "!", &one);
                assert_int_equal(one.n, 1);
                if (strstr(one.line[0], _(r->usage)) == NULL ||
                    strstr(one.line[0], _(r->what)) == NULL)
                    fail_msg("help %s: %s", topic, one.line[0]);
            }
            cmd_settings s;
            cmd_settings_clear(&s);
            s.num[CMD_SETTING_LANG] = PZ_LANG_EN;
            render_setting_item(&s, id, "!", item, sizeof item);
            render_setting_told(&s, id, "!", told, sizeof told);
            assert_true(item[0] != '\0' && strchr(item, '%') == NULL);
            assert_true(told[0] != '\0' && strchr(told, '%') == NULL);
        }
        i18n_use(before);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_word_names_its_setting_and_no_other),
        cmocka_unit_test(test_each_setting_is_kept_and_read_back),
        cmocka_unit_test(test_a_row_of_the_old_form_still_loads),
        cmocka_unit_test(test_help_and_the_settings_line_read_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
