/*
 * wconn.h — the pages' connections, watched so that none can hold a slot
 * for ever (libmicrohttpd's own timeout counts idle time only: a header
 * line every few seconds keeps it from firing, and its per-connection
 * timeout is the same idle one). Each connection is known from its start
 * to its end; a request whose headers are not all in within the deadline
 * is cut off by a watchdog thread of its own, on time whether or not
 * another client comes; when the connections reach the limit, the one
 * that has waited longest for its headers makes room for the newcomer;
 * and the per-address limit counts the real client: the peer's address,
 * or for a request from the trusted proxy the one it forwards
 * (X-Forwarded-For, else Forwarded: for=). The set is shared by
 * libmicrohttpd's thread (its callbacks) and the watchdog, under its lock:
 * a record is removed (MHD_CONNECTION_NOTIFY_CLOSED) before libmicrohttpd
 * closes its socket, so the watchdog never shuts down a socket reused.
 * Prefix wc_.
 */
#ifndef PZ_WCONN_H
#define PZ_WCONN_H

#ifndef PZ_INSIDE_WEB
#error "wconn.h is the web layer's inside: others include web.h (ARCHITECTURE.md)"
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <arpa/inet.h>
#include <microhttpd.h>

typedef struct wc_conn wc_conn;

typedef struct wc_set {
    wc_conn *head;
    unsigned n;                   /* connections open, those cut off included */
    unsigned limit;               /* at once, in all */
    unsigned per_address;         /* at once, from one client */
    uint64_t header_ms;           /* a request's headers must all be in within */
    char proxy[INET6_ADDRSTRLEN]; /* the trusted proxy's address; "" none */
    pthread_mutex_t lock;         /* all of the above, both threads */
    pthread_cond_t wake;          /* the watchdog's sleep (CLOCK_MONOTONIC); stop ends it */
    bool stop;
    pthread_t watchdog;
} wc_set;

/* Starts the watchdog of s (its limits set, the rest zero). 0, or -1
   (no thread: nothing to undo). */
int wc_start(wc_set *s);

/* MHD_OPTION_NOTIFY_CONNECTION's callback (cls: the wc_set). */
void wc_notify(void *cls, struct MHD_Connection *c, void **socket_context,
               enum MHD_ConnectionNotificationCode code);
/* MHD_OPTION_NOTIFY_COMPLETED's callback: the connection may wait for its
   next request, the deadline counts from now. */
void wc_completed(void *cls, struct MHD_Connection *c, void **req,
                  enum MHD_RequestTerminationCode code);
/* The headers of c's request are in. false: its client (behind the
   trusted proxy, the forwarded one) already has per_address requests
   under way: refuse it (503). */
bool wc_headers(wc_set *s, struct MHD_Connection *c);
/* Stops the watchdog and forgets the connections left (web_stop, once the
   daemon stopped: it closed them). */
void wc_free(wc_set *s);

#endif /* PZ_WCONN_H */
