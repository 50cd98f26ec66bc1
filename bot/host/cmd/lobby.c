/*
 * lobby.c — before the cards: opening a table with options, joining,
 * leaving, removing an absent player, starting (seats in join order or
 * drawn at random, teams shown), and the per-game settings the creator
 * may change (turn deadline). The options of a new table are checked
 * here as well as by the engine: a chat game's target is CMD_TARGET_MIN
 * to CMD_TARGET_MAX. Commands a reply suggests carry the prefix in a room.
 *
 * Not here: anything after the first deal (play.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "host_int.h"
#include "text.h"

/* The room of the line being handled ("" in private). */
static const char *msg_room(const ctx *c)
{
    return c->m->room != NULL ? c->m->room : "";
}

bool in_lobby(ctx *c)
{
    if (c->row.status == STORE_LOBBY)
        return true;
    reply(c, "the game in %s has started already", c->row.room);
    return false;
}

/* What to write before a command a reply suggests: the prefix in a room,
   nothing in private. */
static const char *say_prefix(const ctx *c)
{
    return msg_room(c)[0] != '\0' ? ctx_prefix(c) : "";
}

/* The creator, a room moderator or an owner may manage the table. */
bool may_manage(ctx *c)
{
    if (strcmp(c->row.creator, c->m->sender) == 0 || c->m->moderator || is_owner(c, c->m->sender))
        return true;
    reply(c, "only the table's creator can do that");
    return false;
}

/* A player whose hands could not be delivered is not seated: told why. */
static bool refuse_unreachable(ctx *c)
{
    if (c->m->unreachable == NULL)
        return false;
    reply(c, "you cannot sit: %s", c->m->unreachable);
    return true;
}

static void write_seats(ctx *c)
{
    if (c->failed)
        return;
    int err = store_seats_set(c->h->st, c->row.id, c->seats, c->nseats);
    if (err != 0)
        store_failed(c, err);
}

/* "up to 4 players · first to 61 · ..." */
static void describe(const ctx *c, char *buf, size_t cap)
{
    char opts[300];
    render_options(&c->set.opt, opts, sizeof opts);
    snprintf(buf, cap, "up to %d players · %s%s", c->set.max_players, opts,
             c->set.shuffle ? " · seats drawn at random" : "");
}

/* Applies the option words of `new` to s; replies and returns -1 on error. */
static int new_settings(ctx *c, const cmd *k, settings *s)
{
    char why[PZ_WHY_MAX];
    settings_default(s);
    room_settings rs;
    room_defaults(c, msg_room(c), &rs);
    s->deadline = rs.deadline;
    if (room_options_apply(&rs, &s->opt, why, sizeof why) != 0)
        pz_options_default(&s->opt); /* a kept option the engine no longer takes */
    s->shuffle = k->shuffle_seats;
    if (k->players != 0)
        s->max_players = k->players;
    for (int i = 0; i < k->noptions; i++)
        if (pz_options_set(&s->opt, k->option_name[i], k->option_value[i], why, sizeof why)) {
            reply(c, "%s", why);
            return -1;
        }
    if (s->opt.target < CMD_TARGET_MIN || s->opt.target > CMD_TARGET_MAX) {
        reply(c, "the target must be between %d and %d, not %d", CMD_TARGET_MIN, CMD_TARGET_MAX,
              s->opt.target);
        return -1;
    }
    if (s->opt.partnerships && k->players == 0)
        s->max_players = 4;
    int check_players = s->max_players;
    if (pz_options_check(&s->opt, check_players, why, sizeof why) != 0) {
        reply(c, "%s", why);
        return -1;
    }
    return 0;
}

