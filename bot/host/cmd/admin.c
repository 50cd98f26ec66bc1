/*
 * admin.c — the owners' commands: export ID (a game's record as a
 * porrazo-replay scenario), fstop ID (stop any game), fleave NICK (out of
 * a lobby; a game under way is stopped instead), skip (the expert
 * computer player makes the current move), purge TARGET (a queue
 * forgotten) and part [ROOM] (the bot leaves a room). The host refuses
 * the others with the row's words before these run (part answers them
 * itself, in each network's words).
 *
 * Not here: games [all] (games.c), the players' commands.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hctx.h"
#include "hgame.h"
#include "hseats.h"
#include "hverbs.h"

#define EXPORT_LINE_MAX 400 /* bytes of one line of a record sent in private lines */

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
        host__say_private(c, c->m->sender, 0, "%.*s", (int)n, text + at);
        at += n;
        while (at < len && (text[at] == '\n' || text[at] == ' '))
            at++;
    }
}

void host__verb_export(ctx *c, const cmd *k)
{
    char *json = NULL, why[STORE_WHY_MAX];
    if (host_export(c->h->st, k->game, &json, why, sizeof why) != 0) {
        host__say_private(c, c->m->sender, 0, N_("no record of game #%lld: %s"), (long long)k->game,
                          why);
        return;
    }
    const char *dir = c->h->cfg.export_dir;
    char path[4096];
    if (dir != NULL && dir[0] != '\0') {
        if (write_record(dir, k->game, json, path, sizeof path) == 0)
            host__say_private(c, c->m->sender, 0,
                              N_("game #%lld's record (a porrazo-replay scenario, %zu bytes) is "
                                 "in %s, readable by the bot's user only"),
                              (long long)k->game, strlen(json), path);
        else
            host__say_private(c, c->m->sender, 0,
                              N_("cannot write game #%lld's record in %s (%s): the operator "
                                 "can run porrazo-bot --export %lld"),
                              (long long)k->game, dir, strerror(errno), (long long)k->game);
    } else {
        send_record_lines(c, json);
    }
    free(json);
}

/* ------------------------------------------------------------------------ */
/* purge TARGET, part [ROOM]                                                */

/*
 * purge TARGET (owners): forgets every message queued to a channel, a
 * room or a player of this network, in the adapter's queue and the store.
 * A nick is tried as the player id the IRC adapter gives it too ("n:").
 */
void host__verb_purge(ctx *c, const cmd *k)
{
    const char *target = k->name[0] != '\0' ? k->name : k->room;
    outq *q = host__queue_of(c->h, c->network);
    char alt[STORE_ID_MAX];
    int total = 0;
    snprintf(alt, sizeof alt, "n:%s", target);
    const char *names[2] = {target, alt};
    for (int i = 0; i < 2; i++) {
        int n = 0;
        int err = q != NULL ? outq_purge(q, names[i], &n)
                            : store_outbox_purge(c->h->st, c->network, names[i], &n);
        if (err != 0) {
            host__failed(c, err);
            return;
        }
        total += n;
    }
    host__reply(c,
                P_("purged %d queued message to %s", "purged %d queued messages to %s",
                   (unsigned long)total),
                total, target);
}

/*
 * The words of the network the line came from, for part's answers, as
 * its adapter said them before part was a command of the host: Matrix
 * ("room", its lines not addressed) when the sender is a Matrix user id
 * ("@name:server": '@' is in no IRC nick), else IRC's ("channel").
 */
static bool matrix_words(const ctx *c)
{
    return c->m->sender[0] == '@' && strchr(c->m->sender, ':') != NULL;
}

/* One of part's answers: in a room, addressed to the sender on IRC and
   not on Matrix; privately, to the sender. */
static void part_answer(ctx *c, const char *text)
{
    if (matrix_words(c) && c->m->room != NULL && c->m->room[0] != '\0') {
        c->bounded = true;
        host__say_room(c, c->m->room, "%s", _(text));
        c->bounded = false;
    } else {
        host__reply(c, "%s", _(text));
    }
}

/*
 * part [ROOM] (owners): the adapter leaves the room named, else the room
 * the line came in (host_config.leave_room). Said privately without a
 * room, or of a room the adapter does not know, the owner is asked which.
 */
