/*
 * mx_call.c — the Matrix adapter's request engine (see mx_int.h) and its
 * small helpers (URLs, JSON, the kv, back-off). Every request is a call in
 * a fixed table; its answer is sorted here: 2xx and final 4xx go to the
 * kind's handler (mx__dispatch, in mx.c), 429 waits for Retry-After (else
 * retry_after_ms, else the back-off), no answer, 408, 5xx and a send's 2xx
 * without an event_id are sent again (the same request: a send keeps its
 * transaction id) after a doubling back-off with jitter, and a 401 M_UNKNOWN_TOKEN is
 * mx.c's (mx__token_refused) to decide. Also here, since they are
 * requests kept until the homeserver answered: the joins and leaves a sync
 * batch decides, recorded in the kv ("pending") before the batch's since is
 * saved (the sync will not bring an invitation again), at most
 * MX_JOINS_MAX on the wire at once, the others started as those end, each
 * inviter's server and each inviter in turn (the fewest served first), and
 * one at a time after the homeserver's join limiter said 429. Not here:
 * what any other call means.
 */
#include "mx_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "log.h"

#define API "/_matrix/client/v3"

/* ---- Small helpers -------------------------------------------------------- */

bool mx__id_ok(const char *s)
{
    return s != NULL && s[0] != '\0' && strlen(s) < MX_ID_MAX;
}

int64_t mx__backoff_next(mx_net *n, mx_backoff *b)
{
    int64_t d = b->next_ms > 0 ? b->next_ms : MX_BACKOFF_MIN_MS;
    b->next_ms = d * 2 > MX_BACKOFF_MAX_MS ? MX_BACKOFF_MAX_MS : d * 2;
    n->rng ^= n->rng << 13; /* xorshift64 */
    n->rng ^= n->rng >> 7;
    n->rng ^= n->rng << 17;
    return d / 2 + (int64_t)(n->rng % (uint64_t)(d / 2 + 1)); /* [d/2, d] */
}

int mx__enc(const char *s, char *out, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0;
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '.' || c == '_' || c == '~';
        if (k + (plain ? 1 : 3) >= cap)
            return -1;
        if (plain) {
            out[k++] = (char)c;
        } else {
            out[k++] = '%';
            out[k++] = hex[c >> 4];
            out[k++] = hex[c & 15];
        }
    }
    if (cap == 0)
        return -1;
    out[k] = '\0';
    return 0;
}

int mx__url(const mx_net *n, char *out, size_t cap, const char *path)
{
    int k = snprintf(out, cap, "%s" API "%s", n->base, path);
    return k < 0 || (size_t)k >= cap ? -1 : 0;
}

json_object *mx__parse(const char *body, size_t len)
{
    if (body == NULL || len == 0 || len > INT32_MAX)
        return NULL;
    json_tokener *tok = json_tokener_new_ex(64);
    if (tok == NULL)
        return NULL;
    json_object *o = json_tokener_parse_ex(tok, body, (int)len);
    if (json_tokener_get_error(tok) != json_tokener_success ||
        !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        o = NULL;
    }
    json_tokener_free(tok);
    return o;
}

const char *mx__str(json_object *o, const char *key)
{
    json_object *v;
    if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
        !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

json_object *mx__obj(json_object *o, const char *key)
{
    json_object *v;
    if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
        !json_object_is_type(v, json_type_object))
        return NULL;
    return v;
}

json_object *mx__arr(json_object *o, const char *key)
{
    json_object *v;
    if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
        !json_object_is_type(v, json_type_array))
        return NULL;
    return v;
}

int mx__kv_get(mx_net *n, const char *key, char *value, size_t cap)
{
    int r = host_kv_get(n->env.host, n->scope, key, value, cap);
    if (r < 0)
        log_msg(LOG_ERROR, "%s: cannot read the adapter's state: %s", n->c.name,
                host_errmsg(n->env.host));
    return r == 0 && value[0] != '\0' ? 0 : -1;
}

