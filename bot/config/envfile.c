/*
 * envfile.c — the reader of envfile.h: the state machine of systemd's
 * parse_env_file() (src/basic/env-file.c, systemd 252, Debian 12's), byte
 * by byte, so a file means here what it means to the service. Messages
 * carry a line number only. Not here: what the variables are for.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "envfile.h"

#define ENVFILE_MAX_BYTES (1024 * 1024) /* larger files are refused */

enum state {
    PRE_KEY,
    KEY,
    PRE_VALUE,
    VALUE,
    VALUE_ESCAPE,
    SINGLE_QUOTE,
    DOUBLE_QUOTE,
    DOUBLE_QUOTE_ESCAPE,
    COMMENT,
    COMMENT_ESCAPE
};

/* What one read of a file keeps: where to report, the name and value
 * being read (each at most the text's length), and where they started. */
typedef struct reader {
    const char *file;
    cfg_report_fn report;
    void *report_arg;
    int nerrors, nwarnings;
    envfile_set_fn set;
    void *set_arg;
    char *key, *value;
    size_t nkey, nvalue;
    size_t key_blank, value_blank; /* where trailing blanks start; SIZE_MAX: none */
    int line, key_line, quote_line;
} reader;

/* Hands "FILE:LINE: message" (line > 0) or "FILE: message" to r->report
 * and counts it. */
