/*
 * mx.c — the Matrix adapter's life (see mx.h): logging in (a kept token,
 * the configuration's token, or the password), the filter, m.direct, the
 * /sync loop, and what the final answer of each kind of call means
 * (mx__dispatch). The request engine is mx_call.c's; what a batch says
 * mx_events.c's; rooms and direct rooms mx_rooms.c's; the outbox
 * mx_send.c's.
 *
 * Log-in is a round of credentials tried in order: the token kept in the
 * store (from an earlier password log-in), then the configuration's
 * access_token, then the password. A token the homeserver refuses (401
 * M_UNKNOWN_TOKEN, on whoami or on any call) is crossed off and the round
 * goes on; when nothing is left the network stops with a log line saying
 * why, and the others go on. Calls refused meanwhile wait (parked) and are
 * sent again with the new token; the device id is kept, so the
 * homeserver's transaction ids still match.
 */
#include "mx_net.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"

static void start_auth_round(mx_net *n);
static void start_sync(mx_net *n);
static void sync_call(mx_net *n, bool later);
static void phase_after_auth(mx_net *n);

/* A token the homeserver no longer knows: what to do with c and the network. */
void mx__token_refused(mx_net *n, mx_call *c)
{
    bool whoami = c->kind == MX_CALL_WHOAMI;
    if (n->authed && c->gen != n->token_gen && !n->quitting) {
        mx__call_go(n, c); /* sent with a token replaced since: send it with the new one */
        return;
    }
    if (whoami || c->kind == MX_CALL_SYNC || n->quitting) {
        mx__call_drop(n, c); /* the sync starts afresh once logged in */
    } else {
        c->waiting = c->for_auth = true;
    }
    if (n->phase == MX_PH_DEAD || n->quitting)
        return;
    if (n->authed || whoami) { /* whoami: the round's candidate is refused */
        n->authed = false;
        if (n->token_from_config)
            n->tried_config = true;
        else
            n->tried_kv = true;
        if (!n->token_from_config)
            mx__kv_set(n, "access_token", "");
        log_msg(LOG_WARN,
                "%s: the homeserver no longer accepts the bot's access token "
                "(M_UNKNOWN_TOKEN)",
                n->c.name);
        start_auth_round(n);
    }
}

/* ---- Log-in ---------------------------------------------------------------- */

/* Stops the network for good: a refused credential. */
static void die(mx_net *n)
{
    n->phase = MX_PH_DEAD;
    n->authed = false;
    for (int i = 0; i < MX_CALLS_MAX; i++)
        mx__call_drop(n, &n->calls[i]);
    mx__e2ee_free(n);
    loop_timer_stop(&n->timer);
    mx__batch_free(n);
}

static void start_whoami(mx_net *n)
{
    char url[MX_URL_MAX];
    n->phase = n->phase == MX_PH_SYNC ? MX_PH_SYNC : MX_PH_WHOAMI;
    mx_call *c = mx__url(n, url, sizeof url, "/account/whoami") == 0
                     ? mx__call_new(n, MX_CALL_WHOAMI, "GET", url, NULL, true)
                     : NULL;
    if (c != NULL)
        mx__call_go(n, c);
}

static void start_login(mx_net *n)
{
    char url[MX_URL_MAX];
    json_object *b = json_object_new_object(), *id = json_object_new_object();
    if (b == NULL || id == NULL || mx__url(n, url, sizeof url, "/login") != 0) {
        json_object_put(b);
        json_object_put(id);
        return;
    }
    json_object_object_add(id, "type", json_object_new_string("m.id.user"));
    json_object_object_add(id, "user", json_object_new_string(n->c.user));
    json_object_object_add(b, "type", json_object_new_string("m.login.password"));
    json_object_object_add(b, "identifier", id);
    json_object_object_add(b, "password", json_object_new_string(n->c.password));
    if (n->device[0] != '\0')
        json_object_object_add(b, "device_id", json_object_new_string(n->device));
    json_object_object_add(b, "initial_device_display_name", json_object_new_string("porrazo-bot"));
    const char *text = json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN);
    mx_call *c = mx__call_new(n, MX_CALL_LOGIN, "POST", url, text, false);
    /* the password's copy inside json-c goes with the object */
    json_object_put(b);
    if (c == NULL)
        return;
    log_msg(LOG_INFO, "%s: logging in as %s with the password%s", n->c.name, n->c.user,
            n->device[0] ? " (same device)" : "");
    mx__call_go(n, c);
}

