/*
 * mx_sync.h — the sync loop's state (mx.c polls, mx_events.c handles
 * what a batch says): the token, the filter, the batch being handled
 * while gaps are paged back, the commands remembered for their edits.
 */
#ifndef PZ_MX_SYNC_H
#define PZ_MX_SYNC_H

#ifndef PZ_INSIDE_MX
#error "mx_sync.h is the Matrix adapter's inside: other layers include mx.h (ARCHITECTURE.md)"
#endif

#include "mx_rooms_int.h"

#define MX_SINCE_MAX 1024           /* bytes of a sync token, NUL included */
#define MX_PAGES_MAX 5              /* /messages pages read back to fill a gap, per room */
#define MX_GAPS_LIVE 8              /* rooms being paged back at once */
#define MX_PAGE_EVENTS 50           /* events per page, and the sync filter's timeline limit */
#define MX_SYNC_POLL_MS 30000       /* the long poll's timeout */
#define MX_HTTP_SLACK_MS 30000      /* added to it for the HTTP request's own timeout */
#define MX_SEEN_KEEP_S (30 * 86400) /* handled event ids are kept 30 days */
#define MX_RECENT_CMDS 256          /* commands remembered for their edits */

/* A command handled lately, for edits: did it change anything? */
typedef struct mx_recent {
    char event[MX_ID_MAX];
    char sender[MX_ID_MAX];
    bool changed;
} mx_recent;

/* A room whose limited timeline is being paged back. */
typedef struct mx_gap {
    char room[MX_ID_MAX];
    char from[MX_SINCE_MAX];
    int pages;
    bool started; /* its first page was asked for (MX_GAPS_LIVE at once) */
    bool done;
    json_object *events; /* newest first, as the pages came */
} mx_gap;

typedef struct mx_sync_st {
    char filter[64];
    char since[MX_SINCE_MAX];      /* "" before the first sync */
    char next_batch[MX_SINCE_MAX]; /* the batch being handled ends there */
    bool first_sync;               /* the batch being handled is the first one */
    bool batch_failed;             /* the store failed on the batch: its since is not saved */
    /* Syncs the homeserver refused (4xx) in a row, and the recovery: the
       filter made again once, then since dropped (starting afresh). */
    bool filter_remade; /* this run of refusals already made the filter again */
    bool filter_again;  /* the filter being made replaces a refused one */
    bool refusal_told;  /* the log said that even a fresh sync is refused */
    bool afresh;        /* the sync token was dropped (kv "afresh" too, for a restart): the
                           first sync's rooms are read back to the last event handled */
    mx_backoff backoff;
    /* The sync batch being handled, while gaps are paged back. */
    json_object *batch;
    mx_gap *gaps;
    int ngaps;
    mx_recent recent[MX_RECENT_CMDS]; /* a ring of the last commands (edits) */
    int recent_next;
} mx_sync_st;

/* ---- mx.c: the sync loop ---- */

/* The sync batch is handled: saves since, polls again. */
void mx__sync_next(mx_net *n);
/* The first sync, held back for the device (mx__e2ee_hold_sync), starts. */
void mx__sync_begin(mx_net *n);

/* ---- mx_events.c: a sync batch ---- */

/*
 * Starts handling a sync response (owned by the caller until this
 * returns): account data, invites, then joined and left rooms. When a
 * limited timeline needs paging back, keeps the batch (n->sync.batch) and
 * returns 1; mx__gap_done finishes later. Returns 0 when handled.
 */
int mx__batch_begin(mx_net *n, json_object *sync);
/* A decrypted event of room r (from mx__e2ee_retry), as if in the timeline. */
void mx__event_decrypted(mx_net *n, mx_room *r, json_object *ev, bool commands);
/* A /messages page arrived for a gap (res NULL: paging failed). */
void mx__gap_page(mx_net *n, mx_call *c, json_object *page);
/* Frees the batch and gaps being handled. */
void mx__batch_free(mx_net *n);

#endif /* PZ_MX_SYNC_H */
