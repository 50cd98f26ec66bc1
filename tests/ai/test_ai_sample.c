/*
 * test_ai_sample.c — what the computer players stand on: the hand's public
 * record (pz_public_record, engine/record.c) holds no hidden card; a
 * determinized game (pz_new_determinized, engine/determinize.c) refuses
 * cards that do not fit and, given the true hidden cards, plays on exactly
 * like the real game; the sampler (engine/ai/ai_sample.c) deals the right
 * counts, never a card the seat knows elsewhere, respects declarations and
 * is uniform where nothing constrains it.
 *
 * Random games come from the engine's own legal lists; PZ_AI_TEST_SCALE
 * scales the loop counts (0.1 under valgrind and the sanitizers).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "ai_int.h"
#include "ai_test.h"
#include "game.h" /* the true stock, to rebuild the real game */
#include "porrazo_ai.h"

/* The hidden cards of seat's view of g, as they truly are. */
static void true_hidden(const pz_game *g, const pz_view *v, pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS],
                        pz_card stock[PZ_CARDS])
{
    for (int s = 0; s < v->players; s++)
        pz_get_hand(g, s, hands[s]);
    memcpy(stock, g->stock, g->nstock);
}

/* A random game stopped at a random point before its end, or NULL. */
static pz_game *random_position(uint64_t *rng, int max_steps)
{
    pz_setup s;
    at_random_setup(rng, 0, &s);
    pz_game *g = at_new_game(&s);
    if (!at_random_steps(g, rng, max_steps)) {
        pz_free(g);
        return NULL;
    }
    return g;
}

/* ------------------------------------------------------------------------ */
/* The public record                                                        */

static void test_public_record_names_no_card_in_a_hand_or_the_stock(void **state)
{
    (void)state;
    uint64_t rng = 11;
    int checked = 0;
    for (int i = 0; i < at_scaled(400); i++) {
        pz_game *g = random_position(&rng, 300);
        if (g == NULL)
            continue;
        pz_record r;
        assert_int_equal(pz_public_record(g, &r), 0);
        uint64_t hidden = pzai__mask(g->stock, g->nstock), played = 0, prev = 0;
        for (int s = 0; s < g->players; s++) {
            hidden |= pzai__mask(g->hand[s], g->nhand[s]);
            played |= r.played[s];
            prev |= r.played_prev[s];
        }
        uint64_t table = pzai__mask(g->table, g->ntable);
        uint64_t pending = pzai__mask(r.pending_cards, r.npending);
        assert_int_equal(r.gone & hidden, 0);
        assert_int_equal(r.shown & hidden, 0);
        assert_int_equal(played & hidden, 0);
        assert_int_equal(pending & hidden, 0);
        assert_true(played == (played & (r.gone | table | pending)));
        if (g->deal > 1)
            assert_int_equal(prev & hidden, 0);
        assert_true(r.shown == (r.gone | table | pending | pzai__mask(g->tendido, g->ntendido)));
        assert_int_equal(r.last_capturer, g->last_capturer);
        for (int s = 0; s < g->players; s++) {
            assert_int_equal(r.held_prev[s], g->prev[s].kind);
            /* a declaration is public only once made */
            assert_true(r.declared[s] == PZ_HOLD_NONE || g->hold[s].declared);
        }
        checked++;
        pz_free(g);
    }
    assert_true(checked > 0);
}

