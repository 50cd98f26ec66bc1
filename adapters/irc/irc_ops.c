/*
 * irc_ops.c — who moderates each channel the bot is in: its channel
 * operators (and owners and admins on servers that have them), so that a
 * room's moderators may do what a table's creator may (host_msg.moderator).
 *
 * Learned from the WHO reply the bot asks on joining (RPL_WHOREPLY's flags
 * "H@", "G~", ...), then kept by MODE +o/-o (and +q/+a), NICK, PART, KICK
 * and QUIT. Forgotten for a channel when the bot joins it again, and for
 * all when the link drops. Nicks are kept folded by the server's
 * casemapping. A moderator the bot has not seen yet (WHO not answered) is
 * an ordinary player until it is. Not here: what moderators may do (the
 * host's).
 */
#include <string.h>

#include "irc.h"
#include "irc_int.h"

/* The status prefixes of WHO flags and NAMES that make a moderator. */
#define MOD_PREFIXES "@&~"
/* Channel modes that give one of them (op, admin, owner). */
#define MOD_MODES "oaq"
/* Channel modes that always take an argument; 'l' only when set. */
#define ARG_MODES "ohvaqbeIkfjJL"

/* The index of folded nick in ch's moderators, or -1. */
static int find(const irc_chan *ch, const char *folded)
{
    for (int i = 0; i < ch->nops; i++)
        if (strcmp(ch->ops[i], folded) == 0)
            return i;
    return -1;
}

/* Sets whether nick moderates ch. */
static void set_op(irc_net *n, irc_chan *ch, const char *nick, bool op)
{
    char folded[IRCP_NICK_MAX];
    if (ircp_fold(n->proto, nick, folded, sizeof folded) != 0)
        return;
    int i = find(ch, folded);
    if (op && i < 0 && ch->nops < IRC_OPS_MAX)
        memcpy(ch->ops[ch->nops++], folded, sizeof folded);
    else if (!op && i >= 0)
        memcpy(ch->ops[i], ch->ops[--ch->nops], sizeof ch->ops[0]);
}

void irc__ops_who(irc_net *n, const char *chan, const char *nick, const char *flags)
{
    irc_chan *ch = irc__chan_find(n, chan);
    if (ch != NULL)
        set_op(n, ch, nick, strpbrk(flags, MOD_PREFIXES) != NULL);
}

void irc__ops_mode(irc_net *n, const char *chan, const char *modes, const char *const *args,
                   int nargs)
{
    irc_chan *ch = irc__chan_find(n, chan);
    if (ch == NULL)
        return;
    bool plus = true;
    int a = 0;
    for (const char *m = modes; *m != '\0' && *m != ' '; m++) {
        if (*m == '+' || *m == '-') {
            plus = *m == '+';
            continue;
        }
        bool takes = strchr(ARG_MODES, *m) != NULL || (*m == 'l' && plus);
        if (!takes)
            continue;
        if (a >= nargs)
            return;
        const char *arg = args[a++];
        if (strchr(MOD_MODES, *m) != NULL)
            set_op(n, ch, arg, plus);
    }
}

void irc__ops_gone(irc_net *n, const char *chan, const char *nick)
{
    for (int i = 0; i < n->nchans; i++)
        if (chan == NULL || ircp_casecmp(n->proto, n->chans[i].name, chan) == 0)
            set_op(n, &n->chans[i], nick, false);
}

void irc__ops_rename(irc_net *n, const char *old, const char *new_nick)
{
    char folded[IRCP_NICK_MAX];
    if (ircp_fold(n->proto, old, folded, sizeof folded) != 0)
        return;
    for (int i = 0; i < n->nchans; i++)
        if (find(&n->chans[i], folded) >= 0) {
            set_op(n, &n->chans[i], old, false);
            set_op(n, &n->chans[i], new_nick, true);
        }
}

void irc__ops_clear(irc_net *n, const char *chan)
{
    for (int i = 0; i < n->nchans; i++)
        if (chan == NULL || ircp_casecmp(n->proto, n->chans[i].name, chan) == 0)
            n->chans[i].nops = 0;
}

bool irc__is_op(irc_net *n, const char *chan, const char *nick)
{
    char folded[IRCP_NICK_MAX];
    irc_chan *ch = chan != NULL ? irc__chan_find(n, chan) : NULL;
    return ch != NULL && ircp_fold(n->proto, nick, folded, sizeof folded) == 0 &&
           find(ch, folded) >= 0;
}
