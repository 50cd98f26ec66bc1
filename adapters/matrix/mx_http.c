/*
 * mx_http.c — mx_http.h over libcurl's multi socket API: curl tells
 * sock_cb which sockets to watch (one loop_io each, on the heap, found
 * again through curl_multi_assign) and timer_cb when to call it back (one
 * loop_timer, kept armed for as long as h lives, so re-arming it can never
 * fail for want of a slot). The loop's callbacks hand the event to
 * curl_multi_socket_action, then finish(): every transfer curl reports
 * done is removed from the multi handle, its response is collected, and
 * only then are the callbacks called, in order, from a queue that
 * mx_http_cancel may take requests out of.
 *
 * A request is in exactly one of two lists: running (its easy handle in
 * the multi) or done (removed from the multi, response ready, callback
 * not yet called). Not here: anything that knows JSON or Matrix.
 */
#include "mx_http.h"

#include <assert.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define RETRY_AFTER_MAX 64 /* bytes kept of a Retry-After value, NUL included */
#define RETRY_AFTER_MAX_S 2147483647LL
#define ERROR_MAX (CURL_ERROR_SIZE + 160)

typedef struct mx_req mx_req;
typedef struct mx_sock mx_sock;

/* A list of requests, head first. */
typedef struct req_list {
    mx_req *head, *tail;
} req_list;

struct mx_req {
    mx_http *h;
    mx_req *prev, *next; /* in h->running or h->done */
    uint64_t id;
    CURL *easy;              /* NULL once the response is collected */
    struct curl_slist *hdrs; /* Authorization, Content-Type, Accept, Expect */
    mx_http_done_fn done;
    void *arg;
    int loop_err; /* a loop error met while watching one of its sockets */
    /* The response as it arrives. */
    char *body;
    size_t len, cap;
    bool too_large;
    char retry_after[RETRY_AFTER_MAX]; /* the last response's value, trimmed */
    bool retry_after_bad;              /* longer than RETRY_AFTER_MAX - 1 */
    char errbuf[CURL_ERROR_SIZE];      /* curl's detail (CURLOPT_ERRORBUFFER) */
    /* The response once collected. */
    int status;
    int64_t retry_after_ms;
    char error[ERROR_MAX];
};

/* A socket curl asked us to watch. */
struct mx_sock {
    loop_io io;
    mx_sock *prev, *next; /* in h->socks */
};

struct mx_http {
    loop *loop;
    CURLM *multi;
    loop_timer timer; /* curl's timeout; always armed */
    char *user_agent;
    char *ca_file; /* NULL: the system's */
    bool insecure;
    size_t max_body;
    int64_t connect_timeout_ms;
    req_list running, done;
    size_t nreqs; /* in running and done */
    uint64_t next_id;
    mx_sock *socks;   /* every watcher, for mx_http_free */
    bool loop_failed; /* some running request has loop_err set */
    bool delivering;  /* inside deliver(): callbacks are running */
};

/* A message for err, from MX_HTTP_ERRNO_MAP (mx_http.h). */
const char *mx_http_strerror(int err)
{
    switch (err) {
    case 0:
        return "ok";
#define MX_HTTP_ERR_MSG_(name, val, msg)                                                           \
    case val:                                                                                      \
        return msg;
        MX_HTTP_ERRNO_MAP(MX_HTTP_ERR_MSG_)
#undef MX_HTTP_ERR_MSG_
    default:
        return "unknown error";
    }
}

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */

/*
 * Writes "a: b" (or just a when b is empty) into dst[cap]; a sentence cut
 * short ends in "..." rather than being lost.
 */
static void join_msg(char *dst, size_t cap, const char *a, const char *b)
{
    if (cap == 0)
        return;
    int n = snprintf(dst, cap, "%s%s%s", a, b[0] != '\0' ? ": " : "", b);
    if (n < 0)
        dst[0] = '\0';
    else if ((size_t)n >= cap && cap > 4)
        memcpy(dst + cap - 4, "...", 4);
}

