/*
 * outq_marks.c — what the outbox (outq.h) writes back: the marks of the
 * messages sent, in one relaxed transaction with what the adapter adds
 * (the ids it handled), the store's word on them; and the watch of a
 * queue staying long above its threshold. Not here: the queue itself
 * (outq.c).
 */
#include "outq_int.h"

int outq_flush_done(outq *q)
{
    return outq_flush_done_with(q, NULL, NULL);
}

/*
 * The marks (and also's writes) in one relaxed transaction: a power cut
 * may undo it, which only sends a message again; a crash cannot.
 */
int outq_flush_done_with(outq *q, outq_also_fn also, void *arg)
{
    if (also == NULL && q->ndone == 0)
        return 0;
    bool current = !q->stale && q->version == store_outbox_version(q->st);
    int rc = store_begin_relaxed(q->st);
    if (rc != 0)
        return rc;
    if (also != NULL)
        rc = also(arg, q->st);
    if (rc == 0)
        rc = store_outbox_done_many(q->st, q->done, (int)q->ndone);
    if (rc == 0)
        rc = store_commit(q->st); /* rolled back when it fails */
    else
        store_rollback(q->st);
    if (rc != 0)
        return rc;
    q->ndone = 0;
    if (current)
        q->version = store_outbox_version(q->st); /* our own change: nothing new to read */
    return 0;
}

/* The ids of outq_flush_done_seen, for outq_flush_done_with's hook. */
typedef struct seen_ids {
    const char *network, *ids;
    size_t stride;
    int n;
    int64_t now;
} seen_ids;

static int write_seen(void *arg, store *st)
{
    const seen_ids *s = arg;
    bool fresh;
    for (int i = 0; i < s->n; i++) {
        int rc = store_seen_add(st, s->network, s->ids + (size_t)i * s->stride, s->now, &fresh);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int outq_flush_done_seen(outq *q, const char *ids, size_t stride, int n, int64_t now)
{
    if (n <= 0)
        return outq_flush_done(q);
    seen_ids s = {q->network, ids, stride, n, now};
    return outq_flush_done_with(q, write_seen, &s);
}

int outq_last_id(outq *q, int64_t *id)
{
    return store_outbox_last_id(q->st, q->network, id);
}

const char *outq_errmsg(const outq *q)
{
    return store_errmsg(q->st);
}

bool outq_err_transient(int err)
{
    return store_err_transient(err);
}

size_t outq_done_pending(const outq *q)
{
    return q->ndone;
}

void outq_watch_init(outq_watch *w)
{
    w->above_since = -1;
    w->warned = false;
}

int outq_watch_check(outq_watch *w, size_t count, int64_t now_ms)
{
    if (count <= OUTQ_WATCH_COUNT) {
        bool was = w->warned;
        outq_watch_init(w);
        return was ? -1 : 0;
    }
    if (w->above_since < 0)
        w->above_since = now_ms;
    if (w->warned || now_ms - w->above_since < OUTQ_WATCH_MS)
        return 0;
    w->warned = true;
    return 1;
}
