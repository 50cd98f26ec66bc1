/*
 * test_adapter.c — the adapters' interface (adapters/adapter.h): the
 * lifecycle every network shares (adapter_life: its hook and timers start
 * together and stop together, on a real loop), and each kind's table of
 * operations (irc_adapter, mx_adapter) complete and reading its own
 * sections of a configuration.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "adapter.h"
#include "irc.h"
#include "mx.h"

typedef struct counts {
    int hook, a, b;
} counts;

static void on_hook(loop_hook *h, void *arg)
{
    (void)h;
    ((counts *)arg)->hook++;
}

static void on_a(loop_timer *t, void *arg)
{
    (void)t;
    ((counts *)arg)->a++;
}

static void on_b(loop_timer *t, void *arg)
{
    (void)t;
    ((counts *)arg)->b++;
}

static void test_a_networks_hook_and_timers_start_together_and_stop_together(void **state)
{
    (void)state;
    loop *l;
    assert_int_equal(loop_new(&l, NULL, NULL), 0);
    counts n = {0};
    loop_hook hook;
    loop_timer a, b;
    adapter_life life;
    adapter_life_init(&life, l, &hook, on_hook, &n);
    adapter_life_timer(&life, &a, on_a, &n);
    adapter_life_timer(&life, &b, on_b, &n);
    assert_false(life.started);
    adapter_life_stop(&life); /* never started: nothing to stop */
    assert_int_equal(adapter_life_start(&life, &a), 0);
    assert_true(life.started);
    assert_true(loop_timer_active(&a)); /* the first timer at once */
    assert_false(loop_timer_active(&b));
    assert_int_equal(loop_timer_start(&b, 60000, 0), 0);
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(n.hook, 1);
    assert_int_equal(n.a, 1);
    assert_int_equal(n.b, 0);
    assert_int_equal(loop_timer_start(&a, 60000, 0), 0);
    adapter_life_stop(&life);
    assert_false(life.started);
    assert_false(loop_timer_active(&a));
    assert_false(loop_timer_active(&b));
    assert_int_equal(loop_run_once(l, false), 0);
    assert_int_equal(n.hook, 1); /* the hook is stopped too */
    adapter_life_stop(&life);    /* idempotent */
    loop_free(l);
}

static void test_every_kind_has_every_operation_but_reconfigure(void **state)
{
    (void)state;
    const adapter_ops *const kinds[] = {&irc_adapter, &mx_adapter};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const adapter_ops *o = kinds[k];
        assert_non_null(o->kind);
        assert_non_null(o->count);
        assert_non_null(o->section);
        assert_non_null(o->make);
        assert_non_null(o->start);
        assert_non_null(o->quit);
        assert_non_null(o->closed);
        assert_non_null(o->free);
        assert_non_null(o->name);
        assert_non_null(o->outq);
        assert_non_null(o->leave);
        assert_non_null(o->is_owner);
    }
    assert_string_equal(irc_adapter.kind, "irc");
    assert_string_equal(mx_adapter.kind, "matrix");
    assert_non_null(irc_adapter.reconfigure); /* channels, colours, pacing at a reload */
    assert_null(mx_adapter.reconfigure);      /* a restart */
}

static void test_each_kind_reads_its_own_sections_and_owners(void **state)
{
    (void)state;
    static cfg c;
    cfg_defaults(&c);
    c.nirc = 2;
    snprintf(c.irc[0].name, sizeof c.irc[0].name, "libera");
    snprintf(c.irc[1].name, sizeof c.irc[1].name, "oftc");
    c.nmatrix = 1;
    snprintf(c.matrix[0].name, sizeof c.matrix[0].name, "home");
    assert_int_equal(irc_adapter.count(&c), 2);
    assert_string_equal(irc_adapter.section(&c, 1), "oftc");
    assert_int_equal(mx_adapter.count(&c), 1);
    assert_string_equal(mx_adapter.section(&c, 0), "home");
    /* each kind's rule: an IRC account a:ACCOUNT matches NETWORK:ACCOUNT, a
       nick does not; a Matrix owner is a user id */
    c.bot.nowners = 2;
    snprintf(c.bot.owners[0], sizeof c.bot.owners[0], "libera:ann");
    snprintf(c.bot.owners[1], sizeof c.bot.owners[1], "home:@ann:example.org");
    assert_true(irc_adapter.is_owner(&c, "libera", "a:ann"));
    assert_false(irc_adapter.is_owner(&c, "libera", "n:ann"));
    assert_false(irc_adapter.is_owner(&c, "oftc", "a:ann"));
    assert_false(irc_adapter.is_owner(&c, "libera", NULL));
    assert_true(mx_adapter.is_owner(&c, "home", "@ann:example.org"));
    assert_false(mx_adapter.is_owner(&c, "home", "a:ann"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_networks_hook_and_timers_start_together_and_stop_together),
        cmocka_unit_test(test_every_kind_has_every_operation_but_reconfigure),
        cmocka_unit_test(test_each_kind_reads_its_own_sections_and_owners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
