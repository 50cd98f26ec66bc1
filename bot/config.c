/*
 * config.c — the reader of config.h: splits the text into lines, each a
 * comment, a [section] header or a key = value, and stores every value
 * through one table of keys per section kind (name, type, field offset,
 * range, check). The parse runs on a heap copy of the defaults, so the
 * caller's struct changes only when the whole file is valid. Messages
 * name the file, the line and the fix, and never quote a value: a value
 * may be a secret. Not here: connecting, or deciding what a value means
 * to the adapters beyond its syntax.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "config.h"
#include "text.h"

#define LINE_MAX_BYTES 4096          /* longer lines are refused */
#define FILE_MAX_BYTES (1024 * 1024) /* larger files are refused */
#define NAME_MAX_BYTES 31            /* a network's name */
#define MAX_KEYS 24                  /* keys of the largest section */
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

enum kind { K_STR, K_INT, K_BOOL, K_DURATION, K_LIST };

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
    bool skip;       /* true after a header that cannot be read: lines up to the next are skipped */
    int owners_line; /* where [bot] set owners; 0: not set */
    int line;        /* the line being read, from 1 */
    const section_def *sec; /* NULL before the first header */
    void *base;             /* the struct the section's keys fill */
    int sec_line;           /* the line of its header */
    char title[48];         /* "[irc libera]", for messages */
    int key_line[MAX_KEYS]; /* where each key of the section was set; 0: not yet */
    bool key_bad[MAX_KEYS]; /* its value was in error (and reported) */
    int bot_line;           /* the line of [bot]; 0: not seen */
};

/* ---- characters and small strings -------------------------------- */

