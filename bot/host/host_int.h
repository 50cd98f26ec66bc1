/*
 * host_int.h — what the host's files (host.c, lobby.c, play.c, timers.c, ...)
 * share: the host object, the context of one call (the room's game as
 * loaded from the store) and the helpers that queue messages.
 *
 * Not installed, not used by adapters: they see host.h only.
 */
#ifndef PZ_HOST_INT_H
#define PZ_HOST_INT_H

#ifndef PZ_INSIDE_HOST
#error "host_int.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "command.h"
#include "host.h"
#include "porrazo.h"
#include "render.h"
#include "store.h"
#include "tz.h"

/* The store's kv scope of the players who want private lines by NOTICE on
   IRC ("notices on"), key "network\x1fplayer", value "on"
   (host_wants_notice). */
#define HOST_NOTICE_SCOPE "notice"

typedef struct flood_slot flood_slot;
typedef struct think think;
typedef struct room_own room_own;

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
    bool acted;   /* an action was applied (act()) */
    /* A command that changes nothing: its replies go to vq as volatile
       messages (no write, no fsync), read in a read-only transaction. */
    outq *vq;
    bool vq_loaded; /* vq holds every committed row: replies stay in order */
    /* game events for host_config.log_event, written once committed */
    char events[CTX_EVENTS_MAX][CTX_EVENT_LEN];
    int nevents;
    /* prefs_load's memo: the players whose choices this call has read (a
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
    } room_change;
} ctx;

/* ---- host.c ---- */

