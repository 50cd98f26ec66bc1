/*
 * store.c — the store's lifecycle: opening a database file, deciding
 * whether it may be used, migrating its schema, and transactions.
 *
 * An existing file is first inspected through a read-only connection that
 * can change nothing: its application id must be porrazo's (or the file
 * blank), its schema (PRAGMA user_version) not newer than this bot's, and
 * PRAGMA quick_check must pass. When no -wal or -journal file sits beside
 * it, the file is opened immutable, so even SQLite's -wal and -shm side
 * files are not created. A file that fails is refused with a message that
 * names it and says what to do, and is left as it was. Only then is it
 * opened read-write: WAL, synchronous=FULL, foreign keys, a busy timeout,
 * and the migrations of MIGRATIONS, one transaction each. One bot process
 * per file. Not here: the tables' rows (store_game.c, store_outbox.c,
 * store_stats.c), the SQLite plumbing (store_sql.c), and the files' modes
 * and the watch over the -wal (store_files.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_int.h"

#define STORE_APP_ID 0x507A7A6F /* "Pzzo": PRAGMA application_id */
#define STORE_OPEN_BUSY_MS 3000 /* at start: wait this long for another writer */
#define SHOWN_MAX 100           /* a file name in a message, bytes incl. NUL */

/*
 * The schema: MIGRATIONS[v] takes a database from user_version v to v + 1
 * and runs in one transaction together with setting user_version (and, from
 * version 0, the application id). To change the schema, append a step and
 * raise STORE_SCHEMA_VERSION; never edit a step that has shipped.
 */
