/*
 * config.c — the reader of config.h: splits the text into lines, each a
 * comment, a [section] header or a key = value, and stores every value
 * through one table of keys per section kind (name, type, field offset,
 * range, check). The parse runs on a heap copy of the defaults, so the
 * caller's struct changes only when the whole file is valid. Messages
 * name the file, the line and the fix, and never quote a value: a value
 * may be a secret. Not here: connecting, or deciding what a value means
 * to the adapters beyond its syntax, nor what each key may hold
 * (config_keys.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "config_int.h"
#include "i18n.h"
#include "text.h"

/* ---- small strings ---------------------------------------------- */

/* s without the blanks around it: returns a pointer into s and writes a
 * NUL after its last non-blank byte. */
static char *trim(char *s)
{
    while (is_blank(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && is_blank(s[n - 1]))
        n--;
    s[n] = '\0';
    return s;
}

/* ---- messages ---------------------------------------------------- */

/* After n = snprintf(buf, size, ...): empties buf on an error and ends
 * it with "..." when the text was cut (messages are for people). */
static void mark_cut(char *buf, size_t size, int n)
{
    if (n < 0)
        buf[0] = '\0';
    else if ((size_t)n >= size && size > 4)
        memcpy(buf + size - 4, "...", 4);
}

/* Hands "FILE:LINE: message" (line > 0) or "FILE: message" to p->report,
 * counts it, and copies the first error into p->why when it can hold one. */
static void emit(parser *p, cfg_level level, int line, const char *fmt, va_list ap)
{
    char msg[CFG_WHY_MAX], full[CFG_WHY_MAX + 64];
    mark_cut(msg, sizeof msg, vsnprintf(msg, sizeof msg, fmt, ap));
    int n = line > 0 ? snprintf(full, sizeof full, "%s:%d: %s", p->file, line, msg)
                     : snprintf(full, sizeof full, "%s: %s", p->file, msg);
    mark_cut(full, sizeof full, n);
    if (level == CFG_ERROR && p->nerrors++ == 0 && p->why != NULL && p->why_len > 0)
        mark_cut(p->why, p->why_len, snprintf(p->why, p->why_len, "%s", full));
    if (level == CFG_WARNING)
        p->nwarnings++;
    if (p->report != NULL)
        p->report(p->report_arg, level, full);
}

/* Records an error (see emit()) and returns -1. */
int cfg__fail(parser *p, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(p, CFG_ERROR, line, fmt, ap);
    va_end(ap);
    return -1;
}

/* Records a warning: the file is valid, but probably not what was meant. */
void cfg__warn(parser *p, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(p, CFG_WARNING, line, fmt, ap);
    va_end(ap);
}

/* ---- values ------------------------------------------------------ */

/*
 * Copies s into dst (k->size bytes) after k's checks; what names the value
 * in messages ("nick", "entry 2 of channels"). Returns 0 or -1.
 */
int cfg__store_text(parser *p, const key_def *k, const char *what, const char *s, char *dst)
{
    size_t n = strlen(s);
    if (n == 0 && (k->flags & (F_REQUIRED | F_NONEMPTY)) != 0)
        return cfg__fail(p, p->line, "%s is empty; give it a value or remove the line", what);
    if (n >= k->size)
        return cfg__fail(p, p->line, "%s is too long; it may have at most %zu bytes", what,
                         k->size - 1);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return cfg__fail(p, p->line,
                             "%s contains a control character (a tab or a line break); remove it",
                             what);
    if ((k->flags & F_NOSPACE) != 0 && strchr(s, ' ') != NULL)
        return cfg__fail(p, p->line, "%s must be one word, without spaces", what);
    const char *wrong = n > 0 && k->check != NULL ? k->check(s) : NULL;
    if (wrong != NULL)
        return cfg__fail(p, p->line, "%s %s", what, wrong);
    memcpy(dst, s, n + 1);
    return 0;
}

/* Stores a comma-separated list (s is changed); an empty s is no entries. */
static int store_list(parser *p, const key_def *k, char *s)
{
    char *entries = cfg__field(p, k), what[64];
    int n = 0;
    if (*s == '\0' && (k->flags & F_REQUIRED) != 0)
        return cfg__fail(p, p->line, "%s is empty; list at least one, e.g. %s = %s", k->name,
                         k->name, k->example);
    for (char *next = *s != '\0' ? s : NULL; next != NULL; n++) {
        char *comma = strchr(next, ',');
        if (comma != NULL)
            *comma++ = '\0';
        char *entry = trim(next);
        next = comma;
        if (*entry == '\0')
            return cfg__fail(p, p->line, "%s has an empty entry; remove the extra comma", k->name);
        if (n == CFG_LIST)
            return cfg__fail(p, p->line, "%s has more than %d entries; keep at most %d", k->name,
                             CFG_LIST, CFG_LIST);
        mark_cut(what, sizeof what, snprintf(what, sizeof what, "entry %d of %s", n + 1, k->name));
        if (cfg__store_text(p, k, what, entry, entries + (size_t)n * k->size) != 0)
            return -1;
    }
    *(int *)((char *)p->base + k->count_off) = n;
    return 0;
}

/* Stores a whole number within k's range. */
static int store_int(parser *p, const key_def *k, const char *s)
{
    const char *first = s + (*s == '-' || *s == '+'), *d = first;
    long v = 0;
    for (; is_digit(*d); d++)
        if (v <= 1000000L) /* saturates far above every maximum */
            v = v * 10 + (*d - '0');
    if (*s == '-')
        v = -v;
    if (d == first || *d != '\0' || v < k->min || v > k->max)
        return cfg__fail(p, p->line, "%s must be a whole number from %d to %d", k->name, k->min,
                         k->max);
    *(int *)cfg__field(p, k) = (int)v;
    return 0;
}

/* Stores true/yes/on or false/no/off (any case). */
static int store_bool(parser *p, const key_def *k, const char *s)
{
    static const char *const words[] = {"false", "no", "off", "true", "yes", "on"};
    for (size_t i = 0; i < COUNT(words); i++) {
        if (ascii_casecmp(s, words[i]) == 0) {
            *(bool *)cfg__field(p, k) = i >= 3;
            return 0;
        }
    }
    return cfg__fail(p, p->line, "%s must be true or false (or yes/no, on/off)", k->name);
}

/* Stores a duration read by cmd_parse_duration(). */
static int store_duration(parser *p, const key_def *k, const char *s)
{
    int secs = 0;
    if (cmd_parse_duration(s, strlen(s), &secs) != 0 || secs < 0)
        return cfg__fail(p, p->line, "%s must be a duration such as 90s, 10m, 2h or 1h30m, or off",
                         k->name);
    *(int *)cfg__field(p, k) = secs;
    return 0;
}

/* Stores the decoded value s (changed for lists) into k's field. */
static int store_value(parser *p, const key_def *k, char *s)
{
    switch (k->kind) {
    case K_STR:
        return cfg__store_text(p, k, k->name, s, cfg__field(p, k));
    case K_LIST:
        return store_list(p, k, s);
    case K_INT:
        return store_int(p, k, s);
    case K_BOOL:
        return store_bool(p, k, s);
    case K_DURATION:
        return store_duration(p, k, s);
    case K_LANGS: /* set_key hands its keys to cfg__set_langs */
        break;
    }
    return cfg__fail(p, p->line, "%s has a type this reader does not know", k->name);
}

/* ---- decoding a value -------------------------------------------- */

/* Decodes "quoted" (s starts at the quote) into out: \" and \\ are the
 * only escapes, and nothing but blanks may follow the closing quote. */
static int unquote(parser *p, const key_def *k, const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (s++; *s != '"'; s++) {
        if (*s == '\0')
            return cfg__fail(p, p->line, "the value of %s has no closing quote; end it with \"",
                             k->name);
        if (*s == '\\' && s[1] != '"' && s[1] != '\\')
            return cfg__fail(p, p->line,
                             "in the value of %s, a backslash must be followed by \" or \\; "
                             "write \\\\ for one backslash",
                             k->name);
        if (*s == '\\')
            s++;
        if (n + 1 >= cap)
            return cfg__fail(p, p->line, "the value of %s is too long", k->name);
        out[n++] = *s;
    }
    if (s[1] != '\0')
        return cfg__fail(p, p->line, "text follows the closing quote of %s; quote the whole value",
                         k->name);
    out[n] = '\0';
    return 0;
}

/* Copies the environment variable named by the nlen bytes at name into out.
 * Returns 0, -1 after an error, or 1 when the variable is unset and the
 * parser only checks (p->env_optional): warned, and out left as it was. */
static int from_env(parser *p, const key_def *k, const char *name, size_t nlen, char *out,
                    size_t cap)
{
    char var[128];
    if (nlen > 0 && nlen < sizeof var) {
        memcpy(var, name, nlen);
        var[nlen] = '\0';
    }
    if (nlen == 0 || nlen >= sizeof var || is_digit(var[0]) || !only_chars(var, "_"))
        return cfg__fail(p, p->line,
                         "%s uses ${...} without a valid variable name (letters, digits and _, "
                         "not starting with a digit); quote the value to keep it as written",
                         k->name);
    const char *env = getenv(var);
    if ((env == NULL || env[0] == '\0') && p->env_optional) {
        cfg__warn(p, p->line,
                  "%s uses ${%s}, which is not set here; porrazo-bot needs %s in its "
                  "environment at start (the service's EnvironmentFile=, or --env-file FILE)",
                  k->name, var, var);
        return 1;
    }
    if (env == NULL || env[0] == '\0')
        return cfg__fail(p, p->line,
                         "%s uses ${%s}, but the environment variable %s is not set; "
                         "export it or give --env-file FILE before starting the bot",
                         k->name, var, var);
    size_t n = strlen(env);
    if (n >= cap)
        return cfg__fail(p, p->line, "the environment variable %s, used by %s, is too long", var,
                         k->name);
    memcpy(out, env, n + 1);
    return 0;
}

/*
 * Decodes raw (the trimmed text after '=') into out: a quoted value without
 * its quotes and escapes, the environment variable of an unquoted ${NAME},
 * or the text as written. Returns 0, -1, or 1 for a variable left unset
 * while only checking (from_env()).
 */
int cfg__decode_value(parser *p, const key_def *k, const char *raw, char *out, size_t cap)
{
    size_t n = strlen(raw);
    if (raw[0] == '"')
        return unquote(p, k, raw, out, cap);
    if (n >= 3 && raw[0] == '$' && raw[1] == '{' && raw[n - 1] == '}')
        return from_env(p, k, raw + 2, n - 3, out, cap);
    if (n >= cap)
        return cfg__fail(p, p->line, "the value of %s is too long", k->name);
    memcpy(out, raw, n + 1);
    return 0;
}

/* ---- keys -------------------------------------------------------- */

/* The edit distance of a and b ignoring ASCII case, or SIZE_MAX when
 * either is long. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    return la > ECHO_MAX || lb > ECHO_MAX ? SIZE_MAX : text_distance(a, la, b, lb);
}

/* The key of sec closest to the misspelt name, or NULL if none is close. */
static const key_def *closest_key(const section_def *sec, const char *name)
{
    const key_def *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < sec->nkeys; i++) {
        size_t d = distance(name, sec->keys[i].name);
        if (d < best_d) {
            best = &sec->keys[i];
            best_d = d;
        }
    }
    return best_d <= 2 && best_d < strlen(name) ? best : NULL;
}

