/*
 * test_irc_wire.c — the IRC adapter's connection (adapters/irc/irc_wire.h) over
 * real sockets on 127.0.0.1 and the real loop on CLOCK_MONOTONIC: line
 * framing both ways (CRLF, bare LF, lines split over many reads, many in
 * one read, the maximum length and one byte more, NUL bytes), what
 * irc_wire_send refuses, the full output buffer and a server too slow to
 * read, refused connections, names that do not resolve (with the loop
 * running all along), connect and handshake timeouts, the server's end of
 * file and reset (SIGPIPE left at its default: it must never come), close
 * from a line callback, reconnects, and frees at every stage.
 *
 * The servers run inside the test's own loop: a listening socket whose
 * loop_io accepts, then plain send/recv or OpenSSL (SSL_accept without
 * blocking). TLS tests use a CA, a wrong CA and server certificates made
 * at start-up with the openssl command, as tests/irc/ircd.py does; without
 * the command the TLS group fails (tests/deps.sh installs it).
 *
 * Names under .slow.test go through a slow resolver: this file defines
 * getaddrinfo, which the wire's worker thread calls, and for those names
 * only it waits SLOW_MS before asking the C library's (for the name without
 * the suffix); every other call goes straight through. It makes "the loop
 * runs while a name resolves", timeouts while resolving and frees during a
 * resolution certain rather than lucky; no DNS server can be set up here.
 *
 * Callbacks do not assert (cmocka would longjmp out of the loop): they
 * count what went wrong, and each test's teardown fails on a count above
 * zero. Waits for an outcome are bounded by generous deadlines; a fixed
 * stretch of loop time is used only to show that nothing more happens.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "irc_wire.h"

#define DEADLINE_MS 30000 /* any wait, on a loaded machine under valgrind */
#define WATCHDOG_SECS 180 /* a test that hangs anyway is killed by SIGALRM */
#define SERVER_IN_MAX (64u << 20)

#define SLOW_MS 600 /* how long a .slow.test name takes to resolve */

extern char **environ;

/* ------------------------------------------------------------------------ */
/* The slow resolver                                                        */

typedef int (*getaddrinfo_fn)(const char *, const char *, const struct addrinfo *,
                              struct addrinfo **);

static getaddrinfo_fn real_getaddrinfo;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;
static atomic_int slow_started, slow_done; /* .slow.test resolutions begun and ended */

/* Finds the C library's getaddrinfo (or the sanitizer's in front of it). */
static void find_real_getaddrinfo(void)
{
    void *sym = dlsym(RTLD_NEXT, "getaddrinfo");
    _Static_assert(sizeof sym == sizeof real_getaddrinfo, "dlsym gives functions as void *");
    memcpy(&real_getaddrinfo, &sym, sizeof sym); /* POSIX's way round ISO C's rule */
}

/*
 * getaddrinfo for the whole test program: names ending in .slow.test
 * (unless only a literal is asked for) wait SLOW_MS, then localhost.slow.test
 * resolves as localhost and any other does not exist.
 */
int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                struct addrinfo **res)
{
    pthread_once(&real_once, find_real_getaddrinfo);
    const char *suffix = ".slow.test";
    size_t n = node != NULL ? strlen(node) : 0;
    bool slow = n > strlen(suffix) && strcmp(node + n - strlen(suffix), suffix) == 0 &&
                (hints == NULL || (hints->ai_flags & AI_NUMERICHOST) == 0);
    if (!slow)
        return real_getaddrinfo(node, service, hints, res);
    atomic_fetch_add(&slow_started, 1);
    struct timespec ts = {SLOW_MS / 1000, (SLOW_MS % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    int rc = strcmp(node, "localhost.slow.test") == 0
                 ? real_getaddrinfo("localhost", service, hints, res)
                 : EAI_NONAME;
    atomic_fetch_add(&slow_done, 1);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The in-loop server                                                       */

typedef struct server {
    loop *l;
    int *errors;  /* the fixture's count of things that went wrong in callbacks */
    SSL_CTX *ctx; /* NULL: plain */
    int lfd;
    loop_io lio;
    int cfd;
    loop_io cio;
    SSL *ssl;
    bool up;         /* plain, or the TLS handshake is done */
    bool want_write; /* SSL_accept waits for the socket to be writable */
    bool failed;     /* a TLS handshake failed */
    bool no_read;    /* let the client's bytes pile up in the kernel */
    bool eof;        /* the client closed (or reset) */
    int accepted;
    int port;
    char sni[256]; /* the server name the TLS client sent ("" if none) */
    char *in;      /* every byte received, over every connection */
    size_t in_len, in_cap;
    char *out;
    size_t out_off, out_len, out_cap;
} server;

/* Runs a server-side OpenSSL call with SIGPIPE blocked, then discards one it raised. */
#define NO_SIGPIPE(stmt)                                                                           \
    do {                                                                                           \
        sigset_t pipe_, old_;                                                                      \
        sigemptyset(&pipe_);                                                                       \
        sigaddset(&pipe_, SIGPIPE);                                                                \
        pthread_sigmask(SIG_BLOCK, &pipe_, &old_);                                                 \
        stmt;                                                                                      \
        struct timespec zero_ = {0, 0};                                                            \
        while (sigtimedwait(&pipe_, NULL, &zero_) > 0)                                             \
            ;                                                                                      \
        pthread_sigmask(SIG_SETMASK, &old_, NULL);                                                 \
    } while (0)

/* Appends n bytes to a growing buffer; false past SERVER_IN_MAX. */
static bool grow_append(char **buf, size_t *len, size_t *cap, const void *data, size_t n)
{
    if (*len + n > SERVER_IN_MAX)
        return false;
    if (*len + n > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n)
            c *= 2;
        char *b = realloc(*buf, c);
        if (b == NULL)
            return false;
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *len, data, n);
    *len += n;
    return true;
}

/* Sets the client socket's interest from what the server waits for. */
static void server_interest(server *s)
{
    if (s->cfd < 0)
        return;
    unsigned ev = 0;
    if (!s->up)
        ev = s->want_write ? LOOP_WRITE : LOOP_READ;
    else
        ev = (s->no_read || s->eof ? 0u : LOOP_READ) | (s->out_len > s->out_off ? LOOP_WRITE : 0u);
    if (loop_io_start(&s->cio, ev) != 0)
        (*s->errors)++;
}

/* Forgets the client: no close_notify, no write of any kind. */
static void server_drop(server *s)
{
    if (s->cfd < 0)
        return;
    loop_io_stop(&s->cio);
    SSL_free(s->ssl);
    s->ssl = NULL;
    close(s->cfd);
    s->cfd = -1;
    s->up = s->want_write = false;
    s->out_off = s->out_len = 0;
}

/* Reads what the client sent; its end sets eof. */
static void server_read(server *s)
{
    char buf[16384];
    while (s->cfd >= 0 && !s->eof) {
        long n;
        if (s->ssl != NULL) {
            int rc;
            NO_SIGPIPE(rc = SSL_read(s->ssl, buf, sizeof buf));
            if (rc <= 0 && SSL_get_error(s->ssl, rc) == SSL_ERROR_WANT_READ)
                break;
            n = rc > 0 ? rc : 0;
            ERR_clear_error();
        } else {
            n = recv(s->cfd, buf, sizeof buf, 0);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                break;
        }
        if (n <= 0) {
            s->eof = true;
            break;
        }
        if (!grow_append(&s->in, &s->in_len, &s->in_cap, buf, (size_t)n))
            (*s->errors)++;
    }
}

/* Writes what waits for the client, as far as the socket takes it. */
static void server_flush(server *s)
{
    while (s->cfd >= 0 && s->out_off < s->out_len) {
        size_t len = s->out_len - s->out_off;
        long n;
        if (s->ssl != NULL) {
            int rc;
            NO_SIGPIPE(rc = SSL_write(s->ssl, s->out + s->out_off, (int)len));
            n = rc > 0 ? rc : (SSL_get_error(s->ssl, rc) == SSL_ERROR_WANT_WRITE ? 0 : -1);
            ERR_clear_error();
        } else {
            n = send(s->cfd, s->out + s->out_off, len, MSG_NOSIGNAL);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                n = 0;
        }
        if (n < 0)
            s->eof = true;
        if (n <= 0)
            break;
        s->out_off += (size_t)n;
    }
    if (s->out_off == s->out_len)
        s->out_off = s->out_len = 0;
}

/* The client's socket is ready: handshake, then write, then read. */
static void on_server_client(loop_io *io, int fd, unsigned events, void *arg)
{
    (void)io;
    (void)fd;
    (void)events;
    server *s = arg;
    if (!s->up) {
        int rc;
        NO_SIGPIPE(rc = SSL_accept(s->ssl));
        int err = rc == 1 ? SSL_ERROR_NONE : SSL_get_error(s->ssl, rc);
        ERR_clear_error();
        if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
            s->want_write = err == SSL_ERROR_WANT_WRITE;
            server_interest(s);
            return;
        }
        if (err != SSL_ERROR_NONE) {
            s->failed = true;
            server_drop(s);
            return;
        }
        s->up = true;
        const char *sni = SSL_get_servername(s->ssl, TLSEXT_NAMETYPE_host_name);
        snprintf(s->sni, sizeof s->sni, "%s", sni != NULL ? sni : "");
    }
    server_flush(s);
    if (!s->no_read)
        server_read(s);
    server_interest(s);
}

/* A connection comes in: it replaces the previous client, if any. */
static void on_server_accept(loop_io *io, int fd, unsigned events, void *arg)
{
    (void)io;
    (void)events;
    server *s = arg;
    int c = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (c < 0)
        return;
    size_t keep_off = s->out_off, keep_len = s->out_len; /* queued before the client came */
    server_drop(s);
    s->out_off = keep_off;
    s->out_len = keep_len;
    s->cfd = c;
    s->accepted++;
    s->eof = false;
    s->up = s->ctx == NULL;
    if (s->ctx != NULL) {
        s->ssl = SSL_new(s->ctx);
        if (s->ssl == NULL || SSL_set_fd(s->ssl, c) != 1) {
            (*s->errors)++;
            server_drop(s);
            return;
        }
        SSL_set_accept_state(s->ssl);
    }
    loop_io_init(s->l, &s->cio, c, on_server_client, s);
    server_interest(s);
}

/* Queues bytes for the client (sent once one is connected). */
static void server_send(server *s, const void *data, size_t n)
{
    if (!grow_append(&s->out, &s->out_len, &s->out_cap, data, n))
        (*s->errors)++;
    server_interest(s);
}

/* Queues a string for the client. */
static void server_say(server *s, const char *text)
{
    server_send(s, text, strlen(text));
}

/* Lets the server read again after no_read. */
static void server_resume(server *s)
{
    s->no_read = false;
    server_interest(s);
}

/* Closes the client's connection: a FIN, or with reset a RST (SO_LINGER 0). */
static void server_hang_up(server *s, bool reset)
{
    if (reset && s->cfd >= 0) {
        struct linger lg = {.l_onoff = 1, .l_linger = 0};
        assert_int_equal(setsockopt(s->cfd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg), 0);
    }
    server_drop(s);
}

/*
 * A listening socket on 127.0.0.1 (a free port) in s, accepted by the loop,
 * speaking TLS with ctx (which s then owns) or plain. rcvbuf > 0 sets the
 * accepted sockets' receive buffer.
 */
static void server_start(server *s, SSL_CTX *ctx, int backlog, int rcvbuf)
{
    s->ctx = ctx;
    s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    assert_true(s->lfd >= 0);
    int one = 1;
    assert_int_equal(setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one), 0);
    if (rcvbuf > 0)
        assert_int_equal(setsockopt(s->lfd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf), 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(s->lfd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(s->lfd, backlog), 0);
    socklen_t len = sizeof sa;
    assert_int_equal(getsockname(s->lfd, (struct sockaddr *)&sa, &len), 0);
    s->port = ntohs(sa.sin_port);
    loop_io_init(s->l, &s->lio, s->lfd, on_server_accept, s);
    assert_int_equal(loop_io_start(&s->lio, LOOP_READ), 0);
}

/* Stops and frees everything of s. */
static void server_free(server *s)
{
    server_drop(s);
    loop_io_stop(&s->lio);
    if (s->lfd >= 0)
        close(s->lfd);
    s->lfd = -1;
    SSL_CTX_free(s->ctx);
    s->ctx = NULL;
    free(s->in);
    free(s->out);
    s->in = s->out = NULL;
}

/* ------------------------------------------------------------------------ */
/* The fixture: a loop, a server, a wire and what its callbacks saw         */

typedef struct got_line {
    char *data;
    size_t len;
} got_line;

typedef struct fx {
    loop *l;
    loop_timer guard; /* every 10 ms: poll() never sleeps long */
    server srv;
    irc_wire *w;
    int api;    /* > 0 while the test is inside an irc_wire_* call */
    int errors; /* callbacks run inside a call, or failing */
    int connected, closed;
    char why[IRC_WIRE_WHY_MAX];
    got_line *lines;
    size_t nlines, cap;
    size_t close_at;   /* irc_wire_close in the callback of this line (1-based); 0: never */
    const char *greet; /* sent from the connected callback */
    bool reconnect;    /* irc_wire_connect from the closed callback, once */
    loop_timer ticker; /* counts iterations while resolving */
    int ticks;
    int64_t last_tick, max_gap;
} fx;

/* Keeps poll() short. */
static void on_guard(loop_timer *t, void *arg)
{
    (void)t;
    (void)arg;
}

/* The connected callback: counts, and greets if asked. */
static void on_connected(void *arg)
{
    fx *f = arg;
    if (f->api > 0 || !irc_wire_connected(f->w) || irc_wire_connecting(f->w))
        f->errors++;
    f->connected++;
    if (f->greet != NULL && irc_wire_send(f->w, f->greet, strlen(f->greet)) != 0)
        f->errors++;
}

/* The line callback: keeps a copy; closes the wire at line close_at. */
static void on_line(void *arg, const char *line, size_t len)
{
    fx *f = arg;
    if (f->api > 0 || line[len] != '\0' || !irc_wire_connected(f->w))
        f->errors++;
    if (f->nlines == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        got_line *g = realloc(f->lines, cap * sizeof *g);
        if (g == NULL) {
            f->errors++;
            return;
        }
        f->lines = g;
        f->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        f->errors++;
        return;
    }
    memcpy(copy, line, len + 1);
    f->lines[f->nlines++] = (got_line){copy, len};
    if (f->close_at == f->nlines)
        irc_wire_close(f->w);
}

/* The closed callback: keeps why; reconnects if asked. */
static void on_closed(void *arg, const char *why)
{
    fx *f = arg;
    if (f->api > 0 || irc_wire_connected(f->w) || irc_wire_connecting(f->w) ||
        strlen(why) >= IRC_WIRE_WHY_MAX || why[0] == '\0')
        f->errors++;
    f->closed++;
    snprintf(f->why, sizeof f->why, "%s", why);
    if (f->reconnect) {
        f->reconnect = false;
        if (irc_wire_connect(f->w) != 0)
            f->errors++;
    }
}

/* Per test: a loop on the real clock with its guard timer, and a watchdog. */
static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    if (f == NULL || loop_new(&f->l, NULL, NULL) != 0)
        return -1;
    loop_timer_init(f->l, &f->guard, on_guard, f);
    if (loop_timer_start(&f->guard, 10, 10) != 0)
        return -1;
    f->srv = (server){.l = f->l, .errors = &f->errors, .lfd = -1, .cfd = -1};
    alarm(WATCHDOG_SECS);
    *state = f;
    return 0;
}

