/*
 * test_config.c — the configuration reader (bot/config/config.c): defaults, every
 * key of every section, every error with its exact "FILE:LINE:" prefix,
 * ${VARS} from the environment, quotes, lists, the example file shipped in
 * config/, cfg_is_owner(), and every error and warning of a file reported
 * in one run (cfg_parse_all, cfg_load_all). Secrets are checked never to appear in an
 * error message, whatever the mistake on their line. Texts are parsed from
 * exact heap copies, so a read past the end shows under valgrind or ASan.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "i18n.h"

#define SECRET "Zebra-7781-hunter"

/* snprintf() into buf (cap bytes) that fails the test when the text is cut. */
static void print_to(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void print_to(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < cap);
}

/* A fresh heap cfg filled with the defaults (they are ~80 KiB). */
static cfg *new_cfg(void)
{
    cfg *c = malloc(sizeof *c);
    assert_non_null(c);
    cfg_defaults(c);
    return c;
}

/* cfg_parse() of text (len bytes) as "t.conf", from an exact heap copy. */
static int parse_n(cfg *c, const char *text, size_t len, char *why, size_t why_len)
{
    char *copy = malloc(len > 0 ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    int rc = cfg_parse(c, "t.conf", copy, len, why, why_len);
    free(copy);
    return rc;
}

/* Parses text into c over the defaults; fails the test on an error. */
static void parse_ok(cfg *c, const char *text)
{
    char why[CFG_WHY_MAX] = "";
    cfg_defaults(c);
    int rc = parse_n(c, text, strlen(text), why, sizeof why);
    if (rc != 0)
        fail_msg("refused: %s", why);
}

/*
 * Asserts that text is refused with a message starting "t.conf:LINE: "
 * and containing part, and that the config was left as it was. The
 * message is copied to why (CFG_WHY_MAX bytes) when why is not NULL.
 */
static void refused(const char *text, int line, const char *part, char *why_out)
{
    char why[CFG_WHY_MAX] = "", prefix[32];
    cfg *c = new_cfg(), *before = new_cfg();
    assert_int_equal(parse_n(c, text, strlen(text), why, sizeof why), -1);
    print_to(prefix, sizeof prefix, "t.conf:%d: ", line);
    if (strncmp(why, prefix, strlen(prefix)) != 0 || strstr(why, part) == NULL)
        fail_msg("want \"%s...%s\", got \"%s\"", prefix, part, why);
    assert_memory_equal(c, before, sizeof *c);
    if (why_out != NULL)
        memcpy(why_out, why, sizeof why);
    free(c);
    free(before);
}

/* A minimal valid [irc NAME] section body. */
#define IRC_MIN "host = irc.example.org\nnick = porrazo\nchannels = #porrazo\n"

/* The example file's text (heap, NUL-terminated) and its length. */
static char *read_example(size_t *len)
{
    char path[1024];
    const char *slash = strrchr(__FILE__, '/');
    int dir = slash != NULL ? (int)(slash - __FILE__) : 1;
    int n = snprintf(path, sizeof path, "%.*s/../../config/porrazo.example.conf", dir,
                     slash != NULL ? __FILE__ : ".");
    assert_true(n > 0 && (size_t)n < sizeof path);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    char *buf = malloc(1 << 20);
    assert_non_null(buf);
    *len = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    buf[*len] = '\0';
    return buf;
}

static void test_defaults_are_those_documented_in_config_h(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    assert_string_equal(c->bot.name, "porrazo");
    assert_string_equal(c->bot.prefix, "!");
    assert_string_equal(c->bot.database, "porrazo.db");
    assert_int_equal(c->bot.nowners, 0);
    assert_int_equal(c->bot.reminder_secs, 600);
    assert_int_equal(c->bot.deadline_secs, 24 * 3600);
    assert_int_equal(c->bot.max_games, 100);
    assert_string_equal(c->bot.log_level, "info");
    assert_int_equal(c->nirc, 0);
    assert_int_equal(c->nmatrix, 0);
    free(c);
}

static void test_empty_text_and_comments_only_give_the_defaults(void **state)
{
    (void)state;
    cfg *c = new_cfg(), *want = new_cfg();
    parse_ok(c, "");
    assert_memory_equal(c, want, sizeof *c);
    parse_ok(c, "\n# a comment\n; another\n   \n\t# indented\n[bot]\n");
    assert_memory_equal(c, want, sizeof *c);
    free(c);
    free(want);
}

static void test_bot_section_sets_every_key(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[bot]\n"
                "name = Paco\n"
                "prefix = .p\n"
                "database = /var/lib/porrazo/games.db\n"
                "owners = libera:Alice, example:@bob:example.org\n"
                "reminder = 5m\n"
                "deadline = 1h30m\n"
                "max_games = 10000\n"
                "log_level = debug\n");
    assert_string_equal(c->bot.name, "Paco");
    assert_string_equal(c->bot.prefix, ".p");
    assert_string_equal(c->bot.database, "/var/lib/porrazo/games.db");
    assert_int_equal(c->bot.nowners, 2);
    assert_string_equal(c->bot.owners[0], "libera:Alice");
    assert_string_equal(c->bot.owners[1], "example:@bob:example.org");
    assert_int_equal(c->bot.reminder_secs, 300);
    assert_int_equal(c->bot.deadline_secs, 5400);
    assert_int_equal(c->bot.max_games, 10000);
    assert_string_equal(c->bot.log_level, "debug");
    free(c);
}

static void test_irc_section_sets_every_key(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[irc net-1_b]\n"
                "host = irc.example.org\n"
                "port = 7000\n"
                "tls = no\n"
                "tls_verify = off\n"
                "ca_file = /etc/ca.pem\n"
                "nick = Porrazo[bot]\n"
                "alt_nicks = porrazo_, `porrazo|2\n"
                "username = pz\n"
                "realname = \"  The Porrazo bot  \"\n"
                "server_password = sp\n"
                "sasl_user = acct\n"
                "sasl_password = pw\n"
                "nickserv_password = ns\n"
                "nickserv_target = NickServ@services.example.org\n"
                "require_sasl = yes\n"
                "channels = #porrazo, &local, +plain, !ABCDEsafe\n"
                "no_colour = #porrazo\n"
                "join_on_invite = yes\n"
                "private_notice = on\n"
                "burst = 20\n"
                "line_ms = 100\n");
    assert_int_equal(c->nirc, 1);
    const cfg_irc *i = &c->irc[0];
    assert_string_equal(i->name, "net-1_b");
    assert_string_equal(i->host, "irc.example.org");
    assert_int_equal(i->port, 7000);
    assert_false(i->tls);
    assert_false(i->tls_verify);
    assert_string_equal(i->ca_file, "/etc/ca.pem");
    assert_string_equal(i->nick, "Porrazo[bot]");
    assert_int_equal(i->nalt_nicks, 2);
    assert_string_equal(i->alt_nicks[0], "porrazo_");
    assert_string_equal(i->alt_nicks[1], "`porrazo|2");
    assert_string_equal(i->username, "pz");
    assert_string_equal(i->realname, "  The Porrazo bot  ");
    assert_string_equal(i->server_password, "sp");
    assert_string_equal(i->sasl_user, "acct");
    assert_string_equal(i->sasl_password, "pw");
    assert_string_equal(i->nickserv_password, "ns");
    assert_string_equal(i->nickserv_target, "NickServ@services.example.org");
    assert_true(i->require_sasl);
    assert_int_equal(i->nchannels, 4);
    assert_string_equal(i->channels[0], "#porrazo");
    assert_string_equal(i->channels[3], "!ABCDEsafe");
    assert_int_equal(i->nno_colour, 1);
    assert_string_equal(i->no_colour[0], "#porrazo");
    assert_true(i->join_on_invite);
    assert_true(i->private_notice);
    assert_int_equal(i->burst, 20);
    assert_int_equal(i->line_ms, 100);
    assert_string_equal(i->pace, "custom"); /* burst and line_ms without pace */
    free(c);
}

static void test_irc_port_follows_tls_and_username_the_nick_unless_given(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[irc a]\n" IRC_MIN "[irc b]\n" IRC_MIN "tls = false\n");
    assert_int_equal(c->nirc, 2);
    assert_int_equal(c->irc[0].port, 6697);
    assert_true(c->irc[0].tls);
    assert_true(c->irc[0].tls_verify);
    assert_int_equal(c->irc[1].port, 6667);
    assert_false(c->irc[1].tls);
    assert_string_equal(c->irc[0].username, "porrazo");
    assert_string_equal(c->irc[0].realname, "Porrazo card game bot");
    assert_string_equal(c->irc[0].pace, "auto");
    assert_int_equal(c->irc[0].burst, 4);
    assert_int_equal(c->irc[0].line_ms, 1500);
    assert_false(c->irc[0].join_on_invite);
    assert_false(c->irc[0].private_notice);
    assert_string_equal(c->irc[0].ca_file, "");
    assert_int_equal(c->irc[0].nalt_nicks, 0);
    parse_ok(c, "[irc a]\n" IRC_MIN "tls = false\nport = 6697\n");
    assert_int_equal(c->irc[0].port, 6697);
    free(c);
}

