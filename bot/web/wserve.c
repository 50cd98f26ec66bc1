/*
 * wserve.c — the HTTP side (web.h): libmicrohttpd on one internal thread
 * (its own select/epoll loop: a slow client holds a connection, never the
 * thread; a watchdog of wconn.c cuts off late headers), the routes, the
 * security headers, the limits. The read-only store is used on
 * that thread only.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cmd_settings.h"
#include "host.h"
#include "i18n.h"
#include "store.h"
#include "wbuf.h"
#include "wconn.h"
#include "web.h"
#include "web_keys.h"
#include "wgame.h"
#include "wpage.h"
#include "wstatic.h"

#define REQUEST_MEMORY (16 * 1024) /* a request's headers and line, at most */
#define CONN_SPARE 16              /* connections accepted over the limit, to evict for */
#define WEB_NICE 15                /* the pages' thread's niceness (Linux: per thread) */

/* Rendered game pages and JSON, by game and version (its action count and
   status): a game's page is the same until its next action, a finished
   game's for good, so a page read again is not replayed again. */
#define CACHE_SLOTS 32

typedef struct cached {
    int64_t id;
    int kind; /* 0 page, 1 JSON */
    int actions, status;
    pz_lang lang;
    char *body;
    size_t len;
    const char *type;
    uint64_t used; /* for least recently used */
} cached;

struct web {
    struct MHD_Daemon *d;
    store *st;
    int port;
    cached cache[CACHE_SLOTS];
    uint64_t clock;
    bool niced;                 /* the pages' thread yields to the game loop */
    pthread_mutex_t langs_lock; /* the loop's thread sets langs at a reload */
    web_langs langs;            /* rule: malloc'd copy */
    wc_set conns;               /* libmicrohttpd's thread and its watchdog's */
};

static const char CSP[] = "default-src 'none'; script-src 'self'; style-src 'self'; "
                          "img-src 'self'; connect-src 'self'; base-uri 'none'; "
                          "form-action 'none'; frame-ancestors 'none'";

static const char HTML[] = "text/html; charset=utf-8";
static const char JSON[] = "application/json; charset=utf-8";