void mx__kv_set(mx_net *n, const char *key, const char *value)
{
    if (host_kv_set(n->env.host, n->scope, key, value) != 0)
        log_msg(LOG_ERROR, "%s: cannot save the adapter's state: %s", n->c.name,
                host_errmsg(n->env.host));
}

/* Zeroes and frees a string that may hold a secret. */
static void free_secret(char *s)
{
    if (s == NULL)
        return;
    volatile char *p = s;
    while (*p != '\0')
        *p++ = '\0';
    free(s);
}

/* What a call is, for the log. */
static const char *call_label(const mx_call *c)
{
    static const char *const names[MX_CALL_KINDS] = {
        [MX_CALL_LOGIN] = "log-in",
        [MX_CALL_WHOAMI] = "whoami",
        [MX_CALL_FILTER] = "filter",
        [MX_CALL_DIRECT_GET] = "m.direct",
        [MX_CALL_SYNC] = "sync",
        [MX_CALL_MESSAGES] = "room history",
        [MX_CALL_JOIN] = "join",
        [MX_CALL_LEAVE] = "leave",
        [MX_CALL_SEND] = "send",
        [MX_CALL_CREATE_DM] = "direct room",
        [MX_CALL_DIRECT_PUT] = "m.direct update",
        [MX_CALL_DM_CHECK] = "direct room's encryption",
        [MX_CALL_POWER] = "power levels",
        [MX_CALL_KEYS_UPLOAD] = "device keys",
        [MX_CALL_XSIGN_UPLOAD] = "cross-signing keys",
        [MX_CALL_SIGS_UPLOAD] = "device's cross-signature",
        [MX_CALL_KEYS_QUERY] = "devices' keys",
        [MX_CALL_KEYS_CLAIM] = "one-time keys",
        [MX_CALL_TO_DEVICE] = "room key",
        [MX_CALL_MEMBERS] = "room members",
    };
    return c->kind < MX_CALL_KINDS && names[c->kind] != NULL ? names[c->kind] : "request";
}

/* ---- The engine ------------------------------------------------------------ */

static void on_response(const mx_http_response *res, void *arg);

/* Arms the engine's timer for the earliest waiting call. */
static void arm_timer(mx_net *n)
{
    int64_t due = INT64_MAX;
    for (int i = 0; i < MX_CALLS_MAX; i++) {
        const mx_call *c = &n->calls[i];
        if (c->used && c->waiting && !c->for_auth && c->due_ms < due)
            due = c->due_ms;
    }
    if (due == INT64_MAX) {
        loop_timer_stop(&n->timer);
        return;
    }
    int64_t wait = due - loop_now(n->env.loop);
    (void)loop_timer_start(&n->timer, wait > 0 ? wait : 0, 0);
}

/* Makes c wait delay ms before it is sent again. */
void mx__call_wait(mx_net *n, mx_call *c, int64_t delay)
{
    c->waiting = true;
    c->due_ms = loop_now(n->env.loop) + (delay > 0 ? delay : 0);
    arm_timer(n);
}

mx_call *mx__call_new(mx_net *n, mx_kind kind, const char *method, const char *url,
                      const char *body, bool auth)
{
    int free_slots = 0;
    for (int i = 0; i < MX_CALLS_MAX; i++)
        free_slots += !n->calls[i].used;
    bool vital = kind == MX_CALL_SYNC || kind == MX_CALL_LOGIN || kind == MX_CALL_WHOAMI ||
                 kind == MX_CALL_FILTER || kind == MX_CALL_DIRECT_GET;
    if (!vital && free_slots <= MX_CALLS_VITAL) {
        log_msg(LOG_WARN, "%s: %d requests are under way already; a %s request waits", n->c.name,
                MX_CALLS_MAX - free_slots, kind == MX_CALL_SEND ? "send" : "room");
        return NULL;
    }
    for (int i = 0; i < MX_CALLS_MAX; i++) {
        mx_call *c = &n->calls[i];
        if (c->used)
            continue;
        memset(c, 0, sizeof *c);
        c->url = strdup(url);
        c->body = body != NULL ? strdup(body) : NULL;
        if (c->url == NULL || (body != NULL && c->body == NULL)) {
            free(c->url);
            free_secret(c->body);
            c->url = c->body = NULL;
            log_msg(LOG_ERROR, "%s: out of memory for a request", n->c.name);
            return NULL;
        }
        c->used = true;
        c->kind = kind;
        snprintf(c->method, sizeof c->method, "%s", method);
        c->auth = auth;
        c->timeout_ms = MX_REQUEST_MS;
        return c;
    }
    log_msg(LOG_ERROR, "%s: no room for another request", n->c.name);
    return NULL;
}

