/*
 * test_rules.c — the rules engine through its public API: the worked
 * examples of RULES.md (each test cites its rule), refused actions leaving
 * the game untouched, per-seat views and the default action. Most rule
 * coverage lives in tests/scenarios/; these are the cases best said in C.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "porrazo.h"

/* Parses space-separated cards into out; returns how many. */
static int cards(const char *text, pz_card *out)
{
    int n = 0;
    while (text != NULL && *text != '\0') {
        while (*text == ' ')
            text++;
        size_t len = strcspn(text, " ");
        if (len == 0)
            break;
        assert_int_equal(pz_card_parse(text, len, &out[n]), 0);
        n++;
        text += len;
    }
    return n;
}

static pz_card card(const char *text)
{
    pz_card c;
    assert_int_equal(pz_card_parse(text, strlen(text), &c), 0);
    return c;
}

/* A position spec: the fields tests vary. */
typedef struct spec {
    int players;
    const char *table;
    const char *hands[PZ_MAX_PLAYERS];
    int turn;
    const char *last; /* previous play's card, laid without capture */
    int last_seat;
} spec;

/* A game at the last deal (no stock) of a 2..8 player hand, dealer 0. */
static pz_game *position_with(const spec *sp, const pz_options *o)
{
    pz_setup s;
    pz_position p;
    pz_game *g = NULL;
    char why[PZ_WHY_MAX] = "";
    pz_setup_default(&s);
    s.players = sp->players;
    if (o != NULL)
        s.options = *o;
    pz_position_default(&p);
    p.deal = 48 / (3 * sp->players);
    p.tendido_done = true;
    p.ntable = cards(sp->table, p.table);
    for (int i = 0; i < sp->players; i++)
        p.nhand[i] = cards(sp->hands[i], p.hands[i]);
    p.turn = sp->turn;
    if (sp->last != NULL) {
        p.has_last_play = true;
        p.last_play_card = card(sp->last);
        p.last_play_seat = sp->last_seat;
    }
    int err = pz_new_position(&g, &s, &p, why, sizeof why);
    if (err != 0)
        fail_msg("position refused: %s", why);
    return g;
}

static pz_game *position(const spec *sp)
{
    return position_with(sp, NULL);
}

/* Applies a and asserts success; returns the events. */
static pz_events *apply_ok(pz_game *g, pz_action a)
{
    static pz_events ev;
    char why[PZ_WHY_MAX] = "";
    ev.n = 0;
    int err = pz_apply(g, &a, &ev, why, sizeof why);
    if (err != 0)
        fail_msg("refused (%s): %s", pz_err_name(err), why);
    return &ev;
}

/* The first event of kind k, or fail. */
static const pz_event *find(const pz_events *ev, pz_event_kind k)
{
    for (int i = 0; i < ev->n; i++)
        if (ev->ev[i].kind == k)
            return &ev->ev[i];
    fail_msg("no event of kind %d", k);
    return NULL;
}

/* Asserts the captured cards of the capture event equal text. */
static void assert_captured(const pz_events *ev, const char *text)
{
    pz_card want[PZ_CARDS];
    int n = cards(text, want);
    const pz_event *e = find(ev, PZ_EV_CAPTURE);
    assert_int_equal(e->ncards, n);
    assert_memory_equal(e->cards, want, (size_t)n);
}

/* Sum of score events for reason r. */
static int points_for(const pz_events *ev, pz_reason r)
{
    int p = 0;
    for (int i = 0; i < ev->n; i++)
        if (ev->ev[i].kind == PZ_EV_SCORE && ev->ev[i].reason == r)
            p += ev->ev[i].points;
    return p;
}

