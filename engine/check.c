/*
 * check.c — the invariants of a game state, and games that start from a
 * position.
 *
 * pz__check() is the one place that knows what a consistent game looks
 * like: restore (save.c) and positions (pz_new_position) both build a
 * state and ask it. It never trusts a count without checking its bounds
 * first, so it is safe on any bytes. Not here: the rules that move cards.
 */
#include <string.h>

#include "game.h"

#define ALL_CARDS ((UINT64_C(1) << PZ_CARDS) - 1)

/* The number of bits set in x (by hand: the engine links only libc). */
static int count_bits(uint64_t x)
{
    int n = 0;
    for (; x != 0; x &= x - 1)
        n++;
    return n;
}

/*
 * Adds n cards to *seen; fails on a card out of range or seen before. The
 * place is `where`, or seat `seat`'s hand when seat >= 0 (the label is
 * only formatted on failure: this runs on every restore).
 */
static int add_cards(uint64_t *seen, const pz_card *cards, int n, const char *where, int seat,
                     char *why, size_t why_len)
{
    for (int i = 0; i < n; i++) {
        bool bad = cards[i] >= PZ_CARDS;
        if (!bad && !(*seen >> cards[i] & 1)) {
            *seen |= UINT64_C(1) << cards[i];
            continue;
        }
        char name[3], label[24];
        pz_card_format(cards[i], name);
        if (seat >= 0)
            pz__why(label, sizeof label, "seat %d's hand", seat);
        else
            pz__why(label, sizeof label, "%s", where);
        if (bad)
            pz__why(why, why_len, "%s holds an invalid card", label);
        else
            pz__why(why, why_len, "card %s is in two places (again in %s)", name, label);
        return PZ_EBAD_DOCUMENT;
    }
    return 0;
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        pz__why(why, why_len, __VA_ARGS__);                                                        \
        return PZ_EBAD_DOCUMENT;                                                                   \
    } while (0)

/* The fixed fields: players, options, derived constants. */
static int check_fixed(const pz_game *g, char *why, size_t why_len)
{
    if (pz_options_check(&g->opt, g->players, why, why_len) != 0)
        return PZ_EBAD_DOCUMENT;
    if (g->sides != (g->opt.partnerships ? g->players / 2 : g->players))
        FAIL("the number of sides does not match the players and partnerships");
    if (g->deals != pz__deals_for(g->players) || g->leftover != pz__leftover_for(g->players))
        FAIL("deals per hand and leftover do not match %d players (R2.3)", g->players);
    if (g->phase > PZ_PHASE_GAME_OVER)
        FAIL("unknown phase");
    if (g->dealer >= g->players)
        FAIL("the dealer is not a seat");
    if (g->deal < 1 || g->deal > g->deals)
        FAIL("deal %d is not from 1 to %d", g->deal, g->deals);
    if (g->tendido_done > 1 || g->r3_off > 1 || g->first_play_done > 1 || g->claim_open > 1 ||
        g->has_last > 1 || g->last_captured > 1 || g->pend_limpia > 1)
        FAIL("a yes/no field holds another value");
    return 0;
}

/* Every card in exactly one place. */
static int check_cards(const pz_game *g, char *why, size_t why_len)
{
    uint64_t seen = 0;
    int err;
    if (g->ntable > PZ_CARDS || g->nstock > PZ_CARDS || g->pend_n > 16 ||
        (g->ntendido != 0 && g->ntendido != 4))
        FAIL("a card count is out of range");
    if ((err = add_cards(&seen, g->table, g->ntable, "the table", -1, why, why_len)) != 0 ||
        (err = add_cards(&seen, g->stock, g->nstock, "the stock", -1, why, why_len)) != 0 ||
        (err = add_cards(&seen, g->tendido, g->ntendido, "the tendido", -1, why, why_len)) != 0 ||
        (err = add_cards(&seen, g->pend_cards, g->pend_n, "the pending porrazo", -1, why,
                         why_len)) != 0)
        return err;
    for (int s = 0; s < PZ_MAX_PLAYERS; s++) {
        if (g->nhand[s] > PZ_CARDS || (s >= g->players && g->nhand[s] != 0))
            FAIL("seat %d's hand size is out of range", s);
        if ((err = add_cards(&seen, g->hand[s], g->nhand[s], NULL, s, why, why_len)) != 0)
            return err;
    }
    if (g->won & ~ALL_CARDS)
        FAIL("the won cards name a card that does not exist");
    if (seen & g->won)
        FAIL("a won card is also in play");
    if ((seen | g->won) != ALL_CARDS)
        FAIL("some cards are nowhere");
    return 0;
}

