/*
 * hclock.h — the host's time: when a game is due (timers.c: reminders,
 * deadlines, the due time saved with each game), the clock at work
 * (clock.c) and the rates of senders (flood.c). Prefixes host__timers_,
 * host__clock_, host__flood_.
 */
#ifndef PZ_HCLOCK_H
#define PZ_HCLOCK_H

#ifndef PZ_INSIDE_HOST
#error "hclock.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "hctx.h"

/* ---- timers.c ---- */
#define TICK_RETRY_SECS 5 /* after the store refused a tick */
/* Whether the player to act in the loaded game is owed a reminder now. */
bool host__timers_reminder_due(const ctx *c);
/* When the clock next has to do with seat, a person to act in the loaded
   game: their deadline (host__prefs_deadline) or their next reminder, moved out
   of their quiet hours and vacation. */
int64_t host__timers_person_due(ctx *c, int seat);
/* When host__clock_tick next has something to do, or INT64_MAX. */
int64_t host__timers_next(host *h, int64_t now);
/* When a game in this state next needs the clock, or INT64_MAX. */
int64_t host__timers_due(const host *h, store_status status, const settings *s, int64_t turn_since,
                         int64_t reminded);
/* A game was saved with this due time (keeps the cached next in step). */
void host__timers_saved(host *h, int64_t due);

/* ---- clock.c ---- */
/* Runs what is due at now (host_tick). 0, or -1 with h->err. */
int host__clock_tick(host *h, int64_t now);
/* Recomputes every active game's due time when the clock's configuration
   differs from the one they were computed with. 0, or -1 with why. */
int host__clock_rebuild(host *h, char *why, size_t why_len);

/* ---- flood.c ---- */
typedef enum flood_verdict {
    FLOOD_OK = 0,     /* handle the command */
    FLOOD_IGNORE = 1, /* ignore it silently: the sender was told */
    FLOOD_TELL = 2    /* ignore it, and tell the sender (once) */
} flood_verdict;
int host__flood_new(host *h);
void host__flood_free(host *h);
/* Counts one command of sender on network at now. */
flood_verdict host__flood_check(host *h, const char *network, const char *sender, int64_t now);
/* Whether sender may be told of a store fault now (one a minute at most). */
bool host__flood_fault_reply_ok(host *h, const char *network, const char *sender, int64_t now);
/* Whether sender may be reminded of the prefix in room now: not in the
   last FLOOD_HINT_SECS in that room (the last room told is kept). */
bool host__flood_hint_due(host *h, const char *network, const char *sender, const char *room,
                          int64_t now);
/* Records that sender was reminded of the prefix in room at now. */
void host__flood_hint_told(host *h, const char *network, const char *sender, const char *room,
                           int64_t now);

#endif /* PZ_HCLOCK_H */
