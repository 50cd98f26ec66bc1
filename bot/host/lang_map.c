/*
 * lang_map.c — what the language of a player's private lines depends on,
 * kept in memory like the rooms' prefixes (room_map.c): every hand, prompt
 * and reminder is written in its reader's language when it is sent, and
 * that may not cost a read of the store. Per player: the language they
 * chose ("lang es"; kv scope LANG_SCOPE, read once when the host starts,
 * following a "lang" once the call that made it commits), and the room
 * where they are seated or last gave a command (the seats of the active
 * games when the host starts, then each seating and each command said in a
 * room). A sorted array looked up by bsearch, at most LANG_MAP_MAX
 * players. The rule itself is host_player_lang's: their own, else that
 * room's, else the network's, else the bot's (i18n_reader_lang); also the
 * language a call writes in (host__lang).
 *
 * Not here: the command (cmd/prefs.c), the rooms' languages (room_map.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hprefs.h"
#include "hrooms.h"

#define LANG_MAP_MAX 50000 /* players remembered (~20 MB at most); more: their network's */

struct lang_own {
    char key[LINK_ID_LEN];   /* "network\x1fplayer" */
    int lang;                /* their own, -1 none */
    char room[STORE_ID_MAX]; /* where they are seated or last spoke, "" none */
};

static int by_key(const void *a, const void *b)
{
    return strcmp(((const struct lang_own *)a)->key, ((const struct lang_own *)b)->key);
}

/* The entry of player on network, or NULL. */
static const struct lang_own *find(const host *h, const char *network, const char *player)
{
    struct lang_own probe;
    if (h->nlangs == 0 || network == NULL || player == NULL)
        return NULL;
    host__link_key(network, player, probe.key, sizeof probe.key);
    if (probe.key[0] == '\0')
        return NULL;
    return bsearch(&probe, h->langs, (size_t)h->nlangs, sizeof *h->langs, by_key);
}

/* host_player_lang with the player's own choice taken as own. */
static pz_lang rule(const host *h, const char *network, const char *player, const char *room,
                    bool with_own)
{
    const struct lang_own *l = find(h, network, player);
    if (room == NULL || room[0] == '\0')
        room = l != NULL && l->room[0] != '\0' ? l->room : NULL;
    return i18n_reader_lang(with_own && l != NULL ? l->lang : -1,
                            room != NULL ? (int)host_room_lang(h, network, room) : -1,
                            (int)host__room_map_configured(h, network, NULL), PZ_LANG_EN);
}

pz_lang host_player_lang(const host *h, const char *network, const char *player, const char *room)
{
    return rule(h, network, player, room, true);
}

pz_lang host__lang_map_without_own(const host *h, const char *network, const char *player,
                                   const char *room)
{
    return rule(h, network, player, room, false);
}

int host__lang_map_own(const host *h, const char *network, const char *player)
{
    const struct lang_own *l = find(h, network, player);
    return l != NULL ? l->lang : -1;
}

const char *host__lang_map_room(const host *h, const char *network, const char *player)
{
    const struct lang_own *l = find(h, network, player);
    return l != NULL && l->room[0] != '\0' ? l->room : NULL;
}

pz_lang host_reader_lang(const host *h, const char *network, const char *target, msg_kind kind)
{
    return kind == MSG_ROOM ? host_room_lang(h, network, target)
                            : host_player_lang(h, network, target, NULL);
}

pz_lang host__lang(const ctx *c)
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

/* Sets key's entry: its language when set_lang (-1 none), its room when
   room is not NULL; inserted in order, removed when it keeps neither.
   0, or -1 out of memory or full (the map unchanged). */
static int put_key(host *h, const char *key, bool set_lang, int lang, const char *room)
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
    int now_lang = set_lang ? lang : here ? h->langs[lo].lang : -1;
    bool has_room = room != NULL ? room[0] != '\0' : here && h->langs[lo].room[0] != '\0';
    if (now_lang < 0 && !has_room) {
        if (here) {
            memmove(&h->langs[lo], &h->langs[lo + 1],
                    (size_t)(h->nlangs - lo - 1) * sizeof *h->langs);
            h->nlangs--;
        }
        return 0;
    }
    if (!here) {
        if (h->nlangs >= LANG_MAP_MAX)
            return -1;
        struct lang_own *grown = realloc(h->langs, (size_t)(h->nlangs + 1) * sizeof *h->langs);
        if (grown == NULL)
            return -1;
        h->langs = grown;
        memmove(&h->langs[lo + 1], &h->langs[lo], (size_t)(h->nlangs - lo) * sizeof *h->langs);
        h->nlangs++;
        snprintf(h->langs[lo].key, sizeof h->langs[lo].key, "%s", key);
        h->langs[lo].room[0] = '\0';
    }
    h->langs[lo].lang = now_lang;
    if (room != NULL)
        snprintf(h->langs[lo].room, sizeof h->langs[lo].room, "%s", room);
    return 0;
}

int host__lang_map_put(host *h, const char *network, const char *player, int lang)
{
    char key[LINK_ID_LEN];
    host__link_key(network, player, key, sizeof key);
    return key[0] == '\0' ? 0 : put_key(h, key, true, lang, NULL);
}

