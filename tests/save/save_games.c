/*
 * save_games.c — random games for the saved-game tests (save_games.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "save_games.h"

pz_game *sg_new_game(const setup *s, uint64_t seed)
{
    pz_setup su;
    char why[PZ_WHY_MAX];
    pz_game *g = NULL;
    pz_setup_default(&su);
    su.players = s->players;
    su.seed = seed;
    su.dealer = -1;
    for (int i = 0; s->opts[i] != NULL; i += 2)
        assert_int_equal(pz_options_set(&su.options, s->opts[i], s->opts[i + 1], why, sizeof why),
                         0);
    assert_int_equal(pz_new(&g, &su, NULL, why, sizeof why), 0);
    return g;
}

uint64_t sg_next(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

int sg_step(pz_game *g, uint64_t *x)
{
    pz_action acts[PZ_LEGAL_MAX];
    char why[PZ_WHY_MAX];
    int n = pz_legal_actions(g, -1, acts, PZ_LEGAL_MAX);
    if (n <= 0)
        return 0;
    const pz_action *a = &acts[sg_next(x) % (uint64_t)n];
    assert_int_equal(pz_apply(g, a, NULL, why, sizeof why), 0);
    return 1;
}

size_t sg_save(const pz_game *g, char *doc)
{
    int n = pz_save(g, doc, PZ_SAVE_MAX);
    assert_true(n > 0 && n < PZ_SAVE_MAX);
    assert_int_equal(strlen(doc), (size_t)n);
    return (size_t)n;
}

void sg_play_on_alike(pz_game *g, pz_game *r, uint64_t x)
{
    char a[PZ_SAVE_MAX], b[PZ_SAVE_MAX];
    for (int i = 0; i < 3000; i++) {
        uint64_t y = x; /* the same choice for both games */
        int more = sg_step(g, &x);
        assert_int_equal(sg_step(r, &y), more);
        sg_save(g, a);
        sg_save(r, b);
        assert_string_equal(a, b);
        if (!more)
            break;
    }
}
