/*
 * prop_state.c — the property test's checks of one game state, through the
 * referee accessors: the 52 cards conserved (a), the state words agreeing
 * with each other and the set-up, each seat's view holding no other seat's
 * card (g), score events adding up, and save -> restore -> save giving the
 * same bytes (b). It neither plays nor chooses actions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "prop.h"

/* Marks n cards as seen; each must be a card and seen nowhere else. */
static void mark_cards(prop_ctx *c, bool seen[PZ_CARDS], const pz_card *cards, int n,
                       const char *where)
{
    for (int i = 0; i < n; i++) {
        PROP_CHECK(c, cards[i] < PZ_CARDS, "%s holds no card (%u)", where, (unsigned)cards[i]);
        PROP_CHECK(c, !seen[cards[i]], "card %u seen twice (again in %s)", (unsigned)cards[i],
                   where);
        seen[cards[i]] = true;
    }
}

/*
 * (a) The 52 cards: hands, table, tendido, the pending porrazo's cards,
 * stock and piles add up to exactly 52; every card seen is distinct. After
 * a hand everything is in the piles.
 */
void prop_check_cards(prop_ctx *c, const pz_game *g)
{
    bool seen[PZ_CARDS] = {false};
    pz_card buf[PZ_CARDS];
    int players = pz_get_players(g), visible = 0;
    for (int s = 0; s < players; s++) {
        int k = pz_get_hand(g, s, buf);
        PROP_CHECK(c, k >= 0 && k <= PZ_CARDS, "hand %d has %d cards", s, k);
        mark_cards(c, seen, buf, k, "a hand");
        visible += k;
    }
    int k = pz_get_table(g, buf);
    PROP_CHECK(c, k >= 0 && k <= PZ_CARDS, "table has %d cards", k);
    mark_cards(c, seen, buf, k, "the table");
    visible += k;
    k = pz_get_tendido(g, buf);
    pz_phase phase = pz_get_phase(g);
    /* A game can end (a claim) while the tendido waits to be arranged. */
    PROP_CHECK(c,
               phase == PZ_PHASE_GAME_OVER ? k == 0 || k == 4
                                           : k == (phase == PZ_PHASE_ARRANGE ? 4 : 0),
               "tendido has %d cards in phase %s", k, pz_phase_name(phase));
    mark_cards(c, seen, buf, k, "the tendido");
    visible += k;
    int seat = -1;
    pz_pending_kind pending = pz_get_pending(g, &seat);
    k = pz_get_pending_cards(g, buf);
    PROP_CHECK(c,
               pending == PZ_PENDING_NONE ? k == 0
                                          : k >= (pending == PZ_PENDING_COUNTER ? 3 : 2) &&
                                                k <= 16 && seat >= 0 && seat < players,
               "pending porrazo (%d) of seat %d holds %d cards", (int)pending, seat, k);
    mark_cards(c, seen, buf, k, "the pending porrazo");
    visible += k;
    int stock = pz_get_stock(g), piles = 0;
    PROP_CHECK(c, stock >= 0 && stock <= PZ_CARDS, "stock of %d", stock);
    for (int side = 0; side < pz_get_sides(g); side++) {
        int p = pz_get_pile(g, side);
        PROP_CHECK(c, p >= 0 && p <= PZ_CARDS, "pile %d of %d", side, p);
        piles += p;
    }
    int missing = PZ_CARDS - visible - stock - piles;
    PROP_CHECK(c, missing == 0, "%d cards lost (%d seen, stock %d, piles %d)", missing, visible,
               stock, piles);
    if (phase == PZ_PHASE_HAND_OVER)
        PROP_CHECK(c, visible == 0 && stock == 0 && missing == 0,
                   "hand over with cards outside the piles");
}

/* The deals per hand R2.3 gives n players. */
static int deals_for(int players)
{
    return 48 / (3 * players);
}

