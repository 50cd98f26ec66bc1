/*
 * test_json.c — the engine's JSON pull reader (engine/json.c) and its
 * bounded appenders. The reader takes input nobody checked, so most tests
 * feed it broken text: cut short, nested too deep, invalid UTF-8, NUL
 * bytes, numbers too big. Every input is copied to a heap block of exactly
 * its length, so a read past the end shows under valgrind or ASan.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json.h"

/* The tokens of doc (len bytes, copied to an exact heap block) up to END
 * or ERROR, at most cap of them; returns how many were written to out. */
static int tokens(const char *doc, size_t len, pzj_token *out, int cap, pzj_reader *r)
{
    char *copy = malloc(len > 0 ? len : 1);
    assert_non_null(copy);
    memcpy(copy, doc, len);
    pzj_init(r, copy, len);
    int n = 0;
    for (;;) {
        pzj_token t = pzj_next(r);
        if (n < cap)
            out[n] = t;
        n++;
        if (t == PZJ_END || t == PZJ_ERROR)
            break;
        assert_true(n <= (int)len + 2); /* every token consumes input */
    }
    free(copy);
    return n;
}

/* The last token doc gives: PZJ_END when it is valid JSON. */
static pzj_token last_token(const char *doc, size_t len)
{
    pzj_reader r;
    pzj_token t[1];
    int n = tokens(doc, len, t, 0, &r);
    assert_true(n > 0);
    return r.tok;
}

#define VALID(s) assert_int_equal(last_token(s, sizeof s - 1), PZJ_END)
#define INVALID(s) assert_int_equal(last_token(s, sizeof s - 1), PZJ_ERROR)