void mx__call_drop(mx_net *n, mx_call *c)
{
    if (!c->used)
        return;
    if (c->req != 0)
        mx_http_cancel(n->http, c->req);
    free(c->url);
    free_secret(c->body);
    memset(c, 0, sizeof *c);
}

mx_call *mx__call_find(mx_net *n, mx_kind kind, const char *room, const char *user)
{
    for (int i = 0; i < MX_CALLS_MAX; i++) {
        mx_call *c = &n->calls[i];
        if (c->used && c->kind == kind && (room == NULL || strcmp(c->room, room) == 0) &&
            (user == NULL || strcmp(c->user, user) == 0))
            return c;
    }
    return NULL;
}

void mx__call_go(mx_net *n, mx_call *c)
{
    /* Calls that must not run twice get a connection of their own. */
    bool fresh = c->kind == MX_CALL_CREATE_DM || c->kind == MX_CALL_JOIN;
    mx_http_req req = {c->method, c->url, c->auth ? n->token : NULL, c->body, c->timeout_ms, fresh};
    c->waiting = c->for_auth = false;
    c->tries++;
    c->gen = n->token_gen;
    int r = mx_http_request(n->http, &req, on_response, n, &c->req);
    if (r != 0) {
        c->req = 0;
        int64_t delay = mx__backoff_next(n, &c->backoff);
        log_msg(LOG_WARN, "%s: cannot start a %s request (%s); trying again in %lld ms", n->c.name,
                call_label(c), mx_http_strerror(r), (long long)delay);
        mx__call_wait(n, c, delay);
    }
}

void mx__on_timer(loop_timer *t, void *arg)
{
    (void)t;
    mx_net *n = arg;
    int64_t now = loop_now(n->env.loop);
    for (int i = 0; i < MX_CALLS_MAX; i++) {
        mx_call *c = &n->calls[i];
        if (c->used && c->waiting && !c->for_auth && c->due_ms <= now)
            mx__call_go(n, c);
    }
    arm_timer(n);
}

/* Sends every call that waited for the bot to log in again. */
void mx__resume_parked(mx_net *n)
{
    for (int i = 0; i < MX_CALLS_MAX; i++) {
        mx_call *c = &n->calls[i];
        if (c->used && c->waiting && c->for_auth)
            mx__call_go(n, c);
    }
}

/* The retry delay of a 429: Retry-After, else retry_after_ms, else back-off. */
static int64_t rate_delay(mx_net *n, mx_call *c, const mx_http_response *res, json_object *body)
{
    json_object *v;
    int64_t ms = -1;
    if (res->retry_after_ms >= 0)
        ms = res->retry_after_ms;
    else if (body != NULL && json_object_object_get_ex(body, "retry_after_ms", &v) &&
             json_object_is_type(v, json_type_int) && json_object_get_int64(v) >= 0)
        ms = json_object_get_int64(v);
    if (ms < 0)
        return mx__backoff_next(n, &c->backoff);
    return ms < MX_RETRY_AFTER_MAX_MS ? ms : MX_RETRY_AFTER_MAX_MS;
}

