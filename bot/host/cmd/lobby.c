/*
 * lobby.c — before the cards, by command: opening a table with options,
 * joining, leaving, removing a player, starting, the seats and options,
 * and the per-game settings the creator may change (turn deadline). The
 * options of a new table are checked here as well as by the engine: a
 * chat game's target is CMD_TARGET_MIN to CMD_TARGET_MAX. Commands a
 * reply suggests carry the prefix in a room.
 *
 * Not here: seating and the deal themselves (seats.c), anything after the
 * first deal (play.c, act.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cmd_options.h"
#include "hctx.h"
#include "hgame.h"
#include "hrooms.h"
#include "hseats.h"
#include "hverbs.h"
#include "i18n.h"
#include "porrazo_ai.h"
#include "text.h"

/* The room of the line being handled ("" in private). */
static const char *msg_room(const ctx *c)
{
    return c->m->room != NULL ? c->m->room : "";
}

/* What to write before a command a reply suggests: the prefix in a room,
   nothing in private. */
static const char *say_prefix(const ctx *c)
{
    return msg_room(c)[0] != '\0' ? host__prefix(c) : "";
}

/* A player whose hands could not be delivered is not seated: told why. */
static bool refuse_unreachable(ctx *c)
{
    if (c->m->unreachable == NULL)
        return false;
    host__reply(c, N_("you cannot sit: %s"), c->m->unreachable);
    return true;
}

/* "up to 4 players · first to 61 · ..." */
static void describe(const ctx *c, char *buf, size_t cap)
{
    char opts[300];
    render_options(&c->set.opt, opts, sizeof opts);
    if (c->set.shuffle)
        snprintf(buf, cap, _("up to %d players · %s · seats drawn at random"), c->set.max_players,
                 opts);
    else
        snprintf(buf, cap, _("up to %d players · %s"), c->set.max_players, opts);
}

/* Applies the option words of `new` to s; replies and returns -1 on error. */
static int new_settings(ctx *c, const cmd *k, settings *s)
{
    char why[PZ_WHY_MAX];
    host__settings_default(s);
    room_settings rs;
    host__room_defaults(c, msg_room(c), &rs);
    s->deadline = rs.deadline;
    if (host__room_options_apply(&rs, &s->opt, why, sizeof why) != 0)
        pz_options_default(&s->opt); /* a kept option the engine no longer takes */
    s->shuffle = k->shuffle_seats;
    if (k->players != 0)
        s->max_players = k->players;
    for (int i = 0; i < k->noptions; i++)
        if (cmd_option_set(&s->opt, k->option_name[i], k->option_value[i], why, sizeof why)) {
            host__reply(c, "%s", why);
            return -1;
        }
    if (s->opt.target < CMD_TARGET_MIN || s->opt.target > CMD_TARGET_MAX) {
        host__reply(c, N_("the target must be between %d and %d, not %d"), CMD_TARGET_MIN,
                    CMD_TARGET_MAX, s->opt.target);
        return -1;
    }
    if (s->opt.partnerships && k->players == 0)
        s->max_players = 4;
    int check_players = s->max_players;
    if (cmd_options_check(&s->opt, check_players, why, sizeof why) != 0) {
        host__reply(c, "%s", why);
        return -1;
    }
    return 0;
}