/* R5.2's worked example: table A 2 5 6 6 7 9 J Q K. */
static void test_capture_takes_the_sequence_above_the_match_r5_2(void **state)
{
    (void)state;
    static const struct {
        const char *play, *taken;
        bool wrap;
    } cases[] = {
        {"5H", "5C 6C 7C", true}, {"JH", "JC QC KC AC 2C", true}, {"JH", "JC QC KC", false},
        {"9H", "9C", true},       {"6H", "6C 7C", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pz_options o;
        pz_options_default(&o);
        o.wrap = cases[i].wrap;
        spec sp = {2, "AC 2C 5C 6C 6D 7C 9C JC QC KC", {cases[i].play, "3S"}, 0, NULL, 0};
        pz_game *g = position_with(&sp, &o);
        pz_events *ev = apply_ok(g, pz_act_play(0, card(cases[i].play), PZ_MODE_ANY));
        assert_int_equal(find(ev, PZ_EV_PLAY)->mode, PZ_MODE_CAPTURE);
        assert_captured(ev, cases[i].taken);
        pz_free(g);
    }
}

/* R5.2/R5.3: an 8 or a 10 captures nothing on that table and stays. */
static void test_card_without_match_stays_on_the_table_r5_3(void **state)
{
    (void)state;
    spec sp = {2, "AC 2C 5C 6C 6D 7C 9C JC QC KC", {"8H TH", "3S"}, 0, NULL, 0};
    pz_game *g = position(&sp);
    pz_events *ev = apply_ok(g, pz_act_play(0, card("8H"), PZ_MODE_ANY));
    assert_int_equal(find(ev, PZ_EV_PLAY)->mode, PZ_MODE_LAY);
    pz_card t[PZ_CARDS];
    assert_int_equal(pz_get_table(g, t), 11);
    assert_int_equal(t[10], card("8H"));
    pz_free(g);
}

/* R5.4: an A to an empty table scores 1 in place; a 5 never does. */
static void test_ace_on_an_empty_table_is_in_place_r5_4(void **state)
{
    (void)state;
    spec sp = {2, "", {"AH 5D", "3S"}, 0, NULL, 0};
    pz_game *g = position(&sp);
    pz_events *ev = apply_ok(g, pz_act_play(0, card("AH"), PZ_MODE_ANY));
    assert_int_equal(find(ev, PZ_EV_PLAY)->mode, PZ_MODE_PLACE);
    assert_int_equal(points_for(ev, PZ_REASON_IN_PLACE), 1);
    assert_int_equal(pz_get_score(g, 0), 1);
    pz_free(g);
}

/* R5.5's examples: table 4 5 9 and a 4; a 2 alone and a 2. */
static void test_capture_or_place_must_be_chosen_r5_5(void **state)
{
    (void)state;
    char why[PZ_WHY_MAX];
    spec sp = {2, "4C 5C 9C", {"4H", "3S"}, 0, NULL, 0};
    pz_game *g = position(&sp);
    pz_action a = pz_act_play(0, card("4H"), PZ_MODE_ANY);
    assert_int_equal(pz_apply(g, &a, NULL, why, sizeof why), PZ_ECHOICE_REQUIRED);
    pz_game *h = pz_clone(g);
    pz_events *ev = apply_ok(g, pz_act_play(0, card("4H"), PZ_MODE_PLACE));
    assert_int_equal(points_for(ev, PZ_REASON_IN_PLACE), 4);
    ev = apply_ok(h, pz_act_play(0, card("4H"), PZ_MODE_CAPTURE));
    assert_captured(ev, "4C 5C");
    pz_free(g);
    pz_free(h);

    spec two = {2, "2C", {"2H", "3S"}, 0, NULL, 0};
    g = position(&two);
    h = pz_clone(g);
    ev = apply_ok(g, pz_act_play(0, card("2H"), PZ_MODE_CAPTURE));
    assert_int_equal(points_for(ev, PZ_REASON_LIMPIA), 1);
    ev = apply_ok(h, pz_act_play(0, card("2H"), PZ_MODE_PLACE));
    assert_int_equal(points_for(ev, PZ_REASON_IN_PLACE), 2);
    pz_free(g);
    pz_free(h);
}

/* R5.6: K A 2 3 4 taken by a K is a limpia worth 1 (the 4). */
static void test_limpia_scores_the_last_card_of_the_sequence_r5_6(void **state)
{
    (void)state;
    spec sp = {2, "KC AC 2C 3C 4C", {"KH 9D", "3S"}, 0, NULL, 0};
    pz_game *g = position(&sp);
    pz_events *ev = apply_ok(g, pz_act_play(0, card("KH"), PZ_MODE_ANY));
    assert_captured(ev, "KC AC 2C 3C 4C");
    assert_int_equal(points_for(ev, PZ_REASON_LIMPIA), 1);
    pz_free(g);
}

/* R5.6: the last card played in the hand makes no limpia. */
static void test_last_card_of_the_hand_makes_no_limpia_r5_6(void **state)
{
    (void)state;
    spec sp = {2, "QC", {"QH", ""}, 0, NULL, 0};
    pz_game *g = position(&sp);
    pz_events *ev = apply_ok(g, pz_act_play(0, card("QH"), PZ_MODE_ANY));
    assert_int_equal(points_for(ev, PZ_REASON_LIMPIA), 0);
    assert_int_equal(pz_get_phase(g), PZ_PHASE_HAND_OVER);
    pz_free(g);
}

/* pagat's example (R6.1, R6.2): 7 alone, a 6, then another 6 is a porrazo
   with a limpia, 1 + 1; a third 6 would counter for 3 + 1. */
static void test_porrazo_with_limpia_scores_when_it_stands_r6_1(void **state)
{
    (void)state;
    spec sp = {3, "7C", {"2D 9D", "6H 8D", "6S TD"}, 1, "6D", 0};
    pz_options o;
    pz_options_default(&o);
    sp.table = "7C 6D";
    pz_game *g = position_with(&sp, &o);
    pz_events *ev = apply_ok(g, pz_act_play(1, card("6H"), PZ_MODE_ANY));
    assert_true(find(ev, PZ_EV_CAPTURE)->pending);
    assert_captured(ev, "6D 7C");
    assert_int_equal(pz_get_score(g, 1), 0);
    pz_card pending[16], want[3];
    cards("6H 6D 7C", want); /* the porrazo's card, then what it took */
    assert_int_equal(pz_get_pending_cards(g, pending), 3);
    assert_memory_equal(pending, want, 3);
    pz_game *h = pz_clone(g);

    ev = apply_ok(g, pz_act_play(2, card("TD"), PZ_MODE_ANY));
    assert_int_equal(ev->ev[0].kind, PZ_EV_SCORE);
    assert_int_equal(ev->ev[0].reason, PZ_REASON_PORRAZO);
    assert_int_equal(ev->ev[1].reason, PZ_REASON_LIMPIA);
    assert_int_equal(pz_get_score(g, 1), 2);

    ev = apply_ok(h, pz_act_play(2, card("6S"), PZ_MODE_ANY));
    assert_true(find(ev, PZ_EV_CAPTURE)->pending);
    assert_captured(ev, "6H 6D 7C");
    ev = apply_ok(h, pz_act_play(0, card("2D"), PZ_MODE_ANY));
    assert_int_equal(points_for(ev, PZ_REASON_COUNTER_PORRAZO), 3);
    assert_int_equal(points_for(ev, PZ_REASON_LIMPIA), 1);
    assert_int_equal(pz_get_score(g, 1) + pz_get_score(h, 2), 2 + 4);
    pz_free(g);
    pz_free(h);
}

/* pagat's rule 2 (R6.1): taking the previous card in a sequence is not a
   porrazo. Table 2 6 9; A plays 7; B's 6 takes 6 7. */
static void test_capturing_the_previous_card_in_a_sequence_is_no_porrazo_r6_1(void **state)
{
    (void)state;
    spec sp = {2, "2C 6C 9C 7D", {"6H", "3S"}, 0, "7D", 1};
    pz_game *g = position(&sp);
    pz_events *ev = apply_ok(g, pz_act_play(0, card("6H"), PZ_MODE_ANY));
    assert_false(find(ev, PZ_EV_CAPTURE)->pending);
    assert_captured(ev, "6C 7D");
    assert_int_equal(pz_get_pending(g, NULL), PZ_PENDING_NONE);
    pz_free(g);
}

/* R6.3: the fourth card after a counter porrazo wins the game. */
static void test_san_benito_wins_at_once_r6_3(void **state)
{
    (void)state;
    spec sp = {3, "5C 8D", {"8H 2D", "8S 3D", "8C 4D"}, 0, "8D", 2};
    pz_game *g = position(&sp);
    apply_ok(g, pz_act_play(0, card("8H"), PZ_MODE_ANY));
    apply_ok(g, pz_act_play(1, card("8S"), PZ_MODE_ANY));
    assert_int_equal(pz_get_pending(g, NULL), PZ_PENDING_COUNTER);
    pz_events *ev = apply_ok(g, pz_act_play(2, card("8C"), PZ_MODE_ANY));
    assert_int_equal(find(ev, PZ_EV_SAN_BENITO)->seat, 2);
    assert_int_equal(find(ev, PZ_EV_GAME_END)->reason, PZ_END_SAN_BENITO);
    assert_int_equal(pz_get_winner(g), 2);
    pz_action a = pz_act_play(0, card("2D"), PZ_MODE_ANY);
    assert_int_equal(pz_apply(g, &a, NULL, NULL, 0), PZ_EGAME_OVER);
    pz_free(g);
}

/* R6.2: a card of the pending rank is the counter, never in place. */
static void test_pending_rank_card_cannot_be_placed_r6_2(void **state)
{
    (void)state;
    spec sp = {3, "9C 3D", {"3H TC", "3S JC", "QC"}, 0, "3D", 2};
    pz_game *g = position(&sp);
    /* 3H could also be the third card in place (R5.5): capture = porrazo */
    apply_ok(g, pz_act_play(0, card("3H"), PZ_MODE_CAPTURE));
    pz_action a = pz_act_play(1, card("3S"), PZ_MODE_PLACE);
    assert_int_equal(pz_apply(g, &a, NULL, NULL, 0), PZ_ECANNOT_PLACE);
    pz_free(g);
}

/* R8.1, R8.2: when settling a porrazo wins, the new card is not played. */
static void test_settlement_that_wins_leaves_the_new_card_in_hand_r8_1(void **state)
{
    (void)state;
    pz_setup s;
    pz_position p;
    pz_game *g;
    pz_setup_default(&s);
    s.has_scores = true;
    s.scores[1] = 60;
    pz_position_default(&p);
    p.deal = 8;
    p.tendido_done = true;
    p.ntable = cards("5C KD", p.table);
    p.nhand[0] = cards("2S 3S", p.hands[0]);
    p.nhand[1] = cards("KH 9H", p.hands[1]);
    p.turn = 1;
    p.has_last_play = true;
    p.last_play_seat = 0;
    p.last_play_card = card("KD");
    assert_int_equal(pz_new_position(&g, &s, &p, NULL, 0), 0);
    apply_ok(g, pz_act_play(1, card("KH"), PZ_MODE_ANY)); /* porrazo of kings */
    pz_events *ev = apply_ok(g, pz_act_play(0, card("2S"), PZ_MODE_ANY));
    assert_int_equal(ev->n, 2); /* score porrazo, game_end */
    assert_int_equal(ev->ev[1].kind, PZ_EV_GAME_END);
    pz_card hand[PZ_CARDS];
    assert_int_equal(pz_get_hand(g, 0, hand), 2);
    pz_free(g);
}

/* R4.3's example: pairs 2-4 and 3-7; the best is 4-2-3-7 ltr = 5. */
static void test_best_tendido_row_r4_3(void **state)
{
    (void)state;
    pz_card row[4], t[4];
    pz_direction d;
    cards("4C 2C 3C 7C", row);
    assert_int_equal(pz_tendido_place_points(row, PZ_LTR), 5);
    /* a pack whose tendido (cards 7..10 for 2 players, deal 1 "now") is 2 4 3 7 */
    pz_card pack[PZ_CARDS];
    pz_shuffle(1, pack);
    pz_card want[4];
    cards("2C 4C 3C 7C", want);
    for (int i = 0; i < 4; i++) /* move the wanted cards to positions 6..9 */
        for (int j = 0; j < PZ_CARDS; j++)
            if (pack[j] == want[i]) {
                pz_card x = pack[6 + i];
                pack[6 + i] = pack[j];
                pack[j] = x;
            }
    pz_setup s;
    pz_game *g;
    pz_setup_default(&s);
    s.pack = pack;
    assert_int_equal(pz_new(&g, &s, NULL, NULL, 0), 0);
    apply_ok(g, pz_act_tendido(0, true));
    assert_int_equal(pz_get_tendido(g, t), 4);
    assert_memory_equal(t, want, 4);
    assert_int_equal(pz_best_arrangement(g, row, &d), 5);
    pz_card best[4];
    cards("4C 2C 3C 7C", best);
    assert_memory_equal(row, best, 4);
    assert_int_equal(d, PZ_LTR);
    pz_action bad = pz_act_arrange(0, (pz_card[4]){want[0], want[2], want[1], want[3]}, PZ_LTR);
    assert_int_equal(pz_apply(g, &bad, NULL, NULL, 0), PZ_EBAD_ARRANGEMENT);
    pz_free(g);
}

/* Refused actions leave every byte of the game as it was. */
static void test_refused_actions_change_nothing(void **state)
{
    (void)state;
    spec sp = {2, "4C 5C 9C", {"4H 7D", "3S"}, 0, NULL, 0};
    pz_game *g = position(&sp);
    pz_game *before = pz_clone(g);
    pz_events ev = {0};
    char why[PZ_WHY_MAX];
    pz_action bad[] = {
        pz_act_play(1, card("3S"), PZ_MODE_ANY),
        pz_act_play(0, card("KS"), PZ_MODE_ANY),
        pz_act_play(0, card("4H"), PZ_MODE_ANY),
        pz_act_play(0, card("7D"), PZ_MODE_PLACE),
        pz_act_play(0, card("7D"), PZ_MODE_CAPTURE),
        pz_act_tendido(0, true),
        pz_act_arrange_best(0),
        pz_act_declare(0),
        pz_act_claim(0, 1),
        pz_act_next_hand(NULL),
        pz_act_play(5, card("4H"), PZ_MODE_ANY),
    };
    int want[] = {PZ_ENOT_YOUR_TURN,  PZ_ECARD_NOT_IN_HAND, PZ_ECHOICE_REQUIRED, PZ_ECANNOT_PLACE,
                  PZ_EINVALID_ACTION, PZ_EWRONG_PHASE,      PZ_EWRONG_PHASE,     PZ_EINVALID_ACTION,
                  PZ_EINVALID_ACTION, PZ_EWRONG_PHASE,      PZ_EINVALID_ACTION};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        assert_int_equal(pz_apply(g, &bad[i], &ev, why, sizeof why), want[i]);
        assert_true(strlen(why) > 0);
        assert_int_equal(ev.n, 0);
        assert_memory_equal(g, before, pz_game_size());
    }
    pz_free(g);
    pz_free(before);
}