/* Equal strings, in a time that does not depend on where they differ. */
static bool same_token(const char *a, const char *b, size_t n)
{
    unsigned char diff = 0;
    if (strlen(a) != n || strlen(b) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

static bool is_token(const char *s, size_t n)
{
    if (n != WEB_TOKEN_LEN)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* The configuration's language of room on network (web_langs): the rule
   the host reads too (i18n_rules_lang). */
static pz_lang configured_lang(web *w, const char *network, const char *room)
{
    pthread_mutex_lock(&w->langs_lock);
    pz_lang lang = i18n_rules_lang(&w->langs, network, room);
    pthread_mutex_unlock(&w->langs_lock);
    return lang;
}

/* The room's settings (the host's row, read as the host reads it:
   cmd_settings_read): whether its pages are on, and its language into
   *lang (its own, else the configuration's). */
static bool room_read(web *w, const char *network, const char *room, pz_lang *lang)
{
    char key[2 * STORE_ID_MAX + 2], row[CMD_SETTINGS_ROW];
    cmd_settings s;
    cmd_settings_clear(&s);
    snprintf(key, sizeof key, "%s\x1f%s", network, room);
    if (store_kv_get(w->st, WEB_ROOM_SCOPE, key, row, sizeof row) == 0)
        cmd_settings_read(row, &s);
    *lang = s.own[CMD_SETTING_LANG] ? (pz_lang)s.num[CMD_SETTING_LANG]
                                    : configured_lang(w, network, room);
    return s.num[CMD_SETTING_WEB] != 0;
}

/* The room's page path into buf ("" when it has no token). */
static void room_path(store *st, const wgame *w, char *buf, size_t cap)
{
    char key[2 * STORE_ID_MAX + 4], tok[WEB_TOKEN_LEN + 8];
    snprintf(key, sizeof key, "r:%s\x1f%s", w->row.network, w->row.room);
    if (store_kv_get(st, WEB_KV_SCOPE, key, tok, sizeof tok) == 0)
        snprintf(buf, cap, "/r/%s", tok);
    else
        buf[0] = '\0';
}

static int render_game(web *w, long long id, const char *given, bool json, wbuf *b,
                       const char **type);

/* /g/ID-TOKEN, /g/ID-TOKEN.json, /g/ID-TOKEN/v. */
static int game_route(web *w, const char *rest, wbuf *b, const char **type)
{
    char *end;
    long long id = strtoll(rest, &end, 10);
    if (end == rest || rest[0] < '1' || rest[0] > '9' || *end != '-' || id <= 0)
        return 404;
    const char *tok = end + 1;
    size_t n = strcspn(tok, "./");
    const char *tail = tok + n;
    bool json = strcmp(tail, ".json") == 0, version = strcmp(tail, "/v") == 0;
    if (!is_token(tok, n) || !(json || version || *tail == '\0'))
        return 404;
    char key[32], have[WEB_TOKEN_LEN + 8], given[WEB_TOKEN_LEN + 1];
    memcpy(given, tok, n);
    given[n] = '\0';
    snprintf(key, sizeof key, "g:%lld", id);
    if (store_kv_get(w->st, WEB_KV_SCOPE, key, have, sizeof have) != 0 ||
        !same_token(have, given, WEB_TOKEN_LEN))
        return 404;
    /* the version (and the room's pages on): no replay */
    store_game row;
    int actions = 0;
    if (store_game_get(w->st, id, &row) != 0)
        return 404;
    pz_lang lang;
    bool on = room_read(w, row.network, row.room, &lang);
    int status = (int)row.status;
    store_game_fini(&row);
    if (!on || store_action_count(w->st, id, &actions) != 0)
        return 404;
    if (version) {
        wb_printf(b, "%d.%d.%s\n", actions, status, i18n_code(lang));
        *type = "text/plain; charset=utf-8";
        return 200;
    }
    cached *slot = &w->cache[0];
    for (int i = 0; i < CACHE_SLOTS; i++) {
        cached *e = &w->cache[i];
        if (e->body != NULL && e->id == id && e->kind == json && e->actions == actions &&
            e->status == status && e->lang == lang) {
            e->used = ++w->clock;
            wb_raw(b, e->body);
            *type = e->type;
            return 200;
        }
        if (e->used < slot->used)
            slot = e;
    }
    I18N_SCOPE(lang); /* the room's */
    int code = render_game(w, id, given, json, b, type);
    if (code == 200 && !b->failed) {
        char *copy = strdup(b->s);
        if (copy != NULL) {
            free(slot->body);
            *slot = (cached){.id = id,
                             .kind = json,
                             .actions = actions,
                             .status = status,
                             .lang = lang,
                             .body = copy,
                             .len = b->len,
                             .type = *type,
                             .used = ++w->clock};
        }
    }
    return code;
}

/* Replays game id and renders its page or JSON into b. */
static int render_game(web *w, long long id, const char *given, bool json, wbuf *b,
                       const char **type)
{
    wgame *g = malloc(sizeof *g);
    if (g == NULL)
        return 500;
    if (wg_load(w->st, id, g) != 0) {
        free(g);
        return 404;
    }
    int code = 200;
    if (json && g->ended) {
        char *doc = NULL, why[200];
        if (host_export(w->st, id, &doc, why, sizeof why) == 0) {
            wb_raw(b, doc);
            free(doc);
        } else
            code = 404;
        *type = JSON;
    } else if (json) {
        wp_game_json_live(b, g);
        *type = JSON;
    } else {
        char path[96], rpath[64];
        snprintf(path, sizeof path, "/g/%lld-%s", id, given);
        room_path(w->st, g, rpath, sizeof rpath);
        wp_game(b, g, path, rpath[0] != '\0' ? rpath : NULL);
        *type = HTML;
    }
    wg_free(g);
    free(g);
    return code;
}

/* /r/TOKEN[.json], /r/TOKEN/p/HEX[.json]. */
static int room_route(web *w, const char *rest, wbuf *b, const char **type)
{
    size_t n = strcspn(rest, "./");
    if (!is_token(rest, n))
        return 404;
    char key[WEB_TOKEN_LEN + 4], room[2 * STORE_ID_MAX + 2], tok[WEB_TOKEN_LEN + 1];
    memcpy(tok, rest, n);
    tok[n] = '\0';
    snprintf(key, sizeof key, "t:%s", tok);
    if (store_kv_get(w->st, WEB_KV_SCOPE, key, room, sizeof room) != 0)
        return 404;
    char *sep = strchr(room, '\x1f');
    if (sep == NULL)
        return 404;
    *sep = '\0';
    const char *network = room, *name = sep + 1, *tail = rest + n;
    pz_lang lang;
    if (!room_read(w, network, name, &lang))
        return 404;
    I18N_SCOPE(lang); /* the room's */
    bool json = false;
    int rc;
    if (strcmp(tail, "") == 0 || (json = strcmp(tail, ".json") == 0)) {
        rc = wp_room(b, w->st, network, name, tok, json);
    } else if (strncmp(tail, "/p/", 3) == 0) {
        const char *hex = tail + 3;
        size_t hn = strcspn(hex, ".");
        char player[STORE_ID_MAX];
        json = strcmp(hex + hn, ".json") == 0;
        if ((hex[hn] != '\0' && !json) || wb_unhex(hex, hn, player, sizeof player) != 0)
            return 404;
        rc = wp_player(b, w->st, network, name, tok, player, json);
    } else {
        return 404;
    }
    *type = json ? JSON : HTML;
    return rc == 0 ? 200 : 404;
}

/* The answer to path: its HTTP status, its body (malloc'd) and type. */
/* The bot's language: the pages that name no room. */
static pz_lang fallback_lang(web *w)
{
    pthread_mutex_lock(&w->langs_lock);
    int lang = w->langs.fallback;
    pthread_mutex_unlock(&w->langs_lock);
    return lang >= 0 && lang < PZ_LANG_COUNT ? (pz_lang)lang : PZ_LANG_EN;
}

/* The same 404 for every page that does not exist, whatever the reason:
   in the bot's language, never the room's (that would tell it exists). */
static void not_found(web *w, wbuf *b)
{
    I18N_SCOPE(fallback_lang(w));
    wb_raw(b, "<!doctype html>\n<html lang=\"");
    wb_raw(b, i18n_code(i18n_lang()));
    wb_raw(b, "\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
              "content=\"width=device-width, initial-scale=1\"><title>");
    wb_html(b, _("Not found"));
    wb_raw(b, "</title></head><body><p>");
    wb_html(b, _("No such page."));
    wb_raw(b, "</p></body></html>\n");
}

static int web_page(web *w, const char *path, char **body, size_t *len, const char **type)
{
    wbuf b = {0};
    int code = 404;
    const char *fixed = wstatic_get(path, len, type);
    I18N_SCOPE(fallback_lang(w)); /* a room's page takes the room's */
    *body = NULL;
    if (fixed != NULL) {
        wb_raw(&b, fixed);
        code = 200;
    } else if (strcmp(path, "/") == 0) { /* names no game nor room */
        wp_head(&b, _("Porrazo"), NULL);
        wb_printf(&b, "<h1>%s</h1><p>%s</p>", _("Porrazo"),
                  _("Each game has its own page, linked from its first and last lines in the "
                    "chat; say !web in a room for the room's page."));
        wp_foot(&b);
        *type = HTML;
        code = 200;
    } else if (strncmp(path, "/g/", 3) == 0) {
        store_begin_read(w->st); /* one consistent view of the game */
        code = game_route(w, path + 3, &b, type);
        store_rollback(w->st);
    } else if (strncmp(path, "/r/", 3) == 0) {
        store_begin_read(w->st);
        code = room_route(w, path + 3, &b, type);
        store_rollback(w->st);
    }
    if (b.failed)
        code = 500;
    if (code != 200) {
        wb_free(&b);
        not_found(w, &b);
        *type = HTML;
        code = code == 500 ? 500 : 404;
    }
    *len = b.len;
    *body = b.s;
    return b.failed ? 500 : code;
}

static void headers(struct MHD_Response *r, const char *type, bool cache)
{
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, "Content-Security-Policy", CSP);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
                            cache ? "public, max-age=3600" : "no-store");
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned code, char *body, size_t len,
                              const char *type, bool cache)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body != NULL ? body : (char *)"",
                                                             body != NULL ? MHD_RESPMEM_MUST_FREE
                                                                          : MHD_RESPMEM_PERSISTENT);
    if (r == NULL) {
        free(body);
        return MHD_NO;
    }
    headers(r, type, cache);
    if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_len, void **req)
{
    (void)version;
    (void)upload;
    web *w = cls;
    static int marker, refused;
    if (!w->niced) { /* on the pages' own thread: under load the game loop comes first */
        w->niced = true;
        (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WEB_NICE);
    }
    bool readable =
        strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    if (!readable)
        return answer(c, MHD_HTTP_METHOD_NOT_ALLOWED, NULL, 0, "text/plain", false);
    if (*req == NULL) { /* the headers: wait for a body, if any, to refuse it */
        *req = &marker;
        if (!wc_headers(&w->conns, c))
            return answer(c, MHD_HTTP_SERVICE_UNAVAILABLE, NULL, 0, "text/plain", false);
        return MHD_YES;
    }
    if (*upload_len != 0) { /* a body: read (and drop) it, then say no */
        *req = &refused;
        *upload_len = 0;
        return MHD_YES;
    }
    if (*req == &refused)
        return answer(c, MHD_HTTP_CONTENT_TOO_LARGE, NULL, 0, "text/plain", false);
    char *body;
    size_t len;
    const char *type;
    int code = web_page(w, url, &body, &len, &type);
    if (body == NULL)
        return MHD_NO;
    return answer(c, (unsigned)code, body, len, type,
                  code == 200 && strncmp(url, "/static/", 8) == 0);
}

