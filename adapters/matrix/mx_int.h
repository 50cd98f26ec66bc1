/*
 * mx_int.h — the Matrix adapter's state, shared by mx.c (lifecycle,
 * log-in, the sync loop), mx_call.c (the request engine), mx_events.c (what a sync
 * batch says), mx_rooms.c (rooms, members, direct rooms) and mx_send.c
 * (the outbox). Private to the adapter.
 *
 * Every request goes through one engine (mx__call_*): a fixed table of
 * calls, each with its kind and context. The engine retries what is worth
 * retrying — no answer, 5xx with back-off, 429 after Retry-After — parks
 * authenticated calls while the bot logs in again after a 401, and hands
 * the kind's handler only final answers: 2xx, or a 4xx that retrying will
 * not change.
 */
#ifndef PZ_MX_INT_H
#define PZ_MX_INT_H

#ifndef PZ_INSIDE_MX
#error "mx_int.h is the Matrix adapter's inside: other layers include mx.h (ARCHITECTURE.md)"
#endif

#include <json-c/json.h>

#include "mx.h"
#include "mx_crypto.h"
#include "mx_http.h"
#include "outq.h"

#define MX_ID_MAX HOST_ID_MAX         /* bytes of a room, user or event id, NUL included */
#define MX_SCOPE_MAX 48               /* "matrix:NAME" */
#define MX_TOKEN_MAX 1024             /* bytes of an access token, NUL included */
#define MX_SINCE_MAX 1024             /* bytes of a sync token, NUL included */
#define MX_URL_MAX 2048               /* bytes of a request URL, NUL included */
#define MX_CALLS_MAX 64               /* requests live or waiting to be retried */
#define MX_PENDING_MAX 131072         /* bytes of the kv record of joins and leaves under way */
#define MX_JOINS_MAX 16               /* joins and leaves on the wire at once (the rest wait) */
#define MX_INVITERS_MAX 64            /* inviters and servers whose share of joins is counted */
#define MX_CALLS_VITAL 4              /* slots kept for log-in and the sync */
#define MX_SENDS_MAX 16               /* messages (so rooms) being sent at once */
#define MX_DMS_MAX 8                  /* direct rooms being made at once */
#define MX_SEEN_PENDING_MAX 4096      /* event ids sent, waiting to be recorded as seen */
#define MX_UNPARK_MS 1000             /* a direct room not even started: parked queues again */
#define MX_ROOMS_MAX 1024             /* rooms known at once */
#define MX_PAGES_MAX 5                /* /messages pages read back to fill a gap, per room */
#define MX_GAPS_LIVE 8                /* rooms being paged back at once */
#define MX_PAGE_EVENTS 50             /* events per page, and the sync filter's timeline limit */
#define MX_SYNC_POLL_MS 30000         /* the long poll's timeout */
#define MX_HTTP_SLACK_MS 30000        /* added to it for the HTTP request's own timeout */
#define MX_REQUEST_MS 60000           /* every other request's timeout */
#define MX_BACKOFF_MIN_MS 1000        /* back-off after a failure: from 1 s */
#define MX_BACKOFF_MAX_MS 60000       /* doubling up to 60 s */
#define MX_RETRY_AFTER_MAX_MS 3600000 /* a longer Retry-After counts as an hour */
#define MX_QUIT_POLL_MS 50            /* while quitting: how often the loop looks at the sends */
#define MX_SEEN_KEEP_S (30 * 86400)   /* handled event ids are kept 30 days */
#define MX_MERGE_TEXT_MAX 16000       /* bytes of the lines told in one event */
#define MX_MODS_MAX 4096              /* bytes of a room's list of moderators */
#define MX_RECENT_CMDS 256            /* commands remembered for their edits */
#define MX_THREAD_VOLATILE_MS 10000   /* a volatile answer this soon after a threaded command */

/* A doubling back-off with jitter. */
typedef struct mx_backoff {
    int64_t next_ms; /* the next delay before jitter; 0: MX_BACKOFF_MIN_MS */
} mx_backoff;