void host__lang_map_seen(host *h, const char *network, const char *player, const char *room)
{
    char key[LINK_ID_LEN];
    if (network == NULL || player == NULL || room == NULL || room[0] == '\0' ||
        strlen(room) >= STORE_ID_MAX)
        return;
    const struct lang_own *l = find(h, network, player);
    if (l != NULL && strcmp(l->room, room) == 0)
        return; /* the common case: a command where they last spoke */
    host__link_key(network, player, key, sizeof key);
    if (key[0] != '\0')
        (void)put_key(h, key, false, -1, room); /* full: their network's */
}

/* The map as the start reads it: entries appended in the order read (a
   language or a room each), then sorted and folded once, so a start with
   50,000 players costs one sort, not an insertion in the middle each. */
struct lang_load {
    host *h;
    struct lang_own *e;
    int n, cap, *order; /* order: each entry's place in the reading */
    bool full;
};

/* Appends key's language (lang >= 0) or room to the load; 1 when out of
   memory or over LANG_MAP_MAX entries read, else 0. */
static int load_add(struct lang_load *l, const char *key, int lang, const char *room)
{
    if (l->n >= 2 * LANG_MAP_MAX) {
        l->full = true;
        return 0; /* more: their network's language */
    }
    if (l->n == l->cap) {
        int cap = l->cap != 0 ? 2 * l->cap : 1024;
        struct lang_own *grown = realloc(l->e, (size_t)cap * sizeof *l->e);
        if (grown == NULL)
            return 1;
        l->e = grown;
        l->cap = cap;
    }
    struct lang_own *e = &l->e[l->n++];
    snprintf(e->key, sizeof e->key, "%s", key);
    e->lang = lang;
    snprintf(e->room, sizeof e->room, "%s", room != NULL ? room : "");
    return 0;
}

/* store_kv_each's callback: one player's language (arg: the load). */
static int load_one(void *arg, const char *key, const char *value)
{
    pz_lang l;
    if (strlen(key) >= LINK_ID_LEN || !i18n_parse(value, &l))
        return 0;
    return load_add(arg, key, (int)l, NULL);
}

/* store_game_each_active's callback: the room of each person seated in an
   active game (arg: the load). */
static int seated_one(void *arg, store_game *g)
{
    struct lang_load *l = arg;
    store_seat seats[PZ_MAX_PLAYERS];
    char key[LINK_ID_LEN];
    int n = 0;
    if (strlen(g->room) >= STORE_ID_MAX ||
        store_seats_get(l->h->st, g->id, seats, PZ_MAX_PLAYERS, &n) != 0)
        return 0; /* the language of a line is no reason to stop */
    for (int i = 0; i < n; i++) {
        if (host__is_robot(seats[i].player))
            continue;
        host__link_key(g->network, seats[i].player, key, sizeof key);
        if (key[0] != '\0' && load_add(l, key, -1, g->room) != 0)
            return 1;
    }
    return 0;
}

/* Sorts by key, and within a key in the order read (qsort is not stable). */
static const struct lang_own *sort_base;
static int by_key_then_read(const void *a, const void *b)
{
    int ia = *(const int *)a, ib = *(const int *)b;
    int c = strcmp(sort_base[ia].key, sort_base[ib].key);
    return c != 0 ? c : (ia > ib) - (ia < ib);
}

/* The load sorted and folded into h's map: per key its language read last
   and its room read last, as put_key one by one would leave them. 0, or 1
   out of memory. */
static int load_fold(struct lang_load *l)
{
    host *h = l->h;
    if (l->n == 0)
        return 0;
    l->order = malloc((size_t)l->n * sizeof *l->order);
    struct lang_own *map = malloc((size_t)l->n * sizeof *map);
    if (l->order == NULL || map == NULL) {
        free(map);
        return 1;
    }
    for (int i = 0; i < l->n; i++)
        l->order[i] = i;
    sort_base = l->e;
    qsort(l->order, (size_t)l->n, sizeof *l->order, by_key_then_read);
    int m = 0;
    for (int i = 0; i < l->n; i++) {
        const struct lang_own *e = &l->e[l->order[i]];
        if (m == 0 || strcmp(map[m - 1].key, e->key) != 0) {
            if (m == LANG_MAP_MAX)
                break; /* more: their network's */
            map[m] = *e;
            map[m].room[0] = '\0';
            map[m].lang = -1;
            m++;
        }
        if (e->lang >= 0)
            map[m - 1].lang = e->lang;
        if (e->room[0] != '\0')
            snprintf(map[m - 1].room, sizeof map[m - 1].room, "%s", e->room);
    }
    free(h->langs);
    h->langs = map;
    h->nlangs = m;
    return 0;
}

int host__lang_map_load(host *h, char *why, size_t why_len)
{
    struct lang_load l = {.h = h};
    int err = store_kv_each(h->st, LANG_SCOPE, load_one, &l);
    if (err != 0) {
        snprintf(why, why_len, "cannot read the players' languages: %s",
                 err == 1 ? "out of memory" : store_errmsg(h->st));
    } else if ((err = store_game_each_active(h->st, seated_one, &l)) != 0) {
        snprintf(why, why_len, "cannot read the seats of the games: %s",
                 err == 1 ? "out of memory" : store_errmsg(h->st));
    } else if ((err = load_fold(&l)) != 0) {
        snprintf(why, why_len, "cannot read the players' languages: out of memory");
    }
    free(l.e);
    free(l.order);
    return err != 0 ? -1 : 0;
}

void host__lang_map_free(host *h)
{
    free(h->langs);
    h->langs = NULL;
    h->nlangs = 0;
}
