/*
 * timers.c — the host's clock: a private reminder to a player who has
 * been quiet for the configured time (at most three per turn), and, when
 * a game has a turn deadline, the expert computer player's move for a
 * player whose time ran out, announced as such (robot_choose()).
 *
 * The clock is an index, not a scan: every save of a game writes when it
 * next needs the clock (games.next_due, indexed), so "when is the next
 * work" is one indexed lookup (cached in memory between saves) and "what
 * is due" an indexed range, taken TICK_BATCH games at a time so the loop
 * goes back to commands between batches. No path here reads a game that is
 * not due. When the clock's configuration changes (reminder_secs), or the
 * database comes from schema 2, next_due is computed again for every
 * active game once, at start (timers_rebuild).
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

#include "host_int.h"
#include "text.h"

#define MAX_REMINDERS 3
#define TICK_BATCH 16      /* games handled per tick; the rest at once after */
#define TICK_RETRY_SECS 5  /* after the store refused a tick */
#define TICK_STUCK_SECS 60 /* a due game the clock could do nothing for: look again then */
#define CLOCK_KV_SCOPE "host"
#define CLOCK_KV_KEY "clock"

int64_t timers_due(const host *h, store_status status, const settings *s, int64_t turn_since,
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

void timers_saved(host *h, int64_t due)
{
    if (h->due_valid && due < h->due_next)
        h->due_next = due;
}

/* Whether the player to act is owed a reminder now. */
static bool reminder_due(const ctx *c)
{
    if (c->h->cfg.reminder_secs <= 0 || c->set.reminders >= MAX_REMINDERS)
        return false;
    int64_t last = c->row.reminded > c->row.turn_since ? c->row.reminded : c->row.turn_since;
    return c->now >= last + c->h->cfg.reminder_secs;
}

int64_t timers_person_due(ctx *c, int seat)
{
    int64_t due = INT64_MAX, until;
    if (c->set.deadline > 0)
        due = prefs_deadline(c, seat, c->row.turn_since, c->set.deadline);
    if (c->h->cfg.reminder_secs > 0 && c->set.reminders < MAX_REMINDERS) {
        int64_t last = c->row.reminded > c->row.turn_since ? c->row.reminded : c->row.turn_since;
        int64_t r = last + c->h->cfg.reminder_secs;
        if (prefs_quiet_at(c, seat, r, &until))
            r = until; /* not in their quiet hours, nor while away */
        if (r < due)
            due = r;
    }
    return due;
}

/* Handles one due game: the deadline first, else a reminder; every path
   saves the game, which writes its next due time. */
static void tick_game(ctx *c, const char *room)
{
    if (load_game(c, room) <= 0)
        return;
    if (c->row.status == STORE_LOBBY && c->set.start_at > 0 && c->now >= c->set.start_at) {
        c->set.start_at = 0;
        if (c->nseats == c->set.max_players)
            cmd_start(c, NULL); /* saves the game */
        else
            save_game(c);
        return;
    }
    int64_t expiry = c->h->cfg.lobby_expiry_secs;
    if (c->row.status == STORE_LOBBY && expiry > 0 && c->now >= c->row.turn_since + expiry) {
        char idle[32];
        text_duration(expiry, idle, sizeof idle);
        char why[64];
        snprintf(why, sizeof why, "nobody joined for %s", idle);
        stop_game(c, why, "as it expired");
        return;
    }
    if (c->row.status != STORE_PLAYING || c->g == NULL) {
        save_game(c); /* next_due was stale: this writes it right */
        return;
    }
    int robot = robot_to_act(c);
    if (robot >= 0) {
        robot_turn(c, robot); /* saves the game, or sets its next time */
        return;
    }
    int actor = pz_get_turn(c->g);
    if (actor < 0 || actor >= c->nseats) {
        save_game(c);
        return;
    }
    if (c->set.deadline > 0 &&
        c->now >= prefs_deadline(c, actor, c->row.turn_since, c->set.deadline)) {
        pz_action a;
        if (robot_choose(c, actor, &a) == 0) {
            absent_missed(c, actor);
            act(c, &a, c->seats[actor].nick); /* saves the game */
        } else
            save_game(c);
        return;
    }
    int64_t until;
    if (reminder_due(c) && !prefs_quiet_at(c, actor, c->now, &until)) {
        remind_actor(c); /* one line: what happened, the hand, what to do */
        c->set.reminders++;
        c->row.reminded = c->now;
    }
    save_game(c);
}

int timers_tick(host *h, int64_t now)
{
    store_due due[TICK_BATCH];
    int n = 0, failed = 0;
    if (store_game_due(h->st, now, due, TICK_BATCH, &n) != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        h->tick_retry_at = now + TICK_RETRY_SECS;
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (store_begin(h->st) != 0) {
            snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
            failed = -1;
            break;
        }
        ctx c = {.h = h, .now = now, .network = due[i].network};
        tick_game(&c, due[i].room);
        /* A row the clock could not move past now would be due forever:
           another game now holds the room, or nothing could be done. A
           game that moved (a computer player played, and another is to
           act at once) is due again rightly: the game itself advanced. */
        bool same = c.have_game && c.row.id == due[i].id;
        if (!c.failed && (!same || (c.row.next_due <= now && !c.acted)) &&
            store_game_set_due(h->st, due[i].id, same ? now + TICK_STUCK_SECS : INT64_MAX) != 0)
            store_failed(&c, -1);
        unload_game(&c);
        if (c.failed) {
            store_rollback(h->st);
            failed = -1;
        } else if (store_commit(h->st) != 0) {
            snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
            store_rollback(h->st);
            failed = -1;
        } else {
            events_flush(&c);
        }
        if (failed)
            break;
    }
    h->due_valid = false; /* ask the index again */
    if (failed)
        h->tick_retry_at = now + TICK_RETRY_SECS;
    return failed;
}

int64_t timers_next(host *h, int64_t now)
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

/* ---- Rebuilding the index ------------------------------------------------ */

typedef struct rebuild_arg {
    host *h;
    int changed;
} rebuild_arg;

static int rebuild_one(void *arg, const store_clock_row *r)
{
    rebuild_arg *a = arg;
    settings s;
    int64_t due = INT64_MAX;
    if (settings_parse(&s, r->settings) == 0)
        due = timers_due(a->h, r->status, &s, r->turn_since, r->reminded);
    /* At a table with computer players an earlier time stays: whether one
       is to act cannot be told from here, and a tick too early only saves
       the game again, with its time right. */
    store_seat seats[PZ_MAX_PLAYERS];
    int n = 0;
    if (r->next_due < due && store_seats_get(a->h->st, r->id, seats, PZ_MAX_PLAYERS, &n) == 0)
        for (int i = 0; i < n; i++)
            if (robot_is(seats[i].player))
                due = r->next_due;
    if (due == r->next_due)
        return 0;
    a->changed++;
    return store_game_set_due(a->h->st, r->id, due);
}

int timers_rebuild(host *h, char *why, size_t why_len)
{
    char want[64], have[64] = "";
    snprintf(want, sizeof want, "v1 reminder=%d", h->cfg.reminder_secs);
    int rc = store_kv_get(h->st, CLOCK_KV_SCOPE, CLOCK_KV_KEY, have, sizeof have);
    if (rc == 0 && strcmp(have, want) == 0)
        return 0;
    if (rc != 0 && rc != STORE_NOT_FOUND && rc != STORE_TOO_BIG) {
        snprintf(why, why_len, "reading the clock's settings: %s", store_errmsg(h->st));
        return -1;
    }
    rebuild_arg a = {h, 0};
    if (store_begin(h->st) != 0 || store_game_each_clock(h->st, rebuild_one, &a) != 0 ||
        store_kv_set(h->st, CLOCK_KV_SCOPE, CLOCK_KV_KEY, want) != 0 || store_commit(h->st) != 0) {
        snprintf(why, why_len, "building the clock's index: %s", store_errmsg(h->st));
        store_rollback(h->st);
        return -1;
    }
    h->due_valid = false;
    return 0;
}
