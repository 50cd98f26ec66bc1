/*
 * test_strmap.c — bot/base/strmap.h against a plain array doing the same:
 * random puts, removals and lookups over keys that share few hash bits
 * (a small table's runs cross its end and each other), then the map
 * emptied and used again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "strmap.h"

enum { KEYS = 3000, OPS = 200000 };

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* What the map must hold: model[k] the value of key k, or -1 none. */
static int64_t model[KEYS];

static void key_of(int k, char out[32])
{
    snprintf(out, 32, "net\x1f#room-%d", k);
}

/* Every key's lookup agrees with the model, and the walk sees each held
   key once. */
static void walk_one(void *arg, const char *key, int64_t value)
{
    int *seen = arg, k = -1;
    assert_int_equal(sscanf(key, "net\x1f#room-%d", &k), 1);
    assert_true(k >= 0 && k < KEYS);
    assert_int_equal(value, model[k]);
    seen[k]++;
}

static void check_all(const strmap *m)
{
    static int seen[KEYS];
    size_t held = 0;
    char key[32];
    for (int k = 0; k < KEYS; k++) {
        int64_t v = -7;
        key_of(k, key);
        bool in = strmap_get(m, key, &v);
        if (in != (model[k] >= 0) || (in && v != model[k]))
            fail_msg("%s: map %s %lld, model %lld", key, in ? "holds" : "lacks", (long long)v,
                     (long long)model[k]);
        held += model[k] >= 0;
        seen[k] = 0;
    }
    assert_int_equal(m->n, held);
    strmap_each(m, walk_one, seen);
    for (int k = 0; k < KEYS; k++)
        assert_int_equal(seen[k], model[k] >= 0);
}

static void test_the_map_agrees_with_an_array_through_random_puts_and_removals(void **state)
{
    (void)state;
    strmap m = STRMAP_INIT;
    char key[32];
    int64_t v;
    key_of(1, key);
    assert_false(strmap_get(&m, key, &v)); /* empty, never allocated */
    assert_false(strmap_del(&m, key));
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < KEYS; k++)
            model[k] = -1;
        for (int op = 0; op < OPS; op++) {
            /* mostly the first 400 keys: long runs of removals and puts
               among the same slots; now and then the others, to grow it */
            int k = (int)(next() % (next() % 8 == 0 ? KEYS : 400));
            key_of(k, key);
            if (next() % 3 == 0) {
                assert_int_equal(strmap_del(&m, key), model[k] >= 0);
                model[k] = -1;
            } else {
                model[k] = (int64_t)(next() >> 1);
                assert_int_equal(strmap_put(&m, key, model[k]), 0);
            }
            if (op % 20000 == 0)
                check_all(&m);
        }
        check_all(&m);
        for (int k = 0; k < KEYS; k++) { /* everything out: the map empty */
            key_of(k, key);
            assert_int_equal(strmap_del(&m, key), model[k] >= 0);
            model[k] = -1;
        }
        check_all(&m);
        strmap_free(&m);
        assert_int_equal(m.n, 0);
        assert_null(m.slots);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_map_agrees_with_an_array_through_random_puts_and_removals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