/* Reports a key the current section does not have. The key is quoted back
 * only when it is close to a known key: anything else on the line could be
 * a secret pasted in the wrong place. */
static int unknown_key(parser *p, const char *key)
{
    const key_def *near = closest_key(p->sec, key);
    if (near != NULL)
        return cfg__fail(p, p->line, "%s has no key %s; did you mean %s?", p->title, key,
                         near->name);
    for (size_t i = 0; i < COUNT(cfg__sections); i++)
        if (&cfg__sections[i] != p->sec && cfg__find_key(&cfg__sections[i], key) != NULL)
            return cfg__fail(p, p->line, "%s is a key of [%s%s], not of %s; move it there", key,
                             cfg__sections[i].kind, i == 0 || i == 3 ? "" : " NAME", p->title);
    return cfg__fail(p, p->line, "%s has no such key; porrazo.conf(5) lists the keys it takes",
                     p->title);
}

/* Sets key of the current section from raw, its text after '='. */
static int set_key(parser *p, const char *key, const char *raw)
{
    int lang;
    const key_def *k = cfg__find_key(p->sec, key);
    if (k == NULL && (k = cfg__lang_key(p->sec, key, &lang)) != NULL)
        return cfg__set_langs(p, k, lang, raw);
    if (k == NULL)
        return unknown_key(p, key);
    size_t i = (size_t)(k - p->sec->keys);
    if (p->key_line[i] != 0)
        return cfg__fail(p, p->line, "%s is set twice in %s (first on line %d); keep one of them",
                         k->name, p->title, p->key_line[i]);
    p->key_line[i] = p->line;
    if (p->base == &p->c->bot && strcmp(k->name, "owners") == 0)
        p->owners_line = p->line;
    char value[LINE_MAX_BYTES + 1];
    int d = cfg__decode_value(p, k, raw, value, sizeof value);
    if (d == 1) {
        p->key_bad[i] = true; /* a value will come at start: checks take it as given */
        return 0;
    }
    if (d != 0 || store_value(p, k, value) != 0) {
        p->key_bad[i] = true; /* checks across keys take it as given */
        return -1;
    }
    return 0;
}