static const char *const MIGRATIONS[] = {
    /* 0 -> 1: the first schema. */
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;"
    "INSERT INTO meta (key, value) VALUES ('instance', lower(hex(randomblob(8))));"
    "CREATE TABLE games ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " network TEXT NOT NULL, room TEXT NOT NULL,"
    " status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 4),"
    " creator TEXT NOT NULL, settings TEXT NOT NULL,"
    " seed TEXT NOT NULL, state TEXT,"
    " created INTEGER NOT NULL, updated INTEGER NOT NULL,"
    " turn_since INTEGER NOT NULL, reminded INTEGER NOT NULL,"
    " winner INTEGER NOT NULL);"
    "CREATE UNIQUE INDEX games_active ON games (network, room) WHERE status IN (0, 1, 2);"
    "CREATE TABLE seats ("
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " seat INTEGER NOT NULL CHECK (seat >= 0),"
    " player TEXT NOT NULL, nick TEXT NOT NULL,"
    " PRIMARY KEY (game_id, seat)) WITHOUT ROWID;"
    "CREATE TABLE actions ("
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL CHECK (seq >= 0),"
    " json TEXT NOT NULL, at INTEGER NOT NULL,"
    " PRIMARY KEY (game_id, seq)) WITHOUT ROWID;"
    "CREATE TABLE outbox ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " network TEXT NOT NULL, target TEXT NOT NULL,"
    " kind INTEGER NOT NULL CHECK (kind IN (0, 1)),"
    " priority INTEGER NOT NULL, text TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE INDEX outbox_order ON outbox (network, priority DESC, id);"
    "CREATE TABLE stats ("
    " network TEXT NOT NULL, room TEXT NOT NULL, player TEXT NOT NULL, nick TEXT NOT NULL,"
    " games INTEGER NOT NULL, wins INTEGER NOT NULL, points INTEGER NOT NULL,"
    " porrazos INTEGER NOT NULL, limpias INTEGER NOT NULL, san_benitos INTEGER NOT NULL,"
    " PRIMARY KEY (network, room, player)) WITHOUT ROWID;"
    "CREATE INDEX stats_player ON stats (network, player);"
    "CREATE TABLE kv ("
    " scope TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY (scope, key)) WITHOUT ROWID;",
    /* 1 -> 2: ids of lines already handled (Matrix event ids), per network. */
    "CREATE TABLE seen ("
    " network TEXT NOT NULL, id TEXT NOT NULL, at INTEGER NOT NULL,"
    " PRIMARY KEY (network, id)) WITHOUT ROWID;"
    "CREATE INDEX seen_at ON seen (at);",
    /* 2 -> 3: the clock as an index (next_due), the outbox read by range
       and per target, a player's games by index. next_due starts NULL: the
       host fills it in at start (host_new). */
    "ALTER TABLE games ADD COLUMN next_due INTEGER;"
    "CREATE INDEX games_due ON games (next_due) WHERE next_due IS NOT NULL;"
    "CREATE INDEX games_updated ON games (updated) WHERE status IN (0, 1, 2);"
    "CREATE INDEX seats_player ON seats (player);"
    "DROP INDEX outbox_order;"
    "CREATE INDEX outbox_net ON outbox (network);"
    "CREATE INDEX outbox_target ON outbox (network, target);"
    /* The number of active games, kept by triggers in the same
       transactions as the games themselves (max_games asks it per !new). */
    "CREATE TABLE counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;"
    "INSERT INTO counts (name, n) SELECT 'active', count(*) FROM games "
    " WHERE status IN (0, 1, 2);"
    "CREATE TRIGGER games_count_insert AFTER INSERT ON games WHEN new.status IN (0, 1, 2) "
    " BEGIN UPDATE counts SET n = n + 1 WHERE name = 'active'; END;"
    "CREATE TRIGGER games_count_delete AFTER DELETE ON games WHEN old.status IN (0, 1, 2) "
    " BEGIN UPDATE counts SET n = n - 1 WHERE name = 'active'; END;"
    "CREATE TRIGGER games_count_update AFTER UPDATE OF status ON games "
    " WHEN (old.status IN (0, 1, 2)) <> (new.status IN (0, 1, 2)) "
    " BEGIN UPDATE counts SET n = n + (CASE WHEN new.status IN (0, 1, 2) THEN 1 ELSE -1 END)"
    " WHERE name = 'active'; END;",
    /* 3 -> 4: a person's games with computer players at the table. */
    "ALTER TABLE stats ADD COLUMN robot_games INTEGER NOT NULL DEFAULT 0;",
    /* 4 -> 5: what a game under way has scored is kept apart, per game, and
       counted in stats only when the game finishes; a stopped game's tally
       is dropped with it (finished games are the only ones that count). */
    "CREATE TABLE tally ("
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " player TEXT NOT NULL, nick TEXT NOT NULL,"
    " games INTEGER NOT NULL, wins INTEGER NOT NULL, points INTEGER NOT NULL,"
    " porrazos INTEGER NOT NULL, limpias INTEGER NOT NULL, san_benitos INTEGER NOT NULL,"
    " robot_games INTEGER NOT NULL,"
    " PRIMARY KEY (game_id, player)) WITHOUT ROWID;"
    "CREATE TRIGGER tally_stopped AFTER UPDATE OF status ON games WHEN new.status = 4 "
    " BEGIN DELETE FROM tally WHERE game_id = new.id; END;",
    /* 5 -> 6: provably fair deals (FAIRNESS.md): a game's salt and whether
       its seeds stay secret until it ends, and each hand's seed; a sealed
       seed is never dealt twice in this file (the partial unique index). */
    "CREATE TABLE fair ("
    " game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,"
    " salt TEXT NOT NULL, sealed INTEGER NOT NULL);"
    "CREATE TABLE hand_seeds ("
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " hand INTEGER NOT NULL, seed TEXT NOT NULL, sealed INTEGER NOT NULL,"
    " PRIMARY KEY (game_id, hand)) WITHOUT ROWID;"
    "CREATE UNIQUE INDEX hand_seeds_once ON hand_seeds (seed) WHERE sealed = 1;",
    /* 6 -> 7: the hints a player asked for (issue 22), per game and summed. */
    "ALTER TABLE tally ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE stats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;",
    /* 7 -> 8: each hand's commitment as it was sealed (the room read its
       start), so a seed changed afterwards no longer matches it: the game's
       page checks one against the other. NULL: sealed before this column. */
    "ALTER TABLE hand_seeds ADD COLUMN digest TEXT;",
};

_Static_assert(sizeof MIGRATIONS / sizeof MIGRATIONS[0] == STORE_SCHEMA_VERSION,
               "one migration per schema version");

