/*
 * test_cards.c — cards, values, names, options and the generator: the
 * lookups every other module relies on (R1.1, R1.6, R9, porrazo.h's
 * "Shuffling").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "porrazo.h"

static void test_cards_parse_in_any_case_and_with_10(void **state)
{
    (void)state;
    pz_card c;
    assert_int_equal(pz_card_parse("7h", 2, &c), 0);
    assert_int_equal(c, pz_card_make(6, 2));
    assert_int_equal(pz_card_parse("10S", 3, &c), 0);
    assert_int_equal(c, pz_card_make(9, 3));
    assert_int_equal(pz_card_parse("tS", 2, &c), 0);
    assert_int_equal(c, pz_card_make(9, 3));
    assert_int_equal(pz_card_parse("ac", 2, &c), 0);
    assert_int_equal(c, pz_card_make(0, 0));
    assert_int_equal(pz_card_parse("KD", 2, &c), 0);
    assert_int_equal(c, pz_card_make(12, 1));
}

static void test_cards_refuse_anything_else(void **state)
{
    (void)state;
    const char *bad[] = {"", "7", "7X", "1H", "11H", "ZZ", "7HH", "10", "0H", "♥7"};
    pz_card c = 99;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(pz_card_parse(bad[i], strlen(bad[i]), &c), PZ_EINVALID_ACTION);
    assert_int_equal(c, 99);
}

static void test_cards_format_canonically_and_round_trip(void **state)
{
    (void)state;
    char buf[3];
    for (int i = 0; i < PZ_CARDS; i++) {
        pz_card c;
        pz_card_format((pz_card)i, buf);
        assert_int_equal(pz_card_parse(buf, 2, &c), 0);
        assert_int_equal(c, i);
    }
    pz_card_format(pz_card_make(9, 2), buf);
    assert_string_equal(buf, "TH");
    pz_card_format(PZ_NO_CARD, buf);
    assert_string_equal(buf, "??");
}

/* R1.6 */
static void test_values_follow_r1_6(void **state)
{
    (void)state;
    assert_int_equal(pz_ronda_value(12), 4);
    assert_int_equal(pz_ronda_value(11), 3);
    assert_int_equal(pz_ronda_value(10), 2);
    assert_int_equal(pz_ronda_value(9), 1);
    assert_int_equal(pz_ronda_value(0), 1);
    assert_int_equal(pz_rondine_value(12), 12);
    assert_int_equal(pz_rondine_value(11), 9);
    assert_int_equal(pz_rondine_value(10), 6);
    assert_int_equal(pz_rondine_value(4), 3);
    assert_int_equal(pz_four_value(12), 24);
    assert_int_equal(pz_four_value(3), 6);
}

static void test_error_codes_have_stable_names_and_messages(void **state)
{
    (void)state;
    assert_string_equal(pz_err_name(PZ_ENOT_YOUR_TURN), "not_your_turn");
    assert_string_equal(pz_err_name(PZ_EINVALID_ACTION), "invalid_action");
    assert_string_equal(pz_err_name(PZ_EGAME_OVER), "game_over");
    assert_string_equal(pz_err_name(0), "ok");
    assert_string_equal(pz_err_name(-999), "unknown");
    assert_non_null(strstr(pz_strerror(PZ_ENOT_DEALER), "dealer"));
    assert_string_equal(pz_strerror(12345), "unknown error");
}

/* R9 */
static void test_options_default_to_r9(void **state)
{
    (void)state;
    pz_options o;
    char buf[160];
    pz_options_default(&o);
    assert_true(pz_options_format(&o, buf, sizeof buf) > 0);
    assert_string_equal(buf, "target=61 wrap=true declarations=auto tendido=choice "
                             "odd_leftover=table final_sweep=last_capturer "
                             "card_score=difference partnerships=false");
    assert_int_equal(pz_options_format(&o, buf, 10), PZ_ENO_SPACE);
}

