/*
 * rules.c — the rules of RULES.md as state transitions: creating a game,
 * dealing (R2), the tendido (R4), plays with captures, in-place plays and
 * limpias (R5), porrazos and their settlement (R6), the end of a deal (R3
 * scoring) and of a hand (R7), and the win (R8).
 *
 * pz_apply() validates an action completely before it changes anything, so
 * a refused action leaves the game as it was. Events go to a caller buffer.
 * Not here: listing legal actions (legal.c), views (view.c), the invariant
 * check and positions (check.c), saving (save.c).
 */
#include <stdlib.h>
#include <string.h>

#include "rules_int.h"

/* Appends an event of kind k with every scalar field cleared. */
pz_event *pz__emit(ctx *c, pz_event_kind k)
{
    pz_event *e = c->ev != NULL ? &c->ev->ev[c->ev->n++] : &c->scratch;
    e->kind = k;
    e->seat = -1;
    e->side = -1;
    e->dealer = (int8_t)c->g->dealer;
    e->deal = (int8_t)c->g->deal;
    e->card = PZ_NO_CARD;
    e->mode = PZ_MODE_ANY;
    e->reason = 0;
    e->holding = PZ_HOLD_NONE;
    e->direction = PZ_LTR;
    e->pending = false;
    e->points = 0;
    e->total = 0;
    e->ncards = 0;
    e->nvalues = 0;
    return e;
}

/* R1.3: the rank after r in a sequence, or -1 (K without wrap). */
static int next_rank(const pz_game *g, int r)
{
    if (r == 12)
        return g->opt.wrap ? 0 : -1;
    return r + 1;
}

/* Ends the game: side wins for reason (R8.2, R6.3). */
static void end_game(ctx *c, int side, pz_end_reason reason)
{
    pz_game *g = c->g;
    g->phase = PZ_PHASE_GAME_OVER;
    g->winner = (int8_t)side;
    g->turn = -1;
    pz_event *e = pz__emit(c, PZ_EV_GAME_END);
    e->side = (int8_t)side;
    e->reason = (uint8_t)reason;
    e->nvalues = g->sides;
    for (int s = 0; s < g->sides; s++)
        e->values[s] = g->score[s];
}

/*
 * Scores points (> 0) for side, announcing it; the win of R8.2 is checked
 * at once. Returns true when the game is over.
 */
bool pz__add_score(ctx *c, int side, int seat, pz_reason reason, int points)
{
    pz_game *g = c->g;
    if (points <= 0)
        return false;
    g->score[side] = (int16_t)(g->score[side] + points);
    pz_event *e = pz__emit(c, PZ_EV_SCORE);
    e->side = (int8_t)side;
    e->seat = (int8_t)seat;
    e->reason = (uint8_t)reason;
    e->points = (int16_t)points;
    e->total = g->score[side];
    if (g->score[side] >= g->opt.target) {
        end_game(c, side, PZ_END_TARGET);
        return true;
    }
    return false;
}

/* Index of card in a list of n, or -1. */
static int find_card(const pz_card *list, int n, pz_card card)
{
    for (int i = 0; i < n; i++)
        if (list[i] == card)
            return i;
    return -1;
}

/* Index of the earliest card of rank r in the table, or -1. */
static int find_rank(const pz_game *g, int r)
{
    for (int i = 0; i < g->ntable; i++)
        if (pz_card_rank(g->table[i]) == r)
            return i;
    return -1;
}

/* Removes list[i] keeping the order of the rest. */
static void remove_at(pz_card *list, uint8_t *n, int i)
{
    memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1));
    (*n)--;
}

/* Moves cards to side's pile (won). */
static void win_cards(pz_game *g, int side, const pz_card *cards, int n)
{
    for (int i = 0; i < n; i++)
        g->won |= UINT64_C(1) << cards[i];
    g->pile[side] = (uint8_t)(g->pile[side] + n);
}

/* The first seat clockwise after `from` (from itself last) holding cards,
   or -1 when every hand is empty (R2.5). */
static int next_player(const pz_game *g, int from)
{
    for (int k = 1; k <= g->players; k++) {
        int s = (from + k) % g->players;
        if (g->nhand[s] > 0)
            return s;
    }
    return -1;
}

/* Takes the top card of the stock. */
pz_card pz__draw(pz_game *g)
{
    pz_card c = g->stock[0];
    remove_at(g->stock, &g->nstock, 0);
    return c;
}

