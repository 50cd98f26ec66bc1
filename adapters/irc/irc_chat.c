/*
 * irc_chat.c — what people say and do on an IRC network, as irc_event
 * classifies the lines irc_proto parsed: messages to the host, channels
 * joined, left and refused, colours turned off where a channel strips
 * them, invitations, an owner's part (the host's command, irc_net_leave),
 * nick changes that keep seats, quits, who is in a channel we join (WHO),
 * CTCP VERSION. The link and the sending are irc.c's; who is who (player
 * ids) irc_ids.c's.
 */
#include "irc_int.h"

/*
 * libircclient (Debian's 1.9) is a leaf of the adapter, used here only:
 * irc_color_convert_from_mirc renders the mIRC formatting of a kick's
 * reason as markup for the log ("[B]no bots[/B]", "[COLOR=RED]..."), where
 * raw codes would show as '?'. It is a pure function: no session, no
 * socket, never blocks. Its cost: it mallocs the converted copy (two
 * passes over the reason, up to some 30 bytes per colour code), freed at
 * once, when the bot is kicked: never per line. Parsing and dispatching
 * are ours (irc_proto, irc_event); its colour stripping knows fewer codes
 * than the host's text_sanitize, so commands never go through it.
 */
#include <libircclient.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "log.h"

/* ---- Channels ------------------------------------------------------------ */

irc_chan *irc__chan_find(irc_net *n, const char *name)
{
    for (int i = 0; i < n->nchans; i++)
        if (ircp_casecmp(n->proto, n->chans[i].name, name) == 0)
            return &n->chans[i];
    return NULL;
}

/* Whether the configuration turns colours off in channel name. */
bool irc__colour_off(irc_net *n, const char *name)
{
    for (int i = 0; i < n->c.nno_colour; i++)
        if (ircp_casecmp(n->proto, n->c.no_colour[i], name) == 0)
            return true;
    return false;
}

int irc__chan_add(irc_net *n, const char *name, bool configured)
{
    irc_chan *ch = irc__chan_find(n, name);
    if (ch == NULL) {
        if (n->nchans == IRC_CHANS_MAX || strlen(name) >= IRC_CHAN_MAX || name[0] == '\0' ||
            strpbrk(name, " ,\x07") != NULL)
            return -1;
        ch = &n->chans[n->nchans++];
        memset(ch, 0, sizeof *ch);
        snprintf(ch->name, sizeof ch->name, "%s", name);
        ch->colour = !irc__colour_off(n, name);
    }
    ch->configured |= configured;
    return 0;
}

/* Forgets channel ch (an invited one we left). */
static void chan_remove(irc_net *n, irc_chan *ch)
{
    *ch = n->chans[--n->nchans];
}

void irc__chans_down(irc_net *n)
{
    for (int i = 0; i < n->nchans; i++)
        n->chans[i].joined = n->chans[i].lost = false;
    irc__ops_clear(n, NULL); /* learned again from WHO after the rejoin */
}

/* Saves the channels joined by invitation, so a restart rejoins them. */
static void save_invited(irc_net *n)
{
    char list[IRC_CHANS_MAX * IRC_CHAN_MAX] = "";
    size_t len = 0;
    for (int i = 0; i < n->nchans; i++) {
        if (n->chans[i].configured)
            continue;
        int w = snprintf(list + len, sizeof list - len, "%s%s", len ? "," : "", n->chans[i].name);
        if (w > 0 && (size_t)w < sizeof list - len)
            len += (size_t)w;
    }
    if (host_kv_set(n->env.host, n->scope, "invited", list) != 0)
        log_msg(LOG_ERROR, "%s: cannot save the channels: %s", n->c.name, host_errmsg(n->env.host));
}

void irc__chan_forget(irc_net *n, irc_chan *ch)
{
    chan_remove(n, ch);
    save_invited(n);
    irc__outbox_wake(n); /* messages held for it are dropped */
}

void irc__load_invited(irc_net *n)
{
    char list[IRC_CHANS_MAX * IRC_CHAN_MAX];
    if (host_kv_get(n->env.host, n->scope, "invited", list, sizeof list) != 0)
        return;
    for (char *s = list, *e; *s != '\0'; s = *e ? e + 1 : e) {
        e = s + strcspn(s, ",");
        char save = *e;
        *e = '\0';
        (void)irc__chan_add(n, s, false);
        *e = save;
    }
}

