/*
 * store_sql.c — the store's plumbing over SQLite: the cache of prepared
 * statements (each prepared once, reset and unbound after every use so
 * none holds a lock between calls), binding by a letter per argument,
 * stepping with every result code checked, reading columns into bounded
 * buffers (a value that does not fit is STORE_TOO_BIG, never cut), the
 * mapping of SQLite's codes to store_err with a message, and the wrapper
 * that makes each write operation atomic inside or outside store_begin.
 * Not here: any table or SQL of the schema.
 */
#define _POSIX_C_SOURCE 200809L

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* Formats into buf as store__format, from a va_list. */
static void vformat(char *buf, size_t len, const char *fmt, va_list ap) STORE_PRINTF(3, 0);
static void vformat(char *buf, size_t len, const char *fmt, va_list ap)
{
    if (buf == NULL || len == 0)
        return;
    int n = vsnprintf(buf, len, fmt, ap);
    if (n < 0)
        buf[0] = '\0';
    else if ((size_t)n >= len && len >= 4)
        memcpy(buf + len - 4, "...", 4);
}

/*
 * Formats a message into buf of len bytes. A message longer than the
 * buffer is cut and ends in "..." so the cut shows; nothing is written when
 * buf is NULL or len is 0.
 */
void store__format(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vformat(buf, len, fmt, ap);
    va_end(ap);
}

/* Formats a message into s->msg and returns err, for `return store__say()`. */
int store__say(store *s, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vformat(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    return err;
}

const char *store_strerror(int err)
{
    switch (err) {
    case STORE_OK:
        return "ok";
#define STORE_ERR_CASE_(name, val, msg)                                                            \
    case STORE_##name:                                                                             \
        return msg;
        STORE_ERRNO_MAP(STORE_ERR_CASE_)
#undef STORE_ERR_CASE_
    }
    return "unknown error";
}

bool store_err_transient(int err)
{
    return err == STORE_BUSY || err == STORE_FULL;
}

/*
 * Maps SQLite result code rc (extended codes are on) to a store_err and
 * writes "what: SQLite's message" to s->msg. Damage is STORE_CORRUPT, a
 * duplicate key STORE_CONFLICT, a missing parent row STORE_NOT_FOUND, an
 * over-long value STORE_TOO_BIG, anything else STORE_ERROR.
 */
int store__fail(store *s, int rc, const char *what)
{
    int err = STORE_ERROR;
    switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        err = STORE_CORRUPT;
        break;
    case SQLITE_TOOBIG:
        err = STORE_TOO_BIG;
        break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        err = STORE_BUSY;
        break;
    case SQLITE_FULL:
        err = STORE_FULL;
        break;
    case SQLITE_CONSTRAINT:
        if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
            err = STORE_CONFLICT;
        else if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
            err = STORE_NOT_FOUND;
        break;
    default:
        break;
    }
    return store__say(s, err, "%s: %s", what, sqlite3_errmsg(s->db));
}

/*
 * The statement of slot id, prepared from sql (persistently) on first use.
 * Every call for one slot must pass the same SQL text. Returns 0 and *out,
 * reset and unbound, or a store_err.
 */
int store__prepare(store *s, enum store_stmt id, const char *sql, sqlite3_stmt **out)
{
    assert(id >= 0 && id < ST_COUNT);
    if (s->stmt[id] == NULL) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL);
        if (rc != SQLITE_OK) {
            sqlite3_finalize(st);
            return store__fail(s, rc, "preparing a statement");
        }
        s->stmt[id] = st;
        s->sql[id] = sql;
    }
    assert(strcmp(s->sql[id], sql) == 0);
    *out = s->stmt[id];
    return 0;
}

/* store__bind from a va_list. */
static int vbind(store *s, sqlite3_stmt *st, const char *types, va_list ap)
{
    int rc = SQLITE_OK;
    for (int i = 0; types[i] != '\0' && rc == SQLITE_OK; i++) {
        switch (types[i]) {
        case 't': {
            const char *v = va_arg(ap, const char *);
            rc = v != NULL ? sqlite3_bind_text(st, i + 1, v, -1, SQLITE_STATIC)
                           : sqlite3_bind_null(st, i + 1);
            break;
        }
        case 'i':
            rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
            break;
        case 'd':
            rc = sqlite3_bind_int(st, i + 1, va_arg(ap, int));
            break;
        default:
            assert(!"unknown bind type");
            rc = SQLITE_MISUSE;
            break;
        }
    }
    if (rc == SQLITE_OK)
        return 0;
    rc = store__fail(s, rc, "binding a value");
    store__reset(st);
    return rc;
}

