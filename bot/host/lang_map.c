/*
 * lang_map.c — what the language of a player's private lines depends on,
 * kept in memory like the rooms' prefixes (room_map.c): every hand, prompt
 * and reminder is written in its reader's language when it is sent, and
 * that may not cost a read of the store. Per player: the language they
 * chose ("lang es"; kv scope LANG_SCOPE, read once when the host starts,
 * following a "lang" once the call that made it commits), and the room
 * where they are seated or last gave a command — kept only when that
 * room's language is not the network's, for only then does it decide
 * anything: a player seated in a room that speaks as its network does
 * reads their network's language with or without it. So the map holds the
 * players with a language of their own and those of the rooms that chose
 * another, not every player: at 100,000 games in rooms of their network's
 * language it is empty, the start reads the rooms' index and no game, and
 * a command's lookups cost nothing. A room that comes to speak another
 * language ("set lang", a reloaded configuration) has the seats of its
 * game put in (host__lang_map_room_changed, host__lang_map_rooms). A dense
 * array found by a strmap (key -> index), at most LANG_MAP_MAX players. The rule itself is
 * host_player_lang's: their own, else that room's, else the network's, else the bot's
 * (i18n_reader_lang); also the language a call writes in (host__lang).
 *
 * Not here: the command (cmd/prefs.c), the rooms' languages (room_map.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hprefs.h"
#include "hrooms.h"
#include "strmap.h"

#define LANG_MAP_MAX 50000 /* players remembered (~20 MB at most); more: their network's */

struct lang_own {
    char key[LINK_ID_LEN];   /* "network\x1fplayer" */
    int lang;                /* their own, -1 none */
    char room[STORE_ID_MAX]; /* where seated or last spoke, in another language than the
                                network's; "" none */
};

/* The entry of key, or NULL. */
static struct lang_own *find_key(const host *h, const char *key)
{
    int64_t i;
    if (h->nlangs == 0 || key[0] == '\0' || !strmap_get(&h->lang_index, key, &i))
        return NULL;
    return &h->langs[i];
}

/* The entry of player on network, or NULL. */
static const struct lang_own *find(const host *h, const char *network, const char *player)
{
    char key[LINK_ID_LEN];
    if (h->nlangs == 0 || network == NULL || player == NULL)
        return NULL;
    host__link_key(network, player, key, sizeof key);
    return find_key(h, key);
}

/* Whether room's language decides anything: it is not its network's. */
static bool room_decides(const host *h, const char *network, const char *room)
{
    return host_room_lang(h, network, room) != host__room_map_configured(h, network, NULL);
}

/* Room in h->langs for one more entry: 0, or -1 out of memory. */
static int reserve(host *h)
{
    if (h->nlangs < h->langs_room)
        return 0;
    int room = h->langs_room != 0 ? 2 * h->langs_room : 64;
    struct lang_own *grown = realloc(h->langs, (size_t)room * sizeof *h->langs);
    if (grown == NULL)
        return -1;
    h->langs = grown;
    h->langs_room = room;
    return 0;
}

