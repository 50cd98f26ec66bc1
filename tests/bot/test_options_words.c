/*
 * test_options_words.c — the game options in the reader's words
 * (bot/parse/cmd_options.h): every refusal of an option or of a set of
 * options told in Spanish in Spanish and in English in English, the
 * engine staying the judge (the options untouched on a refusal); every
 * value shown to a Spanish reader parsed back by "new" as the same value;
 * and the options line (render_options) in Spanish words only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmd_options.h"
#include "command.h"
#include "i18n.h"
#include "render.h"

static void test_an_unknown_option_is_told_with_the_readers_names(void **state)
{
    (void)state;
    char why[200];
    pz_options o, before;
    memset(&o, 0, sizeof o); /* padding too, so the bytes compared are all set */
    pz_options_default(&o);
    memcpy(&before, &o, sizeof o);
    assert_int_equal(cmd_option_set(&o, "foo", "1", why, sizeof why), -1);
    assert_memory_equal(&o, &before, sizeof o);
    assert_non_null(strstr(why, "'foo' is not an option: try target, wrap"));
    I18N_SCOPE(PZ_LANG_ES);
    assert_int_equal(cmd_option_set(&o, "foo", "1", why, sizeof why), -1);
    assert_string_equal(why, "'foo' no es una opción: prueba meta, vuelta, cantos, tendido, "
                             "sobrantes, barrida, cartas o parejas");
}

static void test_a_refused_value_lists_the_values_in_the_readers_words(void **state)
{
    (void)state;
    char why[200];
    pz_options o;
    pz_options_default(&o);
    assert_int_equal(cmd_option_set(&o, "card_score", "xyz", why, sizeof why), -1);
    assert_string_equal(why, "option card_score takes difference or excess26, not 'xyz'");
    assert_int_equal(cmd_option_set(&o, "card_score", "excess26", why, sizeof why), 0);
    assert_int_equal(o.card_score, PZ_CARD_SCORE_EXCESS26);
    I18N_SCOPE(PZ_LANG_ES);
    assert_int_equal(cmd_option_set(&o, "card_score", "xyz", why, sizeof why), -1);
    assert_string_equal(why, "la opción cartas lleva diferencia o exceso26, no 'xyz'");
    assert_int_equal(cmd_option_set(&o, "target", "many", why, sizeof why), -1);
    assert_string_equal(why, "la opción meta lleva un número entero de 11 a 121, no 'many'");
    assert_int_equal(cmd_option_set(&o, "partnerships", "maybe", why, sizeof why), -1);
    assert_string_equal(why, "la opción parejas lleva sí o no, no 'maybe'");
}

static void test_options_that_do_not_fit_the_players_are_told(void **state)
{
    (void)state;
    char why[200];
    pz_options o;
    pz_options_default(&o);
    assert_int_equal(cmd_options_check(&o, 3, why, sizeof why), 0);
    assert_int_equal(cmd_options_check(&o, 9, why, sizeof why), -1);
    assert_string_equal(why, "a game has 2 to 8 players, not 9");
    o.partnerships = true;
    assert_int_equal(cmd_options_check(&o, 3, why, sizeof why), -1);
    assert_string_equal(why,
                        "partners need an even number of players, at least 4 (this game has 3)");
    I18N_SCOPE(PZ_LANG_ES);
    assert_int_equal(cmd_options_check(&o, 3, why, sizeof why), -1);
    assert_string_equal(why, "para jugar en parejas hace falta un número par de jugadores, al "
                             "menos 4 (esta partida tiene 3)");
    o.card_score = PZ_CARD_SCORE_EXCESS26;
    assert_int_equal(cmd_options_check(&o, 4, why, sizeof why), 0); /* two sides of two */
    assert_int_equal(cmd_options_check(&o, 6, why, sizeof why), -1);
    assert_string_equal(why, "exceso26 necesita exactamente dos bandos (esta partida tiene 3)");
    o.partnerships = false;
    assert_int_equal(cmd_options_check(&o, 3, why, sizeof why), -1);
    assert_string_equal(why, "exceso26 necesita exactamente dos bandos (esta partida tiene 3)");
    o.card_score = PZ_CARD_SCORE_DIFFERENCE;
    o.target = 0;
    assert_int_equal(cmd_options_check(&o, 3, why, sizeof why), -1);
    assert_string_equal(why, "la meta tiene que ser entre 11 y 121, no 0");
}

/* Every value a Spanish reader is shown, typed back as "new NAME=VALUE"
   with the shown name, is the same engine value. */
static void test_every_spanish_value_shown_is_taken_back(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"wrap", "false"},
        {"wrap", "true"},
        {"declarations", "auto"},
        {"declarations", "manual"},
        {"declarations", "silent"},
        {"tendido", "choice"},
        {"tendido", "last"},
        {"odd_leftover", "table"},
        {"odd_leftover", "deal"},
        {"final_sweep", "dealer"},
        {"final_sweep", "last_capturer"},
        {"card_score", "difference"},
        {"card_score", "excess26"},
        {"partnerships", "true"},
        {"partnerships", "false"},
    };
    I18N_SCOPE(PZ_LANG_ES);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char line[128], why[200];
        cmd k;
        const char *name = cmd_option_shown(pairs[i][0]);
        const char *value = cmd_option_value_shown(pairs[i][0], pairs[i][1]);
        int n = snprintf(line, sizeof line, "new %s=%s", name, value);
        assert_true(n > 0 && (size_t)n < sizeof line);
        assert_int_equal(cmd_parse(line, strlen(line), false, NULL, &k, why, sizeof why), CMD_OK);
        assert_int_equal(k.noptions, 1);
        assert_string_equal(k.option_name[0], pairs[i][0]);
        assert_string_equal(k.option_value[0], pairs[i][1]);
    }
}

static void test_the_options_line_reads_spanish_values(void **state)
{
    (void)state;
    char line[300];
    pz_options o;
    pz_options_default(&o);
    o.declarations = PZ_DECL_SILENT;
    o.tendido = PZ_TENDIDO_LAST;
    o.odd_leftover = PZ_LEFTOVER_DEAL;
    o.final_sweep = PZ_SWEEP_DEALER;
    o.card_score = PZ_CARD_SCORE_EXCESS26;
    render_options(&o, line, sizeof line);
    assert_string_equal(line, "first to 61 · declarations: silent · tendido: last · leftover: "
                              "deal · final sweep: dealer · card score: excess26");
    I18N_SCOPE(PZ_LANG_ES);
    render_options(&o, line, sizeof line);
    assert_string_equal(line, "a 61 puntos · cantos: silenciosos · tendido: último · sobrantes: "
                              "reparto · barrida final: repartidor · cartas: exceso26");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_unknown_option_is_told_with_the_readers_names),
        cmocka_unit_test(test_a_refused_value_lists_the_values_in_the_readers_words),
        cmocka_unit_test(test_options_that_do_not_fit_the_players_are_told),
        cmocka_unit_test(test_every_spanish_value_shown_is_taken_back),
        cmocka_unit_test(test_the_options_line_reads_spanish_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