/* Frees it all; fails the test if a callback misbehaved. */
static int teardown(void **state)
{
    fx *f = *state;
    f->api++;
    irc_wire_free(f->w);
    f->api--;
    server_free(&f->srv);
    loop_timer_stop(&f->guard);
    loop_timer_stop(&f->ticker);
    loop_free(f->l);
    int errors = f->errors;
    for (size_t i = 0; i < f->nlines; i++)
        free(f->lines[i].data);
    free(f->lines);
    free(f);
    alarm(0);
    if (errors != 0) {
        print_error("%d callback(s) ran inside an irc_wire_* call or saw a wrong state\n", errors);
        return -1;
    }
    return 0;
}

/* Runs the loop until cond, failing after DEADLINE_MS. */
#define RUN_UNTIL(f, cond)                                                                         \
    do {                                                                                           \
        int64_t until_ = loop_now((f)->l) + DEADLINE_MS;                                           \
        while (!(cond)) {                                                                          \
            if (loop_now((f)->l) > until_)                                                         \
                fail_msg("not within %d ms: %s", DEADLINE_MS, #cond);                              \
            assert_true(loop_run_once((f)->l, true) >= 0);                                         \
        }                                                                                          \
    } while (0)

/* Runs the loop for ms milliseconds. */
static void run_for(fx *f, int64_t ms)
{
    int64_t until = loop_now(f->l) + ms;
    while (loop_now(f->l) < until)
        assert_true(loop_run_once(f->l, true) >= 0);
}

/* A wire in f->w; the test fails if irc_wire_new refuses. */
static void wire_open(fx *f, const char *host, int port, bool tls, bool verify, const char *ca,
                      int64_t timeout_ms)
{
    irc_wire_config cfg = {.host = host,
                           .port = port,
                           .tls = tls,
                           .tls_verify = verify,
                           .ca_file = ca,
                           .timeout_ms = timeout_ms};
    irc_wire_callbacks cb = {on_connected, on_line, on_closed};
    char why[IRC_WIRE_WHY_MAX] = "";
    f->api++;
    int rc = irc_wire_new(&f->w, f->l, &cfg, &cb, f, why, sizeof why);
    f->api--;
    if (rc != 0)
        fail_msg("irc_wire_new: %s (%s)", irc_wire_strerror(rc), why);
}

/* irc_wire_connect, which must start. */
static void wire_connect(fx *f)
{
    f->api++;
    int rc = irc_wire_connect(f->w);
    f->api--;
    assert_int_equal(rc, 0);
}

/* irc_wire_send of a string. */
static int wire_send(fx *f, const char *text)
{
    f->api++;
    int rc = irc_wire_send(f->w, text, strlen(text));
    f->api--;
    return rc;
}

/* irc_wire_close. */
static void wire_close(fx *f)
{
    f->api++;
    irc_wire_close(f->w);
    f->api--;
}

/* A plain server and a wire connected to it by address. */
static void connect_plain(fx *f)
{
    server_start(&f->srv, NULL, 16, 0);
    wire_open(f, "127.0.0.1", f->srv.port, false, false, NULL, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 1 && f->srv.cfd >= 0);
}

/* Waits until the server received exactly text, in all. */
static void expect_server_got(fx *f, const char *text)
{
    size_t n = strlen(text);
    RUN_UNTIL(f, f->srv.in_len >= n);
    run_for(f, 20); /* anything more would show now */
    assert_int_equal(f->srv.in_len, n);
    assert_memory_equal(f->srv.in, text, n);
}

/* Whether line i is the string text. */
static void expect_line(const fx *f, size_t i, const char *text)
{
    assert_true(i < f->nlines);
    assert_int_equal(f->lines[i].len, strlen(text));
    assert_memory_equal(f->lines[i].data, text, strlen(text));
}

/* A port nothing listens on (bound, then closed). */
static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(fd >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    socklen_t len = sizeof sa;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
    close(fd);
    return ntohs(sa.sin_port);
}

/* "127.0.0.1 port N" style text into buf. */
static const char *peer_text(char *buf, size_t size, const char *ip, int port)
{
    int n = snprintf(buf, size, "%s port %d", ip, port);
    assert_true(n > 0 && (size_t)n < size);
    return buf;
}

/* Whether s starts with prefix. */
static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ------------------------------------------------------------------------ */
/* Configuration and errors                                                 */

static void test_every_error_code_has_its_own_message(void **state)
{
    (void)state;
    const int codes[] = {IRC_WIRE_OK,   IRC_WIRE_EINVAL,     IRC_WIRE_ESTATE, IRC_WIRE_EFULL,
                         IRC_WIRE_ETLS, IRC_WIRE_ENO_MEMORY, IRC_WIRE_ELOOP};
    const size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; i++) {
        const char *m = irc_wire_strerror(codes[i]);
        assert_non_null(m);
        assert_string_not_equal(m, "unknown error");
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(m, irc_wire_strerror(codes[j]));
    }
    assert_string_equal(irc_wire_strerror(0), "ok");
    assert_string_equal(irc_wire_strerror(-99), "unknown error");
    assert_string_equal(irc_wire_strerror(1), "unknown error");
}

