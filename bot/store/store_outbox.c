/*
 * store_outbox.c — the outbox of messages not yet sent, and the adapters'
 * small key/value state.
 *
 * Outbox ids come from an AUTOINCREMENT key, so they only grow and are
 * never reused, even after deletes and restarts; a message's transaction
 * id is "pz", the file's random instance id, "-" and its id, so it is also
 * unique across database files (a network that deduplicates by
 * transaction id never drops a message of a fresh file). A message is
 * deleted once sent. Not here: sending, rate limits (the adapters').
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

#define MSG_TEXT_MAX (sizeof((store_msg *)0)->text)

/*
 * Queues a message of kind to target on network with priority, text and
 * creation time. Returns 0 and its id in *id (when id is not NULL);
 * STORE_TOO_BIG if network or target is longer than STORE_ID_MAX - 1 bytes
 * or text than 1023; else a store_err, with nothing queued.
 */
int store_outbox_add(store *s, const char *network, const char *target, store_msg_kind kind,
                     int priority, const char *text, int64_t created, int64_t *id)
{
    int rc = store__fits(s, network, STORE_ID_MAX, "the network");
    if (rc == 0)
        rc = store__fits(s, target, STORE_ID_MAX, "the target");
    if (rc == 0)
        rc = store__fits(s, text, MSG_TEXT_MAX, "the message");
    if (rc == 0 && kind != STORE_MSG_ROOM && kind != STORE_MSG_PRIVATE)
        rc = store__say(s, STORE_ERROR, "unknown message kind %d", (int)kind);
    if (rc != 0 || (rc = store__op_begin(s)) != 0)
        return rc;
    rc = store__run(s, ST_OUTBOX_ADD,
                    "INSERT INTO outbox (network, target, kind, priority, text, created) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    "ttddti", network, target, (int)kind, priority, text, created);
    int64_t new_id = sqlite3_last_insert_rowid(s->db);
    rc = store__op_end(s, rc);
    s->outbox_version++;
    if (rc == 0 && id != NULL)
        *id = new_id;
    return rc;
}

/* Reads the current outbox row of st into *m, its txn made from its id. */
static int read_msg(store *s, sqlite3_stmt *st, void *row)
{
    store_msg *m = row;
    int kind = 0;
    m->id = sqlite3_column_int64(st, 0);
    int rc = store__text(s, st, 1, m->network, sizeof m->network);
    if (rc == 0)
        rc = store__text(s, st, 2, m->target, sizeof m->target);
    if (rc == 0)
        rc = store__int(s, st, 3, STORE_MSG_ROOM, STORE_MSG_PRIVATE, STORE_CORRUPT, &kind);
    if (rc == 0)
        rc = store__int(s, st, 4, INT_MIN, INT_MAX, STORE_CORRUPT, &m->priority);
    if (rc == 0)
        rc = store__text(s, st, 5, m->text, sizeof m->text);
    m->kind = (store_msg_kind)kind;
    m->created = sqlite3_column_int64(st, 6);
    if (rc != 0)
        return rc;
    int n = snprintf(m->txn, sizeof m->txn, "pz%s-%" PRId64, s->instance, m->id);
    if (n < 0 || (size_t)n >= sizeof m->txn)
        return store__say(s, STORE_TOO_BIG, "the transaction id of message %" PRId64 " is too long",
                          m->id);
    return 0;
}

/*
 * Reads up to max unsent messages of network, highest priority first and
 * then oldest (lowest id), into out and their count into *n. Nothing is
 * marked; store_outbox_done does that. Returns 0 or a store_err, with out
 * and *n untouched.
 */
int store_outbox_peek(store *s, const char *network, store_msg *out, int max, int *n)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_OUTBOX_PEEK,
                            "SELECT id, network, target, kind, priority, text, created FROM outbox "
                            "WHERE network = ?1 ORDER BY priority DESC, id LIMIT ?2",
                            &st);
    if (rc == 0)
        rc = store__bind(s, st, "td", network, max);
    return store__rows(s, st, rc, read_msg, out, sizeof *out, max, n);
}

/* Deletes sent message id. 0, STORE_NOT_FOUND, or a store_err. */
int store_outbox_done(store *s, int64_t id)
{
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    rc = store__run(s, ST_OUTBOX_DONE, "DELETE FROM outbox WHERE id = ?1", "i", id);
    if (rc == 0 && sqlite3_changes(s->db) == 0)
        rc = store__say(s, STORE_NOT_FOUND, "no message %" PRId64 " in the outbox", id);
    s->outbox_version++;
    return store__op_end(s, rc);
}