void irc__join_all(irc_net *n)
{
    char line[400];
    size_t len = 0;
    for (int i = 0; i <= n->nchans; i++) {
        const char *name = i < n->nchans ? n->chans[i].name : NULL;
        if (len > 0 && (name == NULL || len + strlen(name) + 2 >= sizeof line)) {
            irc__send_line(n, line);
            len = 0;
        }
        if (name != NULL) {
            int w = snprintf(line + len, sizeof line - len, "%s%s", len ? "," : "JOIN ", name);
            if (w > 0 && (size_t)w < sizeof line - len)
                len += (size_t)w;
        }
    }
}

/* ---- Messages -------------------------------------------------------------- */

/*
 * An owner said part (host_config.leave_room, through irc_net_leave):
 * leaves the channel and forgets it until configured or invited again.
 */
int irc_net_leave(irc_net *n, const char *room, const char *by)
{
    irc_chan *ch = irc__chan_find(n, room);
    if (ch == NULL)
        return -1;
    char line[IRCP_OUT_MAX + 1];
    if (snprintf(line, sizeof line, "PART %s :asked by %s", ch->name, by) >= (int)sizeof line)
        snprintf(line, sizeof line, "PART %s", ch->name);
    log_msg(LOG_INFO, "%s: leaving %s, asked by %s", n->c.name, ch->name, by);
    irc__send_line(n, line);
    irc__chan_forget(n, ch);
    return 0;
}

/* A PRIVMSG to a channel we are in or to us: a line for the host. */
static void on_message(irc_net *n, const irc_ev *ev)
{
    const char *target = ev->params[0], *text = ev->params[1];
    if (ev->count < 2 || ev->nick[0] == '\0' ||
        ircp_casecmp(n->proto, ev->nick, ircp_nick(n->proto)) == 0)
        return;
    irc_chan *ch = NULL;
    if (ircp_is_channel(n->proto, target)) {
        ch = irc__chan_find(n, target);
        if (ch == NULL || !ch->joined)
            return;
    }
    char id[IRCP_ID_MAX], mask[IRCP_MASK_MAX];
    (void)ircp_mask_of(ev->origin, mask, sizeof mask);
    if (irc__player_of(n, ev->nick, mask, id, sizeof id) != 0)
        return;
    host_msg m = {.network = n->c.name,
                  .room = ch != NULL ? ch->name : NULL,
                  .sender = id,
                  .nick = ev->nick,
                  .text = text,
                  .len = strlen(text),
                  /* a channel operator may do what a table's creator may */
                  .moderator = ch != NULL && irc__is_op(n, ch->name, ev->nick)};
    if (host_handle(n->env.host, &m, (int64_t)time(NULL)) != 0)
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
}

/* A CTCP request: VERSION is answered (rate-limited), the rest ignored. */
static void on_ctcp(irc_net *n, const irc_ev *ev)
{
    char text[IRC_EV_CTCP_MAX + 3], out[IRC_OUT_VERSION_MAX + 16];
    if (ev->count < 1 || ev->nick[0] == '\0')
        return;
    int w = snprintf(text, sizeof text, "\x01%s\x01", ev->params[0]);
    if (w < 0 || (size_t)w >= sizeof text) /* a body is IRC_EV_CTCP_MAX bytes at most */
        return;
    int v =
        irc_out_ctcp_decide(&n->ctcp, text, loop_now(n->env.loop), n->env.version, out, sizeof out);
    if (v == IRC_OUT_CTCP_REPLY)
        (void)irc_out_push(&n->q, ev->nick, IRC_OUT_NOTICE, 0, 0, out, -1);
}

/*
 * Someone else's JOIN: a player coming back (a reconnect, a netsplit
 * healed) is reachable again under this nick, and if it is their turn in
 * that channel's game they get their turn prompt again. A newcomer on a
 * seated player's nick from another user@host makes that seat unreachable
 * under it, and is not prompted (irc__player_seen: nothing is made).
 */
static void on_join(irc_net *n, const irc_ev *ev)
{
    char id[IRCP_ID_MAX], mask[IRCP_MASK_MAX];
    (void)ircp_mask_of(ev->origin, mask, sizeof mask);
    if (ev->nick[0] == '\0' || irc__player_seen(n, ev->nick, mask, id, sizeof id) != 0)
        return;
    if (host_returned(n->env.host, n->c.name, ev->params[0], id, (int64_t)time(NULL)) != 0)
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
}

/*
 * A WHO reply (352: me, channel, user, host, server, nick, flags, "hops
 * realname") for a channel we joined: whoever holds a seated player's nick
 * there from another user@host gets none of their private lines, even
 * when we missed the quit (our link was down).
 */
