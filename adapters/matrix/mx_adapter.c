/*
 * mx_adapter.c — the Matrix adapter as the program runs it (adapter.h):
 * the operations of mx_adapter over mx.h's functions, one account per
 * [matrix NAME] section. Nothing of the protocol here; a changed section
 * takes a restart (reconfigure NULL).
 */
#include "mx.h"

/* Matrix has no goodbye line: reason is for the protocols that do. */
static void quit(void *net, const char *reason)
{
    (void)reason;
    mx_net_quit(net);
}

/* a changed [matrix] section waits for a restart (reload.c): no reconfigure */
ADAPTER_DEFINE(mx_net, mx, "matrix", matrix, nmatrix, quit, NULL);
