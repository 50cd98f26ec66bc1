/*
 * irc_proto.c — the session of irc_proto (see irc_proto.h; made from its
 * configuration in irc_proto_config.c): registration
 * with CAP LS 302, CAP REQ and SASL PLAIN, the NickServ fallback, our own
 * nick, PING/PONG and the dead-link timer, and the queue of lines to send.
 *
 * A command table maps each server command or numeric to a handler that
 * returns event flags, as Redis maps commands to functions. The queue is
 * a ring of fixed lines; every line is written with a constant format and
 * checked for truncation, and a line that would not fit is never sent cut.
 * Secrets (PASS, the SASL payload, IDENTIFY) pass through the queue and are
 * wiped from it as they are popped, and from the session when it is freed.
 */
#include "irc_proto_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SASL_CHUNK 400 /* AUTHENTICATE payloads are cut into pieces this long */

void ircp__diag(ircp *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(p->diag, sizeof p->diag, fmt, ap);
    va_end(ap);
    if (n < 0) /* a diagnostic cut short (n >= size) is still a diagnostic */
        p->diag[0] = '\0';
    for (char *c = p->diag; *c != '\0'; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7F)
            *c = '?';
}

/* ------------------------------------------------------------------------ */
/* The send queue                                                           */

/*
 * Queues one line written with the constant format fmt. A line longer
 * than IRCP_OUT_MAX is not queued (IRCP_ETOOLONG); a full queue gives
 * IRCP_EFULL. Returns 0 when queued.
 */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
push(ircp *p, const char *fmt, ...)
{
    if (p->qlen == IRCP_QUEUE_MAX) {
        ircp__diag(p, "send queue full: a line was dropped");
        return IRCP_EFULL;
    }
    char *slot = p->queue[(p->qhead + p->qlen) % IRCP_QUEUE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(slot, IRCP_OUT_MAX + 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n > IRCP_OUT_MAX) {
        ircp__wipe(slot, IRCP_OUT_MAX + 1);
        return IRCP_ETOOLONG;
    }
    p->qlen++;
    return 0;
}

int ircp_pop(ircp *p, char *buf, size_t cap)
{
    if (p->qlen == 0)
        return 0;
    char *slot = p->queue[p->qhead];
    size_t n = strlen(slot);
    if (n + 1 > cap)
        return IRCP_ENOSPACE;
    memcpy(buf, slot, n + 1);
    ircp__wipe(slot, IRCP_OUT_MAX + 1);
    p->qhead = (p->qhead + 1) % IRCP_QUEUE_MAX;
    p->qlen--;
    return (int)n;
}

int ircp_pending(const ircp *p)
{
    return p->qlen;
}

/* ------------------------------------------------------------------------ */
/* Nicks                                                                    */

/*
 * Writes nick candidate k into out: the configured nick, its alternatives,
 * then nick + "_", nick + "1", "2"..., the nick cut so that the whole fits
 * NICKLEN. Returns 0, or -1 when there is no candidate k.
 */
static int nick_candidate(const ircp *p, int k, char out[IRCP_NICK_MAX])
{
    if (k < 0 || k >= IRCP_NICK_TRIES_MAX)
        return -1;
    const char *fixed = k == 0 ? p->cfg_nick : k <= p->nalts ? p->cfg_alts[k - 1] : NULL;
    if (fixed != NULL)
        return snprintf(out, IRCP_NICK_MAX, "%s", fixed) < IRCP_NICK_MAX ? 0 : -1;
    int j = k - p->nalts;
    char suffix[16];
    int sl = j == 1 ? snprintf(suffix, sizeof suffix, "_")
                    : snprintf(suffix, sizeof suffix, "%d", j - 1);
    int limit = ircp_nicklen(p);
    if (sl < 0 || sl + 1 > limit)
        return -1;
    int base = (int)strlen(p->cfg_nick);
    if (base + sl > limit)
        base = limit - sl;
    int n = snprintf(out, IRCP_NICK_MAX, "%.*s%s", base, p->cfg_nick, suffix);
    return n > 0 && n < IRCP_NICK_MAX ? 0 : -1;
}

/* 432, 433, 436, 437 before 001: asks for the next candidate, or gives up. */
/* Whether candidate number try repeats an earlier one (nick_ generated
   from the nick can equal a configured alternative). */
static bool tried_before(ircp *p, int try, const char *name)
{
    char earlier[IRCP_NICK_MAX];
    if (ircp_casecmp(p, name, p->nick) == 0)
        return true;
    for (int i = 0; i < try; i++)
        if (nick_candidate(p, i, earlier) == 0 && ircp_casecmp(p, earlier, name) == 0)
            return true;
    return false;
}

static int on_nick_refused(ircp *p, const ircp_msg *m)
{
    const char *refused = m->nparams >= 3 ? ircp_param(m, 1) : p->nick;
    if (strcmp(m->command, "437") == 0 && ircp_is_channel(p, refused))
        return 0; /* a channel temporarily unavailable, not our nick */
    if (p->reg == REG_DONE || p->reg == REG_IDLE) {
        ircp__diag(p, "nick %s refused (%s); keeping %s", refused, m->command, p->nick);
        return 0;
    }
    char next[IRCP_NICK_MAX];
    for (;;) {
        if (nick_candidate(p, ++p->nick_try, next) != 0) {
            ircp__diag(p, "every nick was refused (last %s, %s)", refused, m->command);
            return IRCP_EV_NICK_GIVEUP;
        }
        if (!tried_before(p, p->nick_try, next))
            break;
    }
    ircp__diag(p, "nick %s refused (%s); trying %s", refused, m->command, next);
    memcpy(p->nick, next, sizeof p->nick);
    return push(p, "NICK %s", next);
}

/* True when s can be stored as a nick: non-empty, fits, no space or control byte. */
static bool storable_nick(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= IRCP_NICK_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] <= ' ' || s[i] == 0x7F)
            return false;
    return true;
}

