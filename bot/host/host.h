/*
 * host.h — the game host: many Porrazo games at once, one per room on any
 * number of networks, driven by chat lines and by the clock.
 *
 * An adapter turns protocol traffic into host_msg and calls host_handle();
 * the host parses the command (command.h), loads the room's game from the
 * store, asks the engine, renders what happened (render.h) and commits the
 * new state, the action log and every resulting message to the store's
 * outbox in one transaction. Adapters then send the outbox. No game is kept
 * in memory between calls: the store is the only truth, so a crash at any
 * instant loses nothing that was accepted. (The rooms' own prefixes and
 * colours are a copy in memory, read from the store at start and changed
 * only once their "set" commits.) Not here: any chat protocol.
 */
#ifndef PZ_HOST_H
#define PZ_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "i18n.h"
#include "outq.h"

typedef struct host host;
/* The store (store.h), opaque here: the program opens it and hands it to
   host_new; an adapter passes it to outq_new and reaches it through the
   host calls below, never by itself. */
typedef struct store store;

/* Bytes of a network, room or player id or a nick, NUL included (the
   store's STORE_ID_MAX). */
#define HOST_ID_MAX 128

typedef struct host_config {
    const char *prefix;   /* command prefix in rooms ("!") */
    const char *bot_name; /* how the bot calls itself ("porrazo") */
    int reminder_secs;    /* quiet time before the player to act is reminded; 0 off */
    /* A player who acted in a game less than this long ago follows its
       room and is not prompted privately at their turn; 0: always. */
    int prompt_quiet_secs;
    int deadline_secs; /* default turn deadline of new games; 0 none */
    int max_games;     /* active games at once over all rooms */
    /* Owners may stop any game and remove anyone; NULL: nobody. */
    bool (*is_owner)(void *arg, const char *network, const char *player);
    void *owner_arg;
    /* The adapter of network leaves room (an owner said part): IRC parts
       the channel and forgets it, Matrix leaves the room. 0, or -1 when the
       adapter does not know the room (the owner is told so). */
    int (*leave_room)(void *arg, const char *network, const char *room, const char *by);
    void *leave_arg;
    /* Seeds of new games: fixed (tests, demos) or from the OS when !fixed_seed. */
    bool fixed_seed;
    uint64_t seed;
    /* Flood control: a player may send flood_commands commands per
       flood_secs (a token bucket); past it they are ignored for
       flood_ignore_secs and told once. 0 commands: off. Owners never. */
    int flood_commands;
    int flood_secs;
    int flood_ignore_secs;
    /* Replies to one target (help, errors, info) are not queued while it
       already has this many messages waiting; game announcements always
       are. 0: no bound. */
    int backlog_max;
    /* After a start, "is back" goes to the games active in the last
       restart_recent_secs, at most restart_announce_max of them (the most
       recent): the others are quiet until someone speaks. 0 0: defaults
       (1 hour, 50). */
    int restart_recent_secs;
    int restart_announce_max;
    /*
     * The send queue of a network's adapter, or NULL (none: the store
     * alone). The host puts there what cannot wait for the store: the
     * reply to a command the store refused (a volatile message), and an
     * owner's purge of a target's queue.
     */
    outq *(*outq_of)(void *arg, const char *network);
    void *outq_arg;
    /*
     * The operator's log of game events, one line each, with the game's
     * id: opened, started, finished (with the scores), stopped or
     * abandoned (and by whom). Called only once the event is committed;
     * the line is valid during the call. NULL: not logged.
     */
    void (*log_event)(void *arg, const char *line);
    void *log_arg;
    /* The configured language of a room on a network (room NULL: the
       network's own default): a pz_lang, or -1 for English. NULL: English
       everywhere unless a room or a player chose. */
    int (*lang_of)(void *arg, const char *network, const char *room);
    void *lang_arg;
    /* Where an owner's export writes a game's record (mode 0600): the
       database's folder. NULL: the record goes in private lines. */
    const char *export_dir;
    /* Computer players: the level of those added without one (a level
       name, NULL: "strong"); seconds before one moves, so that people can
       follow (0: at once); the search budget in iterations (0: the
       level's own, about 100 ms for strong). */
    const char *robot_level;
    int robot_delay_secs;
    int robot_iterations;
    /* Turns in a row a person may miss (the deadline played them) before
       a computer player plays their seat until they are back; 0: never. */
    int absent_after;
    /* An open table nobody joins or leaves for this long is closed; 0: never. */
    int lobby_expiry_secs;
    /* The longest a game waits for a player who said "away" (a turn's
       deadline is put off at most this long); 0: as long as they say. */
    int away_max_secs;
    /* A lobby that fills is dealt after this many seconds, announced, so
       that someone may still get up; 0: at once. */
    int start_countdown_secs;
    /* Where the game pages are seen ([web] base_url, "https://..."): a
       game's opening and final lines and "web" carry links under it.
       NULL or "": no links. */
    const char *web_base_url;
} host_config;

