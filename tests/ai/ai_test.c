/*
 * ai_test.c — the computer players' tests' shared helpers; see ai_test.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai_test.h"
#include "game.h" /* at_redeal_hidden re-deals the hidden cards of a real game */

/* Documented in ai_test.h. */
uint64_t at_next(uint64_t *rng)
{
    uint64_t z = (*rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Documented in ai_test.h. */
int at_below(uint64_t *rng, int bound)
{
    return (int)(at_next(rng) % (uint64_t)bound);
}

/* Documented in ai_test.h. */
int at_scaled(int n)
{
    const char *env = getenv("PZ_AI_TEST_SCALE");
    double scale = 1.0;
    if (env != NULL) {
        char *end = NULL;
        double v = strtod(env, &end);
        if (end != env && v > 0 && v <= 1000)
            scale = v;
    }
    int m = (int)(n * scale);
    return m < 1 ? 1 : m;
}

/* Documented in ai_test.h. */
void at_random_setup(uint64_t *rng, int players, pz_setup *s)
{
    pz_setup_default(s);
    s->players = players > 0 ? players : PZ_MIN_PLAYERS + at_below(rng, PZ_MAX_PLAYERS - 1);
    pz_options *o = &s->options;
    int roll = at_below(rng, 10);
    o->target = roll < 2 ? 61 : roll < 5 ? 21 + at_below(rng, 30) : 5 + at_below(rng, 16);
    o->wrap = at_below(rng, 2) != 0;
    o->declarations = (pz_declarations)at_below(rng, 3);
    o->tendido = (pz_tendido_mode)at_below(rng, 2);
    o->odd_leftover = (pz_leftover_mode)at_below(rng, 2);
    o->final_sweep = (pz_sweep_mode)at_below(rng, 2);
    o->partnerships = s->players >= 4 && s->players % 2 == 0 && at_below(rng, 2) != 0;
    int sides = o->partnerships ? s->players / 2 : s->players;
    o->card_score =
        sides == 2 && at_below(rng, 2) != 0 ? PZ_CARD_SCORE_EXCESS26 : PZ_CARD_SCORE_DIFFERENCE;
    s->dealer = at_below(rng, s->players);
    s->seed = at_next(rng);
}

/* Documented in ai_test.h. */
pz_game *at_new_game(const pz_setup *s)
{
    char why[PZ_WHY_MAX] = "";
    pz_game *g = NULL;
    int rc = pz_new(&g, s, NULL, why, sizeof why);
    if (rc != 0)
        fail_msg("pz_new refused a valid set-up: %s", why);
    return g;
}

/* Documented in ai_test.h. */
bool at_random_step(pz_game *g, uint64_t *rng)
{
    pz_action acts[PZ_LEGAL_MAX];
    char why[PZ_WHY_MAX] = "";
    if (pz_get_phase(g) == PZ_PHASE_GAME_OVER)
        return false;
    int n = pz_legal_actions(g, -1, acts, PZ_LEGAL_MAX);
    assert_true(n > 0);
    pz_action a = acts[at_below(rng, n < PZ_LEGAL_MAX ? n : PZ_LEGAL_MAX)];
    if (pz_apply(g, &a, NULL, why, sizeof why) != 0)
        fail_msg("a listed action was refused: %s", why);
    return pz_get_phase(g) != PZ_PHASE_GAME_OVER;
}

/* Documented in ai_test.h. */
bool at_random_steps(pz_game *g, uint64_t *rng, int max)
{
    int n = at_below(rng, max + 1);
    for (int i = 0; i < n; i++)
        if (!at_random_step(g, rng))
            return false;
    return pz_get_phase(g) != PZ_PHASE_GAME_OVER;
}

/* Replaces the JSON value after "\"name\":" in doc by `to` (same or
   shorter), shifting the rest. */
static void blank_member(char *doc, const char *name, const char *to)
{
    char key[48];
    int k = snprintf(key, sizeof key, "\"%s\":", name);
    assert_true(k > 0 && (size_t)k < sizeof key);
    char *at = strstr(doc, key);
    assert_non_null(at);
    char *val = at + k, *end = val;
    int depth = 0;
    bool str = false;
    for (; *end != '\0'; end++) {
        if (str) {
            str = *end != '"';
            continue;
        }
        if (*end == '"')
            str = true;
        else if (*end == '[' || *end == '{')
            depth++;
        else if (*end == ']' || *end == '}') {
            if (depth == 0)
                break;
            depth--;
        } else if (*end == ',' && depth == 0)
            break;
    }
    size_t nt = strlen(to), tail = strlen(end);
    assert_true(nt <= (size_t)(end - val));
    memcpy(val, to, nt);
    memmove(val + nt, end, tail + 1);
}

/* Documented in ai_test.h. */
int at_save_public(const pz_game *g, char *doc)
{
    int n = pz_save(g, doc, PZ_SAVE_MAX);
    assert_true(n > 0);
    pz_view v;
    assert_int_equal(pz_view_seat(g, 0, &v), 0);
    blank_member(doc, "rng", "0");
    if (!v.has_last_play) {
        blank_member(doc, "last_play_seat", "0");
        blank_member(doc, "last_play_card", "0");
        blank_member(doc, "last_play_captured", "0");
    }
    if (v.pending == PZ_PENDING_NONE) {
        blank_member(doc, "pending_seat", "0");
        blank_member(doc, "pending_rank", "0");
        blank_member(doc, "pending_last_rank", "0");
    }
    return (int)strlen(doc);
}

/* True when a and b are the same action (the fields their kind uses). */
bool at_same_action(const pz_action *a, const pz_action *b)
{
    if (a->kind != b->kind || a->seat != b->seat)
        return false;
    switch (a->kind) {
    case PZ_ACT_PLAY:
        return a->card == b->card && a->mode == b->mode;
    case PZ_ACT_TENDIDO:
        return a->now == b->now;
    case PZ_ACT_ARRANGE:
        return a->best == b->best &&
               (a->best || (memcmp(a->row, b->row, 4) == 0 && a->direction == b->direction));
    case PZ_ACT_CLAIM:
        return a->claimed == b->claimed;
    default:
        return true;
    }
}

/* A copy of g with the cards seat cannot see re-dealt at random among the
   places that hold them (other hands, the stock; its own hand while hidden). */
pz_game *at_redeal_hidden(const pz_game *g, int seat, uint64_t *rng)
{
    pz_game *h = pz_clone(g);
    assert_non_null(h);
    bool own_hidden = h->phase == PZ_PHASE_TENDIDO_CHOICE && seat == h->dealer;
    pz_card pool[PZ_CARDS];
    int n = 0;
    for (int s = 0; s < h->players; s++)
        if (s != seat || own_hidden)
            for (int i = 0; i < h->nhand[s]; i++)
                pool[n++] = h->hand[s][i];
    for (int i = 0; i < h->nstock; i++)
        pool[n++] = h->stock[i];
    for (int i = n - 1; i > 0; i--) {
        int j = at_below(rng, i + 1);
        pz_card t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    n = 0;
    for (int s = 0; s < h->players; s++)
        if (s != seat || own_hidden)
            for (int i = 0; i < h->nhand[s]; i++)
                h->hand[s][i] = pool[n++];
    for (int i = 0; i < h->nstock; i++)
        h->stock[i] = pool[n++];
    return h;
}