/* listen ("addr:port", "[v6]:port") into *ss. 0 or -1. */
static int parse_listen(const char *listen, struct sockaddr_storage *ss, socklen_t *sl)
{
    char addr[128];
    const char *colon = strrchr(listen, ':');
    if (colon == NULL || (size_t)(colon - listen) >= sizeof addr || colon == listen)
        return -1;
    size_t hl = (size_t)(colon - listen);
    memcpy(addr, listen, hl);
    addr[hl] = '\0';
    if (addr[0] == '[' && hl > 2 && addr[hl - 1] == ']') {
        memmove(addr, addr + 1, hl - 2);
        addr[hl - 2] = '\0';
    }
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end != '\0' || port < 0 || port > 65535)
        return -1;
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
                             .ai_socktype = SOCK_STREAM},
                    *ai = NULL;
    char ps[8];
    snprintf(ps, sizeof ps, "%ld", port);
    if (getaddrinfo(addr, ps, &hints, &ai) != 0 || ai == NULL)
        return -1;
    memcpy(ss, ai->ai_addr, ai->ai_addrlen);
    *sl = ai->ai_addrlen;
    freeaddrinfo(ai);
    return 0;
}

int web_set_langs(web *w, const web_langs *langs)
{
    web_langs next = {.fallback = langs != NULL ? langs->fallback : PZ_LANG_EN};
    web_lang_rule *copy = NULL;
    if (langs != NULL && langs->n > 0) {
        copy = malloc((size_t)langs->n * sizeof *copy);
        if (copy == NULL)
            return -1;
        memcpy(copy, langs->rule, (size_t)langs->n * sizeof *copy);
        next.n = langs->n;
        next.rule = copy;
    }
    pthread_mutex_lock(&w->langs_lock);
    const web_lang_rule *old = w->langs.rule;
    w->langs = next;
    pthread_mutex_unlock(&w->langs_lock);
    free((void *)old);
    return 0;
}

