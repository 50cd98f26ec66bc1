/*
 * store_gcache.c — the games the store keeps in memory: a game's row and
 * its seats as last read, so a command in a room whose game no write has
 * changed since reads no page of the file (issue 34: at 100,000 games the
 * B-tree leaves of a room's game, its seats and their indexes were the
 * cold memory a command waited on). Beside a row the host may keep what it
 * made of it (store_game_memo_set: the restored game), freed with the row.
 *
 * Coherent by construction rather than by bookkeeping:
 *   - every write of this connection to a game or its seats drops that
 *     game's entry before it runs (store_game.c calls store__gc_drop), so
 *     a rolled-back write leaves nothing wrong behind, only an entry fewer;
 *   - an entry is made only from a row read outside a write transaction:
 *     what a write transaction reads may be its own uncommitted change;
 *   - another connection's commit (an operator's sqlite3, a test writing
 *     behind the bot) changes SQLite's PRAGMA data_version, which is read
 *     before the first use of the cache in each transaction (and outside
 *     one, before a use more than GC_CHECK_FRESH_NS after the last
 *     question, so a command's lines expanded as they are sent just after
 *     it ask nothing more): a change empties the whole cache.
 * A memo is a pure function of the state text it was made from, so it is
 * handed out only when that exact text is given back.
 *
 * Bounded by bytes (store_set_game_cache; 0 turns it off). Past the bound
 * an entry not used since the hand last passed is dropped (the CLOCK of
 * operating systems' page replacement: one bit an entry, set by a hit, so
 * a hit writes nothing but the entry it read). A chained hash table finds
 * an entry by id, the base's strmap an active game's id by its room.
 * Prefix store__gc_.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_int.h"
#include "strmap.h"

#define GC_BUCKETS_MIN 64
/* A read outside a transaction trusts a data_version read this recently
   (store.h): the lines of a command, expanded as they are sent just after
   it, ask nothing more of the file. */
#define GC_CHECK_FRESH_NS ((int64_t)STORE_GAME_CACHE_FRESH_MS * 1000000)
#define GC_ROOM_KEY_MAX (2 * STORE_ID_MAX)

typedef struct gc_seat {
    int seat;
    const char *player, *nick; /* into the block after the array */
} gc_seat;

typedef struct gc_entry gc_entry;
struct gc_entry {
    gc_entry *next_id; /* the chain of its bucket */
    int64_t id, created, updated, turn_since, reminded, next_due;
    uint64_t seed;
    store_status status;
    int winner;
    bool in_room;    /* in the rooms' map: an active game (lobby, playing, paused) */
    bool referenced; /* used since the hand last passed */
    int nseats;      /* -1: not read yet */
    gc_seat *seats;  /* malloc'd with their names; NULL while nseats <= 0 */
    void *memo;
    void (*memo_free)(void *);
    size_t bytes; /* counted against the bound: the entry, its seats, its memo (not its
                     key in the rooms' map, ~60 bytes more) */
    unsigned short network_len, room_len, creator_len, settings_len;
    char *state; /* into text; NULL: none (a lobby) */
    char text[]; /* network, room, creator, settings, state: each NUL-ended */
};

