/*
 * console.c — the console adapter (see console.h): a line reader over a
 * file descriptor with poll(), so the host's clock runs while the terminal
 * is quiet, and an outbox printer.
 *
 * Messages are printed and flushed before they are marked sent, so a crash
 * between the two repeats a line rather than losing it. A store that
 * refuses (locked, full) is reported on stderr and tried again at the next
 * line or tick: the console never stops for it.
 */
#include "console.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LINE_MAX_BYTES 4096

/* A message taken from the queue, kept to be printed in order. */
typedef struct kept {
    uint64_t seq;
    char *text; /* "TARGET <bot> TEXT" or "-> TARGET: TEXT" */
} kept;

static int by_seq(const void *a, const void *b)
{
    const kept *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Appends m, formatted, to *lines; -1 out of memory (m is then not taken). */
static int keep(kept **lines, size_t *n, size_t *cap, const outq_msg *m, const char *bot_name)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        kept *l = realloc(*lines, c * sizeof *l);
        if (l == NULL)
            return -1;
        *lines = l;
        *cap = c;
    }
    size_t len = strlen(m->target) + strlen(bot_name) + strlen(m->text) + 16;
    char *text = malloc(len);
    if (text == NULL)
        return -1;
    if (m->kind == MSG_ROOM)
        snprintf(text, len, "%s <%s> %s", m->target, bot_name, m->text);
    else
        snprintf(text, len, "-> %s: %s", m->target, m->text);
    (*lines)[*n].seq = m->seq;
    (*lines)[(*n)++].text = text;
    return 0;
}

/*
 * Prints every message the queue can give in the order they were queued
 * (a play's public line before the private lines it caused, as players
 * would see them: outq serves hands first, which suits a paced network,
 * not a terminal), then marks them sent in the store. A crash before the
 * marks prints them again at the next start; none is lost.
 */
int console_drain(outq *q, FILE *out, const char *bot_name)
{
    int rc, result = 0;
    kept *lines = NULL;
    size_t n = 0, cap = 0;
    do {
        rc = outq_load(q);
        if (rc < 0)
            fprintf(stderr, "console: cannot read the outbox (it is tried again)\n");
        outq_msg *m;
        while ((m = outq_take(q, NULL, NULL)) != NULL) {
            if (keep(&lines, &n, &cap, m, bot_name) != 0) {
                outq_untake(q, m);
                break;
            }
            outq_sent(q, m);
        }
    } while (rc == 1);
    if (n > 1)
        qsort(lines, n, sizeof *lines, by_seq);
    for (size_t i = 0; i < n; i++) {
        if (result == 0 && (fprintf(out, "%s\n", lines[i].text) < 0 || fflush(out) != 0))
            result = -1;
        free(lines[i].text);
    }
    free(lines);
    if (result == 0 && outq_flush_done(q) != 0)
        fprintf(stderr, "console: cannot mark messages sent yet (tried again)\n");
    return result;
}

/* Splits "NICK: TEXT" / "NICK> TEXT" and hands it to the host. */
static int handle_line(host *h, char *line, size_t len)
{
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
        line[--len] = '\0';
    if (len == 0 || line[0] == '#')
        return 0; /* blank lines and comments in scripts */
    size_t nick_len = strcspn(line, ":> ");
    char sep = line[nick_len];
    if (nick_len == 0 || nick_len > 32 || (sep != ':' && sep != '>')) {
        fprintf(stderr, "console: say 'NICK: text' in the channel or 'NICK> text' to the "
                        "bot privately\n");
        return 0;
    }
    line[nick_len] = '\0';
    char *text = line + nick_len + 1;
    while (*text == ' ')
        text++;
    host_msg m = {CONSOLE_NETWORK,
                  sep == ':' ? CONSOLE_ROOM : NULL,
                  line,
                  line,
                  text,
                  strlen(text),
                  NULL,
                  false, false, NULL, false};
    if (host_handle(h, &m, (int64_t)time(NULL)) != 0)
        fprintf(stderr, "console: %s\n", host_errmsg(h)); /* the player was told */
    return 0;
}

int console_run(host *h, outq *q, int fd_in, FILE *out, const char *bot_name, volatile int *stop)
{
    static char buf[LINE_MAX_BYTES];
    size_t have = 0;
    bool eof = false;
    if (console_drain(q, out, bot_name) != 0)
        return -1;
    while (!eof && !*stop) {
        int64_t now = (int64_t)time(NULL), next = host_next_tick(h, now);
        int timeout = next <= now ? 0 : next - now > 1 ? 1000 : (int)((next - now) * 1000);
        struct pollfd p = {fd_in, POLLIN, 0};
        int r = poll(&p, 1, timeout);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r > 0) {
            ssize_t got = read(fd_in, buf + have, sizeof buf - have - 1);
            if (got < 0 && errno != EINTR)
                return -1;
            eof = got == 0;
            have += got > 0 ? (size_t)got : 0;
            char *nl;
            while ((nl = memchr(buf, '\n', have)) != NULL || (eof && have > 0) ||
                   have == sizeof buf - 1) {
                size_t len = nl != NULL ? (size_t)(nl - buf) + 1 : have;
                char line[LINE_MAX_BYTES];
                memcpy(line, buf, len);
                line[len] = '\0';
                memmove(buf, buf + len, have - len);
                have -= len;
                if (handle_line(h, line, len) != 0 || console_drain(q, out, bot_name) != 0)
                    return -1;
            }
        }
        if (host_tick(h, (int64_t)time(NULL)) != 0)
            fprintf(stderr, "console: %s\n", host_errmsg(h));
        if (console_drain(q, out, bot_name) != 0)
            return -1;
    }
    return 0;
}