/* irc_wire_new with cfg must fail with EINVAL, a why holding word, and *out untouched. */
static void expect_refused(fx *f, const irc_wire_config *cfg, const char *word)
{
    irc_wire_callbacks cb = {on_connected, on_line, on_closed};
    irc_wire *sentinel = (irc_wire *)&cb, *w = sentinel;
    char why[IRC_WIRE_WHY_MAX] = "";
    assert_int_equal(irc_wire_new(&w, f->l, cfg, &cb, f, why, sizeof why), IRC_WIRE_EINVAL);
    assert_ptr_equal(w, sentinel);
    if (strstr(why, word) == NULL)
        fail_msg("\"%s\" does not mention %s", why, word);
}

static void test_new_refuses_a_bad_host_port_or_timeout_with_a_reason(void **state)
{
    fx *f = *state;
    char longhost[300];
    memset(longhost, 'a', sizeof longhost - 1);
    longhost[sizeof longhost - 1] = '\0';
    expect_refused(f, &(irc_wire_config){.host = NULL, .port = 6667}, "host");
    expect_refused(f, &(irc_wire_config){.host = "", .port = 6667}, "host");
    expect_refused(f, &(irc_wire_config){.host = "[]", .port = 6667}, "host");
    expect_refused(f, &(irc_wire_config){.host = "irc example.org", .port = 6667}, "host");
    expect_refused(f, &(irc_wire_config){.host = "irc.example.org\r\n", .port = 6667}, "host");
    expect_refused(f, &(irc_wire_config){.host = longhost, .port = 6667}, "host");
    expect_refused(f, &(irc_wire_config){.host = "irc.example.org", .port = 0}, "port");
    expect_refused(f, &(irc_wire_config){.host = "irc.example.org", .port = 65536}, "port");
    expect_refused(f, &(irc_wire_config){.host = "irc.example.org", .port = 6667, .timeout_ms = -1},
                   "timeout");
    expect_refused(f,
                   &(irc_wire_config){.host = "irc.example.org",
                                      .port = 6667,
                                      .timeout_ms = LOOP_DELAY_MAX_MS + 1},
                   "timeout");
    irc_wire_callbacks cb = {0};
    irc_wire_config ok = {.host = "irc.example.org", .port = 6667};
    irc_wire *w = NULL;
    char why[IRC_WIRE_WHY_MAX] = "";
    assert_int_equal(irc_wire_new(&w, NULL, &ok, &cb, NULL, why, sizeof why), IRC_WIRE_EINVAL);
    assert_int_equal(irc_wire_new(&w, f->l, NULL, &cb, NULL, why, sizeof why), IRC_WIRE_EINVAL);
    assert_int_equal(irc_wire_new(&w, f->l, &ok, NULL, NULL, NULL, 0), IRC_WIRE_EINVAL);
    assert_null(w);
    /* A name that is fine, and the same wire freed without ever connecting. */
    assert_int_equal(irc_wire_new(&w, f->l, &ok, &cb, NULL, why, sizeof why), 0);
    assert_false(irc_wire_connected(w));
    assert_false(irc_wire_connecting(w));
    assert_string_equal(irc_wire_peer(w), "");
    assert_int_equal(irc_wire_pending(w), 0);
    assert_int_equal(irc_wire_dropped(w), 0);
    irc_wire_free(w);
    irc_wire_free(NULL);
}

static void test_a_missing_ca_file_fails_new_with_a_reason_naming_the_file(void **state)
{
    fx *f = *state;
    const char *path = "/nonexistent/porrazo-test-ca.pem";
    irc_wire_config cfg = {
        .host = "irc.example.org", .port = 6697, .tls = true, .tls_verify = true, .ca_file = path};
    irc_wire_callbacks cb = {on_connected, on_line, on_closed};
    irc_wire *w = NULL;
    char why[IRC_WIRE_WHY_MAX] = "";
    assert_int_equal(irc_wire_new(&w, f->l, &cfg, &cb, f, why, sizeof why), IRC_WIRE_ETLS);
    assert_null(w);
    char want[IRC_WIRE_WHY_MAX];
    snprintf(want, sizeof want, "cannot read the CA file %s: %s", path, strerror(ENOENT));
    assert_string_equal(why, want);
}

static void test_a_ca_file_without_a_certificate_fails_new_naming_the_file(void **state)
{
    fx *f = *state;
    char path[] = "/tmp/pz-wire-ca-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char junk[] = "this is not a certificate\n";
    assert_int_equal(write(fd, junk, sizeof junk - 1), (ssize_t)(sizeof junk - 1));
    close(fd);
    irc_wire_config cfg = {
        .host = "irc.example.org", .port = 6697, .tls = true, .tls_verify = true, .ca_file = path};
    irc_wire_callbacks cb = {on_connected, on_line, on_closed};
    irc_wire *w = NULL;
    char why[IRC_WIRE_WHY_MAX] = "";
    int rc = irc_wire_new(&w, f->l, &cfg, &cb, f, why, sizeof why);
    unlink(path);
    assert_int_equal(rc, IRC_WIRE_ETLS);
    assert_null(w);
    char want[IRC_WIRE_WHY_MAX];
    snprintf(want, sizeof want, "the CA file %s holds no usable PEM certificate (", path);
    assert_true(starts_with(why, want));
    /* Without verification the CA file is not used, so not read either. */
    cfg.tls_verify = false;
    assert_int_equal(irc_wire_new(&w, f->l, &cfg, &cb, f, why, sizeof why), 0);
    irc_wire_free(w);
}

/* ------------------------------------------------------------------------ */
/* Lines                                                                    */

static void test_lines_flow_both_ways_with_crlf_and_bare_lf(void **state)
{
    fx *f = *state;
    f->greet = "NICK porrazo";
    connect_plain(f);
    char peer[64];
    assert_string_equal(irc_wire_peer(f->w),
                        peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port));
    assert_true(irc_wire_connected(f->w));
    assert_false(irc_wire_connecting(f->w));
    expect_server_got(f, "NICK porrazo\r\n");

    server_say(&f->srv, "one\r\ntwo\nthree\r\na\rb\n\r\n\n");
    RUN_UNTIL(f, f->nlines == 6);
    expect_line(f, 0, "one");
    expect_line(f, 1, "two");
    expect_line(f, 2, "three");
    expect_line(f, 3, "a\rb"); /* only a CR right before the LF goes */
    expect_line(f, 4, "");
    expect_line(f, 5, "");

    assert_int_equal(wire_send(f, "PRIVMSG #porrazo :hola"), 0);
    assert_int_equal(wire_send(f, ""), 0);
    assert_int_equal(irc_wire_pending(f->w), strlen("PRIVMSG #porrazo :hola\r\n\r\n"));
    expect_server_got(f, "NICK porrazo\r\nPRIVMSG #porrazo :hola\r\n\r\n");
    assert_int_equal(irc_wire_pending(f->w), 0);
    assert_int_equal(f->closed, 0);
    assert_int_equal(irc_wire_dropped(f->w), 0);
}

static void test_a_line_split_across_many_reads_arrives_whole_and_once(void **state)
{
    fx *f = *state;
    connect_plain(f);
    const char *line = ":irc.porrazo.test PING :1234567890\r\n";
    size_t n = strlen(line);
    for (size_t i = 0; i < n; i++) {
        server_send(&f->srv, line + i, 1);
        RUN_UNTIL(f, f->srv.out_len == 0);
        for (int k = 0; k < 3; k++)
            assert_true(loop_run_once(f->l, false) >= 0);
        if (i + 1 < n)
            assert_int_equal(f->nlines, 0);
    }
    RUN_UNTIL(f, f->nlines == 1);
    expect_line(f, 0, ":irc.porrazo.test PING :1234567890");
    run_for(f, 30);
    assert_int_equal(f->nlines, 1);
}

static void test_many_lines_in_one_read_arrive_in_order(void **state)
{
    fx *f = *state;
    connect_plain(f);
    enum { N = 2000 };
    char *all = malloc(N * 32);
    assert_non_null(all);
    size_t len = 0;
    for (int i = 0; i < N; i++)
        len +=
            (size_t)snprintf(all + len, 32, ":s NOTICE * :line %05d%s", i, i % 2 ? "\n" : "\r\n");
    server_send(&f->srv, all, len);
    free(all);
    RUN_UNTIL(f, f->nlines == N);
    for (int i = 0; i < N; i++) {
        char want[32];
        snprintf(want, sizeof want, ":s NOTICE * :line %05d", i);
        expect_line(f, (size_t)i, want);
    }
}

/* n bytes of c, then end (a string), as one buffer queued to the client. */
static void server_say_run(server *s, char c, size_t n, const char *end)
{
    char *buf = malloc(n + strlen(end));
    assert_non_null(buf);
    memset(buf, c, n);
    memcpy(buf + n, end, strlen(end));
    server_send(s, buf, n + strlen(end));
    free(buf);
}

