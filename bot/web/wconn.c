/*
 * wconn.c — the pages' connections watched (wconn.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "wconn.h"

struct wc_conn {
    wc_conn *prev, *next;
    int fd;
    uint64_t since;                /* ms: the request's first byte awaited since */
    bool headers;                  /* its headers are in: its answer is on its way */
    bool cut;                      /* shut down: libmicrohttpd closes it at its next turn */
    bool proxied;                  /* from the trusted proxy */
    char peer[INET6_ADDRSTRLEN];   /* the connection's own */
    char client[INET6_ADDRSTRLEN]; /* the peer, or the one the proxy forwards */
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Shuts x down: its reads end, libmicrohttpd closes it (and tells us). */
static void cut(wc_conn *x)
{
    if (!x->cut)
        (void)shutdown(x->fd, SHUT_RDWR);
    x->cut = true;
}

/* The numeric address of sa into buf ("" when it is neither v4 nor v6). */
static void address(const struct sockaddr *sa, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (sa == NULL)
        return;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, buf,
                  (socklen_t)cap);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, buf,
                  (socklen_t)cap);
}

/* How many connections not cut off, other than x, serve x's client. */
static unsigned same_client(const wc_set *s, const wc_conn *x)
{
    unsigned n = 0;
    for (const wc_conn *y = s->head; y != NULL; y = y->next)
        n += y != x && !y->cut && strcmp(y->client, x->client) == 0;
    return n;
}

/* A new connection x: those past the headers' deadline are cut off; at the
   limit, the one waiting longest for its headers makes room; x is cut off
   when its address already has its share. */
static void admit(wc_set *s, wc_conn *x)
{
    uint64_t t = now_ms();
    unsigned open = 0;
    wc_conn *slowest = NULL;
    for (wc_conn *y = s->head; y != NULL; y = y->next) {
        if (y == x || y->cut)
            continue;
        if (!y->headers && t - y->since > s->header_ms)
            cut(y);
        else
            open++;
        if (!y->cut && !y->headers && (slowest == NULL || y->since < slowest->since))
            slowest = y;
    }
    if (open >= s->limit && slowest != NULL)
        cut(slowest);
    if (!x->proxied && same_client(s, x) >= s->per_address)
        cut(x);
}

/* wc_notify's work, under the lock. */
static void notify(wc_set *s, struct MHD_Connection *c, void **socket_context,
                   enum MHD_ConnectionNotificationCode code)
{
    wc_conn *x = *socket_context;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        if (x == NULL)
            return;
        if (x->prev != NULL)
            x->prev->next = x->next;
        else
            s->head = x->next;
        if (x->next != NULL)
            x->next->prev = x->prev;
        s->n--;
        free(x);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *fd =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *peer =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    x = calloc(1, sizeof *x);
    if (x == NULL || fd == NULL) { /* unwatched, it cannot be cut off: refuse it */
        if (fd != NULL)
            (void)shutdown(fd->connect_fd, SHUT_RDWR);
        free(x);
        return;
    }
    x->fd = fd->connect_fd;
    x->since = now_ms();
    address(peer != NULL ? peer->client_addr : NULL, x->peer, sizeof x->peer);
    snprintf(x->client, sizeof x->client, "%s", x->peer);
    x->proxied = s->proxy[0] != '\0' && strcmp(x->peer, s->proxy) == 0;
    x->next = s->head;
    if (s->head != NULL)
        s->head->prev = x;
    s->head = x;
    s->n++;
    *socket_context = x;
    admit(s, x);
}

void wc_notify(void *cls, struct MHD_Connection *c, void **socket_context,
               enum MHD_ConnectionNotificationCode code)
{
    wc_set *s = cls;
    pthread_mutex_lock(&s->lock);
    notify(s, c, socket_context, code);
    pthread_mutex_unlock(&s->lock);
}

/* The connection's record (its socket context), or NULL. */
static wc_conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i != NULL ? i->socket_context : NULL;
}

void wc_completed(void *cls, struct MHD_Connection *c, void **req,
                  enum MHD_RequestTerminationCode code)
{
    wc_set *s = cls;
    (void)req;
    (void)code;
    pthread_mutex_lock(&s->lock);
    wc_conn *x = conn_of(c);
    if (x != NULL) {
        x->headers = false;
        x->since = now_ms();
    }
    pthread_mutex_unlock(&s->lock);
}

