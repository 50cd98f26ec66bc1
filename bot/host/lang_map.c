/*
 * lang_map.c — the players who chose the language of their private lines
 * ("lang es"), kept in memory like the rooms' prefixes (room_map.c): every
 * hand, prompt and reminder is written in its reader's language when it
 * is sent, and that may not cost a read of the store. Few players choose
 * one, so a sorted array looked up by bsearch does; it is read once when
 * the host starts (kv scope LANG_SCOPE, value "es" or "en") and follows a
 * "lang" once the call that made it commits. Also the language a call
 * writes in (hc_lang) and a player's (host_player_lang).
 *
 * Not here: the command (cmd/prefs.c), the rooms' languages (room_map.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hprefs.h"
#include "hrooms.h"

struct lang_own {
    char key[LINK_ID_LEN]; /* "network\x1fplayer" */
    int lang;
};

static int by_key(const void *a, const void *b)
{
    return strcmp(((const struct lang_own *)a)->key, ((const struct lang_own *)b)->key);
}

/* The language player chose on network, or -1. */
static int own(const host *h, const char *network, const char *player)
{
    struct lang_own probe;
    if (h->nlangs == 0 || network == NULL || player == NULL)
        return -1;
    link_key(network, player, probe.key, sizeof probe.key);
    if (probe.key[0] == '\0')
        return -1;
    const struct lang_own *l =
        bsearch(&probe, h->langs, (size_t)h->nlangs, sizeof *h->langs, by_key);
    return l != NULL ? l->lang : -1;
}

pz_lang host_player_lang(const host *h, const char *network, const char *player, const char *room)
{
    int l = own(h, network, player);
    if (l >= 0 && l < PZ_LANG_COUNT)
        return (pz_lang)l;
    return host_room_lang(h, network, room != NULL && room[0] != '\0' ? room : NULL);
}

pz_lang host_reader_lang(const host *h, const char *network, const char *target, msg_kind kind)
{
    return kind == MSG_ROOM ? host_room_lang(h, network, target)
                            : host_player_lang(h, network, target, NULL);
}

pz_lang hc_lang(const ctx *c)
{
    bool in_room = c->m != NULL && c->m->room != NULL && c->m->room[0] != '\0';
    if (c->m != NULL && (!in_room || c->personal))
        return host_player_lang(c->h, c->network, c->m->sender,
                                in_room        ? c->m->room
                                : c->have_game ? c->row.room
                                               : NULL);
    return host_room_lang(c->h, c->network,
                          in_room        ? c->m->room
                          : c->have_game ? c->row.room
                                         : NULL);
}

/* Sets key's entry (inserted in order, or removed for -1). 0, or -1 out
   of memory (the map unchanged). */
static int put_key(host *h, const char *key, int lang)
{
    int lo = 0, hi = h->nlangs;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(h->langs[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool here = lo < h->nlangs && strcmp(h->langs[lo].key, key) == 0;
    if (lang < 0) {
        if (here) {
            memmove(&h->langs[lo], &h->langs[lo + 1],
                    (size_t)(h->nlangs - lo - 1) * sizeof *h->langs);
            h->nlangs--;
        }
        return 0;
    }
    if (!here) {
        struct lang_own *grown = realloc(h->langs, (size_t)(h->nlangs + 1) * sizeof *h->langs);
        if (grown == NULL)
            return -1;
        h->langs = grown;
        memmove(&h->langs[lo + 1], &h->langs[lo], (size_t)(h->nlangs - lo) * sizeof *h->langs);
        h->nlangs++;
        snprintf(h->langs[lo].key, sizeof h->langs[lo].key, "%s", key);
    }
    h->langs[lo].lang = lang;
    return 0;
}

int lang_map_put(host *h, const char *network, const char *player, int lang)
{
    char key[LINK_ID_LEN];
    link_key(network, player, key, sizeof key);
    return key[0] == '\0' ? 0 : put_key(h, key, lang);
}

/* store_kv_each's callback: one player's language (arg: the host). */
static int load_one(void *arg, const char *key, const char *value)
{
    pz_lang l;
    if (strlen(key) >= LINK_ID_LEN || !i18n_parse(value, &l))
        return 0;
    return put_key(arg, key, (int)l) == 0 ? 0 : 1; /* 1: out of memory */
}

int lang_map_load(host *h, char *why, size_t why_len)
{
    int err = store_kv_each(h->st, LANG_SCOPE, load_one, h);
    if (err != 0) {
        snprintf(why, why_len, "cannot read the players' languages: %s",
                 err == 1 ? "out of memory" : store_errmsg(h->st));
        return -1;
    }
    return 0;
}

void lang_map_free(host *h)
{
    free(h->langs);
    h->langs = NULL;
    h->nlangs = 0;
}
