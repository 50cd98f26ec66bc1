/*
 * strmap.c — strings to 64-bit integers in memory (strmap.h): FNV-1a
 * hashes, linear probing, removal by moving back (no tombstones).
 */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

struct strmap_slot {
    char *key; /* NULL: empty */
    uint32_t hash;
    int64_t value;
};

uint32_t strmap_hash(const char *key)
{
    uint32_t x = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++)
        x = (x ^ *p) * 16777619u;
    return x;
}

/* The slot of key in m (cap > 0): where it is, or the empty slot where it
   would go. */
static size_t slot_of(const strmap *m, const char *key, uint32_t hash)
{
    size_t mask = m->cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const strmap_slot *s = &m->slots[i];
        if (s->key == NULL || (s->hash == hash && strcmp(s->key, key) == 0))
            return i;
    }
}

bool strmap_get(const strmap *m, const char *key, int64_t *value)
{
    if (m->n == 0)
        return false;
    const strmap_slot *s = &m->slots[slot_of(m, key, strmap_hash(key))];
    if (s->key == NULL)
        return false;
    *value = s->value;
    return true;
}

/* m with room for one more key: 0, or -1 out of memory (unchanged). */
static int reserve(strmap *m)
{
    if ((m->n + 1) * 2 <= m->cap)
        return 0;
    size_t cap = m->cap != 0 ? 2 * m->cap : 64;
    if (cap > SIZE_MAX / sizeof(strmap_slot))
        return -1;
    strmap grown = {calloc(cap, sizeof(strmap_slot)), cap, m->n};
    if (grown.slots == NULL)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key != NULL)
            grown.slots[slot_of(&grown, m->slots[i].key, m->slots[i].hash)] = m->slots[i];
    free(m->slots);
    *m = grown;
    return 0;
}

int strmap_put(strmap *m, const char *key, int64_t value)
{
    uint32_t hash = strmap_hash(key);
    if (m->cap != 0) {
        strmap_slot *s = &m->slots[slot_of(m, key, hash)];
        if (s->key != NULL) {
            s->value = value;
            return 0;
        }
    }
    size_t len = strlen(key) + 1;
    char *copy = malloc(len);
    if (copy == NULL || reserve(m) != 0) {
        free(copy);
        return -1;
    }
    memcpy(copy, key, len);
    m->slots[slot_of(m, key, hash)] = (strmap_slot){copy, hash, value};
    m->n++;
    return 0;
}

bool strmap_del(strmap *m, const char *key)
{
    if (m->n == 0)
        return false;
    size_t mask = m->cap - 1, hole = slot_of(m, key, strmap_hash(key));
    if (m->slots[hole].key == NULL)
        return false;
    free(m->slots[hole].key);
    /* the entries after the hole in its run move back into it, unless
       their own slot lies cyclically in (hole, j]: then they stay */
    for (size_t j = (hole + 1) & mask; m->slots[j].key != NULL; j = (j + 1) & mask) {
        size_t home = m->slots[j].hash & mask;
        bool stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
        if (!stays) {
            m->slots[hole] = m->slots[j];
            hole = j;
        }
    }
    m->slots[hole].key = NULL;
    m->n--;
    return true;
}

void strmap_each(const strmap *m, void (*fn)(void *arg, const char *key, int64_t value), void *arg)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key != NULL)
            fn(arg, m->slots[i].key, m->slots[i].value);
}

void strmap_free(strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
    *m = (strmap)STRMAP_INIT;
}