/*
 * Enters phase play (after the deal and any tendido/leftover): holdings of
 * this deal (R3.1), automatic declarations (R3.2), first player (R2.5).
 */
void pz__begin_play(ctx *c)
{
    pz_game *g = c->g;
    for (int k = 1; k <= g->players; k++) {
        int s = (g->dealer + k) % g->players;
        g->hold[s] = pz__holding_of(g->hand[s], g->nhand[s]);
        if (g->opt.declarations == PZ_DECL_AUTO && g->hold[s].kind != PZ_HOLD_NONE) {
            g->hold[s].declared = 1;
            pz_event *e = pz__emit(c, PZ_EV_DECLARE);
            e->seat = (int8_t)s;
            e->holding = g->hold[s].kind;
        }
    }
    g->phase = PZ_PHASE_PLAY;
    g->turn = (int8_t)next_player(g, g->dealer);
}

/* R2.4: the leftover cards of the last deal, to the table or dealt. */
void pz__lay_leftover(ctx *c)
{
    pz_game *g = c->g;
    if (g->leftover == 0)
        return;
    pz_event *e = pz__emit(c, PZ_EV_LEFTOVER);
    for (int i = 0; i < g->leftover; i++) {
        pz_card card = pz__draw(g);
        int seat = -1;
        if (g->opt.odd_leftover == PZ_LEFTOVER_DEAL) {
            seat = (g->dealer + 1 + i) % g->players;
            g->hand[seat][g->nhand[seat]++] = card;
        } else {
            g->table[g->ntable++] = card;
        }
        e->cards[i] = card;
        e->card_seat[i] = (int8_t)seat;
    }
    e->ncards = g->leftover;
}

/*
 * R2.2: deals one batch of three to each player from the dealer's left,
 * then the tendido choice or compulsory tendido (R4.1), the leftover at
 * the last deal (R2.4) and the start of play.
 */
static void deal_cards(ctx *c)
{
    pz_game *g = c->g;
    g->deal++;
    g->has_last = 0;
    g->first_play_done = 0;
    g->r3_off = 0;
    for (int k = 1; k <= g->players; k++) {
        int s = (g->dealer + k) % g->players;
        for (int i = 0; i < 3; i++)
            g->hand[s][g->nhand[s]++] = pz__draw(g);
    }
    pz_event *e = pz__emit(c, PZ_EV_DEAL);
    for (int s = 0; s < g->players; s++)
        for (int i = 0; i < g->nhand[s]; i++) {
            e->cards[e->ncards] = g->hand[s][i];
            e->card_seat[e->ncards++] = (int8_t)s;
        }
    for (int s = 0; s < g->players; s++)
        g->hold[s] = (pz_holding){PZ_HOLD_NONE, 0, 0, 0};

    bool last = g->deal == g->deals;
    if (g->opt.tendido == PZ_TENDIDO_CHOICE && !g->tendido_done) {
        if (last) {
            pz__deal_tendido(c); /* compulsory at the last deal */
        } else {
            g->phase = PZ_PHASE_TENDIDO_CHOICE;
            g->turn = -1;
        }
        return;
    }
    if (last)
        pz__lay_leftover(c);
    if (last && g->opt.tendido == PZ_TENDIDO_LAST) {
        pz__deal_tendido(c);
        return;
    }
    pz__begin_play(c);
}

/* Starts a hand from a 52-card pack: everything is gathered (R2.1). */
static void start_hand(ctx *c, const pz_card pack[PZ_CARDS])
{
    pz_game *g = c->g;
    memcpy(g->stock, pack, PZ_CARDS);
    g->nstock = PZ_CARDS;
    g->ntable = 0;
    g->ntendido = 0;
    memset(g->nhand, 0, sizeof g->nhand);
    memset(g->pile, 0, sizeof g->pile);
    g->won = 0;
    g->deal = 0;
    g->tendido_done = 0;
    g->last_capturer = -1;
    g->pend_kind = PZ_PENDING_NONE;
    g->pend_n = 0;
    deal_cards(c);
}

/*
 * R6.4: a pending porrazo or counter porrazo stands: its side takes the
 * cards and scores (R1.6), plus the limpia it made (R5.6, R6.2). Returns
 * true when that ends the game.
 */