/* Whether a 2xx lacks what its kind needs: a send's event_id (a proxy, or
   a server that failed after the status line). It is sent again, under the
   same transaction id: the homeserver's transaction cache makes a repeat of
   what it took answer the same event. */
static bool unusable_2xx(const mx_call *c, json_object *body)
{
    return c->kind == MX_CALL_SEND && mx__str(body, "event_id") == NULL;
}

static void on_response(const mx_http_response *res, void *arg)
{
    mx_net *n = arg;
    mx_call *c = NULL;
    for (int i = 0; i < MX_CALLS_MAX && c == NULL; i++)
        if (n->calls[i].used && n->calls[i].req == res->id)
            c = &n->calls[i];
    if (c == NULL)
        return;
    c->req = 0;
    int st = res->status;
    json_object *body = mx__parse(res->body, res->body_len);
    const char *errcode = mx__str(body, "errcode");
    bool ok = st >= 200 && st < 300, unusable = ok && unusable_2xx(c, body);
    if (ok && !unusable) {
        c->backoff.next_ms = 0;
        mx__dispatch(n, c, st, body);
        mx__call_drop(n, c);
    } else if (st == 401 && c->auth && errcode != NULL &&
               (strcmp(errcode, "M_UNKNOWN_TOKEN") == 0 ||
                strcmp(errcode, "M_MISSING_TOKEN") == 0)) {
        mx__token_refused(n, c);
    } else if (n->quitting && c->kind != MX_CALL_SEND) {
        mx__call_drop(n, c);
    } else if (st == 429 && (c->kind == MX_CALL_JOIN || c->kind == MX_CALL_LEAVE)) {
        mx__moves_limited(n, c, rate_delay(n, c, res, body));
    } else if (st == 429 || st == 0 || st >= 500 || st == 408 || unusable) {
        int64_t delay = st == 429 ? rate_delay(n, c, res, body) : mx__backoff_next(n, &c->backoff);
        if (st == 429)
            log_msg(LOG_INFO, "%s: %s rate-limited (M_LIMIT_EXCEEDED); trying again in %lld ms",
                    n->c.name, call_label(c), (long long)delay);
        else if (st == 0)
            log_msg(LOG_WARN, "%s: %s failed (%s); trying again in %lld ms", n->c.name,
                    call_label(c), res->error, (long long)delay);
        else if (unusable)
            log_msg(LOG_WARN,
                    "%s: %s answered HTTP %d without an event_id; trying again in %lld ms, "
                    "under the same transaction id",
                    n->c.name, call_label(c), st, (long long)delay);
        else
            log_msg(LOG_WARN, "%s: %s failed (HTTP %d); trying again in %lld ms", n->c.name,
                    call_label(c), st, (long long)delay);
        if (n->quitting)
            mx__call_drop(n, c);
        else
            mx__call_wait(n, c, delay);
    } else {
        mx__dispatch(n, c, st, body);
        mx__call_drop(n, c);
    }
    json_object_put(body);
}

/* ---- Joins and leaves, kept until done ------------------------------------ */

/*
 * Replaces the kv "pending" record of kind ('J' join, 'L' leave) for room
 * by line (NULL: removes it). A join or a leave decided in a batch is
 * recorded before the batch's since is saved, so a crash before the
 * homeserver answered does not lose it: the sync will not repeat the
 * invitation or the request.
 */