/* ---- sections ---------------------------------------------------- */

/* Ends the current section (if any): every required key missing, then its
 * finish (only when nothing is missing: its checks read those keys). */
static int finish_section(parser *p)
{
    int rc = 0;
    if (p->sec == NULL)
        return 0;
    for (size_t i = 0; i < p->sec->nkeys; i++) {
        const key_def *k = &p->sec->keys[i];
        if ((k->flags & F_REQUIRED) != 0 && p->key_line[i] == 0)
            rc = cfg__fail(p, p->sec_line, "%s has no %s; add a line such as %s = %s", p->title,
                           k->name, k->name, k->example);
    }
    if (rc == 0 && p->sec->finish != NULL)
        rc = p->sec->finish(p);
    p->sec = NULL;
    return rc;
}

/* Takes the next network slot of sec's kind for [KIND name]; returns the
 * struct its keys fill, or NULL after recording the error. */
static void *open_network(parser *p, const section_def *sec, const char *name)
{
    int is_irc = strcmp(sec->kind, "irc") == 0, *count = is_irc ? &p->c->nirc : &p->c->nmatrix;
    const char *kind = sec->kind;
    if (*name == '\0')
        cfg__fail(p, p->line, "[%s] needs a network name; write [%s NAME], e.g. [%s %s]", kind,
                  kind, kind, is_irc ? "libera" : "example");
    else if (!is_network_name(name))
        cfg__fail(p, p->line,
                  "the network name of a [%s NAME] section must be 1 to %d letters, digits, - or _",
                  kind, NAME_MAX_BYTES);
    else if (cfg__network_exists(p->c, name))
        cfg__fail(p, p->line,
                  "a network called %s is already defined; give each [irc] and [matrix] section "
                  "its own name",
                  name);
    else if (*count == CFG_NETWORKS)
        cfg__fail(p, p->line, "too many [%s NAME] sections; at most %d are allowed", kind,
                  CFG_NETWORKS);
    else {
        int i = (*count)++;
        memcpy(is_irc ? p->c->irc[i].name : p->c->matrix[i].name, name, strlen(name) + 1);
        return is_irc ? (void *)&p->c->irc[i] : (void *)&p->c->matrix[i];
    }
    return NULL;
}

