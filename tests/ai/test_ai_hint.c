/*
 * test_ai_hint.c — the hint's decision and figures (porrazo_ai.h:
 * pzai_hint, pzai_why_of), over random positions of every decision kind
 * (plays, the tendido now or later, the arrangement, declarations and
 * claims in manual mode) and 2 to 8 players:
 * - every hint is an action pz_apply() accepts, and is what the strong
 *   level decides for that seat's view with the same seed and budget;
 * - the leak test, for hints: two games that differ only in the cards the
 *   seat cannot see give the same hint with the same figures;
 * - the figures are the real game's: what the move scores at once on the
 *   sampled game is what it scores on the real one.
 *
 * PZ_AI_TEST_SCALE scales the loop counts (0.1 under valgrind and the
 * sanitizers); strong searches with a small iteration budget here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "ai_int.h" /* pzai__pending_points */
#include "ai_test.h"
#include "game.h" /* to re-deal the hidden cards of a real game */
#include "porrazo_ai.h"

#define STRONG_ITERATIONS 24 /* small: the test checks behaviour, not strength */

static const pzai_budget BUDGET = {STRONG_ITERATIONS, NULL, NULL};

/* Whether e belongs to what follows move a: the next deal, the tendido,
   the hand's end, a declaration not a's own, a holding scored. */
static bool past_the_move(const pz_event *e, const pz_action *a)
{
    if (e->kind == PZ_EV_DECLARE)
        return a->kind != PZ_ACT_DECLARE || e->seat != a->seat;
    bool holding =
        e->kind == PZ_EV_SCORE && (e->reason == PZ_REASON_RONDA || e->reason == PZ_REASON_RONDINE ||
                                   e->reason == PZ_REASON_FOUR);
    return e->kind == PZ_EV_DEAL || e->kind == PZ_EV_TENDIDO || e->kind == PZ_EV_LEFTOVER ||
           e->kind == PZ_EV_HAND_END || (e->kind == PZ_EV_SCORE && e->reason == PZ_REASON_CARDS) ||
           holding;
}

/* What a scores at once on the real game g for its side, less others', with
   a porrazo it leaves pending at its worth; *made what it makes for its
   seat (PZAI_MADE_*). */
static int scored_on(const pz_game *g, const pz_action *a, unsigned *made)
{
    pz_game *k = pz_clone(g);
    pz_events ev;
    ev.n = 0;
    int deal = pz_get_deal(g), pseat;
    assert_int_equal(pz_apply(k, a, &ev, NULL, 0), 0);
    int side = pz_side_of(g, a->seat), value = 0;
    *made = 0;
    for (int i = 0; i < ev.n && !past_the_move(&ev.ev[i], a); i++) {
        const pz_event *e = &ev.ev[i];
        if (e->kind == PZ_EV_SCORE)
            value += e->side == side ? e->points : -e->points;
        if (e->seat == a->seat && e->kind == PZ_EV_CAPTURE && e->pending)
            *made |= PZAI_MADE_PORRAZO;
        if (e->seat == a->seat && e->kind == PZ_EV_SCORE)
            *made |= e->reason == PZ_REASON_PORRAZO || e->reason == PZ_REASON_COUNTER_PORRAZO
                         ? PZAI_MADE_PORRAZO
                     : e->reason == PZ_REASON_LIMPIA   ? PZAI_MADE_LIMPIA
                     : e->reason == PZ_REASON_IN_PLACE ? PZAI_MADE_IN_PLACE
                                                       : 0u;
    }
    if (pz_get_pending(k, &pseat) != PZ_PENDING_NONE && pz_get_deal(k) == deal)
        value += pz_side_of(k, pseat) == side ? pzai__pending_points(k) : -pzai__pending_points(k);
    pz_free(k);
    return value;
}

/* The move's own events (pzai_move_events) of a on the real game g and on
   the game sampled from the seat's view, which the host renders: the same
   events, so the words are the real game's. */
