/*
 * config_int.h — what the two halves of the configuration reader share:
 * config.c reads the text (lines, sections, values, messages) and
 * config_keys.c says what each key may hold (the tables of keys, the
 * checks of values, the defaults, the checks of a section as a whole).
 * Not a public interface: config.h is.
 */
#ifndef PZ_CONFIG_INT_H
#define PZ_CONFIG_INT_H

#ifndef PZ_INSIDE_CONFIG
#error                                                                                             \
    "config_int.h is the configuration reader's inside: other layers include config.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "config.h"

#define LINE_MAX_BYTES 4096          /* longer lines are refused */
#define FILE_MAX_BYTES (1024 * 1024) /* larger files are refused */
#define NAME_MAX_BYTES 31            /* a network's name */
#define MAX_KEYS 32                  /* keys of the largest section */
#define ECHO_MAX 40                  /* bytes of a misspelt key compared with known ones */
#define ERRORS_MAX 50                /* errors reported before the reader gives up */

#if defined(__GNUC__)
#define CFG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CFG_PRINTF(f, a)
#endif

/* Copies a string literal into a char array it is known to fit. */
#define SET_LIT(dst, lit)                                                                          \
    do {                                                                                           \
        _Static_assert(sizeof(lit) <= sizeof(dst), "literal too long for " #dst);                  \
        memcpy((dst), (lit), sizeof(lit));                                                         \
    } while (0)

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* K_LANGS: the keys lang_CODE, one for each language of i18n.c ("lang_es =
   #canal, #mesa"), into the section's lang_rooms (config_langs.c). */
enum kind { K_STR, K_INT, K_BOOL, K_DURATION, K_LIST, K_LANGS };
#define CFG_LANG_KEY "lang_CODE" /* the name of K_LANGS's key_def */

enum {
    F_REQUIRED = 1, /* the section is incomplete without it; never empty */
    F_NONEMPTY = 2, /* optional, but not empty when given */
    F_NOSPACE = 4   /* a single word */
};

/* A check of one string value or list entry: NULL, or what is wrong and
 * how to fix it, phrased to follow the key's name ("must be ..."). */
typedef const char *(*check_fn)(const char *s);

typedef struct key_def {
    const char *name;
    enum kind kind;
    unsigned flags;
    size_t off;          /* of the field in the section's struct */
    size_t size;         /* K_STR, K_LIST: bytes of one string, NUL included */
    size_t count_off;    /* K_LIST: of the int that counts the entries */
    int min, max;        /* K_INT */
    check_fn check;      /* K_STR, K_LIST: or NULL */
    const char *example; /* F_REQUIRED: a value to suggest when missing */
} key_def;

typedef struct parser parser;

typedef struct section_def {
    const char *kind; /* "bot", "irc", "matrix" */
    const key_def *keys;
    size_t nkeys;
    int (*finish)(parser *p); /* checks across keys at the section's end, or NULL */
} section_def;

struct parser {
    cfg *c;
    cfg *scratch; /* what a broken section's keys fill, so they are checked too */
    const char *file;
    char *why; /* the first error */
    size_t why_len;
    cfg_report_fn report; /* every error and warning, or NULL */
    void *report_arg;
    int nerrors, nwarnings;
    bool env_optional; /* only checking: an unset ${NAME} is a warning (cfg_check_all) */
    bool skip;       /* true after a header that cannot be read: lines up to the next are skipped */
    int owners_line; /* where [bot] set owners; 0: not set */
    int line;        /* the line being read, from 1 */
    const section_def *sec; /* NULL before the first header */
    void *base;             /* the struct the section's keys fill */
    int sec_line;           /* the line of its header */
    char title[48];         /* "[irc libera]", for messages */
    int key_line[MAX_KEYS]; /* where each key of the section was set; 0: not yet */
    bool key_bad[MAX_KEYS]; /* its value was in error (and reported), or is a ${NAME} left
                               unset while only checking: checks take it as given */
    int bot_line;           /* the line of [bot]; 0: not seen */
    int web_line;           /* the line of [web]; 0: not seen */
};

/* ---- characters and small strings -------------------------------- */

/* True for the blanks trimmed around keys, values and list entries. */
static inline int is_blank(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* True for an ASCII digit. */
static inline int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* True for an ASCII letter or digit. */
static inline int is_alnum(char ch)
{
    return is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* ch in ASCII lower case; other bytes unchanged. */
static inline char lower(char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

/* 0 when a and b are equal ignoring ASCII case, else non-zero. */
static inline int ascii_casecmp(const char *a, const char *b)
{
    for (; *a != '\0' && lower(*a) == lower(*b); a++, b++)
        ;
    return lower(*a) != lower(*b);
}

/* True when every byte of s is in one of: letters, digits, or extra. */
static inline int only_chars(const char *s, const char *extra)
{
    for (; *s != '\0'; s++)
        if (!is_alnum(*s) && strchr(extra, *s) == NULL)
            return 0;
    return 1;
}

/* True for a network name: 1..31 letters, digits, '-' and '_'. */
static inline int is_network_name(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= NAME_MAX_BYTES && only_chars(s, "-_");
}

/* ---- config.c ----------------------------------------------------- */

/* Records an error, "FILE:LINE: message" (line 0: no line), and returns -1. */
int cfg__fail(parser *p, int line, const char *fmt, ...) CFG_PRINTF(3, 4);
/* Records a warning: the file is valid, but probably not what was meant. */
void cfg__warn(parser *p, int line, const char *fmt, ...) CFG_PRINTF(3, 4);

/* ---- config_keys.c ------------------------------------------------ */

#define CFG__NSECTIONS 4
/* [bot], [irc NAME], [matrix NAME], in that order */
extern const section_def cfg__sections[CFG__NSECTIONS];
/* The key of sec called name, or NULL. */
const key_def *cfg__find_key(const section_def *sec, const char *name);
/* The line where the current section set key name, or 0. */
int cfg__set_on(const parser *p, const char *name);
/* True when the current section set key name to a value in error. */
bool cfg__set_bad(const parser *p, const char *name);
/* The field of k in the current section's struct. */
void *cfg__field(const parser *p, const key_def *k);
/* True when some [irc] or [matrix] section is already called name. */
int cfg__network_exists(const cfg *c, const char *name);
/* Warns about owners whose network no section defines (at the file's end). */
void cfg__check_owners(parser *p);
/* Copies s into dst (k->size bytes) after k's checks, what naming it in
   messages: 0 or -1. */
int cfg__store_text(parser *p, const key_def *k, const char *what, const char *s, char *dst);
/* The value raw as written (quoted, ${NAME} or plain) into out: 0, -1, or
   1 for a variable left unset while only checking. */
int cfg__decode_value(parser *p, const key_def *k, const char *raw, char *out, size_t cap);

/* ---- config_langs.c: the lang_CODE keys and the languages' rules ---- */
/* sec's K_LANGS key when name is lang_CODE of a language (its pz_lang into
 *lang), else NULL. */
const key_def *cfg__lang_key(const section_def *sec, const char *name, int *lang);
/* Reads lang_CODE's list raw into the section's rooms: 0 or -1. */
int cfg__set_langs(parser *p, const key_def *k, int lang, const char *raw);

#endif