/* Scores, piles, winner, seats. */
static int check_sides(const pz_game *g, char *why, size_t why_len)
{
    int piles = 0;
    bool over = g->phase == PZ_PHASE_GAME_OVER;
    for (int s = 0; s < PZ_MAX_SIDES; s++) {
        if (s >= g->sides && (g->score[s] != 0 || g->pile[s] != 0))
            FAIL("side %d does not exist but has a score or cards", s);
        if (g->score[s] < 0 || g->score[s] >= g->opt.target + (over ? 100 : 0))
            FAIL("side %d's score %d is out of range", s, g->score[s]);
        piles += g->pile[s];
    }
    if (piles > count_bits(g->won))
        FAIL("the piles hold more cards than were won");
    if (over != (g->winner >= 0) || g->winner >= g->sides)
        FAIL("the winner does not match the phase");
    if (g->last_capturer < -1 || g->last_capturer >= g->players)
        FAIL("the last capturer is not a seat");
    if (g->phase == PZ_PHASE_PLAY) {
        if (g->turn < 0 || g->turn >= g->players || g->nhand[g->turn] == 0)
            FAIL("the player to move must be a seat holding cards");
    } else if (g->turn != -1) {
        FAIL("there is a player to move outside the play phase");
    }
    return 0;
}

/* The previous play, the pending porrazo and the holdings. */
static int check_play_state(const pz_game *g, char *why, size_t why_len)
{
    if (g->has_last) {
        if (!g->first_play_done || g->last_seat < 0 || g->last_seat >= g->players ||
            g->last_card >= PZ_CARDS)
            FAIL("the last play is not consistent");
        if (!g->last_captured && g->pend_kind == PZ_PENDING_NONE &&
            memchr(g->table, g->last_card, g->ntable) == NULL)
            FAIL("the last play did not capture, so its card must be on the table");
    }
    if (g->pend_kind > PZ_PENDING_COUNTER)
        FAIL("unknown pending kind");
    if (g->pend_kind == PZ_PENDING_NONE) {
        if (g->pend_n != 0)
            FAIL("cards are pending without a porrazo");
    } else if (g->pend_seat < 0 || g->pend_seat >= g->players || g->pend_rank >= PZ_RANKS ||
               g->pend_last_rank >= PZ_RANKS ||
               g->pend_n < (g->pend_kind == PZ_PENDING_COUNTER ? 3 : 2) ||
               pz_card_rank(g->pend_cards[0]) != g->pend_rank ||
               (g->phase != PZ_PHASE_PLAY && g->phase != PZ_PHASE_GAME_OVER)) {
        FAIL("the pending porrazo is not consistent");
    }
    for (int s = 0; s < PZ_MAX_PLAYERS; s++) {
        const pz_holding *h[2] = {&g->hold[s], &g->prev[s]};
        for (int i = 0; i < 2; i++)
            if (h[i]->kind > PZ_HOLD_FOUR || h[i]->rank >= PZ_RANKS || h[i]->declared > 1 ||
                h[i]->claimed > 1 || (s >= g->players && h[i]->kind != PZ_HOLD_NONE))
                FAIL("seat %d's holding is not consistent", s);
    }
    if (g->claim_open && g->opt.declarations != PZ_DECL_MANUAL)
        FAIL("a claim window is open without manual declarations");
    return 0;
}

/* The public record: each seat's played cards, in no other seat's, and this
   deal's out of hands, stock and tendido. */
