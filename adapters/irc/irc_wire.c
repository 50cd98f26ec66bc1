/*
 * irc_wire.c — the connection half of irc_wire (see irc_wire.h): the state
 * machine idle → resolving → connecting → handshaking (TLS) → connected,
 * the resolver, the connect over every address, line framing and the
 * output buffer. TLS is in irc_wire_tls.c, behind irc_wire_int.h.
 *
 * The resolver is irc_wire_resolve.c (a worker thread per name, watched
 * through a pipe). Callbacks run only from the loop's callbacks (the
 * deadline and defer timers, the resolver's pipe and the socket), never
 * from an irc_wire_* call. Every teardown bumps a generation counter; code that has just run a
 * callback compares it and stops when the connection it served is gone.
 * Not here: what the lines say, pacing, the reconnect policy.
 */
#include "irc_wire_int.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define READ_BUDGET (256 * 1024) /* bytes read per socket event, at most */
#define SEND_LINE_MAX 510        /* a line sent, CR LF excluded (RFC 1459) */
static void teardown(irc_wire *w, bool notify);
static void on_io(loop_io *io, int fd, unsigned events, void *arg);

/* A human message for err, from IRC_WIRE_ERRNO_MAP (irc_wire.h). */
const char *irc_wire_strerror(int err)
{
    switch (err) {
    case IRC_WIRE_OK:
        return "ok";
#define IRC_WIRE_ERR_CASE_(name, val, msg)                                                         \
    case IRC_WIRE_E##name:                                                                         \
        return msg;
        IRC_WIRE_ERRNO_MAP(IRC_WIRE_ERR_CASE_)
#undef IRC_WIRE_ERR_CASE_
    }
    return "unknown error";
}

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */

/* Copies src into dst (size > 0 bytes), cut short if need be. */
static void str_copy(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Checked snprintf: a cut message ends in "...", an error leaves a fixed one. */
void wire_fmt(char *dst, size_t size, const char *fmt, ...)
{
    if (size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(dst, size, fmt, ap);
    va_end(ap);
    if (n < 0)
        str_copy(dst, size, "the connection failed (its message could not be written)");
    else if ((size_t)n >= size && size > 4)
        memcpy(dst + size - 4, "...", 4);
}

/* "ADDR port N" for sa into dst. */
static void format_addr(char *dst, size_t size, const struct sockaddr *sa)
{
    char ip[INET6_ADDRSTRLEN] = "an unknown address";
    int port = 0;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
        if (inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip) == NULL)
            str_copy(ip, sizeof ip, "?");
        port = ntohs(in->sin_port);
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
        if (inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof ip) == NULL)
            str_copy(ip, sizeof ip, "?");
        port = ntohs(in6->sin6_port);
    }
    wire_fmt(dst, size, "%s port %d", ip, port);
}

/* ------------------------------------------------------------------------ */
/* Callbacks and teardown                                                   */

/* Tears the connection down, then tells the adapter why (one sentence). */
static void fail(irc_wire *w, const char *why)
{
    char msg[IRC_WIRE_WHY_MAX];
    str_copy(msg, sizeof msg, why); /* why may be w->why, which the callback may reuse */
    teardown(w, false);
    if (w->cb.closed != NULL) {
        w->depth++;
        w->cb.closed(w->arg, msg);
        w->depth--;
    }
}

/* The socket's interest for the state: what the connection waits for. */
static void set_interest(irc_wire *w)
{
    unsigned ev = 0;
    if (w->state == WIRE_CONNECTING)
        ev = LOOP_WRITE;
    else if (w->state == WIRE_HANDSHAKE)
        ev = w->tls_want_write ? LOOP_WRITE : LOOP_READ;
    else if (w->state == WIRE_CONNECTED)
        ev = LOOP_READ | (w->out_len > w->out_head || w->tls_want_write ? LOOP_WRITE : 0u);
    if (loop_io_active(&w->io)) {
        int rc = loop_io_start(&w->io, ev); /* on an active handle: only the interest */
        assert(rc == 0);
        (void)rc;
    }
}

