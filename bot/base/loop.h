/*
 * loop.h — the bot's event loop: one thread, one poll(2), and nothing else
 * than file descriptors, timers and hooks that run before it sleeps.
 * Libraries with sockets of their own plug in through those (libcurl's
 * socket API: a loop_io per socket, a loop_timer for its timeout).
 *
 * Every handle lives in caller memory, as in libuv: *_init binds it to a
 * loop and a callback and leaves it inactive, *_start makes it active (or
 * changes an active one), *_stop makes it inactive again and may be called
 * at any time, from any callback, on any handle, the one being dispatched
 * included; a stopped handle is never called again in that iteration. A
 * handle's memory must stay valid while it is active; once stopped (or
 * once its callback for a one-shot timer has begun) the loop never touches
 * it again, so a callback may stop and free its own handle. Time is
 * milliseconds from a clock the caller may replace (tests use a fake one);
 * by default CLOCK_MONOTONIC. Tables have fixed caps; running out is an
 * error code, never a crash.
 *
 * One iteration: the before-sleep hooks run (adapters flush their queues
 * there), poll() sleeps until an fd is ready, the next timer is due or
 * loop_stop() is called; then fd callbacks run, then due timers in order. Not here: any protocol,
 * any buffering, threads (only loop_stop may be called from elsewhere).
 */
#ifndef PZ_LOOP_H
#define PZ_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#define LOOP_FDS_MAX 1024                      /* fds watched at once by loop_io handles */
#define LOOP_TIMERS_MAX 1024                   /* timers active at once */
#define LOOP_HOOKS_MAX 16                      /* before-sleep hooks active at once */
#define LOOP_DELAY_MAX_MS INT64_C(31536000000) /* a timer's delay or interval: 365 days */

/* Interest and readiness bits of a loop_io. */
#define LOOP_READ 1u  /* readable, or end of file */
#define LOOP_WRITE 2u /* writable */
#define LOOP_ERROR 4u /* reported only: an error, or an fd closed while watched */

/* Errors: 0 or one of these negative codes. */
#define LOOP_ERRNO_MAP(XX)                                                                         \
    XX(INVAL, -1,                                                                                  \
       "an argument is out of range: a negative fd, unknown interest bits, a delay or "            \
       "interval outside 0..LOOP_DELAY_MAX_MS, or no callback")                                    \
    XX(FD_IN_USE, -2, "another handle of this loop watches that fd already")                       \
    XX(FDS_FULL, -3, "LOOP_FDS_MAX fds are watched already")                                       \
    XX(TIMERS_FULL, -4, "LOOP_TIMERS_MAX timers are active already")                               \
    XX(HOOKS_FULL, -5, "LOOP_HOOKS_MAX before-sleep hooks are active already")                     \
    XX(BUSY, -6, "the loop is running: loop_run and loop_run_once cannot be nested")               \
    XX(NO_MEMORY, -7, "out of memory")                                                             \
    XX(SYSTEM, -8, "a system call failed (pipe, fcntl or poll): errno says which")

typedef enum loop_errno {
    LOOP_OK = 0,
#define LOOP_ERR_ENUM_(name, val, msg) LOOP_E##name = (val),
    LOOP_ERRNO_MAP(LOOP_ERR_ENUM_)
#undef LOOP_ERR_ENUM_
} loop_errno;

/* A human message for err ("ok" for 0, "unknown error" otherwise). Never NULL. */
const char *loop_strerror(int err);

/* ---- The loop ---------------------------------------------------------- */

typedef struct loop loop;

/* A clock: milliseconds from any fixed origin, never going back. */
typedef int64_t (*loop_clock_fn)(void *arg);

/* CLOCK_MONOTONIC in milliseconds: the default clock. */
int64_t loop_monotonic_ms(void *unused);

/*
 * Creates a loop in *out that reads time from clock(clock_arg), or from
 * loop_monotonic_ms when clock is NULL. Returns 0, or LOOP_ENO_MEMORY or
 * LOOP_ESYSTEM (its wake-up pipe; errno says why) with *out untouched.
 * The loop owns a pipe; everything else is the caller's.
 */
int loop_new(loop **out, loop_clock_fn clock, void *clock_arg);

/*
 * Frees l (NULL: nothing). Every handle still active on it is made
 * inactive first, so their memory must still be valid. Never call it from
 * a callback of l.
 */
void loop_free(loop *l);

/* The loop's clock now, in milliseconds. */
int64_t loop_now(const loop *l);

/*
 * Runs iterations until loop_stop(). Returns 0 once stopped (the stop
 * request is then used up), LOOP_EBUSY when called from a callback of l,
 * or LOOP_ESYSTEM when poll() fails otherwise than by EINTR (errno says
 * why). With nothing to watch it sleeps until loop_stop().
 */
int loop_run(loop *l);

/*
 * Runs one iteration. With may_block false, poll() does not sleep: only
 * what is ready or due now is dispatched. Returns 1 when it returned early
 * for loop_stop() (the request is used up, also when it was made before
 * the call), 0 after a whole iteration, or LOOP_EBUSY / LOOP_ESYSTEM as
 * loop_run.
 */
int loop_run_once(loop *l, bool may_block);