/* R4.2: the dealer's new hand is hidden until the tendido choice; a view
   never holds another seat's cards. */
static void test_views_hide_what_a_seat_may_not_see_r4_2(void **state)
{
    (void)state;
    pz_setup s;
    pz_game *g;
    pz_view v;
    pz_setup_default(&s);
    s.players = 3;
    s.seed = 7;
    assert_int_equal(pz_new(&g, &s, NULL, NULL, 0), 0);
    assert_int_equal(pz_get_phase(g), PZ_PHASE_TENDIDO_CHOICE);
    assert_int_equal(pz_view_seat(g, 0, &v), 0);
    assert_true(v.hand_hidden);
    assert_int_equal(v.nhand, 0);
    assert_int_equal(v.hand_count[0], 3);
    assert_int_equal(pz_view_seat(g, 1, &v), 0);
    assert_false(v.hand_hidden);
    pz_card own[PZ_CARDS];
    assert_int_equal(pz_get_hand(g, 1, own), 3);
    assert_memory_equal(v.hand, own, 3);
    for (int other = 0; other < 3; other++) {
        if (other == 1)
            continue;
        pz_card theirs[PZ_CARDS];
        int n = pz_get_hand(g, other, theirs);
        for (int i = 0; i < n; i++)
            assert_null(memchr(v.hand, theirs[i], (size_t)v.nhand));
    }
    apply_ok(g, pz_act_tendido(0, false));
    assert_int_equal(pz_view_seat(g, 0, &v), 0);
    assert_false(v.hand_hidden);
    assert_int_equal(v.nhand, 3);
    assert_int_equal(pz_view_seat(g, 3, &v), PZ_EINVALID_ACTION);
    pz_free(g);
}