static void who_reply(irc_net *n, const irc_ev *ev)
{
    char origin[IRCP_MASK_MAX + IRCP_NICK_MAX], mask[IRCP_MASK_MAX], id[IRCP_ID_MAX];
    if (ev->count < 6 || ircp_casecmp(n->proto, ev->params[5], ircp_nick(n->proto)) == 0)
        return;
    int w =
        snprintf(origin, sizeof origin, "%s!%s@%s", ev->params[5], ev->params[2], ev->params[3]);
    if (ev->count > 6)
        irc__ops_who(n, ev->params[1], ev->params[5], ev->params[6]);
    if (w < 0 || (size_t)w >= sizeof origin || ircp_mask_of(origin, mask, sizeof mask) != 0)
        return;
    (void)irc__player_seen(n, ev->params[5], mask, id, sizeof id);
}

/* Our own JOIN: the channel as the server spells it, and our host. */
static void on_own_join(irc_net *n, const irc_ev *ev)
{
    const char *name = ev->params[0];
    if (irc__chan_find(n, name) == NULL && irc__chan_add(n, name, false) != 0)
        return;
    irc_chan *ch = irc__chan_find(n, name);
    if (ch == NULL)
        return;
    snprintf(ch->name, sizeof ch->name, "%s", name);
    ch->joined = true;
    ch->lost = false;
    irc__ops_clear(n, ch->name); /* the WHO sent on joining tells them again */
    irc__outbox_wake(n);         /* its held messages may go now */
    log_msg(LOG_INFO, "%s: joined %s", n->c.name, ch->name);
    const char *user = strchr(ev->origin, '!'), *at = strchr(ev->origin, '@');
    if (user != NULL && at != NULL && at > user)
        (void)irc_out_set_prefix(&n->q, strlen(ircp_nick(n->proto)), (size_t)(at - user - 1),
                                 strlen(at + 1));
    char line[IRCP_OUT_MAX + 1];
    snprintf(line, sizeof line, "MODE %s", ch->name); /* 324 says whether it strips colours */
    irc__send_line(n, line);
    snprintf(line, sizeof line, "WHO %s", ch->name); /* 352: who holds which nick there */
    irc__send_line(n, line);
}

/* Channel modes: +c strips or blocks colours on the networks we know. */
static void modes_seen(irc_net *n, const char *chan, const char *modes)
{
    irc_chan *ch = irc__chan_find(n, chan);
    if (ch == NULL)
        return;
    bool plus = true;
    for (const char *m = modes; *m != '\0' && *m != ' '; m++) {
        if (*m == '+' || *m == '-')
            plus = *m == '+';
        else if (*m == 'c') {
            bool colour = !plus && !irc__colour_off(n, ch->name);
            if (colour != ch->colour)
                log_msg(LOG_INFO, "%s: colours %s in %s (mode %cc)", n->c.name,
                        colour ? "back on" : "off", ch->name, plus ? '+' : '-');
            ch->colour = colour;
        }
    }
}

/* We were kicked from ch: the log says by whom and why, formatting shown. */
static void kicked(irc_net *n, const irc_chan *ch, const irc_ev *ev)
{
    const char *why = ev->count > 2 ? ev->params[2] : "";
    char *shown = why[0] != '\0' ? irc_color_convert_from_mirc(why) : NULL;
    if (why[0] == '\0')
        log_msg(LOG_WARN, "%s: kicked from %s by %s", n->c.name, ch->name, ev->nick);
    else
        log_msg(LOG_WARN, "%s: kicked from %s by %s: %s", n->c.name, ch->name, ev->nick,
                shown != NULL ? shown : why);
    free(shown);
}