static void test_matrix_section_sets_every_key(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[matrix home]\n"
                "homeserver = https://matrix.example.org\n"
                "user = @porrazo:example.org\n"
                "password = pw\n"
                "access_token = tok\n"
                "allow_invites = @alice:example.org, :friends.org\n"
                "[matrix local]\n"
                "homeserver = http://localhost:8008\n"
                "user = @bot:localhost:8008\n"
                "access_token = t2\n");
    assert_int_equal(c->nmatrix, 2);
    const cfg_matrix *m = &c->matrix[0];
    assert_string_equal(m->name, "home");
    assert_string_equal(m->homeserver, "https://matrix.example.org");
    assert_string_equal(m->user, "@porrazo:example.org");
    assert_string_equal(m->password, "pw");
    assert_string_equal(m->access_token, "tok");
    assert_int_equal(m->nallow_invites, 2);
    assert_string_equal(m->allow_invites[0], "@alice:example.org");
    assert_string_equal(m->allow_invites[1], ":friends.org");
    assert_string_equal(c->matrix[1].name, "local");
    assert_string_equal(c->matrix[1].password, "");
    assert_string_equal(c->matrix[1].access_token, "t2");
    free(c);
}

static void test_web_section_sets_its_keys_and_is_refused_when_wrong(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[bot]\nname = p\n[web]\nlisten = 127.0.0.1:8090\n"
                "base_url = https://porrazo.example.org\n");
    assert_string_equal(c->web.listen, "127.0.0.1:8090");
    assert_string_equal(c->web.base_url, "https://porrazo.example.org");
    parse_ok(c, "[web]\nlisten = [::1]:0\n");
    assert_string_equal(c->web.listen, "[::1]:0");
    assert_string_equal(c->web.base_url, "");
    parse_ok(c, "[bot]\nname = p\n");
    assert_string_equal(c->web.listen, ""); /* off unless configured */
    assert_string_equal(c->web.trusted_proxy, "");
    assert_int_equal(c->web.header_secs, 5);
    parse_ok(c, "[web]\nlisten = 127.0.0.1:0\ntrusted_proxy = ::1\nheader_secs = 12\n");
    assert_string_equal(c->web.trusted_proxy, "::1");
    assert_int_equal(c->web.header_secs, 12);
    refused("[web]\ntrusted_proxy = proxy.example.org\n", 2, "must be a numeric IP address", NULL);
    refused("[web]\ntrusted_proxy = 127.0.0.1:8080\n", 2, "numeric IP address", NULL);
    refused("[web]\nheader_secs = 0\n", 2, "header_secs must be a whole number from 1 to 300",
            NULL);
    refused("[web]\nlisten = 8090\n", 2, "listen must be ADDRESS:PORT", NULL);
    refused("[web]\nlisten = 127.0.0.1:99999\n", 2, "ADDRESS:PORT", NULL);
    refused("[web]\nbase_url = porrazo.example.org\n", 2, "must be a URL", NULL);
    refused("[web pages]\nlisten = 127.0.0.1:1\n", 1, "[web] takes no name", NULL);
    refused("[web]\n[web]\n", 2, "[web] appears twice (first on line 1)", NULL);
    refused("[web]\nchannels = #x\n", 2, "channels is a key of [irc NAME]", NULL);
    free(c);
}

static void test_networks_of_both_kinds_are_kept_in_file_order(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[irc one]\n" IRC_MIN "[matrix two]\nhomeserver = https://m.org\n"
                "user = @a:m.org\npassword = x\n[irc three]\n" IRC_MIN "[bot]\nname = x\n");
    assert_int_equal(c->nirc, 2);
    assert_int_equal(c->nmatrix, 1);
    assert_string_equal(c->irc[0].name, "one");
    assert_string_equal(c->irc[1].name, "three");
    assert_string_equal(c->matrix[0].name, "two");
    assert_string_equal(c->bot.name, "x");
    free(c);
}

static void test_example_file_parses_with_its_environment_variables_set(void **state)
{
    (void)state;
    size_t len;
    char *text = read_example(&len), why[CFG_WHY_MAX] = "";
    cfg *c = new_cfg();
    assert_int_equal(setenv("PORRAZO_LIBERA_PASSWORD", SECRET, 1), 0);
    assert_int_equal(parse_n(c, text, len, why, sizeof why), 0);
    assert_string_equal(why, "");
    assert_int_equal(c->nirc, 1);
    assert_int_equal(c->nmatrix, 0);
    assert_string_equal(c->irc[0].name, "libera");
    assert_string_equal(c->irc[0].host, "irc.libera.chat");
    assert_int_equal(c->irc[0].port, 6697);
    assert_true(c->irc[0].tls);
    assert_string_equal(c->irc[0].sasl_password, SECRET);
    assert_string_equal(c->irc[0].channels[0], "#porrazo");
    assert_string_equal(c->bot.prefix, "!");
    assert_int_equal(c->bot.reminder_secs, 600);
    unsetenv("PORRAZO_LIBERA_PASSWORD");
    free(c);
    free(text);
}

static void test_example_file_shows_every_key(void **state)
{
    (void)state;
    // clang-format off
    static const char *const keys[] = {
        "name", "prefix", "database", "owners", "reminder", "deadline", "max_games",
        "log_level", "host", "port", "tls", "tls_verify", "ca_file", "nick", "alt_nicks",
        "username", "realname", "server_password", "sasl_user", "sasl_password",
        "nickserv_password", "nickserv_target", "require_sasl", "channels", "no_colour",
        "join_on_invite", "private_notice", "pace", "burst", "line_ms", "homeserver", "user",
        "password", "access_token", "allow_invites", "listen", "base_url",
        "trusted_proxy", "header_secs"};
    // clang-format on
    size_t len;
    char *text = read_example(&len), line[64];
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        print_to(line, sizeof line, "\n%s = ", keys[i]);
        bool set = strstr(text, line) != NULL;
        print_to(line, sizeof line, "\n#%s = ", keys[i]);
        if (!set && strstr(text, line) == NULL)
            fail_msg("config/porrazo.example.conf does not show %s", keys[i]);
    }
    free(text);
}

static void test_example_matrix_section_parses_once_uncommented(void **state)
{
    (void)state;
    size_t len;
    char *text = read_example(&len), *m = strstr(text, "#[matrix example]");
    assert_non_null(m);
    /* Uncomments the section's key lines (not its prose) after the header. */
    static const char *const keys[] = {"#[matrix", "#homeserver", "#user", "#access_token"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char *k = strstr(m, keys[i]);
        assert_non_null(k);
        *k = ' ';
    }
    cfg *c = new_cfg();
    char why[CFG_WHY_MAX] = "";
    assert_int_equal(setenv("PORRAZO_LIBERA_PASSWORD", "x", 1), 0);
    unsetenv("PORRAZO_MATRIX_TOKEN");
    assert_int_equal(parse_n(c, text, len, why, sizeof why), -1);
    assert_non_null(strstr(why, "access_token uses ${PORRAZO_MATRIX_TOKEN}, but the "
                                "environment variable PORRAZO_MATRIX_TOKEN is not set"));
    assert_int_equal(setenv("PORRAZO_MATRIX_TOKEN", "tok", 1), 0);
    assert_int_equal(parse_n(c, text, len, why, sizeof why), 0);
    assert_int_equal(c->nmatrix, 1);
    assert_string_equal(c->matrix[0].access_token, "tok");
    unsetenv("PORRAZO_MATRIX_TOKEN");
    unsetenv("PORRAZO_LIBERA_PASSWORD");
    free(c);
    free(text);
}

static void test_example_file_names_its_variable_when_it_is_unset(void **state)
{
    (void)state;
    size_t len;
    char *text = read_example(&len), why[CFG_WHY_MAX];
    unsetenv("PORRAZO_LIBERA_PASSWORD");
    cfg *c = new_cfg();
    assert_int_equal(parse_n(c, text, len, why, sizeof why), -1);
    assert_non_null(strstr(why, "sasl_password uses ${PORRAZO_LIBERA_PASSWORD}, but the "
                                "environment variable PORRAZO_LIBERA_PASSWORD is not set"));
    free(c);
    free(text);
}

/* Writes len bytes of text to a new temporary file; its path goes to path. */
static void write_temp(char *path, const char *text, size_t len)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void test_load_reads_a_file_and_names_it_in_errors(void **state)
{
    (void)state;
    char good[] = "/tmp/test_config_XXXXXX", bad[] = "/tmp/test_config_XXXXXX";
    char why[CFG_WHY_MAX], want[128];
    const char good_text[] = "[bot]\nname = from-file\n";
    const char bad_text[] = "[bot]\nname = from-file\nmax_games = 0\n";
    write_temp(good, good_text, strlen(good_text));
    write_temp(bad, bad_text, strlen(bad_text));
    cfg *c = new_cfg();
    assert_int_equal(cfg_load(c, bad, why, sizeof why), -1);
    print_to(want, sizeof want, "%s:3: max_games must be a whole number from 1 to 1000000", bad);
    assert_string_equal(why, want);
    assert_string_equal(c->bot.name, "porrazo");
    assert_int_equal(cfg_load(c, good, why, sizeof why), 0);
    assert_string_equal(c->bot.name, "from-file");
    unlink(good);
    unlink(bad);
    free(c);
}

