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

int main(void)
{
    i18n_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spanish_comes_from_the_catalogue),
        cmocka_unit_test(test_plurals_follow_the_language),
        cmocka_unit_test(test_dates_in_the_readers_language),
        cmocka_unit_test(test_the_language_is_per_thread),
        cmocka_unit_test(test_the_c_librarys_messages_stay_english),
        cmocka_unit_test(test_language_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