/* Removes entry e: the array's last entry takes its place. */
static void remove_entry(host *h, struct lang_own *e)
{
    (void)strmap_del(&h->lang_index, e->key);
    struct lang_own *last = &h->langs[--h->nlangs];
    if (e != last) {
        *e = *last;
        (void)strmap_put(&h->lang_index, e->key, e - h->langs); /* held: never allocates */
    }
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
   room is not NULL ("" none); removed when it keeps neither. 0, or -1 out
   of memory or full (the map unchanged). */
static int put_key(host *h, const char *key, bool set_lang, int lang, const char *room)
{
    struct lang_own *e = find_key(h, key);
    int now_lang = set_lang ? lang : e != NULL ? e->lang : -1;
    bool has_room = room != NULL ? room[0] != '\0' : e != NULL && e->room[0] != '\0';
    if (now_lang < 0 && !has_room) {
        if (e != NULL)
            remove_entry(h, e);
        return 0;
    }
    if (e == NULL) {
        if (h->nlangs >= LANG_MAP_MAX || reserve(h) != 0 ||
            strmap_put(&h->lang_index, key, h->nlangs) != 0)
            return -1;
        e = &h->langs[h->nlangs++];
        snprintf(e->key, sizeof e->key, "%s", key);
        e->room[0] = '\0';
    }
    e->lang = now_lang;
    if (room != NULL)
        snprintf(e->room, sizeof e->room, "%s", room);
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
        return; /* the common case of a room that decides: where they last spoke */
    bool decides = room_decides(h, network, room);
    if (!decides && (l == NULL || l->room[0] == '\0'))
        return; /* the common case: their network's language, as before */
    host__link_key(network, player, key, sizeof key);
    if (key[0] != '\0')
        (void)put_key(h, key, false, -1, decides ? room : ""); /* full: their network's */
}

/* Puts in the room of each person seated at game id, in room on network
   (fill: only for those whose entry has no room). 0, or 1 when the map is
   full or out of memory; a seat that cannot be read is skipped (the
   language of a line is no reason to stop). */
static int seat_room(host *h, int64_t id, const char *network, const char *room, bool fill)
{
    store_seat seats[PZ_MAX_PLAYERS];
    char key[LINK_ID_LEN];
    int n = 0;
    if (strlen(room) >= STORE_ID_MAX || store_seats_get(h->st, id, seats, PZ_MAX_PLAYERS, &n) != 0)
        return 0;
    for (int i = 0; i < n; i++) {
        if (host__is_robot(seats[i].player))
            continue;
        host__link_key(network, seats[i].player, key, sizeof key);
        if (key[0] == '\0')
            continue;
        const struct lang_own *e = find_key(h, key);
        if (fill && e != NULL && e->room[0] != '\0')
            continue;
        if (put_key(h, key, false, -1, room) != 0)
            return 1;
    }
    return 0;
}

struct rooms_walk {
    host *h;
    bool fill;
};

/* store_room_each_active's callback: the seats of a game in a room that
   speaks another language than its network (arg: a rooms_walk). */
static int room_one(void *arg, int64_t id, const char *network, const char *room)
{
    struct rooms_walk *w = arg;
    return room_decides(w->h, network, room) ? seat_room(w->h, id, network, room, w->fill) : 0;
}

int host__lang_map_rooms(host *h, bool fill, char *why, size_t why_len)
{
    struct rooms_walk w = {.h = h, .fill = fill};
    int err = store_room_each_active(h->st, room_one, &w);
    if (err != 0)
        snprintf(why, why_len, "cannot read the seats of the games: %s",
                 err == 1 ? "too many players or out of memory" : store_errmsg(h->st));
    return err != 0 ? -1 : 0;
}

void host__lang_map_room_changed(host *h, const char *network, const char *room)
{
    store_game g;
    if (!room_decides(h, network, room) || store_game_active(h->st, network, room, &g) != 0)
        return; /* its players' entries naming it now say what their network says */
    (void)seat_room(h, g.id, network, room, false);
    store_game_fini(&g);
}

/* store_kv_each's callback: one player's language (arg: the host). */
static int load_one(void *arg, const char *key, const char *value)
{
    pz_lang l;
    if (strlen(key) >= LINK_ID_LEN || !i18n_parse(value, &l))
        return 0;
    return put_key(arg, key, true, (int)l, NULL) != 0;
}

int host__lang_map_load(host *h, char *why, size_t why_len)
{
    int err = store_kv_each(h->st, LANG_SCOPE, load_one, h);
    if (err != 0) {
        snprintf(why, why_len, "cannot read the players' languages: %s",
                 err == 1 ? "too many or out of memory" : store_errmsg(h->st));
        return -1;
    }
    return host__lang_map_rooms(h, false, why, why_len);
}

void host__lang_map_free(host *h)
{
    free(h->langs);
    strmap_free(&h->lang_index);
    h->langs = NULL;
    h->nlangs = h->langs_room = 0;
}