static void test_load_names_a_file_it_cannot_open(void **state)
{
    (void)state;
    char why[CFG_WHY_MAX];
    cfg *c = new_cfg();
    assert_int_equal(cfg_load(c, "/nonexistent/porrazo.conf", why, sizeof why), -1);
    assert_string_equal(why, "/nonexistent/porrazo.conf: cannot open: No such file or directory");
    assert_int_equal(cfg_load(c, "/tmp", why, sizeof why), -1);
    assert_non_null(strstr(why, "/tmp: cannot"));
    free(c);
}

static void test_load_takes_one_mebibyte_and_refuses_one_byte_more(void **state)
{
    (void)state;
    size_t big = 1 << 20;
    char *text = malloc(big + 1), path[] = "/tmp/test_config_XXXXXX", why[CFG_WHY_MAX];
    assert_non_null(text);
    memset(text, '#', big + 1);
    for (size_t i = 1000; i < big; i += 1000)
        text[i] = '\n';
    cfg *c = new_cfg();
    write_temp(path, text, big);
    assert_int_equal(cfg_load(c, path, why, sizeof why), 0);
    unlink(path);
    memcpy(path, "/tmp/test_config_XXXXXX", sizeof path);
    write_temp(path, text, big + 1);
    assert_int_equal(cfg_load(c, path, why, sizeof why), -1);
    assert_non_null(strstr(why, ": the file is larger than 1 MiB"));
    unlink(path);
    free(text);
    free(c);
}

/* The language of a room: its network's lang_es / lang_en lists, the
   network's language, the bot's; a language the bot has not is refused. */
static void test_languages_per_bot_network_and_room(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[bot]\nlanguage = es\n"
                "[irc libera]\n" IRC_MIN "language = en\nlang_es = #Mesa, #familia\n"
                "[irc other]\n" IRC_MIN "lang_en = #porrazo\n"
                "[matrix home]\nhomeserver = https://m.example.org\nuser = @b:example.org\n"
                "access_token = t\nlang_en = !abc:example.org\n");
    assert_int_equal(cfg_room_lang(c, "libera", "#mesa"), PZ_LANG_ES); /* IRC case */
    assert_int_equal(cfg_room_lang(c, "libera", "#familia"), PZ_LANG_ES);
    assert_int_equal(cfg_room_lang(c, "libera", "#porrazo"), PZ_LANG_EN);
    assert_int_equal(cfg_room_lang(c, "libera", NULL), PZ_LANG_EN);
    assert_int_equal(cfg_room_lang(c, "other", "#porrazo"), PZ_LANG_EN);
    assert_int_equal(cfg_room_lang(c, "other", "#else"), PZ_LANG_ES); /* the bot's */
    assert_int_equal(cfg_room_lang(c, "home", "!abc:example.org"), PZ_LANG_EN);
    assert_int_equal(cfg_room_lang(c, "home", "!def:example.org"), PZ_LANG_ES);
    assert_int_equal(cfg_room_lang(c, "console", "#console"), PZ_LANG_ES);
    parse_ok(c, "");
    assert_int_equal(cfg_room_lang(c, "console", "#console"), PZ_LANG_EN); /* the default */
    free(c);
    refused("[bot]\nlanguage = fr\n", 2, "must be en (English) or es (Spanish)", NULL);
    refused("[irc libera]\n" IRC_MIN "lang_es = mesa\n", 5, "lang_es", NULL);
}

/* The lang_CODE keys are data: one for each language of the bot's table,
   the old lang_es and lang_en side by side in one section; the rules they
   make are the pages' too, in order (a network's rooms, then its own); a
   room given two languages, a key set twice and a language the bot has
   not are refused. */
static void test_languages_are_a_list_of_rules(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[bot]\nlanguage = en\n"
                "[irc libera]\n" IRC_MIN "lang_en = #porrazo\nlang_es = #mesa, #Familia\n"
                "language = es\n");
    i18n_rules r = cfg_lang_rules(c);
    assert_int_equal(r.fallback, PZ_LANG_EN);
    assert_int_equal(r.n, 4);
    assert_string_equal(r.rule[0].room, "#porrazo");
    assert_int_equal(r.rule[0].lang, PZ_LANG_EN);
    assert_string_equal(r.rule[2].room, "#Familia");
    assert_int_equal(r.rule[2].lang, PZ_LANG_ES);
    assert_string_equal(r.rule[3].network, "libera");
    assert_string_equal(r.rule[3].room, ""); /* the network's, after its rooms */
    assert_int_equal(i18n_rules_lang(&r, "libera", "#FAMILIA"), PZ_LANG_ES);
    assert_int_equal(i18n_rules_lang(&r, "libera", "#porrazo"), PZ_LANG_EN);
    assert_int_equal(i18n_rules_lang(&r, "libera", "#otra"), PZ_LANG_ES);
    assert_int_equal(i18n_rules_lang(&r, "elsewhere", "#mesa"), PZ_LANG_EN);
    free(c);
    refused("[irc libera]\n" IRC_MIN "lang_es = #a\nlang_es = #b\n", 6, "set twice", NULL);
    refused("[irc libera]\n" IRC_MIN "lang_es = #a\nlang_en = #b, #a\n", 6, "is in lang_es too",
            NULL);
    refused("[irc libera]\n" IRC_MIN "lang_fr = #a\n", 5, "no such key", NULL);
}

static void test_quotes_keep_blanks_a_leading_hash_and_escapes(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[bot]\nname = \"  two  words \"\ndatabase = \"#odd \\\"name\\\" \\\\ x\"\n"
                "prefix = #\n");
    assert_string_equal(c->bot.name, "  two  words ");
    assert_string_equal(c->bot.database, "#odd \"name\" \\ x");
    assert_string_equal(c->bot.prefix, "#");
    parse_ok(c, "[bot]\nname = a \"b\" c\n"); /* quotes inside a value are plain text */
    assert_string_equal(c->bot.name, "a \"b\" c");
    parse_ok(c, "[bot]\nname = \"x\"   \n");
    assert_string_equal(c->bot.name, "x");
    free(c);
}

static void test_quote_mistakes_are_refused_on_their_line(void **state)
{
    (void)state;
    refused("[bot]\n\nname = \"open\n", 3, "name has no closing quote", NULL);
    refused("[bot]\nname = \"a\\tb\"\n", 2, "a backslash must be followed by", NULL);
    refused("[bot]\nname = \"a\\\"\n", 2, "no closing quote", NULL);
    refused("[bot]\nname = \"a\" b\n", 2, "text follows the closing quote of name", NULL);
    refused("[bot]\nname = \"\"\n", 2, "name is empty", NULL);
}

static void test_lists_are_split_on_commas_and_trimmed(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[irc x]\n" IRC_MIN "alt_nicks =  a ,b,\tc  \n");
    assert_int_equal(c->irc[0].nalt_nicks, 3);
    assert_string_equal(c->irc[0].alt_nicks[0], "a");
    assert_string_equal(c->irc[0].alt_nicks[1], "b");
    assert_string_equal(c->irc[0].alt_nicks[2], "c");
    parse_ok(c, "[bot]\nowners =\n");
    assert_int_equal(c->bot.nowners, 0);
    free(c);
}

static void test_list_mistakes_are_refused_on_their_line(void **state)
{
    (void)state;
    refused("[irc x]\n" IRC_MIN "alt_nicks = a,,b\n", 5, "alt_nicks has an empty entry", NULL);
    refused("[irc x]\n" IRC_MIN "alt_nicks = a, b,\n", 5, "alt_nicks has an empty entry", NULL);
    refused("[irc x]\n" IRC_MIN "alt_nicks = ,a\n", 5, "alt_nicks has an empty entry", NULL);
    refused("[irc x]\nhost = h\nnick = n\nchannels =\n", 4, "channels is empty", NULL);
    refused("[irc x]\n" IRC_MIN "no_colour = #a, porrazo\n", 5,
            "entry 2 of no_colour is not a channel name", NULL);
}

/* "KEY = a1, a2, ..., aN" for n entries, into buf. */
static void list_line(char *buf, size_t cap, const char *key, const char *stem, int n)
{
    int w = snprintf(buf, cap, "%s = ", key);
    assert_true(w > 0 && (size_t)w < cap);
    for (int i = 0; i < n; i++) {
        int more = snprintf(buf + w, cap - (size_t)w, "%s%s%d", i > 0 ? ", " : "", stem, i);
        assert_true(more > 0 && (size_t)more < cap - (size_t)w);
        w += more;
    }
}

static void test_lists_hold_sixteen_entries_and_refuse_seventeen(void **state)
{
    (void)state;
    char text[2048], line[1024];
    cfg *c = new_cfg();
    list_line(line, sizeof line, "channels", "#c", CFG_LIST);
    print_to(text, sizeof text, "[irc x]\nhost = h\nnick = n\n%s\n", line);
    parse_ok(c, text);
    assert_int_equal(c->irc[0].nchannels, CFG_LIST);
    assert_string_equal(c->irc[0].channels[15], "#c15");
    list_line(line, sizeof line, "owners", "n:id", CFG_LIST + 1);
    print_to(text, sizeof text, "[bot]\n%s\n", line);
    refused(text, 2, "owners has more than 16 entries", NULL);
    free(c);
}

