/*
 * seats.c — the seats of an open table: taking one, leaving one (the next
 * person runs a table its creator left; it closes when no person is
 * left), the deal that starts the game (seats in join order or drawn at
 * random) and the line of who sits where; in a game under way, a seat
 * given to a computer player (its person left or was removed; with no
 * person left the game stops) or offered to another person, who takes it
 * with join (kept in the store's kv, scope SUB_SCOPE); leaving asks once
 * (LEAVING_SCOPE), and whoever left takes their seat back from the
 * computer player with join or back (LEFT_SCOPE). Prefix host__.
 *
 * Not here: the commands that ask for these (cmd/lobby.c), the moves of a
 * game under way (act.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_options.h"
#include "hctx.h"
#include "hfair.h"
#include "hgame.h"
#include "hrooms.h"
#include "hseats.h"
#include "hweb.h"
#include "text.h"

#define SUB_SCOPE "sub" /* a seat offered: key the game's id, value "SEAT nick" */

/* Stores the table's seats, and remembers the room as where each person
   at it is seated (the language of their private lines, lang_map.c).
   0 or the store_err. */
static int seats_save(ctx *c)
{
    int err = store_seats_set(c->h->st, c->row.id, c->seats, c->nseats);
    for (int i = 0; err == 0 && i < c->nseats; i++)
        if (!host__is_robot(c->seats[i].player))
            host__lang_map_seen(c->h, c->network, c->seats[i].player, c->row.room);
    return err;
}

/* leave said once in a game under way: key "GAME\x1fplayer", value the
   time until which a second leave confirms it ("" once used) */
#define LEAVING_SCOPE "leaving"
/* a person who left a game under way: key "GAME\x1fplayer", value "SEAT
   id", the computer player's id that took the seat ("" once back) */
#define LEFT_SCOPE "left"
#define LEAVE_CONFIRM_SECS 120

void host__write_seats(ctx *c)
{
    if (c->failed)
        return;
    int err = seats_save(c);
    if (err != 0)
        host__failed(c, err);
}

void host__add(ctx *c, const char *player, const char *nick)
{
    store_seat *s = &c->seats[c->nseats];
    s->seat = c->nseats;
    snprintf(s->player, sizeof s->player, "%s", player);
    snprintf(s->nick, sizeof s->nick, "%s", nick);
    c->nseats++;
    host__write_seats(c);
    c->row.turn_since = c->now; /* the lobby's expiry counts from here */
    int countdown = c->h->cfg.start_countdown_secs;
    if (c->nseats == c->set.max_players && countdown > 0) {
        char secs[32];
        text_duration(countdown, secs, sizeof secs);
        c->set.start_at = c->now + countdown;
        host__say_room(c, c->row.room,
                       N_("The table is full: the cards are dealt in %s (say %sleave to get up)"),
                       secs, host__prefix(c));
    }
    host__game_save(c);
    /* an event line of the game: joins waiting to be sent go out as one
       line ("bob sits down (2 of 8) · cat sits down (3 of 8)") */
    char head[48];
    host__live_header(c, 'E', -1, head, sizeof head);
    if (c->nseats == c->set.max_players && countdown <= 0) {
        /* the hands go first (priority 1): this seat is read before them,
           as a plain line (the deal's line that follows tells the state) */
        host__say_room_first(c, c->row.room, N_("%s sits down (%d of %d)"), nick, c->nseats,
                             c->set.max_players);
        host__deal(c);
        return;
    }
    host__say_room(c, c->row.room, N_("%s%s sits down (%d of %d)"), head, nick, c->nseats,
                   c->set.max_players);
}

/* The first seat a person holds (not a computer player), or -1. */
static int first_person(const ctx *c)
{
    for (int s = 0; s < c->nseats; s++)
        if (!host__is_robot(c->seats[s].player))
            return s;
    return -1;
}

