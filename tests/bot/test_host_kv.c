/*
 * test_host_kv.c — host_kv_hold and host_kv_release: an adapter's kv writes
 * held into one transaction that reaches the -wal without an fsync of its
 * own, readable by another connection once released (what a process
 * started after a SIGKILL reads), made durable by the next fsynced commit,
 * and undone whole when its commit fails.
 *
 * The fsyncs are counted by a VFS of the test's own, made the default
 * before the store opens: every method passes through to the system's
 * VFS, and xSync also counts.
 */
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

#include "host.h"
#include "store.h"

/* ---- A VFS that counts xSync ------------------------------------------------ */

typedef struct cfile {
    sqlite3_file base;
    sqlite3_file *real; /* the system VFS's file, right after this struct */
} cfile;

static sqlite3_vfs *real_vfs;
static sqlite3_vfs counting_vfs;
static int syncs; /* xSync calls on any file since the test last zeroed it */

#define REAL(f) (((cfile *)(f))->real)

static int c_close(sqlite3_file *f)
{
    return REAL(f)->pMethods->xClose(REAL(f));
}
static int c_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o)
{
    return REAL(f)->pMethods->xRead(REAL(f), b, n, o);
}
static int c_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
    return REAL(f)->pMethods->xWrite(REAL(f), b, n, o);
}
static int c_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}
static int c_sync(sqlite3_file *f, int flags)
{
    syncs++;
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}
static int c_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}
static int c_lock(sqlite3_file *f, int l)
{
    return REAL(f)->pMethods->xLock(REAL(f), l);
}
static int c_unlock(sqlite3_file *f, int l)
{
    return REAL(f)->pMethods->xUnlock(REAL(f), l);
}
static int c_reserved(sqlite3_file *f, int *out)
{
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}
static int c_control(sqlite3_file *f, int op, void *arg)
{
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}
static int c_sector(sqlite3_file *f)
{
    return REAL(f)->pMethods->xSectorSize(REAL(f));
}
static int c_caps(sqlite3_file *f)
{
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}
static int c_shm_map(sqlite3_file *f, int i, int size, int extend, void volatile **p)
{
    return REAL(f)->pMethods->xShmMap(REAL(f), i, size, extend, p);
}
static int c_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
    return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}
static void c_shm_barrier(sqlite3_file *f)
{
    REAL(f)->pMethods->xShmBarrier(REAL(f));
}
static int c_shm_unmap(sqlite3_file *f, int del)
{
    return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}
static int c_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p)
{
    return REAL(f)->pMethods->xFetch(REAL(f), o, n, p);
}
static int c_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p)
{
    return REAL(f)->pMethods->xUnfetch(REAL(f), o, p);
}

static const sqlite3_io_methods counting_io = {
    .iVersion = 3,
    .xClose = c_close,
    .xRead = c_read,
    .xWrite = c_write,
    .xTruncate = c_truncate,
    .xSync = c_sync,
    .xFileSize = c_size,
    .xLock = c_lock,
    .xUnlock = c_unlock,
    .xCheckReservedLock = c_reserved,
    .xFileControl = c_control,
    .xSectorSize = c_sector,
    .xDeviceCharacteristics = c_caps,
    .xShmMap = c_shm_map,
    .xShmLock = c_shm_lock,
    .xShmBarrier = c_shm_barrier,
    .xShmUnmap = c_shm_unmap,
    .xFetch = c_fetch,
    .xUnfetch = c_unfetch,
};

/* The system VFS's open, its file behind ours (its methods must be v3, as
   unix's are; checked). */
static int c_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
    (void)vfs;
    cfile *c = (cfile *)f;
    c->real = (sqlite3_file *)&c[1];
    int rc = real_vfs->xOpen(real_vfs, name, c->real, flags, out);
    if (c->real->pMethods == NULL) {
        f->pMethods = NULL;
        return rc;
    }
    assert_true(c->real->pMethods->iVersion >= 3);
    f->pMethods = &counting_io;
    return rc;
}

/* The counting VFS, made the default for every connection opened after. */
static void count_syncs(void)
{
    real_vfs = sqlite3_vfs_find(NULL);
    assert_non_null(real_vfs);
    counting_vfs = *real_vfs;
    counting_vfs.zName = "pz-count-syncs";
    counting_vfs.szOsFile = (int)sizeof(cfile) + real_vfs->szOsFile;
    counting_vfs.xOpen = c_open;
    assert_int_equal(sqlite3_vfs_register(&counting_vfs, 1), SQLITE_OK);
}

/* ---- The host over a store --------------------------------------------------- */

typedef struct world {
    char dir[64];
    char path[96];
    store *st;
    host *h;
} world;

