/*
 * irc_bridge.c — libircclient on a loopback socket as the adapter's event
 * dispatcher (see irc_bridge.h).
 *
 * The library connects to a listener of ours on 127.0.0.1; we accept, and
 * from then on "peer" is our end of that connection. A line handed to the
 * library is written to peer, and the library is driven with
 * irc_process_select_descriptors until it has read it: on loopback a small
 * write is in the receiving socket as soon as write() returns, and a poll
 * with a deadline covers the rare case it is not. The library's callbacks
 * fill an irc_bridge_event and call the adapter. What the library writes
 * is read from peer and discarded.
 */
#include "irc_bridge.h"

#include <errno.h>
#include <libircclient.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "text.h"

#define WAIT_MS 1000 /* how long the library may take to see a loopback write */

struct irc_bridge {
    irc_bridge_fn fn;
    void *arg;
    int listener;
    int peer;
    unsigned short port;
    irc_session_t *session;
    size_t discarded;
    bool broken;
};

/* Writes "what: strerror" into why. */
static void fail(char *why, size_t why_len, const char *what)
{
    if (why_len > 0 && snprintf(why, why_len, "IRC bridge: %s: %s", what, strerror(errno)) < 0)
        why[0] = '\0';
}

/* Reads and drops whatever the library wrote; false on end of file or error. */
static bool drain_peer(irc_bridge *b)
{
    char buf[2048];
    for (;;) {
        ssize_t n = recv(b->peer, buf, sizeof buf, MSG_DONTWAIT);
        if (n > 0) {
            b->discarded += (size_t)n;
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (n < 0 && errno == EINTR)
            continue;
        return false; /* 0: the library closed its socket; <0: an error */
    }
}

/*
 * Lets the library do what its socket allows now, after waiting up to
 * WAIT_MS for it to become readable when wait_read is set. false when the
 * library reports its connection broken.
 */
static bool drive(irc_bridge *b, bool wait_read)
{
    fd_set rd, wr;
    FD_ZERO(&rd);
    FD_ZERO(&wr);
    int maxfd = 0;
    if (irc_add_select_descriptors(b->session, &rd, &wr, &maxfd) != 0)
        return false;
    if (maxfd >= FD_SETSIZE)
        return false;
    int sock = maxfd;
    if (wait_read && FD_ISSET(sock, &rd)) {
        struct pollfd p = {sock, POLLIN, 0};
        int r;
        do
            r = poll(&p, 1, WAIT_MS);
        while (r < 0 && errno == EINTR);
    }
    struct timeval zero = {0, 0};
    int r = select(maxfd + 1, &rd, &wr, NULL, &zero);
    if (r < 0 && errno != EINTR)
        return false;
    if (r <= 0) {
        FD_ZERO(&rd);
        FD_ZERO(&wr);
    }
    if (irc_process_select_descriptors(b->session, &rd, &wr) != 0)
        return false;
    return drain_peer(b);
}

/* Fills ev from a library callback and hands it to the adapter. */
static void emit(irc_session_t *s, irc_bridge_kind kind, unsigned code, const char *name,
                 const char *origin, const char **params, unsigned count)
{
    irc_bridge *b = irc_get_ctx(s);
    if (b == NULL)
        return;
    irc_bridge_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.code = code;
    ev.name = name != NULL ? name : "";
    ev.origin = origin != NULL ? origin : "";
    size_t n = strcspn(ev.origin, "!@");
    if (n >= sizeof ev.nick)
        n = sizeof ev.nick - 1;
    memcpy(ev.nick, ev.origin, n);
    ev.nick[n] = '\0';
    if (count > IRC_BRIDGE_PARAMS_MAX)
        count = IRC_BRIDGE_PARAMS_MAX;
    for (unsigned i = 0; i < count; i++)
        ev.params[i] = params[i] != NULL ? params[i] : "";
    ev.count = count;
    b->fn(b->arg, &ev);
}

#define BRIDGE_CB(fname, kind)                                                                     \
    static void fname(irc_session_t *s, const char *event, const char *origin,                     \
                      const char **params, unsigned count)                                         \
    {                                                                                              \
        emit(s, kind, 0, event, origin, params, count);                                            \
    }

BRIDGE_CB(on_message, IRC_BRIDGE_MESSAGE)
BRIDGE_CB(on_notice, IRC_BRIDGE_NOTICE)
BRIDGE_CB(on_ctcp, IRC_BRIDGE_CTCP)
BRIDGE_CB(on_action, IRC_BRIDGE_ACTION)
BRIDGE_CB(on_join, IRC_BRIDGE_JOIN)
BRIDGE_CB(on_part, IRC_BRIDGE_PART)
BRIDGE_CB(on_kick, IRC_BRIDGE_KICK)
BRIDGE_CB(on_quit, IRC_BRIDGE_QUIT)
BRIDGE_CB(on_nick, IRC_BRIDGE_NICK)
BRIDGE_CB(on_invite, IRC_BRIDGE_INVITE)
BRIDGE_CB(on_other, IRC_BRIDGE_OTHER)

/* The library's replies to CTCP replies, MODE, TOPIC: ignored. */
static void on_ignored(irc_session_t *s, const char *event, const char *origin, const char **params,
                       unsigned count)
{
    (void)s, (void)event, (void)origin, (void)params, (void)count;
}

static void on_numeric(irc_session_t *s, unsigned code, const char *origin, const char **params,
                       unsigned count)
{
    emit(s, IRC_BRIDGE_NUMERIC, code, "NUMERIC", origin, params, count);
}

/* Makes the session and connects it to the listener; 0 or -1 with why. */
static int open_session(irc_bridge *b, char *why, size_t why_len)
{
    irc_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.event_channel = on_message;
    cb.event_privmsg = on_message;
    cb.event_notice = on_notice;
    cb.event_channel_notice = on_notice;
    cb.event_ctcp_req = on_ctcp; /* replaces the library's own CTCP answers */
    cb.event_ctcp_rep = on_ignored;
    cb.event_ctcp_action = on_action;
    cb.event_join = on_join;
    cb.event_part = on_part;
    cb.event_kick = on_kick;
    cb.event_quit = on_quit;
    cb.event_nick = on_nick;
    cb.event_invite = on_invite;
    cb.event_mode = on_other; /* channel modes: +c turns colours off */
    cb.event_umode = on_ignored;
    cb.event_topic = on_ignored;
    cb.event_connect = on_ignored;
    cb.event_unknown = on_other;
    cb.event_numeric = on_numeric;
    b->session = irc_create_session(&cb);
    if (b->session == NULL) {
        snprintf(why, why_len, "IRC bridge: libircclient could not make a session");
        return -1;
    }
    irc_set_ctx(b->session, b);
    if (irc_connect(b->session, "127.0.0.1", b->port, NULL, "porrazo", "porrazo", "bridge") != 0) {
        snprintf(why, why_len, "IRC bridge: libircclient could not connect to 127.0.0.1: %s",
                 irc_strerror(irc_errno(b->session)));
        return -1;
    }
    struct pollfd p = {b->listener, POLLIN, 0};
    int r;
    do
        r = poll(&p, 1, WAIT_MS);
    while (r < 0 && errno == EINTR);
    if (r <= 0) {
        snprintf(why, why_len, "IRC bridge: libircclient did not connect to the loopback listener");
        return -1;
    }
    b->peer = accept4(b->listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (b->peer < 0) {
        fail(why, why_len, "accept");
        return -1;
    }
    int one = 1;
    (void)setsockopt(b->peer, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    /* First turn: the connect completes and the library queues NICK/USER;
       second: it writes them (to be discarded). */
    if (!drive(b, false) || !drive(b, false)) {
        snprintf(why, why_len, "IRC bridge: libircclient failed to start: %s",
                 irc_strerror(irc_errno(b->session)));
        return -1;
    }
    return 0;
}

/* Closes the session and our end of its connection. */
static void close_session(irc_bridge *b)
{
    if (b->session != NULL) {
        irc_set_ctx(b->session, NULL);
        irc_destroy_session(b->session);
        b->session = NULL;
    }
    if (b->peer >= 0)
        close(b->peer);
    b->peer = -1;
}

int irc_bridge_new(irc_bridge **out, irc_bridge_fn fn, void *arg, char *why, size_t why_len)
{
    irc_bridge *b = calloc(1, sizeof *b);
    if (b == NULL || fn == NULL) {
        free(b);
        snprintf(why, why_len, "IRC bridge: out of memory");
        return -1;
    }
    b->fn = fn;
    b->arg = arg;
    b->peer = -1;
    b->listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    if (b->listener < 0 || bind(b->listener, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(b->listener, 1) != 0 ||
        getsockname(b->listener, (struct sockaddr *)&a, &alen) != 0) {
        fail(why, why_len, "loopback listener");
        irc_bridge_free(b);
        return -1;
    }
    b->port = ntohs(a.sin_port);
    if (open_session(b, why, why_len) != 0) {
        irc_bridge_free(b);
        return -1;
    }
    *out = b;
    return 0;
}

void irc_bridge_free(irc_bridge *b)
{
    if (b == NULL)
        return;
    close_session(b);
    if (b->listener >= 0)
        close(b->listener);
    free(b);
}

int irc_bridge_reset(irc_bridge *b, char *why, size_t why_len)
{
    close_session(b);
    b->broken = false;
    if (open_session(b, why, why_len) != 0) {
        close_session(b);
        b->broken = true;
        return -1;
    }
    return 0;
}

size_t irc_bridge_discarded(const irc_bridge *b)
{
    return b->discarded;
}

/* Appends s to buf at *len within IRC_BRIDGE_LINE_MAX; false when cut. */
static bool put(char *buf, size_t *len, const char *s)
{
    size_t n = strlen(s), room = IRC_BRIDGE_LINE_MAX - *len;
    bool whole = n <= room;
    if (!whole)
        n = room;
    memcpy(buf + *len, s, n);
    *len += n;
    buf[*len] = '\0';
    return whole;
}

/* Whether the library would mishandle m; such lines are not delivered. */
static bool unsafe_for_library(const ircp_msg *m)
{
    if (m->command[0] == '\0')
        return true;
    bool privmsg = strcmp(m->command, "PRIVMSG") == 0;
    if (privmsg || strcmp(m->command, "NOTICE") == 0) {
        const char *text = ircp_param(m, 1);
        if (m->nparams < 2 || text[0] == '\0' || ircp_param(m, 0)[0] == '\0')
            return true;
        if (privmsg && text[0] == '\x01' && strncasecmp(text + 1, "DCC", 3) == 0)
            return true; /* the library would start its DCC machinery */
    }
    return false;
}

/* Serializes m as a line without tags, at most IRC_BRIDGE_LINE_MAX bytes. */
static size_t serialize(const ircp_msg *m, char *buf)
{
    size_t len = 0;
    buf[0] = '\0';
    if (m->nick[0] != '\0') {
        put(buf, &len, ":");
        put(buf, &len, m->nick);
        if (m->user[0] != '\0') {
            put(buf, &len, "!");
            put(buf, &len, m->user);
        }
        if (m->host[0] != '\0') {
            put(buf, &len, "@");
            put(buf, &len, m->host);
        }
        put(buf, &len, " ");
    }
    put(buf, &len, m->command);
    for (int i = 0; i < m->nparams; i++) {
        const char *p = ircp_param(m, i);
        bool last = i == m->nparams - 1;
        bool colon = last && (m->trailing || p[0] == '\0' || p[0] == ':' || strchr(p, ' '));
        put(buf, &len, colon ? " :" : " ");
        if (!put(buf, &len, p))
            return text_utf8_cut(buf, len);
    }
    return len;
}

int irc_bridge_deliver(irc_bridge *b, const ircp_msg *m)
{
    if (b->broken || b->session == NULL)
        return -1;
    if (unsafe_for_library(m))
        return 0;
    char line[IRC_BRIDGE_LINE_MAX + 3];
    size_t len = serialize(m, line);
    line[len++] = '\r';
    line[len++] = '\n';
    size_t off = 0;
    while (off < len) {
        ssize_t n = send(b->peer, line + off, len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* The library has not read what it was given: let it. */
            if (!drive(b, false))
                break;
            continue;
        }
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    /* Dispatch, then a second turn to let the library write (and us drop)
       what it answered. */
    if (off < len || !drive(b, true) || !drive(b, false)) {
        b->broken = true;
        return -1;
    }
    return 1;
}