uint64_t store_outbox_version(const store *s)
{
    return s->outbox_version;
}

/* The number of unsent messages of network into *n; 0 or a store_err with
 *n untouched. */
int store_outbox_count(store *s, const char *network, int *n)
{
    sqlite3_stmt *st = NULL;
    int rc =
        store__prepare(s, ST_OUTBOX_COUNT, "SELECT count(*) FROM outbox WHERE network = ?1", &st);
    if (rc == 0)
        rc = store__bind(s, st, "t", network);
    if (rc == 0 && (rc = store__step(s, st)) == 1)
        rc = store__int(s, st, 0, 0, INT_MAX, STORE_TOO_BIG, n);
    else if (rc == 0)
        rc = store__say(s, STORE_ERROR, "no count of messages");
    if (st != NULL)
        store__reset(st);
    return rc;
}

/*
 * Up to max unsent messages of network with an id above after, in id
 * order, into out and their count into *n. 0 or a store_err, with out and
 * *n untouched.
 */
int store_outbox_since(store *s, const char *network, int64_t after, store_msg *out, int max,
                       int *n)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_OUTBOX_SINCE,
                            "SELECT id, network, target, kind, priority, text, created FROM outbox "
                            "WHERE network = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
                            &st);
    if (rc == 0)
        rc = store__bind(s, st, "tid", network, after, max);
    return store__rows(s, st, rc, read_msg, out, sizeof *out, max, n);
}

/*
 * Deletes sent messages ids[0..n) together; rows already gone are fine.
 * On its own (outside store_begin) the batch is a relaxed transaction
 * (store_begin_relaxed): a power cut may undo these marks, which only
 * sends a message again, and the loop saves an fsync per batch.
 */
int store_outbox_done_many(store *s, const int64_t *ids, int n)
{
    if (n <= 0)
        return 0;
    bool own = !s->in_txn;
    int rc = own ? store_begin_relaxed(s) : store__op_begin(s);
    if (rc != 0)
        return rc;
    for (int i = 0; i < n && rc == 0; i++)
        rc = store__run(s, ST_OUTBOX_DONE, "DELETE FROM outbox WHERE id = ?1", "i", ids[i]);
    s->outbox_version++;
    if (!own)
        return store__op_end(s, rc);
    if (rc == 0)
        return store_commit(s);
    store_rollback(s);
    return rc;
}

/* The largest unsent id of network into *id, 0 when there is none. */
int store_outbox_last_id(store *s, const char *network, int64_t *id)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_OUTBOX_LAST,
                            "SELECT coalesce(max(id), 0) FROM outbox WHERE network = ?1", &st);
    if (rc == 0)
        rc = store__bind(s, st, "t", network);
    if (rc == 0 && (rc = store__step(s, st)) == 1) {
        *id = sqlite3_column_int64(st, 0);
        rc = 0;
    } else if (rc == 0) {
        rc = store__say(s, STORE_ERROR, "no largest message id");
    }
    if (st != NULL)
        store__reset(st);
    return rc;
}

/* The unsent messages of network to target, counted up to cap, in *n. */
int store_outbox_target_count(store *s, const char *network, const char *target, int cap, int *n)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_OUTBOX_TARGET_COUNT,
                            "SELECT count(*) FROM (SELECT 1 FROM outbox "
                            "WHERE network = ?1 AND target = ?2 LIMIT ?3)",
                            &st);
    if (rc == 0)
        rc = store__bind(s, st, "ttd", network, target, cap);
    if (rc == 0 && (rc = store__step(s, st)) == 1)
        rc = store__int(s, st, 0, 0, INT_MAX, STORE_TOO_BIG, n);
    else if (rc == 0)
        rc = store__say(s, STORE_ERROR, "no count of messages");
    if (st != NULL)
        store__reset(st);
    return rc;
}

/* Deletes every unsent message of network to target; *n how many. */
int store_outbox_purge(store *s, const char *network, const char *target, int *n)
{
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    rc = store__run(s, ST_OUTBOX_PURGE, "DELETE FROM outbox WHERE network = ?1 AND target = ?2",
                    "tt", network, target);
    int gone = rc == 0 ? sqlite3_changes(s->db) : 0;
    s->outbox_version++;
    rc = store__op_end(s, rc);
    if (rc == 0 && n != NULL)
        *n = gone;
    return rc;
}

