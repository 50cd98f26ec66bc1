/*
 * test_store.c — the store against real SQLite files in a fresh temporary
 * directory per test: opening, creating and reopening; every record type
 * round-tripped (with any bytes in text, valid UTF-8 or not); one active
 * game per room; transactions, including a child process that dies
 * before or right after its commit; outbox order and ids never reused;
 * statistics sums and ranking; key/value state; values too big for their
 * buffers; and files that must be refused (newer schema, truncated,
 * random bytes, another program's database, a corrupted page), each left
 * byte-for-byte as it was with no -wal or -shm file beside it.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store.h"

/* A test's directory and database path. */
typedef struct fx {
    char dir[64];
    char path[96];
} fx;

/* snprintf into buf that must fit: a test's own strings never get cut. */
static void put(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void put(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < len);
}

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    put(f->dir, sizeof f->dir, "/tmp/pz-store-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    put(f->path, sizeof f->path, "%s/bot.db", f->dir);
    *state = f;
    return 0;
}

/* Removes the directory and every file in it. */
static int teardown(void **state)
{
    fx *f = *state;
    DIR *d = opendir(f->dir);
    struct dirent *e;
    char name[192];
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        int n = snprintf(name, sizeof name, "%s/%s", f->dir, e->d_name);
        if (n > 0 && (size_t)n < sizeof name)
            unlink(name);
    }
    if (d != NULL)
        closedir(d);
    rmdir(f->dir);
    free(f);
    return 0;
}

/* Opens the fixture's database, which must succeed. */
static store *open_ok(const fx *f)
{
    char why[STORE_WHY_MAX] = "";
    store *s = NULL;
    int rc = store_open(&s, f->path, why, sizeof why);
    if (rc != 0)
        fail_msg("store_open: %d %s", rc, why);
    return s;
}

/* A game of room on network in status st. */
static store_game game_of(const char *network, const char *room, store_status st)
{
    store_game g;
    memset(&g, 0, sizeof g);
    put(g.network, sizeof g.network, "%s", network);
    put(g.room, sizeof g.room, "%s", room);
    put(g.creator, sizeof g.creator, "alice");
    put(g.settings, sizeof g.settings, "{\"target\":31}");
    g.status = st;
    g.seed = 42;
    g.winner = -1;
    return g;
}