typedef enum mx_kind {
    MX_CALL_LOGIN,
    MX_CALL_WHOAMI,
    MX_CALL_FILTER,
    MX_CALL_DIRECT_GET,
    MX_CALL_SYNC,
    MX_CALL_MESSAGES,
    MX_CALL_JOIN,
    MX_CALL_LEAVE,
    MX_CALL_SEND,
    MX_CALL_CREATE_DM,
    MX_CALL_DIRECT_PUT,
    MX_CALL_DM_CHECK,
    MX_CALL_POWER,
    MX_CALL_KEYS_UPLOAD,
    MX_CALL_XSIGN_UPLOAD,
    MX_CALL_SIGS_UPLOAD,
    MX_CALL_KEYS_QUERY,
    MX_CALL_KEYS_CLAIM,
    MX_CALL_TO_DEVICE,
    MX_CALL_MEMBERS,
    MX_CALL_KINDS
} mx_kind;

/* One request, live or waiting to be sent again, and its context. */
typedef struct mx_call {
    bool used;
    mx_kind kind;
    uint64_t req;   /* the live mx_http request, 0 when none */
    bool waiting;   /* not live: sent again at due_ms */
    bool for_auth;  /* waiting for the bot to log in again */
    int64_t due_ms; /* loop time */
    char method[8];
    char *url;  /* malloc'd */
    char *body; /* malloc'd JSON, or NULL */
    int64_t timeout_ms;
    bool auth; /* sent with the access token */
    int tries;
    unsigned gen; /* the token generation it was last sent with */
    mx_backoff backoff;
    /* context, by kind */
    char room[MX_ID_MAX];
    char user[MX_ID_MAX];
    char event[MX_ID_MAX];
    int64_t msg; /* SEND: the message's id (outq_msg.id) */
    int part;    /* SEND: which event of the message */
    int flags;   /* SEND: how many events the message makes */
} mx_call;

/* Flags of a call's context. */
#define MX_JOIN_DIRECT 1  /* JOIN: an is_direct invite: the room is the inviter's DM */
#define MX_JOIN_UPGRADE 2 /* JOIN: the replacement of an upgraded room */

/* How many joins and leaves were started for an inviter ("@a:x") or a
   server (":x"), for their turns. */
typedef struct mx_share {
    char key[MX_ID_MAX];
    unsigned count;
} mx_share;

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

/* A command handled lately, for edits: did it change anything? */
typedef struct mx_recent {
    char event[MX_ID_MAX];
    char sender[MX_ID_MAX];
    bool changed;
} mx_recent;

/* A message being sent: taken from the queue until its last event is
   accepted (or it is dropped, or goes back to the queue). */
typedef struct mx_flight {
    outq_msg *m;          /* NULL: a free slot */
    char room[MX_ID_MAX]; /* the room it goes to */
    int part;             /* the event to send next (those before were accepted) */
} mx_flight;

/* A room whose limited timeline is being paged back. */
typedef struct mx_gap {
    char room[MX_ID_MAX];
    char from[MX_SINCE_MAX];
    int pages;
    bool started; /* its first page was asked for (MX_GAPS_LIVE at once) */
    bool done;
    json_object *events; /* newest first, as the pages came */
} mx_gap;

/* The bot as an end-to-end encryption device (mx_e2ee.c). */
typedef enum mx_xstep {
    MX_X_NONE,   /* not started */
    MX_X_UPLOAD, /* the cross-signing keys being uploaded */
    MX_X_SIGN,   /* the device's signature by the self-signing key being uploaded */
    MX_X_DONE,   /* the device is cross-signed */
    MX_X_FAILED, /* it could not be: encryption stays off */
} mx_xstep;

#define MX_E2E_KEY_MAX 64               /* bytes of a base64 curve25519/ed25519 key, NUL included */
#define MX_E2E_WAITS_MAX 64             /* encrypted events waiting for their room key */
#define MX_E2E_WAIT_MS (10 * 60 * 1000) /* how long one waits */
#define MX_E2E_QUERY_MAX 100            /* users in one /keys/query */
#define MX_E2E_SHARE_MAX 100            /* devices given a room key in one /sendToDevice */
#define MX_MEGOLM_MSGS 100              /* a room key encrypts this many events */
#define MX_MEGOLM_AGE_MS (7 * 86400000LL) /* or is this old (wall clock) */
#define MX_E2E_CLAIM_RETRY_MS 3600000     /* a device without keys to claim: tried again after */
#define MX_REPLAY_WINDOW 128 /* indexes of an inbound room key remembered against replays */

