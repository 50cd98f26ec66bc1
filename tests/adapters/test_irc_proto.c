/*
 * test_irc_proto.c — the IRC protocol logic (adapters/irc/irc_proto.h) driven
 * by scripted server lines and a fake clock: the line parser and its
 * refusals, CAP LS 302 (multi-line), CAP REQ of only the wanted
 * capabilities (never one that adds message tags), SASL PLAIN with exact
 * base64 and 400-byte chunks, SASL failures and the NickServ fallback,
 * nick retries within NICKLEN, CHANTYPES and CASEMAPPING, the nick ->
 * account map and player ids, user@host masks and who matches whom,
 * PING/PONG and the dead-link timer, the
 * reconnect back-off, secrets masked in logs and diagnostics. Ends with
 * robustness loops that feed random bytes to the parser, the session and
 * the log renderer, checking only their contracts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "irc_proto.h"

#define SASL_USER "jilles"
#define SASL_PASS "sesame"
#define SASL_B64 "amlsbGVzAGppbGxlcwBzZXNhbWU=" /* the IRCv3 SASL spec's own example */

static const ircp_config base_config = {
    .nick = "porrazo",
    .alt_nicks = {"pzbot"},
    .realname = "Porrazo card games",
    .sasl_user = SASL_USER,
    .sasl_pass = SASL_PASS,
    .nickserv_user = "porrazo",
    .nickserv_pass = "nspass99",
    .nickserv_target = "NickServ",
};

/* A session over cfg, connected at time 0 with the registration lines drained. */
static ircp *session(const ircp_config *cfg)
{
    ircp *p = NULL;
    char why[IRCP_DIAG_MAX];
    int err = ircp_new(cfg, &p, why, sizeof why);
    if (err != 0)
        fail_msg("ircp_new: %s (%s)", ircp_strerror(err), why);
    assert_int_equal(ircp_connect(p, 0), 0);
    char line[IRCP_OUT_MAX + 1];
    while (ircp_pop(p, line, sizeof line) > 0)
        ;
    return p;
}

/* Feeds one server line at now_ms; returns the events. */
static int feed_at(ircp *p, const char *line, int64_t now_ms)
{
    int ev = ircp_feed(p, line, strlen(line), now_ms, NULL);
    if (ev < 0)
        fail_msg("feeding '%s': %s", line, ircp_strerror(ev));
    return ev;
}

static int feed(ircp *p, const char *line)
{
    return feed_at(p, line, 1000);
}

/* Pops the queue and checks it holds exactly the lines given (NULL-terminated). */
static void expect_lines(ircp *p, ...)
{
    va_list ap;
    va_start(ap, p);
    char got[IRCP_OUT_MAX + 1];
    for (const char *want = va_arg(ap, const char *); want != NULL;
         want = va_arg(ap, const char *)) {
        int n = ircp_pop(p, got, sizeof got);
        if (n <= 0)
            fail_msg("expected '%s', the queue is empty", want);
        if (strcmp(got, want) != 0)
            fail_msg("expected '%s', got '%s'", want, got);
    }
    va_end(ap);
    if (ircp_pop(p, got, sizeof got) > 0)
        fail_msg("unexpected line '%s'", got);
}

/* Registration up to a granted CAP REQ of account-notify and extended-join, then 001. */
static ircp *registered_with_account_caps(void)
{
    ircp_config cfg = base_config;
    cfg.sasl_user = cfg.sasl_pass = cfg.nickserv_pass = NULL;
    ircp *p = session(&cfg);
    feed(p, ":irc.test CAP * LS :account-notify extended-join");
    expect_lines(p, "CAP REQ :account-notify extended-join", NULL);
    feed(p, ":irc.test CAP * ACK :account-notify extended-join");
    expect_lines(p, "CAP END", NULL);
    assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"), IRCP_EV_WELCOME);
    return p;
}

/* The player id of nick, checked to succeed. */
static const char *id_of(ircp *p, const char *nick)
{
    static char id[IRCP_ID_MAX];
    assert_int_equal(ircp_player_id(p, nick, id, sizeof id), 0);
    return id;
}

/* ------------------------------------------------------------------------ */
/* The parser                                                               */

static void test_a_full_line_splits_into_prefix_command_and_parameters(void **state)
{
    (void)state;
    ircp_msg m;
    const char *line = ":Alice!al@host.example PRIVMSG #porrazo :play 7h now\r\n";
    assert_int_equal(ircp_parse(line, strlen(line), &m), 0);
    assert_false(m.has_tags);
    assert_string_equal(m.nick, "Alice");
    assert_string_equal(m.user, "al");
    assert_string_equal(m.host, "host.example");
    assert_string_equal(m.command, "PRIVMSG");
    assert_int_equal(m.nparams, 2);
    assert_true(m.trailing);
    assert_string_equal(ircp_param(&m, 0), "#porrazo");
    assert_string_equal(ircp_param(&m, 1), "play 7h now");
    assert_string_equal(ircp_param(&m, 2), "");
    assert_string_equal(ircp_param(&m, -1), "");

    assert_int_equal(ircp_parse("PING irc.test", 13, &m), 0);
    assert_string_equal(m.nick, "");
    assert_string_equal(m.command, "PING");
    assert_false(m.trailing);
    assert_string_equal(ircp_param(&m, 0), "irc.test");

    assert_int_equal(ircp_parse(":irc.test 001 me :", 18, &m), 0);
    assert_string_equal(m.nick, "irc.test");
    assert_string_equal(m.host, "");
    assert_int_equal(m.nparams, 2);
    assert_string_equal(ircp_param(&m, 1), "");
    assert_int_equal(ircp_parse(":n@h notice x y", 15, &m), 0);
    assert_string_equal(m.nick, "n");
    assert_string_equal(m.host, "h");
    assert_string_equal(m.command, "NOTICE");
}

static void test_tags_are_skipped_and_repeated_spaces_are_tolerated(void **state)
{
    (void)state;
    ircp_msg m;
    const char *line =
        "@time=2024-01-01T00:00:00Z;account=x;+draft/y=\\s  :bob!b@h   JOIN   #a  :x";
    assert_int_equal(ircp_parse(line, strlen(line), &m), 0);
    assert_true(m.has_tags);
    assert_string_equal(m.nick, "bob");
    assert_string_equal(m.command, "JOIN");
    assert_int_equal(m.nparams, 2);
    assert_string_equal(ircp_param(&m, 0), "#a");
    assert_string_equal(ircp_param(&m, 1), "x");
    assert_int_equal(ircp_parse("@a=b", 4, &m), IRCP_EEMPTY);
    assert_int_equal(ircp_parse("@a=b :srv", 9, &m), IRCP_EEMPTY);
}

static void test_a_fifteenth_parameter_takes_the_rest_of_the_line(void **state)
{
    (void)state;
    ircp_msg m;
    const char *line = "CMD 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 :17";
    assert_int_equal(ircp_parse(line, strlen(line), &m), 0);
    assert_int_equal(m.nparams, IRCP_PARAMS_MAX);
    assert_string_equal(ircp_param(&m, 13), "14");
    assert_string_equal(ircp_param(&m, 14), "15 16 :17");
}