/* Writes a message into why[why_len] when there is room for one. */
static void say(char *why, size_t why_len, const char *a, const char *b)
{
    if (why != NULL && why_len > 0)
        join_msg(why, why_len, a, b);
}

/* Whether s is at most max bytes of printable ASCII (space included only when space_ok). */
static bool printable(const char *s, size_t max, bool space_ok)
{
    size_t n = strnlen(s, max + 1);
    if (n > max)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c > 0x7E || c < (space_ok ? 0x20 : 0x21))
            return false;
    }
    return true;
}

static void list_push(req_list *l, mx_req *r)
{
    r->next = NULL;
    r->prev = l->tail;
    if (l->tail != NULL)
        l->tail->next = r;
    else
        l->head = r;
    l->tail = r;
}

static void list_remove(req_list *l, mx_req *r)
{
    if (r->prev != NULL)
        r->prev->next = r->next;
    else
        l->head = r->next;
    if (r->next != NULL)
        r->next->prev = r->prev;
    else
        l->tail = r->prev;
    r->prev = r->next = NULL;
}

/* The request of an easy handle (CURLOPT_PRIVATE), or NULL (curl's own handles). */
static mx_req *req_of(CURL *easy)
{
    char *p = NULL;
    if (easy == NULL || curl_easy_getinfo(easy, CURLINFO_PRIVATE, &p) != CURLE_OK)
        return NULL;
    return (mx_req *)(void *)p;
}

/* Frees r and whatever it holds; r must be in no list and out of the multi. */
static void req_free(mx_req *r)
{
    if (r->easy != NULL)
        curl_easy_cleanup(r->easy);
    curl_slist_free_all(r->hdrs);
    free(r->body);
    free(r);
}

/* ------------------------------------------------------------------------ */
/* Responses                                                                */

/* CURLOPT_WRITEFUNCTION: appends to r's body, refusing to pass max_body. */
static size_t write_cb(char *data, size_t size, size_t nmemb, void *userp)
{
    mx_req *r = userp;
    size_t n = size * nmemb; /* size is 1: curl promises it */
    size_t max = r->h->max_body;
    if (n > max - r->len) {
        r->too_large = true;
        return 0; /* CURLE_WRITE_ERROR */
    }
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap != 0 ? r->cap : 1024;
        while (cap < r->len + n + 1)
            cap = cap > max / 2 ? max + 1 : cap * 2;
        char *p = realloc(r->body, cap);
        if (p == NULL)
            return 0;
        r->body = p;
        r->cap = cap;
    }
    memcpy(r->body + r->len, data, n);
    r->len += n;
    r->body[r->len] = '\0';
    return n;
}

/*
 * CURLOPT_HEADERFUNCTION: keeps the Retry-After value of the last response
 * (a status line starts a new one: 100 Continue, 3xx).
 */
static size_t header_cb(char *data, size_t size, size_t nitems, void *userp)
{
    mx_req *r = userp;
    size_t n = size * nitems;
    static const char name[] = "retry-after:";
    if (n >= 5 && memcmp(data, "HTTP/", 5) == 0) {
        r->retry_after[0] = '\0';
        r->retry_after_bad = false;
    } else if (n >= sizeof name - 1 && strncasecmp(data, name, sizeof name - 1) == 0) {
        size_t a = sizeof name - 1, b = n;
        while (a < b && (data[a] == ' ' || data[a] == '\t'))
            a++;
        while (b > a && (data[b - 1] == '\r' || data[b - 1] == '\n' || data[b - 1] == ' ' ||
                         data[b - 1] == '\t'))
            b--;
        r->retry_after_bad = b - a >= sizeof r->retry_after;
        if (r->retry_after_bad)
            b = a;
        memcpy(r->retry_after, data + a, b - a);
        r->retry_after[b - a] = '\0';
    }
    return n;
}

/*
 * Retry-After in ms: delta seconds (digits only, at most 2^31 - 1) or an
 * HTTP-date (curl_getdate: IMF-fixdate, RFC 850, asctime) against the wall
 * clock, 0 when already past; -1 when absent or neither.
 */