/*
 * Sets key of scope to value (any text), replacing an old value. Returns 0
 * or a store_err, with the old value kept.
 */
int store_kv_set(store *s, const char *scope, const char *key, const char *value)
{
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    rc = store__run(s, ST_KV_SET,
                    "INSERT INTO kv (scope, key, value) VALUES (?1, ?2, ?3) "
                    "ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value",
                    "ttt", scope, key, value);
    return store__op_end(s, rc);
}

/* Forgets key in scope (nothing to do when unset). 0 or a store_err. */
int store_kv_del(store *s, const char *scope, const char *key)
{
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    rc = store__run(s, ST_KV_DEL, "DELETE FROM kv WHERE scope = ?1 AND key = ?2", "tt", scope, key);
    return store__op_end(s, rc);
}

/*
 * Copies the value of key in scope into value (cap bytes, NUL-terminated).
 * Returns 0; STORE_NOT_FOUND when unset; STORE_TOO_BIG when it needs more
 * than cap bytes; else a store_err. On error value is untouched.
 */
int store_kv_get(store *s, const char *scope, const char *key, char *value, size_t cap)
{
    sqlite3_stmt *st = NULL;
    int rc =
        store__prepare(s, ST_KV_GET, "SELECT value FROM kv WHERE scope = ?1 AND key = ?2", &st);
    if (rc == 0)
        rc = store__bind(s, st, "tt", scope, key);
    if (rc == 0 && (rc = store__step(s, st)) == 1)
        rc = store__text(s, st, 0, value, cap);
    else if (rc == 0)
        rc = store__say(s, STORE_NOT_FOUND, "%s has no %s", scope, key);
    if (st != NULL)
        store__reset(st);
    return rc;
}

/* The text of column col of st's row ("" for a NULL), or NULL (told). */
static const char *column_text(store *s, sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return "";
    const char *t = (const char *)sqlite3_column_text(st, col);
    if (t == NULL)
        store__fail(s, sqlite3_errcode(s->db), "reading a value");
    return t;
}

/* Walks scope's keys in order (store.h). */
int store_kv_each(store *s, const char *scope,
                  int (*fn)(void *arg, const char *key, const char *value), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_KV_EACH,
                            "SELECT key, value FROM kv WHERE scope = ?1 ORDER BY key", &st);
    if (rc == 0)
        rc = store__bind(s, st, "t", scope);
    while (rc == 0 && (rc = store__step(s, st)) == 1) {
        const char *key = column_text(s, st, 0),
                   *value = key != NULL ? column_text(s, st, 1) : NULL;
        rc = key == NULL || value == NULL ? STORE_ERROR : fn(arg, key, value);
    }
    if (st != NULL)
        store__reset(st);
    return rc;
}

/* ---- Lines already handled --------------------------------------------- */

int store_seen_add(store *s, const char *network, const char *id, int64_t at, bool *fresh)
{
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    rc = store__run(s, ST_SEEN_ADD,
                    "INSERT INTO seen (network, id, at) VALUES (?1, ?2, ?3) "
                    "ON CONFLICT (network, id) DO NOTHING",
                    "tti", network, id, at);
    bool added = rc == 0 && sqlite3_changes(s->db) > 0;
    rc = store__op_end(s, rc);
    if (rc == 0)
        *fresh = added;
    return rc;
}

int store_seen_has(store *s, const char *network, const char *id, bool *seen)
{
    sqlite3_stmt *st = NULL;
    int rc =
        store__prepare(s, ST_SEEN_HAS, "SELECT 1 FROM seen WHERE network = ?1 AND id = ?2", &st);
    if (rc == 0)
        rc = store__bind(s, st, "tt", network, id);
    if (rc == 0 && (rc = store__step(s, st)) >= 0) {
        *seen = rc == 1;
        rc = 0;
    }
    if (st != NULL)
        store__reset(st);
    return rc;
}

int store_seen_prune(store *s, int64_t before, int *n)
{
    int rc = store__op_begin(s);
    if (rc != 0)
        return rc;
    rc = store__run(s, ST_SEEN_PRUNE, "DELETE FROM seen WHERE at < ?1", "i", before);
    int gone = rc == 0 ? sqlite3_changes(s->db) : 0;
    rc = store__op_end(s, rc);
    if (rc == 0 && n != NULL)
        *n = gone;
    return rc;
}