/* Sets our nick to s when it is storable and different. Returns IRCP_EV_NICK or 0. */
static int set_nick(ircp *p, const char *s)
{
    if (!storable_nick(s) || strcmp(s, p->nick) == 0)
        return 0;
    memcpy(p->nick, s, strlen(s) + 1);
    return IRCP_EV_NICK;
}

/* NICK: ours changed when the prefix is our nick. */
static int on_nick(ircp *p, const ircp_msg *m)
{
    if (m->nick[0] == '\0' || ircp_casecmp(p, m->nick, p->nick) != 0)
        return 0;
    return set_nick(p, ircp_param(m, 0));
}

/* ------------------------------------------------------------------------ */
/* Capabilities and SASL                                                    */

/* The only capabilities we ever request: none of them adds message tags. */
static const struct {
    const char *name;
    unsigned bit;
} wanted_caps[] = {
    {"sasl", IRCP_CAP_SASL},
    {"account-notify", IRCP_CAP_ACCOUNT_NOTIFY},
    {"extended-join", IRCP_CAP_EXTENDED_JOIN},
};

/* True when a sasl=VALUE list (comma-separated mechanisms) holds PLAIN; no value: any. */
static bool offers_plain(const char *value, size_t n)
{
    if (n == 0)
        return true;
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && value[e] != ',')
            e++;
        char mech[8];
        if (e - i == 5) {
            memcpy(mech, value + i, 5);
            mech[5] = '\0';
            if (ircp__ascii_eq(mech, "PLAIN"))
                return true;
        }
        i = e + 1;
    }
    return false;
}

/* The bit of the wanted capability name (n bytes), or 0. */
static unsigned cap_bit(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof wanted_caps / sizeof wanted_caps[0]; i++)
        if (strlen(wanted_caps[i].name) == n && strncmp(name, wanted_caps[i].name, n) == 0)
            return wanted_caps[i].bit;
    return 0;
}

/*
 * The wanted-capability bits named in a space-separated list. With ls,
 * tokens are NAME[=VALUE] of an offer (sasl counts only with PLAIN and
 * credentials); without, names with an optional '-' (off) of ACK/DEL,
 * whose bits go to *off when it is given.
 */