/* The words of the state agree with each other and with the set-up. */
void prop_check_words(prop_ctx *c, const pz_game *g)
{
    const pz_setup *s = &c->rec.setup;
    int n = pz_get_players(g), phase = (int)pz_get_phase(g);
    int sides = s->options.partnerships ? n / 2 : n, turn = pz_get_turn(g);
    const pz_options *o = pz_get_options(g);
    PROP_CHECK(c, n == s->players && pz_get_sides(g) == sides, "seat counts");
    PROP_CHECK(c,
               o->target == s->options.target && o->partnerships == s->options.partnerships &&
                   o->declarations == s->options.declarations &&
                   o->card_score == s->options.card_score && o->wrap == s->options.wrap &&
                   o->tendido == s->options.tendido && o->odd_leftover == s->options.odd_leftover &&
                   o->final_sweep == s->options.final_sweep,
               "options changed");
    PROP_CHECK(c, phase >= 0 && phase <= PZ_PHASE_GAME_OVER, "phase %d", phase);
    PROP_CHECK(c,
               pz_get_deals_per_hand(g) == deals_for(n) && pz_get_deal(g) >= 1 &&
                   pz_get_deal(g) <= deals_for(n),
               "deal %d of %d", pz_get_deal(g), pz_get_deals_per_hand(g));
    PROP_CHECK(c, pz_get_dealer(g) >= 0 && pz_get_dealer(g) < n, "dealer");
    for (int seat = 0; seat < n; seat++)
        PROP_CHECK(c, pz_side_of(g, seat) == (s->options.partnerships ? seat % (n / 2) : seat),
                   "side of seat %d", seat);
    if (phase == PZ_PHASE_TENDIDO_CHOICE || phase == PZ_PHASE_ARRANGE)
        PROP_CHECK(c, turn == pz_get_dealer(g), "turn %d is not the dealer", turn);
    else if (phase == PZ_PHASE_PLAY)
        PROP_CHECK(c, turn >= 0 && turn < n && pz_get_hand(g, turn, (pz_card[PZ_CARDS]){0}) > 0,
                   "turn %d holds no card", turn);
    else
        PROP_CHECK(c, turn == -1, "turn %d after the hand", turn);
    bool over = phase == PZ_PHASE_GAME_OVER;
    int winner = pz_get_winner(g);
    PROP_CHECK(c, over ? winner >= 0 && winner < sides : winner == -1, "winner %d in phase %s",
               winner, pz_phase_name(pz_get_phase(g)));
    for (int side = 0; side < sides; side++)
        PROP_CHECK(c, pz_get_score(g, side) >= 0 && (over || pz_get_score(g, side) < o->target),
                   "side %d has %d of %d and plays on", side, pz_get_score(g, side), o->target);
}

/* True when the n cards of a and b are the same set. */
static bool same_card_set(const pz_card *a, int na, const pz_card *b, int nb)
{
    uint64_t ma = 0, mb = 0;
    if (na != nb)
        return false;
    for (int i = 0; i < na; i++) {
        ma |= a[i] < PZ_CARDS ? 1ULL << a[i] : 0;
        mb |= b[i] < PZ_CARDS ? 1ULL << b[i] : 0;
    }
    return ma == mb;
}

/* A bit per card held by any seat but `seat`. */
static uint64_t others_cards(const pz_game *g, int seat)
{
    uint64_t m = 0;
    pz_card buf[PZ_CARDS];
    for (int s = 0; s < pz_get_players(g); s++) {
        int k = s == seat ? 0 : pz_get_hand(g, s, buf);
        for (int i = 0; i < k; i++)
            m |= 1ULL << buf[i];
    }
    return m;
}

/* No card of another seat's hand in the n cards. */
static bool none_of(uint64_t others, const pz_card *cards, int n)
{
    for (int i = 0; i < n; i++)
        if (cards[i] < PZ_CARDS && (others >> cards[i] & 1))
            return false;
    return true;
}