/*
 * Tries the next credential of the round: the kept token, the
 * configuration's, the password; stops the network when none is left.
 */
static void start_auth_round(mx_net *n)
{
    char token[MX_TOKEN_MAX];
    if (!n->tried_kv && mx__kv_get(n, "access_token", token, sizeof token) == 0) {
        snprintf(n->token, sizeof n->token, "%s", token);
        memset(token, 0, sizeof token);
        n->token_from_config = false;
        start_whoami(n);
        return;
    }
    n->tried_kv = true;
    if (!n->tried_config && n->c.access_token[0] != '\0') {
        snprintf(n->token, sizeof n->token, "%s", n->c.access_token);
        n->token_from_config = true;
        start_whoami(n);
        return;
    }
    n->tried_config = true;
    if (!n->tried_password && n->c.password[0] != '\0') {
        n->tried_password = true;
        start_login(n);
        return;
    }
    memset(n->token, 0, sizeof n->token);
    if (n->c.password[0] != '\0')
        log_msg(LOG_ERROR,
                "%s: the homeserver refused the password of %s: this network "
                "stops (the others go on); fix password in [matrix %s]",
                n->c.name, n->c.user, n->c.name);
    else
        log_msg(LOG_ERROR,
                "%s: the access token was revoked (M_UNKNOWN_TOKEN) and no "
                "password is configured: this network stops (the others go on); "
                "put a new access_token, or a password, in [matrix %s]",
                n->c.name, n->c.name);
    die(n);
}

/* A credential worked: the round is over. */
static void authed(mx_net *n, const char *user, const char *device)
{
    n->authed = true;
    n->token_gen++;
    n->tried_kv = n->tried_config = n->tried_password = false;
    if (user != NULL && strlen(user) < sizeof n->me)
        snprintf(n->me, sizeof n->me, "%s", user);
    if (strcmp(n->me, n->c.user) != 0)
        log_msg(LOG_WARN, "%s: the token belongs to %s, not to %s as configured", n->c.name, n->me,
                n->c.user);
    if (device != NULL && device[0] != '\0' && strlen(device) < sizeof n->device &&
        strcmp(device, n->device) != 0) {
        snprintf(n->device, sizeof n->device, "%s", device);
        mx__kv_set(n, "device_id", device);
    }
    log_msg(LOG_INFO, "%s: logged in as %s (device %s)", n->c.name, n->me,
            n->device[0] ? n->device : "unknown");
    mx__resume_parked(n);
    mx__e2ee_start(n);
    phase_after_auth(n);
}

static void on_login(mx_net *n, int status, json_object *b)
{
    const char *token = mx__str(b, "access_token");
    if (status != 200 || token == NULL || strlen(token) >= sizeof n->token) {
        const char *err = mx__str(b, "error");
        log_msg(LOG_ERROR, "%s: log-in refused (HTTP %d %s: %s)", n->c.name, status,
                mx__str(b, "errcode") ? mx__str(b, "errcode") : "", err ? err : "no reason");
        start_auth_round(n); /* nothing left: stops */
        return;
    }
    snprintf(n->token, sizeof n->token, "%s", token);
    n->token_from_config = false;
    mx__kv_set(n, "access_token", token);
    authed(n, mx__str(b, "user_id"), mx__str(b, "device_id"));
}

static void on_whoami(mx_net *n, int status, json_object *b)
{
    const char *user = mx__str(b, "user_id");
    if (status != 200 || user == NULL) {
        log_msg(LOG_WARN, "%s: whoami answered HTTP %d; trying the next credential", n->c.name,
                status);
        if (n->token_from_config)
            n->tried_config = true;
        else
            n->tried_kv = true;
        start_auth_round(n);
        return;
    }
    authed(n, user, mx__str(b, "device_id"));
}

