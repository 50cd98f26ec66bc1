/*
 * host.c — the host's front door: a chat line becomes a command, finds
 * its game, and everything it causes is committed in one transaction with
 * the messages it produces. Also the helpers the other host files share:
 * queuing messages, loading and saving a room's game, settings words.
 *
 * Not here: lobby commands (lobby.c), game commands and announcements
 * (play.c), the clock (timers.c).
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "help.h"
#include "host_int.h"
#include "porrazo_ai.h"
#include "text.h"
#include "think.h"

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */

/* Formats into buf; a line cut by the cap stays valid UTF-8. */
static void vformat(char *buf, size_t cap, const char *fmt, va_list ap)
{
    int n = vsnprintf(buf, cap, fmt, ap);
    if (n < 0) {
        buf[0] = '\0';
        return;
    }
    if ((size_t)n >= cap) /* cut: drop a partial UTF-8 sequence at the end */
        text_utf8_cut(buf, strlen(buf));
}

/* The send queue of network's adapter (host_config.outq_of), or NULL. */
static outq *queue_of(const host *h, const char *network)
{
    return h->cfg.outq_of != NULL ? h->cfg.outq_of(h->cfg.outq_arg, network) : NULL;
}

/* Marks the call failed after a store error. */
void store_failed(ctx *c, int err)
{
    if (c->failed == 0)
        snprintf(c->h->err, sizeof c->h->err, "%s", store_errmsg(c->h->st));
    c->failed = err != 0 ? err : -1;
}

/*
 * A reply of a command that changes nothing, straight into the adapter's
 * queue after every row committed before it (so it never overtakes an
 * announcement), unless its target is already behind.
 */
static void queue_volatile(ctx *c, const char *target, store_msg_kind kind, int priority,
                           const char *text)
{
    if (!c->vq_loaded) {
        int rc = outq_load_fresh(c->vq);
        if (rc != 0) {
            store_failed(c, rc);
            return;
        }
        c->vq_loaded = true;
    }
    if (c->bounded && c->h->cfg.backlog_max > 0 &&
        outq_target_count(c->vq, target) >= (size_t)c->h->cfg.backlog_max)
        return;
    if (outq_add_volatile(c->vq, target, kind, priority, text) != 0)
        snprintf(c->h->err, sizeof c->h->err, "too many replies waiting: one to %s dropped",
                 target);
}

static void queue(ctx *c, const char *target, store_msg_kind kind, int priority, const char *text)
{
    if (c->failed)
        return;
    if (c->vq != NULL) {
        queue_volatile(c, target, kind, priority, text);
        return;
    }
    if (c->bounded && c->h->cfg.backlog_max > 0) {
        /* A reply (not an announcement): not to a target already behind. */
        int waiting = 0;
        int err = store_outbox_target_count(c->h->st, c->network, target, c->h->cfg.backlog_max,
                                            &waiting);
        if (err != 0) {
            store_failed(c, err);
            return;
        }
        if (waiting >= c->h->cfg.backlog_max)
            return;
    }
    int err = store_outbox_add(c->h->st, c->network, target, kind, priority, text, c->now, NULL);
    if (err != 0)
        store_failed(c, err);
}

void say_room(ctx *c, const char *room, const char *fmt, ...)
{
    char text[1000];
    va_list ap;
    va_start(ap, fmt);
    vformat(text, sizeof text, fmt, ap);
    va_end(ap);
    queue(c, room, STORE_MSG_ROOM, 0, text);
}

void game_event(ctx *c, const char *fmt, ...)
{
    if (c->h->cfg.log_event == NULL || c->nevents >= CTX_EVENTS_MAX)
        return;
    char *line = c->events[c->nevents++];
    int n = snprintf(line, CTX_EVENT_LEN, "game #%lld (%s %s) ", (long long)c->row.id, c->network,
                     c->row.room);
    if (n < 0 || n >= CTX_EVENT_LEN)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vformat(line + n, CTX_EVENT_LEN - (size_t)n, fmt, ap);
    va_end(ap);
}

void events_flush(ctx *c)
{
    for (int i = 0; i < c->nevents; i++)
        c->h->cfg.log_event(c->h->cfg.log_arg, c->events[i]);
    c->nevents = 0;
}