/* (g) What `seat` sees: its own hand only, public state as the referee's. */
static void check_view(prop_ctx *c, const pz_game *g, int seat)
{
    pz_view v;
    pz_card buf[PZ_CARDS];
    PROP_CHECK(c, pz_view_seat(g, seat, &v) == 0, "no view for seat %d", seat);
    PROP_CHECK(c,
               v.nhand >= 0 && v.nhand <= PZ_CARDS && v.ntable >= 0 && v.ntable <= PZ_CARDS &&
                   v.ntendido >= 0 && v.ntendido <= 4,
               "view of seat %d: counts out of range", seat);
    int nhand = pz_get_hand(g, seat, buf);
    bool choosing = pz_get_phase(g) == PZ_PHASE_TENDIDO_CHOICE && seat == pz_get_dealer(g);
    PROP_CHECK(c,
               v.seat == seat && v.phase == pz_get_phase(g) && v.turn == pz_get_turn(g) &&
                   v.dealer == pz_get_dealer(g) && v.stock == pz_get_stock(g) &&
                   v.winner == pz_get_winner(g),
               "view of seat %d disagrees with the referee", seat);
    PROP_CHECK(c, v.hand_hidden == choosing, "seat %d: hand_hidden %d (R4.2)", seat,
               (int)v.hand_hidden);
    if (v.hand_hidden)
        PROP_CHECK(c, v.nhand == 0, "hidden hand shows %d cards", v.nhand);
    else
        PROP_CHECK(c, same_card_set(v.hand, v.nhand, buf, nhand),
                   "view of seat %d shows another hand", seat);
    for (int s = 0; s < pz_get_players(g); s++)
        PROP_CHECK(c, v.hand_count[s] == pz_get_hand(g, s, buf),
                   "view of seat %d: seat %d holds %d", seat, s, v.hand_count[s]);
    int ntable = pz_get_table(g, buf);
    PROP_CHECK(c, same_card_set(v.table, v.ntable, buf, ntable),
               "view of seat %d shows another table", seat);
    uint64_t others = others_cards(g, seat);
    PROP_CHECK(c,
               none_of(others, v.hand, v.hand_hidden ? 0 : v.nhand) &&
                   none_of(others, v.table, v.ntable) && none_of(others, v.tendido, v.ntendido) &&
                   (!v.has_last_play || none_of(others, &v.last_play_card, 1)),
               "view of seat %d shows another player's card", seat);
    for (int side = 0; side < pz_get_sides(g); side++)
        PROP_CHECK(c,
                   v.scores[side] == pz_get_score(g, side) && v.piles[side] == pz_get_pile(g, side),
                   "view side %d", side);
}

/* Every view, and views of seats out of range refused. */
void prop_check_views(prop_ctx *c, const pz_game *g)
{
    pz_view v;
    for (int seat = 0; seat < pz_get_players(g); seat++)
        check_view(c, g, seat);
    PROP_CHECK(c,
               pz_view_seat(g, -1, &v) == PZ_EINVALID_ACTION &&
                   pz_view_seat(g, pz_get_players(g), &v) == PZ_EINVALID_ACTION,
               "view of a seat out of range");
}

/*
 * Score events add up: each total is the side's previous total plus its
 * points; after the action the totals are the game's scores. Also counts
 * hands (their piles hold the 52 cards) and the game's end.
 */
