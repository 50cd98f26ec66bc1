/*
 * irc_wire.h — the IRC adapter's connection to the server: name resolution
 * that never blocks the loop, a non-blocking TCP connect over every address
 * the name has, TLS with OpenSSL (certificate and host name verified by
 * default), and line framing both ways. It runs inside the bot's event loop
 * (bot/base/loop.h): one loop_io for the socket, a detached worker thread per
 * name resolution (its pipe watched by a second loop_io; address literals
 * need none), loop_timers for the connect deadline and deferred steps.
 *
 * It is the only writer to the server: every line the adapter sends goes
 * through irc_wire_send, in order. Not here: what the lines say (irc_proto,
 * irc_event), pacing (irc_out), reconnect policy (the adapter decides
 * when to call irc_wire_connect again).
 *
 * Callbacks run from the loop, never from inside an irc_wire_* call. From a
 * callback the adapter may call irc_wire_send, irc_wire_close and
 * irc_wire_connect (after a close), but not irc_wire_free. After
 * irc_wire_close no callback of the closed connection runs any more, not
 * even for lines already read.
 *
 * Behaviour in detail:
 * - Addresses are tried in the resolver's order, each after the previous
 *   one failed; one deadline covers resolve + connect + handshake, so an
 *   address that neither answers nor refuses uses it up.
 * - An IPv6 literal may be written with brackets ("[::1]").
 * - No SIGPIPE, ever: plain and TLS writes both go through
 *   send(..., MSG_NOSIGNAL) (TLS through a socket BIO of irc_wire's own),
 *   so the process needs no SIG_IGN; a dead server is a closed callback.
 * - Lines: an empty line (a bare CR LF) is delivered with len 0; an
 *   unterminated last line before the end of file is not delivered.
 * - irc_wire_close sends a TLS close_notify when the socket takes it at
 *   once; neither it nor irc_wire_free ever waits (a resolution still
 *   running is left to its thread, which frees it when done).
 */
#ifndef PZ_IRC_WIRE_H
#define PZ_IRC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loop.h"

#define IRC_WIRE_LINE_MAX 8191            /* longest line read, CR LF excluded */
#define IRC_WIRE_OUT_MAX 65536            /* bytes waiting to be written, at most */
#define IRC_WIRE_TIMEOUT_DEFAULT_MS 30000 /* resolve + connect + TLS handshake */
#define IRC_WIRE_WHY_MAX 256              /* a closing reason, NUL included */

#define IRC_WIRE_ERRNO_MAP(XX)                                                                     \
    XX(INVAL, -1, "an argument is out of range (host, port, timeout, or a line with CR/LF/NUL)")   \
    XX(STATE, -2, "not possible in this state (not connected, or a connection is under way)")      \
    XX(FULL, -3, "the write buffer is full (IRC_WIRE_OUT_MAX bytes)")                              \
    XX(TLS, -4, "TLS could not be set up (CA file unreadable, OpenSSL error)")                     \
    XX(NO_MEMORY, -5, "out of memory")                                                             \
    XX(LOOP, -6, "the event loop refused a handle (its tables are full)")

typedef enum irc_wire_errno {
    IRC_WIRE_OK = 0,
#define IRC_WIRE_ERR_ENUM_(name, val, msg) IRC_WIRE_E##name = (val),
    IRC_WIRE_ERRNO_MAP(IRC_WIRE_ERR_ENUM_)
#undef IRC_WIRE_ERR_ENUM_
} irc_wire_errno;

/* A human message for err ("ok" for 0, "unknown error" otherwise). Never NULL. */
const char *irc_wire_strerror(int err);

typedef struct irc_wire_config {
    const char *host;    /* name or address literal (IPv4 or IPv6) */
    int port;            /* 1..65535 */
    bool tls;            /* speak TLS */
    bool tls_verify;     /* verify the chain and the host name (keep it on) */
    const char *ca_file; /* PEM bundle of trusted CAs; NULL or "": the system's
                            (read only with tls_verify) */
    int64_t timeout_ms;  /* resolve + connect + handshake; 0: the default */
} irc_wire_config;