/*
 * Binds the variable arguments to ?1, ?2, ... of st, one per letter of
 * types: 't' a const char * (NULL binds NULL; the text must live until st
 * is reset), 'i' an int64_t, 'd' an int. Returns 0, or a store_err with st
 * reset.
 */
int store__bind(store *s, sqlite3_stmt *st, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    int rc = vbind(s, st, types, ap);
    va_end(ap);
    return rc;
}

/* Steps st: 1 for a row, 0 when done, or a store_err (with st reset). */
int store__step(store *s, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    char what[48];
    store__format(what, sizeof what, "%s", sqlite3_sql(st));
    int err = store__fail(s, rc, what);
    store__reset(st);
    return err;
}

int store__rows(store *s, sqlite3_stmt *st, int rc, store__row_fn read, void *out, size_t size,
                int max, int *n)
{
    unsigned char *tmp = NULL;
    int k = 0;
    if (rc == 0 && max > 0 && (tmp = malloc((size_t)max * size)) == NULL)
        rc = store__say(s, STORE_ERROR, "out of memory");
    while (rc == 0 && k < max && (rc = store__step(s, st)) == 1)
        if ((rc = read(s, st, tmp + (size_t)k * size)) == 0)
            k++;
    if (st != NULL)
        store__reset(st);
    if (rc == 0) {
        if (k > 0)
            memcpy(out, tmp, (size_t)k * size);
        *n = k;
    }
    free(tmp);
    return rc;
}

/* Resets st and clears its bindings: it holds no lock and no pointer. */
void store__reset(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

/*
 * Prepares slot id from sql, binds the arguments as store__bind and steps
 * the statement to its end, ignoring any rows; it is left reset. Returns 0
 * or a store_err.
 */
int store__run(store *s, enum store_stmt id, const char *sql, const char *types, ...)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, id, sql, &st);
    if (rc != 0)
        return rc;
    va_list ap;
    va_start(ap, types);
    rc = vbind(s, st, types, ap);
    va_end(ap);
    if (rc != 0)
        return rc;
    while ((rc = store__step(s, st)) == 1)
        ;
    if (rc == 0)
        store__reset(st);
    return rc;
}

/*
 * Copies text column col of the current row of st into dst of cap bytes
 * and NUL-terminates it; NULL reads as "". The bytes are copied as they
 * are (no UTF-8 check). Returns 0, or STORE_TOO_BIG (dst untouched) when
 * the value needs more than cap bytes, or STORE_ERROR out of memory.
 */
int store__text(store *s, sqlite3_stmt *st, int col, char *dst, size_t cap)
{
    const unsigned char *t = NULL;
    size_t n = 0;
    if (sqlite3_column_type(st, col) != SQLITE_NULL) {
        t = sqlite3_column_text(st, col);
        if (t == NULL)
            return store__fail(s, sqlite3_errcode(s->db), "reading a value");
        n = (size_t)sqlite3_column_bytes(st, col);
    }
    if (n >= cap)
        return store__say(s, STORE_TOO_BIG, "%s needs %zu bytes, more than the %zu given",
                          sqlite3_column_name(st, col), n + 1, cap);
    if (n > 0)
        memcpy(dst, t, n);
    dst[n] = '\0';
    return 0;
}

/*
 * Copies text column col of the current row of st into a new malloc'd
 * string in *out, the caller's to free; NULL reads as NULL. Returns 0 or
 * STORE_ERROR (out of memory, *out untouched).
 */
int store__dup(store *s, sqlite3_stmt *st, int col, char **out)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL) {
        *out = NULL;
        return 0;
    }
    const unsigned char *t = sqlite3_column_text(st, col);
    if (t == NULL)
        return store__fail(s, sqlite3_errcode(s->db), "reading a value");
    size_t n = (size_t)sqlite3_column_bytes(st, col);
    char *copy = malloc(n + 1);
    if (copy == NULL)
        return store__say(s, STORE_ERROR, "out of memory reading %zu bytes", n);
    memcpy(copy, t, n);
    copy[n] = '\0';
    *out = copy;
    return 0;
}

