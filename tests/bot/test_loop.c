/*
 * test_loop.c — the event loop (bot/base/loop.h) over real pipes: readiness,
 * hang-ups and closed fds; handles stopped, freed, paused or replaced from
 * inside callbacks; timers ordered and repeated on a fake clock, and a real
 * sleep until the next one; before-sleep hooks; loop_stop() from a
 * callback, from a signal handler (raised in a callback, and sent while
 * poll() sleeps) and from another thread; and every table's cap.
 *
 * Handles that a callback frees are on the heap, so a touch after the
 * free shows under valgrind or ASan.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "loop.h"

#define WATCHDOG_SECS 10 /* a test that hangs is killed by SIGALRM */

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* The fake clock: the int64_t that arg points to. */
static int64_t fake_clock(void *arg)
{
    return *(const int64_t *)arg;
}

/* A loop on the fake clock *now. */
static loop *fake_loop(int64_t *now)
{
    loop *l = NULL;
    assert_int_equal(loop_new(&l, fake_clock, now), 0);
    return l;
}

/* A loop on CLOCK_MONOTONIC. */
static loop *real_loop(void)
{
    loop *l = NULL;
    assert_int_equal(loop_new(&l, NULL, NULL), 0);
    return l;
}

/* A non-blocking pipe. */
static void make_pipe(int p[2])
{
    assert_int_equal(pipe(p), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(fcntl(p[i], F_SETFL, fcntl(p[i], F_GETFL) | O_NONBLOCK), 0);
}

/* Closes both ends of p. */
static void close_pipe(const int p[2])
{
    close(p[0]);
    close(p[1]);
}

/* Writes one byte to fd, which must take it. */
static void put_byte(int fd)
{
    assert_int_equal(write(fd, "x", 1), 1);
}

/* The order callbacks ran in, one letter each. */
static char trace[128];
static size_t ntrace;

/* Empties the trace. */
static void trace_reset(void)
{
    ntrace = 0;
    trace[0] = '\0';
}

/* Appends c to the trace. */
static void trace_add(char c)
{
    assert_true(ntrace + 1 < sizeof trace);
    trace[ntrace++] = c;
    trace[ntrace] = '\0';
}

/* What an fd callback saw, and what it does to others while called. */
typedef struct probe {
    char name;
    int calls;
    unsigned events;
    loop_io *stop_io;    /* stopped by this callback */
    loop_io *pause_io;   /* set to interest 0 by this callback */
    bool stop_loop;      /* calls loop_stop */
    bool consume;        /* reads one byte */
    bool stop_self;      /* stops its own handle */
    bool free_self;      /* ... and frees it */
    int (*then)(void *); /* anything else */
    void *then_arg;
} probe;

/* The fd callback of a probe (arg): records, traces, then does what it was told. */
static void probe_cb(loop_io *w, int fd, unsigned events, void *arg)
{
    probe *p = arg;
    assert_int_equal(fd, w->fd);
    p->calls++;
    p->events = events;
    trace_add(p->name);
    char c;
    if (p->consume)
        assert_int_equal(read(fd, &c, 1), 1);
    if (p->stop_io != NULL)
        loop_io_stop(p->stop_io);
    if (p->pause_io != NULL)
        assert_int_equal(loop_io_start(p->pause_io, 0), 0);
    if (p->stop_self)
        loop_io_stop(w);
    if (p->free_self)
        free(w);
    if (p->then != NULL)
        assert_int_equal(p->then(p->then_arg), 0);
    if (p->stop_loop)
        loop_stop(w->loop);
}

/* What a timer callback saw, and what it does while called. */
typedef struct tick {
    char name;
    int calls;
    int64_t *now;       /* the fake clock, to record when it fired */
    int64_t at[8];      /* the clock at each call */
    int stop_after;     /* stop the timer after this many calls (0: never) */
    loop_timer *other;  /* started with delay 0 by this callback */
    loop_timer *cancel; /* stopped by this callback */
    bool restart;       /* one-shot: starts itself again with delay 10 */
    int stop_loop_at;   /* calls loop_stop on this call (0: never) */
} tick;

/* The timer callback of a tick (arg): records, traces, then does what it was told. */
static void tick_cb(loop_timer *t, void *arg)
{
    tick *k = arg;
    if (k->now != NULL && k->calls < 8)
        k->at[k->calls] = *k->now;
    k->calls++;
    trace_add(k->name);
    if (k->restart) {
        assert_false(loop_timer_active(t));
        k->restart = false;
        assert_int_equal(loop_timer_start(t, 10, 0), 0);
    }
    if (k->other != NULL)
        assert_int_equal(loop_timer_start(k->other, 0, 0), 0);
    if (k->cancel != NULL)
        loop_timer_stop(k->cancel);
    if (k->stop_after > 0 && k->calls == k->stop_after)
        loop_timer_stop(t);
    if (k->stop_loop_at > 0 && k->calls == k->stop_loop_at)
        loop_stop(t->loop);
}

/* Milliseconds of CLOCK_MONOTONIC since `since`. */
static int64_t elapsed_ms(int64_t since)
{
    return loop_monotonic_ms(NULL) - since;
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

static void test_every_error_code_has_its_own_message(void **state)
{
    (void)state;
    assert_string_equal(loop_strerror(0), "ok");
    assert_string_equal(loop_strerror(LOOP_EFDS_FULL), "LOOP_FDS_MAX fds are watched already");
    assert_string_equal(loop_strerror(-1000), "unknown error");
    const int codes[] = {LOOP_EINVAL,      LOOP_EFD_IN_USE, LOOP_EFDS_FULL,  LOOP_ETIMERS_FULL,
                         LOOP_EHOOKS_FULL, LOOP_EBUSY,      LOOP_ENO_MEMORY, LOOP_ESYSTEM};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(loop_strerror(codes[i]), loop_strerror(codes[j]));
}

/* ------------------------------------------------------------------------ */
/* Fds                                                                      */

static void test_a_pipe_with_data_calls_its_reader_and_a_quiet_one_does_not(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2];
    make_pipe(p);
    probe pr = {.name = 'r'};
    loop_io w;
    loop_io_init(l, &w, p[0], probe_cb, &pr);
    assert_int_equal(loop_io_start(&w, LOOP_READ), 0);
    assert_true(loop_io_active(&w));
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 0);
    put_byte(p[1]);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 1);
    assert_int_equal(pr.events, LOOP_READ);
    loop_io_stop(&w);
    assert_false(loop_io_active(&w));
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 1);
    loop_free(l);
    close_pipe(p);
}

