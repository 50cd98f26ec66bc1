/*
 * wconn.h — the pages' connections, watched so that none can hold a slot
 * for ever (libmicrohttpd's own timeout counts idle time only: a header
 * line every few seconds keeps it from firing). Each connection is known
 * from its start to its end; a request whose headers are not all in
 * within the deadline is cut off when the next client comes; when the
 * connections reach the limit, the one that has waited longest for its
 * headers makes room for the newcomer; and the per-address limit counts
 * the real client: the peer's address, or for a request from the trusted
 * proxy the one it forwards (X-Forwarded-For, else Forwarded: for=). All
 * of it on libmicrohttpd's one thread (its callbacks): no lock. Prefix wc_.
 */
#ifndef PZ_WCONN_H
#define PZ_WCONN_H

#ifndef PZ_INSIDE_WEB
#error "wconn.h is the web layer's inside: others include web.h (ARCHITECTURE.md)"
#endif

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
} wc_set;

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
/* Closes the connections left (web_stop, once the daemon stopped). */
void wc_free(wc_set *s);

#endif /* PZ_WCONN_H */
