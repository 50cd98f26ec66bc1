/*
 * flood.c — per-sender flood control for the host, as Limnoria and lykos
 * do it: each sender (network and player id) has a token bucket of
 * flood_commands commands refilled over flood_secs; a sender who empties
 * it is ignored for flood_ignore_secs and told so once, privately. Owners
 * are never limited. The table is fixed-size (FLOOD_SLOTS entries, looked
 * up by a 64-bit hash of the sender, with FLOOD_PROBE slots probed and the
 * least recently used one reused), so a crowd of senders costs bounded
 * memory and a constant time per command; a sender pushed out of the table
 * simply starts with a full bucket again. The same slots remember when a
 * sender was last told of a store fault, and when and in which room they
 * were last reminded of the command prefix, so that neither is said more
 * than once in a while. In memory only: a restart forgives everyone. Not
 * here: what commands mean.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hclock.h"
#include "hctx.h"

#define FLOOD_SLOTS 4096 /* a power of two */
#define FLOOD_PROBE 8
#define FAULT_REPLY_SECS 60 /* one "cannot save" reply a minute per sender */
#define FLOOD_HINT_SECS 300 /* one prefix reminder per sender and room in 5 minutes */
#define MILLI 1000

struct flood_slot {
    uint64_t key;          /* 0: free */
    int64_t last;          /* the last command (unix s): refill and LRU */
    int64_t tokens;        /* in thousandths of a command */
    int64_t ignored_until; /* unix s; 0 none */
    int64_t fault_told;    /* the last store-fault reply, 0 none */
    int64_t hint_told;     /* the last prefix reminder, 0 none */
    uint64_t hint_room;    /* the room it was given in (key_of) */
};

int host__flood_new(host *h)
{
    h->flood = calloc(FLOOD_SLOTS, sizeof *h->flood);
    return h->flood != NULL ? 0 : -1;
}

void host__flood_free(host *h)
{
    free(h->flood);
    h->flood = NULL;
}

/* FNV-1a of network, a separator and sender; never 0. */
static uint64_t key_of(const char *network, const char *sender)
{
    uint64_t k = 14695981039346656037u;
    for (const char *p = network; *p != '\0'; p++)
        k = (k ^ (unsigned char)*p) * 1099511628211u;
    k = (k ^ 0x1f) * 1099511628211u;
    for (const char *p = sender; *p != '\0'; p++)
        k = (k ^ (unsigned char)*p) * 1099511628211u;
    return k != 0 ? k : 1;
}

/* The sender's slot, made (with a full bucket) when absent. */
static flood_slot *slot_of(host *h, const char *network, const char *sender, int64_t now)
{
    uint64_t k = key_of(network, sender);
    flood_slot *oldest = NULL;
    for (int i = 0; i < FLOOD_PROBE; i++) {
        flood_slot *s = &h->flood[(k + (uint64_t)i) & (FLOOD_SLOTS - 1)];
        if (s->key == k)
            return s;
        if (oldest == NULL || s->key == 0 || (oldest->key != 0 && s->last < oldest->last))
            oldest = s;
    }
    memset(oldest, 0, sizeof *oldest);
    oldest->key = k;
    oldest->last = now;
    oldest->tokens = (int64_t)h->cfg.flood_commands * MILLI;
    return oldest;
}

flood_verdict host__flood_check(host *h, const char *network, const char *sender, int64_t now)
{
    if (h->flood == NULL || h->cfg.flood_commands <= 0 || h->cfg.flood_secs <= 0 ||
        sender == NULL ||
        (h->cfg.is_owner != NULL && h->cfg.is_owner(h->cfg.owner_arg, network, sender)))
        return FLOOD_OK;
    flood_slot *s = slot_of(h, network, sender, now);
    int64_t cap = (int64_t)h->cfg.flood_commands * MILLI;
    if (now > s->last) { /* refill: flood_commands per flood_secs */
        s->tokens += (now - s->last) * cap / h->cfg.flood_secs;
        if (s->tokens > cap)
            s->tokens = cap;
    }
    s->last = now;
    if (s->ignored_until > now)
        return FLOOD_IGNORE;
    if (s->tokens >= MILLI) {
        s->tokens -= MILLI;
        return FLOOD_OK;
    }
    s->ignored_until = now + (h->cfg.flood_ignore_secs > 0 ? h->cfg.flood_ignore_secs : 60);
    s->tokens = 0;
    return FLOOD_TELL;
}

bool host__flood_fault_reply_ok(host *h, const char *network, const char *sender, int64_t now)
{
    if (h->flood == NULL || sender == NULL)
        return true;
    flood_slot *s = slot_of(h, network, sender, now);
    if (s->fault_told != 0 && now - s->fault_told < FAULT_REPLY_SECS)
        return false;
    s->fault_told = now;
    return true;
}

bool host__flood_hint_due(host *h, const char *network, const char *sender, const char *room,
                          int64_t now)
{
    if (h->flood == NULL || sender == NULL || room == NULL)
        return false;
    flood_slot *s = slot_of(h, network, sender, now);
    return s->hint_told == 0 || s->hint_room != key_of(network, room) ||
           now - s->hint_told >= FLOOD_HINT_SECS;
}

void host__flood_hint_told(host *h, const char *network, const char *sender, const char *room,
                           int64_t now)
{
    if (h->flood == NULL || sender == NULL || room == NULL)
        return;
    flood_slot *s = slot_of(h, network, sender, now);
    s->hint_told = now;
    s->hint_room = key_of(network, room);
}