static void test_a_writer_sees_write_and_only_the_interest_it_asked_for(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2];
    make_pipe(p);
    probe pr = {.name = 'w'};
    loop_io w;
    loop_io_init(l, &w, p[1], probe_cb, &pr);
    assert_int_equal(loop_io_start(&w, LOOP_READ | LOOP_WRITE), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 1);
    assert_int_equal(pr.events, LOOP_WRITE);
    loop_io_stop(&w);
    loop_free(l);
    close_pipe(p);
}

static void test_a_closed_writer_shows_as_readable_for_the_end_of_file(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2];
    make_pipe(p);
    probe pr = {.name = 'r'};
    loop_io w;
    loop_io_init(l, &w, p[0], probe_cb, &pr);
    assert_int_equal(loop_io_start(&w, LOOP_READ), 0);
    close(p[1]);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 1);
    assert_int_equal(pr.events, LOOP_READ);
    char c;
    assert_int_equal(read(p[0], &c, 1), 0);
    loop_io_stop(&w);
    loop_free(l);
    close(p[0]);
}

static void test_an_fd_closed_while_watched_reports_an_error(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2];
    make_pipe(p);
    probe pr = {.name = 'r'};
    loop_io w;
    loop_io_init(l, &w, p[0], probe_cb, &pr);
    assert_int_equal(loop_io_start(&w, LOOP_READ), 0);
    close(p[0]);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 1);
    assert_int_equal(pr.events, LOOP_ERROR | LOOP_READ);
    loop_io_stop(&w);
    loop_free(l);
    close(p[1]);
}

static void test_interest_zero_pauses_an_fd_and_restarting_resumes_it(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2];
    make_pipe(p);
    put_byte(p[1]);
    probe pr = {.name = 'r'};
    loop_io w;
    loop_io_init(l, &w, p[0], probe_cb, &pr);
    assert_int_equal(loop_io_start(&w, 0), 0);
    assert_true(loop_io_active(&w));
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 0);
    assert_int_equal(loop_io_start(&w, LOOP_READ), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 1);
    loop_io_stop(&w);
    loop_free(l);
    close_pipe(p);
}