struct store_gcache {
    gc_entry **by_id;
    size_t nbuckets; /* a power of two */
    strmap rooms;    /* "network\x1froom" of an active game -> its id */
    size_t count, bytes, max_bytes;
    size_t hand; /* the CLOCK's bucket of by_id */
    int64_t version;
    bool version_known;
    bool checked;       /* data_version read in the open transaction */
    int64_t checked_ns; /* when it was last read (CLOCK_MONOTONIC) */
    int64_t hits, misses;
};

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static size_t id_slot(const store_gcache *c, int64_t id)
{
    return (size_t)(((uint64_t)id * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (c->nbuckets - 1);
}

/* "network\x1froom", the rooms' key, into key: false when it does not fit
   (no game of the store has such names: they are checked when written). */
static bool room_key(const char *network, const char *room, char key[GC_ROOM_KEY_MAX])
{
    int n = snprintf(key, GC_ROOM_KEY_MAX, "%s\x1f%s", network, room);
    return n > 0 && n < GC_ROOM_KEY_MAX;
}

static void entry_free(gc_entry *e)
{
    if (e->memo != NULL && e->memo_free != NULL)
        e->memo_free(e->memo);
    free(e->seats);
    free(e);
}

static void drop_entry(store_gcache *c, gc_entry *e)
{
    for (gc_entry **p = &c->by_id[id_slot(c, e->id)]; *p != NULL; p = &(*p)->next_id)
        if (*p == e) {
            *p = e->next_id;
            break;
        }
    char key[GC_ROOM_KEY_MAX];
    if (e->in_room && room_key(e->text, e->text + e->network_len + 1, key))
        (void)strmap_del(&c->rooms, key);
    c->count--;
    c->bytes -= e->bytes;
    entry_free(e);
}

static gc_entry *find_id(const store_gcache *c, int64_t id)
{
    gc_entry *e = c->by_id[id_slot(c, id)];
    while (e != NULL && e->id != id)
        e = e->next_id;
    return e;
}

void store__gc_flush(store *s)
{
    store_gcache *c = s->gc;
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->nbuckets; i++) {
        gc_entry *e = c->by_id[i];
        while (e != NULL) {
            gc_entry *next = e->next_id;
            entry_free(e);
            e = next;
        }
        c->by_id[i] = NULL;
    }
    strmap_free(&c->rooms);
    c->count = c->bytes = 0;
    c->hand = 0;
}

void store__gc_free(store *s)
{
    if (s->gc == NULL)
        return;
    store__gc_flush(s);
    free(s->gc->by_id);
    free(s->gc);
    s->gc = NULL;
}

int store_set_game_cache(store *s, int mib)
{
    if (mib < 0 || mib > STORE_GAME_CACHE_MIB_MAX)
        return store__say(s, STORE_ERROR, "a game cache of %d MiB (0..%d) refused", mib,
                          STORE_GAME_CACHE_MIB_MAX);
    if (mib == 0) {
        store__gc_free(s);
        return 0;
    }
    if (s->gc == NULL) {
        store_gcache *c = calloc(1, sizeof *c);
        if (c != NULL) {
            c->nbuckets = GC_BUCKETS_MIN;
            c->by_id = calloc(c->nbuckets, sizeof *c->by_id);
        }
        if (c == NULL || c->by_id == NULL) {
            free(c);
            return store__say(s, STORE_ERROR, "out of memory for the game cache");
        }
        s->gc = c;
    }
    s->gc->max_bytes = (size_t)mib << 20;
    store__gc_flush(s); /* simplest way to honour a smaller bound at once */
    return 0;
}

/* Doubles the buckets when there are more entries than buckets; a failed
   allocation leaves them as they are (longer chains, still right). */
static void grow(store_gcache *c)
{
    if (c->count <= c->nbuckets)
        return;
    size_t n = c->nbuckets * 2;
    gc_entry **ids = calloc(n, sizeof *ids);
    if (ids == NULL)
        return;
    gc_entry **old = c->by_id;
    size_t old_n = c->nbuckets;
    c->by_id = ids;
    c->nbuckets = n;
    c->hand = 0;
    for (size_t i = 0; i < old_n; i++) {
        gc_entry *e = old[i];
        while (e != NULL) {
            gc_entry *next = e->next_id;
            size_t k = id_slot(c, e->id);
            e->next_id = ids[k];
            ids[k] = e;
            e = next;
        }
    }
    free(old);
}

/* Drops entries not used since the hand last passed them until the cache
   is within its bound (every entry may be dropped: at most two turns). */
static void shrink(store_gcache *c)
{
    for (size_t steps = 0; c->bytes > c->max_bytes && steps < 2 * c->nbuckets + 2; steps++) {
        gc_entry *e = c->by_id[c->hand];
        while (e != NULL && c->bytes > c->max_bytes) {
            gc_entry *next = e->next_id;
            if (e->referenced)
                e->referenced = false;
            else
                drop_entry(c, e);
            e = next;
        }
        c->hand = (c->hand + 1) & (c->nbuckets - 1);
    }
}

/*
 * Whether the cache may answer now: on, and no other connection committed
 * since it was last asked (else it is emptied, and true). The question is
 * a PRAGMA data_version, asked once per transaction, or each time outside
 * one; when it cannot be asked the cache is emptied and false returned,
 * and the caller reads the file (which says what is wrong).
 */
static bool fresh(store *s)
{
    store_gcache *c = s->gc;
    if (c == NULL)
        return false;
    if (s->in_txn && c->checked)
        return true;
    int64_t now = mono_ns();
    if (!s->in_txn && c->version_known && now - c->checked_ns < GC_CHECK_FRESH_NS)
        return true;
    sqlite3_stmt *st = NULL;
    if (store__prepare(s, ST_DATA_VERSION, "PRAGMA data_version", &st) != 0) {
        store__gc_flush(s);
        return false;
    }
    int rc = sqlite3_step(st);
    int64_t v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    if (rc != SQLITE_ROW) {
        store__gc_flush(s);
        c->version_known = false;
        return false;
    }
    if (!c->version_known || v != c->version)
        store__gc_flush(s);
    c->version = v;
    c->version_known = true;
    c->checked = s->in_txn;
    c->checked_ns = now;
    return true;
}

void store__gc_txn_end(store *s)
{
    if (s->gc != NULL)
        s->gc->checked = false;
}

/* Whether a row just read may be kept: not in a write transaction. */
static bool may_fill(store *s)
{
    return s->gc != NULL && sqlite3_txn_state(s->db, "main") != SQLITE_TXN_WRITE;
}

static void copy_out(gc_entry *e, store_game *out)
{
    memset(out, 0, sizeof *out);
    const char *p = e->text;
    out->id = e->id;
    memcpy(out->network, p, (size_t)e->network_len + 1);
    p += e->network_len + 1;
    memcpy(out->room, p, (size_t)e->room_len + 1);
    p += e->room_len + 1;
    memcpy(out->creator, p, (size_t)e->creator_len + 1);
    p += e->creator_len + 1;
    memcpy(out->settings, p, (size_t)e->settings_len + 1);
    out->status = e->status;
    out->seed = e->seed;
    out->created = e->created;
    out->updated = e->updated;
    out->turn_since = e->turn_since;
    out->reminded = e->reminded;
    out->winner = e->winner;
    out->next_due = e->next_due;
    e->referenced = true;
}

/* A hit into *out (its state a malloc'd copy): 0; 1 a miss; or a store_err
   (out of memory copying the state). */
static int hit(store *s, gc_entry *e, store_game *out)
{
    if (e == NULL) {
        s->gc->misses++;
        return 1;
    }
    char *state = NULL;
    if (e->state != NULL && (state = strdup(e->state)) == NULL)
        return store__say(s, STORE_ERROR, "out of memory");
    copy_out(e, out);
    out->state = state;
    s->gc->hits++;
    return 0;
}

int store__gc_game_by_id(store *s, int64_t id, store_game *out)
{
    if (!fresh(s))
        return 1;
    return hit(s, find_id(s->gc, id), out);
}

/* The entry of the active game of (network, room), or NULL. */
static gc_entry *find_room(const store_gcache *c, const char *network, const char *room)
{
    char key[GC_ROOM_KEY_MAX];
    int64_t id = 0;
    if (!room_key(network, room, key) || !strmap_get(&c->rooms, key, &id))
        return NULL;
    return find_id(c, id);
}

int store__gc_game_by_room(store *s, const char *network, const char *room, store_game *out)
{
    if (!fresh(s))
        return 1;
    return hit(s, find_room(s->gc, network, room), out);
}

void store__gc_drop(store *s, int64_t id)
{
    if (s->gc == NULL)
        return;
    gc_entry *e = find_id(s->gc, id);
    if (e != NULL)
        drop_entry(s->gc, e);
}

void store__gc_drop_room(store *s, const char *network, const char *room)
{
    if (s->gc == NULL)
        return;
    gc_entry *e = find_room(s->gc, network, room);
    if (e != NULL)
        drop_entry(s->gc, e);
}

void store__gc_put_game(store *s, const store_game *g)
{
    if (!may_fill(s))
        return;
    store_gcache *c = s->gc;
    store__gc_drop(s, g->id); /* a row read anew replaces the one kept */
    size_t nl = strlen(g->network), rl = strlen(g->room), cl = strlen(g->creator),
           sl = strlen(g->settings), tl = g->state != NULL ? strlen(g->state) + 1 : 0;
    size_t text = nl + rl + cl + sl + 4 + tl;
    gc_entry *e = malloc(sizeof *e + text);
    if (e == NULL)
        return; /* not kept: the next read reads the file */
    memset(e, 0, sizeof *e);
    e->id = g->id;
    e->status = g->status;
    e->seed = g->seed;
    e->created = g->created;
    e->updated = g->updated;
    e->turn_since = g->turn_since;
    e->reminded = g->reminded;
    e->winner = g->winner;
    e->next_due = g->next_due;
    e->nseats = -1;
    e->network_len = (unsigned short)nl;
    e->room_len = (unsigned short)rl;
    e->creator_len = (unsigned short)cl;
    e->settings_len = (unsigned short)sl;
    char *p = e->text;
    memcpy(p, g->network, nl + 1);
    p += nl + 1;
    memcpy(p, g->room, rl + 1);
    p += rl + 1;
    memcpy(p, g->creator, cl + 1);
    p += cl + 1;
    memcpy(p, g->settings, sl + 1);
    p += sl + 1;
    if (g->state != NULL) {
        memcpy(p, g->state, tl);
        e->state = p;
    }
    e->bytes = sizeof *e + text;
    e->referenced = true;
    size_t k = id_slot(c, e->id);
    e->next_id = c->by_id[k];
    c->by_id[k] = e;
    char key[GC_ROOM_KEY_MAX];
    if ((g->status == STORE_LOBBY || g->status == STORE_PLAYING || g->status == STORE_PAUSED) &&
        room_key(g->network, g->room, key)) {
        store__gc_drop_room(s, g->network, g->room);         /* never two for a room */
        e->in_room = strmap_put(&c->rooms, key, e->id) == 0; /* else found by id only */
    }
    c->count++;
    c->bytes += e->bytes;
    grow(c);
    shrink(c);
}

int store__gc_seats(store *s, int64_t game, store_seat *seats, int max, int *n)
{
    if (max > STORE_GC_SEATS_MAX || !fresh(s))
        return 1;
    gc_entry *e = find_id(s->gc, game);
    if (e == NULL || e->nseats < 0) {
        s->gc->misses++;
        return 1;
    }
    int k = e->nseats < max ? e->nseats : max;
    for (int i = 0; i < k; i++) {
        seats[i].seat = e->seats[i].seat;
        size_t pl = strlen(e->seats[i].player) + 1, nl = strlen(e->seats[i].nick) + 1;
        memcpy(seats[i].player, e->seats[i].player, pl);
        memcpy(seats[i].nick, e->seats[i].nick, nl);
    }
    *n = k;
    e->referenced = true;
    s->gc->hits++;
    return 0;
}

void store__gc_put_seats(store *s, int64_t game, const store_seat *seats, int n)
{
    if (n > STORE_GC_SEATS_MAX || !may_fill(s))
        return;
    store_gcache *c = s->gc;
    gc_entry *e = find_id(c, game);
    if (e == NULL || e->nseats >= 0)
        return; /* seats are kept only beside their game's row */
    size_t text = 0;
    for (int i = 0; i < n; i++)
        text += strlen(seats[i].player) + strlen(seats[i].nick) + 2;
    size_t bytes = (size_t)n * sizeof(gc_seat) + text;
    gc_seat *v = n > 0 ? malloc(bytes) : NULL;
    if (n > 0 && v == NULL)
        return;
    char *p = (char *)(v + n);
    for (int i = 0; i < n; i++) {
        size_t pl = strlen(seats[i].player) + 1, nl = strlen(seats[i].nick) + 1;
        v[i].seat = seats[i].seat;
        memcpy(p, seats[i].player, pl);
        v[i].player = p;
        p += pl;
        memcpy(p, seats[i].nick, nl);
        v[i].nick = p;
        p += nl;
    }
    e->seats = v;
    e->nseats = n;
    e->bytes += bytes;
    c->bytes += bytes;
    shrink(c);
}

/* The entry of game id if it holds exactly state. */
static gc_entry *with_state(store *s, int64_t id, const char *state)
{
    gc_entry *e = s->gc != NULL && state != NULL ? find_id(s->gc, id) : NULL;
    return e != NULL && e->state != NULL && strcmp(e->state, state) == 0 ? e : NULL;
}

void *store_game_memo(store *s, int64_t id, const char *state)
{
    gc_entry *e = with_state(s, id, state);
    if (e == NULL)
        return NULL;
    e->referenced = true;
    return e->memo;
}

bool store_game_memo_set(store *s, int64_t id, const char *state, void *memo,
                         void (*free_fn)(void *), size_t bytes)
{
    gc_entry *e = with_state(s, id, state);
    if (e == NULL || e->memo != NULL)
        return false;
    e->memo = memo;
    e->memo_free = free_fn;
    e->bytes += bytes;
    s->gc->bytes += bytes;
    e->referenced = true;
    return true; /* the bound is kept at the next row kept (shrink): memo lives till then */
}

void store_game_cache_stats(store *s, store_game_cache_stat *out)
{
    memset(out, 0, sizeof *out);
    if (s->gc == NULL)
        return;
    out->hits = s->gc->hits;
    out->misses = s->gc->misses;
    out->games = (int64_t)s->gc->count;
    out->bytes = (int64_t)s->gc->bytes;
    out->max_bytes = (int64_t)s->gc->max_bytes;
}
