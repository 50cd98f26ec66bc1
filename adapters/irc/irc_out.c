/*
 * irc_out.c — the send queue of irc_out (see irc_out.h): one FIFO of ready
 * raw lines per target, the pacing models that say when the next line may
 * go, and the choice of the next line (priority first, then round robin
 * across targets).
 *
 * Pacing keeps the books of every model at once — three token buckets
 * (custom, the default's, InspIRCd's, Solanum's), ngircd's windows over the
 * lines sent lately and its penalty time — so that switching models when
 * the server says its version is exact; only the model in effect decides.
 * adapters/irc/PACING.md derives each from the server's source. Lines are built
 * whole when a message is pushed ("PRIVMSG target :text\r\n"), so sending
 * is a copy. Each target keeps the last line sent to it until the next
 * one, for a 707 requeue. Not here: the text rules (irc_out_text.c),
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
/* Pacing models (adapters/irc/PACING.md)                                       */

/* Bucket units. CUSTOM and the default: ms of their interval (a line costs
   line_ms, or IRC_OUT_LINE_MS_DEFAULT; 1 gained a ms). InspIRCd: tenths of
   a penalty ms (a PRIVMSG's 1000 ms are 10000; 900 let go a second are 9 a
   ms). Solanum: 1/5000 of a line (1.8 lines a second are 9 a ms). */
#define INSP_UNIT 10
#define INSP_GAIN (IRC_OUT_INSPIRCD_DECAY * INSP_UNIT / 1000)
#define SOL_LINE 5000
#define SOL_GAIN (SOL_LINE * IRC_OUT_SOLANUM_PER_10S / 10000)
_Static_assert(INSP_GAIN * 1000 == IRC_OUT_INSPIRCD_DECAY * INSP_UNIT, "a whole gain a ms");
_Static_assert(SOL_GAIN * 10000 == SOL_LINE * IRC_OUT_SOLANUM_PER_10S, "a whole gain a ms");
_Static_assert(IRC_OUT_NGIRCD_LINES_MS <= IRC_OUT_NGIRCD_WINDOW_MS, "one window holds both");

/* What a command costs besides its bytes: InspIRCd's penalty in ms
   (Command::Penalty: 1 s unless the command sets its own; a PONG to the
   server's PING, NICK and USER at registration cost nothing) and the
   penalty time ngircd adds (parse.c's command table). Not listed: 1000, 0. */
typedef struct cmd_cost {
    const char *cmd;
    int inspircd_ms, ngircd_ms;
} cmd_cost;

static const cmd_cost cmd_costs[] = {
    {"PONG", 0, 0},
    {"NICK", 0, 0},
    {"USER", 0, 0},
    {"PASS", 0, 0},
    {"JOIN", 2000, 0},
    {"PART", 5000, 0},
    {"MODE", 1000, IRC_OUT_NGIRCD_SLOW_MS},
    {"WHO", 1000, IRC_OUT_NGIRCD_SLOW_MS},
    {"WHOIS", 2000, IRC_OUT_NGIRCD_SLOW_MS},
    {"NAMES", 1000, IRC_OUT_NGIRCD_SLOW_MS},
    {"TOPIC", 2000, IRC_OUT_NGIRCD_SLOW_MS},
};

/* Whether s starts with word (any case) followed by the end, a space, CR or LF. */
static int starts_with_word(const char *s, size_t len, const char *word)
{
    size_t n = strlen(word);
    if (len < n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if ((c >= 'a' && c <= 'z' ? (char)(c - 32) : c) != word[i])
            return 0;
    }
    return len == n || s[n] == ' ' || s[n] == '\r' || s[n] == '\n';
}

/* The costs of the line of len bytes (it starts with its command). */
static cmd_cost cost_of(const char *line, size_t len)
{
    for (size_t i = 0; i < sizeof cmd_costs / sizeof cmd_costs[0]; i++)
        if (starts_with_word(line, len, cmd_costs[i].cmd))
            return cmd_costs[i];
    return (cmd_cost){NULL, 1000, 0};
}

static void bucket_fill(irc_out_bucket *b, int64_t cap, int64_t gain)
{
    b->cap = cap;
    b->level = cap;
    b->gain = gain;
}

/* b's level at now (the last refill was at q->clock_ms; a clock that went
   back gains nothing). */
static int64_t bucket_level(const irc_out_bucket *b, const irc_out *q, int64_t now)
{
    if (!q->clock_set || now <= q->clock_ms || b->level >= b->cap)
        return b->level;
    if (now - q->clock_ms >= (b->cap - b->level + b->gain - 1) / b->gain)
        return b->cap;
    return b->level + (now - q->clock_ms) * b->gain;
}

