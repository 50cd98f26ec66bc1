/*
 * adapter.c — the lifecycle every network adapter shares (adapter.h): its
 * hook and timers on the loop, started together and stopped together.
 */
#include "adapter.h"

#include <assert.h>

void adapter_life_init(adapter_life *life, loop *l, loop_hook *hook, loop_hook_cb cb, void *arg)
{
    *life = (adapter_life){.loop = l, .hook = hook};
    loop_hook_init(l, hook, cb, arg);
}

void adapter_life_timer(adapter_life *life, loop_timer *t, loop_timer_cb cb, void *arg)
{
    assert(life->ntimers < ADAPTER_TIMERS_MAX);
    loop_timer_init(life->loop, t, cb, arg);
    life->timers[life->ntimers++] = t;
}

int adapter_life_start(adapter_life *life, loop_timer *first)
{
    if (loop_hook_start(life->hook) != 0)
        return -1;
    if (first != NULL && loop_timer_start(first, 0, 0) != 0) {
        loop_hook_stop(life->hook);
        return -1;
    }
    life->started = true;
    return 0;
}

void adapter_life_stop(adapter_life *life)
{
    if (!life->started)
        return;
    loop_hook_stop(life->hook);
    for (int i = 0; i < life->ntimers; i++)
        loop_timer_stop(life->timers[i]);
    life->started = false;
}