/* A device of another user, its keys' self-signature checked. */
typedef struct mx_dev {
    char user[MX_ID_MAX];
    char id[MX_ID_MAX];
    char curve[MX_E2E_KEY_MAX], ed[MX_E2E_KEY_MAX];
    int64_t claim_failed; /* loop time a claim found no key; 0 none */
} mx_dev;

/* What is known of a user's device list. */
typedef struct mx_kuser {
    char user[MX_ID_MAX];
    bool known; /* queried */
    bool stale; /* changed since (device_lists.changed) */
} mx_kuser;

/* An encrypted timeline event whose room key has not come yet. */
typedef struct mx_wait {
    json_object *ev; /* NULL: a free slot */
    char room[MX_ID_MAX];
    bool commands; /* may be a command (as its batch said) */
    int64_t since; /* loop time */
} mx_wait;

typedef struct mx_e2e {
    mx_olm *olm;                /* the device's Olm account; NULL: encryption off */
    char olm_device[MX_ID_MAX]; /* the device it belongs to */
    bool ready;           /* keys uploaded and the device cross-signed: encrypted rooms served */
    bool told_off;        /* the log said why encryption is off */
    bool uploading;       /* a /keys/upload on the wire */
    bool device_sent;     /* the device keys were uploaded in this run */
    int otks_server;      /* one-time keys the server holds; -1 unknown */
    bool fallback_unused; /* the server still has an unused fallback key (as the sync says) */
    bool fallback_known;  /* a sync said so, since the last upload */
    mx_xstep xstep;
    bool hold_sync; /* the first sync waits for the device to be ready (or off) */
    mx_dev *devs;
    int ndevs, devs_cap;
    mx_kuser *users;
    int nusers, users_cap;
    mx_wait waits[MX_E2E_WAITS_MAX];
} mx_e2e;

typedef enum mx_phase {
    MX_PH_IDLE,   /* not started */
    MX_PH_LOGIN,  /* POST /login */
    MX_PH_WHOAMI, /* checking a token */
    MX_PH_FILTER, /* creating the filter */
    MX_PH_DIRECT, /* reading m.direct */
    MX_PH_SYNC,   /* syncing (and sending) */
    MX_PH_DEAD,   /* stopped for good */
} mx_phase;

struct mx_net {
    mx_env env;
    cfg_matrix c;
    char scope[MX_SCOPE_MAX];
    char base[CFG_STR]; /* homeserver URL without a trailing slash */
    mx_http *http;
    mx_phase phase;
    adapter_life life; /* the hook and the timers, started and stopped together */
    bool quitting, authed;
    bool token_from_config; /* the token in use is the configuration's */
    char token[MX_TOKEN_MAX];
    char device[MX_ID_MAX];
    char me[MX_ID_MAX];
    char filter[64];
    char since[MX_SINCE_MAX];                    /* "" before the first sync */
    char next_batch[MX_SINCE_MAX];               /* the batch being handled ends there */
    bool first_sync;                             /* the batch being handled is the first one */
    bool tried_kv, tried_config, tried_password; /* this log-in round's credentials */
    unsigned token_gen;                          /* counts successful log-ins */
    bool batch_failed; /* the store failed on the batch: its since is not saved */
    /* Syncs the homeserver refused (4xx) in a row, and the recovery: the
       filter made again once, then since dropped (starting afresh). */
    bool filter_remade; /* this run of refusals already made the filter again */
    bool filter_again;  /* the filter being made replaces a refused one */
    bool refusal_told;  /* the log said that even a fresh sync is refused */
    bool afresh;        /* the sync token was dropped (kv "afresh" too, for a restart): the
                           first sync's rooms are read back to the last event handled */
    uint64_t rng;
    mx_backoff sync_backoff;
    loop_timer timer;  /* the engine's: the next waiting call */
    loop_hook hook;    /* before sleeping: the outbox */
    loop_timer quit;   /* while quitting: wakes the loop to see whether sends are done */
    loop_timer wake;   /* the outbox side's next turn: more backlog, or the store again */
    loop_timer unpark; /* parked queues asked again (MX_UNPARK_MS) */
    /* Sending (mx_send.c). */
    outq *q;                         /* the network's outbox in memory */
    outq_watch backlog;              /* the outbox staying long above its threshold */
    mx_flight flights[MX_SENDS_MAX]; /* messages being sent */
    char ready_room[MX_ID_MAX];      /* the room the last OUTQ_SEND verdict chose */
    char (*seen)[MX_ID_MAX];         /* events sent, recorded as seen with the next flush */
    int nseen, seen_cap;
    int64_t store_hold_ms; /* the store refused: no outbox read or write before then */
    mx_backoff store_backoff;
    mx_call calls[MX_CALLS_MAX];
    json_object *direct; /* m.direct content, or NULL */
    mx_room **rooms;
    int nrooms, rooms_cap;
    /* The sync batch being handled, while gaps are paged back. */
    json_object *batch;
    mx_gap *gaps;
    int ngaps;
    int64_t rerouted;                 /* the last message sent again to a new direct room */
    mx_recent recent[MX_RECENT_CMDS]; /* a ring of the last commands (edits) */
    int recent_next;
    /* Joins and leaves (mx_call.c): each inviter and each inviter's server
       gets its turn, fewest served first; after a 429 they wait for it
       (moves_hold_ms, the moves timer) and go one at a time, the window
       doubling again with each success. */
    mx_share served[MX_INVITERS_MAX];
    int nserved;
    int moves_window;      /* joins and leaves on the wire at once, 1..MX_JOINS_MAX */
    int64_t moves_hold_ms; /* loop time: no join or leave starts before */
    loop_timer moves;      /* ends the hold */
    mx_e2e e2e;
    /* Users whose direct room could not be made: their messages are dropped. */
    char (*dm_failed)[MX_ID_MAX];
    int ndm_failed;
};