/* The first ms from now on when b holds cost. */
static int64_t bucket_ready(const irc_out_bucket *b, const irc_out *q, int64_t cost, int64_t now)
{
    int64_t level = bucket_level(b, q, now);
    return level >= cost ? now : now + (cost - level + b->gain - 1) / b->gain;
}

/* Brings every bucket up to now. */
static void pace_refill(irc_out *q, int64_t now)
{
    irc_out_bucket *all[] = {&q->custom, &q->fallback, &q->inspircd, &q->solanum};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        all[i]->level = bucket_level(all[i], q, now);
    q->clock_ms = now;
    q->clock_set = 1;
}

/* The k-th line (or merged lines) remembered, oldest first. */
static const irc_out_recent *recent_at(const irc_out *q, size_t k)
{
    return &q->recent[(q->recent_first + k) % IRC_OUT_RECENT_MAX];
}

/*
 * Remembers a line of len bytes sent at now. Lines out of every window go;
 * when all IRC_OUT_RECENT_MAX are in use, the two oldest merge into one
 * that keeps the later time and the first line of the older, so windows
 * never count less than the lines sent.
 */
static void recent_add(irc_out *q, int64_t now, size_t len)
{
    while (q->nrecent > 0 && recent_at(q, 0)->at_ms + IRC_OUT_NGIRCD_WINDOW_MS <= now) {
        q->recent_first = (q->recent_first + 1) % IRC_OUT_RECENT_MAX;
        q->nrecent--;
    }
    if (q->nrecent == IRC_OUT_RECENT_MAX) {
        const irc_out_recent *a = recent_at(q, 0);
        irc_out_recent *b = &q->recent[(q->recent_first + 1) % IRC_OUT_RECENT_MAX];
        b->bytes += a->bytes;
        b->first = a->first;
        b->lines += a->lines;
        q->recent_first = (q->recent_first + 1) % IRC_OUT_RECENT_MAX;
        q->nrecent--;
    }
    int64_t at = now;
    if (q->nrecent > 0 && recent_at(q, q->nrecent - 1)->at_ms > at)
        at = recent_at(q, q->nrecent - 1)->at_ms; /* a clock that went back: keep the order */
    irc_out_recent *r = &q->recent[(q->recent_first + q->nrecent) % IRC_OUT_RECENT_MAX];
    r->at_ms = at;
    r->bytes = r->first = (uint32_t)len;
    r->lines = 1;
    q->nrecent++;
}

/*
 * The first ms from t on when a line of len bytes keeps ngircd's byte
 * count: in the window of IRC_OUT_NGIRCD_WINDOW_MS that ends with it, the
 * bytes of every line but the window's first (which ngircd does not count)
 * stay within IRC_OUT_NGIRCD_BYTES. A line alone always may go.
 */
static int64_t bytes_ready(const irc_out *q, size_t len, int64_t t)
{
    size_t k = 0;
    while (k < q->nrecent && recent_at(q, k)->at_ms + IRC_OUT_NGIRCD_WINDOW_MS <= t)
        k++;
    uint64_t sum = len;
    for (size_t j = k; j < q->nrecent; j++)
        sum += recent_at(q, j)->bytes;
    for (int64_t when = t;; k++) {
        if (k == q->nrecent || sum - recent_at(q, k)->first <= IRC_OUT_NGIRCD_BYTES)
            return when;
        sum -= recent_at(q, k)->bytes;
        when = recent_at(q, k)->at_ms + IRC_OUT_NGIRCD_WINDOW_MS; /* when it leaves */
    }
}

/* The first ms from t on when one more line makes at most
   IRC_OUT_NGIRCD_LINES within IRC_OUT_NGIRCD_LINES_MS (ngircd handles 3
   commands a read and penalizes the rest). */
static int64_t lines_ready(const irc_out *q, int64_t t)
{
    size_t k = 0;
    while (k < q->nrecent && recent_at(q, k)->at_ms + IRC_OUT_NGIRCD_LINES_MS <= t)
        k++;
    uint64_t count = 1;
    for (size_t j = k; j < q->nrecent; j++)
        count += recent_at(q, j)->lines;
    int64_t when = t;
    for (; count > IRC_OUT_NGIRCD_LINES; k++) {
        count -= recent_at(q, k)->lines;
        when = recent_at(q, k)->at_ms + IRC_OUT_NGIRCD_LINES_MS;
    }
    return when;
}

/* The first ms from t on when ngircd's counts let a line of len bytes go:
   bytes always, lines and its penalty time for the NGIRCD model. Each
   test, once passed, stays passed while nothing is sent. */
