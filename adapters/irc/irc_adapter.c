/*
 * irc_adapter.c — the IRC adapter as the program runs it (adapter.h): the
 * operations of irc_adapter over irc.h's functions, one network per
 * [irc NAME] section. Nothing of the protocol here.
 */
#include <string.h>

#include "irc.h"

static void quit(void *net, const char *reason)
{
    irc_net_quit(net, reason);
}

/* The section of c named network, or -1. */
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

ADAPTER_DEFINE(irc_net, irc, "irc", irc, nirc, quit, reconfigure);