static unsigned cap_bits(const ircp *p, const char *list, bool ls, unsigned *off)
{
    unsigned bits = 0;
    for (const char *s = list; *s != '\0';) {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, " ");
        bool minus = !ls && n > 0 && s[0] == '-';
        const char *name = minus ? s + 1 : s;
        size_t len = minus ? n - 1 : n, name_len = strcspn(name, "= ");
        bool has_value = name_len < len;
        if (!has_value)
            name_len = len;
        unsigned bit = cap_bit(name, name_len);
        if (ls && bit == IRCP_CAP_SASL &&
            (p->sasl_user[0] == '\0' || !offers_plain(has_value ? name + name_len + 1 : "",
                                                      has_value ? len - name_len - 1 : 0)))
            bit = 0;
        if (minus && off != NULL)
            *off |= bit;
        else if (!minus)
            bits |= bit;
        s += n;
    }
    return bits;
}

/* Writes the names of bits into out ("sasl extended-join"). */
static void cap_names(unsigned bits, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof wanted_caps / sizeof wanted_caps[0]; i++) {
        if (!(bits & wanted_caps[i].bit))
            continue;
        int k = snprintf(out + n, cap - n, "%s%s", n ? " " : "", wanted_caps[i].name);
        if (k < 0 || (size_t)k >= cap - n)
            return; /* cannot happen: the three names fit any caller's buffer */
        n += (size_t)k;
    }
}

/* Ends negotiation: CAP END, then 001 is what we wait for. */
static int cap_end(ircp *p)
{
    if (p->reg >= REG_WAIT_WELCOME || p->reg == REG_IDLE)
        return 0;
    p->reg = REG_WAIT_WELCOME;
    return push(p, "CAP END");
}

/*
 * SASL will not log us in: notes why when SASL was configured. Returns the
 * events (with IRCP_EV_SASL_STOP under require_sasl, and registration then
 * stays on hold: no CAP END, no IDENTIFY), or 0.
 */
static int sasl_lost(ircp *p, const char *why)
{
    if (p->sasl_user[0] == '\0' || p->sasl_ok || p->sasl_failed)
        return 0;
    p->sasl_failed = true;
    size_t n = strlen(why) < sizeof p->sasl_why ? strlen(why) : sizeof p->sasl_why - 1;
    memcpy(p->sasl_why, why, n);
    p->sasl_why[n] = '\0';
    ircp__diag(p, "SASL log-in failed (%s)", p->sasl_why);
    if (!p->require_sasl)
        return IRCP_EV_SASL_FAILED;
    p->sasl_stop = true;
    return IRCP_EV_SASL_FAILED | IRCP_EV_SASL_STOP;
}

/* After a SASL failure (ev): ends the CAP negotiation, unless require_sasl
   holds registration back. Returns ev or an error. */
static int sasl_end(ircp *p, int ev)
{
    if (p->sasl_stop)
        return ev;
    int err = cap_end(p);
    return err < 0 ? err : ev;
}

/* The last CAP LS line arrived: request what we want of the offer, or end. */
static int after_ls(ircp *p)
{
    int ev = 0;
    if (!(p->caps_offered & IRCP_CAP_SASL))
        ev |= sasl_lost(p, "the server offers no SASL PLAIN");
    if (p->sasl_stop)
        return ev;
    if (p->caps_offered == 0) {
        int err = cap_end(p);
        return err < 0 ? err : ev;
    }
    char names[64];
    cap_names(p->caps_offered, names, sizeof names);
    p->reg = REG_CAP_REQ;
    int err = push(p, "CAP REQ :%s", names);
    return err < 0 ? err : ev;
}

/* CAP ACK in answer to our REQ: SASL if granted, else the end. */
static int after_ack(ircp *p)
{
    if ((p->caps_enabled & IRCP_CAP_SASL) && p->sasl_user[0] != '\0') {
        p->reg = REG_SASL_START;
        return push(p, "AUTHENTICATE PLAIN");
    }
    return sasl_end(p, sasl_lost(p, "the server did not grant sasl"));
}

/* CAP NEW after negotiation: request a newly offered account capability. */
static int on_cap_new(ircp *p, const char *list)
{
    unsigned bits = cap_bits(p, list, true, NULL) & ~IRCP_CAP_SASL & ~p->caps_enabled;
    if (bits == 0 || p->reg < REG_WAIT_WELCOME)
        return 0;
    char names[64];
    cap_names(bits, names, sizeof names);
    return push(p, "CAP REQ :%s", names);
}

