/*
 * mx_call_int.h — the Matrix adapter's request engine (mx_call.c) and
 * its helpers: URLs, JSON, the kv, back-off; joins and leaves in turns.
 *
 * Every request goes through one engine (mx__call_*): a fixed table of
 * calls, each with its kind and context. The engine retries what is worth
 * retrying — no answer, 5xx with back-off, 429 after Retry-After — parks
 * authenticated calls while the bot logs in again after a 401, and hands
 * the kind's handler only final answers: 2xx, or a 4xx that retrying will
 * not change.
 */
#ifndef PZ_MX_CALL_INT_H
#define PZ_MX_CALL_INT_H

#ifndef PZ_INSIDE_MX
#error "mx_call_int.h is the Matrix adapter's inside: other layers include mx.h (ARCHITECTURE.md)"
#endif

#include <json-c/json.h>

#include "mx.h"

#define MX_ID_MAX HOST_ID_MAX         /* bytes of a room, user or event id, NUL included */
#define MX_URL_MAX 2048               /* bytes of a request URL, NUL included */
#define MX_CALLS_MAX 64               /* requests live or waiting to be retried */
#define MX_PENDING_MAX 131072         /* bytes of the kv record of joins and leaves under way */
#define MX_JOINS_MAX 16               /* joins and leaves on the wire at once (the rest wait) */
#define MX_INVITERS_MAX 64            /* inviters and servers whose share of joins is counted */
#define MX_CALLS_VITAL 4              /* slots kept for log-in and the sync */
#define MX_REQUEST_MS 60000           /* every other request's timeout */
#define MX_BACKOFF_MIN_MS 1000        /* back-off after a failure: from 1 s */
#define MX_BACKOFF_MAX_MS 60000       /* doubling up to 60 s */
#define MX_RETRY_AFTER_MAX_MS 3600000 /* a longer Retry-After counts as an hour */

/* A doubling back-off with jitter. */
typedef struct mx_backoff {
    int64_t next_ms; /* the next delay before jitter; 0: MX_BACKOFF_MIN_MS */
} mx_backoff;

typedef enum mx_kind {
    MX_CALL_LOGIN,
    MX_CALL_WHOAMI,
    MX_CALL_FILTER,
    MX_CALL_DIRECT_GET,
    MX_CALL_SYNC,
    MX_CALL_MESSAGES,
    MX_CALL_JOIN,
    MX_CALL_LEAVE,
    MX_CALL_SEND,
    MX_CALL_CREATE_DM,
    MX_CALL_DIRECT_PUT,
    MX_CALL_DM_CHECK,
    MX_CALL_POWER,
    MX_CALL_KEYS_UPLOAD,
    MX_CALL_XSIGN_UPLOAD,
    MX_CALL_SIGS_UPLOAD,
    MX_CALL_KEYS_QUERY,
    MX_CALL_KEYS_CLAIM,
    MX_CALL_TO_DEVICE,
    MX_CALL_MEMBERS,
    MX_CALL_KINDS
} mx_kind;

/* One request, live or waiting to be sent again, and its context. */
typedef struct mx_call {
    bool used;
    mx_kind kind;
    uint64_t req;   /* the live mx_http request, 0 when none */
    bool waiting;   /* not live: sent again at due_ms */
    bool for_auth;  /* waiting for the bot to log in again */
    int64_t due_ms; /* loop time */
    char method[8];
    char *url;  /* malloc'd */
    char *body; /* malloc'd JSON, or NULL */
    int64_t timeout_ms;
    bool auth; /* sent with the access token */
    int tries;
    unsigned gen; /* the token generation it was last sent with */
    mx_backoff backoff;
    /* context, by kind */
    char room[MX_ID_MAX];
    char user[MX_ID_MAX];
    char event[MX_ID_MAX];
    int64_t msg; /* SEND: the message's id (outq_msg.id) */
    int part;    /* SEND: which event of the message */
    int flags;   /* SEND: how many events the message makes */
} mx_call;

/* Flags of a call's context. */
#define MX_JOIN_DIRECT 1  /* JOIN: an is_direct invite: the room is the inviter's DM */
#define MX_JOIN_UPGRADE 2 /* JOIN: the replacement of an upgraded room */

/* How many joins and leaves were started for an inviter ("@a:x") or a
   server (":x"), for their turns. */