void cmd_new(ctx *c, const cmd *k)
{
    const char *room = msg_room(c);
    if (room[0] == '\0') {
        reply(c, "say %snew in the channel where you want to play", ctx_prefix(c));
        return;
    }
    int found = load_game(c, room);
    if (found != 0) {
        if (found > 0)
            reply(c, "there is already a game here (%s): say %s%s",
                  c->row.status == STORE_LOBBY ? "waiting for players" : "under way", say_prefix(c),
                  c->row.status == STORE_LOBBY ? "join to sit" : "score to follow it");
        return;
    }
    int active = 0;
    int err = store_game_count_active(c->h->st, &active);
    if (err != 0) {
        store_failed(c, err);
        return;
    }
    if (active >= c->h->cfg.max_games) {
        reply(c, "the bot is hosting its maximum of %d games: try again later",
              c->h->cfg.max_games);
        return;
    }
    if (refuse_unreachable(c))
        return;
    settings s;
    if (new_settings(c, k, &s) != 0)
        return;
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
    settings_format(&s, c->row.settings, sizeof c->row.settings);
    if ((err = store_game_insert(c->h->st, &c->row)) != 0) {
        store_failed(c, err);
        return;
    }
    c->have_game = true;
    c->nseats = 1;
    c->seats[0].seat = 0;
    snprintf(c->seats[0].player, sizeof c->seats[0].player, "%s", c->m->sender);
    snprintf(c->seats[0].nick, sizeof c->seats[0].nick, "%s", c->m->nick);
    write_seats(c);
    char what[400], record[160];
    describe(c, what, sizeof what);
    record_hint(c, record, sizeof record);
    say_room(c, room,
             "%s opens a Porrazo table (%s). Say %sjoin to sit; %s says %sstart to deal. %s",
             c->m->nick, what, ctx_prefix(c), c->m->nick, ctx_prefix(c), record);
    game_event(c, "opened by %s (%s)", c->m->nick, what);
    if (k->robots)
        robots_fill(c, k->level);
}

void cmd_join(ctx *c, const cmd *k)
{
    (void)k;
    if (c->row.status != STORE_LOBBY && absent_take_offer(c))
        return;
    if (!in_lobby(c))
        return;
    if (seat_of(c, c->m->sender) >= 0) {
        reply(c, "you are already seated (%d of %d)", c->nseats, c->set.max_players);
        return;
    }
    if (c->nseats >= c->set.max_players) {
        reply(c, "the table is full (%d players)", c->set.max_players);
        return;
    }
    if (refuse_unreachable(c))
        return;
    seat_add(c, c->m->sender, c->m->nick);
}

void seat_add(ctx *c, const char *player, const char *nick)
{
    store_seat *s = &c->seats[c->nseats];
    s->seat = c->nseats;
    snprintf(s->player, sizeof s->player, "%s", player);
    snprintf(s->nick, sizeof s->nick, "%s", nick);
    c->nseats++;
    write_seats(c);
    c->row.turn_since = c->now; /* the lobby's expiry counts from here */
    int countdown = c->h->cfg.start_countdown_secs;
    if (c->nseats == c->set.max_players && countdown > 0) {
        char secs[32];
        text_duration(countdown, secs, sizeof secs);
        c->set.start_at = c->now + countdown;
        say_room(c, c->row.room,
                 "The table is full: the cards are dealt in %s (say %sleave to get up)", secs,
                 ctx_prefix(c));
    }
    save_game(c);
    /* an event line of the game: joins waiting to be sent go out as one
       line ("bob sits down (2 of 8) · cat sits down (3 of 8)") */
    char head[48];
    live_header(c, 'E', -1, head, sizeof head);
    say_room(c, c->row.room, "%s%s sits down (%d of %d)", head, nick, c->nseats,
             c->set.max_players);
    if (c->nseats == c->set.max_players && countdown <= 0)
        cmd_start(c, NULL);
}

/* The first seat a person holds (not a computer player), or -1. */
static int first_person(const ctx *c)
{
    for (int s = 0; s < c->nseats; s++)
        if (!robot_is(c->seats[s].player))
            return s;
    return -1;
}

void unseat(ctx *c, int i)
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
        write_seats(c);
        save_game(c);
        say_room(c, c->row.room, "%s leaves; the table is closed.", nick);
        game_event(c, "abandoned: %s left and %s", nick,
                   c->nseats == 0 ? "nobody is seated" : "only computer players are seated");
        return;
    }
    if (seat_of(c, c->row.creator) < 0) { /* the creator left: the next person runs it */
        snprintf(c->row.creator, sizeof c->row.creator, "%s", c->seats[person].player);
        save_game(c);
        say_room(c, c->row.room, "%s leaves; %s now runs the table (%d seated).", nick,
                 c->seats[person].nick, c->nseats);
    } else {
        say_room(c, c->row.room, "%s leaves the table (%d seated).", nick, c->nseats);
    }
    write_seats(c);
}

void cmd_leave(ctx *c, const cmd *k)
{
    (void)k;
    int i = seat_of(c, c->m->sender);
    if (c->row.status != STORE_LOBBY) {
        if (i >= 0)
            absent_leave(c, i, "leaves");
        else
            reply(c, "you are not playing in this game");
        return;
    }
    if (i < 0) {
        reply(c, "you are not seated at this table");
        return;
    }
    unseat(c, i);
}

