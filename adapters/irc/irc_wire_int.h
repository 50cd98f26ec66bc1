/*
 * irc_wire_int.h — what the parts of irc_wire share, private to the
 * module: the wire's struct, the checked formatter every message goes
 * through, and the functions of the resolver (irc_wire_resolve.c) and of
 * TLS (irc_wire_tls.c), which the connection's state machine (irc_wire.c)
 * calls at fixed points. Not a public interface: the adapter includes
 * irc_wire.h only.
 */
#ifndef PZ_IRC_WIRE_INT_H
#define PZ_IRC_WIRE_INT_H

#ifndef PZ_INSIDE_IRC_WIRE
#error "irc_wire_int.h is irc_wire's inside: other layers include irc_wire.h (ARCHITECTURE.md)"
#endif

#include <netdb.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "irc_wire.h"

#define WIRE_HOST_MAX 256  /* a host, NUL included */
#define WIRE_SERVICE_MAX 8 /* a port in decimal, NUL included */
#define WIRE_ADDR_MAX 64   /* "ADDR port N", NUL included */
/* The read buffer: a whole line with its CR LF, and room to read more after it. */
#define WIRE_IN_MAX (IRC_WIRE_LINE_MAX + 2 + 8192)

/* Where a wire is in its life; each connection goes down this list once. */
typedef enum wire_state {
    WIRE_IDLE,       /* no connection */
    WIRE_RESOLVING,  /* waiting for the worker (or for the first step, for a literal) */
    WIRE_CONNECTING, /* a non-blocking connect() to w->addr is under way */
    WIRE_HANDSHAKE,  /* TCP is up, the TLS handshake is under way */
    WIRE_CONNECTED   /* the connected callback has run */
} wire_state;

typedef struct wire_req wire_req; /* one resolution in a worker thread (irc_wire_resolve.c) */

struct irc_wire {
    /* Set by irc_wire_new, then read only. */
    loop *loop;
    irc_wire_callbacks cb;
    void *arg;
    char host[WIRE_HOST_MAX];       /* without the brackets of an IPv6 literal */
    char service[WIRE_SERVICE_MAX]; /* the port, in decimal */
    bool host_is_ip;                /* host is an address literal: no resolver, no SNI */
    bool tls, tls_verify;
    int64_t timeout_ms;
    SSL_CTX *ctx;           /* with TLS */
    BIO_METHOD *bio_method; /* with TLS: the socket BIO that never raises SIGPIPE */

    /* The connection. */
    wire_state state;
    uint64_t gen;                       /* bumped by every teardown: callbacks check it */
    int depth;                          /* callbacks of this wire running now */
    loop_timer deadline;                /* resolve + connect + handshake */
    loop_timer defer;                   /* the first step of a connect; a cut-short TLS read */
    loop_io io;                         /* the socket */
    loop_io rio;                        /* the resolver thread's pipe */
    int fd;                             /* -1 when none */
    wire_req *req;                      /* the resolution of this connection, while it runs */
    struct addrinfo *addrs, *next_addr; /* what to connect to, and the next to try */
    char addr[WIRE_ADDR_MAX];           /* the address tried or connected: "ADDR port N" */
    char why[IRC_WIRE_WHY_MAX];         /* the failure to report */
    bool why_pending;                   /* report why at the first step (resolving) */
    SSL *ssl;
    bool tls_want_write; /* OpenSSL waits for the socket to be writable */
    bool tls_failed;     /* a fatal TLS error: no close_notify any more */
    bool write_failed;   /* irc_wire_write_now failed: the loop reports it (w->why) */

    /* Line framing, both ways. */
    size_t in_len;
    bool discarding; /* inside a line too long: drop up to the next LF */
    uint64_t dropped;
    size_t out_head, out_len; /* out[out_head..out_len) is waiting */
    char in[WIRE_IN_MAX];
    char out[IRC_WIRE_OUT_MAX];
};

/*
 * snprintf into dst (size bytes) that never fails silently: a message cut
 * short ends in "...", and a formatting error leaves a fixed sentence.
 */
void wire_fmt(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Starts resolving w->host: a literal into w->addrs at once, a name in a
 * worker whose end makes w->rio call on_done(..., w) (w->req set). On
 * failure neither is set and w->why says why.
 */
void wire_resolve_start(irc_wire *w, loop_io_cb on_done);

/* Whether w->req's worker has finished (its pipe may be read as a hint only). */
bool wire_resolve_done(const irc_wire *w);

/*
 * Takes the outcome of the finished w->req and lets it go: 0 with
 * w->addrs, or -1 with w->why ("cannot resolve HOST: <resolver's words>").
 */
int wire_resolve_finish(irc_wire *w);

/* Gives up w->req, if any; its worker frees it when getaddrinfo returns. */
void wire_resolve_stop(irc_wire *w);

/*
 * Makes w->ctx and w->bio_method for w->tls_verify and ca_file (NULL or
 * "": the system's CAs). Returns 0, or IRC_WIRE_ETLS with why naming the
 * file or the OpenSSL error, with nothing left allocated.
 */
int wire_tls_ctx_new(irc_wire *w, const char *ca_file, char *why, size_t why_len);

/* Frees what wire_tls_ctx_new made (nothing when it made nothing). */
void wire_tls_ctx_free(irc_wire *w);

/*
 * Starts TLS on the connected w->fd: w->ssl with SNI and the name or
 * address to verify. Returns 0, or -1 with w->why (w->ssl may be set:
 * wire_tls_stop frees it).
 */
int wire_tls_start(irc_wire *w);

/*
 * Drives the handshake one step. Returns 1 when done (and verified), 0
 * when OpenSSL waits for the socket (w->tls_want_write says which way), or
 * -1 with w->why ("TLS: certificate verify failed (...)" and the like).
 */
int wire_tls_handshake(irc_wire *w);

/*
 * SSL_read into buf: the bytes read, 0 when nothing more can be read now
 * (w->tls_want_write set if OpenSSL must write first), or -1 with w->why
 * when the connection ended.
 */
long wire_tls_recv(irc_wire *w, char *buf, size_t len);

/* SSL_write of buf: the bytes taken, 0 when none can be now, -1 with w->why. */
long wire_tls_send(irc_wire *w, const char *buf, size_t len);

/* Whether OpenSSL holds bytes already read from the socket and not yet returned. */
bool wire_tls_pending(const irc_wire *w);

/* Frees w->ssl, sending a close_notify first when notify (best effort). */
void wire_tls_stop(irc_wire *w, bool notify);

#endif /* PZ_IRC_WIRE_INT_H */
