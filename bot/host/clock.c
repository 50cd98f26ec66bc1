/*
 * clock.c — the host's clock at work: each due game taken in turn (a
 * reminder to a player who has been quiet, the move of a player whose
 * deadline passed, a full table dealt, an open table closed, a computer
 * player's move), TICK_BATCH at a time, and every active game's due time
 * computed again when the clock's configuration changed. Prefix host__clock_.
 *
 * Not here: when a game is due (timers.c), what a move does (act.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hclock.h"
#include "hctx.h"
#include "hgame.h"
#include "hprefs.h"
#include "hseats.h"
#include "i18n.h"
#include "text.h"

#define TICK_BATCH 16      /* games handled per tick; the rest at once after */
#define TICK_STUCK_SECS 60 /* a due game the clock could do nothing for: look again then */
#define CLOCK_KV_SCOPE "host"
#define CLOCK_KV_KEY "clock"

/* Handles one due game: the deadline first, else a reminder; every path
   saves the game, which writes its next due time. */
static void tick_game(ctx *c, const char *room)
{
    if (host__game_load(c, room) <= 0)
        return;
    if (c->row.status == STORE_LOBBY && c->set.start_at > 0 && c->now >= c->set.start_at) {
        c->set.start_at = 0;
        if (c->nseats == c->set.max_players)
            host__deal(c); /* saves the game */
        else
            host__game_save(c);
        return;
    }
    int64_t expiry = c->h->cfg.lobby_expiry_secs;
    if (c->row.status == STORE_LOBBY && expiry > 0 && c->now >= c->row.turn_since + expiry) {
        char idle[32];
        text_duration(expiry, idle, sizeof idle);
        host__say_room(c, c->row.room,
                       N_("The game is abandoned (nobody joined for %s). Say %snew for another."),
                       idle, host__prefix(c));
        host__stop(c, "as it expired");
        return;
    }
    if (c->row.status != STORE_PLAYING || c->g == NULL) {
        host__game_save(c); /* next_due was stale: this writes it right */
        return;
    }
    int robot = host__robot_to_act(c);
    if (robot >= 0) {
        host__robot_turn(c, robot); /* saves the game, or sets its next time */
        return;
    }
    int actor = pz_get_turn(c->g);
    if (actor < 0 || actor >= c->nseats) {
        host__game_save(c);
        return;
    }
    if (c->set.deadline > 0 &&
        c->now >= host__prefs_deadline(c, actor, c->row.turn_since, c->set.deadline)) {
        pz_action a;
        if (host__robot_choose(c, actor, &a) == 0) {
            host__absent_missed(c, actor);
            host__act(c, &a, c->seats[actor].nick); /* saves the game */
        } else
            host__game_save(c);
        return;
    }
    int64_t until;
    if (host__timers_reminder_due(c) && !host__prefs_quiet_at(c, actor, c->now, &until)) {
        host__prompt_remind(c); /* one line: what happened, the hand, what to do */
        c->set.reminders++;
        c->row.reminded = c->now;
    }
    host__game_save(c);
}

int host__clock_tick(host *h, int64_t now)
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
        /* what the clock says (deadlines, reminders, a computer's play) is
           in the room's language */
        {
            I18N_SCOPE(host_room_lang(h, due[i].network, due[i].room));
            tick_game(&c, due[i].room);
        }
        /* A row the clock could not move past now would be due forever:
           another game now holds the room, or nothing could be done. A
           game that moved (a computer player played, and another is to
           act at once) is due again rightly: the game itself advanced. */
        bool same = c.have_game && c.row.id == due[i].id;
        if (!c.failed && (!same || (c.row.next_due <= now && !c.acted)) &&
            store_game_set_due(h->st, due[i].id, same ? now + TICK_STUCK_SECS : INT64_MAX) != 0)
            host__failed(&c, -1);
        host__game_unload(&c);
        if (c.failed) {
            store_rollback(h->st);
            failed = -1;
        } else if (store_commit(h->st) != 0) {
            snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
            store_rollback(h->st);
            failed = -1;
        } else {
            host__events_flush(&c);
        }
        if (failed)
            break;
    }
    h->due_valid = false; /* ask the index again */
    if (failed)
        h->tick_retry_at = now + TICK_RETRY_SECS;
    return failed;
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
    if (host__settings_parse(&s, r->settings) == 0)
        due = host__timers_due(a->h, r->status, &s, r->turn_since, r->reminded);
    /* At a table with computer players an earlier time stays: whether one
       is to act cannot be told from here, and a tick too early only saves
       the game again, with its time right. */
    store_seat seats[PZ_MAX_PLAYERS];
    int n = 0;
    if (r->next_due < due && store_seats_get(a->h->st, r->id, seats, PZ_MAX_PLAYERS, &n) == 0)
        for (int i = 0; i < n; i++)
            if (host__is_robot(seats[i].player))
                due = r->next_due;
    if (due == r->next_due)
        return 0;
    a->changed++;
    return store_game_set_due(a->h->st, r->id, due);
}

int host__clock_rebuild(host *h, char *why, size_t why_len)
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