/* path for a message: whole if it fits SHOWN_MAX, else "..." and its end. */
static void show_path(const char *path, char *buf, size_t len)
{
    size_t n = strlen(path);
    if (n < len) {
        memcpy(buf, path, n + 1);
        return;
    }
    memcpy(buf, "...", 3);
    memcpy(buf + 3, path + n - (len - 4), len - 4);
    buf[len - 1] = '\0';
}

/* Whether path followed by suffix names an existing file. */
static bool side_file(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    char *name = malloc(n + m + 1);
    if (name == NULL)
        return true; /* the cautious answer: no immutable open */
    memcpy(name, path, n);
    memcpy(name + n, suffix, m + 1);
    struct stat sb;
    bool found = stat(name, &sb) == 0;
    free(name);
    return found;
}

/*
 * A malloc'd SQLite URI naming path ("file:" with '%', '?' and '#' escaped;
 * "file://" before an absolute path so that "//x" is not an authority),
 * ending in "?immutable=1" when immutable. NULL out of memory.
 */
static char *uri_for(const char *path, bool immutable)
{
    static const char hex[] = "0123456789ABCDEF";
    const char *head = path[0] == '/' ? "file://" : "file:";
    const char *tail = immutable ? "?immutable=1" : "";
    size_t n = strlen(path), hl = strlen(head), tl = strlen(tail);
    if (n > (SIZE_MAX - hl - tl - 1) / 3)
        return NULL;
    char *uri = malloc(hl + 3 * n + tl + 1);
    if (uri == NULL)
        return NULL;
    memcpy(uri, head, hl);
    size_t k = hl;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        if (c == '%' || c == '?' || c == '#') {
            uri[k++] = '%';
            uri[k++] = hex[c >> 4];
            uri[k++] = hex[c & 15];
        } else {
            uri[k++] = (char)c;
        }
    }
    memcpy(uri + k, tail, tl + 1);
    return uri;
}

/* Opens path with flags (plus SQLITE_OPEN_URI), immutable if asked, with
   extended result codes. Returns an SQLite code; *db is to be closed. */