static void pending_edit(mx_net *n, char kind, const char *room, const char *line)
{
    char *in = malloc(MX_PENDING_MAX), *out = malloc(MX_PENDING_MAX);
    size_t k = 0, rl = strlen(room);
    if (in == NULL || out == NULL)
        goto done;
    (void)mx__kv_get(n, "pending", in, MX_PENDING_MAX);
    for (char *p = in, *e; *p != '\0'; p = *e ? e + 1 : e) {
        e = p + strcspn(p, "\n");
        size_t len = (size_t)(e - p);
        bool same = len > rl + 2 && p[0] == kind && p[1] == '\t' && strncmp(p + 2, room, rl) == 0 &&
                    p[2 + rl] == '\t';
        if (!same && len > 0 && k + len + 1 < MX_PENDING_MAX) {
            memcpy(out + k, p, len);
            out[k + len] = '\n';
            k += len + 1;
        }
    }
    if (line != NULL) {
        size_t len = strlen(line);
        if (k + len + 1 < MX_PENDING_MAX) {
            memcpy(out + k, line, len);
            out[k + len] = '\n';
            k += len + 1;
        } else {
            log_msg(LOG_WARN, "%s: too many joins and leaves under way to keep this one",
                    n->c.name);
        }
    }
    out[k] = '\0';
    if (strcmp(in, out) != 0)
        mx__kv_set(n, "pending", out);
done:
    free(in);
    free(out);
}

/* Joins and leaves on the wire (or waiting to be retried). */
static int moves_under_way(mx_net *n)
{
    int k = 0;
    for (int i = 0; i < MX_CALLS_MAX; i++)
        k += n->calls[i].used &&
             (n->calls[i].kind == MX_CALL_JOIN || n->calls[i].kind == MX_CALL_LEAVE);
    return k;
}

/* Whether another join or leave may start now (the window, the hold). */
static bool moves_open(mx_net *n)
{
    return moves_under_way(n) < n->moves.window && loop_now(n->env.loop) >= n->moves.hold_ms;
}

/*
 * Starts the request that joins room (flags, user, event: the call's
 * context), unless one is under way or MX_JOINS_MAX joins and leaves are:
 * then it waits in the kv record, and mx__pending_resume starts it when one
 * is over.
 */
static void join_start(mx_net *n, const char *room, int flags, const char *user, const char *event)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], enc[3 * MX_ID_MAX];
    if (mx__call_find(n, MX_CALL_JOIN, room, NULL) != NULL || !moves_open(n) ||
        mx__enc(room, enc, sizeof enc) != 0 ||
        snprintf(path, sizeof path, "/rooms/%s/join", enc) >= (int)sizeof path ||
        mx__url(n, url, sizeof url, path) != 0)
        return;
    mx_call *c = mx__call_new(n, MX_CALL_JOIN, "POST", url, "{}", true);
    if (c == NULL)
        return;
    snprintf(c->room, sizeof c->room, "%s", room);
    snprintf(c->user, sizeof c->user, "%s", user != NULL ? user : "");
    snprintf(c->event, sizeof c->event, "%s", event != NULL ? event : "");
    c->flags = flags;
    mx__call_go(n, c);
}

/* Records a join of room in the kv (kept until the homeserver answered)
   and starts it, in its turn. */
void mx__join_room(mx_net *n, const char *room, int flags, const char *user, const char *event)
{
    char line[4 * MX_ID_MAX + 16];
    snprintf(line, sizeof line, "J\t%s\t%d\t%s\t%s", room, flags, user != NULL ? user : "",
             event != NULL ? event : "");
    pending_edit(n, 'J', room, line);
    mx__pending_resume(n, false);
}

/* Starts the request that leaves room, as join_start (user: the inviter
   whose invitation it declines, or ""). */
static void leave_start(mx_net *n, const char *room, const char *why, const char *user)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], enc[3 * MX_ID_MAX];
    if (mx__call_find(n, MX_CALL_LEAVE, room, NULL) != NULL || !moves_open(n) ||
        mx__enc(room, enc, sizeof enc) != 0 ||
        snprintf(path, sizeof path, "/rooms/%s/leave", enc) >= (int)sizeof path ||
        mx__url(n, url, sizeof url, path) != 0)
        return;
    mx_call *c = mx__call_new(n, MX_CALL_LEAVE, "POST", url, "{}", true);
    if (c == NULL)
        return;
    snprintf(c->room, sizeof c->room, "%s", room);
    snprintf(c->user, sizeof c->user, "%s", user);
    snprintf(c->event, sizeof c->event, "%s", why);
    mx__call_go(n, c);
}

