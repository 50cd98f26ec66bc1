/*
 * hctx.h — the host's inside, as every host file sees it: what a command
 * file may do with the context of one call (ctx, hhost.h): reply, say to
 * a room or a player, note a game event, check who may do what. Every
 * function of the inside is the host's own and carries host__ (host.h's
 * host_ is the adapters'), then its part's word: none for the call
 * (ctx.c), seating and acting (seats.c, act.c); game_, settings_, live_,
 * recent_ (hgame.h); absent_, robot_, prompt_ (hseats.h); timers_, clock_,
 * flood_ (hclock.h); room_, room_map_, lang_map_ (hrooms.h); prefs_,
 * link_ (hprefs.h); fair_, web_, learn_, think_ and verb_ for the command
 * files' handlers (hverbs.h). The core (the folder bot/host) owns
 * seating, acting, announcing and stopping; a command file (bot/host/cmd)
 * includes these headers only and never calls another command file. Not
 * used by adapters: host.h is theirs.
 */
#ifndef PZ_HCTX_H
#define PZ_HCTX_H

#ifndef PZ_INSIDE_HOST
#error "hctx.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "hhost.h"
#include "i18n.h"

#if defined(__GNUC__)
#define HC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HC_PRINTF(f, a)
#endif

/* What the host checks before a verb's handler runs: the FLAGS of the
   command table (verbs.def), which says what each means. */
enum {
    V_READS = 1 << 0,   /* only reads: a read-only transaction, volatile replies */
    V_GAME = 1 << 1,    /* needs the room's game */
    V_LOBBY = 1 << 2,   /* only while the game is an open table */
    V_SEATED = 1 << 3,  /* the sender is seated, or manages the table */
    V_MANAGER = 1 << 4, /* the sender manages the table (host__may_manage) */
    V_OWNER = 1 << 5,   /* the bot's owners only */
    V_PRIVATE = 1 << 6  /* a person's own setting: answered privately */
};

/* Replies to the sender: in the room ("nick: ...") or privately; always
   privately for a V_PRIVATE verb (the dispatch tells the room so). */
void host__reply(ctx *c, const char *fmt, ...) HC_PRINTF(2, 3);
/* Queues a line to a room. */
void host__say_room(ctx *c, const char *room, const char *fmt, ...) HC_PRINTF(3, 4);
/* Queues a line to a room with the hands' priority, so that it is read
   before the hands queued after it (a seat taken as the cards are dealt). */
void host__say_room_first(ctx *c, const char *room, const char *fmt, ...) HC_PRINTF(3, 4);
/* Queues a private line to a player; hands go first (priority 1). */
void host__say_private(ctx *c, const char *player, int priority, const char *fmt, ...)
    HC_PRINTF(4, 5);
/* Notes a game event of the loaded game for the operator's log: "game #ID
   (NETWORK ROOM) " and the formatted text; logged by host__events_flush()
   once the call's transaction is committed, forgotten if rolled back. */
void host__event(ctx *c, const char *fmt, ...) HC_PRINTF(2, 3);
/* Hands the call's game events to host_config.log_event, and forgets them. */
void host__events_flush(ctx *c);
/* Writes how to get the loaded game's record, for the operator's log (an
   owner's word, not a player's): "its record: porrazo-bot --export 12 or
   !export 12 (owners)". */
void host__record_hint(const ctx *c, char *buf, size_t cap);
/* Marks the call failed after a store error (rolled back later). */
void host__failed(ctx *c, int err);
/* The send queue of network's adapter (host_config.outq_of), or NULL. */
outq *host__queue_of(const host *h, const char *network);

/* What to write before a command a reply suggests: the prefix when the
   line came in a room ("say !join"), "" in private. */
const char *host__prompt_prefix(const ctx *c);
/* The command prefix of the room the call is about: the room the line
   came in, else the loaded game's, else the bot's (the room's own when it
   set one). Unlike host__prompt_prefix, never "". */
const char *host__prefix(const ctx *c);

/* True for owners (config). */
bool host__is_owner(const ctx *c, const char *player);
/* Whether player is a computer player's id ("bot:LEVEL#N", robots.c). */
#define ROBOT_ID "bot:"
bool host__is_robot(const char *player);
/* Whether the loaded game is an open table; else the sender is told. */
bool host__in_lobby(ctx *c);
/* Whether the sender may manage the table (creator, room moderator,
   owner); else told. */
bool host__may_manage(ctx *c);

#endif /* PZ_HCTX_H */
