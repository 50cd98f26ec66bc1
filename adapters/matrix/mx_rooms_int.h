/*
 * mx_rooms_int.h — what the Matrix adapter knows of rooms (mx_rooms.c):
 * members and their names, moderators, names and aliases, direct rooms.
 */
#ifndef PZ_MX_ROOMS_INT_H
#define PZ_MX_ROOMS_INT_H

#ifndef PZ_INSIDE_MX
#error "mx_rooms_int.h is the Matrix adapter's inside: other layers include mx.h (ARCHITECTURE.md)"
#endif

#include "mx_call_int.h"

#define MX_ROOMS_MAX 1024 /* rooms known at once */
#define MX_MODS_MAX 4096  /* bytes of a room's list of moderators */

/* A member of a room, as its m.room.member state says. */
typedef struct mx_member {
    char user[MX_ID_MAX];
    char name[MX_ID_MAX]; /* display name, cleaned; "" none */
    bool invited;         /* invited, not joined yet */
} mx_member;

/* Who may read a room's history (m.room.history_visibility): "shared" (the
   default) and "world_readable", "invited", "joined". */
enum { MX_HIST_SHARED, MX_HIST_INVITED, MX_HIST_JOINED };

/* What the adapter knows of one room. */
typedef struct mx_room {
    char id[MX_ID_MAX];
    bool encrypted;
    char dm_user[MX_ID_MAX]; /* the player whose direct room this is, or "" */
    char name[MX_ID_MAX];    /* m.room.name, cleaned; "" none or not read yet (see the kv) */
    char alias[MX_ID_MAX];   /* m.room.canonical_alias, likewise */
    /* The last command said in a thread (thread "" none): its answers go there. */
    char thread[MX_ID_MAX];       /* the thread's root event */
    char reply_to[MX_ID_MAX];     /* the command's event */
    int64_t thread_lo, thread_hi; /* the outbox ids it caused: (lo, hi] */
    int64_t thread_ms;            /* when (loop time): volatile answers soon after are its */
    char *mods;     /* " @a:x @b:y ": its moderators (" * " everyone), malloc'd; NULL unknown */
    bool forbidden; /* a send was refused (403): nothing is sent until its power levels change */
    bool said_encrypted;   /* told that the bot cannot play here (encryption off) */
    bool members_known;    /* its members were read in this run (encrypted rooms) */
    unsigned char history; /* MX_HIST_*, as its state says */
    mx_member *members;
    int nmembers, cap;
} mx_room;

/* The rooms known, and m.direct. */
typedef struct mx_rooms_st {
    json_object *direct; /* m.direct content, or NULL */
    mx_room **all;
    int n, cap;
} mx_rooms_st;

mx_room *mx__room(mx_net *n, const char *id, bool create);
void mx__room_forget(mx_net *n, const char *id);
void mx__rooms_free(mx_net *n);
/* Sets user's display name in room (cleaned); true when it changed from a known one.
   was (may be NULL) gets the name it had before ("" none). */
bool mx__member_set(mx_net *n, mx_room *r, const char *user, const char *name, char *was,
                    size_t was_cap);
void mx__member_remove(mx_room *r, const char *user);
/* Marks user, a member of r, invited (not joined yet) or not. */
void mx__member_invited(mx_room *r, const char *user, bool invited);
/*
 * Takes a room's m.room.power_levels content: its moderators are the users
 * at the moderator level or above (the higher of the kick and state_default
 * levels, 50 each when unset, at least 1), kept in r->mods and the kv
 * ("mods:ROOM") for restarts. A change also lifts r->forbidden.
 */
void mx__power_take(mx_net *n, mx_room *r, json_object *content);
/* Handler of POWER calls: a room's power levels read (see mx__is_moderator). */
void mx__on_power(mx_net *n, mx_call *c, int status, json_object *body);
/* Whether user moderates room r (as its last power levels said; never seen:
   nobody, and they are read from the homeserver for the next command). */
bool mx__is_moderator(mx_net *n, mx_room *r, const char *user);
/* Takes a room's m.room.name content (kept in the kv "roomname:ROOM" too). */
void mx__room_name_take(mx_net *n, mx_room *r, json_object *content);
/* Takes a room's m.room.canonical_alias content (kv "roomalias:ROOM"). */
void mx__room_alias_take(mx_net *n, mx_room *r, json_object *content);
/* How text the bot sends names room: its name, else its canonical alias,
   else its id. */
void mx__room_label(mx_net *n, const char *room, char *out, size_t cap);
/*
 * A copy of text (malloc'd; NULL out of memory) where each room id the bot
 * knows a name for, after " in " ("Your hand in !abc:server") or as a
 * heading ("!abc:server: table ...", "#1 !abc:server: your turn"), is
 * written as the room's label (mx__room_label); other ids stay (they are
 * what a player types: "say play 7 !abc:server").
 */
char *mx__room_names_in(mx_net *n, const char *text);
/* Marks r as refusing the bot's messages (a 403 on send), or not. */
void mx__forbidden_set(mx_net *n, mx_room *r, bool on);
/* The name user has in room r (NULL: none) before any disambiguation: the
   display name (a cache, then the kv), else the localpart of the id. */
void mx__base_name(mx_net *n, mx_room *r, const char *user, char *out, size_t cap);
/*
 * The name user goes by in room r (NULL: none): the display name (a cache,
 * then the kv), else the localpart; "NAME (USER)" when another member or
 * a player seated at the room's game has the same name.
 */
void mx__display_name(mx_net *n, mx_room *r, const char *user, char *out, size_t cap);
/*
 * user's display name in r changed from `was` to `now` (cleaned; "" none):
 * user and every member then or formerly called the same are renamed in
 * the host (host_rename), since their disambiguation may have changed.
 */
void mx__names_renamed(mx_net *n, mx_room *r, const char *user, const char *was, const char *now);
/* The direct room of user ("" none) from the kv, then m.direct. */
void mx__dm_room(mx_net *n, const char *user, char *room, size_t cap);
/* The player whose direct room room is ("" none). */
void mx__dm_user(mx_net *n, const char *room, char *user, size_t cap);
/* Records room as user's direct room (kv, m.direct, PUT when changed). */
void mx__dm_set(mx_net *n, const char *user, const char *room);
/* Forgets user's direct room (it was left or became encrypted). */
void mx__dm_forget(mx_net *n, const char *user, const char *room);
/* Takes m.direct account data (content object, not owned). */
void mx__direct_take(mx_net *n, json_object *content);
/* Handler of DIRECT_PUT calls. */
void mx__on_direct_put(mx_net *n, mx_call *c, int status, json_object *body);

#endif /* PZ_MX_ROOMS_INT_H */