/* Stops watching and closes the socket, if any. */
static void close_socket(irc_wire *w)
{
    loop_io_stop(&w->io);
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
}

/*
 * Ends the connection whatever its state, without a callback: timers
 * stopped, TLS freed (a close_notify first when notify and connected),
 * socket closed, resolution given up, buffers emptied, generation bumped.
 */
static void teardown(irc_wire *w, bool notify)
{
    w->gen++;
    loop_timer_stop(&w->deadline);
    loop_timer_stop(&w->defer);
    if (w->ssl != NULL)
        wire_tls_stop(w, notify && w->state == WIRE_CONNECTED);
    close_socket(w);
    wire_resolve_stop(w);
    if (w->addrs != NULL)
        freeaddrinfo(w->addrs);
    w->addrs = w->next_addr = NULL;
    w->addr[0] = '\0';
    w->why_pending = false;
    w->tls_want_write = false;
    w->write_failed = false;
    w->in_len = 0;
    w->discarding = false;
    w->out_head = w->out_len = 0;
    w->state = WIRE_IDLE;
}

/* ------------------------------------------------------------------------ */
/* Reading: line framing                                                    */

/*
 * Delivers every whole line of w->in, drops over-long ones, and keeps the
 * unfinished rest at the front. Returns false when a line callback closed
 * the connection (the buffer belongs to the next one: hands off).
 */
static bool frame(irc_wire *w)
{
    uint64_t gen = w->gen;
    size_t start = 0;
    for (;;) {
        char *lf = memchr(w->in + start, '\n', w->in_len - start);
        if (lf == NULL)
            break;
        size_t end = (size_t)(lf - w->in);
        size_t len = end - start;
        if (len > 0 && w->in[end - 1] == '\r')
            len--;
        size_t next = end + 1;
        if (w->discarding) {
            w->discarding = false; /* the end of a line dropped already */
        } else if (len > IRC_WIRE_LINE_MAX) {
            w->dropped++;
        } else if (w->cb.line != NULL) {
            w->in[start + len] = '\0';
            w->depth++;
            w->cb.line(w->arg, w->in + start, len);
            w->depth--;
            if (w->gen != gen)
                return false;
        }
        start = next;
    }
    size_t rest = w->in_len - start;
    if (w->discarding) {
        rest = 0;
    } else if (rest > IRC_WIRE_LINE_MAX + 1) {
        /* Too long whatever follows (a CR at most is not counted). */
        w->dropped++;
        w->discarding = true;
        rest = 0;
    }
    memmove(w->in, w->in + start, rest);
    w->in_len = rest;
    return true;
}

