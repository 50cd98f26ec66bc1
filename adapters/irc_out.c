/*
 * irc_out.c — the send queue of irc_out (see irc_out.h): one FIFO of ready
 * raw lines per target, a token bucket that paces them, and the choice of
 * the next line (priority first, then round robin across targets).
 *
 * The bucket holds credit in milliseconds: it gains one per millisecond
 * elapsed up to burst * line_ms, and each line costs line_ms. Lines are
 * built whole when a message is pushed ("PRIVMSG target :text\r\n"), so
 * sending is a copy. Each target keeps the last line sent to it until the
 * next one, for a 707 requeue. Not here: the text rules (irc_out_text.c),
 * sockets, clocks.
 */
#include "irc_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX_PART_MAX 255 /* longest nick, user or host accepted */
#define DEFAULT_NICK_LEN 30 /* a common NICKLEN */
#define DEFAULT_USER_LEN 11 /* USERLEN 10 and the '~' of no ident */
#define REQUEUE_DELAY_MAX 600000
/* Parts a pushed text can make: colours at most triple it, and every part
   but the last fills at least half of what a line has room for. */
#define PARTS_MAX (IRC_OUT_TEXT_MAX * 3 / ((IRC_OUT_BUDGET_MIN - IRC_OUT_REOPEN_MAX) / 2) + 1)

/* One raw line, ready to write. */
struct irc_out_line {
    irc_out_line *next;
    int64_t tag;
    int priority;
    unsigned char first;    /* the first line of its message */
    unsigned char last;     /* the last line of its message */
    unsigned char reported; /* its tag was reported done */
    size_t len;             /* bytes of raw, CRLF included */
    char raw[];
};

/* A target's queue. */
struct irc_out_target {
    char name[IRC_OUT_TARGET_MAX];
    irc_out_line *head, *tail;
    irc_out_line *last_sent; /* for irc_out_requeue; owned */
    int64_t paused_until;    /* no line before this time (ms) */
};

/* Human messages of the error codes (irc_out.h). */
const char *irc_out_strerror(int err)
{
    switch (err) {
    case IRC_OUT_OK:
        return "ok";
#define IRC_OUT_ERR_CASE_(name, val, msg)                                                          \
    case IRC_OUT_E##name:                                                                          \
        return msg;
        IRC_OUT_ERRNO_MAP(IRC_OUT_ERR_CASE_)
#undef IRC_OUT_ERR_CASE_
    }
    return "unknown error";
}

/* ------------------------------------------------------------------------ */
/* Targets                                                                  */

/* a and b under the rfc1459 case mapping: A-Z [ ] \ ~ as a-z { } | ^. */
static int irc_equal(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        x = (x >= 'A' && x <= '^') ? (unsigned char)(x + 32) : x;
        y = (y >= 'A' && y <= '^') ? (unsigned char)(y + 32) : y;
        if (x != y)
            return 0;
        if (x == '\0')
            return 1;
    }
}

/* Whether name can follow PRIVMSG: no space, comma or control byte, no
   leading ':', shorter than IRC_OUT_TARGET_MAX. */
static int target_valid(const char *name)
{
    size_t n = 0;
    if (name[0] == '\0' || name[0] == ':')
        return 0;
    for (; name[n] != '\0'; n++)
        if ((unsigned char)name[n] <= ' ' || name[n] == ',' || name[n] == 0x7F)
            return 0;
    return n < IRC_OUT_TARGET_MAX;
}

/* The index of target name in q, or -1. */
static long target_find(const irc_out *q, const char *name)
{
    for (size_t i = 0; i < q->ntargets; i++)
        if (irc_equal(q->targets[i]->name, name))
            return (long)i;
    return -1;
}

/* Frees a chain of lines. */
static void lines_free(irc_out_line *l)
{
    while (l != NULL) {
        irc_out_line *next = l->next;
        free(l);
        l = next;
    }
}

/* Removes target i, which must have no queued line; keeps the round robin
   order of the others. */
static void target_remove(irc_out *q, size_t i)
{
    free(q->targets[i]->last_sent);
    free(q->targets[i]);
    memmove(&q->targets[i], &q->targets[i + 1], (q->ntargets - i - 1) * sizeof q->targets[0]);
    q->ntargets--;
    if (q->cursor > i)
        q->cursor--; /* the round robin goes on from the same target */
}