/* The default action plays what scores most, else the lowest card. */
static void test_default_action_prefers_points_then_the_lowest_card(void **state)
{
    (void)state;
    pz_action a;
    spec sp = {2, "KC 5D", {"9H KH 3C", "3S"}, 0, NULL, 0};
    pz_game *g = position(&sp);
    assert_int_equal(pz_default_action(g, 0, &a), 0);
    assert_int_equal(a.card, card("3C")); /* third card in place: 3 (R5.4) */
    pz_free(g);

    spec lay = {2, "KC", {"9H KH 3C", "3S"}, 0, NULL, 0};
    g = position(&lay);
    assert_int_equal(pz_default_action(g, 0, &a), 0);
    assert_int_equal(a.card, card("KH")); /* limpia of a king: 4 */
    pz_free(g);

    spec none = {2, "QC 5D", {"9H KH 6C", "3S"}, 0, NULL, 0};
    g = position(&none);
    assert_int_equal(pz_default_action(g, 0, &a), 0);
    assert_int_equal(a.card, card("6C"));
    assert_int_equal(pz_default_action(g, 1, &a), PZ_EWRONG_PHASE);
    pz_free(g);
}

/* Positions are checked like saved games: cards in two places, a stock
   that does not fit the deal, a turn without cards are refused. */