static void test_bad_lines_are_refused_and_leave_the_message_untouched(void **state)
{
    (void)state;
    static ircp_msg m, before;
    memset(&m, 0x5A, sizeof m);
    before = m;
    static const struct {
        const char *line;
        size_t len;
        int err;
    } bad[] = {
        {"", 0, IRCP_EEMPTY},
        {"\r\n", 2, IRCP_EEMPTY},
        {"   ", 3, IRCP_EEMPTY},
        {":srv", 4, IRCP_EEMPTY},
        {": PRIVMSG x", 11, IRCP_EBADPREFIX},
        {"PRIV\0MSG x", 10, IRCP_EBADBYTE},
        {"PRIVMSG #a :a\rb", 15, IRCP_EBADBYTE},
        {"PRIVMSG #a :a\nb", 15, IRCP_EBADBYTE},
        {"12 x", 4, IRCP_EBADCOMMAND},
        {"1234 x", 6, IRCP_EBADCOMMAND},
        {"PRIV-MSG x", 10, IRCP_EBADCOMMAND},
        {"00a x", 5, IRCP_EBADCOMMAND},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH", 34, IRCP_ETOOLONG},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int err = ircp_parse(bad[i].line, bad[i].len, &m);
        if (err != bad[i].err)
            fail_msg("line %zu gave %d, not %d", i, err, bad[i].err);
        assert_memory_equal(&m, &before, sizeof m);
    }
    static char big[IRCP_LINE_MAX + 3];
    memset(big, 'a', sizeof big);
    memcpy(big, "PRIVMSG #a :", 12);
    assert_int_equal(ircp_parse(big, IRCP_LINE_MAX + 1, &m), IRCP_ETOOLONG);
    assert_memory_equal(&m, &before, sizeof m);
    memcpy(big + IRCP_LINE_MAX, "\r\n", 2);
    assert_int_equal(ircp_parse(big, IRCP_LINE_MAX + 2, &m), 0);
    assert_int_equal(strlen(ircp_param(&m, 1)), IRCP_LINE_MAX - 12);
    char nick[300];
    memset(nick, 'n', sizeof nick);
    nick[0] = ':';
    memcpy(nick + 280, " PING x", 8);
    assert_int_equal(ircp_parse(nick, strlen(nick), &m), IRCP_ETOOLONG);
    assert_int_equal(ircp_parse(NULL, 0, &m), IRCP_EINVAL);
}

/* ------------------------------------------------------------------------ */
/* Registration and capabilities                                            */

static void test_connecting_sends_cap_ls_302_then_pass_nick_and_user_at_once(void **state)
{
    (void)state;
    ircp_config cfg = base_config;
    cfg.server_pass = "letmein";
    ircp *p = NULL;
    assert_int_equal(ircp_new(&cfg, &p, NULL, 0), 0);
    assert_false(ircp_registered(p));
    assert_int_equal(ircp_connect(p, 0), 0);
    expect_lines(p, "CAP LS 302", "PASS :letmein", "NICK porrazo",
                 "USER porrazo 0 * :Porrazo card games", NULL);
    ircp_free(p);
}

static void test_a_multi_line_cap_ls_is_read_to_its_end_before_requesting(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    assert_int_equal(feed(p, ":irc.test CAP * LS * :multi-prefix account-notify"), 0);
    expect_lines(p, NULL);
    assert_int_equal(feed(p, ":irc.test CAP * LS * :away-notify sasl=PLAIN,EXTERNAL"), 0);
    expect_lines(p, NULL);
    assert_int_equal(feed(p, ":irc.test CAP * LS :extended-join chghost"), 0);
    expect_lines(p, "CAP REQ :sasl account-notify extended-join", NULL);
    ircp_free(p);
}

static void test_only_the_wanted_caps_are_requested_never_one_that_adds_tags(void **state)
{
    (void)state;
    const char *offer = ":irc.test CAP * LS :message-tags server-time account-tag batch "
                        "echo-message labeled-response draft/chathistory msgid cap-notify "
                        "invite-notify multi-prefix userhost-in-names setname chghost "
                        "extended-join account-notify sasl=EXTERNAL,PLAIN away-notify";
    ircp *p = session(&base_config);
    feed(p, offer);
    expect_lines(p, "CAP REQ :sasl account-notify extended-join", NULL);
    ircp_free(p);

    ircp_config no_sasl = base_config;
    no_sasl.sasl_user = no_sasl.sasl_pass = NULL;
    p = session(&no_sasl);
    feed(p, offer);
    expect_lines(p, "CAP REQ :account-notify extended-join", NULL);
    ircp_free(p);

    p = session(&base_config); /* SASL offered without PLAIN */
    assert_int_equal(feed(p, ":irc.test CAP * LS :sasl=EXTERNAL,SCRAM-SHA-256 extended-join"),
                     IRCP_EV_SASL_FAILED);
    expect_lines(p, "CAP REQ :extended-join", NULL);
    ircp_free(p);

    p = session(&base_config); /* only tag capabilities: nothing to ask */
    feed(p, ":irc.test CAP * LS :message-tags server-time batch account-tag");
    expect_lines(p, "CAP END", NULL);
    assert_false(ircp_has_cap(p, "message-tags"));
    ircp_free(p);
}

static void test_sasl_plain_success_sends_the_exact_base64_and_then_cap_end(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    feed(p, ":irc.test CAP * LS :sasl extended-join");
    expect_lines(p, "CAP REQ :sasl extended-join", NULL);
    assert_int_equal(feed(p, ":irc.test CAP * ACK :sasl extended-join"), 0);
    assert_true(ircp_has_cap(p, "sasl"));
    assert_true(ircp_has_cap(p, "extended-join"));
    assert_false(ircp_has_cap(p, "account-notify"));
    expect_lines(p, "AUTHENTICATE PLAIN", NULL);
    feed(p, "AUTHENTICATE +");
    expect_lines(p, "AUTHENTICATE " SASL_B64, NULL);
    assert_int_equal(feed(p, ":irc.test 900 porrazo porrazo!p@h jilles :You are now logged in"),
                     IRCP_EV_LOGGED_IN);
    assert_string_equal(ircp_account(p), "jilles");
    assert_int_equal(feed(p, ":irc.test 903 porrazo :SASL authentication successful"), 0);
    expect_lines(p, "CAP END", NULL);
    assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"), IRCP_EV_WELCOME);
    expect_lines(p, NULL); /* logged in: no NickServ IDENTIFY */
    assert_true(ircp_registered(p));
    ircp_free(p);
}

/* Base64 written out in the test, independently of the module. */
static void b64(const unsigned char *in, size_t n, char *out)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i + 2 < n; i += 3) {
        out[o++] = a[in[i] >> 2];
        out[o++] = a[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
        out[o++] = a[((in[i + 1] & 15) << 2) | (in[i + 2] >> 6)];
        out[o++] = a[in[i + 2] & 63];
    }
    size_t r = n % 3, i = n - r;
    if (r > 0) {
        out[o++] = a[in[i] >> 2];
        out[o++] = a[((in[i] & 3) << 4) | (r == 2 ? in[i + 1] >> 4 : 0)];
        out[o++] = r == 2 ? a[(in[i + 1] & 15) << 2] : '=';
        out[o++] = '=';
    }
    out[o] = '\0';
}

/* Runs SASL as user with a password of pass_len bytes; checks the chunks against the payload. */
static void check_sasl_chunks(const char *user, size_t pass_len, int want_lines, bool want_plus)
{
    char pass[IRCP_SECRET_MAX], expect[1024], got[IRCP_OUT_MAX + 1], joined[1024];
    unsigned char raw[700];
    size_t u = strlen(user), have = 0;
    for (size_t i = 0; i < pass_len; i++)
        pass[i] = (char)('a' + i % 26);
    pass[pass_len] = '\0';
    memcpy(raw, user, u + 1);
    memcpy(raw + u + 1, user, u + 1);
    memcpy(raw + 2 * u + 2, pass, pass_len);
    b64(raw, 2 * u + 2 + pass_len, expect);
    ircp_config cfg = base_config;
    cfg.sasl_user = user;
    cfg.sasl_pass = pass;
    ircp *p = session(&cfg);
    feed(p, ":irc.test CAP * LS :sasl");
    feed(p, ":irc.test CAP * ACK :sasl");
    expect_lines(p, "CAP REQ :sasl", "AUTHENTICATE PLAIN", NULL);
    feed(p, "AUTHENTICATE +");
    int lines = 0;
    bool plus = false;
    while (ircp_pop(p, got, sizeof got) > 0) {
        assert_memory_equal(got, "AUTHENTICATE ", 13);
        size_t n = strlen(got + 13);
        if (strcmp(got + 13, "+") == 0) {
            plus = true;
            continue;
        }
        assert_false(plus);
        assert_true(n <= 400);
        if (n < 400)
            assert_int_equal(ircp_pending(p), 0);
        assert_true(have + n < sizeof joined);
        memcpy(joined + have, got + 13, n + 1);
        have += n;
        lines++;
    }
    assert_string_equal(joined, expect);
    assert_int_equal(lines, want_lines);
    assert_int_equal(plus, want_plus);
    ircp_free(p);
}