typedef struct irc_wire_callbacks {
    /* TCP is up and, with TLS, the handshake verified: register now. */
    void (*connected)(void *arg);
    /*
     * One line from the server without its CR LF (a bare LF ends a line
     * too). line is NUL-terminated at len but may hold NUL bytes before it
     * (len counts them). Lines over IRC_WIRE_LINE_MAX bytes are dropped
     * whole and counted (irc_wire_dropped).
     */
    void (*line)(void *arg, const char *line, size_t len);
    /*
     * The connection ended or could not be made: why says what happened in
     * one sentence fit for a log ("cannot resolve irc.example.org: Name or
     * service not known", "connection refused by 127.0.0.1 port 6697",
     * "TLS: certificate verify failed (unable to get local issuer
     * certificate)", "the server closed the connection", "timed out
     * connecting to ..."). The wire is closed and may be connected again.
     */
    void (*closed)(void *arg, const char *why);
} irc_wire_callbacks;

typedef struct irc_wire irc_wire;

/*
 * Checks cfg, copies it and, with TLS, makes the OpenSSL context (loading
 * ca_file now, so a bad file is a start-up error). Returns 0 with *out, or
 * an error with why (why_len bytes) and *out untouched.
 */
int irc_wire_new(irc_wire **out, loop *l, const irc_wire_config *cfg, const irc_wire_callbacks *cb,
                 void *arg, char *why, size_t why_len);

/* Closes any connection (no callback) and frees w. NULL is fine. */
void irc_wire_free(irc_wire *w);

/*
 * Starts connecting: resolve (without blocking), connect to each address in
 * turn, TLS handshake. Ends in exactly one of connected or closed. Returns
 * 0, or IRC_WIRE_ESTATE when a connection exists or is under way, or
 * IRC_WIRE_ELOOP when the loop's timer table is full (nothing started).
 */
int irc_wire_connect(irc_wire *w);

/*
 * Queues line (len bytes, without CR LF) followed by CR LF. Only while
 * connected. Returns 0, IRC_WIRE_EINVAL (CR, LF or NUL inside, or over
 * 510 bytes), IRC_WIRE_ESTATE (not connected, or a write of
 * irc_wire_write_now failed: the connection is ending) or IRC_WIRE_EFULL;
 * nothing is queued on error. The bytes go when the loop sees the socket
 * writable, or at once with irc_wire_write_now.
 */
int irc_wire_send(irc_wire *w, const char *line, size_t len);

/*
 * Hands the socket (or TLS) now, without blocking, as much of the queued
 * output as it takes; what it does not take (EAGAIN, or TLS waiting to
 * read) stays queued for the loop. Runs no callback: a connection found
 * broken is reported by the closed callback from the loop, soon after.
 * Call it after queueing lines so they leave in the same loop turn.
 * Returns 0, or IRC_WIRE_ESTATE when not connected.
 */
int irc_wire_write_now(irc_wire *w);

/* Bytes queued and not yet handed to the kernel (or to TLS). */
size_t irc_wire_pending(const irc_wire *w);

/* True between the connected callback and the close. */
bool irc_wire_connected(const irc_wire *w);

/* True while resolving, connecting or handshaking. */
bool irc_wire_connecting(const irc_wire *w);

/* Closes the connection now, dropping unsent bytes, without a callback. */
void irc_wire_close(irc_wire *w);

/* Lines dropped for being longer than IRC_WIRE_LINE_MAX, since irc_wire_new. */
uint64_t irc_wire_dropped(const irc_wire *w);

/* The address connected to, as "ADDR port N" ("" when not connected). */
const char *irc_wire_peer(const irc_wire *w);

#endif /* PZ_IRC_WIRE_H */
