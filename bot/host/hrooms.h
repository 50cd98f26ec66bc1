/*
 * hrooms.h — rooms: the defaults their moderators set (rooms.c) and the
 * copy in memory of their own prefixes and colours (room_map.c). Prefixes
 * host__room_, host__room_map_.
 */
#ifndef PZ_HROOMS_H
#define PZ_HROOMS_H

#ifndef PZ_INSIDE_HOST
#error "hrooms.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "cmd_settings.h"
#include "hctx.h"
#include "i18n.h"

/* ---- rooms.c: a room's defaults, set by its moderators ---- */
#define ROOM_SCOPE "room"                   /* their kv scope, key "network\x1froom" */
#define ROOM_KEY_MAX (2 * STORE_ID_MAX + 2) /* bytes of such a key, NUL included */
#define ROOM_PREFIX_MAX CMD_PREFIX_MAX      /* bytes of a room's own prefix */
typedef struct room_settings {
    /* The table's values (settings.def; cmd_settings.h): what set and
       settings read and write, and the row the store keeps. */
    cmd_settings s;
    /* The same, as the host's code reads them: */
    int deadline;      /* new tables' turn deadline (s), 0 none */
    int away_max;      /* the longest a turn waits for an away player (s), 0 no bound */
    int level;         /* computer players' pzai_level */
    bool own_deadline; /* set for the room (else the configuration's) */
    bool own_away;
    bool own_level;
    /* The R9 options of its new tables, as "o.NAME=VALUE" words ("" none),
       before those a "new" says. */
    char options[200];
    char prefix[ROOM_PREFIX_MAX + 1]; /* its own command prefix, "" the bot's */
    bool colours_off;                 /* said "set colours off" */
    bool hints_off;                   /* said "set hints off": no hint here */
    bool web_off;                     /* said "set web off": no links, its pages 404 */
    int lang;                         /* "set lang": a pz_lang, -1 the configuration's */
} room_settings;
/* The kv key of room on the context's network into key[ROOM_KEY_MAX]
   ("" when it does not fit). */
void host__room_key(const ctx *c, const char *room, char *key, size_t cap);
/* The prefix ("" none), colours and language (-1 none) of a room's
   stored words: what room_map.c keeps in memory. */
void host__room_words_own(const char *words, char prefix[ROOM_PREFIX_MAX + 1], bool *colours_off,
                          int *lang);
/* Applies rs's options to o; 0, or -1 with why (a value the engine no
   longer takes). */
int host__room_options_apply(const room_settings *rs, pz_options *o, char *why, size_t why_len);
/* room's defaults on the context's network (the configuration's where the
   room has none). */
void host__room_defaults(const ctx *c, const char *room, room_settings *rs);
/* rs's host fields made again from rs->s, after a change to it. */
void host__room_settings_follow(room_settings *rs);
/* The computer players' level of the loaded game's room. */
int host__room_level(const ctx *c);

/* ---- room_map.c: the rooms' own prefixes and colours, in memory ---- */
/* Reads every room's from the store (host_new). 0, or -1 with why. */
int host__room_map_load(host *h, char *why, size_t why_len);
/* Sets (network, room)'s: prefix "", colours on and lang -1 forget it.
   0, or -1 out of memory (unchanged). */
int host__room_map_put(host *h, const char *network, const char *room, const char *prefix,
                       bool colours_off, int lang);

/* ---- lang_map.c: the players' own languages ("lang es") and rooms, in memory ---- */
/* kv scope, key "network\x1fplayer", value "es" or "en" (settings.def's lang) */
#define LANG_SCOPE (cmd_setting_row_of(CMD_SETTING_PLAYER_LANG)->stored)
/* Reads every player's own language from the store, and the seats of the
   active games in rooms whose language is not their network's (host_new).
   0, or -1 with why. */
int host__lang_map_load(host *h, char *why, size_t why_len);
/* Puts in the seats of the active games in rooms whose language is not
   their network's (fill: only for players with no room in the map; after
   a reload changed the configuration's languages). 0, or -1 with why. */
int host__lang_map_rooms(host *h, bool fill, char *why, size_t why_len);
/* A room's own language changed ("set lang", committed): its game's
   seated players follow it when it is not its network's. */
void host__lang_map_room_changed(host *h, const char *network, const char *room);
/* Sets player's language on network (-1: none, the room's). 0, or -1 out
   of memory (unchanged). */
int host__lang_map_put(host *h, const char *network, const char *player, int lang);
void host__lang_map_free(host *h);
/* Remembers room as where player is seated or last gave a command on
   network: their private lines follow its language when they chose none
   (host_player_lang). Kept only when that language is not the network's
   (and forgotten when they speak in a room that speaks as the network).
   In memory only; never fails a call. */
void host__lang_map_seen(host *h, const char *network, const char *player, const char *room);
/* That room, or NULL when none is known or it speaks as the network. */
const char *host__lang_map_room(const host *h, const char *network, const char *player);
/* The language player chose (-1 none); and host_player_lang as if they
   had chosen none. */
int host__lang_map_own(const host *h, const char *network, const char *player);
pz_lang host__lang_map_without_own(const host *h, const char *network, const char *player,
                                   const char *room);
/* The language of lines to the room the call is about (host__prefix's room),
   or of the sender's private lines when there is none. */
pz_lang host__lang(const ctx *c);
void host__room_map_free(host *h);
/* The configuration's language of room (NULL: the network's), whatever
   the room chose. */
pz_lang host__room_map_configured(const host *h, const char *network, const char *room);

#endif /* PZ_HROOMS_H */