static void
test_sasl_payloads_are_cut_at_400_bytes_with_a_plus_after_a_full_last_piece(void **state)
{
    (void)state;
    static const char user63[] = "u23456789012345678901234567890123456789012345678901234567890123";
    check_sasl_chunks("u23456789a", 278, 1, true);  /* 300 raw bytes: exactly 400 of base64 */
    check_sasl_chunks("u23456789a", 279, 2, false); /* 404: 400 + 4 */
    check_sasl_chunks("u23456789a", 511, 2, false); /* the longest password: 712 */
    check_sasl_chunks("u23456789a", 10, 1, false);
    check_sasl_chunks(user63, 472, 2, true); /* 600 raw: exactly 800 */
}

static void test_sasl_failure_falls_back_to_nickserv_identify_after_registration(void **state)
{
    (void)state;
    static const char *const failures[] = {"902", "904", "905", "906", "907", "908"};
    for (size_t i = 0; i < sizeof failures / sizeof failures[0]; i++) {
        ircp *p = session(&base_config);
        feed(p, ":irc.test CAP * LS :sasl");
        feed(p, ":irc.test CAP * ACK :sasl");
        feed(p, "AUTHENTICATE +");
        expect_lines(p, "CAP REQ :sasl", "AUTHENTICATE PLAIN", "AUTHENTICATE " SASL_B64, NULL);
        char line[80];
        snprintf(line, sizeof line, ":irc.test %s porrazo :failed", failures[i]);
        assert_int_equal(feed(p, line), IRCP_EV_SASL_FAILED);
        expect_lines(p, "CAP END", NULL);
        assert_int_equal(feed(p, ":irc.test 904 porrazo :SASL authentication failed"), 0);
        expect_lines(p, NULL); /* one CAP END, however many numerics follow */
        assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"),
                         IRCP_EV_WELCOME | IRCP_EV_IDENTIFY);
        expect_lines(p, "PRIVMSG NickServ :IDENTIFY porrazo nspass99", NULL);
        ircp_free(p);
    }
}

static void test_a_refused_request_or_a_server_without_cap_still_registers(void **state)
{
    (void)state;
    ircp_config cfg = base_config;
    cfg.nickserv_user = NULL;
    ircp *p = session(&cfg);
    feed(p, ":irc.test CAP * LS :sasl account-notify");
    assert_int_equal(feed(p, ":irc.test CAP * NAK :sasl account-notify"), IRCP_EV_SASL_FAILED);
    expect_lines(p, "CAP REQ :sasl account-notify", "CAP END", NULL);
    assert_false(ircp_has_cap(p, "sasl"));
    feed(p, ":irc.test 001 porrazo :Welcome");
    expect_lines(p, "PRIVMSG NickServ :IDENTIFY nspass99", NULL);
    ircp_free(p);

    p = session(&cfg);
    assert_int_equal(feed(p, ":irc.test 421 porrazo CAP :Unknown command"), IRCP_EV_SASL_FAILED);
    expect_lines(p, NULL); /* no CAP END to a server that knows no CAP */
    assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"), IRCP_EV_WELCOME | IRCP_EV_IDENTIFY);
    expect_lines(p, "PRIVMSG NickServ :IDENTIFY nspass99", NULL);
    ircp_free(p);

    p = session(&cfg); /* no CAP at all: 001 comes straight away */
    assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"), IRCP_EV_WELCOME | IRCP_EV_IDENTIFY);
    assert_true(ircp_registered(p));
    ircp_free(p);
}

static void test_identify_goes_only_to_the_configured_services_target(void **state)
{
    (void)state;
    ircp_config cfg = base_config;
    cfg.sasl_user = cfg.sasl_pass = NULL;
    cfg.nickserv_target = "NickServ@services.test";
    ircp *p = session(&cfg);
    feed(p, ":irc.test CAP * LS :multi-prefix");
    expect_lines(p, "CAP END", NULL);
    assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"), IRCP_EV_WELCOME | IRCP_EV_IDENTIFY);
    expect_lines(p, "PRIVMSG NickServ@services.test :IDENTIFY porrazo nspass99", NULL);
    ircp_free(p);

    /* No target: a password but no IDENTIFY at all, to nobody. */
    cfg.nickserv_target = NULL;
    p = session(&cfg);
    feed(p, ":irc.test CAP * LS :multi-prefix");
    expect_lines(p, "CAP END", NULL);
    assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"), IRCP_EV_WELCOME);
    expect_lines(p, NULL);
    ircp_free(p);

    /* A channel, a list or a half address would hand the password round. */
    static const char *const bad[] = {"#services",      "&x",       "NickServ,ann", "NickServ@",
                                      "@services.test", "Nick Serv"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[IRCP_DIAG_MAX];
        cfg.nickserv_target = bad[i];
        p = NULL;
        assert_int_equal(ircp_new(&cfg, &p, why, sizeof why), IRCP_ECONFIG);
        assert_null(p);
        assert_non_null(strstr(why, "nickserv_target"));
    }
}

/* A require_sasl session fed server lines up to a SASL failure (the last
   line), which must stop it: no CAP END, no IDENTIFY at 001. */
static void check_sasl_stop(const char *const *lines, size_t n, const char *why)
{
    ircp_config cfg = base_config;
    cfg.require_sasl = true;
    ircp *p = session(&cfg);
    char got[IRCP_OUT_MAX + 1];
    for (size_t i = 0; i + 1 < n; i++)
        feed(p, lines[i]);
    while (ircp_pop(p, got, sizeof got) > 0)
        assert_string_not_equal(got, "CAP END");
    assert_string_equal(ircp_sasl_failure(p), "");
    assert_int_equal(feed(p, lines[n - 1]), IRCP_EV_SASL_FAILED | IRCP_EV_SASL_STOP);
    while (ircp_pop(p, got, sizeof got) > 0)
        if (strcmp(got, "CAP END") == 0 || strstr(got, "IDENTIFY") != NULL)
            fail_msg("'%s' after a SASL failure under require_sasl", got);
    assert_string_equal(ircp_sasl_failure(p), why);
    assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"), 0);
    expect_lines(p, NULL);
    assert_false(ircp_registered(p));
    assert_int_equal(ircp_tick(p, 10 * IRCP_CAP_TIMEOUT_MS) & IRCP_EV_SASL_FAILED, 0);
    ircp_free(p);
}

static void test_require_sasl_stops_registration_at_any_sasl_failure(void **state)
{
    (void)state;
    const char *const refused[] = {":irc.test CAP * LS :sasl", ":irc.test CAP * ACK :sasl",
                                   "AUTHENTICATE +", ":irc.test 904 porrazo :failed"};
    check_sasl_stop(refused, 4, "904");
    const char *const no_sasl[] = {":irc.test CAP * LS :multi-prefix account-notify"};
    check_sasl_stop(no_sasl, 1, "the server offers no SASL PLAIN");
    const char *const no_cap[] = {":irc.test 421 porrazo CAP :Unknown command"};
    check_sasl_stop(no_cap, 1, "the server does not support CAP");

    /* No answer in time is a failure too. */
    ircp_config cfg = base_config;
    cfg.require_sasl = true;
    ircp *p = session(&cfg);
    assert_int_equal(ircp_tick(p, IRCP_CAP_TIMEOUT_MS), IRCP_EV_SASL_FAILED | IRCP_EV_SASL_STOP);
    expect_lines(p, NULL);
    ircp_free(p);

    /* Logged in: require_sasl changes nothing. */
    p = session(&cfg);
    feed(p, ":irc.test CAP * LS :sasl");
    feed(p, ":irc.test CAP * ACK :sasl");
    feed(p, "AUTHENTICATE +");
    assert_int_equal(feed(p, ":irc.test 903 porrazo :ok"), 0);
    expect_lines(p, "CAP REQ :sasl", "AUTHENTICATE PLAIN", "AUTHENTICATE " SASL_B64, "CAP END",
                 NULL);
    assert_int_equal(feed(p, ":irc.test 001 porrazo :Welcome"), IRCP_EV_WELCOME);
    ircp_free(p);

    /* require_sasl without an account to log in with cannot work. */
    char why[IRCP_DIAG_MAX];
    cfg.sasl_user = cfg.sasl_pass = NULL;
    p = NULL;
    assert_int_equal(ircp_new(&cfg, &p, why, sizeof why), IRCP_ECONFIG);
    assert_non_null(strstr(why, "require_sasl"));
}

