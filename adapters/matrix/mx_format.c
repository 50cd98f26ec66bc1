/*
 * mx_format.c — plain host lines to Matrix m.notice content (mx_format.h):
 * the HTML rendering in one pass over the text (escapes, red suits, score
 * bars, the pill), the player to move found by the host's status phrases,
 * and the cutting of a text whose event would pass the size cap, by a
 * binary search for the longest prefix that fits, then a step back to a
 * line break or a space. Not here: anything that sends or knows rooms.
 */
#include "mx_format.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define HTML_MAX ((size_t)16 * 1024 * 1024) /* a sanity cap on one HTML text */
#define REPLACEMENT "\xEF\xBF\xBD"          /* U+FFFD, for invalid UTF-8 */
#define MIDDLE_DOT "\xC2\xB7"               /* "·" before the name to move */
#define FULL_BLOCK "\xE2\x96\x88"           /* "█" of a score bar */
#define LIGHT_SHADE "\xE2\x96\x91"          /* "░" of a score bar */
#define HEARTS "\xE2\x99\xA5"
#define DIAMONDS "\xE2\x99\xA6"
#define MATRIX_TO "https://matrix.to/#/"

const char *mx_format_strerror(int err)
{
    switch (err) {
    case 0:
        return "ok";
#define MX_FORMAT_ERR_MSG_(name, val, msg)                                                         \
    case val:                                                                                      \
        return msg;
        MX_FORMAT_ERRNO_MAP(MX_FORMAT_ERR_MSG_)
#undef MX_FORMAT_ERR_MSG_
    default:
        return "unknown error";
    }
}

