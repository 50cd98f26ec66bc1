/*
 * test_store_cache.c — the store's page cache and memory map
 * (store_set_cache, store_cache_stats) on a real file: with no map, pages
 * not in a small cache are counted as misses and read again; with the
 * map, the file's pages come from it (SQLite counts no miss for them);
 * a cache large enough holds the file, so a second pass only hits; and
 * sizes out of range are refused with a message, the earlier ones kept.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "store.h"

#define GAMES 300 /* each with ~1 KB of settings: some 100 pages */

/* The test's directory, its database and the database's side files. */
typedef struct fx {
    char dir[64];
    char db[96], wal[100], shm[100];
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    memcpy(f->dir, "/tmp/pz-cache-XXXXXX", sizeof "/tmp/pz-cache-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    int n = snprintf(f->db, sizeof f->db, "%s/bot.db", f->dir);
    assert_true(n > 0 && (size_t)n < sizeof f->db);
    n = snprintf(f->wal, sizeof f->wal, "%s-wal", f->db);
    assert_true(n > 0 && (size_t)n < sizeof f->wal);
    n = snprintf(f->shm, sizeof f->shm, "%s-shm", f->db);
    assert_true(n > 0 && (size_t)n < sizeof f->shm);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    unlink(f->db);
    unlink(f->wal);
    unlink(f->shm);
    rmdir(f->dir);
    free(f);
    return 0;
}

static store *open_db(const fx *f)
{
    char why[STORE_WHY_MAX] = "";
    store *s = NULL;
    if (store_open(&s, f->db, why, sizeof why) != 0)
        fail_msg("store_open: %s", why);
    return s;
}

/* GAMES games in rooms #r0.., then closed, so every page is in the file
   itself (the last close checkpoints the -wal). */
static void fill(const fx *f)
{
    store *s = open_db(f);
    assert_int_equal(store_begin(s), 0);
    for (int i = 0; i < GAMES; i++) {
        store_game g;
        memset(&g, 0, sizeof g);
        memcpy(g.network, "net", 4);
        int n = snprintf(g.room, sizeof g.room, "#r%d", i);
        assert_true(n > 0 && (size_t)n < sizeof g.room);
        memcpy(g.creator, "alice", 6);
        memset(g.settings, 'x', 1000);
        g.settings[0] = '"';
        g.settings[999] = '"';
        g.status = STORE_PLAYING;
        g.winner = -1;
        assert_int_equal(store_game_insert(s, &g), 0);
    }
    assert_int_equal(store_commit(s), 0);
    store_close(s);
}

static int count_game(void *arg, store_game *g)
{
    (void)g;
    (*(int *)arg)++;
    return 0;
}

/* Reads every game once; returns how the counters moved. */
static store_cache_stat read_all(store *s)
{
    store_cache_stat a, b;
    store_cache_stats(s, &a);
    int n = 0;
    assert_int_equal(store_game_each_active(s, count_game, &n), 0);
    assert_int_equal(n, GAMES);
    store_cache_stats(s, &b);
    assert_true(b.hits >= a.hits && b.misses >= a.misses);
    return (store_cache_stat){
        .hits = b.hits - a.hits, .misses = b.misses - a.misses, .used_bytes = b.used_bytes};
}

static void test_without_the_map_a_small_cache_reads_pages_again(void **state)
{
    fx *f = *state;
    fill(f);
    store *s = open_db(f);
    assert_int_equal(store_set_cache(s, STORE_CACHE_KIB_MIN, 0), 0);
    store_cache_stat one = read_all(s), two = read_all(s);
    assert_true(one.misses >= GAMES / 4); /* ~3 games a page */
    assert_true(two.misses >= GAMES / 4); /* 64 KiB holds a part of them only */
    assert_true(one.used_bytes > 0 && one.used_bytes <= 2 * STORE_CACHE_KIB_MIN * 1024);
    store_close(s);
}

static void test_a_cache_that_holds_the_file_only_hits_the_second_time(void **state)
{
    fx *f = *state;
    fill(f);
    store *s = open_db(f);
    assert_int_equal(store_set_cache(s, 8192, 0), 0);
    store_cache_stat one = read_all(s), two = read_all(s);
    assert_true(one.misses >= GAMES / 4);
    assert_int_equal(two.misses, 0);
    assert_true(two.hits >= one.misses);
    store_close(s);
}

static void test_with_the_map_the_files_pages_come_from_it(void **state)
{
    fx *f = *state;
    fill(f);
    store *s = open_db(f); /* the default: a map of STORE_MMAP_MIB_DEFAULT */
    assert_true(STORE_MMAP_MIB_DEFAULT > 0);
    assert_int_equal(store_set_cache(s, STORE_CACHE_KIB_MIN, STORE_MMAP_MIB_DEFAULT), 0);
    store_cache_stat one = read_all(s);
    assert_true(one.misses < GAMES / 20); /* only pages of the -wal, if any */
    assert_int_equal(store_set_cache(s, STORE_CACHE_KIB_MIN, 0), 0); /* the map off */
    store_cache_stat two = read_all(s);
    assert_true(two.misses >= GAMES / 4);
    store_close(s);
}

static void test_sizes_out_of_range_are_refused_and_the_old_ones_stay(void **state)
{
    fx *f = *state;
    fill(f);
    store *s = open_db(f);
    assert_int_equal(store_set_cache(s, 8192, 0), 0);
    assert_int_equal(store_set_cache(s, STORE_CACHE_KIB_MIN - 1, 0), STORE_ERROR);
    assert_non_null(strstr(store_errmsg(s), "refused"));
    assert_int_equal(store_set_cache(s, 8192, -1), STORE_ERROR);
    assert_int_equal(store_set_cache(s, 8192, STORE_MMAP_MIB_MAX + 1), STORE_ERROR);
    assert_int_equal(store_set_cache(s, STORE_CACHE_KIB_MAX + 1, 0), STORE_ERROR);
    (void)read_all(s);
    assert_int_equal(read_all(s).misses, 0); /* still the 8 MiB cache, no map */
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        T(test_without_the_map_a_small_cache_reads_pages_again),
        T(test_a_cache_that_holds_the_file_only_hits_the_second_time),
        T(test_with_the_map_the_files_pages_come_from_it),
        T(test_sizes_out_of_range_are_refused_and_the_old_ones_stay),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