/* CAP LS / ACK / NAK / NEW / DEL. */
static int on_cap(ircp *p, const ircp_msg *m)
{
    const char *sub = ircp_param(m, 1), *list = ircp_param(m, m->nparams - 1);
    if (m->nparams < 3)
        return 0;
    if (ircp__ascii_eq(sub, "LS") && p->reg == REG_CAP_LS) {
        p->caps_offered |= cap_bits(p, list, true, NULL);
        bool more = m->nparams >= 4 && strcmp(ircp_param(m, 2), "*") == 0;
        return more ? 0 : after_ls(p);
    }
    if (ircp__ascii_eq(sub, "ACK")) {
        unsigned off = 0, on = cap_bits(p, list, false, &off);
        p->caps_enabled = (p->caps_enabled | on) & ~off;
        return p->reg == REG_CAP_REQ ? after_ack(p) : 0;
    }
    if (ircp__ascii_eq(sub, "NAK") && p->reg == REG_CAP_REQ) {
        ircp__diag(p, "the server refused CAP REQ :%s", list);
        return sasl_end(p, sasl_lost(p, "CAP REQ refused"));
    }
    if (ircp__ascii_eq(sub, "NEW"))
        return on_cap_new(p, list);
    if (ircp__ascii_eq(sub, "DEL"))
        p->caps_enabled &= ~cap_bits(p, list, false, NULL);
    return 0;
}

/* Sends "user\0user\0password" in base64, cut into 400-byte AUTHENTICATE lines. */
static int sasl_send(ircp *p)
{
    unsigned char raw[2 * IRCP_ACCOUNT_MAX + IRCP_SECRET_MAX];
    char b64[(sizeof raw + 2) / 3 * 4 + 1], piece[SASL_CHUNK + 1];
    size_t u = strlen(p->sasl_user), w = strlen(p->sasl_pass), len = 2 * u + 2 + w;
    memcpy(raw, p->sasl_user, u + 1);
    memcpy(raw + u + 1, p->sasl_user, u + 1);
    memcpy(raw + 2 * u + 2, p->sasl_pass, w);
    int n = ircp__base64(raw, len, b64, sizeof b64), err = n < 0 ? n : 0;
    for (int off = 0; err == 0 && off < n; off += SASL_CHUNK) {
        size_t k = (size_t)(n - off) < SASL_CHUNK ? (size_t)(n - off) : SASL_CHUNK;
        memcpy(piece, b64 + off, k);
        piece[k] = '\0';
        err = push(p, "AUTHENTICATE %s", piece);
    }
    if (err == 0 && n % SASL_CHUNK == 0)
        err = push(p, "AUTHENTICATE +");
    ircp__wipe(raw, sizeof raw);
    ircp__wipe(b64, sizeof b64);
    ircp__wipe(piece, sizeof piece);
    p->reg = REG_SASL_SENT;
    return err;
}

/* True while SASL is under way. */
static bool in_sasl(const ircp *p)
{
    return p->reg == REG_SASL_START || p->reg == REG_SASL_SENT;
}

/* AUTHENTICATE from the server: "+" asks for our payload; anything else aborts. */
static int on_authenticate(ircp *p, const ircp_msg *m)
{
    if (p->reg == REG_SASL_START && strcmp(ircp_param(m, 0), "+") == 0)
        return sasl_send(p);
    if (!in_sasl(p))
        return 0;
    int err = push(p, "AUTHENTICATE *");
    int ev = sasl_lost(p, "unexpected AUTHENTICATE challenge");
    return err < 0 ? err : sasl_end(p, ev);
}

/* 903 RPL_SASLSUCCESS. */
static int on_sasl_ok(ircp *p, const ircp_msg *m)
{
    (void)m;
    if (!in_sasl(p))
        return 0;
    p->sasl_ok = true;
    ircp__diag(p, "SASL: logged in");
    return cap_end(p);
}

/* 902, 904..908: SASL failed; the NickServ fallback runs at 001. */
static int on_sasl_failed(ircp *p, const ircp_msg *m)
{
    if (!in_sasl(p))
        return 0;
    return sasl_end(p, sasl_lost(p, m->command));
}