/* A fresh struct of sec's kind in p->scratch, for the keys of a section
 * whose header is wrong: they are read and checked, then dropped. NULL
 * when out of memory. */
static void *scratch_section(parser *p, const section_def *sec)
{
    if (p->scratch == NULL && (p->scratch = malloc(sizeof *p->scratch)) == NULL)
        return NULL;
    cfg_defaults(p->scratch);
    return sec == &cfg__sections[0]   ? (void *)&p->scratch->bot
           : sec == &cfg__sections[3] ? (void *)&p->scratch->web
           : sec == &cfg__sections[1] ? (void *)&p->scratch->irc[0]
                                      : (void *)&p->scratch->matrix[0];
}

/* Makes [KIND name] the current section. After an error in the header its
 * keys still are read, into p->scratch. */
static int open_section(parser *p, const section_def *sec, const char *name)
{
    bool web = sec == &cfg__sections[3];
    void *base = web ? (void *)&p->c->web : (void *)&p->c->bot;
    int rc = 0, *seen = web ? &p->web_line : &p->bot_line;
    if (sec != &cfg__sections[0] && !web) {
        base = open_network(p, sec, name);
    } else if (*name != '\0') {
        cfg__fail(p, p->line, "[%s] takes no name; write [%s]", sec->kind, sec->kind);
        base = NULL;
    } else if (*seen != 0) {
        cfg__fail(p, p->line, "[%s] appears twice (first on line %d); merge the two", sec->kind,
                  *seen);
        base = NULL;
    } else {
        *seen = p->line;
    }
    if (base == NULL) {
        rc = -1;
        base = scratch_section(p, sec);
        if (!is_network_name(name))
            name = sec == &cfg__sections[0] || web ? "" : "NAME";
    }
    int n = snprintf(p->title, sizeof p->title, "[%s%s%s]", sec->kind, *name ? " " : "", name);
    if (base == NULL || n < 0 || (size_t)n >= sizeof p->title) {
        p->skip = true; /* out of memory: nothing to read the keys into */
        return -1;
    }
    p->sec = sec;
    p->skip = false;
    p->base = base;
    p->sec_line = p->line;
    memset(p->key_line, 0, sizeof p->key_line);
    memset(p->key_bad, 0, sizeof p->key_bad);
    return rc;
}

