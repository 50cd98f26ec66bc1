/*
 * irc_wire_tls.c — the TLS half of irc_wire (see irc_wire.h and
 * irc_wire_int.h): one OpenSSL client context per wire (TLS 1.2 at least,
 * the peer's chain and name verified unless the operator turned it off),
 * and per connection an SSL object driven without blocking: the handshake
 * by WANT_READ / WANT_WRITE, reads and partial writes.
 *
 * OpenSSL talks to the socket through a small BIO of our own that uses
 * send(..., MSG_NOSIGNAL) and recv(), so a write to a connection the server
 * has reset returns EPIPE instead of raising SIGPIPE: the process needs no
 * signal disposition for TLS either (Linux has no SO_NOSIGPIPE).
 *
 * The thread's OpenSSL error queue is emptied before every I/O call (as
 * SSL_get_error requires) and after every failure, so nothing lingers for
 * other code. Not here: sockets' life, buffers, framing (irc_wire.c).
 */
#include "irc_wire_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/x509v3.h>

/* What an OpenSSL I/O call that did not succeed means. */
typedef enum tls_outcome {
    TLS_WANT_READ,  /* wait until the socket is readable */
    TLS_WANT_WRITE, /* wait until the socket is writable */
    TLS_EOF,        /* the server closed the connection */
    TLS_SYSTEM,     /* a socket error: errno */
    TLS_PROTOCOL    /* a TLS error: the error queue */
} tls_outcome;

/* The reason of the first error queued in OpenSSL, or a stand-in. Never NULL. */
static const char *ssl_reason(void)
{
    unsigned long e = ERR_peek_error();
    const char *r = e != 0 ? ERR_reason_error_string(e) : NULL;
    return r != NULL ? r : "unknown TLS error";
}

/* ------------------------------------------------------------------------ */
/* The socket BIO                                                           */

/* Writes to the wire's socket without SIGPIPE; EAGAIN asks OpenSSL to retry. */
static int bio_write(BIO *b, const char *buf, int len)
{
    const irc_wire *w = BIO_get_data(b);
    BIO_clear_retry_flags(b);
    ssize_t n;
    do
        n = send(w->fd, buf, (size_t)len, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        BIO_set_retry_write(b);
    return (int)n;
}

/* Reads from the wire's socket; EAGAIN asks OpenSSL to retry, 0 marks the end. */
static int bio_read(BIO *b, char *buf, int len)
{
    const irc_wire *w = BIO_get_data(b);
    BIO_clear_retry_flags(b);
    ssize_t n;
    do
        n = recv(w->fd, buf, (size_t)len, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        BIO_set_retry_read(b);
    if (n == 0)
        BIO_set_flags(b, BIO_FLAGS_IN_EOF); /* BIO_eof: an unexpected EOF, for OpenSSL */
    return (int)n;
}

/* The controls OpenSSL asks of a socket BIO: flush (nothing to do) and EOF. */
static long bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
    (void)num;
    (void)ptr;
    if (cmd == BIO_CTRL_FLUSH)
        return 1;
    if (cmd == BIO_CTRL_EOF)
        return BIO_test_flags(b, BIO_FLAGS_IN_EOF) != 0;
    return 0;
}

/* The BIO method of the wire's sockets, or NULL. */
static BIO_METHOD *bio_method_new(void)
{
    int index = BIO_get_new_index();
    if (index < 0)
        return NULL;
    BIO_METHOD *m = BIO_meth_new(index | BIO_TYPE_SOURCE_SINK, "irc_wire socket");
    if (m == NULL)
        return NULL;
    if (BIO_meth_set_write(m, bio_write) != 1 || BIO_meth_set_read(m, bio_read) != 1 ||
        BIO_meth_set_ctrl(m, bio_ctrl) != 1) {
        BIO_meth_free(m);
        return NULL;
    }
    return m;
}

/* ------------------------------------------------------------------------ */
/* The context                                                              */

/*
 * Trusts the CAs of ca_file only. The file is opened first so that a
 * missing or unreadable one says so in the system's words. 0, or
 * IRC_WIRE_ETLS with why naming the file.
 */
static int load_ca_file(SSL_CTX *ctx, const char *ca_file, char *why, size_t why_len)
{
    int fd = open(ca_file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        wire_fmt(why, why_len, "cannot read the CA file %s: %s", ca_file, strerror(errno));
        return IRC_WIRE_ETLS;
    }
    close(fd);
    if (SSL_CTX_load_verify_locations(ctx, ca_file, NULL) != 1) {
        wire_fmt(why, why_len, "the CA file %s holds no usable PEM certificate (%s)", ca_file,
                 ssl_reason());
        return IRC_WIRE_ETLS;
    }
    return 0;
}

/* The client context and BIO method of w (irc_wire_int.h). */
int wire_tls_ctx_new(irc_wire *w, const char *ca_file, char *why, size_t why_len)
{
    ERR_clear_error();
    int rc = IRC_WIRE_ETLS;
    BIO_METHOD *m = NULL;
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (ctx == NULL || SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) {
        wire_fmt(why, why_len, "cannot set up TLS: %s", ssl_reason());
        goto out;
    }
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (w->tls_verify) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
        if (ca_file != NULL && ca_file[0] != '\0') {
            if (load_ca_file(ctx, ca_file, why, why_len) != 0)
                goto out;
        } else if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
            wire_fmt(why, why_len, "cannot load the system's trusted CAs: %s", ssl_reason());
            goto out;
        }
    } else {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL); /* the operator's choice */
    }
    m = bio_method_new();
    if (m == NULL) {
        wire_fmt(why, why_len, "cannot set up TLS: %s", ssl_reason());
        goto out;
    }
    w->ctx = ctx;
    w->bio_method = m;
    ctx = NULL;
    rc = 0;