static void test_saves_from_before_the_record_restore_with_nothing_played(void **state)
{
    (void)state;
    uint64_t rng = 16;
    int restored = 0;
    for (int i = 0; i < at_scaled(100); i++) {
        pz_game *g = random_position(&rng, 200);
        if (g == NULL)
            continue;
        char doc[PZ_SAVE_MAX], why[PZ_WHY_MAX] = "";
        int n = pz_save(g, doc, sizeof doc);
        assert_true(n > 0);
        /* An older document: the same without "played" and "played_before",
           which come just before "rng". */
        char *from = strstr(doc, ",\"played\":"), *to = strstr(doc, ",\"rng\":");
        assert_non_null(from);
        assert_non_null(to);
        memmove(from, to, strlen(to) + 1);
        pz_game *old = NULL;
        if (pz_restore(&old, doc, strlen(doc), why, sizeof why) != 0)
            fail_msg("an older document was refused: %s", why);
        pz_record r;
        assert_int_equal(pz_public_record(old, &r), 0);
        for (int s = 0; s < PZ_MAX_PLAYERS; s++)
            assert_true(r.played[s] == 0 && r.played_prev[s] == 0);
        /* It plays on: the players still decide, its own save restores. */
        for (int level = 0; level < PZAI_LEVELS && pz_get_turn(old) >= 0; level++) {
            pz_view v;
            pz_action a;
            pzai_budget budget = {8, NULL, NULL};
            assert_int_equal(pz_view_seat(old, pz_get_turn(old), &v), 0);
            assert_int_equal(pzai_decide(&v, &r, (pzai_level)level, 5, &budget, &a), 1);
            pz_game *k = pz_clone(old);
            assert_int_equal(pz_apply(k, &a, NULL, why, sizeof why), 0);
            pz_free(k);
        }
        char again[PZ_SAVE_MAX];
        n = pz_save(old, again, sizeof again);
        assert_true(n > 0);
        pz_game *back = NULL;
        assert_int_equal(pz_restore(&back, again, (size_t)n, why, sizeof why), 0);
        restored++;
        pz_free(back);
        pz_free(old);
        pz_free(g);
    }
    assert_true(restored > 0);
}

/* ------------------------------------------------------------------------ */
/* Determinized games                                                       */

/* A random action of g's legal list; next_hand with an explicit pack (so
   that both games deal the same). */
static pz_action random_action(const pz_game *g, uint64_t *rng, pz_card pack[PZ_CARDS])
{
    pz_action acts[PZ_LEGAL_MAX];
    int n = pz_legal_actions(g, -1, acts, PZ_LEGAL_MAX);
    assert_true(n > 0);
    pz_action a = acts[at_below(rng, n < PZ_LEGAL_MAX ? n : PZ_LEGAL_MAX)];
    if (a.kind == PZ_ACT_NEXT_HAND) {
        for (int i = 0; i < PZ_CARDS; i++)
            pack[i] = (pz_card)i;
        for (int i = PZ_CARDS - 1; i > 0; i--) {
            int j = at_below(rng, i + 1);
            pz_card t = pack[i];
            pack[i] = pack[j];
            pack[j] = t;
        }
        a.pack = pack;
    }
    return a;
}

/* Plays the same random actions on g and d, comparing their saves. */
static void play_both(pz_game *g, pz_game *d, uint64_t *rng, int steps)
{
    char a[PZ_SAVE_MAX], b[PZ_SAVE_MAX], why[PZ_WHY_MAX] = "";
    pz_card pack[PZ_CARDS];
    for (int k = 0; k < steps && pz_get_phase(g) != PZ_PHASE_GAME_OVER; k++) {
        pz_action act = random_action(g, rng, pack);
        pz_events eg, ed;
        eg.n = ed.n = 0;
        assert_int_equal(pz_apply(g, &act, &eg, why, sizeof why), 0);
        int rc = pz_apply(d, &act, &ed, why, sizeof why);
        if (rc != 0)
            fail_msg("the determinized game refused %d by seat %d: %s", act.kind, act.seat, why);
        assert_int_equal(eg.n, ed.n);
        at_save_public(g, a);
        at_save_public(d, b);
        assert_string_equal(a, b);
    }
}

static void test_determinized_game_with_the_true_cards_plays_like_the_real_one(void **state)
{
    (void)state;
    uint64_t rng = 12;
    int phases[PZ_PHASE_GAME_OVER + 1] = {0}, pending = 0, claims = 0;
    for (int i = 0; i < at_scaled(400); i++) {
        pz_game *g = random_position(&rng, 400);
        if (g == NULL)
            continue;
        int seat = at_below(&rng, g->players);
        pz_view v;
        pz_record r;
        pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], stock[PZ_CARDS];
        char why[PZ_WHY_MAX] = "", a[PZ_SAVE_MAX], b[PZ_SAVE_MAX];
        assert_int_equal(pz_view_seat(g, seat, &v), 0);
        assert_int_equal(pz_public_record(g, &r), 0);
        true_hidden(g, &v, hands, stock);
        pz_game *d = NULL;
        int rc = pz_new_determinized(&d, &v, &r, (const pz_card(*)[PZ_CARDS])hands, stock,
                                     at_next(&rng), why, sizeof why);
        if (rc != 0)
            fail_msg("the true hidden cards were refused: %s", why);
        phases[v.phase]++;
        pending += v.pending != PZ_PENDING_NONE;
        claims += r.claim_open;
        at_save_public(g, a);
        at_save_public(d, b);
        assert_string_equal(a, b);
        play_both(g, d, &rng, 60);
        pz_free(d);
        pz_free(g);
    }
    if (at_scaled(400) < 400)
        return; /* a short run need not cover everything */
    for (int p = PZ_PHASE_TENDIDO_CHOICE; p <= PZ_PHASE_HAND_OVER; p++)
        assert_true(phases[p] > 0);         /* every phase a seat may act in was tried */
    assert_true(pending > 0 && claims > 0); /* porrazos pending, claim windows open */
}

