/*
 * irc_event.c — a parsed server line classified into the adapter's event
 * (see irc_event.h for the classes and their edge cases). Pure: no I/O, no
 * allocation; the event's strings point into the parse or the event.
 */
#include "irc_event.h"

#include <string.h>
#include <strings.h>

#include "text.h"

/* Appends s to buf at *len when it fits in IRC_EV_LINE_MAX; false otherwise. */
static bool put(char *buf, size_t *len, const char *sep, const char *s)
{
    size_t a = strlen(sep), b = strlen(s);
    if (a + b > IRC_EV_LINE_MAX - *len)
        return false;
    memcpy(buf + *len, sep, a);
    memcpy(buf + *len + a, s, b);
    *len += a + b;
    buf[*len] = '\0';
    return true;
}

/*
 * Writes the origin and nick of m into ev and returns how many bytes the
 * prefix and command take of the line (":origin " and the command), or
 * IRC_EV_LINE_MAX + 1 when they do not fit in it.
 */
static size_t set_origin(const ircp_msg *m, irc_ev *ev)
{
    size_t len = 0, nick = strlen(m->nick);
    ev->origin_buf[0] = '\0';
    ev->origin = ev->origin_buf;
    if (nick >= sizeof ev->nick)
        nick = sizeof ev->nick - 1;
    memcpy(ev->nick, m->nick, nick);
    ev->nick[nick] = '\0';
    if (m->nick[0] == '\0')
        return strlen(m->command);
    if (!put(ev->origin_buf, &len, "", m->nick) ||
        (m->user[0] != '\0' && !put(ev->origin_buf, &len, "!", m->user)) ||
        (m->host[0] != '\0' && !put(ev->origin_buf, &len, "@", m->host)))
        return IRC_EV_LINE_MAX + 1;
    return 1 + len + 1 + strlen(m->command); /* ':', the origin, ' ' */
}

/*
 * Sets ev's parameters from m's, as they read within the line's first
 * IRC_EV_LINE_MAX bytes when used already precede them: the parameter
 * crossing that end is cut at a character boundary (into ev->cut) and the
 * later ones dropped, as are any after IRC_EV_PARAMS_MAX.
 */
static void set_params(const ircp_msg *m, irc_ev *ev, size_t used)
{
    ev->count = 0;
    for (int i = 0; i < m->nparams && ev->count < IRC_EV_PARAMS_MAX; i++) {
        const char *p = ircp_param(m, i);
        size_t n = strlen(p);
        bool last = i == m->nparams - 1;
        size_t sep = last && (m->trailing || n == 0 || p[0] == ':' || strchr(p, ' ')) ? 2 : 1;
        if (used + sep > IRC_EV_LINE_MAX)
            return;
        used += sep;
        if (n <= IRC_EV_LINE_MAX - used) {
            ev->params[ev->count++] = p;
            used += n;
            continue;
        }
        size_t room = IRC_EV_LINE_MAX - used;
        memcpy(ev->cut, p, room);
        ev->cut[room] = '\0';
        if (text_utf8_cut(ev->cut, room) > 0) /* else not one character of it fits */
            ev->params[ev->count++] = ev->cut;
        return;
    }
}

/*
 * The body of the CTCP text, or NULL when text is no CTCP: it begins and
 * ends with \x01 (a lone \x01 included: an empty body). The body is copied
 * into ev->ctcp, cut at a character boundary to cap bytes.
 */
static const char *ctcp_body(const char *text, irc_ev *ev, size_t cap)
{
    size_t n = strlen(text);
    if (n == 0 || text[0] != '\x01' || text[n - 1] != '\x01')
        return NULL;
    n = n >= 2 ? n - 2 : 0;
    if (n > cap)
        n = cap;
    memcpy(ev->ctcp, text + 1, n);
    ev->ctcp[n] = '\0';
    text_utf8_cut(ev->ctcp, n);
    return ev->ctcp;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* PRIVMSG and NOTICE (params[0] a target, params[1] a text, both set). */
static irc_ev_kind classify_text(irc_ev *ev, bool privmsg)
{
    const char *text = ev->params[1];
    if (privmsg && text[0] == '\x01' && strncasecmp(text + 1, "DCC", 3) == 0)
        return IRC_EV_NONE;
    const char *body = ctcp_body(text, ev, privmsg ? IRC_EV_CTCP_MAX : IRC_EV_LINE_MAX);
    if (body == NULL)
        return privmsg ? IRC_EV_MESSAGE : IRC_EV_NOTICE;
    if (!privmsg) {
        ev->params[0] = body;
        ev->count = 1;
        return IRC_EV_CTCP_REPLY;
    }
    if (strncasecmp(body, "ACTION ", 7) == 0) {
        ev->params[1] = body + 7;
        ev->count = 2;
        return IRC_EV_ACTION;
    }
    ev->params[0] = body;
    ev->count = 1;
    return IRC_EV_CTCP;
}

irc_ev_kind irc_ev_classify(const ircp_msg *m, irc_ev *ev)
{
    static const struct {
        const char *command;
        irc_ev_kind kind;
    } named[] = {{"JOIN", IRC_EV_JOIN}, {"PART", IRC_EV_PART}, {"KICK", IRC_EV_KICK},
                 {"QUIT", IRC_EV_QUIT}, {"NICK", IRC_EV_NICK}, {"INVITE", IRC_EV_INVITE}};
    const char *c = m->command;
    memset(ev->params, 0, sizeof ev->params);
    ev->kind = IRC_EV_NONE;
    ev->code = 0;
    ev->name = c;
    ev->count = 0;
    size_t used = set_origin(m, ev);
    if (c[0] == '\0' || used > IRC_EV_LINE_MAX)
        return ev->kind;
    set_params(m, ev, used);
    bool privmsg = strcmp(c, "PRIVMSG") == 0;
    if (is_digit(c[0]) && is_digit(c[1]) && is_digit(c[2]) && c[3] == '\0') {
        ev->code = (unsigned)((c[0] - '0') * 100 + (c[1] - '0') * 10 + (c[2] - '0'));
        ev->kind = IRC_EV_NUMERIC;
    } else if (privmsg || strcmp(c, "NOTICE") == 0) {
        if (ev->count >= 2 && ev->params[0][0] != '\0' && ev->params[1][0] != '\0')
            ev->kind = classify_text(ev, privmsg);
    } else {
        ev->kind = IRC_EV_OTHER;
        for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
            if (strcmp(c, named[i].command) == 0)
                ev->kind = named[i].kind;
    }
    if (ev->kind == IRC_EV_NONE)
        ev->count = 0;
    for (unsigned i = ev->count; i < IRC_EV_PARAMS_MAX; i++)
        ev->params[i] = NULL;
    return ev->kind;
}

const char *irc_ev_kind_name(irc_ev_kind kind)
{
    static const char *const names[] = {"NONE",   "MESSAGE", "NOTICE",  "CTCP", "CTCP_REPLY",
                                        "ACTION", "JOIN",    "PART",    "KICK", "QUIT",
                                        "NICK",   "INVITE",  "NUMERIC", "OTHER"};
    if ((unsigned)kind >= sizeof names / sizeof names[0])
        return "?";
    return names[kind];
}