void record_hint(const ctx *c, char *buf, size_t cap)
{
    long long id = (long long)c->row.id;
    if (snprintf(buf, cap,
                 "Game #%lld \xC2\xB7 its record: %sexport %lld (owners) or "
                 "porrazo-bot --export %lld",
                 id, ctx_prefix(c), id, id) >= (int)cap)
        snprintf(buf, cap, "Game #%lld", id);
}

void say_private(ctx *c, const char *player, int priority, const char *fmt, ...)
{
    if (robot_is(player))
        return; /* a computer player reads the game, not chat */
    char text[1000];
    va_list ap;
    va_start(ap, fmt);
    vformat(text, sizeof text, fmt, ap);
    va_end(ap);
    queue(c, player, STORE_MSG_PRIVATE, priority, text);
}

void reply(ctx *c, const char *fmt, ...)
{
    char text[900];
    va_list ap;
    va_start(ap, fmt);
    vformat(text, sizeof text, fmt, ap);
    va_end(ap);
    if (c->m == NULL)
        return;
    c->bounded = true;
    if (c->m->room != NULL && c->m->room[0] != '\0')
        say_room(c, c->m->room, "%s: %s", c->m->nick, text);
    else
        say_private(c, c->m->sender, 0, "%s", text);
    c->bounded = false;
}

void say_lines(ctx *c, const render_lines *lines)
{
    for (int i = 0; i < lines->n; i++)
        say_room(c, c->row.room, "%s", lines->line[i]);
}

/* ------------------------------------------------------------------------ */
/* Loading and saving a room's game                                         */

int load_game(ctx *c, const char *room)
{
    char why[PZ_WHY_MAX];
    unload_game(c);
    int err = store_game_active(c->h->st, c->network, room, &c->row);
    if (err == STORE_NOT_FOUND)
        return 0;
    if (err == 0)
        err = store_seats_get(c->h->st, c->row.id, c->seats, PZ_MAX_PLAYERS, &c->nseats);
    if (err != 0) {
        store_failed(c, err);
        return -1;
    }
    c->have_game = true;
    if (settings_parse(&c->set, c->row.settings) != 0) {
        snprintf(c->h->err, sizeof c->h->err, "game %lld: unreadable settings",
                 (long long)c->row.id);
        c->failed = -1;
        return -1;
    }
    if (c->row.state != NULL &&
        pz_restore(&c->g, c->row.state, strlen(c->row.state), why, sizeof why) != 0) {
        snprintf(c->h->err, sizeof c->h->err, "game %lld cannot be restored: %s",
                 (long long)c->row.id, why);
        c->failed = -1;
        return -1;
    }
    return 1;
}

void save_game(ctx *c)
{
    if (c->failed || !c->have_game)
        return;
    if (c->vq != NULL) { /* a programmer's error: a read-only verb that writes */
        snprintf(c->h->err, sizeof c->h->err, "a read-only command tried to save game %lld",
                 (long long)c->row.id);
        c->failed = STORE_ERROR;
        return;
    }
    char doc[PZ_SAVE_MAX];
    settings_format(&c->set, c->row.settings, sizeof c->row.settings);
    free(c->row.state);
    c->row.state = NULL;
    if (c->g != NULL) {
        if (pz_save(c->g, doc, sizeof doc) < 0) {
            snprintf(c->h->err, sizeof c->h->err, "a game does not fit PZ_SAVE_MAX");
            c->failed = -1;
            return;
        }
        c->row.state = strdup(doc);
        if (c->row.state == NULL) {
            c->failed = -1;
            return;
        }
    }
    c->row.updated = c->now;
    c->row.next_due = timers_due(c->h, c->row.status, &c->set, c->row.turn_since, c->row.reminded);
    int actor = c->g != NULL && c->row.status == STORE_PLAYING ? actor_of(c->g) : -1;
    if (actor >= 0 && actor < c->nseats && !absent_computer(c, actor))
        c->row.next_due = timers_person_due(c, actor); /* their clock: quiet, away */
    int64_t robot = robot_due(c);
    if (robot < c->row.next_due)
        c->row.next_due = robot;
    int err = store_game_update(c->h->st, &c->row);
    if (err != 0)
        store_failed(c, err);
    else
        timers_saved(c->h, c->row.next_due);
}

