/*
 * irc_bridge.h — libircclient as the IRC adapter's event dispatcher.
 *
 * Debian's libircclient 1.9 has no TLS, no CAP, blocking DNS, a 1 KiB
 * output buffer and its own PONG, NICK/USER and CTCP answers. So it does
 * not talk to the server: irc_wire does. The bridge connects a libircclient
 * session to a listening socket of our own on 127.0.0.1, hands it the
 * server lines the adapter chooses (re-serialized without message tags,
 * checked and cut to 510 bytes, so the library's parser never sees a line
 * it would misread), lets it dispatch them to its event callbacks at once,
 * and turns those into irc_bridge_event for the adapter. Whatever the
 * library writes back (its NICK/USER, PONG, CTCP replies) is read and
 * thrown away: every line to the server comes from the adapter, through
 * irc_wire, in order.
 *
 * Delivery is synchronous: irc_bridge_deliver returns after the library
 * has dispatched the line, so the adapter sees events in the order of the
 * server's lines, interleaved correctly with irc_proto's view of them.
 * Not here: sockets to the server, registration, sending.
 */
#ifndef PZ_IRC_BRIDGE_H
#define PZ_IRC_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "irc_proto.h"

#define IRC_BRIDGE_PARAMS_MAX 10 /* parameters libircclient keeps (its MAX_PARAMS_ALLOWED) */
#define IRC_BRIDGE_LINE_MAX 510  /* longest line handed to the library, CR LF excluded */

/* What happened, as libircclient classified it. */
typedef enum irc_bridge_kind {
    IRC_BRIDGE_MESSAGE = 1, /* PRIVMSG: params[0] target, params[1] text */
    IRC_BRIDGE_NOTICE,      /* NOTICE: params[0] target, params[1] text */
    IRC_BRIDGE_CTCP,        /* CTCP request in a PRIVMSG: params[0] "VERSION ..." */
    IRC_BRIDGE_ACTION,      /* /me: params[0] target, params[1] text */
    IRC_BRIDGE_JOIN,        /* params[0] channel */
    IRC_BRIDGE_PART,        /* params[0] channel */
    IRC_BRIDGE_KICK,        /* params[0] channel, params[1] nick kicked */
    IRC_BRIDGE_QUIT,        /* params[0] reason, if any */
    IRC_BRIDGE_NICK,        /* params[0] new nick */
    IRC_BRIDGE_INVITE,      /* params[0] invited nick, params[1] channel */
    IRC_BRIDGE_NUMERIC,     /* code; params as sent */
    IRC_BRIDGE_OTHER        /* anything else: command in name */
} irc_bridge_kind;

typedef struct irc_bridge_event {
    irc_bridge_kind kind;
    unsigned code;            /* IRC_BRIDGE_NUMERIC: the 3-digit code */
    const char *name;         /* the library's event name ("PRIVMSG", "CHANNEL", "NICK") */
    const char *origin;       /* "nick!user@host", a server name, or "" */
    char nick[IRCP_NICK_MAX]; /* origin up to '!' (cut to fit) */
    const char *params[IRC_BRIDGE_PARAMS_MAX];
    unsigned count;
} irc_bridge_event;

typedef void (*irc_bridge_fn)(void *arg, const irc_bridge_event *ev);

typedef struct irc_bridge irc_bridge;

/*
 * Opens a listener on 127.0.0.1 (an ephemeral port), a libircclient session
 * connected to it, and waits (up to about a second) for the library to be
 * connected. Returns 0 with *out, or -1 with why.
 */
int irc_bridge_new(irc_bridge **out, irc_bridge_fn fn, void *arg, char *why, size_t why_len);

/* Destroys the session and closes both sockets. NULL is fine. */
void irc_bridge_free(irc_bridge *b);

/*
 * Serializes m without tags (cut at a UTF-8 boundary to
 * IRC_BRIDGE_LINE_MAX bytes), hands it to the library and lets it dispatch
 * before returning; fn runs zero or more times meanwhile. Lines the
 * library would mishandle are not delivered: PRIVMSG or NOTICE without a
 * non-empty text, CTCP DCC requests, lines without a command. Returns 1
 * when the line was delivered, 0 when it was skipped, -1 when the
 * library's connection broke (call irc_bridge_reset).
 */
int irc_bridge_deliver(irc_bridge *b, const ircp_msg *m);

/* Recreates the session after a failure. 0, or -1 with why. */
int irc_bridge_reset(irc_bridge *b, char *why, size_t why_len);

/* Bytes the library wrote and the bridge discarded (its own answers). */
size_t irc_bridge_discarded(const irc_bridge *b);

#endif /* PZ_IRC_BRIDGE_H */
