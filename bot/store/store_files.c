/*
 * store_files.c — the store's files on disk: the database, its -wal and
 * its -shm. At open, an existing file that its group or others may read
 * is made 0600 as new ones are (it holds access tokens). While the bot
 * runs, before each write transaction, it checks that the -wal and -shm
 * at their paths are still the files its connection has open and that
 * the database itself has not been deleted or moved: one stat() of each
 * side file and SQLITE_FCNTL_HAS_MOVED (one stat() of the file), a few
 * microseconds against a commit's fsync; and when asked (store_check_files:
 * porrazo-bot asks when inotify says the folder changed, so an idle bot
 * saves at once what a kill -9 would lose before its next write).
 *
 * What SQLite does when the -wal is deleted under a live connection (tried
 * with SQLite 3.40.1 on Linux; tests/bot/storage_faults.py, test_store.c
 * and tests/irc/test_irc_wal.py hold the rescue to it):
 * the connection goes on appending to the unlinked -wal, which it still
 * has open, and reading through its unlinked -shm, without an error; a
 * kill -9 then loses every transaction since the last checkpoint, and the
 * next start finds no -wal. SQLITE_FCNTL_HAS_MOVED does not tell: SQLite
 * keeps no inode for the -wal (it answers 0 for a deleted -wal), so the
 * side files are compared by device and inode with what was noted when
 * they were opened. The rescue that works: PRAGMA wal_checkpoint(FULL)
 * copies the pages from the open, unlinked -wal into the database file
 * and syncs it (TRUNCATE copies as well, but answers 0 pages: it has
 * emptied the -wal), PRAGMA journal_mode = DELETE closes the old -wal and
 * -shm (SQLite unlinks their paths), PRAGMA journal_mode = WAL and a read
 * open a fresh -wal and -shm at the paths. Everything committed before is
 * then in the file, and what comes after is in a -wal on disk: a kill -9
 * loses nothing. A deleted or moved database file cannot be mended from
 * here (the connection writes to the file it has open, wherever it went):
 * that is told, loudly, once.
 *
 * Not here: opening and checking a database (store.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store_int.h"

#define MODE_PRIVATE 0600
#define SHOWN_WHAT_MAX 128 /* a file as messages name it, with "-wal (and its -shm)" */

/* A malloc'd path followed by suffix; NULL out of memory. */
static char *suffixed(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    char *name = malloc(n + m + 1);
    if (name != NULL) {
        memcpy(name, path, n);
        memcpy(name + n, suffix, m + 1);
    }
    return name;
}

/*
 * Makes path and its -wal and -shm (those present) 0600 when their group
 * or others have any access. Returns 0 with note saying what was made
 * private ("" when nothing was), or STORE_ERROR with why naming the file
 * and the command to run.
 */
int store__private_modes(const char *path, const char *shown, char *note, size_t note_len,
                         char *why, size_t why_len)
{
    static const char *const sides[] = {"", "-wal", "-shm"};
    char done[3][24];
    int ndone = 0;
    store__format(note, note_len, "%s", "");
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        char *name = suffixed(path, sides[i]);
        if (name == NULL) {
            store__format(why, why_len, "cannot open %s: out of memory", shown);
            return STORE_ERROR;
        }
        struct stat sb;
        int e = 0;
        if (stat(name, &sb) != 0) {
            e = errno;
            free(name);
            if (e == ENOENT && i > 0)
                continue; /* no -wal or -shm: nothing to tighten */
            store__format(why, why_len, "cannot read the mode of %s%s (%s): check its permissions",
                          shown, sides[i], strerror(e));
            return STORE_ERROR;
        }
        if ((sb.st_mode & 077) != 0 && chmod(name, MODE_PRIVATE) != 0)
            e = errno;
        else if ((sb.st_mode & 077) != 0)
            store__format(done[ndone++], sizeof done[0], "%s%s %04o", i > 0 ? "its " : "",
                          i > 0 ? sides[i] + 1 : "the file", (unsigned)(sb.st_mode & 07777));
        free(name);
        if (e != 0) {
            store__format(why, why_len,
                          "%s%s may be read by others and cannot be made private (%s): run "
                          "'chmod 600 %s %s-wal %s-shm' as its owner (the -wal and -shm may "
                          "be absent), then start again",
                          shown, sides[i], strerror(e), shown, shown, shown);
            return STORE_ERROR;
        }
    }
    if (ndone > 0)
        store__format(note, note_len,
                      "%s could be read by other users (%s%s%s%s%s): made 0600, as the bot "
                      "makes new database files, since it holds access tokens",
                      shown, done[0], ndone > 1 ? ", " : "", ndone > 1 ? done[1] : "",
                      ndone > 2 ? ", " : "", ndone > 2 ? done[2] : "");
    return 0;
}

int store__files_init(store *s)
{
    s->wal_path = suffixed(s->path, "-wal");
    s->shm_path = suffixed(s->path, "-shm");
    return s->wal_path != NULL && s->shm_path != NULL ? 0 : STORE_ERROR;
}

/* Notes the file at path in *id (unknown when there is none). */
static void note_file(const char *path, store_file_id *id)
{
    struct stat sb;
    id->known = stat(path, &sb) == 0;
    id->dev = id->known ? sb.st_dev : 0;
    id->ino = id->known ? sb.st_ino : 0;
}