static void test_an_unexpected_challenge_aborts_sasl_and_ends_negotiation(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    feed(p, ":irc.test CAP * LS :sasl");
    feed(p, ":irc.test CAP * ACK :sasl");
    assert_int_equal(feed(p, "AUTHENTICATE c29tZXRoaW5n"), IRCP_EV_SASL_FAILED);
    expect_lines(p, "CAP REQ :sasl", "AUTHENTICATE PLAIN", "AUTHENTICATE *", "CAP END", NULL);
    ircp_free(p);
}

static void test_an_unanswered_negotiation_is_ended_by_the_timer(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    feed_at(p, ":irc.test CAP * LS :sasl", 100);
    feed_at(p, ":irc.test CAP * ACK :sasl", 200);
    expect_lines(p, "CAP REQ :sasl", "AUTHENTICATE PLAIN", NULL);
    assert_int_equal(ircp_next_tick(p), IRCP_CAP_TIMEOUT_MS);
    assert_int_equal(ircp_tick(p, IRCP_CAP_TIMEOUT_MS - 1), 0);
    expect_lines(p, NULL);
    assert_int_equal(ircp_tick(p, IRCP_CAP_TIMEOUT_MS), IRCP_EV_SASL_FAILED);
    expect_lines(p, "AUTHENTICATE *", "CAP END", NULL);
    assert_int_equal(ircp_tick(p, IRCP_CAP_TIMEOUT_MS + 1), 0);
    expect_lines(p, NULL);
    ircp_free(p);
}

static void test_caps_offered_later_are_requested_and_deleted_caps_are_dropped(void **state)
{
    (void)state;
    ircp_config cfg = base_config;
    cfg.sasl_user = cfg.sasl_pass = NULL;
    ircp *p = session(&cfg);
    feed(p, ":irc.test CAP * LS :multi-prefix");
    expect_lines(p, "CAP END", NULL);
    feed(p, ":irc.test 001 porrazo :Welcome");
    expect_lines(p, "PRIVMSG NickServ :IDENTIFY porrazo nspass99", NULL);
    feed(p, ":irc.test CAP porrazo NEW :account-notify server-time sasl");
    expect_lines(p, "CAP REQ :account-notify", NULL);
    feed(p, ":irc.test CAP porrazo ACK :account-notify");
    assert_true(ircp_has_cap(p, "account-notify"));
    feed(p, ":irc.test CAP porrazo DEL :account-notify");
    assert_false(ircp_has_cap(p, "account-notify"));
    expect_lines(p, NULL);
    ircp_free(p);
}

/* ------------------------------------------------------------------------ */
/* Our nick                                                                 */

static void
test_a_nick_in_use_tries_alternatives_then_underscore_and_digits_within_nicklen(void **state)
{
    (void)state;
    ircp_config cfg = base_config;
    cfg.nick = "porrazobot"; /* 10 bytes; NICKLEN is 9 until ISUPPORT says */
    ircp *p = session(&cfg);
    feed(p, ":irc.test 433 * porrazobot :Nickname is already in use");
    expect_lines(p, "NICK pzbot", NULL);
    feed(p, ":irc.test 433 * pzbot :Nickname is already in use");
    expect_lines(p, "NICK porrazob_", NULL);
    feed(p, ":irc.test 432 * porrazob_ :Erroneous nickname");
    expect_lines(p, "NICK porrazob1", NULL);
    feed(p, ":irc.test 436 * porrazob1 :Nickname collision");
    expect_lines(p, "NICK porrazob2", NULL);
    feed(p, ":irc.test 437 * #chan :Channel is temporarily unavailable");
    expect_lines(p, NULL);
    feed(p, ":irc.test 437 * porrazob2 :Nick is temporarily unavailable");
    expect_lines(p, "NICK porrazob3", NULL);
    char line[IRCP_OUT_MAX + 1];
    int ev = 0, tries = 0;
    while (ev == 0) {
        ev = feed(p, ":irc.test 433 * x :Nickname is already in use");
        while (ircp_pop(p, line, sizeof line) > 0) {
            assert_true(strlen(line) - 5 <= 9);
            assert_memory_equal(line, "NICK porrazo", 12);
            tries++;
        }
    }
    assert_int_equal(ev, IRCP_EV_NICK_GIVEUP);
    assert_int_equal(tries + 6, IRCP_NICK_TRIES_MAX);
    assert_string_equal(ircp_nick(p), "porrazo29");
    ircp_free(p);
}

static void test_welcome_gives_the_real_nick_and_later_refusals_keep_it(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    feed(p, ":irc.test 433 * porrazo :Nickname is already in use");
    expect_lines(p, "NICK pzbot", NULL);
    assert_string_equal(ircp_nick(p), "pzbot");
    assert_int_equal(feed(p, ":irc.test 001 PzBot :Welcome"),
                     IRCP_EV_WELCOME | IRCP_EV_NICK | IRCP_EV_IDENTIFY);
    assert_string_equal(ircp_nick(p), "PzBot");
    expect_lines(p, "PRIVMSG NickServ :IDENTIFY porrazo nspass99", NULL);
    assert_int_equal(feed(p, ":irc.test 433 PzBot porrazo :Nickname is already in use"), 0);
    expect_lines(p, NULL);
    assert_string_equal(ircp_nick(p), "PzBot");
    ircp_free(p);
}

static void test_nick_messages_follow_our_nick_under_the_server_casemapping(void **state)
{
    (void)state;
    ircp_config cfg = base_config;
    cfg.nick = "pz[1]";
    ircp *p = session(&cfg);
    feed(p, ":irc.test 001 pz[1] :Welcome");
    assert_int_equal(feed(p, ":other!o@h NICK :pz"), 0);
    assert_int_equal(feed(p, ":PZ{1}!p@h NICK :pz~a"), IRCP_EV_NICK);
    assert_string_equal(ircp_nick(p), "pz~a");
    assert_int_equal(feed(p, ":PZ^A!p@h NICK pz^b"), IRCP_EV_NICK); /* rfc1459: ~ is ^ */
    feed(p, ":irc.test 005 pz^b CASEMAPPING=ascii :are supported by this server");
    assert_int_equal(feed(p, ":PZ~B!p@h NICK x"), 0);
    assert_int_equal(feed(p, ":PZ^B!p@h NICK x"), IRCP_EV_NICK);
    assert_string_equal(ircp_nick(p), "x");
    ircp_free(p);
}

static void test_nicklen_from_isupport_bounds_the_nicks_of_the_next_connection(void **state)
{
    (void)state;
    ircp_config cfg = base_config;
    cfg.alt_nicks[0] = NULL;
    ircp *p = session(&cfg);
    assert_int_equal(ircp_nicklen(p), IRCP_NICKLEN_DEFAULT);
    feed(p, ":irc.test 001 porrazo :Welcome");
    feed(p, ":irc.test 005 porrazo CHANTYPES=# NICKLEN=5 :are supported by this server");
    assert_int_equal(ircp_nicklen(p), 5);
    assert_int_equal(ircp_connect(p, 5000), 0);
    expect_lines(p, "CAP LS 302", "NICK porrazo", "USER porrazo 0 * :Porrazo card games", NULL);
    feed(p, ":irc.test 433 * porrazo :in use");
    feed(p, ":irc.test 433 * porr_ :in use");
    expect_lines(p, "NICK porr_", "NICK porr1", NULL);
    feed(p, ":irc.test 005 porr1 NICKLEN=999999999 :are supported");
    assert_int_equal(ircp_nicklen(p), 5); /* garbage is ignored */
    feed(p, ":irc.test 005 porr1 NICKLEN=200 :are supported");
    assert_int_equal(ircp_nicklen(p), IRCP_NICK_MAX - 1);
    ircp_free(p);
}

