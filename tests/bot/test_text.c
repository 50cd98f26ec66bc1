/*
 * test_text.c — the byte-level text routines (bot/base/text.h) on their own:
 * UTF-8 measured against every code point and every kind of bad sequence,
 * texts mended after a cut, words folded, IRC formatting and control
 * characters cleaned from a line, and words quoted back for replies. Ends
 * with a loop of random bytes that checks each function's contract. The
 * parser's use of them is tested through cmd_parse() in test_command.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "text.h"

/* Writes code point cp as UTF-8 into out[4]; returns its length. */
static size_t encode(uint32_t cp, char *out)
{
    unsigned char *u = (unsigned char *)out;
    if (cp < 0x80) {
        u[0] = (unsigned char)cp;
        return 1;
    }
    size_t n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    static const unsigned char lead[5] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (size_t i = n - 1; i > 0; i--, cp >>= 6)
        u[i] = (unsigned char)(0x80 | (cp & 0x3F));
    u[0] = (unsigned char)(lead[n] | cp);
    return n;
}

/*
 * The bad sequences of the UTF-8 tests, separated by '|', a line each:
 * overlong forms; surrogates; beyond U+10FFFF; never valid, stray, and
 * with a bad continuation byte.
 */
static const char BAD_UTF8[] =
    "\xc0\xaf|\xc1\xbf|\xe0\x80\xaf|\xe0\x9f\xbf|\xf0\x80\x80\xaf|\xf0\x8f\xbf\xbf|"
    "\xed\xa0\x80|\xed\xbf\xbf|"
    "\xf4\x90\x80\x80|\xf5\x80\x80\x80|\xf7\xbf\xbf\xbf|"
    "\xff|\xfe|\x80|\xbf|\xe2\x28\xa1|\xf0\x9f\x83\x28";

/* Calls f on each '|'-separated piece of BAD_UTF8. */
static void each_bad(void (*f)(const char *s, size_t n))
{
    for (const char *p = BAD_UTF8; *p != '\0';) {
        size_t n = strcspn(p, "|");
        f(p, n);
        p += n + (p[n] == '|');
    }
}

/* ------------------------------------------------------------------------ */
/* UTF-8                                                                    */

static void test_utf8_len_measures_every_code_point_and_refuses_surrogates(void **state)
{
    (void)state;
    char buf[4];
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        size_t n = encode(cp, buf);
        bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
        if (text_utf8_len(buf, n) != (surrogate ? 0 : n))
            fail_msg("U+%04X measured %zu", (unsigned)cp, text_utf8_len(buf, n));
        for (size_t cut = 1; cut < n; cut++)
            if (text_utf8_len(buf, cut) != 0)
                fail_msg("U+%04X cut to %zu bytes was accepted", (unsigned)cp, cut);
    }
    assert_int_equal(text_utf8_len("a", 0), 0);
}

/* Asserts that the bad sequence s[0..n) is refused, alone and in a text. */
static void expect_bad_utf8(const char *s, size_t n)
{
    char text[16] = "ok ";
    memcpy(text + 3, s, n);
    if (text_utf8_len(s, n) != 0)
        fail_msg("a bad sequence of %zu bytes was measured %zu", n, text_utf8_len(s, n));
    assert_false(text_utf8_valid(s, n));
    assert_false(text_utf8_valid(text, n + 3));
}

static void test_utf8_refuses_overlong_forms_stray_bytes_and_code_points_too_big(void **state)
{
    (void)state;
    each_bad(expect_bad_utf8);
}