static void test_bad_fd_starts_are_refused_and_leave_the_handle_inactive(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    probe pr = {.name = 'x'};
    loop_io a, b, neg, nocb;
    loop_io_init(l, &a, 0, probe_cb, &pr);
    loop_io_init(l, &b, 0, probe_cb, &pr);
    loop_io_init(l, &neg, -1, probe_cb, &pr);
    loop_io_init(l, &nocb, 1, NULL, NULL);
    assert_int_equal(loop_io_start(&a, 8u), LOOP_EINVAL);
    assert_false(loop_io_active(&a));
    assert_int_equal(loop_io_start(&neg, LOOP_READ), LOOP_EINVAL);
    assert_int_equal(loop_io_start(&nocb, LOOP_READ), LOOP_EINVAL);
    assert_int_equal(loop_io_start(&a, 0), 0);
    assert_int_equal(loop_io_start(&b, LOOP_READ), LOOP_EFD_IN_USE);
    assert_false(loop_io_active(&b));
    assert_int_equal(loop_io_start(&a, 8u), LOOP_EINVAL);
    assert_int_equal(a.events, 0);
    loop_io_stop(&b); /* inactive: nothing */
    loop_io_stop(&a);
    loop_io_stop(&a);
    assert_int_equal(loop_io_start(&b, 0), 0);
    loop_free(l);
    assert_false(loop_io_active(&b));
}

static void test_a_callback_may_stop_and_free_its_own_handle(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2], q[2];
    make_pipe(p);
    make_pipe(q);
    put_byte(p[1]);
    put_byte(q[1]);
    probe pa = {.name = 'a', .stop_self = true, .free_self = true};
    probe pb = {.name = 'b'};
    loop_io *a = malloc(sizeof *a);
    assert_non_null(a);
    loop_io b;
    loop_io_init(l, a, p[0], probe_cb, &pa);
    loop_io_init(l, &b, q[0], probe_cb, &pb);
    assert_int_equal(loop_io_start(a, LOOP_READ), 0);
    assert_int_equal(loop_io_start(&b, LOOP_READ), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pa.calls, 1);
    assert_int_equal(pb.calls, 1);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pa.calls, 1);
    assert_int_equal(pb.calls, 2);
    loop_io_stop(&b);
    loop_free(l);
    close_pipe(p);
    close_pipe(q);
}

static void test_a_ready_handle_stopped_by_another_callback_is_not_called(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2], q[2];
    make_pipe(p);
    make_pipe(q);
    put_byte(p[1]);
    put_byte(q[1]);
    loop_io a, b;
    probe pa = {.name = 'a', .stop_io = &b}, pb = {.name = 'b', .stop_io = &a};
    loop_io_init(l, &a, p[0], probe_cb, &pa);
    loop_io_init(l, &b, q[0], probe_cb, &pb);
    assert_int_equal(loop_io_start(&a, LOOP_READ), 0);
    assert_int_equal(loop_io_start(&b, LOOP_READ), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pa.calls + pb.calls, 1);
    assert_true(loop_io_active(&a) != loop_io_active(&b));
    loop_io_stop(&a);
    loop_io_stop(&b);
    loop_free(l);
    close_pipe(p);
    close_pipe(q);
}

/* For the reused-fd test: stops `old`, closes its pipe and watches a new one in its place. */
typedef struct swap {
    loop *l;
    loop_io *old, *fresh;
    int *old_pipe, *new_pipe;
    probe *fresh_probe;
    bool done;
} swap;

static int swap_fd(void *arg)
{
    swap *s = arg;
    if (s->done)
        return 0;
    loop_io_stop(s->old);
    close_pipe(s->old_pipe);
    make_pipe(s->new_pipe); /* takes the lowest free numbers: the old pipe's */
    s->done = true;
    loop_io_init(s->l, s->fresh, s->new_pipe[0], probe_cb, s->fresh_probe);
    return loop_io_start(s->fresh, LOOP_READ);
}

static void test_an_fd_reused_inside_a_callback_gets_no_stale_readiness(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2], q[2], np[2], nq[2];
    make_pipe(p);
    make_pipe(q);
    put_byte(p[1]);
    put_byte(q[1]);
    /* Whichever of a and b runs first replaces the other, whose fd was ready too. */
    loop_io a, b, fresh_a, fresh_b;
    probe pfa = {.name = 'A'}, pfb = {.name = 'B'};
    swap sa = {l, &b, &fresh_b, q, nq, &pfb, false}, sb = {l, &a, &fresh_a, p, np, &pfa, false};
    probe pa = {.name = 'a', .then = swap_fd, .then_arg = &sa};
    probe pb = {.name = 'b', .then = swap_fd, .then_arg = &sb};
    loop_io_init(l, &a, p[0], probe_cb, &pa);
    loop_io_init(l, &b, q[0], probe_cb, &pb);
    assert_int_equal(loop_io_start(&a, LOOP_READ), 0);
    assert_int_equal(loop_io_start(&b, LOOP_READ), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pa.calls + pb.calls, 1);
    assert_int_equal(pfa.calls + pfb.calls, 0);
    const swap *done = sa.done ? &sa : &sb;
    assert_true(done->done);
    assert_int_equal(done->new_pipe[0], done->old_pipe[0]); /* the number was reused */
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pfa.calls + pfb.calls, 0); /* the new pipe is empty */
    loop_io_stop(sa.done ? &a : &b);
    loop_io_stop(done->fresh);
    loop_free(l);
    close_pipe(sa.done ? p : q);
    close_pipe(done->new_pipe);
}