void unload_game(ctx *c)
{
    if (c->have_game)
        store_game_fini(&c->row);
    pz_free(c->g);
    c->g = NULL;
    c->have_game = false;
    c->nseats = 0;
}

int seat_of(const ctx *c, const char *player)
{
    for (int i = 0; i < c->nseats; i++)
        if (strcmp(c->seats[i].player, player) == 0)
            return i;
    return -1;
}

int seat_named(const ctx *c, const char *name)
{
    for (int i = 0; i < c->nseats; i++)
        if (strcasecmp(c->seats[i].nick, name) == 0 || strcmp(c->seats[i].player, name) == 0)
            return i;
    return -1;
}

render_names names_of(const ctx *c)
{
    render_names n = {c->nseats, {NULL}, ctx_prefix(c)};
    for (int i = 0; i < c->nseats; i++)
        n.nick[i] = c->seats[i].nick;
    return n;
}

bool is_owner(const ctx *c, const char *player)
{
    return c->h->cfg.is_owner != NULL &&
           c->h->cfg.is_owner(c->h->cfg.owner_arg, c->network, player);
}

/* ------------------------------------------------------------------------ */
/* Finding the game a command is about                                      */

typedef struct rooms_found {
    int n;
    char room[4][STORE_ID_MAX];
} rooms_found;

static int collect_room(void *arg, int64_t game, const char *room)
{
    rooms_found *f = arg;
    (void)game;
    if (f->n < 4)
        snprintf(f->room[f->n], sizeof f->room[f->n], "%s", room);
    f->n++;
    return 0;
}

/* The prefix to write before a command a reply suggests: the room's in a
   room, none in private (where none is needed). */
const char *prompt_prefix(const ctx *c)
{
    return c->m != NULL && c->m->room != NULL && c->m->room[0] != '\0'
               ? host_room_prefix(c->h, c->network, c->m->room)
               : "";
}

const char *ctx_prefix(const ctx *c)
{
    const char *room = c->m != NULL && c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : c->have_game                                              ? c->row.room
                                                                                   : NULL;
    return host_room_prefix(c->h, c->network, room);
}

/*
 * Replies to a private command that could be about several games: the
 * rooms ("#a and #b", "#a, #b and #c", "#a, #b, #c, #d and 2 more"), and
 * the player's own line again with the first room added as the example.
 */
static void ask_which_game(ctx *c, const rooms_found *f)
{
    char rooms[4 * STORE_ID_MAX + 64], echo[TEXT_ECHO_MAX];
    int shown = f->n < 4 ? f->n : 4;
    size_t len = 0;
    rooms[0] = '\0';
    for (int i = 0; i < shown; i++) {
        const char *sep = i == 0 ? "" : i == shown - 1 && f->n == shown ? " and " : ", ";
        int n = snprintf(rooms + len, sizeof rooms - len, "%s%s", sep, f->room[i]);
        if (n < 0 || (size_t)n >= sizeof rooms - len)
            break;
        len += (size_t)n;
    }
    if (f->n > shown)
        snprintf(rooms + len, sizeof rooms - len, " and %d more", f->n - shown);
    reply(c, "you play in %s: say %s %s", rooms, text_echo(c->m->text, c->m->len, echo),
          f->room[0]);
}

/*
 * Loads the game a command means: the room's in a room; in private the
 * room the command names, else the only game the sender sits in. Says
 * what is missing when it cannot tell. 1 loaded, 0 not (answered).
 */