static bool settle_pending(ctx *c)
{
    pz_game *g = c->g;
    int seat = g->pend_seat;
    int side = pz__side(g, seat);
    bool counter = g->pend_kind == PZ_PENDING_COUNTER;
    int points = counter ? pz_rondine_value(g->pend_rank) : pz_ronda_value(g->pend_rank);
    int limpia = g->pend_limpia ? pz_ronda_value(g->pend_last_rank) : 0;

    win_cards(g, side, g->pend_cards, g->pend_n);
    g->pend_kind = PZ_PENDING_NONE;
    g->pend_n = 0;
    g->pend_limpia = 0;
    if (pz__add_score(c, side, seat, counter ? PZ_REASON_COUNTER_PORRAZO : PZ_REASON_PORRAZO,
                      points))
        return true;
    return pz__add_score(c, side, seat, PZ_REASON_LIMPIA, limpia);
}

/* R7.1: the cards left on the table after the last deal. */
static void final_sweep(ctx *c)
{
    pz_game *g = c->g;
    if (g->ntable == 0)
        return;
    int seat = g->opt.final_sweep == PZ_SWEEP_LAST_CAPTURER && g->last_capturer >= 0
                   ? g->last_capturer
                   : g->dealer;
    int side = pz__side(g, seat);
    pz_event *e = pz__emit(c, PZ_EV_SWEEP);
    e->side = (int8_t)side;
    memcpy(e->cards, g->table, g->ntable);
    e->ncards = g->ntable;
    win_cards(g, side, g->table, g->ntable);
    g->ntable = 0;
}

/* R7.2: the score for cards. Returns true when it ends the game. */
static bool score_cards(ctx *c)
{
    pz_game *g = c->g;
    int best = 0, second = -1, ties = 0;
    for (int s = 1; s < g->sides; s++)
        if (g->pile[s] > g->pile[best])
            best = s;
    for (int s = 0; s < g->sides; s++) {
        if (s == best)
            continue;
        if (g->pile[s] == g->pile[best])
            ties++;
        if (second < 0 || g->pile[s] > second)
            second = g->pile[s];
    }
    if (g->opt.card_score == PZ_CARD_SCORE_EXCESS26)
        return pz__add_score(c, best, -1, PZ_REASON_CARDS, g->pile[best] - 26);
    if (ties > 0)
        return false;
    return pz__add_score(c, best, -1, PZ_REASON_CARDS, g->pile[best] - second);
}

/*
 * The end of a deal (R2.5): the pending porrazo stands, the final sweep at
 * the last deal (R7.1), R3 scores, then the cards (R7.2) and the end of
 * the hand, or the next deal (R2.6). The R3.6 claim window opens.
 */
static void end_deal(ctx *c)
{
    pz_game *g = c->g;
    bool last = g->deal == g->deals;
    g->turn = -1;
    g->has_last = 0; /* R6.5: porrazos never cross deals */
    if (g->pend_kind != PZ_PENDING_NONE && settle_pending(c))
        return;
    if (last)
        final_sweep(c);
    if (!g->r3_off && pz__score_holdings(c))
        return;
    memcpy(g->prev, g->hold, sizeof g->prev);
    memcpy(g->played_prev, g->played, sizeof g->played_prev);
    memset(g->played, 0, sizeof g->played);
    g->claim_open = g->opt.declarations == PZ_DECL_MANUAL && !g->r3_off;
    if (!last) {
        deal_cards(c);
        return;
    }
    if (score_cards(c))
        return;
    pz_event *e = pz__emit(c, PZ_EV_HAND_END);
    e->nvalues = g->sides;
    for (int s = 0; s < g->sides; s++)
        e->values[s] = g->pile[s];
    g->phase = PZ_PHASE_HAND_OVER;
}

/* ------------------------------------------------------------------------ */
/* Plays                                                                    */

typedef enum play_kind {
    PLAY_LAY,
    PLAY_PLACE,
    PLAY_CAPTURE,
    PLAY_COUNTER,
    PLAY_SAN_BENITO
} play_kind;

/* Bits of pz__play_modes(): which modes a card accepts. */
#define MODES_OF(m) (1u << (m))

/*
 * The modes a card of rank r accepts now (R5.5, R6.2): a bit per pz_mode
 * (ANY, CAPTURE, PLACE), and what the play then does in *kind.
 */