static int check_played(const pz_game *g, char *why, size_t why_len)
{
    uint64_t now = 0, before = 0, hidden = 0;
    for (int s = 0; s < g->players; s++)
        for (int i = 0; i < g->nhand[s]; i++)
            hidden |= UINT64_C(1) << g->hand[s][i];
    for (int i = 0; i < g->nstock; i++)
        hidden |= UINT64_C(1) << g->stock[i];
    for (int i = 0; i < g->ntendido; i++)
        hidden |= UINT64_C(1) << g->tendido[i];
    for (int s = 0; s < PZ_MAX_PLAYERS; s++) {
        uint64_t p = g->played[s], q = g->played_prev[s];
        if ((p | q) & ~ALL_CARDS || (s >= g->players && (p | q) != 0))
            FAIL("seat %d's played cards are out of range", s);
        if (p & (now | hidden) || q & before)
            FAIL("a card is played twice, or played and still held");
        now |= p;
        before |= q;
    }
    return 0;
}

/* The cards the stock must hold in this phase and deal (R2.3, R2.4, R4.1). */
static int expected_stock(const pz_game *g)
{
    bool last = g->deal == g->deals;
    bool leftover_laid =
        last && (g->phase == PZ_PHASE_PLAY || g->phase == PZ_PHASE_HAND_OVER ||
                 (g->phase == PZ_PHASE_ARRANGE && g->opt.tendido == PZ_TENDIDO_LAST));
    return (g->deals - g->deal) * 3 * g->players + (leftover_laid ? 0 : g->leftover) +
           (g->tendido_done ? 0 : 4);
}

/* What each phase requires. */
static int check_phase(const pz_game *g, char *why, size_t why_len)
{
    bool pending = g->pend_kind != PZ_PENDING_NONE;
    switch (g->phase) {
    case PZ_PHASE_TENDIDO_CHOICE:
        if (g->opt.tendido != PZ_TENDIDO_CHOICE || g->tendido_done || g->deal == g->deals ||
            g->ntendido != 0 || g->first_play_done)
            FAIL("a tendido choice is not possible here");
        for (int s = 0; s < g->players; s++)
            if (g->nhand[s] != 3)
                FAIL("every hand holds 3 cards at the tendido choice");
        break;
    case PZ_PHASE_ARRANGE:
        if (g->ntendido != 4 || !g->tendido_done || g->first_play_done || pending)
            FAIL("an arrangement is not possible here");
        break;
    case PZ_PHASE_PLAY:
        if (g->ntendido != 0 || (g->deal == g->deals && !g->tendido_done))
            FAIL("the tendido is not consistent with the play phase");
        break;
    case PZ_PHASE_HAND_OVER:
        for (int s = 0; s < g->players; s++)
            if (g->nhand[s] != 0)
                FAIL("hands must be empty when the hand is over");
        if (g->ntable != 0 || g->ntendido != 0 || g->deal != g->deals || !g->tendido_done)
            FAIL("the table must be empty when the hand is over");
        break;
    default:
        return 0;
    }
    if (g->nstock != expected_stock(g))
        FAIL("the stock holds %d cards where deal %d of %d needs %d", g->nstock, g->deal, g->deals,
             expected_stock(g));
    return 0;
}

#undef FAIL

/* Every invariant of a game state; see game.h. */
int pz__check(const pz_game *g, char *why, size_t why_len)
{
    int err;
    if ((err = check_fixed(g, why, why_len)) != 0 || (err = check_cards(g, why, why_len)) != 0 ||
        (err = check_sides(g, why, why_len)) != 0 ||
        (err = check_play_state(g, why, why_len)) != 0 ||
        (err = check_played(g, why, why_len)) != 0 || (err = check_phase(g, why, why_len)) != 0)
        return err;
    return 0;
}

