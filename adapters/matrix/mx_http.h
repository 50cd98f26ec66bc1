/*
 * mx_http.h — the HTTP client of the Matrix adapter: JSON requests to a
 * homeserver over libcurl's multi interface, driven by the bot's event
 * loop (bot/base/loop.h), so a /sync long poll of minutes never stalls IRC or
 * the timers. One mx_http is one CURLM: it keeps the pool of connections
 * (HTTP/1.1 keep-alive) that every request it runs shares.
 *
 * Loop integration: libcurl's socket API (CURLMOPT_SOCKETFUNCTION and
 * CURLMOPT_TIMERFUNCTION), with one loop_io per socket curl asks about and
 * one loop_timer for curl's timeout, rather than select()-style sets from
 * curl_multi_fdset. The fd-set way cannot watch an fd numbered FD_SETSIZE
 * (1024) or above, and it wakes curl to walk every transfer after every
 * poll of the loop, each IRC line included; the socket way hands curl the
 * one socket that is ready, and only then, on poll(2) without an fd limit.
 * Nothing here blocks: no curl_easy_perform, no curl_multi_wait, no poll
 * of its own.
 *
 * Completions are delivered from the loop (an fd or timer callback), after
 * curl_multi_remove_handle, so curl is done with the transfer: a callback
 * may start new requests and cancel others. A request's callback is never
 * called from inside mx_http_request, mx_http_cancel or mx_http_free.
 *
 * libcurl's global state: mx_http_new calls curl_global_init and
 * mx_http_free curl_global_cleanup; libcurl counts them itself, so any
 * number of mx_http may live at once. Like all of the bot, this is
 * single-threaded: no other thread may use libcurl meanwhile.
 *
 * Safety: the access token goes only into an "Authorization: Bearer"
 * header, never into a URL (a URL that holds the token is refused), an
 * error text or a log line (there is no CURLOPT_VERBOSE and no log).
 * Redirects are not followed: a 3xx is returned as it came, as the Matrix
 * client-server API has none and following one could carry the token to
 * another host. Only http and https. Response bodies are capped (16 MiB by
 * default): a larger one fails the request with a clear error, whatever
 * the Content-Length said. Not here: JSON, the Matrix API, retries and
 * back-off (the caller reads status and retry_after_ms).
 */
#ifndef PZ_MX_HTTP_H
#define PZ_MX_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loop.h"

#define MX_HTTP_REQUESTS_MAX 256                            /* requests live at once */
#define MX_HTTP_URL_MAX 8192                                /* bytes of a URL, NUL excluded */
#define MX_HTTP_TOKEN_MAX 4096                              /* bytes of an access token */
#define MX_HTTP_AGENT_MAX 256                               /* bytes of the user agent */
#define MX_HTTP_PATH_MAX 4096                               /* bytes of the CA file's path */
#define MX_HTTP_BODY_MAX_DEFAULT ((size_t)16 * 1024 * 1024) /* response body cap */
#define MX_HTTP_BODY_MAX_LIMIT ((size_t)1024 * 1024 * 1024) /* the highest cap allowed */
#define MX_HTTP_CONNECT_MS_DEFAULT 10000                    /* connect (TCP + TLS) timeout */
#define MX_HTTP_TIMEOUT_MS_DEFAULT 60000                    /* whole-request timeout */
#define MX_HTTP_TIMEOUT_MS_LIMIT INT64_C(86400000)          /* the longest timeout: a day */
#define MX_HTTP_AGENT_DEFAULT "porrazo-bot"

/* Errors: 0 or one of these negative codes. */
#define MX_HTTP_ERRNO_MAP(XX)                                                                      \
    XX(INVAL, -1,                                                                                  \
       "an argument is out of range: an unknown method, a URL that is not http(s) or holds "       \
       "the token, a token or user agent with spaces or control bytes, a GET with a body, a "      \
       "length or timeout over its cap, or no callback")                                           \
    XX(TOO_MANY, -2, "MX_HTTP_REQUESTS_MAX requests are live already")                             \
    XX(NO_MEMORY, -3, "out of memory")                                                             \
    XX(CURL, -4, "libcurl refused to initialise or to take an option")                             \
    XX(LOOP, -5, "the event loop has no room for another timer")

typedef enum mx_http_errno {
    MX_HTTP_OK = 0,
#define MX_HTTP_ERR_ENUM_(name, val, msg) MX_HTTP_E##name = (val),
    MX_HTTP_ERRNO_MAP(MX_HTTP_ERR_ENUM_)
#undef MX_HTTP_ERR_ENUM_
} mx_http_errno;

/* A human message for err ("ok" for 0, "unknown error" otherwise). Never NULL. */
const char *mx_http_strerror(int err);

/* ---- The client ---------------------------------------------------------- */