static void test_booleans_take_six_words_in_any_case(void **state)
{
    (void)state;
    static const char *const yes[] = {"true", "yes", "on", "TRUE", "Yes", "oN"};
    static const char *const no[] = {"false", "no", "off", "False", "NO", "OFF"};
    char text[256];
    cfg *c = new_cfg();
    for (int i = 0; i < 6; i++) {
        print_to(text, sizeof text, "[irc x]\n" IRC_MIN "join_on_invite = %s\ntls = %s\n", yes[i],
                 no[i]);
        parse_ok(c, text);
        assert_true(c->irc[0].join_on_invite);
        assert_false(c->irc[0].tls);
    }
    refused("[irc x]\n" IRC_MIN "tls = 1\n", 5, "tls must be true or false", NULL);
    refused("[irc x]\n" IRC_MIN "private_notice = yess\n", 5, "private_notice must be", NULL);
    free(c);
}

/* Asserts that the line "KEY = VALUE" after head stores want in *field,
 * or (field NULL) is refused as out of range on its own line. */
static void int_case(const char *head, const char *key, const char *value, int want, size_t field)
{
    char text[256], part[96];
    int line = 1;
    for (const char *q = head; *q != '\0'; q++)
        line += *q == '\n';
    print_to(text, sizeof text, "%s%s = %s\n", head, key, value);
    if (field == 0) {
        print_to(part, sizeof part, "%s must be a whole number from", key);
        refused(text, line, part, NULL);
        return;
    }
    cfg *c = new_cfg();
    parse_ok(c, text);
    int got;
    memcpy(&got, (const char *)c + field, sizeof got);
    assert_int_equal(got, want);
    free(c);
}

#define BAD 0
#define MAX_GAMES offsetof(cfg, bot.max_games)
#define PORT offsetof(cfg, irc[0].port)
#define BURST offsetof(cfg, irc[0].burst)
#define LINE_MS offsetof(cfg, irc[0].line_ms)

static void test_integers_are_held_to_their_ranges(void **state)
{
    (void)state;
    const char *irc = "[irc x]\n" IRC_MIN, *bot = "[bot]\n";
    int_case(bot, "max_games", "1", 1, MAX_GAMES);
    int_case(bot, "max_games", "+1000000", 1000000, MAX_GAMES);
    int_case(bot, "max_games", "1000001", 0, BAD);
    int_case(bot, "max_games", "0", 0, BAD);
    int_case(bot, "max_games", "-1", 0, BAD);
    int_case(irc, "port", "1", 1, PORT);
    int_case(irc, "port", "65535", 65535, PORT);
    int_case(irc, "port", "65536", 0, BAD);
    int_case(irc, "port", "99999999999999999999999", 0, BAD);
    int_case(irc, "port", "66 67", 0, BAD);
    int_case(irc, "port", "6697x", 0, BAD);
    int_case(irc, "port", "", 0, BAD);
    int_case(irc, "port", "-", 0, BAD);
    int_case(irc, "burst", "1", 1, BURST);
    int_case(irc, "burst", "20", 20, BURST);
    int_case(irc, "burst", "1000", 1000, BURST);
    int_case(irc, "burst", "1001", 0, BAD);
    int_case(irc, "burst", "0", 0, BAD);
    int_case(irc, "line_ms", "0", 0, LINE_MS); /* no pacing: a server that exempts the bot */
    int_case(irc, "line_ms", "100", 100, LINE_MS);
    int_case(irc, "line_ms", "60000", 60000, LINE_MS);
    int_case(irc, "line_ms", "-1", 0, BAD);
    int_case(irc, "line_ms", "60001", 0, BAD);
}

static void test_pace_names_a_model_and_burst_or_line_ms_alone_mean_custom(void **state)
{
    (void)state;
    static const char *const paces[] = {"auto", "ngircd", "inspircd", "solanum", "custom"};
    char text[256];
    cfg *c = new_cfg();
    for (size_t i = 0; i < sizeof paces / sizeof paces[0]; i++) {
        print_to(text, sizeof text, "[irc x]\n" IRC_MIN "pace = %s\n", paces[i]);
        parse_ok(c, text);
        assert_string_equal(c->irc[0].pace, paces[i]);
    }
    parse_ok(c, "[irc x]\n" IRC_MIN "burst = 20\n");
    assert_string_equal(c->irc[0].pace, "custom");
    assert_int_equal(c->irc[0].burst, 20);
    assert_int_equal(c->irc[0].line_ms, 1500);
    parse_ok(c, "[irc x]\n" IRC_MIN "line_ms = 0\n");
    assert_string_equal(c->irc[0].pace, "custom");
    assert_int_equal(c->irc[0].line_ms, 0);
    parse_ok(c, "[irc x]\n" IRC_MIN "pace = custom\nburst = 2\nline_ms = 700\n");
    assert_string_equal(c->irc[0].pace, "custom");
    assert_int_equal(c->irc[0].burst, 2);
    assert_int_equal(c->irc[0].line_ms, 700);
    parse_ok(c, "[irc a]\n" IRC_MIN "burst = 9\n[irc b]\n" IRC_MIN);
    assert_string_equal(c->irc[0].pace, "custom");
    assert_string_equal(c->irc[1].pace, "auto"); /* per network */
    free(c);
}

static void test_bad_paces_and_burst_beside_another_pace_are_refused(void **state)
{
    (void)state;
    refused("[irc x]\n" IRC_MIN "pace = fast\n", 5,
            "pace must be auto, ngircd, inspircd, solanum or custom", NULL);
    refused("[irc x]\n" IRC_MIN "pace = NGIRCD\n", 5, "pace must be auto, ngircd", NULL);
    refused("[irc x]\n" IRC_MIN "pace =\n", 5, "pace is empty", NULL);
    refused("[irc x]\n" IRC_MIN "pace = auto solanum\n", 5, "pace must be", NULL);
    refused("[irc x]\n" IRC_MIN "pace = ngircd\nburst = 10\n", 6,
            "[irc x] has burst but pace = ngircd; burst and line_ms shape only pace = custom",
            NULL);
    refused("[irc x]\n" IRC_MIN "line_ms = 100\npace = auto\n", 5,
            "[irc x] has line_ms but pace = auto; burst and line_ms shape only pace = custom: "
            "remove them or write pace = custom",
            NULL);
    refused("[irc x]\n" IRC_MIN "pace = custom\nburst = 0\n", 6,
            "burst must be a whole number from 1 to 1000", NULL);
}

static void test_durations_are_read_by_cmd_parse_duration(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int secs;
    } cases[] = {{"90", 90},      {"90s", 90}, {"10m", 600}, {"2h", 7200}, {"1d", 86400},
                 {"1h30m", 5400}, {"off", 0},  {"none", 0},  {"0", 0}};
    char text[128];
    cfg *c = new_cfg();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        print_to(text, sizeof text, "[bot]\nreminder = %s\ndeadline = %s\n", cases[i].text,
                 cases[i].text);
        parse_ok(c, text);
        assert_int_equal(c->bot.reminder_secs, cases[i].secs);
        assert_int_equal(c->bot.deadline_secs, cases[i].secs);
    }
    refused("[bot]\nreminder = soon\n", 2, "reminder must be a duration", NULL);
    refused("[bot]\n\ndeadline = 10x\n", 3, "deadline must be a duration", NULL);
    refused("[bot]\ndeadline =\n", 2, "deadline must be a duration", NULL);
    free(c);
}

static void test_bot_values_are_checked(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[bot]\nprefix = 1234567\n");
    assert_string_equal(c->bot.prefix, "1234567");
    refused("[bot]\nprefix = 12345678\n", 2, "prefix is too long; it may have at most 7 bytes",
            NULL);
    refused("[bot]\nprefix = \"! \"\n", 2, "prefix must be one word", NULL);
    refused("[bot]\nprefix =\n", 2, "prefix is empty", NULL);
    refused("[bot]\nlog_level = verbose\n", 2, "log_level must be error, warn, info or debug",
            NULL);
    refused("[bot]\nlog_level = INFO\n", 2, "log_level must be", NULL);
    refused("[bot]\nowners = alice\n", 2, "entry 1 of owners must be NETWORK:ID", NULL);
    refused("[bot]\nowners = a:b, :alice\n", 2, "entry 2 of owners must be NETWORK:ID", NULL);
    refused("[bot]\nowners = libera:\n", 2, "must be NETWORK:ID", NULL);
    refused("[bot]\nowners = bad net:alice\n", 2, "must be NETWORK:ID", NULL);
    refused("[bot]\ndatabase =\n", 2, "database is empty", NULL);
    free(c);
}