void host__verb_new(ctx *c, const cmd *k)
{
    const char *room = msg_room(c);
    if (room[0] == '\0') {
        host__reply(c, N_("say %snew in the channel where you want to play"), host__prefix(c));
        return;
    }
    int found = host__game_load(c, room);
    if (found != 0) {
        if (found > 0 && c->row.status == STORE_LOBBY)
            host__reply(c,
                        N_("there is already a game here (waiting for players): say %sjoin to sit"),
                        say_prefix(c));
        else if (found > 0)
            host__reply(c, N_("there is already a game here (under way): say %sscore to follow it"),
                        say_prefix(c));
        return;
    }
    int active = 0;
    int err = store_game_count_active(c->h->st, &active);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    if (active >= c->h->cfg.max_games) {
        host__reply(c, N_("the bot is hosting its maximum of %d games: try again later"),
                    c->h->cfg.max_games);
        return;
    }
    if (refuse_unreachable(c))
        return;
    settings s;
    if (new_settings(c, k, &s) != 0)
        return;
    s.practice = k->practice; /* learn, new practice: explained, counted nowhere */
    memset(&c->row, 0, sizeof c->row);
    snprintf(c->row.network, sizeof c->row.network, "%s", c->network);
    snprintf(c->row.room, sizeof c->row.room, "%s", room);
    snprintf(c->row.creator, sizeof c->row.creator, "%s", c->m->sender);
    c->row.status = STORE_LOBBY;
    c->row.created = c->row.updated = c->row.turn_since = c->now;
    c->row.winner = -1;
    c->row.next_due = c->h->cfg.lobby_expiry_secs > 0 ? c->now + c->h->cfg.lobby_expiry_secs
                                                      : INT64_MAX; /* the lobby expires */
    c->set = s;
    host__settings_format(&s, c->row.settings, sizeof c->row.settings);
    if ((err = store_game_insert(c->h->st, &c->row)) != 0) {
        host__failed(c, err);
        return;
    }
    c->have_game = true;
    c->nseats = 1;
    c->seats[0].seat = 0;
    snprintf(c->seats[0].player, sizeof c->seats[0].player, "%s", c->m->sender);
    snprintf(c->seats[0].nick, sizeof c->seats[0].nick, "%s", c->m->nick);
    host__write_seats(c);
    char what[400], record[80];
    describe(c, what, sizeof what);
    host__record_hint(c, record, sizeof record);
    long long id = (long long)c->row.id;
    if (k->practice)
        host__say_room(c, room,
                       N_("%s opens a practice table (%s) against computer players: their moves "
                          "are explained to %s privately, and the game counts in no stats. Game "
                          "#%lld."),
                       c->m->nick, what, c->m->nick, id);
    else if (k->robots) /* the table fills at once: nobody joins, nobody starts it */
        host__say_room(c, room,
                       c->set.max_players > 2
                           ? N_("%s opens a Porrazo table (%s) with computer players in the other "
                                "seats. Game #%lld.")
                           : N_("%s opens a Porrazo table (%s) with a computer player in the other "
                                "seat. Game #%lld."),
                       c->m->nick, what, id);
    else
        host__say_room(c, room,
                       N_("%s opens a Porrazo table (%s). Say %sjoin to sit; %s says "
                          "%sstart to deal. Game #%lld."),
                       c->m->nick, what, host__prefix(c), c->m->nick, host__prefix(c), id);
    {
        I18N_SCOPE(PZ_LANG_EN); /* the operator's log is English */
        describe(c, what, sizeof what);
    }
    host__event(c, "opened by %s (%s); %s", c->m->nick, what, record);
    if (k->robots)
        host__robot_fill(c, k->level >= 0 ? k->level : k->practice ? (int)PZAI_BEGINNER : -1);
}

void host__verb_join(ctx *c, const cmd *k)
{
    (void)k;
    if (c->row.status != STORE_LOBBY && (host__take_offer(c) || host__take_back(c)))
        return;
    if (!host__in_lobby(c))
        return;
    if (host__game_seat_of(c, c->m->sender) >= 0) {
        host__reply(c, N_("you are already seated (%d of %d)"), c->nseats, c->set.max_players);
        return;
    }
    if (c->nseats >= c->set.max_players) {
        host__reply(c, N_("the table is full (%d players)"), c->set.max_players);
        return;
    }
    if (refuse_unreachable(c))
        return;
    host__add(c, c->m->sender, c->m->nick);
}

void host__verb_leave(ctx *c, const cmd *k)
{
    (void)k;
    int i = host__game_seat_of(c, c->m->sender);
    if (c->row.status != STORE_LOBBY) {
        if (i < 0)
            host__reply(c, N_("you are not playing in this game"));
        else if (host__leave_confirmed(c)) /* or it asked to say it again */
            host__leave_game(c, i, NULL);
        return;
    }
    if (i < 0) {
        host__reply(c, N_("you are not seated at this table"));
        return;
    }
    host__unseat(c, i);
}

void host__verb_kick(ctx *c, const cmd *k)
{
    int i = host__game_seat_named(c, k->name);
    if (i < 0) {
        host__reply(c, N_("nobody called %s is seated here"), k->name);
        return;
    }
    if (c->row.status == STORE_LOBBY) {
        host__unseat(c, i);
    } else if (host__is_robot(c->seats[i].player)) {
        host__reply(c, N_("%s is a computer player: a person may take its seat (%ssub NICK %s)"),
                    c->seats[i].nick, say_prefix(c), k->name);
    } else {
        host__leave_game(c, i, c->m->nick);
    }
}

/* start: the creator (or a moderator, an owner) deals; anyone once the
   table is full. */
void host__verb_start(ctx *c, const cmd *k)
{
    (void)k;
    if (!host__in_lobby(c) || (c->nseats < c->set.max_players && !host__may_manage(c)))
        return;
    host__deal(c);
}

void host__verb_players(ctx *c, const cmd *k)
{
    (void)k;
    host__say_seats(c);
}

void host__verb_options(ctx *c, const cmd *k)
{
    (void)k;
    char what[400], secs[32];
    describe(c, what, sizeof what);
    text_duration(c->set.deadline, secs, sizeof secs);
    if (c->set.deadline > 0)
        host__reply(c, N_("%s · turn deadline %s"), what, secs);
    else
        host__reply(c, N_("%s · no turn deadline"), what);
}

void host__verb_deadline(ctx *c, const cmd *k)
{
    char secs[32];
    c->set.deadline = k->deadline_secs;
    host__game_save(c);
    text_duration(k->deadline_secs, secs, sizeof secs);
    if (k->deadline_secs == 0)
        host__say_room(c, c->row.room, N_("No turn deadline: the game waits for every player."));
    else
        host__say_room(c, c->row.room,
                       N_("Turn deadline: %s; after that the bot plays a card for the player."),
                       secs);
}