/* ------------------------------------------------------------------------ */
/* ISUPPORT                                                                 */

static void test_channels_are_told_by_the_server_chantypes(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    assert_string_equal(ircp_chantypes(p), "#&");
    assert_true(ircp_is_channel(p, "#porrazo"));
    assert_true(ircp_is_channel(p, "&local"));
    assert_false(ircp_is_channel(p, "+modeless"));
    assert_false(ircp_is_channel(p, "alice"));
    assert_false(ircp_is_channel(p, ""));
    assert_false(ircp_is_channel(p, NULL));
    feed(p, ":irc.test 005 porrazo SAFELIST CHANTYPES=#+ PREFIX=(ov)@+ :are supported");
    assert_true(ircp_is_channel(p, "+modeless"));
    assert_false(ircp_is_channel(p, "&local"));
    feed(p, ":irc.test 005 porrazo CHANTYPES= :are supported");
    assert_false(ircp_is_channel(p, "#porrazo"));
    feed(p, ":irc.test 005 porrazo -CHANTYPES :are supported");
    assert_string_equal(ircp_chantypes(p), "#&");
    feed(p, ":irc.test 005 porrazo CHANTYPES=#&+!abcdefghijklmnop :are supported");
    assert_string_equal(ircp_chantypes(p), "#&"); /* too long to keep */
    ircp_free(p);
}

static void test_casemapping_compares_names_as_the_server_does(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    assert_int_equal(ircp_casecmp(p, "Nick[]\\~", "nick{}|^"), 0);
    feed(p, ":irc.test 005 porrazo CASEMAPPING=strict-rfc1459 :are supported");
    assert_int_equal(ircp_casecmp(p, "Nick[]\\", "nick{}|"), 0);
    assert_int_not_equal(ircp_casecmp(p, "a~", "a^"), 0);
    feed(p, ":irc.test 005 porrazo CASEMAPPING=ascii :are supported");
    assert_int_equal(ircp_casecmp(p, "NICK", "nick"), 0);
    assert_int_not_equal(ircp_casecmp(p, "a[", "a{"), 0);
    feed(p, ":irc.test 005 porrazo CASEMAPPING=rfc1459 :are supported");
    assert_int_equal(ircp_casecmp(p, "a[", "a{"), 0);
    feed(p, ":irc.test 005 porrazo CASEMAPPING=rfc7613 :are supported");
    assert_int_not_equal(ircp_casecmp(p, "a[", "a{"), 0); /* unknown: fold the least */
    ircp_free(p);
}

/* ------------------------------------------------------------------------ */
/* Accounts and player ids                                                  */

static void test_extended_join_and_account_notify_give_account_player_ids(void **state)
{
    (void)state;
    ircp *p = registered_with_account_caps();
    feed(p, ":Alice!a@h JOIN #porrazo Alice :Alice Liddell");
    feed(p, ":bob!b@h JOIN #porrazo * :Bob");
    assert_string_equal(ircp_account_of(p, "alice"), "Alice");
    assert_null(ircp_account_of(p, "bob"));
    assert_string_equal(id_of(p, "ALICE"), "a:alice");
    assert_string_equal(id_of(p, "Bob"), "n:bob");
    feed(p, ":bob!b@h ACCOUNT bobby");
    assert_string_equal(id_of(p, "bob"), "a:bobby");
    feed(p, ":bob!b@h ACCOUNT *");
    assert_string_equal(id_of(p, "bob"), "n:bob");
    feed(p, ":Alice!a@h NICK :Alicia");
    assert_string_equal(id_of(p, "alicia"), "a:alice");
    assert_string_equal(id_of(p, "alice"), "n:alice");
    /* a nick spelled like an account is another player */
    feed(p, ":carol!c@h JOIN #porrazo alice :Carol");
    assert_string_equal(id_of(p, "carol"), "a:alice");
    assert_string_equal(id_of(p, "alice"), "n:alice");
    char small[4];
    assert_int_equal(ircp_player_id(p, "alicia", small, sizeof small), IRCP_ENOSPACE);
    assert_string_equal(small, "");
    assert_int_equal(ircp_player_id(p, "", small, sizeof small), IRCP_EINVAL);
    ircp_free(p);
}

static void test_departures_forget_accounts_so_a_nick_cannot_inherit_one(void **state)
{
    (void)state;
    ircp *p = registered_with_account_caps();
    feed(p, ":a!a@h JOIN #g acct_a :A");
    feed(p, ":b!b@h JOIN #g acct_b :B");
    feed(p, ":c!c@h JOIN #g acct_c :C");
    feed(p, ":d!d@h JOIN #g acct_d :D");
    feed(p, ":a!a@h QUIT :bye");
    feed(p, ":b!b@h PART #g");
    feed(p, ":op!o@h KICK #g c :out");
    assert_string_equal(id_of(p, "a"), "n:a");
    assert_string_equal(id_of(p, "b"), "n:b");
    assert_string_equal(id_of(p, "c"), "n:c");
    assert_string_equal(id_of(p, "d"), "a:acct_d");
    feed(p, ":e!e@h NICK d"); /* we never saw e; d's old entry must not stick to the new d */
    assert_string_equal(id_of(p, "d"), "n:d");
    feed(p, ":f!f@h JOIN #g acct_f :F");
    feed(p, ":porrazo!p@h PART #g");
    assert_string_equal(id_of(p, "f"), "n:f");
    feed(p, ":f!f@h JOIN #g acct_f :F");
    assert_int_equal(ircp_connect(p, 2000), 0);
    assert_string_equal(id_of(p, "f"), "n:f");
    ircp_free(p);
}

static void test_join_lines_give_no_account_without_the_capability(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    feed(p, ":irc.test CAP * LS :multi-prefix");
    feed(p, ":irc.test 001 porrazo :Welcome");
    feed(p, ":mallory!m@h JOIN #g alice :spoof");
    feed(p, ":mallory!m@h ACCOUNT alice");
    assert_string_equal(id_of(p, "mallory"), "n:mallory");
    ircp_free(p);
}

static void test_the_account_map_is_bounded_and_drops_the_least_recently_used(void **state)
{
    (void)state;
    ircp *p = registered_with_account_caps();
    char line[128], nick[32];
    for (int i = 0; i < IRCP_ACCOUNTS_MAX; i++) {
        snprintf(line, sizeof line, ":n%d!u@h JOIN #g acct%d :x", i, i);
        feed(p, line);
    }
    assert_string_equal(id_of(p, "n0"), "a:acct0"); /* n0 is now the most recent */
    feed(p, ":newcomer!u@h JOIN #g newacct :x");
    assert_string_equal(id_of(p, "newcomer"), "a:newacct");
    assert_string_equal(id_of(p, "n0"), "a:acct0");
    assert_string_equal(id_of(p, "n1"), "n:n1"); /* the least recently used went */
    for (int i = 2; i < IRCP_ACCOUNTS_MAX; i++) {
        snprintf(nick, sizeof nick, "n%d", i);
        snprintf(line, sizeof line, "a:acct%d", i);
        assert_string_equal(id_of(p, nick), line);
    }
    feed(p,
         ":long!u@h JOIN #g aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa :x");
    assert_string_equal(id_of(p, "long"), "n:long"); /* never a truncated account */
    ircp_free(p);
}

/* ------------------------------------------------------------------------ */
/* user@host masks: who keeps a nick's seat without services                */

/* The mask ircp_mask_of makes of origin, "" when it refuses it. */
static const char *mask_of(const char *origin)
{
    static char out[IRCP_MASK_MAX];
    if (ircp_mask_of(origin, out, sizeof out) != 0)
        assert_string_equal(out, "");
    return out;
}

/* Whether origins a and b are the same person by the matching rule. */
static bool same_person(const char *a, const char *b)
{
    char x[IRCP_MASK_MAX], y[IRCP_MASK_MAX];
    if (ircp_mask_of(a, x, sizeof x) != 0 || ircp_mask_of(b, y, sizeof y) != 0)
        return false;
    return ircp_mask_same(x, y);
}

