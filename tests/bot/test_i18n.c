/*
 * test_i18n.c — the catalogues as the bot reads them (bot/base/i18n.c):
 * Spanish from the build's porrazo-es.mo whatever locales the host has
 * (ctest runs this test a second time under env -i LANG=C.UTF-8 and a
 * third under LC_ALL=C), plural forms, words told apart by context, dates
 * in the reader's language, and the language kept per thread.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "i18n.h"
#include "tz.h"

#define SAT_28_NOV_2026_0544 1795844640 /* 2026-11-28 05:44:00 UTC, a Saturday */

static void test_spanish_comes_from_the_catalogue(void **state)
{
    (void)state;
    assert_int_equal(i18n_lang(), PZ_LANG_EN);
    assert_string_equal(_("table empty"), "table empty"); /* English: the msgid */
    pz_lang before = i18n_use(PZ_LANG_ES);
    assert_int_equal(before, PZ_LANG_EN);
    assert_string_equal(_("table empty"), "mesa vacía");
    assert_string_equal(_("kings"), "reyes");
    assert_string_equal(_("a text no catalogue has"), "a text no catalogue has");
    assert_string_equal(_(""), ""); /* never the catalogue's header */
    i18n_use(before);
    assert_string_equal(_("table empty"), "table empty");
    /* the folder it was read from: the build tree's, beside bin/ */
    const char *dir = i18n_dir();
    assert_non_null(strstr(dir, "locale"));
}

static void test_plurals_follow_the_language(void **state)
{
    (void)state;
    pz_lang before = i18n_use(PZ_LANG_ES);
    assert_string_equal(P_("the %d leftover card is dealt:", "the %d leftover cards are dealt:", 1),
                        "se reparte %d carta sobrante:");
    assert_string_equal(P_("the %d leftover card is dealt:", "the %d leftover cards are dealt:", 3),
                        "se reparten %d cartas sobrantes:");
    i18n_use(PZ_LANG_EN);
    assert_string_equal(P_("the %d leftover card is dealt:", "the %d leftover cards are dealt:", 3),
                        "the %d leftover cards are dealt:");
    i18n_use(before);
}

static void test_dates_in_the_readers_language(void **state)
{
    (void)state;
    char when[64];
    tz_format(SAT_28_NOV_2026_0544, "", true, when, sizeof when);
    assert_string_equal(when, "Sat 28 Nov 05:44 UTC");
    pz_lang before = i18n_use(PZ_LANG_ES);
    tz_format(SAT_28_NOV_2026_0544, "", true, when, sizeof when);
    assert_string_equal(when, "sáb 28 nov 05:44 UTC");
    /* "Mar" the month and "mar" (martes) are told apart by context */
    assert_string_equal(C_("month", "Mar"), "mar");
    assert_string_equal(C_("weekday", "Tue"), "mar");
    assert_string_equal(C_("month", "May"), "may");
    i18n_use(before);
    tz_format(SAT_28_NOV_2026_0544, "America/Chicago", false, when, sizeof when);
    assert_string_equal(when, "Fri 23:44 CST");
}

/* One thread in each language at once: neither changes the other's. */
static void *read_many(void *arg)
{
    pz_lang l = *(const pz_lang *)arg;
    i18n_use(l);
    const char *want = l == PZ_LANG_ES ? "mesa vacía" : "table empty";
    for (int i = 0; i < 20000; i++)
        if (strcmp(_("table empty"), want) != 0 || i18n_lang() != l)
            return (void *)1;
    return NULL;
}

static void test_the_language_is_per_thread(void **state)
{
    (void)state;
    pthread_t t[4];
    pz_lang langs[4] = {PZ_LANG_ES, PZ_LANG_EN, PZ_LANG_ES, PZ_LANG_EN};
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, read_many, &langs[i]), 0);
    for (int i = 0; i < 4; i++) {
        void *r;
        assert_int_equal(pthread_join(t[i], &r), 0);
        assert_null(r);
    }
    assert_int_equal(i18n_lang(), PZ_LANG_EN); /* this thread's untouched */
}

/* The C library's messages (the operator's log) stay English, even where
   its Spanish catalogue is installed (libc-l10n), though LANGUAGE=es. */
static void test_the_c_librarys_messages_stay_english(void **state)
{
    (void)state;
    pz_lang before = i18n_use(PZ_LANG_ES);
    assert_string_equal(strerror(ENOENT), "No such file or directory");
    i18n_use(before);
}

static void test_language_words(void **state)
{
    (void)state;
    pz_lang l;
    assert_true(i18n_parse("ES", &l));
    assert_int_equal(l, PZ_LANG_ES);
    assert_true(i18n_parse("español", &l));
    assert_int_equal(l, PZ_LANG_ES);
    assert_true(i18n_parse("inglés", &l));
    assert_int_equal(l, PZ_LANG_EN);
    assert_false(i18n_parse("fr", &l));
    assert_string_equal(i18n_code(PZ_LANG_ES), "es");
    assert_int_equal(i18n_use((pz_lang)7), PZ_LANG_EN); /* out of range: unchanged */
    assert_int_equal(i18n_lang(), PZ_LANG_EN);
}