/* ---- mx_call.c: the engine and helpers ---- */

/* A new call (slot) of kind, or NULL when the table is full (logged). */
mx_call *mx__call_new(mx_net *n, mx_kind kind, const char *method, const char *url,
                      const char *body, bool auth);
/* Sends c now (or, when that fails, after a back-off). */
void mx__call_go(mx_net *n, mx_call *c);
/* Frees a call's slot (cancelling it when live). */
void mx__call_drop(mx_net *n, mx_call *c);
/* The first live or waiting call of kind whose room (and user, when not
   NULL) match; NULL none. */
mx_call *mx__call_find(mx_net *n, mx_kind kind, const char *room, const char *user);
/* Writes the URL of the API path (already encoded, "/sync?...") into out. 0 or -1. */
int mx__url(const mx_net *n, char *out, size_t cap, const char *path);
/* Percent-encodes s as one path segment or query value into out. 0 or -1 (too long). */
int mx__enc(const char *s, char *out, size_t cap);
/* The next back-off delay (doubling, with jitter). */
int64_t mx__backoff_next(mx_net *n, mx_backoff *b);
/* Whether s is an id short enough for the store ("" counts as none). */
bool mx__id_ok(const char *s);
/* Records a join of room in the kv "pending" (kept until the homeserver
   answered) and starts it in its turn (mx__pending_resume; flags, user
   (the inviter), event: the call's context). */
void mx__join_room(mx_net *n, const char *room, int flags, const char *user, const char *event);
/* The same for leaving room (why: for the log; user: the inviter whose
   invitation it declines, or NULL). */
void mx__leave_room(mx_net *n, const char *room, const char *why, const char *user);
/* A join or leave c was refused 429 after delay ms: it goes back to the kv
   record, and the others wait as long and then go one at a time. */
void mx__moves_limited(mx_net *n, mx_call *c, int64_t delay);
/* The moves timer: the hold is over. */
void mx__on_moves(loop_timer *t, void *arg);
/* Parses a JSON body (NULL when it is not a JSON object). */
json_object *mx__parse(const char *body, size_t len);
/* A string member of o, or NULL. */
const char *mx__str(json_object *o, const char *key);
/* An object / array member of o, or NULL. */
json_object *mx__obj(json_object *o, const char *key);
json_object *mx__arr(json_object *o, const char *key);
/* kv of the network's scope: 0 found, else "" in value. */
int mx__kv_get(mx_net *n, const char *key, char *value, size_t cap);
void mx__kv_set(mx_net *n, const char *key, const char *value);
/* Makes c wait delay ms before it is sent again. */
void mx__call_wait(mx_net *n, mx_call *c, int64_t delay);
/* Sends every call that waited for the bot to log in again. */
void mx__resume_parked(mx_net *n);
/* The engine's timer: sends the calls whose wait is over. */
void mx__on_timer(loop_timer *t, void *arg);
/* Starts the joins and leaves of the kv record ("pending") that no request
   carries — those a restart interrupted (restart: logged), or that waited
   for others to be over — as many as the window allows, each time for the
   server, then the inviter, with the fewest started so far (record order
   among equals): one account's flood of invitations cannot hold up
   another's. */