static unsigned play_modes(const pz_game *g, int r, play_kind *kind_any, play_kind *kind_choice)
{
    if (g->pend_kind != PZ_PENDING_NONE && r == g->pend_rank) {
        *kind_any = g->pend_kind == PZ_PENDING_PORRAZO ? PLAY_COUNTER : PLAY_SAN_BENITO;
        return MODES_OF(PZ_MODE_ANY) | MODES_OF(PZ_MODE_CAPTURE);
    }
    bool can_capture = find_rank(g, r) >= 0;
    bool can_place = r <= 3 && g->ntable == r;
    *kind_choice = PLAY_PLACE;
    if (can_capture && can_place) {
        *kind_any = PLAY_CAPTURE;
        return MODES_OF(PZ_MODE_CAPTURE) | MODES_OF(PZ_MODE_PLACE);
    }
    if (can_capture) {
        *kind_any = PLAY_CAPTURE;
        return MODES_OF(PZ_MODE_ANY) | MODES_OF(PZ_MODE_CAPTURE);
    }
    if (can_place) {
        *kind_any = PLAY_PLACE;
        return MODES_OF(PZ_MODE_ANY) | MODES_OF(PZ_MODE_PLACE);
    }
    *kind_any = PLAY_LAY;
    return MODES_OF(PZ_MODE_ANY);
}

/* Which modes of pz_mode a card of seat's accepts now; see game.h. */
unsigned pz__play_modes(const pz_game *g, pz_card card)
{
    play_kind k1, k2;
    return play_modes(g, pz_card_rank(card), &k1, &k2);
}

/* Explains why a card refuses mode (mode not in the accepted bits). */
static int refuse_mode(const pz_game *g, pz_card card, pz_mode mode, unsigned modes, char *why,
                       size_t why_len)
{
    char name[3];
    int r = pz_card_rank(card);
    pz_card_format(card, name);
    if (mode == PZ_MODE_ANY) {
        pz__why(why, why_len, "%s can capture or be played in place for %d: say which", name,
                r + 1);
        return PZ_ECHOICE_REQUIRED;
    }
    if (mode == PZ_MODE_CAPTURE) {
        pz__why(why, why_len, "%s captures nothing: no card of its rank is on the table", name);
        return PZ_EINVALID_ACTION;
    }
    if (g->pend_kind != PZ_PENDING_NONE && r == g->pend_rank)
        pz__why(why, why_len, "%s answers the pending porrazo: it cannot be played in place", name);
    else if (modes & MODES_OF(PZ_MODE_CAPTURE))
        pz__why(why, why_len, "%s must capture: it would not be in place", name);
    else
        pz__why(why, why_len, "%s would not be in place: that needs %s", name,
                r <= 3 ? "a different number of cards on the table" : "an A, 2, 3 or 4");
    return PZ_ECANNOT_PLACE;
}

/*
 * Decides what a play does (R5.5, R6.2, R6.3) without changing anything.
 * Returns 0 and *kind, or the error with its message.
 */
static int plan_play(const pz_game *g, const pz_action *a, int *hand_index, play_kind *kind,
                     char *why, size_t why_len)
{
    if (g->phase != PZ_PHASE_PLAY) {
        pz__why(why, why_len, "cards are played in the play phase, not during %s",
                pz_phase_name((pz_phase)g->phase));
        return PZ_EWRONG_PHASE;
    }
    if (a->seat != g->turn) {
        pz__why(why, why_len, "it is seat %d's turn, not seat %d's", g->turn, a->seat);
        return PZ_ENOT_YOUR_TURN;
    }
    if (a->card >= PZ_CARDS ||
        (*hand_index = find_card(g->hand[a->seat], g->nhand[a->seat], a->card)) < 0) {
        char name[3];
        pz_card_format(a->card, name);
        pz__why(why, why_len, "%s is not in seat %d's hand", name, a->seat);
        return PZ_ECARD_NOT_IN_HAND;
    }
    if ((unsigned)a->mode > PZ_MODE_PLACE) {
        pz__why(why, why_len, "a play's mode is capture or place");
        return PZ_EINVALID_ACTION;
    }
    play_kind kind_any, kind_choice;
    unsigned modes = play_modes(g, pz_card_rank(a->card), &kind_any, &kind_choice);
    if (!(modes & MODES_OF(a->mode)))
        return refuse_mode(g, a->card, a->mode, modes, why, why_len);
    *kind = a->mode == PZ_MODE_PLACE ? kind_choice : kind_any;
    return 0;
}

/* True when no hand holds a card and this is the hand's last deal. */
static bool is_last_card_of_hand(const pz_game *g)
{
    if (g->deal != g->deals)
        return false;
    for (int s = 0; s < g->players; s++)
        if (g->nhand[s] > 0)
            return false;
    return true;
}

