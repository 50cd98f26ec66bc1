/*
 * irc_proto_users.c — who is who for irc_proto (see irc_proto.h): the
 * server's ISUPPORT (CHANTYPES, NICKLEN, CASEMAPPING), names compared as
 * the server compares them, and the bounded map from nicks to services
 * accounts behind stable player ids, and the user@host masks that bind a
 * player id to a person where there are no accounts.
 *
 * The map holds only what the server is still telling us about: a nick
 * enters it by an extended-join JOIN or an account-notify ACCOUNT naming
 * an account, follows its NICK changes, and leaves it when it logs out,
 * quits, parts or is kicked, when we leave any channel, or at a new
 * connection. Leaving early only makes an id fall back to "n:NICK"; a
 * stale entry could hand an account's seat to whoever takes the nick
 * next. When full, the least recently used entry goes.
 */
#include "irc_proto_int.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* ------------------------------------------------------------------------ */
/* ISUPPORT and case mapping                                                */

void ircp__isupport_reset(ircp *p)
{
    memcpy(p->chantypes, "#&", 3);
    p->nicklen = 0;
    p->casemap = CASEMAP_RFC1459;
}

/* True when s (n bytes) equals the token name word exactly. */
static bool name_is(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && strncmp(s, word, n) == 0;
}

/* CHANTYPES=VALUE: kept when it fits and is printable ("" means no channels). */
static void set_chantypes(ircp *p, const char *value)
{
    size_t n = strlen(value);
    if (n >= sizeof p->chantypes)
        return;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)value[i] <= ' ' || value[i] == 0x7F || value[i] == ',')
            return;
    memcpy(p->chantypes, value, n + 1);
}

/* NICKLEN=N: decimal, clamped to what our nick fields hold; garbage is ignored. */
static void set_nicklen(ircp *p, const char *value)
{
    int v = 0;
    if (value[0] == '\0')
        return;
    for (const char *c = value; *c != '\0'; c++) {
        if (*c < '0' || *c > '9' || v > 100000)
            return;
        v = v * 10 + (*c - '0');
    }
    if (v < 1)
        return;
    p->nicklen = v < IRCP_NICK_MAX - 1 ? v : IRCP_NICK_MAX - 1;
}

/*
 * CASEMAPPING=VALUE. An unknown mapping (rfc7613...) is taken as ascii:
 * folding less than the server only fails to match a name, while folding
 * more could merge two different users.
 */
static void set_casemap(ircp *p, const char *value)
{
    if (strcmp(value, "rfc1459") == 0)
        p->casemap = CASEMAP_RFC1459;
    else if (strcmp(value, "strict-rfc1459") == 0)
        p->casemap = CASEMAP_STRICT_RFC1459;
    else
        p->casemap = CASEMAP_ASCII;
}

void ircp__isupport(ircp *p, const ircp_msg *m)
{
    int last = m->trailing ? m->nparams - 1 : m->nparams; /* the trailing text is not a token */
    for (int i = 1; i < last; i++) {
        const char *tok = ircp_param(m, i);
        bool neg = tok[0] == '-';
        const char *name = tok + neg, *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        const char *value = eq ? eq + 1 : "";
        if (name_is(name, n, "CHANTYPES")) {
            if (neg)
                memcpy(p->chantypes, "#&", 3);
            else
                set_chantypes(p, value);
        } else if (name_is(name, n, "NICKLEN")) {
            if (neg)
                p->nicklen = 0;
            else
                set_nicklen(p, value);
        } else if (name_is(name, n, "CASEMAPPING")) {
            set_casemap(p, neg ? "rfc1459" : value);
        }
    }
}

/* c folded to lower case under casemapping cm. */
static unsigned char fold(enum ircp_casemap cm, unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return (unsigned char)(c - 'A' + 'a');
    if (cm == CASEMAP_ASCII)
        return c;
    if (c == '[' || c == ']' || c == '\\')
        return (unsigned char)(c + 32); /* { } | */
    if (c == '~' && cm == CASEMAP_RFC1459)
        return '^';
    return c;
}

int ircp_casecmp(const ircp *p, const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (;; x++, y++) {
        int d = fold(p->casemap, *x) - fold(p->casemap, *y);
        if (d != 0 || *x == '\0')
            return d;
    }
}

