/*
 * outq.h — one network's outbox in memory: a queue per target (a room or
 * a player), round robin across the targets with something to send (hands,
 * then rooms' lines, before the rest), and the marks of what was sent
 * written back in batches.
 *
 * The store's outbox stays the truth (a crash loses nothing); outq mirrors
 * it so that an adapter never scans it: outq_load() reads only the rows
 * added since its last read (one indexed range, and nothing at all when
 * store_outbox_version() did not move). An adapter takes the next message
 * with outq_take(), writes it, and says outq_sent(); the ids sent are
 * deleted from the store together, one transaction per outq_flush_done(),
 * never one per message. Within a target, messages of higher priority go
 * first (hands: 1), then in outbox order; across targets, those whose
 * next message has a higher priority go first (but never more than four in
 * a row while others wait), then rooms' messages before private ones (but
 * never more than three in a row while private ones wait: a crowd asking
 * for help privately cannot make a room's game wait), then within each of
 * those each target in turn, so one busy target never delays another of
 * its kind by more than one message.
 *
 * A target holds at most one message taken at a time (an adapter writes a
 * target's messages in order); a target may be parked (a channel not yet
 * joined, a direct room being made) and is skipped until unparked.
 * Volatile messages (outq_add_volatile) live only here: replies that could
 * not be stored because the store failed. Not here: protocols, pacing.
 */
#ifndef PZ_OUTQ_H
#define PZ_OUTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg_kind.h"

typedef struct outq outq;
/* The store (store.h), opaque here: outq_new reads and writes its outbox;
   an adapter only passes the pointer it was given along. */
typedef struct store store;

/* A message in the queue. Valid until outq_sent, outq_drop or outq_free. */
typedef struct outq_msg {
    int64_t id;         /* the outbox row id; < 0 for a volatile message */
    const char *target; /* a room, or a player id (the store's target) */
    msg_kind kind;
    int priority;
    int64_t created;
    uint64_t seq; /* the order in which this queue learnt of its messages */
    char txn[40]; /* unique per message (the store's txn; "pzv-..." when volatile) */
    /*
     * The text to write, NUL-terminated: once outq_take offered the
     * message, what the expander made of it (see outq_set_expander), else
     * the text as stored (raw).
     */
    const char *text;
    struct outq_msg *next;   /* outq's own; an expander may read it (later messages) */
    struct outq_msg *merged; /* outq's own: later messages told in this one's text */
    /*
     * How many messages the text tells besides this one (0: none). A
     * protocol that makes sends idempotent by a transaction id (Matrix)
     * puts it in the id: a message re-sent after a crash with more merged
     * into it is a new send, not the one the server already has.
     */
    int nmerged;
    char *expanded; /* outq's own: the expander's text, or NULL */
    char raw[];     /* the text as stored, NUL-terminated */
} outq_msg;

/* Creates an empty queue for network over st (not owned). 0 or -1. */
int outq_new(outq **out, store *st, const char *network);
void outq_free(outq *q);

/*
 * Reads the outbox rows of the network added since the last load (all of
 * them the first time), unless store_outbox_version() says nothing
 * changed; at most a few thousand rows per call, so a huge backlog never
 * holds the loop up. Returns 0 when everything was read, 1 when more rows
 * remain (call again soon: the adapter arms a timer), or a store_err (the
 * rows are read again next time).
 */
int outq_load(outq *q);
/*
 * Reads every row added since the first load (not the rest of a restart's
 * backlog, which always goes before them in each target's queue): after
 * it, a volatile message added to a target comes after every row committed
 * for it. 0 or a store_err.
 */
int outq_load_fresh(outq *q);

/* What an adapter's ready callback says of a message outq_take offers. */
typedef enum outq_verdict {
    OUTQ_SEND = 0, /* take it: the target is busy until outq_sent/untake */
    OUTQ_PARK = 1, /* not now: skip the target until outq_unpark(_all) */
    OUTQ_DROP = 2  /* it can never go: marked sent (the caller logs why) */
} outq_verdict;
typedef outq_verdict (*outq_ready_fn)(void *arg, const outq_msg *m);

/*
 * The next message to write, or NULL when no target that is neither busy
 * nor parked has one. ready (may be NULL: always OUTQ_SEND) is asked about
 * each candidate in turn.
 */
outq_msg *outq_take(outq *q, outq_ready_fn ready, void *arg);
/* m (taken) was written: it leaves the queue, its id joins the batch of
   marks for outq_flush_done, and its target may give its next message. */
void outq_sent(outq *q, outq_msg *m);
/* m (taken) goes back to the front of its target (a disconnect, a retry). */
void outq_untake(outq *q, outq_msg *m);
/* Every taken message back to the front of its target. */
void outq_untake_all(outq *q);

/*
 * An expander renders a message when it is about to be written rather
 * than when it was queued: a line that shows the state of a game shows it
 * as it is at that moment, names are the names people have then, and a
 * line that a newer one made obsolete is never written at all.
 *
 * outq_take calls it for the message m it is about to offer, whose raw
 * text is m->raw; m->next is the first message queued after m for the
 * same target and priority (then its ->next, and so on: read only). It
 * returns one of:
 *   OUTQ_EXPAND_ASIS  write m->raw unchanged;
 *   OUTQ_EXPAND_TEXT  write *text (malloc'd; outq frees it), which also
 *                     tells the first *merged messages after m: they leave
 *                     the queue with m (sent with it, or given back with it);
 *   OUTQ_EXPAND_DROP  m is obsolete: it is marked sent unwritten and the
 *                     target's next message is considered.
 * An expander must not call outq functions on the same queue.
 */
