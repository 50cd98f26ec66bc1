/*
 * timers.c — the host's clock: a private reminder to a player who has
 * been quiet for the configured time (at most three per turn), and, when
 * a game has a turn deadline, the expert computer player's move for a
 * player whose time ran out, announced as such (host__robot_choose()).
 *
 * The clock is an index, not a scan: every save of a game writes when it
 * next needs the clock (games.next_due, indexed), so "when is the next
 * work" is one indexed lookup (cached in memory between saves) and "what
 * is due" an indexed range, taken a batch of games at a time (clock.c) so the loop
 * goes back to commands between batches. No path here reads a game that is
 * not due. When the clock's configuration changes (reminder_secs), or the
 * database comes from schema 2, next_due is computed again for every
 * active game once, at start (host__clock_rebuild).
 *
 * A computer player to act is the clock's too: its move is due
 * robot_delay_secs after the game was saved (robots.c).
 *
 * Time is always an argument (unix seconds), so tests drive it with a fake
 * clock. Not here: the commands players type.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hclock.h"
#include "hctx.h"
#include "hgame.h"
#include "hprefs.h"
#include "hseats.h"
#include "text.h"

#define MAX_REMINDERS 3

int64_t host__timers_due(const host *h, store_status status, const settings *s, int64_t turn_since,
                         int64_t reminded)
{
    int64_t due = INT64_MAX;
    if (status == STORE_LOBBY && s->start_at > 0) /* full: dealt at the countdown's end */
        return s->start_at;
    if (status == STORE_LOBBY) /* turn_since: the lobby's last join or leave */
        return h->cfg.lobby_expiry_secs > 0 ? turn_since + h->cfg.lobby_expiry_secs : due;
    if (status != STORE_PLAYING)
        return due;
    if (s->deadline > 0)
        due = turn_since + s->deadline;
    if (h->cfg.reminder_secs > 0 && s->reminders < MAX_REMINDERS) {
        int64_t last = reminded > turn_since ? reminded : turn_since;
        int64_t r = last + h->cfg.reminder_secs;
        if (r < due)
            due = r;
    }
    return due;
}

void host__timers_saved(host *h, int64_t due)
{
    if (h->due_valid && due < h->due_next)
        h->due_next = due;
}

bool host__timers_reminder_due(const ctx *c)
{
    if (c->h->cfg.reminder_secs <= 0 || c->set.reminders >= MAX_REMINDERS)
        return false;
    int64_t last = c->row.reminded > c->row.turn_since ? c->row.reminded : c->row.turn_since;
    return c->now >= last + c->h->cfg.reminder_secs;
}

int64_t host__timers_person_due(ctx *c, int seat)
{
    int64_t due = INT64_MAX, until;
    if (c->set.deadline > 0)
        due = host__prefs_deadline(c, seat, c->row.turn_since, c->set.deadline);
    if (c->h->cfg.reminder_secs > 0 && c->set.reminders < MAX_REMINDERS) {
        int64_t last = c->row.reminded > c->row.turn_since ? c->row.reminded : c->row.turn_since;
        int64_t r = last + c->h->cfg.reminder_secs;
        if (host__prefs_quiet_at(c, seat, r, &until))
            r = until; /* not in their quiet hours, nor while away */
        if (r < due)
            due = r;
    }
    return due;
}

int64_t host__timers_next(host *h, int64_t now)
{
    if (!h->due_valid) {
        int64_t at = INT64_MAX;
        if (store_game_next_due(h->st, &at) != 0) {
            snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
            return now + TICK_RETRY_SECS;
        }
        h->due_next = at;
        h->due_valid = true;
    }
    int64_t next = h->due_next;
    if (next < h->tick_retry_at)
        next = h->tick_retry_at; /* the store refused: not before the retry */
    return next;
}
