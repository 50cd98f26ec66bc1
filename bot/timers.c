/*
 * timers.c — the host's clock: a private reminder to a player who has
 * been quiet for the configured time (at most three per turn), and, when
 * a game has a turn deadline, the engine's default play for a player whose
 * time ran out, announced as such (R-independent; pz_default_action()).
 *
 * Time is always an argument (unix seconds), so tests drive it with a fake
 * clock. Not here: the commands players type.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "host_int.h"

#define MAX_REMINDERS 3

/* When a game next needs the clock, or INT64_MAX. */
static int64_t due_at(const host *h, const store_game *g, const settings *s)
{
    int64_t due = INT64_MAX;
    if (g->status != STORE_PLAYING)
        return due;
    if (s->deadline > 0)
        due = g->turn_since + s->deadline;
    if (h->cfg.reminder_secs > 0 && s->reminders < MAX_REMINDERS) {
        int64_t last = g->reminded > g->turn_since ? g->reminded : g->turn_since;
        int64_t r = last + h->cfg.reminder_secs;
        if (r < due)
            due = r;
    }
    return due;
}

typedef struct due_list {
    const host *h;
    int64_t now, next;
    int n;
    char network[64][STORE_ID_MAX];
    char room[64][STORE_ID_MAX];
} due_list;

/* Collects the games that are due (at most 64 a tick; the rest next tick). */
static int collect_due(void *arg, store_game *g)
{
    due_list *d = arg;
    settings s;
    if (settings_parse(&s, g->settings) != 0)
        return 0;
    int64_t due = due_at(d->h, g, &s);
    if (due <= d->now && d->n < 64) {
        snprintf(d->network[d->n], sizeof d->network[d->n], "%s", g->network);
        snprintf(d->room[d->n], sizeof d->room[d->n], "%s", g->room);
        d->n++;
    } else if (due < d->next) {
        d->next = due;
    }
    return 0;
}

/* Handles one due game: the deadline first, else a reminder. */
static void tick_game(ctx *c, const char *room)
{
    if (load_game(c, room) <= 0 || c->row.status != STORE_PLAYING || c->g == NULL)
        return;
    int actor = pz_get_turn(c->g);
    if (actor < 0 || actor >= c->nseats)
        return;
    if (c->set.deadline > 0 && c->now >= c->row.turn_since + c->set.deadline) {
        pz_action a;
        if (pz_default_action(c->g, actor, &a) == 0)
            act(c, &a, c->seats[actor].nick);
        return;
    }
    render_names names = names_of(c);
    char status[RENDER_LINE_MAX];
    render_status(c->g, &names, status, sizeof status);
    say_private(c, c->seats[actor].player, 1, "Reminder: %s is waiting for you. %s", c->row.room,
                status);
    c->set.reminders++;
    c->row.reminded = c->now;
    save_game(c);
}

int timers_tick(host *h, int64_t now)
{
    due_list d = {.h = h, .now = now, .next = INT64_MAX};
    int failed = 0;
    if (store_game_each_active(h->st, collect_due, &d) != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        return -1;
    }
    for (int i = 0; i < d.n; i++) {
        if (store_begin(h->st) != 0)
            return -1;
        ctx c = {.h = h, .now = now, .network = d.network[i]};
        tick_game(&c, d.room[i]);
        unload_game(&c);
        if (c.failed) {
            store_rollback(h->st);
            failed = -1;
        } else if (store_commit(h->st) != 0) {
            store_rollback(h->st);
            failed = -1;
        }
    }
    return failed;
}

int64_t timers_next(host *h, int64_t now)
{
    due_list d = {.h = h, .now = INT64_MIN, .next = INT64_MAX};
    (void)now;
    if (store_game_each_active(h->st, collect_due, &d) != 0)
        return INT64_MAX;
    return d.next;
}