/* The last address of an X-Forwarded-For list, or of a Forwarded header's
   for= (quotes, brackets and a port dropped), into out; false none. */
static bool forwarded(struct MHD_Connection *c, char *out, size_t cap)
{
    char v[INET6_ADDRSTRLEN + 16];
    const char *xff = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-For");
    const char *fwd = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Forwarded");
    const char *p = NULL;
    size_t n = 0;
    if (xff != NULL) {
        const char *comma = strrchr(xff, ',');
        p = comma != NULL ? comma + 1 : xff;
        p += strspn(p, " \t");
        n = strcspn(p, " \t");
    } else if (fwd != NULL) {
        for (const char *f = fwd; (f = strstr(f, "for=")) != NULL; f += 4)
            p = f + 4;
        if (p == NULL)
            return false;
        p += strspn(p, "\"[");
        n = strcspn(p, "\"];, \t");
    }
    if (p == NULL || n == 0 || n >= sizeof v)
        return false;
    memcpy(v, p, n);
    v[n] = '\0';
    unsigned char bin[sizeof(struct in6_addr)];
    char *colon = strchr(v, ':');
    if (inet_pton(AF_INET6, v, bin) != 1) {
        if (colon != NULL && strchr(colon + 1, ':') == NULL)
            *colon = '\0'; /* "192.0.2.1:4711" */
        if (inet_pton(AF_INET, v, bin) != 1)
            return false;
    }
    size_t len = strlen(v);
    if (len >= cap)
        return false;
    memcpy(out, v, len + 1);
    return true;
}

bool wc_headers(wc_set *s, struct MHD_Connection *c)
{
    pthread_mutex_lock(&s->lock);
    wc_conn *x = conn_of(c);
    bool ok = true;
    if (x != NULL) {
        x->headers = true;
        if (x->proxied) {
            if (!forwarded(c, x->client, sizeof x->client))
                snprintf(x->client, sizeof x->client, "%s", x->peer);
            unsigned busy = 0;
            for (const wc_conn *y = s->head; y != NULL; y = y->next)
                busy += y != x && !y->cut && y->headers && strcmp(y->client, x->client) == 0;
            ok = busy < s->per_address;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return ok;
}

/* Cuts off each connection past the headers' deadline (the lock held);
   the next deadline of those still waiting for theirs, in ms: none
   waiting, a whole deadline (a newcomer's is no sooner). */
static uint64_t sweep(wc_set *s)
{
    uint64_t t = now_ms(), next = t + s->header_ms;
    for (wc_conn *y = s->head; y != NULL; y = y->next) {
        if (y->cut || y->headers)
            continue;
        if (t - y->since > s->header_ms)
            cut(y);
        else if (y->since + s->header_ms + 1 < next)
            next = y->since + s->header_ms + 1;
    }
    return next;
}

/* The watchdog: cuts off the late on time, until wc_free says stop. */
static void *watch(void *arg)
{
    wc_set *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->stop) {
        uint64_t next = sweep(s);
        struct timespec ts = {.tv_sec = (time_t)(next / 1000u),
                              .tv_nsec = (long)(next % 1000u) * 1000000L};
        (void)pthread_cond_timedwait(&s->wake, &s->lock, &ts);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

int wc_start(wc_set *s)
{
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0)
        return -1;
    int rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0 ||
                     pthread_cond_init(&s->wake, &ca) != 0
                 ? -1
                 : 0;
    pthread_condattr_destroy(&ca);
    if (rc != 0)
        return -1;
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        pthread_cond_destroy(&s->wake);
        return -1;
    }
    if (pthread_create(&s->watchdog, NULL, watch, s) != 0) {
        pthread_mutex_destroy(&s->lock);
        pthread_cond_destroy(&s->wake);
        return -1;
    }
    return 0;
}

void wc_free(wc_set *s)
{
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->watchdog, NULL);
    while (s->head != NULL) {
        wc_conn *x = s->head;
        s->head = x->next;
        free(x);
    }
    s->n = 0;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
}