/* A chat line addressed to the host. */
typedef struct host_msg {
    const char *network; /* the network's id ("libera", "console") */
    const char *room;    /* the room, or NULL/"" for a private message */
    const char *sender;  /* the player's stable id (account, or nick) */
    const char *nick;    /* the player's display name */
    const char *text;
    size_t len;
    /*
     * An id unique to this line on its network (a Matrix event id), or
     * NULL. A command whose id was handled before is ignored; otherwise
     * the id is recorded in the same transaction as the command's effects,
     * so a line delivered twice (a retried sync, a restart) acts once.
     */
    const char *once;
    /*
     * True when the adapter hands this line again by itself if the host
     * fails (Matrix: the sync batch is not acknowledged): a store fault is
     * then answered "it will be taken", not "try again".
     */
    bool retried;
    /*
     * True when the sender moderates the room (an IRC channel operator, a
     * Matrix member at the room's moderator power level or above): they may
     * do what a table's creator may (close, stop, kick).
     */
    bool moderator;
    /*
     * Why the bot cannot reach the sender privately (a Matrix server that
     * encrypts direct rooms: hands cannot be delivered), or NULL. Such a
     * sender is told why and not seated.
     */
    const char *unreachable;
    /*
     * True when the sender's private lines may wait unread until they
     * accept the bot's invitation to a direct room (a Matrix room line):
     * help asked in the room is then answered there in short, and the
     * room is told where the rest went.
     */
    bool private_waits;
} host_msg;

/* Creates a host over an open store (not owned). 0, or -1 with why. */
int host_new(host **out, store *st, const host_config *cfg, char *why, size_t why_len);
void host_free(host *h);

/*
 * Takes new settings (a configuration reload): prefix, name, reminders,
 * prompts, deadlines of new games, the game limit, flood and backlog
 * bounds, callbacks. Games under way keep their own settings; nothing is
 * written. The rooms' index is read for rooms that now speak another
 * language than their network (lang_of may have changed), and their games'
 * seats; returns 0, or -1 when that read failed (host_errmsg says why: their
 * players' private lines follow the room once they speak there).
 */
int host_reconfigure(host *h, const host_config *cfg);

/*
 * Handles one line at time `now` (unix seconds). Replies and
 * announcements go to the outbox. Returns 0, or -1 when the store failed
 * (the line's effects were rolled back; host_errmsg says why, for the
 * operator's log). The sender is then told in a short reply that goes
 * around the store (the network's outq, volatile), at most once a minute.
 * A sender over the flood limit is ignored (told once): 0.
 */
int host_handle(host *h, const host_msg *m, int64_t now);

/*
 * Runs the clock: reminders to players who have been quiet, and the
 * default play of the engine for a player whose turn deadline passed.
 * Returns 0 or -1 as host_handle.
 */
int host_tick(host *h, int64_t now);

/* When host_tick next has something to do (unix seconds), or INT64_MAX. */
int64_t host_next_tick(host *h, int64_t now);

/*
 * From now on computer players think on a worker thread (think.h), so a
 * search never holds up the caller's loop; wake(arg) is called from that
 * thread when a decision is ready (loop_wake), and host_tick applies it.
 * Without this (tests, the console) they decide inside host_tick.
 * Returns 0, or -1 when the thread cannot start (they then decide inline).
 */
int host_think_async(host *h, void (*wake)(void *arg), void *arg);

/* Stops the worker thread (before what wake uses goes away): decisions
   not yet applied are made again by the clock. Safe without one. */
void host_think_stop(host *h);

/*
 * After a start-up: tells each room with a game under way that it is
 * back and whose turn it is. Returns 0 or -1.
 */
int host_announce_restart(host *h, int64_t now);