/* Replies of the server that the adapter acts on. */
static void on_numeric(irc_net *n, const irc_ev *ev)
{
    const char *what = ev->count > 1 ? ev->params[1] : "";
    const char *reason = ev->count > 2 ? ev->params[ev->count - 1] : "";
    irc_chan *ch = irc__chan_find(n, what);
    switch (ev->code) {
    case 352: /* RPL_WHOREPLY */
        who_reply(n, ev);
        break;
    case 324: /* RPL_CHANNELMODEIS */
        if (ev->count > 2)
            modes_seen(n, what, ev->params[2]);
        break;
    case 404: /* ERR_CANNOTSENDTOCHAN */
        if (ch != NULL && ch->colour && (strstr(reason, "olo") != NULL)) {
            ch->colour = false;
            log_msg(LOG_INFO, "%s: colours off in %s (the server refused a coloured line)",
                    n->c.name, ch->name);
        }
        log_msg(LOG_WARN, "%s: cannot send to %s: %s", n->c.name, what, reason);
        break;
    case 707: /* ERR_TARGCHANGE */
        if (irc_out_requeue(&n->q, what, loop_now(n->env.loop), IRC_REQUEUE_MS) == 0)
            log_msg(LOG_INFO, "%s: the server holds messages to %s back; trying again in %d s",
                    n->c.name, what, IRC_REQUEUE_MS / 1000);
        break;
    case 403: /* ERR_NOSUCHCHANNEL */
    case 405: /* ERR_TOOMANYCHANNELS */
    case 471: /* ERR_CHANNELISFULL */
    case 473: /* ERR_INVITEONLYCHAN */
    case 474: /* ERR_BANNEDFROMCHAN */
    case 475: /* ERR_BADCHANNELKEY */
    case 477: /* ERR_NEEDREGGEDNICK */
        if (ch != NULL && !ch->joined) {
            ch->lost = true;
            log_msg(LOG_WARN, "%s: cannot join %s: %s", n->c.name, what, reason);
            irc__outbox_wake(n); /* its held messages are dropped */
        }
        break;
    case 442: /* ERR_NOTONCHANNEL */
        if (ch != NULL)
            ch->joined = false;
        break;
    default:
        break;
    }
}

void irc__on_event(irc_net *n, const irc_ev *ev)
{
    bool me = ev->nick[0] != '\0' && ircp_casecmp(n->proto, ev->nick, ircp_nick(n->proto)) == 0;
    const char *p0 = ev->count > 0 ? ev->params[0] : "";
    irc_chan *ch = irc__chan_find(n, p0);
    char mask[IRCP_MASK_MAX]; /* the sender's user@host, "" when none */
    (void)ircp_mask_of(ev->origin, mask, sizeof mask);
    switch (ev->kind) {
    case IRC_EV_MESSAGE:
        on_message(n, ev);
        break;
    case IRC_EV_CTCP:
        on_ctcp(n, ev);
        break;
    case IRC_EV_NOTICE: /* never answered, whoever sends it */
    case IRC_EV_CTCP_REPLY:
    case IRC_EV_ACTION:
    case IRC_EV_NONE:
        break;
    case IRC_EV_JOIN:
        if (me && ev->count > 0)
            on_own_join(n, ev);
        else if (ev->count > 0)
            on_join(n, ev);
        break;
    case IRC_EV_PART:
        if (me && ch != NULL)
            ch->joined = false;
        else if (ch != NULL)
            irc__ops_gone(n, ch->name, ev->nick);
        break;
    case IRC_EV_KICK:
        if (ch != NULL && ev->count > 1 &&
            ircp_casecmp(n->proto, ev->params[1], ircp_nick(n->proto)) == 0) {
            kicked(n, ch, ev);
            ch->joined = false;
            ch->lost = true;
            irc__outbox_wake(n); /* its held messages are dropped */
        } else if (ch != NULL && ev->count > 1) {
            irc__ops_gone(n, ch->name, ev->params[1]);
        }
        break;
    case IRC_EV_NICK:
        if (ev->count > 0 && ev->nick[0] != '\0')
            irc__ops_rename(n, ev->nick, p0);
        if (!me && ev->count > 0 && ev->nick[0] != '\0')
            irc__nick_changed(n, ev->nick, mask, p0);
        break;
    case IRC_EV_INVITE:
        if (ev->count > 1 && n->c.join_on_invite && irc__chan_add(n, ev->params[1], false) == 0) {
            char line[IRCP_OUT_MAX + 1];
            log_msg(LOG_INFO, "%s: invited to %s by %s", n->c.name, ev->params[1], ev->nick);
            snprintf(line, sizeof line, "JOIN %s", ev->params[1]);
            irc__send_line(n, line);
            save_invited(n);
        } else if (ev->count > 1) {
            log_msg(LOG_INFO, "%s: invited to %s by %s (%s)", n->c.name, ev->params[1], ev->nick,
                    n->c.join_on_invite ? "not joined: a bad channel name, or too many channels"
                                        : "join_on_invite is off");
        }
        break;
    case IRC_EV_NUMERIC:
        on_numeric(n, ev);
        break;
    case IRC_EV_OTHER:
        if (strcmp(ev->name, "MODE") == 0 && ev->count > 1) {
            modes_seen(n, p0, ev->params[1]);
            irc__ops_mode(n, p0, ev->params[1], ev->params + 2, (int)ev->count - 2);
        }
        break;
    case IRC_EV_QUIT: /* the seat stays; the game waits */
        if (!me && ev->nick[0] != '\0') {
            irc__ops_gone(n, NULL, ev->nick);
            irc__player_quit(n, ev->nick, mask);
        }
        break;
    }
}
