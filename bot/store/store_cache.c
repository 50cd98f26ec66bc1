/*
 * store_cache.c — how the store keeps pages of the file in memory: the
 * size of SQLite's page cache, the memory map of the file, and the
 * counters that say how often a page was found in the cache. The sizes
 * are set at open (STORE_CACHE_KIB_DEFAULT, STORE_MMAP_MIB_DEFAULT) and
 * may be changed later (store_set_cache); the counters are read by the
 * host benchmark. Not here: the statements that read pages (store_game.c
 * and the others).
 */
#include <stdio.h>

#include "store_int.h"

/* Runs one PRAGMA that sets n; 0 or a store_err naming what. */
static int pragma_set(store *s, const char *name, long long n, const char *what)
{
    char sql[64];
    int len = snprintf(sql, sizeof sql, "PRAGMA %s = %lld", name, n);
    if (len < 0 || (size_t)len >= sizeof sql)
        return store__say(s, STORE_ERROR, "%s: the PRAGMA is too long", what);
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : store__fail(s, rc, what);
}

/*
 * Sets the page cache to cache_kib KiB (a negative cache_size, so SQLite
 * counts it in KiB whatever the page size; at least 64) and the memory map
 * to mmap_mib MiB (0: none). SQLite caps the map at its build's maximum
 * (SQLITE_MAX_MMAP_SIZE) and maps no more than the file's size. 0 or a
 * store_err; on error the earlier sizes stay.
 */
int store_set_cache(store *s, int cache_kib, int mmap_mib)
{
    if (cache_kib < STORE_CACHE_KIB_MIN || cache_kib > STORE_CACHE_KIB_MAX || mmap_mib < 0 ||
        mmap_mib > STORE_MMAP_MIB_MAX)
        return store__say(
            s, STORE_ERROR, "a page cache of %d KiB (%d..%d) or a map of %d MiB (0..%d) refused",
            cache_kib, STORE_CACHE_KIB_MIN, STORE_CACHE_KIB_MAX, mmap_mib, STORE_MMAP_MIB_MAX);
    int rc = pragma_set(s, "cache_size", -(long long)cache_kib, "setting the page cache");
    if (rc == 0)
        rc = pragma_set(s, "mmap_size", (long long)mmap_mib << 20, "setting the memory map");
    return rc;
}

/* Adds the counter op of s->db to *total and resets it (SQLite's counters
   are ints; read often, they never wrap). */
static void add_status(store *s, int op, int64_t *total)
{
    int cur = 0, hiwtr = 0;
    if (sqlite3_db_status(s->db, op, &cur, &hiwtr, 1) == SQLITE_OK && cur > 0)
        *total += cur;
}

/*
 * The page cache's counters since open: pages found in the cache (hits),
 * pages SQLite had to fetch from the file or the -wal (misses), and the
 * bytes the cache holds now.
 */
void store_cache_stats(store *s, store_cache_stat *out)
{
    add_status(s, SQLITE_DBSTATUS_CACHE_HIT, &s->cache_hits);
    add_status(s, SQLITE_DBSTATUS_CACHE_MISS, &s->cache_misses);
    int used = 0, hiwtr = 0;
    if (sqlite3_db_status(s->db, SQLITE_DBSTATUS_CACHE_USED, &used, &hiwtr, 0) != SQLITE_OK)
        used = 0;
    out->hits = s->cache_hits;
    out->misses = s->cache_misses;
    out->used_bytes = used;
}
