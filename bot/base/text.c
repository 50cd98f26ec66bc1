/*
 * text.c — the byte-level text routines of text.h: UTF-8 measured and
 * mended, words folded, lines cleaned of IRC formatting, words quoted.
 *
 * These work on bytes with explicit lengths and know nothing of commands,
 * games or chat protocols beyond IRC's formatting codes, which appear in
 * text from any bridge. UTF-8 is judged strictly (RFC 3629: no overlong
 * forms, surrogates or code points past U+10FFFF), one sequence at a time
 * by text_utf8_len(), which everything else here builds on. Not here: the
 * meaning of any word, or where a line comes from or goes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

/* ------------------------------------------------------------------------ */
/* UTF-8                                                                    */

/*
 * The length of the valid UTF-8 sequence at s (see text.h): the lead byte
 * gives the length and the range of the second byte, which is where
 * overlong forms, surrogates and code points past U+10FFFF show.
 */
size_t text_utf8_len(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned char b, lo = 0x80, hi = 0xBF;
    size_t k;
    if (n == 0)
        return 0;
    b = u[0];
    if (b < 0x80)
        return 1;
    if (b < 0xC2 || b > 0xF4)
        return 0;
    if (b < 0xE0) {
        k = 2;
    } else if (b < 0xF0) {
        k = 3;
        lo = b == 0xE0 ? 0xA0 : 0x80;
        hi = b == 0xED ? 0x9F : 0xBF;
    } else {
        k = 4;
        lo = b == 0xF0 ? 0x90 : 0x80;
        hi = b == 0xF4 ? 0x8F : 0xBF;
    }
    if (n < k || u[1] < lo || u[1] > hi)
        return 0;
    for (size_t i = 2; i < k; i++)
        if ((u[i] & 0xC0) != 0x80)
            return 0;
    return k;
}

/* True when s[0..n) is valid UTF-8 throughout (see text.h). */
bool text_utf8_valid(const char *s, size_t n)
{
    for (size_t i = 0, k; i < n; i += k)
        if ((k = text_utf8_len(s + i, n - i)) == 0)
            return false;
    return true;
}

/*
 * Ends s before its last character when that is not whole (see text.h):
 * steps back over continuation bytes to the last lead byte and measures
 * the sequence it starts against what is left of len.
 */
size_t text_utf8_cut(char *s, size_t len)
{
    size_t i = len;
    while (i > 0 && ((unsigned char)s[i - 1] & 0xC0) == 0x80)
        i--;
    if (i > 0 && text_utf8_len(s + i - 1, len - i + 1) == 0) {
        s[i - 1] = '\0';
        return i - 1;
    }
    return len;
}

/* ------------------------------------------------------------------------ */
/* Folding                                                                  */

/* U+00C0..U+00FF by their second UTF-8 byte: the base letter, or '-'. */
static const char LATIN1_FOLD[] = "aaaaaa-ceeeeiiii-nooooo--uuuuy--"
                                  "aaaaaa-ceeeeiiii-nooooo--uuuuy-y";

/*
 * Writes the folded form of s[0..n) into out (see text.h). Each character
 * becomes one byte (a folded letter, an apostrophe, TEXT_BAD_BYTE), none
 * (a variation selector) or itself. Returns the length, or -1 when it
 * does not fit in cap (always when cap is 0).
 */
int text_fold(const char *s, size_t n, char *out, size_t cap)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    if (cap == 0)
        return -1;
    for (size_t i = 0; i < n;) {
        size_t k = text_utf8_len(s + i, n - i), w = 1;
        char one = 0;
        const char *from = &one;
        if (k == 0) {
            one = TEXT_BAD_BYTE;
            k = 1;
        } else if (k == 1) {
            one = (char)(u[i] >= 'A' && u[i] <= 'Z' ? u[i] + 32 : u[i]);
        } else if (k == 2 && u[i] == 0xC3 && LATIN1_FOLD[u[i + 1] - 0x80] != '-') {
            one = LATIN1_FOLD[u[i + 1] - 0x80];
        } else if (k == 3 && u[i] == 0xE2 && u[i + 1] == 0x80 && u[i + 2] == 0x99) {
            one = '\'';
        } else if (k == 3 && u[i] == 0xEF && u[i + 1] == 0xB8 && (u[i + 2] & 0xFE) == 0x8E) {
            w = 0; /* U+FE0E, U+FE0F: the text or emoji form of a symbol */
        } else {
            from = s + i;
            w = k;
        }
        if (o + w >= cap)
            return -1;
        memcpy(out + o, from, w);
        o += w;
        i += k;
    }
    out[o] = '\0';
    return (int)o;
}

