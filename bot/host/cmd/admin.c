/*
 * admin.c — the owners' commands on games: games [all] (the active games,
 * each with its number, room, players and whose turn it is), export ID (a
 * game's record as a porrazo-replay scenario), fstop ID (stop any game),
 * fleave NICK (out of a lobby; a game under way is stopped instead), skip
 * (the expert computer player makes the current move). Every reply goes
 * to the owner privately; anyone else is told the command is the owners'.
 *
 * Not here: the players' commands (lobby.c, play.c), purge (host.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_int.h"

#define GAMES_LINE_MAX 380  /* bytes of one line of games' list */
#define GAMES_LINES_MAX 6   /* lines of the list; the rest is counted */
#define GAMES_READ_MAX 200  /* the most recently active games looked at */
#define EXPORT_LINE_MAX 400 /* bytes of one line of a record sent in private lines */

/* ------------------------------------------------------------------------ */
/* games [all]                                                              */

/* The list being built: entries joined by " | " into lines. */
typedef struct games_list {
    ctx *c;
    char line[GAMES_LINE_MAX + 1];
    size_t len;
    int lines, shown, more;
} games_list;

static const char *status_word(store_status s)
{
    return s == STORE_LOBBY ? "open table" : s == STORE_PAUSED ? "paused" : "under way";
}

/* Writes game id's entry: "#12 libera #porrazo, under way: ann, bob; ann
   to play". 0, or a store_err. */
static int game_entry(ctx *c, int64_t id, char *out, size_t cap)
{
    store_game g = {0}; /* state NULL: store_game_fini is safe whatever fails */
    store_seat seats[PZ_MAX_PLAYERS];
    int n = 0, turn = -1;
    int err = store_game_get(c->h->st, id, &g);
    if (err == 0)
        err = store_seats_get(c->h->st, id, seats, PZ_MAX_PLAYERS, &n);
    if (err != 0) {
        store_game_fini(&g);
        return err;
    }
    pz_game *pg = NULL;
    if (g.state != NULL && pz_restore(&pg, g.state, strlen(g.state), NULL, 0) == 0) {
        turn = pz_get_turn(pg);
        pz_free(pg);
    }
    int k = snprintf(out, cap, "#%lld %s %s, %s:", (long long)g.id, g.network, g.room,
                     status_word(g.status));
    size_t len = k < 0 ? cap : (size_t)k;
    for (int i = 0; i < n && len < cap; i++) {
        k = snprintf(out + len, cap - len, "%s %s", i > 0 ? "," : "", seats[i].nick);
        len = k < 0 ? cap : len + (size_t)k;
    }
    if (g.status == STORE_PLAYING && turn >= 0 && turn < n && len < cap)
        snprintf(out + len, cap - len, "; %s to play", seats[turn].nick);
    store_game_fini(&g);
    return 0;
}

/* Sends the line being built, if any. */
static void games_flush(games_list *l)
{
    if (l->len == 0)
        return;
    say_private(l->c, l->c->m->sender, 0, "%s", l->line);
    l->len = 0;
    l->lines++;
}

/* Adds one entry to the list, or counts it when the lines are used up. */
static void games_add(games_list *l, const char *entry)
{
    size_t n = strlen(entry);
    if (l->len > 0 && l->len + 3 + n > GAMES_LINE_MAX)
        games_flush(l);
    if (l->lines >= GAMES_LINES_MAX) {
        l->more++;
        return;
    }
    if (l->len > 0) {
        memcpy(l->line + l->len, " | ", 3);
        l->len += 3;
    }
    /* n < sizeof entry == sizeof l->line, and the line was empty or it fits */
    memcpy(l->line + l->len, entry, n + 1);
    l->len += n;
    l->shown++;
}

/*
 * games [all] (owners): the GAMES_READ_MAX most recently active games
 * (this network's, or all), newest first, in at most GAMES_LINES_MAX
 * private lines. Bounded whatever the number of games: the states read are
 * those of the games shown.
 */