/* Starts w's watchdog and its daemon on ss with lim's limits. 0, or -1
   with why (neither left running). */
static int serve(web *w, const struct sockaddr_storage *ss, const web_limits *lim,
                 const char *listen, char *why, size_t why_len)
{
    w->conns.limit = lim->connections ? lim->connections : 256;
    w->conns.per_address = lim->per_address ? lim->per_address : 16;
    w->conns.header_ms = 1000u * (lim->header_secs ? lim->header_secs : 5);
    snprintf(w->conns.proxy, sizeof w->conns.proxy, "%s", lim->trusted_proxy);
    if (wc_start(&w->conns) != 0) {
        snprintf(why, why_len, "cannot start the pages' watchdog thread");
        return -1;
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;
    if (ss->ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    w->d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, w, MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)ss,
        /* room over the limit for the newcomer the slowest makes way for
           (wconn.h); the per-address limit is wconn's, on the real client */
        MHD_OPTION_CONNECTION_LIMIT, w->conns.limit + CONN_SPARE, MHD_OPTION_NOTIFY_CONNECTION,
        wc_notify, &w->conns, MHD_OPTION_NOTIFY_COMPLETED, wc_completed, &w->conns,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)(lim->timeout_secs ? lim->timeout_secs : 10),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)REQUEST_MEMORY,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, 1, MHD_OPTION_END);
    if (w->d == NULL) {
        snprintf(why, why_len,
                 "cannot serve the pages on %s (in use, or not an address of this machine)",
                 listen);
        wc_free(&w->conns);
        return -1;
    }
    return 0;
}