static void test_utf8_valid_takes_whole_texts_only(void **state)
{
    (void)state;
    static const char *const good[] = {"", "abc", "7♥", "Trébol", "who’s", "🂡 ace", "\x01\x7f"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_true(text_utf8_valid(good[i], strlen(good[i])));
    assert_true(text_utf8_valid("\xff", 0));
    assert_false(text_utf8_valid("7\xe2\x99", 3));
    assert_true(text_utf8_valid("7\xe2\x99", 1));
}

static void test_utf8_cut_drops_only_a_character_cut_short_at_the_end(void **state)
{
    (void)state;
    static const char whole[] = "a♥é🂡";
    char s[sizeof whole];
    for (size_t len = 0; len < sizeof whole; len++) {
        memcpy(s, whole, len);
        s[len] = '\0';
        size_t n = text_utf8_cut(s, len);
        assert_true(n <= len && len - n < 4);
        assert_int_equal(strlen(s), n);
        assert_true(text_utf8_valid(s, n));
        assert_memory_equal(s, whole, n);
    }
    char ascii[] = "abc";
    assert_int_equal(text_utf8_cut(ascii, 3), 3);
    assert_string_equal(ascii, "abc");
    char bad_lead[] = "ab\xff";
    assert_int_equal(text_utf8_cut(bad_lead, 3), 2);
    assert_string_equal(bad_lead, "ab");
    char empty[] = "";
    assert_int_equal(text_utf8_cut(empty, 0), 0);
}

/* ------------------------------------------------------------------------ */
/* Folding                                                                  */

/* Folds s (NUL-terminated) and asserts the result is want. */
static void expect_fold(const char *s, const char *want)
{
    char out[64];
    int n = text_fold(s, strlen(s), out, sizeof out);
    if (n != (int)strlen(want) || strcmp(out, want) != 0)
        fail_msg("'%s' folded to %d bytes '%s'", s, n, n >= 0 ? out : "");
}

static void test_fold_lowers_ascii_drops_accents_and_marks_bad_bytes(void **state)
{
    (void)state;
    static const struct {
        const char *s, *want;
    } cases[] = {
        {"ReY", "rey"},
        {"TRÉBOL", "trebol"},
        {"ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝ", "aaaaaaceeeeiiiinooooouuuuy"},
        {"àáâãäåçèéêëìíîïñòóôõöùúûüýÿ", "aaaaaaceeeeiiiinooooouuuuyy"},
        {"ÆØß×÷Ð", "ÆØß×÷Ð"},
        {"who’s", "who's"},
        {"7♥\xef\xb8\x8f", "7♥"},
        {"7♥\xef\xb8\x8e", "7♥"},
        {"7♥", "7♥"},
        {"", ""},
        {"a\xffZ", "a\xffz"},
        {"\xe2\x99", "\xff\xff"},
        {"\xc3\xa9\xc3", "e\xff"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_fold(cases[i].s, cases[i].want);
    assert_int_equal((unsigned char)TEXT_BAD_BYTE, 0xFF);
}

static void test_fold_fails_when_the_word_and_its_nul_do_not_fit(void **state)
{
    (void)state;
    char out[8];
    assert_int_equal(text_fold("ABC", 3, out, 4), 3);
    assert_string_equal(out, "abc");
    assert_int_equal(text_fold("ABC", 3, out, 3), -1);
    assert_int_equal(text_fold("é", 2, out, 2), 1); /* two bytes fold into one */
    assert_int_equal(text_fold("♥", 3, out, 3), -1);
    assert_int_equal(text_fold("", 0, out, 1), 0);
    assert_int_equal(text_fold("", 0, out, 0), -1);
}

/* ------------------------------------------------------------------------ */
/* IRC formatting and control characters                                    */

/* Sanitizes s[0..n) and asserts the result is want. */
static void expect_clean(const char *s, size_t n, const char *want)
{
    char out[64];
    assert_true(n < sizeof out);
    memset(out, 'Z', sizeof out);
    size_t len = text_sanitize(s, n, out);
    if (len != strlen(want) || strcmp(out, want) != 0)
        fail_msg("a line of %zu bytes gave '%s', not '%s'", n, out, want);
}

#define CLEAN(s, want) expect_clean(s, sizeof(s) - 1, want)

static void test_sanitize_drops_irc_formatting_codes(void **state)
{
    (void)state;
    CLEAN("\002bold\002 \035it\035 \037un\037 \036st\036 \021mono\021 \026rev\026\017",
          "bold it un st mono rev");
    CLEAN("\0034red", "red");
    CLEAN("\00304,12red", "red");
    CLEAN("\003123", "3");
    CLEAN("\0034,x", ",x");
    CLEAN("\003,5x", ",5x");
    CLEAN("\0034,123", "3");
    CLEAN("\004FF0000hi", "hi");
    CLEAN("\004abcdef1", "1");
    CLEAN("\004FF0000,00FF00hi", "hi");
    CLEAN("\004ff,g", ",g");
    CLEAN("\003", "");
}

static void test_sanitize_makes_other_controls_and_no_break_spaces_spaces(void **state)
{
    (void)state;
    CLEAN("a\tb\r\n", "a b  ");
    CLEAN("a\0b", "a b");
    CLEAN("\001x\177", " x ");
    CLEAN("a\302\205b\302\240c", "a b c");
    CLEAN("\302\241hola!", "\302\241hola!");
    CLEAN("bad \xff\xc2 kept", "bad \xff\xc2 kept");
    CLEAN("7♥", "7♥");
    CLEAN("", "");
}

/* ------------------------------------------------------------------------ */
/* Quoting                                                                  */

/* Quotes s (NUL-terminated) and asserts the result is want. */
static void expect_quote(const char *s, const char *want)
{
    char out[TEXT_QUOTE_MAX];
    const char *q = text_quote(s, strlen(s), out);
    assert_ptr_equal(q, out);
    if (strcmp(out, want) != 0)
        fail_msg("'%s' quoted as '%s', not '%s'", s, out, want);
}

static void test_quote_keeps_short_words_and_cuts_long_ones_at_a_character(void **state)
{
    (void)state;
    char word[4 * 30 + 1], want[TEXT_QUOTE_MAX];
    expect_quote("play", "play");
    expect_quote("", "");
    memset(word, 'a', 24);
    word[24] = '\0';
    expect_quote(word, word);
    memset(word, 'a', 30);
    word[30] = '\0';
    memset(want, 'a', 24);
    memcpy(want + 24, "...", 4);
    expect_quote(word, want);
    for (int i = 0; i < 30; i++)
        memcpy(word + 4 * i, "🂡", 4);
    word[120] = '\0';
    memcpy(want, word, 96);
    memcpy(want + 96, "...", 4);
    expect_quote(word, want);
    assert_int_equal(strlen(want) + 1, TEXT_QUOTE_MAX);
}

static void test_quote_shows_bad_bytes_and_bidi_controls_as_question_marks(void **state)
{
    (void)state;
    expect_quote("a\xffz", "a?z");
    expect_quote("7\xe2\x99", "7??");
    expect_quote("\xed\xa0\x80", "???");
    expect_quote("hel\xe2\x80\xaep", "hel?p");
    expect_quote("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad", "????");
    expect_quote("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9", "????");
    expect_quote("who’s ♥", "who’s ♥");
}

static void test_quote_never_echoes_zero_width_or_format_characters(void **state)
{
    (void)state;
    /* "?7h" + U+200B, as a player typed it: "'?7h?' is not a card" */
    expect_quote("?7h\xe2\x80\x8b", "?7h?");
    /* U+200B..U+200F: zero-width space, non-joiner, joiner, LRM, RLM */
    expect_quote("a\xe2\x80\x8b"
                 "b\xe2\x80\x8c"
                 "c\xe2\x80\x8d"
                 "d\xe2\x80\x8e"
                 "e\xe2\x80\x8f",
                 "a?b?c?d?e?");
    /* U+2060..U+2064: word joiner, function application, invisible times,
       separator and plus */
    expect_quote("\xe2\x81\xa0\xe2\x81\xa1\xe2\x81\xa2\xe2\x81\xa3\xe2\x81\xa4", "?????");
    expect_quote("\xef\xbb\xbfplay", "?play"); /* U+FEFF, a byte order mark */
    /* their neighbours are ordinary characters and stay */
    expect_quote("\xe2\x80\x8a\xe2\x80\x90\xe2\x81\xa5\xe2\x81\xaa\xef\xbb\xbe",
                 "\xe2\x80\x8a\xe2\x80\x90\xe2\x81\xa5\xe2\x81\xaa\xef\xbb\xbe");
    assert_int_equal(text_invisible_len("\xe2\x80\x8b", 3), 3);
    assert_int_equal(text_invisible_len("\xe2\x80\x8b", 2), 0); /* cut short */
    assert_int_equal(text_invisible_len("\xe2\x80\xa9", 3), 0); /* U+2029 */
    /* an example echoed back ("say !play 4") hides nothing either */
    char echo[TEXT_ECHO_MAX];
    assert_string_equal(text_echo("play\xe2\x80\x8b 4\xe2\x81\xa0", 12, echo), "play? 4?");
}

/* ------------------------------------------------------------------------ */
/* Robustness                                                               */

/* The next of a small linear congruential sequence: 15 bits from *seed. */
static uint32_t next_bits(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7FFF;
}

static void test_random_bytes_keep_every_contract(void **state)
{
    (void)state;
    static const char favourite[] =
        "\x02\x03\x04,09aF\xc2\xa0\xe2\x80\xae\x8b\xbb\xbf\xef\x81\xe2\x99\xa5\xed\xff";
    uint32_t seed = 12345;
    char in[80], out[81], quoted[TEXT_QUOTE_MAX], folded[32];
    for (int i = 0; i < 50000; i++) {
        size_t n = next_bits(&seed) % 64;
        for (size_t j = 0; j < n; j++) {
            uint32_t x = next_bits(&seed);
            in[j] = x & 1 ? favourite[(x >> 1) % (sizeof favourite - 1)] : (char)(x >> 8);
        }
        size_t len = text_sanitize(in, n, out);
        assert_true(len <= n && out[len] == '\0');
        for (size_t j = 0; j < len; j++)
            assert_true((unsigned char)out[j] >= 0x20 && out[j] != 0x7F);
        text_quote(in, n, quoted);
        assert_true(text_utf8_valid(quoted, strlen(quoted)));
        for (size_t j = 0; quoted[j] != '\0'; j++)
            assert_int_equal(text_invisible_len(quoted + j, strlen(quoted + j)), 0);
        int k = text_fold(in, n, folded, sizeof folded);
        assert_true(k >= -1 && k < (int)sizeof folded);
        assert_true(k < 0 || folded[k] == '\0');
        assert_true(text_utf8_len(in, n) <= (n < 4 ? n : 4));
    }
}

static void test_durations_read_as_people_say_them(void **state)
{
    (void)state;
    static const struct {
        long long secs;
        const char *want;
    } cases[] = {{0, "0 s"},       {45, "45 s"},    {600, "10 min"},  {5400, "90 min"},
                 {3600, "1 h"},    {86400, "24 h"}, {129600, "36 h"}, {259200, "3 d"},
                 {100000, "27 h"}, {-5, "0 s"}};
    char out[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        text_duration(cases[i].secs, out, sizeof out);
        assert_string_equal(out, cases[i].want);
    }
}

static void test_distance_counts_edits_and_neighbour_swaps_without_case(void **state)
{
    (void)state;
    assert_int_equal(text_distance("plya", 4, "play", 4), 1); /* a swap */
    assert_int_equal(text_distance("Europe/Madird", 13, "europe/madrid", 13), 1);
    assert_int_equal(text_distance("kitten", 6, "sitting", 7), 3);
    assert_int_equal(text_distance("", 0, "abc", 3), 3);
    char long_word[TEXT_DISTANCE_MAX + 2];
    memset(long_word, 'a', sizeof long_word);
    assert_true(text_distance(long_word, sizeof long_word, "a", 1) == SIZE_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8_len_measures_every_code_point_and_refuses_surrogates),
        cmocka_unit_test(test_utf8_refuses_overlong_forms_stray_bytes_and_code_points_too_big),
        cmocka_unit_test(test_utf8_valid_takes_whole_texts_only),
        cmocka_unit_test(test_utf8_cut_drops_only_a_character_cut_short_at_the_end),
        cmocka_unit_test(test_fold_lowers_ascii_drops_accents_and_marks_bad_bytes),
        cmocka_unit_test(test_fold_fails_when_the_word_and_its_nul_do_not_fit),
        cmocka_unit_test(test_sanitize_drops_irc_formatting_codes),
        cmocka_unit_test(test_sanitize_makes_other_controls_and_no_break_spaces_spaces),
        cmocka_unit_test(test_quote_keeps_short_words_and_cuts_long_ones_at_a_character),
        cmocka_unit_test(test_quote_shows_bad_bytes_and_bidi_controls_as_question_marks),
        cmocka_unit_test(test_quote_never_echoes_zero_width_or_format_characters),
        cmocka_unit_test(test_random_bytes_keep_every_contract),
        cmocka_unit_test(test_durations_read_as_people_say_them),
        cmocka_unit_test(test_distance_counts_edits_and_neighbour_swaps_without_case),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
