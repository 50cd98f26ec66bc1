/*
 * irc_proto_line.c — the line layer of irc_proto (see irc_proto.h): the
 * parser of raw server lines, the log renderer that masks secrets, base64
 * for SASL, and the reconnect back-off with its seeded generator.
 *
 * Everything here is a pure function of its arguments: no session, no
 * allocation, no clock. The parser reads a line twice: once to find and
 * check every field (so a refused line leaves the caller's message
 * untouched), then to copy the fields out.
 */
#include "irc_proto_int.h"

#include <string.h>

const char *ircp_strerror(int err)
{
    switch (err) {
    case 0:
        return "success";
#define IRCP_ERR_MSG_(name, val, msg)                                                              \
    case val:                                                                                      \
        return msg;
        IRCP_ERRNO_MAP(IRCP_ERR_MSG_)
#undef IRCP_ERR_MSG_
    default:
        return "unknown error";
    }
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                  */

/* Where the fields of a line lie, found and checked before anything is copied. */
typedef struct layout {
    size_t len; /* without the final CR LF */
    bool tags;
    size_t nick, nick_len, user, user_len, host, host_len;
    size_t cmd, cmd_len;
    int n;
    size_t off[IRCP_PARAMS_MAX], plen[IRCP_PARAMS_MAX];
    bool trailing;
} layout;

/* The first index at or after i that is not a space (len when none). */
static size_t skip_spaces(const char *s, size_t len, size_t i)
{
    while (i < len && s[i] == ' ')
        i++;
    return i;
}

/* The first index at or after i that is a space (len when none). */
static size_t word_end(const char *s, size_t len, size_t i)
{
    while (i < len && s[i] != ' ')
        i++;
    return i;
}

/* Splits the prefix s[from, to) into nick!user@host, each part checked against its field. */
static int scan_prefix(const char *s, size_t from, size_t to, layout *l)
{
    size_t bang = from, at;
    while (bang < to && s[bang] != '!' && s[bang] != '@')
        bang++;
    l->nick = from;
    l->nick_len = bang - from;
    at = bang;
    if (bang < to && s[bang] == '!') {
        at = bang + 1;
        while (at < to && s[at] != '@')
            at++;
        l->user = bang + 1;
        l->user_len = at - l->user;
    }
    if (at < to) {
        l->host = at + 1;
        l->host_len = to - l->host;
    }
    if (l->nick_len >= IRCP_NAME_MAX || l->user_len >= IRCP_NAME_MAX ||
        l->host_len >= IRCP_NAME_MAX)
        return IRCP_ETOOLONG;
    return 0;
}

/* Checks the command word s[l->cmd, +cmd_len): letters, or exactly three digits. */
static int check_command(const char *s, const layout *l)
{
    if (l->cmd_len == 0)
        return IRCP_EEMPTY;
    if (l->cmd_len >= IRCP_COMMAND_MAX)
        return IRCP_ETOOLONG;
    bool digits = s[l->cmd] >= '0' && s[l->cmd] <= '9';
    if (digits && l->cmd_len != 3)
        return IRCP_EBADCOMMAND;
    for (size_t i = l->cmd; i < l->cmd + l->cmd_len; i++) {
        char c = s[i];
        bool ok =
            digits ? (c >= '0' && c <= '9') : ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
        if (!ok)
            return IRCP_EBADCOMMAND;
    }
    return 0;
}

/* Finds the parameters from i on: middles, then " :trailing" or a 15th that takes the rest. */
static void scan_params(const char *s, size_t len, size_t i, layout *l)
{
    for (;;) {
        i = skip_spaces(s, len, i);
        if (i >= len)
            return;
        bool rest = s[i] == ':' || l->n == IRCP_PARAMS_MAX - 1;
        if (s[i] == ':') {
            i++;
            l->trailing = true;
        }
        size_t end = rest ? len : word_end(s, len, i);
        l->off[l->n] = i;
        l->plen[l->n] = end - i;
        l->n++;
        if (rest)
            return;
        i = end;
    }
}

/* Finds and checks every field of line; nothing is written but *l. */
static int scan_line(const char *s, size_t len, layout *l)
{
    while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r'))
        len--;
    if (len > IRCP_LINE_MAX)
        return IRCP_ETOOLONG;
    if (memchr(s, '\0', len) || memchr(s, '\r', len) || memchr(s, '\n', len))
        return IRCP_EBADBYTE;
    memset(l, 0, sizeof *l);
    l->len = len;
    size_t i = 0;
    if (len > 0 && s[0] == '@') {
        i = word_end(s, len, 0);
        l->tags = true;
    }
    i = skip_spaces(s, len, i);
    if (i < len && s[i] == ':') {
        size_t end = word_end(s, len, i);
        if (end == i + 1)
            return IRCP_EBADPREFIX;
        int err = scan_prefix(s, i + 1, end, l);
        if (err != 0)
            return err;
        i = skip_spaces(s, len, end);
    }
    l->cmd = i;
    l->cmd_len = word_end(s, len, i) - i;
    int err = check_command(s, l);
    if (err != 0)
        return err;
    scan_params(s, len, l->cmd + l->cmd_len, l);
    return 0;
}

/* Copies n bytes of s at off into dst as a string (n < the field's size, checked by the scan). */
static void copy_field(char *dst, const char *s, size_t off, size_t n)
{
    memcpy(dst, s + off, n);
    dst[n] = '\0';
}

int ircp_parse(const char *line, size_t len, ircp_msg *out)
{
    layout l;
    if (line == NULL || out == NULL)
        return IRCP_EINVAL;
    int err = scan_line(line, len, &l);
    if (err != 0)
        return err;
    out->has_tags = l.tags;
    copy_field(out->nick, line, l.nick, l.nick_len);
    copy_field(out->user, line, l.user, l.user_len);
    copy_field(out->host, line, l.host, l.host_len);
    copy_field(out->command, line, l.cmd, l.cmd_len);
    for (char *c = out->command; *c != '\0'; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
    /* Each parameter is followed by a NUL where the line had a separator,
       so the text never needs more than the line's length. */
    size_t at = 0;
    for (int k = 0; k < l.n; k++) {
        out->param_off[k] = (uint16_t)at;
        copy_field(out->text + at, line, l.off[k], l.plen[k]);
        at += l.plen[k] + 1;
    }
    out->text[at] = '\0';
    out->nparams = l.n;
    out->trailing = l.trailing;
    return 0;
}

const char *ircp_param(const ircp_msg *m, int i)
{
    if (m == NULL || i < 0 || i >= m->nparams || i >= IRCP_PARAMS_MAX)
        return "";
    return m->text + m->param_off[i];
}

/* ------------------------------------------------------------------------ */
/* Rendering for logs                                                       */

bool ircp__ascii_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y - 'A' + 'a');
        if (x != y)
            return false;
        if (x == '\0')
            return true;
    }
}