/* Records a leave of room in the kv and starts it, in its turn. */
void mx__leave_room(mx_net *n, const char *room, const char *why, const char *user)
{
    char line[3 * MX_ID_MAX + 16];
    snprintf(line, sizeof line, "L\t%s\t0\t%s\t%s", room, user != NULL ? user : "", why);
    pending_edit(n, 'L', room, line);
    mx__pending_resume(n, false);
}

/* One line of the kv record: 'J' or 'L', the room, flags, the inviter
   ("" none), the event or the reason. */
typedef struct move {
    char kind;
    const char *f[5];
    bool done; /* started, or not startable this turn */
} move;

/* The server part of a user id, as a key (":x"), or "" none. */
static const char *server_of(const char *user)
{
    const char *colon = user != NULL ? strchr(user, ':') : NULL;
    return colon != NULL ? colon : "";
}

/* How many joins and leaves were started for key (an inviter, ":server"). */
static unsigned served(const mx_net *n, const char *key)
{
    for (int i = 0; i < n->moves.nserved; i++)
        if (strcmp(n->moves.served[i].key, key) == 0)
            return n->moves.served[i].count;
    return 0;
}

/* Counts one more for key. When the table is full the entry with the
   fewest goes (it would be among the first served anyway). */
static void serve(mx_net *n, const char *key)
{
    int at = -1;
    for (int i = 0; i < n->moves.nserved && at < 0; i++)
        if (strcmp(n->moves.served[i].key, key) == 0)
            at = i;
    if (at < 0 && strlen(key) < MX_ID_MAX) {
        if (n->moves.nserved < MX_INVITERS_MAX) {
            at = n->moves.nserved++;
        } else {
            at = 0;
            for (int i = 1; i < n->moves.nserved; i++)
                if (n->moves.served[i].count < n->moves.served[at].count)
                    at = i;
        }
        snprintf(n->moves.served[at].key, sizeof n->moves.served[at].key, "%s", key);
        n->moves.served[at].count = 0;
    }
    if (at >= 0 && n->moves.served[at].count < UINT32_MAX)
        n->moves.served[at].count++;
}

/* The index of the move to start next: the fewest served server, then
   inviter, the record's order among equals; -1 none. */
static int next_move(mx_net *n, const move *m, int count)
{
    int best = -1;
    unsigned best_server = 0, best_user = 0;
    for (int i = 0; i < count; i++) {
        if (m[i].done)
            continue;
        unsigned sv = served(n, server_of(m[i].f[3])), us = served(n, m[i].f[3]);
        if (best < 0 || sv < best_server || (sv == best_server && us < best_user)) {
            best = i;
            best_server = sv;
            best_user = us;
        }
    }
    return best;
}

void mx__pending_resume(mx_net *n, bool restart)
{
    if (n->quitting || n->phase == MX_PH_DEAD || !moves_open(n))
        return;
    char *buf = malloc(MX_PENDING_MAX);
    move *m = NULL;
    int cap = 1, count = 0;
    if (buf == NULL)
        return;
    (void)mx__kv_get(n, "pending", buf, MX_PENDING_MAX);
    for (const char *p = buf; *p != '\0'; p++)
        cap += *p == '\n';
    if ((m = malloc((size_t)cap * sizeof *m)) == NULL)
        goto done;
    for (char *p = buf, *e, save = '\n'; save != '\0' && *p != '\0' && count < cap; p = e + 1) {
        e = p + strcspn(p, "\n");
        save = *e;
        *e = '\0'; /* the fields stay in buf */
        move *v = &m[count];
        int nf = 0;
        for (char *q = p; nf < 5; q++) {
            v->f[nf++] = q;
            q += strcspn(q, "\t");
            if (*q == '\0')
                break;
            *q = '\0';
        }
        bool ok = nf == 5 && mx__id_ok(v->f[1]) && (p[0] == 'J' || p[0] == 'L');
        if (ok) {
            v->kind = p[0];
            v->done = mx__call_find(n, v->kind == 'J' ? MX_CALL_JOIN : MX_CALL_LEAVE, v->f[1],
                                    NULL) != NULL;
            count++;
        }
    }
    for (int i; moves_open(n) && (i = next_move(n, m, count)) >= 0;) {
        const char **f = m[i].f;
        m[i].done = true;
        if (restart)
            log_msg(LOG_INFO, "%s: %s %s again (not confirmed before a restart)", n->c.name,
                    m[i].kind == 'J' ? "joining" : "leaving", f[1]);
        int before = moves_under_way(n);
        if (m[i].kind == 'J')
            join_start(n, f[1], (int)strtol(f[2], NULL, 10), f[3], f[4]);
        else
            leave_start(n, f[1], f[4], f[3]);
        if (moves_under_way(n) > before) {
            serve(n, server_of(f[3]));
            serve(n, f[3]);
        }
    }
done:
    free(buf);
    free(m);
}