static void test_dropping_an_interest_in_a_callback_hides_its_readiness(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2], q[2];
    make_pipe(p);
    make_pipe(q);
    put_byte(p[1]);
    put_byte(q[1]);
    loop_io a, b;
    probe pa = {.name = 'a', .pause_io = &b}, pb = {.name = 'b', .pause_io = &a};
    loop_io_init(l, &a, p[0], probe_cb, &pa);
    loop_io_init(l, &b, q[0], probe_cb, &pb);
    assert_int_equal(loop_io_start(&a, LOOP_READ), 0);
    assert_int_equal(loop_io_start(&b, LOOP_READ), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pa.calls + pb.calls, 1);
    loop_io_stop(&a);
    loop_io_stop(&b);
    loop_free(l);
    close_pipe(p);
    close_pipe(q);
}

/* ------------------------------------------------------------------------ */
/* Timers                                                                   */

static void test_timers_fire_by_due_time_then_by_start_order(void **state)
{
    (void)state;
    int64_t now = 1000;
    loop *l = fake_loop(&now);
    tick ka = {.name = 'a'}, kb = {.name = 'b'}, kc = {.name = 'c'}, kd = {.name = 'd'};
    loop_timer a, b, c, d;
    loop_timer_init(l, &a, tick_cb, &ka);
    loop_timer_init(l, &b, tick_cb, &kb);
    loop_timer_init(l, &c, tick_cb, &kc);
    loop_timer_init(l, &d, tick_cb, &kd);
    assert_int_equal(loop_timer_start(&a, 30, 0), 0);
    assert_int_equal(loop_timer_start(&b, 10, 0), 0);
    assert_int_equal(loop_timer_start(&c, 20, 0), 0);
    assert_int_equal(loop_timer_start(&d, 10, 0), 0);
    trace_reset();
    now = 1009;
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "");
    now = 1030;
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "bdca");
    assert_false(loop_timer_active(&a));
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "bdca");
    loop_free(l);
}

static void test_a_repeating_timer_keeps_its_cadence_and_fires_once_after_a_stall(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    tick k = {.name = 'r', .now = &now};
    loop_timer t;
    loop_timer_init(l, &t, tick_cb, &k);
    assert_int_equal(loop_timer_start(&t, 10, 10), 0);
    trace_reset();
    const int64_t steps[] = {10, 13, 20, 55, 59, 60};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        now = steps[i];
        assert_int_equal(loop_run_once(l, false), 0);
    }
    assert_int_equal(k.calls, 4); /* 10, 20, 55 (for 30, 40, 50), 60 */
    assert_int_equal(k.at[0], 10);
    assert_int_equal(k.at[1], 20);
    assert_int_equal(k.at[2], 55);
    assert_int_equal(k.at[3], 60);
    assert_true(loop_timer_active(&t));
    loop_timer_stop(&t);
    assert_false(loop_timer_active(&t));
    loop_free(l);
}

static void test_a_repeating_timer_may_stop_itself_in_its_callback(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    tick k = {.name = 'r', .stop_after = 2};
    loop_timer t;
    loop_timer_init(l, &t, tick_cb, &k);
    assert_int_equal(loop_timer_start(&t, 5, 5), 0);
    trace_reset();
    for (now = 0; now <= 50; now++)
        assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(k.calls, 2);
    assert_false(loop_timer_active(&t));
    loop_free(l);
}

static void test_a_one_shot_timer_is_inactive_in_its_callback_and_may_restart(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    tick k = {.name = 'o', .now = &now, .restart = true};
    loop_timer t;
    loop_timer_init(l, &t, tick_cb, &k);
    assert_int_equal(loop_timer_start(&t, 0, 0), 0);
    trace_reset();
    for (now = 0; now <= 30; now++)
        assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(k.calls, 2);
    assert_int_equal(k.at[0], 0);
    assert_int_equal(k.at[1], 10);
    assert_false(loop_timer_active(&t));
    loop_free(l);
}

static void test_a_timer_started_by_a_timer_waits_for_the_next_iteration(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    loop_timer a, b;
    tick kb = {.name = 'b'}, ka = {.name = 'a', .other = &b};
    loop_timer_init(l, &a, tick_cb, &ka);
    loop_timer_init(l, &b, tick_cb, &kb);
    assert_int_equal(loop_timer_start(&a, 0, 0), 0);
    trace_reset();
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "a");
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "ab");
    loop_free(l);
}

