/*
 * recent.c — what a game's room was told lately, and when each seat last
 * acted: what a player's private turn prompt says happened since their
 * last play, and whether they have been quiet long enough to need one.
 *
 * Kept per game in the store's kv table (scope "recent", key the game id)
 * and written in the same transaction as the action it records, so it is
 * never out of step with the game. The value is small text:
 *   "v1 t0=1700000000 t3=1700000100\n"   the last action time of seats
 *   "2\t<what the room was told>\n"       an entry: the seat that acted
 *                                          (-1: nobody, e.g. a deal)
 * holding at most RECENT_MAX entries. Entries keep live.c's name markers,
 * so a prompt names players as they are called when it is sent.
 * Not here: what is said (act.c), rendering (render.c, live.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"

#define RECENT_SCOPE "recent"
#define ELLIPSIS_SEP "\xE2\x80\xA6 " /* "… ": older entries were left out */

/* Copies s into dst[cap] with tabs and newlines made spaces. */
static void clean_copy(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        dst[i] = s[i] == '\n' || s[i] == '\t' || s[i] == '\r' ? ' ' : s[i];
    dst[n] = '\0';
}

/* Drops the oldest entry of r. */
static void drop_oldest(recent *r)
{
    if (r->n == 0)
        return;
    memmove(&r->entry[0], &r->entry[1], (size_t)(r->n - 1) * sizeof r->entry[0]);
    r->n--;
}

void host__recent_add(recent *r, int seat, const char *text)
{
    if (text == NULL || text[0] == '\0')
        return;
    if (r->n == RECENT_MAX)
        drop_oldest(r);
    r->entry[r->n].seat = seat;
    clean_copy(r->entry[r->n].text, sizeof r->entry[r->n].text, text, strlen(text));
    r->n++;
}

void host__recent_touch(recent *r, int seat, int64_t now)
{
    if (seat >= 0 && seat < PZ_MAX_PLAYERS)
        r->acted[seat] = now;
}

int64_t host__recent_acted(const recent *r, int seat)
{
    return seat >= 0 && seat < PZ_MAX_PLAYERS ? r->acted[seat] : 0;
}

void host__recent_since(const recent *r, int seat, char *buf, size_t cap)
{
    static const char sep[] = " \xC2\xB7 ";
    int from = 0;
    for (int i = 0; i < r->n; i++)
        if (r->entry[i].seat == seat)
            from = i + 1;
    /* the newest entries that fit, told oldest first */
    size_t need = 0;
    int first = r->n;
    while (first > from) {
        size_t n = strlen(r->entry[first - 1].text) + (need > 0 ? sizeof sep - 1 : 0);
        if (need + n + sizeof ELLIPSIS_SEP >= cap)
            break;
        need += n;
        first--;
    }
    size_t len = 0;
    buf[0] = '\0';
    if (first > from && cap > sizeof ELLIPSIS_SEP) { /* older news left out */
        memcpy(buf, ELLIPSIS_SEP, sizeof ELLIPSIS_SEP);
        len = sizeof ELLIPSIS_SEP - 1;
    }
    for (int i = first; i < r->n; i++) {
        size_t n = strlen(r->entry[i].text);
        if (len > 0 && i > first) {
            memcpy(buf + len, sep, sizeof sep - 1);
            len += sizeof sep - 1;
        }
        memcpy(buf + len, r->entry[i].text, n + 1);
        len += n;
    }
}

/* The kv key of a game. */
static void key_of(int64_t game, char key[24])
{
    snprintf(key, 24, "%" PRId64, game);
}

/* Parses the text of a stored value into r (what cannot be read is
   left out: the record only ever shortens a prompt). */
static void parse(recent *r, const char *v)
{
    const char *nl = strchr(v, '\n');
    size_t first = nl != NULL ? (size_t)(nl - v) : strlen(v);
    for (const char *p = v; p < v + first;) {
        int seat;
        long long t;
        if (sscanf(p, "t%d=%lld", &seat, &t) == 2 && seat >= 0 && seat < PZ_MAX_PLAYERS)
            r->acted[seat] = t;
        const char *sp = memchr(p, ' ', (size_t)(v + first - p));
        if (sp == NULL)
            break;
        p = sp + 1;
    }
    for (const char *p = nl != NULL ? nl + 1 : v + first; *p != '\0';) {
        const char *end = strchr(p, '\n');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        const char *tab = memchr(p, '\t', len);
        if (tab != NULL && r->n < RECENT_MAX) {
            long seat = strtol(p, NULL, 10);
            r->entry[r->n].seat = seat >= -1 && seat < PZ_MAX_PLAYERS ? (int)seat : -1;
            clean_copy(r->entry[r->n].text, sizeof r->entry[r->n].text, tab + 1,
                       (size_t)(p + len - tab - 1));
            r->n++;
        }
        if (end == NULL)
            break;
        p = end + 1;
    }
}

int host__recent_load(ctx *c, recent *r)
{
    memset(r, 0, sizeof *r);
    char key[24];
    char *v = malloc(RECENT_VALUE_MAX);
    if (v == NULL)
        return STORE_ERROR;
    key_of(c->row.id, key);
    int err = store_kv_get(c->h->st, RECENT_SCOPE, key, v, RECENT_VALUE_MAX);
    if (err == 0)
        parse(r, v);
    free(v);
    return err == STORE_NOT_FOUND ? 0 : err;
}

int host__recent_save(ctx *c, const recent *r)
{
    char key[24];
    char *v = malloc(RECENT_VALUE_MAX);
    if (v == NULL)
        return STORE_ERROR;
    size_t len = 0;
    int n = snprintf(v, RECENT_VALUE_MAX, "v1");
    len = (size_t)n;
    for (int s = 0; s < PZ_MAX_PLAYERS; s++) {
        if (r->acted[s] == 0)
            continue;
        n = snprintf(v + len, RECENT_VALUE_MAX - len, " t%d=%" PRId64, s, r->acted[s]);
        if (n > 0 && (size_t)n < RECENT_VALUE_MAX - len)
            len += (size_t)n;
    }
    for (int i = 0; i < r->n; i++) {
        n = snprintf(v + len, RECENT_VALUE_MAX - len, "\n%d\t%s", r->entry[i].seat,
                     r->entry[i].text);
        if (n < 0 || (size_t)n >= RECENT_VALUE_MAX - len)
            break; /* cannot happen: sized for RECENT_MAX entries */
        len += (size_t)n;
    }
    v[len] = '\0';
    key_of(c->row.id, key);
    int err = store_kv_set(c->h->st, RECENT_SCOPE, key, v);
    free(v);
    return err;
}