/*
 * Asks the running (or the next) loop_run / loop_run_once of l to return:
 * no callback runs after the one in progress. Safe from any callback, from
 * a signal handler (it only sets an atomic flag and writes a byte to the
 * loop's pipe, keeping errno) and from another thread.
 */
void loop_stop(loop *l);

/*
 * Wakes a sleeping poll() of l for one more iteration (its hooks then run):
 * how a signal handler or another thread hands the loop work it finds in
 * a flag. Safe where loop_stop is.
 */
void loop_wake(loop *l);

/* ---- Fds ----------------------------------------------------------------- */

typedef struct loop_io loop_io;

/*
 * Called when w's fd is ready: events holds the ready bits of its interest
 * (LOOP_READ, LOOP_WRITE). On a hang-up every interest bit is set, so the
 * next read() finds the end of file or write() the broken pipe; on an
 * error LOOP_ERROR is set as well. An fd closed while watched reports
 * LOOP_ERROR on every iteration until its handle is stopped.
 */
typedef void (*loop_io_cb)(loop_io *w, int fd, unsigned events, void *arg);

/* An fd watcher in caller memory. Read it only through the functions. */
struct loop_io {
    loop *loop;
    int fd;
    unsigned events; /* interest: LOOP_READ | LOOP_WRITE, or 0 (paused) */
    loop_io_cb cb;
    void *arg;
    int slot; /* index in the loop's table, -1 when inactive */
    int pidx; /* index in the poll array being dispatched, -1 none */
};

/* Binds the inactive handle w to l, fd and cb(arg); it watches nothing yet. */
void loop_io_init(loop *l, loop_io *w, int fd, loop_io_cb cb, void *arg);

/*
 * Watches w's fd for events (LOOP_READ, LOOP_WRITE, both, or 0 to keep the
 * fd registered but paused). On an active w it only changes the interest,
 * taking effect at once (a readiness already polled for a dropped interest
 * is not reported). Returns 0, or with w untouched: LOOP_EINVAL (negative
 * fd, unknown bits, no callback), LOOP_EFD_IN_USE (another active handle
 * of l has that fd: a closed fd's number was reused while its old handle
 * was still active), LOOP_EFDS_FULL.
 */
int loop_io_start(loop_io *w, unsigned events);

/* Stops watching w (nothing when inactive). Safe in any callback. */
void loop_io_stop(loop_io *w);

/* Whether w is active. */
bool loop_io_active(const loop_io *w);

/* ---- Timers -------------------------------------------------------------- */

typedef struct loop_timer loop_timer;

typedef void (*loop_timer_cb)(loop_timer *t, void *arg);

/* A timer in caller memory. Read it only through the functions. */
struct loop_timer {
    loop *loop;
    loop_timer_cb cb;
    void *arg;
    int64_t due_ms;    /* on the loop's clock */
    int64_t repeat_ms; /* 0: one-shot */
    uint64_t seq;      /* start order, breaks ties between equal due times */
    int slot;          /* index in the loop's table, -1 when inactive */
};

/* Binds the inactive timer t to l and cb(arg). */
void loop_timer_init(loop *l, loop_timer *t, loop_timer_cb cb, void *arg);

/*
 * Arms t to fire delay_ms from now (0: when the loop next runs its
 * timers), then every repeat_ms when repeat_ms > 0 (one-shot when 0). An
 * active t is re-armed. Timers due together fire in order of due time,
 * then of start. A one-shot timer is inactive when its callback runs (it
 * may start itself again); a repeating one is re-armed before (it may stop
 * itself) on its cadence: after a stall it fires once, not once per missed
 * period. A timer started by a timer callback never fires in the same
 * iteration. Returns 0, or with t untouched: LOOP_EINVAL (a delay or
 * interval outside 0..LOOP_DELAY_MAX_MS, no callback), LOOP_ETIMERS_FULL.
 */
int loop_timer_start(loop_timer *t, int64_t delay_ms, int64_t repeat_ms);

/* Disarms t (nothing when inactive). Safe in any callback. */
void loop_timer_stop(loop_timer *t);

/* Whether t is armed. */
bool loop_timer_active(const loop_timer *t);

/* ---- Before-sleep hooks ------------------------------------------------ */

typedef struct loop_hook loop_hook;

typedef void (*loop_hook_cb)(loop_hook *h, void *arg);

/* A before-sleep hook in caller memory. Read it only through the functions. */
struct loop_hook {
    loop *loop;
    loop_hook_cb cb;
    void *arg;
    int slot; /* -1 when inactive */
};

/* Binds the inactive hook h to l and cb(arg). */
void loop_hook_init(loop *l, loop_hook *h, loop_hook_cb cb, void *arg);

/*
 * Runs h's callback at the start of every iteration, before the loop
 * computes how long to sleep (so a hook may queue output, start timers or
 * change interests). Hooks run in the order started. Returns 0 (also when active), or LOOP_EINVAL
 * (no callback) or LOOP_EHOOKS_FULL with h untouched.
 */
int loop_hook_start(loop_hook *h);

/* Stops h (nothing when inactive). Safe in any callback. */
void loop_hook_stop(loop_hook *h);

#endif /* PZ_LOOP_H */