/* ---- Filter, m.direct, sync ------------------------------------------------ */

/* The filter: messages and membership, plus what says a room is encrypted or
   replaced, who moderates it, its name and its alias, and who may read its
   history (whom its room key is for). Its id is kept under MX_FILTER_KEY,
   which changes with the event types (an older bot's filter is not reused). */
#define MX_FILTER_KEY "filter_id.4"
#define MX_FILTER_STATE                                                                            \
    "\"m.room.member\",\"m.room.encryption\",\"m.room.tombstone\",\"m.room.power_levels\","        \
    "\"m.room.name\",\"m.room.canonical_alias\",\"m.room.history_visibility\""
static const char FILTER_JSON[] =
    "{\"room\":{\"timeline\":{\"types\":[\"m.room.message\",\"m.room.encrypted\"," MX_FILTER_STATE
    "],\"limit\":50},"
    "\"state\":{\"types\":[" MX_FILTER_STATE "]},"
    "\"ephemeral\":{\"types\":[]},\"account_data\":{\"types\":[]}},"
    "\"presence\":{\"types\":[]},\"account_data\":{\"types\":[\"m.direct\"]}}";

/* A new call that uploads the filter (not sent yet), or NULL. */
static mx_call *filter_call(mx_net *n)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], me[3 * MX_ID_MAX];
    if (mx__enc(n->me, me, sizeof me) != 0 ||
        snprintf(path, sizeof path, "/user/%s/filter", me) >= (int)sizeof path ||
        mx__url(n, url, sizeof url, path) != 0)
        return NULL;
    return mx__call_new(n, MX_CALL_FILTER, "POST", url, FILTER_JSON, true);
}

static void start_filter(mx_net *n)
{
    n->phase = MX_PH_FILTER;
    mx_call *c = filter_call(n);
    if (c != NULL)
        mx__call_go(n, c);
}

static void start_direct(mx_net *n)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], me[3 * MX_ID_MAX];
    n->phase = MX_PH_DIRECT;
    if (mx__enc(n->me, me, sizeof me) != 0 ||
        snprintf(path, sizeof path, "/user/%s/account_data/m.direct", me) >= (int)sizeof path ||
        mx__url(n, url, sizeof url, path) != 0)
        return;
    mx_call *c = mx__call_new(n, MX_CALL_DIRECT_GET, "GET", url, NULL, true);
    if (c != NULL)
        mx__call_go(n, c);
}

/* After a log-in: the steps not done yet, or the sync again. */
static void phase_after_auth(mx_net *n)
{
    if (n->phase == MX_PH_SYNC) {
        if (mx__call_find(n, MX_CALL_SYNC, NULL, NULL) == NULL && n->sync.batch == NULL)
            start_sync(n);
        return;
    }
    if (n->sync.filter[0] == '\0')
        start_filter(n);
    else
        start_direct(n);
}

static void on_filter(mx_net *n, int status, json_object *b)
{
    const char *id = mx__str(b, "filter_id");
    if (status == 200 && id != NULL && strlen(id) < sizeof n->sync.filter) {
        snprintf(n->sync.filter, sizeof n->sync.filter, "%s", id);
        mx__kv_set(n, MX_FILTER_KEY, id);
        log_msg(LOG_INFO, "%s: sync filter %s created", n->c.name, id);
    } else {
        log_msg(LOG_WARN,
                "%s: the homeserver refused the sync filter (HTTP %d); syncing "
                "without one",
                n->c.name, status);
    }
    if (n->sync.filter_again) { /* made again after a refused sync: the sync goes on, later */
        n->sync.filter_again = false;
        if (mx__call_find(n, MX_CALL_SYNC, NULL, NULL) == NULL && n->sync.batch == NULL)
            sync_call(n, true);
        return;
    }
    start_direct(n);
}

static void on_direct_get(mx_net *n, int status, json_object *b)
{
    if (status == 200 && b != NULL)
        mx__direct_take(n, b);
    else if (status != 404)
        log_msg(LOG_WARN, "%s: cannot read m.direct (HTTP %d)", n->c.name, status);
    if (!mx__e2ee_hold_sync(n)) /* else once the device is ready, or encryption off */
        mx__sync_begin(n);
}