void cmd_kick(ctx *c, const cmd *k)
{
    int i = seat_named(c, k->name);
    if (i < 0) {
        reply(c, "nobody called %s is seated here", k->name);
        return;
    }
    if (c->row.status == STORE_LOBBY) {
        unseat(c, i);
    } else if (robot_is(c->seats[i].player)) {
        reply(c, "%s is a computer player: a person may take its seat (%ssub NICK %s)",
              c->seats[i].nick, say_prefix(c), k->name);
    } else {
        char why[STORE_ID_MAX + 24];
        snprintf(why, sizeof why, "is removed by %s", c->m->nick);
        absent_leave(c, i, why);
    }
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

/* A new game's seed: fixed in tests, else from the operating system. */
static int new_seed(ctx *c, uint64_t *seed)
{
    if (c->h->cfg.fixed_seed) {
        *seed = c->h->cfg.seed;
        return 0;
    }
    if (getrandom(seed, sizeof *seed, 0) != (ssize_t)sizeof *seed) {
        reply(c, "the system's random source failed: try again");
        return -1;
    }
    return 0;
}

void cmd_start(ctx *c, const cmd *k)
{
    (void)k;
    char why[PZ_WHY_MAX];
    if (!in_lobby(c) || (c->nseats < c->set.max_players && !may_manage(c)))
        return;
    if (c->nseats < 2) {
        reply(c, "Porrazo needs at least 2 players: wait for someone to join");
        return;
    }
    if (pz_options_check(&c->set.opt, c->nseats, why, sizeof why) != 0) {
        reply(c, "cannot start with %d players: %s", c->nseats, why);
        return;
    }
    uint64_t seed;
    if (new_seed(c, &seed) != 0)
        return;
    if (c->set.shuffle)
        shuffle_seats(c, seed);
    pz_setup s;
    pz_setup_default(&s);
    s.players = c->nseats;
    s.options = c->set.opt;
    s.seed = seed;
    s.dealer = (int)(seed % (uint64_t)c->nseats); /* R2.1, replayable from the seed */
    c->set.dealer = s.dealer;
    pz_events ev = {0};
    if (pz_new(&c->g, &s, &ev, why, sizeof why) != 0) {
        reply(c, "cannot start: %s", why);
        return;
    }
    c->row.seed = seed;
    c->row.status = STORE_PLAYING;
    write_seats(c);
    char who[600];
    size_t len = 0;
    who[0] = '\0';
    for (int i = 0; i < c->nseats && len < sizeof who; i++) {
        int n = snprintf(who + len, sizeof who - len, "%s%s", i > 0 ? ", " : "", c->seats[i].nick);
        len = n < 0 ? sizeof who : len + (size_t)n;
    }
    game_event(c, "started: %d players (%s)", c->nseats, who);
    cmd_players(c, NULL);
    new_turn(c);
    announce(c, NULL, &ev, NULL); /* the first deal, like an action's events */
}

void cmd_players(ctx *c, const cmd *k)
{
    (void)k;
    char line[900];
    int len = snprintf(line, sizeof line, "%s:", c->row.status == STORE_LOBBY ? "Seated" : "Seats");
    bool teams = c->set.opt.partnerships && c->row.status != STORE_LOBBY;
    for (int i = 0; i < c->nseats && len > 0 && (size_t)len < sizeof line; i++) {
        if (teams)
            len += snprintf(line + len, sizeof line - (size_t)len, " %d. %s (team %c)", i + 1,
                            c->seats[i].nick, 'A' + i % (c->nseats / 2));
        else
            len +=
                snprintf(line + len, sizeof line - (size_t)len, " %d. %s", i + 1, c->seats[i].nick);
    }
    say_room(c, c->row.room, "%s", line);
}

void cmd_options(ctx *c, const cmd *k)
{
    (void)k;
    char what[400];
    describe(c, what, sizeof what);
    if (c->set.deadline > 0)
        reply(c, "%s · turn deadline %d min", what, (c->set.deadline + 59) / 60);
    else
        reply(c, "%s · no turn deadline", what);
}

void cmd_deadline(ctx *c, const cmd *k)
{
    c->set.deadline = k->deadline_secs;
    save_game(c);
    if (k->deadline_secs == 0)
        say_room(c, c->row.room, "No turn deadline: the game waits for every player.");
    else
        say_room(c, c->row.room,
                 "Turn deadline: %d min; after that the bot plays a card for the player.",
                 (k->deadline_secs + 59) / 60);
}