static int64_t ngircd_ready(const irc_out *q, size_t len, int64_t t, int whole)
{
    if (whole && q->hold_until > t)
        t = q->hold_until;
    for (;;) {
        int64_t next = bytes_ready(q, len, t);
        if (whole)
            next = lines_ready(q, next);
        if (next == t)
            return t;
        t = next;
    }
}

/* The first ms from t on when the model lets a line of len bytes with the
   costs c go. */
static int64_t pace_ready(const irc_out *q, const cmd_cost *c, size_t len, int64_t t)
{
    switch (q->model) {
    case IRC_OUT_PACE_NGIRCD:
        return ngircd_ready(q, len, t, 1);
    case IRC_OUT_PACE_INSPIRCD:
        return bucket_ready(&q->inspircd, q, (int64_t)c->inspircd_ms * INSP_UNIT, t);
    case IRC_OUT_PACE_SOLANUM:
        return bucket_ready(&q->solanum, q, SOL_LINE, t);
    case IRC_OUT_PACE_CUSTOM:
        return bucket_ready(&q->custom, q, q->line_ms, t);
    case IRC_OUT_PACE_AUTO:
        break;
    }
    return ngircd_ready(q, len, bucket_ready(&q->fallback, q, IRC_OUT_LINE_MS_DEFAULT, t), 0);
}

/* Adds ms to ngircd's penalty time as it does: from now, or from the end
   of the penalty already running. */
static void hold(irc_out *q, int64_t now, int64_t ms)
{
    q->hold_until = (q->hold_until > now ? q->hold_until : now) + ms;
}

/* Counts a line of len bytes with costs c sent at now in every model's
   books; queued: one of the queue's (the custom buckets count only those). */
static void pace_record(irc_out *q, const cmd_cost *c, size_t len, int queued, int64_t now)
{
    pace_refill(q, now);
    if (queued) {
        q->custom.level -= q->line_ms;
        q->fallback.level -= IRC_OUT_LINE_MS_DEFAULT;
    }
    q->inspircd.level -= (int64_t)c->inspircd_ms * INSP_UNIT;
    q->solanum.level -= SOL_LINE;
    recent_add(q, now, len);
    if (c->ngircd_ms > 0)
        hold(q, now, c->ngircd_ms);
}

/* ------------------------------------------------------------------------ */
/* Life cycle and settings                                                  */

/* Starts an empty queue (irc_out.h). */
int irc_out_init_pace(irc_out *q, irc_out_pace pace, int burst, int64_t line_ms)
{
    if ((unsigned)pace > IRC_OUT_PACE_CUSTOM || burst < 1 || burst > IRC_OUT_BURST_MAX ||
        line_ms < 0 || line_ms > IRC_OUT_LINE_MS_MAX)
        return IRC_OUT_EINVAL;
    memset(q, 0, sizeof *q);
    q->pace = pace;
    q->model = pace;
    q->line_ms = line_ms;
    bucket_fill(&q->custom, burst * line_ms, 1);
    bucket_fill(&q->fallback, IRC_OUT_BURST_DEFAULT * IRC_OUT_LINE_MS_DEFAULT, 1);
    bucket_fill(&q->inspircd, IRC_OUT_INSPIRCD_CAP * INSP_UNIT, INSP_GAIN);
    bucket_fill(&q->solanum, IRC_OUT_SOLANUM_BURST * SOL_LINE, SOL_GAIN);
    q->nick_len = DEFAULT_NICK_LEN;
    q->user_len = DEFAULT_USER_LEN;
    q->host_len = 0;
    return 0;
}

/* A running queue's pacing changed (irc_out.h). */
int irc_out_set_pace(irc_out *q, irc_out_pace pace, int burst, int64_t line_ms)
{
    if ((unsigned)pace > IRC_OUT_PACE_CUSTOM || burst < 1 || burst > IRC_OUT_BURST_MAX ||
        line_ms < 0 || line_ms > IRC_OUT_LINE_MS_MAX)
        return IRC_OUT_EINVAL;
    q->pace = pace;
    q->model = pace;
    q->line_ms = line_ms;
    q->custom.cap = burst * line_ms;
    if (q->custom.level > q->custom.cap)
        q->custom.level = q->custom.cap;
    return 0;
}