static void same_words_as_the_real_game(const pz_game *g, const pz_view *v, const pz_record *r,
                                        uint64_t seed, const pz_action *a)
{
    pz_game *real = pz_clone(g), *sample = NULL;
    pz_events e1, e2;
    e1.n = e2.n = 0;
    assert_int_equal(pzai_sample_game(v, r, seed, &sample), 0);
    assert_int_equal(pz_apply(real, a, &e1, NULL, 0), 0);
    assert_int_equal(pz_apply(sample, a, &e2, NULL, 0), 0);
    int n1 = pzai_move_events(&e1, a), n2 = pzai_move_events(&e2, a);
    assert_int_equal(n1, n2);
    for (int i = 0; i < n1; i++) {
        const pz_event *x = &e1.ev[i], *y = &e2.ev[i];
        if (x->kind != y->kind || x->seat != y->seat || x->side != y->side || x->card != y->card ||
            x->mode != y->mode || x->reason != y->reason || x->holding != y->holding ||
            x->pending != y->pending || x->points != y->points || x->ncards != y->ncards ||
            memcmp(x->cards, y->cards, x->ncards) != 0)
            fail_msg("event %d of a hinted move (kind %d) differs on the sampled game", i, x->kind);
    }
    pz_free(real);
    pz_free(sample);
}

static void test_every_hint_is_legal_and_the_strong_level_choice(void **state)
{
    (void)state;
    uint64_t rng = 2022;
    long kinds[PZ_ACT_NEXT_HAND + 1] = {0}, hinted = 0, by_players[PZ_MAX_PLAYERS + 1] = {0};
    long made_kinds[8] = {0};
    for (int i = 0; i < at_scaled(700); i++) {
        pz_setup s;
        at_random_setup(&rng, 2 + i % 7, &s);
        pz_game *g = at_new_game(&s);
        if (!at_random_steps(g, &rng, (int)at_below(&rng, 300))) {
            pz_free(g);
            continue;
        }
        for (int seat = 0; seat < g->players; seat++) {
            pz_view v;
            pz_record r;
            pz_action hint, strong;
            pzai_why why;
            memset(&hint, 0, sizeof hint);
            memset(&strong, 0, sizeof strong);
            assert_int_equal(pz_view_seat(g, seat, &v), 0);
            assert_int_equal(pz_public_record(g, &r), 0);
            uint64_t seed = at_next(&rng);
            int rc = pzai_hint(&v, &r, seed, &BUDGET, &hint, &why);
            int rs = pzai_decide(&v, &r, PZAI_STRONG, seed, &BUDGET, &strong);
            assert_int_equal(rc, rs);
            assert_true(rc == 0 || rc == 1);
            if (rc == 0)
                continue;
            if (!at_same_action(&hint, &strong))
                fail_msg("the hint differs from the strong level's decision (kind %d)", hint.kind);
            pz_game *k = pz_clone(g);
            char msg[PZ_WHY_MAX] = "";
            if (pz_apply(k, &hint, NULL, msg, sizeof msg) != 0)
                fail_msg("a hint the engine refuses: %s", msg);
            pz_free(k);
            unsigned made = 0;
            assert_int_equal(why.value, scored_on(g, &hint, &made)); /* the real game's points */
            assert_int_equal(why.made, made);                        /* and what it makes */
            assert_true(why.porrazo >= 0 && why.limpia >= 0 && why.in_place >= 0);
            if (why.next < 0)
                assert_int_equal(why.porrazo + why.limpia + why.in_place, 0);
            else
                assert_true(why.next != seat && pz_side_of(g, why.next) != pz_side_of(g, seat));
            same_words_as_the_real_game(g, &v, &r, seed, &hint);
            kinds[hint.kind]++;
            made_kinds[why.made & 7]++;
            by_players[g->players]++;
            hinted++;
        }
        pz_free(g);
    }
    assert_true(hinted > 0);
    if (at_scaled(700) < 700)
        return; /* a short run need not cover everything */
    for (int k = PZ_ACT_PLAY; k <= PZ_ACT_CLAIM; k++)
        if (kinds[k] == 0)
            fail_msg("no hint of action kind %d in %ld hints", k, hinted);
    for (int p = PZ_MIN_PLAYERS; p <= PZ_MAX_PLAYERS; p++)
        assert_true(by_players[p] > 0);
    /* hints that make a porrazo, a limpia, a card in place were among them */
    assert_true(made_kinds[PZAI_MADE_PORRAZO] + made_kinds[PZAI_MADE_PORRAZO | PZAI_MADE_LIMPIA] >
                0);
    assert_true(made_kinds[PZAI_MADE_LIMPIA] + made_kinds[PZAI_MADE_PORRAZO | PZAI_MADE_LIMPIA] >
                0);
    assert_true(made_kinds[PZAI_MADE_IN_PLACE] > 0);
}