static void test_reader_gives_every_token_of_a_document_in_order(void **state)
{
    (void)state;
    static const char doc[] = " {\"a\" : [1, -2.5e3, \"x\", true, false, null, {}, []]} \n";
    static const pzj_token want[] = {PZJ_OBJECT,    PZJ_KEY,       PZJ_ARRAY,      PZJ_NUMBER,
                                     PZJ_NUMBER,    PZJ_STRING,    PZJ_TRUE,       PZJ_FALSE,
                                     PZJ_NULL,      PZJ_OBJECT,    PZJ_OBJECT_END, PZJ_ARRAY,
                                     PZJ_ARRAY_END, PZJ_ARRAY_END, PZJ_OBJECT_END, PZJ_END};
    pzj_token got[32];
    pzj_reader r;
    int n = tokens(doc, sizeof doc - 1, got, 32, &r);
    assert_int_equal(n, (int)(sizeof want / sizeof want[0]));
    for (int i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
    assert_int_equal(pzj_next(&r), PZJ_END); /* END repeats */
}

static void test_reader_points_plain_strings_into_the_document(void **state)
{
    (void)state;
    static const char doc[] = "{\"key\":\"value\"}";
    pzj_reader r;
    pzj_init(&r, doc, sizeof doc - 1);
    assert_int_equal(pzj_next(&r), PZJ_OBJECT);
    assert_int_equal(pzj_next(&r), PZJ_KEY);
    assert_ptr_equal(r.str, doc + 2);
    assert_int_equal(r.str_len, 3);
    assert_int_equal(pzj_next(&r), PZJ_STRING);
    assert_int_equal(r.str_len, 5);
    assert_memory_equal(r.str, "value", 5);
    assert_int_equal(r.tok_pos, 7);
}

static void test_reader_decodes_escapes_and_surrogate_pairs(void **state)
{
    (void)state;
    static const char doc[] =
        "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20ac\\ud83d\\ude00\\u0000z\"";
    static const char want[] = "a\"\\/\b\f\n\r\tA\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\0z";
    pzj_reader r;
    pzj_init(&r, doc, sizeof doc - 1);
    assert_int_equal(pzj_next(&r), PZJ_STRING);
    assert_int_equal(r.str_len, sizeof want - 1);
    assert_memory_equal(r.str, want, sizeof want - 1);
    assert_int_equal(pzj_next(&r), PZJ_END);
}

static void test_reader_refuses_bad_escapes_and_lone_surrogates(void **state)
{
    (void)state;
    INVALID("\"\\x\"");
    INVALID("\"\\u12\"");
    INVALID("\"\\u12G4\"");
    INVALID("\"\\ud83d\"");        /* high half alone */
    INVALID("\"\\ud83d\\u0041\""); /* high half, then no low half */
    INVALID("\"\\ude00\"");        /* low half alone */
    INVALID("\"\\");
    INVALID("\"\\u");
    VALID("\"\\ud83d\\ude00\"");
}

static void test_reader_checks_utf8_in_strings(void **state)
{
    (void)state;
    VALID("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"");
    INVALID("\"\xc0\xaf\"");         /* overlong '/' */
    INVALID("\"\xe0\x80\xaf\"");     /* overlong, three bytes */
    INVALID("\"\xed\xa0\x80\"");     /* a surrogate, encoded */
    INVALID("\"\xf4\x90\x80\x80\""); /* above U+10FFFF */
    INVALID("\"\xf5\x80\x80\x80\"");
    INVALID("\"\xff\"");
    INVALID("\"\x80\"");     /* a lone continuation byte */
    INVALID("\"\xe2\x82\""); /* cut short by the quote */
    INVALID("\"\xe2\x82");   /* cut short by the end */
}

static void test_reader_refuses_control_and_nul_bytes_in_strings(void **state)
{
    (void)state;
    static const char nul[] = "\"ab\0cd\"";
    INVALID("\"a\nb\"");
    INVALID("\"a\tb\"");
    assert_int_equal(last_token(nul, sizeof nul - 1), PZJ_ERROR);
}

static void test_reader_refuses_nul_bytes_between_tokens(void **state)
{
    (void)state;
    static const char doc[] = "{\"a\":1}";
    char buf[sizeof doc];
    for (size_t at = 0; at < sizeof doc - 1; at++) {
        memcpy(buf, doc, sizeof doc - 1);
        buf[at] = '\0';
        assert_int_equal(last_token(buf, sizeof doc - 1), PZJ_ERROR);
    }
    static const char tail[] = "{\"a\":1}\0";
    assert_int_equal(last_token(tail, sizeof tail - 1), PZJ_ERROR);
}

/* Reads one number document and returns its kind, num in *v. */
static pzj_number number(const char *s, int64_t *v)
{
    pzj_reader r;
    pzj_init(&r, s, strlen(s));
    assert_int_equal(pzj_next(&r), PZJ_NUMBER);
    assert_int_equal(r.str_len, strlen(s));
    *v = r.num;
    assert_int_equal(pzj_next(&r), PZJ_END);
    return r.num_kind;
}

static void test_reader_classifies_numbers_without_overflow(void **state)
{
    (void)state;
    int64_t v;
    assert_int_equal(number("0", &v), PZJ_NUM_INT);
    assert_int_equal(v, 0);
    assert_int_equal(number("-0", &v), PZJ_NUM_INT);
    assert_int_equal(v, 0);
    assert_int_equal(number("61", &v), PZJ_NUM_INT);
    assert_int_equal(v, 61);
    assert_int_equal(number("9223372036854775807", &v), PZJ_NUM_INT);
    assert_true(v == INT64_MAX);
    assert_int_equal(number("-9223372036854775808", &v), PZJ_NUM_INT);
    assert_true(v == INT64_MIN);
    assert_int_equal(number("9223372036854775808", &v), PZJ_NUM_HUGE);
    assert_int_equal(number("-9223372036854775809", &v), PZJ_NUM_HUGE);
    assert_int_equal(number("18446744073709551616", &v), PZJ_NUM_HUGE);
    assert_int_equal(number("123456789012345678901234567890123456789", &v), PZJ_NUM_HUGE);
    assert_int_equal(number("1.0", &v), PZJ_NUM_REAL);
    assert_int_equal(number("1e400", &v), PZJ_NUM_REAL);
    assert_int_equal(number("-2E-3", &v), PZJ_NUM_REAL);
    assert_int_equal(number("1e+2", &v), PZJ_NUM_REAL);
}

static void test_reader_refuses_malformed_numbers(void **state)
{
    (void)state;
    INVALID("01");
    INVALID("-01");
    INVALID("-");
    INVALID("1.");
    INVALID(".5");
    INVALID("1e");
    INVALID("1e+");
    INVALID("+1");
    INVALID("0x10");
    INVALID("1 2");
    INVALID("NaN");
    INVALID("-Infinity");
}

static void test_reader_refuses_bad_structure(void **state)
{
    (void)state;
    INVALID("");
    INVALID("   ");
    INVALID("[1,]");
    INVALID("[,1]");
    INVALID("{\"a\":1,}");
    INVALID("{\"a\" 1}");
    INVALID("{\"a\":}");
    INVALID("{1:2}");
    INVALID("{\"a\":1 \"b\":2}");
    INVALID("[1 2]");
    INVALID("[}");
    INVALID("{]");
    INVALID("]");
    INVALID("{} {}");
    INVALID("{}x");
    INVALID("tru");
    INVALID("truex");
    INVALID("nul");
    INVALID("'a'");
    VALID("[[],{},[{}],{\"a\":[]}]");
    VALID("\t\r\n 7 \t\r\n");
}

static void test_reader_stops_at_the_depth_limit_without_recursion(void **state)
{
    (void)state;
    char doc[2 * (PZJ_DEPTH_MAX + 1)];
    for (int i = 0; i < PZJ_DEPTH_MAX; i++) {
        doc[i] = '[';
        doc[2 * PZJ_DEPTH_MAX - 1 - i] = ']';
    }
    assert_int_equal(last_token(doc, 2 * PZJ_DEPTH_MAX), PZJ_END);

    size_t deep = 1000000; /* a million '[': one error, no stack growth */
    char *big = malloc(deep);
    assert_non_null(big);
    memset(big, '[', deep);
    pzj_reader r;
    pzj_init(&r, big, deep);
    int n = 0;
    while (pzj_next(&r) == PZJ_ARRAY)
        n++;
    assert_int_equal(n, PZJ_DEPTH_MAX);
    assert_int_equal(r.tok, PZJ_ERROR);
    assert_int_equal(r.err_pos, PZJ_DEPTH_MAX);
    assert_string_equal(r.err, "nested too deeply");
    free(big);
}

static void test_reader_refuses_every_cut_of_a_document(void **state)
{
    (void)state;
    static const char doc[] =
        "{\"a\":[1,-2.5e3,\"x\\u00e9\\ud83d\\ude00\",true,false,null],\"b\":{\"c\":\"\xc3\xa9\"}}";
    for (size_t len = 0; len < sizeof doc - 1; len++)
        assert_int_equal(last_token(doc, len), PZJ_ERROR);
    assert_int_equal(last_token(doc, sizeof doc - 1), PZJ_END);
}

static void test_reader_keeps_its_first_error(void **state)
{
    (void)state;
    static const char doc[] = "[1,,2]";
    pzj_reader r;
    pzj_init(&r, doc, sizeof doc - 1);
    while (pzj_next(&r) != PZJ_ERROR)
        ;
    assert_int_equal(r.err_pos, 3);
    const char *err = r.err;
    assert_int_equal(pzj_next(&r), PZJ_ERROR);
    assert_int_equal(pzj_next(&r), PZJ_ERROR);
    assert_ptr_equal(r.err, err);
    assert_int_equal(r.err_pos, 3);
}

/* Writes a string of n 'x' (then "\n" when escaped) into doc; its length. */
static size_t long_string(char *doc, int n, int escaped)
{
    size_t k = 0;
    doc[k++] = '"';
    for (int i = 0; i < n; i++)
        doc[k++] = 'x';
    if (escaped)
        doc[k++] = '\\', doc[k++] = 'n';
    doc[k++] = '"';
    return k;
}

static void test_reader_limits_escaped_strings_but_not_plain_ones(void **state)
{
    (void)state;
    char doc[2 * PZJ_STRING_MAX + 16];
    size_t n = long_string(doc, 2 * PZJ_STRING_MAX, 0);
    assert_int_equal(last_token(doc, n), PZJ_END); /* plain: any length */

    n = long_string(doc, PZJ_STRING_MAX - 1, 1); /* decodes to exactly the limit */
    assert_int_equal(last_token(doc, n), PZJ_END);

    n = long_string(doc, PZJ_STRING_MAX, 1);
    pzj_reader r;
    pzj_token t[1];
    tokens(doc, n, t, 0, &r);
    assert_int_equal(r.tok, PZJ_ERROR);
    assert_string_equal(r.err, "string too long once decoded");
}

static void test_reader_survives_random_bytes(void **state)
{
    (void)state;
    static const char alphabet[] = "{}[]:,\"\\ \n0123456789-+.eEtrufalsn\xc3\xa9\xff\x80u";
    uint64_t x = 0x9e3779b97f4a7c15u;
    char doc[64];
    int ends = 0;
    for (int round = 0; round < 200000; round++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t len = (size_t)(x % sizeof doc);
        for (size_t i = 0; i < len; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            doc[i] = alphabet[x % (sizeof alphabet - 1)];
        }
        ends += last_token(doc, len) == PZJ_END;
    }
    assert_true(ends > 0); /* some random text is valid JSON ("7") */
}

static void test_appenders_never_write_past_the_end(void **state)
{
    (void)state;
    char buf[8];
    memset(buf, '#', sizeof buf);
    pzj_out o = {buf, buf + 6, 0};
    pzj_put_str(&o, "abc");
    pzj_put_int(&o, -12);
    assert_false(o.full);
    assert_memory_equal(buf, "abc-12##", 8);
    pzj_put_int(&o, 5); /* does not fit: full, nothing written */
    assert_true(o.full);
    pzj_put(&o, "", 0);
    pzj_put_str(&o, "z");
    assert_memory_equal(buf, "abc-12##", 8);

    char num[24];
    o = (pzj_out){num, num + sizeof num, 0};
    pzj_put_int(&o, -2147483647L - 1);
    pzj_put_int(&o, 0);
    assert_memory_equal(num, "-21474836480", 12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_gives_every_token_of_a_document_in_order),
        cmocka_unit_test(test_reader_points_plain_strings_into_the_document),
        cmocka_unit_test(test_reader_decodes_escapes_and_surrogate_pairs),
        cmocka_unit_test(test_reader_refuses_bad_escapes_and_lone_surrogates),
        cmocka_unit_test(test_reader_checks_utf8_in_strings),
        cmocka_unit_test(test_reader_refuses_control_and_nul_bytes_in_strings),
        cmocka_unit_test(test_reader_refuses_nul_bytes_between_tokens),
        cmocka_unit_test(test_reader_classifies_numbers_without_overflow),
        cmocka_unit_test(test_reader_refuses_malformed_numbers),
        cmocka_unit_test(test_reader_refuses_bad_structure),
        cmocka_unit_test(test_reader_stops_at_the_depth_limit_without_recursion),
        cmocka_unit_test(test_reader_refuses_every_cut_of_a_document),
        cmocka_unit_test(test_reader_keeps_its_first_error),
        cmocka_unit_test(test_reader_limits_escaped_strings_but_not_plain_ones),
        cmocka_unit_test(test_reader_survives_random_bytes),
        cmocka_unit_test(test_appenders_never_write_past_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