static void test_positions_that_do_not_add_up_are_refused(void **state)
{
    (void)state;
    pz_setup s;
    pz_position p;
    pz_game *g = NULL;
    char why[PZ_WHY_MAX];
    pz_setup_default(&s);
    pz_position_default(&p);
    p.deal = 8;
    p.tendido_done = true;
    p.ntable = cards("5C", p.table);
    p.nhand[0] = cards("5C", p.hands[0]);
    assert_int_equal(pz_new_position(&g, &s, &p, why, sizeof why), PZ_EBAD_SETUP);
    assert_non_null(strstr(why, "two places"));
    p.nhand[0] = cards("6C", p.hands[0]);
    p.deal = 7;
    assert_int_equal(pz_new_position(&g, &s, &p, why, sizeof why), PZ_EBAD_SETUP);
    assert_non_null(strstr(why, "stock"));
    p.deal = 8;
    p.turn = 1;
    assert_int_equal(pz_new_position(&g, &s, &p, why, sizeof why), PZ_EBAD_SETUP);
    p.turn = 0;
    p.tendido_done = false;
    assert_int_equal(pz_new_position(&g, &s, &p, why, sizeof why), PZ_EBAD_SETUP);
    assert_null(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture_takes_the_sequence_above_the_match_r5_2),
        cmocka_unit_test(test_card_without_match_stays_on_the_table_r5_3),
        cmocka_unit_test(test_ace_on_an_empty_table_is_in_place_r5_4),
        cmocka_unit_test(test_capture_or_place_must_be_chosen_r5_5),
        cmocka_unit_test(test_limpia_scores_the_last_card_of_the_sequence_r5_6),
        cmocka_unit_test(test_last_card_of_the_hand_makes_no_limpia_r5_6),
        cmocka_unit_test(test_porrazo_with_limpia_scores_when_it_stands_r6_1),
        cmocka_unit_test(test_capturing_the_previous_card_in_a_sequence_is_no_porrazo_r6_1),
        cmocka_unit_test(test_san_benito_wins_at_once_r6_3),
        cmocka_unit_test(test_pending_rank_card_cannot_be_placed_r6_2),
        cmocka_unit_test(test_settlement_that_wins_leaves_the_new_card_in_hand_r8_1),
        cmocka_unit_test(test_best_tendido_row_r4_3),
        cmocka_unit_test(test_refused_actions_change_nothing),
        cmocka_unit_test(test_views_hide_what_a_seat_may_not_see_r4_2),
        cmocka_unit_test(test_default_action_prefers_points_then_the_lowest_card),
        cmocka_unit_test(test_positions_that_do_not_add_up_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