/* R5.2, R6.1: captures with card (already out of the hand); `first` is the
   table index of the matched card. */
static void do_capture(ctx *c, int seat, pz_card card, int first)
{
    pz_game *g = c->g;
    int side = pz__side(g, seat);
    bool porrazo =
        g->has_last && !g->last_captured && pz_card_rank(g->last_card) == pz_card_rank(card);
    pz_card taken[PZ_RANKS];
    int ntaken = 0;

    if (porrazo)
        first = find_card(g->table, g->ntable, g->last_card);
    taken[ntaken++] = g->table[first];
    remove_at(g->table, &g->ntable, first);
    for (int r = next_rank(g, pz_card_rank(card)); r >= 0 && r != pz_card_rank(card);
         r = next_rank(g, r)) {
        int i = find_rank(g, r);
        if (i < 0)
            break;
        taken[ntaken++] = g->table[i];
        remove_at(g->table, &g->ntable, i);
    }
    g->last_capturer = (int8_t)seat;
    bool limpia = g->ntable == 0 && !is_last_card_of_hand(g);
    int last_rank = pz_card_rank(taken[ntaken - 1]);

    pz_event *e = pz__emit(c, PZ_EV_PLAY);
    e->seat = (int8_t)seat, e->card = card, e->mode = PZ_MODE_CAPTURE;
    e = pz__emit(c, PZ_EV_CAPTURE);
    e->seat = (int8_t)seat;
    e->pending = porrazo;
    memcpy(e->cards, taken, (size_t)ntaken);
    e->ncards = (uint8_t)ntaken;

    if (porrazo) {
        g->pend_kind = PZ_PENDING_PORRAZO;
        g->pend_seat = (int8_t)seat;
        g->pend_rank = (uint8_t)pz_card_rank(card);
        g->pend_limpia = limpia;
        g->pend_last_rank = (uint8_t)last_rank;
        g->pend_cards[0] = card;
        memcpy(&g->pend_cards[1], taken, (size_t)ntaken);
        g->pend_n = (uint8_t)(ntaken + 1);
        return;
    }
    win_cards(g, side, &card, 1);
    win_cards(g, side, taken, ntaken);
    if (limpia)
        pz__add_score(c, side, seat, PZ_REASON_LIMPIA, pz_ronda_value(last_rank));
}

/* R6.2: a counter porrazo takes over the pending porrazo's cards. */
static void do_counter(ctx *c, int seat, pz_card card)
{
    pz_game *g = c->g;
    pz_event *e = pz__emit(c, PZ_EV_PLAY);
    e->seat = (int8_t)seat, e->card = card, e->mode = PZ_MODE_CAPTURE;
    e = pz__emit(c, PZ_EV_CAPTURE);
    e->seat = (int8_t)seat;
    e->pending = true;
    memcpy(e->cards, g->pend_cards, g->pend_n);
    e->ncards = g->pend_n;
    g->pend_kind = PZ_PENDING_COUNTER;
    g->pend_seat = (int8_t)seat;
    g->pend_cards[g->pend_n++] = card;
    /* The counter's own limpia (R6.2) follows R5.6: not on the hand's last card. */
    if (is_last_card_of_hand(g))
        g->pend_limpia = 0;
    g->last_capturer = (int8_t)seat;
}

/* R6.3: the fourth card after a counter porrazo wins the game. */
static void do_san_benito(ctx *c, int seat, pz_card card)
{
    pz_game *g = c->g;
    int side = pz__side(g, seat);
    pz_event *e = pz__emit(c, PZ_EV_PLAY);
    e->seat = (int8_t)seat, e->card = card, e->mode = PZ_MODE_CAPTURE;
    e = pz__emit(c, PZ_EV_SAN_BENITO);
    e->seat = (int8_t)seat;
    e->side = (int8_t)side;
    win_cards(g, side, g->pend_cards, g->pend_n);
    win_cards(g, side, &card, 1);
    g->pend_kind = PZ_PENDING_NONE;
    g->pend_n = 0;
    g->pend_limpia = 0;
    end_game(c, side, PZ_END_SAN_BENITO);
}