/* Queues a line to the room of the context's game (or the message's). */
void say_room(ctx *c, const char *room, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Queues a private line to a player; hands go first (priority 1). */
void say_private(ctx *c, const char *player, int priority, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Replies to the sender: in the room ("nick: ...") or privately. */
void reply(ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Queues every line of a render_lines to the game's room. */
void say_lines(ctx *c, const render_lines *lines);

/* Notes a game event of the loaded game for the operator's log: "game #ID
   (NETWORK ROOM) " and the formatted text; logged by events_flush() once
   the call's transaction is committed, forgotten if it is rolled back. */
void game_event(ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Hands the call's game events to host_config.log_event, and forgets them. */
void events_flush(ctx *c);
/* Writes how to get the loaded game's record, for a room line: "Game #12 ·
   its record: !export 12 (owners) or porrazo-bot --export 12". */
void record_hint(const ctx *c, char *buf, size_t cap);

/* Marks the call failed after a store error (rolled back later). */
void store_failed(ctx *c, int err);

/* Settings as words, and back. 0 or -1. */
int settings_parse(settings *s, const char *text);
void settings_format(const settings *s, char *buf, size_t cap);
void settings_default(settings *s);

/* Loads the active game of (network, room) into c: 1 found, 0 none, -1 error. */
int load_game(ctx *c, const char *room);
/* Writes the game row (settings, state, seats are written by their owners). */
void save_game(ctx *c);
/* Frees what load_game allocated. */
void unload_game(ctx *c);

/* The seat of a player in the loaded game, or -1. */
int seat_of(const ctx *c, const char *player);
/* The seat whose nick is name (case-insensitive) or whose player id is name
   exactly (a Matrix user id, an account), or -1. */
int seat_named(const ctx *c, const char *name);
/* The names of the seats for render.h. */
render_names names_of(const ctx *c);
/* True for owners (config). */
bool is_owner(const ctx *c, const char *player);
/* What to write before a command a reply suggests: the prefix when the
   line came in a room ("say !join"), "" in private. */
const char *prompt_prefix(const ctx *c);
/* The command prefix of the room the call is about: the room the line
   came in, else the loaded game's, else the bot's (the room's own when it
   set one). Unlike prompt_prefix, never "". */
const char *ctx_prefix(const ctx *c);

/* ---- live.c: lines rendered when they are sent ---- */

/* The seats' names as markers (resolved when a line is sent). */
typedef struct live_nicks {
    char nick[PZ_MAX_PLAYERS][STORE_ID_MAX + 8];
} live_nicks;
/* Names for render.h whose nicks are markers kept in buf. */
render_names live_names(const ctx *c, live_nicks *buf);
/*
 * The header that makes a line of the loaded game live, into buf: kind
 * 'E' (events: the state follows when sent; lines in a row merge), 'S' (a
 * state line: dropped when a newer one waits), 'H' / 'P' (seat's hand /
 * turn prompt, rendered when sent), 'B' (names only). seat -1: none.
 */
void live_header(const ctx *c, char kind, int seat, char *buf, size_t cap);
/* The marker of the game's state ("table ... · bob to play") when sent. */
const char *live_state_token(void);

/* ---- recent.c: what happened since a seat's last play ---- */

#define RECENT_MAX 16         /* entries kept per game */
#define RECENT_TEXT_MAX 400   /* bytes of one entry */
#define RECENT_VALUE_MAX 7000 /* bytes of the stored record */
typedef struct recent {
    int64_t acted[PZ_MAX_PLAYERS]; /* when each seat last acted; 0 never */
    int n;
    struct {
        int seat; /* who acted; -1 nobody (a deal) */
        char text[RECENT_TEXT_MAX];
    } entry[RECENT_MAX];
} recent;
/* Reads the loaded game's record (empty when none). 0 or a store_err. */
int recent_load(ctx *c, recent *r);
/* Writes it back (in the caller's transaction). 0 or a store_err. */
int recent_save(ctx *c, const recent *r);
/* Adds what the room was told of an action by seat (-1: nobody). */
void recent_add(recent *r, int seat, const char *text);
/* Seat acted at now. */
void recent_touch(recent *r, int seat, int64_t now);
/* When seat last acted, 0 never. */
int64_t recent_acted(const recent *r, int seat);
/* What the room was told since seat's last entry, joined by " · " into
   buf (the newest that fit). */
void recent_since(const recent *r, int seat, char *buf, size_t cap);

/* ---- lobby.c ---- */
/* Whether the loaded game is a lobby; else the sender is told. */
bool in_lobby(ctx *c);
/* Whether the sender may manage the table (creator, moderator, owner);
   else told. */
bool may_manage(ctx *c);
/* Seats player (nick) at the lobby's next seat, says so, and starts the
   game when the table is full. */
void seat_add(ctx *c, const char *player, const char *nick);
/* Removes seat i from the lobby: the next person runs it if its creator
   left; closed when no person is left. */
void unseat(ctx *c, int i);
void cmd_new(ctx *c, const cmd *k);
void cmd_join(ctx *c);
void cmd_leave(ctx *c);
void cmd_kick(ctx *c, const cmd *k);
void cmd_start(ctx *c);
void cmd_players(ctx *c);
void cmd_options(ctx *c);
void cmd_deadline(ctx *c, const cmd *k);

/* ---- admin.c: the owners' commands (they check the sender is one) ---- */
void cmd_games(ctx *c, const cmd *k);
void cmd_export(ctx *c, const cmd *k);
void cmd_fstop(ctx *c, const cmd *k);
void cmd_fleave(ctx *c, const cmd *k);
void cmd_skip(ctx *c, const cmd *k);

/* ---- play.c ---- */
/* Applies an engine action for the loaded game and announces it all;
   `forced` names a player the clock (or an owner's skip) played for. Returns the engine error
   (already explained to the sender) or 0. */
int act(ctx *c, const pz_action *a, const char *forced);
/*
 * Announces the events of an action `a` (NULL: the first deal of pz_new)
 * already applied to c->g: public lines, private hands after a deal, the
 * score board after a deal and a hand, statistics, the end of the game,
 * the next hand dealt at once, and the prompt of the seat to act. Saves
 * the game.
 */
void announce(ctx *c, const pz_action *a, const pz_events *ev, const char *forced);
/* The seat to act in g now: the turn in play, the dealer while the
   tendido is chosen or arranged; -1 otherwise. */
int actor_of(const pz_game *g);
/* Sends the seat to act its private prompt: what happened since its last
   play, its hand, the table, what to do (rendered when sent). */
void prompt_actor(ctx *c);
/* The same, as a reminder ("Reminder: Your turn in ..."). */
void remind_actor(ctx *c);
/* prompt_actor with what the room saw, from rec (read by announce). */
void prompt_with(ctx *c, const recent *rec);
/* Whether seat, to act, is sent its turn prompt now: quiet for
   prompt_quiet_secs (by rec), or it said "prompts on". */
bool needs_prompt(const ctx *c, const recent *rec, int seat);
/* prompt_actor for a player quiet for prompt_quiet_secs (the others
   follow the room). */
void prompt_if_quiet(ctx *c);
/* prompts on|off: the sender's choice, kept in the store's kv (scope
   PROMPTS_SCOPE, key "network\x1fplayer"). */
#define PROMPTS_SCOPE "prompts"
void cmd_prompts(ctx *c, const cmd *k);
void cmd_game(ctx *c, const cmd *k); /* play, tendido, arrange, declare, claim */
void cmd_info(ctx *c, const cmd *k); /* hand, table, score, turn */
void cmd_vote(ctx *c, const cmd *k); /* pause, resume, stop */
/* Stops the loaded game: the room is told why (who), the operator's log
   by whom (by: "by ann (its creator)"). */
void stop_game(ctx *c, const char *who, const char *by);
/* Records the start of a new turn (deadline and reminders restart). */
void new_turn(ctx *c);

/* ---- robots.c: computer players at the table ---- */
/* Whether player is a computer player's id ("bot:LEVEL#N"). */
bool robot_is(const char *player);
/* addbot [N] [level] and removebot [NAME] in a lobby. */
void cmd_addbot(ctx *c, const cmd *k);
void cmd_removebot(ctx *c, const cmd *k);
/* new ... bot [level]: the lobby's free seats go to computer players. */
void robots_fill(ctx *c, int level);
/* The seat of the computer player to act in the loaded game, or -1. */
int robot_to_act(ctx *c);
/* When the loaded game's computer player should move (after a save at
   now), or INT64_MAX when no computer player is to act. */
int64_t robot_due(ctx *c);
/* The clock found the loaded game due and a computer player to act at
   seat: its move now (inline, or handed to the worker). */
void robot_turn(ctx *c, int seat);
/* Applies the worker's decisions ready now, each in its transaction.
   0, or -1 when the store failed (h->err). */
int robots_collect(host *h, int64_t now);
/* A move for a person who cannot make it (an owner's skip, a deadline
   passed): the expert computer player's choice from the seat's view, else
   the engine's default. 0 and *out, or the engine's error (nothing to do). */
int robot_choose(const ctx *c, int seat, pz_action *out);
/* A new computer player's id and name at the loaded table ("bot:LEVEL#K",
   "Robot K (LEVEL)", K the smallest number not seated). */
void robot_identity(const ctx *c, int level, char *id, size_t id_cap, char *nick, size_t nick_cap);
/* The seat named name (seat_named), or the computer player "Robot name"
   ("2" for Robot 2), or -1. */
int robot_named(const ctx *c, const char *name);
/* A computer player's statistics row: one per level ("bot:strong"). */
void robot_stats_id(const char *player, char *id, size_t id_cap, char *nick, size_t nick_cap);

/* ---- absent.c: absent people, leaving mid-game, substitutes ---- */
/* Whether a computer player plays seat: its own, or for an absent person. */
bool absent_computer(ctx *c, int seat);
/* The deadline played seat's turn: one more missed in a row; at
   absent_after a computer player takes over until the person is back. */
void absent_missed(ctx *c, int seat);
/* The person at seat acted: no turn missed; back if they were away. */
void absent_acted(ctx *c, int seat);
/* back: a computer player no longer plays for the sender. */
void cmd_back(ctx *c);
/* A person leaves a game under way (why: "leaves", "is removed by bob"):
   a computer player takes the seat; with no person left the game stops. */
void absent_leave(ctx *c, int seat, const char *why);
/* sub NICK [SEAT]: offers a seat to NICK, who takes it with join. */
void cmd_sub(ctx *c, const cmd *k);
/* join in a game under way: the sender takes the seat offered to them.
   True when the line was such a join (answered). */
bool absent_take_offer(ctx *c);
/* Sends seat its hand privately (rendered when sent). */
void send_hand(ctx *c, int seat);

/* ---- link.c: one person's ids on several networks ---- */
#define LINK_MAX 4 /* ids tied together at most */
typedef struct link_ids {
    int n;
    char network[LINK_MAX][STORE_ID_MAX];
    char player[LINK_MAX][STORE_ID_MAX];
    char nick[LINK_MAX][STORE_ID_MAX]; /* as it was when tied: how its person is named */
} link_ids;
/* player's id on network (called nick) and the ids tied to it, that one
   first (n >= 1 unless the id is too long to keep). 0 or a store_err. */
int link_group(ctx *c, const char *network, const char *player, const char *nick, link_ids *out);
/* link | link CODE | link off */
void cmd_link(ctx *c, const cmd *k);

/* ---- prefs.c ---- */
/* player's choices on the context's network (defaults when none), read
   once per context. 0. */
int prefs_load(ctx *c, const char *player, prefs *p);
/* When seat's turn deadline of secs from start runs out: its clock stops
   in their quiet hours, and waits while they are away (up to away_max). */
int64_t prefs_deadline(ctx *c, int seat, int64_t start, int64_t secs);
/* Whether seat's player is not to be reminded at t (quiet hours, away);
 *until: when that ends. */
bool prefs_quiet_at(ctx *c, int seat, int64_t t, int64_t *until);
/* Whether seat's player is away and asked a computer player to play. */
bool prefs_away_bot(ctx *c, int seat);
void cmd_tz(ctx *c, const cmd *k);
void cmd_quiet(ctx *c, const cmd *k);
void cmd_away(ctx *c, const cmd *k);
/* notices on|off: the sender's private lines by NOTICE (IRC). */
void cmd_notices(ctx *c, const cmd *k);
/* reminders on|off: the sender's private reminders. */
void cmd_reminders(ctx *c, const cmd *k);
/* games (not an owner): the sender's games, each with whose turn and its
   deadline in the sender's time zone, privately. */
void cmd_my_games(ctx *c);

/* nick as text: each byte of invalid UTF-8 and each control character as
   '?', cut whole at STORE_ID_MAX; returns out. */
const char *clean_nick(const char *nick, char out[STORE_ID_MAX]);

/* ---- stats.c ---- */
/* stats [NICK], top [bots]. */
void cmd_stats(ctx *c, const cmd *k);
void cmd_top(ctx *c, const cmd *k);

/* ---- room.c: a room's defaults, set by its moderators ---- */
#define ROOM_SCOPE "room"                   /* their kv scope, key "network\x1froom" */
#define ROOM_KEY_MAX (2 * STORE_ID_MAX + 2) /* bytes of such a key, NUL included */
#define ROOM_PREFIX_MAX 3                   /* bytes of a room's own prefix */
typedef struct room_settings {
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
} room_settings;
/* The prefix ("" none) and colours of a room's stored words: what
   room_map.c keeps in memory. */
void room_words_own(const char *words, char prefix[ROOM_PREFIX_MAX + 1], bool *colours_off);
/* Applies rs's options to o; 0, or -1 with why (a value the engine no
   longer takes). */
int room_options_apply(const room_settings *rs, pz_options *o, char *why, size_t why_len);
/* room's defaults on the context's network (the configuration's where the
   room has none). */
void room_defaults(const ctx *c, const char *room, room_settings *rs);
/* The computer players' level of the loaded game's room. */
int room_level(const ctx *c);
/* set deadline DURATION | set level LEVEL (moderators, owners). */
void cmd_set(ctx *c, const cmd *k);
/* settings: the room's defaults. */
void cmd_settings(ctx *c, const cmd *k);

/* ---- room_map.c: the rooms' own prefixes and colours, in memory ---- */
/* Reads every room's from the store (host_new). 0, or -1 with why. */
int room_map_load(host *h, char *why, size_t why_len);
/* Sets (network, room)'s: prefix "" and colours on forget it. 0, or -1
   out of memory (unchanged). */
int room_map_put(host *h, const char *network, const char *room, const char *prefix,
                 bool colours_off);
void room_map_free(host *h);

/* ---- timers.c ---- */
/* When the clock next has to do with seat, a person to act in the loaded
   game: their deadline (prefs_deadline) or their next reminder, moved out
   of their quiet hours and vacation. */
int64_t timers_person_due(ctx *c, int seat);
int timers_tick(host *h, int64_t now);
int64_t timers_next(host *h, int64_t now);
/* When a game in this state next needs the clock, or INT64_MAX. */
int64_t timers_due(const host *h, store_status status, const settings *s, int64_t turn_since,
                   int64_t reminded);
/* A game was saved with this due time (keeps the cached next in step). */
void timers_saved(host *h, int64_t due);
/* Recomputes every active game's due time when the clock's configuration
   differs from the one they were computed with. 0, or -1 with why. */
int timers_rebuild(host *h, char *why, size_t why_len);

/* ---- flood.c ---- */
typedef enum flood_verdict {
    FLOOD_OK = 0,     /* handle the command */
    FLOOD_IGNORE = 1, /* ignore it silently: the sender was told */
    FLOOD_TELL = 2    /* ignore it, and tell the sender (once) */
} flood_verdict;
int flood_new(host *h);
void flood_free(host *h);
/* Counts one command of sender on network at now. */
flood_verdict flood_check(host *h, const char *network, const char *sender, int64_t now);
/* Whether sender may be told of a store fault now (one a minute at most). */
bool flood_fault_reply_ok(host *h, const char *network, const char *sender, int64_t now);
/* Whether sender may be reminded of the prefix in room now: not in the
   last FLOOD_HINT_SECS in that room (the last room told is kept). */
bool flood_hint_due(host *h, const char *network, const char *sender, const char *room,
                    int64_t now);
/* Records that sender was reminded of the prefix in room at now. */
void flood_hint_told(host *h, const char *network, const char *sender, const char *room,
                     int64_t now);

#endif /* PZ_HOST_INT_H */
