/*
 * prop_refuse.c — the property test's checks of actions: the legal list
 * well shaped (no duplicates, each seat's list part of everyone's), every
 * listed action accepted by a clone (c), and unlisted actions of every kind
 * — plays of every card by every seat in every mode, tendido, arrangements
 * best and by row, declarations, claims, next_hand, malformed fields —
 * refused with a message, no event and the game's bytes and save unchanged
 * (d), with game_over once the game is over (f).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "prop.h"

/* Two actions are the same action (fields the kind does not use ignored). */
static bool same_action(const pz_action *a, const pz_action *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case PZ_ACT_PLAY:
        return a->seat == b->seat && a->card == b->card && a->mode == b->mode;
    case PZ_ACT_TENDIDO:
        return a->seat == b->seat && a->now == b->now;
    case PZ_ACT_ARRANGE:
        if (a->seat != b->seat || a->best != b->best)
            return false;
        return a->best ||
               (a->direction == b->direction && memcmp(a->row, b->row, sizeof a->row) == 0);
    case PZ_ACT_DECLARE:
        return a->seat == b->seat;
    case PZ_ACT_CLAIM:
        return a->seat == b->seat && a->claimed == b->claimed;
    case PZ_ACT_NEXT_HAND:
        return true; /* the seat is -1; any valid pack will do */
    }
    return false;
}

/* True when a is in the n actions of list. */
static bool in_list(const pz_action *list, int n, const pz_action *a)
{
    for (int i = 0; i < n; i++)
        if (same_action(&list[i], a))
            return true;
    return false;
}

/* The list of one seat, and with a cap of 1, agree with the whole list. */
static void check_list_shape(prop_ctx *c, const pz_game *g)
{
    pz_action mine[PZ_LEGAL_MAX], one;
    int players = pz_get_players(g), total = 0;
    for (int i = 0; i < c->nlegal; i++)
        for (int j = 0; j < i; j++)
            PROP_CHECK_ACTION(c, &c->legal[i], !same_action(&c->legal[i], &c->legal[j]),
                              "listed twice");
    for (int seat = 0; seat < players; seat++) {
        int n = pz_legal_actions(g, seat, mine, PZ_LEGAL_MAX);
        PROP_CHECK(c, n >= 0 && n <= c->nlegal, "seat %d lists %d", seat, n);
        for (int i = 0; i < n; i++)
            PROP_CHECK_ACTION(c, &mine[i],
                              mine[i].seat == seat && in_list(c->legal, c->nlegal, &mine[i]),
                              "a seat's action is not in the whole list");
        total += n;
    }
    int hand_over = pz_get_phase(g) == PZ_PHASE_HAND_OVER;
    PROP_CHECK(c, total + hand_over == c->nlegal, "seats list %d actions, everyone %d", total,
               c->nlegal);
    if (c->nlegal > 0)
        PROP_CHECK(c,
                   pz_legal_actions(g, -1, &one, 1) == c->nlegal && same_action(&one, &c->legal[0]),
                   "a cap of 1");
}

/* Lists the actions of everyone into c->legal: none once the game is over. */
void prop_list_legal(prop_ctx *c, const pz_game *g)
{
    c->nlegal = pz_legal_actions(g, -1, c->legal, PZ_LEGAL_MAX);
    PROP_CHECK(c, c->nlegal >= 0 && c->nlegal <= PZ_LEGAL_MAX, "%d legal", c->nlegal);
    if (c->nlegal > c->st.max_legal)
        c->st.max_legal = c->nlegal;
    bool over = pz_get_phase(g) == PZ_PHASE_GAME_OVER;
    PROP_CHECK(c, over ? c->nlegal == 0 : c->nlegal > 0, "%d legal actions in phase %s", c->nlegal,
               pz_phase_name(pz_get_phase(g)));
    if (prop_rng_below(&c->rng, 16) == 0)
        check_list_shape(c, g);
}