/*
 * A player came back to a room (an IRC JOIN: a reconnect, a healed
 * netsplit): if it is their turn in the room's game, their turn prompt
 * goes to them again. Reads one game at most; 0 or -1 (store).
 */
int host_returned(host *h, const char *network, const char *room, const char *player, int64_t now);

/* A player's display name changed on a network: seats keep the player. */
int host_rename(host *h, const char *network, const char *player, const char *nick);

/*
 * The expander of the adapters' queues (outq_set_expander, arg: the
 * host): renders a game's line when it is sent — names, the state, a
 * hand — merges a game's waiting event lines and drops lines a newer one
 * made obsolete (live.c).
 */
outq_expand_result host_expand(void *arg, const outq_msg *m, char **text, int *merged);

/*
 * The command prefix of a room on a network: the one its moderators set
 * ("set prefix"), else the bot's (also for NULL or "", a private line).
 * Read from memory, cheap enough for every line; the string is the host's,
 * valid until the next command or host_reconfigure.
 */
const char *host_room_prefix(const host *h, const char *network, const char *room);

/* Whether lines to a room may carry colours: false once its moderators
   said "set colours off". From memory, as host_room_prefix. */
bool host_room_colours(const host *h, const char *network, const char *room);

/* The language of a room's lines: its own ("set lang"), else the
   configuration's for it (host_config.lang_of), else English. From memory,
   as host_room_prefix. */
pz_lang host_room_lang(const host *h, const char *network, const char *room);
/* The language of a player's private lines, the one rule of every private
   line (i18n_reader_lang): their own ("lang"), else that of room (the
   room a line is about; NULL or "": the room where they are seated or
   last gave a command), else the network's, else the bot's. From memory. */
pz_lang host_player_lang(const host *h, const char *network, const char *player, const char *room);

/* The language of a line to target: host_room_lang for MSG_ROOM, else
   host_player_lang (without a room). An adapter writes its own lines in it
   (i18n_use around its _() formatting); host_say looks its text up in it
   too, so a constant line may be given as N_("..."). */
pz_lang host_reader_lang(const host *h, const char *network, const char *target, msg_kind kind);

/* The last error message (store failures). */
const char *host_errmsg(const host *h);

/* ---- For the adapters (adapter.c) ------------------------------------- */

/*
 * A line of an adapter's own (not a command's answer: a room upgraded, a
 * room that encrypts, a stranger on a seated player's nick) queued in the
 * outbox, with what must land with it in the same transaction.
 */
typedef struct host_say_line {
    const char *network;
    const char *target; /* the room, or the player's id when private */
    msg_kind kind;
    const char *text; /* NULL: nothing queued (once and the kv value only) */
    /* An id unique on the network (a Matrix event id), or NULL: it is
       recorded as handled with the line, as host_msg.once; when it was
       handled before, nothing at all is done. */
    const char *once;
    /* A kv value set with the line (scope, key, value), or scope NULL. */
    const char *scope, *key, *value;
} host_say_line;

/*
 * Queues l->text to l->target on l->network at time now, records l->once
 * and sets the kv value, all in one transaction. Returns 1 when done, 0
 * when l->once was handled before (nothing done), or -1 when the store
 * failed (nothing done; host_errmsg says why). Strings are the caller's.
 * Must not be called from inside host_handle or host_tick.
 */
int host_say(host *h, const host_say_line *l, int64_t now);

/*
 * A room was replaced by another (a Matrix room upgrade: its tombstone
 * names new_room): the active game of old_room (lobby, playing or paused),
 * if any, moves to new_room with its seats, state and history — unless
 * new_room already has an active game, which is left alone and the old
 * one stays where it was. In the same transaction, once (the tombstone's
 * event id, or NULL) is recorded as handled and text (or NULL) is queued
 * to old_room. *game (may be NULL) is set to the id of the game moved, 0
 * when none moved. Returns 1 when done, 0 when once was handled before
 * (nothing done, *game 0), -1 when the store failed (nothing done,
 * *game untouched, host_errmsg says why). Strings are the caller's.
 */
int host_room_moved(host *h, const char *network, const char *old_room, const char *new_room,
                    const char *once, const char *text, int64_t now, int64_t *game);

/* A player seated at a table: the stable id and the display name. */
typedef struct host_player {
    char id[HOST_ID_MAX];
    char nick[HOST_ID_MAX];
} host_player;