static void test_a_mask_drops_the_unverified_ident_tilde_and_folds_case(void **state)
{
    (void)state;
    assert_string_equal(mask_of("Bob!~Bob@Host.Example.NET"), "bob@host.example.net");
    assert_string_equal(mask_of("bob!bob@127.0.0.1"), "bob@127.0.0.1");
    assert_string_equal(mask_of("bob!~pz@user/bob"), "pz@user/bob");
    assert_string_equal(mask_of("bob!u@2001:DB8::1"), "u@2001:db8::1");
}

static void test_an_origin_without_user_and_host_has_no_mask(void **state)
{
    (void)state;
    const char *bad[] = {"",           "bob",       "irc.server.test", "bob!user",    "bob!@host",
                         "bob!~@host", "bob!user@", "bob!us er@host",  "bob!u@h\x01", NULL};
    char out[IRCP_MASK_MAX];
    for (int i = 0; bad[i] != NULL; i++) {
        assert_int_equal(ircp_mask_of(bad[i], out, sizeof out), IRCP_EINVAL);
        assert_string_equal(out, "");
    }
    assert_int_equal(ircp_mask_of(NULL, out, sizeof out), IRCP_EINVAL);
    char small[8];
    assert_int_equal(ircp_mask_of("bob!user@host.example", small, sizeof small), IRCP_ENOSPACE);
    assert_string_equal(small, ""); /* never cut: a cut mask could be someone else's */
    assert_false(ircp_mask_same("", "u@h"));
    assert_false(ircp_mask_same("u@h", "nomask"));
    assert_false(ircp_mask_same(NULL, "u@h"));
}

static void test_the_same_user_and_host_is_the_same_player_with_or_without_ident(void **state)
{
    (void)state;
    assert_true(same_person("bob!~pzbob@localhost", "bob!~pzbob@localhost"));
    assert_true(same_person("bob!~pzbob@localhost", "bob!pzbob@LOCALHOST")); /* identd came back */
    assert_true(same_person("bob!~bob@user/bob", "bobby!bob@user/bob")); /* the nick is not part */
}

static void test_another_user_or_another_host_is_someone_else(void **state)
{
    (void)state;
    /* The impostor on the same machine or NAT sets another USER... */
    assert_false(same_person("bob!~pzbob@localhost", "bob!~evil@localhost"));
    assert_false(same_person("bob!~pzbob@localhost", "bob!~pzbob2@localhost"));
    /* ...and from elsewhere has another host, IPv4, reverse name or cloak. */
    assert_false(same_person("bob!~pzbob@192.0.2.10", "bob!~pzbob@192.0.2.11"));
    assert_false(same_person("bob!~u@c-1-2-3-4.isp.example", "bob!~u@c-1-2-3-5.isp.example"));
    assert_false(same_person("bob!u@user/bob", "bob!u@user/bobby"));
    assert_false(same_person("bob!u@ABCD1234.5678EF.IP", "bob!u@ABCD1234.5678EE.IP"));
    /* A host is not matched by a suffix or a prefix of it. */
    assert_false(same_person("bob!u@host.example", "bob!u@evil-host.example"));
    assert_false(same_person("bob!u@host.example", "bob!u@host.example.evil"));
}

static void test_ipv6_hosts_match_within_one_slash_64(void **state)
{
    (void)state;
    /* Privacy extensions: a new interface id in the same /64, the same line. */
    assert_true(same_person("bob!u@2001:db8:1:2:a1b2:c3d4:e5f6:1", "bob!u@2001:db8:1:2::99"));
    assert_true(same_person("bob!u@2001:DB8:0001:0002::1", "bob!u@2001:db8:1:2:ffff::"));
    assert_true(same_person("bob!u@0::1", "bob!u@::2")); /* the server's leading 0 */
    /* Another /64, or another user, is someone else. */
    assert_false(same_person("bob!u@2001:db8:1:2::1", "bob!u@2001:db8:1:3::1"));
    assert_false(same_person("bob!u@2001:db8:1:2::1", "bob!v@2001:db8:1:2::1"));
    /* Colons in a cloak make no address: compared whole. */
    assert_false(same_person("bob!u@A1B2:C3D4:E5F6:IP", "bob!u@A1B2:C3D4:E5F7:IP"));
    assert_true(same_person("bob!u@A1B2:C3D4:E5F6:IP", "bob!u@a1b2:c3d4:e5f6:ip"));
    /* An IPv4 address never matches an IPv6 one. */
    assert_false(same_person("bob!u@192.0.2.1", "bob!u@::ffff:192.0.2.1"));
}

/* ------------------------------------------------------------------------ */
/* Liveness                                                                 */

static void test_ping_is_answered_with_the_same_token(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    feed(p, "PING :irc.test");
    feed(p, "@tag=x PING :token with spaces");
    feed(p, ":irc.test PING abc");
    expect_lines(p, "PONG :irc.test", "PONG :token with spaces", "PONG :abc", NULL);
    ircp_free(p);
}

static void test_an_idle_link_gets_our_ping_and_is_dead_without_an_answer(void **state)
{
    (void)state;
    ircp *p = session(&base_config); /* connected at 0 */
    assert_int_equal(ircp_tick(p, 0), 0);
    feed_at(p, ":irc.test 001 porrazo :Welcome", 10000); /* negotiation timer off */
    expect_lines(p, "PRIVMSG NickServ :IDENTIFY porrazo nspass99", NULL);
    int64_t idle = 10000 + IRCP_PING_IDLE_MS;
    assert_int_equal(ircp_next_tick(p), idle);
    assert_int_equal(ircp_tick(p, idle - 1), 0);
    expect_lines(p, NULL);
    assert_int_equal(ircp_tick(p, idle), 0);
    expect_lines(p, "PING :porrazo-1", NULL);
    assert_int_equal(ircp_next_tick(p), idle + IRCP_PING_TIMEOUT_MS);
    assert_int_equal(ircp_tick(p, idle + 1000), 0);
    expect_lines(p, NULL); /* one PING at a time */
    assert_int_equal(ircp_tick(p, idle + IRCP_PING_TIMEOUT_MS - 1), 0);
    assert_int_equal(ircp_tick(p, idle + IRCP_PING_TIMEOUT_MS), IRCP_EV_DEAD);
    assert_int_equal(ircp_tick(p, idle + IRCP_PING_TIMEOUT_MS + 5), IRCP_EV_DEAD);
    assert_non_null(strstr(ircp_diag(p), "dead"));

    /* any line in time keeps the link alive, even one that does not parse */
    assert_int_equal(ircp_connect(p, 0), 0);
    ircp_tick(p, IRCP_PING_IDLE_MS);
    assert_int_equal(ircp_feed(p, "\0garbage", 8, IRCP_PING_IDLE_MS + 500, NULL), IRCP_EBADBYTE);
    assert_int_equal(ircp_tick(p, IRCP_PING_IDLE_MS + IRCP_PING_TIMEOUT_MS), 0);
    assert_int_equal(ircp_next_tick(p), 2 * IRCP_PING_IDLE_MS + 500);
    ircp_free(p);
}

static void test_the_server_closing_the_link_is_reported(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    assert_int_equal(feed(p, "ERROR :Closing Link: porrazo (Ping timeout)"), IRCP_EV_ERROR);
    assert_non_null(strstr(ircp_diag(p), "Ping timeout"));
    ircp_free(p);
}

/* ------------------------------------------------------------------------ */
/* Back-off                                                                 */

static void test_backoff_doubles_from_two_seconds_to_five_minutes_with_jitter(void **state)
{
    (void)state;
    ircp_backoff b;
    ircp_rng r1, r2;
    ircp_backoff_init(&b);
    ircp_rng_seed(&r1, 42);
    int64_t nominal = IRCP_BACKOFF_MIN_MS, seq[20];
    for (int i = 0; i < 20; i++) {
        int64_t d = ircp_backoff_next(&b, 0, &r1);
        seq[i] = d;
        assert_true(d <= nominal && d >= nominal - nominal / 4);
        assert_true(d >= 1500 && d <= IRCP_BACKOFF_MAX_MS);
        nominal = nominal * 2 > IRCP_BACKOFF_MAX_MS ? IRCP_BACKOFF_MAX_MS : nominal * 2;
    }
    assert_true(seq[19] >= IRCP_BACKOFF_MAX_MS * 3 / 4);
    ircp_backoff_init(&b); /* the same seed gives the same delays */
    ircp_rng_seed(&r2, 42);
    for (int i = 0; i < 20; i++)
        assert_int_equal(ircp_backoff_next(&b, 0, &r2), seq[i]);
    ircp_rng_seed(&r2, 43);
    ircp_backoff_init(&b);
    int same = 0;
    for (int i = 0; i < 20; i++)
        same += ircp_backoff_next(&b, 0, &r2) == seq[i];
    assert_true(same < 20);
}