void mx__sync_begin(mx_net *n)
{
    if (n->phase == MX_PH_SYNC || n->phase == MX_PH_DEAD || n->quitting)
        return;
    n->phase = MX_PH_SYNC;
    mx__pending_resume(n, true);
    start_sync(n);
}

/*
 * Forgets the sync token: the next sync starts afresh, and its rooms are
 * read back (mx_events.c) to the last event handled in each, so that what
 * was said while the syncs failed is handled, once. The kv "afresh" is set
 * first: a bot stopped before that sync is done reads back at its start.
 */
static void drop_since(mx_net *n)
{
    n->sync.afresh = true;
    mx__kv_set(n, "afresh", "1");
    n->sync.since[0] = '\0';
    mx__kv_set(n, "since", "");
}

/* Starts the next /sync, now or (later true) after a back-off. */
static void sync_call(mx_net *n, bool later)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], since[3 * MX_SINCE_MAX], filter[200];
    if (n->quitting || n->phase == MX_PH_DEAD)
        return;
    n->sync.first_sync = n->sync.since[0] == '\0';
    int timeout = n->sync.first_sync ? 0 : MX_SYNC_POLL_MS;
    if (mx__enc(n->sync.since, since, sizeof since) != 0 ||
        mx__enc(n->sync.filter, filter, sizeof filter) != 0)
        return;
    int k = snprintf(path, sizeof path, "/sync?timeout=%d%s%s%s%s", timeout,
                     filter[0] ? "&filter=" : "", filter, since[0] ? "&since=" : "", since);
    if (k < 0 || (size_t)k >= sizeof path || mx__url(n, url, sizeof url, path) != 0) {
        if (n->sync.since[0] == '\0')
            return; /* cannot happen: the homeserver's URL was checked at start */
        log_msg(LOG_ERROR, "%s: the sync token is too long; starting afresh", n->c.name);
        drop_since(n);
        sync_call(n, true);
        return;
    }
    mx_call *c = mx__call_new(n, MX_CALL_SYNC, "GET", url, NULL, true);
    if (c == NULL)
        return;
    c->timeout_ms = timeout + MX_HTTP_SLACK_MS;
    if (later)
        mx__call_wait(n, c, mx__backoff_next(n, &n->sync.backoff));
    else
        mx__call_go(n, c);
}

static void start_sync(mx_net *n)
{
    sync_call(n, false);
}

void mx__sync_next(mx_net *n)
{
    if (n->sync.batch_failed) {
        n->sync.batch_failed = false;
        log_msg(LOG_WARN, "%s: the database failed on a sync batch; it is asked for again",
                n->c.name);
        sync_call(n, true); /* the same since: what was handled acts once */
        return;
    }
    if (n->sync.next_batch[0] != '\0') {
        snprintf(n->sync.since, sizeof n->sync.since, "%s", n->sync.next_batch);
        mx__kv_set(n, "since", n->sync.since);
    }
    if (n->sync.first_sync)
        log_msg(LOG_INFO, "%s: first sync done; listening", n->c.name);
    if (n->sync.first_sync && n->sync.afresh) {
        n->sync.afresh = false;
        mx__kv_set(n, "afresh", "");
    }
    n->sync.first_sync = false;
    start_sync(n);
}

/*
 * A sync the homeserver refused for good (a 4xx: the engine retried the
 * rest). Most often the token: a server restored from a backup, another
 * server, a token kept wrong. The filter is made again once (a server that
 * lost it), then the token is dropped and the bot starts afresh; every
 * step after a back-off (doubling up to MX_BACKOFF_MAX_MS), so a server
 * that refuses everything gets a request a minute at most, and the log a
 * line at each step, not one per request.
 */