void mx__moves_limited(mx_net *n, mx_call *c, int64_t delay)
{
    int64_t until = loop_now(n->env.loop) + delay;
    if (until > n->moves.hold_ms)
        n->moves.hold_ms = until;
    if (n->moves.window > 1)
        log_msg(LOG_INFO,
                "%s: joins rate-limited (M_LIMIT_EXCEEDED); one at a time, in turn, from %lld ms",
                n->c.name, (long long)delay);
    n->moves.window = 1;
    mx__call_drop(n, c); /* still in the kv record: started again in its turn */
    (void)loop_timer_start(&n->moves.timer, n->moves.hold_ms - loop_now(n->env.loop), 0);
}

void mx__on_moves(loop_timer *t, void *arg)
{
    (void)t;
    mx__pending_resume(arg, false);
}

/* A join or leave was answered (not 429): the window grows again. */
static void moves_answered(mx_net *n, mx_call *c, int status)
{
    pending_edit(n, c->kind == MX_CALL_JOIN ? 'J' : 'L', c->room, NULL);
    c->kind = MX_CALL_KINDS; /* over: not counted by moves_under_way */
    if (status == 200 && n->moves.window < MX_JOINS_MAX)
        n->moves.window *= 2;
    if (n->moves.window > MX_JOINS_MAX)
        n->moves.window = MX_JOINS_MAX;
    mx__pending_resume(n, false);
}

void mx__on_join(mx_net *n, mx_call *c, int status, json_object *body)
{
    moves_answered(n, c, status);
    mx__send_unpark(n); /* queues parked while the bot joined */
    if (status != 200) {
        const char *err = mx__str(body, "error");
        log_msg(LOG_WARN, "%s: cannot join %s (HTTP %d: %s)", n->c.name, c->room, status,
                err != NULL ? err : "");
        return;
    }
    log_msg(LOG_INFO, "%s: joined %s", n->c.name, c->room);
    (void)mx__room(n, c->room, true);
    if (c->flags & MX_JOIN_UPGRADE) {
        int ns = 0;
        bool game = host_room_players(n->env.host, n->c.name, c->room, NULL, 0, &ns) == 1;
        char text[600];
        pz_lang before = i18n_use(host_reader_lang(n->env.host, n->c.name, c->room, MSG_ROOM));
        if (game)
            snprintf(text, sizeof text,
                     _("This room replaces %s: the game goes on here (say !turn to see whose "
                       "turn it is)."),
                     c->event);
        else
            snprintf(text, sizeof text, _("This room replaces %s."), c->event);
        i18n_use(before);
        (void)mx__say(n, c->room, NULL, text);
    }
}

void mx__on_leave(mx_net *n, mx_call *c, int status, json_object *body)
{
    (void)body;
    moves_answered(n, c, status);
    if (status != 200)
        log_msg(LOG_WARN, "%s: cannot leave %s (HTTP %d)", n->c.name, c->room, status);
    else
        log_msg(LOG_INFO, "%s: left %s (%s)", n->c.name, c->room, c->event);
}