static void test_backoff_starts_again_only_after_a_link_that_stayed_up(void **state)
{
    (void)state;
    ircp_backoff b;
    ircp_rng r;
    ircp_backoff_init(&b);
    ircp_rng_seed(&r, 7);
    for (int i = 0; i < 6; i++)
        ircp_backoff_next(&b, 0, &r);
    ircp_backoff_up(&b, 1000); /* up for a minute only */
    int64_t d = ircp_backoff_next(&b, 61000, &r);
    assert_true(d >= 96000 && d <= 128000);
    ircp_backoff_up(&b, 100000); /* up for five minutes */
    d = ircp_backoff_next(&b, 100000 + IRCP_BACKOFF_STABLE_MS, &r);
    assert_true(d >= 1500 && d <= IRCP_BACKOFF_MIN_MS);
    d = ircp_backoff_next(&b, 900000, &r); /* down since: no reset without a new up */
    assert_true(d >= 3000 && d <= 4000);
}

/* ------------------------------------------------------------------------ */
/* Secrets                                                                  */

/* Renders line for the log and checks it holds no secret of base_config. */
static void check_log_is_clean(const char *line)
{
    char out[IRCP_LOG_MAX];
    ircp_log_line(line, strlen(line), out, sizeof out);
    static const char *const secrets[] = {SASL_PASS, SASL_B64, "nspass99", "letmein", "AGppbGxl"};
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
        if (strstr(out, secrets[i]) != NULL)
            fail_msg("secret '%s' in log line '%s'", secrets[i], out);
}

static void test_log_lines_mask_pass_authenticate_identify_and_oper(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"PASS :letmein", "PASS ***"},
        {"pass letmein", "pass ***"},
        {"AUTHENTICATE PLAIN", "AUTHENTICATE PLAIN"},
        {"AUTHENTICATE +", "AUTHENTICATE +"},
        {"AUTHENTICATE *", "AUTHENTICATE *"},
        {"AUTHENTICATE " SASL_B64, "AUTHENTICATE ***"},
        {"AUTHENTICATE PLAINX", "AUTHENTICATE ***"},
        {"PRIVMSG NickServ :IDENTIFY porrazo nspass99", "PRIVMSG NickServ :IDENTIFY ***"},
        {"privmsg nickserv@services.test :identify nspass99",
         "privmsg nickserv@services.test :identify ***"},
        {"PRIVMSG ns@services.test :IDENTIFY porrazo nspass99",
         "PRIVMSG ns@services.test :IDENTIFY ***"},
        {"NOTICE NICKSERV :GHOST porrazo nspass99", "NOTICE NICKSERV :GHOST ***"},
        {"NICKSERV IDENTIFY nspass99", "NICKSERV IDENTIFY ***"},
        {"NS identify nspass99", "NS identify ***"},
        {"IDENTIFY nspass99", "IDENTIFY ***"},
        {"OPER admin letmein", "OPER admin ***"},
        {"@a=b :me!u@h PASS letmein\r\n", "@a=b :me!u@h PASS ***"},
        {"PRIVMSG #porrazo :IDENTIFY is a word", "PRIVMSG #porrazo :IDENTIFY is a word"},
        {":NickServ!s@services NOTICE porrazo :You are now identified",
         ":NickServ!s@services NOTICE porrazo :You are now identified"},
        {"PRIVMSG #a :\x03"
         "04red\x07\x7f",
         "PRIVMSG #a :?04red??"},
        {"PASS", "PASS"},
    };
    char out[IRCP_LOG_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(ircp_log_line(cases[i][0], strlen(cases[i][0]), out, sizeof out), 0);
        assert_string_equal(out, cases[i][1]);
    }
    const char *line = "PASS :letmein";
    for (size_t cap = 1; cap < 12; cap++) {
        int err = ircp_log_line(line, strlen(line), out, cap);
        assert_true(strlen(out) < cap);
        assert_null(strstr(out, "let"));
        assert_int_equal(err, cap >= 9 ? 0 : IRCP_ENOSPACE);
    }
    assert_int_equal(ircp_log_line(line, strlen(line), out, 0), IRCP_ENOSPACE);
}

static void test_secrets_never_reach_logs_or_diagnostics(void **state)
{
    (void)state;
    static const char *const script[] = {
        ":irc.test CAP * LS :sasl",
        ":irc.test CAP * ACK :sasl",
        "AUTHENTICATE +",
        ":irc.test 904 porrazo :SASL authentication failed",
        ":irc.test 001 porrazo :Welcome",
    };
    ircp_config cfg = base_config;
    cfg.server_pass = "letmein";
    ircp *p = NULL;
    assert_int_equal(ircp_new(&cfg, &p, NULL, 0), 0);
    assert_int_equal(ircp_connect(p, 0), 0);
    char line[IRCP_OUT_MAX + 1];
    int sent = 0;
    for (size_t i = 0; i <= sizeof script / sizeof script[0]; i++) {
        if (i > 0)
            feed(p, script[i - 1]);
        check_log_is_clean(ircp_diag(p));
        while (ircp_pop(p, line, sizeof line) > 0) {
            check_log_is_clean(line);
            sent++;
        }
    }
    assert_int_equal(sent, 9);
    ircp_free(p);

    char why[IRCP_DIAG_MAX];
    cfg.sasl_pass = "sesame\r\nQUIT";
    assert_int_equal(ircp_new(&cfg, &p, why, sizeof why), IRCP_ECONFIG);
    assert_non_null(strstr(why, "sasl_pass"));
    assert_null(strstr(why, "sesame"));
}

