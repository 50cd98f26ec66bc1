/*
 * json.c — the pull reader of json.h. One state variable says what may
 * come next (a value, a key, a separator); a small stack says whether each
 * open container is an object or an array. Every byte is read through a
 * bounds check against len, so truncated input, NUL bytes and invalid
 * UTF-8 are errors, never reads past the end. No recursion, no allocation.
 * At the end, the bounded appenders a writer needs; the layout of what is
 * written (save.c's document) is the caller's.
 */
#include <string.h>

#include "json.h"

enum state {
    ST_VALUE,       /* a value must come */
    ST_FIRST_VALUE, /* just after '[': a value or ']' */
    ST_KEY,         /* after ',' in an object: a key must come */
    ST_FIRST_KEY,   /* just after '{': a key or '}' */
    ST_AFTER,       /* after a value: ',' or the container's end */
    ST_DONE,
    ST_FAILED
};

enum { IN_OBJECT = 1, IN_ARRAY = 2 };

/* Starts reading doc; see json.h. */
void pzj_init(pzj_reader *r, const char *doc, size_t len)
{
    memset(r, 0, sizeof *r);
    r->doc = doc;
    r->len = doc != NULL ? len : 0;
    r->state = ST_VALUE;
}

/* Records the first error at byte pos; returns PZJ_ERROR. */
static pzj_token fail(pzj_reader *r, size_t pos, const char *msg)
{
    r->state = ST_FAILED;
    r->err = msg;
    r->err_pos = pos;
    r->tok = PZJ_ERROR;
    return PZJ_ERROR;
}

/* The byte at pos, or -1 past the end. */
static int at(const pzj_reader *r, size_t pos)
{
    return pos < r->len ? (unsigned char)r->doc[pos] : -1;
}

/* Skips JSON whitespace (space, tab, line feed, carriage return). */
static void skip_space(pzj_reader *r)
{
    for (;;) {
        int c = at(r, r->pos);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        r->pos++;
    }
}

/* The value of the 4 hex digits at pos, or -1 if they are not all there. */
static long hex4(const pzj_reader *r, size_t pos)
{
    long v = 0;
    for (size_t i = 0; i < 4; i++) {
        int c = at(r, pos + i), d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/*
 * The length of the well-formed UTF-8 sequence (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF) starting at pos, or 0.
 */
static size_t utf8_length(const pzj_reader *r, size_t pos)
{
    int c = at(r, pos), lo = 0x80, hi = 0xBF;
    size_t need;
    if (c < 0x80)
        return 1;
    if (c < 0xC2)
        return 0;
    if (c < 0xE0) {
        need = 1;
    } else if (c < 0xF0) {
        need = 2;
        lo = c == 0xE0 ? 0xA0 : lo;
        hi = c == 0xED ? 0x9F : hi;
    } else if (c < 0xF5) {
        need = 3;
        lo = c == 0xF0 ? 0x90 : lo;
        hi = c == 0xF4 ? 0x8F : hi;
    } else {
        return 0;
    }
    int c1 = at(r, pos + 1);
    if (c1 < lo || c1 > hi)
        return 0;
    for (size_t i = 2; i <= need; i++)
        if ((at(r, pos + i) & 0xC0) != 0x80) /* -1 past the end fails too */
            return 0;
    return need + 1;
}

/*
 * Checks the escape whose backslash is at pos and returns its length
 * (2, 6, or 12 for a surrogate pair), or 0 with the error recorded.
 */
static size_t check_escape(pzj_reader *r, size_t pos)
{
    int c = at(r, pos + 1);
    const char *msg;
    if (c > 0 && strchr("\"\\/bfnrt", c) != NULL)
        return 2;
    long u = c == 'u' ? hex4(r, pos + 2) : -1;
    long lo = at(r, pos + 6) == '\\' && at(r, pos + 7) == 'u' ? hex4(r, pos + 8) : -1;
    if (c < 0)
        msg = "unterminated string";
    else if (c != 'u')
        msg = "invalid escape in string";
    else if (u < 0)
        msg = "\\u needs four hex digits";
    else if (u >= 0xDC00 && u <= 0xDFFF)
        msg = "lone low surrogate in string";
    else if (u < 0xD800 || u > 0xDBFF)
        return 6;
    else if (lo < 0xDC00 || lo > 0xDFFF)
        msg = "high surrogate without its low half";
    else
        return 12;
    fail(r, pos, msg);
    return 0;
}

/* Appends code point cp as UTF-8 to r->buf at *n; false when it is full. */
static int put_utf8(pzj_reader *r, size_t *n, long cp)
{
    unsigned char b[4];
    size_t k;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp, k = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | cp >> 6), k = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | cp >> 12), k = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | cp >> 18), k = 4;
    }
    for (size_t i = 1; i < k; i++)
        b[i] = (unsigned char)(0x80 | ((cp >> (6 * (k - 1 - i))) & 0x3F));
    if (PZJ_STRING_MAX - *n < k)
        return 0;
    memcpy(r->buf + *n, b, k);
    *n += k;
    return 1;
}