/* True when s[from, to) equals word, ASCII case-insensitively. */
static bool span_is(const char *s, size_t from, size_t to, const char *word)
{
    char buf[16];
    if (to - from >= sizeof buf)
        return false;
    memcpy(buf, s + from, to - from);
    buf[to - from] = '\0';
    return ircp__ascii_eq(buf, word);
}

/* The start of the word after the word at i (len when there is none). */
static size_t after_word(const char *s, size_t len, size_t i)
{
    i = skip_spaces(s, len, i);
    return skip_spaces(s, len, word_end(s, len, i));
}

/* True when the target s[from, to) is NickServ (with or without @server or !user@host). */
static bool is_nickserv(const char *s, size_t from, size_t to)
{
    size_t end = from;
    while (end < to && s[end] != '@' && s[end] != '!')
        end++;
    return span_is(s, from, end, "NickServ");
}

/* The offset at which s (len bytes) starts holding a secret, or len when it holds none. */
static size_t secret_at(const char *s, size_t len)
{
    size_t i = len > 0 && s[0] == '@' ? word_end(s, len, 0) : 0;
    i = skip_spaces(s, len, i);
    if (i < len && s[i] == ':')
        i = skip_spaces(s, len, word_end(s, len, i));
    size_t c = i, ce = word_end(s, len, i), a = skip_spaces(s, len, ce);
    if (a >= len)
        return len;
    if (span_is(s, c, ce, "PASS") || span_is(s, c, ce, "IDENTIFY"))
        return a;
    if (span_is(s, c, ce, "OPER") || span_is(s, c, ce, "NICKSERV") || span_is(s, c, ce, "NS"))
        return after_word(s, len, a);
    if (span_is(s, c, ce, "AUTHENTICATE")) {
        size_t w = a + (s[a] == ':'), we = word_end(s, len, w);
        bool public = skip_spaces(s, len, we) >= len &&
                      (span_is(s, w, we, "+") || span_is(s, w, we, "*") ||
                       span_is(s, w, we, "PLAIN") || span_is(s, w, we, "EXTERNAL"));
        return public ? len : a;
    }
    if (span_is(s, c, ce, "PRIVMSG") || span_is(s, c, ce, "NOTICE")) {
        size_t te = word_end(s, len, a);
        size_t t = skip_spaces(s, len, te);
        if (t < len && s[t] == ':')
            t++;
        /* NickServ, or IDENTIFY to any services target that is not a channel */
        bool channel = s[a] == '#' || s[a] == '&';
        if (!is_nickserv(s, a, te) && (channel || !span_is(s, t, word_end(s, len, t), "IDENTIFY")))
            return len;
        return after_word(s, len, t);
    }
    return len;
}

