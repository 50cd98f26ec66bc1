/*
 * loop.c — the event loop of loop.h: fixed tables of pointers to the
 * caller's handles, a poll array rebuilt every iteration, and a self-pipe
 * through which loop_stop() wakes a sleeping poll().
 *
 * Safety of stopping during dispatch: what an iteration dispatches is a
 * snapshot taken before the callbacks run (the poll array's handle column,
 * the list of hooks), and stopping a handle
 * clears its entry in that snapshot, so the loop never calls, nor touches,
 * a handle after it was stopped. Timers are searched afresh before each
 * one fires. Searches are linear: the tables are small and bounded, and
 * clear beats clever. Not here: any knowledge of what the fds carry.
 */
#include "loop.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "loop_stop needs a lock-free int in signal handlers");

/* Entries of the poll array: the wake-up pipe, then the fds. */
#define POLL_MAX (1 + LOOP_FDS_MAX)

struct loop {
    loop_clock_fn clock;
    void *clock_arg;
    int wake[2];     /* self-pipe: loop_stop() writes, poll() watches wake[0] */
    atomic_int stop; /* a stop was requested */
    bool running;
    uint64_t next_seq; /* the seq of the next timer started */

    loop_io *ios[LOOP_FDS_MAX];
    int nios;
    loop_timer *timers[LOOP_TIMERS_MAX];
    int ntimers;
    loop_hook *hooks[LOOP_HOOKS_MAX]; /* in the order started */
    int nhooks;

    /* The iteration under way. Stopped handles are NULL here. */
    struct pollfd pfd[POLL_MAX]; /* [0] wake[0], then npio fds */
    int npoll;
    loop_io *pio[LOOP_FDS_MAX]; /* the handle of pfd[1 + i] */
    int npio;
    loop_hook *hsnap[LOOP_HOOKS_MAX];
    int nhsnap;
};

/* A message for err, from LOOP_ERRNO_MAP (loop.h). */
const char *loop_strerror(int err)
{
    switch (err) {
    case 0:
        return "ok";
#define LOOP_ERR_MSG_(name, val, msg)                                                              \
    case val:                                                                                      \
        return msg;
        LOOP_ERRNO_MAP(LOOP_ERR_MSG_)
#undef LOOP_ERR_MSG_
    default:
        return "unknown error";
    }
}

/* ------------------------------------------------------------------------ */
/* Time                                                                     */

