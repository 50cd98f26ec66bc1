/*
 * irc_proto_config.c — a session of irc_proto made from its configuration
 * (irc_proto.h: ircp_new, ircp_free): the nicks, the NickServ target and
 * the secrets checked and copied, every one bounded; a configuration that
 * does not fit is refused with the reason, never cut.
 */
#include "irc_proto_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* ------------------------------------------------------------------------ */
/* Configuration                                                            */

/* True when s is a nick we may ask for: RFC 2812 letters, digits and specials. */
static bool valid_nick(const char *s)
{
    static const char special[] = "[]\\`_^{|}";
    size_t n = strlen(s);
    if (n == 0 || n >= IRCP_NICK_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        bool later = (c >= '0' && c <= '9') || c == '-';
        if (!letter && strchr(special, c) == NULL && (i == 0 || !later))
            return false;
    }
    return true;
}

/*
 * Copies src (NULL: "") into dst (cap bytes) when it fits and holds no
 * control byte, and no space unless spaces is true. Returns true if so.
 */
static bool copy_text(char *dst, size_t cap, const char *src, bool spaces)
{
    if (src == NULL)
        src = "";
    size_t n = strlen(src);
    if (n >= cap)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)src[i] < 0x20 || src[i] == 0x7F || (!spaces && src[i] == ' '))
            return false;
    memcpy(dst, src, n + 1);
    return true;
}

/* Says which field is wrong (never its value) and returns IRCP_ECONFIG. */
static int bad_config(char *why, size_t why_len, const char *what)
{
    if (why_len > 0 && snprintf(why, why_len, "%s", what) < 0)
        why[0] = '\0';
    return IRCP_ECONFIG;
}

/* Copies the nicks and names of cfg into p. Returns NULL or what is wrong. */
static const char *config_names(ircp *p, const ircp_config *cfg)
{
    if (cfg->nick == NULL || !valid_nick(cfg->nick))
        return "nick: missing or not a valid IRC nick";
    memcpy(p->cfg_nick, cfg->nick, strlen(cfg->nick) + 1);
    for (int i = 0; i < IRCP_ALT_NICKS_MAX; i++) {
        if (cfg->alt_nicks[i] == NULL)
            continue;
        if (!valid_nick(cfg->alt_nicks[i]))
            return "alt_nicks: not a valid IRC nick";
        memcpy(p->cfg_alts[p->nalts++], cfg->alt_nicks[i], strlen(cfg->alt_nicks[i]) + 1);
    }
    if (!copy_text(p->cfg_user, sizeof p->cfg_user, cfg->user ? cfg->user : cfg->nick, false) ||
        p->cfg_user[0] == '\0' || strchr(p->cfg_user, '@') != NULL)
        return "user: empty, too long, or holds spaces, '@' or control characters";
    if (!copy_text(p->cfg_realname, sizeof p->cfg_realname,
                   cfg->realname ? cfg->realname : "Porrazo bot", true) ||
        p->cfg_realname[0] == '\0')
        return "realname: empty, too long or holds control characters";
    return NULL;
}

/*
 * True when s ("" allowed: none) can be the target of a private IDENTIFY: a
 * nick, or nick@server, never a channel or a list of targets.
 */
static bool valid_target(const char *s)
{
    if (s[0] == '\0')
        return true;
    char nick[IRCP_NICK_MAX];
    size_t n = strcspn(s, "@");
    if (n >= sizeof nick || strchr(s, ',') != NULL || (s[n] == '@' && s[n + 1] == '\0'))
        return false;
    memcpy(nick, s, n);
    nick[n] = '\0';
    return valid_nick(nick);
}

/* Copies the credentials and numbers of cfg into p. Returns NULL or what is wrong. */
static const char *config_secrets(ircp *p, const ircp_config *cfg)
{
    if (!copy_text(p->server_pass, sizeof p->server_pass, cfg->server_pass, true))
        return "server_pass: too long or holds control characters";
    if (!copy_text(p->sasl_user, sizeof p->sasl_user, cfg->sasl_user, false))
        return "sasl_user: too long, or holds spaces or control characters";
    if (!copy_text(p->sasl_pass, sizeof p->sasl_pass, cfg->sasl_pass, true))
        return "sasl_pass: too long or holds control characters";
    if (p->sasl_user[0] != '\0' && p->sasl_pass[0] == '\0')
        return "sasl_pass: missing while sasl_user is set";
    if (!copy_text(p->nickserv_user, sizeof p->nickserv_user, cfg->nickserv_user, false))
        return "nickserv_user: too long, or holds spaces or control characters";
    if (!copy_text(p->nickserv_pass, sizeof p->nickserv_pass, cfg->nickserv_pass, false))
        return "nickserv_pass: too long, or holds spaces or control characters";
    if (!copy_text(p->nickserv_target, sizeof p->nickserv_target, cfg->nickserv_target, false) ||
        !valid_target(p->nickserv_target))
        return "nickserv_target: must be a nick, or nick@server such as "
               "NickServ@services.libera.chat";
    p->require_sasl = cfg->require_sasl;
    if (p->require_sasl && p->sasl_user[0] == '\0')
        return "require_sasl: set, but sasl_user is not: give the account to log in with";
    if (cfg->nicklen < 0 || cfg->nicklen >= IRCP_NICK_MAX)
        return "nicklen: must be 0 (default) or 1..63";
    if (cfg->ping_idle_ms < 0 || cfg->ping_timeout_ms < 0 || cfg->cap_timeout_ms < 0)
        return "timeouts: must be 0 (default) or positive";
    p->cfg_nicklen = cfg->nicklen > 0 ? cfg->nicklen : IRCP_NICKLEN_DEFAULT;
    p->idle_ms = cfg->ping_idle_ms > 0 ? cfg->ping_idle_ms : IRCP_PING_IDLE_MS;
    p->timeout_ms = cfg->ping_timeout_ms > 0 ? cfg->ping_timeout_ms : IRCP_PING_TIMEOUT_MS;
    p->cap_timeout_ms = cfg->cap_timeout_ms > 0 ? cfg->cap_timeout_ms : IRCP_CAP_TIMEOUT_MS;
    return NULL;
}

int ircp_new(const ircp_config *cfg, ircp **out, char *why, size_t why_len)
{
    if (why_len > 0)
        why[0] = '\0';
    if (cfg == NULL || out == NULL)
        return IRCP_EINVAL;
    ircp *p = calloc(1, sizeof *p);
    if (p == NULL)
        return IRCP_ENOMEM;
    const char *wrong = config_names(p, cfg);
    if (wrong == NULL)
        wrong = config_secrets(p, cfg);
    if (wrong != NULL) {
        ircp_free(p);
        return bad_config(why, why_len, wrong);
    }
    memcpy(p->nick, p->cfg_nick, sizeof p->nick);
    ircp__isupport_reset(p);
    p->reg = REG_IDLE;
    *out = p;
    return 0;
}

void ircp_free(ircp *p)
{
    if (p == NULL)
        return;
    ircp__wipe(p, sizeof *p);
    free(p);
}