static void test_a_timer_callback_may_stop_a_timer_due_at_the_same_time(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    loop_timer a, b;
    tick kb = {.name = 'b'}, ka = {.name = 'a', .cancel = &b};
    loop_timer_init(l, &a, tick_cb, &ka);
    loop_timer_init(l, &b, tick_cb, &kb);
    assert_int_equal(loop_timer_start(&a, 5, 0), 0);
    assert_int_equal(loop_timer_start(&b, 5, 0), 0);
    trace_reset();
    now = 5;
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "a");
    assert_false(loop_timer_active(&b));
    loop_free(l);
}

static void test_restarting_an_active_timer_moves_its_due_time(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    tick k = {.name = 't', .now = &now};
    loop_timer t;
    loop_timer_init(l, &t, tick_cb, &k);
    assert_int_equal(loop_timer_start(&t, 10, 0), 0);
    now = 8;
    assert_int_equal(loop_timer_start(&t, 10, 0), 0);
    trace_reset();
    for (now = 8; now <= 30; now++)
        assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(k.calls, 1);
    assert_int_equal(k.at[0], 18);
    loop_free(l);
}

static void test_timer_delays_out_of_bounds_are_refused_untouched(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    tick k = {.name = 't'};
    loop_timer t, nocb;
    loop_timer_init(l, &t, tick_cb, &k);
    loop_timer_init(l, &nocb, NULL, NULL);
    assert_int_equal(loop_timer_start(&t, -1, 0), LOOP_EINVAL);
    assert_int_equal(loop_timer_start(&t, LOOP_DELAY_MAX_MS + 1, 0), LOOP_EINVAL);
    assert_int_equal(loop_timer_start(&t, 0, -5), LOOP_EINVAL);
    assert_int_equal(loop_timer_start(&t, 0, LOOP_DELAY_MAX_MS + 1), LOOP_EINVAL);
    assert_int_equal(loop_timer_start(&nocb, 0, 0), LOOP_EINVAL);
    assert_false(loop_timer_active(&t));
    assert_int_equal(loop_timer_start(&t, 7, 0), 0);
    assert_int_equal(loop_timer_start(&t, -1, 0), LOOP_EINVAL);
    assert_int_equal(t.due_ms, 7);
    assert_int_equal(loop_timer_start(&t, LOOP_DELAY_MAX_MS, LOOP_DELAY_MAX_MS), 0);
    loop_free(l);
    assert_false(loop_timer_active(&t));
}

static void test_poll_sleeps_until_the_next_timer_on_the_real_clock(void **state)
{
    (void)state;
    loop *l = real_loop();
    tick k = {.name = 't'};
    loop_timer t;
    loop_timer_init(l, &t, tick_cb, &k);
    trace_reset();
    int64_t t0 = loop_monotonic_ms(NULL); /* read before the start: no later than its now */
    assert_int_equal(loop_timer_start(&t, 30, 0), 0);
    while (k.calls == 0)
        assert_int_equal(loop_run_once(l, true), 0);
    assert_in_range(elapsed_ms(t0), 30, 5000);
    loop_free(l);
}

static void test_run_goes_on_until_a_repeating_timer_stops_the_loop(void **state)
{
    (void)state;
    loop *l = real_loop();
    tick k = {.name = 't'};
    loop_timer t;
    loop_timer_init(l, &t, tick_cb, &k);
    k.stop_loop_at = 3;
    trace_reset();
    int64_t t0 = loop_monotonic_ms(NULL);
    assert_int_equal(loop_timer_start(&t, 2, 2), 0);
    assert_int_equal(loop_run(l), 0);
    assert_int_equal(k.calls, 3);
    assert_true(elapsed_ms(t0) >= 6);
    assert_true(loop_timer_active(&t));
    loop_free(l);
}

/* ------------------------------------------------------------------------ */
/* Before-sleep hooks                                                       */

/* A hook that traces, and the first time writes to a pipe and starts a timer. */
typedef struct hook_probe {
    char name;
    int calls;
    int write_fd;      /* >= 0: written once */
    loop_timer *timer; /* started once with delay 0 */
    loop_hook *stop;   /* stopped by this hook */
} hook_probe;

/* The hook callback of a hook_probe (arg). */
static void hook_cb(loop_hook *h, void *arg)
{
    (void)h;
    hook_probe *hp = arg;
    hp->calls++;
    trace_add(hp->name);
    if (hp->write_fd >= 0) {
        put_byte(hp->write_fd);
        hp->write_fd = -1;
    }
    if (hp->timer != NULL) {
        assert_int_equal(loop_timer_start(hp->timer, 0, 0), 0);
        hp->timer = NULL;
    }
    if (hp->stop != NULL)
        loop_hook_stop(hp->stop);
}

