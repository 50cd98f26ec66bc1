/*
 * adapter.h — what every chat network adapter is to the program that runs
 * it (bot/app/main.c, bot/app/reload.c): one table of operations per kind
 * of network (IRC, Matrix), so the program starts, feeds, reloads and
 * stops them all with one loop over its adapters and no per-network
 * branch; and the lifecycle they share, written once: the loop's hook and
 * timers of one network, started and stopped together (adapter_life).
 *
 * An adapter is a kind (its adapter_ops, e.g. irc_adapter in irc.h) and
 * its networks, one per configuration section of that kind, each an
 * opaque pointer only the kind's operations take. Not here: a protocol,
 * games (the host's), the console (a terminal, not a network: console.h).
 */
#ifndef PZ_ADAPTER_H
#define PZ_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "host.h"
#include "loop.h"
#include "outq.h"

/* What every network of the process shares. */
typedef struct adapter_env {
    loop *loop;
    host *host;
    store *store;
    const cfg *cfg;      /* owners, prefix, bot name */
    const char *version; /* "porrazo-bot 0.1.0": IRC's CTCP VERSION, Matrix's user agent */
    uint64_t seed;       /* for the reconnect and back-off jitter */
} adapter_env;

/*
 * One kind of network. Every operation but reconfigure is set; a network
 * (void *net) is what make returned, until free.
 */
typedef struct adapter_ops {
    const char *kind; /* its sections' word in the configuration: "irc", "matrix" */
    /* How many sections of this kind c has, and the name of the i-th. */
    int (*count)(const cfg *c);
    const char *(*section)(const cfg *c, int i);
    /* Makes the network of c's i-th section without connecting: 0 and
       the network in *out, or -1 with why (a start-up error). */
    int (*make)(void **out, const adapter_env *env, const cfg *c, int i, char *why, size_t why_len);
    /* Starts it in the loop: 0, or -1 when the loop is full. */
    int (*start)(void *net);
    /* Winds it down, saying reason where the protocol can; then closed
       turns true, once nothing is left on the wire. */
    void (*quit)(void *net, const char *reason);
    bool (*closed)(const void *net);
    /* Frees it (NULL is a no-op); what is still on the wire is abandoned. */
    void (*free)(void *net);
    /* Its name (its id in the database) and its send queue, owned by net. */
    const char *(*name)(const void *net);
    outq *(*outq)(void *net);
    /* An owner's part (host_config.leave_room): 0, or -1 when the bot is
       not in room there. */
    int (*leave)(void *net, const char *room, const char *by);
    /* Whether player, an id of this kind, is an owner on network. */
    bool (*is_owner)(const cfg *c, const char *network, const char *player);
    /* A reloaded configuration next (checked whole) for net, its section
       found by name, copied into live's when taken: 0 taken, 1 no such
       section in next, -1 refused (logged). NULL: a change waits for a
       restart (the reload says so). */
    int (*reconfigure)(void *net, cfg *live, const cfg *next);
} adapter_ops;

/*
 * ADAPTER_DEFINE(T, P, KIND, SECTIONS, COUNT, QUIT, RECONFIGURE): defines
 * const adapter_ops P_adapter for a kind whose network type is T and
 * whose functions are P_net_new, P_net_start, P_net_closed, P_net_free,
 * P_net_name, P_net_outq, P_net_leave and P_is_owner (irc.h's, mx.h's),
 * with its sections in cfg's SECTIONS[] (COUNT of them); QUIT and
 * RECONFIGURE are the kind's own (adapter_ops). The operations it writes
 * (static, P_op_...) only pass on, turning void * back into T *.
 */
#define ADAPTER_DEFINE(T, P, KIND, SECTIONS, COUNT, QUIT, RECONFIGURE)                             \
    static int P##_op_count(const cfg *c)                                                          \
    {                                                                                              \
        return c->COUNT;                                                                           \
    }                                                                                              \
    static const char *P##_op_section(const cfg *c, int i)                                         \
    {                                                                                              \
        return c->SECTIONS[i].name;                                                                \
    }                                                                                              \
    static int P##_op_make(void **out, const adapter_env *env, const cfg *c, int i, char *why,     \
                           size_t why_len)                                                         \
    {                                                                                              \
        T *n;                                                                                      \
        if (P##_net_new(&n, env, &c->SECTIONS[i], why, why_len) != 0)                              \
            return -1;                                                                             \
        *out = n;                                                                                  \
        return 0;                                                                                  \
    }                                                                                              \
    static int P##_op_start(void *net)                                                             \
    {                                                                                              \
        return P##_net_start(net);                                                                 \
    }                                                                                              \
    static bool P##_op_closed(const void *net)                                                     \
    {                                                                                              \
        return P##_net_closed(net);                                                                \
    }                                                                                              \
    static void P##_op_free(void *net)                                                             \
    {                                                                                              \
        P##_net_free(net);                                                                         \
    }                                                                                              \
    static const char *P##_op_name(const void *net)                                                \
    {                                                                                              \
        return P##_net_name(net);                                                                  \
    }                                                                                              \
    static outq *P##_op_outq(void *net)                                                            \
    {                                                                                              \
        return P##_net_outq(net);                                                                  \
    }                                                                                              \
    static int P##_op_leave(void *net, const char *room, const char *by)                           \
    {                                                                                              \
        return P##_net_leave(net, room, by);                                                       \
    }                                                                                              \
    const adapter_ops P##_adapter = {.kind = KIND,                                                 \
                                     .count = P##_op_count,                                        \
                                     .section = P##_op_section,                                    \
                                     .make = P##_op_make,                                          \
                                     .start = P##_op_start,                                        \
                                     .quit = QUIT,                                                 \
                                     .closed = P##_op_closed,                                      \
                                     .free = P##_op_free,                                          \
                                     .name = P##_op_name,                                          \
                                     .outq = P##_op_outq,                                          \
                                     .leave = P##_op_leave,                                        \
                                     .is_owner = P##_is_owner,                                     \
                                     .reconfigure = RECONFIGURE}

/* A running network: its kind and itself (the program's table of them). */
typedef struct adapter_run {
    const adapter_ops *ops;
    void *net;
} adapter_run;

#define ADAPTER_TIMERS_MAX 8

/*
 * The loop's hook and timers of one network, which it starts together and
 * which stop together when it is freed, whatever it was doing. Caller
 * memory, inside the network's struct; the hook and timers are the
 * network's own fields, registered here at make.
 */
typedef struct adapter_life {
    loop *loop;
    loop_hook *hook;
    loop_timer *timers[ADAPTER_TIMERS_MAX];
    int ntimers;
    bool started;
} adapter_life;

/* Sets up life on loop l with the network's hook (cb(arg) before each
   sleep of the loop), not started. */
void adapter_life_init(adapter_life *life, loop *l, loop_hook *hook, loop_hook_cb cb, void *arg);

/* Initialises timer t (cb(arg) when due) and registers it with life; at
   most ADAPTER_TIMERS_MAX (a programmer's error beyond: asserted). */
void adapter_life_timer(adapter_life *life, loop_timer *t, loop_timer_cb cb, void *arg);

/* Starts the hook, and first (one of the timers, or NULL) at once. 0, or
   -1 when the loop is full (nothing left started). */
int adapter_life_start(adapter_life *life, loop_timer *first);

/* Stops the hook and every timer if life was started; idempotent. */
void adapter_life_stop(adapter_life *life);

#endif /* PZ_ADAPTER_H */
