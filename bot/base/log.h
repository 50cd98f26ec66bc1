/*
 * log.h — the bot's log: one line per event on standard error, with the
 * time (UTC) and a level, filtered by the configured level.
 *
 * Callers pass constant formats and put text that came from a network
 * through a sanitizer first (ircp_log_line masks IRC secrets and control
 * bytes); log_msg itself replaces any control byte left in the finished
 * line by '?', so one event is always one line. Secrets are never logged:
 * the modules that hold them only ever log their names.
 */
#ifndef PZ_LOG_H
#define PZ_LOG_H

typedef enum log_level { LOG_ERROR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 } log_level;

/* Sets the most detailed level written (LOG_INFO by default). */
void log_set_level(log_level level);

/* The level named "error", "warn", "info" or "debug"; LOG_INFO for others. */
log_level log_level_named(const char *name);

/* Whether a message of this level would be written. */
int log_enabled(log_level level);

/* Writes one line "TIME LEVEL: message" when level is enabled. */
void log_msg(log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* PZ_LOG_H */