/* (c) Every listed action is accepted by a clone; the default is listed. */
void prop_check_listed_accepted(prop_ctx *c, const pz_game *g)
{
    char why[PZ_WHY_MAX] = "", doc[PZ_SAVE_MAX];
    for (int i = 0; i < c->nlegal; i++) {
        pz_game *k = pz_clone(g);
        PROP_CHECK(c, k != NULL, "clone failed");
        if (i == 0 && prop_rng_below(&c->rng, 8) == 0)
            PROP_CHECK(c,
                       pz_save(k, doc, sizeof doc) == c->doclen &&
                           memcmp(doc, c->doc, (size_t)c->doclen) == 0,
                       "a clone saves differently");
        c->ev.n = 0;
        int rc = pz_apply(k, &c->legal[i], &c->ev, why, sizeof why);
        PROP_CHECK_ACTION(c, &c->legal[i], rc == 0, "a listed action is refused");
        pz_free(k);
    }
    pz_action d;
    int turn = pz_get_turn(g);
    if (turn >= 0)
        PROP_CHECK(c, pz_default_action(g, turn, &d) == 0 && in_list(c->legal, c->nlegal, &d),
                   "the default action of seat %d is not listed", turn);
    else
        PROP_CHECK(c, pz_default_action(g, 0, &d) == PZ_EWRONG_PHASE,
                   "a default action with no turn");
}

/* ------------------------------------------------------------------------ */
/* Unlisted actions                                                         */

/* How many candidates of category cat there are in game g. */
static int cat_size(const pz_game *g, int cat)
{
    int n = pz_get_players(g);
    static const int per[CAT_COUNT] = {
        [CAT_PLAY] = PZ_CARDS * 4,     [CAT_TENDIDO] = 2,  [CAT_ARRANGE_BEST] = 1,
        [CAT_ARRANGE_ROW] = PROP_ROWS, [CAT_DECLARE] = 1,  [CAT_CLAIM] = 0,
        [CAT_NEXT_HAND] = 0,           [CAT_MALFORMED] = 0};
    if (cat == CAT_CLAIM)
        return n * n;
    if (cat == CAT_NEXT_HAND)
        return 3;
    if (cat == CAT_MALFORMED)
        return PROP_MALFORMED;
    return n * per[cat];
}

/*
 * Row r of the arrangement candidates: 0..15 the 16 rows of the tendido
 * (or of four stand-in cards when none lies there), then a row mixing the
 * pairs, one with a card twice, one with a card not in the tendido, and one
 * with no direction. Returns false for the last (malformed).
 */
static bool arrange_row(const pz_game *g, int r, pz_card row[4], pz_direction *dir)
{
    pz_card t[4] = {0, 5, 10, 15}; /* AC 2D 3H 4S */
    pz_get_tendido(g, t);
    int left = (r >> 3) & 1 ? 2 : 0, right = 2 - left;
    int fl = (r >> 2) & 1, fr = (r >> 1) & 1;
    *dir = r & 1 ? PZ_RTL : PZ_LTR;
    row[0] = t[left + fl], row[1] = t[left + 1 - fl];
    row[2] = t[right + fr], row[3] = t[right + 1 - fr];
    if (r < 16)
        return true;
    *dir = PZ_LTR;
    for (int i = 0; i < 4; i++)
        row[i] = t[i];
    if (r == 16)
        row[1] = t[2], row[2] = t[1];
    else if (r == 17)
        row[1] = t[0];
    else if (r == 18)
        for (pz_card x = 0; x < PZ_CARDS; x++)
            if (x != t[0] && x != t[1] && x != t[2] && x != t[3]) {
                row[3] = x;
                break;
            }
    if (r == 19)
        *dir = (pz_direction)2;
    return r != 19;
}

/* A card of the turn seat's hand, or card 0; and that seat (or 0). */
static pz_card turn_card(const pz_game *g, int *seat)
{
    pz_card buf[PZ_CARDS];
    int t = pz_get_turn(g);
    *seat = t < 0 ? 0 : t;
    return pz_get_hand(g, *seat, buf) > 0 ? buf[0] : 0;
}

