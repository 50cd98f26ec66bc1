/*
 * test_envfile.c — bot/config/envfile.c reads a file as systemd's
 * EnvironmentFile= does (systemd.exec(5), systemd 252's env-file.c), and
 * its messages never carry a name or a value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "envfile.h"

/* What a parse handed out: "NAME=VALUE\n" per assignment, and the messages. */
typedef struct seen {
    char vars[2048];
    char msgs[2048];
} seen;

static void on_set(void *arg, const char *name, const char *value)
{
    seen *s = arg;
    size_t n = strlen(s->vars);
    int w = snprintf(s->vars + n, sizeof s->vars - n, "%s=%s\n", name, value);
    assert_true(w > 0 && (size_t)w < sizeof s->vars - n);
}

static void on_report(void *arg, cfg_level level, const char *msg)
{
    seen *s = arg;
    size_t n = strlen(s->msgs);
    int w = snprintf(s->msgs + n, sizeof s->msgs - n, "%s: %s\n",
                     level == CFG_ERROR ? "error" : "warning", msg);
    assert_true(w > 0 && (size_t)w < sizeof s->msgs - n);
}

/* Parses text into *s; returns the number of warnings. */
static int parse(seen *s, const char *text)
{
    int nwarn = -1;
    memset(s, 0, sizeof *s);
    assert_int_equal(envfile_parse("p.env", text, strlen(text), on_set, s, on_report, s, &nwarn),
                     0);
    return nwarn;
}

static void test_plain_assignments_comments_and_blank_lines(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "# a comment\n; another\n\n  A=1\nB = two words  \r\nC=\n"), 0);
    assert_string_equal(s.vars, "A=1\nB=two words\nC=\n");
}

static void test_unquoted_values_take_backslash_escapes_and_continuations(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "A=a\\\\b\\ \nB=one\\\ntwo\nC=x\\\"y\n"), 0);
    assert_string_equal(s.vars, "A=a\\b \nB=onetwo\nC=x\"y\n");
}

static void test_single_quotes_are_verbatim_and_may_span_lines(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "A='p#ss \\n \"q\"'\nB='line1\nline2'\n"), 0);
    assert_string_equal(s.vars, "A=p#ss \\n \"q\"\nB=line1\nline2\n");
}

static void test_double_quotes_unescape_only_what_a_shell_does(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "A=\"a\\\"b\\\\c\\$d\\`e\\nf\"\nB=\"x\\\ny\"\n"), 0);
    assert_string_equal(s.vars, "A=a\"b\\c$d`e\\nf\nB=xy\n");
}

static void test_quoted_and_unquoted_parts_are_joined(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "A=\"a\"'b'c\nB=  'x'   \n"), 0);
    assert_string_equal(s.vars, "A=abc\nB=x\n");
}

static void test_a_later_assignment_comes_after_an_earlier_one(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "A=1\nA=2"), 0);
    assert_string_equal(s.vars, "A=1\nA=2\n"); /* the caller's setenv keeps the last */
}

static void test_lines_systemd_ignores_are_warnings_without_their_text(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "hunter2\nexport S3CRET=x\n1X=y\nOK=z\n"), 3);
    assert_string_equal(s.vars, "OK=z\n");
    assert_non_null(strstr(s.msgs, "warning: p.env:1: this line has no '='; systemd ignores it"));
    assert_non_null(strstr(s.msgs, "warning: p.env:2: the name before '=' is not a variable"));
    assert_non_null(strstr(s.msgs, "warning: p.env:3: the name before '=' is not a variable"));
    assert_null(strstr(s.msgs, "hunter2"));
    assert_null(strstr(s.msgs, "S3CRET"));
}

static void test_an_unclosed_quote_takes_the_rest_and_is_named_by_its_line(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "A=1\nB=\"open\nC=2\n"), 1);
    assert_string_equal(s.vars, "A=1\nB=open\nC=2\n\n");
    assert_non_null(strstr(s.msgs, "warning: p.env:2: this quote is never closed"));
}

static void test_a_comment_ending_in_a_backslash_continues(void **state)
{
    (void)state;
    seen s;
    assert_int_equal(parse(&s, "# note \\\nHIDDEN=1\nA=2\n"), 0);
    assert_string_equal(s.vars, "A=2\n");
}

static void test_load_sets_the_environment_and_warns_about_a_readable_file(void **state)
{
    (void)state;
    char path[] = "/tmp/test_envfile.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("PZ_ENVFILE_TEST='s e c'\n", f);
    fclose(f);
    seen s;
    memset(&s, 0, sizeof s);
    int nwarn = -1;
    unsetenv("PZ_ENVFILE_TEST");
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(envfile_load(path, on_report, &s, &nwarn), 0);
    assert_int_equal(nwarn, 0);
    assert_string_equal(getenv("PZ_ENVFILE_TEST"), "s e c");
    assert_int_equal(chmod(path, 0644), 0);
    assert_int_equal(envfile_load(path, on_report, &s, &nwarn), 0);
    assert_int_equal(nwarn, 1);
    assert_non_null(strstr(s.msgs, "other users may read this file of secrets"));
    assert_null(strstr(s.msgs, "s e c"));
    unlink(path);
    assert_int_equal(envfile_load(path, on_report, &s, &nwarn), 1);
    assert_non_null(strstr(s.msgs, "cannot open: No such file or directory"));
    unsetenv("PZ_ENVFILE_TEST");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_assignments_comments_and_blank_lines),
        cmocka_unit_test(test_unquoted_values_take_backslash_escapes_and_continuations),
        cmocka_unit_test(test_single_quotes_are_verbatim_and_may_span_lines),
        cmocka_unit_test(test_double_quotes_unescape_only_what_a_shell_does),
        cmocka_unit_test(test_quoted_and_unquoted_parts_are_joined),
        cmocka_unit_test(test_a_later_assignment_comes_after_an_earlier_one),
        cmocka_unit_test(test_lines_systemd_ignores_are_warnings_without_their_text),
        cmocka_unit_test(test_an_unclosed_quote_takes_the_rest_and_is_named_by_its_line),
        cmocka_unit_test(test_a_comment_ending_in_a_backslash_continues),
        cmocka_unit_test(test_load_sets_the_environment_and_warns_about_a_readable_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