static void test_hooks_run_in_order_before_the_poll_they_feed(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2];
    make_pipe(p);
    loop_io w;
    probe pr = {.name = 'r'};
    loop_io_init(l, &w, p[0], probe_cb, &pr);
    assert_int_equal(loop_io_start(&w, LOOP_READ), 0);
    loop_timer t;
    tick k = {.name = 't'};
    loop_timer_init(l, &t, tick_cb, &k);
    loop_hook h1, h2, h3;
    hook_probe p1 = {.name = '1', .write_fd = p[1]},
               p2 = {.name = '2', .write_fd = -1, .timer = &t}, p3 = {.name = '3', .write_fd = -1};
    loop_hook_init(l, &h1, hook_cb, &p1);
    loop_hook_init(l, &h2, hook_cb, &p2);
    loop_hook_init(l, &h3, hook_cb, &p3);
    assert_int_equal(loop_hook_start(&h1), 0);
    assert_int_equal(loop_hook_start(&h2), 0);
    assert_int_equal(loop_hook_start(&h3), 0);
    assert_int_equal(loop_hook_start(&h2), 0); /* active: nothing */
    trace_reset();
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "123rt");
    loop_hook_stop(&h2);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "123rt13r");
    loop_io_stop(&w);
    loop_free(l);
    assert_false(h1.slot >= 0);
    close_pipe(p);
}

static void test_a_hook_stopped_by_an_earlier_hook_does_not_run(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    loop_hook h1, h2;
    hook_probe p2 = {.name = '2', .write_fd = -1}, p1 = {.name = '1', .write_fd = -1, .stop = &h2};
    loop_hook_init(l, &h1, hook_cb, &p1);
    loop_hook_init(l, &h2, hook_cb, &p2);
    assert_int_equal(loop_hook_start(&h1), 0);
    assert_int_equal(loop_hook_start(&h2), 0);
    trace_reset();
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace, "11");
    loop_free(l);
}

/* ------------------------------------------------------------------------ */
/* Stopping                                                                 */

static void test_stop_in_a_callback_runs_no_further_callback(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int p[2], q[2];
    make_pipe(p);
    make_pipe(q);
    put_byte(p[1]);
    put_byte(q[1]);
    probe pa = {.name = 'a', .stop_loop = true, .consume = true},
          pb = {.name = 'b', .stop_loop = true, .consume = true};
    loop_io a, b;
    loop_io_init(l, &a, p[0], probe_cb, &pa);
    loop_io_init(l, &b, q[0], probe_cb, &pb);
    assert_int_equal(loop_io_start(&a, LOOP_READ), 0);
    assert_int_equal(loop_io_start(&b, LOOP_READ), 0);
    tick k = {.name = 't'};
    loop_timer t;
    loop_timer_init(l, &t, tick_cb, &k);
    assert_int_equal(loop_timer_start(&t, 0, 0), 0);
    trace_reset();
    assert_int_equal(loop_run(l), 0);
    assert_int_equal(ntrace, 1);
    assert_int_equal(loop_run(l), 0); /* the other one, still ready */
    assert_int_equal(ntrace, 2);
    assert_int_equal(pa.calls, 1);
    assert_int_equal(pb.calls, 1);
    assert_int_equal(k.calls, 0);
    loop_io_stop(&a);
    loop_io_stop(&b);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_string_equal(trace + 2, "t");
    loop_free(l);
    close_pipe(p);
    close_pipe(q);
}

static void test_a_stop_made_before_the_run_ends_it_at_once(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    tick k = {.name = 't'};
    loop_timer t;
    loop_timer_init(l, &t, tick_cb, &k);
    assert_int_equal(loop_timer_start(&t, 0, 0), 0);
    loop_stop(l);
    loop_stop(l);
    assert_int_equal(loop_run_once(l, false), 1);
    assert_int_equal(k.calls, 0);
    assert_int_equal(loop_run_once(l, false), 0); /* used up */
    assert_int_equal(k.calls, 1);
    loop_stop(l);
    assert_int_equal(loop_run(l), 0);
    loop_free(l);
}

/* Runs the loop from inside a callback: refused. */
static void nested_cb(loop_timer *t, void *arg)
{
    int *rcs = arg;
    rcs[0] = loop_run(t->loop);
    rcs[1] = loop_run_once(t->loop, false);
}