static void test_irc_values_are_checked(void **state)
{
    (void)state;
    char text[1024], long_host[300];
    memset(long_host, 'h', 256);
    long_host[256] = '\0';
    refused("[irc x]\nhost = irc example\n", 2, "host must be one word", NULL);
    print_to(text, sizeof text, "[irc x]\nhost = %s\n", long_host);
    refused(text, 2, "host is too long; it may have at most 255 bytes", NULL);
    long_host[255] = '\0';
    print_to(text, sizeof text, "[irc x]\nnick = n\nchannels = #a\nhost = %s\n", long_host);
    cfg *c = new_cfg();
    parse_ok(c, text);
    assert_int_equal(strlen(c->irc[0].host), 255);
    refused("[irc x]\nnick = 9lives\n", 2, "nick is not a valid IRC nick", NULL);
    refused("[irc x]\nnick = -dash\n", 2, "nick is not a valid IRC nick", NULL);
    refused("[irc x]\nnick = a.b\n", 2, "nick is not a valid IRC nick", NULL);
    refused("[irc x]\nnick = abcdefghijabcdefghijabcdefghijab\n", 2, "nick is too long", NULL);
    refused("[irc x]\nnick =\n", 2, "nick is empty", NULL);
    refused("[irc x]\nalt_nicks = ok, not ok\n", 2, "entry 2 of alt_nicks is not a valid", NULL);
    refused("[irc x]\nchannels = porrazo\n", 2, "entry 1 of channels is not a channel", NULL);
    refused("[irc x]\nchannels = #\n", 2, "is not a channel name", NULL);
    refused("[irc x]\nchannels = #a b\n", 2, "is not a channel name", NULL);
    refused("[irc x]\nchannels = #a:b\n", 2, "is not a channel name", NULL);
    refused("[irc x]\nusername = a b\n", 2, "username must be one word", NULL);
    refused("[irc x]\nrealname =\n", 2, "realname is empty", NULL);
    free(c);
}

static void test_matrix_values_are_checked(void **state)
{
    (void)state;
    refused("[matrix m]\nhomeserver = matrix.org\n", 2, "homeserver must be a URL", NULL);
    refused("[matrix m]\nhomeserver = https://\n", 2, "homeserver must be a URL", NULL);
    refused("[matrix m]\nhomeserver = ftp://m.org\n", 2, "homeserver must be a URL", NULL);
    refused("[matrix m]\nuser = porrazo\n", 2, "user must be a Matrix user id", NULL);
    refused("[matrix m]\nuser = @porrazo\n", 2, "user must be a Matrix user id", NULL);
    refused("[matrix m]\nuser = @:m.org\n", 2, "user must be a Matrix user id", NULL);
    refused("[matrix m]\nuser = @a:\n", 2, "user must be a Matrix user id", NULL);
    refused("[matrix m]\nallow_invites = :m.org, m.org\n", 2,
            "entry 2 of allow_invites must be a Matrix user id", NULL);
    refused("[matrix m]\nallow_invites = :\n", 2, "allow_invites must be", NULL);
}

static void test_unknown_and_malformed_sections_are_refused(void **state)
{
    (void)state;
    refused("# hi\n[foo]\n", 2, "unknown section; a section header is [bot], [irc NAME]", NULL);
    refused("[Bot]\n", 1, "unknown section; did you mean [bot]?", NULL);
    refused("[irc_ x]\n", 1, "unknown section; did you mean [irc NAME]?", NULL);
    refused("[matrx x]\n", 1, "unknown section; did you mean [matrix NAME]?", NULL);
    refused("[irc]\n", 1, "[irc] needs a network name; write [irc NAME]", NULL);
    refused("[matrix]\n", 1, "[matrix] needs a network name", NULL);
    refused("[bot main]\n", 1, "[bot] takes no name", NULL);
    refused("[irc bad.name]\n", 1, "network name of a [irc NAME] section must be", NULL);
    refused("[irc two words]\n", 1, "network name of a [irc NAME] section must be", NULL);
    refused("[irc abcdefghijabcdefghijabcdefghijab]\n", 1, "1 to 31 letters", NULL);
    refused("[irc x\n", 1, "a section header is [bot], [irc NAME], [matrix NAME] or [web]", NULL);
    refused("[bot] name = x\n", 1, "a section header is", NULL);
    refused("[]\n", 1, "unknown section", NULL);
    cfg *c = new_cfg();
    parse_ok(c, "  [ irc\tabcdefghijabcdefghijabcdefghija ]  \n" IRC_MIN);
    assert_string_equal(c->irc[0].name, "abcdefghijabcdefghijabcdefghija");
    free(c);
}

static void test_unknown_key_suggests_the_closest_known_key(void **state)
{
    (void)state;
    char why[CFG_WHY_MAX];
    refused("[irc libera]\nchanels = #a\n", 2,
            "[irc libera] has no key chanels; did you mean channels?", why);
    refused("[bot]\nmax_game = 3\n", 2, "did you mean max_games?", NULL);
    refused("[bot]\nlog-level = 3\n", 2, "did you mean log_level?", NULL);
    refused("[bot]\nfrobnicate = 3\n", 2, "[bot] has no such key; porrazo.conf(5) lists", why);
    assert_null(strstr(why, "did you mean"));
    refused("[bot]\nhost = irc.example.org\n", 2, "host is a key of [irc NAME], not of [bot]",
            NULL);
    refused("[irc x]\naccess_token = t\n", 2, "access_token is a key of [matrix NAME]", NULL);
    refused("[matrix x]\nreminder = 1m\n", 2, "reminder is a key of [bot], not of [matrix x]",
            NULL);
    refused("[bot]\nNAME = x\n", 2, "did you mean name?", NULL);
}

static void test_duplicate_keys_and_sections_are_refused(void **state)
{
    (void)state;
    refused("[bot]\nname = a\n\nname = b\n", 4, "name is set twice in [bot] (first on line 2)",
            NULL);
    refused("[irc x]\n" IRC_MIN "nick = other\n", 5,
            "nick is set twice in [irc x] (first on line 3)", NULL);
    refused("[bot]\n[irc x]\n" IRC_MIN "[bot]\n", 6, "[bot] appears twice (first on line 1)", NULL);
    refused("[irc x]\n" IRC_MIN "[irc x]\n", 5, "a network called x is already defined", NULL);
    refused("[irc x]\n" IRC_MIN "[matrix x]\n", 5, "a network called x is already defined", NULL);
    cfg *c = new_cfg();
    parse_ok(c, "[irc x]\n" IRC_MIN "[irc X]\n" IRC_MIN); /* names are case-sensitive ids */
    assert_int_equal(c->nirc, 2);
    free(c);
}

static void test_more_than_eight_networks_of_a_kind_are_refused(void **state)
{
    (void)state;
    char text[4096];
    size_t n = 0;
    for (int i = 0; i <= CFG_NETWORKS; i++) {
        int w = snprintf(text + n, sizeof text - n, "[irc n%d]\n" IRC_MIN, i);
        assert_true(w > 0 && (size_t)w < sizeof text - n);
        n += (size_t)w;
    }
    refused(text, 4 * CFG_NETWORKS + 1, "too many [irc NAME] sections; at most 8", NULL);
    text[n - strlen("[irc n8]\n" IRC_MIN)] = '\0';
    cfg *c = new_cfg();
    parse_ok(c, text);
    assert_int_equal(c->nirc, CFG_NETWORKS);
    free(c);
}

static void test_lines_that_are_not_key_value_are_refused(void **state)
{
    (void)state;
    refused("[bot]\n\nname porrazo\n", 3, "this line has no '='; write key = value", NULL);
    refused("[bot]\n= porrazo\n", 2, "this line has no key before '='", NULL);
    refused("name = porrazo\n", 1, "this line is outside any section; put it under [bot]", NULL);
    refused("# c\n\nname = porrazo\n[bot]\n", 3, "outside any section", NULL);
}

/* A text of a [bot] line, then a comment line of n bytes, then a bad line. */
static char *long_line_text(size_t n)
{
    char *text = malloc(n + 64);
    assert_non_null(text);
    memcpy(text, "[bot]\n#", 7);
    memset(text + 7, 'x', n - 1);
    memcpy(text + 6 + n, "\nmax_games = 0\n", 16);
    return text;
}

static void test_lines_of_4096_bytes_are_read_and_longer_ones_refused(void **state)
{
    (void)state;
    char *text = long_line_text(4096);
    refused(text, 3, "max_games must be", NULL); /* line 2 was read */
    free(text);
    text = long_line_text(4097);
    refused(text, 2, "the line is longer than 4096 bytes", NULL);
    free(text);
    text = long_line_text(4096);
    text[6 + 4096] = '\r'; /* CR LF: the CR is not part of the line */
    memmove(text + 6 + 4097, "\nmax_games = 0\n", 16);
    refused(text, 3, "max_games must be", NULL);
    free(text);
}

static void test_missing_required_keys_are_reported_at_the_section_header(void **state)
{
    (void)state;
    refused("[bot]\n[irc x]\nnick = n\nchannels = #a\n", 2,
            "[irc x] has no host; add a line such as host = irc.libera.chat", NULL);
    refused("[irc x]\nhost = h\nchannels = #a\n[bot]\n", 1, "[irc x] has no nick", NULL);
    refused("\n[irc x]\nhost = h\nnick = n\n", 2,
            "[irc x] has no channels; add a line such as channels = #porrazo", NULL);
    refused("[matrix m]\nuser = @a:b\npassword = p\n", 1, "[matrix m] has no homeserver", NULL);
    refused("[matrix m]\nhomeserver = https://b\npassword = p\n", 1, "[matrix m] has no user",
            NULL);
    refused("[irc x]\n" IRC_MIN "[matrix m]\nhomeserver = https://b\nuser = @a:b\n", 5,
            "[matrix m] has neither access_token nor password", NULL);
}