static int64_t retry_after_ms(const mx_req *r)
{
    const char *v = r->retry_after;
    if (r->retry_after_bad || v[0] == '\0')
        return -1;
    if (v[strspn(v, "0123456789")] == '\0') {
        long long s = 0;
        for (const char *p = v; *p != '\0'; p++) {
            s = s * 10 + (*p - '0');
            if (s > RETRY_AFTER_MAX_S)
                return -1;
        }
        return (int64_t)s * 1000;
    }
    time_t when = curl_getdate(v, NULL);
    if (when == (time_t)-1)
        return -1;
    time_t now = time(NULL);
    if (when <= now)
        return 0;
    int64_t d = (int64_t)(when - now);
    return d > RETRY_AFTER_MAX_S ? -1 : d * 1000;
}

/*
 * Collects r's response once it is out of the multi (result: curl's, or
 * CURLE_OK with r->loop_err set), frees its easy handle, and queues it for
 * delivery.
 */
static void collect(mx_req *r, CURLcode result)
{
    mx_http *h = r->h;
    long code = 0;
    if (result == CURLE_OK && r->loop_err == 0)
        curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &code);
    r->status = code > 0 && code < 1000 ? (int)code : 0;
    if (r->loop_err != 0) {
        join_msg(r->error, sizeof r->error, "the event loop could not watch the connection",
                 loop_strerror(r->loop_err));
    } else if (r->too_large || result == CURLE_FILESIZE_EXCEEDED) {
        int k = snprintf(r->error, sizeof r->error, "the response body is larger than %zu bytes",
                         h->max_body);
        if (k < 0 || (size_t)k >= sizeof r->error)
            join_msg(r->error, sizeof r->error, "the response body is too large", "");
    } else if (result != CURLE_OK) {
        join_msg(r->error, sizeof r->error, curl_easy_strerror(result), r->errbuf);
    } else if (r->status == 0) {
        join_msg(r->error, sizeof r->error, "no HTTP status in the response", "");
    }
    r->retry_after_ms = r->status > 0 ? retry_after_ms(r) : -1;
    if (r->status == 0)
        r->len = 0; /* a partial body means nothing */
    curl_easy_cleanup(r->easy);
    r->easy = NULL;
    list_remove(&h->running, r);
    list_push(&h->done, r);
}

/*
 * Calls the callback of every request in h->done, oldest first, each
 * after taking it off the list (so it no longer counts and cannot be
 * cancelled). A callback may start or cancel requests meanwhile.
 */
static void deliver(mx_http *h)
{
    if (h->delivering)
        return;
    h->delivering = true;
    mx_req *r;
    while ((r = h->done.head) != NULL) {
        list_remove(&h->done, r);
        h->nreqs--;
        mx_http_response res = {
            .id = r->id,
            .status = r->status,
            .body = r->len > 0 ? r->body : "",
            .body_len = r->len,
            .retry_after_ms = r->retry_after_ms,
            .error = r->error,
        };
        r->done(&res, r->arg);
        req_free(r);
    }
    h->delivering = false;
}

/*
 * After curl has run: takes out of the multi every request that curl
 * finished or whose socket the loop could not watch, then delivers.
 */
static void finish(mx_http *h)
{
    if (h->loop_failed) {
        h->loop_failed = false;
        mx_req *next;
        for (mx_req *r = h->running.head; r != NULL; r = next) {
            next = r->next;
            if (r->loop_err != 0) {
                curl_multi_remove_handle(h->multi, r->easy);
                collect(r, CURLE_OK);
            }
        }
    }
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(h->multi, &left)) != NULL) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        CURL *easy = msg->easy_handle;
        CURLcode result = msg->data.result; /* msg is invalid after the removal */
        mx_req *r = req_of(easy);
        curl_multi_remove_handle(h->multi, easy);
        if (r != NULL)
            collect(r, result);
    }
    deliver(h);
}

/* ------------------------------------------------------------------------ */
/* The loop's side                                                          */