int web_start(web **out, const char *db_path, const char *listen, const web_limits *limits,
              const web_langs *langs, char *why, size_t why_len)
{
    struct sockaddr_storage ss;
    socklen_t sl = 0;
    if (parse_listen(listen, &ss, &sl) != 0) {
        snprintf(why, why_len,
                 "[web] listen = %s is not an address and port such as 127.0.0.1:8090", listen);
        return -1;
    }
    web *w = calloc(1, sizeof *w);
    if (w == NULL) {
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    pthread_mutex_init(&w->langs_lock, NULL);
    if (web_set_langs(w, langs) != 0) {
        snprintf(why, why_len, "out of memory");
        pthread_mutex_destroy(&w->langs_lock);
        free(w);
        return -1;
    }
    char swhy[STORE_WHY_MAX];
    if (store_open_ro(&w->st, db_path, swhy, sizeof swhy) != 0) {
        snprintf(why, why_len, "the pages cannot read the database: %s", swhy);
        web_set_langs(w, NULL);
        pthread_mutex_destroy(&w->langs_lock);
        free(w);
        return -1;
    }
    web_limits lim = limits != NULL ? *limits : (web_limits){0};
    if (serve(w, &ss, &lim, listen, why, why_len) != 0) {
        store_close(w->st);
        web_set_langs(w, NULL);
        pthread_mutex_destroy(&w->langs_lock);
        free(w);
        return -1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(w->d, MHD_DAEMON_INFO_BIND_PORT);
    w->port = info != NULL ? info->port : 0;
    *out = w;
    return 0;
}

int web_port(const web *w)
{
    return w->port;
}

void web_stop(web *w)
{
    if (w == NULL)
        return;
    MHD_stop_daemon(w->d);
    wc_free(&w->conns);
    store_close(w->st);
    for (int i = 0; i < CACHE_SLOTS; i++)
        free(w->cache[i].body);
    free((void *)w->langs.rule);
    pthread_mutex_destroy(&w->langs_lock);
    free(w);
}