static void test_running_the_loop_from_its_own_callback_is_refused(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    int rcs[2] = {0, 0};
    loop_timer t;
    loop_timer_init(l, &t, nested_cb, rcs);
    assert_int_equal(loop_timer_start(&t, 0, 0), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(rcs[0], LOOP_EBUSY);
    assert_int_equal(rcs[1], LOOP_EBUSY);
    loop_free(l);
}

static loop *volatile sig_loop;

/* The SIGUSR1 handler: stops sig_loop. */
static void on_usr1(int sig)
{
    (void)sig;
    loop_stop(sig_loop);
}

/* Installs on_usr1 for SIGUSR1 (no SA_RESTART) and a watchdog alarm. */
static void catch_usr1(loop *l)
{
    sig_loop = l;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    alarm(WATCHDOG_SECS);
}

/* Undoes catch_usr1. */
static void release_usr1(void)
{
    alarm(0);
    signal(SIGUSR1, SIG_DFL);
    sig_loop = NULL;
}

/* A timer callback that counts into *arg and raises SIGUSR1. */
static void raise_cb(loop_timer *t, void *arg)
{
    (void)t;
    (*(int *)arg)++;
    errno = 1234;
    assert_int_equal(raise(SIGUSR1), 0);
    assert_int_equal(errno, 1234); /* the handler kept errno */
}

static void test_a_signal_handler_calling_stop_ends_the_run(void **state)
{
    (void)state;
    loop *l = real_loop();
    catch_usr1(l);
    int calls = 0;
    loop_timer t;
    loop_timer_init(l, &t, raise_cb, &calls);
    assert_int_equal(loop_timer_start(&t, 1, 1), 0);
    assert_int_equal(loop_run(l), 0);
    assert_int_equal(calls, 1);
    release_usr1();
    loop_free(l);
}

static void test_a_signal_while_poll_sleeps_wakes_and_stops_the_loop(void **state)
{
    (void)state;
    loop *l = real_loop();
    catch_usr1(l);
    pid_t parent = getpid();
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
        kill(parent, SIGUSR1);
        _exit(0);
    }
    assert_int_equal(loop_run(l), 0); /* nothing to watch: sleeps until the signal */
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    release_usr1();
    loop_free(l);
}

/* A thread: stops the loop arg after 50 ms. */
static void *stop_later(void *arg)
{
    struct timespec ts = {0, 50 * 1000000L};
    nanosleep(&ts, NULL);
    loop_stop(arg);
    return NULL;
}