/* Whether line i is n bytes of c. */
static void expect_run(const fx *f, size_t i, char c, size_t n)
{
    assert_true(i < f->nlines);
    assert_int_equal(f->lines[i].len, n);
    for (size_t k = 0; k < n; k++)
        if (f->lines[i].data[k] != c)
            fail_msg("line %zu byte %zu is not '%c'", i, k, c);
}

static void test_a_line_of_exactly_the_maximum_is_kept_and_one_byte_more_is_dropped(void **state)
{
    fx *f = *state;
    connect_plain(f);
    server_say_run(&f->srv, 'A', IRC_WIRE_LINE_MAX, "\r\n");
    server_say_run(&f->srv, 'B', IRC_WIRE_LINE_MAX + 1, "\r\n");
    server_say(&f->srv, "next\r\n");
    server_say_run(&f->srv, 'C', IRC_WIRE_LINE_MAX, "\n");
    server_say_run(&f->srv, 'D', IRC_WIRE_LINE_MAX + 1, "\n");
    server_say(&f->srv, "last\n");
    RUN_UNTIL(f, f->nlines == 4);
    expect_run(f, 0, 'A', IRC_WIRE_LINE_MAX);
    expect_line(f, 1, "next");
    expect_run(f, 2, 'C', IRC_WIRE_LINE_MAX);
    expect_line(f, 3, "last");
    assert_int_equal(irc_wire_dropped(f->w), 2);

    /* A maximal line whose LF comes later is still whole: its CR does not count. */
    server_say_run(&f->srv, 'E', IRC_WIRE_LINE_MAX, "\r");
    RUN_UNTIL(f, f->srv.out_len == 0);
    run_for(f, 30);
    assert_int_equal(f->nlines, 4);
    server_say(&f->srv, "\n");
    RUN_UNTIL(f, f->nlines == 5);
    expect_run(f, 4, 'E', IRC_WIRE_LINE_MAX);
    assert_int_equal(irc_wire_dropped(f->w), 2);
    assert_int_equal(f->closed, 0);
}

static void test_a_huge_line_is_dropped_whole_across_many_reads(void **state)
{
    fx *f = *state;
    connect_plain(f);
    server_say(&f->srv, "before\r\n");
    for (int i = 0; i < 25; i++) {
        server_say_run(&f->srv, 'x', 8000, "");
        RUN_UNTIL(f, f->srv.out_len == 0);
    }
    server_say(&f->srv, "\r\nafter\r\n");
    RUN_UNTIL(f, f->nlines == 2);
    expect_line(f, 0, "before");
    expect_line(f, 1, "after");
    assert_int_equal(irc_wire_dropped(f->w), 1);
    assert_int_equal(f->closed, 0);
}

static void test_a_nul_inside_a_line_is_delivered_with_its_length(void **state)
{
    fx *f = *state;
    connect_plain(f);
    server_send(&f->srv, "a\0b\0\r\n\0\n", 8);
    RUN_UNTIL(f, f->nlines == 2);
    assert_int_equal(f->lines[0].len, 4);
    assert_memory_equal(f->lines[0].data, "a\0b\0", 5); /* and NUL-terminated */
    assert_int_equal(f->lines[1].len, 1);
    assert_memory_equal(f->lines[1].data, "\0", 2);
}

/* ------------------------------------------------------------------------ */
/* Sending                                                                  */

static void test_send_refuses_cr_lf_nul_and_overlong_lines_and_queues_nothing(void **state)
{
    fx *f = *state;
    connect_plain(f);
    assert_int_equal(irc_wire_send(f->w, "PRIVMSG a :b\rc", 14), IRC_WIRE_EINVAL);
    assert_int_equal(irc_wire_send(f->w, "PRIVMSG a :b\nc", 14), IRC_WIRE_EINVAL);
    assert_int_equal(irc_wire_send(f->w, "PRIVMSG a :b\0c", 14), IRC_WIRE_EINVAL);
    assert_int_equal(irc_wire_send(f->w, "QUIT\r\n", 6), IRC_WIRE_EINVAL);
    assert_int_equal(irc_wire_send(f->w, NULL, 3), IRC_WIRE_EINVAL);
    assert_int_equal(irc_wire_send(NULL, "QUIT", 4), IRC_WIRE_EINVAL);
    char big[512];
    memset(big, 'x', sizeof big);
    assert_int_equal(irc_wire_send(f->w, big, 511), IRC_WIRE_EINVAL);
    assert_int_equal(irc_wire_pending(f->w), 0);
    assert_int_equal(irc_wire_send(f->w, big, 510), 0);
    assert_int_equal(irc_wire_pending(f->w), 512);
    big[510] = '\r';
    big[511] = '\n';
    RUN_UNTIL(f, f->srv.in_len >= 512);
    assert_int_equal(f->srv.in_len, 512);
    assert_memory_equal(f->srv.in, big, 512);
    assert_int_equal(f->closed, 0);
}

static void test_send_is_refused_unless_connected_and_connect_while_busy_too(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 0);
    wire_open(f, "127.0.0.1", f->srv.port, false, false, NULL, 0);
    assert_int_equal(wire_send(f, "NICK a"), IRC_WIRE_ESTATE);
    wire_connect(f);
    assert_true(irc_wire_connecting(f->w));
    assert_false(irc_wire_connected(f->w));
    assert_string_equal(irc_wire_peer(f->w), "");
    assert_int_equal(wire_send(f, "NICK a"), IRC_WIRE_ESTATE);
    assert_int_equal(irc_wire_connect(f->w), IRC_WIRE_ESTATE);
    assert_int_equal(f->connected + f->closed, 0); /* nothing from inside the calls */
    RUN_UNTIL(f, f->connected == 1);
    assert_int_equal(irc_wire_connect(f->w), IRC_WIRE_ESTATE);
    assert_int_equal(irc_wire_connect(NULL), IRC_WIRE_EINVAL);
    assert_int_equal(wire_send(f, "NICK a"), 0);
    wire_close(f);
    assert_false(irc_wire_connected(f->w));
    assert_int_equal(irc_wire_pending(f->w), 0); /* dropped with the connection */
    assert_int_equal(wire_send(f, "NICK b"), IRC_WIRE_ESTATE);
    assert_int_equal(irc_wire_pending(f->w), 0);
    run_for(f, 50);
    assert_int_equal(f->closed, 0);
}

static void test_send_reports_full_and_queues_nothing_when_the_buffer_is_full(void **state)
{
    fx *f = *state;
    connect_plain(f);
    char line[511];
    int sent = 0;
    for (;;) {
        snprintf(line, sizeof line, "PRIVMSG #t :%06d", sent);
        memset(line + 18, 'y', 510 - 18);
        line[510] = '\0';
        size_t before = irc_wire_pending(f->w);
        int rc = wire_send(f, line);
        if (rc == IRC_WIRE_EFULL) {
            assert_int_equal(irc_wire_pending(f->w), before);
            break;
        }
        assert_int_equal(rc, 0);
        sent++;
    }
    assert_int_equal(sent, IRC_WIRE_OUT_MAX / 512);
    assert_int_equal(irc_wire_pending(f->w), (size_t)sent * 512);
    assert_int_equal(wire_send(f, ""), IRC_WIRE_EFULL);
    RUN_UNTIL(f, f->srv.in_len == (size_t)sent * 512);
    for (int i = 0; i < sent; i++) {
        char want[32];
        snprintf(want, sizeof want, "PRIVMSG #t :%06d", i);
        assert_memory_equal(f->srv.in + (size_t)i * 512, want, 18);
        assert_memory_equal(f->srv.in + (size_t)i * 512 + 510, "\r\n", 2);
    }
    assert_int_equal(irc_wire_pending(f->w), 0);
    assert_int_equal(wire_send(f, "PING :again"), 0);
}

static void test_a_slow_server_makes_writes_wait_without_losing_or_reordering_bytes(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 4096);
    f->srv.no_read = true;
    wire_open(f, "127.0.0.1", f->srv.port, false, false, NULL, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 1 && f->srv.cfd >= 0);
    int sent = 0;
    bool blocked = false;
    for (int round = 0; round < 2000 && !blocked; round++) {
        char line[400];
        for (;;) {
            snprintf(line, sizeof line, "PRIVMSG #slow :%08d %0*d", sent, 360, 0);
            int rc = wire_send(f, line);
            if (rc == IRC_WIRE_EFULL)
                break;
            assert_int_equal(rc, 0);
            sent++;
        }
        /* The kernel takes what it can; once it takes nothing, writes wait. */
        int64_t until = loop_now(f->l) + 100;
        while (irc_wire_pending(f->w) > 0 && loop_now(f->l) < until)
            assert_true(loop_run_once(f->l, true) >= 0);
        blocked = irc_wire_pending(f->w) > 0;
    }
    assert_true(blocked);
    assert_int_equal(f->closed, 0);
    assert_true(irc_wire_connected(f->w));
    server_resume(&f->srv);
    size_t line_len = strlen("PRIVMSG #slow :00000000 ") + 360 + 2;
    RUN_UNTIL(f, irc_wire_pending(f->w) == 0 && f->srv.in_len == (size_t)sent * line_len);
    for (int i = 0; i < sent; i++) {
        char want[32];
        snprintf(want, sizeof want, "PRIVMSG #slow :%08d ", i);
        assert_memory_equal(f->srv.in + (size_t)i * line_len, want, strlen(want));
        assert_memory_equal(f->srv.in + (size_t)(i + 1) * line_len - 2, "\r\n", 2);
    }
}

/* ------------------------------------------------------------------------ */
/* Connecting and failing to                                                */