/* A card laid without capture, in place (R5.4) or not (R5.3). */
static void do_lay(ctx *c, int seat, pz_card card, bool in_place)
{
    pz_game *g = c->g;
    g->table[g->ntable++] = card;
    pz_event *e = pz__emit(c, PZ_EV_PLAY);
    e->seat = (int8_t)seat, e->card = card, e->mode = in_place ? PZ_MODE_PLACE : PZ_MODE_LAY;
    if (in_place)
        pz__add_score(c, pz__side(g, seat), seat, PZ_REASON_IN_PLACE, pz_card_rank(card) + 1);
}

/* Applies a play (R5, R6): settles a pending porrazo first (R6.4). */
static int apply_play(ctx *c, const pz_action *a, char *why, size_t why_len)
{
    pz_game *g = c->g;
    int idx;
    play_kind kind;
    int err = plan_play(g, a, &idx, &kind, why, why_len);
    if (err != 0)
        return err;
    if (kind != PLAY_COUNTER && kind != PLAY_SAN_BENITO && g->pend_kind != PZ_PENDING_NONE &&
        settle_pending(c))
        return 0; /* R8.1: the game ended; the card stays in the hand */

    int seat = a->seat;
    remove_at(g->hand[seat], &g->nhand[seat], idx);
    g->played[seat] |= UINT64_C(1) << a->card;
    g->first_play_done = 1;
    g->claim_open = 0;
    bool captured = kind != PLAY_LAY && kind != PLAY_PLACE;
    switch (kind) {
    case PLAY_COUNTER:
        do_counter(c, seat, a->card);
        break;
    case PLAY_SAN_BENITO:
        do_san_benito(c, seat, a->card);
        return 0;
    case PLAY_CAPTURE:
        do_capture(c, seat, a->card, find_rank(g, pz_card_rank(a->card)));
        break;
    default:
        do_lay(c, seat, a->card, kind == PLAY_PLACE);
        break;
    }
    g->has_last = 1;
    g->last_seat = (int8_t)seat;
    g->last_card = a->card;
    g->last_captured = captured;
    if (g->phase == PZ_PHASE_GAME_OVER)
        return 0;
    int next = next_player(g, seat);
    if (next < 0)
        end_deal(c);
    else
        g->turn = (int8_t)next;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The tendido                                                              */

/* ------------------------------------------------------------------------ */
/* Declarations and claims                                                  */

/* ------------------------------------------------------------------------ */
/* Creating games and applying actions                                      */

/* True when pack holds 52 distinct cards. */
static bool is_pack(const pz_card *pack)
{
    uint64_t seen = 0;
    for (int i = 0; i < PZ_CARDS; i++) {
        if (pack[i] >= PZ_CARDS || (seen >> pack[i] & 1))
            return false;
        seen |= UINT64_C(1) << pack[i];
    }
    return true;
}

/* R2.1: the deal passes left and a new hand is dealt. */
static int apply_next_hand(ctx *c, const pz_action *a, char *why, size_t why_len)
{
    pz_game *g = c->g;
    pz_card pack[PZ_CARDS];
    if (g->phase != PZ_PHASE_HAND_OVER) {
        pz__why(why, why_len, "the next hand is dealt once this hand is over");
        return PZ_EWRONG_PHASE;
    }
    if (a->pack != NULL && !is_pack(a->pack)) {
        pz__why(why, why_len, "a pack is 52 distinct cards");
        return PZ_EINVALID_ACTION;
    }
    g->dealer = (uint8_t)((g->dealer + 1) % g->players);
    if (a->pack != NULL)
        memcpy(pack, a->pack, PZ_CARDS);
    else
        pz__rng_shuffle(&g->rng, pack);
    start_hand(c, pack);
    return 0;
}

int pz__deals_for(int players)
{
    return 48 / (3 * players);
}
int pz__leftover_for(int players)
{
    return 48 - 3 * players * pz__deals_for(players);
}

/* Checks what pz_new and pz_new_position share: players, options, dealer,
   starting scores. */
int pz__check_setup(const pz_setup *s, bool random_dealer_ok, char *why, size_t why_len)
{
    int err = pz_options_check(&s->options, s->players, why, why_len);
    if (err != 0)
        return err;
    if (s->dealer < (random_dealer_ok ? -1 : 0) || s->dealer >= s->players) {
        pz__why(why, why_len, "the dealer must be a seat from 0 to %d", s->players - 1);
        return PZ_EBAD_SETUP;
    }
    int sides = s->options.partnerships ? s->players / 2 : s->players;
    for (int i = 0; s->has_scores && i < sides; i++)
        if (s->scores[i] < 0 || s->scores[i] >= s->options.target) {
            pz__why(why, why_len, "starting scores must be from 0 to below the target (%d)",
                    s->options.target);
            return PZ_EBAD_SETUP;
        }
    return 0;
}

/* Allocates a game with the fixed fields of s; dealer resolved later. */
pz_game *pz__alloc(const pz_setup *s)
{
    pz_game *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->opt = s->options;
    g->players = (uint8_t)s->players;
    g->sides = (uint8_t)(s->options.partnerships ? s->players / 2 : s->players);
    g->deals = (uint8_t)pz__deals_for(s->players);
    g->leftover = (uint8_t)pz__leftover_for(s->players);
    g->winner = -1;
    g->turn = -1;
    g->last_capturer = -1;
    for (int i = 0; s->has_scores && i < g->sides; i++)
        g->score[i] = (int16_t)s->scores[i];
    pz__rng_seed(&g->rng, s->seed);
    return g;
}

void pz_setup_default(pz_setup *s)
{
    memset(s, 0, sizeof *s);
    s->players = 2;
    pz_options_default(&s->options);
}

/* Creates a game and deals its first hand. */
int pz_new(pz_game **out, const pz_setup *s, pz_events *ev, char *why, size_t why_len)
{
    int err = pz__check_setup(s, true, why, why_len);
    if (err != 0)
        return err;
    if (s->pack != NULL && !is_pack(s->pack)) {
        pz__why(why, why_len, "a pack is 52 distinct cards");
        return PZ_EBAD_SETUP;
    }
    pz_game *g = pz__alloc(s);
    if (g == NULL) {
        pz__why(why, why_len, "out of memory");
        return PZ_ENO_MEMORY;
    }
    g->dealer =
        (uint8_t)(s->dealer >= 0 ? s->dealer : (int)pz__rng_below(&g->rng, (uint32_t)s->players));
    pz_card pack[PZ_CARDS];
    if (s->pack != NULL)
        memcpy(pack, s->pack, PZ_CARDS);
    else
        pz__rng_shuffle(&g->rng, pack);
    ctx c = {.g = g, .ev = ev};
    if (ev != NULL && ev->n > PZ_EVENTS_MAX - PZ_EVENTS_PER_ACTION)
        ev = c.ev = NULL; /* no room: the game is dealt all the same */
    start_hand(&c, pack);
    *out = g;
    return 0;
}

void pz_free(pz_game *g)
{
    free(g);
}

pz_game *pz_clone(const pz_game *g)
{
    pz_game *copy = malloc(sizeof *copy);
    if (copy != NULL)
        memcpy(copy, g, sizeof *copy);
    return copy;
}

size_t pz_game_size(void)
{
    return sizeof(pz_game);
}

/* Applies one action; see porrazo.h. */
int pz_apply(pz_game *g, const pz_action *a, pz_events *ev, char *why, size_t why_len)
{
    if (ev != NULL && ev->n > PZ_EVENTS_MAX - PZ_EVENTS_PER_ACTION) {
        pz__why(why, why_len, "the event buffer is full: reset it between actions");
        return PZ_ENO_SPACE;
    }
    if (g->phase == PZ_PHASE_GAME_OVER) {
        pz__why(why, why_len, "the game is over: side %d won", g->winner);
        return PZ_EGAME_OVER;
    }
    if (a->kind != PZ_ACT_NEXT_HAND && (a->seat < 0 || a->seat >= g->players)) {
        pz__why(why, why_len, "there is no seat %d in this game", a->seat);
        return PZ_EINVALID_ACTION;
    }
    ctx c = {.g = g, .ev = ev};
    switch (a->kind) {
    case PZ_ACT_PLAY:
        return apply_play(&c, a, why, why_len);
    case PZ_ACT_TENDIDO:
        return pz__apply_tendido(&c, a, why, why_len);
    case PZ_ACT_ARRANGE:
        return pz__apply_arrange(&c, a, why, why_len);
    case PZ_ACT_DECLARE:
        return pz__apply_declare(&c, a, why, why_len);
    case PZ_ACT_CLAIM:
        return pz__apply_claim(&c, a, why, why_len);
    case PZ_ACT_NEXT_HAND:
        return apply_next_hand(&c, a, why, why_len);
    default:
        pz__why(why, why_len, "unknown action");
        return PZ_EINVALID_ACTION;
    }
}
