/*
 * test_settings.c — the settings table (bot/parse/settings.def) as the
 * parser, the stored row, help and the settings line read it: every word
 * of every row names its key in "set" and in cmd_setting_find, no word
 * names two settings; each kind's values are checked, kept and written
 * back as the same row; a row written before the table (the host's old
 * words, unknown words and values among them) reads as it did; "help set
 * KEY" answers with the row's usage for every word of it; every row has
 * its item and its answer in English and in Spanish. The players' and the
 * games' rows: each a verb of its own, every word of it parsed with a
 * value of its kind, its help its row's, a switch's stored form (and the
 * host's forms from before the table) read back.
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
    [SK_ZONE] = "Europe/Madrid", [SK_WINDOW] = "23:00-08:00",
    [SK_UNTIL] = "3d bot",       [SK_OPTIONS] = "partners to 31",
    [SK_DURATION] = "10m",       [SK_LEVEL] = "experto",
    [SK_PREFIX] = ">>",          [SK_SWITCH] = "off",
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
    [SK_ZONE] = "two words", [SK_WINDOW] = "",       [SK_UNTIL] = "soon",
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
    for (int id = 0; id < CMD_ROOM_SETTINGS; id++) {
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
            for (int other = 0; other < CMD_ROOM_SETTINGS; other++) {
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
    for (int id = 0; id < CMD_ROOM_SETTINGS; id++) {
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
    for (int id = 0; id < CMD_ROOM_SETTINGS; id++)
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
        for (int id = 0; id < CMD_ROOM_SETTINGS; id++) {
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

/* The table's order and columns: the rooms' rows first (set's keys), then
   the players' (their own, privately), then the games' (the manager's);
   a player's kv scope names one setting only. */
static void test_the_rows_go_room_player_game_with_their_who(void **state)
{
    (void)state;
    int last = SS_ROOM, players = 0, games = 0;
    assert_true(CMD_ROOM_SETTINGS > 0 && (int)CMD_ROOM_SETTINGS < (int)CMD_SETTING_COUNT);
    for (int id = 0; id < CMD_SETTING_COUNT; id++) {
        const cmd_setting_row *r = cmd_setting_row_of(id);
        assert_true((int)r->scope >= last);
        last = (int)r->scope;
        assert_int_equal(r->scope == SS_ROOM, id < CMD_ROOM_SETTINGS);
        assert_true(r->stored != NULL && r->stored[0] != '\0');
        assert_int_equal(r->who, r->scope == SS_ROOM     ? SW_MODERATORS
                                 : r->scope == SS_PLAYER ? SW_SELF
                                                         : SW_MANAGER);
        if (r->scope == SS_ROOM) {
            assert_int_equal(r->verb, CMD_SET);
            assert_int_equal(cmd_setting_of_verb(r->verb), -1);
            continue;
        }
        players += r->scope == SS_PLAYER;
        games += r->scope == SS_GAME;
        /* a verb of its own, named by its key, with its help */
        assert_int_equal(cmd_setting_of_verb(r->verb), id);
        assert_string_equal(cmd_verb_name(r->verb), r->key);
        assert_true(r->list != NULL && r->example != NULL && r->usage != NULL && r->what != NULL);
        assert_true(r->kind != SK_OPTIONS && r->kind != SK_LEVEL && r->kind != SK_PREFIX);
        if (r->kind == SK_SWITCH)
            assert_non_null(r->told);
        for (int other = CMD_ROOM_SETTINGS; other < id; other++)
            if (cmd_setting_row_of(other)->scope == SS_PLAYER && r->scope == SS_PLAYER &&
                strcmp(cmd_setting_row_of(other)->stored, r->stored) == 0)
                fail_msg("%s and %s are both kept in %s", r->key, cmd_setting_row_of(other)->key,
                         r->stored);
    }
    assert_true(players >= 8 && games >= 1);
    assert_int_equal(cmd_setting_find("prompts"), -1); /* not one of set's keys */
}

/* Every word of a player's or a game's row says its verb, with a good
   value of its kind, in a room and privately; a bad value is refused
   with a reason that names the verb. */
static void test_every_player_and_game_row_parses_as_its_verb(void **state)
{
    (void)state;
    for (int id = CMD_ROOM_SETTINGS; id < CMD_SETTING_COUNT; id++) {
        const cmd_setting_row *r = cmd_setting_row_of(id);
        char words[16][64], more[16][64], line[160], err[CMD_ERROR_MAX];
        int n = words_of(id, words), m = 0;
        for (const char *w = r->more; *w != '\0' && m < 16; w += strspn(w, " ")) {
            size_t k = strcspn(w, " ");
            snprintf(more[m++], 64, "%.*s", (int)k, w);
            w += k;
        }
        for (int i = 0; i < n + m; i++) {
            const char *word = i < n ? words[i] : more[i - n];
            const char *good = r->kind == SK_DURATION ? GOOD[SK_DURATION] : GOOD[r->kind];
            cmd c;
            for (int in_room = 0; in_room < 2; in_room++) {
                int len = snprintf(line, sizeof line, "%s%s %s", in_room ? "!" : "", word, good);
                assert_true(len > 0 && (size_t)len < sizeof line);
                if (cmd_parse(line, strlen(line), in_room, "!", &c, err, sizeof err) != CMD_OK)
                    fail_msg("%s: %s", line, err);
                assert_int_equal(c.verb, r->verb);
            }
            if (r->kind == SK_SWITCH)
                assert_true(c.on == (strcmp(good, "on") == 0));
            else if (r->kind == SK_DURATION)
                assert_int_equal(c.deadline_secs, 600);
            else if (r->kind == SK_UNTIL)
                assert_true(c.deadline_secs == 3 * 86400 && c.robots);
            else
                assert_string_equal(c.name, good);
        }
        if (r->kind == SK_LANG) /* any one word: the host checks it */
            continue;
        cmd c;
        snprintf(line, sizeof line, "%s %s", r->key, BAD[r->kind]);
        err[0] = '\0';
        assert_int_equal(cmd_parse(line, strlen(line), false, "!", &c, err, sizeof err), CMD_ERROR);
        if (strstr(err, r->key) == NULL)
            fail_msg("%s: %s", line, err);
    }
}