static void test_a_refused_connection_is_reported_by_closed_naming_the_address(void **state)
{
    fx *f = *state;
    int port = closed_port();
    wire_open(f, "127.0.0.1", port, false, false, NULL, 0);
    wire_connect(f);
    assert_int_equal(f->closed, 0);
    assert_true(irc_wire_connecting(f->w));
    RUN_UNTIL(f, f->closed == 1);
    char want[IRC_WIRE_WHY_MAX], peer[64];
    snprintf(want, sizeof want, "connection refused by %s",
             peer_text(peer, sizeof peer, "127.0.0.1", port));
    assert_string_equal(f->why, want);
    assert_int_equal(f->connected, 0);
    assert_false(irc_wire_connecting(f->w));
    run_for(f, 50);
    assert_int_equal(f->closed, 1);
}

static void test_an_ipv6_literal_in_brackets_is_used_and_named_in_messages(void **state)
{
    fx *f = *state;
    int port = closed_port(); /* on 127.0.0.1: ::1 has nothing there either, or no IPv6 at all */
    wire_open(f, "[::1]", port, false, false, NULL, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->closed == 1);
    char peer[64];
    peer_text(peer, sizeof peer, "::1", port);
    if (strstr(f->why, peer) == NULL)
        fail_msg("\"%s\" does not name %s", f->why, peer);
}

/* Counts loop iterations while a name resolves, and the longest gap between two. */
static void on_tick(loop_timer *t, void *arg)
{
    (void)t;
    fx *f = arg;
    int64_t now = loop_now(f->l);
    if (f->ticks > 0 && now - f->last_tick > f->max_gap)
        f->max_gap = now - f->last_tick;
    f->last_tick = now;
    f->ticks++;
}

static void test_the_loop_runs_on_while_a_name_resolves(void **state)
{
    fx *f = *state;
    wire_open(f, "nothing.slow.test", 6667, false, false, NULL, 0);
    loop_timer_init(f->l, &f->ticker, on_tick, f);
    assert_int_equal(loop_timer_start(&f->ticker, 1, 1), 0);
    int64_t t0 = loop_monotonic_ms(NULL);
    wire_connect(f);
    assert_true(loop_monotonic_ms(NULL) - t0 < SLOW_MS / 2); /* irc_wire_connect did not resolve */
    assert_int_equal(f->closed, 0);
    RUN_UNTIL(f, f->closed == 1);
    int64_t took = loop_monotonic_ms(NULL) - t0;
    loop_timer_stop(&f->ticker);
    char want[IRC_WIRE_WHY_MAX];
    snprintf(want, sizeof want, "cannot resolve nothing.slow.test: %s", gai_strerror(EAI_NONAME));
    assert_string_equal(f->why, want);
    assert_true(took >= SLOW_MS - 10);
    /* The 1 ms ticker kept running: no iteration waited for the resolver. */
    assert_true(f->ticks >= 20);
    if (f->max_gap >= SLOW_MS / 2)
        fail_msg("the loop stood still for %lld ms while resolving", (long long)f->max_gap);
    assert_int_equal(f->connected, 0);
    assert_false(irc_wire_connecting(f->w));
}

static void test_a_name_that_does_not_exist_is_reported_in_the_resolvers_words(void **state)
{
    fx *f = *state;
    wire_open(f, "no-such-host.invalid", 6667, false, false, NULL, 0);
    wire_connect(f);
    assert_int_equal(f->closed, 0);
    RUN_UNTIL(f, f->closed == 1);
    const char *prefix = "cannot resolve no-such-host.invalid: ";
    assert_true(starts_with(f->why, prefix));
    /* Which words depends on the machine's DNS: none, or one that says NXDOMAIN. */
    const int codes[] = {EAI_NONAME, EAI_AGAIN, EAI_FAIL, EAI_NODATA, EAI_ADDRFAMILY};
    bool known = false;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        known = known || strcmp(f->why + strlen(prefix), gai_strerror(codes[i])) == 0;
    if (!known)
        fail_msg("\"%s\" does not end with the resolver's message", f->why);
    assert_int_equal(f->connected, 0);
}

static void test_a_slow_resolution_times_out_naming_the_host(void **state)
{
    fx *f = *state;
    int before = atomic_load(&slow_started);
    wire_open(f, "localhost.slow.test", 6667, false, false, NULL, 200);
    wire_connect(f);
    RUN_UNTIL(f, f->closed == 1);
    assert_string_equal(f->why, "timed out after 200 ms resolving localhost.slow.test");
    /* The worker ends later, alone, and nothing more happens. */
    RUN_UNTIL(f, atomic_load(&slow_done) >= before + 1);
    run_for(f, 50);
    assert_int_equal(f->closed, 1);
    assert_int_equal(f->connected, 0);
}

static void test_a_host_name_is_resolved_and_connected(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 0);
    wire_open(f, "localhost", f->srv.port, false, false, NULL, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 1 || f->closed == 1);
    assert_int_equal(f->closed, 0);
    char peer[64];
    assert_string_equal(irc_wire_peer(f->w),
                        peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port));
    server_say(&f->srv, "hello\r\n");
    RUN_UNTIL(f, f->nlines == 1);
    expect_line(f, 0, "hello");
}

static void test_a_listener_that_never_accepts_times_out_the_connect(void **state)
{
    fx *f = *state;
    /* Backlog 0 holds one connection; the queue is full, further SYNs are dropped. */
    server_start(&f->srv, NULL, 0, 0);
    loop_io_stop(&f->srv.lio); /* never accept */
    int filler = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(filler >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
                             .sin_port = htons((uint16_t)f->srv.port)};
    assert_int_equal(connect(filler, (struct sockaddr *)&sa, sizeof sa), 0);
    wire_open(f, "127.0.0.1", f->srv.port, false, false, NULL, 500);
    int64_t t0 = loop_now(f->l);
    wire_connect(f);
    RUN_UNTIL(f, f->closed == 1);
    int64_t took = loop_now(f->l) - t0;
    close(filler);
    char want[IRC_WIRE_WHY_MAX], peer[64];
    snprintf(want, sizeof want, "timed out after 500 ms connecting to %s",
             peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port));
    assert_string_equal(f->why, want);
    assert_true(took >= 490);
    assert_int_equal(f->connected, 0);
}

static void test_the_connect_timeout_ends_once_connected(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 0);
    wire_open(f, "127.0.0.1", f->srv.port, false, false, NULL, 300);
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 1);
    run_for(f, 700);
    assert_int_equal(f->closed, 0);
    assert_true(irc_wire_connected(f->w));
}

static void test_a_server_that_never_answers_times_out_the_tls_handshake(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 0);
    loop_io_stop(&f->srv.lio); /* the kernel completes TCP; nobody speaks */
    wire_open(f, "127.0.0.1", f->srv.port, true, false, NULL, 1500);
    wire_connect(f);
    RUN_UNTIL(f, f->closed == 1);
    char want[IRC_WIRE_WHY_MAX], peer[64];
    snprintf(want, sizeof want, "timed out after 1500 ms in the TLS handshake with %s",
             peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port));
    assert_string_equal(f->why, want);
    assert_int_equal(f->connected, 0);
}

static void test_tls_to_a_plain_server_fails_the_handshake_with_a_reason(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 0);
    server_say(&f->srv, "ERROR :Closing link: this is not TLS\r\n");
    wire_open(f, "127.0.0.1", f->srv.port, true, false, NULL, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->closed == 1);
    char want[IRC_WIRE_WHY_MAX], peer[64];
    snprintf(want, sizeof want, "TLS handshake with %s failed: ",
             peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port));
    if (!starts_with(f->why, want) || strlen(f->why) == strlen(want))
        fail_msg("\"%s\" is not \"%s<reason>\"", f->why, want);
    assert_int_equal(f->connected, 0);
}

/* ------------------------------------------------------------------------ */
/* Ends of connections                                                      */

static void test_the_server_closing_the_connection_is_reported_after_its_last_line(void **state)
{
    fx *f = *state;
    connect_plain(f);
    server_say(&f->srv, "ERROR :Closing link\r\nunterminated");
    RUN_UNTIL(f, f->srv.out_len == 0);
    server_hang_up(&f->srv, false);
    RUN_UNTIL(f, f->closed == 1);
    assert_int_equal(f->nlines, 1);
    expect_line(f, 0, "ERROR :Closing link");
    assert_string_equal(f->why, "the server closed the connection");
    assert_false(irc_wire_connected(f->w));
    assert_string_equal(irc_wire_peer(f->w), "");
}

static void test_a_server_reset_with_lines_pending_ends_the_wire_without_sigpipe(void **state)
{
    fx *f = *state;
    signal(SIGPIPE, SIG_DFL); /* a SIGPIPE would end the test program */
    connect_plain(f);
    server_hang_up(&f->srv, true);
    for (int i = 0; i < 50; i++)
        assert_int_equal(wire_send(f, "PRIVMSG #t :are you there?"), 0);
    RUN_UNTIL(f, f->closed == 1);
    char want[IRC_WIRE_WHY_MAX], peer[64];
    snprintf(want, sizeof want,
             "lost the connection to %s: ", peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port));
    if (!starts_with(f->why, want) && strcmp(f->why, "the server closed the connection") != 0)
        fail_msg("unexpected reason \"%s\"", f->why);
    assert_int_equal(irc_wire_pending(f->w), 0);
}

/*
 * The wire's own socket, found as the local end of the server's client
 * (white box: only to shrink its send buffer).
 */
static int wire_socket(const fx *f)
{
    struct sockaddr_in peer;
    socklen_t len = sizeof peer;
    assert_int_equal(getpeername(f->srv.cfd, (struct sockaddr *)&peer, &len), 0);
    for (int fd = 3; fd < 1024; fd++) {
        struct sockaddr_in me;
        socklen_t mlen = sizeof me;
        if (fd != f->srv.cfd && getsockname(fd, (struct sockaddr *)&me, &mlen) == 0 &&
            me.sin_family == AF_INET && me.sin_port == peer.sin_port &&
            me.sin_addr.s_addr == peer.sin_addr.s_addr)
            return fd;
    }
    fail_msg("the wire's socket is not among the open fds");
    return -1;
}