void host__unseat(ctx *c, int i)
{
    c->set.start_at = 0; /* no longer full: no countdown */
    char nick[STORE_ID_MAX];
    snprintf(nick, sizeof nick, "%s", c->seats[i].nick);
    memmove(&c->seats[i], &c->seats[i + 1], (size_t)(c->nseats - i - 1) * sizeof c->seats[0]);
    c->nseats--;
    for (int s = 0; s < c->nseats; s++)
        c->seats[s].seat = s;
    int person = first_person(c);
    if (person < 0) { /* nobody, or only computer players */
        c->row.status = STORE_STOPPED;
        host__write_seats(c);
        host__game_save(c);
        host__say_room(c, c->row.room, N_("%s leaves; the table is closed."), nick);
        host__event(c, "abandoned: %s left and %s", nick,
                    c->nseats == 0 ? "nobody is seated" : "only computer players are seated");
        return;
    }
    if (host__game_seat_of(c, c->row.creator) < 0) { /* the creator left: the next person runs it */
        snprintf(c->row.creator, sizeof c->row.creator, "%s", c->seats[person].player);
        host__game_save(c);
        host__say_room(c, c->row.room, N_("%s leaves; %s now runs the table (%d seated)."), nick,
                       c->seats[person].nick, c->nseats);
    } else {
        host__say_room(c, c->row.room, N_("%s leaves the table (%d seated)."), nick, c->nseats);
    }
    host__write_seats(c);
}

/* Draws the seat order from the seed (Fisher–Yates on a SplitMix64). */
static void shuffle_seats(ctx *c, uint64_t seed)
{
    uint64_t x = seed ^ UINT64_C(0x5EA7);
    for (int i = c->nseats - 1; i > 0; i--) {
        uint64_t z = (x += UINT64_C(0x9E3779B97F4A7C15));
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        int j = (int)((z ^ (z >> 31)) % (uint64_t)(i + 1));
        store_seat t = c->seats[i];
        c->seats[i] = c->seats[j];
        c->seats[j] = t;
    }
    for (int s = 0; s < c->nseats; s++)
        c->seats[s].seat = s;
}

static void say_seats(ctx *c, bool link);

void host__deal(ctx *c)
{
    char why[PZ_WHY_MAX];
    if (c->nseats < 2) {
        host__reply(c, N_("Porrazo needs at least 2 players: wait for someone to join"));
        return;
    }
    if (cmd_options_check(&c->set.opt, c->nseats, why, sizeof why) != 0) {
        host__reply(c, N_("cannot start with %d players: %s"), c->nseats, why);
        return;
    }
    uint64_t seed;
    if (host__fair_first_hand(c, &seed) != 0)
        return;
    if (c->set.shuffle)
        shuffle_seats(c, seed);
    pz_setup s;
    pz_setup_default(&s);
    s.players = c->nseats;
    s.options = c->set.opt;
    s.seed = seed; /* with the dealer given, the first pack is pz_shuffle(seed) */
    s.dealer = (int)(seed % (uint64_t)c->nseats); /* R2.1, replayable from the seed */
    c->set.dealer = s.dealer;
    pz_events ev = {0};
    if (pz_new(&c->g, &s, &ev, why, sizeof why) != 0) {
        host__reply(c, N_("cannot start: %s"), why);
        return;
    }
    c->row.seed = seed;
    c->row.status = STORE_PLAYING;
    host__write_seats(c);
    char who[600];
    size_t len = 0;
    who[0] = '\0';
    for (int i = 0; i < c->nseats && len < sizeof who; i++) {
        int n = snprintf(who + len, sizeof who - len, "%s%s", i > 0 ? ", " : "", c->seats[i].nick);
        len = n < 0 ? sizeof who : len + (size_t)n;
    }
    host__event(c, "started: %d players (%s)", c->nseats, who);
    say_seats(c, true);
    host__new_turn(c);
    host__announce(c, NULL, &ev, NULL); /* the first deal, like an action's events */
}

void host__say_seats(ctx *c)
{
    say_seats(c, false);
}