/* Malformed action i: fields out of their domain. */
static void malformed_action(const pz_game *g, int i, pz_action *a)
{
    int n = pz_get_players(g), seat;
    pz_card card = turn_card(g, &seat);
    static const int seats[3] = {-1, 0, 127};
    static const pz_card cards[3] = {PZ_CARDS, PZ_NO_CARD, 200};
    if (i < 3)
        *a = pz_act_play(i == 1 ? n : seats[i], card, PZ_MODE_ANY);
    else if (i < 6)
        *a = pz_act_play(seat, cards[i - 3], PZ_MODE_ANY);
    else if (i == 6)
        *a = pz_act_play(seat, card, (pz_mode)7);
    else if (i < 9)
        *a = pz_act_claim(0, i == 7 ? -1 : n);
    else if (i == 9)
        *a = pz_act_tendido(-1, true);
    else if (i == 10)
        *a = pz_act_declare(n);
    else if (i == 11)
        *a = pz_act_arrange_best(-1);
    else {
        *a = pz_act_declare(seat);
        a->kind = (pz_action_kind)(i == 12 ? 6 : 99);
    }
}

/* Builds candidate idx of category cat for game g into *k. */
static void make_candidate(const prop_ctx *c, const pz_game *g, int cat, int idx, prop_cand *k)
{
    int n = pz_get_players(g);
    k->cat = cat;
    k->well_formed = true;
    k->listable = true;
    switch (cat) {
    case CAT_PLAY:
        k->a = pz_act_play(idx / (PZ_CARDS * 4), (pz_card)(idx / 4 % PZ_CARDS), (pz_mode)(idx % 4));
        k->well_formed = idx % 4 != PZ_MODE_LAY;
        break;
    case CAT_TENDIDO:
        k->a = pz_act_tendido(idx / 2, idx % 2 != 0);
        break;
    case CAT_ARRANGE_BEST:
        k->a = pz_act_arrange_best(idx);
        break;
    case CAT_ARRANGE_ROW: {
        pz_card row[4];
        pz_direction dir;
        k->well_formed = arrange_row(g, idx % PROP_ROWS, row, &dir);
        k->a = pz_act_arrange(idx / PROP_ROWS, row, dir);
        break;
    }
    case CAT_DECLARE:
        k->a = pz_act_declare(idx);
        break;
    case CAT_CLAIM:
        k->a = pz_act_claim(idx / n, idx % n);
        break;
    case CAT_NEXT_HAND:
        k->a = pz_act_next_hand(idx == 0 ? NULL : idx == 1 ? c->bad_pack : c->good_pack);
        k->well_formed = k->listable = idx != 1;
        break;
    default:
        malformed_action(g, idx, &k->a);
        k->well_formed = false;
    }
}

/* A random candidate; half the plays are of the turn seat's own cards. */
static void random_candidate(prop_ctx *c, const pz_game *g, prop_cand *k)
{
    int cat = prop_rng_below(&c->rng, CAT_COUNT);
    make_candidate(c, g, cat, prop_rng_below(&c->rng, cat_size(g, cat)), k);
    pz_card hand[PZ_CARDS];
    int seat = pz_get_turn(g);
    int nh = seat < 0 ? 0 : pz_get_hand(g, seat, hand);
    if (cat == CAT_PLAY && nh > 0 && prop_rng_below(&c->rng, 2) == 0) {
        k->a.seat = seat;
        k->a.card = hand[prop_rng_below(&c->rng, nh)];
    }
}

/*
 * A refusal into a why buffer of 8 bytes writes a NUL-terminated message
 * within those 8 and nothing after them.
 */
static void check_short_why(prop_ctx *c, pz_game *g, const prop_cand *k)
{
    char why[32];
    memset(why, '#', sizeof why);
    c->ev.n = 0;
    int rc = pz_apply(g, &k->a, &c->ev, why, 8);
    bool canary = true;
    for (size_t i = 8; i < sizeof why; i++)
        canary = canary && why[i] == '#';
    PROP_CHECK_ACTION(c, &k->a, rc < 0 && memchr(why, '\0', 8) != NULL && canary,
                      "a refusal overran a why buffer of 8 bytes");
}

/*
 * (d), (f) Unless listed, candidate k must be refused: a code from
 * not_your_turn to invalid_action (game_over when the game is over and k is
 * well formed), a message, no event, and the game's bytes unchanged (and
 * its save, when save_too).
 */
