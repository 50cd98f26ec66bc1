/*
 * config_keys.c — what each key of the configuration may hold: the table
 * of keys of each section kind (name, type, field, range, check), the
 * checks of string values, the defaults of config.h, and the checks of an
 * [irc NAME] or [matrix NAME] section as a whole (a port that follows tls,
 * a password sent in clear). Messages never quote a value: it may be a
 * secret. Not here: reading the text (config.c).
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "config_int.h"
#include "i18n.h"
#include "text.h"

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

/* A language of the bot's table (i18n.c): "must be en (English) or es
   (Spanish)" names them all, in the operator's English. */
static const char *check_language(const char *s)
{
    static char how[160];
    pz_lang l;
    if (i18n_parse(s, &l))
        return NULL;
    size_t n = (size_t)snprintf(how, sizeof how, "must be");
    for (int i = 0; i < PZ_LANG_COUNT && n < sizeof how; i++)
        n += (size_t)snprintf(how + n, sizeof how - n, "%s %s (%s)",
                              i == 0                   ? ""
                              : i == PZ_LANG_COUNT - 1 ? " or"
                                                       : ",",
                              i18n_code((pz_lang)i), i18n_name((pz_lang)i));
    return how;
}

/* The pacing models of adapters/irc/irc_out.h (irc_out_pace_name). */
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
#define LANGS(T, fl, chk) {CFG_LANG_KEY, K_LANGS, fl, offsetof(T, lang_rooms), \
    SZ(T, lang_rooms[0].room), offsetof(T, nlang_rooms), 0, 0, chk, NULL}
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
    INT(cfg_bot, database_cache_kib, 64, 4194304), /* store_set_cache's ranges */
    INT(cfg_bot, database_mmap_mib, 0, 2047),
    INT(cfg_bot, database_games_mib, 0, 65536), /* store_set_game_cache's */
    DURATION(cfg_bot, "restart_recent", restart_recent_secs),
    INT(cfg_bot, restart_announce_max, 0, 100000),
    STR(cfg_bot, robot_level, F_NONEMPTY, check_robot_level, NULL),
    DURATION(cfg_bot, "robot_delay", robot_delay_secs),
    INT(cfg_bot, robot_iterations, 0, 10000000),
    INT(cfg_bot, absent_after, 0, 15),
    DURATION(cfg_bot, "lobby_expiry", lobby_expiry_secs),
    DURATION(cfg_bot, "away_max", away_max_secs),
    DURATION(cfg_bot, "start_countdown", start_countdown_secs),
    STR(cfg_bot, language, F_NONEMPTY, check_language, NULL),
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
    STR(cfg_irc, language, F_NONEMPTY, check_language, NULL),
    LANGS(cfg_irc, 0, check_channel),
};

static const key_def matrix_keys[] = {
    STR(cfg_matrix, homeserver, F_REQUIRED, check_url, "https://matrix.org"),
    STR(cfg_matrix, user, F_REQUIRED, check_matrix_user, "@porrazo:matrix.org"),
    STR(cfg_matrix, password, 0, NULL, NULL),     /* secret */
    STR(cfg_matrix, access_token, 0, NULL, NULL), /* secret */
    LIST(cfg_matrix, allow_invites, 0, check_invite, NULL),
    BOOL(cfg_matrix, notify_turn),
    STR(cfg_matrix, language, F_NONEMPTY, check_language, NULL),
    LANGS(cfg_matrix, F_NOSPACE, NULL),
    BOOL(cfg_matrix, crypto),
    STR(cfg_matrix, crypto_key, 0, NULL, NULL), /* secret */
};

/* "ADDRESS:PORT": the address numeric (the pages are for a proxy in front). */
static const char *check_listen(const char *s)
{
    const char *colon = strrchr(s, ':');
    if (colon != NULL && colon != s && colon[1] != '\0' &&
        strspn(colon + 1, "0123456789") == strlen(colon + 1) && strlen(colon + 1) <= 5 &&
        atoi(colon + 1) <= 65535 && strchr(s, ' ') == NULL)
        return NULL;
    return "must be ADDRESS:PORT, e.g. 127.0.0.1:8090 or [::1]:8090";
}

/* A numeric IPv4 or IPv6 address (what a peer's address is compared with). */
static const char *check_address(const char *s)
{
    unsigned char bin[sizeof(struct in6_addr)];
    if (inet_pton(AF_INET, s, bin) == 1 || inet_pton(AF_INET6, s, bin) == 1)
        return NULL;
    return "must be a numeric IP address, e.g. 127.0.0.1 or ::1 (no name, port or brackets)";
}

static const key_def web_keys[] = {
    STR(cfg_web, listen, 0, check_listen, "127.0.0.1:8090"),
    STR(cfg_web, base_url, 0, check_url, "https://porrazo.example.org"),
    STR(cfg_web, trusted_proxy, 0, check_address, "127.0.0.1"),
    INT(cfg_web, header_secs, 1, 300),
};

_Static_assert(COUNT(bot_keys) <= MAX_KEYS, "raise MAX_KEYS");
_Static_assert(COUNT(irc_keys) <= MAX_KEYS, "raise MAX_KEYS");
_Static_assert(COUNT(matrix_keys) <= MAX_KEYS, "raise MAX_KEYS");

static int finish_irc(parser *p);
static int finish_matrix(parser *p);

const section_def cfg__sections[CFG__NSECTIONS] = {
    {"bot", bot_keys, COUNT(bot_keys), NULL},
    {"irc", irc_keys, COUNT(irc_keys), finish_irc},
    {"matrix", matrix_keys, COUNT(matrix_keys), finish_matrix},
    {"web", web_keys, COUNT(web_keys), NULL},
};

