/*
 * strmap.h — a map from strings to 64-bit integers in memory, for what the
 * host and the store look up on every command and may not search for in
 * the store's trees or in a sorted array of cold memory: a room's active
 * game, a player's entry in the languages' map. Open addressing with
 * linear probing (a power of 2 slots, at most half full), each slot the
 * key's hash, its value and its own copy of the key; a removal moves the
 * later entries of its run back (no tombstones), as in Knuth's Algorithm
 * R, so a lookup never scans more than the run its key hashes into.
 *
 * One thread, no locks. Not here: what the keys mean.
 */
#ifndef PZ_STRMAP_H
#define PZ_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct strmap_slot strmap_slot;

typedef struct strmap {
    strmap_slot *slots; /* NULL until the first put */
    size_t cap, n;      /* slots (a power of 2), keys held */
} strmap;

#define STRMAP_INIT                                                                                \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

/* The hash a map files key under (FNV-1a, 32 bits): for tables of one's
   own keyed the same way. */
uint32_t strmap_hash(const char *key);
/* The value of key into *value: true, or false when key is not held. */
bool strmap_get(const strmap *m, const char *key, int64_t *value);
/* Sets key's value (the key copied). 0, or -1 out of memory (unchanged). */
int strmap_put(strmap *m, const char *key, int64_t value);
/* Removes key: true when it was held. */
bool strmap_del(strmap *m, const char *key);
/* Calls fn(arg, key, value) for every key, in no order; m must not change
   during the walk. */
void strmap_each(const strmap *m, void (*fn)(void *arg, const char *key, int64_t value), void *arg);
/* Frees every key and the slots; m is empty (STRMAP_INIT) afterwards. */
void strmap_free(strmap *m);

#endif