/* Reads a header line s ("[KIND NAME]", trimmed): ends the section before
 * it, then opens the new one. */
static int parse_header(parser *p, char *s)
{
    static const char how[] = "a section header is [bot], [irc NAME], [matrix NAME] or [web], "
                              "alone on its line";
    char *end = strchr(s, ']');
    if (end == NULL || *trim(end + 1) != '\0') {
        int rc = finish_section(p);
        p->skip = true; /* its lines belong to no section we know */
        return cfg__fail(p, p->line, "%s", how) | rc;
    }
    *end = '\0';
    char *kind = trim(s + 1), *name = kind;
    while (*name != '\0' && !is_blank(*name))
        name++;
    if (*name != '\0')
        *name++ = '\0';
    name = trim(name);
    int rc = finish_section(p);
    p->skip = true; /* until a section opens */
    for (size_t i = 0; i < COUNT(cfg__sections); i++)
        if (strcmp(kind, cfg__sections[i].kind) == 0)
            return open_section(p, &cfg__sections[i], name) | rc;
    for (size_t i = 0; i < COUNT(cfg__sections); i++) /* not quoted back: see unknown_key() */
        if (distance(kind, cfg__sections[i].kind) <= 1)
            return cfg__fail(p, p->line, "unknown section; did you mean [%s%s]?",
                             cfg__sections[i].kind, i == 0 || i == 3 ? "" : " NAME");
    return cfg__fail(p, p->line, "unknown section; %s", how);
}

/* ---- lines ------------------------------------------------------- */

/* Reads one line (NUL-terminated, no line break; changed in place). */
static int parse_line(parser *p, char *line)
{
    char *s = trim(line);
    if (*s == '\0' || *s == '#' || *s == ';')
        return 0;
    if (*s == '[')
        return parse_header(p, s);
    if (p->skip)
        return 0; /* under a header already reported */
    char *eq = strchr(s, '=');
    if (eq == NULL)
        return cfg__fail(p, p->line,
                         "this line has no '='; write key = value, [section], or a comment "
                         "starting with #");
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    if (*key == '\0')
        return cfg__fail(p, p->line, "this line has no key before '='; write key = value");
    if (p->sec == NULL)
        return cfg__fail(p, p->line,
                         "this line is outside any section; put it under [bot], "
                         "[irc NAME] or [matrix NAME]");
    return set_key(p, key, value);
}

/* Reads every line of text (len bytes): LF or CRLF line ends, an optional
 * UTF-8 byte order mark. A line in error is reported and the next one
 * read, up to ERRORS_MAX errors. Does not end the last section. Returns 0,
 * or -1 when the reader gave up. */
static int parse_text(parser *p, const char *text, size_t len)
{
    char line[LINE_MAX_BYTES + 1];
    size_t pos = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (pos < len) {
        const char *start = text + pos, *nl = memchr(start, '\n', len - pos);
        size_t n = nl != NULL ? (size_t)(nl - start) : len - pos;
        pos += n + (nl != NULL);
        p->line++;
        if (n > 0 && start[n - 1] == '\r')
            n--;
        if (p->nerrors >= ERRORS_MAX)
            return cfg__fail(p, p->line, "more than %d errors; stopping here: fix these first",
                             ERRORS_MAX);
        if (n > LINE_MAX_BYTES) {
            cfg__fail(p, p->line, "the line is longer than %d bytes; shorten it", LINE_MAX_BYTES);
        } else if (memchr(start, '\0', n) != NULL) {
            cfg__fail(p, p->line, "the line contains a NUL byte; is this a text file?");
        } else {
            memcpy(line, start, n);
            line[n] = '\0';
            (void)parse_line(p, line); /* its errors are counted in p */
        }
    }
    return 0;
}

/* ---- the API ----------------------------------------------------- */

/* Parses text over the defaults into a heap copy, going on after errors;
 * *c changes only when there is none. Returns the number of errors. */