/* CLOCK_MONOTONIC in milliseconds; arg unused (loop.h). */
int64_t loop_monotonic_ms(void *unused)
{
    (void)unused;
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0; /* CLOCK_MONOTONIC cannot fail on Linux */
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The loop's clock (loop.h). */
int64_t loop_now(const loop *l)
{
    return l->clock(l->clock_arg);
}

/* a + b for b >= 0, saturating at INT64_MAX. */
static int64_t add_sat(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* ------------------------------------------------------------------------ */
/* Lifecycle and stopping                                                   */

/* Makes fd non-blocking and close-on-exec. 0 or -1 (errno). */
static int set_flags(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    int fd_fl = fcntl(fd, F_GETFD);
    if (fl < 0 || fd_fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0 ||
        fcntl(fd, F_SETFD, fd_fl | FD_CLOEXEC) != 0)
        return -1;
    return 0;
}

/* A loop with its wake-up pipe; *out only on success (loop.h). */
int loop_new(loop **out, loop_clock_fn clock, void *clock_arg)
{
    loop *l = calloc(1, sizeof *l);
    if (l == NULL)
        return LOOP_ENO_MEMORY;
    if (pipe(l->wake) != 0) {
        int e = errno;
        free(l);
        errno = e;
        return LOOP_ESYSTEM;
    }
    if (set_flags(l->wake[0]) != 0 || set_flags(l->wake[1]) != 0) {
        int e = errno;
        close(l->wake[0]);
        close(l->wake[1]);
        free(l);
        errno = e;
        return LOOP_ESYSTEM;
    }
    l->clock = clock != NULL ? clock : loop_monotonic_ms;
    l->clock_arg = clock_arg;
    atomic_init(&l->stop, 0);
    l->next_seq = 1;
    *out = l;
    return 0;
}

/* Deactivates every handle still active, closes the pipe, frees l (loop.h). */
void loop_free(loop *l)
{
    if (l == NULL)
        return;
    assert(!l->running && "loop_free from a callback of its own loop");
    for (int i = 0; i < l->nios; i++)
        l->ios[i]->slot = l->ios[i]->pidx = -1;
    for (int i = 0; i < l->ntimers; i++)
        l->timers[i]->slot = -1;
    for (int i = 0; i < l->nhooks; i++)
        l->hooks[i]->slot = -1;
    close(l->wake[0]);
    close(l->wake[1]);
    free(l);
}

/*
 * Sets the stop flag, then wakes poll() through the pipe; async-signal-safe
 * and errno-preserving (loop.h).
 */
void loop_stop(loop *l)
{
    int saved = errno;
    atomic_store(&l->stop, 1);
    /* A full pipe already holds a wake-up: EAGAIN is fine. */
    ssize_t n = write(l->wake[1], "", 1);
    (void)n;
    errno = saved;
}

void loop_wake(loop *l)
{
    int saved = errno;
    ssize_t n = write(l->wake[1], "", 1); /* a full pipe already holds one */
    (void)n;
    errno = saved;
}

/* Empties the wake-up pipe. */
static void drain_wake(loop *l)
{
    char buf[64];
    while (read(l->wake[0], buf, sizeof buf) > 0)
        ;
}

/*
 * Whether a stop was requested; if so, uses the request up. The flag is
 * cleared before the pipe is drained, so a stop that comes in between is
 * seen by the next check rather than lost.
 */
static bool take_stop(loop *l)
{
    if (atomic_load(&l->stop) == 0)
        return false;
    atomic_store(&l->stop, 0);
    drain_wake(l);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Fds                                                                      */

/* Binds w, inactive (loop.h). */
void loop_io_init(loop *l, loop_io *w, int fd, loop_io_cb cb, void *arg)
{
    *w = (loop_io){.loop = l, .fd = fd, .cb = cb, .arg = arg, .slot = -1, .pidx = -1};
}

/* Registers w or changes its interest; w untouched on error (loop.h). */
int loop_io_start(loop_io *w, unsigned events)
{
    loop *l = w->loop;
    assert(l != NULL && "loop_io_start on a handle never initialised");
    if (w->fd < 0 || (events & ~(LOOP_READ | LOOP_WRITE)) != 0 || w->cb == NULL)
        return LOOP_EINVAL;
    if (w->slot >= 0) {
        w->events = events;
        return 0;
    }
    for (int i = 0; i < l->nios; i++)
        if (l->ios[i]->fd == w->fd)
            return LOOP_EFD_IN_USE;
    if (l->nios == LOOP_FDS_MAX)
        return LOOP_EFDS_FULL;
    w->events = events;
    w->slot = l->nios;
    w->pidx = -1;
    l->ios[l->nios++] = w;
    return 0;
}

/*
 * Unregisters w (swap with the last entry) and clears its entry in the
 * poll array being dispatched, if any (loop.h).
 */
void loop_io_stop(loop_io *w)
{
    loop *l = w->loop;
    if (l == NULL || w->slot < 0)
        return;
    if (w->pidx >= 0 && w->pidx < LOOP_FDS_MAX && l->pio[w->pidx] == w)
        l->pio[w->pidx] = NULL;
    loop_io *last = l->ios[--l->nios];
    l->ios[w->slot] = last;
    last->slot = w->slot;
    w->slot = w->pidx = -1;
}

/* Whether w is registered (loop.h). */
bool loop_io_active(const loop_io *w)
{
    return w->slot >= 0;
}

/* What poll's revents mean for a handle with interest `interest`. */
static unsigned io_events(short revents, unsigned interest)
{
    unsigned ev = 0;
    if (revents & (POLLERR | POLLNVAL))
        ev = LOOP_ERROR | interest;
    else if (revents & POLLHUP)
        ev = interest;
    if ((revents & POLLIN) && (interest & LOOP_READ))
        ev |= LOOP_READ;
    if ((revents & POLLOUT) && (interest & LOOP_WRITE))
        ev |= LOOP_WRITE;
    return ev;
}

/* Calls back every handle whose fd was ready. 1 when stopped, else 0. */
static int dispatch_ios(loop *l)
{
    for (int i = 0; i < l->npio; i++) {
        loop_io *w = l->pio[i];
        short revents = l->pfd[1 + i].revents;
        if (w == NULL || revents == 0)
            continue;
        unsigned ev = io_events(revents, w->events);
        l->pio[i] = NULL;
        w->pidx = -1;
        if (ev == 0)
            continue;
        w->cb(w, l->pfd[1 + i].fd, ev, w->arg); /* w may be gone from here on */
        if (take_stop(l))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Timers                                                                   */

/* Binds t, disarmed (loop.h). */
void loop_timer_init(loop *l, loop_timer *t, loop_timer_cb cb, void *arg)
{
    *t = (loop_timer){.loop = l, .cb = cb, .arg = arg, .slot = -1};
}

/* Arms or re-arms t; t untouched on error (loop.h). */
int loop_timer_start(loop_timer *t, int64_t delay_ms, int64_t repeat_ms)
{
    loop *l = t->loop;
    assert(l != NULL && "loop_timer_start on a handle never initialised");
    if (delay_ms < 0 || delay_ms > LOOP_DELAY_MAX_MS || repeat_ms < 0 ||
        repeat_ms > LOOP_DELAY_MAX_MS || t->cb == NULL)
        return LOOP_EINVAL;
    if (t->slot < 0) {
        if (l->ntimers == LOOP_TIMERS_MAX)
            return LOOP_ETIMERS_FULL;
        t->slot = l->ntimers;
        l->timers[l->ntimers++] = t;
    }
    t->due_ms = add_sat(loop_now(l), delay_ms);
    t->repeat_ms = repeat_ms;
    t->seq = l->next_seq++;
    return 0;
}

/* Disarms t (swap with the last entry) (loop.h). */
void loop_timer_stop(loop_timer *t)
{
    loop *l = t->loop;
    if (l == NULL || t->slot < 0)
        return;
    loop_timer *last = l->timers[--l->ntimers];
    l->timers[t->slot] = last;
    last->slot = t->slot;
    t->slot = -1;
}

/* Whether t is armed (loop.h). */
bool loop_timer_active(const loop_timer *t)
{
    return t->slot >= 0;
}

/* Whether timer a fires before timer b. */
static bool timer_before(const loop_timer *a, const loop_timer *b)
{
    return a->due_ms < b->due_ms || (a->due_ms == b->due_ms && a->seq < b->seq);
}

/* The next due time of repeating timer t fired at now: on its cadence, after now. */
static int64_t timer_next_due(const loop_timer *t, int64_t now)
{
    int64_t late = now > t->due_ms ? now - t->due_ms : 0;
    int64_t periods = late / t->repeat_ms + 1;
    if (periods > (INT64_MAX - t->due_ms) / t->repeat_ms)
        return INT64_MAX;
    return t->due_ms + periods * t->repeat_ms;
}

/*
 * Fires, earliest first, every timer due at the clock's time now that was
 * started before this call. 1 when stopped, else 0.
 */
static int run_timers(loop *l)
{
    int64_t now = loop_now(l);
    uint64_t before = l->next_seq;
    for (;;) {
        loop_timer *t = NULL;
        for (int i = 0; i < l->ntimers; i++) {
            loop_timer *c = l->timers[i];
            if (c->due_ms <= now && c->seq < before && (t == NULL || timer_before(c, t)))
                t = c;
        }
        if (t == NULL)
            return 0;
        if (t->repeat_ms > 0) {
            t->due_ms = timer_next_due(t, now);
            t->seq = l->next_seq++;
        } else {
            loop_timer_stop(t);
        }
        t->cb(t, t->arg); /* t may be gone from here on */
        if (take_stop(l))
            return 1;
    }
}

/* Milliseconds from now until the earliest timer is due: 0 if due, -1 if none. */
static int64_t timers_wait(const loop *l, int64_t now)
{
    int64_t wait = -1;
    for (int i = 0; i < l->ntimers; i++) {
        int64_t w = l->timers[i]->due_ms <= now ? 0 : l->timers[i]->due_ms - now;
        if (wait < 0 || w < wait)
            wait = w;
    }
    return wait;
}

/* ------------------------------------------------------------------------ */
/* Before-sleep hooks                                                       */

/* Binds h, inactive (loop.h). */
void loop_hook_init(loop *l, loop_hook *h, loop_hook_cb cb, void *arg)
{
    *h = (loop_hook){.loop = l, .cb = cb, .arg = arg, .slot = -1};
}

/* Appends h to the hooks; h untouched on error (loop.h). */
int loop_hook_start(loop_hook *h)
{
    loop *l = h->loop;
    assert(l != NULL && "loop_hook_start on a handle never initialised");
    if (h->cb == NULL)
        return LOOP_EINVAL;
    if (h->slot >= 0)
        return 0;
    if (l->nhooks == LOOP_HOOKS_MAX)
        return LOOP_EHOOKS_FULL;
    h->slot = l->nhooks;
    l->hooks[l->nhooks++] = h;
    return 0;
}

/* Removes h, keeping the others' order, and from the hooks being run (loop.h). */
void loop_hook_stop(loop_hook *h)
{
    loop *l = h->loop;
    if (l == NULL || h->slot < 0)
        return;
    for (int i = 0; i < l->nhsnap; i++)
        if (l->hsnap[i] == h)
            l->hsnap[i] = NULL;
    for (int i = h->slot; i + 1 < l->nhooks; i++) {
        l->hooks[i] = l->hooks[i + 1];
        l->hooks[i]->slot = i;
    }
    l->nhooks--;
    h->slot = -1;
}

/* Runs the hooks active when called, in order. 1 when stopped, else 0. */
static int run_hooks(loop *l)
{
    memcpy(l->hsnap, l->hooks, (size_t)l->nhooks * sizeof l->hooks[0]);
    l->nhsnap = l->nhooks;
    for (int i = 0; i < l->nhsnap; i++) {
        loop_hook *h = l->hsnap[i];
        if (h == NULL)
            continue;
        l->hsnap[i] = NULL;
        h->cb(h, h->arg);
        if (take_stop(l))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Iterations                                                               */

/* Fills the poll array: the wake-up pipe, then the watched fds. */
static void build_poll(loop *l)
{
    l->pfd[0] = (struct pollfd){.fd = l->wake[0], .events = POLLIN};
    l->npio = 0;
    for (int i = 0; i < l->nios; i++) {
        loop_io *w = l->ios[i];
        if (w->events == 0)
            continue;
        short events = (short)(((w->events & LOOP_READ) ? POLLIN : 0) |
                               ((w->events & LOOP_WRITE) ? POLLOUT : 0));
        l->pfd[1 + l->npio] = (struct pollfd){.fd = w->fd, .events = events};
        w->pidx = l->npio;
        l->pio[l->npio++] = w;
    }
    l->npoll = 1 + l->npio;
}

/* One iteration (see loop.h). 1 when stopped, 0, or LOOP_ESYSTEM. */
static int iterate(loop *l, bool may_block)
{
    l->npio = l->nhsnap = 0;
    if (take_stop(l) || run_hooks(l))
        return 1;
    int64_t timeout = timers_wait(l, loop_now(l));
    if (!may_block)
        timeout = 0;
    build_poll(l);
    int n = poll(l->pfd, (nfds_t)l->npoll, timeout > INT_MAX ? INT_MAX : (int)timeout);
    if (n < 0) {
        if (errno != EINTR)
            return LOOP_ESYSTEM;
        for (int i = 0; i < l->npoll; i++)
            l->pfd[i].revents = 0;
    }
    if (take_stop(l))
        return 1;
    if (l->pfd[0].revents != 0)
        drain_wake(l); /* a stale wake-up: its stop was used up already */
    if (dispatch_ios(l) || run_timers(l))
        return 1;
    return 0;
}

/* One iteration, unless nested (loop.h). */
int loop_run_once(loop *l, bool may_block)
{
    if (l->running)
        return LOOP_EBUSY;
    l->running = true;
    int rc = iterate(l, may_block);
    l->running = false;
    return rc;
}

/* Iterations until a stop or a poll() failure, unless nested (loop.h). */
int loop_run(loop *l)
{
    if (l->running)
        return LOOP_EBUSY;
    l->running = true;
    int rc;
    do
        rc = iterate(l, true);
    while (rc == 0);
    l->running = false;
    return rc < 0 ? rc : 0;
}