static void test_nickserv_target_is_a_nick_or_nick_at_server(void **state)
{
    (void)state;
    static const char *const bad[] = {"#services", "NickServ,ann", "NickServ@", "@services.x",
                                      "9lives"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "[irc x]\n" IRC_MIN "nickserv_target = %s\n", bad[i]);
        refused(text, 5, "nickserv_target", NULL);
    }
    cfg *c = new_cfg();
    char why[CFG_WHY_MAX];
    const char *ok = "[irc x]\n" IRC_MIN "nickserv_target = NickServ@services.libera.chat\n";
    assert_int_equal(parse_n(c, ok, strlen(ok), why, sizeof why), 0);
    assert_string_equal(c->irc[0].nickserv_target, "NickServ@services.libera.chat");
    free(c);
}

static void test_sasl_needs_both_its_user_and_its_password(void **state)
{
    (void)state;
    refused("[irc x]\n" IRC_MIN "sasl_user = acct\n", 5,
            "[irc x] has sasl_user but no sasl_password", NULL);
    refused("[irc x]\n" IRC_MIN "\nsasl_password = pw\n", 6,
            "[irc x] has sasl_password but no sasl_user", NULL);
}

static void test_environment_variables_fill_values_written_as_dollar_braces(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    assert_int_equal(setenv("PZ_TEST_NICK", "envnick", 1), 0);
    assert_int_equal(setenv("PZ_TEST_CHANNELS", "#a, #b", 1), 0);
    assert_int_equal(setenv("PZ_TEST_PORT", "7000", 1), 0);
    parse_ok(c, "[irc x]\nhost = h\nnick = ${PZ_TEST_NICK}\nchannels = ${PZ_TEST_CHANNELS}\n"
                "port = ${PZ_TEST_PORT}\nrealname = \"${PZ_TEST_NICK}\"\n");
    assert_string_equal(c->irc[0].nick, "envnick");
    assert_int_equal(c->irc[0].nchannels, 2);
    assert_string_equal(c->irc[0].channels[1], "#b");
    assert_int_equal(c->irc[0].port, 7000);
    assert_string_equal(c->irc[0].realname, "${PZ_TEST_NICK}"); /* quoted: as written */
    parse_ok(c, "[bot]\nname = ${PZ_TEST_NICK\n");              /* not ${NAME}: as written */
    assert_string_equal(c->bot.name, "${PZ_TEST_NICK");
    assert_int_equal(setenv("PZ_TEST_NICK", "bad nick", 1), 0);
    refused("[irc x]\nnick = ${PZ_TEST_NICK}\n", 2, "nick is not a valid IRC nick", NULL);
    unsetenv("PZ_TEST_NICK");
    unsetenv("PZ_TEST_CHANNELS");
    unsetenv("PZ_TEST_PORT");
    free(c);
}

static void test_unset_or_empty_environment_variables_are_refused(void **state)
{
    (void)state;
    unsetenv("PZ_TEST_UNSET");
    refused("[matrix m]\n\npassword = ${PZ_TEST_UNSET}\n", 3,
            "password uses ${PZ_TEST_UNSET}, but the environment variable PZ_TEST_UNSET is "
            "not set",
            NULL);
    assert_int_equal(setenv("PZ_TEST_EMPTY", "", 1), 0);
    refused("[bot]\nname = ${PZ_TEST_EMPTY}\n", 2,
            "name uses ${PZ_TEST_EMPTY}, but the environment variable PZ_TEST_EMPTY is not set",
            NULL);
    unsetenv("PZ_TEST_EMPTY");
    refused("[bot]\nname = ${}\n", 2, "name uses ${...} without a valid variable name", NULL);
    refused("[bot]\nname = ${1X}\n", 2, "without a valid variable name", NULL);
    refused("[bot]\nname = ${A-B}\n", 2, "without a valid variable name", NULL);
}

/* Asserts that text is refused and that its message does not hold SECRET. */
static void refused_quietly(const char *text)
{
    char why[CFG_WHY_MAX] = "";
    cfg *c = new_cfg();
    assert_int_equal(parse_n(c, text, strlen(text), why, sizeof why), -1);
    assert_true(strncmp(why, "t.conf:", 7) == 0);
    if (strstr(why, "Zebra") != NULL || strstr(why, "7781") != NULL)
        fail_msg("the secret leaked: %s", why);
    free(c);
}

static void test_secrets_never_appear_in_error_messages(void **state)
{
    (void)state;
    char text[8192], big[600];
    memset(big, 'Z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    refused_quietly("[irc x]\nsasl_password = \"" SECRET "\n");
    refused_quietly("[irc x]\nsasl_password = \"" SECRET "\\q\"\n");
    refused_quietly("[irc x]\nsasl_password = \"" SECRET "\" and more\n");
    refused_quietly("[irc x]\nsasl_password " SECRET "\n");
    refused_quietly("[irc x]\nsasl_password: " SECRET " = x\n");
    refused_quietly("[irc x]\n" SECRET " = x\n");
    refused_quietly("[irc x]\nserver_password = " SECRET "\nserver_password = " SECRET "\n");
    refused_quietly("[irc x]\nnickserv_password = " SECRET "\n"); /* then: no host */
    refused_quietly("[irc x]\n" IRC_MIN "sasl_password = " SECRET "\n");
    refused_quietly("[matrix m]\naccess_token = " SECRET "\n");
    refused_quietly("[irc x]\naccess_token = " SECRET "\n");
    refused_quietly("password = " SECRET "\n");
    refused_quietly("[bot]\nowners = " SECRET "\n");
    refused_quietly("[matrix m]\nuser = " SECRET "\n");
    refused_quietly("[" SECRET "]\n");
    print_to(text, sizeof text, "[matrix m]\npassword = Zebra%s\n", big);
    refused_quietly(text);
    assert_int_equal(setenv("PZ_TEST_SECRET", SECRET "\r\nQUIT", 1), 0);
    refused_quietly("[irc x]\nsasl_password = ${PZ_TEST_SECRET}\n");
    unsetenv("PZ_TEST_SECRET");
    memset(text, 'x', 5000);
    memcpy(text, "[bot]\nname = " SECRET, strlen("[bot]\nname = " SECRET));
    text[5000] = '\0';
    refused_quietly(text);
}

static void test_errors_leave_the_caller_config_untouched(void **state)
{
    (void)state;
    cfg *c = new_cfg(), *copy = new_cfg();
    char why[CFG_WHY_MAX];
    const char good[] = "[bot]\nname = kept\n[irc x]\n" IRC_MIN;
    const char bad[] = "[bot]\nname = changed\n[irc y]\n" IRC_MIN "[irc z]\n";
    parse_ok(c, good);
    memcpy(copy, c, sizeof *c);
    assert_int_equal(parse_n(c, bad, strlen(bad), why, sizeof why), -1);
    assert_memory_equal(c, copy, sizeof *c);
    assert_string_equal(c->bot.name, "kept");
    free(c);
    free(copy);
}

static void test_parse_starts_from_the_defaults_not_from_the_old_config(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    char why[CFG_WHY_MAX];
    parse_ok(c, "[bot]\nname = first\n[irc x]\n" IRC_MIN);
    assert_int_equal(cfg_parse(c, "t.conf", "[bot]\n", 6, why, sizeof why), 0);
    assert_string_equal(c->bot.name, "porrazo");
    assert_int_equal(c->nirc, 0);
    free(c);
}

static void test_crlf_line_ends_and_a_byte_order_mark_are_read(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "\xEF\xBB\xBF[bot]\r\nname = crlf\r\n\r\n# c\r\nprefix = .");
    assert_string_equal(c->bot.name, "crlf");
    assert_string_equal(c->bot.prefix, ".");
    refused("[bot]\r\nname = a\r\nmax_games = 0\r\n", 3, "max_games", NULL);
    free(c);
}

static void test_nul_bytes_and_control_characters_are_refused(void **state)
{
    (void)state;
    char why[CFG_WHY_MAX];
    cfg *c = new_cfg();
    static const char text[] = "[bot]\nname = a\0b\n";
    assert_int_equal(parse_n(c, text, sizeof text - 1, why, sizeof why), -1);
    assert_string_equal(why, "t.conf:2: the line contains a NUL byte; is this a text file?");
    refused("[bot]\nname = a\tb\n", 2, "name contains a control character", NULL);
    refused("[bot]\nname = \"a\x1b[31m\"\n", 2, "name contains a control character", NULL);
    free(c);
}

static void test_a_short_message_buffer_is_cut_and_terminated(void **state)
{
    (void)state;
    char why[16];
    cfg *c = new_cfg();
    memset(why, '@', sizeof why);
    assert_int_equal(cfg_parse(c, "t.conf", "[foo]\n", 6, why, sizeof why), -1);
    assert_string_equal(why, "t.conf:1: un...");
    assert_int_equal(cfg_parse(c, "t.conf", "[foo]\n", 6, NULL, 0), -1);
    assert_int_equal(cfg_parse(c, "t.conf", "[foo]\n", 6, why, 0), -1);
    assert_int_equal(cfg_load(c, "/nonexistent", why, 1), -1);
    assert_string_equal(why, "");
    free(c);
}

