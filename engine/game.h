/*
 * game.h — the engine's internal game state, shared by the engine's modules
 * (rules, legal actions, views, save/restore). Not installed, not used by
 * hosts: they see only porrazo.h.
 *
 * Every card of the pack is in exactly one place: a hand, the table, the
 * stock, the tendido waiting to be arranged, the cards of a pending porrazo,
 * or won (in some side's pile, or out of play in a position). pz__check()
 * verifies that and every other invariant; restore and positions rely on it.
 */
#ifndef PZ_GAME_H
#define PZ_GAME_H

#include "porrazo.h"

/* The generator (see porrazo.h, "Shuffling"). */
typedef struct pz_rng {
    uint64_t s[4];
} pz_rng;

void pz__rng_seed(pz_rng *r, uint64_t seed);
uint64_t pz__rng_next(pz_rng *r);
/* A uniform draw in [0, bound), bound >= 1. */
uint32_t pz__rng_below(pz_rng *r, uint32_t bound);
void pz__rng_shuffle(pz_rng *r, pz_card pack[PZ_CARDS]);

/* A seat's holding in one deal (R3.1). */
typedef struct pz_holding {
    uint8_t kind;     /* pz_holding_kind */
    uint8_t rank;     /* valid when kind != NONE */
    uint8_t declared; /* R3.2: declared (auto: at once; silent: never) */
    uint8_t claimed;  /* R3.6: a claim on it succeeded */
} pz_holding;

struct pz_game {
    /* Fixed for the game. */
    pz_options opt;
    uint8_t players;
    uint8_t sides;
    uint8_t deals;    /* D of R2.3 */
    uint8_t leftover; /* L of R2.3 */

    /* Where the game is. */
    uint8_t phase; /* pz_phase */
    uint8_t dealer;
    uint8_t deal;            /* 1..deals, the current deal of the hand */
    int8_t turn;             /* the seat to play in phase play, else -1 */
    uint8_t tendido_done;    /* this hand */
    uint8_t r3_off;          /* this deal's holdings are unknown (position) */
    int8_t winner;           /* side, -1 while playing */
    int8_t last_capturer;    /* seat, -1: nobody captured this hand (R7.1) */
    uint8_t first_play_done; /* a card was played in this deal (R3.2/R3.6) */
    uint8_t claim_open;      /* R3.6 window on prev[] is open */

    int16_t score[PZ_MAX_SIDES];
    uint8_t pile[PZ_MAX_SIDES]; /* won cards per side this hand */

    /* The previous play of this deal (R6.1). */
    uint8_t has_last;
    int8_t last_seat;
    pz_card last_card;
    uint8_t last_captured;

    /* A pending porrazo or counter porrazo (R6.2–R6.4). */
    uint8_t pend_kind; /* pz_pending_kind */
    int8_t pend_seat;
    uint8_t pend_rank;
    uint8_t pend_limpia;    /* the porrazo left the table empty (R5.6) */
    uint8_t pend_last_rank; /* rank of the last card the porrazo took */
    uint8_t pend_n;
    pz_card pend_cards[16]; /* played + taken cards, in the order taken */

    /* Cards. */
    uint8_t ntable;
    pz_card table[PZ_CARDS]; /* in the order laid */
    uint8_t nstock;
    pz_card stock[PZ_CARDS]; /* top first: stock[0] is dealt next */
    uint8_t ntendido;
    pz_card tendido[4]; /* dealt, waiting for the arrangement */
    uint8_t nhand[PZ_MAX_PLAYERS];
    pz_card hand[PZ_MAX_PLAYERS][PZ_CARDS];
    uint64_t won; /* bit c: card c is won or out of play */

    pz_holding hold[PZ_MAX_PLAYERS]; /* this deal */
    pz_holding prev[PZ_MAX_PLAYERS]; /* the deal before, for claims */

    /* The public record (pz_public_record): bit c of played[s] is set when
       seat s played card c in this deal; played_prev the same for the deal
       before (kept across hands, like prev[], for R3.6 claims). Saved
       games from before these were kept restore with both empty. */
    uint64_t played[PZ_MAX_PLAYERS];
    uint64_t played_prev[PZ_MAX_PLAYERS];

    pz_rng rng;
};

/* R1.5: the side of a seat. */
static inline int pz__side(const struct pz_game *g, int seat)
{
    return g->opt.partnerships ? seat % (g->players / 2) : seat;
}

/*
 * Checks every invariant of a game state (cards each in one place, sizes
 * consistent with phase and deal, seats and sides in range, pending and
 * last play consistent, options valid). Returns 0, or PZ_EBAD_DOCUMENT
 * with a message saying what is inconsistent.
 */
int pz__check(const struct pz_game *g, char *why, size_t why_len);

/* Checks players, options, dealer (-1 allowed when random_dealer_ok) and
   starting scores of a set-up; 0 or the error with its message. */
int pz__check_setup(const pz_setup *s, bool random_dealer_ok, char *why, size_t why_len);

/* A zeroed game with the fixed fields of s (options, players, sides, deals,
   leftover, scores, generator); NULL when out of memory. */
pz_game *pz__alloc(const pz_setup *s);

/* The modes (bit 1 << pz_mode) a card accepts if played now by the player
   to move; the card's presence in the hand is not checked. */
unsigned pz__play_modes(const pz_game *g, pz_card card);

/* Derived constants of R2.3 for n players. */
int pz__deals_for(int players);
int pz__leftover_for(int players);

/* Writes a formatted message into why (may be NULL), truncating safely. */
void pz__why(char *why, size_t why_len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif /* PZ_GAME_H */
