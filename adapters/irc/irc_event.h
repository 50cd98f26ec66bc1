/*
 * irc_event.h — what a parsed server line means to the IRC adapter: a
 * message, a CTCP request, a join, a numeric reply... as pure code, no I/O.
 *
 * irc_proto parses every line the server sends (ircp_msg); irc_ev_classify
 * turns that parse into the one event the adapter's handlers act on
 * (irc_chat.c), with no second parser. The classes and their edge cases
 * are libircclient 1.9's, whose callbacks the adapter was written against
 * (see its libirc_events.h), so the adapter behaves as it did when that
 * library dispatched the lines:
 *
 *  - PRIVMSG and NOTICE need a target and a non-empty text; otherwise the
 *    line is no event. A text that begins and ends with \x01 is CTCP: in a
 *    PRIVMSG a request (IRC_EV_CTCP, its body cut to IRC_EV_CTCP_MAX
 *    bytes), or /me when the body begins "ACTION " (IRC_EV_ACTION); in a
 *    NOTICE a reply (IRC_EV_CTCP_REPLY). A lone \x01 is a CTCP with an
 *    empty body. A PRIVMSG whose text begins "\x01DCC" (any case) is no
 *    event: the library kept those for its own DCC machinery.
 *  - At most IRC_EV_PARAMS_MAX parameters are kept, the later ones dropped.
 *  - Parameters are read within the first IRC_EV_LINE_MAX bytes of the
 *    line without its tags (RFC 1459's limit, which the library's buffer
 *    assumed): the parameter crossing it is cut at a UTF-8 character
 *    boundary and the later ones dropped; a line whose prefix and command
 *    do not fit is no event.
 *  - The origin is the prefix as sent ("nick!user@host", "nick@host", a
 *    server name) or "" without one; nick is the origin up to '!' or '@'.
 *  - A 3-digit command is IRC_EV_NUMERIC; JOIN, PART, KICK, QUIT, NICK and
 *    INVITE have kinds of their own; every other command (MODE, TOPIC,
 *    PING, KILL...) is IRC_EV_OTHER, named.
 *
 * Not here: what the adapter does with an event (irc_chat.c), parsing
 * (irc_proto), formatting codes (the host strips them).
 */
#ifndef PZ_IRC_EVENT_H
#define PZ_IRC_EVENT_H

#include "irc_proto.h"

#define IRC_EV_PARAMS_MAX 10 /* parameters kept (libircclient's MAX_PARAMS_ALLOWED) */
#define IRC_EV_LINE_MAX 510  /* bytes of a line read, tags and CR LF excluded */
#define IRC_EV_CTCP_MAX 127  /* bytes of a CTCP request's body kept (the library's buffer) */

typedef enum irc_ev_kind {
    IRC_EV_NONE = 0,   /* nothing for the handlers */
    IRC_EV_MESSAGE,    /* PRIVMSG: params[0] target, params[1] text */
    IRC_EV_NOTICE,     /* NOTICE: params[0] target, params[1] text */
    IRC_EV_CTCP,       /* CTCP request in a PRIVMSG: params[0] its body ("VERSION") */
    IRC_EV_CTCP_REPLY, /* CTCP in a NOTICE: params[0] its body */
    IRC_EV_ACTION,     /* /me: params[0] target, params[1] the text after "ACTION " */
    IRC_EV_JOIN,       /* params[0] channel */
    IRC_EV_PART,       /* params[0] channel, params[1] reason if any */
    IRC_EV_KICK,       /* params[0] channel, params[1] nick kicked, params[2] reason */
    IRC_EV_QUIT,       /* params[0] reason, if any */
    IRC_EV_NICK,       /* params[0] new nick */
    IRC_EV_INVITE,     /* params[0] invited nick, params[1] channel */
    IRC_EV_NUMERIC,    /* code; params as sent */
    IRC_EV_OTHER       /* anything else: the command in name */
} irc_ev_kind;

/*
 * One event. params, name and origin point into the ircp_msg classified
 * or into the event itself: valid while both are, unchanged.
 */
typedef struct irc_ev {
    irc_ev_kind kind;
    unsigned code;            /* IRC_EV_NUMERIC: the 3-digit code */
    const char *name;         /* the command as parsed ("PRIVMSG", "MODE", "352") */
    const char *origin;       /* "nick!user@host", a server name, or "" */
    char nick[IRCP_NICK_MAX]; /* origin up to '!' or '@' (cut to fit) */
    const char *params[IRC_EV_PARAMS_MAX];
    unsigned count;
    char origin_buf[IRC_EV_LINE_MAX + 1]; /* origin, rebuilt from the parse */
    char cut[IRC_EV_LINE_MAX + 1];        /* the parameter cut at the line's end */
    char ctcp[IRC_EV_LINE_MAX + 1];       /* a CTCP body without its \x01 */
} irc_ev;

/*
 * Classifies the parsed line m into *ev (every field written) and returns
 * ev->kind: IRC_EV_NONE when the line is nothing for the handlers (no
 * command, a PRIVMSG or NOTICE without target or text, a DCC request, a
 * prefix too long for the line). Never fails otherwise; any parse is safe.
 */
irc_ev_kind irc_ev_classify(const ircp_msg *m, irc_ev *ev);

/* The kind's name for logs and tests ("MESSAGE", "CTCP"...). Never NULL. */
const char *irc_ev_kind_name(irc_ev_kind kind);

#endif /* PZ_IRC_EVENT_H */