/* Refuses the hidden cards with a message containing `words`. */
static void refused(const pz_view *v, const pz_record *r, pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS],
                    const pz_card *stock, const char *words)
{
    char why[PZ_WHY_MAX] = "";
    pz_game *d = NULL;
    assert_int_equal(
        pz_new_determinized(&d, v, r, (const pz_card(*)[PZ_CARDS])hands, stock, 1, why, sizeof why),
        PZ_EBAD_SETUP);
    assert_null(d);
    if (strstr(why, words) == NULL)
        fail_msg("message '%s' does not say '%s'", why, words);
}

static void test_determinized_game_refuses_cards_that_do_not_fit(void **state)
{
    (void)state;
    uint64_t rng = 13;
    pz_setup s;
    at_random_setup(&rng, 4, &s);
    s.options.declarations = PZ_DECL_AUTO;
    s.options.target = 500;
    pz_game *g = at_new_game(&s);
    while (pz_get_phase(g) != PZ_PHASE_PLAY || pz_get_table(g, (pz_card[PZ_CARDS]){0}) == 0)
        assert_true(at_random_step(g, &rng));
    pz_view v;
    pz_record r;
    pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], stock[PZ_CARDS], saved[PZ_MAX_PLAYERS][PZ_CARDS];
    int seat = (pz_get_turn(g) + 1) % 4, other = (seat + 1) % 4;
    assert_int_equal(pz_view_seat(g, seat, &v), 0);
    assert_int_equal(pz_public_record(g, &r), 0);
    true_hidden(g, &v, hands, stock);
    memcpy(saved, hands, sizeof saved);

    hands[other][0] = hands[(other + 1) % 4][0]; /* a duplicate */
    refused(&v, &r, hands, stock, "two places");
    memcpy(hands, saved, sizeof saved);
    hands[other][0] = v.table[0]; /* a card on the table */
    refused(&v, &r, hands, stock, "two places");
    memcpy(hands, saved, sizeof saved);
    hands[other][0] = v.hand[0]; /* the seat's own card */
    refused(&v, &r, hands, stock, "two places");
    memcpy(hands, saved, sizeof saved);
    hands[other][0] = 60; /* not a card */
    refused(&v, &r, hands, stock, "invalid card");
    memcpy(hands, saved, sizeof saved);
    v.hand_count[other]--; /* a count that does not add up */
    refused(&v, &r, hands, stock, "nowhere");
    v.hand_count[other]++;
    pz_view bad = v;
    bad.phase = PZ_PHASE_GAME_OVER;
    refused(&bad, &r, hands, stock, "over");
    pz_free(g);
}

/* ------------------------------------------------------------------------ */
/* The sampler                                                              */

/* Checks one sample of seat's hidden cards against the truth of g. */
static void check_sample(const pz_game *g, const pz_view *v, const pz_record *r,
                         pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], const pz_card *stock, long *kept,
                         long *declared)
{
    uint64_t unseen = pzai__unseen(v, r), truth = pzai__mask(g->stock, g->nstock), got = 0;
    for (int s = 0; s < v->players; s++)
        if (s != v->seat || v->hand_hidden)
            truth |= pzai__mask(g->hand[s], g->nhand[s]);
    assert_true(unseen == truth); /* the unseen cards are exactly the hidden ones */
    for (int s = 0; s < v->players; s++) {
        if (s == v->seat && !v->hand_hidden)
            continue;
        uint64_t m = pzai__mask(hands[s], v->hand_count[s]);
        assert_int_equal(pzai__count(m), v->hand_count[s]); /* no duplicates */
        assert_int_equal(m & got, 0);
        got |= m;
        if (v->phase == PZ_PHASE_PLAY && !r->holdings_unknown &&
            v->options.declarations == PZ_DECL_AUTO && s != v->seat) {
            (*declared)++;
            *kept += (int)pzai__holding_kind(m | r->played[s]) == r->declared[s];
        }
    }
    uint64_t ms = pzai__mask(stock, v->stock);
    assert_int_equal(pzai__count(ms), v->stock);
    assert_int_equal(ms & got, 0);
    assert_true((got | ms) == unseen); /* every hidden card placed, none known */
}

