/*
 * tz.h — players' clocks: time zones from the system's tz database
 * (IANA names, as in /usr/share/zoneinfo), local times in words, and
 * daily quiet hours.
 *
 * Local times come from the C library (localtime_r with TZ set for the
 * call and put back after), so this module is for the loop's thread only.
 * Not here: where a player's choices are kept (prefs.c).
 */
#ifndef PZ_TZ_H
#define PZ_TZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TZ_NAME_MAX 64

/*
 * Whether name is a zone of the tz database: 0 with its spelling there in
 * canon ("europe/madrid" → "Europe/Madrid"), or -1 with the nearest names
 * in hint ("Europe/Madrid or Europe/Malta"; "" when none is near). The
 * database is TZDIR or /usr/share/zoneinfo.
 */
int tz_check(const char *name, char *canon, size_t canon_cap, char *hint, size_t hint_cap);

/* t (unix seconds) as a local time in zone (NULL or "": UTC):
   "Thu 14:05 CET", or with the date when with_date: "Thu 26 Nov 14:05 CET". */
void tz_format(int64_t t, const char *zone, bool with_date, char *out, size_t cap);

/* A daily window of local time, in minutes after midnight; from > to wraps
   past midnight (23:00-08:00). from == to: none. */
typedef struct tz_quiet {
    int from, to;
} tz_quiet;

/* Parses "23:00-08:00" (also "23-8", "23h-8h"): 0 and *q, or -1. */
int tz_quiet_parse(const char *s, tz_quiet *q);

/* "23:00-08:00". */
void tz_quiet_format(const tz_quiet *q, char *out, size_t cap);

/* Whether t falls in the window q, in zone. */
bool tz_in_quiet(int64_t t, const char *zone, const tz_quiet *q);

/* The first time at or after t outside the window (t itself when outside). */
int64_t tz_quiet_end(int64_t t, const char *zone, const tz_quiet *q);

/*
 * When a clock of `secs` seconds started at `start` runs out if it stops
 * during the daily window q (in zone): start + secs plus every quiet
 * stretch in between. q NULL or empty: start + secs.
 */
int64_t tz_paused_deadline(int64_t start, int64_t secs, const char *zone, const tz_quiet *q);

#endif /* PZ_TZ_H */
