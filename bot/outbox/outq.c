/*
 * outq.c — one network's outbox in memory (see outq.h).
 *
 * Targets live in a chained hash table keyed by their exact bytes. A
 * target with messages that is neither busy (one message taken) nor parked
 * sits in one of two rings — "urgent" when its next message has a
 * priority above 0, else "normal" — and outq_take serves the urgent ring
 * first (but one normal message after every URGENT_RUN_MAX urgent ones),
 * each ring from its head; a target goes back to the tail when its
 * message is sent, which makes the round robin. Parked targets sit on a
 * list of their own, so unparking them all never walks the whole table.
 * A target with nothing queued, taken or parked is freed: memory follows
 * the backlog, not the history. Not here: the store's SQL (store_outbox.c).
 */
#include "outq_int.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store.h"

#define LOAD_BATCH 256 /* rows per store_outbox_since */
#define LOAD_MAX 8192  /* rows per outq_load call: a huge backlog loads over turns */
#define BUCKETS_MIN 64
#define URGENT_RUN_MAX 4 /* then one other message, so hands never starve the rest */
#define ROOM_RUN_MAX 3   /* then one private message, so busy rooms never starve replies */

/* FNV-1a over the target's bytes. */
static uint32_t hash_of(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s != '\0'; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static tgt *owner_of(const outq_msg *m)
{
    return (tgt *)(void *)((char *)(uintptr_t)m->target - offsetof(tgt, name));
}

int outq_new(outq **out, store *st, const char *network)
{
    outq *q = calloc(1, sizeof *q);
    if (q == NULL)
        return -1;
    q->buckets = calloc(BUCKETS_MIN, sizeof *q->buckets);
    q->buf = malloc(LOAD_BATCH * sizeof *q->buf);
    if (q->buckets == NULL || q->buf == NULL || strlen(network) >= sizeof q->network) {
        free(q->buckets);
        free(q->buf);
        free(q);
        return -1;
    }
    q->nbuckets = BUCKETS_MIN;
    q->st = st;
    snprintf(q->network, sizeof q->network, "%s", network);
    for (int r = 0; r < RINGS; r++)
        q->head[r] = q->tail[r] = NULL;
    q->stale = true;
    q->nonce = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)q;
    *out = q;
    return 0;
}

/* Frees m, its expanded text and the messages merged into it. */
static void msg_free(outq_msg *m)
{
    while (m != NULL) {
        outq_msg *merged = m->merged;
        free(m->expanded);
        free(m);
        m = merged;
    }
}

static void free_list(outq_msg *m)
{
    while (m != NULL) {
        outq_msg *next = m->next;
        msg_free(m);
        m = next;
    }
}

void outq_set_expander(outq *q, outq_expand_fn fn, void *arg)
{
    q->expand = fn;
    q->expand_arg = arg;
}

void outq_free(outq *q)
{
    if (q == NULL)
        return;
    for (size_t i = 0; i < q->nbuckets; i++) {
        tgt *t = q->buckets[i];
        while (t != NULL) {
            tgt *next = t->hnext;
            free_list(t->uhead);
            free_list(t->nhead);
            msg_free(t->taken);
            free(t);
            t = next;
        }
    }
    free(q->buckets);
    free(q->done);
    free(q->buf);
    free(q);
}

/* ---- Targets ------------------------------------------------------------ */

