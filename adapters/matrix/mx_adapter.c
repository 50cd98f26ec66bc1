/*
 * mx_adapter.c — the Matrix adapter as the program runs it (adapter.h): the
 * operations of mx_adapter over mx.h's functions, one account per
 * [matrix NAME] section. Nothing of the protocol here;
 * a changed section takes a restart (reconfigure NULL).
 */
#include "mx.h"

static int count(const cfg *c)
{
    return c->nmatrix;
}

static const char *section(const cfg *c, int i)
{
    return c->matrix[i].name;
}

static int make(void **out, const adapter_env *env, const cfg *c, int i, char *why, size_t why_len)
{
    mx_net *n;
    if (mx_net_new(&n, env, &c->matrix[i], why, why_len) != 0)
        return -1;
    *out = n;
    return 0;
}

static int start(void *net)
{
    return mx_net_start(net);
}

/* Matrix has no goodbye line: reason is for the protocols that do. */
static void quit(void *net, const char *reason)
{
    (void)reason;
    mx_net_quit(net);
}

static bool closed(const void *net)
{
    return mx_net_closed(net);
}

static void release(void *net)
{
    mx_net_free(net);
}

static const char *name(const void *net)
{
    return mx_net_name(net);
}

static outq *queue(void *net)
{
    return mx_net_outq(net);
}

static int leave(void *net, const char *room, const char *by)
{
    return mx_net_leave(net, room, by);
}

const adapter_ops mx_adapter = {
    .kind = "matrix",
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
    .is_owner = mx_is_owner,
    .reconfigure = NULL, /* a changed [matrix] section waits for a restart (reload.c) */
};