/* Queues lines until the wire's buffer is full. */
static void fill_output(fx *f)
{
    char line[501];
    memset(line, 'z', 500);
    line[500] = '\0';
    memcpy(line, "PRIVMSG #t :", 12);
    int rc;
    while ((rc = wire_send(f, line)) == 0)
        ;
    assert_int_equal(rc, IRC_WIRE_EFULL);
}

/*
 * Whether why is how a wire reports a server gone while it wrote: EPIPE
 * (the usual way, once the server's RST met a socket it had closed),
 * ECONNRESET, or the end of file seen first.
 */
static void expect_gone(const fx *f)
{
    char peer[64], pipe_why[IRC_WIRE_WHY_MAX], reset_why[IRC_WIRE_WHY_MAX];
    peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port);
    snprintf(pipe_why, sizeof pipe_why, "lost the connection to %s: %s", peer, strerror(EPIPE));
    snprintf(reset_why, sizeof reset_why, "lost the connection to %s: %s", peer,
             strerror(ECONNRESET));
    if (strcmp(f->why, pipe_why) != 0 && strcmp(f->why, reset_why) != 0 &&
        strcmp(f->why, "the server closed the connection") != 0)
        fail_msg("unexpected reason \"%s\"", f->why);
}

static void test_a_server_gone_while_lines_are_pending_raises_no_sigpipe(void **state)
{
    fx *f = *state;
    signal(SIGPIPE, SIG_DFL); /* a SIGPIPE would end the test program */
    connect_plain(f);
    /* A small send buffer: the flush takes several send()s, and the server's
       RST to the first one (it closed: FIN) makes the next one meet EPIPE. */
    int small = 4096, fd = wire_socket(f);
    assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
    server_hang_up(&f->srv, false);
    fill_output(f);
    RUN_UNTIL(f, f->closed == 1);
    expect_gone(f);
    assert_int_equal(irc_wire_pending(f->w), 0);
}

/* ------------------------------------------------------------------------ */
/* Writing at once                                                          */

/* irc_wire_write_now, which must not run a callback. */
static int wire_write_now(fx *f)
{
    f->api++;
    int rc = irc_wire_write_now(f->w);
    f->api--;
    return rc;
}

/* Whether the server's socket holds bytes to read, without running the
   loop (so without the wire's own poll), waiting up to a second. */
static bool server_socket_readable(const fx *f)
{
    struct pollfd p = {.fd = f->srv.cfd, .events = POLLIN};
    return poll(&p, 1, 1000) == 1 && (p.revents & POLLIN) != 0;
}

static void test_write_now_hands_lines_to_the_socket_before_the_loop_polls(void **state)
{
    fx *f = *state;
    connect_plain(f);
    assert_int_equal(wire_send(f, "PRIVMSG #t :one"), 0);
    assert_int_equal(wire_send(f, "PRIVMSG #t :two"), 0);
    assert_int_equal(irc_wire_pending(f->w), 34);
    assert_int_equal(wire_write_now(f), 0);
    assert_int_equal(irc_wire_pending(f->w), 0); /* in the kernel already */
    assert_true(server_socket_readable(f));
    assert_int_equal(wire_write_now(f), 0); /* nothing left: nothing to do */
    expect_server_got(f, "PRIVMSG #t :one\r\nPRIVMSG #t :two\r\n");
    assert_int_equal(f->closed, 0);
}

static void test_write_now_leaves_what_a_full_socket_refuses_to_the_loop_in_order(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 4096);
    f->srv.no_read = true;
    wire_open(f, "127.0.0.1", f->srv.port, false, false, NULL, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 1 && f->srv.cfd >= 0);
    int small = 4096, fd = wire_socket(f);
    assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
    int sent = 0;
    char line[64];
    for (;; sent++) {
        snprintf(line, sizeof line, "PRIVMSG #t :%08d", sent);
        if (wire_send(f, line) == IRC_WIRE_EFULL)
            break;
    }
    size_t before = irc_wire_pending(f->w);
    assert_int_equal(wire_write_now(f), 0);
    size_t after = irc_wire_pending(f->w);
    assert_true(after > 0 && after < before); /* the kernel took some: EAGAIN for the rest */
    assert_int_equal(wire_write_now(f), 0);
    assert_int_equal(irc_wire_pending(f->w), after); /* nothing more fits: nothing lost */
    assert_true(irc_wire_connected(f->w));
    server_resume(&f->srv);
    size_t len = strlen("PRIVMSG #t :00000000\r\n");
    RUN_UNTIL(f, irc_wire_pending(f->w) == 0 && f->srv.in_len == (size_t)sent * len);
    for (int i = 0; i < sent; i++) {
        snprintf(line, sizeof line, "PRIVMSG #t :%08d\r\n", i);
        assert_memory_equal(f->srv.in + (size_t)i * len, line, len);
    }
    assert_int_equal(f->closed, 0);
}

static void test_write_now_to_a_server_gone_runs_no_callback_and_the_loop_says_why(void **state)
{
    fx *f = *state;
    signal(SIGPIPE, SIG_DFL); /* a SIGPIPE would end the test program */
    connect_plain(f);
    server_hang_up(&f->srv, true); /* a RST, not seen by the wire yet */
    usleep(20000);
    assert_int_equal(wire_send(f, "PRIVMSG #t :are you there?"), 0);
    assert_int_equal(wire_write_now(f), 0); /* fails inside: on_closed would count an error */
    assert_int_equal(f->closed, 0);
    assert_true(irc_wire_connected(f->w)); /* until the loop reports it */
    assert_int_equal(wire_send(f, "PRIVMSG #t :and now?"), IRC_WIRE_ESTATE);
    assert_int_equal(wire_write_now(f), 0);
    RUN_UNTIL(f, f->closed == 1);
    expect_gone(f);
    assert_false(irc_wire_connected(f->w));
    assert_int_equal(irc_wire_pending(f->w), 0);
}

static void test_write_now_is_refused_unless_connected(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 0);
    wire_open(f, "127.0.0.1", f->srv.port, false, false, NULL, 0);
    assert_int_equal(wire_write_now(f), IRC_WIRE_ESTATE);
    wire_connect(f);
    assert_int_equal(wire_write_now(f), IRC_WIRE_ESTATE); /* still connecting */
    RUN_UNTIL(f, f->connected == 1);
    assert_int_equal(wire_write_now(f), 0);
    wire_close(f);
    assert_int_equal(wire_write_now(f), IRC_WIRE_ESTATE);
    f->api++;
    assert_int_equal(irc_wire_write_now(NULL), IRC_WIRE_ESTATE);
    f->api--;
}

static void test_closing_in_the_line_callback_stops_the_lines_already_read(void **state)
{
    fx *f = *state;
    connect_plain(f);
    f->close_at = 2;
    server_say(&f->srv, "1\r\n2\r\n3\r\n4\r\n");
    RUN_UNTIL(f, f->nlines == 2);
    RUN_UNTIL(f, f->srv.eof);
    run_for(f, 50);
    assert_int_equal(f->nlines, 2);
    expect_line(f, 1, "2");
    assert_int_equal(f->closed, 0);
    assert_false(irc_wire_connected(f->w));
}

static void test_close_runs_no_callback_and_the_wire_connects_again(void **state)
{
    fx *f = *state;
    connect_plain(f);
    server_say(&f->srv, "first\r\n");
    RUN_UNTIL(f, f->nlines == 1);
    wire_close(f);
    wire_close(f); /* twice is fine */
    RUN_UNTIL(f, f->srv.eof);
    run_for(f, 50);
    assert_int_equal(f->closed, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 2 && f->srv.accepted == 2);
    server_say(&f->srv, "second\r\n");
    assert_int_equal(wire_send(f, "PING :x"), 0);
    RUN_UNTIL(f, f->nlines == 2);
    expect_line(f, 1, "second");
    expect_server_got(f, "PING :x\r\n");
}

static void test_the_closed_callback_may_connect_again(void **state)
{
    fx *f = *state;
    connect_plain(f);
    f->reconnect = true;
    server_hang_up(&f->srv, false);
    RUN_UNTIL(f, f->closed == 1);
    RUN_UNTIL(f, f->connected == 2 && f->srv.accepted == 2);
    assert_string_equal(f->why, "the server closed the connection");
    assert_true(irc_wire_connected(f->w));
}

static void test_freeing_a_wire_while_it_resolves_neither_waits_nor_leaks(void **state)
{
    fx *f = *state;
    int before = atomic_load(&slow_started);
    wire_open(f, "localhost.slow.test", 6667, false, false, NULL, 0);
    wire_connect(f);
    RUN_UNTIL(f, atomic_load(&slow_started) == before + 1); /* the worker is in getaddrinfo */
    int64_t t0 = loop_monotonic_ms(NULL);
    f->api++;
    irc_wire_free(f->w);
    f->api--;
    f->w = NULL;
    assert_true(loop_monotonic_ms(NULL) - t0 < SLOW_MS / 2);
    assert_int_equal(atomic_load(&slow_done), before); /* still resolving */
    RUN_UNTIL(f, atomic_load(&slow_done) == before + 1);
    /* The same with the real resolver, freed before the loop ever ran. */
    wire_open(f, "no-such-host.invalid", 6667, false, false, NULL, 0);
    wire_connect(f);
    f->api++;
    irc_wire_free(f->w);
    f->api--;
    f->w = NULL;
    run_for(f, 200);
    assert_int_equal(f->closed + f->connected, 0);
}

static void test_closing_while_resolving_reports_nothing_and_a_new_connect_works(void **state)
{
    fx *f = *state;
    int before = atomic_load(&slow_started);
    server_start(&f->srv, NULL, 16, 0);
    wire_open(f, "localhost.slow.test", f->srv.port, false, false, NULL, 0);
    for (int i = 0; i < 3; i++) {
        wire_connect(f);
        if (i == 1)
            assert_true(loop_run_once(f->l, false) >= 0);
        wire_close(f);
        assert_false(irc_wire_connecting(f->w));
    }
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 1);
    char peer[64];
    assert_string_equal(irc_wire_peer(f->w),
                        peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port));
    RUN_UNTIL(f, atomic_load(&slow_done) == before + 4 && f->srv.accepted == 1);
    run_for(f, 50);
    assert_int_equal(f->closed, 0);
    assert_int_equal(f->connected, 1);
}