/* A watched socket is ready: tell curl, then finish. */
static void io_cb(loop_io *w, int fd, unsigned events, void *arg)
{
    (void)w;
    mx_http *h = arg; /* w may be freed by sock_cb from here on */
    int mask = 0, running = 0;
    if (events & LOOP_READ)
        mask |= CURL_CSELECT_IN;
    if (events & LOOP_WRITE)
        mask |= CURL_CSELECT_OUT;
    if (events & LOOP_ERROR)
        mask |= CURL_CSELECT_ERR;
    curl_multi_socket_action(h->multi, fd, mask, &running);
    finish(h);
}

/* curl's timeout has come. */
static void timer_fire(loop_timer *t, void *arg)
{
    (void)t;
    mx_http *h = arg;
    int running = 0;
    curl_multi_socket_action(h->multi, CURL_SOCKET_TIMEOUT, 0, &running);
    finish(h);
}

/*
 * CURLMOPT_TIMERFUNCTION: re-arms h's timer (-1: no timeout, parked a year
 * ahead). The timer is repeating, hence always armed, hence re-arming it
 * cannot fail.
 */
static int timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
    (void)multi;
    mx_http *h = userp;
    int64_t delay =
        timeout_ms < 0 || timeout_ms > LOOP_DELAY_MAX_MS ? LOOP_DELAY_MAX_MS : (int64_t)timeout_ms;
    loop_timer_start(&h->timer, delay, LOOP_DELAY_MAX_MS);
    return 0;
}

/* Stops watching s, takes it off h->socks and frees it. */
static void sock_drop(mx_http *h, mx_sock *s)
{
    loop_io_stop(&s->io);
    if (s->prev != NULL)
        s->prev->next = s->next;
    else
        h->socks = s->next;
    if (s->next != NULL)
        s->next->prev = s->prev;
    free(s);
}

/*
 * CURLMOPT_SOCKETFUNCTION: watches, re-aims or forgets socket fd. When the
 * loop refuses (no memory, a full table), the request is marked and
 * finish() fails it.
 */