static world *new_world(void)
{
    world *w = calloc(1, sizeof *w);
    char why[256];
    assert_non_null(w);
    snprintf(w->dir, sizeof w->dir, "/tmp/pz-host-kv-XXXXXX");
    assert_non_null(mkdtemp(w->dir));
    snprintf(w->path, sizeof w->path, "%s/t.db", w->dir);
    assert_int_equal(store_open(&w->st, w->path, why, sizeof why), 0);
    host_config c = {.prefix = "!", .bot_name = "porrazo", .max_games = 10, .fixed_seed = true};
    assert_int_equal(host_new(&w->h, w->st, &c, why, sizeof why), 0);
    return w;
}

static void free_world(world *w)
{
    char cmd[128];
    host_free(w->h);
    store_close(w->st);
    snprintf(cmd, sizeof cmd, "rm -rf %s", w->dir);
    assert_int_equal(system(cmd), 0);
    free(w);
}

/* The value of key in scope as another connection reads it now (a process
   started after this one was killed reads the same), or "-" when unset. */
static void read_other(const world *w, const char *scope, const char *key, char *out, size_t cap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(w->path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(
        sqlite3_prepare_v2(db, "SELECT value FROM kv WHERE scope = ?1 AND key = ?2", -1, &st, NULL),
        SQLITE_OK);
    sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
    else
        snprintf(out, cap, "-");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void test_held_writes_land_together_without_an_fsync(void **state)
{
    (void)state;
    world *w = new_world();
    char v[64];
    syncs = 0;
    assert_int_equal(host_kv_set(w->h, "irc:t", "nick:n:ann", "ann"), 0);
    assert_true(syncs > 0); /* a write on its own is fsynced: the counter counts */
    syncs = 0;
    host_kv_hold(w->h);
    assert_int_equal(host_kv_set(w->h, "irc:t", "nick:n:bob", "Bob"), 0);
    assert_int_equal(host_kv_set(w->h, "irc:t", "mask:n:bob", "bob@example.org"), 0);
    assert_int_equal(host_kv_get(w->h, "irc:t", "mask:n:bob", v, sizeof v), 0); /* seen inside */
    assert_string_equal(v, "bob@example.org");
    read_other(w, "irc:t", "mask:n:bob", v, sizeof v);
    assert_string_equal(v, "-"); /* not before the release */
    assert_int_equal(host_kv_release(w->h), 0);
    assert_int_equal(syncs, 0);
    read_other(w, "irc:t", "nick:n:bob", v, sizeof v);
    assert_string_equal(v, "Bob");
    read_other(w, "irc:t", "mask:n:bob", v, sizeof v);
    assert_string_equal(v, "bob@example.org");
    /* The next write on its own is fsynced again: the hold's relaxed
       synchronous setting did not outlive it. */
    assert_int_equal(host_kv_set(w->h, "irc:t", "nick:n:cat", "cat"), 0);
    assert_true(syncs > 0);
    free_world(w);
}

static void test_a_hold_without_writes_opens_nothing(void **state)
{
    (void)state;
    world *w = new_world();
    char v[16];
    host_kv_hold(w->h);
    assert_int_equal(host_kv_get(w->h, "irc:t", "nick:n:ann", v, sizeof v), 1);
    assert_int_equal(host_kv_release(w->h), 0);
    /* No transaction was left open: another can begin and commit at once. */
    assert_int_equal(store_begin(w->st), 0);
    assert_int_equal(store_commit(w->st), 0);
    free_world(w);
}

static void test_a_hold_that_cannot_write_keeps_nothing_and_says_why(void **state)
{
    (void)state;
    world *w = new_world();
    char v[64];
    sqlite3 *other = NULL;
    assert_int_equal(sqlite3_open(w->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    host_kv_hold(w->h);
    assert_int_equal(host_kv_set(w->h, "irc:t", "mask:n:bob", "bob@example.org"), -1);
    assert_true(strlen(host_errmsg(w->h)) > 0);
    assert_int_equal(host_kv_release(w->h), 0); /* nothing was opened */
    assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    read_other(w, "irc:t", "mask:n:bob", v, sizeof v);
    assert_string_equal(v, "-");
    /* The host works on: the next hold writes. */
    host_kv_hold(w->h);
    assert_int_equal(host_kv_set(w->h, "irc:t", "mask:n:bob", "bob@example.org"), 0);
    assert_int_equal(host_kv_release(w->h), 0);
    read_other(w, "irc:t", "mask:n:bob", v, sizeof v);
    assert_string_equal(v, "bob@example.org");
    free_world(w);
}

static void test_a_hold_refuses_the_hosts_own_scopes(void **state)
{
    (void)state;
    world *w = new_world();
    host_kv_hold(w->h);
    assert_int_equal(host_kv_set(w->h, "leaving", "x", "1"), -1);
    assert_non_null(strstr(host_errmsg(w->h), "the host's own"));
    assert_int_equal(host_kv_release(w->h), 0);
    free_world(w);
}

int main(void)
{
    count_syncs();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_writes_land_together_without_an_fsync),
        cmocka_unit_test(test_a_hold_without_writes_opens_nothing),
        cmocka_unit_test(test_a_hold_that_cannot_write_keeps_nothing_and_says_why),
        cmocka_unit_test(test_a_hold_refuses_the_hosts_own_scopes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
