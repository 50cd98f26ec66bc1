/*
 * store_stats.c — players' statistics per (network, room, player): games,
 * wins, points, porrazos, limpias and san benitos, added to after each
 * game and summed over a room or over every room of a network.
 *
 * What counts is decided here, once: finished games only. A game under
 * way adds to its own tally (table tally), which store_stats_finish
 * moves into stats when the game is won; a stopped game's tally is
 * dropped by the schema's trigger, so it never counts, and the reads
 * (stats and top alike) list nobody without a finished game.
 *
 * A player's nick is the one of their latest game anywhere on the
 * network: adding to one room renames them in all, so the totals over a
 * network have one name. Sums that do not fit an int are STORE_TOO_BIG.
 * Not here: what counts as a porrazo (the engine's) or ranking texts.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* store_stats_add's writes, inside the caller's operation. */
static int add_row(store *s, const char *network, const char *room, const store_stats *delta)
{
    int rc = store__run(
        s, ST_STATS_ADD,
        "INSERT INTO stats (network, room, player, nick, games, wins, points, "
        "porrazos, limpias, san_benitos, robot_games, hints) VALUES (?1, ?2, ?3, ?4, ?5, "
        "?6, ?7, ?8, ?9, ?10, ?11, ?12) ON CONFLICT (network, room, player) DO UPDATE SET "
        "games = games + excluded.games, wins = wins + excluded.wins, "
        "points = points + excluded.points, porrazos = porrazos + excluded.porrazos, "
        "limpias = limpias + excluded.limpias, "
        "san_benitos = san_benitos + excluded.san_benitos, "
        "robot_games = robot_games + excluded.robot_games, hints = hints + excluded.hints",
        "ttttdddddddd", network, room, delta->player, delta->nick, delta->games, delta->wins,
        delta->points, delta->porrazos, delta->limpias, delta->san_benitos, delta->robot_games,
        delta->hints);
    if (rc == 0)
        rc = store__run(s, ST_STATS_NICK,
                        "UPDATE stats SET nick = ?3 WHERE network = ?1 AND player = ?2 "
                        "AND nick IS NOT ?3",
                        "ttt", network, delta->player, delta->nick);
    return rc;
}

/*
 * Adds the counters of delta to the row of delta->player in (network,
 * room), creating it, and makes delta->nick their name on the whole
 * network. Returns 0, STORE_TOO_BIG (a string longer than STORE_ID_MAX - 1
 * bytes), or a store_err; on error nothing is written.
 */
int store_stats_add(store *s, const char *network, const char *room, const store_stats *delta)
{
    int rc = store__fits(s, network, STORE_ID_MAX, "the network");
    if (rc == 0)
        rc = store__fits(s, room, STORE_ID_MAX, "the room");
    if (rc == 0)
        rc = store__fits(s, delta->player, sizeof delta->player, "the player");
    if (rc == 0)
        rc = store__fits(s, delta->nick, sizeof delta->nick, "the nick");
    if (rc != 0 || (rc = store__op_begin(s)) != 0)
        return rc;
    return store__op_end(s, add_row(s, network, room, delta));
}

/* Reads player, nick and the eight counters from columns 0..9 of st. */
static int read_stats(store *s, sqlite3_stmt *st, void *row)
{
    store_stats *out = row;
    int *counts[] = {&out->games,   &out->wins,        &out->points,      &out->porrazos,
                     &out->limpias, &out->san_benitos, &out->robot_games, &out->hints};
    int rc = store__text(s, st, 0, out->player, sizeof out->player);
    if (rc == 0)
        rc = store__text(s, st, 1, out->nick, sizeof out->nick);
    for (int i = 0; rc == 0 && i < 8; i++)
        rc = store__int(s, st, 2 + i, INT_MIN, INT_MAX, STORE_TOO_BIG, counts[i]);
    return rc;
}

/*
 * Adds the counters of delta to delta->player's tally in game, creating
 * it: nothing of it counts until store_stats_finish. Returns 0,
 * STORE_TOO_BIG (a string longer than its field), or a store_err; on
 * error nothing is written.
 */