typedef enum outq_expand_result {
    OUTQ_EXPAND_ASIS = 0,
    OUTQ_EXPAND_TEXT = 1,
    OUTQ_EXPAND_DROP = 2
} outq_expand_result;
typedef outq_expand_result (*outq_expand_fn)(void *arg, const outq_msg *m, char **text,
                                             int *merged);
/* Sets (or with NULL removes) the queue's expander. */
void outq_set_expander(outq *q, outq_expand_fn fn, void *arg);

/* Unparks a target (exact bytes; an unknown one: nothing). Targets are
   parked by a ready callback's OUTQ_PARK. */
void outq_unpark(outq *q, const char *target);
void outq_unpark_all(outq *q);

/*
 * Writes the marks of every message sent since the last call: one
 * transaction. Returns 0, or a store_err with the marks kept for the next
 * call (the messages are not sent again by this process).
 */
int outq_flush_done(outq *q);
/*
 * outq_flush_done with the caller's own writes in the same transaction:
 * also(arg, st) runs first inside it (e.g. the event ids a homeserver gave
 * the messages sent), then the marks; the marks are forgotten only once
 * the transaction committed. It runs even with no marks pending. Must not
 * be called inside store_begin. Returns 0, or also's error or a store_err
 * with nothing written and the marks kept for the next call.
 */
typedef int (*outq_also_fn)(void *arg, store *st);
int outq_flush_done_with(outq *q, outq_also_fn also, void *arg);
/*
 * outq_flush_done with the lines already handled of the queue's network
 * recorded in the same transaction: ids (n NUL-terminated strings, the
 * i-th at ids + i * stride; e.g. the event ids a homeserver gave the
 * messages sent) are recorded at time now as host_msg.once ids are, so
 * that a server's echo of them is known for the bot's own. An id already
 * recorded is kept as it is. ids and its strings stay the caller's. Must
 * not be called inside a transaction. Returns 0, or a store_err with
 * nothing written and the marks kept for the next call (the ids are the
 * caller's to give again).
 */
int outq_flush_done_seen(outq *q, const char *ids, size_t stride, int n, int64_t now);
/* Marks waiting for outq_flush_done. */
size_t outq_done_pending(const outq *q);

/*
 * Queues a message that exists only in memory (not in the store): the
 * answer to a command the store could not take, or to one that changes
 * nothing (hand, table, help...: asked again if a crash loses it), which
 * thus costs no write and no fsync. Bounded: beyond
 * OUTQ_VOLATILE_MAX such messages it is refused (-1). 0 or -1.
 */
#define OUTQ_VOLATILE_MAX 4096
int outq_add_volatile(outq *q, const char *target, msg_kind kind, int priority, const char *text);

/*
 * Forgets every queued (not taken) message to target, in memory and in the
 * store, into *n (may be NULL). 0 or a store_err (memory untouched then).
 */
int outq_purge(outq *q, const char *target, int *n);

/*
 * The largest id in the store's outbox of the queue's network into *id (0
 * when it is empty): an adapter that reads it before and after handing a
 * line to the host knows which rows that line made (ids only grow).
 * Returns 0, or a store_err with *id untouched.
 */
int outq_last_id(outq *q, int64_t *id);

/* The message of the store's last error, for the operator's log after an
   outq call returned one (never NULL; the store's, valid until its next
   call). */
const char *outq_errmsg(const outq *q);
/* True for the errors outq calls return that pass by themselves (busy, a
   full disk, I/O): the call may be made again later with nothing lost. */
bool outq_err_transient(int err);

/* Messages queued (taken ones included), over all targets / to one. */
size_t outq_count(const outq *q);
size_t outq_target_count(const outq *q, const char *target);
/* Targets with messages queued. */
size_t outq_targets(const outq *q);

/*
 * A watch on a queue's length for the operator: a queue that stays above
 * OUTQ_WATCH_COUNT messages for OUTQ_WATCH_MS means the network takes
 * lines more slowly than the games make them. Caller memory, zeroed to
 * start.
 */
#define OUTQ_WATCH_COUNT 500
#define OUTQ_WATCH_MS 60000
typedef struct outq_watch {
    int64_t above_since; /* when count went above the threshold; -1: it is not */
    bool warned;         /* this episode was reported */
} outq_watch;

/* Starts a watch with the queue under the threshold. */
void outq_watch_init(outq_watch *w);

/*
 * Notes the queue's count at now_ms. Returns 1 once per episode, when the
 * count has stayed above OUTQ_WATCH_COUNT for OUTQ_WATCH_MS (warn); -1
 * when it comes back to the threshold or under after a warning (the
 * episode is over); 0 otherwise.
 */
int outq_watch_check(outq_watch *w, size_t count, int64_t now_ms);

#endif /* PZ_OUTQ_H */