typedef struct mx_http mx_http;

/* How an mx_http connects. A zeroed struct (or NULL) means every default. */
typedef struct mx_http_config {
    const char *user_agent;     /* NULL or "": MX_HTTP_AGENT_DEFAULT; printable ASCII */
    const char *ca_file;        /* PEM bundle; NULL or "": the system's CA store */
    bool insecure;              /* true: no certificate or host name check (tests only) */
    size_t max_body;            /* response and request body cap; 0: the default */
    int64_t connect_timeout_ms; /* 0: MX_HTTP_CONNECT_MS_DEFAULT */
} mx_http_config;

/*
 * Creates in *out a client whose transfers run on loop l, configured by
 * cfg (NULL: defaults; its strings are copied). It calls curl_global_init
 * and takes one loop_timer slot for as long as it lives. Returns 0, or
 * with *out untouched and a sentence in why[why_len] (when why_len > 0):
 * MX_HTTP_EINVAL (cfg out of range), MX_HTTP_ENO_MEMORY, MX_HTTP_ECURL
 * (libcurl could not initialise), MX_HTTP_ELOOP (no timer slot left).
 * Free it with mx_http_free before l.
 */
int mx_http_new(mx_http **out, loop *l, const mx_http_config *cfg, char *why, size_t why_len);

/*
 * Cancels every live request without calling any callback, closes every
 * connection, stops h's loop handles, calls curl_global_cleanup and frees
 * h (NULL: nothing). Never call it from one of h's callbacks.
 */
void mx_http_free(mx_http *h);

/* ---- Requests ------------------------------------------------------------ */

/* One request; the strings are copied by mx_http_request. */
typedef struct mx_http_req {
    const char *method; /* "GET", "POST", "PUT" or "DELETE" */
    const char *url;    /* http(s)://, printable ASCII (percent-encode the rest), no token */
    const char *token;  /* access token, or NULL (or ""): no Authorization header */
    const char *body;   /* JSON text (Content-Type: application/json), or NULL */
    int64_t timeout_ms; /* the whole request; 0: MX_HTTP_TIMEOUT_MS_DEFAULT */
    /*
     * On a fresh connection, never reused: libcurl silently sends a request
     * again when a kept-alive connection closes before any answer, which a
     * request that must not run twice (createRoom, join) cannot allow.
     */
    bool fresh;
} mx_http_req;

/* What a request came to; valid only during the callback. */
typedef struct mx_http_response {
    uint64_t id;            /* the request's id */
    int status;             /* HTTP status; 0: no complete response (error says why) */
    const char *body;       /* the body, NUL-terminated ("" when none or status 0) */
    size_t body_len;        /* its length, NUL excluded (it may hold NULs) */
    int64_t retry_after_ms; /* Retry-After in ms (0 for a date gone by); -1 absent or bad */
    const char *error;      /* "" when status > 0; else a sentence (never NULL) */
} mx_http_response;

/* Called once per request, from the loop, unless the request was cancelled. */
typedef void (*mx_http_done_fn)(const mx_http_response *res, void *arg);

/*
 * Starts req on h: it is sent from the loop's next iteration on, and
 * done(res, arg) is called exactly once when it ends, from a callback of
 * the loop — never from inside this function — unless mx_http_cancel or
 * mx_http_free comes first. A status of 0 means no complete response:
 * connection refused, a DNS failure, the timeout, a connection dropped
 * mid-response, a body over max_body; error then says which (libcurl's
 * message and detail, or this module's for the body cap). An HTTP error
 * status (401, 429, 500...) is a response like any other: status set,
 * error "". Retry-After is read as delta seconds (up to 2^31 - 1) or as an
 * HTTP-date against the wall clock. Request bodies are capped by max_body
 * too. Returns 0 and the request's id in *id (when id is not NULL; ids are
 * never 0 and never reused by h), or with nothing started and *id
 * untouched: MX_HTTP_EINVAL, MX_HTTP_ETOO_MANY, MX_HTTP_ENO_MEMORY,
 * MX_HTTP_ECURL. May be called from any callback, h's own included.
 */
int mx_http_request(mx_http *h, const mx_http_req *req, mx_http_done_fn done, void *arg,
                    uint64_t *id);

/*
 * Cancels request id: its callback is never called, its connection is
 * closed if it was in the middle of the transfer. Nothing happens for an
 * id that is unknown, already delivered or already cancelled — among them
 * the id of the request whose callback is running, which counts as
 * delivered from the moment its callback starts. Safe from any callback.
 */
void mx_http_cancel(mx_http *h, uint64_t id);

/* The requests started and neither delivered (their callback begun) nor cancelled. */
size_t mx_http_active(const mx_http *h);

#endif /* PZ_MX_HTTP_H */