static void check_refused(prop_ctx *c, pz_game *g, const prop_cand *k, bool save_too)
{
    char why[PZ_WHY_MAX], doc[PZ_SAVE_MAX];
    if (k->listable && in_list(c->legal, c->nlegal, &k->a))
        return;
    bool over = pz_get_phase(g) == PZ_PHASE_GAME_OVER;
    memset(why, 'x', sizeof why);
    c->ev.n = 0;
    int rc = pz_apply(g, &k->a, &c->ev, why, sizeof why);
    PROP_CHECK_ACTION(c, &k->a, rc != 0, "an unlisted action is accepted");
    PROP_CHECK_ACTION(c, &k->a, rc >= PZ_EINVALID_ACTION && rc < 0,
                      "refused with a code that is not an action's");
    if (over && k->well_formed)
        PROP_CHECK_ACTION(c, &k->a, rc == PZ_EGAME_OVER,
                          "a finished game refuses without game_over");
    PROP_CHECK_ACTION(c, &k->a, c->ev.n == 0, "a refusal made events");
    PROP_CHECK_ACTION(c, &k->a, memchr(why, '\0', sizeof why) && why[0] != '\0',
                      "a refusal without a message");
    PROP_CHECK_ACTION(c, &k->a, memcmp(g, c->snap, c->game_size) == 0,
                      "a refusal changed the game's bytes");
    if (save_too)
        PROP_CHECK_ACTION(c, &k->a,
                          pz_save(g, doc, sizeof doc) == c->doclen &&
                              memcmp(doc, c->doc, (size_t)c->doclen) == 0,
                          "a refusal changed the saved game");
    if (save_too)
        check_short_why(c, g, k);
    c->st.refused[k->cat]++;
}

/* Every candidate of every category against g, then one save compared. */
static void refuse_all(prop_ctx *c, pz_game *g)
{
    char doc[PZ_SAVE_MAX];
    prop_cand k;
    for (int cat = 0; cat < CAT_COUNT; cat++)
        for (int i = 0; i < cat_size(g, cat); i++) {
            make_candidate(c, g, cat, i, &k);
            check_refused(c, g, &k, false);
        }
    PROP_CHECK(
        c, pz_save(g, doc, sizeof doc) == c->doclen && memcmp(doc, c->doc, (size_t)c->doclen) == 0,
        "refusals changed the saved game");
    c->st.full_enumerations++;
}

/*
 * A sample of `count` candidates, or all of them once in a while. The
 * game's bytes are compared after each refusal; its save after one in four
 * refusals and after the whole sample (a save is a function of the bytes).
 */
void prop_check_refusals(prop_ctx *c, pz_game *g, int count)
{
    char doc[PZ_SAVE_MAX];
    prop_cand k;
    memcpy(c->snap, g, c->game_size);
    if (prop_rng_below(&c->rng, PROP_FULL_EVERY) == 0) {
        refuse_all(c, g);
        return;
    }
    for (int i = 0; i < count; i++) {
        random_candidate(c, g, &k);
        check_refused(c, g, &k, prop_rng_below(&c->rng, 4) == 0);
    }
    PROP_CHECK(
        c, pz_save(g, doc, sizeof doc) == c->doclen && memcmp(doc, c->doc, (size_t)c->doclen) == 0,
        "refusals changed the saved game");
}

/* (f) A finished game: nothing to do, every candidate refused (game_over). */
void prop_check_finished(prop_ctx *c, pz_game *g)
{
    pz_action d;
    int winner = pz_get_winner(g);
    PROP_CHECK(c, winner == c->winner_event, "winner %d, game_end said %d", winner,
               c->winner_event);
    if (c->end_reason == PZ_END_TARGET)
        PROP_CHECK(c, pz_get_score(g, winner) >= pz_get_options(g)->target, "won on target with %d",
                   pz_get_score(g, winner));
    for (int seat = 0; seat < pz_get_players(g); seat++)
        PROP_CHECK(c, pz_default_action(g, seat, &d) == PZ_EWRONG_PHASE,
                   "a default action for seat %d after the game", seat);
    memcpy(c->snap, g, c->game_size);
    refuse_all(c, g);
}