void store__files_note(store *s)
{
    note_file(s->wal_path, &s->wal);
    note_file(s->shm_path, &s->shm);
}

/* False when a file noted in id is no longer at path (deleted, or another
   file in its place: the noted one is still open, so its inode cannot
   have been reused). */
static bool still_there(const char *path, const store_file_id *id)
{
    struct stat sb;
    if (!id->known)
        return true;
    return stat(path, &sb) == 0 && sb.st_dev == id->dev && sb.st_ino == id->ino;
}

void store__alert(store *s, const char *fmt, ...)
{
    char msg[STORE_ALERT_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof msg)
        memcpy(msg + sizeof msg - 4, "...", 4);
    if (s->alert != NULL)
        s->alert(s->alert_arg, true, msg);
}

void store_set_alert(store *s, store_alert_fn fn, void *arg)
{
    s->alert = fn;
    s->alert_arg = arg;
    if (fn != NULL && s->pending[0] != '\0') {
        fn(arg, false, s->pending);
        s->pending[0] = '\0';
    }
}

/* Runs a PRAGMA whose first column must read want (NULL: anything); its
   second column, if any, into *second. An SQLite code (SQLITE_BUSY when a
   checkpoint could not finish, SQLITE_ERROR for another answer). */
static int pragma(store *s, const char *sql, const char *want, int *second)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *v = sqlite3_column_text(st, 0);
        if (want != NULL && (v == NULL || strcmp((const char *)v, want) != 0))
            rc = SQLITE_ERROR;
        else if (want == NULL && sqlite3_column_int(st, 0) != 0)
            rc = SQLITE_BUSY; /* wal_checkpoint's first column: it was blocked */
        else
            rc = SQLITE_OK;
        if (second != NULL && sqlite3_column_count(st) > 1)
            *second = sqlite3_column_int(st, 1);
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* Whether a statement of s is under way (a read not reset): the journal
   mode cannot change then. */
static bool statement_busy(store *s)
{
    for (sqlite3_stmt *st = sqlite3_next_stmt(s->db, NULL); st != NULL;
         st = sqlite3_next_stmt(s->db, st))
        if (sqlite3_stmt_busy(st))
            return true;
    return false;
}

/*
 * The -wal or -shm named by what was lost: copies the connection's -wal
 * into the file and starts a fresh -wal and -shm (see the file header),
 * then tells. A failure is told once and tried again at the next write.
 */
static void rescue(store *s, const char *what)
{
    store__gc_flush(s); /* what the file holds is read anew after a rescue */
    if (!sqlite3_get_autocommit(s->db) || statement_busy(s))
        return; /* not between transactions: the next write tries */
    int pages = 0;
    const char *step = "copying it into the file";
    int rc = pragma(s, "PRAGMA wal_checkpoint(FULL)", NULL, &pages);
    if (rc == SQLITE_OK) {
        step = "leaving WAL mode";
        rc = pragma(s, "PRAGMA journal_mode = DELETE", "delete", NULL);
    }
    if (rc == SQLITE_OK) {
        step = "starting a new -wal";
        rc = pragma(s, "PRAGMA journal_mode = WAL", "wal", NULL);
    }
    if (rc == SQLITE_OK) {
        step = "opening the new -wal"; /* a read opens it (and the -shm) */
        rc = sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK) {
        store__files_note(s);
        s->rescue_told = false;
        store__alert(s,
                     "%s was deleted or replaced while the bot runs: the %d pages it held are "
                     "copied into %s and a new -wal is started; nothing was lost. Backups and "
                     "cleaners must leave the -wal and -shm alone while the bot runs",
                     what, pages > 0 ? pages : 0, s->shown);
        return;
    }
    /* SQLite's message, or its code's when the statement itself went
       well (a checkpoint held back by a reader, an unexpected mode). */
    const char *detail =
        sqlite3_errcode(s->db) != SQLITE_OK ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    if (!s->rescue_told)
        store__alert(s,
                     "%s was deleted or replaced while the bot runs, and %s failed (%s): what is "
                     "written now is in a file no longer on disk; it is tried again at each "
                     "write, and a clean stop (SIGTERM, not kill -9) saves it",
                     what, step, detail);
    s->rescue_told = true;
}

void store_check_files(store *s)
{
    store__files_check(s);
}

void store__files_check(store *s)
{
    if (s->in_txn || s->wal_path == NULL)
        return;
    int moved = 0;
    if (sqlite3_file_control(s->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved) {
        if (!s->moved_told)
            store__alert(s,
                         "%s was deleted or moved while the bot runs: the bot writes on to the "
                         "file it has open, no longer at that path, and its next start would "
                         "begin an empty database there; move the file back now, or stop the "
                         "bot and restore it from a backup",
                         s->shown);
        s->moved_told = true;
        return; /* a rescue into a file that is gone saves nothing */
    }
    s->moved_told = false; /* back in place: a later move is told again */
    bool wal = !still_there(s->wal_path, &s->wal), shm = !still_there(s->shm_path, &s->shm);
    if (!wal && !shm)
        return;
    char what[SHOWN_WHAT_MAX];
    store__format(what, sizeof what, "%s%s", s->shown,
                  wal && shm ? "-wal (and its -shm)"
                  : wal      ? "-wal"
                             : "-shm");
    rescue(s, what);
}
