/*
 * absent.c — a game never waits for good on a person who is not there.
 *
 * At a turn deadline the expert computer player moves for the absent
 * person (timers.c) and the turn is counted as missed; after absent_after
 * missed turns in a row (3) a computer player plays that seat at the
 * robots' pace until the person comes back: "back", or any move of theirs.
 * A person may leave a game under way, or be removed from it by its
 * creator, a room moderator or an owner: a computer player takes the seat
 * for good. A seat may also pass to another person: its holder (or, for a
 * seat, the creator, a moderator or an owner: "sub NICK SEAT") says
 * "sub NICK", and NICK takes it with "join". A player back from another
 * address without an account is a new id on IRC: the creator gives them
 * their seat back this way.
 *
 * What is kept: the settings' away and missed fields (seat bits, and four
 * bits of missed turns per seat), and a pending offer in the store's kv
 * (scope "sub", key the game's id, value "SEAT nick"). Not here: the
 * computer players themselves (robots.c), the clock (timers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host_int.h"
#include "porrazo_ai.h"

#define SUB_SCOPE "sub"
#define MISSED_MAX 15 /* four bits a seat */

static int missed_of(const settings *s, int seat)
{
    return (int)((s->missed >> (4 * seat)) & 15u);
}

static void set_missed(settings *s, int seat, int n)
{
    s->missed &= ~(15u << (4 * seat));
    s->missed |= (unsigned)(n > MISSED_MAX ? MISSED_MAX : n) << (4 * seat);
}

bool absent_computer(ctx *c, int seat)
{
    return seat >= 0 && seat < c->nseats &&
           (robot_is(c->seats[seat].player) || (c->set.away & (1u << seat)) != 0 ||
            prefs_away_bot(c, seat));
}

void absent_missed(ctx *c, int seat)
{
    if (seat < 0 || seat >= c->nseats || robot_is(c->seats[seat].player))
        return;
    int n = missed_of(&c->set, seat) + 1, after = c->h->cfg.absent_after;
    set_missed(&c->set, seat, n);
    if (after <= 0 || n < after || (c->set.away & (1u << seat)) != 0)
        return;
    c->set.away |= 1u << seat;
    say_room(c, c->row.room,
             "%s has missed %d turns in a row: a computer player plays for them until they are "
             "back (%sback)",
             c->seats[seat].nick, n, ctx_prefix(c));
    game_event(c, "%s is away after %d missed turns: a computer player plays for them",
               c->seats[seat].nick, n);
}

void absent_acted(ctx *c, int seat)
{
    if (seat < 0 || seat >= c->nseats)
        return;
    set_missed(&c->set, seat, 0);
    if ((c->set.away & (1u << seat)) == 0)
        return;
    c->set.away &= ~(1u << seat);
    say_room(c, c->row.room, "%s is back and plays again", c->seats[seat].nick);
}

void cmd_back(ctx *c, const cmd *k)
{
    (void)k;
    int seat = seat_of(c, c->m->sender);
    if (seat < 0) {
        reply(c, "you are not playing in this game");
        return;
    }
    if ((c->set.away & (1u << seat)) == 0) {
        set_missed(&c->set, seat, 0);
        save_game(c);
        reply(c, "you are playing already: nobody plays for you");
        return;
    }
    absent_acted(c, seat);
    save_game(c);
}

/* Gives seat for good to a computer player of the host's level. */
static void to_computer(ctx *c, int seat, const char *why)
{
    char old[STORE_ID_MAX], id[STORE_ID_MAX], nick[STORE_ID_MAX];
    snprintf(old, sizeof old, "%s", c->seats[seat].nick);
    robot_identity(c, room_level(c), id, sizeof id, nick, sizeof nick);
    snprintf(c->seats[seat].player, sizeof c->seats[seat].player, "%s", id);
    snprintf(c->seats[seat].nick, sizeof c->seats[seat].nick, "%s", nick);
    c->set.away &= ~(1u << seat);
    set_missed(&c->set, seat, 0);
    int err = store_seats_set(c->h->st, c->row.id, c->seats, c->nseats);
    if (err != 0) {
        store_failed(c, err);
        return;
    }
    if (strcmp(c->row.creator, c->m->sender) == 0 || seat_of(c, c->row.creator) < 0)
        for (int s = 0; s < c->nseats; s++) /* the creator left: the next person runs it */
            if (!robot_is(c->seats[s].player)) {
                snprintf(c->row.creator, sizeof c->row.creator, "%s", c->seats[s].player);
                break;
            }
    say_room(c, c->row.room, "%s %s; %s takes the seat and the game goes on", old, why, nick);
    game_event(c, "%s %s; %s took the seat", old, why, nick);
    save_game(c);
}

