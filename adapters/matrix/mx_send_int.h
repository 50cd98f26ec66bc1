/*
 * mx_send_int.h — the Matrix adapter's outbox side (mx_send.c): messages
 * in flight, the seen marks, direct rooms made for players, threads.
 */
#ifndef PZ_MX_SEND_INT_H
#define PZ_MX_SEND_INT_H

#ifndef PZ_INSIDE_MX
#error "mx_send_int.h is the Matrix adapter's inside: other layers include mx.h (ARCHITECTURE.md)"
#endif

#include "mx_rooms_int.h"
#include "outq.h"

#define MX_SENDS_MAX 16             /* messages (so rooms) being sent at once */
#define MX_DMS_MAX 8                /* direct rooms being made at once */
#define MX_SEEN_PENDING_MAX 4096    /* event ids sent, waiting to be recorded as seen */
#define MX_UNPARK_MS 1000           /* a direct room not even started: parked queues again */
#define MX_MERGE_TEXT_MAX 16000     /* bytes of the lines told in one event */
#define MX_THREAD_VOLATILE_MS 10000 /* a volatile answer this soon after a threaded command */

/* A message being sent: taken from the queue until its last event is
   accepted (or it is dropped, or goes back to the queue). */
typedef struct mx_flight {
    outq_msg *m;          /* NULL: a free slot */
    char room[MX_ID_MAX]; /* the room it goes to */
    int part;             /* the event to send next (those before were accepted) */
} mx_flight;

typedef struct mx_send_st {
    outq *q;                         /* the network's outbox in memory */
    outq_watch backlog;              /* the outbox staying long above its threshold */
    mx_flight flights[MX_SENDS_MAX]; /* messages being sent */
    char ready_room[MX_ID_MAX];      /* the room the last OUTQ_SEND verdict chose */
    char (*seen)[MX_ID_MAX];         /* events sent, recorded as seen with the next flush */
    int nseen, seen_cap;
    int64_t store_hold_ms; /* the store refused: no outbox read or write before then */
    mx_backoff store_backoff;
    int64_t rerouted;  /* the last message sent again to a new direct room */
    loop_timer wake;   /* the outbox side's next turn: more backlog, or the store again */
    loop_timer unpark; /* parked queues asked again (MX_UNPARK_MS) */
    /* Users whose direct room could not be made: their messages are dropped. */
    char (*dm_failed)[MX_ID_MAX];
    int ndm_failed;
} mx_send_st;

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
/* ---- mx_send_dm.c: direct rooms made for players ---- */

/* Whether user's direct room could not be made (their messages are dropped). */
bool mx__dm_failed(mx_net *n, const char *user);
/*
 * Starts making user's direct room, unless that is under way or MX_DMS_MAX
 * are (the one that ends unparks the queues). When no request can be made
 * now, the queues are asked again after MX_UNPARK_MS.
 */
void mx__dm_make(mx_net *n, const char *user);
/* Handlers of SEND (mx_send.c), CREATE_DM and DM_CHECK calls. */
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

#endif /* PZ_MX_SEND_INT_H */