/* ------------------------------------------------------------------------ */
/* A growing string with a cap                                              */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    bool failed; /* out of memory or over HTML_MAX: the text is lost */
    bool plain;  /* no colours (the room said so): red cards as plain text */
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (n > HTML_MAX - b->len) {
        b->failed = true;
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap != 0 ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (p == NULL) {
            b->failed = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_str(sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

/* Appends s[0..n) HTML-escaped, invalid UTF-8 as U+FFFD, controls as spaces. */
static void sb_escaped(sbuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t k = text_utf8_len(s + i, n - i);
        if (k == 0) {
            sb_str(b, REPLACEMENT);
            i++;
            continue;
        }
        switch (c) {
        case '&':
            sb_str(b, "&amp;");
            break;
        case '<':
            sb_str(b, "&lt;");
            break;
        case '>':
            sb_str(b, "&gt;");
            break;
        case '"':
            sb_str(b, "&quot;");
            break;
        case '\'':
            sb_str(b, "&#39;");
            break;
        default:
            if (c < 0x20 || c == 0x7F)
                sb_str(b, " ");
            else
                sb_add(b, s + i, k);
        }
        i += k;
    }
}

/* ------------------------------------------------------------------------ */
/* The player to move                                                       */

static bool starts(const char *s, size_t n, const char *prefix)
{
    size_t p = strlen(prefix);
    return n >= p && memcmp(s, prefix, p) == 0;
}

/* The first place at or after from where needle[0..m) is in s[0..n), or n. */
static size_t find(const char *s, size_t n, size_t from, const char *needle, size_t m)
{
    if (m == 0 || m > n)
        return n;
    for (size_t i = from; i + m <= n; i++)
        if (s[i] == needle[0] && memcmp(s + i, needle, m) == 0)
            return i;
    return n;
}

const mx_person *mx_format_to_move(const char *text, size_t len, const mx_person *people,
                                   int npeople, size_t *at, size_t *name_len)
{
    static const char *const tails[] = {" to play",
                                        " deals and chooses: ", " arranges the tendido"};
    static const size_t lead = sizeof MIDDLE_DOT " " - 1;
    const mx_person *best = NULL;
    size_t best_at = len, best_len = 0;
    if (text == NULL || people == NULL)
        return NULL;
    for (int p = 0; p < npeople; p++) {
        const char *name = people[p].name;
        size_t nl = name != NULL ? strlen(name) : 0;
        if (nl == 0 || people[p].user_id == NULL)
            continue;
        for (size_t i = find(text, len, 0, MIDDLE_DOT " ", lead); i < len;
             i = find(text, len, i + 1, MIDDLE_DOT " ", lead)) {
            size_t s = i + lead;
            if (!starts(text + s, len - s, name))
                continue;
            bool tail = false;
            for (size_t t = 0; t < sizeof tails / sizeof tails[0] && !tail; t++)
                tail = starts(text + s + nl, len - s - nl, tails[t]);
            /* the state ends the line: the last place wins ("· Ann's ronda
               scores ... · Ann deals and chooses: ..."), the longer name at
               the same place ("Annabel" over "Ann") */
            if (tail && (best == NULL || s > best_at || (s == best_at && nl > best_len))) {
                best = &people[p];
                best_at = s;
                best_len = nl;
            }
        }
    }
    if (best != NULL) {
        if (at != NULL)
            *at = best_at;
        if (name_len != NULL)
            *name_len = best_len;
    }
    return best;
}

/* ------------------------------------------------------------------------ */
/* Names                                                                    */

/* The code point of the valid UTF-8 sequence s[0..k). */
static uint32_t code_point(const unsigned char *s, size_t k)
{
    if (k == 1)
        return s[0];
    uint32_t c = s[0] & (k == 2 ? 0x1F : k == 3 ? 0x0F : 0x07);
    for (size_t i = 1; i < k; i++)
        c = (c << 6) | (s[i] & 0x3F);
    return c;
}

/*
 * Whether the code point c is one a name never shows: C0 and C1 controls,
 * DEL, the soft hyphen, the bidi controls U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069, the zero-width U+200B-U+200D, U+2060,
 * U+FEFF, the invisible operators and format characters U+2061-U+2064,
 * U+206A-U+206F, U+180E, the line and paragraph separators U+2028,
 * U+2029, the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the
 * language tag U+E0001.
 */
static bool hidden_char(uint32_t c)
{
    return c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0xAD || c == 0x061C || c == 0x115F ||
           c == 0x1160 || c == 0x180E || (c >= 0x200B && c <= 0x200F) ||
           (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0x3164 ||
           c == 0xFEFF || c == 0xFFA0 || c == 0xE0001;
}

/*
 * Whether the code point c only extends the character before it (a tail
 * of the same grapheme, invisible alone): combining marks (U+0300-U+036F,
 * U+0483-U+0489, Hebrew and Arabic marks, U+1AB0-U+1AFF, U+1DC0-U+1DFF,
 * U+20D0-U+20FF, U+FE20-U+FE2F), variation selectors, emoji skin tones and
 * the tag characters of flag sequences (U+E0020-U+E007F).
 */
static bool extends(uint32_t c)
{
    return (c >= 0x0300 && c <= 0x036F) || (c >= 0x0483 && c <= 0x0489) ||
           (c >= 0x0591 && c <= 0x05C7) || (c >= 0x0610 && c <= 0x061A) ||
           (c >= 0x064B && c <= 0x065F) || c == 0x0670 || (c >= 0x06D6 && c <= 0x06ED) ||
           (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
           (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE00 && c <= 0xFE0F) ||
           (c >= 0xFE20 && c <= 0xFE2F) || (c >= 0x1F3FB && c <= 0x1F3FF) ||
           (c >= 0xE0020 && c <= 0xE007F) || (c >= 0xE0100 && c <= 0xE01EF);
}

/* Whether the code point c is blank (a name of blanks shows nothing). */
static bool blank_char(uint32_t c)
{
    return c == ' ' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

#define NAME_TAIL_MAX 8         /* characters kept after a grapheme's first (combining marks) */
#define ELLIPSIS "\xE2\x80\xA6" /* "…": a name was cut */

/*
 * Writes name cleaned into out, at most budget bytes (no NUL written):
 * what a name never shows left out, a grapheme's tail only after its first
 * character and at most NAME_TAIL_MAX of it, graphemes whole. Returns the
 * length; *all says whether the whole name fitted, *visible whether a
 * character that shows was written.
 */
static size_t clean_into(const char *name, size_t n, char *out, size_t budget, bool *all,
                         bool *visible)
{
    size_t k = 0, grapheme = 0; /* where the grapheme being written starts in out */
    size_t shows = SIZE_MAX;    /* where the first grapheme that shows starts */
    int tail = -1;              /* -1: no grapheme yet (a tail now would be an orphan) */
    *all = true;
    for (size_t i = 0; i < n;) {
        size_t len = text_utf8_len(name + i, n - i);
        if (len == 0) {
            i++;
            continue;
        }
        uint32_t c = code_point((const unsigned char *)name + i, len);
        bool ext = extends(c);
        if (hidden_char(c) || (ext && (tail < 0 || tail >= NAME_TAIL_MAX))) {
            i += len;
            continue;
        }
        if (k + len > budget) {
            *all = false;
            if (ext) /* the grapheme does not fit whole: none of it */
                k = grapheme;
            break;
        }
        if (!ext) {
            grapheme = k;
            tail = 0;
            if (shows == SIZE_MAX && !blank_char(c))
                shows = k;
        } else {
            tail++;
        }
        memcpy(out + k, name + i, len);
        k += len;
        i += len;
    }
    *visible = shows < k;
    return k;
}

size_t mx_format_clean_name(const char *name, char *out, size_t cap)
{
    size_t n = name != NULL ? strlen(name) : 0, k;
    bool all, visible;
    if (out == NULL || cap == 0)
        return 0;
    k = clean_into(name != NULL ? name : "", n, out, cap - 1, &all, &visible);
    if (!all && cap > sizeof ELLIPSIS) { /* cut: "…" says so, after what still shows */
        size_t cut = clean_into(name, n, out, cap - sizeof ELLIPSIS, &all, &visible);
        while (cut > 0 && out[cut - 1] == ' ')
            cut--;
        if (visible && cut > 0) {
            memcpy(out + cut, ELLIPSIS, sizeof ELLIPSIS - 1);
            k = cut + sizeof ELLIPSIS - 1;
        } else {
            k = clean_into(name, n, out, cap - 1, &all, &visible);
        }
    }
    out[k] = '\0';
    if (!visible) { /* nothing that shows: no name (the caller names the user by id) */
        out[0] = '\0';
        return 0;
    }
    size_t start = strspn(out, " ");
    while (k > start && out[k - 1] == ' ')
        out[--k] = '\0';
    memmove(out, out + start, k - start + 1);
    return k - start;
}

/* ------------------------------------------------------------------------ */
/* HTML                                                                     */

static bool is_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool red_suit(const char *s, size_t n)
{
    return starts(s, n, HEARTS) || starts(s, n, DIAMONDS);
}

/* The length of a card with a red suit at s ("7♥", "10♦"), or 0. */
static size_t red_card(const char *s, size_t n)
{
    size_t r = starts(s, n, "10") ? 2 : n > 0 && strchr("A23456789JQK", s[0]) != NULL ? 1 : 0;
    if (r == 0 || s[0] == '\0' || !red_suit(s + r, n - r))
        return 0;
    return r + sizeof HEARTS - 1;
}

/* The length of a score bar at s ("[██░░]"), or 0. */
static size_t score_bar(const char *s, size_t n)
{
    size_t i = 1, cells = 0;
    if (n == 0 || s[0] != '[')
        return 0;
    while (starts(s + i, n - i, FULL_BLOCK) || starts(s + i, n - i, LIGHT_SHADE)) {
        i += sizeof FULL_BLOCK - 1;
        cells++;
    }
    return cells > 0 && i < n && s[i] == ']' ? i + 1 : 0;
}

static void sb_red(sbuf *b, const char *s, size_t n)
{
    if (!b->plain)
        sb_str(b, "<font color=\"" MX_FORMAT_RED "\" data-mx-color=\"" MX_FORMAT_RED "\">");
    sb_escaped(b, s, n);
    if (!b->plain)
        sb_str(b, "</font>");
}

static void sb_pill(sbuf *b, const mx_person *who, const char *name, size_t n)
{
    sb_str(b, "<a href=\"" MATRIX_TO);
    sb_escaped(b, who->user_id, strlen(who->user_id));
    sb_str(b, "\">");
    sb_escaped(b, name, n);
    sb_str(b, "</a>");
}

/* A line of the score board at s[0..n) (up to a line break): a name, two
   blanks or more, a score bar, the rest. */
typedef struct bar_row {
    size_t name_len; /* the name ends there (its padding after) */
    size_t bar_at, bar_len;
    size_t len; /* the line's length, its line break not included */
} bar_row;

/* Whether s[0..n) starts with a line of the score board (into *row). */
static bool board_line(const char *s, size_t n, bar_row *row)
{
    const char *nl = memchr(s, '\n', n);
    size_t len = nl != NULL ? (size_t)(nl - s) : n;
    for (size_t i = 2; i < len; i++) {
        size_t k =
            s[i] == '[' && s[i - 1] == ' ' && s[i - 2] == ' ' ? score_bar(s + i, len - i) : 0;
        if (k == 0)
            continue;
        size_t name = i;
        while (name > 0 && s[name - 1] == ' ')
            name--;
        if (name == 0)
            return false;
        *row = (bar_row){name, i, k, len};
        return true;
    }
    return false;
}

/* Appends one row of the score board's table (the line's bar in <code>). */
static void sb_row(sbuf *b, const char *s, const bar_row *row)
{
    sb_str(b, "<tr><td>");
    sb_escaped(b, s, row->name_len);
    sb_str(b, "</td><td><code>");
    sb_add(b, s + row->bar_at, row->bar_len);
    sb_str(b, "</code></td><td>");
    size_t rest = row->bar_at + row->bar_len;
    while (rest < row->len && s[rest] == ' ')
        rest++;
    sb_escaped(b, s + rest, row->len - rest);
    sb_str(b, "</td></tr>");
}

/* Appends the character(s) at text[i] (not a board line); returns how many. */
static size_t sb_piece(sbuf *b, const char *text, size_t len, size_t i)
{
    const char *s = text + i;
    size_t left = len - i, k;
    bar_row row;
    bool word_start = i == 0 || !is_alnum((unsigned char)text[i - 1]);
    if ((k = score_bar(s, left)) > 0) {
        sb_str(b, "<code>");
        sb_add(b, s, k);
        sb_str(b, "</code>");
        return k;
    }
    if (word_start && (k = red_card(s, left)) > 0) {
        sb_red(b, s, k);
        return k;
    }
    if (red_suit(s, left)) {
        sb_red(b, s, sizeof HEARTS - 1);
        return sizeof HEARTS - 1;
    }
    if (s[0] == '\n') {
        if (!board_line(s + 1, left - 1, &row)) /* a table starts a line of its own */
            sb_str(b, "<br>");
        return 1;
    }
    if (s[0] == ' ' && i > 0 && text[i - 1] == ' ') {
        sb_str(b, "&nbsp;");
        return 1;
    }
    k = text_utf8_len(s, left);
    sb_escaped(b, s, k > 0 ? k : 1);
    return k > 0 ? k : 1;
}

/* mx_format_html, with the red cards in colour or not. */
static int html_of(const char *text, size_t len, const mx_person *pill, size_t pill_at,
                   size_t pill_len, bool colours, char **html)
{
    if (text == NULL || html == NULL ||
        (pill != NULL && (pill->user_id == NULL || pill_at > len || pill_len > len - pill_at)))
        return MX_FORMAT_EINVAL;
    sbuf b = {0};
    b.plain = !colours;
    bool table = false;
    sb_add(&b, "", 0);
    for (size_t i = 0; i < len;) {
        bar_row row;
        bool line_start = i == 0 || text[i - 1] == '\n';
        if (line_start && board_line(text + i, len - i, &row) &&
            (pill == NULL || pill_at >= i + row.len || pill_at + pill_len <= i)) {
            sb_str(&b, table ? "" : "<table>");
            table = true;
            sb_row(&b, text + i, &row);
            i += row.len + (i + row.len < len); /* and its line break */
            continue;
        }
        if (table)
            sb_str(&b, "</table>");
        table = false;
        if (pill != NULL && i == pill_at && pill_len > 0) {
            sb_pill(&b, pill, text + i, pill_len);
            i += pill_len;
        } else {
            i += sb_piece(&b, text, len, i);
        }
    }
    if (table)
        sb_str(&b, "</table>");
    if (b.failed) {
        free(b.s);
        return MX_FORMAT_ENO_MEMORY;
    }
    *html = b.s;
    return 0;
}

int mx_format_html(const char *text, size_t len, const mx_person *pill, size_t pill_at,
                   size_t pill_len, char **html)
{
    return html_of(text, len, pill, pill_at, pill_len, true, html);
}

/* ------------------------------------------------------------------------ */
/* Events                                                                   */

/* A copy of text[0..len) with invalid UTF-8 and NULs as U+FFFD, or NULL. */
static char *clean_copy(const char *text, size_t len, size_t *out_len)
{
    sbuf b = {0};
    sb_add(&b, "", 0);
    for (size_t i = 0; i < len;) {
        size_t k = text_utf8_len(text + i, len - i);
        if (k == 0 || text[i] == '\0') {
            sb_str(&b, REPLACEMENT);
            i++;
        } else {
            sb_add(&b, text + i, k);
            i += k;
        }
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    *out_len = b.len;
    return b.s;
}

/* Adds key = a new string s[0..n) to obj; false when out of memory. */
static bool put_string(json_object *obj, const char *key, const char *s, size_t n)
{
    json_object *v = json_object_new_string_len(s, (int)n);
    if (v == NULL)
        return false;
    if (json_object_object_add(obj, key, v) != 0) {
        json_object_put(v);
        return false;
    }
    return true;
}

/*
 * The content JSON of one event for t[0..n), with the pill of who at
 * [at, at + nlen) when that lies inside; malloc'd into *json and its
 * length into *jlen. 0 or MX_FORMAT_ENO_MEMORY.
 */
/* What every part of one text shares: its msgtype, and whether its red
   cards are in colour. */
typedef struct part_kind {
    const char *type;
    bool colours;
} part_kind;

static int build(const part_kind *k, const char *t, size_t n, const mx_person *who, size_t at,
                 size_t nlen, char **json, size_t *jlen)
{
    bool pill = who != NULL && at + nlen <= n;
    char *html = NULL;
    int err = html_of(t, n, pill ? who : NULL, at, nlen, k->colours, &html);
    if (err != 0)
        return err;
    json_object *c = json_object_new_object(), *m = json_object_new_object();
    json_object *ids = pill ? json_object_new_array() : NULL;
    bool ok = c != NULL && m != NULL && (!pill || ids != NULL);
    ok = ok && put_string(c, "msgtype", k->type, strlen(k->type)) && put_string(c, "body", t, n) &&
         put_string(c, "format", "org.matrix.custom.html", 22) &&
         put_string(c, "formatted_body", html, strlen(html));
    if (ok && pill) {
        json_object *id = json_object_new_string(who->user_id);
        ok = id != NULL && json_object_array_add(ids, id) == 0;
        if (!ok)
            json_object_put(id);
        ok = ok && json_object_object_add(m, "user_ids", ids) == 0;
        if (ok)
            ids = NULL;
    }
    if (ok && json_object_object_add(c, "m.mentions", m) == 0)
        m = NULL;
    else
        ok = false;
    free(html);
    char *copy = NULL;
    if (ok) {
        size_t l = 0;
        const char *s = json_object_to_json_string_length(
            c, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &l);
        copy = s != NULL ? malloc(l + 1) : NULL;
        if (copy != NULL) {
            memcpy(copy, s, l + 1);
            *json = copy;
            *jlen = l;
        }
    }
    json_object_put(ids);
    json_object_put(m);
    json_object_put(c);
    return copy != NULL ? 0 : MX_FORMAT_ENO_MEMORY;
}

/* Whether the content of t[0..n) fits in cap; -1 out of memory. */
static int fits(const part_kind *k, const char *t, size_t n, const mx_person *who, size_t at,
                size_t nlen, size_t cap)
{
    char *json;
    size_t l;
    if (build(k, t, n, who, at, nlen, &json, &l) != 0)
        return -1;
    free(json);
    return l <= cap;
}

/* The start of the character that holds byte i of t (a valid UTF-8 text). */
static size_t char_start(const char *t, size_t i)
{
    while (i > 0 && ((unsigned char)t[i] & 0xC0) == 0x80)
        i--;
    return i;
}

/*
 * Where to end the part that starts t: the longest prefix t[0..p) whose
 * event fits (binary search over character starts), moved back to just
 * after a line break or a space in its second half, and before the name
 * of the pill rather than inside it. 0 when not one character fits; -1
 * out of memory.
 */
static long cut_at(const part_kind *k, const char *t, size_t n, const mx_person *who, size_t at,
                   size_t nlen, size_t cap)
{
    size_t lo = 0, hi = n; /* prefix lo fits (0 trivially); hi does not */
    while (hi - lo > 1) {
        size_t mid = char_start(t, lo + (hi - lo) / 2);
        if (mid <= lo)
            mid = lo + text_utf8_len(t + lo, n - lo);
        if (mid >= hi)
            break;
        int f = fits(k, t, mid, who, at, nlen, cap);
        if (f < 0)
            return -1;
        if (f)
            lo = mid;
        else
            hi = mid;
    }
    size_t p = lo, q = 0;
    if (p == 0)
        return 0;
    for (const char *brk = "\n "; *brk != '\0' && q == 0; brk++)
        for (size_t i = p; i > p / 2 && q == 0; i--)
            if (t[i - 1] == *brk)
                q = i;
    if (q == 0)
        q = p;
    if (who != NULL && at < q && q < at + nlen && at > 0)
        q = at;
    return (long)q;
}

void mx_format_out_fini(mx_format_out *out)
{
    if (out == NULL)
        return;
    for (int i = 0; i < out->n; i++)
        free(out->content[i]);
    out->n = 0;
}

/* Appends the event of t[0..n) to out; 0 or an error. */
static int push_part(mx_format_out *out, const part_kind *k, const char *t, size_t n,
                     const mx_person *who, size_t at, size_t nlen)
{
    if (out->n == MX_FORMAT_PARTS_MAX)
        return MX_FORMAT_ETOO_BIG;
    int err = build(k, t, n, who, at, nlen, &out->content[out->n], &out->len[out->n]);
    if (err == 0)
        out->n++;
    return err;
}

static bool blank(char c)
{
    return c == ' ' || c == '\n';
}

int mx_format_notice(const char *text, size_t len, const mx_person *people, int npeople, size_t cap,
                     mx_format_out *out)
{
    return mx_format_message("m.notice", true, text, len, people, npeople, cap, out);
}

int mx_format_message(const char *type, bool colours, const char *text, size_t len,
                      const mx_person *people, int npeople, size_t cap, mx_format_out *out)
{
    if (out == NULL)
        return MX_FORMAT_EINVAL;
    out->n = 0;
    if (type == NULL || (strcmp(type, "m.notice") != 0 && strcmp(type, "m.text") != 0) ||
        text == NULL || cap < MX_FORMAT_CONTENT_MIN || npeople < 0 ||
        (npeople > 0 && people == NULL))
        return MX_FORMAT_EINVAL;
    for (int i = 0; i < npeople; i++)
        if (people[i].name == NULL || people[i].user_id == NULL)
            return MX_FORMAT_EINVAL;
    size_t n;
    char *t = clean_copy(text, len, &n);
    if (t == NULL)
        return MX_FORMAT_ENO_MEMORY;
    size_t at = 0, nlen = 0;
    const mx_person *who = mx_format_to_move(t, n, people, npeople, &at, &nlen);
    part_kind k = {type, colours};
    int err = 0;
    size_t start = 0;
    do {
        size_t rest = n - start;
        size_t pat = who != NULL && at >= start ? at - start : SIZE_MAX / 2;
        int f = fits(&k, t + start, rest, who, pat, nlen, cap);
        long p = f < 0 ? -1 : f ? (long)rest : cut_at(&k, t + start, rest, who, pat, nlen, cap);
        if (p < 0) {
            err = MX_FORMAT_ENO_MEMORY;
            break;
        }
        if (p == 0 && rest > 0) {
            err = MX_FORMAT_ETOO_BIG;
            break;
        }
        size_t end = (size_t)p;
        bool cut = end < rest;
        while (cut && end > 1 && blank(t[start + end - 1]))
            end--; /* the break itself goes with neither part */
        err = push_part(out, &k, t + start, end, who, pat, nlen);
        start += (size_t)p;
        while (cut && start < n && blank(t[start]))
            start++;
    } while (err == 0 && start < n);
    free(t);
    if (err != 0)
        mx_format_out_fini(out);
    return err;
}