/* ------------------------------------------------------------------------ */
/* IRC formatting and control characters                                    */

/* How many of u[i..n) are digits (hex digits when hex), at most max. */
static size_t count_digits(const unsigned char *u, size_t n, size_t i, size_t max, bool hex)
{
    size_t d = 0;
    while (i + d < n && d < max &&
           ((u[i + d] >= '0' && u[i + d] <= '9') ||
            (hex && ((u[i + d] | 0x20) >= 'a' && (u[i + d] | 0x20) <= 'f'))))
        d++;
    return d;
}

/*
 * The index just past the colour code at u[i]: \x03 with up to two digits,
 * then optionally a comma and up to two more; \x04 the same with six hex
 * digits. A comma not followed by a digit is text.
 */
static size_t skip_colour(const unsigned char *u, size_t n, size_t i)
{
    bool hex = u[i] == 0x04;
    size_t max = hex ? 6 : 2, d = count_digits(u, n, i + 1, max, hex);
    i += 1 + d;
    if (d > 0 && i < n && u[i] == ',') {
        size_t d2 = count_digits(u, n, i + 1, max, hex);
        if (d2 > 0)
            i += 1 + d2;
    }
    return i;
}

/*
 * Copies s[0..n) into out (n + 1 bytes) without IRC formatting codes and
 * with other control characters as spaces (see text.h). Returns the new
 * length.
 */
size_t text_sanitize(const char *s, size_t n, char *out)
{
    static const char FORMAT[] = "\x02\x0f\x11\x16\x1d\x1e\x1f";
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned char b = u[i];
        if (b == 0x03 || b == 0x04) {
            i = skip_colour(u, n, i);
        } else if (memchr(FORMAT, b, sizeof FORMAT - 1) != NULL) {
            i++;
        } else if (b < 0x20 || b == 0x7F) {
            out[o++] = ' ';
            i++;
        } else if (b == 0xC2 && text_utf8_len(s + i, n - i) == 2 && u[i + 1] <= 0xA0) {
            out[o++] = ' ';
            i += 2;
        } else {
            out[o++] = (char)b;
            i++;
        }
    }
    out[o] = '\0';
    return o;
}

/* ------------------------------------------------------------------------ */
/* Quoting                                                                  */

/*
 * The length of the invisible format character at s (see text.h), of which
 * n bytes are available, or 0. All of them are three bytes long: E2 80
 * 8B..8F (U+200B..U+200F), E2 80 AA..AE (U+202A..U+202E), E2 81 A0..A4
 * (U+2060..U+2064), E2 81 A6..A9 (U+2066..U+2069), EF BB BF (U+FEFF).
 */
size_t text_invisible_len(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (text_utf8_len(s, n) != 3)
        return 0;
    unsigned char b = u[2];
    bool hidden =
        (u[0] == 0xE2 && u[1] == 0x80 && ((b >= 0x8B && b <= 0x8F) || (b >= 0xAA && b <= 0xAE))) ||
        (u[0] == 0xE2 && u[1] == 0x81 && ((b >= 0xA0 && b <= 0xA4) || (b >= 0xA6 && b <= 0xA9))) ||
        (u[0] == 0xEF && u[1] == 0xBB && b == 0xBF);
    return hidden ? 3 : 0;
}

/*
 * Writes s[0..n) into out, at most chars characters then "...", with
 * invalid UTF-8 and invisible format characters as '?' (see text_quote).
 * out holds chars * 4 + 4 bytes.
 */
static const char *quote(const char *s, size_t n, size_t chars, char *out)
{
    size_t o = 0, done = 0;
    for (size_t i = 0; i < n; done++) {
        if (done == chars) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        size_t k = text_utf8_len(s + i, n - i);
        if (k == 0 || text_invisible_len(s + i, n - i) > 0) {
            out[o++] = '?';
            i += k == 0 ? 1 : k;
        } else {
            memcpy(out + o, s + i, k);
            o += k;
            i += k;
        }
    }
    out[o] = '\0';
    return out;
}