/* True for the blanks trimmed around keys, values and list entries. */
static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* True for an ASCII digit. */
static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* True for an ASCII letter or digit. */
static int is_alnum(char ch)
{
    return is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* ch in ASCII lower case; other bytes unchanged. */
static char lower(char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

/* 0 when a and b are equal ignoring ASCII case, else non-zero. */
static int ascii_casecmp(const char *a, const char *b)
{
    for (; *a != '\0' && lower(*a) == lower(*b); a++, b++)
        ;
    return lower(*a) != lower(*b);
}

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

/* True when every byte of s is in one of: letters, digits, or extra. */
static int only_chars(const char *s, const char *extra)
{
    for (; *s != '\0'; s++)
        if (!is_alnum(*s) && strchr(extra, *s) == NULL)
            return 0;
    return 1;
}

/* True for a network name: 1..31 letters, digits, '-' and '_'. */
static int is_network_name(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= NAME_MAX_BYTES && only_chars(s, "-_");
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
static int fail(parser *p, int line, const char *fmt, ...) CFG_PRINTF(3, 4);
static int fail(parser *p, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(p, CFG_ERROR, line, fmt, ap);
    va_end(ap);
    return -1;
}

/* Records a warning: the file is valid, but probably not what was meant. */
static void warn(parser *p, int line, const char *fmt, ...) CFG_PRINTF(3, 4);
static void warn(parser *p, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(p, CFG_WARNING, line, fmt, ap);
    va_end(ap);
}

/* ---- checks of string values ------------------------------------- */

/* One of the four log levels. */
static const char *check_log_level(const char *s)
{
    static const char *const levels[] = {"error", "warn", "info", "debug"};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(s, levels[i]) == 0)
            return NULL;
    return "must be error, warn, info or debug";
}

/* The computer players' levels (engine/ai/porrazo_ai.h). */
static const char *check_robot_level(const char *s)
{
    static const char *const levels[] = {"beginner", "greedy", "expert", "strong"};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(s, levels[i]) == 0)
            return NULL;
    return "must be beginner, greedy, expert or strong";
}

/* The pacing models of adapters/irc_out.h (irc_out_pace_name). */
static const char *check_pace(const char *s)
{
    static const char *const paces[] = {"auto", "ngircd", "inspircd", "solanum", "custom"};
    for (size_t i = 0; i < sizeof paces / sizeof paces[0]; i++)
        if (strcmp(s, paces[i]) == 0)
            return NULL;
    return "must be auto, ngircd, inspircd, solanum or custom";
}

/* "NETWORK:ID": a network name, a colon, an id without spaces. */
static const char *check_owner(const char *s)
{
    static const char *const how = "must be NETWORK:ID, e.g. libera:alice or "
                                   "example:@alice:example.org (a section's name, a colon, "
                                   "a nick or user id)";
    const char *colon = strchr(s, ':');
    char net[NAME_MAX_BYTES + 1];
    size_t n = colon != NULL ? (size_t)(colon - s) : 0;
    if (colon == NULL || n >= sizeof net || colon[1] == '\0' || strchr(s, ' ') != NULL)
        return how;
    memcpy(net, s, n);
    net[n] = '\0';
    return is_network_name(net) ? NULL : how;
}

/* An IRC nick (RFC 2812): a letter or []\`_^{|} first, then those, digits or '-'. */
static const char *check_nick(const char *s)
{
    if (!is_digit(s[0]) && s[0] != '-' && only_chars(s, "[]\\`_^{|}-"))
        return NULL;
    return "is not a valid IRC nick; use letters, digits and []\\`_^{|}- "
           "(not starting with a digit or -)";
}

/* Where NickServ IDENTIFY goes: a nick, or nick@server; never a channel or
 * a list, which would hand the password round. */
static const char *check_services(const char *s)
{
    char nick[32];
    size_t n = strcspn(s, "@");
    if (s[0] == '\0')
        return NULL;
    if (n > 0 && n < sizeof nick && strchr(s, ',') == NULL && !(s[n] == '@' && s[n + 1] == '\0')) {
        memcpy(nick, s, n);
        nick[n] = '\0';
        if (check_nick(nick) == NULL)
            return NULL;
    }
    return "must be the services' nick with their server, e.g. NickServ@services.libera.chat";
}

/* An IRC channel: #, &, + or ! and at least one more byte, no space or colon. */
static const char *check_channel(const char *s)
{
    if (strchr("#&+!", s[0]) != NULL && s[1] != '\0' && strpbrk(s, " :") == NULL)
        return NULL;
    return "is not a channel name; channels start with # (or &, +, !) and have no spaces";
}

/* A Matrix homeserver URL. */
static const char *check_url(const char *s)
{
    size_t skip = strncmp(s, "https://", 8) == 0 ? 8 : strncmp(s, "http://", 7) == 0 ? 7 : 0;
    if (skip > 0 && s[skip] != '\0' && s[skip] != '/' && strchr(s, ' ') == NULL)
        return NULL;
    return "must be a URL starting with https:// (or http://), e.g. https://matrix.org";
}

/* ":server" with a non-empty server and no spaces, from the colon. */
static int is_server_part(const char *s)
{
    return s[0] == ':' && s[1] != '\0' && strchr(s, ' ') == NULL;
}

/* A Matrix user id: @localpart:server. */
static const char *check_matrix_user(const char *s)
{
    const char *colon = strchr(s, ':');
    if (s[0] == '@' && colon != NULL && colon > s + 1 && is_server_part(colon))
        return NULL;
    return "must be a Matrix user id such as @porrazo:example.org";
}

/* A Matrix user id, or ":server" for everyone on that server. */
static const char *check_invite(const char *s)
{
    if (check_matrix_user(s) == NULL || is_server_part(s))
        return NULL;
    return "must be a Matrix user id (@alice:example.org) or a server (:example.org)";
}

/* ---- the keys ---------------------------------------------------- */

/* Entries of the tables below: a string, a list (its count is the field
 * n<name>), a whole number in a range, a boolean, a duration. */
// clang-format off
#define SZ(T, f) sizeof(((T *)0)->f)
#define STR(T, f, fl, chk, ex) {#f, K_STR, fl, offsetof(T, f), SZ(T, f), 0, 0, 0, chk, ex}
#define LIST(T, f, fl, chk, ex) \
    {#f, K_LIST, fl, offsetof(T, f), SZ(T, f[0]), offsetof(T, n##f), 0, 0, chk, ex}
#define INT(T, f, lo, hi) {#f, K_INT, 0, offsetof(T, f), 0, 0, lo, hi, NULL, NULL}
#define BOOL(T, f) {#f, K_BOOL, 0, offsetof(T, f), 0, 0, 0, 0, NULL, NULL}
#define DURATION(T, key, f) {key, K_DURATION, 0, offsetof(T, f), 0, 0, 0, 0, NULL, NULL}
// clang-format on

static const key_def bot_keys[] = {
    STR(cfg_bot, name, F_NONEMPTY, NULL, NULL),
    STR(cfg_bot, prefix, F_NONEMPTY | F_NOSPACE, NULL, NULL),
    STR(cfg_bot, database, F_NONEMPTY, NULL, NULL),
    LIST(cfg_bot, owners, 0, check_owner, NULL),
    DURATION(cfg_bot, "reminder", reminder_secs),
    DURATION(cfg_bot, "prompt_after", prompt_quiet_secs),
    DURATION(cfg_bot, "deadline", deadline_secs),
    INT(cfg_bot, max_games, 1, 1000000),
    STR(cfg_bot, log_level, F_NONEMPTY, check_log_level, NULL),
    INT(cfg_bot, flood_commands, 0, 10000),
    DURATION(cfg_bot, "flood_window", flood_secs),
    DURATION(cfg_bot, "flood_ignore", flood_ignore_secs),
    INT(cfg_bot, backlog_max, 0, 100000),
    INT(cfg_bot, max_database_mb, 0, 1000000),
    DURATION(cfg_bot, "restart_recent", restart_recent_secs),
    INT(cfg_bot, restart_announce_max, 0, 100000),
    STR(cfg_bot, robot_level, F_NONEMPTY, check_robot_level, NULL),
    DURATION(cfg_bot, "robot_delay", robot_delay_secs),
    INT(cfg_bot, robot_iterations, 0, 10000000),
    INT(cfg_bot, absent_after, 0, 15),
    DURATION(cfg_bot, "lobby_expiry", lobby_expiry_secs),
    DURATION(cfg_bot, "away_max", away_max_secs),
    DURATION(cfg_bot, "start_countdown", start_countdown_secs),
};

static const key_def irc_keys[] = {
    STR(cfg_irc, host, F_REQUIRED | F_NOSPACE, NULL, "irc.libera.chat"),
    INT(cfg_irc, port, 1, 65535),
    BOOL(cfg_irc, tls),
    BOOL(cfg_irc, tls_verify),
    STR(cfg_irc, ca_file, 0, NULL, NULL),
    STR(cfg_irc, nick, F_REQUIRED, check_nick, "porrazo"),
    LIST(cfg_irc, alt_nicks, 0, check_nick, NULL),
    STR(cfg_irc, username, F_NONEMPTY | F_NOSPACE, NULL, NULL),
    STR(cfg_irc, realname, F_NONEMPTY, NULL, NULL),
    STR(cfg_irc, server_password, 0, NULL, NULL), /* secret */
    STR(cfg_irc, sasl_user, 0, NULL, NULL),
    STR(cfg_irc, sasl_password, 0, NULL, NULL),     /* secret */
    STR(cfg_irc, nickserv_password, 0, NULL, NULL), /* secret */
    STR(cfg_irc, nickserv_target, F_NOSPACE, check_services, "NickServ@services.libera.chat"),
    BOOL(cfg_irc, require_sasl),
    LIST(cfg_irc, channels, F_REQUIRED, check_channel, "#porrazo"),
    LIST(cfg_irc, no_colour, 0, check_channel, NULL),
    BOOL(cfg_irc, join_on_invite),
    BOOL(cfg_irc, private_notice),
    STR(cfg_irc, pace, F_NONEMPTY, check_pace, NULL),
    INT(cfg_irc, burst, 1, 1000),    /* irc_out's IRC_OUT_BURST_MAX */
    INT(cfg_irc, line_ms, 0, 60000), /* 0: no pacing (a server that exempts the bot) */
};

static const key_def matrix_keys[] = {
    STR(cfg_matrix, homeserver, F_REQUIRED, check_url, "https://matrix.org"),
    STR(cfg_matrix, user, F_REQUIRED, check_matrix_user, "@porrazo:matrix.org"),
    STR(cfg_matrix, password, 0, NULL, NULL),     /* secret */
    STR(cfg_matrix, access_token, 0, NULL, NULL), /* secret */
    LIST(cfg_matrix, allow_invites, 0, check_invite, NULL),
    BOOL(cfg_matrix, notify_turn),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
_Static_assert(COUNT(bot_keys) <= MAX_KEYS, "raise MAX_KEYS");
_Static_assert(COUNT(irc_keys) <= MAX_KEYS, "raise MAX_KEYS");
_Static_assert(COUNT(matrix_keys) <= MAX_KEYS, "raise MAX_KEYS");

static int finish_irc(parser *p);
static int finish_matrix(parser *p);

static const section_def sections[] = {
    {"bot", bot_keys, COUNT(bot_keys), NULL},
    {"irc", irc_keys, COUNT(irc_keys), finish_irc},
    {"matrix", matrix_keys, COUNT(matrix_keys), finish_matrix},
};

/* The key of sec called name, or NULL. */
static const key_def *find_key(const section_def *sec, const char *name)
{
    for (size_t i = 0; i < sec->nkeys; i++)
        if (strcmp(sec->keys[i].name, name) == 0)
            return &sec->keys[i];
    return NULL;
}

/* The line where the current section set key name, or 0. */
static int set_on(const parser *p, const char *name)
{
    const key_def *k = find_key(p->sec, name);
    return k != NULL ? p->key_line[k - p->sec->keys] : 0;
}

/* True when the current section set key name to a value in error: checks
 * across keys then hold their peace, the error is already reported. */
static bool set_bad(const parser *p, const char *name)
{
    const key_def *k = find_key(p->sec, name);
    return k != NULL && p->key_bad[k - p->sec->keys];
}

/* The field of k in the current section's struct. */
static void *field(const parser *p, const key_def *k)
{
    return (char *)p->base + k->off;
}

/* ---- defaults ---------------------------------------------------- */

/* Fills *c with the defaults of config.h; every IRC slot is ready too. */
void cfg_defaults(cfg *c)
{
    memset(c, 0, sizeof *c);
    SET_LIT(c->bot.name, "porrazo");
    SET_LIT(c->bot.prefix, "!");
    SET_LIT(c->bot.database, "porrazo.db");
    c->bot.reminder_secs = 600;
    c->bot.prompt_quiet_secs = 120;
    c->bot.deadline_secs = 24 * 3600;
    c->bot.max_games = 100;
    c->bot.flood_commands = 10;
    c->bot.flood_secs = 20;
    c->bot.flood_ignore_secs = 60;
    c->bot.backlog_max = 20;
    c->bot.max_database_mb = 0;
    c->bot.restart_recent_secs = 3600;
    c->bot.restart_announce_max = 50;
    SET_LIT(c->bot.log_level, "info");
    SET_LIT(c->bot.robot_level, "strong");
    c->bot.robot_delay_secs = 2;
    c->bot.robot_iterations = 0;
    c->bot.absent_after = 3;
    c->bot.lobby_expiry_secs = 24 * 3600;
    c->bot.away_max_secs = 7 * 24 * 3600;
    for (int i = 0; i < CFG_NETWORKS; i++) {
        cfg_irc *irc = &c->irc[i];
        irc->port = 6697;
        irc->tls = true;
        irc->tls_verify = true;
        SET_LIT(irc->realname, "Porrazo card game bot");
        SET_LIT(irc->pace, "auto");
        irc->burst = 4;
        irc->line_ms = 1500;
        c->matrix[i].notify_turn = true;
    }
}

/* ---- values ------------------------------------------------------ */

/*
 * Copies s into dst (k->size bytes) after k's checks; what names the value
 * in messages ("nick", "entry 2 of channels"). Returns 0 or -1.
 */
static int store_text(parser *p, const key_def *k, const char *what, const char *s, char *dst)
{
    size_t n = strlen(s);
    if (n == 0 && (k->flags & (F_REQUIRED | F_NONEMPTY)) != 0)
        return fail(p, p->line, "%s is empty; give it a value or remove the line", what);
    if (n >= k->size)
        return fail(p, p->line, "%s is too long; it may have at most %zu bytes", what, k->size - 1);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return fail(p, p->line,
                        "%s contains a control character (a tab or a line break); remove it", what);
    if ((k->flags & F_NOSPACE) != 0 && strchr(s, ' ') != NULL)
        return fail(p, p->line, "%s must be one word, without spaces", what);
    const char *wrong = n > 0 && k->check != NULL ? k->check(s) : NULL;
    if (wrong != NULL)
        return fail(p, p->line, "%s %s", what, wrong);
    memcpy(dst, s, n + 1);
    return 0;
}

/* Stores a comma-separated list (s is changed); an empty s is no entries. */
static int store_list(parser *p, const key_def *k, char *s)
{
    char *entries = field(p, k), what[64];
    int n = 0;
    if (*s == '\0' && (k->flags & F_REQUIRED) != 0)
        return fail(p, p->line, "%s is empty; list at least one, e.g. %s = %s", k->name, k->name,
                    k->example);
    for (char *next = *s != '\0' ? s : NULL; next != NULL; n++) {
        char *comma = strchr(next, ',');
        if (comma != NULL)
            *comma++ = '\0';
        char *entry = trim(next);
        next = comma;
        if (*entry == '\0')
            return fail(p, p->line, "%s has an empty entry; remove the extra comma", k->name);
        if (n == CFG_LIST)
            return fail(p, p->line, "%s has more than %d entries; keep at most %d", k->name,
                        CFG_LIST, CFG_LIST);
        mark_cut(what, sizeof what, snprintf(what, sizeof what, "entry %d of %s", n + 1, k->name));
        if (store_text(p, k, what, entry, entries + (size_t)n * k->size) != 0)
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
        return fail(p, p->line, "%s must be a whole number from %d to %d", k->name, k->min, k->max);
    *(int *)field(p, k) = (int)v;
    return 0;
}

/* Stores true/yes/on or false/no/off (any case). */
static int store_bool(parser *p, const key_def *k, const char *s)
{
    static const char *const words[] = {"false", "no", "off", "true", "yes", "on"};
    for (size_t i = 0; i < COUNT(words); i++) {
        if (ascii_casecmp(s, words[i]) == 0) {
            *(bool *)field(p, k) = i >= 3;
            return 0;
        }
    }
    return fail(p, p->line, "%s must be true or false (or yes/no, on/off)", k->name);
}

/* Stores a duration read by cmd_parse_duration(). */
static int store_duration(parser *p, const key_def *k, const char *s)
{
    int secs = 0;
    if (cmd_parse_duration(s, strlen(s), &secs) != 0 || secs < 0)
        return fail(p, p->line, "%s must be a duration such as 90s, 10m, 2h or 1h30m, or off",
                    k->name);
    *(int *)field(p, k) = secs;
    return 0;
}

/* Stores the decoded value s (changed for lists) into k's field. */
static int store_value(parser *p, const key_def *k, char *s)
{
    switch (k->kind) {
    case K_STR:
        return store_text(p, k, k->name, s, field(p, k));
    case K_LIST:
        return store_list(p, k, s);
    case K_INT:
        return store_int(p, k, s);
    case K_BOOL:
        return store_bool(p, k, s);
    case K_DURATION:
        return store_duration(p, k, s);
    }
    return fail(p, p->line, "%s has a type this reader does not know", k->name);
}

/* ---- decoding a value -------------------------------------------- */

/* Decodes "quoted" (s starts at the quote) into out: \" and \\ are the
 * only escapes, and nothing but blanks may follow the closing quote. */
static int unquote(parser *p, const key_def *k, const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (s++; *s != '"'; s++) {
        if (*s == '\0')
            return fail(p, p->line, "the value of %s has no closing quote; end it with \"",
                        k->name);
        if (*s == '\\' && s[1] != '"' && s[1] != '\\')
            return fail(p, p->line,
                        "in the value of %s, a backslash must be followed by \" or \\; "
                        "write \\\\ for one backslash",
                        k->name);
        if (*s == '\\')
            s++;
        if (n + 1 >= cap)
            return fail(p, p->line, "the value of %s is too long", k->name);
        out[n++] = *s;
    }
    if (s[1] != '\0')
        return fail(p, p->line, "text follows the closing quote of %s; quote the whole value",
                    k->name);
    out[n] = '\0';
    return 0;
}

/* Copies the environment variable named by the nlen bytes at name into out. */
static int from_env(parser *p, const key_def *k, const char *name, size_t nlen, char *out,
                    size_t cap)
{
    char var[128];
    if (nlen > 0 && nlen < sizeof var) {
        memcpy(var, name, nlen);
        var[nlen] = '\0';
    }
    if (nlen == 0 || nlen >= sizeof var || is_digit(var[0]) || !only_chars(var, "_"))
        return fail(p, p->line,
                    "%s uses ${...} without a valid variable name (letters, digits and _, "
                    "not starting with a digit); quote the value to keep it as written",
                    k->name);
    const char *env = getenv(var);
    if (env == NULL || env[0] == '\0')
        return fail(p, p->line,
                    "%s uses ${%s}, but the environment variable %s is not set; "
                    "export it before starting the bot",
                    k->name, var, var);
    size_t n = strlen(env);
    if (n >= cap)
        return fail(p, p->line, "the environment variable %s, used by %s, is too long", var,
                    k->name);
    memcpy(out, env, n + 1);
    return 0;
}

/*
 * Decodes raw (the trimmed text after '=') into out: a quoted value without
 * its quotes and escapes, the environment variable of an unquoted ${NAME},
 * or the text as written. Returns 0 or -1.
 */
static int decode_value(parser *p, const key_def *k, const char *raw, char *out, size_t cap)
{
    size_t n = strlen(raw);
    if (raw[0] == '"')
        return unquote(p, k, raw, out, cap);
    if (n >= 3 && raw[0] == '$' && raw[1] == '{' && raw[n - 1] == '}')
        return from_env(p, k, raw + 2, n - 3, out, cap);
    if (n >= cap)
        return fail(p, p->line, "the value of %s is too long", k->name);
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
        return fail(p, p->line, "%s has no key %s; did you mean %s?", p->title, key, near->name);
    for (size_t i = 0; i < COUNT(sections); i++)
        if (&sections[i] != p->sec && find_key(&sections[i], key) != NULL)
            return fail(p, p->line, "%s is a key of [%s%s], not of %s; move it there", key,
                        sections[i].kind, i == 0 ? "" : " NAME", p->title);
    return fail(p, p->line,
                "%s has no such key; config/porrazo.example.conf lists the keys it takes",
                p->title);
}

/* Sets key of the current section from raw, its text after '='. */
static int set_key(parser *p, const char *key, const char *raw)
{
    const key_def *k = find_key(p->sec, key);
    if (k == NULL)
        return unknown_key(p, key);
    size_t i = (size_t)(k - p->sec->keys);
    if (p->key_line[i] != 0)
        return fail(p, p->line, "%s is set twice in %s (first on line %d); keep one of them",
                    k->name, p->title, p->key_line[i]);
    p->key_line[i] = p->line;
    if (p->base == &p->c->bot && strcmp(k->name, "owners") == 0)
        p->owners_line = p->line;
    char value[LINE_MAX_BYTES + 1];
    if (decode_value(p, k, raw, value, sizeof value) != 0 || store_value(p, k, value) != 0) {
        p->key_bad[i] = true; /* checks across keys take it as given */
        return -1;
    }
    return 0;
}

/* ---- sections ---------------------------------------------------- */

/* True when some [irc] or [matrix] section is already called name. */
static int network_exists(const cfg *c, const char *name)
{
    for (int i = 0; i < c->nirc; i++)
        if (strcmp(c->irc[i].name, name) == 0)
            return 1;
    for (int i = 0; i < c->nmatrix; i++)
        if (strcmp(c->matrix[i].name, name) == 0)
            return 1;
    return 0;
}

/* True when host names this machine (a loopback address), where a password
 * sent in clear or a certificate not checked exposes nothing. */
static int is_loopback(const char *host)
{
    return ascii_casecmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 ||
           strcmp(host, "::1") == 0 || strcmp(host, "[::1]") == 0;
}

/* Checks of an [irc NAME] section as a whole, and defaults that depend on
 * other keys: the port on tls, the user name on the nick. Warns about
 * passwords sent where they could be read on the way. */
static int finish_irc(parser *p)
{
    cfg_irc *irc = p->base;
    int rc = 0;
    if (set_on(p, "port") == 0)
        irc->port = irc->tls ? 6697 : 6667;
    if (set_on(p, "username") == 0)
        memcpy(irc->username, irc->nick, strlen(irc->nick) + 1); /* both hold 31 bytes */
    int custom_key = set_on(p, "burst") != 0 ? set_on(p, "burst") : set_on(p, "line_ms");
    if (custom_key != 0 && set_on(p, "pace") == 0)
        SET_LIT(irc->pace, "custom"); /* as before pace existed */
    else if (custom_key != 0 && strcmp(irc->pace, "custom") != 0)
        rc = fail(p, custom_key,
                  "%s has %s but pace = %s; burst and line_ms shape only pace = custom: "
                  "remove them or write pace = custom",
                  p->title, set_on(p, "burst") != 0 ? "burst" : "line_ms", irc->pace);
    bool user = irc->sasl_user[0] != '\0' || set_bad(p, "sasl_user"),
         pass = irc->sasl_password[0] != '\0' || set_bad(p, "sasl_password");
    if (user != pass)
        rc = fail(p, set_on(p, user ? "sasl_user" : "sasl_password"),
                  "%s has %s but no %s; SASL needs both (or neither)", p->title,
                  user ? "sasl_user" : "sasl_password", user ? "sasl_password" : "sasl_user");
    bool secret = pass || irc->server_password[0] != '\0' || irc->nickserv_password[0] != '\0';
    if (secret && !irc->tls && !is_loopback(irc->host))
        warn(p, set_on(p, "tls"),
             "%s sends its password in clear (tls = false) to another machine; anyone on the "
             "way can read it: use tls = true if the server offers it",
             p->title);
    if (irc->tls && !irc->tls_verify && !is_loopback(irc->host))
        warn(p, set_on(p, "tls_verify"),
             "%s does not check the server's certificate (tls_verify = false), so anyone on "
             "the way can pose as the server; for a private CA give ca_file instead",
             p->title);
    return rc;
}

/* Checks of a [matrix NAME] section as a whole: a way to log in. Warns
 * about a password or token sent over plain http to another machine. */
static int finish_matrix(parser *p)
{
    const cfg_matrix *m = p->base;
    if (m->password[0] == '\0' && m->access_token[0] == '\0' && !set_bad(p, "password") &&
        !set_bad(p, "access_token"))
        return fail(p, p->sec_line,
                    "%s has neither access_token nor password; add a line such as "
                    "access_token = ${PORRAZO_MATRIX_TOKEN}",
                    p->title);
    char host[CFG_STR];
    if (strncmp(m->homeserver, "http://", 7) == 0) {
        size_t n = strcspn(m->homeserver + 7, ":/");
        memcpy(host, m->homeserver + 7, n); /* n < CFG_STR - 7 */
        host[n] = '\0';
        if (!is_loopback(host))
            warn(p, set_on(p, "homeserver"),
                 "%s logs in over http://, so its password or token can be read on the way; "
                 "use https://",
                 p->title);
    }
    return 0;
}

/* Warns about owners whose network no section defines (they could never
 * act as owners): at the end of the file, when every network is known. */
static void check_owners(parser *p)
{
    const cfg *c = p->c;
    for (int i = 0; i < c->bot.nowners; i++) {
        const char *o = c->bot.owners[i];
        char net[NAME_MAX_BYTES + 1];
        size_t n = strcspn(o, ":"); /* check_owner() made it < sizeof net */
        memcpy(net, o, n);
        net[n] = '\0';
        if (!network_exists(c, net) && strcmp(net, "console") != 0)
            warn(p, p->owners_line,
                 "entry %d of owners names the network %s, which no [irc NAME] or "
                 "[matrix NAME] section defines; that owner can act only once the section "
                 "exists",
                 i + 1, net);
    }
}

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
            rc = fail(p, p->sec_line, "%s has no %s; add a line such as %s = %s", p->title, k->name,
                      k->name, k->example);
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
        fail(p, p->line, "[%s] needs a network name; write [%s NAME], e.g. [%s %s]", kind, kind,
             kind, is_irc ? "libera" : "example");
    else if (!is_network_name(name))
        fail(p, p->line,
             "the network name of a [%s NAME] section must be 1 to %d letters, digits, - or _",
             kind, NAME_MAX_BYTES);
    else if (network_exists(p->c, name))
        fail(p, p->line,
             "a network called %s is already defined; give each [irc] and [matrix] section "
             "its own name",
             name);
    else if (*count == CFG_NETWORKS)
        fail(p, p->line, "too many [%s NAME] sections; at most %d are allowed", kind, CFG_NETWORKS);
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
    return sec == &sections[0]   ? (void *)&p->scratch->bot
           : sec == &sections[1] ? (void *)&p->scratch->irc[0]
                                 : (void *)&p->scratch->matrix[0];
}

/* Makes [KIND name] the current section. After an error in the header its
 * keys still are read, into p->scratch. */
static int open_section(parser *p, const section_def *sec, const char *name)
{
    void *base = &p->c->bot;
    int rc = 0;
    if (sec != &sections[0]) {
        base = open_network(p, sec, name);
    } else if (*name != '\0') {
        fail(p, p->line, "[bot] takes no name; write [bot]");
        base = NULL;
    } else if (p->bot_line != 0) {
        fail(p, p->line, "[bot] appears twice (first on line %d); merge the two", p->bot_line);
        base = NULL;
    } else {
        p->bot_line = p->line;
    }
    if (base == NULL) {
        rc = -1;
        base = scratch_section(p, sec);
        if (!is_network_name(name))
            name = sec == &sections[0] ? "" : "NAME";
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
    static const char how[] = "a section header is [bot], [irc NAME] or [matrix NAME], "
                              "alone on its line";
    char *end = strchr(s, ']');
    if (end == NULL || *trim(end + 1) != '\0') {
        int rc = finish_section(p);
        p->skip = true; /* its lines belong to no section we know */
        return fail(p, p->line, "%s", how) | rc;
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
    for (size_t i = 0; i < COUNT(sections); i++)
        if (strcmp(kind, sections[i].kind) == 0)
            return open_section(p, &sections[i], name) | rc;
    for (size_t i = 0; i < COUNT(sections); i++) /* not quoted back: see unknown_key() */
        if (distance(kind, sections[i].kind) <= 1)
            return fail(p, p->line, "unknown section; did you mean [%s%s]?", sections[i].kind,
                        i == 0 ? "" : " NAME");
    return fail(p, p->line, "unknown section; %s", how);
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
        return fail(p, p->line,
                    "this line has no '='; write key = value, [section], or a comment "
                    "starting with #");
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    if (*key == '\0')
        return fail(p, p->line, "this line has no key before '='; write key = value");
    if (p->sec == NULL)
        return fail(p, p->line,
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
            return fail(p, p->line, "more than %d errors; stopping here: fix these first",
                        ERRORS_MAX);
        if (n > LINE_MAX_BYTES) {
            fail(p, p->line, "the line is longer than %d bytes; shorten it", LINE_MAX_BYTES);
        } else if (memchr(start, '\0', n) != NULL) {
            fail(p, p->line, "the line contains a NUL byte; is this a text file?");
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
        fail(p, 0, "out of memory reading the configuration");
        return p->nerrors;
    }
    cfg_defaults(tmp);
    p->c = tmp;
    if (parse_text(p, text != NULL ? text : "", text != NULL ? len : 0) == 0) {
        finish_section(p);
        check_owners(p);
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
        fail(p, 0, "cannot open: %s", strerror(errno));
        return p->nerrors;
    }
    char *buf = malloc(FILE_MAX_BYTES + 1);
    errno = 0;
    size_t n = buf != NULL ? fread(buf, 1, FILE_MAX_BYTES + 1, f) : 0;
    int err = buf == NULL ? ENOMEM : ferror(f) ? (errno != 0 ? errno : EIO) : 0;
    fclose(f);
    if (err != 0)
        fail(p, 0, "cannot read: %s", strerror(err));
    else if (n > FILE_MAX_BYTES)
        fail(p, 0, "the file is larger than 1 MiB; is it the right file?");
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