int store_stats_tally(store *s, int64_t game, const store_stats *delta)
{
    int rc = store__fits(s, delta->player, sizeof delta->player, "the player");
    if (rc == 0)
        rc = store__fits(s, delta->nick, sizeof delta->nick, "the nick");
    if (rc != 0 || (rc = store__op_begin(s)) != 0)
        return rc;
    rc = store__run(
        s, ST_TALLY_ADD,
        "INSERT INTO tally (game_id, player, nick, games, wins, points, porrazos, "
        "limpias, san_benitos, robot_games, hints) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
        "?8, ?9, ?10, ?11) ON CONFLICT (game_id, player) DO UPDATE SET nick = excluded.nick, "
        "games = games + excluded.games, wins = wins + excluded.wins, "
        "points = points + excluded.points, porrazos = porrazos + excluded.porrazos, "
        "limpias = limpias + excluded.limpias, "
        "san_benitos = san_benitos + excluded.san_benitos, "
        "robot_games = robot_games + excluded.robot_games, "
        "hints = hints + excluded.hints",
        "ittdddddddd", game, delta->player, delta->nick, delta->games, delta->wins, delta->points,
        delta->porrazos, delta->limpias, delta->san_benitos, delta->robot_games, delta->hints);
    return store__op_end(s, rc);
}

/* The most players a game's tally has: PZ_MAX_PLAYERS with room to spare. */
#define TALLY_MAX 16

/*
 * Game is finished: every player's tally in it is added to their
 * statistics in (network, room) as store_stats_add does, and the tally is
 * deleted. Returns 0 or a store_err; on error nothing is written.
 */
int store_stats_finish(store *s, int64_t game, const char *network, const char *room)
{
    store_stats rows[TALLY_MAX];
    int n = 0;
    int rc = store__fits(s, network, STORE_ID_MAX, "the network");
    if (rc == 0)
        rc = store__fits(s, room, STORE_ID_MAX, "the room");
    if (rc != 0 || (rc = store__op_begin(s)) != 0)
        return rc;
    sqlite3_stmt *st = NULL;
    rc = store__prepare(
        s, ST_TALLY_READ,
        "SELECT player, nick, games, wins, points, porrazos, limpias, "
        "san_benitos, robot_games, hints FROM tally WHERE game_id = ?1 ORDER BY player "
        "LIMIT ?2",
        &st);
    if (rc == 0)
        rc = store__bind(s, st, "id", game, TALLY_MAX);
    rc = store__rows(s, st, rc, read_stats, rows, sizeof rows[0], TALLY_MAX, &n);
    for (int i = 0; rc == 0 && i < n; i++)
        rc = add_row(s, network, room, &rows[i]);
    if (rc == 0)
        rc = store__run(s, ST_TALLY_DROP, "DELETE FROM tally WHERE game_id = ?1", "i", game);
    return store__op_end(s, rc);
}

/* The sums of every row of the query, one row per player. */
#define STATS_SUMS                                                                                 \
    "SELECT player, max(nick), sum(games), sum(wins), sum(points), sum(porrazos), "                \
    "sum(limpias), sum(san_benitos), sum(robot_games), sum(hints) FROM stats "                     \
    "WHERE network = ?1 AND (?2 IS NULL OR room = ?2)"

/*
 * A player's totals in room of network, or over every room of network
 * when room is NULL, into *out. A player who never played gets zeros, the
 * player id and an empty nick (and 0 is returned). Returns 0 or a
 * store_err, with *out untouched.
 */
int store_stats_get(store *s, const char *network, const char *room, const char *player,
                    store_stats *out)
{
    store_stats got;
    memset(&got, 0, sizeof got);
    int rc = store__fits(s, player, sizeof got.player, "the player");
    if (rc != 0)
        return rc;
    memcpy(got.player, player, strlen(player) + 1);
    sqlite3_stmt *st = NULL;
    rc = store__prepare(s, ST_STATS_GET, STATS_SUMS " AND player = ?3 GROUP BY player", &st);
    if (rc == 0)
        rc = store__bind(s, st, "ttt", network, room, player);
    if (rc == 0 && (rc = store__step(s, st)) == 1)
        rc = read_stats(s, st, &got);
    if (st != NULL)
        store__reset(st);
    if (rc == 0)
        *out = got;
    return rc;
}

/*
 * The best max players of room of network (room NULL: of all its rooms,
 * summed), people or computer players as who says, into out and their count into *n, by wins, then
 * points (both descending), then nick and player id. Returns 0 or a store_err, with out and *n
 * untouched.
 */
int store_stats_top(store *s, const char *network, const char *room, store_who who,
                    store_stats *out, int max, int *n)
{
    sqlite3_stmt *st = NULL;
    int rc = store__prepare(s, ST_STATS_TOP,
                            STATS_SUMS " AND (?4 = 2 OR (substr(player, 1, 4) = 'bot:') = ?4) "
                                       "GROUP BY player HAVING sum(games) > 0 "
                                       "ORDER BY sum(wins) DESC, sum(points) DESC, "
                                       "max(nick), player LIMIT ?3",
                            &st);
    if (rc == 0)
        rc = store__bind(s, st, "ttdd", network, room, max, (int)who);
    return store__rows(s, st, rc, read_stats, out, sizeof *out, max, n);
}
