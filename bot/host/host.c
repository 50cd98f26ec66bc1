/*
 * host.c — the host's front door: a chat line becomes a command (the
 * parser), the command table's row for its verb (verbs.def) says what to
 * check before its handler runs (host__verb_*, hverbs.h) and whether it only
 * reads, and everything it causes is committed in one transaction with
 * the messages it produces. Also flood control's verdicts, the answers to
 * a store that refuses, and the host's life cycle.
 *
 * Not here: the commands (cmd/), messages and checks (ctx.c), a room's
 * game (game.c), seats and moves (seats.c, act.c), the clock (clock.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hclock.h"
#include "hctx.h"
#include "hgame.h"
#include "hlearn.h"
#include "hrooms.h"
#include "hseats.h"
#include "hverbs.h"
#include "porrazo_ai.h"
#include "text.h"
#include "think.h"

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */

/* ------------------------------------------------------------------------ */
/* Loading and saving a room's game                                         */

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
        /* TRANSLATORS: between the last two rooms of a list, "#a, #b and #c" */
        const char *sep = i == 0 ? "" : i == shown - 1 && f->n == shown ? _(" and ") : ", ";
        int n = snprintf(rooms + len, sizeof rooms - len, "%s%s", sep, f->room[i]);
        if (n < 0 || (size_t)n >= sizeof rooms - len)
            break;
        len += (size_t)n;
    }
    if (f->n > shown)
        snprintf(rooms + len, sizeof rooms - len, _(" and %d more"), f->n - shown);
    host__reply(c, N_("you play in %s: say %s %s"), rooms, text_echo(c->m->text, c->m->len, echo),
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
        int found = host__game_load(c, room);
        if (found == 0)
            host__reply(c, N_("there is no game in %s: say %snew there to open one"), room,
                        host_room_prefix(c->h, c->network, room));
        return found > 0;
    }
    rooms_found f = {0};
    int err = store_games_of_player(c->h->st, c->network, c->m->sender, collect_room, &f);
    if (err != 0) {
        host__failed(c, err);
        return 0;
    }
    if (f.n == 0) {
        host__reply(c, N_("you are not in a game: say %snew or %sjoin in a channel"),
                    host__prefix(c), host__prefix(c));
        return 0;
    }
    if (f.n > 1) {
        ask_which_game(c, &f);
        return 0;
    }
    return host__game_load(c, f.room[0]) > 0;
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                 */

/*
 * The Spanish "as" of a play (command.h): the ace of spades when the
 * player holds it, else any ace, as a bare rank.
 */
static void read_spanish_as(const ctx *c, cmd *k)
{
    pz_card hand[PZ_CARDS];
    int seat = c->g != NULL ? host__game_seat_of(c, c->m->sender) : -1;
    if (k->verb != CMD_PLAY || !k->card.spanish_as || seat < 0)
        return;
    int n = pz_get_hand(c->g, seat, hand);
    for (int i = 0; i < n; i++)
        if (hand[i] == pz_card_make(k->card.rank, k->card.suit))
            return;
    k->card.suit = -1;
}