static void test_no_hint_depends_on_cards_its_seat_cannot_see(void **state)
{
    (void)state;
    uint64_t rng = 2023;
    long compared = 0;
    for (int i = 0; i < at_scaled(300); i++) {
        pz_setup s;
        at_random_setup(&rng, 0, &s);
        pz_game *g = at_new_game(&s);
        if (!at_random_steps(g, &rng, 250)) {
            pz_free(g);
            continue;
        }
        int turn = pz_get_turn(g);
        int seat = turn >= 0 && at_below(&rng, 4) != 0 ? turn : at_below(&rng, g->players);
        pz_game *h = at_redeal_hidden(g, seat, &rng);
        pz_view v1, v2;
        pz_record r1, r2;
        assert_int_equal(pz_view_seat(g, seat, &v1), 0);
        assert_int_equal(pz_view_seat(h, seat, &v2), 0);
        assert_int_equal(pz_public_record(g, &r1), 0);
        assert_int_equal(pz_public_record(h, &r2), 0);
        uint64_t seed = at_next(&rng);
        pz_action a1, a2;
        pzai_why w1, w2;
        memset(&a1, 0, sizeof a1);
        memset(&a2, 0, sizeof a2);
        memset(&w1, 0, sizeof w1);
        memset(&w2, 0, sizeof w2);
        int rc1 = pzai_hint(&v1, &r1, seed, &BUDGET, &a1, &w1);
        int rc2 = pzai_hint(&v2, &r2, seed, &BUDGET, &a2, &w2);
        assert_int_equal(rc1, rc2);
        if (rc1 == 1) {
            if (!at_same_action(&a1, &a2))
                fail_msg("a hint changed with the hidden cards re-dealt");
            assert_memory_equal(&w1, &w2, sizeof w1); /* and its figures did not */
            /* and the figures of another move of the seat neither */
            pz_action legal[PZ_LEGAL_MAX];
            int n = pz_legal_actions(g, seat, legal, PZ_LEGAL_MAX);
            if (n > 0) {
                const pz_action *other = &legal[at_below(&rng, n)];
                assert_int_equal(pzai_why_of(&v1, &r1, other, seed, &w1), 0);
                assert_int_equal(pzai_why_of(&v2, &r2, other, seed, &w2), 0);
                assert_memory_equal(&w1, &w2, sizeof w1);
            }
            compared++;
        }
        pz_free(h);
        pz_free(g);
    }
    assert_true(compared > 0);
}

static void test_a_move_the_engine_refuses_has_no_figures(void **state)
{
    (void)state;
    uint64_t rng = 7;
    pz_setup s;
    at_random_setup(&rng, 3, &s);
    pz_game *g = at_new_game(&s);
    pz_view v;
    pz_record r;
    pzai_why w;
    assert_int_equal(pz_view_seat(g, 0, &v), 0);
    assert_int_equal(pz_public_record(g, &r), 0);
    pz_action bogus = pz_act_tendido(0, true);
    bogus.seat = (pz_get_dealer(g) + 1) % 3; /* not the dealer's choice to make */
    assert_int_equal(pzai_why_of(&v, &r, &bogus, 1, &w), PZ_EINVALID_ACTION);
    assert_int_equal(pzai_why_of(NULL, &r, &bogus, 1, &w), PZ_EINVALID_ACTION);
    pz_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_hint_is_legal_and_the_strong_level_choice),
        cmocka_unit_test(test_no_hint_depends_on_cards_its_seat_cannot_see),
        cmocka_unit_test(test_a_move_the_engine_refuses_has_no_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
