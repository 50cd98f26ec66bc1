/*
 * irc_out_text.c — the text half of irc_out (see irc_out.h): making text
 * safe for a raw IRC line, the mIRC colours of the suits, the byte budget
 * of a line and the splitting of a message into lines, and the CTCP VERSION
 * answer.
 *
 * Splitting reads a text as tokens — a colour code with its digits, a
 * UTF-8 character, or one byte — and cuts only between tokens, so no line
 * ends inside a character or separates \x03 from its digits; it tracks the
 * format in effect to reopen it on the next line. Nothing here allocates.
 * Not here: the send queue (irc_out.c).
 */
#include "irc_out.h"
#include "text.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define COLOUR_RED                                                                                 \
    "\x03"                                                                                         \
    "04"
#define COLOUR_CODE '\x03'
#define BOLD '\x02'

/* The toggling format codes: bold, italics, underline, strike-through,
   monospace, reverse; bit k of fmt.toggles is TOGGLES[k]. */
static const char TOGGLES[] = "\x02\x1D\x1F\x1E\x11\x16";
#define RESET '\x0F'

/* The format in effect at a point of a text: colours (-1: default) and
   the toggles that are on. */
typedef struct fmt {
    int fg, bg;
    unsigned toggles;
} fmt;

static const fmt FMT_PLAIN = {-1, -1, 0};

/* ------------------------------------------------------------------------ */
/* UTF-8                                                                    */

/* The length of the valid UTF-8 character at s[0..n): text_utf8_len(). */
static size_t utf8_char_len(const unsigned char *s, size_t n)
{
    return text_utf8_len((const char *)s, n);
}

/*
 * Copies src[0..len) into dst[cap] without NUL, with CR and LF as spaces
 * and invalid UTF-8 bytes as '?', cut at a character boundary (irc_out.h).
 */
size_t irc_out_sanitize(char *dst, size_t cap, const char *src, size_t len)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t i = 0, o = 0;
    if (cap == 0)
        return 0;
    while (i < len) {
        if (s[i] == '\0') {
            i++;
            continue;
        }
        size_t n = utf8_char_len(s + i, len - i);
        const char *put = src + i;
        size_t put_len = n;
        if (n == 0) {
            put = "?";
            put_len = n = 1;
        } else if (s[i] == '\r' || s[i] == '\n') {
            put = " ";
        }
        if (o + put_len >= cap)
            break;
        memcpy(dst + o, put, put_len);
        o += put_len;
        i += n;
    }
    dst[o] = '\0';
    return o;
}

/* ------------------------------------------------------------------------ */
/* Colours                                                                  */

/* A writer that counts when s is NULL and writes when it is not. */
typedef struct wbuf {
    char *s;
    size_t len;
} wbuf;