typedef struct mx_share {
    char key[MX_ID_MAX];
    unsigned count;
} mx_share;

/* Joins and leaves (mx_call.c): each inviter and each inviter's server
   gets its turn, fewest served first; after a 429 they wait for it
   (hold_ms, the timer) and go one at a time, the window doubling again
   with each success. */
typedef struct mx_moves_st {
    mx_share served[MX_INVITERS_MAX];
    int nserved;
    int window;       /* joins and leaves on the wire at once, 1..MX_JOINS_MAX */
    int64_t hold_ms;  /* loop time: no join or leave starts before */
    loop_timer timer; /* ends the hold */
} mx_moves_st;

/* A new call (slot) of kind, or NULL when the table is full (logged). */
mx_call *mx__call_new(mx_net *n, mx_kind kind, const char *method, const char *url,
                      const char *body, bool auth);
/* Sends c now (or, when that fails, after a back-off). */
void mx__call_go(mx_net *n, mx_call *c);
/* Frees a call's slot (cancelling it when live). */
void mx__call_drop(mx_net *n, mx_call *c);
/* The first live or waiting call of kind whose room (and user, when not
   NULL) match; NULL none. */
mx_call *mx__call_find(mx_net *n, mx_kind kind, const char *room, const char *user);
/* Writes the URL of the API path (already encoded, "/sync?...") into out. 0 or -1. */
int mx__url(const mx_net *n, char *out, size_t cap, const char *path);
/* Percent-encodes s as one path segment or query value into out. 0 or -1 (too long). */
int mx__enc(const char *s, char *out, size_t cap);
/* The next back-off delay (doubling, with jitter). */
int64_t mx__backoff_next(mx_net *n, mx_backoff *b);
/* Whether s is an id short enough for the store ("" counts as none). */
bool mx__id_ok(const char *s);
/* Records a join of room in the kv "pending" (kept until the homeserver
   answered) and starts it in its turn (mx__pending_resume; flags, user
   (the inviter), event: the call's context). */
void mx__join_room(mx_net *n, const char *room, int flags, const char *user, const char *event);
/* The same for leaving room (why: for the log; user: the inviter whose
   invitation it declines, or NULL). */
void mx__leave_room(mx_net *n, const char *room, const char *why, const char *user);
/* A join or leave c was refused 429 after delay ms: it goes back to the kv
   record, and the others wait as long and then go one at a time. */
void mx__moves_limited(mx_net *n, mx_call *c, int64_t delay);
/* The moves timer: the hold is over. */
void mx__on_moves(loop_timer *t, void *arg);
/* Parses a JSON body (NULL when it is not a JSON object). */
json_object *mx__parse(const char *body, size_t len);
/* A string member of o, or NULL. */
const char *mx__str(json_object *o, const char *key);
/* An object / array member of o, or NULL. */
json_object *mx__obj(json_object *o, const char *key);
json_object *mx__arr(json_object *o, const char *key);
/* kv of the network's scope: 0 found, else "" in value. */
int mx__kv_get(mx_net *n, const char *key, char *value, size_t cap);
void mx__kv_set(mx_net *n, const char *key, const char *value);
/* Makes c wait delay ms before it is sent again. */
void mx__call_wait(mx_net *n, mx_call *c, int64_t delay);
/* Sends every call that waited for the bot to log in again. */
void mx__resume_parked(mx_net *n);
/* The engine's timer: sends the calls whose wait is over. */
void mx__on_timer(loop_timer *t, void *arg);
/* Starts the joins and leaves of the kv record ("pending") that no request
   carries — those a restart interrupted (restart: logged), or that waited
   for others to be over — as many as the window allows, each time for the
   server, then the inviter, with the fewest started so far (record order
   among equals): one account's flood of invitations cannot hold up
   another's. */
void mx__pending_resume(mx_net *n, bool restart);
/* Handler of JOIN and LEAVE calls. */
void mx__on_join(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_leave(mx_net *n, mx_call *c, int status, json_object *body);
/* Calls the handler of c's kind with a final answer (2xx, or a 4xx) (mx.c). */
void mx__dispatch(mx_net *n, mx_call *c, int status, json_object *body);
/* A 401 M_UNKNOWN_TOKEN for c: parks or drops it, and logs in again (mx.c). */
void mx__token_refused(mx_net *n, mx_call *c);

#endif /* PZ_MX_CALL_INT_H */
