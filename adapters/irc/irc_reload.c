/*
 * irc_reload.c — a running IRC network takes a new configuration (SIGHUP).
 *
 * What can change without dropping the link changes at once: channels
 * added are joined and channels removed are parted (their games wait in
 * the database), colours per channel, joining on invite, private messages
 * by NOTICE, and the pacing (the queue and its books are kept). What the
 * link was made with (server, TLS, nicks, passwords, SASL) stays as it is
 * until the next restart, and the log says so. Not here: reading or
 * checking the file (config.c), the host's settings (main.c).
 */
#include <stdio.h>
#include <string.h>

#include "irc.h"
#include "irc_int.h"
#include "log.h"

/* Whether channel name is in c's channel list (the server's casemapping). */
static bool listed(irc_net *n, const cfg_irc *c, const char *name)
{
    for (int i = 0; i < c->nchannels; i++)
        if (ircp_casecmp(n->proto, c->channels[i], name) == 0)
            return true;
    return false;
}

/* Appends the key to list (", "-separated) when a and b differ. */
static void note_diff(bool differ, const char *key, char *list, size_t cap)
{
    size_t len = strlen(list);
    if (differ && len < cap)
        snprintf(list + len, cap - len, "%s%s", len > 0 ? ", " : "", key);
}

/* The keys of the link that differ between a and b, into list. */
static void link_changes(const cfg_irc *a, const cfg_irc *b, char *list, size_t cap)
{
    list[0] = '\0';
    note_diff(strcmp(a->host, b->host) != 0 || a->port != b->port, "host/port", list, cap);
    note_diff(a->tls != b->tls || a->tls_verify != b->tls_verify ||
                  strcmp(a->ca_file, b->ca_file) != 0,
              "tls", list, cap);
    note_diff(strcmp(a->nick, b->nick) != 0 || a->nalt_nicks != b->nalt_nicks ||
                  memcmp(a->alt_nicks, b->alt_nicks, sizeof a->alt_nicks) != 0,
              "nick", list, cap);
    note_diff(strcmp(a->username, b->username) != 0 || strcmp(a->realname, b->realname) != 0,
              "username/realname", list, cap);
    note_diff(strcmp(a->server_password, b->server_password) != 0, "server_password", list, cap);
    note_diff(strcmp(a->sasl_user, b->sasl_user) != 0 ||
                  strcmp(a->sasl_password, b->sasl_password) != 0 ||
                  a->require_sasl != b->require_sasl,
              "sasl", list, cap);
    note_diff(strcmp(a->nickserv_password, b->nickserv_password) != 0 ||
                  strcmp(a->nickserv_target, b->nickserv_target) != 0,
              "nickserv", list, cap);
}

/* Parts the configured channels c no longer lists. */
static void part_removed(irc_net *n, const cfg_irc *c)
{
    for (int i = n->nchans - 1; i >= 0; i--) {
        irc_chan *ch = &n->chans[i];
        if (!ch->configured || listed(n, c, ch->name))
            continue;
        log_msg(LOG_INFO, "%s: leaving %s: no longer in the configuration (a game there waits)",
                n->c.name, ch->name);
        if (ch->joined && ircp_registered(n->proto)) {
            char line[IRC_CHAN_MAX + 48];
            snprintf(line, sizeof line, "PART %s :removed from the bot's configuration", ch->name);
            irc__send_line(n, line);
        }
        irc__chan_forget(n, ch);
    }
}

/* Joins the channels c adds. */
static void join_added(irc_net *n, const cfg_irc *c)
{
    for (int i = 0; i < c->nchannels; i++) {
        irc_chan *ch = irc__chan_find(n, c->channels[i]);
        if (ch != NULL) {
            ch->configured = true; /* an invited channel now configured */
            continue;
        }
        if (irc__chan_add(n, c->channels[i], true) != 0) {
            log_msg(LOG_WARN, "%s: cannot add %s: too many channels", n->c.name, c->channels[i]);
            continue;
        }
        log_msg(LOG_INFO, "%s: joining %s: added to the configuration", n->c.name, c->channels[i]);
        if (ircp_registered(n->proto)) {
            char line[IRC_CHAN_MAX + 8];
            snprintf(line, sizeof line, "JOIN %s", c->channels[i]);
            irc__send_line(n, line);
        }
    }
}

int irc_net_reconfigure(irc_net *n, const cfg_irc *c)
{
    irc_out_pace pace;
    if (irc_out_pace_parse(c->pace, &pace) != 0 ||
        irc_out_set_pace(&n->q, pace, c->burst, c->line_ms) != 0) {
        log_msg(LOG_ERROR, "%s: pace, burst or line_ms out of range: pacing unchanged", n->c.name);
        return -1;
    }
    if (pace == IRC_OUT_PACE_AUTO && n->server_version[0] != '\0')
        (void)irc_out_server_version(&n->q, n->server_version);
    if (strcmp(n->c.pace, c->pace) != 0 || n->c.burst != c->burst || n->c.line_ms != c->line_ms)
        log_msg(LOG_INFO, "%s: pacing as %s", n->c.name, irc_out_pace_name(irc_out_model(&n->q)));
    char later[160];
    link_changes(&n->c, c, later, sizeof later);
    if (later[0] != '\0')
        log_msg(LOG_WARN, "%s: changes to %s take effect at the next restart", n->c.name, later);
    part_removed(n, c);
    bool was_off[IRC_CHANS_MAX];
    for (int i = 0; i < n->nchans; i++)
        was_off[i] = irc__colour_off(n, n->chans[i].name);
    /* the link's keys stay; the rest is the new configuration's */
    cfg_irc kept = n->c;
    n->c = *c;
    memcpy(n->c.host, kept.host, sizeof kept.host);
    n->c.port = kept.port;
    n->c.tls = kept.tls;
    n->c.tls_verify = kept.tls_verify;
    memcpy(n->c.ca_file, kept.ca_file, sizeof kept.ca_file);
    memcpy(n->c.nick, kept.nick, sizeof kept.nick);
    memcpy(n->c.alt_nicks, kept.alt_nicks, sizeof kept.alt_nicks);
    n->c.nalt_nicks = kept.nalt_nicks;
    memcpy(n->c.username, kept.username, sizeof kept.username);
    memcpy(n->c.realname, kept.realname, sizeof kept.realname);
    memcpy(n->c.server_password, kept.server_password, sizeof kept.server_password);
    memcpy(n->c.sasl_user, kept.sasl_user, sizeof kept.sasl_user);
    memcpy(n->c.sasl_password, kept.sasl_password, sizeof kept.sasl_password);
    memcpy(n->c.nickserv_password, kept.nickserv_password, sizeof kept.nickserv_password);
    memcpy(n->c.nickserv_target, kept.nickserv_target, sizeof kept.nickserv_target);
    n->c.require_sasl = kept.require_sasl;
    for (int i = 0; i < n->nchans; i++) /* a channel mode +c stays unless the list changed */
        if (irc__colour_off(n, n->chans[i].name) != was_off[i])
            n->chans[i].colour = !was_off[i];
    join_added(n, c);
    irc__outbox_wake(n);
    return 0;
}