static void test_is_owner_compares_network_exactly_and_id_without_case(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    parse_ok(c, "[bot]\nowners = libera:Alice, example:@Bob:Example.org, libera:carol\n");
    assert_true(cfg_is_owner(c, "libera", "Alice"));
    assert_true(cfg_is_owner(c, "libera", "alice"));
    assert_true(cfg_is_owner(c, "libera", "ALICE"));
    assert_true(cfg_is_owner(c, "libera", "Carol"));
    assert_true(cfg_is_owner(c, "example", "@bob:example.org"));
    assert_false(cfg_is_owner(c, "Libera", "alice"));
    assert_false(cfg_is_owner(c, "liber", "alice"));
    assert_false(cfg_is_owner(c, "libera2", "alice"));
    assert_false(cfg_is_owner(c, "example", "@bob"));
    assert_false(cfg_is_owner(c, "libera", "alic"));
    assert_false(cfg_is_owner(c, "libera", "alicee"));
    assert_false(cfg_is_owner(c, "libera", ""));
    assert_false(cfg_is_owner(c, "", "alice"));
    assert_false(cfg_is_owner(c, "libera:Alice", ""));
    assert_false(cfg_is_owner(c, NULL, "alice"));
    assert_false(cfg_is_owner(c, "libera", NULL));
    assert_false(cfg_is_owner(NULL, "libera", "alice"));
    cfg_defaults(c);
    assert_false(cfg_is_owner(c, "libera", "alice"));
    free(c);
}

static void test_random_edits_of_the_example_never_break_the_reader(void **state)
{
    (void)state;
    static const char bytes[] = "[]=\"\\#;,\n\r\t ${}:@x0\x80\xff";
    size_t len;
    char *text = read_example(&len), why[CFG_WHY_MAX];
    cfg *c = new_cfg();
    uint32_t seed = 12345;
    assert_int_equal(setenv("PORRAZO_LIBERA_PASSWORD", "x", 1), 0);
    for (int round = 0; round < 3000; round++) {
        char *copy = malloc(len);
        assert_non_null(copy);
        memcpy(copy, text, len);
        for (int e = 0; e < 1 + round % 4; e++) {
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % len] = bytes[(seed >> 20) % (sizeof bytes - 1)];
        }
        seed = seed * 1103515245u + 12345u;
        size_t cut = round % 3 == 0 ? (seed >> 8) % len : len;
        memset(why, '@', sizeof why);
        int rc = cfg_parse(c, "t.conf", copy, cut, why, sizeof why);
        assert_true(rc == 0 || (rc == -1 && memchr(why, '\0', sizeof why) != NULL &&
                                strncmp(why, "t.conf:", 7) == 0));
        free(copy);
    }
    unsetenv("PORRAZO_LIBERA_PASSWORD");
    free(c);
    free(text);
}

/* ---- every error in one run (cfg_parse_all, cfg_load_all) ---------- */

/* What cfg_parse_all() reported: each message with its level. */
typedef struct reports {
    int n;
    cfg_level level[64];
    char msg[64][CFG_WHY_MAX + 64];
} reports;

/* cfg_report_fn that keeps every message in a reports. */
static void keep_report(void *arg, cfg_level level, const char *msg)
{
    reports *r = arg;
    assert_true(r->n < 64);
    r->level[r->n] = level;
    print_to(r->msg[r->n], sizeof r->msg[r->n], "%s", msg);
    r->n++;
}

/* cfg_parse_all() of text as "t.conf" from an exact heap copy; returns its
 * error count, the messages in *r and the warnings in *nwarn. */
