/*
 * host_bench_db.c — the host bench's databases and its adapter: games made
 * through host_handle, built files cached and checked, copies to measure
 * on, and the unpaced adapter that sends a network's outbox to a socket
 * (outq_load, outq_take, one write() per line, outq_sent, one
 * outq_flush_done per turn). Not here: what is timed (host_bench.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "host_bench_int.h"

/* Monotonic time in nanoseconds. */
int64_t hb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* snprintf that reports truncation: false when buf was too small. */
bool hb_fmt_ok(int len, size_t cap)
{
    return len >= 0 && (size_t)len < cap;
}

/* ---- The bench adapter ---------------------------------------------------- */

/* Reads and discards whatever waits at the socket's other end. */
void hb_sock_discard(hb_adapter *a)
{
    static char buf[65536];
    while (read(a->rfd, buf, sizeof buf) > 0)
        ;
}

/* Writes all of p[0..n) (draining the other end when the socket is full). */
static int sock_write(hb_adapter *a, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(a->wfd, p, n);
        if (k > 0) {
            p += k;
            n -= (size_t)k;
        } else if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            hb_sock_discard(a);
        } else if (k < 0 && errno != EINTR) {
            perror("porrazo-bench: write to the socketpair");
            return -1;
        }
    }
    return 0;
}

int hb_adapter_init(hb_adapter *a, store *st, const char *network, host *h)
{
    int fds[2];
    memset(a, 0, sizeof *a);
    a->wfd = a->rfd = -1;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
        perror("porrazo-bench: socketpair");
        return -1;
    }
    a->wfd = fds[0];
    a->rfd = fds[1];
    if (fcntl(a->wfd, F_SETFL, O_NONBLOCK) != 0 || fcntl(a->rfd, F_SETFL, O_NONBLOCK) != 0 ||
        outq_new(&a->q, st, network) != 0) {
        fprintf(stderr, "porrazo-bench: cannot set up the bench adapter\n");
        return -1;
    }
    outq_set_expander(a->q, host_expand, h); /* lines rendered when sent, as in the bot */
    return 0;
}

void hb_adapter_fini(hb_adapter *a)
{
    outq_free(a->q);
    if (a->wfd >= 0)
        close(a->wfd);
    if (a->rfd >= 0)
        close(a->rfd);
}

/*
 * One turn of the adapter, in the real adapters' order: outq_load, every
 * message taken and written as one line, outq_sent, one outq_flush_done.
 * Returns outq_load's result (1: more rows wait in the store, 0), or a
 * negative error.
 */
int hb_adapter_turn(hb_adapter *a)
{
    char line[HB_LINE_MAX];
    int rc = outq_load(a->q);
    if (rc < 0) {
        fprintf(stderr, "porrazo-bench: outq_load: %d\n", rc);
        return rc;
    }
    outq_msg *m;
    while ((m = outq_take(a->q, NULL, NULL)) != NULL) {
        int len = snprintf(line, sizeof line, "PRIVMSG %s :%s\r\n", m->target, m->text);
        if (!hb_fmt_ok(len, sizeof line) || sock_write(a, line, (size_t)len) != 0) {
            outq_untake(a->q, m);
            return -1;
        }
        a->t_last_write = hb_now_ns();
        if (a->watch != NULL && strcmp(m->target, a->watch) == 0)
            a->t_watch = a->t_last_write;
        outq_sent(a->q, m);
        a->sent++;
    }
    int err = outq_flush_done(a->q);
    if (err != 0) {
        fprintf(stderr, "porrazo-bench: outq_flush_done: %d\n", err);
        return err;
    }
    return rc;
}

/* Turns until the store has nothing more and the queue is empty. 0 or -1. */
int hb_adapter_drain(hb_adapter *a)
{
    for (long turns = 0; turns < HB_DRAIN_TURNS_MAX; turns++) {
        int rc = hb_adapter_turn(a);
        if (rc < 0)
            return -1;
        if (rc == 0 && outq_count(a->q) == 0)
            return 0;
    }
    fprintf(stderr, "porrazo-bench: the queue never emptied\n");
    return -1;
}