/* The fixed token bucket (irc_out.h). */
int irc_out_init(irc_out *q, int burst, int64_t line_ms)
{
    return irc_out_init_pace(q, IRC_OUT_PACE_CUSTOM, burst, line_ms);
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

static const char *const pace_names[] = {"auto", "ngircd", "inspircd", "solanum", "custom"};

/* The name of a pace (irc_out.h). */
const char *irc_out_pace_name(irc_out_pace pace)
{
    return (unsigned)pace <= IRC_OUT_PACE_CUSTOM ? pace_names[pace] : "unknown";
}

/* The pace called name (irc_out.h). */
int irc_out_pace_parse(const char *name, irc_out_pace *pace)
{
    for (size_t i = 0; i < sizeof pace_names / sizeof pace_names[0]; i++)
        if (strcmp(name, pace_names[i]) == 0) {
            *pace = (irc_out_pace)i;
            return 0;
        }
    return IRC_OUT_EINVAL;
}

/* The model in effect (irc_out.h). */
irc_out_pace irc_out_model(const irc_out *q)
{
    return q->model;
}

/* Takes the model the server's version names, under pace auto (irc_out.h). */
int irc_out_server_version(irc_out *q, const char *version)
{
    static const struct {
        const char *prefix; /* upper case */
        irc_out_pace model;
    } known[] = {{"NGIRCD", IRC_OUT_PACE_NGIRCD},
                 {"INSPIRCD", IRC_OUT_PACE_INSPIRCD},
                 {"SOLANUM", IRC_OUT_PACE_SOLANUM},
                 {"CHARYBDIS", IRC_OUT_PACE_SOLANUM}};
    if (q->pace != IRC_OUT_PACE_AUTO)
        return 0;
    irc_out_pace model = IRC_OUT_PACE_AUTO;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t n = strlen(known[i].prefix);
        if (strlen(version) >= n && starts_with_word(version, n, known[i].prefix))
            model = known[i].model;
    }
    if (model == q->model)
        return 0;
    q->model = model;
    return 1;
}

/* Counts a line sent outside the queue (irc_out.h). */
void irc_out_charge(irc_out *q, int64_t now_ms, const char *line, size_t len)
{
    cmd_cost c = cost_of(line, len);
    pace_record(q, &c, len, 0, now_ms);
}

/* Registered: ngircd's penalty for it (irc_out.h). */
void irc_out_welcome(irc_out *q, int64_t now_ms)
{
    hold(q, now_ms, IRC_OUT_NGIRCD_WELCOME_MS);
}

/* An error reply: ngircd's penalty for it (irc_out.h). */
void irc_out_error_reply(irc_out *q, int64_t now_ms)
{
    hold(q, now_ms, IRC_OUT_NGIRCD_ERROR_MS);
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

/* The earliest end after t of the pause of a target with lines, or -1. */
static int64_t next_unpause(const irc_out *q, int64_t t)
{
    int64_t next = -1;
    for (size_t i = 0; i < q->ntargets; i++) {
        const irc_out_target *x = q->targets[i];
        if (x->head != NULL && x->paused_until > t && (next < 0 || x->paused_until < next))
            next = x->paused_until;
    }
    return next;
}

/* The first ms from t on when the model lets line l go. */
static int64_t line_ready(const irc_out *q, const irc_out_line *l, int64_t t)
{
    cmd_cost c = cost_of(l->raw, l->len);
    return pace_ready(q, &c, l->len, t);
}

/* Hands out the next line when the model allows (irc_out.h). */
int irc_out_next(irc_out *q, int64_t now_ms, char *buf, size_t cap, irc_out_sent *sent)
{
    if (cap < IRC_OUT_LINE_MAX + 1)
        return IRC_OUT_ENO_SPACE;
    pace_refill(q, now_ms);
    long i = target_pick(q, now_ms);
    if (i < 0 || line_ready(q, q->targets[i]->head, now_ms) > now_ms)
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
    cmd_cost c = cost_of(l->raw, l->len);
    pace_record(q, &c, l->len, 1, now_ms);
    q->cursor = (size_t)i + 1; /* the next one's turn */
    q->nlines--;
    return 1;
}

/*
 * Milliseconds until a line may go (irc_out.h): the line picked changes
 * only when a pause ends, and the model's answer for a line, once yes,
 * stays yes while nothing is sent; so from now, each stretch between pause
 * ends asks the model about the line picked there.
 */
int64_t irc_out_wait_ms(const irc_out *q, int64_t now_ms)
{
    for (int64_t t = now_ms;;) {
        long i = target_pick(q, t);
        int64_t next = next_unpause(q, t);
        if (i >= 0) {
            int64_t ready = line_ready(q, q->targets[i]->head, t);
            if (next < 0 || ready < next)
                return ready - now_ms;
        }
        if (next < 0)
            return -1;
        t = next;
    }
}

/* Milliseconds until the model allows the next line, or a short one
   (irc_out.h). */
int64_t irc_out_bucket_wait_ms(const irc_out *q, int64_t now_ms)
{
    long i = target_pick(q, now_ms);
    if (i >= 0)
        return line_ready(q, q->targets[i]->head, now_ms) - now_ms;
    cmd_cost c = cost_of("PRIVMSG", 7);
    return pace_ready(q, &c, IRC_OUT_PROBE_LEN, now_ms) - now_ms;
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