static int parse_all(cfg *c, const char *text, reports *r, int *nwarn)
{
    size_t len = strlen(text);
    char *copy = malloc(len > 0 ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    memset(r, 0, sizeof *r);
    int n = cfg_parse_all(c, "t.conf", copy, len, keep_report, r, nwarn);
    free(copy);
    return n;
}

/* Asserts that message i of r has level and starts "t.conf:LINE: " and
 * contains part. */
static void reported(const reports *r, int i, cfg_level level, int line, const char *part)
{
    char prefix[32];
    print_to(prefix, sizeof prefix, "t.conf:%d: ", line);
    assert_true(i < r->n);
    if (r->level[i] != level || strncmp(r->msg[i], prefix, strlen(prefix)) != 0 ||
        strstr(r->msg[i], part) == NULL)
        fail_msg("message %d: want %s \"%s...%s\", got %s \"%s\"", i,
                 level == CFG_ERROR ? "error" : "warning", prefix, part,
                 r->level[i] == CFG_ERROR ? "error" : "warning", r->msg[i]);
}

static void test_several_errors_are_all_reported_in_one_run(void **state)
{
    (void)state;
    static const char text[] = "[bot]\n"                        /* 1 */
                               "max_games = lots\n"             /* 2 */
                               "log_levle = info\n"             /* 3 */
                               "[irc libera]\n"                 /* 4 */
                               "host = irc.libera.chat\n"       /* 5 */
                               "nick = 9lives\n"                /* 6 */
                               "channels = #porrazo, bad one\n" /* 7 */
                               "tls = maybe\n"                  /* 8 */
                               "no equals here\n"               /* 9 */
                               "[matrix m]\n"                   /* 10 */
                               "user = @bot:example.org\n";     /* 11 */
    cfg *c = new_cfg(), *before = new_cfg();
    reports r;
    int nwarn = -1;
    assert_int_equal(parse_all(c, text, &r, &nwarn), 7);
    assert_int_equal(nwarn, 0);
    assert_int_equal(r.n, 7);
    reported(&r, 0, CFG_ERROR, 2, "max_games must be a whole number");
    reported(&r, 1, CFG_ERROR, 3, "did you mean log_level?");
    reported(&r, 2, CFG_ERROR, 6, "nick is not a valid IRC nick");
    reported(&r, 3, CFG_ERROR, 7, "entry 2 of channels");
    reported(&r, 4, CFG_ERROR, 8, "tls must be true or false");
    reported(&r, 5, CFG_ERROR, 9, "this line has no '='");
    reported(&r, 6, CFG_ERROR, 10, "[matrix m] has no homeserver; add a line such as");
    assert_memory_equal(c, before, sizeof *c);
    free(c);
    free(before);
}

static void test_cfg_parse_still_gives_the_first_of_several_errors(void **state)
{
    (void)state;
    refused("[bot]\nmax_games = lots\nprefix =\n[irx x]\n", 2, "max_games", NULL);
}

static void test_a_section_whose_header_is_in_error_still_has_its_keys_checked(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    reports r;
    assert_int_equal(parse_all(c,
                               "[irc a]\n" IRC_MIN         /* 1-4 */
                               "[irc a]\n" IRC_MIN         /* 5-8 */
                               "port = 99999\n"            /* 9 */
                               "[bot]\n"                   /* 10 */
                               "[bot]\n"                   /* 11 */
                               "prefix = toolongprefix\n", /* 12 */
                               &r, NULL),
                     4);
    reported(&r, 0, CFG_ERROR, 5, "a network called a is already defined");
    reported(&r, 1, CFG_ERROR, 9, "port must be a whole number");
    reported(&r, 2, CFG_ERROR, 11, "[bot] appears twice (first on line 10)");
    reported(&r, 3, CFG_ERROR, 12, "prefix is too long");
    free(c);
}

static void test_lines_under_an_unknown_section_are_skipped_up_to_the_next(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    reports r;
    assert_int_equal(parse_all(c,
                               "[irx x]\n"          /* 1 */
                               "whatever = 1\n"     /* 2: skipped */
                               "junk\n"             /* 3: skipped */
                               "[bot\n"             /* 4 */
                               "nick = x\n"         /* 5: skipped */
                               "[bot]\n"            /* 6 */
                               "reminder = soon\n", /* 7 */
                               &r, NULL),
                     3);
    reported(&r, 0, CFG_ERROR, 1, "unknown section; did you mean [irc NAME]?");
    reported(&r, 1, CFG_ERROR, 4, "a section header is [bot]");
    reported(&r, 2, CFG_ERROR, 7, "reminder must be a duration");
    free(c);
}

static void test_a_value_in_error_is_not_also_reported_missing(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    reports r;
    unsetenv("PZ_TEST_UNSET_VARIABLE");
    assert_int_equal(parse_all(c,
                               "[irc a]\n" IRC_MIN                           /* 1-4 */
                               "sasl_user = bot\n"                           /* 5 */
                               "sasl_password = ${PZ_TEST_UNSET_VARIABLE}\n" /* 6 */
                               "[matrix m]\n"                                /* 7 */
                               "homeserver = https://example.org\n"          /* 8 */
                               "user = @bot:example.org\n"                   /* 9 */
                               "access_token = \"" SECRET "\n",              /* 10 */
                               &r, NULL),
                     2);
    reported(&r, 0, CFG_ERROR, 6, "PZ_TEST_UNSET_VARIABLE is not set");
    reported(&r, 1, CFG_ERROR, 10, "no closing quote");
    for (int i = 0; i < r.n; i++)
        assert_null(strstr(r.msg[i], SECRET));
    free(c);
}

static void test_lines_too_long_or_with_nul_bytes_do_not_stop_the_reading(void **state)
{
    (void)state;
    char text[6000];
    int n = snprintf(text, sizeof text, "[bot]\nname = %05000d\nprefix = ?\n", 1);
    assert_true(n > 0 && (size_t)n < sizeof text);
    memcpy(text + n, "x\0y\nmax_games = 0\n", 18);
    size_t len = (size_t)n + 18;
    cfg *c = new_cfg();
    reports r;
    memset(&r, 0, sizeof r);
    char *copy = malloc(len);
    assert_non_null(copy);
    memcpy(copy, text, len);
    assert_int_equal(cfg_parse_all(c, "t.conf", copy, len, keep_report, &r, NULL), 3);
    free(copy);
    reported(&r, 0, CFG_ERROR, 2, "longer than 4096 bytes");
    reported(&r, 1, CFG_ERROR, 4, "NUL byte");
    reported(&r, 2, CFG_ERROR, 5, "max_games must be a whole number");
    free(c);
}

static void test_the_reader_gives_up_after_fifty_errors(void **state)
{
    (void)state;
    char text[4096];
    size_t len = 0;
    len += (size_t)snprintf(text, sizeof text, "[bot]\n");
    for (int i = 0; i < 80; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "junk %d\n", i);
    assert_true(len < sizeof text);
    cfg *c = new_cfg();
    reports r;
    assert_int_equal(parse_all(c, text, &r, NULL), 51);
    reported(&r, 49, CFG_ERROR, 51, "no '='");
    reported(&r, 50, CFG_ERROR, 52, "more than 50 errors; stopping here");
    free(c);
}

static void test_warnings_leave_the_file_valid(void **state)
{
    (void)state;
    cfg *c = new_cfg();
    reports r;
    int nwarn = 0;
    assert_int_equal(parse_all(c,
                               "[bot]\n"                                       /* 1 */
                               "owners = a:alice, gone:bob, console:ann\n"     /* 2 */
                               "[irc a]\n" IRC_MIN                             /* 3-6 */
                               "tls = false\n"                                 /* 7 */
                               "nickserv_password = x\n"                       /* 8 */
                               "[irc b]\n" IRC_MIN                             /* 9-12 */
                               "tls_verify = no\n"                             /* 13 */
                               "[irc local]\n"                                 /* 14 */
                               "host = 127.0.0.1\nnick = p\nchannels = #p\n"   /* 15-17 */
                               "tls = false\nserver_password = x\n"            /* 18-19 */
                               "[matrix m]\n"                                  /* 20 */
                               "homeserver = http://matrix.example.org:8008\n" /* 21 */
                               "user = @bot:example.org\npassword = x\n"       /* 22-23 */
                               "[matrix here]\n"                               /* 24 */
                               "homeserver = http://localhost:8008\n"          /* 25 */
                               "user = @bot:localhost\npassword = x\n",        /* 26-27 */
                               &r, &nwarn),
                     0);
    assert_int_equal(nwarn, 4);
    assert_int_equal(r.n, 4);
    reported(&r, 0, CFG_WARNING, 7, "[irc a] sends its password in clear");
    reported(&r, 1, CFG_WARNING, 13, "[irc b] does not check the server's certificate");
    reported(&r, 2, CFG_WARNING, 21, "[matrix m] logs in over http://");
    reported(&r, 3, CFG_WARNING, 2, "entry 2 of owners names the network gone");
    assert_int_equal(c->nirc, 3);
    assert_int_equal(c->nmatrix, 2);
    free(c);
}

static void test_load_all_reports_a_missing_file_once(void **state)
{
    (void)state;
    cfg *c = new_cfg(), *before = new_cfg();
    reports r;
    memset(&r, 0, sizeof r);
    int nwarn = -1;
    assert_int_equal(cfg_load_all(c, "/nonexistent/porrazo.conf", keep_report, &r, &nwarn), 1);
    assert_int_equal(nwarn, 0);
    assert_int_equal(r.n, 1);
    assert_string_equal(r.msg[0],
                        "/nonexistent/porrazo.conf: cannot open: No such file or directory");
    assert_memory_equal(c, before, sizeof *c);
    free(c);
    free(before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_those_documented_in_config_h),
        cmocka_unit_test(test_empty_text_and_comments_only_give_the_defaults),
        cmocka_unit_test(test_bot_section_sets_every_key),
        cmocka_unit_test(test_irc_section_sets_every_key),
        cmocka_unit_test(test_irc_port_follows_tls_and_username_the_nick_unless_given),
        cmocka_unit_test(test_matrix_section_sets_every_key),
        cmocka_unit_test(test_networks_of_both_kinds_are_kept_in_file_order),
        cmocka_unit_test(test_example_file_parses_with_its_environment_variables_set),
        cmocka_unit_test(test_example_file_shows_every_key),
        cmocka_unit_test(test_example_matrix_section_parses_once_uncommented),
        cmocka_unit_test(test_example_file_names_its_variable_when_it_is_unset),
        cmocka_unit_test(test_load_reads_a_file_and_names_it_in_errors),
        cmocka_unit_test(test_load_names_a_file_it_cannot_open),
        cmocka_unit_test(test_load_takes_one_mebibyte_and_refuses_one_byte_more),
        cmocka_unit_test(test_quotes_keep_blanks_a_leading_hash_and_escapes),
        cmocka_unit_test(test_quote_mistakes_are_refused_on_their_line),
        cmocka_unit_test(test_lists_are_split_on_commas_and_trimmed),
        cmocka_unit_test(test_list_mistakes_are_refused_on_their_line),
        cmocka_unit_test(test_lists_hold_sixteen_entries_and_refuse_seventeen),
        cmocka_unit_test(test_booleans_take_six_words_in_any_case),
        cmocka_unit_test(test_integers_are_held_to_their_ranges),
        cmocka_unit_test(test_pace_names_a_model_and_burst_or_line_ms_alone_mean_custom),
        cmocka_unit_test(test_bad_paces_and_burst_beside_another_pace_are_refused),
        cmocka_unit_test(test_durations_are_read_by_cmd_parse_duration),
        cmocka_unit_test(test_bot_values_are_checked),
        cmocka_unit_test(test_irc_values_are_checked),
        cmocka_unit_test(test_matrix_values_are_checked),
        cmocka_unit_test(test_unknown_and_malformed_sections_are_refused),
        cmocka_unit_test(test_unknown_key_suggests_the_closest_known_key),
        cmocka_unit_test(test_duplicate_keys_and_sections_are_refused),
        cmocka_unit_test(test_more_than_eight_networks_of_a_kind_are_refused),
        cmocka_unit_test(test_lines_that_are_not_key_value_are_refused),
        cmocka_unit_test(test_lines_of_4096_bytes_are_read_and_longer_ones_refused),
        cmocka_unit_test(test_missing_required_keys_are_reported_at_the_section_header),
        cmocka_unit_test(test_nickserv_target_is_a_nick_or_nick_at_server),
        cmocka_unit_test(test_sasl_needs_both_its_user_and_its_password),
        cmocka_unit_test(test_environment_variables_fill_values_written_as_dollar_braces),
        cmocka_unit_test(test_unset_or_empty_environment_variables_are_refused),
        cmocka_unit_test(test_secrets_never_appear_in_error_messages),
        cmocka_unit_test(test_errors_leave_the_caller_config_untouched),
        cmocka_unit_test(test_parse_starts_from_the_defaults_not_from_the_old_config),
        cmocka_unit_test(test_crlf_line_ends_and_a_byte_order_mark_are_read),
        cmocka_unit_test(test_nul_bytes_and_control_characters_are_refused),
        cmocka_unit_test(test_a_short_message_buffer_is_cut_and_terminated),
        cmocka_unit_test(test_is_owner_compares_network_exactly_and_id_without_case),
        cmocka_unit_test(test_random_edits_of_the_example_never_break_the_reader),
        cmocka_unit_test(test_several_errors_are_all_reported_in_one_run),
        cmocka_unit_test(test_cfg_parse_still_gives_the_first_of_several_errors),
        cmocka_unit_test(test_a_section_whose_header_is_in_error_still_has_its_keys_checked),
        cmocka_unit_test(test_lines_under_an_unknown_section_are_skipped_up_to_the_next),
        cmocka_unit_test(test_a_value_in_error_is_not_also_reported_missing),
        cmocka_unit_test(test_lines_too_long_or_with_nul_bytes_do_not_stop_the_reading),
        cmocka_unit_test(test_the_reader_gives_up_after_fifty_errors),
        cmocka_unit_test(test_warnings_leave_the_file_valid),
        cmocka_unit_test(test_load_all_reports_a_missing_file_once),
        cmocka_unit_test(test_web_section_sets_its_keys_and_is_refused_when_wrong),
        cmocka_unit_test(test_languages_per_bot_network_and_room),
        cmocka_unit_test(test_languages_are_a_list_of_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