static void on_sync_refused(mx_net *n, int status, json_object *b)
{
    const char *err = mx__str(b, "error"), *code = mx__str(b, "errcode");
    char why[160];
    int k = snprintf(why, sizeof why, "HTTP %d %s: %s", status, code != NULL ? code : "",
                     err != NULL ? err : "no reason");
    if (k < 0 || (size_t)k >= sizeof why)
        snprintf(why, sizeof why, "HTTP %d", status);
    if (n->sync.filter[0] != '\0' && !n->sync.filter_remade) {
        log_msg(LOG_WARN, "%s: sync refused (%s); making the sync filter again", n->c.name, why);
        n->sync.filter_remade = n->sync.filter_again = true;
        n->sync.filter[0] = '\0';
        mx__kv_set(n, MX_FILTER_KEY, "");
        mx_call *c = filter_call(n);
        if (c != NULL) {
            mx__call_wait(n, c, mx__backoff_next(n, &n->sync.backoff));
            return;
        }
        n->sync.filter_again = false;
    }
    if (n->sync.since[0] != '\0') {
        log_msg(LOG_WARN,
                "%s: the homeserver refuses the sync token (%s), with a new filter too; "
                "starting afresh: each room is read back to the last event handled there, "
                "and commands already answered are not answered again",
                n->c.name, why);
        drop_since(n);
    } else if (!n->sync.refusal_told) {
        n->sync.refusal_told = true;
        log_msg(LOG_ERROR,
                "%s: the homeserver refuses even a fresh sync (%s); asking again at most "
                "once a minute",
                n->c.name, why);
    }
    sync_call(n, true);
}

static void on_sync(mx_net *n, int status, json_object *b)
{
    const char *next = mx__str(b, "next_batch");
    if (status == 200 && next != NULL && strlen(next) < sizeof n->sync.next_batch) {
        snprintf(n->sync.next_batch, sizeof n->sync.next_batch, "%s", next);
        n->sync.backoff.next_ms = 0;
        n->sync.filter_remade = n->sync.refusal_told = false;
        mx__e2ee_sync(n, b);
        mx__e2ee_to_device(n, b);
        if (mx__batch_begin(n, b) == 0)
            mx__sync_next(n);
        return;
    }
    if (status == 200) { /* no next_batch (a body cut short, not JSON): ask again, later */
        log_msg(n->sync.backoff.next_ms >= MX_BACKOFF_MAX_MS ? LOG_WARN : LOG_INFO,
                "%s: a sync answer without next_batch (%s); asking again after a pause", n->c.name,
                b == NULL ? "not JSON" : "no token");
        sync_call(n, true);
        return;
    }
    on_sync_refused(n, status, b);
}

static void on_messages(mx_net *n, mx_call *c, int status, json_object *b)
{
    if (status != 200)
        log_msg(LOG_WARN, "%s: cannot read the history of %s (HTTP %d)", n->c.name, c->room,
                status);
    mx__gap_page(n, c, status == 200 ? b : NULL);
}

void mx__dispatch(mx_net *n, mx_call *c, int status, json_object *body)
{
    switch (c->kind) {
    case MX_CALL_LOGIN:
        on_login(n, status, body);
        break;
    case MX_CALL_WHOAMI:
        on_whoami(n, status, body);
        break;
    case MX_CALL_FILTER:
        on_filter(n, status, body);
        break;
    case MX_CALL_DIRECT_GET:
        on_direct_get(n, status, body);
        break;
    case MX_CALL_SYNC:
        on_sync(n, status, body);
        break;
    case MX_CALL_MESSAGES:
        on_messages(n, c, status, body);
        break;
    case MX_CALL_JOIN:
        mx__on_join(n, c, status, body);
        break;
    case MX_CALL_LEAVE:
        mx__on_leave(n, c, status, body);
        break;
    case MX_CALL_SEND:
        mx__on_send(n, c, status, body);
        break;
    case MX_CALL_CREATE_DM:
        mx__on_create_dm(n, c, status, body);
        break;
    case MX_CALL_DIRECT_PUT:
        mx__on_direct_put(n, c, status, body);
        break;
    case MX_CALL_DM_CHECK:
        mx__on_dm_check(n, c, status, body);
        break;
    case MX_CALL_POWER:
        mx__on_power(n, c, status, body);
        break;
    case MX_CALL_KEYS_UPLOAD:
        mx__on_keys_upload(n, c, status, body);
        break;
    case MX_CALL_XSIGN_UPLOAD:
        mx__on_xsign_upload(n, c, status, body);
        break;
    case MX_CALL_SIGS_UPLOAD:
        mx__on_sigs_upload(n, c, status, body);
        break;
    case MX_CALL_KEYS_QUERY:
        mx__on_keys_query(n, c, status, body);
        break;
    case MX_CALL_KEYS_CLAIM:
        mx__on_keys_claim(n, c, status, body);
        break;
    case MX_CALL_TO_DEVICE:
        mx__on_to_device(n, c, status, body);
        break;
    case MX_CALL_MEMBERS:
        mx__on_members(n, c, status, body);
        break;
    case MX_CALL_KINDS:
        break;
    }
}

