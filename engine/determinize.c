/*
 * determinize.c — pz_new_determinized(): a complete game rebuilt from what
 * one seat knows (its pz_view and the hand's pz_record) with the hidden
 * cards — the other hands, the stock, the dealer's own unseen hand at the
 * tendido choice — placed as the caller chose. Computer players that
 * search sample those cards, build a game here and play it out.
 *
 * The game is the real one whenever the hidden cards are the real ones:
 * the same phase, table, piles, scores, pending porrazo, holdings (of the
 * given hands and the played cards), declarations, claims and record, so
 * every action plays on the same. Only the generator differs (seeded with
 * the caller's seed), and what no rule reads while unused: the seat and
 * ranks of a porrazo already settled, the last play of a deal over (the
 * engine leaves them as they were; here they are zero). For a game
 * restored from a document older than the record, whose played cards are
 * lost, the other seats' holdings come from their hands alone. Not here:
 * choosing the hidden cards (engine/ai).
 */
#include <string.h>

#include "rules_int.h"

/* The holdings of this deal (R3.1): those of the cards each seat holds and
   played; declared as r says (auto: every one). Zero where the engine has
   none yet (before play begins) or R3 is off. */
static void set_holdings(pz_game *g, const pz_view *v, const pz_record *r)
{
    for (int s = 0; s < g->players; s++) {
        pz_holding *h = &g->hold[s];
        *h = (pz_holding){PZ_HOLD_NONE, 0, 0, 0};
        if (g->phase == PZ_PHASE_HAND_OVER) {
            /* The deal just ended: its holdings are the record's last ones. */
            *h = (pz_holding){r->held_prev[s], r->held_prev_rank[s],
                              r->declared_prev[s] != PZ_HOLD_NONE, 0};
            continue;
        }
        if (g->phase != PZ_PHASE_PLAY || g->r3_off)
            continue;
        if (s == v->seat) {
            *h = (pz_holding){(uint8_t)v->holding,
                              (uint8_t)(v->holding_rank > 0 ? v->holding_rank : 0),
                              v->holding_declared, 0};
            continue;
        }
        uint64_t m = r->played[s];
        pz_card cards[PZ_CARDS];
        int n = 0;
        for (int i = 0; i < g->nhand[s]; i++)
            m |= UINT64_C(1) << g->hand[s][i]; /* cards checked: all below 52 */
        for (int c = 0; c < PZ_CARDS; c++)
            if (m >> c & 1)
                cards[n++] = (pz_card)c;
        *h = pz__holding_of(cards, n);
        if (h->kind != PZ_HOLD_NONE)
            h->declared = g->opt.declarations == PZ_DECL_AUTO ||
                          (g->opt.declarations == PZ_DECL_MANUAL && r->declared[s] != PZ_HOLD_NONE);
    }
}

/* The deal before's holdings (R3.6), the played cards and the record's
   flags. */
static void set_record(pz_game *g, const pz_record *r)
{
    g->won = r->gone;
    g->last_capturer = (int8_t)r->last_capturer;
    g->first_play_done = r->first_play_done != 0;
    g->tendido_done = r->tendido_done;
    g->r3_off = r->holdings_unknown;
    g->claim_open = r->claim_open;
    for (int s = 0; s < g->players; s++) {
        g->prev[s] = (pz_holding){r->held_prev[s], r->held_prev_rank[s],
                                  r->declared_prev[s] != PZ_HOLD_NONE, r->claimed_prev[s]};
        g->played[s] = r->played[s];
        g->played_prev[s] = r->played_prev[s];
    }
}

/* The public state of the view: phase, seats, scores, table, last play,
   pending porrazo, tendido. */
static void set_public(pz_game *g, const pz_view *v, const pz_record *r)
{
    g->phase = (uint8_t)v->phase;
    g->dealer = (uint8_t)v->dealer;
    g->deal = (uint8_t)v->deal;
    g->turn = (int8_t)(v->phase == PZ_PHASE_PLAY ? v->turn : -1);
    for (int s = 0; s < g->sides && s < PZ_MAX_SIDES; s++) {
        g->score[s] = (int16_t)v->scores[s];
        g->pile[s] = (uint8_t)v->piles[s];
    }
    g->ntable = (uint8_t)v->ntable;
    memcpy(g->table, v->table, (size_t)v->ntable);
    g->ntendido = (uint8_t)v->ntendido;
    memcpy(g->tendido, v->tendido, (size_t)v->ntendido);
    g->has_last = v->has_last_play;
    if (v->has_last_play) {
        g->last_seat = (int8_t)v->last_play_seat;
        g->last_card = v->last_play_card;
        g->last_captured = v->last_play_captured;
    }
    g->pend_kind = (uint8_t)v->pending;
    if (v->pending != PZ_PENDING_NONE) {
        g->pend_seat = (int8_t)v->pending_seat;
        g->pend_rank = (uint8_t)v->pending_rank;
        g->pend_limpia = r->pending_limpia;
        g->pend_last_rank = (uint8_t)r->pending_last_rank;
        g->pend_n = (uint8_t)r->npending;
        memcpy(g->pend_cards, r->pending_cards, (size_t)r->npending);
    }
}