static int open_db(const char *path, int flags, bool immutable, sqlite3 **db)
{
    *db = NULL;
    char *uri = uri_for(path, immutable);
    if (uri == NULL)
        return SQLITE_NOMEM;
    int rc = sqlite3_open_v2(uri, db, flags | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (*db != NULL) {
        sqlite3_extended_result_codes(*db, 1);
        /* Another process (a backup, a test reading the file) may hold a
           lock for a moment: wait for it rather than refuse to start. Once
           open, the timeout becomes short (open_rw): the loop never blocks. */
        (void)sqlite3_busy_timeout(*db, STORE_OPEN_BUSY_MS);
    }
    return rc;
}

/* The integer in the first column of sql's first row in *out (0 when there
   is no row). Returns an SQLite code. */
static int query_int(sqlite3 *db, const char *sql, int *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        *out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
        if (rc == SQLITE_ROW || rc == SQLITE_DONE)
            rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/*
 * The message and code for SQLite code rc met while inspecting the file
 * shown: damage (STORE_CORRUPT) or a failure to read it (STORE_ERROR).
 */
static int inspect_failed(sqlite3 *db, int rc, const char *shown, char *why, size_t len)
{
    const char *msg = db != NULL ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if ((rc & 0xff) == SQLITE_NOTADB) {
        store__format(why, len,
                      "%s is damaged or not a database (%.60s): restore it from a backup or "
                      "use another file; it was not changed",
                      shown, msg);
        return STORE_CORRUPT;
    }
    if ((rc & 0xff) == SQLITE_CORRUPT) {
        store__format(why, len,
                      "%s is damaged (%.60s): restore it from a backup; it was not changed", shown,
                      msg);
        return STORE_CORRUPT;
    }
    store__format(why, len, "cannot read %s (%.60s): check the path and its permissions", shown,
                  msg);
    return STORE_ERROR;
}

/*
 * Whether a file with application id id, schema version and objects
 * schema entries may be opened: porrazo's id (or a blank file: no id, no
 * schema, version 0) and a version this bot knows. 0, or STORE_CORRUPT or
 * STORE_VERSION with a message.
 */
static int judge(int id, int version, int objects, const char *shown, char *why, size_t len)
{
    if (id == 0 && objects == 0 && version == 0)
        return 0;
    if (id != STORE_APP_ID) {
        if (id != 0)
            store__format(why, len,
                          "%s is not a porrazo database (its application id is 0x%08X): use "
                          "another file; it was not changed",
                          shown, (unsigned)id);
        else
            store__format(why, len,
                          "%s is not a porrazo database (it is another program's SQLite file): "
                          "use another file; it was not changed",
                          shown);
        return STORE_CORRUPT;
    }
    if (version > STORE_SCHEMA_VERSION || version < 0) {
        store__format(why, len,
                      "%s was written by a newer porrazo-bot (schema %d; this one knows %d): "
                      "upgrade the bot or use another file",
                      shown, version, STORE_SCHEMA_VERSION);
        return STORE_VERSION;
    }
    return 0;
}

/* Runs PRAGMA quick_check on db: 0, or STORE_CORRUPT / STORE_ERROR. */
static int check_pages(sqlite3 *db, const char *shown, char *why, size_t len)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        rc = inspect_failed(db, rc == SQLITE_DONE ? SQLITE_CORRUPT : rc, shown, why, len);
        sqlite3_finalize(st);
        return rc;
    }
    char problem[64];
    const unsigned char *text = sqlite3_column_text(st, 0);
    store__format(problem, sizeof problem, "%s", text != NULL ? (const char *)text : "?");
    sqlite3_finalize(st);
    if (strcmp(problem, "ok") == 0)
        return 0;
    for (char *c = problem; *c != '\0'; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    store__format(why, len, "%s is damaged (%s): restore it from a backup; it was not changed",
                  shown, problem);
    return STORE_CORRUPT;
}

/*
 * Inspects the existing file at path through a read-only connection (an
 * immutable one unless a -wal or -journal file shows another connection
 * may have unfinished work): application id, schema version, quick_check.
 * Changes nothing. Returns 0 or a store_err with a message in why.
 */
static int inspect(const char *path, const char *shown, char *why, size_t len)
{
    bool immutable = !side_file(path, "-wal") && !side_file(path, "-journal");
    sqlite3 *db;
    int rc = open_db(path, SQLITE_OPEN_READONLY, immutable, &db);
    int id = 0, version = 0, objects = 0;
    if (rc == SQLITE_OK)
        rc = query_int(db, "PRAGMA application_id", &id);
    if (rc == SQLITE_OK)
        rc = query_int(db, "PRAGMA user_version", &version);
    if (rc == SQLITE_OK)
        rc = query_int(db, "SELECT count(*) FROM sqlite_master", &objects);
    int err;
    if (rc != SQLITE_OK)
        err = inspect_failed(db, rc, shown, why, len);
    else if ((err = judge(id, version, objects, shown, why, len)) == 0)
        err = check_pages(db, shown, why, len);
    sqlite3_close(db);
    return err;
}

/* The value of a text PRAGMA in buf (cut to fit). Returns an SQLite code. */
static int query_text(sqlite3 *db, const char *sql, char *buf, size_t len)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    buf[0] = '\0';
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        store__format(buf, len, "%s", t != NULL ? (const char *)t : "");
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/*
 * Sets the connection up: busy timeout, foreign keys (checked to be on),
 * synchronous=FULL (a commit survives a power cut), the page size of a new
 * file (STORE_PAGE_BYTES) and WAL (checked).
 * Returns 0 or a store_err with a message in s.
 */
static int configure(store *s)
{
    int rc = sqlite3_busy_timeout(s->db, STORE_OPEN_BUSY_MS);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(s->db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL", NULL, NULL,
                          NULL);
    int fk = 0;
    if (rc == SQLITE_OK)
        rc = query_int(s->db, "PRAGMA foreign_keys", &fk);
    char mode[16];
    /* Takes effect only in a file with no table yet (a new one; an older
       file keeps its size until a VACUUM), so it comes before WAL. */
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(s->db, "PRAGMA page_size = " STORE_PAGE_BYTES_TEXT, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = query_text(s->db, "PRAGMA journal_mode = WAL", mode, sizeof mode);
    if (rc != SQLITE_OK)
        return store__fail(s, rc, "setting the connection up");
    if (fk != 1)
        return store__say(s, STORE_ERROR, "this SQLite has no foreign keys");
    if (strcmp(mode, "wal") != 0)
        return store__say(s, STORE_ERROR, "WAL mode refused (journal mode is %s)", mode);
    return 0;
}

/* Runs sql (several statements) on s; 0 or a store_err naming what. */
static int exec(store *s, const char *sql, const char *what)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : store__fail(s, rc, what);
}

/* Applies MIGRATIONS[from] and sets the version (and the id, from 0) in
   the open transaction. 0 or a store_err. */
static int migrate_step(store *s, int from)
{
    char sql[96];
    int n = snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d",
                     from + 1, STORE_APP_ID);
    if (n < 0 || (size_t)n >= sizeof sql)
        return store__say(s, STORE_ERROR, "migration SQL too long");
    int rc = exec(s, MIGRATIONS[from], "migrating");
    if (rc == 0)
        rc = exec(s, sql, "setting the schema version");
    return rc;
}