static void wbuf_put(wbuf *w, const char *p, size_t n)
{
    if (w->s != NULL)
        memcpy(w->s + w->len, p, n);
    w->len += n;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Whether s starts with a red suit: ♥ ♦ ♡ ♢ (U+2665, 2666, 2661, 2662). */
static int is_red_suit(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    return u[0] == 0xE2 && u[1] == 0x99 &&
           (u[2] == 0xA5 || u[2] == 0xA6 || u[2] == 0xA1 || u[2] == 0xA2);
}

/* The length of the card rank s starts with ("10", "7", "K"...), else 0. */
static size_t rank_len(const char *s)
{
    if (s[0] == '1' && s[1] == '0')
        return 2;
    return s[0] != '\0' && strchr("A23456789JQK", s[0]) != NULL ? 1 : 0;
}

/* Whether position i of s starts a word: not after an ASCII letter or digit. */
static int word_start(const char *s, size_t i)
{
    if (i == 0)
        return 1;
    char c = s[i - 1];
    return !(is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
}

/* The length of the card rank that ends right before src[j] and starts a
   word at or after src[from] ("10", "7", "K"...), else 0. */
static size_t rank_before(const char *src, size_t from, size_t j)
{
    if (j >= from + 2 && src[j - 2] == '1' && src[j - 1] == '0' && word_start(src, j - 2))
        return 2;
    if (j >= from + 1 && rank_len(src + j - 1) == 1 && word_start(src, j - 1))
        return 1;
    return 0;
}

/*
 * Writes (or counts, see wbuf) src with its red cards coloured: a red suit,
 * with the rank before it when that rank starts a word. Every suit starts
 * with the byte 0xE2, so the text between two is copied as it is.
 */
static void colour_pass(wbuf *w, const char *src)
{
    size_t i = 0;
    for (;;) {
        const char *e = strchr(src + i, '\xE2');
        if (e == NULL) {
            wbuf_put(w, src + i, strlen(src + i));
            return;
        }
        size_t j = (size_t)(e - src);
        if (!is_red_suit(e)) {
            wbuf_put(w, src + i, j + 1 - i);
            i = j + 1;
            continue;
        }
        size_t r = rank_before(src, i, j);
        wbuf_put(w, src + i, j - r - i);
        wbuf_put(w, COLOUR_RED, 3);
        wbuf_put(w, src + j - r, r + 3);
        wbuf_put(w, "\x03", 1);
        i = j + 3;
        if (is_digit(src[i]) || src[i] == ',')
            wbuf_put(w, "\x02\x02", 2); /* so "\x03" "5" is no colour */
    }
}

/* Writes src with mIRC colours into dst[cap], or refuses (irc_out.h). */
int irc_out_colour(char *dst, size_t cap, const char *src)
{
    wbuf count = {NULL, 0};
    colour_pass(&count, src);
    if (count.len >= cap || count.len > INT_MAX)
        return IRC_OUT_ENO_SPACE;
    wbuf w = {dst, 0};
    colour_pass(&w, src);
    dst[w.len] = '\0';
    return (int)w.len;
}

/* ------------------------------------------------------------------------ */
/* Lines and splitting                                                      */

/* The text bytes of one line with this prefix, command and target. */
size_t irc_out_budget(size_t nick_len, size_t user_len, size_t host_len, irc_out_kind kind,
                      size_t target_len)
{
    size_t cmd = kind == IRC_OUT_NOTICE ? strlen("NOTICE") : strlen("PRIVMSG");
    if (host_len == 0)
        host_len = IRC_OUT_HOST_UNKNOWN;
    if (nick_len > IRC_OUT_LINE_MAX || user_len > IRC_OUT_LINE_MAX || host_len > IRC_OUT_LINE_MAX ||
        target_len > IRC_OUT_LINE_MAX)
        return 0;
    /* ":" nick "!" user "@" host " " cmd " " target " :" text CRLF */
    size_t used = 4 + nick_len + user_len + host_len + cmd + 1 + target_len + 2 + 2;
    return used < IRC_OUT_LINE_MAX ? IRC_OUT_LINE_MAX - used : 0;
}

/* Reads up to two digits at t[i..len) into *val; returns how many. */
static size_t colour_digits(const char *t, size_t len, size_t i, int *val)
{
    size_t n = 0;
    *val = 0;
    while (n < 2 && i + n < len && is_digit(t[i + n])) {
        *val = *val * 10 + (t[i + n] - '0');
        n++;
    }
    return n;
}

/*
 * The length of the colour code at t[i] (a \x03): \x03, up to two digits,
 * then ",NN" when a digit follows the comma; applies it to f. A code
 * without foreground resets both colours (any ",NN" stays in the token, so
 * no cut falls inside it).
 */
static size_t colour_token(const char *t, size_t len, size_t i, fmt *f)
{
    int fg, bg = -1;
    size_t j = i + 1;
    size_t nfg = colour_digits(t, len, j, &fg);
    j += nfg;
    if (j + 1 < len && t[j] == ',' && is_digit(t[j + 1]))
        j += 1 + colour_digits(t, len, j + 1, &bg);
    if (nfg == 0) {
        f->fg = f->bg = -1;
    } else {
        f->fg = fg;
        f->bg = bg >= 0 ? bg : f->bg;
    }
    return j - i;
}

/* The length of the token at t[i..len) (see the file header); applies a
   format code to f. */
static size_t token(const char *t, size_t len, size_t i, fmt *f)
{
    const char *toggle = t[i] != '\0' ? strchr(TOGGLES, t[i]) : NULL;
    if (t[i] == COLOUR_CODE)
        return colour_token(t, len, i, f);
    if (t[i] == RESET) {
        *f = FMT_PLAIN;
        return 1;
    }
    if (toggle != NULL) {
        f->toggles ^= 1u << (toggle - TOGGLES);
        return 1;
    }
    size_t n = utf8_char_len((const unsigned char *)t + i, len - i);
    return n > 0 ? n : 1;
}

/*
 * Writes into out the codes that bring a line from plain to f, ahead of a
 * part whose first byte is next; returns their length (at most 14).
 */
static size_t reopen_codes(const fmt *f, char next, char out[IRC_OUT_REOPEN_MAX])
{
    size_t n = 0;
    if (f->fg >= 0) {
        out[n++] = COLOUR_CODE;
        out[n++] = (char)('0' + f->fg / 10);
        out[n++] = (char)('0' + f->fg % 10);
        if (f->bg >= 0) {
            out[n++] = ',';
            out[n++] = (char)('0' + f->bg / 10);
            out[n++] = (char)('0' + f->bg % 10);
        }
    }
    size_t colour_end = n;
    for (size_t k = 0; TOGGLES[k] != '\0'; k++)
        if (f->toggles & (1u << k))
            out[n++] = TOGGLES[k];
    if (f->fg >= 0 && f->bg < 0 && n == colour_end && next == ',') {
        out[n++] = BOLD; /* so a ",NN" of the text is not read as background */
        out[n++] = BOLD;
    }
    out[n] = '\0';
    return n;
}

/*
 * Cuts the part of t[0..len) that starts at off, where format *f is in
 * effect, into *p (budget bytes at most, reopen included), and leaves in
 * *f the format in effect where the part ends.
 */
static void split_one(const char *t, size_t len, size_t budget, size_t off, fmt *f, irc_out_part *p)
{
    size_t avail = budget - reopen_codes(f, t[off], p->reopen);
    fmt cur = *f, at_space = *f;
    size_t i = off, space_end = off;
    while (i < len) {
        fmt next = cur;
        size_t n = token(t, len, i, &next);
        if (i + n - off > avail)
            break;
        cur = next;
        i += n;
        if (t[i - 1] == ' ') {
            space_end = i;
            at_space = cur;
        }
    }
    if (i < len && space_end - off >= avail / 2) {
        i = space_end; /* a cut after a space, in the second half of the line */
        cur = at_space;
    }
    p->off = off;
    p->len = i - off;
    *f = cur;
}

/* Splits text into parts of budget bytes (irc_out.h). */
int irc_out_split(const char *text, size_t budget, irc_out_part *parts, size_t max, size_t *n)
{
    size_t len = strlen(text), count = 0;
    irc_out_part p;
    fmt f = FMT_PLAIN;
    if (budget < IRC_OUT_BUDGET_MIN)
        return IRC_OUT_EINVAL;
    if (len <= budget && max >= 1) { /* the usual line: one part, from plain */
        parts[0] = (irc_out_part){.off = 0, .len = len, .reopen = ""};
        *n = len > 0 ? 1 : 0;
        return 0;
    }
    for (size_t off = 0; off < len; off += p.len, count++)
        split_one(text, len, budget, off, &f, &p);
    if (count > max)
        return IRC_OUT_ENO_SPACE;
    f = FMT_PLAIN;
    for (size_t off = 0, k = 0; off < len; off += parts[k].len, k++)
        split_one(text, len, budget, off, &f, &parts[k]);
    *n = count;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* CTCP                                                                     */

/* Starts a CTCP answerer (irc_out.h). */
void irc_out_ctcp_init(irc_out_ctcp *c, int64_t interval_ms)
{
    c->interval_ms = interval_ms > 0 ? interval_ms : 0;
    c->last_ms = 0;
    c->answered = 0;
}

/* Whether the CTCP request in text (after its \x01) is VERSION. */
static int is_version(const char *req)
{
    static const char WORD[] = "VERSION";
    size_t i = 0;
    for (; WORD[i] != '\0'; i++)
        if ((req[i] & ~0x20) != WORD[i])
            return 0;
    return req[i] == '\0' || req[i] == '\x01' || req[i] == ' ';
}

/* Copies version into out[IRC_OUT_VERSION_MAX] without control bytes. */
static void clean_version(char out[IRC_OUT_VERSION_MAX], const char *version)
{
    size_t o = 0;
    for (size_t i = 0; version[i] != '\0' && o + 1 < IRC_OUT_VERSION_MAX; i++)
        if ((unsigned char)version[i] >= 0x20 && version[i] != 0x7F)
            out[o++] = version[i];
    out[o] = '\0';
}

/* Decides on the CTCP request, if any, in an incoming PRIVMSG (irc_out.h). */
int irc_out_ctcp_decide(irc_out_ctcp *c, const char *text, int64_t now_ms, const char *version,
                        char *reply, size_t cap)
{
    char clean[IRC_OUT_VERSION_MAX];
    if (text[0] != '\x01')
        return IRC_OUT_CTCP_NONE;
    if (!is_version(text + 1))
        return IRC_OUT_CTCP_IGNORE;
    int soon = c->answered && now_ms >= c->last_ms && now_ms - c->last_ms < c->interval_ms;
    if (soon)
        return IRC_OUT_CTCP_IGNORE;
    clean_version(clean, version);
    int n = snprintf(reply, cap, "\x01VERSION %s\x01", clean);
    if (n < 0 || (size_t)n >= cap)
        return IRC_OUT_ENO_SPACE;
    c->answered = 1;
    c->last_ms = now_ms;
    return IRC_OUT_CTCP_REPLY;
}