void cmd_games(ctx *c, const cmd *k)
{
    if (!is_owner(c, c->m->sender)) { /* a player: their own games */
        cmd_my_games(c);
        return;
    }
    store_due *latest = calloc(GAMES_READ_MAX, sizeof *latest);
    int n = 0, active = 0;
    int err = latest == NULL ? -1 : store_game_recent(c->h->st, 0, GAMES_READ_MAX, latest, &n);
    if (err == 0)
        err = store_game_count_active(c->h->st, &active);
    games_list l = {.c = c};
    char entry[GAMES_LINE_MAX + 1];
    for (int i = 0; i < n && err == 0; i++) {
        if (!k->all && strcmp(latest[i].network, c->network) != 0)
            continue;
        if (l.lines >= GAMES_LINES_MAX)
            l.more++;
        else if ((err = game_entry(c, latest[i].id, entry, sizeof entry)) == 0)
            games_add(&l, entry);
    }
    free(latest);
    if (err != 0) {
        store_failed(c, err);
        return;
    }
    games_flush(&l);
    if (l.shown == 0)
        say_private(c, c->m->sender, 0, "no game is open or under way%s%s", k->all ? "" : " on ",
                    k->all ? "" : c->network);
    else if (l.more > 0 || active > n)
        say_private(c, c->m->sender, 0, "%d more not shown (%d games open or under way in all)",
                    l.more + (active > n ? active - n : 0), active);
}

/* ------------------------------------------------------------------------ */
/* export ID                                                                */

/* Writes text to dir/porrazo-game-ID.json, readable by the bot's user
   only, into path. 0, or -1 with errno set. */
