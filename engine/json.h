/*
 * json.h — a small pull reader of JSON text (RFC 8259), for the engine's
 * saved games. The caller asks for one token at a time with pzj_next() and
 * walks the document in a single pass; the reader checks the whole grammar
 * as it goes (nesting, commas, strings, UTF-8, numbers) and stops at the
 * first error with a message and a byte offset.
 *
 * It is built for input nobody checked: any bytes of any length (NUL bytes
 * included) are read within [doc, doc + len) only, nesting is limited to
 * PZJ_DEPTH_MAX without recursion, and nothing is allocated. It builds no
 * tree: the caller keeps what it needs as it reads. For writing there are
 * only bounded appenders (pzj_put...): the caller lays out its own text.
 */
#ifndef PZ_JSON_H
#define PZ_JSON_H

#include <stddef.h>
#include <stdint.h>

#define PZJ_DEPTH_MAX 32   /* objects and arrays open at once, at most */
#define PZJ_STRING_MAX 256 /* bytes of a string with escapes, decoded */

typedef enum pzj_token {
    PZJ_ERROR,      /* r->err says what is wrong, at byte r->err_pos */
    PZJ_END,        /* the document is complete; only whitespace followed */
    PZJ_OBJECT,     /* '{' */
    PZJ_OBJECT_END, /* '}' */
    PZJ_ARRAY,      /* '[' */
    PZJ_ARRAY_END,  /* ']' */
    PZJ_KEY,        /* a member name (its ':' is consumed): r->str */
    PZJ_STRING,     /* r->str */
    PZJ_NUMBER,     /* r->str (as written), r->num_kind, r->num */
    PZJ_TRUE,
    PZJ_FALSE,
    PZJ_NULL
} pzj_token;

typedef enum pzj_number {
    PZJ_NUM_INT,  /* a whole number that fits int64_t: r->num holds it */
    PZJ_NUM_HUGE, /* a whole number beyond int64_t */
    PZJ_NUM_REAL  /* a fraction or an exponent */
} pzj_number;

typedef struct pzj_reader {
    /* The input, and where the reader is. Private. */
    const char *doc;
    size_t len;
    size_t pos;
    int state;
    int depth;
    unsigned char stack[PZJ_DEPTH_MAX];

    /* The current token, valid until the next call to pzj_next(). */
    pzj_token tok;
    size_t tok_pos;      /* byte offset where the token starts */
    const char *str;     /* KEY, STRING: the text, decoded; NUMBER: as written */
    size_t str_len;      /* may include NUL bytes (from "\u0000") */
    pzj_number num_kind; /* NUMBER */
    int64_t num;         /* NUMBER, when num_kind is PZJ_NUM_INT */

    /* After PZJ_ERROR (and on every later call): a fixed message. */
    const char *err;
    size_t err_pos;

    char buf[PZJ_STRING_MAX]; /* strings with escapes are decoded here */
} pzj_reader;

/*
 * Starts reading the len bytes at doc (doc may be NULL when len is 0). The
 * reader keeps pointers into doc and into itself: keep both alive and do
 * not copy the reader while reading.
 */
void pzj_init(pzj_reader *r, const char *doc, size_t len);

/*
 * Reads the next token and returns it (also in r->tok). A key comes with
 * its ':' already read. PZJ_END comes once the top-level value is complete
 * and only whitespace follows; PZJ_ERROR at the first byte that breaks the
 * grammar. Both repeat on every later call.
 */
pzj_token pzj_next(pzj_reader *r);

/*
 * A bounded output: bytes go to [p, end). Once something does not fit,
 * full is set and nothing more is written, so the text is always a prefix
 * of what was asked for. No NUL is written: the caller ends the text.
 */
typedef struct pzj_out {
    char *p;
    char *end;
    int full;
} pzj_out;

/* Appends the n bytes at s, as they are (no quoting, no escaping). */
void pzj_put(pzj_out *o, const char *s, size_t n);
/* Appends the NUL-terminated s, as it is. */
void pzj_put_str(pzj_out *o, const char *s);
/* Appends v in decimal. */
void pzj_put_int(pzj_out *o, long v);

#endif /* PZ_JSON_H */
