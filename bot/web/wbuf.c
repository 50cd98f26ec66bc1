/*
 * wbuf.c — a growing buffer and the escapes of HTML, JSON and hex (wbuf.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wbuf.h"

static bool grow(wbuf *b, size_t more)
{
    if (b->failed)
        return false;
    if (b->len + more + 1 <= b->cap)
        return true;
    size_t cap = b->cap < 256 ? 256 : b->cap;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (s == NULL) {
        b->failed = true;
        return false;
    }
    b->s = s;
    b->cap = cap;
    return true;
}

static void put(wbuf *b, const char *s, size_t n)
{
    if (!grow(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void wb_printf(wbuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        put(b, small, (size_t)n);
        return;
    }
    if (!grow(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void wb_raw(wbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* The length of the valid UTF-8 character at s (1..4) and its code point,
   or 0 when the bytes are not one. */
static size_t utf8_char(const unsigned char *s, uint32_t *cp)
{
    unsigned c = s[0];
    size_t n;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xE0) == 0xC0)
        n = 2, v = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
        n = 3, v = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0)
        n = 4, v = c & 0x07, min = 0x10000;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

/* Whether cp may not be shown as it is: controls and bidi controls. */
static bool hidden(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x061C;
}

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Appends s with each character through esc (which returns the text for
   an ASCII byte to escape, or NULL to keep it); the marks as open and
   close, or (NULL) as any control. */
static void escaped(wbuf *b, const char *s, const char *(*esc)(unsigned char), const char *open,
                    const char *close)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p != '\0') {
        uint32_t cp;
        size_t n = utf8_char(p, &cp);
        if (open != NULL && (*p == WB_OPEN || *p == WB_CLOSE)) {
            wb_raw(b, *p == WB_OPEN ? open : close);
            p++;
            continue;
        }
        if (n == 0 || hidden(cp)) {
            put(b, REPLACEMENT, 3);
            p += n == 0 ? 1 : n;
            continue;
        }
        const char *e = n == 1 ? esc(*p) : NULL;
        if (e != NULL)
            wb_raw(b, e);
        else
            put(b, (const char *)p, n);
        p += n;
    }
}

static const char *html_esc(unsigned char c)
{
    switch (c) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return "&quot;";
    case '\'':
        return "&#39;";
    default:
        return NULL;
    }
}

static const char *json_esc(unsigned char c)
{
    switch (c) {
    case '"':
        return "\\\"";
    case '\\':
        return "\\\\";
    case '<':
        return "\\u003c";
    case '>':
        return "\\u003e";
    case '&':
        return "\\u0026";
    default:
        return NULL;
    }
}

void wb_html(wbuf *b, const char *s)
{
    escaped(b, s, html_esc, NULL, NULL);
}

void wb_json(wbuf *b, const char *s)
{
    escaped(b, s, json_esc, NULL, NULL);
}

void wb_marked(wbuf *b, const char *s, bool json, const char *open, const char *close)
{
    escaped(b, s, json ? json_esc : html_esc, open, close);
}

void wb_mark(const char *s, char *out, size_t cap)
{
    if (cap < 3) {
        if (cap > 0)
            out[0] = '\0';
        return;
    }
    size_t n = strlen(s);
    if (n > cap - 3) { /* cut at a character's start */
        n = cap - 3;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    out[0] = WB_OPEN;
    for (size_t i = 0; i < n; i++)
        out[1 + i] = s[i] == WB_OPEN || s[i] == WB_CLOSE ? '\x1a' : s[i];
    out[n + 1] = WB_CLOSE;
    out[n + 2] = '\0';
}

void wb_hex(wbuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        char two[2] = {hex[*p >> 4], hex[*p & 15]};
        put(b, two, 2);
    }
}

int wb_unhex(const char *hex, size_t len, char *out, size_t cap)
{
    if (len % 2 != 0 || len / 2 + 1 > cap || len == 0)
        return -1;
    for (size_t i = 0; i < len; i += 2) {
        int v = 0;
        for (size_t k = i; k < i + 2; k++) {
            char c = hex[k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0)
                return -1;
            v = v * 16 + d;
        }
        if (v == 0)
            return -1;
        out[i / 2] = (char)v;
    }
    out[len / 2] = '\0';
    return 0;
}

void wb_free(wbuf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}
