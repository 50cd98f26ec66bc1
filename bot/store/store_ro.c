/*
 * store_ro.c — the database opened for reading only (the web pages'
 * thread): no migration, no change of mode, no write. The connection is
 * SQLITE_OPEN_READONLY with query_only set, so not even a bug can write
 * through it; WAL lets it read while the bot writes. Also the few reads
 * only pages need: a room's or a player's games, newest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

int store_open_ro(store **out, const char *path, char *why, size_t why_len)
{
    store *s = calloc(1, sizeof *s);
    if (s == NULL) {
        store__format(why, why_len, "out of memory");
        return STORE_ERROR;
    }
    s->lock_fd = -1;
    store__format(s->shown, sizeof s->shown, "%s", path);
    int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
    int version = -1;
    if (rc == SQLITE_OK) {
        sqlite3_extended_result_codes(s->db, 1);
        sqlite3_busy_timeout(s->db, STORE_BUSY_MS_DEFAULT);
        rc = sqlite3_exec(s->db,
                          "PRAGMA query_only = 1; PRAGMA cache_size = -8192; "
                          "PRAGMA mmap_size = 268435456",
                          NULL, NULL, NULL);
    }
    sqlite3_stmt *st = NULL;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL);
    if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_OK || version != STORE_SCHEMA_VERSION) {
        store__format(why, why_len, "cannot read %s: %s", s->shown,
                      rc != SQLITE_OK ? sqlite3_errmsg(s->db)
                                      : "not a porrazo database of this version");
        store_close(s);
        return rc != SQLITE_OK ? STORE_ERROR : STORE_VERSION;
    }
    *out = s;
    return 0;
}

int store_ro_games(store *s, const char *network, const char *room, const char *player, int max,
                   int (*fn)(void *arg, const store_game_brief *g), void *arg)
{
    static const char by_room[] =
        "SELECT id, status, winner, created, updated, -1 FROM games "
        "WHERE network = ?1 AND room = ?2 AND status <> 0 ORDER BY id DESC LIMIT ?3";
    static const char by_player[] =
        "SELECT g.id, g.status, g.winner, g.created, g.updated, s.seat FROM seats s "
        "JOIN games g ON g.id = s.game_id WHERE s.player = ?4 AND g.network = ?1 "
        "AND g.room = ?2 AND g.status <> 0 ORDER BY g.id DESC LIMIT ?3";
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, player != NULL ? by_player : by_room, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return store__fail(s, rc, "reading games");
    sqlite3_bind_text(st, 1, network, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, room, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, max);
    if (player != NULL)
        sqlite3_bind_text(st, 4, player, -1, SQLITE_STATIC);
    int out = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_game_brief g = {
            .id = sqlite3_column_int64(st, 0),
            .status = (store_status)sqlite3_column_int(st, 1),
            .winner = sqlite3_column_int(st, 2),
            .created = sqlite3_column_int64(st, 3),
            .updated = sqlite3_column_int64(st, 4),
            .seat = sqlite3_column_int(st, 5),
        };
        if ((out = fn(arg, &g)) != 0)
            break;
    }
    if (out == 0 && rc != SQLITE_DONE)
        out = store__fail(s, rc, "reading games");
    sqlite3_finalize(st);
    return out;
}