/*
 * The target called name, made if new; when all IRC_OUT_TARGETS_MAX are
 * in use, an idle one (nothing queued, not paused at now) is forgotten
 * first. NULL with *err when none can be made.
 */
static irc_out_target *target_get(irc_out *q, const char *name, int *err)
{
    long found = target_find(q, name);
    if (found >= 0)
        return q->targets[found];
    for (size_t i = 0; q->ntargets == IRC_OUT_TARGETS_MAX && i < q->ntargets; i++)
        if (q->targets[i]->head == NULL && q->targets[i]->paused_until <= q->clock_ms)
            target_remove(q, i);
    if (q->ntargets == IRC_OUT_TARGETS_MAX) {
        *err = IRC_OUT_EFULL;
        return NULL;
    }
    irc_out_target *t = calloc(1, sizeof *t);
    if (t == NULL) {
        *err = IRC_OUT_ENO_MEMORY;
        return NULL;
    }
    memcpy(t->name, name, strlen(name) + 1); /* target_valid: it fits */
    q->targets[q->ntargets++] = t;
    return t;
}

/* ------------------------------------------------------------------------ */
/* Life cycle and settings                                                  */

/* Starts an empty queue (irc_out.h). */
int irc_out_init(irc_out *q, int burst, int64_t line_ms)
{
    if (burst < 1 || burst > IRC_OUT_BURST_MAX || line_ms < 0 || line_ms > IRC_OUT_LINE_MS_MAX)
        return IRC_OUT_EINVAL;
    memset(q, 0, sizeof *q);
    q->line_ms = line_ms;
    q->cap_ms = burst * line_ms;
    q->level_ms = q->cap_ms;
    q->nick_len = DEFAULT_NICK_LEN;
    q->user_len = DEFAULT_USER_LEN;
    q->host_len = 0;
    return 0;
}

/* Drops every line, pause and last sent line (irc_out.h). */
void irc_out_clear(irc_out *q)
{
    for (size_t i = 0; i < q->ntargets; i++) {
        lines_free(q->targets[i]->head);
        free(q->targets[i]->last_sent);
        free(q->targets[i]);
    }
    q->ntargets = 0;
    q->cursor = 0;
    q->nlines = 0;
}

/* Frees what q holds (irc_out.h). */
void irc_out_fini(irc_out *q)
{
    irc_out_clear(q);
}

/* Sets the prefix lengths for the next pushes (irc_out.h). */
int irc_out_set_prefix(irc_out *q, size_t nick_len, size_t user_len, size_t host_len)
{
    if (nick_len > PREFIX_PART_MAX || user_len > PREFIX_PART_MAX || host_len > PREFIX_PART_MAX)
        return IRC_OUT_EINVAL;
    q->nick_len = nick_len;
    q->user_len = user_len;
    q->host_len = host_len;
    return 0;
}

/* Lines queued (irc_out.h). */
size_t irc_out_count(const irc_out *q)
{
    return q->nlines;
}