/* 900 RPL_LOGGEDIN "nick nick!user@host account :text" and 901 RPL_LOGGEDOUT. */
static int on_logged(ircp *p, const ircp_msg *m)
{
    if (strcmp(m->command, "901") == 0) {
        p->account[0] = '\0';
        return 0;
    }
    const char *acct = ircp_param(m, 2);
    if (acct[0] == '\0' || strlen(acct) >= sizeof p->account)
        return 0;
    memcpy(p->account, acct, strlen(acct) + 1);
    return IRCP_EV_LOGGED_IN;
}

/* 421 for CAP (a server without CAP) and 410 ERR_INVALIDCAPCMD. */
static int on_cap_refused(ircp *p, const ircp_msg *m)
{
    bool cap = strcmp(m->command, "410") == 0 || ircp__ascii_eq(ircp_param(m, 1), "CAP");
    if (!cap || p->reg == REG_IDLE || p->reg >= REG_WAIT_WELCOME)
        return 0;
    int ev = sasl_lost(p, "the server does not support CAP");
    if (strcmp(m->command, "421") == 0) {
        p->reg = REG_WAIT_WELCOME; /* no CAP END for a server that knows no CAP */
        return ev;
    }
    return sasl_end(p, ev);
}

/* ------------------------------------------------------------------------ */
/* Registration, PING, ERROR                                                */

/*
 * 001: registered under the nick it names; IDENTIFY if SASL did not log us
 * in, and only to the configured services target: a bare "NickServ" on a
 * network without services may be anybody. Ignored after a SASL failure
 * under require_sasl (the adapter is closing the link).
 */
static int on_welcome(ircp *p, const ircp_msg *m)
{
    if (p->sasl_stop)
        return 0;
    int ev = set_nick(p, ircp_param(m, 0));
    if (p->reg == REG_DONE)
        return ev;
    p->reg = REG_DONE;
    ev |= IRCP_EV_WELCOME;
    ircp__diag(p, "registered as %s", p->nick);
    if (!p->sasl_ok && p->account[0] == '\0' && p->nickserv_pass[0] != '\0' &&
        p->nickserv_target[0] != '\0') {
        bool u = p->nickserv_user[0] != '\0';
        int err = push(p, "PRIVMSG %s :IDENTIFY %s%s%s", p->nickserv_target,
                       u ? p->nickserv_user : "", u ? " " : "", p->nickserv_pass);
        if (err < 0)
            return err;
        ircp__diag(p, "registered as %s; identifying to %s", p->nick, p->nickserv_target);
        ev |= IRCP_EV_IDENTIFY;
    }
    return ev;
}

static int on_ping(ircp *p, const ircp_msg *m)
{
    int err = push(p, "PONG :%s", ircp_param(m, 0));
    return err == IRCP_ETOOLONG ? 0 : err; /* a token too long to echo gets no answer */
}

static int on_error(ircp *p, const ircp_msg *m)
{
    ircp__diag(p, "the server closes the link: %s", ircp_param(m, 0));
    return IRCP_EV_ERROR;
}

static int on_isupport(ircp *p, const ircp_msg *m)
{
    ircp__isupport(p, m);
    return 0;
}

/* The command table: what the session acts on. */
static const struct {
    const char *command;
    int (*fn)(ircp *p, const ircp_msg *m);
} handlers[] = {
    {"001", on_welcome},      {"005", on_isupport},     {"410", on_cap_refused},
    {"421", on_cap_refused},  {"432", on_nick_refused}, {"433", on_nick_refused},
    {"436", on_nick_refused}, {"437", on_nick_refused}, {"900", on_logged},
    {"901", on_logged},       {"902", on_sasl_failed},  {"903", on_sasl_ok},
    {"904", on_sasl_failed},  {"905", on_sasl_failed},  {"906", on_sasl_failed},
    {"907", on_sasl_failed},  {"908", on_sasl_failed},  {"AUTHENTICATE", on_authenticate},
    {"CAP", on_cap},          {"ERROR", on_error},      {"NICK", on_nick},
    {"PING", on_ping},
};

int ircp_handle(ircp *p, const ircp_msg *m, int64_t now_ms)
{
    if (p == NULL || m == NULL)
        return IRCP_EINVAL;
    p->last_rx_ms = now_ms;
    p->ping_out = false;
    ircp__accounts_on(p, m);
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
        if (strcmp(m->command, handlers[i].command) == 0)
            return handlers[i].fn(p, m);
    return 0;
}