/* ---- Lifecycle ---------------------------------------------------------------- */

static void on_quit_timer(loop_timer *t, void *arg)
{
    if (mx_net_closed(arg))
        loop_timer_stop(t);
}

static void on_hook(loop_hook *h, void *arg)
{
    (void)h;
    mx_net *n = arg;
    mx__send_turn(n);
    size_t count = outq_count(n->send.q);
    int watch = outq_watch_check(&n->send.backlog, count, loop_now(n->env.loop));
    if (watch > 0)
        log_msg(LOG_WARN,
                "[matrix %s]: the send queue has held over %d messages for %d s (%zu now): the "
                "homeserver takes messages more slowly than the games make them",
                n->c.name, OUTQ_WATCH_COUNT, OUTQ_WATCH_MS / 1000, count);
    else if (watch < 0)
        log_msg(LOG_INFO, "[matrix %s]: the send queue is back to %zu messages", n->c.name, count);
}

int mx_net_new(mx_net **out, const mx_env *env, const cfg_matrix *c, char *why, size_t why_len)
{
    if (strncmp(c->homeserver, "https://", 8) != 0 && strncmp(c->homeserver, "http://", 7) != 0) {
        snprintf(why, why_len, "[matrix %s]: homeserver must start with https:// (or http://)",
                 c->name);
        return -1;
    }
    if (strlen(c->user) >= MX_ID_MAX) {
        snprintf(why, why_len, "[matrix %s]: the user id is longer than %d bytes", c->name,
                 MX_ID_MAX - 1);
        return -1;
    }
    mx_net *n = calloc(1, sizeof *n);
    if (n == NULL) {
        snprintf(why, why_len, "[matrix %s]: out of memory", c->name);
        return -1;
    }
    n->env = *env;
    n->c = *c;
    outq_watch_init(&n->send.backlog);
    snprintf(n->scope, sizeof n->scope, "matrix:%s", c->name);
    snprintf(n->base, sizeof n->base, "%s", c->homeserver);
    size_t bl = strlen(n->base);
    while (bl > 0 && n->base[bl - 1] == '/')
        n->base[--bl] = '\0';
    memcpy(n->me, c->user, strlen(c->user) + 1);
    n->rng = env->seed ^ UINT64_C(0x9E3779B97F4A7C15);
    for (const char *p = c->name; *p != '\0'; p++)
        n->rng = (n->rng ^ (unsigned char)*p) * UINT64_C(0x100000001B3);
    if (n->rng == 0)
        n->rng = 1;
    char sub[256];
    mx_http_config hc = {env->version, NULL, false, 0, 0};
    if (outq_new(&n->send.q, env->store, c->name) != 0) {
        snprintf(why, why_len, "[matrix %s]: out of memory", c->name);
        memset(&n->c, 0, sizeof n->c);
        free(n);
        return -1;
    }
    if (mx_http_new(&n->http, env->loop, &hc, sub, sizeof sub) != 0) {
        snprintf(why, why_len, "[matrix %s]: %s", c->name, sub);
        outq_free(n->send.q);
        memset(&n->c, 0, sizeof n->c);
        free(n);
        return -1;
    }
    adapter_life_init(&n->life, env->loop, &n->hook, on_hook, n);
    adapter_life_timer(&n->life, &n->timer, mx__on_timer, n);
    adapter_life_timer(&n->life, &n->quit, on_quit_timer, n);
    adapter_life_timer(&n->life, &n->send.wake, mx__on_wake, n);
    adapter_life_timer(&n->life, &n->send.unpark, mx__on_unpark, n);
    adapter_life_timer(&n->life, &n->moves.timer, mx__on_moves, n);
    n->moves.window = MX_JOINS_MAX;
    *out = n;
    return 0;
}

