/*
 * irc_adapter.c — the IRC adapter as the program runs it (adapter.h): the
 * operations of irc_adapter over irc.h's functions, one network per
 * [irc NAME] section. Nothing of the protocol here.
 */
#include <string.h>

#include "irc.h"

static int count(const cfg *c)
{
    return c->nirc;
}

static const char *section(const cfg *c, int i)
{
    return c->irc[i].name;
}

static int make(void **out, const adapter_env *env, const cfg *c, int i, char *why, size_t why_len)
{
    irc_net *n;
    if (irc_net_new(&n, env, &c->irc[i], why, why_len) != 0)
        return -1;
    *out = n;
    return 0;
}

static int start(void *net)
{
    return irc_net_start(net);
}

static void quit(void *net, const char *reason)
{
    irc_net_quit(net, reason);
}

static bool closed(const void *net)
{
    return irc_net_closed(net);
}

static void release(void *net)
{
    irc_net_free(net);
}

static const char *name(const void *net)
{
    return irc_net_name(net);
}

static outq *queue(void *net)
{
    return irc_net_outq(net);
}

static int leave(void *net, const char *room, const char *by)
{
    return irc_net_leave(net, room, by);
}

/* The section of c named name, or -1. */
static int named(const cfg *c, const char *network)
{
    for (int i = 0; i < c->nirc; i++)
        if (strcmp(c->irc[i].name, network) == 0)
            return i;
    return -1;
}

static int reconfigure(void *net, cfg *live, const cfg *next)
{
    const char *network = irc_net_name(net);
    int j = named(next, network), k = named(live, network);
    if (j < 0 || k < 0)
        return 1;
    if (irc_net_reconfigure(net, &next->irc[j]) != 0)
        return -1;
    live->irc[k] = next->irc[j];
    return 0;
}

const adapter_ops irc_adapter = {
    .kind = "irc",
    .count = count,
    .section = section,
    .make = make,
    .start = start,
    .quit = quit,
    .closed = closed,
    .free = release,
    .name = name,
    .outq = queue,
    .leave = leave,
    .is_owner = irc_is_owner,
    .reconfigure = reconfigure,
};