/* The key of sec called name, or NULL. */
const key_def *cfg__find_key(const section_def *sec, const char *name)
{
    for (size_t i = 0; i < sec->nkeys; i++)
        if (strcmp(sec->keys[i].name, name) == 0)
            return &sec->keys[i];
    return NULL;
}

/* The line where the current section set key name, or 0. */
int cfg__set_on(const parser *p, const char *name)
{
    const key_def *k = cfg__find_key(p->sec, name);
    return k != NULL ? p->key_line[k - p->sec->keys] : 0;
}

/* True when the current section set key name to a value in error: checks
 * across keys then hold their peace, the error is already reported. */
bool cfg__set_bad(const parser *p, const char *name)
{
    const key_def *k = cfg__find_key(p->sec, name);
    return k != NULL && p->key_bad[k - p->sec->keys];
}

/* The field of k in the current section's struct. */
void *cfg__field(const parser *p, const key_def *k)
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
    SET_LIT(c->bot.language, "en");
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
    c->bot.database_cache_kib = 2000;
    c->bot.database_mmap_mib = 1024;
    c->bot.database_games_mib = 256;
    c->bot.restart_recent_secs = 3600;
    c->bot.restart_announce_max = 50;
    SET_LIT(c->bot.log_level, "info");
    SET_LIT(c->bot.robot_level, "strong");
    c->bot.robot_delay_secs = 2;
    c->bot.robot_iterations = 0;
    c->bot.absent_after = 3;
    c->bot.lobby_expiry_secs = 24 * 3600;
    c->bot.away_max_secs = 7 * 24 * 3600;
    c->web.header_secs = 5;
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
        c->matrix[i].crypto = true;
    }
}

/* True when some [irc] or [matrix] section is already called name. */
int cfg__network_exists(const cfg *c, const char *name)
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
    if (cfg__set_on(p, "port") == 0)
        irc->port = irc->tls ? 6697 : 6667;
    if (cfg__set_on(p, "username") == 0)
        memcpy(irc->username, irc->nick, strlen(irc->nick) + 1); /* both hold 31 bytes */
    int custom_key =
        cfg__set_on(p, "burst") != 0 ? cfg__set_on(p, "burst") : cfg__set_on(p, "line_ms");
    if (custom_key != 0 && cfg__set_on(p, "pace") == 0)
        SET_LIT(irc->pace, "custom"); /* as before pace existed */
    else if (custom_key != 0 && strcmp(irc->pace, "custom") != 0)
        rc = cfg__fail(p, custom_key,
                       "%s has %s but pace = %s; burst and line_ms shape only pace = custom: "
                       "remove them or write pace = custom",
                       p->title, cfg__set_on(p, "burst") != 0 ? "burst" : "line_ms", irc->pace);
    bool user = irc->sasl_user[0] != '\0' || cfg__set_bad(p, "sasl_user"),
         pass = irc->sasl_password[0] != '\0' || cfg__set_bad(p, "sasl_password");
    if (user != pass)
        rc = cfg__fail(p, cfg__set_on(p, user ? "sasl_user" : "sasl_password"),
                       "%s has %s but no %s; SASL needs both (or neither)", p->title,
                       user ? "sasl_user" : "sasl_password", user ? "sasl_password" : "sasl_user");
    bool secret = pass || irc->server_password[0] != '\0' || irc->nickserv_password[0] != '\0';
    if (secret && !irc->tls && !is_loopback(irc->host))
        cfg__warn(p, cfg__set_on(p, "tls"),
                  "%s sends its password in clear (tls = false) to another machine; anyone on the "
                  "way can read it: use tls = true if the server offers it",
                  p->title);
    if (irc->tls && !irc->tls_verify && !is_loopback(irc->host))
        cfg__warn(p, cfg__set_on(p, "tls_verify"),
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
    if (m->password[0] == '\0' && m->access_token[0] == '\0' && !cfg__set_bad(p, "password") &&
        !cfg__set_bad(p, "access_token"))
        return cfg__fail(p, p->sec_line,
                         "%s has neither access_token nor password; add a line such as "
                         "access_token = ${PORRAZO_MATRIX_TOKEN}",
                         p->title);
    char host[CFG_STR];
    if (strncmp(m->homeserver, "http://", 7) == 0) {
        size_t n = strcspn(m->homeserver + 7, ":/");
        memcpy(host, m->homeserver + 7, n); /* n < CFG_STR - 7 */
        host[n] = '\0';
        if (!is_loopback(host))
            cfg__warn(p, cfg__set_on(p, "homeserver"),
                      "%s logs in over http://, so its password or token can be read on the way; "
                      "use https://",
                      p->title);
    }
    return 0;
}

/* Warns about owners whose network no section defines (they could never
 * act as owners): at the end of the file, when every network is known. */
void cfg__check_owners(parser *p)
{
    const cfg *c = p->c;
    for (int i = 0; i < c->bot.nowners; i++) {
        const char *o = c->bot.owners[i];
        char net[NAME_MAX_BYTES + 1];
        size_t n = strcspn(o, ":"); /* check_owner() made it < sizeof net */
        memcpy(net, o, n);
        net[n] = '\0';
        if (!cfg__network_exists(c, net) && strcmp(net, "console") != 0)
            cfg__warn(p, p->owners_line,
                      "entry %d of owners names the network %s, which no [irc NAME] or "
                      "[matrix NAME] section defines; that owner can act only once the section "
                      "exists",
                      i + 1, net);
    }
}