static int find_game(ctx *c, const cmd *k)
{
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room : NULL;
    if (room == NULL && k->room[0] != '\0')
        room = k->room;
    if (room != NULL) {
        int found = load_game(c, room);
        if (found == 0)
            reply(c, "there is no game in %s: say %snew there to open one", room,
                  host_room_prefix(c->h, c->network, room));
        return found > 0;
    }
    rooms_found f = {0};
    int err = store_games_of_player(c->h->st, c->network, c->m->sender, collect_room, &f);
    if (err != 0) {
        store_failed(c, err);
        return 0;
    }
    if (f.n == 0) {
        reply(c, "you are not in a game: say %snew or %sjoin in a channel", ctx_prefix(c),
              ctx_prefix(c));
        return 0;
    }
    if (f.n > 1) {
        ask_which_game(c, &f);
        return 0;
    }
    return load_game(c, f.room[0]) > 0;
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                 */

/* Help and rules go to the sender privately when asked in a room. */
static void send_text(ctx *c, const render_lines *lines)
{
    c->bounded = true;
    for (int i = 0; i < lines->n; i++)
        say_private(c, c->m->sender, 0, "%s", lines->line[i]);
    c->bounded = false;
}

/*
 * purge TARGET (owners): forgets every message queued to a channel, a
 * room or a player of this network, in the adapter's queue and the store.
 * A nick is tried as the player id the IRC adapter gives it too ("n:").
 */
static void cmd_purge(ctx *c, const cmd *k)
{
    const char *target = k->name[0] != '\0' ? k->name : k->room;
    outq *q = queue_of(c->h, c->network);
    char alt[STORE_ID_MAX];
    int total = 0;
    snprintf(alt, sizeof alt, "n:%s", target);
    const char *names[2] = {target, alt};
    for (int i = 0; i < 2; i++) {
        int n = 0;
        int err = q != NULL ? outq_purge(q, names[i], &n)
                            : store_outbox_purge(c->h->st, c->network, names[i], &n);
        if (err != 0) {
            store_failed(c, err);
            return;
        }
        total += n;
    }
    reply(c, "purged %d queued message%s to %s", total, total == 1 ? "" : "s", target);
}

/*
 * rules [topic]: about the game of the room where it is asked (or that it
 * names) when there is one, with that game's target and options.
 */
static void cmd_rules(ctx *c, const cmd *k)
{
    render_lines lines = {0};
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : k->room[0] != '\0'                        ? k->room
                                                                   : NULL;
    bool game = room != NULL && load_game(c, room) > 0;
    help_rules(k->name, game ? &c->set.opt : NULL, &lines);
    send_text(c, &lines);
}

/*
 * The Spanish "as" of a play (command.h): the ace of spades when the
 * player holds it, else any ace, as a bare rank.
 */
static void read_spanish_as(const ctx *c, cmd *k)
{
    pz_card hand[PZ_CARDS];
    int seat = c->g != NULL ? seat_of(c, c->m->sender) : -1;
    if (k->verb != CMD_PLAY || !k->card.spanish_as || seat < 0)
        return;
    int n = pz_get_hand(c->g, seat, hand);
    for (int i = 0; i < n; i++)
        if (hand[i] == pz_card_make(k->card.rank, k->card.suit))
            return;
    k->card.suit = -1;
}

/* help [command]: the list, or one command's usage, privately. */
static void cmd_help(ctx *c, const cmd *k)
{
    render_lines lines = {0};
    render_help(k->name, ctx_prefix(c), &lines);
    send_text(c, &lines);
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
        say_room(c, c->m->room, "%s", text);
        c->bounded = false;
    } else {
        reply(c, "%s", text);
    }
}

/*
 * part [ROOM] (owners): the adapter leaves the room named, else the room
 * the line came in (host_config.leave_room). Said privately without a
 * room, or of a room the adapter does not know, the owner is asked which.
 */
static void cmd_part(ctx *c, const cmd *k)
{
    bool mx = matrix_words(c);
    if (!is_owner(c, c->m->sender)) {
        part_answer(c, mx ? "Only an operator of the bot can make it leave a room."
                          : "Only an operator of the bot can make it leave a channel.");
        return;
    }
    const char *room = k->room[0] != '\0'                            ? k->room
                       : c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                                                                     : NULL;
    if (room == NULL || c->h->cfg.leave_room == NULL ||
        c->h->cfg.leave_room(c->h->cfg.leave_arg, c->network, room, c->m->nick) != 0)
        part_answer(c,
                    mx ? "Say which room: part !room:server" : "Say which channel: part #channel");
}