static tgt *find(const outq *q, const char *name, uint32_t h)
{
    for (tgt *t = q->buckets[h & (q->nbuckets - 1)]; t != NULL; t = t->hnext)
        if (t->hash == h && strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

/* Doubles the table when it is full (load factor 1); keeps it on failure. */
static void grow(outq *q)
{
    size_t n = q->nbuckets * 2;
    tgt **b = calloc(n, sizeof *b);
    if (b == NULL)
        return;
    for (size_t i = 0; i < q->nbuckets; i++) {
        tgt *t = q->buckets[i];
        while (t != NULL) {
            tgt *next = t->hnext;
            t->hnext = b[t->hash & (n - 1)];
            b[t->hash & (n - 1)] = t;
            t = next;
        }
    }
    free(q->buckets);
    q->buckets = b;
    q->nbuckets = n;
}

/* The target named name, made when absent (NULL out of memory). */
static tgt *target(outq *q, const char *name)
{
    uint32_t h = hash_of(name);
    tgt *t = find(q, name, h);
    if (t != NULL)
        return t;
    size_t len = strlen(name);
    t = calloc(1, sizeof *t + len + 1);
    if (t == NULL)
        return NULL;
    memcpy(t->name, name, len + 1);
    t->hash = h;
    t->ring = RING_NONE;
    if (q->ntargets >= q->nbuckets)
        grow(q);
    t->hnext = q->buckets[h & (q->nbuckets - 1)];
    q->buckets[h & (q->nbuckets - 1)] = t;
    q->ntargets++;
    return t;
}

static void unring(outq *q, tgt *t)
{
    if (t->ring == RING_NONE)
        return;
    if (t->rprev != NULL)
        t->rprev->rnext = t->rnext;
    else
        q->head[t->ring] = t->rnext;
    if (t->rnext != NULL)
        t->rnext->rprev = t->rprev;
    else
        q->tail[t->ring] = t->rprev;
    t->rprev = t->rnext = NULL;
    t->ring = RING_NONE;
}

static void enring(outq *q, tgt *t, int ring)
{
    t->ring = ring;
    t->rnext = NULL;
    t->rprev = q->tail[ring];
    if (q->tail[ring] != NULL)
        q->tail[ring]->rnext = t;
    else
        q->head[ring] = t;
    q->tail[ring] = t;
}

/* Removes t from the table and frees it (it holds nothing). */
static void drop_target(outq *q, tgt *t)
{
    tgt **p = &q->buckets[t->hash & (q->nbuckets - 1)];
    while (*p != t)
        p = &(*p)->hnext;
    *p = t->hnext;
    q->ntargets--;
    free(t);
}

/* The ring of a target whose next message is t->nhead (priority 0). */
static int ring_of_normal(const tgt *t)
{
    return t->nhead->kind == STORE_MSG_ROOM ? RING_ROOM : RING_NORMAL;
}

/*
 * Puts t where its state says: the parked list, the tail of the urgent,
 * room or normal ring, nowhere while busy, or freed when it holds nothing
 * at all.
 */
static void place(outq *q, tgt *t)
{
    unring(q, t);
    if (t->count == 0 && t->taken == NULL) {
        drop_target(q, t);
        return;
    }
    if (t->parked)
        enring(q, t, RING_PARKED);
    else if (t->taken == NULL && t->uhead != NULL)
        enring(q, t, RING_URGENT);
    else if (t->taken == NULL && t->nhead != NULL)
        enring(q, t, ring_of_normal(t));
}

/* Whether m is one of the rows the outbox held when this queue started. */
static bool is_backlog(const outq *q, const outq_msg *m)
{
    return m->id > 0 && m->id <= q->backlog_end;
}

/*
 * Links m into its list in t: at the front (a message given back), at the
 * end (a new row), or, for a backlog row, after the last backlog message,
 * so each list stays in outbox order while new rows and the backlog are
 * read side by side.
 */
typedef enum link_at { AT_FRONT, AT_END, AT_BACKLOG } link_at;
static void link_msg(const outq *q, tgt *t, outq_msg *m, link_at at)
{
    outq_msg **head = m->priority > 0 ? &t->uhead : &t->nhead;
    outq_msg **tail = m->priority > 0 ? &t->utail : &t->ntail;
    outq_msg **old = m->priority > 0 ? &t->uold : &t->nold;
    if (at == AT_BACKLOG && *old != NULL) {
        m->next = (*old)->next;
        (*old)->next = m;
        if (*tail == *old)
            *tail = m;
        *old = m;
    } else if (at != AT_END) {
        m->next = *head;
        *head = m;
        if (*tail == NULL)
            *tail = m;
        if (*old == NULL && (at == AT_BACKLOG || is_backlog(q, m)))
            *old = m;
    } else {
        m->next = NULL;
        if (*tail != NULL)
            (*tail)->next = m;
        else
            *head = m;
        *tail = m;
    }
}

/* Unlinks the head message of t (the one outq_take offered). */
static outq_msg *unlink_head(tgt *t)
{
    outq_msg **head = t->uhead != NULL ? &t->uhead : &t->nhead;
    outq_msg **tail = t->uhead != NULL ? &t->utail : &t->ntail;
    outq_msg **old = t->uhead != NULL ? &t->uold : &t->nold;
    outq_msg *m = *head;
    *head = m->next;
    if (*head == NULL)
        *tail = NULL;
    if (*old == m)
        *old = NULL;
    m->next = NULL;
    return m;
}

/* Queues a new message (a backlog row when backlog); -1 out of memory. */
static int add(outq *q, int64_t id, const char *target_name, store_msg_kind kind, int priority,
               int64_t created, const char *txn, const char *text, bool backlog)
{
    tgt *t = target(q, target_name);
    if (t == NULL)
        return -1;
    size_t len = strlen(text);
    outq_msg *m = malloc(sizeof *m + len + 1);
    if (m == NULL) {
        place(q, t);
        return -1;
    }
    m->id = id;
    m->target = t->name;
    m->kind = kind;
    m->priority = priority;
    m->created = created;
    m->seq = ++q->seq;
    snprintf(m->txn, sizeof m->txn, "%s", txn);
    memcpy(m->raw, text, len + 1);
    m->text = m->raw;
    m->merged = NULL;
    m->nmerged = 0;
    m->expanded = NULL;
    link_msg(q, t, m, backlog ? AT_BACKLOG : AT_END);
    t->count++;
    q->count++;
    if ((t->ring == RING_NORMAL || t->ring == RING_ROOM) && priority > 0)
        unring(q, t); /* it now has something urgent: move it */
    if (t->ring == RING_NONE)
        place(q, t);
    return 0;
}

/* ---- Loading ------------------------------------------------------------ */

/*
 * Reads rows above *cursor (up to upto when it is not 0: the backlog) into
 * q, adding to *total; stops at LOAD_MAX rows in all. 0 when every such
 * row is read (*cursor at the last, or at upto), 1 when more remain, or a
 * store_err.
 */
static int load_rows(outq *q, int64_t *cursor, int64_t upto, int *total)
{
    while (*total < LOAD_MAX) {
        int n = 0;
        int rc = store_outbox_since(q->st, q->network, *cursor, q->buf, LOAD_BATCH, &n);
        if (rc != 0)
            return rc;
        for (int i = 0; i < n; i++) {
            const store_msg *m = &q->buf[i];
            if (upto > 0 && m->id > upto) {
                *cursor = upto; /* the rest is new: the other cursor's */
                return 0;
            }
            if (add(q, m->id, m->target, m->kind, m->priority, m->created, m->txn, m->text,
                    upto > 0) != 0)
                return STORE_ERROR; /* this row and the rest next time */
            *cursor = m->id;
        }
        *total += n;
        if (n < LOAD_BATCH) {
            if (upto > 0)
                *cursor = upto;
            return 0;
        }
    }
    return 1;
}

/*
 * Two cursors: the rows added since the start are read first and whole
 * (a reply to a command is never read after a restart's backlog), then the
 * backlog the outbox held at the first load, up to LOAD_MAX rows in all per
 * call, so it comes in over several turns.
 */
/* The first load: where the backlog ends. 0 or a store_err. */
static int start(outq *q)
{
    if (q->started)
        return 0;
    int rc = store_outbox_last_id(q->st, q->network, &q->backlog_end);
    if (rc == 0) {
        q->fresh_id = q->backlog_end;
        q->started = true;
    }
    return rc;
}

int outq_load_fresh(outq *q)
{
    /* outq_load read every row to the store's last change of the outbox:
       none since then is new (a read-only command's reply reads no row) */
    if (q->started && !q->stale && q->version == store_outbox_version(q->st))
        return 0;
    int rc = start(q), total;
    while (rc == 0 && (total = 0, rc = load_rows(q, &q->fresh_id, 0, &total)) == 1)
        ;
    if (rc != 0)
        q->stale = true;
    return rc;
}

int outq_load(outq *q)
{
    uint64_t version = store_outbox_version(q->st);
    if (!q->stale && version == q->version)
        return 0;
    int total = 0;
    int rc = start(q);
    if (rc != 0)
        return rc;
    rc = load_rows(q, &q->fresh_id, 0, &total);
    if (rc == 0 && q->last_id < q->backlog_end)
        rc = load_rows(q, &q->last_id, q->backlog_end, &total);
    if (rc == 0 && q->last_id < q->backlog_end)
        rc = 1;
    if (rc == 0) {
        q->stale = false;
        q->version = version;
        return 0;
    }
    q->stale = true; /* more next turn (the loop is not held up), or again after an error */
    return rc;
}

/* ---- Taking and sending -------------------------------------------------- */

/* Notes id (a stored message) for the next outq_flush_done. */
static void note_done(outq *q, int64_t id)
{
    if (id <= 0)
        return;
    if (q->ndone == q->capdone) {
        size_t cap = q->capdone ? q->capdone * 2 : 64;
        int64_t *d = realloc(q->done, cap * sizeof *d);
        if (d == NULL)
            return; /* the row stays: sent again after a restart, never lost */
        q->done = d;
        q->capdone = cap;
    }
    q->done[q->ndone++] = id;
}

/* Forgets m (unlinked) and the messages merged into it for good, their
   ids noted as done. */
static void retire(outq *q, tgt *t, outq_msg *m)
{
    for (outq_msg *k = m; k != NULL; k = k->merged) {
        note_done(q, k->id);
        if (k->id < 0)
            q->nvolatile--;
        t->count--;
        q->count--;
    }
    msg_free(m);
}

/*
 * Undoes an expansion of m (unlinked): the messages merged into it go
 * back to the front of t's list, in order, and m's text is its raw text
 * again. The caller links m itself.
 */
static void unexpand(const outq *q, tgt *t, outq_msg *m)
{
    outq_msg *merged[64];
    int n = 0;
    for (outq_msg *k = m->merged; k != NULL && n < 64; k = k->merged)
        merged[n++] = k;
    while (n-- > 0) {
        merged[n]->merged = NULL;
        link_msg(q, t, merged[n], AT_FRONT);
    }
    m->merged = NULL;
    m->nmerged = 0;
    free(m->expanded);
    m->expanded = NULL;
    m->text = m->raw;
}

/*
 * Asks the expander about t's head message m. Returns OUTQ_EXPAND_DROP, or
 * the verdict with m's text set (and *merge how many later messages of
 * t's list its text tells).
 */
static outq_expand_result expand(outq *q, outq_msg *m, int *merge)
{
    *merge = 0;
    free(m->expanded);
    m->expanded = NULL;
    m->text = m->raw;
    if (q->expand == NULL)
        return OUTQ_EXPAND_ASIS;
    char *text = NULL;
    int n = 0;
    outq_expand_result r = q->expand(q->expand_arg, m, &text, &n);
    if (r == OUTQ_EXPAND_TEXT && text != NULL) {
        m->expanded = text;
        m->text = text;
        int avail = 0;
        for (outq_msg *k = m->next; k != NULL && avail < n && avail < 63; k = k->next)
            avail++;
        *merge = avail;
        return r;
    }
    free(text);
    return r == OUTQ_EXPAND_DROP ? r : OUTQ_EXPAND_ASIS;
}

/*
 * The ring to serve of the room and normal rings: rooms first, so a room's
 * game and the replies said there never wait behind private text (help
 * for a crowd, a flooder's answers), except that after ROOM_RUN_MAX room
 * messages in a row one private message goes, so busy rooms cannot hold a
 * private reply back for long either.
 */
static int ring_of_rest(const outq *q)
{
    if (q->head[RING_ROOM] == NULL)
        return RING_NORMAL;
    if (q->head[RING_NORMAL] != NULL && q->room_run >= ROOM_RUN_MAX)
        return RING_NORMAL;
    return RING_ROOM;
}

/*
 * The ring to serve: urgent first, except that after URGENT_RUN_MAX urgent
 * messages in a row one other message goes, so a backlog of hands (after
 * a restart, many tables dealt at once) cannot hold a reply back for long;
 * then rooms before private text (ring_of_rest).
 */
static int ring_to_serve(const outq *q)
{
    int rest = ring_of_rest(q);
    if (q->head[RING_URGENT] == NULL)
        return rest;
    if (q->head[rest] != NULL && q->urgent_run >= URGENT_RUN_MAX)
        return rest;
    return RING_URGENT;
}

/* Counts the runs ring_to_serve bounds: ring gave a message. */
static void note_served(outq *q, int ring)
{
    q->urgent_run = ring == RING_URGENT ? q->urgent_run + 1 : 0;
    if (ring == RING_ROOM)
        q->room_run++;
    else if (ring == RING_NORMAL)
        q->room_run = 0;
}

outq_msg *outq_take(outq *q, outq_ready_fn ready, void *arg)
{
    for (;;) {
        int ring = ring_to_serve(q);
        tgt *t = q->head[ring];
        if (t == NULL)
            return NULL;
        outq_msg *m = t->uhead != NULL ? t->uhead : t->nhead;
        int merge = 0;
        outq_verdict v = expand(q, m, &merge) == OUTQ_EXPAND_DROP ? OUTQ_DROP
                         : ready != NULL                          ? ready(arg, m)
                                                                  : OUTQ_SEND;
        if (v == OUTQ_SEND) {
            t->taken = unlink_head(t);
            m->nmerged = merge;
            for (outq_msg **tail = &m->merged; merge-- > 0; tail = &(*tail)->merged)
                *tail = unlink_head(t);
            unring(q, t);
            note_served(q, ring);
            return m;
        }
        if (v == OUTQ_PARK) {
            t->parked = true;
        } else {
            unlink_head(t);
            retire(q, t, m);
        }
        place(q, t);
    }
}

void outq_sent(outq *q, outq_msg *m)
{
    tgt *t = owner_of(m);
    if (t->taken == m)
        t->taken = NULL;
    retire(q, t, m);
    place(q, t);
}

void outq_untake(outq *q, outq_msg *m)
{
    tgt *t = owner_of(m);
    if (t->taken == m)
        t->taken = NULL;
    unexpand(q, t, m);
    link_msg(q, t, m, AT_FRONT);
    place(q, t);
}

void outq_untake_all(outq *q)
{
    for (size_t i = 0; i < q->nbuckets; i++)
        for (tgt *t = q->buckets[i]; t != NULL; t = t->hnext)
            if (t->taken != NULL) {
                unexpand(q, t, t->taken);
                link_msg(q, t, t->taken, AT_FRONT);
                t->taken = NULL;
                if (t->ring == RING_NONE) {
                    /* place() may not free t here: it holds its message */
                    if (t->parked)
                        enring(q, t, RING_PARKED);
                    else
                        enring(q, t, t->uhead != NULL ? RING_URGENT : ring_of_normal(t));
                }
            }
}

/* ---- Parking -------------------------------------------------------------- */

void outq_unpark(outq *q, const char *name)
{
    tgt *t = find(q, name, hash_of(name));
    if (t == NULL || !t->parked)
        return;
    t->parked = false;
    place(q, t);
}

void outq_unpark_all(outq *q)
{
    while (q->head[RING_PARKED] != NULL) {
        tgt *t = q->head[RING_PARKED];
        t->parked = false;
        place(q, t);
    }
}

/* ---- Volatile messages, purge, counts (the marks: outq_marks.c) ----------- */

int outq_add_volatile(outq *q, const char *target_name, msg_kind kind, int priority,
                      const char *text)
{
    if (q->nvolatile >= OUTQ_VOLATILE_MAX || strlen(target_name) >= STORE_ID_MAX)
        return -1;
    char txn[64];
    int64_t id = -(++q->volatile_seq);
    snprintf(txn, sizeof txn, "pzv%012" PRIx64 "-%" PRId64, q->nonce & 0xffffffffffffu, -id);
    if (add(q, id, target_name, kind, priority, 0, txn, text, false) != 0)
        return -1;
    q->nvolatile++;
    return 0;
}

int outq_purge(outq *q, const char *name, int *n)
{
    int gone = 0;
    int rc = store_outbox_purge(q->st, q->network, name, &gone);
    if (rc != 0)
        return rc;
    tgt *t = find(q, name, hash_of(name));
    size_t dropped = 0;
    if (t != NULL) {
        outq_msg *lists[2] = {t->uhead, t->nhead};
        t->uhead = t->utail = t->nhead = t->ntail = t->uold = t->nold = NULL;
        for (int i = 0; i < 2; i++)
            while (lists[i] != NULL) {
                outq_msg *m = lists[i];
                lists[i] = m->next;
                if (m->id < 0)
                    q->nvolatile--;
                t->count--;
                q->count--;
                msg_free(m);
                dropped++;
            }
        place(q, t);
    }
    if (n != NULL)
        *n = gone > (int)dropped ? gone : (int)dropped;
    return 0;
}

size_t outq_count(const outq *q)
{
    return q->count;
}

size_t outq_target_count(const outq *q, const char *name)
{
    tgt *t = find(q, name, hash_of(name));
    return t != NULL ? t->count : 0;
}

size_t outq_targets(const outq *q)
{
    return q->ntargets;
}