int ircp_fold(const ircp *p, const char *s, char *out, size_t cap)
{
    size_t n = strlen(s);
    if (n >= cap)
        return IRCP_ENOSPACE;
    for (size_t i = 0; i <= n; i++)
        out[i] = (char)fold(p->casemap, (unsigned char)s[i]);
    return 0;
}

bool ircp_is_channel(const ircp *p, const char *target)
{
    return target != NULL && target[0] != '\0' && strchr(p->chantypes, target[0]) != NULL;
}

const char *ircp_chantypes(const ircp *p)
{
    return p->chantypes;
}

int ircp_nicklen(const ircp *p)
{
    return p->nicklen > 0 ? p->nicklen : p->cfg_nicklen;
}

/* ------------------------------------------------------------------------ */
/* Nick -> account                                                          */

/* True when s fits a field of cap bytes and holds no space or control byte. */
static bool clean_name(const char *s, size_t cap)
{
    size_t n = strlen(s);
    if (n == 0 || n >= cap)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] <= ' ' || s[i] == 0x7F)
            return false;
    return true;
}

/* The entry of nick, or NULL. */
static ircp_acct *acct_find(ircp *p, const char *nick)
{
    for (int i = 0; i < IRCP_ACCOUNTS_MAX; i++)
        if (p->accts[i].used != 0 && ircp_casecmp(p, p->accts[i].nick, nick) == 0)
            return &p->accts[i];
    return NULL;
}

static void acct_drop(ircp *p, const char *nick)
{
    ircp_acct *a = acct_find(p, nick);
    if (a != NULL)
        memset(a, 0, sizeof *a);
}

/* A free entry, or else the least recently used one. */
static ircp_acct *acct_slot(ircp *p)
{
    ircp_acct *oldest = &p->accts[0];
    for (int i = 0; i < IRCP_ACCOUNTS_MAX; i++) {
        if (p->accts[i].used == 0)
            return &p->accts[i];
        if (p->accts[i].used < oldest->used)
            oldest = &p->accts[i];
    }
    return oldest;
}

/* Binds nick to account; "*", an empty or an unstorable account drops the entry. */
static void acct_set(ircp *p, const char *nick, const char *account)
{
    if (!clean_name(nick, IRCP_NICK_MAX))
        return;
    if (strcmp(account, "*") == 0 || !clean_name(account, IRCP_ACCOUNT_MAX)) {
        acct_drop(p, nick); /* never a truncated account: it could be someone else's */
        return;
    }
    ircp_acct *a = acct_find(p, nick);
    if (a == NULL)
        a = acct_slot(p);
    memcpy(a->nick, nick, strlen(nick) + 1);
    memcpy(a->account, account, strlen(account) + 1);
    a->used = ++p->acct_clock;
}

/* NICK old -> new_nick: the entry follows; a stale entry of new_nick goes. */
static void acct_rename(ircp *p, const char *old, const char *new_nick)
{
    ircp_acct *a = acct_find(p, old);
    if (a == NULL || ircp_casecmp(p, old, new_nick) != 0)
        acct_drop(p, new_nick);
    if (a == NULL)
        return;
    if (!clean_name(new_nick, IRCP_NICK_MAX))
        memset(a, 0, sizeof *a);
    else
        memcpy(a->nick, new_nick, strlen(new_nick) + 1);
}

void ircp__accounts_clear(ircp *p)
{
    memset(p->accts, 0, sizeof p->accts);
}

/* Someone left a channel (PART, KICK): forget them, or everyone when it is us. */
static void acct_left(ircp *p, const char *nick)
{
    if (ircp_casecmp(p, nick, p->nick) == 0)
        ircp__accounts_clear(p);
    else
        acct_drop(p, nick);
}