void mx__pending_resume(mx_net *n, bool restart);
/* Handler of JOIN and LEAVE calls. */
void mx__on_join(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_leave(mx_net *n, mx_call *c, int status, json_object *body);

/* ---- mx.c: log-in, filter, sync, lifecycle ---- */

/* Calls the handler of c's kind with a final answer (2xx, or a 4xx). */
void mx__dispatch(mx_net *n, mx_call *c, int status, json_object *body);
/* A 401 M_UNKNOWN_TOKEN for c: parks or drops it, and logs in again. */
void mx__token_refused(mx_net *n, mx_call *c);
/* The sync batch is handled: saves since, polls again. */
void mx__sync_next(mx_net *n);
/* The first sync, held back for the device (mx__e2ee_hold_sync), starts. */
void mx__sync_begin(mx_net *n);

/* ---- mx_events.c: a sync batch ---- */

/*
 * Starts handling a sync response (owned by the caller until this
 * returns): account data, invites, then joined and left rooms. When a
 * limited timeline needs paging back, keeps the batch (n->batch) and
 * returns 1; mx__gap_done finishes later. Returns 0 when handled.
 */
int mx__batch_begin(mx_net *n, json_object *sync);
/* A decrypted event of room r (from mx__e2ee_retry), as if in the timeline. */
void mx__event_decrypted(mx_net *n, mx_room *r, json_object *ev, bool commands);
/* A /messages page arrived for a gap (res NULL: paging failed). */
void mx__gap_page(mx_net *n, mx_call *c, json_object *page);
/* Frees the batch and gaps being handled. */
void mx__batch_free(mx_net *n);

/* ---- mx_rooms.c: rooms, members, direct rooms ---- */

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

/* ---- mx_e2ee.c: the bot's device ---- */

/* After a log-in: the device's Olm account read from the store (or made)
   and its keys uploaded, then its cross-signing; or encryption off, with
   the reason logged once. */
void mx__e2ee_start(mx_net *n);
/* A sync batch's keys fields: one-time keys topped up, a new fallback key. */
void mx__e2ee_sync(mx_net *n, json_object *sync);
/* Handlers of KEYS_UPLOAD, XSIGN_UPLOAD and SIGS_UPLOAD calls. */
void mx__on_keys_upload(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_xsign_upload(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_sigs_upload(mx_net *n, mx_call *c, int status, json_object *body);
/* Frees the device's state. */
void mx__e2ee_free(mx_net *n);
/* Whether the first sync must wait for the device (n->e2e.hold_sync set then). */
bool mx__e2ee_hold_sync(mx_net *n);

/* ---- mx_e2ee_devs.c: others' devices, Olm sessions, to-device messages ---- */

/* The devices of user (signature-checked), at most cap into out; how many. */
int mx__e2ee_devices(mx_net *n, const char *user, mx_dev **out, int cap);
/* Whether user's device list is known and current; when not, a
   /keys/query is started (or is under way) for it. */
bool mx__e2ee_user_ready(mx_net *n, const char *user);
/* The to-device events and device_lists of a sync batch. */
void mx__e2ee_to_device(mx_net *n, json_object *sync);
/* Olm-encrypts payload (a JSON object, not consumed) for device d: the
   m.room.encrypted to-device content (new reference) after the session is
   saved; NULL when there is no session (kv) or it fails. */
json_object *mx__e2ee_olm_for(mx_net *n, const mx_dev *d, json_object *payload);
/* Whether there is an Olm session with device d. */
bool mx__e2ee_has_session(mx_net *n, const mx_dev *d);
/* Claims one-time keys of the devices given and makes Olm sessions
   (a KEYS_CLAIM call with room as its context). */
void mx__e2ee_claim(mx_net *n, const char *room, mx_dev **devs, int ndevs);
/* Handlers of KEYS_QUERY and KEYS_CLAIM calls. */
void mx__on_keys_query(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_keys_claim(mx_net *n, mx_call *c, int status, json_object *body);

/* ---- mx_e2ee_room.c: rooms' Megolm sessions ---- */

/*
 * Whether a message can be encrypted for room now: its members and their
 * devices known, its outbound session (rotated when due) shared with every
 * current device. When not, what is missing is asked for and 0 returned;
 * 1 ready.
 */
int mx__e2ee_room_ready(mx_net *n, mx_room *r);
/* The m.room.encrypted content (malloc'd JSON) of an event of type with
   content (JSON), the room's session saved first; NULL on failure. */
char *mx__e2ee_encrypt(mx_net *n, mx_room *r, const char *type, const char *content);
/*
 * A timeline m.room.encrypted event: its decryption (a new event object:
 * the same with the decrypted type and content), or NULL — unreadable
 * (logged), or waiting for its key (kept; commands: whether it may be a
 * command) until mx__e2ee_retry finds it readable.
 */
json_object *mx__e2ee_decrypt(mx_net *n, mx_room *r, json_object *ev, bool commands);
/* Tries the waiting events again (a key came): each readable one is
   handed to mx__event_decrypted. */
void mx__e2ee_retry(mx_net *n);
/* An m.room_key from sender's device (curve, claimed ed25519): kept. */
void mx__e2ee_room_key(mx_net *n, const char *sender, const char *curve, const char *ed,
                       json_object *content);
/* A room's m.room.history_visibility content: who the room key is for. */
void mx__e2ee_history(mx_room *r, json_object *content);
/*
 * An m.room_key.withheld to-device event: the sender's client will not
 * give the bot the key to their messages. They are told privately, in
 * their language, why and what to change, once per (sender, device, code)
 * (kv "mgw:USER|DEVICE|CODE"); logged.
 */
void mx__e2ee_withheld(mx_net *n, json_object *ev);
/* Handlers of TO_DEVICE and MEMBERS calls. */
void mx__on_to_device(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_members(mx_net *n, mx_call *c, int status, json_object *body);

/* ---- mx_send.c: the outbox ---- */

/*
 * One turn of the outbox side, before the loop sleeps: reads what the
 * outbox gained (while syncing), starts sends while fewer than
 * MX_SENDS_MAX are under way, then writes the marks of what was sent (one
 * transaction). Any phase: quitting, only the marks are written.
 */
void mx__send_turn(mx_net *n);
/* Writes the marks and event ids of what was sent: one transaction. 0 or a store_err
   (kept for the next call). */
int mx__send_flush(mx_net *n);
/* Puts the adapter's expander on the queue: the host renders each message
   and the messages waiting behind it for the same room join its event. */
void mx__send_init(mx_net *n);
/* Parked queues are asked again: a join or a direct room finished. */
void mx__send_unpark(mx_net *n);
/* The timers of the outbox side (mx_net_new binds them). */
void mx__on_wake(loop_timer *t, void *arg);
void mx__on_unpark(loop_timer *t, void *arg);
/*
 * A player who sits at room's game and has no direct room yet gets one
 * made now, while the table fills, rather than at the deal, when the hands
 * and the room's line already spend the homeserver's rate limit.
 */
void mx__dm_prepare(mx_net *n, const char *room, const char *user);
/*
 * A command event id was handled in room r, said in thread (NULL: not in
 * a thread), and caused the outbox ids (lo, hi]: its answers (lines
 * without a game's header: replies, not announcements) go to the thread;
 * a command outside a thread ends that.
 */
void mx__thread_note(mx_net *n, mx_room *r, const char *thread, const char *id, int64_t lo,
                     int64_t hi);
/* Handlers of SEND, CREATE_DM and DM_CHECK calls. */
void mx__on_send(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_create_dm(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_dm_check(mx_net *n, mx_call *c, int status, json_object *body);
/*
 * Why the bot cannot reach user privately (host_msg.unreachable), or NULL:
 * the server encrypted a direct room the bot made (kv "e2e_dms") and user
 * has no unencrypted one. In a room with a game (room NULL: a private
 * line), the room is told once that private hands cannot be delivered on
 * this server.
 */
const char *mx__unreachable(mx_net *n, const char *user, const char *room);
/* Queues a notice of the adapter's own in the outbox ("" room: to a player). */
int mx__say(mx_net *n, const char *room, const char *user, const char *text);

#endif /* PZ_MX_INT_H */
