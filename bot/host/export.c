/*
 * export.c — any game as a porrazo-replay scenario: the players, options,
 * first dealer and seed it started with and every action it logged, so a
 * finished game (or a dispute) can be replayed with the engine alone; and
 * its fair deals (FAIRNESS.md): each hand's commitment, and once the game
 * is over (or when it was never sealed) the salt, the seeds and the pack
 * each next hand was dealt from, for porrazo-replay --verify.
 *
 * Not here: anything that changes a game.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
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

/* A game's fair deals as the record shows them (FAIRNESS.md). */
typedef struct fair {
    bool known;    /* false: a game from before fair deals */
    bool revealed; /* seeds and salt shown: the game is over, or never sealed */
    char salt[STORE_SALT_HEX + 1];
    int n, cap;
    uint64_t *seed;                       /* seed[k]: hand k + 1's */
    char (*digest)[STORE_DIGEST_HEX + 1]; /* its commitment as sealed, or "" */
    int next_hands;                       /* next_hand actions written so far */
    sbuf *b;
} fair;

/* Keeps a hand's seed (store_hand_each's callback). */
static int add_seed(void *arg, int hand, uint64_t seed, const char *digest)
{
    fair *f = arg;
    if (hand != f->n + 1)
        return -1; /* a gap in the hands: the record would lie */
    if (f->n == f->cap) {
        int cap = f->cap ? f->cap * 2 : 16;
        uint64_t *v = realloc(f->seed, (size_t)cap * sizeof *v);
        if (v == NULL)
            return -1;
        f->seed = v;
        char(*d)[STORE_DIGEST_HEX + 1] = realloc(f->digest, (size_t)cap * sizeof *d);
        if (d == NULL)
            return -1;
        f->digest = d;
        f->cap = cap;
    }
    snprintf(f->digest[f->n], sizeof f->digest[f->n], "%s", digest);
    f->seed[f->n++] = seed;
    return 0;
}

/* Writes the pack seed deals (pz_shuffle) as a JSON list, top first. */
static void add_pack(sbuf *b, uint64_t seed)
{
    pz_card pack[PZ_CARDS];
    pz_shuffle(seed, pack);
    sb_add(b, "[");
    for (int i = 0; i < PZ_CARDS; i++) {
        char c[3];
        pz_card_format(pack[i], c);
        sb_add(b, "%s\"%s\"", i > 0 ? "," : "", c);
    }
    sb_add(b, "]");
}

/* Writes one logged action; a revealed next hand with the pack its seed
   deals, so the record replays and checks with the engine alone. */
static int add_action(void *arg, int seq, const char *json)
{
    fair *f = arg;
    sbuf *b = f->b;
    sb_add(b, "%s\n    ", seq == 0 ? "" : ",");
    if (!f->known || strcmp(json, "{\"next_hand\":true}") != 0) {
        sb_add(b, "%s", json);
        return 0;
    }
    int hand = ++f->next_hands; /* 0-based index of the hand it deals */
    if (!f->revealed || hand >= f->n) {
        sb_add(b, "%s", json);
        return 0;
    }
    sb_add(b, "{\"next_hand\":true,\"deck\":");
    add_pack(b, f->seed[hand]);
    sb_add(b, "}");
    return 0;
}

/* The record's "fairness": each hand's commitment as it was sealed (one
   sealed before commitments were kept: computed from its seed), and once
   revealed the salt and the seeds. */
static void add_fairness(sbuf *b, const fair *f)
{
    sb_add(b, ",\n  \"fairness\": {\"version\": 1, \"revealed\": %s",
           f->revealed ? "true" : "false");
    if (f->revealed)
        sb_add(b, ", \"salt\": \"%s\"", f->salt);
    sb_add(b, ", \"hands\": [");
    for (int k = 0; k < f->n; k++) {
        char digest[PZF_COMMIT_HEX + 1];
        if (f->digest[k][0] != '\0')
            snprintf(digest, sizeof digest, "%s", f->digest[k]);
        else if (pzf_commit(f->seed[k], f->salt, digest) != 0) {
            b->failed = true;
            return;
        }
        sb_add(b, "%s\n    {\"hand\": %d, \"commit\": \"%s\"", k > 0 ? "," : "", k + 1, digest);
        if (f->revealed)
            sb_add(b, ", \"seed\": %llu", (unsigned long long)f->seed[k]);
        sb_add(b, "}");
    }
    sb_add(b, "\n  ]}");
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
    int bad = host__settings_parse(&s, g.settings) != 0 ||
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
    fair f = {.b = &b};
    bool sealed = false;
    int err = store_fair_get(st, game, f.salt, &sealed);
    f.known = err == 0;
    f.revealed = !sealed || g.status == STORE_FINISHED || g.status == STORE_STOPPED;
    if ((err != 0 && err != STORE_NOT_FOUND) ||
        (f.known && store_hand_each(st, game, add_seed, &f) != 0))
        b.failed = true;
    const pz_options *o = &s.opt;
    sb_add(&b,
           "{\n  \"players\": %d,\n  \"options\": {\"target\": %d, \"wrap\": %s, "
           "\"declarations\": \"%s\", \"tendido\": \"%s\", \"odd_leftover\": \"%s\", "
           "\"final_sweep\": \"%s\", \"card_score\": \"%s\", \"partnerships\": %s},\n"
           "  \"dealer\": %d,\n",
           n, o->target, o->wrap ? "true" : "false", pz_declarations_name(o->declarations),
           pz_tendido_name(o->tendido), pz_leftover_name(o->odd_leftover),
           pz_sweep_name(o->final_sweep), pz_card_score_name(o->card_score),
           o->partnerships ? "true" : "false", s.dealer);
    if (!f.known) { /* from before fair deals: the engine's generator dealt */
        sb_add(&b, "  \"seed\": %llu,\n", (unsigned long long)g.seed);
    } else if (f.revealed && f.n > 0) { /* sealed, nothing: the first pack is a secret too */
        sb_add(&b, "  \"deck\": ");
        add_pack(&b, f.seed[0]);
        sb_add(&b, ",\n");
    }
    sb_add(&b, "  \"actions\": [");
    if (store_action_each(st, game, add_action, &f) != 0)
        b.failed = true;
    sb_add(&b, "\n  ]");
    if (f.known)
        add_fairness(&b, &f);
    sb_add(&b, "\n}\n");
    free(f.seed);
    free(f.digest);
    store_game_fini(&g);
    if (b.failed) {
        free(b.s);
        snprintf(why, why_len, _("cannot read the actions of game %lld"), (long long)game);
        return -1;
    }
    *out = b.s;
    return 0;
}