/* ---- Games ---------------------------------------------------------------- */

void hb_names_of(long k, const char *id_prefix, hb_names *n)
{
    snprintf(n->room, sizeof n->room, "#g%ld", k);
    snprintf(n->nick_a, sizeof n->nick_a, "p%lda", k);
    snprintf(n->nick_b, sizeof n->nick_b, "p%ldb", k);
    if (!hb_fmt_ok(snprintf(n->a, sizeof n->a, "%s%s", id_prefix, n->nick_a), sizeof n->a) ||
        !hb_fmt_ok(snprintf(n->b, sizeof n->b, "%s%s", id_prefix, n->nick_b), sizeof n->b))
        n->a[0] = n->b[0] = '\0'; /* never: the prefix is short (checked by the caller) */
}

/* A display name from a player id: what follows "n:" or "a:", if any. */
const char *hb_nick_of_id(const char *id)
{
    return (strncmp(id, "n:", 2) == 0 || strncmp(id, "a:", 2) == 0) ? id + 2 : id;
}

/* One line to the host. 0, or -1 with the host's message on stderr. */
int hb_say(host *h, const char *network, const char *room, const char *sender, const char *nick,
           const char *text, int64_t now)
{
    host_msg m = {.network = network,
                  .room = room,
                  .sender = sender,
                  .nick = nick,
                  .text = text,
                  .len = strlen(text)};
    if (host_handle(h, &m, now) != 0) {
        fprintf(stderr, "porrazo-bench: host_handle(%s): %s\n", text, host_errmsg(h));
        return -1;
    }
    return 0;
}

/* Opens a game in n->room: "!new 2" by a, "!join" by b (cards dealt). */
int hb_make_game(host *h, const char *network, const hb_names *n, int64_t now)
{
    if (hb_say(h, network, n->room, n->a, n->nick_a, "!new 2", now) != 0 ||
        hb_say(h, network, n->room, n->b, n->nick_b, "!join", now) != 0)
        return -1;
    return 0;
}

/* host_config.outq_of: the bench adapter's queue, whatever the network. */
static outq *queue_of(void *arg, const char *network)
{
    (void)network;
    return *(outq **)arg;
}

host *hb_open_host(store *st, outq **queue)
{
    host_config hc = {.prefix = "!",
                      .bot_name = "porrazo",
                      .reminder_secs = HB_REMINDER_SECS,
                      .max_games = HB_MAX_GAMES,
                      .outq_of = queue_of,
                      .outq_arg = queue};
    host *h = NULL;
    char why[STORE_WHY_MAX];
    if (host_new(&h, st, &hc, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bench: host_new: %s\n", why);
        return NULL;
    }
    return h;
}

store *hb_open_store(const char *path)
{
    store *st = NULL;
    char why[STORE_WHY_MAX];
    if (store_open(&st, path, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bench: %s\n", why);
        return NULL;
    }
    return st;
}

/* Removes path and its -wal and -shm files. */
void hb_remove_db(const char *path)
{
    char side[HB_PATH_MAX + 8];
    unlink(path);
    if (hb_fmt_ok(snprintf(side, sizeof side, "%s-wal", path), sizeof side))
        unlink(side);
    if (hb_fmt_ok(snprintf(side, sizeof side, "%s-shm", path), sizeof side))
        unlink(side);
}

/*
 * See host_bench_int.h.
 */
int hb_build_db(const char *path, const char *network, long count, const char *id_prefix,
                const hb_names *last, bool real_time)
{
    char tmp[HB_PATH_MAX + 8];
    if (!hb_fmt_ok(snprintf(tmp, sizeof tmp, "%s.tmp", path), sizeof tmp))
        return -1;
    hb_remove_db(tmp);
    store *st = hb_open_store(tmp);
    hb_adapter a = {0};
    host *h = st != NULL ? hb_open_host(st, &a.q) : NULL;
    int rc = h != NULL ? hb_adapter_init(&a, st, network, h) : -1;
    int64_t t0 = hb_now_ns(), step = count >= 10 ? count / 10 : 1;
    for (long k = 1; rc == 0 && k <= count; k++) {
        hb_names n;
        hb_names_of(k, id_prefix, &n);
        if (k == count && last != NULL)
            n = *last;
        int64_t now = real_time ? (int64_t)time(NULL) : HB_T0;
        rc = hb_make_game(h, network, &n, now);
        if (rc == 0 && (k % 1000 == 0 || k == count))
            rc = hb_adapter_drain(&a);
        if (count >= 10000 && k % step == 0)
            fprintf(stderr, "porrazo-bench: built %ld of %ld games (%.0f s)\n", k, count,
                    (double)(hb_now_ns() - t0) / 1e9);
    }
    double secs = (double)(hb_now_ns() - t0) / 1e9;
    if (h != NULL)
        hb_adapter_fini(&a);
    host_free(h);
    store_close(st);
    if (rc != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "porrazo-bench: building %s failed\n", path);
        hb_remove_db(tmp);
        return -1;
    }
    printf("# build games=%ld took_s=%.1f ms_per_game=%.2f (2 commands each, synchronous=FULL) "
           "-> %s\n",
           count, secs, secs * 1000 / (double)count, path);
    return 0;
}

/* The integer sql's first row gives in the file at path, or -1 (no row,
   NULL, not readable). */
static int query_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW &&
        sqlite3_column_type(q, 0) != SQLITE_NULL)
        v = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

