/*
 * test_store_gcache.c — the games the store keeps in memory
 * (store_gcache.c) on a real file: a row and its seats read again come
 * from memory as the file has them; every write of this connection, a
 * rolled-back one included, is read back as the file has it afterwards;
 * another connection's commit (sqlite3 on the same file) is seen at the
 * next transaction's first read, or outside one once the last question
 * is STORE_GAME_CACHE_FRESH_MS old; the cache stays within its
 * bound; a memo is given back only for the exact text it was made from
 * and freed with its row; a cache turned off answers from the file.
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
#include <sqlite3.h>

#include "store.h"

typedef struct fx {
    char dir[64];
    char db[96], wal[100], shm[100];
    store *s;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    memcpy(f->dir, "/tmp/pz-gcache-XXXXXX", sizeof "/tmp/pz-gcache-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    int n = snprintf(f->db, sizeof f->db, "%s/bot.db", f->dir);
    assert_true(n > 0 && (size_t)n < sizeof f->db);
    n = snprintf(f->wal, sizeof f->wal, "%s-wal", f->db);
    assert_true(n > 0 && (size_t)n < sizeof f->wal);
    n = snprintf(f->shm, sizeof f->shm, "%s-shm", f->db);
    assert_true(n > 0 && (size_t)n < sizeof f->shm);
    char why[STORE_WHY_MAX] = "";
    if (store_open(&f->s, f->db, why, sizeof why) != 0)
        fail_msg("store_open: %s", why);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    store_close(f->s);
    unlink(f->db);
    unlink(f->wal);
    unlink(f->shm);
    rmdir(f->dir);
    free(f);
    return 0;
}

/* A playing game in room with state text and two seats; its id. */
static int64_t add_game(store *s, const char *room, const char *state)
{
    store_game g;
    memset(&g, 0, sizeof g);
    memcpy(g.network, "net", 4);
    snprintf(g.room, sizeof g.room, "%s", room);
    memcpy(g.creator, "alice", 6);
    snprintf(g.settings, sizeof g.settings, "target=61 max=4");
    g.status = STORE_PLAYING;
    g.seed = UINT64_C(18446744073709551557);
    g.state = (char *)state;
    g.created = 1700000000;
    g.updated = 1700000100;
    g.turn_since = 1700000050;
    g.reminded = 0;
    g.winner = -1;
    g.next_due = 1700003600;
    store_seat seats[2] = {{0, "alice", "Alice"}, {1, "bob", "Bob"}};
    assert_int_equal(store_game_insert(s, &g), 0);
    assert_int_equal(store_seats_set(s, g.id, seats, 2), 0);
    return g.id;
}

static store_game_cache_stat stats(store *s)
{
    store_game_cache_stat st;
    store_game_cache_stats(s, &st);
    return st;
}

/* The state of room's active game ("" for none), read by room and by id. */
static void expect_state(store *s, const char *room, const char *want)
{
    store_game g = {0}, h = {0};
    assert_int_equal(store_game_active(s, "net", room, &g), 0);
    assert_string_equal(g.state, want);
    assert_int_equal(store_game_get(s, g.id, &h), 0);
    assert_string_equal(h.state, want);
    store_game_fini(&g);
    store_game_fini(&h);
}

/* Runs sql on the file through a connection of its own (another writer). */
static void behind(const fx *f, const char *sql)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 2000);
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
        fail_msg("%s: %s", sql, err);
    sqlite3_close(db);
}

static void test_a_row_read_again_comes_from_memory_as_the_file_has_it(void **state)
{
    fx *f = *state;
    int64_t id = add_game(f->s, "#a", "~1state-a");
    store_game a = {0}, b = {0};
    assert_int_equal(store_game_active(f->s, "net", "#a", &a), 0); /* read: kept */
    store_game_cache_stat s0 = stats(f->s);
    assert_int_equal(store_game_active(f->s, "net", "#a", &b), 0);
    store_game_cache_stat s1 = stats(f->s);
    assert_int_equal(s1.hits, s0.hits + 1);
    assert_true(s1.games >= 1 && s1.bytes > 0 && s1.bytes <= s1.max_bytes);
    /* every field as the file gave it */
    assert_int_equal(b.id, id);
    assert_string_equal(b.network, a.network);
    assert_string_equal(b.room, "#a");
    assert_string_equal(b.creator, "alice");
    assert_string_equal(b.settings, "target=61 max=4");
    assert_string_equal(b.state, "~1state-a");
    assert_true(b.state != a.state); /* the caller's own copy, to free */
    assert_int_equal(b.status, STORE_PLAYING);
    assert_true(b.seed == UINT64_C(18446744073709551557));
    assert_int_equal(b.created, 1700000000);
    assert_int_equal(b.updated, 1700000100);
    assert_int_equal(b.turn_since, 1700000050);
    assert_int_equal(b.reminded, 0);
    assert_int_equal(b.winner, -1);
    assert_int_equal(b.next_due, 1700003600);
    store_seat seats[8];
    int n = 0;
    assert_int_equal(store_seats_get(f->s, id, seats, 8, &n), 0); /* read: kept */
    assert_int_equal(store_seats_get(f->s, id, seats, 8, &n), 0);
    assert_int_equal(stats(f->s).hits, s1.hits + 1);
    assert_int_equal(n, 2);
    assert_string_equal(seats[1].player, "bob");
    assert_string_equal(seats[1].nick, "Bob");
    assert_int_equal(seats[1].seat, 1);
    assert_int_equal(store_seats_get(f->s, id, seats, 1, &n), 0); /* no more than asked */
    assert_int_equal(n, 1);
    assert_string_equal(seats[0].nick, "Alice");
    store_game_fini(&a);
    store_game_fini(&b);
}