/* Range checks a position needs before its cards can be copied. */
static int check_position_ranges(const pz_game *g, const pz_position *p, char *why, size_t why_len)
{
    const char *what = NULL;
    if (p->ntable < 0 || p->ntable > PZ_CARDS || p->nstock < 0 || p->nstock > PZ_CARDS)
        what = "a card list is too long";
    for (int s = 0; s < PZ_MAX_PLAYERS && what == NULL; s++)
        if (p->nhand[s] < 0 || p->nhand[s] > PZ_CARDS || (s >= g->players && p->nhand[s] != 0))
            what = "a hand is out of range";
    if (p->deal < 1 || p->deal > g->deals)
        what = "deal is out of range";
    else if (p->turn < 0 || p->turn >= g->players)
        what = "turn is not a seat";
    else if (p->last_capturer < -1 || p->last_capturer >= g->players)
        what = "last_capturer is not a seat";
    else if (p->has_last_play && (p->last_play_seat < 0 || p->last_play_seat >= g->players ||
                                  p->last_play_card >= PZ_CARDS))
        what = "last_play is not valid";
    for (int s = 0; s < PZ_MAX_SIDES && what == NULL; s++)
        if (p->piles[s] < 0 || p->piles[s] > PZ_CARDS || (s >= g->sides && p->piles[s] != 0))
            what = "piles are out of range";
    if (what != NULL) {
        pz__why(why, why_len, "position: %s", what);
        return PZ_EBAD_SETUP;
    }
    return 0;
}

/* Fills g from p (ranges already checked). */
static void load_position(pz_game *g, const pz_position *p)
{
    uint64_t named = 0;
    g->ntable = (uint8_t)p->ntable;
    memcpy(g->table, p->table, (size_t)p->ntable);
    g->nstock = (uint8_t)p->nstock;
    memcpy(g->stock, p->stock, (size_t)p->nstock);
    for (int s = 0; s < g->players; s++) {
        g->nhand[s] = (uint8_t)p->nhand[s];
        memcpy(g->hand[s], p->hands[s], (size_t)p->nhand[s]);
        for (int i = 0; i < p->nhand[s]; i++)
            named |= UINT64_C(1) << (p->hands[s][i] & 63);
    }
    for (int i = 0; i < p->ntable; i++)
        named |= UINT64_C(1) << (p->table[i] & 63);
    for (int i = 0; i < p->nstock; i++)
        named |= UINT64_C(1) << (p->stock[i] & 63);
    g->won = ALL_CARDS & ~named;
    for (int s = 0; s < g->sides && s < PZ_MAX_SIDES; s++)
        g->pile[s] = (uint8_t)p->piles[s];
    g->deal = (uint8_t)p->deal;
    g->tendido_done = p->tendido_done;
    g->turn = (int8_t)p->turn;
    g->last_capturer = (int8_t)p->last_capturer;
    g->has_last = p->has_last_play;
    g->first_play_done = p->has_last_play;
    if (p->has_last_play) {
        g->last_seat = (int8_t)p->last_play_seat;
        g->last_card = p->last_play_card;
        g->last_captured = p->last_play_captured;
    }
    g->phase = PZ_PHASE_PLAY;
    g->r3_off = 1; /* R3 does not score for the deal a position starts in */
}

/* A game in phase play at a position; see porrazo.h. */
int pz_new_position(pz_game **out, const pz_setup *s, const pz_position *p, char *why,
                    size_t why_len)
{
    int err = pz__check_setup(s, false, why, why_len);
    if (err != 0)
        return err;
    if (s->pack != NULL) {
        pz__why(why, why_len, "a position comes without a pack");
        return PZ_EBAD_SETUP;
    }
    pz_game *g = pz__alloc(s);
    if (g == NULL) {
        pz__why(why, why_len, "out of memory");
        return PZ_ENO_MEMORY;
    }
    g->dealer = (uint8_t)s->dealer;
    if ((err = check_position_ranges(g, p, why, why_len)) != 0) {
        pz_free(g);
        return err;
    }
    if (p->has_last_play && p->last_play_captured &&
        (memchr(p->table, p->last_play_card, (size_t)p->ntable) != NULL)) {
        pz__why(why, why_len, "position: last_play captured, so its card cannot be on the table");
        pz_free(g);
        return PZ_EBAD_SETUP;
    }
    load_position(g, p);
    char detail[PZ_WHY_MAX];
    if (pz__check(g, detail, sizeof detail) != 0) {
        pz__why(why, why_len, "position: %s", detail);
        pz_free(g);
        return PZ_EBAD_SETUP;
    }
    *out = g;
    return 0;
}

/* Fills *p with an empty position at deal 1. */
void pz_position_default(pz_position *p)
{
    memset(p, 0, sizeof *p);
    p->deal = 1;
    p->last_capturer = -1;
}
