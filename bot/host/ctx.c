/*
 * ctx.c — the context of one call, as command files see it: replies and
 * lines queued to rooms and players (in the store's outbox, or as
 * volatile messages of the adapter's queue for a command that only
 * reads), game events for the operator's log, the prefix a reply writes
 * before a command, and the permission checks (owner, manager of the
 * table, an open table). Prefix host__.
 *
 * Not here: the game of a room (game.c), seating and acting (seats.c,
 * act.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hctx.h"
#include "hrooms.h"
#include "hseats.h"
#include "i18n.h"
#include "text.h"

/*
 * Formats into buf in the reader's language: fmt is looked up in lang's
 * catalogue (a caller's English _() or N_() text then reads in lang even
 * when the call writes in another; a text already translated is not a
 * msgid and stays as it is). A line cut by the cap stays valid UTF-8.
 */
static void vformat_in(pz_lang lang, char *buf, size_t cap, const char *fmt, va_list ap)
{
    int n;
    {
        I18N_SCOPE(lang);
        n = vsnprintf(buf, cap, i18n_text(fmt), ap);
    }
    if (n < 0) {
        buf[0] = '\0';
        return;
    }
    if ((size_t)n >= cap) /* cut: drop a partial UTF-8 sequence at the end */
        text_utf8_cut(buf, strlen(buf));
}

/* The send queue of network's adapter (host_config.outq_of), or NULL. */
outq *host__queue_of(const host *h, const char *network)
{
    return h->cfg.outq_of != NULL ? h->cfg.outq_of(h->cfg.outq_arg, network) : NULL;
}

/* Marks the call failed after a store error. */
void host__failed(ctx *c, int err)
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
            host__failed(c, rc);
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
        /* A host__reply (not an announcement): not to a target already behind. */
        int waiting = 0;
        int err = store_outbox_target_count(c->h->st, c->network, target, c->h->cfg.backlog_max,
                                            &waiting);
        if (err != 0) {
            host__failed(c, err);
            return;
        }
        if (waiting >= c->h->cfg.backlog_max)
            return;
    }
    int err = store_outbox_add(c->h->st, c->network, target, kind, priority, text, c->now, NULL);
    if (err != 0)
        host__failed(c, err);
}

/* The language of room's lines on the call's network. */
static pz_lang room_lang(const ctx *c, const char *room)
{
    return host_room_lang(c->h, c->network, room);
}

/* The language of player's private lines: theirs, else the room's the
   call is about. */
static pz_lang player_lang(const ctx *c, const char *player)
{
    const char *room = c->have_game ? c->row.room : c->m != NULL ? c->m->room : NULL;
    return host_player_lang(c->h, c->network, player, room);
}

void host__say_room(ctx *c, const char *room, const char *fmt, ...)
{
    char text[1000];
    va_list ap;
    va_start(ap, fmt);
    vformat_in(room_lang(c, room), text, sizeof text, fmt, ap);
    va_end(ap);
    queue(c, room, STORE_MSG_ROOM, 0, text);
}

void host__say_room_first(ctx *c, const char *room, const char *fmt, ...)
{
    char text[1000];
    va_list ap;
    va_start(ap, fmt);
    vformat_in(room_lang(c, room), text, sizeof text, fmt, ap);
    va_end(ap);
    queue(c, room, STORE_MSG_ROOM, 1, text);
}

void host__event(ctx *c, const char *fmt, ...)
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
    vformat_in(PZ_LANG_EN, line + n, CTX_EVENT_LEN - (size_t)n, fmt, ap); /* the operator's */
    va_end(ap);
}

void host__events_flush(ctx *c)
{
    for (int i = 0; i < c->nevents; i++)
        c->h->cfg.log_event(c->h->cfg.log_arg, c->events[i]);
    c->nevents = 0;
}

void host__record_hint(const ctx *c, char *buf, size_t cap)
{
    long long id = (long long)c->row.id;
    if (snprintf(buf, cap, "its record: porrazo-bot --export %lld or %sexport %lld (owners)", id,
                 host__prefix(c), id) >= (int)cap)
        snprintf(buf, cap, "its record: porrazo-bot --export %lld", id);
}

void host__say_private(ctx *c, const char *player, int priority, const char *fmt, ...)
{
    if (host__is_robot(player))
        return; /* a computer player reads the game, not chat */
    char text[1000];
    va_list ap;
    va_start(ap, fmt);
    vformat_in(player_lang(c, player), text, sizeof text, fmt, ap);
    va_end(ap);
    queue(c, player, STORE_MSG_PRIVATE, priority, text);
}

void host__reply(ctx *c, const char *fmt, ...)
{
    if (c->m == NULL)
        return;
    char text[900];
    va_list ap;
    va_start(ap, fmt);
    vformat_in(host__lang(c), text, sizeof text, fmt, ap);
    va_end(ap);
    c->bounded = true;
    if (c->m->room != NULL && c->m->room[0] != '\0' && !c->personal)
        host__say_room(c, c->m->room, "%s: %s", c->m->nick, text);
    else
        host__say_private(c, c->m->sender, 0, "%s", text);
    c->bounded = false;
}

bool host__is_owner(const ctx *c, const char *player)
{
    return c->h->cfg.is_owner != NULL &&
           c->h->cfg.is_owner(c->h->cfg.owner_arg, c->network, player);
}

/* The prefix to write before a command a reply suggests: the room's in a
   room, none in private (where none is needed). */
const char *host__prompt_prefix(const ctx *c)
{
    return c->m != NULL && c->m->room != NULL && c->m->room[0] != '\0'
               ? host_room_prefix(c->h, c->network, c->m->room)
               : "";
}

const char *host__prefix(const ctx *c)
{
    const char *room = c->m != NULL && c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : c->have_game                                              ? c->row.room
                                                                                   : NULL;
    return host_room_prefix(c->h, c->network, room);
}

bool host__in_lobby(ctx *c)
{
    if (c->row.status == STORE_LOBBY)
        return true;
    host__reply(c, N_("the game in %s has started already"), c->row.room);
    return false;
}

/* The creator, a room moderator or an owner may manage the table. */
bool host__may_manage(ctx *c)
{
    if (strcmp(c->row.creator, c->m->sender) == 0 || c->m->moderator ||
        host__is_owner(c, c->m->sender))
        return true;
    host__reply(c, N_("only the table's creator can do that"));
    return false;
}

bool host__is_robot(const char *player)
{
    return strncmp(player, ROBOT_ID, strlen(ROBOT_ID)) == 0;
}
