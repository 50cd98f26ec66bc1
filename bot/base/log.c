/*
 * log.c — the bot's log on standard error (see log.h).
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static log_level current = LOG_INFO;
static const char *const names[] = {"error", "warn", "info", "debug"};

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

void log_msg(log_level level, const char *fmt, ...)
{
    if (!log_enabled(level))
        return;
    char line[1200];
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
    char stamp[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) != NULL)
        (void)strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(stderr, "%s %s: %s%s\n", stamp, names[level], line,
            (size_t)n >= sizeof line ? " [cut]" : "");
}
