/*
 * hhost.h — the host's state: the host object (its store, configuration,
 * caches of the clock, flood rates, rooms and the computer players'
 * worker) and the context of one call (ctx): the line being handled, the
 * room's game as loaded (row, settings, seats, engine state), the
 * player's choices read so far, and what the call queued. Types only: the
 * functions on them are in hctx.h and the headers it lists.
 */
#ifndef PZ_HHOST_H
#define PZ_HHOST_H

#ifndef PZ_INSIDE_HOST
#error "hhost.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "command.h"
#include "host.h"
#include "porrazo.h"
#include "render.h"
#include "store.h"
#include "strmap.h"
#include "tz.h"

typedef struct flood_slot flood_slot;
typedef struct think think;
typedef struct room_own room_own;
typedef struct hs_listener hs_listener; /* hlisten.h */

#define HS_LISTENERS_MAX 4 /* who listens to the games' moves (host__listen) */

struct host {
    store *st;
    host_config cfg;
    char prefix[8];
    char bot_name[64];
    char err[STORE_WHY_MAX];
    int64_t due_next;      /* the clock's next due time as last read (timers.c) */
    bool due_valid;        /* due_next is known; saves only lower it */
    int64_t tick_retry_at; /* the store refused a tick: not before this */
    flood_slot *flood;     /* per-sender command rates (flood.c) */
    think *think;          /* computer players' worker, or NULL: they decide inline */
    int robot_level;       /* pzai_level of computer players added without one */
    room_own *rooms;       /* the rooms with their own prefix or colours (room_map.c) */
    int nrooms;
    struct lang_own *langs; /* the players whose language is not their network's (lang_map.c) */
    int nlangs, langs_room; /* entries in langs, and room for */
    strmap lang_index;      /* each entry's key -> its index in langs */
    const hs_listener *listeners[HS_LISTENERS_MAX]; /* told of every move (act.c) */
    int nlisteners;
    /* The last game restored whose row the store's game cache does not
       keep, by the exact text it was restored from (game.c:
       host__game_restore): the game a command loads is most often the
       one the last command or expansion read. */
    char *last_state;
    pz_game *last_game;
    bool kv_held; /* between host_kv_hold and host_kv_release (adapter.c) */
    bool kv_open; /* ... and a relaxed transaction opened by a host_kv_set */
};

/* A game's host-side settings, kept as words in store_game.settings. */
typedef struct settings {
    int max_players;      /* seats offered, 2..8 */
    bool shuffle;         /* seats drawn at random at the start */
    int deadline;         /* turn deadline in seconds, 0 none */
    int dealer;           /* the first dealer, chosen at the start */
    unsigned pause_votes; /* seat bits */
    unsigned resume_votes;
    unsigned stop_votes;
    int reminders;    /* reminders sent for the current turn */
    unsigned away;    /* seat bits: absent people a computer player plays for */
    unsigned missed;  /* 4 bits a seat: its turns in a row the deadline played */
    int64_t start_at; /* a full lobby deals then (start_countdown), 0: not counting */
    bool practice;    /* a practice table (learn): explained, kept out of stats and top */
    pz_options opt;
} settings;

#define CTX_EVENTS_MAX 4  /* game events of one call (a game stopped, another opened...) */
#define CTX_EVENT_LEN 400 /* bytes of one game event line, NUL included */

/* A player's clock (prefs.c): time zone, quiet hours, away. */
typedef struct prefs {
    char tz[64]; /* IANA zone, "" for UTC */
    bool has_quiet;
    tz_quiet quiet;     /* daily, in tz */
    int64_t away_until; /* away (a vacation) until then; 0: not away */
    bool away_bot;      /* meanwhile a computer player plays for them */
    bool no_reminders;  /* said "reminders off" */
} prefs;
/* One call's view of a room: its game, seats and settings. */
typedef struct ctx {
    host *h;
    int64_t now;
    const host_msg *m; /* the line being handled, or NULL (clock) */
    const char *network;
    bool have_game;
    store_game row;
    settings set;
    store_seat seats[PZ_MAX_PLAYERS];
    int nseats;
    pz_game *g;   /* the engine state while playing, else NULL */
    int failed;   /* a store call failed: roll back (the store_err) */
    bool bounded; /* queuing a reply: dropped when its target is behind */
    bool acted;   /* an action was applied (host__act()) */
    /* the start of the commitment of the hand being dealt, for its first
       line (hfair.h); "" none */
    char seal[16];
    /* a V_PRIVATE verb (a person's own setting): host__reply answers privately */
    bool personal;
    /* A command that changes nothing: its replies go to vq as volatile
       messages (no write, no fsync), read in a read-only transaction. */
    outq *vq;
    bool vq_loaded; /* vq holds every committed row: replies stay in order */
    /* game events for host_config.log_event, written once committed */
    char events[CTX_EVENTS_MAX][CTX_EVENT_LEN];
    int nevents;
    /* host__prefs_load's memo: the players whose choices this call has read (a
       save asks for the actor's up to four times); pref_set empties it */
    struct {
        char player[STORE_ID_MAX];
        prefs p;
    } prefs_memo[PZ_MAX_PLAYERS];
    int nprefs_memo;
    /* A "set" changed the room's prefix or colours: room_map.c's copy
       follows once the call commits (forgotten if it is rolled back). */
    struct {
        bool pending;
        char room[STORE_ID_MAX];
        char prefix[8]; /* "" the bot's */
        bool colours_off;
        int lang; /* -1 the configuration's */
    } room_change;
    /* A "lang" changed the sender's language: lang_map.c's copy follows
       once the call commits. */
    struct {
        bool pending;
        int lang; /* -1 none */
    } lang_change;
} ctx;

#endif /* PZ_HHOST_H */