static void test_a_bad_configuration_is_refused_naming_the_field(void **state)
{
    (void)state;
    static const struct {
        const char *field, *value;
    } bad[] = {
        {"nick", ""},          {"nick", "9lives"},   {"nick", "a b"},
        {"nick", "#chan"},     {"alt_nicks", "x\r"}, {"user", "a@b"},
        {"realname", "x\ny"},  {"sasl_user", "a b"}, {"nickserv_pass", "two words"},
        {"server_pass", "\r"}, {"sasl_pass", ""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ircp_config cfg = base_config;
        if (strcmp(bad[i].field, "nick") == 0)
            cfg.nick = bad[i].value;
        else if (strcmp(bad[i].field, "alt_nicks") == 0)
            cfg.alt_nicks[1] = bad[i].value;
        else if (strcmp(bad[i].field, "user") == 0)
            cfg.user = bad[i].value;
        else if (strcmp(bad[i].field, "realname") == 0)
            cfg.realname = bad[i].value;
        else if (strcmp(bad[i].field, "sasl_user") == 0)
            cfg.sasl_user = bad[i].value;
        else if (strcmp(bad[i].field, "nickserv_pass") == 0)
            cfg.nickserv_pass = bad[i].value;
        else if (strcmp(bad[i].field, "server_pass") == 0)
            cfg.server_pass = bad[i].value;
        else
            cfg.sasl_pass = bad[i].value;
        ircp *p = NULL;
        char why[IRCP_DIAG_MAX];
        assert_int_equal(ircp_new(&cfg, &p, why, sizeof why), IRCP_ECONFIG);
        assert_null(p);
        if (strncmp(why, bad[i].field, strlen(bad[i].field)) != 0)
            fail_msg("case %zu: '%s' does not name %s", i, why, bad[i].field);
    }
    ircp_config cfg = base_config;
    cfg.nicklen = 64;
    ircp *p = NULL;
    assert_int_equal(ircp_new(&cfg, &p, NULL, 0), IRCP_ECONFIG);
    cfg.nicklen = 0;
    cfg.ping_idle_ms = -1;
    assert_int_equal(ircp_new(&cfg, &p, NULL, 0), IRCP_ECONFIG);
    assert_null(p);
    ircp_free(NULL);
}

static void test_the_queue_keeps_a_line_for_a_bigger_buffer_and_reports_when_full(void **state)
{
    (void)state;
    ircp *p = session(&base_config);
    feed(p, "PING :a-rather-long-token");
    char small[8], line[IRCP_OUT_MAX + 1];
    assert_int_equal(ircp_pop(p, small, sizeof small), IRCP_ENOSPACE);
    assert_int_equal(ircp_pending(p), 1);
    assert_int_equal(ircp_pop(p, line, sizeof line), 25);
    assert_string_equal(line, "PONG :a-rather-long-token");
    int err = 0;
    for (int i = 0; i <= IRCP_QUEUE_MAX && err == 0; i++)
        err = ircp_feed(p, "PING :x", 7, 0, NULL);
    assert_int_equal(err, IRCP_EFULL);
    assert_int_equal(ircp_pending(p), IRCP_QUEUE_MAX);
    static char huge[600];
    memset(huge, 'x', sizeof huge - 1);
    memcpy(huge, "PING :", 6);
    while (ircp_pop(p, line, sizeof line) > 0)
        ;
    assert_int_equal(feed(p, huge), 0); /* a token too long to echo is not answered cut */
    assert_int_equal(ircp_pending(p), 0);
    ircp_free(p);
}

/* ------------------------------------------------------------------------ */
/* Robustness                                                               */

/* A random line: mostly IRC-ish bytes, sometimes any byte, sometimes very long. */
static size_t random_line(uint64_t *seed, char *buf, size_t cap)
{
    static const char alphabet[] = "@:!# *=+-;,~[]\\PINGCAPLSACKJOIN001433 9059";
    ircp_rng r = {*seed};
    *seed = ircp_rng_next(&r);
    size_t len =
        ircp_rng_next(&r) % 64 == 0 ? (size_t)(ircp_rng_next(&r) % cap) : ircp_rng_next(&r) % 80;
    bool any = ircp_rng_next(&r) % 4 == 0;
    for (size_t i = 0; i < len; i++) {
        uint64_t v = ircp_rng_next(&r);
        buf[i] = any ? (char)(v & 0xFF) : alphabet[v % (sizeof alphabet - 1)];
    }
    return len;
}

static void test_random_bytes_never_break_the_parser_the_session_or_the_log(void **state)
{
    (void)state;
    static char buf[IRCP_LINE_MAX + 64];
    static ircp_msg m;
    char out[IRCP_LOG_MAX], line[IRCP_OUT_MAX + 1];
    ircp *p = session(&base_config);
    uint64_t seed = 12345;
    for (int i = 0; i < 20000; i++) {
        size_t len = random_line(&seed, buf, sizeof buf);
        if (ircp_parse(buf, len, &m) == 0) {
            assert_true(m.nparams >= 0 && m.nparams <= IRCP_PARAMS_MAX);
            assert_true(m.command[0] != '\0');
            for (const char *c = m.command; *c; c++)
                assert_true((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'));
            for (int k = 0; k < m.nparams; k++)
                assert_null(strpbrk(ircp_param(&m, k), "\r\n"));
        }
        int ev = ircp_feed(p, buf, len, i, NULL);
        assert_true(ev >= IRCP_EBADPREFIX);
        ircp_tick(p, i);
        while (ircp_pop(p, line, sizeof line) > 0) {
            assert_true(strlen(line) <= IRCP_OUT_MAX);
            assert_null(strpbrk(line, "\r\n"));
        }
        int err = ircp_log_line(buf, len, out, 1 + i % sizeof out);
        assert_true(err == 0 || err == IRCP_ENOSPACE);
        assert_true(strlen(out) < 1 + i % sizeof out);
        for (const char *c = out; *c; c++)
            assert_true((unsigned char)*c >= 0x20 && *c != 0x7F);
        if (i % 2000 == 0)
            ircp_connect(p, i);
    }
    ircp_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_full_line_splits_into_prefix_command_and_parameters),
        cmocka_unit_test(test_tags_are_skipped_and_repeated_spaces_are_tolerated),
        cmocka_unit_test(test_a_fifteenth_parameter_takes_the_rest_of_the_line),
        cmocka_unit_test(test_bad_lines_are_refused_and_leave_the_message_untouched),
        cmocka_unit_test(test_connecting_sends_cap_ls_302_then_pass_nick_and_user_at_once),
        cmocka_unit_test(test_a_multi_line_cap_ls_is_read_to_its_end_before_requesting),
        cmocka_unit_test(test_only_the_wanted_caps_are_requested_never_one_that_adds_tags),
        cmocka_unit_test(test_sasl_plain_success_sends_the_exact_base64_and_then_cap_end),
        cmocka_unit_test(
            test_sasl_payloads_are_cut_at_400_bytes_with_a_plus_after_a_full_last_piece),
        cmocka_unit_test(test_sasl_failure_falls_back_to_nickserv_identify_after_registration),
        cmocka_unit_test(test_a_refused_request_or_a_server_without_cap_still_registers),
        cmocka_unit_test(test_identify_goes_only_to_the_configured_services_target),
        cmocka_unit_test(test_require_sasl_stops_registration_at_any_sasl_failure),
        cmocka_unit_test(test_an_unexpected_challenge_aborts_sasl_and_ends_negotiation),
        cmocka_unit_test(test_an_unanswered_negotiation_is_ended_by_the_timer),
        cmocka_unit_test(test_caps_offered_later_are_requested_and_deleted_caps_are_dropped),
        cmocka_unit_test(
            test_a_nick_in_use_tries_alternatives_then_underscore_and_digits_within_nicklen),
        cmocka_unit_test(test_welcome_gives_the_real_nick_and_later_refusals_keep_it),
        cmocka_unit_test(test_nick_messages_follow_our_nick_under_the_server_casemapping),
        cmocka_unit_test(test_nicklen_from_isupport_bounds_the_nicks_of_the_next_connection),
        cmocka_unit_test(test_channels_are_told_by_the_server_chantypes),
        cmocka_unit_test(test_casemapping_compares_names_as_the_server_does),
        cmocka_unit_test(test_extended_join_and_account_notify_give_account_player_ids),
        cmocka_unit_test(test_departures_forget_accounts_so_a_nick_cannot_inherit_one),
        cmocka_unit_test(test_join_lines_give_no_account_without_the_capability),
        cmocka_unit_test(test_the_account_map_is_bounded_and_drops_the_least_recently_used),
        cmocka_unit_test(test_a_mask_drops_the_unverified_ident_tilde_and_folds_case),
        cmocka_unit_test(test_an_origin_without_user_and_host_has_no_mask),
        cmocka_unit_test(test_the_same_user_and_host_is_the_same_player_with_or_without_ident),
        cmocka_unit_test(test_another_user_or_another_host_is_someone_else),
        cmocka_unit_test(test_ipv6_hosts_match_within_one_slash_64),
        cmocka_unit_test(test_ping_is_answered_with_the_same_token),
        cmocka_unit_test(test_an_idle_link_gets_our_ping_and_is_dead_without_an_answer),
        cmocka_unit_test(test_the_server_closing_the_link_is_reported),
        cmocka_unit_test(test_backoff_doubles_from_two_seconds_to_five_minutes_with_jitter),
        cmocka_unit_test(test_backoff_starts_again_only_after_a_link_that_stayed_up),
        cmocka_unit_test(test_log_lines_mask_pass_authenticate_identify_and_oper),
        cmocka_unit_test(test_secrets_never_reach_logs_or_diagnostics),
        cmocka_unit_test(test_a_bad_configuration_is_refused_naming_the_field),
        cmocka_unit_test(test_the_queue_keeps_a_line_for_a_bigger_buffer_and_reports_when_full),
        cmocka_unit_test(test_random_bytes_never_break_the_parser_the_session_or_the_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
