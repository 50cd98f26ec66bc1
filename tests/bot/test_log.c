/*
 * test_log.c — the bot's log: a line identical to the last one written
 * (same level, same text) is counted, not written, and one "(last message
 * repeated N times)" line says how many when a different line comes, when
 * the count is due, or at exit; lines that differ in level or text are
 * all written. Standard error is a temporary file for each test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "log.h"

typedef struct fx {
    char path[64];
    int saved; /* the real standard error */
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->path, sizeof f->path, "/tmp/pz-log-XXXXXX");
    int fd = mkstemp(f->path);
    assert_true(fd >= 0);
    fflush(stderr);
    f->saved = dup(STDERR_FILENO);
    assert_true(f->saved >= 0);
    assert_true(dup2(fd, STDERR_FILENO) >= 0);
    close(fd);
    log_set_level(LOG_DEBUG);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    log_tick(true); /* no count left for the next test */
    fflush(stderr);
    dup2(f->saved, STDERR_FILENO);
    close(f->saved);
    unlink(f->path);
    free(f);
    return 0;
}

/* What was logged so far, without the time stamps: "LEVEL: text" lines. */
static char *logged(const fx *f)
{
    static char out[8192];
    fflush(stderr);
    FILE *in = fopen(f->path, "r");
    assert_non_null(in);
    char line[2048];
    size_t o = 0;
    out[0] = '\0';
    while (fgets(line, sizeof line, in) != NULL) {
        const char *rest = strchr(line, ' '); /* after the stamp */
        assert_non_null(rest);
        size_t n = strlen(rest + 1);
        assert_true(o + n < sizeof out);
        memcpy(out + o, rest + 1, n + 1);
        o += n;
    }
    fclose(in);
    return out;
}

static void test_a_storm_of_one_warning_is_one_line_and_a_count(void **state)
{
    fx *f = *state;
    for (int i = 0; i < 12719; i++)
        log_msg(LOG_WARN, "test: cannot send \"%s\": %s", "PONG :storm", "the buffer is full");
    assert_string_equal(logged(f), "warn: test: cannot send \"PONG :storm\": the buffer is full\n");
    log_msg(LOG_INFO, "test: joined #porrazo");
    assert_string_equal(logged(f), "warn: test: cannot send \"PONG :storm\": the buffer is full\n"
                                   "warn: (last message repeated 12718 times)\n"
                                   "info: test: joined #porrazo\n");
}

static void test_lines_that_differ_in_text_or_level_are_all_written(void **state)
{
    fx *f = *state;
    log_msg(LOG_WARN, "a");
    log_msg(LOG_WARN, "b");
    log_msg(LOG_ERROR, "b");
    log_msg(LOG_WARN, "a");
    log_msg(LOG_DEBUG, "hidden"); /* filtered out: not counted either */
    log_set_level(LOG_INFO);
    log_msg(LOG_DEBUG, "hidden");
    log_msg(LOG_WARN, "a");
    log_set_level(LOG_DEBUG);
    assert_string_equal(logged(f), "warn: a\nwarn: b\nerror: b\nwarn: a\ndebug: hidden\nwarn: a\n");
}

static void test_one_repeat_says_once_and_a_count_is_written_at_exit(void **state)
{
    fx *f = *state;
    assert_int_equal(log_repeat_wait_ms(), -1);
    log_msg(LOG_INFO, "same");
    assert_int_equal(log_repeat_wait_ms(), -1); /* nothing counted yet */
    log_msg(LOG_INFO, "same");
    int64_t wait = log_repeat_wait_ms();
    assert_true(wait > (LOG_REPEAT_SECS - 5) * 1000 && wait <= LOG_REPEAT_SECS * 1000);
    log_tick(false); /* not due: nothing */
    assert_string_equal(logged(f), "info: same\n");
    log_tick(true);
    assert_string_equal(logged(f), "info: same\ninfo: (last message repeated once)\n");
    assert_int_equal(log_repeat_wait_ms(), -1);
    log_msg(LOG_INFO, "same"); /* still the last line: counted again */
    log_msg(LOG_INFO, "same");
    log_tick(true);
    assert_string_equal(logged(f), "info: same\ninfo: (last message repeated once)\n"
                                   "info: (last message repeated 2 times)\n");
}

static void test_a_line_cut_at_the_cap_is_compared_whole(void **state)
{
    fx *f = *state;
    char big[1500];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    log_msg(LOG_WARN, "%s", big);
    log_msg(LOG_WARN, "%s", big);
    big[sizeof big - 2] = 'y'; /* differs only past the cap: cut the same */
    log_msg(LOG_WARN, "%s", big);
    log_tick(true);
    const char *text = logged(f);
    assert_non_null(strstr(text, "x [cut]\nwarn: (last message repeated 2 times)\n"));
    assert_int_equal(strstr(text, " [cut]") - text, strlen("warn: ") + 1199); /* 1200 - NUL */
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_a_storm_of_one_warning_is_one_line_and_a_count),
        T(test_lines_that_differ_in_text_or_level_are_all_written),
        T(test_one_repeat_says_once_and_a_count_is_written_at_exit),
        T(test_a_line_cut_at_the_cap_is_compared_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