/* The seats in one line; link: a game's opening line, which carries its page. */
static void say_seats(ctx *c, bool link)
{
    char line[900];
    int len = snprintf(line, sizeof line, "%s",
                       c->row.status == STORE_LOBBY ? _("Seated:") : _("Seats:"));
    bool teams = c->set.opt.partnerships && c->row.status != STORE_LOBBY;
    for (int i = 0; i < c->nseats && len > 0 && (size_t)len < sizeof line; i++) {
        if (teams)
            len += snprintf(line + len, sizeof line - (size_t)len, _(" %d. %s (team %c)"), i + 1,
                            c->seats[i].nick, 'A' + i % (c->nseats / 2));
        else
            len +=
                snprintf(line + len, sizeof line - (size_t)len, " %d. %s", i + 1, c->seats[i].nick);
    }
    char url[HWEB_URL_MAX];
    if (link && len > 0 && (size_t)len < sizeof line && host__web_game_url(c, url))
        snprintf(line + len, sizeof line - (size_t)len, " \xC2\xB7 %s", url);
    host__say_room(c, c->row.room, "%s", line);
}

/* The kv key of the loaded game and player: "GAME\x1fplayer"; false when
   it cannot be written whole (an id longer than any the store keeps). */
static bool game_player_key(const ctx *c, const char *player, char *key, size_t cap)
{
    int n = snprintf(key, cap, "%lld\x1f%s", (long long)c->row.id, player);
    return n > 0 && (size_t)n < cap;
}

/* Whether any person is seated in the loaded game. */
static bool any_person(const ctx *c)
{
    for (int s = 0; s < c->nseats; s++)
        if (!host__is_robot(c->seats[s].player))
            return true;
    return false;
}

/*
 * Gives seat to a computer player of the host's level, for good unless its
 * person left it themselves (the sender): then they may take it back
 * (host__take_back), and the room is told how.
 */
static void to_computer(ctx *c, int seat, const char *remover)
{
    char old[STORE_ID_MAX], id[STORE_ID_MAX], nick[STORE_ID_MAX], key[STORE_ID_MAX + 24],
        value[STORE_ID_MAX + 8];
    snprintf(old, sizeof old, "%s", c->seats[seat].nick);
    host__robot_identity(c, host__room_level(c), id, sizeof id, nick, sizeof nick);
    int n = snprintf(value, sizeof value, "%d %s", seat, id);
    bool own = c->m != NULL && strcmp(c->seats[seat].player, c->m->sender) == 0 &&
               game_player_key(c, c->m->sender, key, sizeof key) && n > 0 &&
               (size_t)n < sizeof value;
    if (own) {
        int err = store_kv_set(c->h->st, LEFT_SCOPE, key, value);
        if (err != 0) {
            host__failed(c, err);
            return;
        }
    }
    snprintf(c->seats[seat].player, sizeof c->seats[seat].player, "%s", id);
    snprintf(c->seats[seat].nick, sizeof c->seats[seat].nick, "%s", nick);
    host__absent_forget(c, seat);
    int err = seats_save(c);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    if (strcmp(c->row.creator, c->m->sender) == 0 || host__game_seat_of(c, c->row.creator) < 0)
        for (int s = 0; s < c->nseats; s++) /* the creator left: the next person runs it */
            if (!host__is_robot(c->seats[s].player)) {
                snprintf(c->row.creator, sizeof c->row.creator, "%s", c->seats[s].player);
                break;
            }
    if (own && any_person(c) && remover == NULL) /* else the game stops: nothing to come back to */
        host__say_room(c, c->row.room,
                       N_("%s leaves; %s takes the seat and the game goes on (%s may take it "
                          "back: %sjoin)"),
                       old, nick, old, host__prefix(c));
    else if (own && any_person(c))
        host__say_room(c, c->row.room,
                       N_("%s is removed by %s; %s takes the seat and the game goes on (%s may "
                          "take it back: %sjoin)"),
                       old, remover, nick, old, host__prefix(c));
    else if (remover == NULL)
        host__say_room(c, c->row.room, N_("%s leaves; %s takes the seat and the game goes on"), old,
                       nick);
    else
        host__say_room(c, c->row.room,
                       N_("%s is removed by %s; %s takes the seat and the game goes on"), old,
                       remover, nick);
    if (remover == NULL)
        host__event(c, "%s leaves; %s took the seat", old, nick);
    else
        host__event(c, "%s is removed by %s; %s took the seat", old, remover, nick);
    host__game_save(c);
}