/* Whether any person is seated in the loaded game. */
static bool any_person(const ctx *c)
{
    for (int s = 0; s < c->nseats; s++)
        if (!robot_is(c->seats[s].player))
            return true;
    return false;
}

void absent_leave(ctx *c, int seat, const char *why)
{
    to_computer(c, seat, why);
    if (!c->failed && !any_person(c))
        stop_game(c, "nobody but computer players is left", "as the last person left");
}

/* The pending offer of the loaded game: its seat and nick, or -1. */
static int offer_get(ctx *c, char *nick, size_t cap)
{
    char key[32], value[STORE_ID_MAX + 8];
    snprintf(key, sizeof key, "%lld", (long long)c->row.id);
    if (store_kv_get(c->h->st, SUB_SCOPE, key, value, sizeof value) != 0 || value[0] == '\0')
        return -1;
    char *space = strchr(value, ' ');
    char *end;
    long seat = strtol(value, &end, 10);
    if (space == NULL || end != space || seat < 0 || seat >= c->nseats)
        return -1;
    snprintf(nick, cap, "%s", space + 1);
    return (int)seat;
}

static void offer_set(ctx *c, int seat, const char *nick)
{
    char key[32], value[STORE_ID_MAX + 8] = "";
    snprintf(key, sizeof key, "%lld", (long long)c->row.id);
    if (seat >= 0)
        snprintf(value, sizeof value, "%d %s", seat, nick);
    int err = store_kv_set(c->h->st, SUB_SCOPE, key, value);
    if (err != 0)
        store_failed(c, err);
}

void cmd_sub(ctx *c, const cmd *k)
{
    if (c->row.status != STORE_PLAYING && c->row.status != STORE_PAUSED) {
        reply(c, "there is no game under way here: say %sjoin to sit", ctx_prefix(c));
        return;
    }
    int mine = seat_of(c, c->m->sender), seat = mine;
    if (k->name2[0] != '\0') { /* sub NICK SEAT: a seat a computer player holds */
        seat = robot_named(c, k->name2);
        if (seat < 0) {
            reply(c, "nobody called %s plays here", k->name2);
            return;
        }
        /* another's seat: the table's creator, a moderator or an owner
           decides (its player may be back under another id) */
        if (seat != mine && !may_manage(c))
            return;
    } else if (seat < 0) {
        reply(c, "you are not playing here: the creator may say %ssub %s 1 (Robot 1's seat)",
              ctx_prefix(c), k->name);
        return;
    }
    if (seat_named(c, k->name) >= 0) {
        reply(c, "%s plays here already", k->name);
        return;
    }
    offer_set(c, seat, k->name);
    say_room(c, c->row.room, "%s's seat is offered to %s: %s, say %sjoin to take it",
             c->seats[seat].nick, k->name, k->name, ctx_prefix(c));
}

bool absent_take_offer(ctx *c)
{
    char nick[STORE_ID_MAX];
    int seat = offer_get(c, nick, sizeof nick);
    if (seat < 0 || strcasecmp(nick, c->m->nick) != 0 || seat_of(c, c->m->sender) >= 0)
        return false;
    if (c->m->unreachable != NULL) {
        reply(c, "you cannot sit: %s", c->m->unreachable);
        return true;
    }
    char old[STORE_ID_MAX];
    snprintf(old, sizeof old, "%s", c->seats[seat].nick);
    snprintf(c->seats[seat].player, sizeof c->seats[seat].player, "%s", c->m->sender);
    snprintf(c->seats[seat].nick, sizeof c->seats[seat].nick, "%s", c->m->nick);
    c->set.away &= ~(1u << seat);
    set_missed(&c->set, seat, 0);
    int err = store_seats_set(c->h->st, c->row.id, c->seats, c->nseats);
    if (err != 0) {
        store_failed(c, err);
        return true;
    }
    offer_set(c, -1, "");
    say_room(c, c->row.room, "%s takes %s's seat", c->m->nick, old);
    game_event(c, "%s took %s's seat", c->m->nick, old);
    send_hand(c, seat);
    save_game(c);
    return true;
}
