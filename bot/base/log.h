/*
 * log.h — the bot's log: one line per event on standard error, with the
 * time (UTC) and a level, filtered by the configured level.
 *
 * Callers pass constant formats and put text that came from a network
 * through a sanitizer first (ircp_log_line masks IRC secrets and control
 * bytes); log_msg itself replaces any control byte left in the finished
 * line by '?', so one event is always one line. Secrets are never logged:
 * the modules that hold them only ever log their names.
 *
 * A line identical to the last one written (same level and text) is
 * counted instead of written, as syslogd does: a storm of one warning
 * costs a line per LOG_REPEAT_SECS, not a line per event. The count is
 * written as "(last message repeated N times)", at the level of the line
 * repeated, when a different line comes, when the count is
 * LOG_REPEAT_SECS old (the next identical line, or log_tick), and by
 * log_tick(true) at exit.
 */
#ifndef PZ_LOG_H
#define PZ_LOG_H

#include <stdbool.h>
#include <stdint.h>

#define LOG_REPEAT_SECS 30 /* a count of repeated lines is written this old at most */

typedef enum log_level { LOG_ERROR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 } log_level;

/* Sets the most detailed level written (LOG_INFO by default). */
void log_set_level(log_level level);

/* The level named "error", "warn", "info" or "debug"; LOG_INFO for others. */
log_level log_level_named(const char *name);

/* Whether a message of this level would be written. */
int log_enabled(log_level level);

/* Writes one line "TIME LEVEL: message" when level is enabled, or counts
   it when it is the last line written again. */
void log_msg(log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Milliseconds until a count of repeated lines is due (0: now), or -1
   when none is counted. A loop arms a timer with it and calls log_tick. */
int64_t log_repeat_wait_ms(void);

/* Writes the count of repeated lines when it is due, or with force
   whatever its age (at exit); nothing when none is counted. */
void log_tick(bool force);

#endif /* PZ_LOG_H */