static void say(reader *r, cfg_level level, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(reader *r, cfg_level level, int line, const char *fmt, ...)
{
    char msg[CFG_WHY_MAX], full[CFG_WHY_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        msg[0] = '\0';
    n = line > 0 ? snprintf(full, sizeof full, "%s:%d: %s", r->file, line, msg)
                 : snprintf(full, sizeof full, "%s: %s", r->file, msg);
    if (n < 0)
        full[0] = '\0';
    else if ((size_t)n >= sizeof full)
        memcpy(full + sizeof full - 4, "...", 4);
    if (level == CFG_ERROR)
        r->nerrors++;
    else
        r->nwarnings++;
    if (r->report != NULL)
        r->report(r->report_arg, level, full);
}

/* True for a name systemd keeps: letters, digits and _, not starting
 * with a digit. */
static bool valid_name(const char *s)
{
    if (*s == '\0' || (*s >= '0' && *s <= '9'))
        return false;
    for (; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

/* Ends the assignment being read: trailing blanks of the name (and of an
 * unquoted value's end when trim_value) dropped, then handed to r->set,
 * or a warning when systemd would ignore it. */
static void push(reader *r, bool trim_value)
{
    if (r->key_blank != SIZE_MAX)
        r->nkey = r->key_blank;
    if (trim_value && r->value_blank != SIZE_MAX)
        r->nvalue = r->value_blank;
    r->key[r->nkey] = '\0';
    r->value[r->nvalue] = '\0';
    if (valid_name(r->key))
        r->set(r->set_arg, r->key, r->value);
    else
        say(r, CFG_WARNING, r->key_line,
            "the name before '=' is not a variable name (letters, digits and _, not starting "
            "with a digit); systemd ignores this assignment");
    r->nkey = r->nvalue = 0;
}

/* True for the bytes systemd takes as a line's end, and as blanks. */
static bool is_newline(char c)
{
    return c == '\n' || c == '\r';
}

static bool is_white(char c)
{
    return c == ' ' || c == '\t' || is_newline(c);
}

/* Reads one byte c in state s; returns the next state. */
static enum state step(reader *r, enum state s, char c)
{
    switch (s) {
    case PRE_KEY:
        if (c == '#' || c == ';')
            return COMMENT;
        if (is_white(c))
            return PRE_KEY;
        r->key_blank = SIZE_MAX;
        r->key_line = r->line;
        r->key[r->nkey++] = c;
        return KEY;
    case KEY:
        if (is_newline(c)) {
            say(r, CFG_WARNING, r->key_line, "this line has no '='; systemd ignores it");
            r->nkey = 0;
            return PRE_KEY;
        }
        if (c == '=') {
            r->value_blank = SIZE_MAX;
            return PRE_VALUE;
        }
        if (!is_white(c))
            r->key_blank = SIZE_MAX;
        else if (r->key_blank == SIZE_MAX)
            r->key_blank = r->nkey;
        r->key[r->nkey++] = c;
        return KEY;
    case PRE_VALUE:
        if (is_newline(c)) {
            push(r, false);
            return PRE_KEY;
        }
        r->quote_line = r->line;
        if (c == '\'')
            return SINGLE_QUOTE;
        if (c == '"')
            return DOUBLE_QUOTE;
        if (c == '\\')
            return VALUE_ESCAPE;
        if (is_white(c))
            return PRE_VALUE;
        r->value[r->nvalue++] = c;
        return VALUE;
    case VALUE:
        if (is_newline(c)) {
            push(r, true);
            return PRE_KEY;
        }
        if (c == '\\') {
            r->value_blank = SIZE_MAX;
            return VALUE_ESCAPE;
        }
        if (!is_white(c))
            r->value_blank = SIZE_MAX;
        else if (r->value_blank == SIZE_MAX)
            r->value_blank = r->nvalue;
        r->value[r->nvalue++] = c;
        return VALUE;
    case VALUE_ESCAPE:
        if (!is_newline(c)) /* a backslash-newline continues the line */
            r->value[r->nvalue++] = c;
        return VALUE;
    case SINGLE_QUOTE:
        if (c == '\'')
            return PRE_VALUE;
        r->value[r->nvalue++] = c;
        return SINGLE_QUOTE;
    case DOUBLE_QUOTE:
        if (c == '"')
            return PRE_VALUE;
        if (c == '\\')
            return DOUBLE_QUOTE_ESCAPE;
        r->value[r->nvalue++] = c;
        return DOUBLE_QUOTE;
    case DOUBLE_QUOTE_ESCAPE:
        if (strchr("\"\\`$", c) != NULL) {
            r->value[r->nvalue++] = c;
        } else if (c != '\n') { /* kept as written, as a shell does */
            r->value[r->nvalue++] = '\\';
            r->value[r->nvalue++] = c;
        }
        return DOUBLE_QUOTE;
    case COMMENT:
        if (c == '\\')
            return COMMENT_ESCAPE;
        return is_newline(c) ? PRE_KEY : COMMENT;
    case COMMENT_ESCAPE: /* systemd 252: a comment's backslash-newline continues it */
        return COMMENT;
    }
    return s;
}

/* See envfile.h. */
int envfile_parse(const char *name, const char *text, size_t len, envfile_set_fn set, void *arg,
                  cfg_report_fn report, void *report_arg, int *nwarnings)
{
    reader r = {.file = name,
                .report = report,
                .report_arg = report_arg,
                .set = set,
                .set_arg = arg,
                .line = 1};
    r.key = malloc(len + 1);
    r.value = malloc(len + 1);
    if (r.key == NULL || r.value == NULL) {
        say(&r, CFG_ERROR, 0, "out of memory reading the file");
    } else {
        enum state s = PRE_KEY;
        size_t i = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
        for (; i < len && text[i] != '\0'; i++) {
            s = step(&r, s, text[i]);
            r.line += text[i] == '\n';
        }
        if (i < len)
            say(&r, CFG_WARNING, r.line, "the file has a NUL byte here; systemd reads no further");
        if (s == SINGLE_QUOTE || s == DOUBLE_QUOTE || s == DOUBLE_QUOTE_ESCAPE)
            say(&r, CFG_WARNING, r.quote_line,
                "this quote is never closed; systemd takes the rest of the file as the value");
        if (s == KEY)
            say(&r, CFG_WARNING, r.key_line, "this line has no '='; systemd ignores it");
        else if (s != PRE_KEY && s != COMMENT && s != COMMENT_ESCAPE)
            push(&r, s == VALUE);
    }
    if (r.key != NULL)
        explicit_bzero(r.key, len + 1); /* either may hold a secret */
    if (r.value != NULL)
        explicit_bzero(r.value, len + 1);
    free(r.key);
    free(r.value);
    if (nwarnings != NULL)
        *nwarnings = r.nwarnings;
    return r.nerrors == 0 ? 0 : -1;
}

/* Sets one variable in the environment (envfile_set_fn); counts failures. */
static void set_env(void *arg, const char *name, const char *value)
{
    int *failed = arg;
    if (setenv(name, value, 1) != 0)
        (*failed)++;
}

/* Reads the open file f (closed here) into the environment; returns the
 * number of errors, counted in r, and adds envfile_parse's warnings. */
static int load_open(reader *r, FILE *f)
{
    int failed = 0, nwarn = 0;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && (st.st_mode & S_IROTH) != 0)
        say(r, CFG_WARNING, 0,
            "other users may read this file of secrets; make it private with chmod 600");
    char *buf = malloc(ENVFILE_MAX_BYTES + 1);
    errno = 0;
    size_t n = buf != NULL ? fread(buf, 1, ENVFILE_MAX_BYTES + 1, f) : 0;
    int err = buf == NULL ? ENOMEM : ferror(f) ? (errno != 0 ? errno : EIO) : 0;
    fclose(f);
    if (err != 0)
        say(r, CFG_ERROR, 0, "cannot read: %s", strerror(err));
    else if (n > ENVFILE_MAX_BYTES)
        say(r, CFG_ERROR, 0, "the file is larger than 1 MiB; is it the right file?");
    else if (envfile_parse(r->file, buf, n, set_env, &failed, r->report, r->report_arg, &nwarn) !=
             0)
        r->nerrors++; /* reported by envfile_parse */
    else if (failed > 0)
        say(r, CFG_ERROR, 0, "cannot set %d of its variables: out of memory", failed);
    r->nwarnings += nwarn;
    if (buf != NULL)
        explicit_bzero(buf, n); /* it held secrets */
    free(buf);
    return r->nerrors;
}

/* See envfile.h. */
int envfile_load(const char *path, cfg_report_fn report, void *report_arg, int *nwarnings)
{
    reader r = {.file = path, .report = report, .report_arg = report_arg};
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        say(&r, CFG_ERROR, 0, "cannot open: %s", strerror(errno));
    else
        (void)load_open(&r, f);
    if (nwarnings != NULL)
        *nwarnings = r.nwarnings;
    return r.nerrors;
}