/* The whole content of path, malloc'd, its size in *len. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    long n = ftell(fp);
    assert_true(n >= 0);
    rewind(fp);
    unsigned char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return b;
}

/* The size of file path + suffix, or -1 if it does not exist. */
static long long file_size(const char *path, const char *suffix)
{
    char name[160];
    put(name, sizeof name, "%s%s", path, suffix);
    struct stat sb;
    return stat(name, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* Whether path + suffix exists. */
static int exists(const char *path, const char *suffix)
{
    return file_size(path, suffix) >= 0;
}

/* Opening f->path must fail with err, a message naming the file and
   containing needle, the file unchanged and no side file created. */
static void assert_refused_untouched(const fx *f, int err, const char *needle)
{
    size_t n0, n1;
    unsigned char *before = slurp(f->path, &n0);
    char why[STORE_WHY_MAX] = "";
    store *s = NULL;
    assert_int_equal(store_open(&s, f->path, why, sizeof why), err);
    assert_null(s);
    assert_non_null(strstr(why, f->path));
    if (strstr(why, needle) == NULL)
        fail_msg("\"%s\" not in \"%s\"", needle, why);
    unsigned char *after = slurp(f->path, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    assert_false(exists(f->path, "-wal"));
    assert_false(exists(f->path, "-shm"));
    assert_false(exists(f->path, "-journal"));
    free(before);
    free(after);
}

/* Runs SQL on the file with SQLite itself, as another program would. */
static void raw_sql(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
        fail_msg("%s: %s", sql, err);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

/* An integer PRAGMA of the file read with SQLite itself. */
static int raw_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* A database with a game of many actions (about 30 pages), closed. */
static void make_big_db(const fx *f)
{
    store *s = open_ok(f);
    store_game g = game_of("irc", "#big", STORE_PLAYING);
    assert_int_equal(store_game_insert(s, &g), 0);
    char json[320];
    memset(json, 'a', sizeof json - 1);
    json[sizeof json - 1] = '\0';
    assert_int_equal(store_begin(s), 0);
    for (int i = 0; i < 400; i++)
        assert_int_equal(store_action_append(s, g.id, i, json, i), 0);
    assert_int_equal(store_commit(s), 0);
    store_close(s);
}

/* ---- Opening ------------------------------------------------------------ */

/* Every store_err has its own message from the table; others are unknown. */
static void test_every_error_code_has_its_own_message(void **state)
{
    (void)state;
    static const int codes[] = {STORE_ERROR,     STORE_CORRUPT,  STORE_VERSION,
                                STORE_NOT_FOUND, STORE_CONFLICT, STORE_TOO_BIG,
                                STORE_BUSY,      STORE_FULL,     STORE_LOCKED};
    size_t n = sizeof codes / sizeof codes[0];
    assert_string_equal(store_strerror(STORE_OK), "ok");
    for (size_t i = 0; i < n; i++) {
        assert_string_not_equal(store_strerror(codes[i]), "unknown error");
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(store_strerror(codes[i]), store_strerror(codes[j]));
    }
    assert_string_equal(store_strerror(-100), "unknown error");
    assert_string_equal(store_strerror(1), "unknown error");
    assert_string_equal(store_strerror(STORE_LOCKED),
                        "another porrazo-bot already runs on this database");
}

static void test_a_missing_file_is_created_as_a_porrazo_database(void **state)
{
    fx *f = *state;
    store_close(open_ok(f));
    assert_true(exists(f->path, ""));
    assert_false(exists(f->path, "-wal"));
    assert_int_equal(raw_int(f->path, "PRAGMA application_id"), 0x507A7A6F);
    assert_int_equal(raw_int(f->path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    /* WAL is a property of the file: the header says so. */
    size_t n;
    unsigned char *b = slurp(f->path, &n);
    assert_true(n >= 100);
    assert_int_equal(b[18], 2);
    assert_int_equal(b[19], 2);
    free(b);
}

static void test_reopening_finds_what_was_written(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g = game_of("irc", "#p", STORE_LOBBY);
    assert_int_equal(store_game_insert(s, &g), 0);
    assert_int_equal(store_kv_set(s, "irc", "nick", "porrazo"), 0);
    store_close(s);
    s = open_ok(f);
    store_game got;
    assert_int_equal(store_game_active(s, "irc", "#p", &got), 0);
    assert_int_equal(got.id, g.id);
    char v[16];
    assert_int_equal(store_kv_get(s, "irc", "nick", v, sizeof v), 0);
    assert_string_equal(v, "porrazo");
    store_game_fini(&got);
    store_close(s);
}

/* A file made with 4 KiB pages (as before STORE_PAGE_BYTES) keeps them:
   the page size of a file with pages changes only by a VACUUM, which the
   store never runs at open; the file works as any other. */
static void test_a_file_with_larger_pages_keeps_them_and_works(void **state)
{
    fx *f = *state;
    raw_sql(f->path, "PRAGMA page_size = 4096; CREATE TABLE t (a); DROP TABLE t;");
    assert_int_equal(raw_int(f->path, "PRAGMA page_size"), 4096);
    store *s = open_ok(f);
    store_game g = game_of("irc", "#p", STORE_LOBBY);
    assert_int_equal(store_game_insert(s, &g), 0);
    store_close(s);
    assert_int_equal(raw_int(f->path, "PRAGMA page_size"), 4096);
    s = open_ok(f);
    store_game got;
    assert_int_equal(store_game_active(s, "irc", "#p", &got), 0);
    assert_int_equal(got.id, g.id);
    store_game_fini(&got);
    store_close(s);
}

static void test_an_empty_file_is_adopted_as_a_new_database(void **state)
{
    fx *f = *state;
    FILE *fp = fopen(f->path, "wb");
    assert_non_null(fp);
    fclose(fp);
    store_close(open_ok(f));
    assert_int_equal(raw_int(f->path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
}

static void test_a_path_in_a_missing_directory_fails_naming_it(void **state)
{
    fx *f = *state;
    char path[160], why[STORE_WHY_MAX] = "";
    put(path, sizeof path, "%s/no/such/dir/bot.db", f->dir);
    store *s = NULL;
    assert_int_equal(store_open(&s, path, why, sizeof why), STORE_ERROR);
    assert_null(s);
    assert_non_null(strstr(why, path));
}

static void test_a_future_schema_is_refused_untouched(void **state)
{
    fx *f = *state;
    make_big_db(f);
    raw_sql(f->path, "PRAGMA user_version = 1000");
    char needle[80];
    put(needle, sizeof needle, "newer porrazo-bot (schema 1000; this one knows %d)",
        STORE_SCHEMA_VERSION);
    assert_refused_untouched(f, STORE_VERSION, needle);
}

static void test_a_schema_1_database_is_migrated_keeping_its_games(void **state)
{
    fx *f = *state;
    make_big_db(f);
    /* Back to what schema 1 was: no table of handled lines, none of
       schema 3's clock column and indexes, schema 4's robot_games, schema
       5's tallies of games under way nor schema 6's fair deals nor
       schema 7's hints. */
    raw_sql(f->path, "DROP TABLE hand_seeds; DROP TABLE fair;"
                     "DROP TRIGGER tally_stopped; DROP TABLE tally; DROP TABLE seen; DROP INDEX "
                     "games_due; DROP INDEX games_updated;"
                     "DROP TRIGGER games_count_insert; DROP TRIGGER games_count_delete;"
                     "DROP TRIGGER games_count_update; DROP TABLE counts;"
                     "DROP INDEX seats_player; DROP INDEX outbox_net; DROP INDEX outbox_target;"
                     "ALTER TABLE games DROP COLUMN next_due;"
                     "ALTER TABLE stats DROP COLUMN robot_games;"
                     "ALTER TABLE stats DROP COLUMN hints;"
                     "CREATE INDEX outbox_order ON outbox (network, priority DESC, id);"
                     "PRAGMA user_version = 1");
    store *s = open_ok(f);
    assert_int_equal(raw_int(f->path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    assert_true(raw_int(f->path, "SELECT count(*) FROM games") > 0);
    int active = -1;
    assert_int_equal(store_game_count_active(s, &active), 0);
    assert_int_equal(active, raw_int(f->path, "SELECT count(*) FROM games WHERE status < 3"));
    bool fresh = false, seen = false;
    assert_int_equal(store_seen_add(s, "mx", "$a", 10, &fresh), 0);
    assert_true(fresh);
    assert_int_equal(store_seen_add(s, "mx", "$a", 11, &fresh), 0);
    assert_false(fresh);
    assert_int_equal(store_seen_has(s, "mx", "$a", &seen), 0);
    assert_true(seen);
    store_close(s);
}

static void test_a_truncated_database_is_refused_untouched(void **state)
{
    fx *f = *state;
    make_big_db(f);
    size_t n;
    free(slurp(f->path, &n));
    assert_int_equal(truncate(f->path, (off_t)(n / 2)), 0);
    assert_refused_untouched(f, STORE_CORRUPT, "is damaged");
}

static void test_a_file_of_random_bytes_is_refused_untouched(void **state)
{
    fx *f = *state;
    FILE *fp = fopen(f->path, "wb");
    assert_non_null(fp);
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 65536; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        fputc((int)(x & 0xff), fp);
    }
    fclose(fp);
    assert_refused_untouched(f, STORE_CORRUPT, "not a database");
}

static void test_another_programs_database_is_refused_untouched(void **state)
{
    fx *f = *state;
    raw_sql(f->path, "CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('x')");
    assert_refused_untouched(f, STORE_CORRUPT, "not a porrazo database");
}

static void test_a_database_with_another_application_id_is_refused_untouched(void **state)
{
    fx *f = *state;
    raw_sql(f->path, "PRAGMA application_id = 42; CREATE TABLE t (x)");
    assert_refused_untouched(f, STORE_CORRUPT, "0x0000002A");
}

static void test_a_corrupted_page_is_refused_untouched(void **state)
{
    fx *f = *state;
    make_big_db(f);
    size_t n;
    unsigned char *b = slurp(f->path, &n);
    size_t page = (size_t)b[16] << 8 | b[17], mid = n / 2 / page * page;
    assert_true(mid > 0 && mid + page <= n);
    memset(b + mid, 0x5A, page);
    FILE *fp = fopen(f->path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b, 1, n, fp), n);
    fclose(fp);
    free(b);
    assert_refused_untouched(f, STORE_CORRUPT, "restore it from a backup");
}

/* ---- Games, seats, actions ---------------------------------------------- */

static void test_a_game_round_trips_every_field(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g = game_of("matrix", "!r\xc3\xa9:x.org", STORE_PLAYING);
    g.seed = UINT64_MAX;
    g.state = strdup("{\"v\":1,\"bytes\":\"\xff\xfe caf\xc3\xa9 \xf0\x9f\x82\xa1\"}");
    g.created = 1700000000, g.updated = 1700000100, g.turn_since = 1700000050;
    g.reminded = 1700000090, g.winner = 1;
    assert_int_equal(store_game_insert(s, &g), 0);
    assert_true(g.id > 0);
    store_game got;
    assert_int_equal(store_game_get(s, g.id, &got), 0);
    assert_string_equal(got.network, g.network);
    assert_string_equal(got.room, g.room);
    assert_string_equal(got.creator, g.creator);
    assert_string_equal(got.settings, g.settings);
    assert_string_equal(got.state, g.state);
    assert_true(got.seed == UINT64_MAX);
    assert_int_equal(got.status, STORE_PLAYING);
    assert_int_equal(got.created, g.created);
    assert_int_equal(got.updated, g.updated);
    assert_int_equal(got.turn_since, g.turn_since);
    assert_int_equal(got.reminded, g.reminded);
    assert_int_equal(got.winner, 1);
    store_game_fini(&got);
    /* An update writes every field; a lobby has no state. */
    store_game_fini(&g);
    g.status = STORE_LOBBY, g.seed = 0, g.winner = -1;
    assert_int_equal(store_game_update(s, &g), 0);
    assert_int_equal(store_game_active(s, g.network, g.room, &got), 0);
    assert_null(got.state);
    assert_true(got.seed == 0);
    assert_int_equal(got.winner, -1);
    store_game_fini(&got);
    store_close(s);
}

/* store_game_update has two statements (issue 34): a move's, which names
   neither the room nor the status and so leaves games_active and the
   count's triggers alone, and the whole row's, when either changed. Both
   write every field; the count, the clock's index and the rooms' index
   follow either. */
static void test_an_update_that_keeps_room_and_status_writes_every_field(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g = game_of("irc", "#u", STORE_PLAYING), got;
    int active = -1;
    int64_t due = 0;
    assert_int_equal(store_game_insert(s, &g), 0);
    g.state = "{\"moved\":1}";
    put(g.settings, sizeof g.settings, "{\"target\":61}");
    g.updated = 5000, g.turn_since = 4000, g.reminded = 4500, g.winner = 1, g.next_due = 7000;
    assert_int_equal(store_game_update(s, &g), 0); /* the move's statement */
    assert_int_equal(store_game_active(s, "irc", "#u", &got), 0);
    assert_string_equal(got.state, "{\"moved\":1}");
    assert_string_equal(got.settings, "{\"target\":61}");
    assert_int_equal(got.updated, 5000);
    assert_int_equal(got.turn_since, 4000);
    assert_int_equal(got.reminded, 4500);
    assert_int_equal(got.winner, 1);
    assert_int_equal(got.next_due, 7000);
    store_game_fini(&got);
    assert_int_equal(store_game_next_due(s, &due), 0);
    assert_int_equal(due, 7000);
    assert_int_equal(store_game_count_active(s, &active), 0);
    assert_int_equal(active, 1);

    put(g.room, sizeof g.room, "#v"); /* another room: the whole row's */
    g.status = STORE_PAUSED;
    assert_int_equal(store_game_update(s, &g), 0);
    assert_int_equal(store_game_active(s, "irc", "#u", &got), STORE_NOT_FOUND);
    assert_int_equal(store_game_active(s, "irc", "#v", &got), 0);
    assert_int_equal(got.status, STORE_PAUSED);
    store_game_fini(&got);
    g.status = STORE_FINISHED, g.next_due = INT64_MAX; /* another status */
    assert_int_equal(store_game_update(s, &g), 0);
    assert_int_equal(store_game_active(s, "irc", "#v", &got), STORE_NOT_FOUND);
    assert_int_equal(store_game_count_active(s, &active), 0);
    assert_int_equal(active, 0);
    assert_int_equal(store_game_next_due(s, &due), 0);
    assert_true(due == INT64_MAX);
    g.id += 100; /* no such game: neither statement finds it */
    assert_int_equal(store_game_update(s, &g), STORE_NOT_FOUND);
    store_close(s);
}

static void test_missing_games_are_not_found(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g = game_of("irc", "#p", STORE_LOBBY), got = game_of("x", "y", STORE_LOBBY);
    g.id = 99;
    assert_int_equal(store_game_get(s, 99, &got), STORE_NOT_FOUND);
    assert_int_equal(store_game_active(s, "irc", "#p", &got), STORE_NOT_FOUND);
    assert_string_equal(got.room, "y"); /* untouched */
    assert_int_equal(store_game_update(s, &g), STORE_NOT_FOUND);
    assert_int_equal(store_seats_set(s, 99, NULL, 0), STORE_NOT_FOUND);
    assert_int_equal(store_action_append(s, 99, 0, "{}", 0), STORE_NOT_FOUND);
    store_close(s);
}

static void test_a_room_has_at_most_one_active_game(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game a = game_of("irc", "#p", STORE_PAUSED), b = game_of("irc", "#p", STORE_LOBBY);
    assert_int_equal(store_game_insert(s, &a), 0);
    b.id = -7;
    assert_int_equal(store_game_insert(s, &b), STORE_CONFLICT);
    assert_int_equal(b.id, -7);
    assert_non_null(strstr(store_errmsg(s), "#p"));
    store_game other_room = game_of("irc", "#q", STORE_LOBBY);
    store_game other_net = game_of("matrix", "#p", STORE_LOBBY);
    assert_int_equal(store_game_insert(s, &other_room), 0);
    assert_int_equal(store_game_insert(s, &other_net), 0);
    a.status = STORE_FINISHED;
    assert_int_equal(store_game_update(s, &a), 0);
    assert_int_equal(store_game_insert(s, &b), 0);
    a.status = STORE_PLAYING; /* reviving the old one would make two */
    assert_int_equal(store_game_update(s, &a), STORE_CONFLICT);
    store_game got;
    assert_int_equal(store_game_get(s, a.id, &got), 0);
    assert_int_equal(got.status, STORE_FINISHED);
    store_game_fini(&got);
    store_close(s);
}

static void test_game_strings_longer_than_their_buffers_are_too_big(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g = game_of("irc", "#p", STORE_LOBBY);
    memset(g.room, 'r', sizeof g.room); /* no NUL */
    assert_int_equal(store_game_insert(s, &g), STORE_TOO_BIG);
    memset(g.settings, 's', sizeof g.settings);
    assert_int_equal(store_game_insert(s, &g), STORE_TOO_BIG);
    store_close(s);
    /* A value written by someone else and too long is refused, not cut. */
    g = game_of("irc", "#p", STORE_LOBBY);
    s = open_ok(f);
    assert_int_equal(store_game_insert(s, &g), 0);
    store_close(s);
    raw_sql(f->path, "UPDATE games SET settings = printf('%.2000c', 'x')");
    s = open_ok(f);
    store_game got = game_of("x", "y", STORE_LOBBY);
    assert_int_equal(store_game_get(s, g.id, &got), STORE_TOO_BIG);
    assert_string_equal(got.room, "y");
    store_close(s);
}

/* Callback of each_active: records ids, finishes each game and opens one
   in a new room; returns stop_at's index + 1 when reached. */
typedef struct walk {
    store *s;
    int64_t ids[8];
    int n, stop_at;
} walk;

static int walk_fn(void *arg, store_game *g)
{
    walk *w = arg;
    w->ids[w->n++] = g->id;
    g->status = STORE_FINISHED;
    assert_int_equal(store_game_update(w->s, g), 0);
    char room[16];
    put(room, sizeof room, "#new%d", w->n);
    store_game fresh = game_of("irc", room, STORE_LOBBY);
    assert_int_equal(store_game_insert(w->s, &fresh), 0);
    return w->n == w->stop_at ? 70 + w->n : 0;
}

static void test_each_active_walks_oldest_first_and_the_callback_may_write(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g[4] = {game_of("irc", "#a", STORE_LOBBY), game_of("irc", "#b", STORE_FINISHED),
                       game_of("irc", "#c", STORE_PLAYING), game_of("m", "#d", STORE_PAUSED)};
    for (int i = 0; i < 4; i++)
        assert_int_equal(store_game_insert(s, &g[i]), 0);
    walk w = {.s = s, .stop_at = -1};
    assert_int_equal(store_game_each_active(s, walk_fn, &w), 0);
    assert_int_equal(w.n, 3);
    assert_int_equal(w.ids[0], g[0].id);
    assert_int_equal(w.ids[1], g[2].id);
    assert_int_equal(w.ids[2], g[3].id);
    /* Now the three new lobbies are the active games; stop at the second. */
    walk w2 = {.s = s, .stop_at = 2};
    assert_int_equal(store_game_each_active(s, walk_fn, &w2), 72);
    assert_int_equal(w2.n, 2);
    store_close(s);
}

/* Callback of store_room_each_active: records "network room=id" and
   finishes that game (the walk was read first); stops at stop_at. */
typedef struct room_walk {
    store *s;
    char seen[8][48];
    int n, stop_at;
} room_walk;

static int room_walk_fn(void *arg, int64_t id, const char *network, const char *room)
{
    room_walk *w = arg;
    store_game g;
    put(w->seen[w->n++], sizeof w->seen[0], "%s %s=%lld", network, room, (long long)id);
    assert_int_equal(store_game_get(w->s, id, &g), 0);
    g.status = STORE_FINISHED;
    assert_int_equal(store_game_update(w->s, &g), 0);
    store_game_fini(&g);
    return w->n == w->stop_at ? 90 : 0;
}

/* The active games' rooms, from the index alone: each lobby, playing or
   paused game once, by room, a finished one not; the callback may write;
   its non-0 stops the walk. */
static void test_room_each_active_walks_the_rooms_index(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g[4] = {game_of("irc", "#c", STORE_LOBBY), game_of("irc", "#b", STORE_FINISHED),
                       game_of("irc", "#a", STORE_PLAYING), game_of("m", "!d:x", STORE_PAUSED)};
    for (int i = 0; i < 4; i++)
        assert_int_equal(store_game_insert(s, &g[i]), 0);
    room_walk w = {.s = s, .stop_at = -1};
    char want[3][48];
    put(want[0], sizeof want[0], "irc #a=%lld", (long long)g[2].id);
    put(want[1], sizeof want[1], "irc #c=%lld", (long long)g[0].id);
    put(want[2], sizeof want[2], "m !d:x=%lld", (long long)g[3].id);
    assert_int_equal(store_room_each_active(s, room_walk_fn, &w), 0);
    assert_int_equal(w.n, 3);
    for (int i = 0; i < 3; i++)
        assert_string_equal(w.seen[i], want[i]);
    room_walk none = {.s = s, .stop_at = -1}; /* all finished by the walk */
    assert_int_equal(store_room_each_active(s, room_walk_fn, &none), 0);
    assert_int_equal(none.n, 0);
    for (int i = 0; i < 3; i++) {
        char room[16];
        put(room, sizeof room, "#n%d", i);
        store_game more = game_of("irc", room, STORE_LOBBY);
        assert_int_equal(store_game_insert(s, &more), 0);
    }
    room_walk stop = {.s = s, .stop_at = 2};
    assert_int_equal(store_room_each_active(s, room_walk_fn, &stop), 90);
    assert_int_equal(stop.n, 2);
    store_close(s);
}

/* The id of the active game of room on irc, or -1 (STORE_NOT_FOUND). */
static int64_t active_id(store *s, const char *room)
{
    store_game g;
    int rc = store_game_active(s, "irc", room, &g);
    if (rc == STORE_NOT_FOUND)
        return -1;
    assert_int_equal(rc, 0);
    store_game_fini(&g);
    return g.id;
}

/* The players of game's seats joined by commas, into out. */
static void seated(store *s, int64_t game, char *out, size_t cap)
{
    store_seat seats[4];
    int n = -1;
    assert_int_equal(store_seats_get(s, game, seats, 4, &n), 0);
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        put(out + strlen(out), cap - strlen(out), "%s%d:%s", i > 0 ? "," : "", seats[i].seat,
            seats[i].player);
}

/* A room's active game and a game's seats as the store reads them back
   through commits and rollbacks — what any cache of them in memory must
   keep true (issue 34 tried one): a game inserted in a transaction rolled
   back (its id then taken by the next game, elsewhere), a finished game,
   its room's next game, seats written in a transaction rolled back or
   committed, read inside it and after, and all of it after a reopen. */
static void test_the_rooms_and_seats_kept_in_memory_follow_every_commit_and_rollback(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    char who[128];
    store_game a = game_of("irc", "#r", STORE_PLAYING);
    assert_int_equal(store_game_insert(s, &a), 0);
    assert_int_equal(active_id(s, "#r"), a.id);
    store_seat two[2] = {{0, "ann", "Ann"}, {1, "bob", "Bob"}};
    assert_int_equal(store_seats_set(s, a.id, two, 2), 0);
    seated(s, a.id, who, sizeof who);
    assert_string_equal(who, "0:ann,1:bob");

    /* seats rewritten in a transaction: seen inside it, gone with its
       rollback, kept by its commit */
    store_seat three[3] = {{0, "ann", "Ann"}, {1, "bob", "Bob"}, {2, "cy", "Cy"}};
    assert_int_equal(store_begin(s), 0);
    assert_int_equal(store_seats_set(s, a.id, three, 3), 0);
    seated(s, a.id, who, sizeof who);
    assert_string_equal(who, "0:ann,1:bob,2:cy");
    seated(s, a.id, who, sizeof who); /* twice: a second read agrees */
    assert_string_equal(who, "0:ann,1:bob,2:cy");
    store_rollback(s);
    seated(s, a.id, who, sizeof who);
    assert_string_equal(who, "0:ann,1:bob");
    assert_int_equal(store_begin(s), 0);
    assert_int_equal(store_seats_set(s, a.id, three, 3), 0);
    seated(s, a.id, who, sizeof who);
    assert_int_equal(store_commit(s), 0);
    seated(s, a.id, who, sizeof who);
    assert_string_equal(who, "0:ann,1:bob,2:cy");
    store_seat one[1] = {{0, "dee", "Dee"}}; /* a write of its own */
    assert_int_equal(store_seats_set(s, a.id, one, 1), 0);
    seated(s, a.id, who, sizeof who);
    assert_string_equal(who, "0:dee");
    store_seat none[1];
    int n = -1;
    assert_int_equal(store_seats_get(s, a.id, none, 0, &n), 0); /* max 0: none asked */
    assert_int_equal(n, 0);

    /* a game finished, a new one in its room inserted and rolled back:
       the room has none; inserted for good: that one */
    a.status = STORE_FINISHED;
    assert_int_equal(store_game_update(s, &a), 0);
    assert_int_equal(active_id(s, "#r"), -1);
    assert_int_equal(store_begin(s), 0);
    store_game b = game_of("irc", "#r", STORE_LOBBY);
    assert_int_equal(store_game_insert(s, &b), 0);
    assert_int_equal(active_id(s, "#r"), b.id);
    store_rollback(s);
    store_game c = game_of("irc", "#other", STORE_LOBBY); /* takes b's id again */
    assert_int_equal(store_game_insert(s, &c), 0);
    assert_int_equal(c.id, b.id);
    assert_int_equal(active_id(s, "#r"), -1); /* that id was #r's a moment ago */
    assert_int_equal(active_id(s, "#other"), c.id);
    store_game d = game_of("irc", "#r", STORE_PAUSED);
    assert_int_equal(store_game_insert(s, &d), 0);
    assert_int_equal(active_id(s, "#r"), d.id);
    seated(s, c.id, who, sizeof who); /* no seats yet, whatever id it has */
    assert_string_equal(who, "");
    store_close(s);

    s = open_ok(f); /* read again from the file */
    assert_int_equal(active_id(s, "#r"), d.id);
    assert_int_equal(active_id(s, "#other"), c.id);
    seated(s, a.id, who, sizeof who);
    assert_string_equal(who, "0:dee");
    store_close(s);
}

static void test_seats_are_replaced_and_read_in_seat_order(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g = game_of("irc", "#p", STORE_LOBBY);
    assert_int_equal(store_game_insert(s, &g), 0);
    store_seat in[3] = {{2, "carol", "Carol"},
                        {0, "alice",
                         "\xe2\x99\xa0"
                         "Al"},
                        {1, "bob", "b"}};
    assert_int_equal(store_seats_set(s, g.id, in, 3), 0);
    store_seat out[8];
    int n = -1;
    assert_int_equal(store_seats_get(s, g.id, out, 8, &n), 0);
    assert_int_equal(n, 3);
    assert_string_equal(out[0].player, "alice");
    assert_string_equal(out[0].nick, "\xe2\x99\xa0"
                                     "Al");
    assert_string_equal(out[2].player, "carol");
    assert_int_equal(store_seats_get(s, g.id, out, 2, &n), 0);
    assert_int_equal(n, 2);
    /* A seat given twice is refused and the old seats stay. */
    store_seat twice[2] = {{0, "dan", "d"}, {0, "eve", "e"}};
    assert_int_equal(store_seats_set(s, g.id, twice, 2), STORE_CONFLICT);
    assert_int_equal(store_seats_get(s, g.id, out, 8, &n), 0);
    assert_int_equal(n, 3);
    store_seat big = {0, "", "x"};
    memset(big.player, 'p', sizeof big.player);
    assert_int_equal(store_seats_set(s, g.id, &big, 1), STORE_TOO_BIG);
    assert_int_equal(store_seats_set(s, g.id, in, 1), 0);
    assert_int_equal(store_seats_get(s, g.id, out, 8, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(out[0].player, "carol");
    store_close(s);
}

/* Callback of store_games_of_player: records game ids and rooms, and
   writes (renames the player's seat) to prove it may. */
typedef struct games_found {
    store *s;
    int64_t ids[8];
    char rooms[8][16];
    int n;
} games_found;

static int found_fn(void *arg, int64_t game, const char *room)
{
    games_found *x = arg;
    x->ids[x->n] = game;
    put(x->rooms[x->n++], sizeof x->rooms[0], "%s", room);
    store_seat seat = {0, "alice", "Alicia"};
    return store_seats_set(x->s, game, &seat, 1);
}

static void test_games_of_a_player_are_her_active_games_of_that_network(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g[4] = {game_of("irc", "#1", STORE_LOBBY), game_of("irc", "#2", STORE_PLAYING),
                       game_of("irc", "#3", STORE_FINISHED), game_of("m", "#1", STORE_LOBBY)};
    store_seat seats[2] = {{0, "alice", "Al"}, {1, "bob", "B"}};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(store_game_insert(s, &g[i]), 0);
        assert_int_equal(store_seats_set(s, g[i].id, seats + (i == 1), 2 - (i == 1)), 0);
    }
    games_found x = {.s = s};
    assert_int_equal(store_games_of_player(s, "irc", "alice", found_fn, &x), 0);
    assert_int_equal(x.n, 1); /* #2 seats only bob */
    assert_int_equal(x.ids[0], g[0].id);
    assert_string_equal(x.rooms[0], "#1");
    games_found y = {.s = s};
    assert_int_equal(store_games_of_player(s, "irc", "bob", found_fn, &y), 0);
    assert_int_equal(y.n, 1); /* found_fn replaced #1's seats by alice */
    assert_int_equal(y.ids[0], g[1].id);
    store_close(s);
}

/* Callback of store_action_each: checks seq and collects the JSON. */
typedef struct action_log {
    int n;
    char text[64];
} log_t;

static int log_fn(void *arg, int seq, const char *json)
{
    log_t *l = arg;
    assert_int_equal(seq, l->n++);
    size_t used = strlen(l->text);
    put(l->text + used, sizeof l->text - used, "%s", json);
    return seq == 5 ? 9 : 0;
}

static void test_actions_append_in_order_and_read_back(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game g = game_of("irc", "#p", STORE_PLAYING);
    assert_int_equal(store_game_insert(s, &g), 0);
    int n = -1;
    assert_int_equal(store_action_count(s, g.id, &n), 0);
    assert_int_equal(n, 0);
    const char *acts[] = {"[0]", "[1,\"\xc3\xb1\"]", "[2]"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(store_action_append(s, g.id, i, acts[i], 100 + i), 0);
    assert_int_equal(store_action_count(s, g.id, &n), 0);
    assert_int_equal(n, 3);
    log_t l = {0};
    assert_int_equal(store_action_each(s, g.id, log_fn, &l), 0);
    assert_int_equal(l.n, 3);
    assert_string_equal(l.text, "[0][1,\"\xc3\xb1\"][2]");
    /* Only the next number is accepted. */
    assert_int_equal(store_action_append(s, g.id, 2, "[x]", 0), STORE_CONFLICT);
    assert_int_equal(store_action_append(s, g.id, 5, "[x]", 0), STORE_CONFLICT);
    for (int i = 3; i < 8; i++)
        assert_int_equal(store_action_append(s, g.id, i, "[]", 0), 0);
    log_t l2 = {0};
    assert_int_equal(store_action_each(s, g.id, log_fn, &l2), 9); /* stops at 5 */
    assert_int_equal(l2.n, 6);
    store_close(s);
}

/* Appends "hand:seed;" to the text of a log_t-like buffer. */
typedef struct seeds_t {
    int n;
    char text[256];
} seeds_t;

static int seed_fn(void *arg, int hand, uint64_t seed, const char *digest)
{
    seeds_t *l = arg;
    size_t len = strlen(l->text);
    snprintf(l->text + len, sizeof l->text - len, "%d:%llu:%.4s;", hand, (unsigned long long)seed,
             digest);
    l->n++;
    return 0;
}

static void test_a_sealed_seed_is_dealt_once_and_hands_read_back_in_order(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game a = game_of("irc", "#a", STORE_PLAYING), b = game_of("irc", "#b", STORE_PLAYING),
               c = game_of("irc", "#c", STORE_PLAYING), d = game_of("irc", "#d", STORE_PLAYING);
    assert_int_equal(store_game_insert(s, &a), 0);
    assert_int_equal(store_game_insert(s, &b), 0);
    assert_int_equal(store_game_insert(s, &c), 0);
    assert_int_equal(store_game_insert(s, &d), 0);
    char salt[STORE_SALT_HEX + 1];
    bool sealed = true;
    /* the commitments are kept as given: any 64 lowercase hex digits */
    const char D1[] = "1111111111111111111111111111111111111111111111111111111111111111",
               D2[] = "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
               D3[] = "3333333333333333333333333333333333333333333333333333333333333333";
    /* A game from before fair deals has none, and takes no seed. */
    assert_int_equal(store_fair_get(s, a.id, salt, &sealed), STORE_NOT_FOUND);
    assert_int_equal(store_hand_add(s, a.id, 1, 7, D1), STORE_NOT_FOUND);
    /* A start that failed is started again: its salt and seeds are replaced. */
    assert_int_equal(store_fair_start(s, a.id, "22222222222222222222222222222222", false), 0);
    assert_int_equal(store_hand_add(s, a.id, 1, 42, D1), 0);
    assert_int_equal(store_fair_start(s, a.id, "0123456789abcdef0123456789abcdef", true), 0);
    assert_int_equal(store_fair_get(s, a.id, salt, &sealed), 0);
    assert_string_equal(salt, "0123456789abcdef0123456789abcdef");
    assert_true(sealed);
    assert_int_equal(store_fair_start(s, b.id, "0123456789ABCDEF0123456789abcdef", true),
                     STORE_ERROR); /* not lowercase */
    assert_int_equal(store_fair_start(s, b.id, "ffffffffffffffffffffffffffffffff", true), 0);
    assert_int_equal(store_fair_start(s, c.id, "00000000000000000000000000000000", false), 0);
    assert_int_equal(store_fair_start(s, d.id, "11111111111111111111111111111111", false), 0);
    assert_int_equal(store_fair_get(s, c.id, salt, &sealed), 0);
    assert_string_equal(salt, "00000000000000000000000000000000");
    assert_false(sealed);
    assert_int_equal(store_hand_add(s, a.id, 1, UINT64_MAX, D1), 0);
    assert_int_equal(store_hand_add(s, a.id, 2, 42, D2), 0);
    assert_int_equal(store_hand_add(s, a.id, 2, 43, D2), STORE_CONFLICT); /* hand 2 has one */
    /* Sealed: a seed dealt by any sealed game is refused, in this one too. */
    assert_int_equal(store_hand_add(s, a.id, 3, 42, D3), STORE_CONFLICT);
    assert_int_equal(store_hand_add(s, b.id, 1, 42, D1), STORE_CONFLICT);
    assert_int_equal(store_hand_add(s, b.id, 1, 41, D1), 0);
    /* Fixed seeds (tests, demos) are not sealed and may repeat. */
    assert_int_equal(store_hand_add(s, c.id, 1, 42, D1), 0);
    assert_int_equal(store_hand_add(s, d.id, 1, 42, D1), 0);
    seeds_t l = {0};
    assert_int_equal(store_hand_each(s, a.id, seed_fn, &l), 0);
    assert_string_equal(l.text, "1:18446744073709551615:1111;2:42:abcd;");
    /* a commitment that is not 64 lowercase hex digits is refused */
    assert_int_equal(
        store_hand_add(s, c.id, 2, 5,
                       "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789"),
        STORE_ERROR);
    assert_int_equal(store_hand_add(s, c.id, 2, 5, "abc"), STORE_ERROR);
    /* a hand sealed before commitments were kept reads back without one */
    raw_sql(f->path, "UPDATE hand_seeds SET digest = NULL WHERE hand = 2");
    l = (seeds_t){0};
    assert_int_equal(store_hand_each(s, a.id, seed_fn, &l), 0);
    assert_string_equal(l.text, "1:18446744073709551615:1111;2:42:;");
    store_close(s);
}

/* ---- The outbox ---------------------------------------------------------- */

static void test_the_outbox_gives_highest_priority_first_then_oldest(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    const char *texts[] = {"a", "b", "c", "d"};
    int prio[] = {0, 1, 0, 1};
    int64_t ids[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(
            store_outbox_add(s, "irc", "#p", STORE_MSG_ROOM, prio[i], texts[i], 10 + i, &ids[i]),
            0);
    assert_int_equal(store_outbox_add(s, "matrix", "@al:x", STORE_MSG_PRIVATE, 5, "x", 0, NULL), 0);
    store_msg m[8];
    int n = -1;
    assert_int_equal(store_outbox_peek(s, "irc", m, 8, &n), 0);
    assert_int_equal(n, 4);
    const char *order[] = {"b", "d", "a", "c"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(m[i].text, order[i]);
    assert_int_equal(m[0].id, ids[1]);
    assert_int_equal(m[0].priority, 1);
    assert_int_equal(m[0].kind, STORE_MSG_ROOM);
    assert_int_equal(m[0].created, 11);
    assert_string_equal(m[0].target, "#p");
    assert_int_equal(store_outbox_peek(s, "irc", m, 2, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(store_outbox_count(s, "irc", &n), 0);
    assert_int_equal(n, 4);
    assert_int_equal(store_outbox_done(s, ids[1]), 0);
    assert_int_equal(store_outbox_done(s, ids[1]), STORE_NOT_FOUND);
    assert_int_equal(store_outbox_peek(s, "irc", m, 8, &n), 0);
    assert_int_equal(n, 3);
    assert_string_equal(m[0].text, "d");
    assert_int_equal(store_outbox_peek(s, "matrix", m, 8, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(m[0].kind, STORE_MSG_PRIVATE);
    assert_string_equal(m[0].target, "@al:x");
    store_close(s);
}

static void test_the_outbox_version_changes_with_every_add_and_done(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    uint64_t v0 = store_outbox_version(s);
    int64_t id;
    assert_int_equal(store_outbox_add(s, "irc", "#p", STORE_MSG_ROOM, 0, "a", 1, &id), 0);
    uint64_t v1 = store_outbox_version(s);
    assert_true(v1 != v0);
    store_msg m[2];
    int n;
    assert_int_equal(store_outbox_peek(s, "irc", m, 2, &n), 0);
    assert_true(store_outbox_version(s) == v1); /* reading changes nothing */
    assert_int_equal(store_outbox_done(s, id), 0);
    assert_true(store_outbox_version(s) != v1);
    store_close(s);
}

static void test_outbox_ids_are_never_reused_after_deletes_and_reopen(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    int64_t id = 0, last = 0;
    store_msg m[4];
    int n;
    for (int i = 0; i < 3; i++)
        assert_int_equal(store_outbox_add(s, "irc", "#p", STORE_MSG_ROOM, 0, "t", 0, &last), 0);
    assert_int_equal(store_outbox_peek(s, "irc", m, 4, &n), 0);
    char first_txn[40];
    memcpy(first_txn, m[0].txn, sizeof first_txn);
    assert_memory_equal(first_txn, "pz", 2);
    for (int i = 0; i < n; i++)
        assert_int_equal(store_outbox_done(s, m[i].id), 0);
    store_close(s);
    s = open_ok(f);
    assert_int_equal(store_outbox_add(s, "irc", "#p", STORE_MSG_ROOM, 0, "t", 0, &id), 0);
    assert_true(id > last);
    assert_int_equal(store_outbox_peek(s, "irc", m, 4, &n), 0);
    assert_int_equal(n, 1);
    assert_string_not_equal(m[0].txn, first_txn);
    char tail[24];
    put(tail, sizeof tail, "-%lld", (long long)id);
    assert_string_equal(m[0].txn + strlen(m[0].txn) - strlen(tail), tail);
    store_close(s);
}

static void test_transaction_ids_differ_between_database_files(void **state)
{
    fx *f = *state;
    fx g = *f;
    put(g.path, sizeof g.path, "%s/other.db", f->dir);
    store *a = open_ok(f), *b = open_ok(&g);
    store_msg ma, mb;
    int n;
    assert_int_equal(store_outbox_add(a, "irc", "#p", STORE_MSG_ROOM, 0, "t", 0, NULL), 0);
    assert_int_equal(store_outbox_add(b, "irc", "#p", STORE_MSG_ROOM, 0, "t", 0, NULL), 0);
    assert_int_equal(store_outbox_peek(a, "irc", &ma, 1, &n), 0);
    assert_int_equal(store_outbox_peek(b, "irc", &mb, 1, &n), 0);
    assert_int_equal(ma.id, mb.id);
    assert_string_not_equal(ma.txn, mb.txn);
    store_close(a);
    store_close(b);
}

static void test_outbox_values_longer_than_their_buffers_are_too_big(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    char text[1025];
    memset(text, 'x', sizeof text - 1);
    text[1024] = '\0';
    int64_t id = -3;
    assert_int_equal(store_outbox_add(s, "irc", "#p", STORE_MSG_ROOM, 0, text, 0, &id),
                     STORE_TOO_BIG);
    assert_int_equal(id, -3);
    char target[STORE_ID_MAX + 1];
    memset(target, 't', STORE_ID_MAX);
    target[STORE_ID_MAX] = '\0';
    assert_int_equal(store_outbox_add(s, "irc", target, STORE_MSG_ROOM, 0, "x", 0, NULL),
                     STORE_TOO_BIG);
    text[1023] = '\0'; /* 1023 bytes fit */
    assert_int_equal(store_outbox_add(s, "irc", "#p", STORE_MSG_ROOM, 0, text, 0, &id), 0);
    store_msg m;
    int n;
    assert_int_equal(store_outbox_peek(s, "irc", &m, 1, &n), 0);
    assert_int_equal(strlen(m.text), 1023);
    store_close(s);
}

/* ---- Statistics and key/value state --------------------------------------- */

/* Adds one row of statistics. */
static void add_stats(store *s, const char *room, const char *player, const char *nick, int games,
                      int wins, int points)
{
    store_stats d = {.games = games,
                     .wins = wins,
                     .points = points,
                     .porrazos = 1,
                     .limpias = 2,
                     .san_benitos = 3};
    put(d.player, sizeof d.player, "%s", player);
    put(d.nick, sizeof d.nick, "%s", nick);
    assert_int_equal(store_stats_add(s, "irc", room, &d), 0);
}

static void test_stats_sum_per_room_and_over_the_network(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    add_stats(s, "#a", "alice", "Alice", 2, 1, 30);
    add_stats(s, "#a", "alice", "Alice", 1, 0, 4);
    add_stats(s, "#b", "alice", "Ally", 1, 1, 5);
    store_stats d = {.player = "alice", .nick = "x", .games = 50};
    assert_int_equal(store_stats_add(s, "matrix", "#a", &d), 0);
    store_stats st;
    assert_int_equal(store_stats_get(s, "irc", "#a", "alice", &st), 0);
    assert_int_equal(st.games, 3);
    assert_int_equal(st.wins, 1);
    assert_int_equal(st.points, 34);
    assert_int_equal(st.porrazos, 2);
    assert_int_equal(st.limpias, 4);
    assert_int_equal(st.san_benitos, 6);
    assert_string_equal(st.nick, "Ally"); /* the latest nick, in every room */
    assert_int_equal(store_stats_get(s, "irc", NULL, "alice", &st), 0);
    assert_int_equal(st.games, 4);
    assert_int_equal(st.wins, 2);
    assert_int_equal(st.points, 39);
    assert_int_equal(st.san_benitos, 9);
    assert_int_equal(store_stats_get(s, "irc", "#a", "nobody", &st), 0);
    assert_string_equal(st.player, "nobody");
    assert_string_equal(st.nick, "");
    assert_int_equal(st.games + st.wins + st.points + st.porrazos + st.limpias + st.san_benitos, 0);
    store_close(s);
}

static void test_stats_tally_counts_only_when_the_game_finishes(void **state)
{
    store *s = open_ok(*state);
    store_game g[3] = {game_of("irc", "#a", STORE_PLAYING), game_of("irc", "#b", STORE_PLAYING),
                       game_of("irc", "#c", STORE_PLAYING)};
    for (int i = 0; i < 3; i++)
        assert_int_equal(store_game_insert(s, &g[i]), 0);
    int64_t won = g[0].id, stopped = g[1].id, going = g[2].id;
    store_stats pts = {.player = "alice", .nick = "Alice", .points = 2, .porrazos = 1, .hints = 3};
    store_stats bob = {.player = "bob", .nick = "bob", .points = 13};
    assert_int_equal(store_stats_tally(s, won, &pts), 0);
    assert_int_equal(store_stats_tally(s, won, &pts), 0);
    assert_int_equal(store_stats_tally(s, stopped, &pts), 0);
    assert_int_equal(store_stats_tally(s, going, &bob), 0);
    /* Nothing counts yet: no row, and top lists nobody. */
    store_stats st, top[4];
    int n = -1;
    assert_int_equal(store_stats_get(s, "irc", NULL, "alice", &st), 0);
    assert_int_equal(st.games + st.points, 0);
    assert_int_equal(store_stats_top(s, "irc", NULL, STORE_EVERYONE, top, 4, &n), 0);
    assert_int_equal(n, 0);
    /* Stopped: its tally is dropped. Won: counted once, then forgotten. */
    g[1].status = STORE_STOPPED;
    assert_int_equal(store_game_update(s, &g[1]), 0);
    store_stats one = {.player = "alice", .nick = "Ally", .games = 1, .wins = 1};
    assert_int_equal(store_stats_tally(s, won, &one), 0);
    assert_int_equal(store_stats_finish(s, won, "irc", "#a"), 0);
    assert_int_equal(store_stats_finish(s, won, "irc", "#a"), 0); /* nothing left to add */
    assert_int_equal(store_stats_get(s, "irc", NULL, "alice", &st), 0);
    assert_int_equal(st.games, 1);
    assert_int_equal(st.wins, 1);
    assert_int_equal(st.points, 4);
    assert_int_equal(st.porrazos, 2);
    assert_int_equal(st.hints, 6); /* the hints asked for, as the rest */
    assert_string_equal(st.nick, "Ally");
    assert_int_equal(store_stats_top(s, "irc", NULL, STORE_EVERYONE, top, 4, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(top[0].player, "alice");
    /* A row without a finished game (a database of before) is not listed. */
    store_stats zero = {.player = "bot:beginner", .nick = "Robot (beginner)"};
    assert_int_equal(store_stats_add(s, "irc", "#a", &zero), 0);
    assert_int_equal(store_stats_top(s, "irc", "#a", STORE_ROBOTS, top, 4, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(store_stats_finish(s, stopped, "irc", "#b"), 0);
    assert_int_equal(store_stats_get(s, "irc", "#b", "alice", &st), 0);
    assert_int_equal(st.games + st.points, 0);
    store_close(s);
}

static void test_stats_top_ranks_by_wins_then_points_then_nick(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    add_stats(s, "#a", "alice", "Alice", 3, 1, 30);
    add_stats(s, "#a", "bob", "Bob", 3, 1, 40);
    add_stats(s, "#a", "carol", "carol", 3, 1, 10);
    add_stats(s, "#a", "zed", "Ann", 3, 1, 10);
    add_stats(s, "#b", "alice", "Alice", 1, 1, 0);
    store_stats top[8];
    int n = -1;
    assert_int_equal(store_stats_top(s, "irc", "#a", STORE_EVERYONE, top, 8, &n), 0);
    assert_int_equal(n, 4);
    const char *room_order[] = {"bob", "alice", "zed", "carol"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(top[i].player, room_order[i]);
    assert_int_equal(store_stats_top(s, "irc", NULL, STORE_EVERYONE, top, 2, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(top[0].player, "alice");
    assert_int_equal(top[0].wins, 2);
    assert_int_equal(top[0].games, 4);
    assert_string_equal(top[1].player, "bob");
    assert_int_equal(store_stats_top(s, "matrix", NULL, STORE_EVERYONE, top, 8, &n), 0);
    assert_int_equal(n, 0);
    store_stats big = {.nick = "n"};
    memset(big.player, 'p', sizeof big.player);
    assert_int_equal(store_stats_add(s, "irc", "#a", &big), STORE_TOO_BIG);
    store_close(s);
}

static void test_kv_values_are_set_replaced_and_read_with_any_bytes(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    char v[32] = "";
    assert_int_equal(store_kv_get(s, "matrix:main", "since", v, sizeof v), STORE_NOT_FOUND);
    assert_int_equal(store_kv_set(s, "matrix:main", "since", "s1"), 0);
    assert_int_equal(store_kv_set(s, "matrix:main", "since", "s2_\xff\xc0 \xe2\x82\xac"), 0);
    assert_int_equal(store_kv_set(s, "irc:main", "since", "other"), 0);
    assert_int_equal(store_kv_get(s, "matrix:main", "since", v, sizeof v), 0);
    assert_string_equal(v, "s2_\xff\xc0 \xe2\x82\xac");
    /* Too small a buffer: refused, and the buffer keeps its old content. */
    char small[4] = "abc";
    assert_int_equal(store_kv_get(s, "irc:main", "since", small, sizeof small), STORE_TOO_BIG);
    assert_string_equal(small, "abc");
    char exact[6];
    assert_int_equal(store_kv_get(s, "irc:main", "since", exact, sizeof exact), 0);
    assert_string_equal(exact, "other");
    /* forgotten: that key of that scope only, and twice is nothing */
    assert_int_equal(store_kv_del(s, "irc:main", "since"), 0);
    assert_int_equal(store_kv_del(s, "irc:main", "since"), 0);
    assert_int_equal(store_kv_get(s, "irc:main", "since", v, sizeof v), STORE_NOT_FOUND);
    assert_int_equal(store_kv_get(s, "matrix:main", "since", v, sizeof v), 0);
    store_close(s);
}

/* store_kv_each's callback: appends "key=value;" to the buffer (arg),
   and stops the walk (returns 7) at key "stop". */
static int kv_collect(void *arg, const char *key, const char *value)
{
    char *buf = arg;
    size_t n = strlen(buf);
    snprintf(buf + n, 128 - n, "%s=%s;", key, value);
    return strcmp(key, "stop") == 0 ? 7 : 0;
}

static void test_kv_each_walks_one_scope_in_key_order_and_stops_when_asked(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    char seen[128] = "";
    assert_int_equal(store_kv_each(s, "room", kv_collect, seen), 0);
    assert_string_equal(seen, "");
    assert_int_equal(store_kv_set(s, "room", "libera\x1f#b", "prefix=."), 0);
    assert_int_equal(store_kv_set(s, "room", "libera\x1f#a", "colours=off"), 0);
    assert_int_equal(store_kv_set(s, "notice",
                                  "libera\x1f"
                                  "ann",
                                  "on"),
                     0);
    assert_int_equal(store_kv_set(s, "room", "libera\x1f#a", "level=expert"), 0);
    assert_int_equal(store_kv_each(s, "room", kv_collect, seen), 0);
    assert_string_equal(seen, "libera\x1f#a=level=expert;libera\x1f#b=prefix=.;");
    /* fn's non-zero return stops the walk and is what the walk returns */
    assert_int_equal(store_kv_set(s, "room", "stop", ""), 0);
    assert_int_equal(store_kv_set(s, "room", "stop2", "never seen"), 0);
    seen[0] = '\0';
    assert_int_equal(store_kv_each(s, "room", kv_collect, seen), 7);
    assert_string_equal(seen, "libera\x1f#a=level=expert;libera\x1f#b=prefix=.;stop=;");
    store_close(s);
}

/* ---- Transactions and crashes --------------------------------------------- */

/* Writes one record of every kind for room ("irc" network). */
static void write_everything(store *s, const char *room)
{
    store_game g = game_of("irc", room, STORE_PLAYING);
    assert_int_equal(store_game_insert(s, &g), 0);
    store_seat seat = {0, "alice", "Al"};
    assert_int_equal(store_seats_set(s, g.id, &seat, 1), 0);
    assert_int_equal(store_action_append(s, g.id, 0, "[]", 1), 0);
    assert_int_equal(store_outbox_add(s, "irc", room, STORE_MSG_ROOM, 0, "hi", 1, NULL), 0);
    add_stats(s, room, "alice", "Al", 1, 1, 1);
    assert_int_equal(store_kv_set(s, "irc", room, "v"), 0);
}

/* How many of write_everything's six records for room are there. */
static int count_everything(store *s, const char *room)
{
    store_game g;
    store_seat seat;
    store_stats st;
    char v[8];
    int found = 0, n = 0;
    if (store_game_active(s, "irc", room, &g) == 0) {
        found++;
        assert_int_equal(store_seats_get(s, g.id, &seat, 1, &n), 0);
        found += n;
        assert_int_equal(store_action_count(s, g.id, &n), 0);
        found += n > 0;
        store_game_fini(&g);
    }
    assert_int_equal(store_outbox_count(s, "irc", &n), 0);
    found += n > 0;
    assert_int_equal(store_stats_get(s, "irc", room, "alice", &st), 0);
    found += st.games > 0;
    found += store_kv_get(s, "irc", room, v, sizeof v) == 0;
    return found;
}

static void test_a_rolled_back_transaction_leaves_nothing(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    assert_int_equal(store_begin(s), 0);
    write_everything(s, "#p");
    assert_int_equal(count_everything(s, "#p"), 6); /* visible inside */
    store_rollback(s);
    assert_int_equal(count_everything(s, "#p"), 0);
    store_close(s);
    s = open_ok(f);
    assert_int_equal(count_everything(s, "#p"), 0);
    store_close(s);
}

static void test_a_committed_transaction_is_all_there_after_reopen(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    assert_int_equal(store_begin(s), 0);
    write_everything(s, "#p");
    assert_int_equal(store_commit(s), 0);
    store_close(s);
    s = open_ok(f);
    assert_int_equal(count_everything(s, "#p"), 6);
    store_close(s);
}

static void test_nested_begins_and_a_commit_without_begin_are_refused(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    assert_int_equal(store_commit(s), STORE_ERROR);
    assert_int_equal(store_begin(s), 0);
    assert_int_equal(store_begin(s), STORE_ERROR);
    assert_non_null(strstr(store_errmsg(s), "already"));
    write_everything(s, "#p");
    assert_int_equal(store_commit(s), 0);
    assert_int_equal(store_commit(s), STORE_ERROR);
    store_rollback(s); /* harmless without a transaction */
    assert_int_equal(count_everything(s, "#p"), 6);
    store_close(s);
}

static void test_a_failed_write_in_a_transaction_undoes_only_itself(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    store_game a = game_of("irc", "#p", STORE_LOBBY), b = a;
    store_seat twice[3] = {{0, "x", "x"}, {0, "y", "y"}, {0, "z", "z"}};
    assert_int_equal(store_begin(s), 0);
    assert_int_equal(store_game_insert(s, &a), 0);
    assert_int_equal(store_game_insert(s, &b), STORE_CONFLICT);
    assert_int_equal(store_seats_set(s, a.id, twice, 1), 0);
    assert_int_equal(store_seats_set(s, a.id, twice + 1, 2), STORE_CONFLICT);
    assert_int_equal(store_outbox_add(s, "irc", "#p", STORE_MSG_ROOM, 0, "t", 0, NULL), 0);
    assert_int_equal(store_commit(s), 0);
    int n = -1;
    store_seat seats[2];
    assert_int_equal(store_outbox_count(s, "irc", &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(store_seats_get(s, a.id, seats, 2, &n), 0);
    assert_int_equal(n, 1); /* the failed replacement deleted nothing */
    assert_string_equal(seats[0].player, "x");
    store_game got;
    assert_int_equal(store_game_active(s, "irc", "#p", &got), 0);
    assert_int_equal(got.id, a.id);
    store_game_fini(&got);
    store_close(s);
}

/* The child's store: a global, so valgrind sees it reachable at _exit. */
static store *child_store;

/* In a child process: opens the database, writes a game with 3000 actions
   (more than SQLite's cache, so pages reach the WAL) and a message in one
   transaction, commits if asked, then dies by _exit or by SIGKILL. */
static void run_child(const fx *f, int commit, int sigkill)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        static char json[1000];
        char why[STORE_WHY_MAX];
        memset(json, 'j', sizeof json - 1);
        store_game g = game_of("irc", "#crash", STORE_PLAYING);
        if (store_open(&child_store, f->path, why, sizeof why) != 0 ||
            store_begin(child_store) != 0 || store_game_insert(child_store, &g) != 0)
            _exit(2);
        for (int i = 0; i < 3000; i++)
            if (store_action_append(child_store, g.id, i, json, i) != 0)
                _exit(3);
        if (store_outbox_add(child_store, "irc", "#crash", STORE_MSG_ROOM, 0, "t", 0, NULL) != 0)
            _exit(4);
        if (commit && store_commit(child_store) != 0)
            _exit(5);
        if (sigkill)
            kill(getpid(), SIGKILL);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (sigkill) {
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), SIGKILL);
    } else {
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
}

/* Reopens after the child and returns its game's action count (-1 none)
   and in *msgs the outbox count. */
static int after_child(const fx *f, int *msgs)
{
    store *s = open_ok(f);
    store_game g;
    int n = -1;
    if (store_game_active(s, "irc", "#crash", &g) == 0) {
        assert_int_equal(store_action_count(s, g.id, &n), 0);
        store_game_fini(&g);
    }
    assert_int_equal(store_outbox_count(s, "irc", msgs), 0);
    write_everything(s, "#after"); /* and the file is fully usable */
    store_close(s);
    return n;
}

static void test_a_child_that_exits_without_commit_leaves_nothing(void **state)
{
    fx *f = *state;
    store_close(open_ok(f));
    run_child(f, 0, 0);
    int msgs = -1;
    assert_int_equal(after_child(f, &msgs), -1);
    assert_int_equal(msgs, 0);
}

static void test_a_child_killed_mid_transaction_leaves_nothing(void **state)
{
    fx *f = *state;
    run_child(f, 0, 1);
    assert_true(file_size(f->path, "-wal") > 1 << 20); /* uncommitted pages spilled */
    int msgs = -1;
    assert_int_equal(after_child(f, &msgs), -1);
    assert_int_equal(msgs, 0);
}

static void test_a_commit_survives_a_child_killed_right_after_it(void **state)
{
    fx *f = *state;
    store_close(open_ok(f));
    run_child(f, 1, 1);
    assert_true(exists(f->path, "-wal")); /* it really died without closing */
    int msgs = -1;
    assert_int_equal(after_child(f, &msgs), 3000);
    assert_int_equal(msgs, 1);
    assert_false(exists(f->path, "-wal"));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

static void test_a_new_database_and_its_wal_are_readable_by_the_owner_only(void **state)
{
    fx *f = *state;
    mode_t old = umask(0);
    store *s = open_ok(f);
    umask(old);
    assert_int_equal(store_kv_set(s, "x", "k", "v"), 0);
    const char *suffix[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        char name[160];
        put(name, sizeof name, "%s%s", f->path, suffix[i]);
        struct stat sb;
        assert_int_equal(stat(name, &sb), 0);
        assert_int_equal(sb.st_mode & 0777, 0600);
    }
    store_close(s);
}

/* What the store told through store_set_alert. */
typedef struct alerts {
    int n, serious;
    char last[512];
} alerts;

static void on_alert(void *arg, bool serious, const char *msg)
{
    alerts *a = arg;
    a->n++;
    a->serious += serious;
    put(a->last, sizeof a->last, "%s", msg);
}

static void test_an_existing_database_others_may_read_is_made_private_and_told(void **state)
{
    fx *f = *state;
    FILE *fp = fopen(f->path, "wb");
    assert_non_null(fp);
    fclose(fp);
    assert_int_equal(chmod(f->path, 0644), 0);
    store *s = open_ok(f);
    struct stat sb;
    assert_int_equal(stat(f->path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    alerts a = {0};
    store_set_alert(s, on_alert, &a); /* the open's warning, told now */
    assert_int_equal(a.n, 1);
    assert_int_equal(a.serious, 0);
    assert_non_null(strstr(a.last, "made 0600"));
    assert_non_null(strstr(a.last, "0644"));
    store_close(s);
    s = open_ok(f); /* already private: nothing to tell */
    a.n = 0;
    store_set_alert(s, on_alert, &a);
    assert_int_equal(a.n, 0);
    store_close(s);
}

/* A value of kv read by SQLite itself through a connection of its own. */
static void raw_kv(const char *path, const char *key, char *out, size_t cap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT value FROM kv WHERE key = ?1", -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    put(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void unlink_side(const char *path, const char *suffix)
{
    char name[160];
    put(name, sizeof name, "%s%s", path, suffix);
    assert_int_equal(unlink(name), 0);
}

static void test_a_deleted_wal_is_copied_into_the_file_at_the_next_write_and_told_once(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    alerts a = {0};
    store_set_alert(s, on_alert, &a);
    assert_int_equal(store_kv_set(s, "x", "before", "1"), 0); /* in the -wal only */
    unlink_side(f->path, "-wal");
    unlink_side(f->path, "-shm");
    assert_int_equal(store_kv_set(s, "x", "after", "2"), 0);
    assert_int_equal(a.n, 1);
    assert_int_equal(a.serious, 1);
    assert_non_null(strstr(a.last, "-wal (and its -shm) was deleted"));
    assert_non_null(strstr(a.last, "nothing was lost"));
    assert_true(exists(f->path, "-wal"));
    assert_true(exists(f->path, "-shm"));
    /* Another connection sees both values: the file and the new -wal
       hold them, not the deleted -wal. */
    char v[8];
    raw_kv(f->path, "before", v, sizeof v);
    assert_string_equal(v, "1");
    raw_kv(f->path, "after", v, sizeof v);
    assert_string_equal(v, "2");
    assert_int_equal(store_kv_set(s, "x", "later", "3"), 0);
    assert_int_equal(a.n, 1);     /* told once */
    unlink_side(f->path, "-shm"); /* the -shm alone */
    store_check_files(s);
    assert_int_equal(a.n, 2);
    assert_non_null(strstr(a.last, "-shm was deleted"));
    store_close(s);
}

static void test_a_database_moved_away_is_told_once_until_it_is_back(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    alerts a = {0};
    store_set_alert(s, on_alert, &a);
    char moved[160];
    put(moved, sizeof moved, "%s.moved", f->path);
    assert_int_equal(rename(f->path, moved), 0);
    assert_int_equal(store_kv_set(s, "x", "k", "1"), 0);
    assert_int_equal(store_kv_set(s, "x", "k", "2"), 0);
    assert_int_equal(a.n, 1);
    assert_int_equal(a.serious, 1);
    assert_non_null(strstr(a.last, "was deleted or moved"));
    assert_int_equal(rename(moved, f->path), 0);
    assert_int_equal(store_kv_set(s, "x", "k", "3"), 0);
    assert_int_equal(a.n, 1);
    store_close(s);
    char v[8];
    raw_kv(f->path, "k", v, sizeof v);
    assert_string_equal(v, "3");
}

/* The parent's stores, global so valgrind sees them reachable when the
   child exits. */
static store *volatile parent_a, *volatile parent_b;

static void test_a_second_bot_on_the_same_file_is_refused(void **state)
{
    fx *f = *state;
    char why[STORE_WHY_MAX] = "";
    store *a = parent_a = open_ok(f), *b = parent_b = open_ok(f);
    assert_int_equal(store_lock_instance(a, why, sizeof why), 0);
    assert_int_equal(store_lock_instance(b, why, sizeof why), STORE_LOCKED);
    assert_non_null(strstr(why, "in use by another porrazo-bot process"));
    /* A child process (another bot) is refused too, until a closes. */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        store *c = NULL;
        char w[STORE_WHY_MAX];
        int rc = store_open(&c, f->path, w, sizeof w);
        bool refused = rc == 0 && store_lock_instance(c, w, sizeof w) == STORE_LOCKED;
        store_close(c);
        _exit(refused ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    store_close(a);
    assert_int_equal(store_lock_instance(b, why, sizeof why), 0);
    store_close(b);
}

static void test_another_writer_and_a_full_file_are_transient_faults(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    raw_sql(f->path, "SELECT 1"); /* the file exists */
    sqlite3 *other;
    assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    int rc = store_kv_set(s, "x", "k", "v");
    assert_int_equal(rc, STORE_BUSY);
    assert_true(store_err_transient(rc));
    assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    assert_int_equal(store_kv_set(s, "x", "k", "v"), 0);
    assert_int_equal(store_set_max_bytes(s, 1), 0); /* one page: nothing more fits */
    char big[4000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    rc = 0;
    for (int i = 0; i < 50 && rc == 0; i++) {
        char key[16];
        put(key, sizeof key, "k%d", i);
        rc = store_kv_set(s, "x", key, big);
    }
    assert_int_equal(rc, STORE_FULL);
    assert_true(store_err_transient(rc));
    assert_int_equal(store_set_max_bytes(s, 0), 0);
    assert_int_equal(store_kv_set(s, "x", "again", big), 0);
    store_close(s);
}

static void test_the_clock_index_gives_due_games_earliest_first(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    int64_t dues[] = {500, INT64_MAX, 100, 300};
    int64_t ids[4];
    for (int i = 0; i < 4; i++) {
        char room[16];
        put(room, sizeof room, "#r%d", i);
        store_game g = game_of("net", room, STORE_PLAYING);
        g.next_due = dues[i];
        g.updated = 1000 + i;
        assert_int_equal(store_game_insert(s, &g), 0);
        ids[i] = g.id;
    }
    int64_t at = 0;
    assert_int_equal(store_game_next_due(s, &at), 0);
    assert_int_equal(at, 100);
    store_due d[4];
    int n = 0;
    assert_int_equal(store_game_due(s, 400, d, 4, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(d[0].room, "#r2");
    assert_int_equal(d[0].due, 100);
    assert_string_equal(d[1].room, "#r3");
    assert_int_equal(store_game_set_due(s, ids[2], INT64_MAX), 0);
    assert_int_equal(store_game_next_due(s, &at), 0);
    assert_int_equal(at, 300);
    store_game back;
    assert_int_equal(store_game_get(s, ids[1], &back), 0);
    assert_true(back.next_due == INT64_MAX);
    store_game_fini(&back);
    int count = 0;
    assert_int_equal(store_game_count_active(s, &count), 0);
    assert_int_equal(count, 4);
    store_game done;
    assert_int_equal(store_game_get(s, ids[0], &done), 0);
    done.status = STORE_FINISHED;
    assert_int_equal(store_game_update(s, &done), 0);
    assert_int_equal(store_game_count_active(s, &count), 0);
    assert_int_equal(count, 3);
    done.status = STORE_PAUSED; /* back to active (never done by the host) */
    assert_int_equal(store_game_update(s, &done), 0);
    store_game_fini(&done);
    assert_int_equal(store_game_count_active(s, &count), 0);
    assert_int_equal(count, 4);
    assert_int_equal(store_game_recent(s, 1002, 4, d, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(d[0].room, "#r3"); /* most recent first */
    store_close(s);
}

static void test_the_outbox_is_read_by_range_counted_and_purged_per_target(void **state)
{
    fx *f = *state;
    store *s = open_ok(f);
    int64_t id[6];
    const char *targets[] = {"#a", "bob", "#a", "#a", "bob", "#b"};
    for (int i = 0; i < 6; i++)
        assert_int_equal(store_outbox_add(s, "net", targets[i], STORE_MSG_ROOM, 0, "t", 1, &id[i]),
                         0);
    assert_int_equal(store_outbox_add(s, "other", "#a", STORE_MSG_ROOM, 0, "t", 1, NULL), 0);
    store_msg m[8];
    int n = 0;
    assert_int_equal(store_outbox_since(s, "net", id[2], m, 8, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(m[0].id, id[3]);
    assert_int_equal(store_outbox_target_count(s, "net", "#a", 2, &n), 0);
    assert_int_equal(n, 2); /* counted up to the cap only */
    int64_t last = -1;
    assert_int_equal(store_outbox_last_id(s, "net", &last), 0);
    assert_int_equal(last, id[5]);
    assert_int_equal(store_outbox_last_id(s, "nowhere", &last), 0);
    assert_int_equal(last, 0);
    int64_t done[] = {id[0], id[1], id[1] + 1000};
    assert_int_equal(store_outbox_done_many(s, done, 3), 0);
    assert_int_equal(store_outbox_target_count(s, "net", "#a", 10, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(store_outbox_purge(s, "net", "#a", &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(store_outbox_count(s, "net", &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(store_outbox_count(s, "other", &n), 0);
    assert_int_equal(n, 1);
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_error_code_has_its_own_message),
        T(test_a_missing_file_is_created_as_a_porrazo_database),
        T(test_reopening_finds_what_was_written),
        T(test_a_file_with_larger_pages_keeps_them_and_works),
        T(test_an_empty_file_is_adopted_as_a_new_database),
        T(test_a_path_in_a_missing_directory_fails_naming_it),
        T(test_a_future_schema_is_refused_untouched),
        T(test_a_schema_1_database_is_migrated_keeping_its_games),
        T(test_a_sealed_seed_is_dealt_once_and_hands_read_back_in_order),
        T(test_a_new_database_and_its_wal_are_readable_by_the_owner_only),
        T(test_an_existing_database_others_may_read_is_made_private_and_told),
        T(test_a_deleted_wal_is_copied_into_the_file_at_the_next_write_and_told_once),
        T(test_a_database_moved_away_is_told_once_until_it_is_back),
        T(test_a_second_bot_on_the_same_file_is_refused),
        T(test_another_writer_and_a_full_file_are_transient_faults),
        T(test_the_clock_index_gives_due_games_earliest_first),
        T(test_the_outbox_is_read_by_range_counted_and_purged_per_target),
        T(test_a_truncated_database_is_refused_untouched),
        T(test_a_file_of_random_bytes_is_refused_untouched),
        T(test_another_programs_database_is_refused_untouched),
        T(test_a_database_with_another_application_id_is_refused_untouched),
        T(test_a_corrupted_page_is_refused_untouched),
        T(test_a_game_round_trips_every_field),
        T(test_missing_games_are_not_found),
        T(test_a_room_has_at_most_one_active_game),
        T(test_game_strings_longer_than_their_buffers_are_too_big),
        T(test_each_active_walks_oldest_first_and_the_callback_may_write),
        T(test_room_each_active_walks_the_rooms_index),
        T(test_an_update_that_keeps_room_and_status_writes_every_field),
        T(test_the_rooms_and_seats_kept_in_memory_follow_every_commit_and_rollback),
        T(test_seats_are_replaced_and_read_in_seat_order),
        T(test_games_of_a_player_are_her_active_games_of_that_network),
        T(test_actions_append_in_order_and_read_back),
        T(test_the_outbox_gives_highest_priority_first_then_oldest),
        T(test_the_outbox_version_changes_with_every_add_and_done),
        T(test_outbox_ids_are_never_reused_after_deletes_and_reopen),
        T(test_transaction_ids_differ_between_database_files),
        T(test_outbox_values_longer_than_their_buffers_are_too_big),
        T(test_stats_sum_per_room_and_over_the_network),
        T(test_stats_top_ranks_by_wins_then_points_then_nick),
        T(test_stats_tally_counts_only_when_the_game_finishes),
        T(test_kv_values_are_set_replaced_and_read_with_any_bytes),
        T(test_kv_each_walks_one_scope_in_key_order_and_stops_when_asked),
        T(test_a_rolled_back_transaction_leaves_nothing),
        T(test_a_committed_transaction_is_all_there_after_reopen),
        T(test_nested_begins_and_a_commit_without_begin_are_refused),
        T(test_a_failed_write_in_a_transaction_undoes_only_itself),
        T(test_a_child_that_exits_without_commit_leaves_nothing),
        T(test_a_child_killed_mid_transaction_leaves_nothing),
        T(test_a_commit_survives_a_child_killed_right_after_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