static void test_stop_from_another_thread_wakes_a_sleeping_poll(void **state)
{
    (void)state;
    loop *l = real_loop();
    alarm(WATCHDOG_SECS);
    pthread_t th;
    int64_t t0 = loop_monotonic_ms(NULL);
    assert_int_equal(pthread_create(&th, NULL, stop_later, l), 0);
    assert_int_equal(loop_run(l), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_true(elapsed_ms(t0) >= 40);
    alarm(0);
    loop_free(l);
}

static void test_the_fd_table_refuses_one_past_its_cap_and_takes_it_after_a_stop(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    probe pr = {.name = 'x'};
    loop_io *ws = calloc(LOOP_FDS_MAX + 1, sizeof *ws);
    assert_non_null(ws);
    for (int i = 0; i <= LOOP_FDS_MAX; i++)
        loop_io_init(l, &ws[i], 100000 + i, probe_cb, &pr); /* never polled: paused */
    for (int i = 0; i < LOOP_FDS_MAX; i++)
        assert_int_equal(loop_io_start(&ws[i], 0), 0);
    assert_int_equal(loop_io_start(&ws[LOOP_FDS_MAX], 0), LOOP_EFDS_FULL);
    assert_false(loop_io_active(&ws[LOOP_FDS_MAX]));
    assert_int_equal(loop_io_start(&ws[7], LOOP_READ), 0); /* a change is no new entry */
    assert_int_equal(loop_io_start(&ws[7], 0), 0);
    loop_io_stop(&ws[3]);
    assert_int_equal(loop_io_start(&ws[LOOP_FDS_MAX], 0), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(pr.calls, 0);
    for (int i = 0; i <= LOOP_FDS_MAX; i += 2)
        loop_io_stop(&ws[i]);
    loop_free(l); /* the odd ones are made inactive here */
    for (int i = 0; i <= LOOP_FDS_MAX; i++)
        assert_false(loop_io_active(&ws[i]));
    free(ws);
}

static void test_the_timer_table_refuses_one_past_its_cap(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    tick k = {.name = 't'};
    loop_timer *ts = calloc(LOOP_TIMERS_MAX + 1, sizeof *ts);
    assert_non_null(ts);
    for (int i = 0; i <= LOOP_TIMERS_MAX; i++)
        loop_timer_init(l, &ts[i], tick_cb, &k);
    for (int i = 0; i < LOOP_TIMERS_MAX; i++)
        assert_int_equal(loop_timer_start(&ts[i], 1000 + i, 0), 0);
    assert_int_equal(loop_timer_start(&ts[LOOP_TIMERS_MAX], 5, 0), LOOP_ETIMERS_FULL);
    assert_false(loop_timer_active(&ts[LOOP_TIMERS_MAX]));
    assert_int_equal(loop_timer_start(&ts[0], 1, 0), 0); /* re-arming takes no room */
    trace_reset();
    now = 1;
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(k.calls, 1);
    assert_int_equal(loop_timer_start(&ts[LOOP_TIMERS_MAX], 5, 0), 0);
    loop_free(l);
    free(ts);
}

static void test_the_hook_table_refuses_one_past_its_cap(void **state)
{
    (void)state;
    int64_t now = 0;
    loop *l = fake_loop(&now);
    hook_probe hp = {.name = 'h', .write_fd = -1};
    loop_hook hooks[LOOP_HOOKS_MAX + 1];
    for (int i = 0; i <= LOOP_HOOKS_MAX; i++)
        loop_hook_init(l, &hooks[i], hook_cb, &hp);
    for (int i = 0; i < LOOP_HOOKS_MAX; i++)
        assert_int_equal(loop_hook_start(&hooks[i]), 0);
    assert_int_equal(loop_hook_start(&hooks[LOOP_HOOKS_MAX]), LOOP_EHOOKS_FULL);
    loop_hook nocb;
    loop_hook_init(l, &nocb, NULL, NULL);
    assert_int_equal(loop_hook_start(&nocb), LOOP_EINVAL);
    loop_hook_stop(&hooks[0]);
    assert_int_equal(loop_hook_start(&hooks[LOOP_HOOKS_MAX]), 0);
    loop_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_error_code_has_its_own_message),
        cmocka_unit_test(test_a_pipe_with_data_calls_its_reader_and_a_quiet_one_does_not),
        cmocka_unit_test(test_a_writer_sees_write_and_only_the_interest_it_asked_for),
        cmocka_unit_test(test_a_closed_writer_shows_as_readable_for_the_end_of_file),
        cmocka_unit_test(test_an_fd_closed_while_watched_reports_an_error),
        cmocka_unit_test(test_interest_zero_pauses_an_fd_and_restarting_resumes_it),
        cmocka_unit_test(test_bad_fd_starts_are_refused_and_leave_the_handle_inactive),
        cmocka_unit_test(test_a_callback_may_stop_and_free_its_own_handle),
        cmocka_unit_test(test_a_ready_handle_stopped_by_another_callback_is_not_called),
        cmocka_unit_test(test_an_fd_reused_inside_a_callback_gets_no_stale_readiness),
        cmocka_unit_test(test_dropping_an_interest_in_a_callback_hides_its_readiness),
        cmocka_unit_test(test_timers_fire_by_due_time_then_by_start_order),
        cmocka_unit_test(test_a_repeating_timer_keeps_its_cadence_and_fires_once_after_a_stall),
        cmocka_unit_test(test_a_repeating_timer_may_stop_itself_in_its_callback),
        cmocka_unit_test(test_a_one_shot_timer_is_inactive_in_its_callback_and_may_restart),
        cmocka_unit_test(test_a_timer_started_by_a_timer_waits_for_the_next_iteration),
        cmocka_unit_test(test_a_timer_callback_may_stop_a_timer_due_at_the_same_time),
        cmocka_unit_test(test_restarting_an_active_timer_moves_its_due_time),
        cmocka_unit_test(test_timer_delays_out_of_bounds_are_refused_untouched),
        cmocka_unit_test(test_poll_sleeps_until_the_next_timer_on_the_real_clock),
        cmocka_unit_test(test_run_goes_on_until_a_repeating_timer_stops_the_loop),
        cmocka_unit_test(test_hooks_run_in_order_before_the_poll_they_feed),
        cmocka_unit_test(test_a_hook_stopped_by_an_earlier_hook_does_not_run),
        cmocka_unit_test(test_stop_in_a_callback_runs_no_further_callback),
        cmocka_unit_test(test_a_stop_made_before_the_run_ends_it_at_once),
        cmocka_unit_test(test_running_the_loop_from_its_own_callback_is_refused),
        cmocka_unit_test(test_a_signal_handler_calling_stop_ends_the_run),
        cmocka_unit_test(test_a_signal_while_poll_sleeps_wakes_and_stops_the_loop),
        cmocka_unit_test(test_stop_from_another_thread_wakes_a_sleeping_poll),
        cmocka_unit_test(test_the_fd_table_refuses_one_past_its_cap_and_takes_it_after_a_stop),
        cmocka_unit_test(test_the_timer_table_refuses_one_past_its_cap),
        cmocka_unit_test(test_the_hook_table_refuses_one_past_its_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