/*
 * The players seated in the active game of room on network, in seat
 * order, into out[0..max) (caller memory; max may be 0 to ask only
 * whether the room has a game), *n how many were written (at most max;
 * a table seats at most 8). Returns 1 when the room has an active game
 * (lobby, playing or paused), 0 when it has none (*n 0), -1 when the store
 * failed (*n 0, host_errmsg says why). One indexed read of the game row and
 * one of its seats.
 */
int host_room_players(host *h, const char *network, const char *room, host_player *out, int max,
                      int *n);

/*
 * Calls fn(arg, room) for the room of each active game in which player
 * sits on network, oldest game first; fn may call the host (the rooms are
 * read before the first call; room is valid during the call). Stops at
 * fn's first non-0 and returns it; else 0, or -1 when the store failed
 * (host_errmsg says why).
 */
int host_player_rooms(host *h, const char *network, const char *player,
                      int (*fn)(void *arg, const char *room), void *arg);

/*
 * The actions recorded so far in the games a command may move: the active
 * game of room on network, or with room NULL every active game where
 * player sits there. Compared before and after host_handle, it says
 * whether a command made a move. Into *count; 0, or -1 when the store
 * failed (*count untouched).
 */
int host_moves(host *h, const char *network, const char *room, const char *player, int64_t *count);

/*
 * Whether the line with this id (unique on network: a Matrix event id) was
 * recorded as handled (host_msg.once, host_say, outq_flush_done_seen),
 * into *seen. 0, or -1 when the store failed (*seen untouched).
 */
int host_seen(host *h, const char *network, const char *id, bool *seen);

/* Forgets the handled ids recorded before time before, on every network,
   and says how many in *n (may be NULL). 0, or -1 when the store failed. */
int host_seen_prune(host *h, int64_t before, int *n);

/*
 * An adapter's own small values in the store, kept across restarts (a
 * Matrix sync token, access token, device and filter ids; IRC's nicks and
 * invited channels), in scope (the adapter's, "KIND:NAME", e.g.
 * "matrix:NAME"), one text value per key.
 *
 * host_kv_get copies key's value into value[cap] and returns 0; 1 when the
 * key is unset (value ""), -1 when the store failed or the value does not
 * fit cap (value "", host_errmsg says why). host_kv_set writes value ("" is
 * a value, kept): 0, or -1 when the store failed. The values may be
 * secrets: the host never logs them. The host's own scopes ("leaving",
 * "review", ...: none has a colon) are refused, -1 with host_errmsg saying
 * so, nothing read or written: an adapter reaches only adapters' scopes.
 */
int host_kv_get(host *h, const char *scope, const char *key, char *value, size_t cap);
int host_kv_set(host *h, const char *scope, const char *key, const char *value);

/*
 * host_kv_hold: the host_kv_set calls from now until host_kv_release land
 * in one transaction, opened at the first of them (none if nothing is
 * written) and committed by host_kv_release without an fsync of its own
 * (store_begin_relaxed). For values that must outlive the process but
 * matter only with a later command's writes (IRC's nick bound to a
 * user@host guards a seat, which a command takes): the commit is written
 * to the -wal before host_kv_release returns, so a SIGKILL afterwards
 * finds it, and the next fsynced commit (every command that writes makes
 * one) makes it safe from a power cut too, the -wal being one file
 * written in order. A failed write is undone alone, as without the hold.
 * Between the two, only host_kv_get, host_kv_set and host_player_rooms
 * may be called; a hold cannot nest. host_kv_release: 0, or -1 when the
 * commit failed (nothing of the hold written, host_errmsg says why).
 */
void host_kv_hold(host *h);
int host_kv_release(host *h);

/*
 * Whether player (on network) said "notices on": their private lines go by
 * NOTICE on IRC. The host answers from one indexed read of its own kv
 * (no write, no transaction); false when the store fails.
 */
bool host_wants_notice(host *h, const char *network, const char *player);

/*
 * Writes the porrazo-replay scenario of a game (players, options, dealer,
 * seed, actions) as JSON into a malloc'd string (*out, caller frees).
 * 0, or -1 (unknown game, store failure) with why.
 */
int host_export(store *st, int64_t game, char **out, char *why, size_t why_len);

#endif /* PZ_HOST_H */