int ircp_feed(ircp *p, const char *line, size_t len, int64_t now_ms, ircp_msg *m)
{
    if (p == NULL || line == NULL)
        return IRCP_EINVAL;
    p->last_rx_ms = now_ms;
    p->ping_out = false;
    if (m == NULL)
        m = &p->scratch;
    int err = ircp_parse(line, len, m);
    return err < 0 ? err : ircp_handle(p, m, now_ms);
}

int ircp_connect(ircp *p, int64_t now_ms)
{
    ircp__wipe(p->queue, sizeof p->queue);
    p->qhead = p->qlen = 0;
    p->caps_offered = p->caps_enabled = 0;
    p->sasl_ok = p->sasl_failed = p->sasl_stop = false;
    p->sasl_why[0] = '\0';
    p->nick_try = 0;
    memcpy(p->nick, p->cfg_nick, sizeof p->nick);
    p->account[0] = p->diag[0] = '\0';
    p->reg = REG_CAP_LS;
    p->cap_deadline_ms = now_ms + p->cap_timeout_ms;
    p->last_rx_ms = now_ms;
    p->ping_out = false;
    ircp__accounts_clear(p);
    int err = push(p, "CAP LS 302");
    if (err == 0 && p->server_pass[0] != '\0')
        err = push(p, "PASS :%s", p->server_pass);
    if (err == 0)
        err = push(p, "NICK %s", p->nick);
    if (err == 0)
        err = push(p, "USER %s 0 * :%s", p->cfg_user, p->cfg_realname);
    return err;
}

/* ------------------------------------------------------------------------ */
/* Timers                                                                   */

int ircp_tick(ircp *p, int64_t now_ms)
{
    int ev = 0, err = 0;
    if (p->reg == REG_IDLE)
        return 0;
    if (p->reg < REG_WAIT_WELCOME && !p->sasl_stop && now_ms >= p->cap_deadline_ms) {
        if (in_sasl(p))
            err = push(p, "AUTHENTICATE *");
        int lost = sasl_lost(p, "no answer in time");
        ev |= lost;
        if (lost == 0)
            ircp__diag(p, "CAP/SASL unanswered for %lld ms: ending negotiation",
                       (long long)p->cap_timeout_ms);
        if (err == 0 && !p->sasl_stop)
            err = cap_end(p);
    }
    if (p->ping_out && now_ms - p->ping_sent_ms >= p->timeout_ms) {
        ircp__diag(p, "no answer to our PING for %lld ms: the link is dead",
                   (long long)(now_ms - p->ping_sent_ms));
        ev |= IRCP_EV_DEAD;
    } else if (!p->ping_out && now_ms - p->last_rx_ms >= p->idle_ms && err == 0) {
        err = push(p, "PING :porrazo-%u", ++p->ping_seq);
        if (err == 0) {
            p->ping_out = true;
            p->ping_sent_ms = now_ms;
        }
    }
    return err < 0 ? err : ev;
}

int64_t ircp_next_tick(const ircp *p)
{
    if (p->reg == REG_IDLE)
        return INT64_MAX;
    int64_t t = p->ping_out ? p->ping_sent_ms + p->timeout_ms : p->last_rx_ms + p->idle_ms;
    if (p->reg < REG_WAIT_WELCOME && !p->sasl_stop && p->cap_deadline_ms < t)
        t = p->cap_deadline_ms;
    return t;
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */

const char *ircp_nick(const ircp *p)
{
    return p->nick;
}

bool ircp_registered(const ircp *p)
{
    return p->reg == REG_DONE;
}

bool ircp_has_cap(const ircp *p, const char *name)
{
    for (size_t i = 0; i < sizeof wanted_caps / sizeof wanted_caps[0]; i++)
        if (name != NULL && strcmp(name, wanted_caps[i].name) == 0)
            return (p->caps_enabled & wanted_caps[i].bit) != 0;
    return false;
}

const char *ircp_account(const ircp *p)
{
    return p->account;
}

const char *ircp_diag(const ircp *p)
{
    return p->diag;
}

const char *ircp_sasl_failure(const ircp *p)
{
    return p->sasl_failed ? p->sasl_why : "";
}