/* The byte an escape letter stands for (the letter is one of "\\/bfnrt). */
static char unescape(int c)
{
    switch (c) {
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    default:
        return (char)c;
    }
}

/*
 * Decodes the already checked string body [from, to) into r->buf and
 * points r->str at it. Returns 0, or -1 (error recorded) when the decoded
 * text does not fit PZJ_STRING_MAX.
 */
static int decode(pzj_reader *r, size_t from, size_t to)
{
    size_t n = 0;
    for (size_t p = from; p < to;) {
        int c = at(r, p), ok;
        if (c != '\\') {
            ok = n < PZJ_STRING_MAX;
            if (ok)
                r->buf[n++] = (char)c;
            p++;
        } else if (at(r, p + 1) != 'u') {
            ok = n < PZJ_STRING_MAX;
            if (ok)
                r->buf[n++] = unescape(at(r, p + 1));
            p += 2;
        } else {
            long cp = hex4(r, p + 2);
            p += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(r, p + 2) - 0xDC00);
                p += 6;
            }
            ok = put_utf8(r, &n, cp);
        }
        if (!ok) {
            fail(r, from - 1, "string too long once decoded");
            return -1;
        }
    }
    r->str = r->buf;
    r->str_len = n;
    return 0;
}

/*
 * Reads the string whose opening quote is at r->pos: checks control bytes,
 * escapes and UTF-8, then sets r->str (into doc when there is no escape,
 * else decoded into r->buf). Returns 0, or -1 with the error recorded.
 */
static int read_string(pzj_reader *r)
{
    const unsigned char *doc = (const unsigned char *)r->doc;
    size_t from = r->pos + 1, p = from;
    int escaped = 0;
    for (;;) {
        while (p < r->len && doc[p] >= 0x20 && doc[p] < 0x80 && doc[p] != '"' && doc[p] != '\\')
            p++; /* plain ASCII: the usual case, checked byte by byte below otherwise */
        int c = at(r, p);
        size_t k;
        if (c == '"')
            break;
        if (c < 0) {
            fail(r, r->pos, "unterminated string");
            return -1;
        }
        if (c < 0x20) {
            fail(r, p, "control byte in string");
            return -1;
        }
        if (c == '\\') {
            escaped = 1;
            k = check_escape(r, p); /* 0: the error is recorded */
        } else if (c < 0x80) {
            k = 1;
        } else if ((k = utf8_length(r, p)) == 0) {
            fail(r, p, "invalid UTF-8 in string");
        }
        if (k == 0)
            return -1;
        p += k;
    }
    r->pos = p + 1;
    if (escaped)
        return decode(r, from, p);
    r->str = r->doc + from;
    r->str_len = p - from;
    return 0;
}

/* Reads digits at *p into *mag, noting overflow in *huge; false if none. */
static int read_digits(const pzj_reader *r, size_t *p, uint64_t *mag, int *huge)
{
    size_t start = *p;
    for (int c; (c = at(r, *p)) >= '0' && c <= '9'; (*p)++) {
        unsigned d = (unsigned)(c - '0');
        if (*mag > (UINT64_MAX - d) / 10)
            *huge = 1;
        else
            *mag = *mag * 10 + d;
    }
    return *p > start;
}

/* Reads the number at r->pos (RFC 8259 grammar) and classifies it. */
static pzj_token read_number(pzj_reader *r)
{
    size_t p = r->pos;
    uint64_t mag = 0, ignored = 0;
    int neg = at(r, p) == '-', huge = 0, real = 0;
    p += (size_t)neg;
    if (at(r, p) == '0' && at(r, p + 1) >= '0' && at(r, p + 1) <= '9')
        return fail(r, p, "number with a leading zero");
    if (!read_digits(r, &p, &mag, &huge))
        return fail(r, p, "number without digits");
    if (at(r, p) == '.') {
        p++, real = 1;
        if (!read_digits(r, &p, &ignored, &huge))
            return fail(r, p, "number without digits after '.'");
    }
    if (at(r, p) == 'e' || at(r, p) == 'E') {
        p++, real = 1;
        p += (size_t)(at(r, p) == '+' || at(r, p) == '-');
        if (!read_digits(r, &p, &ignored, &huge))
            return fail(r, p, "number without digits in its exponent");
    }
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    r->num = 0;
    if (real) {
        r->num_kind = PZJ_NUM_REAL;
    } else if (huge || mag > limit) {
        r->num_kind = PZJ_NUM_HUGE;
    } else {
        r->num_kind = PZJ_NUM_INT;
        if (!neg)
            r->num = (int64_t)mag;
        else
            r->num = mag == limit ? INT64_MIN : -(int64_t)mag;
    }
    r->str = r->doc + r->pos;
    r->str_len = p - r->pos;
    r->pos = p;
    return PZJ_NUMBER;
}

/* Reads the literal word (true, false, null) expected at r->pos. */
static pzj_token read_literal(pzj_reader *r, const char *word, pzj_token tok)
{
    size_t n = strlen(word);
    if (r->len - r->pos < n || memcmp(r->doc + r->pos, word, n) != 0)
        return fail(r, r->pos, "unexpected byte: a value must come here");
    r->pos += n;
    return tok;
}

