/*
 * outq_int.h — the outbox's inside, shared by outq.c (targets, rings,
 * loading, taking) and outq_marks.c (the sent messages' marks written to
 * the store, the queue's watch): the structs of a queue and its targets.
 */
#ifndef PZ_OUTQ_INT_H
#define PZ_OUTQ_INT_H

#ifndef PZ_INSIDE_OUTBOX
#error "outq_int.h is the outbox's inside: other layers include outq.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outq.h"
#include "store.h"

enum {
    RING_NONE = -1,
    RING_NORMAL = 0, /* private text (help, replies to private commands...) */
    RING_ROOM = 1,   /* a room's lines: the game and replies in the room */
    RING_URGENT = 2, /* hands */
    RING_PARKED = 3,
    RINGS = 4
};

typedef struct tgt {
    struct tgt *hnext;         /* hash chain */
    struct tgt *rprev, *rnext; /* ring or parked list */
    int ring;                  /* RING_* */
    bool parked;
    outq_msg *uhead, *utail; /* priority > 0, in order */
    outq_msg *nhead, *ntail; /* priority 0 (and below), in order */
    outq_msg *uold, *nold;   /* the last backlog message of each list, or NULL */
    outq_msg *taken;         /* the message being written, or NULL */
    size_t count;            /* queued + taken */
    uint32_t hash;
    char name[]; /* the target's bytes, NUL-terminated */
} tgt;

struct outq {
    store *st;
    char network[STORE_ID_MAX];
    tgt **buckets;
    size_t nbuckets, ntargets;
    tgt *head[RINGS], *tail[RINGS];
    int64_t last_id;     /* the backlog read up to this id (the rows there at the start) */
    int64_t backlog_end; /* the largest id at the first load: the backlog ends there */
    int64_t fresh_id;    /* the rows added since the start read up to this id */
    bool started;        /* backlog_end is known */
    uint64_t version;    /* store_outbox_version at the last complete read */
    bool stale;          /* read again whatever the version */
    int64_t *done;       /* ids sent, not yet deleted from the store */
    size_t ndone, capdone;
    size_t count;
    size_t nvolatile;
    int64_t volatile_seq;
    uint64_t nonce; /* makes volatile txns differ between runs */
    int urgent_run; /* urgent messages taken in a row while others wait */
    int room_run;   /* room messages taken since the last private one */
    store_msg *buf; /* LOAD_BATCH rows */
    uint64_t seq;   /* the last outq_msg.seq given */
    outq_expand_fn expand;
    void *expand_arg;
};

#endif /* PZ_OUTQ_INT_H */