/* recv() on the plain socket: bytes, 0 for nothing now, -1 with w->why. */
static long plain_recv(irc_wire *w, char *buf, size_t len)
{
    for (;;) {
        ssize_t n = recv(w->fd, buf, len, 0);
        if (n > 0)
            return (long)n;
        if (n == 0) {
            wire_fmt(w->why, sizeof w->why, "the server closed the connection");
            return -1;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return 0;
        wire_fmt(w->why, sizeof w->why, "lost the connection to %s: %s", w->addr, strerror(errno));
        return -1;
    }
}

/*
 * Reads what the socket (or OpenSSL) has, up to READ_BUDGET bytes, framing
 * as it goes. Returns false when the connection ended or was closed by a
 * callback. A TLS pass cut short by the budget resumes from the defer
 * timer: poll() cannot see bytes OpenSSL holds already.
 */
static bool read_pass(irc_wire *w)
{
    size_t budget = READ_BUDGET;
    while (budget > 0) {
        char *buf = w->in + w->in_len;
        size_t room = sizeof w->in - w->in_len; /* frame() leaves > 8 KiB */
        long n = w->tls ? wire_tls_recv(w, buf, room) : plain_recv(w, buf, room);
        if (n < 0) {
            fail(w, w->why);
            return false;
        }
        if (n == 0)
            return true;
        w->in_len += (size_t)n;
        budget -= (size_t)n < budget ? (size_t)n : budget;
        if (!frame(w))
            return false;
    }
    if (w->tls && wire_tls_pending(w))
        (void)loop_timer_start(&w->defer, 0, 0); /* if the table is full: at the next event */
    return true;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */

/* send() on the plain socket, never raising SIGPIPE: bytes, 0, or -1 with w->why. */
static long plain_send(irc_wire *w, const char *buf, size_t len)
{
    for (;;) {
        ssize_t n = send(w->fd, buf, len, MSG_NOSIGNAL);
        if (n >= 0)
            return (long)n;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return 0;
        wire_fmt(w->why, sizeof w->why, "lost the connection to %s: %s", w->addr, strerror(errno));
        return -1;
    }
}

/*
 * Hands the kernel (or OpenSSL) what it takes of the output, without any
 * callback. Returns 0 (all of it written, or the socket takes no more
 * now: the rest waits), or -1 with w->why when the connection failed.
 */
static int write_out(irc_wire *w)
{
    while (w->out_head < w->out_len) {
        const char *buf = w->out + w->out_head;
        size_t len = w->out_len - w->out_head;
        long n = w->tls ? wire_tls_send(w, buf, len) : plain_send(w, buf, len);
        if (n < 0)
            return -1;
        if (n == 0)
            return 0;
        w->out_head += (size_t)n;
    }
    w->out_head = w->out_len = 0;
    return 0;
}

/*
 * Hands the output to the socket from the loop. Returns 0, or -1 once the
 * connection failed (now or in an earlier irc_wire_write_now) and the
 * closed callback ran.
 */
static int flush(irc_wire *w)
{
    if (w->write_failed || write_out(w) != 0) {
        fail(w, w->why);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Connecting                                                               */

/*
 * The connection is up (and verified): stops the deadline, tells the
 * adapter, then reads what OpenSSL may hold already.
 */
static void connected(irc_wire *w)
{
    w->state = WIRE_CONNECTED;
    w->tls_want_write = false;
    loop_timer_stop(&w->deadline);
    set_interest(w);
    uint64_t gen = w->gen;
    if (w->cb.connected != NULL) {
        w->depth++;
        w->cb.connected(w->arg);
        w->depth--;
    }
    if (w->gen == gen && w->tls && read_pass(w))
        set_interest(w);
}

/* One step of the TLS handshake, then wait, fail or be connected. */
static void handshake(irc_wire *w)
{
    int rc = wire_tls_handshake(w);
    if (rc < 0)
        fail(w, w->why);
    else if (rc == 0)
        set_interest(w);
    else
        connected(w);
}

/* TCP is up on w->fd: TLS starts, or the connection is ready. */
static void tcp_up(irc_wire *w)
{
    if (!w->tls) {
        connected(w);
        return;
    }
    w->state = WIRE_HANDSHAKE;
    if (wire_tls_start(w) != 0) {
        fail(w, w->why);
        return;
    }
    handshake(w);
}

/* Remembers in w->why why connecting to w->addr failed with errno err. */
static void connect_error(irc_wire *w, int err)
{
    if (err == ECONNREFUSED)
        wire_fmt(w->why, sizeof w->why, "connection refused by %s", w->addr);
    else
        wire_fmt(w->why, sizeof w->why, "cannot connect to %s: %s", w->addr, strerror(err));
}

/*
 * Starts a non-blocking connect to the next address; when none is left,
 * fails with the last address's error. A connect that fails at once moves
 * on to the next address.
 */
static void try_next(irc_wire *w)
{
    while (w->next_addr != NULL) {
        const struct addrinfo *ai = w->next_addr;
        w->next_addr = ai->ai_next;
        format_addr(w->addr, sizeof w->addr, ai->ai_addr);
        int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            wire_fmt(w->why, sizeof w->why, "cannot open a socket for %s: %s", w->addr,
                     strerror(errno));
            continue;
        }
        int one = 1;
        (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* a nicety */
        int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
        if (rc != 0 && errno != EINPROGRESS && errno != EINTR) {
            connect_error(w, errno);
            close(fd);
            continue;
        }
        w->fd = fd;
        w->state = WIRE_CONNECTING;
        loop_io_init(w->loop, &w->io, fd, on_io, w);
        int lrc = loop_io_start(&w->io, LOOP_WRITE);
        if (lrc != 0) {
            char why[IRC_WIRE_WHY_MAX];
            wire_fmt(why, sizeof why, "cannot watch the socket for %s: %s", w->addr,
                     loop_strerror(lrc));
            fail(w, why);
            return;
        }
        if (rc == 0)
            tcp_up(w);
        return;
    }
    if (w->why[0] == '\0')
        wire_fmt(w->why, sizeof w->why, "cannot resolve %s: it has no address", w->host);
    fail(w, w->why);
}

/* The pending connect finished: up, or on to the next address. */
static void connect_done(irc_wire *w)
{
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(w->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
        err = errno;
    if (err == 0) {
        tcp_up(w);
        return;
    }
    connect_error(w, err);
    close_socket(w);
    try_next(w);
}

/* Traffic on a connected socket: output first, then input. */
static void traffic(irc_wire *w, unsigned events)
{
    uint64_t gen = w->gen;
    if ((w->write_failed || w->out_len > w->out_head) && flush(w) != 0)
        return;
    /* OpenSSL may need a read to finish a write, and poll cannot see its buffers. */
    if ((w->tls || (events & (LOOP_READ | LOOP_ERROR)) != 0) && !read_pass(w))
        return;
    if (w->gen == gen)
        set_interest(w);
}

/* The socket is ready: what that means depends on the state. */
static void on_io(loop_io *io, int fd, unsigned events, void *arg)
{
    (void)io;
    (void)fd;
    irc_wire *w = arg;
    if (w->state == WIRE_CONNECTING)
        connect_done(w);
    else if (w->state == WIRE_HANDSHAKE)
        handshake(w);
    else if (w->state == WIRE_CONNECTED)
        traffic(w, events);
}

/* Connecting starts from the addresses in w->addrs. */
static void start_connecting(irc_wire *w)
{
    w->state = WIRE_CONNECTING;
    w->next_addr = w->addrs;
    try_next(w);
}

/*
 * Work deferred to the loop: the first step of a connect (a literal's
 * addresses, or a failure to start resolving; a name waits for its
 * worker), a write of irc_wire_write_now that failed, or a TLS read pass
 * that the budget cut short.
 */
static void on_defer(loop_timer *t, void *arg)
{
    (void)t;
    irc_wire *w = arg;
    if (w->state == WIRE_RESOLVING && w->why_pending)
        fail(w, w->why);
    else if (w->state == WIRE_RESOLVING && w->addrs != NULL)
        start_connecting(w);
    else if (w->state == WIRE_CONNECTED && w->write_failed)
        fail(w, w->why);
    else if (w->state == WIRE_CONNECTED)
        traffic(w, LOOP_READ);
}

/* The deadline passed before the connection was up: says at which step. */
static void on_deadline(loop_timer *t, void *arg)
{
    (void)t;
    irc_wire *w = arg;
    char why[IRC_WIRE_WHY_MAX];
    long long ms = (long long)w->timeout_ms;
    if (w->state == WIRE_RESOLVING)
        wire_fmt(why, sizeof why, "timed out after %lld ms resolving %s", ms, w->host);
    else if (w->state == WIRE_HANDSHAKE)
        wire_fmt(why, sizeof why, "timed out after %lld ms in the TLS handshake with %s", ms,
                 w->addr);
    else
        wire_fmt(why, sizeof why, "timed out after %lld ms connecting to %s", ms, w->addr);
    fail(w, why);
}

/* ------------------------------------------------------------------------ */
/* Resolving                                                                */

/* The worker is done: connect to what it found, or fail with the resolver's words. */
static void on_resolved(loop_io *io, int fd, unsigned events, void *arg)
{
    (void)io;
    (void)fd;
    (void)events;
    irc_wire *w = arg;
    if (w->state != WIRE_RESOLVING || !wire_resolve_done(w))
        return; /* cannot happen: the pipe is written once, when done */
    if (wire_resolve_finish(w) != 0)
        fail(w, w->why);
    else
        start_connecting(w);
}

/* ------------------------------------------------------------------------ */
/* The public functions                                                     */

/*
 * Checks cfg into w's fields (host without brackets, port as text,
 * timeout). Returns 0, or IRC_WIRE_EINVAL with why.
 */
static int config_take(irc_wire *w, const irc_wire_config *cfg, char *why, size_t why_len)
{
    const char *host = cfg->host != NULL ? cfg->host : "";
    size_t n = strlen(host);
    if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {
        host++;
        n -= 2;
    }
    if (n == 0) {
        wire_fmt(why, why_len, "the server's host is empty");
        return IRC_WIRE_EINVAL;
    }
    if (n >= sizeof w->host) {
        wire_fmt(why, why_len, "the server's host is longer than %zu bytes", sizeof w->host - 1);
        return IRC_WIRE_EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)host[i];
        if (c <= ' ' || c >= 0x7F) {
            wire_fmt(why, why_len,
                     "the server's host holds a space, a control or a non-ASCII byte");
            return IRC_WIRE_EINVAL;
        }
    }
    if (cfg->port < 1 || cfg->port > 65535) {
        wire_fmt(why, why_len, "the server's port %d is not within 1..65535", cfg->port);
        return IRC_WIRE_EINVAL;
    }
    if (cfg->timeout_ms < 0 || cfg->timeout_ms > LOOP_DELAY_MAX_MS) {
        wire_fmt(why, why_len, "the connect timeout %lld ms is not within 0..%lld ms",
                 (long long)cfg->timeout_ms, (long long)LOOP_DELAY_MAX_MS);
        return IRC_WIRE_EINVAL;
    }
    memcpy(w->host, host, n);
    w->host[n] = '\0';
    wire_fmt(w->service, sizeof w->service, "%d", cfg->port);
    w->timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : IRC_WIRE_TIMEOUT_DEFAULT_MS;
    w->tls = cfg->tls;
    w->tls_verify = cfg->tls && cfg->tls_verify;
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
                             .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    w->host_is_ip = getaddrinfo(w->host, w->service, &hints, &res) == 0;
    if (res != NULL)
        freeaddrinfo(res);
    return 0;
}

/* A wire for cfg, idle; with TLS its context is made now (irc_wire.h). */
int irc_wire_new(irc_wire **out, loop *l, const irc_wire_config *cfg, const irc_wire_callbacks *cb,
                 void *arg, char *why, size_t why_len)
{
    char scratch[IRC_WIRE_WHY_MAX];
    if (why == NULL || why_len == 0) {
        why = scratch;
        why_len = sizeof scratch;
    }
    if (out == NULL || l == NULL || cfg == NULL || cb == NULL) {
        wire_fmt(why, why_len,
                 "irc_wire_new needs an out pointer, a loop, a configuration "
                 "and callbacks");
        return IRC_WIRE_EINVAL;
    }
    irc_wire *w = calloc(1, sizeof *w);
    if (w == NULL) {
        wire_fmt(why, why_len, "out of memory for the IRC connection");
        return IRC_WIRE_ENO_MEMORY;
    }
    int rc = config_take(w, cfg, why, why_len);
    if (rc == 0 && w->tls)
        rc = wire_tls_ctx_new(w, cfg->ca_file, why, why_len);
    if (rc != 0) {
        free(w);
        return rc;
    }
    w->loop = l;
    w->cb = *cb;
    w->arg = arg;
    w->fd = -1;
    loop_timer_init(l, &w->deadline, on_deadline, w);
    loop_timer_init(l, &w->defer, on_defer, w);
    loop_io_init(l, &w->io, -1, on_io, w);
    loop_io_init(l, &w->rio, -1, on_resolved, w);
    *out = w;
    return 0;
}

/*
 * Closes any connection (a close_notify first over TLS) and frees w. A
 * resolution still running is let go: its worker frees it when done, so
 * this never waits for the resolver.
 */
void irc_wire_free(irc_wire *w)
{
    if (w == NULL)
        return;
    assert(w->depth == 0 && "irc_wire_free from a callback of its own wire");
    teardown(w, true);
    wire_tls_ctx_free(w);
    free(w);
}

/*
 * Starts a connection: the deadline and the first step are armed, the
 * resolver started; everything else happens from the loop (irc_wire.h).
 * Returns 0, IRC_WIRE_ESTATE, or IRC_WIRE_ELOOP when the loop has no timer
 * left (nothing started then).
 */
int irc_wire_connect(irc_wire *w)
{
    if (w == NULL)
        return IRC_WIRE_EINVAL;
    if (w->state != WIRE_IDLE)
        return IRC_WIRE_ESTATE;
    if (loop_timer_start(&w->deadline, w->timeout_ms, 0) != 0)
        return IRC_WIRE_ELOOP;
    if (loop_timer_start(&w->defer, 0, 0) != 0) {
        loop_timer_stop(&w->deadline);
        return IRC_WIRE_ELOOP;
    }
    w->state = WIRE_RESOLVING;
    w->why[0] = '\0';
    wire_resolve_start(w, on_resolved);
    w->why_pending = w->req == NULL && w->addrs == NULL;
    return 0;
}

/*
 * Queues line and CR LF at the end of the output; the socket's write
 * interest is on from now until it is all written (irc_wire.h).
 */
int irc_wire_send(irc_wire *w, const char *line, size_t len)
{
    if (w == NULL || (line == NULL && len > 0) || len > SEND_LINE_MAX)
        return IRC_WIRE_EINVAL;
    if (len > 0 && (memchr(line, '\r', len) != NULL || memchr(line, '\n', len) != NULL ||
                    memchr(line, '\0', len) != NULL))
        return IRC_WIRE_EINVAL;
    if (w->state != WIRE_CONNECTED || w->write_failed)
        return IRC_WIRE_ESTATE;
    size_t waiting = w->out_len - w->out_head;
    if (waiting + len + 2 > sizeof w->out)
        return IRC_WIRE_EFULL;
    if (w->out_len + len + 2 > sizeof w->out) {
        /* OpenSSL accepts a moved buffer (SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER). */
        memmove(w->out, w->out + w->out_head, waiting);
        w->out_head = 0;
        w->out_len = waiting;
    }
    if (len > 0)
        memcpy(w->out + w->out_len, line, len);
    memcpy(w->out + w->out_len + len, "\r\n", 2);
    w->out_len += len + 2;
    set_interest(w);
    return 0;
}

/*
 * Writes what the socket takes now (irc_wire.h). A failure is kept for the
 * loop: the defer timer (or, if the loop has no timer left, the socket's
 * next event: the unsent bytes keep the write interest on) tears the
 * connection down and runs the closed callback.
 */
int irc_wire_write_now(irc_wire *w)
{
    if (w == NULL || w->state != WIRE_CONNECTED)
        return IRC_WIRE_ESTATE;
    if (w->write_failed || w->out_head == w->out_len)
        return 0;
    if (write_out(w) != 0) {
        w->write_failed = true;
        (void)loop_timer_start(&w->defer, 0, 0);
    }
    set_interest(w);
    return 0;
}

/* Bytes waiting in the output buffer (irc_wire.h). */
size_t irc_wire_pending(const irc_wire *w)
{
    return w != NULL ? w->out_len - w->out_head : 0;
}

/* Whether the connected callback has run and no close since (irc_wire.h). */
bool irc_wire_connected(const irc_wire *w)
{
    return w != NULL && w->state == WIRE_CONNECTED;
}

/* Whether a connection is under way (irc_wire.h). */
bool irc_wire_connecting(const irc_wire *w)
{
    return w != NULL && w->state != WIRE_IDLE && w->state != WIRE_CONNECTED;
}

/* Ends the connection, if any, without a callback (irc_wire.h). */
void irc_wire_close(irc_wire *w)
{
    if (w != NULL && w->state != WIRE_IDLE)
        teardown(w, true);
}

/* Lines dropped as too long (irc_wire.h). */
uint64_t irc_wire_dropped(const irc_wire *w)
{
    return w != NULL ? w->dropped : 0;
}

/* "ADDR port N" of the connected server, or "" (irc_wire.h). */
const char *irc_wire_peer(const irc_wire *w)
{
    return w != NULL && w->state == WIRE_CONNECTED ? w->addr : "";
}