static void test_freeing_a_connected_wire_with_output_pending_is_clean(void **state)
{
    fx *f = *state;
    server_start(&f->srv, NULL, 16, 4096);
    wire_open(f, "127.0.0.1", f->srv.port, false, false, NULL, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 1 && f->srv.cfd >= 0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(wire_send(f, "PRIVMSG #t :pending"), 0);
    assert_true(irc_wire_pending(f->w) > 0);
    f->api++;
    irc_wire_free(f->w);
    f->api--;
    f->w = NULL;
    RUN_UNTIL(f, f->srv.eof);
    assert_int_equal(f->closed, 0);
}

/* ------------------------------------------------------------------------ */
/* TLS                                                                      */

/* The test PKI, made once for the TLS group. */
static struct {
    char dir[64];
    char ca[128], ca_key[128], wrong_ca[128], wrong_ca_key[128];
    char cert[128], key[128], csr[128], ext[128];
    char other_cert[128], other_key[128], other_csr[128], other_ext[128];
    char log[128];
} pki;

/* dir/name into out (128 bytes). */
static int pki_path(char *out, const char *name)
{
    int n = snprintf(out, 128, "%s/%s", pki.dir, name);
    return n > 0 && n < 128 ? 0 : -1;
}

static int pki_teardown(void **state);

/* Runs openssl with args (NULL-terminated), output to the log. 0 when it succeeded. */
static int run_openssl(const char *const *args)
{
    char *argv[40];
    size_t n = 0;
    argv[n++] = (char *)"openssl";
    for (; args[n - 1] != NULL && n < 39; n++)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, pki.log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, "openssl", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        fprintf(stderr,
                "cannot run openssl: %s (Debian: apt-get install openssl, or tests/deps.sh)\n",
                strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "openssl %s failed (exit %d%s); see %s\n", args[0],
                WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                WEXITSTATUS(status) == 127 ? ": not installed? run tests/deps.sh" : "", pki.log);
        return -1;
    }
    return 0;
}

/* Writes a server certificate's extensions (for names and ips) to path. */
static int write_ext(const char *path, const char *san)
{
    FILE *fp = fopen(path, "w");
    if (fp == NULL)
        return -1;
    int n = fprintf(fp,
                    "basicConstraints=critical,CA:FALSE\n"
                    "keyUsage=critical,digitalSignature,keyEncipherment\n"
                    "extendedKeyUsage=serverAuth\n"
                    "subjectKeyIdentifier=hash\n"
                    "authorityKeyIdentifier=keyid,issuer\n"
                    "subjectAltName=%s\n",
                    san);
    return fclose(fp) == 0 && n > 0 ? 0 : -1;
}

/* A CA: key and self-signed certificate. */
static int make_ca(const char *key, const char *cert, const char *cn)
{
    const char *args[] = {"req",
                          "-x509",
                          "-new",
                          "-newkey",
                          "ec",
                          "-pkeyopt",
                          "ec_paramgen_curve:prime256v1",
                          "-nodes",
                          "-keyout",
                          key,
                          "-out",
                          cert,
                          "-days",
                          "3650",
                          "-subj",
                          cn,
                          "-addext",
                          "basicConstraints=critical,CA:TRUE",
                          "-addext",
                          "keyUsage=critical,keyCertSign,cRLSign",
                          "-addext",
                          "subjectKeyIdentifier=hash",
                          NULL};
    return run_openssl(args);
}

/* A server key and certificate for subject cn and san, signed by the test CA. */
static int make_server(const char *key, const char *csr, const char *ext, const char *cert,
                       const char *cn, const char *san, const char *serial)
{
    const char *req[] = {
        "req",    "-new",    "-newkey", "ec",   "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-keyout", key,       "-out", csr,        "-subj",
        cn,       NULL};
    const char *sign[] = {"x509",    "-req",     "-in",         csr,    "-CA",   pki.ca,
                          "-CAkey",  pki.ca_key, "-set_serial", serial, "-days", "3650",
                          "-sha256", "-extfile", ext,           "-out", cert,    NULL};
    if (run_openssl(req) != 0 || write_ext(ext, san) != 0)
        return -1;
    return run_openssl(sign);
}

/*
 * The TLS group's set-up: in a new temporary directory, the test CA, an
 * unrelated "wrong" CA, a server certificate for localhost and 127.0.0.1
 * and one for other.example only, both signed by the test CA.
 */
static int pki_setup(void **state)
{
    (void)state;
    snprintf(pki.dir, sizeof pki.dir, "/tmp/pz-wire-pki-XXXXXX");
    if (mkdtemp(pki.dir) == NULL) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        return -1;
    }
    if (pki_path(pki.ca, "ca.pem") || pki_path(pki.ca_key, "ca.key") ||
        pki_path(pki.wrong_ca, "wrong-ca.pem") || pki_path(pki.wrong_ca_key, "wrong-ca.key") ||
        pki_path(pki.cert, "server.pem") || pki_path(pki.key, "server.key") ||
        pki_path(pki.csr, "server.csr") || pki_path(pki.ext, "server.ext") ||
        pki_path(pki.other_cert, "other.pem") || pki_path(pki.other_key, "other.key") ||
        pki_path(pki.other_csr, "other.csr") || pki_path(pki.other_ext, "other.ext") ||
        pki_path(pki.log, "openssl.log"))
        return -1;
    if (make_ca(pki.ca_key, pki.ca, "/CN=Porrazo Test CA") != 0 ||
        make_ca(pki.wrong_ca_key, pki.wrong_ca, "/CN=Porrazo Wrong CA") != 0 ||
        make_server(pki.key, pki.csr, pki.ext, pki.cert, "/CN=localhost",
                    "DNS:localhost,IP:127.0.0.1", "4097") != 0 ||
        make_server(pki.other_key, pki.other_csr, pki.other_ext, pki.other_cert,
                    "/CN=other.example", "DNS:other.example", "4098") != 0) {
        fprintf(stderr, "cannot make the test PKI in %s\n", pki.dir);
        pki_teardown(state);
        return -1;
    }
    return 0;
}

/* Removes the PKI directory. */
static int pki_teardown(void **state)
{
    (void)state;
    DIR *d = opendir(pki.dir);
    if (d == NULL)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[256];
        if (e->d_name[0] == '.')
            continue;
        int n = snprintf(path, sizeof path, "%s/%s", pki.dir, e->d_name);
        if (n > 0 && (size_t)n < sizeof path)
            unlink(path);
    }
    closedir(d);
    rmdir(pki.dir);
    return 0;
}

/* A TLS server context with cert and key (the server's own modes). */
static SSL_CTX *server_ctx(const char *cert, const char *key)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    assert_non_null(ctx);
    assert_int_equal(SSL_CTX_use_certificate_chain_file(ctx, cert), 1);
    assert_int_equal(SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM), 1);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    return ctx;
}

/* A TLS server with cert/key and a wire to host with verify and ca, connecting. */
static void tls_start(fx *f, const char *cert, const char *key, const char *host, bool verify,
                      const char *ca)
{
    signal(SIGPIPE, SIG_DFL);
    server_start(&f->srv, server_ctx(cert, key), 16, 0);
    wire_open(f, host, f->srv.port, true, verify, ca, 0);
    wire_connect(f);
}

/* Lines both ways over an established TLS connection. */
static void tls_talk(fx *f)
{
    RUN_UNTIL(f, f->connected == 1 && f->srv.up);
    expect_server_got(f, "NICK porrazo\r\n");
    server_say(&f->srv, ":irc.porrazo.test 001 porrazo :Welcome\r\nPING :abc\n");
    RUN_UNTIL(f, f->nlines == 2);
    expect_line(f, 0, ":irc.porrazo.test 001 porrazo :Welcome");
    expect_line(f, 1, "PING :abc");
    assert_int_equal(wire_send(f, "PONG :abc"), 0);
    expect_server_got(f, "NICK porrazo\r\nPONG :abc\r\n");
    assert_int_equal(f->closed, 0);
}

static void test_tls_with_the_right_ca_verifies_an_address_and_lines_flow_both_ways(void **state)
{
    fx *f = *state;
    f->greet = "NICK porrazo";
    tls_start(f, pki.cert, pki.key, "127.0.0.1", true, pki.ca);
    tls_talk(f);
    char peer[64];
    assert_string_equal(irc_wire_peer(f->w),
                        peer_text(peer, sizeof peer, "127.0.0.1", f->srv.port));
    assert_string_equal(f->srv.sni, ""); /* no SNI for an address */
}

static void test_tls_with_the_right_ca_verifies_a_host_name(void **state)
{
    fx *f = *state;
    f->greet = "NICK porrazo";
    tls_start(f, pki.cert, pki.key, "localhost", true, pki.ca);
    tls_talk(f);
    assert_string_equal(f->srv.sni, "localhost");
}

/* Waits for the wire to close and checks why is the verification failure err. */
static void expect_verify_failed(fx *f, long err)
{
    RUN_UNTIL(f, f->closed == 1);
    char want[IRC_WIRE_WHY_MAX];
    snprintf(want, sizeof want, "TLS: certificate verify failed (%s)",
             X509_verify_cert_error_string(err));
    assert_string_equal(f->why, want);
    assert_int_equal(f->connected, 0);
    assert_int_equal(f->nlines, 0);
}

static void test_tls_with_a_wrong_ca_fails_as_certificate_verify_failed(void **state)
{
    fx *f = *state;
    tls_start(f, pki.cert, pki.key, "127.0.0.1", true, pki.wrong_ca);
    expect_verify_failed(f, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY);
}