/* The command table's host side: each verb's checks and handler. */
static const struct verb_run {
    unsigned flags;     /* V_* */
    const char *refuse; /* V_OWNER: what others are told (NULL: the handler) */
    hv_handler *run;
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
 * telling the sender why not, then its handler. A person's own setting
 * (V_PRIVATE) said in a room is answered privately, and the room reads
 * only that it was.
 */
static void dispatch(ctx *c, const cmd *k)
{
    const struct verb_run *v = &VERBS[k->verb];
    cmd said;
    if ((v->flags & V_OWNER) && v->refuse != NULL && !host__is_owner(c, c->m->sender)) {
        host__reply(c, "%s", _(v->refuse));
        return;
    }
    if (v->flags & V_GAME) {
        if (!find_game(c, k))
            return;
        said = *k;
        read_spanish_as(c, &said);
        k = &said;
    }
    if ((v->flags & V_LOBBY) && !host__in_lobby(c))
        return;
    if ((v->flags & V_SEATED) && host__game_seat_of(c, c->m->sender) < 0 && !host__may_manage(c))
        return;
    if ((v->flags & V_MANAGER) && !host__may_manage(c))
        return;
    c->personal = (v->flags & V_PRIVATE) != 0;
    {
        I18N_SCOPE(host__lang(c)); /* a person's setting: their own language */
        v->run(c, k);
        c->personal = false;
    }
    if ((v->flags & V_PRIVATE) && c->m->room != NULL && c->m->room[0] != '\0')
        host__reply(c, N_("I answered you privately")); /* a person's settings are theirs */
}

/* Commits or rolls back the call's transaction; 0 or the store_err. */
static int finish(ctx *c)
{
    host__game_unload(c);
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
    host__events_flush(c);
    if (c->room_change.pending &&
        host__room_map_put(c->h, c->network, c->room_change.room, c->room_change.prefix,
                           c->room_change.colours_off, c->room_change.lang) != 0)
        snprintf(c->h->err, sizeof c->h->err,
                 "out of memory: %s's prefix, colours and language take effect after a restart",
                 c->room_change.room);
    else if (c->room_change.pending) /* its seated players' private lines follow its language */
        host__lang_map_room_changed(c->h, c->network, c->room_change.room);
    if (c->lang_change.pending && c->m != NULL &&
        host__lang_map_put(c->h, c->network, c->m->sender, c->lang_change.lang) != 0)
        snprintf(c->h->err, sizeof c->h->err,
                 "out of memory: %s's language takes effect after a restart", c->m->sender);
    return 0;
}

/*
 * Tells the sender of m that the store refused their command, around the
 * store (a volatile message in the network's queue), at most once a minute
 * per sender; the operator has the log line the adapter writes.
 */
static void fault_reply(host *h, const host_msg *m, int err, int64_t now)
{
    outq *q = host__queue_of(h, m->network);
    if (q == NULL || !host__flood_fault_reply_ok(h, m->network, m->sender, now))
        return;
    const char *what =
        m->retried ? _("I can't save right now; I will take your command as soon as I can.")
        : store_err_transient(err)
            ? _("I can't save right now: your command was not taken; try again in a minute.")
            : _("I can't save this game's record: your command was not taken. The operator is "
                "told.");
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
             _("You are sending commands faster than I can answer: I will ignore you for %d s."),
             secs);
    int err = store_outbox_add(h->st, m->network, m->sender, STORE_MSG_PRIVATE, 0, text, now, NULL);
    if (err != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        outq *q = host__queue_of(h, m->network);
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
    if (host__game_load(c, c->m->room) <= 0 ||
        (c->row.status != STORE_PLAYING && c->row.status != STORE_PAUSED) ||
        host__game_seat_of(c, c->m->sender) < 0)
        return;
    host__flood_hint_told(c->h, c->network, c->m->sender, c->m->room, c->now);
    host__reply(c, N_("commands start with %s here — say %s%s"), host__prefix(c), host__prefix(c),
                text_echo(c->m->text, c->m->len, echo));
}

/* Answers a parsed line: an error, a hint (CMD_IGNORED: a move without
   the prefix), or the command. */
static void answer(ctx *c, cmd_result r, const cmd *k, const char *error)
{
    if (r == CMD_ERROR)
        host__reply(c, "%s", error);
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
    host__game_unload(&c);
    store_rollback(h->st);
    return c.failed;
}

/* One command of m, in a transaction of its own: 0 or the store_err. */
static int handle_parsed(host *h, const host_msg *m, int64_t now, cmd_result r, const cmd *k,
                         const char *error)
{
    outq *q = host__queue_of(h, m->network);
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

static int handle_line(host *h, const host_msg *m, int64_t now, bool in_room, const char *prefix);

int host_handle(host *h, const host_msg *msg, int64_t now)
{
    char nick[STORE_ID_MAX];
    host_msg clean = *msg;
    clean.nick = text_clean(msg->nick != NULL ? msg->nick : msg->sender, nick, sizeof nick);
    const host_msg *m = &clean;
    bool in_room = m->room != NULL && m->room[0] != '\0';
    /* from memory: this runs for every line of chat too */
    const char *prefix = host_room_prefix(h, m->network, m->room);
    /* Replies are in the room's language (whatever language the command
       was typed in), private ones in the sender's: the whole call writes
       in it, and the lines for other readers switch (ctx.c, live.c). */
    I18N_SCOPE(in_room ? host_room_lang(h, m->network, m->room)
                       : host_player_lang(h, m->network, m->sender, NULL));
    return handle_line(h, m, now, in_room, prefix);
}

/* host_handle in the language of its replies. */
static int handle_line(host *h, const host_msg *m, int64_t now, bool in_room, const char *prefix)
{
    cmd k;
    char error[CMD_ERROR_MAX];
    cmd_result r = cmd_parse(m->text, m->len, in_room, prefix, &k, error, sizeof error);
    if (r == CMD_IGNORED) { /* chat; a move without the prefix may get a hint */
        if (in_room && cmd_move_without_prefix(m->text, m->len, prefix, &k) &&
            host__flood_hint_due(h, m->network, m->sender, m->room, now))
            (void)handle_parsed(h, m, now, r, &k, error); /* a hint that fails is no loss */
        return 0;
    }
    switch (host__flood_check(h, m->network, m->sender, now)) {
    case FLOOD_OK:
        break;
    case FLOOD_TELL:
        return tell_flooder(h, m, now);
    case FLOOD_IGNORE:
        return 0;
    }
    if (in_room) /* where they last spoke: their private lines' language */
        host__lang_map_seen(h, m->network, m->sender, m->room);
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
    if (host__flood_new(h) != 0) {
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
    (void)host__listen(h, &host__learn_listener); /* the first of HS_LISTENERS_MAX: cannot fail */
    if (host__room_map_load(h, why, why_len) != 0 || host__lang_map_load(h, why, why_len) != 0 ||
        host__clock_rebuild(h, why, why_len) != 0) {
        host_free(h);
        return -1;
    }
    *out = h;
    return 0;
}

int host_reconfigure(host *h, const host_config *cfg)
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
    /* the configuration's rooms' languages may have changed: the players
       seated in a room that now speaks another language than its network
       follow it (those whose room now speaks as the network already do) */
    char why[200];
    if (host__lang_map_rooms(h, true, why, sizeof why) == 0)
        return 0;
    snprintf(h->err, sizeof h->err, "%s; their private lines follow it once they speak there", why);
    return -1;
}

void host_free(host *h)
{
    if (h == NULL)
        return;
    host__think_free(h->think);
    host__flood_free(h);
    host__room_map_free(h);
    host__lang_map_free(h);
    host__game_forget(h);
    free(h);
}

const char *host_errmsg(const host *h)
{
    return h->err;
}

int host_tick(host *h, int64_t now)
{
    int rc = host__robot_collect(h, now);
    return host__clock_tick(h, now) != 0 ? -1 : rc;
}

int64_t host_next_tick(host *h, int64_t now)
{
    if (h->think != NULL && host__think_ready(h->think))
        return now;
    return host__timers_next(h, now);
}

void host_think_stop(host *h)
{
    host__think_free(h->think);
    h->think = NULL;
}

int host_think_async(host *h, void (*wake)(void *arg), void *arg)
{
    if (h->think != NULL)
        return 0;
    return host__think_new(&h->think, wake, arg);
}
