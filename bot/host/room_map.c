/*
 * room_map.c — the rooms that chose their own command prefix, turned
 * colours off or chose a language, kept in memory. host_handle needs a
 * room's prefix for every channel line, chatter included, the IRC adapter
 * a room's colours for every line it sends, and every line a room or a
 * player reads its language: none may cost a read of the store. Few rooms set
 * them, so a sorted array looked up by bsearch does; it is read once when
 * the host starts (room.c's words in the kv) and follows a "set prefix" or
 * "set colours" or "set lang" once the call that made it commits. A room
 * without a language of its own has the configuration's (host_config's
 * lang_of: the channel's, the network's, the bot's).
 *
 * Not here: the words, "set" and "settings" (room.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hrooms.h"

struct room_own {
    char key[ROOM_KEY_MAX];           /* "network\x1froom" */
    char prefix[ROOM_PREFIX_MAX + 1]; /* "" the bot's */
    bool colours_off;
    int lang; /* -1: the configuration's */
};

/* "network\x1froom" into key[ROOM_KEY_MAX]: 0, or -1 when it does not fit
   (no such room can have been set: room.c keys its words the same way). */
static int map_key(const char *network, const char *room, char key[ROOM_KEY_MAX])
{
    int n = snprintf(key, ROOM_KEY_MAX, "%s\x1f%s", network, room);
    return n < 0 || n >= ROOM_KEY_MAX ? -1 : 0;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const room_own *)a)->key, ((const room_own *)b)->key);
}

/* The entry of (network, room), or NULL: the room uses the bot's own. */
static const room_own *find(const host *h, const char *network, const char *room)
{
    room_own probe;
    if (h->nrooms == 0 || network == NULL || room == NULL || room[0] == '\0' ||
        map_key(network, room, probe.key) != 0)
        return NULL;
    return bsearch(&probe, h->rooms, (size_t)h->nrooms, sizeof *h->rooms, by_key);
}

const char *host_room_prefix(const host *h, const char *network, const char *room)
{
    const room_own *r = find(h, network, room);
    return r != NULL && r->prefix[0] != '\0' ? r->prefix : h->prefix;
}

bool host_room_colours(const host *h, const char *network, const char *room)
{
    const room_own *r = find(h, network, room);
    return r == NULL || !r->colours_off;
}

/* The configuration's language of room on network (room NULL: the
   network's), English when it says nothing. */
pz_lang host__room_map_configured(const host *h, const char *network, const char *room)
{
    int l = h->cfg.lang_of != NULL ? h->cfg.lang_of(h->cfg.lang_arg, network, room) : -1;
    return l >= 0 && l < PZ_LANG_COUNT ? (pz_lang)l : PZ_LANG_EN;
}

pz_lang host_room_lang(const host *h, const char *network, const char *room)
{
    const room_own *r = find(h, network, room);
    if (r != NULL && r->lang >= 0)
        return (pz_lang)r->lang;
    return host__room_map_configured(h, network, room);
}

/* Sets key's entry (inserted in order, or removed when it keeps nothing
   of its own). 0, or -1 out of memory (the map unchanged). */
static int put_key(host *h, const char *key, const char *prefix, bool colours_off, int lang)
{
    int lo = 0, hi = h->nrooms;
    while (lo < hi) { /* the first entry not below key */
        int mid = lo + (hi - lo) / 2;
        if (strcmp(h->rooms[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool here = lo < h->nrooms && strcmp(h->rooms[lo].key, key) == 0;
    if (prefix[0] == '\0' && !colours_off && lang < 0) {
        if (here) {
            memmove(&h->rooms[lo], &h->rooms[lo + 1],
                    (size_t)(h->nrooms - lo - 1) * sizeof *h->rooms);
            h->nrooms--;
        }
        return 0;
    }
    if (!here) {
        room_own *grown = realloc(h->rooms, (size_t)(h->nrooms + 1) * sizeof *h->rooms);
        if (grown == NULL)
            return -1;
        h->rooms = grown;
        memmove(&h->rooms[lo + 1], &h->rooms[lo], (size_t)(h->nrooms - lo) * sizeof *h->rooms);
        h->nrooms++;
        snprintf(h->rooms[lo].key, sizeof h->rooms[lo].key, "%s", key);
    }
    snprintf(h->rooms[lo].prefix, sizeof h->rooms[lo].prefix, "%s", prefix);
    h->rooms[lo].colours_off = colours_off;
    h->rooms[lo].lang = lang;
    return 0;
}

int host__room_map_put(host *h, const char *network, const char *room, const char *prefix,
                       bool colours_off, int lang)
{
    char key[ROOM_KEY_MAX];
    if (map_key(network, room, key) != 0)
        return 0; /* never stored either */
    return put_key(h, key, prefix, colours_off, lang);
}

/* store_kv_each's callback: one room's words (arg: the host). */
static int load_one(void *arg, const char *key, const char *words)
{
    host *h = arg;
    char prefix[ROOM_PREFIX_MAX + 1];
    bool colours_off;
    int lang;
    host__room_words_own(words, prefix, &colours_off, &lang);
    if (strlen(key) >= ROOM_KEY_MAX)
        return 0;
    return put_key(h, key, prefix, colours_off, lang) == 0 ? 0 : 1; /* 1: out of memory */
}

int host__room_map_load(host *h, char *why, size_t why_len)
{
    int err = store_kv_each(h->st, ROOM_SCOPE, load_one, h);
    if (err != 0) {
        snprintf(why, why_len, "cannot read the rooms' settings: %s",
                 err == 1 ? "out of memory" : store_errmsg(h->st));
        return -1;
    }
    return 0;
}

void host__room_map_free(host *h)
{
    free(h->rooms);
    h->rooms = NULL;
    h->nrooms = 0;
}