static void test_options_set_from_words_and_refuse_bad_ones_untouched(void **state)
{
    (void)state;
    pz_options o, before;
    char why[PZ_WHY_MAX];
    memset(&o, 0, sizeof o); /* padding too: the struct is compared whole */
    pz_options_default(&o);
    assert_int_equal(pz_options_set(&o, "declarations", "manual", why, sizeof why), 0);
    assert_int_equal(o.declarations, PZ_DECL_MANUAL);
    assert_int_equal(pz_options_set(&o, "target", "121", why, sizeof why), 0);
    assert_int_equal(o.target, 121);
    before = o;
    assert_int_equal(pz_options_set(&o, "target", "0", why, sizeof why), PZ_EBAD_OPTIONS);
    assert_int_equal(pz_options_set(&o, "target", "99999999999", why, sizeof why), PZ_EBAD_OPTIONS);
    assert_int_equal(pz_options_set(&o, "target", "12a", why, sizeof why), PZ_EBAD_OPTIONS);
    assert_int_equal(pz_options_set(&o, "wrap", "maybe", why, sizeof why), PZ_EBAD_OPTIONS);
    assert_non_null(strstr(why, "true or false"));
    assert_int_equal(pz_options_set(&o, "colour", "red", why, sizeof why), PZ_EBAD_OPTIONS);
    assert_non_null(strstr(why, "unknown option"));
    assert_memory_equal(&o, &before, sizeof o);
}

/* R9: invalid combinations are refused with a clear message. */
static void test_options_refuse_invalid_combinations(void **state)
{
    (void)state;
    pz_options o;
    char why[PZ_WHY_MAX];
    pz_options_default(&o);
    o.card_score = PZ_CARD_SCORE_EXCESS26;
    assert_int_equal(pz_options_check(&o, 3, why, sizeof why), PZ_EBAD_OPTIONS);
    assert_non_null(strstr(why, "two sides"));
    assert_int_equal(pz_options_check(&o, 2, why, sizeof why), 0);
    o.partnerships = true;
    assert_int_equal(pz_options_check(&o, 4, why, sizeof why), 0);
    assert_int_equal(pz_options_check(&o, 6, why, sizeof why), PZ_EBAD_OPTIONS);
    o.card_score = PZ_CARD_SCORE_DIFFERENCE;
    assert_int_equal(pz_options_check(&o, 5, why, sizeof why), PZ_EBAD_OPTIONS);
    assert_non_null(strstr(why, "even"));
    assert_int_equal(pz_options_check(&o, 2, why, sizeof why), PZ_EBAD_OPTIONS);
    pz_options_default(&o);
    assert_int_equal(pz_options_check(&o, 9, why, sizeof why), PZ_EBAD_OPTIONS);
    assert_int_equal(pz_options_check(&o, 1, why, sizeof why), PZ_EBAD_OPTIONS);
}

static void test_shuffle_is_a_permutation_and_depends_on_the_seed(void **state)
{
    (void)state;
    pz_card a[PZ_CARDS], b[PZ_CARDS], c[PZ_CARDS];
    pz_shuffle(12345, a);
    pz_shuffle(12345, b);
    pz_shuffle(12346, c);
    assert_memory_equal(a, b, PZ_CARDS);
    assert_memory_not_equal(a, c, PZ_CARDS);
    uint64_t seen = 0;
    for (int i = 0; i < PZ_CARDS; i++)
        seen |= UINT64_C(1) << a[i];
    assert_true(seen == (UINT64_C(1) << PZ_CARDS) - 1);
}

/* Each card should land in each position about equally often. */
static void test_shuffle_spreads_cards_evenly(void **state)
{
    (void)state;
    enum { N = 20000 };
    static int count[PZ_CARDS];
    memset(count, 0, sizeof count);
    pz_card p[PZ_CARDS];
    for (uint64_t seed = 0; seed < N; seed++) {
        pz_shuffle(seed, p);
        count[p[0]]++;
    }
    /* expected N/52 ~ 385 per card on top; allow a wide 5-sigma band */
    for (int i = 0; i < PZ_CARDS; i++) {
        assert_true(count[i] > 385 - 100);
        assert_true(count[i] < 385 + 100);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cards_parse_in_any_case_and_with_10),
        cmocka_unit_test(test_cards_refuse_anything_else),
        cmocka_unit_test(test_cards_format_canonically_and_round_trip),
        cmocka_unit_test(test_values_follow_r1_6),
        cmocka_unit_test(test_error_codes_have_stable_names_and_messages),
        cmocka_unit_test(test_options_default_to_r9),
        cmocka_unit_test(test_options_set_from_words_and_refuse_bad_ones_untouched),
        cmocka_unit_test(test_options_refuse_invalid_combinations),
        cmocka_unit_test(test_shuffle_is_a_permutation_and_depends_on_the_seed),
        cmocka_unit_test(test_shuffle_spreads_cards_evenly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
