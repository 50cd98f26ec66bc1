/*
 * log.c — the bot's log on standard error (see log.h).
 *
 * A line identical to the one before it (same level, same text) is not
 * written again but counted, as syslogd does: one "(last message repeated
 * N times)" line says how many when a different line comes, when the
 * count is LOG_REPEAT_SECS old (log_tick, or the next identical line), or
 * at exit. State in this file: the log is written from the loop's thread
 * only.
 */
#define _POSIX_C_SOURCE 200809L

#include "log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define LOG_LINE_MAX 1200

static log_level current = LOG_INFO;
static const char *const names[] = {"error", "warn", "info", "debug"};

/* The last line written, and the identical ones counted since. */
static struct {
    bool have;
    log_level level;
    char text[LOG_LINE_MAX + 8]; /* as written, " [cut]" included */
    long repeats;                /* identical lines not written */
    int64_t first_ms;            /* when the first of them came (monotonic) */
} last;

void log_set_level(log_level level)
{
    current = level;
}

log_level log_level_named(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (name != NULL && strcmp(name, names[i]) == 0)
            return (log_level)i;
    return LOG_INFO;
}

int log_enabled(log_level level)
{
    return level <= current;
}

/* The monotonic clock in milliseconds (0 if it cannot be read). */
static int64_t now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Writes "TIME LEVEL: text" with the current UTC time. */
static void put(log_level level, const char *text)
{
    char stamp[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) != NULL)
        (void)strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(stderr, "%s %s: %s\n", stamp, names[level], text);
}

/* Writes how many identical lines were counted, if any, and starts over. */
static void put_repeats(void)
{
    if (last.repeats == 0)
        return;
    char text[64];
    if (last.repeats == 1)
        snprintf(text, sizeof text, "(last message repeated once)");
    else if (snprintf(text, sizeof text, "(last message repeated %ld times)", last.repeats) >=
             (int)sizeof text)
        text[0] = '\0'; /* cannot happen: a long has at most 20 digits */
    put(last.level, text);
    last.repeats = 0;
}

void log_msg(log_level level, const char *fmt, ...)
{
    if (!log_enabled(level))
        return;
    char line[LOG_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = strlen(line);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
            line[i] = '?';
    char text[sizeof last.text];
    if (snprintf(text, sizeof text, "%s%s", line, (size_t)n >= sizeof line ? " [cut]" : "") >=
        (int)sizeof text)
        return; /* cannot happen: text holds line and " [cut]" */
    int64_t now = now_ms();
    if (last.have && last.level == level && strcmp(last.text, text) == 0) {
        if (last.repeats++ == 0)
            last.first_ms = now;
        else if (now - last.first_ms >= LOG_REPEAT_SECS * 1000)
            put_repeats();
        return;
    }
    put_repeats();
    put(level, text);
    last.have = true;
    last.level = level;
    memcpy(last.text, text, strlen(text) + 1);
}

int64_t log_repeat_wait_ms(void)
{
    if (last.repeats == 0)
        return -1;
    int64_t wait = last.first_ms + LOG_REPEAT_SECS * 1000 - now_ms();
    return wait > 0 ? wait : 0;
}

void log_tick(bool force)
{
    if (last.repeats > 0 && (force || log_repeat_wait_ms() == 0))
        put_repeats();
}