/*
 * Whether path holds a usable built database: the current schema, `games`
 * active games, an empty outbox for network, and (when room is not NULL)
 * an active game in room. Says why not on stdout.
 */
bool hb_cached_ok(const char *path, const char *network, long games, const char *room)
{
    if (access(path, F_OK) != 0)
        return false;
    int v = query_int(path, "PRAGMA user_version");
    if (v != STORE_SCHEMA_VERSION) {
        printf("# %s: schema %d, not %d: rebuilding\n", path, v, STORE_SCHEMA_VERSION);
        return false;
    }
    /* a file an older bot built: measured, it would not be today's */
    int page = query_int(path, "PRAGMA page_size");
    int packed = query_int(path, "SELECT substr(state, 1, 1) = '~' FROM games "
                                 "WHERE state IS NOT NULL LIMIT 1");
    if (page != STORE_PAGE_BYTES || packed == 0) {
        printf("# %s: %d-byte pages, states %s: rebuilding\n", path, page,
               packed == 0 ? "in JSON" : "packed");
        return false;
    }
    store *st = hb_open_store(path);
    int active = -1, queued = -1;
    bool has_room = room == NULL;
    if (st != NULL && store_game_count_active(st, &active) == 0 &&
        store_outbox_count(st, network, &queued) == 0 && room != NULL) {
        store_game g = {0};
        has_room = store_game_active(st, network, room, &g) == 0;
        store_game_fini(&g);
    }
    store_close(st);
    if (active != games || queued != 0 || !has_room) {
        printf("# %s: %d active games, %d queued messages: rebuilding\n", path, active, queued);
        return false;
    }
    return true;
}

/* Copies the file src to dst (dst's -wal and -shm removed). 0 or -1. */
int hb_copy_db(const char *src, const char *dst)
{
    static char buf[1 << 16];
    hb_remove_db(dst);
    int in = open(src, O_RDONLY), out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ssize_t n = 0;
    while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) {
            n = -1;
            break;
        }
    int rc = in >= 0 && out >= 0 && n == 0 ? 0 : -1;
    if (in >= 0)
        close(in);
    /* On disk before anything is timed: else its writeback lands in the
       first commits' fsync (300 ms at 100,000 games on ext4). */
    if (rc == 0 && fsync(out) != 0)
        rc = -1;
    if (out >= 0 && close(out) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "porrazo-bench: cannot copy %s to %s\n", src, dst);
    return rc;
}