void prop_check_events(prop_ctx *c, const pz_game *g, const pz_events *ev)
{
    int sides = pz_get_sides(g);
    PROP_CHECK(c, ev->n >= 0 && ev->n <= PZ_EVENTS_MAX, "%d events", ev->n);
    for (int i = 0; i < ev->n; i++) {
        const pz_event *e = &ev->ev[i];
        int sum = 0;
        switch (e->kind) {
        case PZ_EV_SCORE:
            PROP_CHECK(c,
                       e->side >= 0 && e->side < sides && e->points >= 0 &&
                           e->total == c->score[e->side] + e->points,
                       "score event: side %d, %d points, total %d after %d", e->side, e->points,
                       e->total, e->side >= 0 && e->side < sides ? c->score[e->side] : -1);
            c->score[e->side] = e->total;
            break;
        case PZ_EV_HAND_END:
            for (int s = 0; s < e->nvalues && s < PZ_MAX_SIDES; s++)
                sum += e->values[s];
            PROP_CHECK(c, e->nvalues == sides && sum == PZ_CARDS, "hand_end: %d piles, %d cards",
                       e->nvalues, sum);
            c->st.hands++;
            break;
        case PZ_EV_GAME_END:
            PROP_CHECK(c, e->side >= 0 && e->side < sides && e->nvalues == sides,
                       "game_end: side %d", e->side);
            for (int s = 0; s < sides; s++)
                PROP_CHECK(c, e->values[s] == c->score[s],
                           "game_end: side %d has %d, events say %d", s, e->values[s], c->score[s]);
            c->winner_event = e->side;
            c->end_reason = e->reason;
            break;
        case PZ_EV_SAN_BENITO:
            c->st.san_benitos++;
            break;
        default:
            PROP_CHECK(c, (unsigned)e->kind <= PZ_EV_GAME_END, "event kind %d", (int)e->kind);
        }
    }
    for (int s = 0; s < sides; s++)
        PROP_CHECK(c, c->score[s] == pz_get_score(g, s), "side %d scores %d, events say %d", s,
                   pz_get_score(g, s), c->score[s]);
}

/* ------------------------------------------------------------------------ */
/* Save and restore                                                         */

/* Saving into too small a buffer and restoring a truncated document fail. */
static void check_save_edges(prop_ctx *c, const pz_game *g)
{
    char buf[PZ_SAVE_MAX], why[PZ_WHY_MAX];
    pz_game *r = NULL;
    PROP_CHECK(
        c, pz_save(g, buf, (size_t)c->doclen) == PZ_ENO_SPACE && pz_save(g, buf, 0) == PZ_ENO_SPACE,
        "save past its buffer");
    PROP_CHECK(c,
               pz_restore(&r, c->doc, (size_t)c->doclen - 1, why, sizeof why) == PZ_EBAD_DOCUMENT &&
                   r == NULL,
               "a truncated document restored");
    PROP_CHECK(c, pz_restore(&r, c->doc, 0, why, sizeof why) == PZ_EBAD_DOCUMENT && r == NULL,
               "an empty document restored");
}

/*
 * (b) Saves g into c->doc, restores it, saves the copy: the bytes must be
 * the same. Frees g and returns the restored game, so that the game goes
 * on from what the document held.
 */
pz_game *prop_round_trip(prop_ctx *c, pz_game *g)
{
    char again[PZ_SAVE_MAX], why[PZ_WHY_MAX] = "";
    int len = pz_save(g, c->doc, sizeof c->doc);
    PROP_CHECK(c,
               len > 0 && len < PZ_SAVE_MAX && c->doc[len] == '\0' && strlen(c->doc) == (size_t)len,
               "save returned %d", len);
    c->doclen = len;
    if (len > c->st.max_doc)
        c->st.max_doc = len;
    pz_game *r = NULL;
    int rc = pz_restore(&r, c->doc, (size_t)len, why, sizeof why);
    PROP_CHECK(c, rc == 0 && r != NULL, "restore refused its own save: %s\n%s", why, c->doc);
    int len2 = pz_save(r, again, sizeof again);
    PROP_CHECK(c, len2 == len && memcmp(again, c->doc, (size_t)len) == 0,
               "save -> restore -> save differs:\n%s\n%s", c->doc, again);
    if (prop_rng_below(&c->rng, 32) == 0)
        check_save_edges(c, g);
    pz_free(g);
    return r;
}