void host__verb_part(ctx *c, const cmd *k)
{
    bool mx = matrix_words(c);
    if (!host__is_owner(c, c->m->sender)) {
        part_answer(c, mx ? N_("Only an operator of the bot can make it leave a room.")
                          : N_("Only an operator of the bot can make it leave a channel."));
        return;
    }
    const char *room = k->room[0] != '\0'                            ? k->room
                       : c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                                                                     : NULL;
    if (room == NULL || c->h->cfg.leave_room == NULL ||
        c->h->cfg.leave_room(c->h->cfg.leave_arg, c->network, room, c->m->nick) != 0)
        part_answer(c, mx ? N_("Say which room: part !room:server")
                          : N_("Say which channel: part #channel"));
}

/* ------------------------------------------------------------------------ */
/* fstop ID, fleave NICK, skip                                              */

void host__verb_fstop(ctx *c, const cmd *k)
{
    store_game row;
    int err = store_game_get(c->h->st, k->game, &row);
    if (err == STORE_NOT_FOUND) {
        host__reply(c, N_("there is no game #%lld"), (long long)k->game);
        return;
    }
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    bool active =
        row.status == STORE_LOBBY || row.status == STORE_PLAYING || row.status == STORE_PAUSED;
    char network[STORE_ID_MAX], room[STORE_ID_MAX];
    snprintf(network, sizeof network, "%s", row.network);
    snprintf(room, sizeof room, "%s", row.room);
    store_game_fini(&row);
    if (!active) {
        host__reply(c, N_("game #%lld in %s is over already"), (long long)k->game, room);
        return;
    }
    /* The game's own network: its room is told there. */
    const char *here = c->network;
    c->network = network;
    if (host__game_load(c, room) > 0 && c->row.id == k->game) {
        char by[STORE_ID_MAX + 32];
        snprintf(by, sizeof by, "by %s (an owner, fstop)", c->m->nick);
        host__say_room(c, c->row.room,
                       N_("The game is abandoned (stopped by an owner). Say %snew for another."),
                       host__prefix(c));
        host__stop(c, by);
    }
    host__game_unload(c);
    c->network = here;
    if (!c->failed)
        host__reply(c, N_("game #%lld in %s %s is stopped"), (long long)k->game, network, room);
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
        host__reply(c, N_("which room? say it there, or name it: %s #channel"),
                    cmd_verb_name(k->verb));
        return NULL;
    }
    if (host__game_load(c, room) <= 0) {
        if (!c->failed)
            host__reply(c, N_("there is no game in %s"), room);
        return NULL;
    }
    return room;
}

void host__verb_fleave(ctx *c, const cmd *k)
{
    const char *room = load_room_game(c, k);
    if (room == NULL)
        return;
    int seat = host__game_seat_named(c, k->name);
    if (seat < 0) {
        host__reply(c, N_("nobody called %s sits at the table in %s"), k->name, room);
        return;
    }
    if (c->row.status == STORE_LOBBY) {
        host__unseat(c, seat); /* an owner may manage any table */
        return;
    }
    char nick[STORE_ID_MAX], by[2 * STORE_ID_MAX + 48];
    snprintf(nick, sizeof nick, "%s", c->seats[seat].nick);
    snprintf(by, sizeof by, "by %s (an owner, fleave %s)", c->m->nick, nick);
    host__say_room(c, c->row.room,
                   N_("The game is abandoned (an owner took %s out). Say %snew for another."), nick,
                   host__prefix(c));
    host__stop(c, by);
    host__reply(c,
                N_("the game in %s was under way, and a player cannot leave a game in progress: it "
                   "is stopped"),
                room);
}

void host__verb_skip(ctx *c, const cmd *k)
{
    const char *room = load_room_game(c, k);
    if (room == NULL)
        return;
    if (c->row.status != STORE_PLAYING || c->g == NULL) {
        host__reply(c,
                    c->row.status == STORE_LOBBY
                        ? N_("the game in %s is not dealt yet: there is no turn to play")
                        : N_("the game in %s is paused: there is no turn to play"),
                    room);
        return;
    }
    int actor = host__game_actor(c->g);
    pz_action a;
    if (actor < 0 || actor >= c->nseats || host__robot_choose(c, actor, &a) != 0) {
        host__reply(c, N_("there is no turn to play in %s now"), room);
        return;
    }
    host__act(c, &a, c->seats[actor].nick); /* announced as played for them; saves the game */
}