/* A switch keeps nothing at its default, "on" or "off" otherwise, and
   reads back what it wrote and what the host wrote before the table:
   prompts "on" and "off" (always written), reminders "off", notice and
   review "on", and nothing, or a value it never wrote, as its default. */
static void test_a_switch_reads_what_it_wrote_and_the_old_forms(void **state)
{
    (void)state;
    int switches = 0;
    for (int id = 0; id < CMD_SETTING_COUNT; id++) {
        const cmd_setting_row *r = cmd_setting_row_of(id);
        if (r->kind != SK_SWITCH)
            continue;
        switches++;
        for (int on = 0; on < 2; on++) {
            const char *kept = cmd_switch_stored(r, on);
            assert_string_equal(kept, on == r->dflt ? "" : on ? "on" : "off");
            assert_int_equal(cmd_switch_read(r, kept), on);
        }
        assert_int_equal(cmd_switch_read(r, NULL), r->dflt);
        assert_int_equal(cmd_switch_read(r, "maybe"), r->dflt);
        assert_true(cmd_switch_read(r, "on"));
        assert_false(cmd_switch_read(r, "off"));
    }
    assert_true(switches >= 7);
    static const struct {
        int id;
        const char *scope, *value;
        bool on;
    } OLD[] = {{CMD_SETTING_PROMPTS, "prompts", "on", true},
               {CMD_SETTING_PROMPTS, "prompts", "off", false},
               {CMD_SETTING_REMINDERS, "reminders", "off", false},
               {CMD_SETTING_REMINDERS, "reminders", "", true},
               {CMD_SETTING_NOTICES, "notice", "on", true},
               {CMD_SETTING_NOTICES, "notice", "", false},
               {CMD_SETTING_REVIEW, "review", "on", true},
               {CMD_SETTING_REVIEW, "review", "", false}};
    for (size_t i = 0; i < sizeof OLD / sizeof OLD[0]; i++) {
        const cmd_setting_row *r = cmd_setting_row_of(OLD[i].id);
        assert_string_equal(r->stored, OLD[i].scope);
        assert_int_equal(cmd_switch_read(r, OLD[i].value), OLD[i].on);
    }
    /* the other kinds' scopes, as the host always kept them */
    assert_string_equal(cmd_setting_row_of(CMD_SETTING_TZ)->stored, "tz");
    assert_string_equal(cmd_setting_row_of(CMD_SETTING_QUIET)->stored, "quiet");
    assert_string_equal(cmd_setting_row_of(CMD_SETTING_PLAYER_AWAY)->stored, "away");
    assert_string_equal(cmd_setting_row_of(CMD_SETTING_PLAYER_LANG)->stored, "lang");
    assert_string_equal(cmd_setting_row_of(CMD_SETTING_GAME_DEADLINE)->stored, "deadline");
}

/* "help KEY" of a player's or a game's row answers with its usage, what
   it does and its example, and the list names it, in every language. */
static void test_help_of_a_player_or_game_row_is_its_row(void **state)
{
    (void)state;
    for (int lang = 0; lang < PZ_LANG_COUNT; lang++) {
        pz_lang before = i18n_use((pz_lang)lang);
        render_lines list = {0};
        render_help("", "!", &list);
        for (int id = CMD_ROOM_SETTINGS; id < CMD_SETTING_COUNT; id++) {
            const cmd_setting_row *r = cmd_setting_row_of(id);
            render_lines one = {0};
            render_help(r->key, "!", &one);
            assert_true(one.n >= 2);
            if (strstr(one.line[0], _(r->usage)) == NULL || strstr(one.line[0], _(r->what)) == NULL)
                fail_msg("help %s: %s", r->key, one.line[0]);
            if (strstr(one.line[1], _(r->example)) == NULL)
                fail_msg("help %s: %s", r->key, one.line[1]);
            bool listed = false;
            for (int i = 0; i < list.n && !listed; i++)
                listed = strstr(list.line[i], _(r->list)) != NULL;
            if (!listed)
                fail_msg("the help's list does not name %s", _(r->list));
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
        cmocka_unit_test(test_the_rows_go_room_player_game_with_their_who),
        cmocka_unit_test(test_every_player_and_game_row_parses_as_its_verb),
        cmocka_unit_test(test_a_switch_reads_what_it_wrote_and_the_old_forms),
        cmocka_unit_test(test_help_of_a_player_or_game_row_is_its_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