static int sock_cb(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp)
{
    mx_http *h = userp;
    mx_sock *s = socketp;
    if (what == CURL_POLL_REMOVE) {
        if (s != NULL)
            sock_drop(h, s);
        return 0;
    }
    unsigned ev = (what == CURL_POLL_IN || what == CURL_POLL_INOUT ? LOOP_READ : 0u) |
                  (what == CURL_POLL_OUT || what == CURL_POLL_INOUT ? LOOP_WRITE : 0u);
    int err = 0;
    if (s == NULL) {
        s = calloc(1, sizeof *s);
        if (s == NULL) {
            err = LOOP_ENO_MEMORY;
        } else {
            loop_io_init(h->loop, &s->io, fd, io_cb, h);
            err = loop_io_start(&s->io, ev);
            if (err == 0 && curl_multi_assign(h->multi, fd, s) != CURLM_OK)
                err = LOOP_ENO_MEMORY;
            if (err != 0) {
                loop_io_stop(&s->io);
                free(s);
            } else {
                s->next = h->socks;
                if (h->socks != NULL)
                    h->socks->prev = s;
                h->socks = s;
            }
        }
    } else {
        err = loop_io_start(&s->io, ev); /* active: only changes the interest */
    }
    if (err != 0) {
        mx_req *r = req_of(easy);
        if (r != NULL) {
            r->loop_err = err;
            h->loop_failed = true;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The client                                                               */

/* Checks cfg and copies it into h; 0 or MX_HTTP_EINVAL / ENO_MEMORY with why. */
static int take_config(mx_http *h, const mx_http_config *cfg, char *why, size_t why_len)
{
    mx_http_config none = {0};
    if (cfg == NULL)
        cfg = &none;
    const char *ua = cfg->user_agent != NULL && cfg->user_agent[0] != '\0' ? cfg->user_agent
                                                                           : MX_HTTP_AGENT_DEFAULT;
    if (!printable(ua, MX_HTTP_AGENT_MAX, true)) {
        say(why, why_len, "the user agent is too long or holds control bytes", "");
        return MX_HTTP_EINVAL;
    }
    if (cfg->ca_file != NULL && strnlen(cfg->ca_file, MX_HTTP_PATH_MAX + 1) > MX_HTTP_PATH_MAX) {
        say(why, why_len, "the CA file's path is too long", "");
        return MX_HTTP_EINVAL;
    }
    if (cfg->max_body > MX_HTTP_BODY_MAX_LIMIT) {
        say(why, why_len, "max_body is over MX_HTTP_BODY_MAX_LIMIT", "");
        return MX_HTTP_EINVAL;
    }
    if (cfg->connect_timeout_ms < 0 || cfg->connect_timeout_ms > MX_HTTP_TIMEOUT_MS_LIMIT) {
        say(why, why_len, "connect_timeout_ms is outside 0..MX_HTTP_TIMEOUT_MS_LIMIT", "");
        return MX_HTTP_EINVAL;
    }
    h->user_agent = strdup(ua);
    if (cfg->ca_file != NULL && cfg->ca_file[0] != '\0')
        h->ca_file = strdup(cfg->ca_file);
    if (h->user_agent == NULL ||
        (cfg->ca_file != NULL && cfg->ca_file[0] != '\0' && h->ca_file == NULL)) {
        say(why, why_len, "out of memory", "");
        return MX_HTTP_ENO_MEMORY;
    }
    h->insecure = cfg->insecure;
    h->max_body = cfg->max_body != 0 ? cfg->max_body : MX_HTTP_BODY_MAX_DEFAULT;
    h->connect_timeout_ms =
        cfg->connect_timeout_ms != 0 ? cfg->connect_timeout_ms : MX_HTTP_CONNECT_MS_DEFAULT;
    return 0;
}

/* Frees the strings take_config copied, then h itself. */
static void free_shell(mx_http *h)
{
    free(h->user_agent);
    free(h->ca_file);
    free(h);
}

/* A client on l; *out only on success (mx_http.h). */
int mx_http_new(mx_http **out, loop *l, const mx_http_config *cfg, char *why, size_t why_len)
{
    if (out == NULL || l == NULL) {
        say(why, why_len, "no loop or no place for the client", "");
        return MX_HTTP_EINVAL;
    }
    mx_http *h = calloc(1, sizeof *h);
    if (h == NULL) {
        say(why, why_len, "out of memory", "");
        return MX_HTTP_ENO_MEMORY;
    }
    h->loop = l;
    h->next_id = 1;
    int err = take_config(h, cfg, why, why_len);
    if (err != 0) {
        free_shell(h);
        return err;
    }
    CURLcode gc = curl_global_init(CURL_GLOBAL_DEFAULT);
    if (gc != CURLE_OK) {
        say(why, why_len, "curl_global_init failed", curl_easy_strerror(gc));
        free_shell(h);
        return MX_HTTP_ECURL;
    }
    h->multi = curl_multi_init();
    if (h->multi == NULL || curl_multi_setopt(h->multi, CURLMOPT_SOCKETFUNCTION, sock_cb) ||
        curl_multi_setopt(h->multi, CURLMOPT_SOCKETDATA, h) ||
        curl_multi_setopt(h->multi, CURLMOPT_TIMERFUNCTION, timer_cb) ||
        curl_multi_setopt(h->multi, CURLMOPT_TIMERDATA, h)) {
        say(why, why_len, "curl_multi_init failed or refused the socket API", "");
        err = MX_HTTP_ECURL;
    } else {
        loop_timer_init(l, &h->timer, timer_fire, h);
        int le = loop_timer_start(&h->timer, LOOP_DELAY_MAX_MS, LOOP_DELAY_MAX_MS);
        if (le != 0) {
            say(why, why_len, "the event loop refused a timer", loop_strerror(le));
            err = MX_HTTP_ELOOP;
        }
    }
    if (err != 0) {
        curl_multi_cleanup(h->multi);
        curl_global_cleanup();
        free_shell(h);
        return err;
    }
    *out = h;
    return 0;
}

/* Cancels everything silently and frees h (mx_http.h). */
void mx_http_free(mx_http *h)
{
    if (h == NULL)
        return;
    assert(!h->delivering && "mx_http_free from a callback of its own");
    mx_req *r;
    while ((r = h->running.head) != NULL) {
        list_remove(&h->running, r);
        curl_multi_remove_handle(h->multi, r->easy);
        req_free(r);
    }
    while ((r = h->done.head) != NULL) {
        list_remove(&h->done, r);
        req_free(r);
    }
    curl_multi_cleanup(h->multi); /* closes the pool; may still call sock_cb */
    while (h->socks != NULL)
        sock_drop(h, h->socks);
    loop_timer_stop(&h->timer);
    curl_global_cleanup();
    free_shell(h);
}

/* ------------------------------------------------------------------------ */
/* Requests                                                                 */

/* Checks req against h's caps; 0 or MX_HTTP_EINVAL. */
static int check_req(const mx_http *h, const mx_http_req *req)
{
    static const char *const methods[] = {"GET", "POST", "PUT", "DELETE"};
    bool known = false;
    if (req->method == NULL || req->url == NULL)
        return MX_HTTP_EINVAL;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        known = known || strcmp(req->method, methods[i]) == 0;
    if (!known || !printable(req->url, MX_HTTP_URL_MAX, false))
        return MX_HTTP_EINVAL;
    if (strncasecmp(req->url, "http://", 7) != 0 && strncasecmp(req->url, "https://", 8) != 0)
        return MX_HTTP_EINVAL;
    if (req->token != NULL && req->token[0] != '\0' &&
        (!printable(req->token, MX_HTTP_TOKEN_MAX, false) || strstr(req->url, req->token) != NULL))
        return MX_HTTP_EINVAL;
    if (req->body != NULL &&
        (strcmp(req->method, "GET") == 0 || strnlen(req->body, h->max_body + 1) > h->max_body))
        return MX_HTTP_EINVAL;
    if (req->timeout_ms < 0 || req->timeout_ms > MX_HTTP_TIMEOUT_MS_LIMIT)
        return MX_HTTP_EINVAL;
    return 0;
}

/* The headers of req, or NULL (no memory). */
static struct curl_slist *make_headers(const mx_http_req *req)
{
    struct curl_slist *l = NULL, *t;
    const char *fixed[] = {
        "Accept: application/json",
        "Expect:", /* no 100-continue wait before a large body */
        req->body != NULL ? "Content-Type: application/json" : "Content-Type:",
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        if ((t = curl_slist_append(l, fixed[i])) == NULL)
            goto fail;
        l = t;
    }
    if (req->token != NULL && req->token[0] != '\0') {
        static const char pre[] = "Authorization: Bearer ";
        size_t n = sizeof pre + strlen(req->token); /* NUL included by sizeof */
        char *line = malloc(n);
        if (line == NULL)
            goto fail;
        int k = snprintf(line, n, "%s%s", pre, req->token);
        t = k >= 0 && (size_t)k < n ? curl_slist_append(l, line) : NULL;
        memset(line, 0, n); /* no stray copy of the token left in freed memory */
        free(line);
        if (t == NULL)
            goto fail;
        l = t;
    }
    return l;
fail:
    curl_slist_free_all(l);
    return NULL;
}

/* Sets every option of r's easy handle; 0 or MX_HTTP_ECURL. */
static int setup_easy(mx_http *h, mx_req *r, const mx_http_req *req)
{
    CURL *e = r->easy;
    int64_t timeout = req->timeout_ms != 0 ? req->timeout_ms : MX_HTTP_TIMEOUT_MS_DEFAULT;
    CURLcode c = CURLE_OK;
#define SET(opt, val)                                                                              \
    do {                                                                                           \
        if (c == CURLE_OK)                                                                         \
            c = curl_easy_setopt(e, opt, val);                                                     \
    } while (0)
    SET(CURLOPT_URL, req->url);
    SET(CURLOPT_PRIVATE, (void *)r);
    SET(CURLOPT_NOSIGNAL, 1L);
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_FOLLOWLOCATION, 0L);
    SET(CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    SET(CURLOPT_ERRORBUFFER, r->errbuf);
    SET(CURLOPT_WRITEFUNCTION, write_cb);
    SET(CURLOPT_WRITEDATA, (void *)r);
    SET(CURLOPT_HEADERFUNCTION, header_cb);
    SET(CURLOPT_HEADERDATA, (void *)r);
    SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)h->max_body);
    SET(CURLOPT_USERAGENT, h->user_agent);
    SET(CURLOPT_HTTPHEADER, r->hdrs);
    SET(CURLOPT_ACCEPT_ENCODING, ""); /* what curl can decode; the cap counts decoded bytes */
    SET(CURLOPT_TCP_KEEPALIVE, 1L);
    SET(CURLOPT_TIMEOUT_MS, (long)timeout);
    SET(CURLOPT_CONNECTTIMEOUT_MS, (long)h->connect_timeout_ms);
    SET(CURLOPT_SSL_VERIFYPEER, h->insecure ? 0L : 1L);
    SET(CURLOPT_SSL_VERIFYHOST, h->insecure ? 0L : 2L);
    if (h->ca_file != NULL)
        SET(CURLOPT_CAINFO, h->ca_file);
    if (req->fresh) {
        SET(CURLOPT_FRESH_CONNECT, 1L);
        SET(CURLOPT_FORBID_REUSE, 1L);
    }
    if (strcmp(req->method, "GET") == 0) {
        SET(CURLOPT_HTTPGET, 1L);
    } else {
        if (strcmp(req->method, "POST") != 0)
            SET(CURLOPT_CUSTOMREQUEST, req->method);
        if (req->body != NULL || strcmp(req->method, "DELETE") != 0) {
            const char *body = req->body != NULL ? req->body : "";
            SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
            SET(CURLOPT_COPYPOSTFIELDS, body);
        }
    }
#undef SET
    return c == CURLE_OK ? 0 : MX_HTTP_ECURL;
}

/* Starts req; the callback comes from the loop (mx_http.h). */
int mx_http_request(mx_http *h, const mx_http_req *req, mx_http_done_fn done, void *arg,
                    uint64_t *id)
{
    if (h == NULL || req == NULL || done == NULL || check_req(h, req) != 0)
        return MX_HTTP_EINVAL;
    if (h->nreqs >= MX_HTTP_REQUESTS_MAX)
        return MX_HTTP_ETOO_MANY;
    mx_req *r = calloc(1, sizeof *r);
    if (r == NULL)
        return MX_HTTP_ENO_MEMORY;
    r->h = h;
    r->done = done;
    r->arg = arg;
    r->easy = curl_easy_init();
    r->hdrs = make_headers(req);
    if (r->easy == NULL || r->hdrs == NULL) {
        int err = r->easy == NULL ? MX_HTTP_ECURL : MX_HTTP_ENO_MEMORY;
        req_free(r);
        return err;
    }
    int err = setup_easy(h, r, req);
    if (err == 0 && curl_multi_add_handle(h->multi, r->easy) != CURLM_OK)
        err = MX_HTTP_ECURL;
    if (err != 0) {
        req_free(r);
        return err;
    }
    r->id = h->next_id++;
    list_push(&h->running, r);
    h->nreqs++;
    if (id != NULL)
        *id = r->id;
    return 0;
}

/* Forgets request id without calling it back (mx_http.h). */
void mx_http_cancel(mx_http *h, uint64_t id)
{
    if (h == NULL)
        return;
    for (mx_req *r = h->running.head; r != NULL; r = r->next) {
        if (r->id == id) {
            list_remove(&h->running, r);
            h->nreqs--;
            curl_multi_remove_handle(h->multi, r->easy);
            req_free(r);
            return;
        }
    }
    for (mx_req *r = h->done.head; r != NULL; r = r->next) {
        if (r->id == id) {
            list_remove(&h->done, r);
            h->nreqs--;
            req_free(r);
            return;
        }
    }
}

/* Requests neither delivered nor cancelled (mx_http.h). */
size_t mx_http_active(const mx_http *h)
{
    return h != NULL ? h->nreqs : 0;
}