/* Checks the ranges of v and r before anything is copied from them. */
static int check_ranges(const pz_view *v, const pz_record *r, char *why, size_t why_len)
{
    const char *what = NULL;
    if (v->players < PZ_MIN_PLAYERS || v->players > PZ_MAX_PLAYERS || v->seat < 0 ||
        v->seat >= v->players || v->dealer < 0 || v->dealer >= v->players)
        what = "the view's seats are out of range";
    else if (v->phase > PZ_PHASE_HAND_OVER)
        what = "the game is over: there is nothing to determinize";
    else if (v->ntable < 0 || v->ntable > PZ_CARDS || v->stock < 0 || v->stock > PZ_CARDS ||
             (v->ntendido != 0 && v->ntendido != 4) || r->npending < 0 || r->npending > 16)
        what = "a card count is out of range";
    else if (v->deal < 1 || v->deal > 8 || r->last_capturer < -1 ||
             r->last_capturer >= v->players ||
             (v->pending != PZ_PENDING_NONE &&
              (v->pending_seat < 0 || v->pending_seat >= v->players || v->pending_rank < 0 ||
               v->pending_rank >= PZ_RANKS || r->pending_last_rank < 0 ||
               r->pending_last_rank >= PZ_RANKS)))
        what = "the view or the record is not consistent";
    for (int s = 0; s < v->players && what == NULL; s++)
        if (v->hand_count[s] < 0 || v->hand_count[s] > PZ_CARDS ||
            (s == v->seat && !v->hand_hidden && v->nhand != v->hand_count[s]))
            what = "a hand count is out of range";
    if (what != NULL) {
        pz__why(why, why_len, "determinized: %s", what);
        return PZ_EBAD_SETUP;
    }
    return 0;
}

/* Places the hidden cards: every hand (the seat's own from the view unless
   hidden) and the stock. */
static void set_cards(pz_game *g, const pz_view *v, const pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS],
                      const pz_card *stock)
{
    for (int s = 0; s < g->players; s++) {
        const pz_card *src = s == v->seat && !v->hand_hidden ? v->hand : hands[s];
        g->nhand[s] = (uint8_t)v->hand_count[s];
        memcpy(g->hand[s], src, (size_t)v->hand_count[s]);
    }
    g->nstock = (uint8_t)v->stock;
    if (v->stock > 0)
        memcpy(g->stock, stock, (size_t)v->stock);
}

/* A game from what one seat knows and the hidden cards given; see porrazo.h. */
int pz_new_determinized(pz_game **out, const pz_view *v, const pz_record *r,
                        const pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], const pz_card *stock,
                        uint64_t seed, char *why, size_t why_len)
{
    int err = check_ranges(v, r, why, why_len);
    if (err != 0)
        return err;
    if (pz_options_check(&v->options, v->players, why, why_len) != 0)
        return PZ_EBAD_SETUP;
    pz_setup s;
    pz_setup_default(&s);
    s.players = v->players;
    s.options = v->options;
    s.seed = seed;
    pz_game *g = pz__alloc(&s);
    if (g == NULL) {
        pz__why(why, why_len, "out of memory");
        return PZ_ENO_MEMORY;
    }
    set_public(g, v, r);
    set_record(g, r);
    set_cards(g, v, hands, stock);
    char detail[PZ_WHY_MAX];
    /* Cards first (holdings are computed from them), then the whole. */
    int bad = pz__check(g, detail, sizeof detail);
    if (bad == 0) {
        set_holdings(g, v, r);
        bad = pz__check(g, detail, sizeof detail);
    }
    if (bad != 0) {
        pz__why(why, why_len, "determinized: %s", detail);
        pz_free(g);
        return PZ_EBAD_SETUP;
    }
    *out = g;
    return 0;
}