int ircp_log_line(const char *line, size_t len, char *out, size_t cap)
{
    if (cap == 0)
        return IRCP_ENOSPACE;
    out[0] = '\0';
    if (line == NULL)
        return IRCP_EINVAL;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    size_t keep = secret_at(line, len), n = 0;
    for (size_t i = 0; i < keep; i++) {
        unsigned char c = (unsigned char)line[i];
        if (n + 1 >= cap) {
            out[n] = '\0';
            return IRCP_ENOSPACE;
        }
        out[n++] = c < 0x20 || c == 0x7F ? '?' : (char)c;
    }
    out[n] = '\0';
    if (keep < len) {
        if (n + 4 > cap)
            return IRCP_ENOSPACE;
        memcpy(out + n, "***", 4);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Base64 and wiping                                                        */

int ircp__base64(const unsigned char *in, size_t len, char *out, size_t cap)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t need = (len + 2) / 3 * 4;
    if (need + 1 > cap || need > (size_t)INT32_MAX)
        return IRCP_ENOSPACE;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < len)
            v |= in[i + 2];
        out[o++] = abc[(v >> 18) & 63];
        out[o++] = abc[(v >> 12) & 63];
        out[o++] = i + 1 < len ? abc[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? abc[v & 63] : '=';
    }
    out[o] = '\0';
    return (int)o;
}

void ircp__wipe(void *s, size_t n)
{
    volatile unsigned char *v = s;
    while (n-- > 0)
        *v++ = 0;
}

/* ------------------------------------------------------------------------ */
/* Back-off                                                                 */

void ircp_rng_seed(ircp_rng *r, uint64_t seed)
{
    r->state = seed;
}

/* SplitMix64 (Steele, Lea, Flood 2014): one step. */
uint64_t ircp_rng_next(ircp_rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void ircp_backoff_init(ircp_backoff *b)
{
    b->attempt = 0;
    b->up = false;
    b->up_since_ms = 0;
}

void ircp_backoff_up(ircp_backoff *b, int64_t now_ms)
{
    b->up = true;
    b->up_since_ms = now_ms;
}

/* The modulo's bias is below 2^-40 for these bounds: clear beats clever. */
int64_t ircp_backoff_next(ircp_backoff *b, int64_t now_ms, ircp_rng *rng)
{
    if (b->up && now_ms - b->up_since_ms >= IRCP_BACKOFF_STABLE_MS)
        b->attempt = 0;
    b->up = false;
    int64_t nominal = IRCP_BACKOFF_MIN_MS;
    for (int i = 0; i < b->attempt && nominal < IRCP_BACKOFF_MAX_MS; i++)
        nominal *= 2;
    if (nominal > IRCP_BACKOFF_MAX_MS)
        nominal = IRCP_BACKOFF_MAX_MS;
    int64_t jitter = (int64_t)(ircp_rng_next(rng) % (uint64_t)(nominal / 4 + 1));
    if (b->attempt < 64)
        b->attempt++;
    return nominal - jitter;
}