/*
 * Reads integer column col of the current row of st into *out. A value
 * that is not an integer or lies outside [lo, hi] returns err (*out
 * untouched) with a message naming the column.
 */
int store__int(store *s, sqlite3_stmt *st, int col, int lo, int hi, int err, int *out)
{
    int type = sqlite3_column_type(st, col);
    sqlite3_int64 v = sqlite3_column_int64(st, col);
    if (type != SQLITE_INTEGER || v < lo || v > hi)
        return store__say(s, err, "%s is %lld, outside %d..%d", sqlite3_column_name(st, col),
                          (long long)v, lo, hi);
    *out = (int)v;
    return 0;
}

/*
 * Whether str, read no further than cap bytes, is a string that fits a
 * buffer of cap bytes. Returns 0, or STORE_TOO_BIG with a message naming
 * what.
 */
int store__fits(store *s, const char *str, size_t cap, const char *what)
{
    if (strnlen(str, cap) < cap)
        return 0;
    return store__say(s, STORE_TOO_BIG, "%s is longer than %zu bytes", what, cap - 1);
}

/*
 * Returns the array p of *cap elements of size bytes, grown (doubled) if
 * needed to hold element n, updating *cap; or NULL out of memory, with a
 * message in s and p still valid and the caller's to free.
 */
void *store__grow(store *s, void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t c = *cap > 0 ? *cap * 2 : 8;
    if (c <= n || c > SIZE_MAX / size) {
        store__say(s, STORE_ERROR, "out of memory: %zu rows", n);
        return NULL;
    }
    void *q = realloc(p, c * size);
    if (q == NULL) {
        store__say(s, STORE_ERROR, "out of memory: %zu rows", c);
        return NULL;
    }
    *cap = c;
    return q;
}

/* Steps the statement of a transaction control slot (prepared once, as
   every slot), keeping s->msg: to undo after an error already reported,
   and for the rollbacks and PRAGMAs of every command, which sqlite3_exec
   would compile again each time. SQLITE_OK or the step's SQLite code. */
int store__quietly(store *s, enum store_stmt id, const char *sql)
{
    char keep[sizeof s->msg];
    memcpy(keep, s->msg, sizeof keep);
    sqlite3_stmt *st = NULL;
    int rc = SQLITE_ERROR;
    if (store__prepare(s, id, sql, &st) == 0) {
        rc = sqlite3_step(st);
        store__reset(st);
    }
    memcpy(s->msg, keep, sizeof keep);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

/*
 * Starts one write operation: BEGIN IMMEDIATE outside store_begin, a
 * savepoint inside it. Inside a transaction that SQLite has already ended
 * because of an earlier error, refuses with STORE_ERROR, so no write can
 * slip out of the caller's transaction. Returns 0 or a store_err.
 */
int store__op_begin(store *s)
{
    if (!s->in_txn) {
        store__files_check(s);
        return store__run(s, ST_BEGIN, "BEGIN IMMEDIATE", "");
    }
    if (sqlite3_get_autocommit(s->db))
        return store__say(s, STORE_ERROR,
                          "the transaction was ended by an earlier error: call store_rollback");
    return store__run(s, ST_SAVEPOINT, "SAVEPOINT store_op", "");
}

/*
 * Ends the operation begun by store__op_begin: with rc 0 commits (or
 * releases the savepoint) and returns 0 or the error of doing so, which
 * undoes the operation; with rc non-0 undoes it and returns rc, keeping
 * its message.
 */
int store__op_end(store *s, int rc)
{
    if (s->in_txn) {
        if (rc == 0 && (rc = store__run(s, ST_RELEASE, "RELEASE store_op", "")) == 0)
            return 0;
        if (!sqlite3_get_autocommit(s->db)) {
            store__quietly(s, ST_ROLLBACK_TO, "ROLLBACK TO store_op");
            store__quietly(s, ST_RELEASE, "RELEASE store_op");
        }
        return rc;
    }
    if (rc == 0 && (rc = store__run(s, ST_COMMIT, "COMMIT", "")) == 0)
        return 0;
    if (!sqlite3_get_autocommit(s->db))
        (void)store__quietly(s, ST_ROLLBACK, "ROLLBACK");
    return rc;
}