static void test_each_write_is_read_back_as_the_file_has_it(void **state)
{
    fx *f = *state;
    int64_t id = add_game(f->s, "#w", "~1one");
    expect_state(f->s, "#w", "~1one");
    store_game g = {0};
    assert_int_equal(store_game_get(f->s, id, &g), 0);
    free(g.state);
    g.state = "~1two";
    assert_int_equal(store_game_update(f->s, &g), 0);
    expect_state(f->s, "#w", "~1two");
    assert_int_equal(store_game_set_due(f->s, id, 1800000000), 0);
    assert_int_equal(store_game_get(f->s, id, &g), 0);
    assert_int_equal(g.next_due, 1800000000);
    store_game_fini(&g);
    store_seat seats[8], carol = {0, "carol", "Carol"};
    int n = 0;
    assert_int_equal(store_seats_get(f->s, id, seats, 8, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(store_seats_set(f->s, id, &carol, 1), 0);
    assert_int_equal(store_seats_get(f->s, id, seats, 8, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(seats[0].player, "carol");
    /* the room's game finished, a new one begun there: the new one */
    assert_int_equal(store_game_get(f->s, id, &g), 0);
    g.status = STORE_FINISHED;
    assert_int_equal(store_game_update(f->s, &g), 0);
    store_game_fini(&g);
    assert_int_equal(store_game_active(f->s, "net", "#w", &g), STORE_NOT_FOUND);
    int64_t next = add_game(f->s, "#w", "~1three");
    assert_int_equal(store_game_active(f->s, "net", "#w", &g), 0);
    assert_int_equal(g.id, next);
    store_game_fini(&g);
    expect_state(f->s, "#w", "~1three");
    assert_int_equal(store_game_get(f->s, id, &g), 0); /* the old one, finished */
    assert_int_equal(g.status, STORE_FINISHED);
    free(g.state);
    g.state = "~1scored"; /* a finished game is kept by id only: changed all the same */
    assert_int_equal(store_game_update(f->s, &g), 0);
    assert_int_equal(store_game_get(f->s, id, &g), 0);
    assert_string_equal(g.state, "~1scored");
    store_game_fini(&g);
}

static void test_a_rolled_back_write_leaves_the_committed_row(void **state)
{
    fx *f = *state;
    int64_t id = add_game(f->s, "#r", "~1kept");
    expect_state(f->s, "#r", "~1kept");
    assert_int_equal(store_begin(f->s), 0);
    store_game g = {0};
    assert_int_equal(store_game_get(f->s, id, &g), 0);
    free(g.state);
    g.state = "~1undone";
    assert_int_equal(store_game_update(f->s, &g), 0);
    g.state = NULL;
    expect_state(f->s, "#r", "~1undone"); /* the transaction sees its own write */
    store_seat one = {0, "dave", "Dave"};
    assert_int_equal(store_seats_set(f->s, id, &one, 1), 0);
    store_seat seats[8];
    int n = 0;
    assert_int_equal(store_seats_get(f->s, id, seats, 8, &n), 0);
    assert_int_equal(n, 1);
    store_rollback(f->s);
    expect_state(f->s, "#r", "~1kept");
    expect_state(f->s, "#r", "~1kept"); /* and again, from memory */
    assert_int_equal(store_seats_get(f->s, id, seats, 8, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(seats[0].player, "alice");
}

static void test_another_connections_commit_is_seen_at_the_next_read(void **state)
{
    fx *f = *state;
    int64_t id = add_game(f->s, "#x", "~1mine");
    expect_state(f->s, "#x", "~1mine");
    store_seat seats[8];
    int n = 0;
    assert_int_equal(store_seats_get(f->s, id, seats, 8, &n), 0);
    char sql[200];
    snprintf(sql, sizeof sql, "UPDATE games SET state = '~1theirs' WHERE id = %lld", (long long)id);
    behind(f, sql);
    assert_int_equal(store_begin_read(f->s), 0); /* in a transaction: at once */
    expect_state(f->s, "#x", "~1theirs");
    store_rollback(f->s);
    snprintf(sql, sizeof sql, "UPDATE games SET state = '~1again' WHERE id = %lld", (long long)id);
    behind(f, sql);
    usleep(2000 * STORE_GAME_CACHE_FRESH_MS); /* outside one: past the last question's window */
    expect_state(f->s, "#x", "~1again");
    snprintf(sql, sizeof sql, "UPDATE seats SET nick = 'Roberto' WHERE game_id = %lld AND seat = 1",
             (long long)id);
    behind(f, sql);
    assert_int_equal(store_begin_read(f->s), 0); /* its seats too */
    assert_int_equal(store_seats_get(f->s, id, seats, 8, &n), 0);
    assert_string_equal(seats[1].nick, "Roberto");
    expect_state(f->s, "#x", "~1again");
    store_rollback(f->s);
    snprintf(sql, sizeof sql, "UPDATE games SET state = '~1later' WHERE id = %lld", (long long)id);
    behind(f, sql);
    assert_int_equal(store_begin(f->s), 0);
    expect_state(f->s, "#x", "~1later");
    assert_int_equal(store_commit(f->s), 0);
}

static void test_the_cache_stays_within_its_bound(void **state)
{
    fx *f = *state;
    assert_int_equal(store_set_game_cache(f->s, 1), 0);
    char big[900];
    memset(big, 's', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    enum { GAMES = 3000 }; /* ~1.2 KB each kept: ~3.5 MiB against 1 */
    assert_int_equal(store_begin(f->s), 0);
    for (int i = 0; i < GAMES; i++) {
        char room[16];
        snprintf(room, sizeof room, "#b%d", i);
        big[0] = (char)('A' + i % 26);
        add_game(f->s, room, big);
    }
    assert_int_equal(store_commit(f->s), 0);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < GAMES; i++) {
            char room[16];
            snprintf(room, sizeof room, "#b%d", i);
            store_game g = {0};
            assert_int_equal(store_game_active(f->s, "net", room, &g), 0);
            assert_string_equal(g.room, room);
            assert_int_equal(g.state[0], 'A' + i % 26);
            store_game_fini(&g);
            store_game_cache_stat st = stats(f->s);
            assert_true(st.bytes <= st.max_bytes);
        }
    store_game_cache_stat st = stats(f->s);
    assert_int_equal(st.max_bytes, 1 << 20);
    assert_true(st.games > 100 && st.games < GAMES);
}

static int freed;
static void count_free(void *p)
{
    freed++;
    free(p);
}

static void test_a_memo_is_given_back_for_its_exact_text_and_freed_with_its_row(void **state)
{
    fx *f = *state;
    freed = 0;
    int64_t id = add_game(f->s, "#m", "~1memo");
    expect_state(f->s, "#m", "~1memo");
    char *m = strdup("restored");
    assert_false(store_game_memo_set(f->s, id, "~1other", m, count_free, 9)); /* not its text */
    assert_true(store_game_memo_set(f->s, id, "~1memo", m, count_free, 9));
    assert_ptr_equal(store_game_memo(f->s, id, "~1memo"), m);
    assert_null(store_game_memo(f->s, id, "~1memox"));
    assert_null(store_game_memo(f->s, id + 1, "~1memo"));
    store_game g = {0};
    assert_int_equal(store_game_get(f->s, id, &g), 0);
    free(g.state);
    g.state = "~1moved";
    assert_int_equal(store_game_update(f->s, &g), 0); /* the row goes, and its memo */
    assert_int_equal(freed, 1);
    assert_null(store_game_memo(f->s, id, "~1memo"));
    expect_state(f->s, "#m", "~1moved");
    assert_true(store_game_memo_set(f->s, id, "~1moved", strdup("again"), count_free, 6));
    store_close(f->s); /* and at close */
    f->s = NULL;
    assert_int_equal(freed, 2);
    char why[STORE_WHY_MAX] = "";
    assert_int_equal(store_open(&f->s, f->db, why, sizeof why), 0);
}

static void test_a_cache_turned_off_answers_from_the_file(void **state)
{
    fx *f = *state;
    assert_int_equal(store_set_game_cache(f->s, 0), 0);
    int64_t id = add_game(f->s, "#o", "~1off");
    expect_state(f->s, "#o", "~1off");
    expect_state(f->s, "#o", "~1off");
    store_game_cache_stat st = stats(f->s);
    assert_int_equal(st.hits + st.misses + st.games + st.max_bytes, 0);
    char *m = strdup("x");
    assert_false(store_game_memo_set(f->s, id, "~1off", m, free, 2));
    free(m);
    assert_int_not_equal(store_set_game_cache(f->s, -1), 0);
    assert_non_null(strstr(store_errmsg(f->s), "game cache"));
    assert_int_not_equal(store_set_game_cache(f->s, STORE_GAME_CACHE_MIB_MAX + 1), 0);
    assert_int_equal(store_set_game_cache(f->s, 8), 0);
    expect_state(f->s, "#o", "~1off");
    assert_int_equal(stats(f->s).max_bytes, 8 << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_row_read_again_comes_from_memory_as_the_file_has_it,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_write_is_read_back_as_the_file_has_it, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_a_rolled_back_write_leaves_the_committed_row, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_another_connections_commit_is_seen_at_the_next_read,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_cache_stays_within_its_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_a_memo_is_given_back_for_its_exact_text_and_freed_with_its_row, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_cache_turned_off_answers_from_the_file, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