static int parse(parser *p, cfg *c, const char *text, size_t len)
{
    cfg *tmp = malloc(sizeof *tmp);
    if (tmp == NULL) {
        cfg__fail(p, 0, "out of memory reading the configuration");
        return p->nerrors;
    }
    cfg_defaults(tmp);
    p->c = tmp;
    if (parse_text(p, text != NULL ? text : "", text != NULL ? len : 0) == 0) {
        finish_section(p);
        cfg__check_owners(p);
        cfg_make_lang_rules(tmp);
    }
    if (p->nerrors == 0)
        *c = *tmp;
    free(p->scratch);
    free(tmp);
    return p->nerrors;
}

/* See config.h. */
int cfg_parse(cfg *c, const char *name, const char *text, size_t len, char *why, size_t why_len)
{
    parser p = {.file = name != NULL ? name : "config", .why = why, .why_len = why_len};
    return parse(&p, c, text, len) == 0 ? 0 : -1;
}

/* See config.h. */
int cfg_parse_all(cfg *c, const char *name, const char *text, size_t len, cfg_report_fn report,
                  void *arg, int *nwarnings)
{
    parser p = {.file = name != NULL ? name : "config", .report = report, .report_arg = arg};
    int n = parse(&p, c, text, len);
    if (nwarnings != NULL)
        *nwarnings = p.nwarnings;
    return n;
}

/* Reads the whole file at p->file (at most FILE_MAX_BYTES) and parses it;
 * returns the number of errors. */
static int load(parser *p, cfg *c)
{
    FILE *f = fopen(p->file, "rb");
    if (f == NULL) {
        cfg__fail(p, 0, "cannot open: %s", strerror(errno));
        return p->nerrors;
    }
    char *buf = malloc(FILE_MAX_BYTES + 1);
    errno = 0;
    size_t n = buf != NULL ? fread(buf, 1, FILE_MAX_BYTES + 1, f) : 0;
    int err = buf == NULL ? ENOMEM : ferror(f) ? (errno != 0 ? errno : EIO) : 0;
    fclose(f);
    if (err != 0)
        cfg__fail(p, 0, "cannot read: %s", strerror(err));
    else if (n > FILE_MAX_BYTES)
        cfg__fail(p, 0, "the file is larger than 1 MiB; is it the right file?");
    else
        parse(p, c, buf, n);
    free(buf);
    return p->nerrors;
}

/* See config.h. */
int cfg_load(cfg *c, const char *path, char *why, size_t why_len)
{
    parser p = {.file = path, .why = why, .why_len = why_len};
    return load(&p, c) == 0 ? 0 : -1;
}

/* See config.h. */
int cfg_load_all(cfg *c, const char *path, cfg_report_fn report, void *arg, int *nwarnings)
{
    parser p = {.file = path, .report = report, .report_arg = arg};
    int n = load(&p, c);
    if (nwarnings != NULL)
        *nwarnings = p.nwarnings;
    return n;
}

/* See config.h. */
int cfg_check_all(cfg *c, const char *path, cfg_report_fn report, void *arg, int *nwarnings)
{
    parser p = {.file = path, .report = report, .report_arg = arg, .env_optional = true};
    int n = load(&p, c);
    if (nwarnings != NULL)
        *nwarnings = p.nwarnings;
    return n;
}

/* See config.h. */
int cfg_check_runnable(const cfg *c, const char *path, char *why, size_t why_len)
{
    if (c->nirc > 0 || c->nmatrix > 0)
        return 0;
    int n = snprintf(why, why_len,
                     "no [irc NAME] or [matrix NAME] section in %s: add one (see "
                     "porrazo.conf(5))",
                     path);
    if (n < 0 && why_len > 0)
        why[0] = '\0';
    else if (n >= 0 && (size_t)n >= why_len && why_len >= 4)
        memcpy(why + why_len - 4, "...", 4); /* cut at the end: the problem comes first */
    return -1;
}

/* Compares network exactly and id ignoring ASCII case with each owner
 * "NETWORK:ID" (split at its first colon: network names have none). */
bool cfg_is_owner(const cfg *c, const char *network, const char *id)
{
    if (c == NULL || network == NULL || id == NULL || network[0] == '\0' || id[0] == '\0' ||
        strchr(network, ':') != NULL)
        return false;
    size_t n = strlen(network);
    for (int i = 0; i < c->bot.nowners; i++) {
        const char *o = c->bot.owners[i];
        if (strncmp(o, network, n) == 0 && o[n] == ':' && ascii_casecmp(o + n + 1, id) == 0)
            return true;
    }
    return false;
}