void host__leave_game(ctx *c, int seat, const char *remover)
{
    to_computer(c, seat, remover);
    if (!c->failed && !any_person(c)) {
        host__say_room(c, c->row.room,
                       N_("The game is abandoned (nobody but computer players is left). Say %snew "
                          "for another."),
                       host__prefix(c));
        host__stop(c, "as the last person left");
    }
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

void host__offer(ctx *c, int seat, const char *nick)
{
    char key[32], value[STORE_ID_MAX + 8] = "";
    snprintf(key, sizeof key, "%lld", (long long)c->row.id);
    if (seat >= 0)
        snprintf(value, sizeof value, "%d %s", seat, nick);
    int err = store_kv_set(c->h->st, SUB_SCOPE, key, value);
    if (err != 0)
        host__failed(c, err);
}

/* Starts the news of seat, just taken from old by the sender, at this
   moment: their first turn prompt's "since your last play" tells what
   happened since they sat, never the plays they were not there for. */
static void new_since(ctx *c, int seat, const char *old)
{
    recent rec;
    char text[2 * STORE_ID_MAX + 24];
    int err = host__recent_load(c, &rec);
    if (err == 0) {
        int n = snprintf(text, sizeof text, _("%s takes %s's seat"), c->m->nick, old);
        if (n < 0 || (size_t)n >= sizeof text) /* cannot happen: sized for two ids */
            snprintf(text, sizeof text, "%s", _("a new player takes the seat"));
        host__recent_add(&rec, seat, text);
        host__recent_touch(&rec, seat, c->now);
        err = host__recent_save(c, &rec);
    }
    if (err != 0)
        host__failed(c, err);
}

bool host__take_offer(ctx *c)
{
    char nick[STORE_ID_MAX];
    int seat = offer_get(c, nick, sizeof nick);
    if (seat < 0 || strcasecmp(nick, c->m->nick) != 0 || host__game_seat_of(c, c->m->sender) >= 0)
        return false;
    if (c->m->unreachable != NULL) {
        host__reply(c, N_("you cannot sit: %s"), c->m->unreachable);
        return true;
    }
    char old[STORE_ID_MAX];
    snprintf(old, sizeof old, "%s", c->seats[seat].nick);
    snprintf(c->seats[seat].player, sizeof c->seats[seat].player, "%s", c->m->sender);
    snprintf(c->seats[seat].nick, sizeof c->seats[seat].nick, "%s", c->m->nick);
    host__absent_forget(c, seat);
    int err = seats_save(c);
    if (err != 0) {
        host__failed(c, err);
        return true;
    }
    host__offer(c, -1, "");
    /* before the hand (priority 1), so the room knows why it is sent */
    host__say_room_first(c, c->row.room, N_("%s takes %s's seat"), c->m->nick, old);
    host__event(c, "%s took %s's seat", c->m->nick, old);
    new_since(c, seat, old);
    host__prompt_hand(c, seat);
    host__game_save(c);
    return true;
}

/*
 * leave in a game under way asks once: true when the sender said leave
 * within LEAVE_CONFIRM_SECS before (the confirmation is used up); else the
 * time is kept in the store (a restart neither loses nor confirms it), the
 * sender is asked to say it again, and false.
 */
bool host__leave_confirmed(ctx *c)
{
    char key[STORE_ID_MAX + 24], value[32], mins[32];
    if (!game_player_key(c, c->m->sender, key, sizeof key))
        return true; /* cannot be kept: as before, at once */
    int err = store_kv_get(c->h->st, LEAVING_SCOPE, key, value, sizeof value);
    if (err != 0 && err != STORE_NOT_FOUND) {
        host__failed(c, err);
        return false;
    }
    char *end = NULL;
    long long until = err == 0 && value[0] != '\0' ? strtoll(value, &end, 10) : 0;
    bool pending = end != NULL && *end == '\0' && until >= c->now;
    snprintf(value, sizeof value, "%lld", pending ? 0LL : (long long)(c->now + LEAVE_CONFIRM_SECS));
    if ((err = store_kv_set(c->h->st, LEAVING_SCOPE, key, pending ? "" : value)) != 0) {
        host__failed(c, err);
        return false;
    }
    if (pending)
        return true;
    text_duration(LEAVE_CONFIRM_SECS, mins, sizeof mins);
    host__reply(c,
                N_("a computer player would take your seat for the rest of the game: say %sleave "
                   "again within %s to confirm (you could come back with %sjoin)"),
                host__prefix(c), mins, host__prefix(c));
    return false;
}

/* The seat the sender left in the loaded game and the id of the computer
   player that took it, or -1 (never left it, or back already). */
static int left_seat(ctx *c, char *robot, size_t cap)
{
    char key[STORE_ID_MAX + 24], value[STORE_ID_MAX + 8];
    if (!game_player_key(c, c->m->sender, key, sizeof key) ||
        store_kv_get(c->h->st, LEFT_SCOPE, key, value, sizeof value) != 0 || value[0] == '\0')
        return -1;
    char *end;
    long seat = strtol(value, &end, 10);
    if (end == value || *end != ' ' || seat < 0 || seat >= c->nseats)
        return -1;
    snprintf(robot, cap, "%s", end + 1);
    return (int)seat;
}

bool host__take_back(ctx *c)
{
    char robot[STORE_ID_MAX], old[STORE_ID_MAX], key[STORE_ID_MAX + 24];
    if ((c->row.status != STORE_PLAYING && c->row.status != STORE_PAUSED) ||
        host__game_seat_of(c, c->m->sender) >= 0)
        return false;
    int seat = left_seat(c, robot, sizeof robot);
    if (seat < 0)
        return false;
    if (strcmp(c->seats[seat].player, robot) != 0) {
        host__reply(c,
                    N_("your seat went to %s: only a player may offer you theirs (%ssub %s), or "
                       "wait for the next game"),
                    c->seats[seat].nick, host__prefix(c), c->m->nick);
        return true;
    }
    if (c->m->unreachable != NULL) {
        host__reply(c, N_("you cannot sit: %s"), c->m->unreachable);
        return true;
    }
    snprintf(old, sizeof old, "%s", c->seats[seat].nick);
    snprintf(c->seats[seat].player, sizeof c->seats[seat].player, "%s", c->m->sender);
    snprintf(c->seats[seat].nick, sizeof c->seats[seat].nick, "%s", c->m->nick);
    host__absent_forget(c, seat);
    int err = seats_save(c);
    if (err == 0 && game_player_key(c, c->m->sender, key, sizeof key))
        err = store_kv_set(c->h->st, LEFT_SCOPE, key, "");
    if (err != 0) {
        host__failed(c, err);
        return true;
    }
    host__say_room(c, c->row.room, N_("%s takes their seat back from %s"), c->m->nick, old);
    host__event(c, "%s took their seat back from %s", c->m->nick, old);
    if (c->g != NULL && host__game_actor(c->g) == seat && c->row.status == STORE_PLAYING) {
        host__new_turn(c); /* their turn: their clock starts now, the prompt has the hand */
        host__prompt_actor(c);
    } else {
        host__prompt_hand(c, seat);
    }
    host__game_save(c);
    return true;
}