/* Whether a line tagged tag is queued (irc_out.h). */
int irc_out_has_tag(const irc_out *q, int64_t tag)
{
    for (size_t i = 0; i < q->ntargets; i++)
        for (const irc_out_line *l = q->targets[i]->head; l != NULL; l = l->next)
            if (l->tag == tag)
                return 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Pushing                                                                  */

/* A new line "CMD target :reopen+slice\r\n", or NULL (no memory). */
static irc_out_line *line_new(const char *cmd, const char *target, const char *text,
                              const irc_out_part *p)
{
    size_t size = strlen(cmd) + strlen(target) + strlen(p->reopen) + p->len + 6;
    irc_out_line *l = malloc(sizeof *l + size);
    if (l == NULL)
        return NULL;
    int n = snprintf(l->raw, size, "%s %s :%s%.*s\r\n", cmd, target, p->reopen, (int)p->len,
                     text + p->off);
    if (n < 0 || (size_t)n >= size) {
        free(l); /* cannot happen: size counts every byte */
        return NULL;
    }
    l->len = (size_t)n;
    l->next = NULL;
    return l;
}

/*
 * Builds the lines of the n parts of text as a chain in *head (tagged,
 * first and last marked). Returns 0, or IRC_OUT_ENO_MEMORY with nothing
 * allocated.
 */
static int lines_build(const char *cmd, const char *target, const char *text,
                       const irc_out_part *parts, size_t n, int priority, int64_t tag,
                       irc_out_line **head)
{
    irc_out_line *first = NULL, **link = &first;
    for (size_t k = 0; k < n; k++) {
        irc_out_line *l = line_new(cmd, target, text, &parts[k]);
        if (l == NULL) {
            lines_free(first);
            return IRC_OUT_ENO_MEMORY;
        }
        l->tag = tag;
        l->priority = priority;
        l->first = k == 0;
        l->last = k + 1 == n;
        l->reported = 0;
        *link = l;
        link = &l->next;
    }
    *head = first;
    return 0;
}

/*
 * Inserts the chain head..tail of one message into t's queue: after every
 * line of equal or higher priority and after the rest of a message already
 * started, before the first message of lower priority.
 */
static void target_insert(irc_out_target *t, irc_out_line *head, irc_out_line *tail)
{
    irc_out_line **link = &t->head;
    while (*link != NULL && ((*link)->priority >= head->priority || !(*link)->first))
        link = &(*link)->next;
    tail->next = *link;
    *link = head;
    if (tail->next == NULL)
        t->tail = tail;
}

/* Whether s[0..len) is one whole CTCP message: \x01 at both ends only. */
static int is_ctcp(const char *s, size_t len)
{
    return len >= 2 && s[0] == '\x01' && s[len - 1] == '\x01' &&
           memchr(s + 1, '\x01', len - 2) == NULL;
}

/*
 * Makes text ready to split into out[cap]: safe, with any \x01 as a space
 * unless the text is one whole CTCP message (so user text in a line can
 * never start a CTCP), coloured when asked. Returns its length, or a
 * negative error.
 */
static int text_prepare(const char *text, int colour, char *out, size_t cap)
{
    char safe[IRC_OUT_TEXT_MAX + 1], *ctcp;
    size_t len = strlen(text);
    if (len > IRC_OUT_TEXT_MAX)
        return IRC_OUT_ETOO_LONG;
    len = irc_out_sanitize(safe, sizeof safe, text, len);
    while (!is_ctcp(safe, len) && (ctcp = memchr(safe, '\x01', len)) != NULL)
        *ctcp = ' ';
    if (colour)
        return irc_out_colour(out, cap, safe);
    memcpy(out, safe, len + 1);
    return (int)len;
}

/* Queues text for target, split into lines (irc_out.h). */
int irc_out_push(irc_out *q, const char *target, irc_out_kind kind, int priority, int colour,
                 const char *text, int64_t tag)
{
    irc_out_part parts[PARTS_MAX];
    char ready[IRC_OUT_TEXT_MAX * 3 + 1];
    const char *cmd = kind == IRC_OUT_NOTICE ? "NOTICE" : "PRIVMSG";
    size_t n;
    if (!target_valid(target))
        return IRC_OUT_EBAD_TARGET;
    int err = text_prepare(text, colour, ready, sizeof ready);
    if (err < 0)
        return err;
    size_t budget = irc_out_budget(q->nick_len, q->user_len, q->host_len, kind, strlen(target));
    if (budget < IRC_OUT_BUDGET_MIN)
        return IRC_OUT_ENO_ROOM;
    err = irc_out_split(ready, budget, parts, PARTS_MAX, &n);
    if (err < 0 || n == 0)
        return err < 0 ? err : 0;
    if (q->nlines + n > IRC_OUT_LINES_MAX)
        return IRC_OUT_EFULL;
    irc_out_line *head, *tail;
    if ((err = lines_build(cmd, target, ready, parts, n, priority, tag, &head)) < 0)
        return err;
    irc_out_target *t = target_get(q, target, &err);
    if (t == NULL) {
        lines_free(head);
        return err;
    }
    for (tail = head; tail->next != NULL; tail = tail->next)
        ;
    target_insert(t, head, tail);
    q->nlines += n;
    return (int)n;
}

/* ------------------------------------------------------------------------ */
/* Sending                                                                  */

/* The bucket's credit at now, which is not before the last refill. */
static int64_t bucket_level(const irc_out *q, int64_t now_ms)
{
    if (!q->clock_set || now_ms <= q->clock_ms)
        return q->level_ms;
    int64_t level = q->level_ms + (now_ms - q->clock_ms);
    return level < q->cap_ms ? level : q->cap_ms;
}

/* Refills the bucket up to now (a clock that went back refills nothing). */
static void bucket_refill(irc_out *q, int64_t now_ms)
{
    q->level_ms = bucket_level(q, now_ms);
    q->clock_ms = now_ms;
    q->clock_set = 1;
}

/* The index of the target to serve at now, or -1: the highest priority at
   the head of a queue not paused, the first from the cursor on a tie. */
static long target_pick(const irc_out *q, int64_t now_ms)
{
    long best = -1;
    for (size_t k = 0; k < q->ntargets; k++) {
        size_t i = (q->cursor + k) % q->ntargets;
        const irc_out_target *t = q->targets[i];
        if (t->head == NULL || t->paused_until > now_ms)
            continue;
        if (best < 0 || t->head->priority > q->targets[best]->head->priority)
            best = (long)i;
    }
    return best;
}

/* Hands out the next line when the bucket allows (irc_out.h). */
int irc_out_next(irc_out *q, int64_t now_ms, char *buf, size_t cap, irc_out_sent *sent)
{
    if (cap < IRC_OUT_LINE_MAX + 1)
        return IRC_OUT_ENO_SPACE;
    bucket_refill(q, now_ms);
    if (q->level_ms < q->line_ms)
        return 0;
    long i = target_pick(q, now_ms);
    if (i < 0)
        return 0;
    irc_out_target *t = q->targets[i];
    irc_out_line *l = t->head;
    t->head = l->next;
    if (t->head == NULL)
        t->tail = NULL;
    l->next = NULL;
    memcpy(buf, l->raw, l->len + 1);
    sent->len = l->len;
    sent->tag = l->tag;
    sent->done = l->last && !l->reported;
    l->reported = l->reported || l->last;
    free(t->last_sent);
    t->last_sent = l;
    q->level_ms -= q->line_ms;
    q->cursor = (size_t)i + 1; /* the next one's turn */
    q->nlines--;
    return 1;
}

/* Milliseconds until a line may go (irc_out.h). */
int64_t irc_out_wait_ms(const irc_out *q, int64_t now_ms)
{
    int64_t ready = -1;
    for (size_t i = 0; i < q->ntargets; i++) {
        const irc_out_target *t = q->targets[i];
        if (t->head == NULL)
            continue;
        int64_t at = t->paused_until > now_ms ? t->paused_until : now_ms;
        ready = ready < 0 || at < ready ? at : ready;
    }
    if (ready < 0)
        return -1;
    int64_t credit_at = now_ms + irc_out_bucket_wait_ms(q, now_ms);
    return (credit_at > ready ? credit_at : ready) - now_ms;
}

/* Milliseconds until the bucket allows one line (irc_out.h). */
int64_t irc_out_bucket_wait_ms(const irc_out *q, int64_t now_ms)
{
    int64_t level = bucket_level(q, now_ms);
    return level >= q->line_ms ? 0 : q->line_ms - level;
}

/* Puts the last line sent to target back and pauses it (irc_out.h). */
int irc_out_requeue(irc_out *q, const char *target, int64_t now_ms, int64_t delay_ms)
{
    if (delay_ms < 0 || delay_ms > REQUEUE_DELAY_MAX)
        return IRC_OUT_EINVAL;
    long i = target_find(q, target);
    if (i < 0 || q->targets[i]->last_sent == NULL)
        return IRC_OUT_ENOT_FOUND;
    irc_out_target *t = q->targets[i];
    irc_out_line *l = t->last_sent;
    t->last_sent = NULL;
    l->next = t->head;
    t->head = l;
    if (t->tail == NULL)
        t->tail = l;
    t->paused_until = now_ms + delay_ms;
    q->nlines++;
    return 0;
}