/* The languages are the rows of i18n.c's table: each one's code and
   words name it, its name is a msgid, its catalogue is found (the build
   tree's); nothing else names one. */
static void test_the_languages_are_a_table(void **state)
{
    (void)state;
    for (int l = 0; l < PZ_LANG_COUNT; l++) {
        pz_lang got;
        assert_true(i18n_parse(i18n_code((pz_lang)l), &got));
        assert_int_equal(got, l);
        assert_non_null(i18n_name((pz_lang)l));
        assert_true(i18n_available((pz_lang)l));
    }
    pz_lang got;
    assert_true(i18n_parse("Español", &got));
    assert_int_equal(got, PZ_LANG_ES);
    assert_true(i18n_parse("INGLES", &got));
    assert_int_equal(got, PZ_LANG_EN);
    assert_false(i18n_parse("klingon", &got));
    assert_false(i18n_parse("", &got));
    assert_false(i18n_parse("e", &got));
    assert_false(i18n_available(PZ_LANG_COUNT));
}

/* A catalogue's text in lang, leaving by an early return when asked:
   I18N_SCOPE puts the language back either way. */
static const char *scoped(pz_lang lang, bool early)
{
    I18N_SCOPE(lang);
    if (early)
        return _("table empty");
    return _("kings");
}

static void test_a_scope_puts_the_language_back_however_it_is_left(void **state)
{
    (void)state;
    assert_int_equal(i18n_lang(), PZ_LANG_EN);
    assert_string_equal(scoped(PZ_LANG_ES, true), "mesa vacía");
    assert_int_equal(i18n_lang(), PZ_LANG_EN);
    assert_string_equal(scoped(PZ_LANG_ES, false), "reyes");
    assert_int_equal(i18n_lang(), PZ_LANG_EN);
    pz_lang before = i18n_use(PZ_LANG_ES);
    for (int i = 0; i < 2; i++) {
        I18N_SCOPE(PZ_LANG_EN);
        assert_string_equal(_("kings"), "kings");
        if (i == 0)
            continue;
        break;
    }
    assert_int_equal(i18n_lang(), PZ_LANG_ES);
    i18n_use(before);
}

/* The configured rules: a network's rooms (ASCII case ignored), then its
   own, then the fallback; and a private line's rule: own, room, network,
   bot, the first known. */
static void test_the_rules_of_a_line(void **state)
{
    (void)state;
    static const i18n_rule rule[] = {
        {"libera", "#Mesa", PZ_LANG_ES},
        {"libera", "", PZ_LANG_EN},
        {"home", "!a:example.org", PZ_LANG_EN},
    };
    i18n_rules r = {.fallback = PZ_LANG_ES, .n = 3, .rule = rule};
    assert_int_equal(i18n_rules_lang(&r, "libera", "#mesa"), PZ_LANG_ES);
    assert_int_equal(i18n_rules_lang(&r, "libera", "#MESA"), PZ_LANG_ES);
    assert_int_equal(i18n_rules_lang(&r, "libera", "#mesa2"), PZ_LANG_EN);
    assert_int_equal(i18n_rules_lang(&r, "libera", NULL), PZ_LANG_EN);
    assert_int_equal(i18n_rules_lang(&r, "home", "!A:example.org"), PZ_LANG_EN);
    assert_int_equal(i18n_rules_lang(&r, "home", "!b:example.org"), PZ_LANG_ES);
    assert_int_equal(i18n_rules_lang(&r, "other", "#mesa"), PZ_LANG_ES);
    assert_int_equal(i18n_rules_lang(NULL, "libera", "#mesa"), PZ_LANG_EN);
    assert_int_equal(i18n_reader_lang(PZ_LANG_EN, PZ_LANG_ES, PZ_LANG_ES, PZ_LANG_ES), PZ_LANG_EN);
    assert_int_equal(i18n_reader_lang(-1, PZ_LANG_ES, PZ_LANG_EN, PZ_LANG_EN), PZ_LANG_ES);
    assert_int_equal(i18n_reader_lang(-1, -1, PZ_LANG_ES, PZ_LANG_EN), PZ_LANG_ES);
    assert_int_equal(i18n_reader_lang(-1, -1, -1, PZ_LANG_ES), PZ_LANG_ES);
}

int main(void)
{
    i18n_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_languages_are_a_table),
        cmocka_unit_test(test_a_scope_puts_the_language_back_however_it_is_left),
        cmocka_unit_test(test_the_rules_of_a_line),
        cmocka_unit_test(test_spanish_comes_from_the_catalogue),
        cmocka_unit_test(test_plurals_follow_the_language),
        cmocka_unit_test(test_dates_in_the_readers_language),
        cmocka_unit_test(test_the_language_is_per_thread),
        cmocka_unit_test(test_the_c_librarys_messages_stay_english),
        cmocka_unit_test(test_language_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