static void test_tls_trusts_the_system_cas_when_no_ca_file_is_given(void **state)
{
    fx *f = *state;
    tls_start(f, pki.cert, pki.key, "localhost", true, NULL); /* the test CA is not the system's */
    expect_verify_failed(f, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY);
}

static void test_tls_to_a_name_the_certificate_does_not_carry_fails(void **state)
{
    fx *f = *state;
    tls_start(f, pki.other_cert, pki.other_key, "localhost", true, pki.ca);
    expect_verify_failed(f, X509_V_ERR_HOSTNAME_MISMATCH);
}

static void test_tls_to_an_address_the_certificate_does_not_carry_fails(void **state)
{
    fx *f = *state;
    tls_start(f, pki.other_cert, pki.other_key, "127.0.0.1", true, pki.ca);
    expect_verify_failed(f, X509_V_ERR_IP_ADDRESS_MISMATCH);
}

static void test_tls_without_verification_connects_despite_a_wrong_ca(void **state)
{
    fx *f = *state;
    f->greet = "NICK porrazo";
    tls_start(f, pki.other_cert, pki.other_key, "localhost", false, pki.wrong_ca);
    tls_talk(f);
}

static void test_tls_close_notify_from_the_server_is_reported_as_its_close(void **state)
{
    fx *f = *state;
    tls_start(f, pki.cert, pki.key, "localhost", true, pki.ca);
    RUN_UNTIL(f, f->connected == 1 && f->srv.up);
    server_say(&f->srv, "ERROR :bye\r\n");
    RUN_UNTIL(f, f->nlines == 1);
    NO_SIGPIPE((void)SSL_shutdown(f->srv.ssl));
    server_hang_up(&f->srv, false);
    RUN_UNTIL(f, f->closed == 1);
    assert_string_equal(f->why, "the server closed the connection");
    expect_line(f, 0, "ERROR :bye");
}

static void test_tls_carries_a_lot_both_ways_in_order(void **state)
{
    fx *f = *state;
    tls_start(f, pki.cert, pki.key, "127.0.0.1", true, pki.ca);
    RUN_UNTIL(f, f->connected == 1 && f->srv.up);
    enum { N = 3000, LEN = 300 };
    char line[LEN + 16]; /* room for i's digits past %06d, which never happen */
    for (int i = 0; i < N; i++) {
        snprintf(line, sizeof line, ":s PRIVMSG #t :%06d %0*d\r\n", i, LEN - 22, 0);
        server_say(&f->srv, line);
    }
    for (int i = 0; i < N;) {
        snprintf(line, sizeof line, "PRIVMSG #t :%06d %0*d", i, LEN - 20, 0);
        int rc = wire_send(f, line);
        if (rc == IRC_WIRE_EFULL) {
            assert_true(loop_run_once(f->l, true) >= 0);
            continue;
        }
        assert_int_equal(rc, 0);
        i++;
    }
    size_t out_len = strlen(line) + 2;
    RUN_UNTIL(f, f->nlines == N && f->srv.in_len == (size_t)N * out_len);
    for (int i = 0; i < N; i++) {
        char want[32];
        snprintf(want, sizeof want, ":s PRIVMSG #t :%06d ", i);
        assert_memory_equal(f->lines[i].data, want, strlen(want));
        snprintf(want, sizeof want, "PRIVMSG #t :%06d ", i);
        assert_memory_equal(f->srv.in + (size_t)i * out_len, want, strlen(want));
    }
    assert_int_equal(f->closed, 0);
}

static void test_a_tls_server_gone_while_lines_are_pending_raises_no_sigpipe(void **state)
{
    fx *f = *state;
    tls_start(f, pki.cert, pki.key, "127.0.0.1", true, pki.ca); /* SIGPIPE at its default */
    RUN_UNTIL(f, f->connected == 1 && f->srv.up);
    server_hang_up(&f->srv, false); /* no close_notify: the socket just closes */
    fill_output(f);                 /* several TLS records: several send()s */
    RUN_UNTIL(f, f->closed == 1);
    expect_gone(f);
}

static void test_tls_write_now_hands_a_record_to_the_socket_before_the_loop_polls(void **state)
{
    fx *f = *state;
    tls_start(f, pki.cert, pki.key, "127.0.0.1", true, pki.ca);
    RUN_UNTIL(f, f->connected == 1 && f->srv.up);
    assert_int_equal(wire_send(f, "PRIVMSG #t :sealed"), 0);
    assert_int_equal(wire_write_now(f), 0);
    assert_int_equal(irc_wire_pending(f->w), 0); /* one TLS record, in the kernel */
    assert_true(server_socket_readable(f));
    expect_server_got(f, "PRIVMSG #t :sealed\r\n");
    assert_int_equal(f->closed, 0);
}

static void test_freeing_a_tls_wire_mid_handshake_and_connected_is_clean(void **state)
{
    fx *f = *state;
    tls_start(f, pki.cert, pki.key, "localhost", true, pki.ca);
    RUN_UNTIL(f, f->srv.accepted == 1 && f->srv.cfd >= 0);
    f->api++;
    irc_wire_free(f->w); /* the handshake is under way */
    f->api--;
    f->w = NULL;
    RUN_UNTIL(f, f->srv.cfd < 0 || f->srv.eof);
    wire_open(f, "localhost", f->srv.port, true, true, pki.ca, 0);
    wire_connect(f);
    RUN_UNTIL(f, f->connected == 1 && f->srv.up);
    assert_int_equal(wire_send(f, "QUIT :bye"), 0);
    f->api++;
    irc_wire_free(f->w); /* a close_notify goes, the QUIT may not */
    f->api--;
    f->w = NULL;
    RUN_UNTIL(f, f->srv.eof);
    assert_int_equal(f->closed, 0);
}

/* ------------------------------------------------------------------------ */

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
    const struct CMUnitTest plain[] = {
        T(test_every_error_code_has_its_own_message),
        T(test_new_refuses_a_bad_host_port_or_timeout_with_a_reason),
        T(test_a_missing_ca_file_fails_new_with_a_reason_naming_the_file),
        T(test_a_ca_file_without_a_certificate_fails_new_naming_the_file),
        T(test_lines_flow_both_ways_with_crlf_and_bare_lf),
        T(test_a_line_split_across_many_reads_arrives_whole_and_once),
        T(test_many_lines_in_one_read_arrive_in_order),
        T(test_a_line_of_exactly_the_maximum_is_kept_and_one_byte_more_is_dropped),
        T(test_a_huge_line_is_dropped_whole_across_many_reads),
        T(test_a_nul_inside_a_line_is_delivered_with_its_length),
        T(test_send_refuses_cr_lf_nul_and_overlong_lines_and_queues_nothing),
        T(test_send_is_refused_unless_connected_and_connect_while_busy_too),
        T(test_send_reports_full_and_queues_nothing_when_the_buffer_is_full),
        T(test_a_slow_server_makes_writes_wait_without_losing_or_reordering_bytes),
        T(test_a_refused_connection_is_reported_by_closed_naming_the_address),
        T(test_an_ipv6_literal_in_brackets_is_used_and_named_in_messages),
        T(test_the_loop_runs_on_while_a_name_resolves),
        T(test_a_name_that_does_not_exist_is_reported_in_the_resolvers_words),
        T(test_a_slow_resolution_times_out_naming_the_host),
        T(test_a_host_name_is_resolved_and_connected),
        T(test_a_listener_that_never_accepts_times_out_the_connect),
        T(test_the_connect_timeout_ends_once_connected),
        T(test_a_server_that_never_answers_times_out_the_tls_handshake),
        T(test_tls_to_a_plain_server_fails_the_handshake_with_a_reason),
        T(test_the_server_closing_the_connection_is_reported_after_its_last_line),
        T(test_a_server_reset_with_lines_pending_ends_the_wire_without_sigpipe),
        T(test_a_server_gone_while_lines_are_pending_raises_no_sigpipe),
        T(test_write_now_hands_lines_to_the_socket_before_the_loop_polls),
        T(test_write_now_leaves_what_a_full_socket_refuses_to_the_loop_in_order),
        T(test_write_now_to_a_server_gone_runs_no_callback_and_the_loop_says_why),
        T(test_write_now_is_refused_unless_connected),
        T(test_closing_in_the_line_callback_stops_the_lines_already_read),
        T(test_close_runs_no_callback_and_the_wire_connects_again),
        T(test_the_closed_callback_may_connect_again),
        T(test_freeing_a_wire_while_it_resolves_neither_waits_nor_leaks),
        T(test_closing_while_resolving_reports_nothing_and_a_new_connect_works),
        T(test_freeing_a_connected_wire_with_output_pending_is_clean),
    };
    const struct CMUnitTest tls[] = {
        T(test_tls_with_the_right_ca_verifies_an_address_and_lines_flow_both_ways),
        T(test_tls_with_the_right_ca_verifies_a_host_name),
        T(test_tls_with_a_wrong_ca_fails_as_certificate_verify_failed),
        T(test_tls_trusts_the_system_cas_when_no_ca_file_is_given),
        T(test_tls_to_a_name_the_certificate_does_not_carry_fails),
        T(test_tls_to_an_address_the_certificate_does_not_carry_fails),
        T(test_tls_without_verification_connects_despite_a_wrong_ca),
        T(test_tls_close_notify_from_the_server_is_reported_as_its_close),
        T(test_tls_carries_a_lot_both_ways_in_order),
        T(test_a_tls_server_gone_while_lines_are_pending_raises_no_sigpipe),
        T(test_tls_write_now_hands_a_record_to_the_socket_before_the_loop_polls),
        T(test_freeing_a_tls_wire_mid_handshake_and_connected_is_clean),
    };
    int failed = cmocka_run_group_tests_name("irc_wire", plain, NULL, NULL);
    failed += cmocka_run_group_tests_name("irc_wire TLS", tls, pki_setup, pki_teardown);
    return failed;
}