int mx_net_start(mx_net *n)
{
    if (adapter_life_start(&n->life, NULL) != 0)
        return -1;
    mx__send_init(n);
    int pruned = 0;
    (void)host_seen_prune(n->env.host, (int64_t)time(NULL) - MX_SEEN_KEEP_S, &pruned);
    (void)mx__kv_get(n, "device_id", n->device, sizeof n->device);
    (void)mx__kv_get(n, MX_FILTER_KEY, n->sync.filter, sizeof n->sync.filter);
    (void)mx__kv_get(n, "since", n->sync.since, sizeof n->sync.since);
    char afresh[4];
    n->sync.afresh = n->sync.since[0] == '\0' &&
                     mx__kv_get(n, "afresh", afresh, sizeof afresh) == 0 &&
                     strcmp(afresh, "1") == 0; /* stopped after a refused token, before a sync */
    log_msg(LOG_INFO, "%s: connecting to %s as %s%s", n->c.name, n->base, n->c.user,
            n->sync.since[0] ? " (resuming the sync)" : "");
    n->phase = MX_PH_LOGIN;
    start_auth_round(n);
    return 0;
}

void mx_net_quit(mx_net *n)
{
    if (n->quitting)
        return;
    n->quitting = true;
    for (int i = 0; i < MX_CALLS_MAX; i++) {
        mx_call *c = &n->calls[i];
        if (c->used && (c->kind != MX_CALL_SEND || c->req == 0))
            mx__call_drop(n, c);
    }
    loop_timer_stop(&n->timer);
    mx__batch_free(n);
    /* Armed even when nothing is on the wire: the caller's loop may be
       waiting for a wake-up to see that this network is closed. */
    (void)loop_timer_start(&n->quit, MX_QUIT_POLL_MS, MX_QUIT_POLL_MS);
}

bool mx_net_closed(const mx_net *n)
{
    if (!n->quitting && n->phase != MX_PH_DEAD)
        return false;
    for (int i = 0; i < MX_CALLS_MAX; i++)
        if (n->calls[i].used && n->calls[i].req != 0)
            return false;
    return true;
}

bool mx_net_dead(const mx_net *n)
{
    return n->phase == MX_PH_DEAD;
}

const char *mx_net_name(const mx_net *n)
{
    return n->c.name;
}

outq *mx_net_outq(mx_net *n)
{
    return n->send.q;
}

void mx_net_free(mx_net *n)
{
    if (n == NULL)
        return;
    adapter_life_stop(&n->life);
    /* The marks of sends that finished since the last turn (quitting). */
    size_t unmarked = outq_done_pending(n->send.q);
    if (mx__send_flush(n) != 0)
        log_msg(LOG_WARN,
                "%s: cannot mark %zu sent messages: %s; they go again, under the same "
                "transaction ids, at the next start",
                n->c.name, unmarked, outq_errmsg(n->send.q));
    for (int i = 0; i < MX_CALLS_MAX; i++)
        mx__call_drop(n, &n->calls[i]);
    mx_http_free(n->http);
    mx__batch_free(n);
    mx__rooms_free(n);
    json_object_put(n->rooms.direct);
    free(n->send.dm_failed);
    free(n->send.seen);
    outq_free(n->send.q);
    memset(n->token, 0, sizeof n->token);
    memset(&n->c, 0, sizeof n->c); /* the password and token */
    free(n);
}

bool mx_is_owner(const cfg *c, const char *network, const char *player)
{
    return player != NULL && player[0] == '@' && cfg_is_owner(c, network, player);
}