out:
    SSL_CTX_free(ctx);
    ERR_clear_error();
    return rc;
}

/* Frees w's context and BIO method (irc_wire_int.h). */
void wire_tls_ctx_free(irc_wire *w)
{
    SSL_CTX_free(w->ctx);
    BIO_meth_free(w->bio_method);
    w->ctx = NULL;
    w->bio_method = NULL;
}

/* ------------------------------------------------------------------------ */
/* A connection                                                             */

/*
 * w->ssl over w->fd: SNI for a name (not for an address literal), and with
 * verification the name (SSL_set1_host, no partial wildcards) or the
 * address (X509_VERIFY_PARAM_set1_ip_asc) the certificate must carry.
 */
int wire_tls_start(irc_wire *w)
{
    ERR_clear_error();
    w->tls_failed = false;
    w->ssl = SSL_new(w->ctx);
    BIO *bio = w->ssl != NULL ? BIO_new(w->bio_method) : NULL;
    if (bio == NULL) {
        wire_fmt(w->why, sizeof w->why, "cannot set up TLS for %s: %s", w->addr, ssl_reason());
        ERR_clear_error();
        return -1;
    }
    BIO_set_data(bio, w);
    BIO_set_init(bio, 1);
    SSL_set_bio(w->ssl, bio, bio); /* the SSL owns the BIO now */
    SSL_set_connect_state(w->ssl);
    SSL_set_mode(w->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    bool ok = w->host_is_ip || SSL_set_tlsext_host_name(w->ssl, w->host) == 1;
    if (ok && w->tls_verify) {
        if (w->host_is_ip) {
            ok = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(w->ssl), w->host) == 1;
        } else {
            SSL_set_hostflags(w->ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
            ok = SSL_set1_host(w->ssl, w->host) == 1;
        }
    }
    if (!ok) {
        wire_fmt(w->why, sizeof w->why, "cannot set up TLS to check the certificate of %s: %s",
                 w->host, ssl_reason());
        ERR_clear_error();
        return -1;
    }
    return 0;
}

/* What the failed OpenSSL I/O call that returned rc means; saved: errno after it. */
static tls_outcome outcome(const irc_wire *w, int rc, int saved)
{
    int err = SSL_get_error(w->ssl, rc);
    unsigned long e = ERR_peek_error();
    if (err == SSL_ERROR_WANT_READ)
        return TLS_WANT_READ;
    if (err == SSL_ERROR_WANT_WRITE)
        return TLS_WANT_WRITE;
    if (err == SSL_ERROR_ZERO_RETURN)
        return TLS_EOF;
    if (err == SSL_ERROR_SYSCALL && e == 0)
        return saved != 0 ? TLS_SYSTEM : TLS_EOF;
    if (ERR_GET_LIB(e) == ERR_LIB_SSL && ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING)
        return TLS_EOF;
    return TLS_PROTOCOL;
}

/* One handshake step (irc_wire_int.h). */
int wire_tls_handshake(irc_wire *w)
{
    ERR_clear_error();
    errno = 0;
    int rc = SSL_connect(w->ssl);
    if (rc == 1) {
        w->tls_want_write = false;
        return 1;
    }
    int saved = errno;
    tls_outcome o = outcome(w, rc, saved);
    if (o == TLS_WANT_READ || o == TLS_WANT_WRITE) {
        w->tls_want_write = o == TLS_WANT_WRITE;
        return 0;
    }
    long verify = SSL_get_verify_result(w->ssl);
    if (w->tls_verify && verify != X509_V_OK)
        wire_fmt(w->why, sizeof w->why, "TLS: certificate verify failed (%s)",
                 X509_verify_cert_error_string(verify));
    else if (o == TLS_EOF)
        wire_fmt(w->why, sizeof w->why,
                 "the server closed the connection during the TLS handshake with %s", w->addr);
    else if (o == TLS_SYSTEM)
        wire_fmt(w->why, sizeof w->why, "TLS handshake with %s failed: %s", w->addr,
                 strerror(saved));
    else
        wire_fmt(w->why, sizeof w->why, "TLS handshake with %s failed: %s", w->addr, ssl_reason());
    w->tls_failed = o != TLS_EOF;
    ERR_clear_error();
    return -1;
}

/* Says in w->why why the connected TLS stream ended (o: TLS_EOF or an error). */
static long tls_ended(irc_wire *w, tls_outcome o, int saved)
{
    if (o == TLS_EOF)
        wire_fmt(w->why, sizeof w->why, "the server closed the connection");
    else if (o == TLS_SYSTEM)
        wire_fmt(w->why, sizeof w->why, "lost the connection to %s: %s", w->addr, strerror(saved));
    else
        wire_fmt(w->why, sizeof w->why, "TLS error with %s: %s", w->addr, ssl_reason());
    w->tls_failed = o != TLS_EOF;
    ERR_clear_error();
    return -1;
}

/* SSL_read (irc_wire_int.h). */
long wire_tls_recv(irc_wire *w, char *buf, size_t len)
{
    ERR_clear_error();
    errno = 0;
    int rc = SSL_read(w->ssl, buf, len > INT_MAX ? INT_MAX : (int)len);
    if (rc > 0) {
        w->tls_want_write = false;
        return rc;
    }
    int saved = errno;
    tls_outcome o = outcome(w, rc, saved);
    if (o == TLS_WANT_READ || o == TLS_WANT_WRITE) {
        w->tls_want_write = o == TLS_WANT_WRITE;
        return 0;
    }
    return tls_ended(w, o, saved);
}

/*
 * SSL_write (irc_wire_int.h). After a WANT_* the next call passes the same
 * bytes again, at most moved and with more after them, as OpenSSL allows
 * with the modes set on the context.
 */
long wire_tls_send(irc_wire *w, const char *buf, size_t len)
{
    ERR_clear_error();
    errno = 0;
    int rc = SSL_write(w->ssl, buf, len > INT_MAX ? INT_MAX : (int)len);
    if (rc > 0)
        return rc;
    int saved = errno;
    tls_outcome o = outcome(w, rc, saved);
    if (o == TLS_WANT_READ || o == TLS_WANT_WRITE)
        return 0; /* the read interest is always on; the write one while bytes wait */
    return tls_ended(w, o, saved);
}

/* Whether OpenSSL holds read bytes that poll() cannot see (irc_wire_int.h). */
bool wire_tls_pending(const irc_wire *w)
{
    return w->ssl != NULL && (SSL_pending(w->ssl) > 0 || SSL_has_pending(w->ssl) == 1);
}

/*
 * Frees w->ssl. With notify (and no fatal error before) a close_notify is
 * sent first if the socket takes it at once; its outcome does not matter,
 * the socket is closed right after.
 */
void wire_tls_stop(irc_wire *w, bool notify)
{
    if (w->ssl == NULL)
        return;
    if (notify && !w->tls_failed) {
        ERR_clear_error();
        (void)SSL_shutdown(w->ssl);
    }
    SSL_free(w->ssl);
    w->ssl = NULL;
    w->tls_failed = false;
    w->tls_want_write = false;
    ERR_clear_error();
}