static void test_sampler_deals_the_hidden_cards_and_nothing_else(void **state)
{
    (void)state;
    uint64_t rng = 14;
    long kept = 0, declared = 0;
    for (int i = 0; i < at_scaled(300); i++) {
        pz_game *g = random_position(&rng, 300);
        if (g == NULL)
            continue;
        pz_view v;
        pz_record r;
        assert_int_equal(pz_view_seat(g, at_below(&rng, g->players), &v), 0);
        assert_int_equal(pz_public_record(g, &r), 0);
        pzai_rng prng;
        pzai__rng_seed(&prng, at_next(&rng));
        for (int k = 0; k < 8; k++) {
            pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], stock[PZ_CARDS];
            assert_int_equal(pzai__sample_cards(&v, &r, &prng, hands, stock), 0);
            check_sample(g, &v, &r, hands, stock, &kept, &declared);
            pz_game *d = NULL;
            assert_int_equal(pzai__sample(&v, &r, &prng, &d), 0);
            pz_view dv;
            assert_int_equal(pz_view_seat(d, v.seat, &dv), 0);
            assert_memory_equal(&dv, &v, sizeof v); /* the seat sees the same game */
            pz_free(d);
        }
        pz_free(g);
    }
    assert_true(declared > 0);
    assert_true(kept * 100 >= declared * 98); /* declarations respected (fallback rare) */
}

static void test_sampler_is_uniform_where_nothing_constrains_it(void **state)
{
    (void)state;
    /* 3 players at the last deal, seats 1 and 2 holding 2 cards each:
       seat 0 sees 4 unseen cards, C(4,2) = 6 equally likely deals. */
    pz_setup s;
    pz_setup_default(&s);
    s.players = 3;
    pz_position p;
    pz_position_default(&p);
    p.deal = 5;
    p.tendido_done = true;
    p.turn = 0;
    pz_card cards[6] = {0, 5, 10, 20, 30, 40};
    for (int seat = 0; seat < 3; seat++) {
        p.nhand[seat] = 2;
        p.hands[seat][0] = cards[2 * seat];
        p.hands[seat][1] = cards[2 * seat + 1];
    }
    pz_game *g = NULL;
    char why[PZ_WHY_MAX] = "";
    assert_int_equal(pz_new_position(&g, &s, &p, why, sizeof why), 0);
    pz_view v;
    pz_record r;
    assert_int_equal(pz_view_seat(g, 0, &v), 0);
    assert_int_equal(pz_public_record(g, &r), 0);
    pzai_rng prng;
    pzai__rng_seed(&prng, 15);
    int n = at_scaled(6000), seen[64] = {0};
    for (int i = 0; i < n; i++) {
        pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], stock[PZ_CARDS];
        assert_int_equal(pzai__sample_cards(&v, &r, &prng, hands, stock), 0);
        uint64_t m = pzai__mask(hands[1], 2);
        int key = 0; /* which two of cards[2..5] seat 1 got, as a 4-bit set */
        for (int k = 0; k < 4; k++)
            key |= (int)(m >> cards[2 + k] & 1) << k;
        seen[key]++;
    }
    int kinds = 0;
    for (int key = 0; key < 16; key++) {
        if (seen[key] == 0)
            continue;
        kinds++;
        double expect = n / 6.0, sd = 0;
        for (double x = expect * (5.0 / 6.0); sd * sd < x; sd += 0.5)
            ;
        assert_true(seen[key] > expect - 5 * sd - 1 && seen[key] < expect + 5 * sd + 1);
    }
    assert_int_equal(kinds, 6);
    pz_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_record_names_no_card_in_a_hand_or_the_stock),
        cmocka_unit_test(test_saves_from_before_the_record_restore_with_nothing_played),
        cmocka_unit_test(test_determinized_game_with_the_true_cards_plays_like_the_real_one),
        cmocka_unit_test(test_determinized_game_refuses_cards_that_do_not_fit),
        cmocka_unit_test(test_sampler_deals_the_hidden_cards_and_nothing_else),
        cmocka_unit_test(test_sampler_is_uniform_where_nothing_constrains_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