/*
 * Brings the schema to STORE_SCHEMA_VERSION, one step per transaction,
 * reading the version again inside each (another process may have moved
 * it). Returns 0 or a store_err; steps already committed stay.
 */
static int migrate(store *s)
{
    for (;;) {
        int version = 0;
        int rc = exec(s, "BEGIN IMMEDIATE", "starting a migration");
        if (rc != 0)
            return rc;
        int src = query_int(s->db, "PRAGMA user_version", &version);
        if (src != SQLITE_OK)
            rc = store__fail(s, src, "reading the schema version");
        else if (version < 0 || version > STORE_SCHEMA_VERSION)
            rc = store__say(s, STORE_VERSION, "the schema became %d while opening", version);
        else if (version == STORE_SCHEMA_VERSION)
            return exec(s, "COMMIT", "ending the migrations");
        else
            rc = migrate_step(s, version);
        if (rc == 0)
            rc = exec(s, "COMMIT", "committing a migration");
        if (rc != 0) {
            if (!sqlite3_get_autocommit(s->db))
                sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
    }
}

/* Reads this file's instance id (part of every txn) into s->instance. */
static int load_instance(store *s)
{
    sqlite3_stmt *st = NULL;
    int rc =
        sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = 'instance'", -1, &st, NULL);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(st);
        return store__fail(s, rc, "reading the instance id");
    }
    int step = store__step(s, st);
    if (step == 1)
        rc = store__text(s, st, 0, s->instance, sizeof s->instance);
    else
        rc = step < 0 ? step : store__say(s, STORE_CORRUPT, "the instance id is missing");
    sqlite3_finalize(st);
    return rc;
}

/* Opens path read-write (creating it unless exists) and readies it: set
   up, migrated, instance loaded. 0 or a store_err with a message in s. */
static int open_rw(store *s, const char *path, bool exists)
{
    /* One thread (the loop's) uses this connection: no mutex of its own
       around every call (the computer players' thread and the pages' have
       none of it; the pages open their own, store_ro.c). */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (exists ? 0 : SQLITE_OPEN_CREATE);
    if (!exists) {
        /* A new file is the owner's alone (it holds access tokens): 0600,
           and SQLite gives its -wal and -shm files the same mode. */
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0)
            return store__say(s, STORE_ERROR, "cannot create the file: %s", strerror(errno));
        close(fd);
    }
    int rc = open_db(path, flags, false, &s->db);
    if (rc != SQLITE_OK) {
        if (s->db == NULL)
            return store__say(s, STORE_ERROR, "out of memory");
        return store__fail(s, rc, "opening");
    }
    if ((rc = configure(s)) == 0 && (rc = migrate(s)) == 0)
        rc = load_instance(s);
    if (rc == 0)
        store_set_busy_ms(s, STORE_BUSY_MS_DEFAULT);
    if (rc == 0)
        rc = store_set_cache(s, STORE_CACHE_KIB_DEFAULT, STORE_MMAP_MIB_DEFAULT);
    if (rc == 0)
        rc = store_set_game_cache(s, STORE_GAME_CACHE_MIB_DEFAULT);
    return rc;
}