/* The command table's host side: each verb's checks and handler. */
static const struct verb_run {
    unsigned flags;     /* V_* */
    const char *refuse; /* V_OWNER: what others are told (NULL: the handler) */
    cmd_handler *run;
} VERBS[] = {
#define X(id, name, shown, more, flags, section, list, usage, what, example, refuse, handler)      \
    [CMD_##id] = {flags, refuse, handler},
#include "verbs.def"
#undef X
};

/* Whether a command of verb v only reads (its replies may be volatile). */
static bool only_reads(cmd_verb v)
{
    return (VERBS[v].flags & V_READS) != 0;
}

/*
 * Runs a parsed command: the checks its row of the command table asks
 * for, in order (owners; the game, with the Spanish "as" read against the
 * sender's hand; an open table; a seat or the table's management), each
 * telling the sender why not, then its handler.
 */
static void dispatch(ctx *c, const cmd *k)
{
    const struct verb_run *v = &VERBS[k->verb];
    cmd said;
    if ((v->flags & V_OWNER) && v->refuse != NULL && !is_owner(c, c->m->sender)) {
        reply(c, "%s", v->refuse);
        return;
    }
    if (v->flags & V_GAME) {
        if (!find_game(c, k))
            return;
        said = *k;
        read_spanish_as(c, &said);
        k = &said;
    }
    if ((v->flags & V_LOBBY) && !in_lobby(c))
        return;
    if ((v->flags & V_SEATED) && seat_of(c, c->m->sender) < 0 && !may_manage(c))
        return;
    if ((v->flags & V_MANAGER) && !may_manage(c))
        return;
    v->run(c, k);
}

/* Commits or rolls back the call's transaction; 0 or the store_err. */
static int finish(ctx *c)
{
    unload_game(c);
    if (c->failed) {
        store_rollback(c->h->st);
        return c->failed;
    }
    int err = store_commit(c->h->st);
    if (err != 0) {
        snprintf(c->h->err, sizeof c->h->err, "%s", store_errmsg(c->h->st));
        store_rollback(c->h->st);
        return err;
    }
    events_flush(c);
    if (c->room_change.pending &&
        room_map_put(c->h, c->network, c->room_change.room, c->room_change.prefix,
                     c->room_change.colours_off) != 0)
        snprintf(c->h->err, sizeof c->h->err,
                 "out of memory: %s's prefix and colours take effect after a restart",
                 c->room_change.room);
    return 0;
}

/*
 * Tells the sender of m that the store refused their command, around the
 * store (a volatile message in the network's queue), at most once a minute
 * per sender; the operator has the log line the adapter writes.
 */
static void fault_reply(host *h, const host_msg *m, int err, int64_t now)
{
    outq *q = queue_of(h, m->network);
    if (q == NULL || !flood_fault_reply_ok(h, m->network, m->sender, now))
        return;
    const char *what =
        m->retried ? "I can't save right now; I will take your command as soon as I can."
        : store_err_transient(err)
            ? "I can't save right now: your command was not taken; try again in a minute."
            : "I can't save this game's record: your command was not taken. The operator is "
              "told.";
    char text[600];
    if (m->room != NULL && m->room[0] != '\0') {
        snprintf(text, sizeof text, "%s: %s", m->nick != NULL ? m->nick : m->sender, what);
        (void)outq_add_volatile(q, m->room, STORE_MSG_ROOM, 0, text);
    } else {
        (void)outq_add_volatile(q, m->sender, STORE_MSG_PRIVATE, 0, what);
    }
}

/* Tells a flooding sender, privately, that they are ignored for a while. */
static int tell_flooder(host *h, const host_msg *m, int64_t now)
{
    int secs = h->cfg.flood_ignore_secs > 0 ? h->cfg.flood_ignore_secs : 60;
    char text[300];
    snprintf(text, sizeof text,
             "You are sending commands faster than I can answer: I will ignore you for %d s.",
             secs);
    int err = store_outbox_add(h->st, m->network, m->sender, STORE_MSG_PRIVATE, 0, text, now, NULL);
    if (err != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        outq *q = queue_of(h, m->network);
        if (q != NULL)
            (void)outq_add_volatile(q, m->sender, STORE_MSG_PRIVATE, 0, text);
        return -1;
    }
    return 0;
}

/*
 * A move said in a room without the prefix ("play 4", see
 * cmd_move_without_prefix): when the room's game is under way and the
 * sender plays in it, one line reminds them of the prefix with their own
 * line as the example, and flood.c remembers it (at most one a few
 * minutes per player and room). Other chat is never answered.
 */
static void hint_prefix(ctx *c)
{
    char echo[TEXT_ECHO_MAX];
    if (load_game(c, c->m->room) <= 0 ||
        (c->row.status != STORE_PLAYING && c->row.status != STORE_PAUSED) ||
        seat_of(c, c->m->sender) < 0)
        return;
    flood_hint_told(c->h, c->network, c->m->sender, c->m->room, c->now);
    reply(c, "commands start with %s here — say %s%s", ctx_prefix(c), ctx_prefix(c),
          text_echo(c->m->text, c->m->len, echo));
}

/* Answers a parsed line: an error, a hint (CMD_IGNORED: a move without
   the prefix), or the command. */
static void answer(ctx *c, cmd_result r, const cmd *k, const char *error)
{
    if (r == CMD_ERROR)
        reply(c, "%s", error);
    else if (r == CMD_IGNORED)
        hint_prefix(c);
    else
        dispatch(c, k);
}

/*
 * A command that changes nothing (an info verb, a line that is not a
 * valid command, a hint), when the adapter has a queue and the line needs
 * no record of having been handled: read in a read-only transaction,
 * answered with volatile messages. No write, no fsync, and it works while
 * another process holds the write lock. 0 or the store_err.
 */
static int handle_read_only(host *h, const host_msg *m, int64_t now, cmd_result r, const cmd *k,
                            const char *error, outq *q)
{
    int err = store_begin_read(h->st);
    if (err != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        return err;
    }
    ctx c = {.h = h, .now = now, .m = m, .network = m->network, .vq = q};
    answer(&c, r, k, error);
    unload_game(&c);
    store_rollback(h->st);
    return c.failed;
}

/* One command of m, in a transaction of its own: 0 or the store_err. */
static int handle_parsed(host *h, const host_msg *m, int64_t now, cmd_result r, const cmd *k,
                         const char *error)
{
    outq *q = queue_of(h, m->network);
    if (q != NULL && m->once == NULL && (r != CMD_OK || only_reads(k->verb)))
        return handle_read_only(h, m, now, r, k, error, q);
    int err = store_begin(h->st);
    if (err != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        return err;
    }
    if (m->once != NULL) {
        bool fresh = false;
        if ((err = store_seen_add(h->st, m->network, m->once, now, &fresh)) != 0) {
            snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
            store_rollback(h->st);
            return err;
        }
        if (!fresh) {
            store_rollback(h->st); /* handled before: nothing to do */
            return 0;
        }
    }
    ctx c = {.h = h, .now = now, .m = m, .network = m->network};
    answer(&c, r, k, error);
    return finish(&c);
}

/*
 * Writes nick into out[STORE_ID_MAX] as text fit for players' lines: each
 * byte of invalid UTF-8 and each control character as '?', cut whole at
 * the cap. A network's nicks are text already; this keeps a bad one from
 * reaching a line (or a marker of live.c) as raw bytes.
 */
const char *clean_nick(const char *nick, char out[STORE_ID_MAX])
{
    size_t n = nick != NULL ? strlen(nick) : 0, len = 0;
    for (size_t i = 0; i < n;) {
        size_t k = text_utf8_len(nick + i, n - i);
        if (len + (k > 0 ? k : 1) >= STORE_ID_MAX)
            break;
        if (k == 0 || (k == 1 && ((unsigned char)nick[i] < 0x20 || nick[i] == 0x7F))) {
            out[len++] = '?';
            i++;
        } else {
            memcpy(out + len, nick + i, k);
            len += k;
            i += k;
        }
    }
    out[len] = '\0';
    return out;
}

int host_handle(host *h, const host_msg *msg, int64_t now)
{
    char nick[STORE_ID_MAX];
    host_msg clean = *msg;
    clean.nick = clean_nick(msg->nick != NULL ? msg->nick : msg->sender, nick);
    const host_msg *m = &clean;
    cmd k;
    char error[CMD_ERROR_MAX];
    bool in_room = m->room != NULL && m->room[0] != '\0';
    /* from memory: this runs for every line of chat too */
    const char *prefix = host_room_prefix(h, m->network, m->room);
    cmd_result r = cmd_parse(m->text, m->len, in_room, prefix, &k, error, sizeof error);
    if (r == CMD_IGNORED) { /* chat; a move without the prefix may get a hint */
        if (in_room && cmd_move_without_prefix(m->text, m->len, prefix, &k) &&
            flood_hint_due(h, m->network, m->sender, m->room, now))
            (void)handle_parsed(h, m, now, r, &k, error); /* a hint that fails is no loss */
        return 0;
    }
    switch (flood_check(h, m->network, m->sender, now)) {
    case FLOOD_OK:
        break;
    case FLOOD_TELL:
        return tell_flooder(h, m, now);
    case FLOOD_IGNORE:
        return 0;
    }
    int err = handle_parsed(h, m, now, r, &k, error);
    if (err == 0)
        return 0;
    fault_reply(h, m, err, now);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Life cycle                                                               */

int host_new(host **out, store *st, const host_config *cfg, char *why, size_t why_len)
{
    host *h = calloc(1, sizeof *h);
    if (h == NULL) {
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    h->st = st;
    h->cfg = *cfg;
    if (h->cfg.restart_recent_secs <= 0)
        h->cfg.restart_recent_secs = 3600;
    if (h->cfg.restart_announce_max <= 0)
        h->cfg.restart_announce_max = 50;
    if (flood_new(h) != 0) {
        snprintf(why, why_len, "out of memory");
        free(h);
        return -1;
    }
    snprintf(h->prefix, sizeof h->prefix, "%s", cfg->prefix != NULL ? cfg->prefix : "!");
    snprintf(h->bot_name, sizeof h->bot_name, "%s",
             cfg->bot_name != NULL ? cfg->bot_name : "porrazo");
    if (h->cfg.max_games <= 0)
        h->cfg.max_games = 100;
    pzai_level level = PZAI_STRONG;
    if (cfg->robot_level != NULL && pzai_level_parse(cfg->robot_level, &level) != 0) {
        snprintf(why, why_len, "unknown computer player level '%s'", cfg->robot_level);
        host_free(h);
        return -1;
    }
    h->robot_level = (int)level;
    if (room_map_load(h, why, why_len) != 0 || timers_rebuild(h, why, why_len) != 0) {
        host_free(h);
        return -1;
    }
    *out = h;
    return 0;
}

void host_reconfigure(host *h, const host_config *cfg)
{
    host_config old = h->cfg;
    h->cfg = *cfg;
    if (h->cfg.restart_recent_secs <= 0)
        h->cfg.restart_recent_secs = old.restart_recent_secs;
    if (h->cfg.restart_announce_max <= 0)
        h->cfg.restart_announce_max = old.restart_announce_max;
    if (h->cfg.max_games <= 0)
        h->cfg.max_games = 100;
    snprintf(h->prefix, sizeof h->prefix, "%s", cfg->prefix != NULL ? cfg->prefix : "!");
    snprintf(h->bot_name, sizeof h->bot_name, "%s",
             cfg->bot_name != NULL ? cfg->bot_name : "porrazo");
    pzai_level level;
    if (cfg->robot_level != NULL && pzai_level_parse(cfg->robot_level, &level) == 0)
        h->robot_level = (int)level; /* checked by the configuration already */
}

void host_free(host *h)
{
    if (h == NULL)
        return;
    think_free(h->think);
    flood_free(h);
    room_map_free(h);
    free(h);
}

const char *host_errmsg(const host *h)
{
    return h->err;
}

int host_tick(host *h, int64_t now)
{
    int rc = robots_collect(h, now);
    return timers_tick(h, now) != 0 ? -1 : rc;
}

int64_t host_next_tick(host *h, int64_t now)
{
    if (h->think != NULL && think_ready(h->think))
        return now;
    return timers_next(h, now);
}

void host_think_stop(host *h)
{
    think_free(h->think);
    h->think = NULL;
}

int host_think_async(host *h, void (*wake)(void *arg), void *arg)
{
    if (h->think != NULL)
        return 0;
    return think_new(&h->think, wake, arg);
}
