/*
 * export.c — any game as a porrazo-replay scenario: the players, options,
 * first dealer and seed it started with and every action it logged, so a
 * finished game (or a dispute) can be replayed with the engine alone.
 *
 * Not here: anything that changes a game.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"

/* A growing string; on failure it stays failed and NULL-safe. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
    bool failed;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    if (b->failed)
        return;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *s = realloc(b->s, cap);
        if (s == NULL) {
            b->failed = true;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

static int add_action(void *arg, int seq, const char *json)
{
    sbuf *b = arg;
    sb_add(b, "%s\n    %s", seq == 0 ? "" : ",", json);
    return 0;
}

int host_export(store *st, int64_t game, char **out, char *why, size_t why_len)
{
    store_game g;
    settings s;
    store_seat seats[PZ_MAX_PLAYERS];
    int n = 0;
    if (store_game_get(st, game, &g) != 0) {
        snprintf(why, why_len, _("no game %lld in this database"), (long long)game);
        return -1;
    }
    int bad = settings_parse(&s, g.settings) != 0 ||
              store_seats_get(st, game, seats, PZ_MAX_PLAYERS, &n) != 0 || g.state == NULL;
    if (bad) {
        snprintf(why, why_len, _("game %lld never started or cannot be read"), (long long)game);
        store_game_fini(&g);
        return -1;
    }
    sbuf b = {.s = malloc(256), .cap = 256};
    if (b.s == NULL)
        b.failed = true;
    else
        b.s[0] = '\0';
    const pz_options *o = &s.opt;
    sb_add(&b,
           "{\n  \"players\": %d,\n  \"options\": {\"target\": %d, \"wrap\": %s, "
           "\"declarations\": \"%s\", \"tendido\": \"%s\", \"odd_leftover\": \"%s\", "
           "\"final_sweep\": \"%s\", \"card_score\": \"%s\", \"partnerships\": %s},\n"
           "  \"dealer\": %d,\n  \"seed\": %llu,\n  \"actions\": [",
           n, o->target, o->wrap ? "true" : "false", pz_declarations_name(o->declarations),
           pz_tendido_name(o->tendido), pz_leftover_name(o->odd_leftover),
           pz_sweep_name(o->final_sweep), pz_card_score_name(o->card_score),
           o->partnerships ? "true" : "false", s.dealer, (unsigned long long)g.seed);
    if (store_action_each(st, game, add_action, &b) != 0)
        b.failed = true;
    sb_add(&b, "\n  ]\n}\n");
    store_game_fini(&g);
    if (b.failed) {
        free(b.s);
        snprintf(why, why_len, _("cannot read the actions of game %lld"), (long long)game);
        return -1;
    }
    *out = b.s;
    return 0;
}