/* Opens an object or array (c is '{' or '['), within PZJ_DEPTH_MAX. */
static pzj_token open_container(pzj_reader *r, int c)
{
    if (r->depth >= PZJ_DEPTH_MAX)
        return fail(r, r->pos, "nested too deeply");
    r->stack[r->depth++] = c == '{' ? IN_OBJECT : IN_ARRAY;
    r->pos++;
    r->state = c == '{' ? ST_FIRST_KEY : ST_FIRST_VALUE;
    return c == '{' ? PZJ_OBJECT : PZJ_ARRAY;
}

/* Closes the innermost container, which the caller has matched to c. */
static pzj_token close_container(pzj_reader *r, int c)
{
    r->depth--;
    r->pos++;
    r->state = ST_AFTER;
    return c == '}' ? PZJ_OBJECT_END : PZJ_ARRAY_END;
}

/* Reads a value at r->pos (whitespace skipped). */
static pzj_token read_value(pzj_reader *r)
{
    int c = at(r, r->pos);
    if (c == '{' || c == '[')
        return open_container(r, c);
    r->state = ST_AFTER;
    switch (c) {
    case -1:
        return fail(r, r->pos,
                    r->depth == 0 ? "the document is empty" : "unexpected end: a value must come");
    case '"':
        return read_string(r) == 0 ? PZJ_STRING : PZJ_ERROR;
    case 't':
        return read_literal(r, "true", PZJ_TRUE);
    case 'f':
        return read_literal(r, "false", PZJ_FALSE);
    case 'n':
        return read_literal(r, "null", PZJ_NULL);
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return read_number(r);
        return fail(r, r->pos, "unexpected byte: a value must come here");
    }
}

/* Reads a member name and its ':' at r->pos (whitespace skipped). */
static pzj_token read_key(pzj_reader *r)
{
    if (at(r, r->pos) != '"')
        return fail(r, r->pos,
                    at(r, r->pos) < 0 ? "unexpected end: a key must come"
                                      : "a key (a string) must come here");
    if (read_string(r) != 0)
        return PZJ_ERROR;
    skip_space(r);
    if (at(r, r->pos) != ':')
        return fail(r, r->pos, "':' must follow a key");
    r->pos++;
    r->state = ST_VALUE;
    return PZJ_KEY;
}

/*
 * After a value: ',' (then the next state), the end of the innermost
 * container, or at the top level the end of the input.
 */
static pzj_token read_after(pzj_reader *r)
{
    int c = at(r, r->pos);
    if (r->depth == 0) {
        if (c >= 0)
            return fail(r, r->pos, "unexpected bytes after the document");
        r->state = ST_DONE;
        return PZJ_END;
    }
    int in = r->stack[r->depth - 1];
    if (c == ',') {
        r->pos++;
        r->state = in == IN_OBJECT ? ST_KEY : ST_VALUE;
        return pzj_next(r); /* one level only: ST_KEY and ST_VALUE never get here */
    }
    if ((c == '}' && in == IN_OBJECT) || (c == ']' && in == IN_ARRAY))
        return close_container(r, c);
    if (c < 0)
        return fail(r, r->pos, "unexpected end: the document is cut short");
    return fail(r, r->pos,
                in == IN_OBJECT ? "',' or '}' must come here" : "',' or ']' must come here");
}

/* Reads the next token; see json.h. */
pzj_token pzj_next(pzj_reader *r)
{
    if (r->state == ST_FAILED)
        return PZJ_ERROR;
    if (r->state == ST_DONE)
        return r->tok = PZJ_END;
    skip_space(r);
    r->tok_pos = r->pos;
    int c = at(r, r->pos);
    pzj_token t;
    switch (r->state) {
    case ST_FIRST_KEY:
        t = c == '}' ? close_container(r, c) : read_key(r);
        break;
    case ST_KEY:
        t = read_key(r);
        break;
    case ST_FIRST_VALUE:
        t = c == ']' ? close_container(r, c) : read_value(r);
        break;
    case ST_VALUE:
        t = read_value(r);
        break;
    default:
        t = read_after(r);
        break;
    }
    return r->tok = t;
}

/* Appends n bytes, or marks the output full if they do not fit. */
void pzj_put(pzj_out *o, const char *s, size_t n)
{
    if ((size_t)(o->end - o->p) < n) {
        o->full = 1;
        o->end = o->p; /* nothing fits after a refusal: the text stays a prefix */
        return;
    }
    memcpy(o->p, s, n);
    o->p += n;
}

/* Appends a NUL-terminated string. */
void pzj_put_str(pzj_out *o, const char *s)
{
    pzj_put(o, s, strlen(s));
}

/* Appends v in decimal, built from the right in a small buffer. */
void pzj_put_int(pzj_out *o, long v)
{
    char b[24];
    size_t n = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        b[sizeof b - ++n] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        b[sizeof b - ++n] = '-';
    pzj_put(o, b + sizeof b - n, n);
}
