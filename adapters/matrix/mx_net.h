/*
 * mx_net.h — the Matrix adapter's state: the core (configuration, log-in,
 * the loop's timers, the calls) of mx.c and one part per concern, each
 * declared with its functions — the engine (mx_call_int.h), the sync
 * (mx_sync.h), rooms (mx_rooms_int.h), the outbox (mx_send_int.h),
 * encryption (mx_e2ee_int.h). Private to the adapter.
 */
#ifndef PZ_MX_NET_H
#define PZ_MX_NET_H

#ifndef PZ_INSIDE_MX
#error "mx_net.h is the Matrix adapter's inside: other layers include mx.h (ARCHITECTURE.md)"
#endif

#include "mx_e2ee_int.h"
#include "mx_http.h"
#include "mx_send_int.h"
#include "mx_sync.h"

#define MX_SCOPE_MAX 48    /* "matrix:NAME" */
#define MX_TOKEN_MAX 1024  /* bytes of an access token, NUL included */
#define MX_QUIT_POLL_MS 50 /* while quitting: how often the loop looks at the sends */

typedef enum mx_phase {
    MX_PH_IDLE,   /* not started */
    MX_PH_LOGIN,  /* POST /login */
    MX_PH_WHOAMI, /* checking a token */
    MX_PH_FILTER, /* creating the filter */
    MX_PH_DIRECT, /* reading m.direct */
    MX_PH_SYNC,   /* syncing (and sending) */
    MX_PH_DEAD,   /* stopped for good */
} mx_phase;

struct mx_net {
    mx_env env;
    cfg_matrix c;
    char scope[MX_SCOPE_MAX];
    char base[CFG_STR]; /* homeserver URL without a trailing slash */
    mx_http *http;
    mx_phase phase;
    adapter_life life; /* the hook and the timers, started and stopped together */
    bool quitting, authed;
    bool token_from_config; /* the token in use is the configuration's */
    char token[MX_TOKEN_MAX];
    char device[MX_ID_MAX];
    char me[MX_ID_MAX];
    bool tried_kv, tried_config, tried_password; /* this log-in round's credentials */
    unsigned token_gen;                          /* counts successful log-ins */
    uint64_t rng;
    loop_timer timer; /* the engine's: the next waiting call */
    loop_hook hook;   /* before sleeping: the outbox */
    loop_timer quit;  /* while quitting: wakes the loop to see whether sends are done */
    mx_call calls[MX_CALLS_MAX];
    mx_moves_st moves; /* joins and leaves (mx_call.c) */
    mx_sync_st sync;   /* mx.c, mx_events.c */
    mx_rooms_st rooms; /* mx_rooms.c */
    mx_send_st send;   /* mx_send.c */
    mx_e2e e2e;        /* mx_e2ee*.c */
};

#endif /* PZ_MX_NET_H */