void ircp__accounts_on(ircp *p, const ircp_msg *m)
{
    const char *c = m->command;
    if (m->nick[0] == '\0')
        return;
    if (strcmp(c, "JOIN") == 0 && m->nparams >= 2 && (p->caps_enabled & IRCP_CAP_EXTENDED_JOIN))
        acct_set(p, m->nick, ircp_param(m, 1));
    else if (strcmp(c, "ACCOUNT") == 0 && m->nparams >= 1 &&
             (p->caps_enabled & IRCP_CAP_ACCOUNT_NOTIFY))
        acct_set(p, m->nick, ircp_param(m, 0));
    else if (strcmp(c, "NICK") == 0 && m->nparams >= 1)
        acct_rename(p, m->nick, ircp_param(m, 0));
    else if (strcmp(c, "QUIT") == 0)
        acct_drop(p, m->nick);
    else if (strcmp(c, "PART") == 0)
        acct_left(p, m->nick);
    else if (strcmp(c, "KICK") == 0 && m->nparams >= 2)
        acct_left(p, ircp_param(m, 1));
}

const char *ircp_account_of(ircp *p, const char *nick)
{
    ircp_acct *a = nick != NULL ? acct_find(p, nick) : NULL;
    if (a == NULL)
        return NULL;
    a->used = ++p->acct_clock;
    return a->account;
}

int ircp_player_id(ircp *p, const char *nick, char *out, size_t cap)
{
    if (nick == NULL || !clean_name(nick, IRCP_NICK_MAX))
        return IRCP_EINVAL;
    const char *acct = ircp_account_of(p, nick);
    int n = snprintf(out, cap, "%s%s", acct ? "a:" : "n:", acct ? acct : nick);
    if (n < 0 || (size_t)n >= cap) {
        if (cap > 0)
            out[0] = '\0';
        return IRCP_ENOSPACE;
    }
    for (char *c = out + 2; *c != '\0'; c++)
        *c = (char)fold(p->casemap, (unsigned char)*c);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* user@host masks                                                          */

/* ASCII lower case of c (hosts and idents: no server case mapping). */
static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* True when s[0..n) is a non-empty run of bytes a mask may hold. */
static bool mask_part(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] <= ' ' || s[i] == 0x7F || s[i] == '!' || s[i] == '@')
            return false;
    return true;
}

int ircp_mask_of(const char *origin, char *out, size_t cap)
{
    if (cap > 0)
        out[0] = '\0';
    const char *bang = origin != NULL ? strchr(origin, '!') : NULL;
    const char *at = bang != NULL ? strchr(bang + 1, '@') : NULL;
    if (at == NULL)
        return IRCP_EINVAL;
    const char *user = bang + 1, *host = at + 1;
    if (*user == '~')
        user++;
    size_t nuser = (size_t)(at - user), nhost = strlen(host);
    if (!mask_part(user, nuser) || !mask_part(host, nhost))
        return IRCP_EINVAL;
    if (nuser + 1 + nhost >= cap)
        return IRCP_ENOSPACE;
    for (size_t i = 0; i < nuser; i++)
        out[i] = ascii_lower(user[i]);
    out[nuser] = '@';
    for (size_t i = 0; i <= nhost; i++)
        out[nuser + 1 + i] = ascii_lower(host[i]);
    return 0;
}

/*
 * Whether hosts a and b are IPv6 addresses with the same first 64 bits.
 * Servers write a leading "0" before an address that starts with ':'
 * ("0::1"), which inet_pton reads as well; a cloak with colons is no
 * address and compares whole.
 */
static bool same_ipv6_64(const char *a, const char *b)
{
    unsigned char x[16], y[16];
    if (strchr(a, ':') == NULL || strchr(b, ':') == NULL || inet_pton(AF_INET6, a, x) != 1 ||
        inet_pton(AF_INET6, b, y) != 1)
        return false;
    return memcmp(x, y, 8) == 0;
}

bool ircp_mask_same(const char *a, const char *b)
{
    const char *at_a = a != NULL ? strchr(a, '@') : NULL;
    const char *at_b = b != NULL ? strchr(b, '@') : NULL;
    if (at_a == NULL || at_b == NULL || at_a == a || at_b == b || at_a[1] == '\0' ||
        at_b[1] == '\0')
        return false;
    if (at_a - a != at_b - b || strncmp(a, b, (size_t)(at_a - a)) != 0)
        return false;
    return strcmp(at_a + 1, at_b + 1) == 0 || same_ipv6_64(at_a + 1, at_b + 1);
}