static int write_record(const char *dir, int64_t id, const char *text, char *path, size_t cap)
{
    int n = snprintf(path, cap, "%s/porrazo-game-%lld.json", dir, (long long)id);
    if (n < 0 || (size_t)n >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    size_t len = strlen(text), done = 0;
    int rc = fchmod(fd, 0600);
    while (rc == 0 && done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            rc = -1;
        else
            done += (size_t)w;
    }
    int saved = errno;
    if (close(fd) != 0 && rc == 0)
        return -1;
    errno = saved;
    return rc;
}

/* Sends text to the sender in lines of at most EXPORT_LINE_MAX bytes, cut
   after a comma or a brace where it can. */
static void send_record_lines(ctx *c, const char *text)
{
    size_t len = strlen(text);
    for (size_t at = 0; at < len;) {
        size_t n = len - at <= EXPORT_LINE_MAX ? len - at : EXPORT_LINE_MAX;
        if (at + n < len)
            for (size_t k = n; k > EXPORT_LINE_MAX / 2; k--)
                if (text[at + k - 1] == ',' || text[at + k - 1] == '}') {
                    n = k;
                    break;
                }
        say_private(c, c->m->sender, 0, "%.*s", (int)n, text + at);
        at += n;
        while (at < len && (text[at] == '\n' || text[at] == ' '))
            at++;
    }
}

void cmd_export(ctx *c, const cmd *k)
{
    char *json = NULL, why[STORE_WHY_MAX];
    if (host_export(c->h->st, k->game, &json, why, sizeof why) != 0) {
        say_private(c, c->m->sender, 0, "no record of game #%lld: %s", (long long)k->game, why);
        return;
    }
    const char *dir = c->h->cfg.export_dir;
    char path[4096];
    if (dir != NULL && dir[0] != '\0') {
        if (write_record(dir, k->game, json, path, sizeof path) == 0)
            say_private(c, c->m->sender, 0,
                        "game #%lld's record (a porrazo-replay scenario, %zu bytes) is in %s, "
                        "readable by the bot's user only",
                        (long long)k->game, strlen(json), path);
        else
            say_private(c, c->m->sender, 0,
                        "cannot write game #%lld's record in %s (%s): the operator can run "
                        "porrazo-bot --export %lld",
                        (long long)k->game, dir, strerror(errno), (long long)k->game);
    } else {
        send_record_lines(c, json);
    }
    free(json);
}

/* ------------------------------------------------------------------------ */
/* fstop ID, fleave NICK, skip                                              */

void cmd_fstop(ctx *c, const cmd *k)
{
    store_game row;
    int err = store_game_get(c->h->st, k->game, &row);
    if (err == STORE_NOT_FOUND) {
        reply(c, "there is no game #%lld", (long long)k->game);
        return;
    }
    if (err != 0) {
        store_failed(c, err);
        return;
    }
    bool active =
        row.status == STORE_LOBBY || row.status == STORE_PLAYING || row.status == STORE_PAUSED;
    char network[STORE_ID_MAX], room[STORE_ID_MAX];
    snprintf(network, sizeof network, "%s", row.network);
    snprintf(room, sizeof room, "%s", row.room);
    store_game_fini(&row);
    if (!active) {
        reply(c, "game #%lld in %s is over already", (long long)k->game, room);
        return;
    }
    /* The game's own network: its room is told there. */
    const char *here = c->network;
    c->network = network;
    if (load_game(c, room) > 0 && c->row.id == k->game) {
        char by[STORE_ID_MAX + 32];
        snprintf(by, sizeof by, "by %s (an owner, fstop)", c->m->nick);
        stop_game(c, "stopped by an owner", by);
    }
    unload_game(c);
    c->network = here;
    if (!c->failed)
        reply(c, "game #%lld in %s %s is stopped", (long long)k->game, network, room);
}

/* Loads the game of the room an owner's command is about (where it was
   said, or the room it names) and returns the room; NULL, the sender told
   why, when there is no such room or game. */
static const char *load_room_game(ctx *c, const cmd *k)
{
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : k->room[0] != '\0'                        ? k->room
                                                                   : NULL;
    if (room == NULL) {
        reply(c, "which room? say it there, or name it: %s #channel", cmd_verb_name(k->verb));
        return NULL;
    }
    if (load_game(c, room) <= 0) {
        if (!c->failed)
            reply(c, "there is no game in %s", room);
        return NULL;
    }
    return room;
}

void cmd_fleave(ctx *c, const cmd *k)
{
    const char *room = load_room_game(c, k);
    if (room == NULL)
        return;
    int seat = seat_named(c, k->name);
    if (seat < 0) {
        reply(c, "nobody called %s sits at the table in %s", k->name, room);
        return;
    }
    if (c->row.status == STORE_LOBBY) {
        cmd_kick(c, k); /* an owner may manage any table */
        return;
    }
    char nick[STORE_ID_MAX], by[2 * STORE_ID_MAX + 48], who[STORE_ID_MAX + 48];
    snprintf(nick, sizeof nick, "%s", c->seats[seat].nick);
    snprintf(by, sizeof by, "by %s (an owner, fleave %s)", c->m->nick, nick);
    snprintf(who, sizeof who, "an owner took %s out", nick);
    stop_game(c, who, by);
    reply(c,
          "the game in %s was under way, and a player cannot leave a game in progress: it "
          "is stopped",
          room);
}

void cmd_skip(ctx *c, const cmd *k)
{
    const char *room = load_room_game(c, k);
    if (room == NULL)
        return;
    if (c->row.status != STORE_PLAYING || c->g == NULL) {
        reply(c, "the game in %s is %s: there is no turn to play", room,
              c->row.status == STORE_LOBBY ? "not dealt yet" : "paused");
        return;
    }
    int actor = actor_of(c->g);
    pz_action a;
    if (actor < 0 || actor >= c->nseats || robot_choose(c, actor, &a) != 0) {
        reply(c, "there is no turn to play in %s now", room);
        return;
    }
    act(c, &a, c->seats[actor].nick); /* announced as played for them; saves the game */
}