/*
 * Opens (creating if absent) the database at path: an existing file is
 * inspected read-only first (see the file header) and refused unchanged
 * if damaged, foreign or newer; one that others may read is made 0600
 * (store_set_alert tells), or refused with the chmod to run; then it is
 * opened read-write, set up and migrated. Returns 0 and *out (the caller's, for store_close), or a
 * store_err with a message in why (why_len bytes; 0 allowed) that names
 * the file and what to do; *out is then untouched.
 */
int store_open(store **out, const char *path, char *why, size_t why_len)
{
    char shown[SHOWN_MAX];
    show_path(path, shown, sizeof shown);
    struct stat sb;
    bool exists = stat(path, &sb) == 0;
    if (!exists && errno != ENOENT) {
        store__format(why, why_len, "cannot open %s (%s): check the path and its permissions",
                      shown, strerror(errno));
        return STORE_ERROR;
    }
    int rc = exists ? inspect(path, shown, why, why_len) : 0;
    char note[STORE_ALERT_MAX] = "";
    if (rc == 0 && exists)
        rc = store__private_modes(path, shown, note, sizeof note, why, why_len);
    if (rc != 0)
        return rc;
    store *s = calloc(1, sizeof *s);
    if (s == NULL) {
        store__format(why, why_len, "cannot open %s: out of memory", shown);
        return STORE_ERROR;
    }
    s->lock_fd = -1;
    store__format(s->shown, sizeof s->shown, "%s", shown); /* cut whole at a character */
    memcpy(s->pending, note, sizeof s->pending);           /* for store_set_alert */
    if ((s->path = strdup(path)) == NULL || store__files_init(s) != 0) {
        store__format(why, why_len, "cannot open %s: out of memory", shown);
        store_close(s);
        return STORE_ERROR;
    }
    rc = open_rw(s, path, exists);
    if (rc != 0) {
        if (rc == STORE_VERSION || rc == STORE_CORRUPT)
            store__format(why, why_len, "%s cannot be used (%s): use another file", shown, s->msg);
        else
            store__format(why, why_len,
                          "cannot open %s for writing (%s): check the path, its permissions "
                          "and the free space, and that no other bot uses it",
                          shown, s->msg);
        store_close(s);
        return rc;
    }
    store__files_note(s); /* the -wal and -shm to watch (store_files.c) */
    *out = s;
    return 0;
}

/* Closes s (NULL is fine), rolling back an open transaction. */
void store_close(store *s)
{
    if (s == NULL)
        return;
    if (s->db != NULL && !sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->stmt[i]);
    sqlite3_close_v2(s->db);
    if (s->lock_fd >= 0)
        close(s->lock_fd); /* after SQLite: its own locks are gone with it */
    store__gc_free(s);
    free(s->path);
    free(s->wal_path);
    free(s->shm_path);
    free(s);
}

/*
 * Takes an exclusive flock on the database file for the life of s, so a
 * second bot process on the same file is refused at start. flock locks are
 * apart from SQLite's POSIX locks, and the descriptor stays open until
 * store_close, after SQLite closed its own (closing any descriptor of a
 * file drops the process's POSIX locks on it). 0, or STORE_LOCKED /
 * STORE_ERROR with a message in why.
 */
int store_lock_instance(store *s, char *why, size_t why_len)
{
    if (s->lock_fd >= 0)
        return 0;
    int fd = open(s->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        store__format(why, why_len, "cannot lock %s: %s", s->shown, strerror(errno));
        return STORE_ERROR;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK) {
            store__format(why, why_len,
                          "%s is in use by another porrazo-bot process: stop it first, or give "
                          "this one another database (--db FILE)",
                          s->shown);
            return STORE_LOCKED;
        }
        store__format(why, why_len, "cannot lock %s: %s", s->shown, strerror(e));
        return STORE_ERROR;
    }
    s->lock_fd = fd;
    return 0;
}