/*
 * Writes s[0..n) for a reply into out (TEXT_QUOTE_MAX bytes) and returns
 * out (see text.h). At most TEXT_QUOTE_CHARS characters of four bytes,
 * "..." and the NUL fill TEXT_QUOTE_MAX exactly.
 */
const char *text_quote(const char *s, size_t n, char *out)
{
    return quote(s, n, TEXT_QUOTE_CHARS, out);
}

/*
 * Writes a player's line for an example into out (TEXT_ECHO_MAX bytes)
 * and returns out (see text.h): sanitized, its spaces squeezed and
 * trimmed, then quoted up to TEXT_ECHO_CHARS characters. A line longer
 * than TEXT_ECHO_LINE bytes is read up to there.
 */
const char *text_echo(const char *s, size_t n, char *out)
{
    char clean[TEXT_ECHO_LINE + 1];
    size_t len = text_sanitize(s, n < TEXT_ECHO_LINE ? n : TEXT_ECHO_LINE, clean), o = 0;
    for (size_t i = 0; i < len; i++)
        if (clean[i] != ' ' || (o > 0 && clean[o - 1] != ' '))
            clean[o++] = clean[i];
    while (o > 0 && clean[o - 1] == ' ')
        o--;
    return quote(clean, o, TEXT_ECHO_CHARS, out);
}

void text_duration(long long secs, char *out, size_t cap)
{
    static const struct {
        long long secs;
        const char *unit;
    } units[] = {{86400, "d"}, {3600, "h"}, {60, "min"}, {1, "s"}};
    if (secs < 0)
        secs = 0;
    size_t i = 0;
    while (i < 3 && (secs < units[i].secs || (i == 0 && secs < 2 * 86400)))
        i++;
    for (size_t j = i; j < 4; j++)
        if (secs % units[j].secs == 0) { /* a whole number of a smaller unit reads better */
            if (secs / units[j].secs <= 120 || j == i)
                i = j;
            break;
        }
    snprintf(out, cap, "%lld %s", secs / units[i].secs, units[i].unit);
}

/* c in lower case when it is an ASCII capital. */
static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

size_t text_distance(const char *a, size_t an, const char *b, size_t bn)
{
    if (an > TEXT_DISTANCE_MAX || bn > TEXT_DISTANCE_MAX)
        return SIZE_MAX;
    size_t rows[3][TEXT_DISTANCE_MAX + 1] = {{0}};
    size_t *pp = rows[0], *p = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= bn; j++)
        p[j] = j;
    for (size_t i = 1; i <= an; i++) {
        cur[0] = i;
        char x = ascii_lower(a[i - 1]);
        for (size_t j = 1; j <= bn; j++) {
            char y = ascii_lower(b[j - 1]);
            size_t v = p[j - 1] + (x != y);
            if (p[j] + 1 < v)
                v = p[j] + 1;
            if (cur[j - 1] + 1 < v)
                v = cur[j - 1] + 1;
            if (i > 1 && j > 1 && x == ascii_lower(b[j - 2]) && ascii_lower(a[i - 2]) == y &&
                pp[j - 2] + 1 < v)
                v = pp[j - 2] + 1;
            cur[j] = v;
        }
        size_t *t = pp;
        pp = p;
        p = cur;
        cur = t;
    }
    return p[bn];
}

/* A name as text (see text.h): bad bytes and control characters as '?'. */
const char *text_clean(const char *s, char *out, size_t cap)
{
    size_t n = s != NULL ? strlen(s) : 0, len = 0;
    if (cap == 0)
        return out;
    for (size_t i = 0; i < n;) {
        size_t k = text_utf8_len(s + i, n - i);
        if (len + (k > 0 ? k : 1) >= cap)
            break;
        if (k == 0 || (k == 1 && ((unsigned char)s[i] < 0x20 || s[i] == 0x7F))) {
            out[len++] = '?';
            i++;
        } else {
            memcpy(out + len, s + i, k);
            len += k;
            i += k;
        }
    }
    out[len] = '\0';
    return out;
}