/* Sets the page cap for max_bytes (0: SQLite's own maximum). */
int store_set_max_bytes(store *s, int64_t max_bytes)
{
    int page = 0;
    int rc = query_int(s->db, "PRAGMA page_size", &page);
    if (rc != SQLITE_OK || page <= 0)
        return store__fail(s, rc, "reading the page size");
    int64_t pages = max_bytes > 0 ? max_bytes / page : 4294967294LL;
    if (pages < 1)
        pages = 1;
    char sql[64];
    int n = snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)pages);
    if (n < 0 || (size_t)n >= sizeof sql)
        return store__say(s, STORE_ERROR, "setting the size cap: %lld pages", (long long)pages);
    return exec(s, sql, "setting the size cap");
}

void store_set_busy_ms(store *s, int ms)
{
    (void)sqlite3_busy_timeout(s->db, ms > 0 ? ms : 0);
}

/* The message of the last error of s; "" before any. */
const char *store_errmsg(const store *s)
{
    return s->msg;
}

/*
 * Begins a transaction (BEGIN IMMEDIATE: it holds the write lock from the
 * start, waiting up to the busy timeout). Returns 0, or STORE_ERROR if one
 * is already open (nested begins are refused) or SQLite fails.
 */
int store_begin(store *s)
{
    if (s->in_txn)
        return store__say(s, STORE_ERROR, "a transaction is already open");
    store__files_check(s);
    store__gc_txn_end(s); /* data_version is asked anew in each transaction */
    int rc = store__run(s, ST_BEGIN, "BEGIN IMMEDIATE", "");
    if (rc == 0)
        s->in_txn = true;
    return rc;
}

/* synchronous back to FULL after a relaxed transaction. */
static void unrelax(store *s)
{
    if (s->relaxed)
        (void)store__quietly(s, ST_SYNC_FULL, "PRAGMA synchronous = FULL");
    s->relaxed = false;
}

int store_begin_read(store *s)
{
    if (s->in_txn)
        return store__say(s, STORE_ERROR, "a transaction is already open");
    store__gc_txn_end(s);
    int rc = store__run(s, ST_BEGIN_READ, "BEGIN DEFERRED", "");
    if (rc == 0)
        s->in_txn = true;
    return rc;
}

bool store_in_txn(const store *s)
{
    return s->in_txn;
}

int store_begin_relaxed(store *s)
{
    if (s->in_txn)
        return store__say(s, STORE_ERROR, "a transaction is already open");
    s->relaxed = store__quietly(s, ST_SYNC_NORMAL, "PRAGMA synchronous = NORMAL") == SQLITE_OK;
    int rc = store_begin(s);
    if (rc != 0)
        unrelax(s);
    return rc;
}

/*
 * Commits the open transaction. Returns 0, or a store_err when there is
 * none, when an earlier error made SQLite roll it back, or when the commit
 * fails, in which case it is rolled back: either everything since
 * store_begin is written or nothing is. No transaction is open afterwards.
 */
int store_commit(store *s)
{
    if (!s->in_txn)
        return store__say(s, STORE_ERROR, "no transaction is open");
    s->in_txn = false;
    store__gc_txn_end(s);
    if (sqlite3_get_autocommit(s->db)) {
        unrelax(s);
        return store__say(
            s, STORE_ERROR,
            "the transaction was rolled back by an earlier error; nothing was written");
    }
    int rc = store__run(s, ST_COMMIT, "COMMIT", "");
    if (rc != 0 && !sqlite3_get_autocommit(s->db))
        (void)store__quietly(s, ST_ROLLBACK, "ROLLBACK");
    unrelax(s);
    return rc;
}

/* Rolls the open transaction back (nothing when none is open). */
void store_rollback(store *s)
{
    if (s->in_txn && !sqlite3_get_autocommit(s->db))
        (void)store__quietly(s, ST_ROLLBACK, "ROLLBACK");
    s->in_txn = false;
    store__gc_txn_end(s);
    unrelax(s);
}
