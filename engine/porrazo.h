/*
 * porrazo.h — the public API of libporrazo, the Porrazo rules engine.
 *
 * The engine implements every rule of shared/spec/RULES.md (rule IDs in the
 * comments below, e.g. R6.2) and nothing else: it does no I/O, reads no clock,
 * keeps no global state and never calls rand(). Randomness comes from a seed
 * given by the caller and a generator the engine owns (see "Shuffling").
 *
 * A game is an opaque pz_game, created by pz_new() or pz_new_position() and
 * released by pz_free(). Everything that happens is an action (pz_action)
 * applied by pz_apply(), which either succeeds and appends structured events
 * (pz_event) to a caller-owned buffer, or fails with a negative error code
 * from PZ_ERRNO_MAP and a human message, leaving the game exactly as it was.
 *
 * Hosts show players what they may see through pz_view_seat(), which by
 * construction holds no other player's cards. The referee accessors
 * (pz_hand(), pz_legal_actions(), ...) see everything and are for the host's
 * own use, never to be echoed to players as they are.
 *
 * Where RULES.md leaves a detail open, the engine decides as follows:
 * - R5.2 with duplicates: of each rank the card laid earliest is taken,
 *   except the porrazo's match, which is the previous play's card (R6.1).
 *   The table keeps the order cards were laid; the tendido joins it in its
 *   arranged row, left to right; leftover cards in the order dealt.
 * - R2.4 odd_leftover=deal: one card each from the dealer's left, round
 *   and round until none is left (6 players: two each).
 * - R5.6/R6.2: a counter porrazo that is the hand's last card scores no
 *   limpia, as no capture by the last card does.
 * - R5.5 input: a play names mode capture or place only where the rules
 *   allow it; "capture" with no match is invalid_action, "place" where the
 *   card is not in place is cannot_place.
 * - Declaring in auto or silent mode, or claiming outside manual mode, is
 *   invalid_action; declaring outside the play phase is wrong_phase; a claim
 *   with no window open is bad_claim.
 * - A position's first deal has unknown holdings: no R3 score, no claims.
 * - R3.4 in silent mode: every holding counts as declared, partners' too.
 * - R4.4 at the last deal: with tendido=choice the leftover is laid after
 *   the arrangement, so it forms no sets; with tendido=last it lies first.
 * - R6.2 read literally: if everyone else is out of cards, the porrazo's
 *   own player is "the next player" and may counter it.
 * - Scores: tendido points go to the dealer's seat; a missed declaration to
 *   the claimer's seat; the card score has no seat.
 * - When a score wins, the game_end event is the last one: no hand_end.
 */
#ifndef PORRAZO_H
#define PORRAZO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Limits                                                                   */

#define PZ_MIN_PLAYERS 2
#define PZ_MAX_PLAYERS 8
#define PZ_MAX_SIDES 8
#define PZ_CARDS 52
#define PZ_TARGET_MAX 10000     /* the highest target a game accepts */
#define PZ_EVENTS_MAX 64        /* events a pz_events buffer holds */
#define PZ_EVENTS_PER_ACTION 32 /* events one action can produce, at most */
#define PZ_LEGAL_MAX 256        /* legal actions of all seats, at most */
#define PZ_SAVE_MAX 4096        /* bytes a saved game takes, at most, NUL included */
#define PZ_PACK_MAX 1024        /* bytes a packed saved game takes, at most, NUL included */
#define PZ_WHY_MAX 160          /* a buffer this size holds any error message */

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

/*
 * One table for every error the engine returns: the enum name, the stable
 * code string (REPLAY.md's error codes come first), and a generic message.
 * Functions return 0 (PZ_OK) on success or a negative PZ_E* value.
 */
#define PZ_ERRNO_MAP(XX)                                                                           \
    XX(NOT_YOUR_TURN, -1, "not_your_turn", "it is not your turn")                                  \
    XX(CARD_NOT_IN_HAND, -2, "card_not_in_hand", "that card is not in the hand")                   \
    XX(CHOICE_REQUIRED, -3, "choice_required",                                                     \
       "this card can capture or be played in place: say which")                                   \
    XX(CANNOT_PLACE, -4, "cannot_place", "this card cannot be played in place")                    \
    XX(WRONG_PHASE, -5, "wrong_phase", "that cannot be done at this point")                        \
    XX(NOT_DEALER, -6, "not_dealer", "only the dealer can do that")                                \
    XX(BAD_ARRANGEMENT, -7, "bad_arrangement", "that is not an arrangement of the tendido")        \
    XX(NOTHING_TO_DECLARE, -8, "nothing_to_declare", "there is nothing to declare")                \
    XX(DECLARATION_CLOSED, -9, "declaration_closed", "declarations are closed for this deal")      \
    XX(BAD_CLAIM, -10, "bad_claim", "that claim is refused")                                       \
    XX(GAME_OVER, -11, "game_over", "the game is over")                                            \
    XX(INVALID_ACTION, -12, "invalid_action", "that action is not valid")                          \
    XX(BAD_OPTIONS, -13, "bad_options", "the options are not valid")                               \
    XX(BAD_SETUP, -14, "bad_setup", "the game set-up is not valid")                                \
    XX(BAD_DOCUMENT, -15, "bad_document", "the saved game is not valid")                           \
    XX(NO_SPACE, -16, "no_space", "the buffer is too small")                                       \
    XX(NO_MEMORY, -17, "no_memory", "out of memory")

typedef enum pz_errno {
    PZ_OK = 0,
#define PZ_ERR_ENUM_(name, val, code, msg) PZ_E##name = (val),
    PZ_ERRNO_MAP(PZ_ERR_ENUM_)
#undef PZ_ERR_ENUM_
} pz_errno;

/* The stable code string of err ("not_your_turn"), "ok" for 0, "unknown". */
const char *pz_err_name(int err);
/* A generic human message for err. Never NULL. */
const char *pz_strerror(int err);

/* ------------------------------------------------------------------------ */
/* Cards (R1.1)                                                             */

/*
 * A card is rank * 4 + suit: rank 0 = A, 1 = 2, ..., 9 = 10, 10 = J, 11 = Q,
 * 12 = K (R1.2 order); suit 0 = C, 1 = D, 2 = H, 3 = S. PZ_NO_CARD is none.
 */
typedef uint8_t pz_card;
#define PZ_NO_CARD ((pz_card)0xFF)
#define PZ_RANKS 13
#define PZ_SUITS 4

static inline int pz_card_rank(pz_card c)
{
    return c >> 2;
}
static inline int pz_card_suit(pz_card c)
{
    return c & 3;
}
static inline pz_card pz_card_make(int rank, int suit)
{
    return (pz_card)(rank * 4 + suit);
}

/*
 * Parses a card: rank A 2..9 T/10 J Q K then suit C D H S, case-insensitive,
 * exactly len bytes. Returns 0 and sets *out, or PZ_EINVALID_ACTION.
 */
int pz_card_parse(const char *s, size_t len, pz_card *out);
/* Writes the canonical form ("TH", "7S", "AC") and a NUL into buf[3]. */
void pz_card_format(pz_card c, char buf[3]);
/* The rank letter of rank r ('A', '2', ..., 'T', 'J', 'Q', 'K'). */
char pz_rank_char(int rank);

/* R1.6 values of a rank: ronda (K 4, Q 3, J 2, else 1), rondine, four. */
int pz_ronda_value(int rank);
int pz_rondine_value(int rank);
int pz_four_value(int rank);

/* ------------------------------------------------------------------------ */
/* Options (R9)                                                             */

typedef enum pz_declarations {
    PZ_DECL_AUTO,   /* announced automatically, without rank (default) */
    PZ_DECL_MANUAL, /* declared by command, window R3.2; claims R3.6 */
    PZ_DECL_SILENT  /* revealed and scored at the end of the deal */
} pz_declarations;

typedef enum pz_tendido_mode {
    PZ_TENDIDO_CHOICE, /* the dealer chooses the deal (default) */
    PZ_TENDIDO_LAST    /* always the last four cards (USPCC) */
} pz_tendido_mode;

typedef enum pz_leftover_mode {
    PZ_LEFTOVER_TABLE, /* R2.4 face up on the table (default) */
    PZ_LEFTOVER_DEAL   /* dealt one each from the dealer's left */
} pz_leftover_mode;

typedef enum pz_sweep_mode {
    PZ_SWEEP_LAST_CAPTURER, /* R7.1 default */
    PZ_SWEEP_DEALER
} pz_sweep_mode;

typedef enum pz_card_score_mode {
    PZ_CARD_SCORE_DIFFERENCE, /* R7.2 default */
    PZ_CARD_SCORE_EXCESS26    /* two sides only */
} pz_card_score_mode;

typedef struct pz_options {
    int target;                    /* R8.2, default 61, 1..PZ_TARGET_MAX */
    bool wrap;                     /* R1.3, default true */
    pz_declarations declarations;  /* R3.2 */
    pz_tendido_mode tendido;       /* R4.1 */
    pz_leftover_mode odd_leftover; /* R2.4 */
    pz_sweep_mode final_sweep;     /* R7.1 */
    pz_card_score_mode card_score; /* R7.2 */
    bool partnerships;             /* R1.5 */
} pz_options;

/* Fills *o with the defaults of R9. */
void pz_options_default(pz_options *o);

/*
 * Sets one option by its R9 name and value words ("target", "61";
 * "declarations", "manual"; "wrap", "false"). Returns 0, or
 * PZ_EBAD_OPTIONS with a message naming the option and the values it
 * takes; *o is untouched on error. why may be NULL.
 */
int pz_options_set(pz_options *o, const char *name, const char *value, char *why, size_t why_len);

/*
 * Checks that the options suit a game of `players` players (R9: excess26
 * needs two sides, partnerships an even count of at least 4, ...).
 * Returns 0 or PZ_EBAD_OPTIONS with a clear message.
 */
int pz_options_check(const pz_options *o, int players, char *why, size_t why_len);

/*
 * Writes the options as R9 words ("target=61 wrap=true ...") into buf.
 * Returns the length, or PZ_ENO_SPACE if cap is too small (128 is
 * always enough).
 */
int pz_options_format(const pz_options *o, char *buf, size_t cap);

/* The value word of each option, for rendering: */
const char *pz_declarations_name(pz_declarations d);
const char *pz_tendido_name(pz_tendido_mode t);
const char *pz_leftover_name(pz_leftover_mode l);
const char *pz_sweep_name(pz_sweep_mode s);
const char *pz_card_score_name(pz_card_score_mode c);

/* ------------------------------------------------------------------------ */
/* Game state words                                                         */

typedef enum pz_phase {
    PZ_PHASE_TENDIDO_CHOICE, /* the dealer says now or later (R4.1) */
    PZ_PHASE_ARRANGE,        /* the dealer arranges the tendido (R4.3) */
    PZ_PHASE_PLAY,           /* players play cards in turn (R5) */
    PZ_PHASE_HAND_OVER,      /* the hand ended; next_hand deals a new one */
    PZ_PHASE_GAME_OVER       /* a side won; every action is refused */
} pz_phase;

typedef enum pz_mode {
    PZ_MODE_ANY,     /* input: let the rules decide (refused if R5.5 gives a choice) */
    PZ_MODE_CAPTURE, /* input and event */
    PZ_MODE_PLACE,   /* input and event: played in place without capture */
    PZ_MODE_LAY      /* event only: no capture, not in place */
} pz_mode;

typedef enum pz_direction { PZ_LTR, PZ_RTL } pz_direction;

typedef enum pz_holding_kind {
    PZ_HOLD_NONE,
    PZ_HOLD_RONDA,   /* a pair */
    PZ_HOLD_RONDINE, /* three of a rank */
    PZ_HOLD_FOUR     /* four of a rank (odd_leftover=deal only) */
} pz_holding_kind;

typedef enum pz_pending_kind {
    PZ_PENDING_NONE,
    PZ_PENDING_PORRAZO,
    PZ_PENDING_COUNTER
} pz_pending_kind;

typedef enum pz_reason {
    PZ_REASON_PORRAZO,
    PZ_REASON_COUNTER_PORRAZO,
    PZ_REASON_LIMPIA,
    PZ_REASON_IN_PLACE,
    PZ_REASON_TENDIDO_PLACE,
    PZ_REASON_TENDIDO_SETS,
    PZ_REASON_RONDA,
    PZ_REASON_RONDINE,
    PZ_REASON_FOUR,
    PZ_REASON_MISSED_DECLARATION,
    PZ_REASON_CARDS
} pz_reason;

typedef enum pz_end_reason { PZ_END_TARGET, PZ_END_SAN_BENITO } pz_end_reason;

/* Words as REPLAY.md spells them ("tendido_choice", "capture", "ltr", ...). */
const char *pz_phase_name(pz_phase p);
const char *pz_mode_name(pz_mode m);
const char *pz_direction_name(pz_direction d);
const char *pz_holding_name(pz_holding_kind k);
const char *pz_pending_name(pz_pending_kind k);
const char *pz_reason_name(pz_reason r);
const char *pz_end_reason_name(pz_end_reason r);

/* ------------------------------------------------------------------------ */
/* Events                                                                   */

typedef enum pz_event_kind {
    PZ_EV_DEAL,       /* dealer, deal, cards+card_seat: every hand dealt */
    PZ_EV_TENDIDO,    /* seat (dealer), cards: the 4 as dealt */
    PZ_EV_ARRANGED,   /* seat, cards: the row, direction, points (place) */
    PZ_EV_LEFTOVER,   /* cards; card_seat[i] the seat, or -1 on the table */
    PZ_EV_DECLARE,    /* seat, holding (rank not shown) */
    PZ_EV_PLAY,       /* seat, card, mode (capture, place, lay) */
    PZ_EV_CAPTURE,    /* seat, cards taken (played card not included), pending */
    PZ_EV_SCORE,      /* side, seat (-1 none), reason, points, total */
    PZ_EV_SWEEP,      /* side, cards */
    PZ_EV_SAN_BENITO, /* seat, side */
    PZ_EV_HAND_END,   /* values: won cards per side */
    PZ_EV_GAME_END    /* side (the winner), end_reason, values: scores */
} pz_event_kind;

typedef struct pz_event {
    pz_event_kind kind;
    int8_t seat; /* -1 when the event has none */
    int8_t side; /* -1 when the event has none */
    int8_t dealer;
    int8_t deal;       /* DEAL: the 1-based deal number in the hand */
    pz_card card;      /* PLAY */
    uint8_t mode;      /* PLAY: pz_mode */
    uint8_t reason;    /* SCORE: pz_reason; GAME_END: pz_end_reason */
    uint8_t holding;   /* DECLARE: pz_holding_kind */
    uint8_t direction; /* ARRANGED: pz_direction */
    bool pending;      /* CAPTURE: a porrazo or counter porrazo, not yet settled */
    int16_t points;
    int16_t total;
    uint8_t ncards;
    uint8_t nvalues;
    pz_card cards[PZ_CARDS];
    int8_t card_seat[PZ_CARDS];   /* DEAL, LEFTOVER */
    int16_t values[PZ_MAX_SIDES]; /* HAND_END, GAME_END */
} pz_event;

/* A caller-owned event buffer; pz_apply() appends at ev[n]. */
typedef struct pz_events {
    int n;
    pz_event ev[PZ_EVENTS_MAX];
} pz_events;

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

typedef enum pz_action_kind {
    PZ_ACT_PLAY,     /* seat plays card, mode ANY/CAPTURE/PLACE (R5, R6) */
    PZ_ACT_TENDIDO,  /* dealer: now (true) or later (R4.1) */
    PZ_ACT_ARRANGE,  /* dealer: row + direction, or best (R4.3, R4.6) */
    PZ_ACT_DECLARE,  /* seat declares its holding (manual, R3.2) */
    PZ_ACT_CLAIM,    /* seat claims `claimed`'s missed declaration (R3.6) */
    PZ_ACT_NEXT_HAND /* after hand_over: deal passes left (R2.1); seat -1;
                        with no pack, the game's generator shuffles */
} pz_action_kind;

typedef struct pz_action {
    pz_action_kind kind;
    int seat;
    pz_card card;           /* PLAY */
    pz_mode mode;           /* PLAY */
    bool now;               /* TENDIDO */
    bool best;              /* ARRANGE: choose the best row */
    pz_card row[4];         /* ARRANGE, left to right, when !best */
    pz_direction direction; /* ARRANGE, when !best */
    int claimed;            /* CLAIM: the seat said to have missed */
    const pz_card *pack;    /* NEXT_HAND: NULL to shuffle, else 52 cards */
} pz_action;

static inline pz_action pz_act_play(int seat, pz_card card, pz_mode mode)
{
    pz_action a = {0};
    a.kind = PZ_ACT_PLAY;
    a.seat = seat;
    a.card = card;
    a.mode = mode;
    return a;
}
static inline pz_action pz_act_tendido(int seat, bool now)
{
    pz_action a = {0};
    a.kind = PZ_ACT_TENDIDO;
    a.seat = seat;
    a.now = now;
    return a;
}
static inline pz_action pz_act_arrange_best(int seat)
{
    pz_action a = {0};
    a.kind = PZ_ACT_ARRANGE;
    a.seat = seat;
    a.best = true;
    return a;
}
static inline pz_action pz_act_arrange(int seat, const pz_card row[4], pz_direction dir)
{
    pz_action a = {0};
    a.kind = PZ_ACT_ARRANGE;
    a.seat = seat;
    a.direction = dir;
    for (int i = 0; i < 4; i++)
        a.row[i] = row[i];
    return a;
}
static inline pz_action pz_act_declare(int seat)
{
    pz_action a = {0};
    a.kind = PZ_ACT_DECLARE;
    a.seat = seat;
    return a;
}
static inline pz_action pz_act_claim(int seat, int claimed)
{
    pz_action a = {0};
    a.kind = PZ_ACT_CLAIM;
    a.seat = seat;
    a.claimed = claimed;
    return a;
}
static inline pz_action pz_act_next_hand(const pz_card *pack)
{
    pz_action a = {0};
    a.kind = PZ_ACT_NEXT_HAND;
    a.seat = -1;
    a.pack = pack;
    return a;
}

/* ------------------------------------------------------------------------ */
/* Creating and freeing games                                               */

typedef struct pz_game pz_game;

typedef struct pz_setup {
    int players;              /* 2..8 (R1.4) */
    pz_options options;       /* checked with pz_options_check() */
    int dealer;               /* 0..players-1, or -1: drawn by the generator (R2.1) */
    bool has_scores;          /* false: every side starts at 0 */
    int scores[PZ_MAX_SIDES]; /* starting totals per side, each below target */
    uint64_t seed;            /* the generator's seed (see Shuffling) */
    const pz_card *pack;      /* NULL: shuffle from seed; else 52 distinct cards,
                                 top first, for the first hand */
} pz_setup;

/* Fills *s with 2 players, default options, dealer 0, seed 0, no pack. */
void pz_setup_default(pz_setup *s);

/*
 * Creates a game and deals its first hand (R2.2), appending the events of
 * the first deal to *ev (ev may be NULL; with fewer than
 * PZ_EVENTS_PER_ACTION free slots nothing is appended). Returns 0 and sets *out (the
 * caller frees it with pz_free()), or PZ_EBAD_OPTIONS, PZ_EBAD_SETUP
 * or PZ_ENO_MEMORY with a message in why (may be NULL).
 */
int pz_new(pz_game **out, const pz_setup *s, pz_events *ev, char *why, size_t why_len);

/* A game already under way (REPLAY.md "position"), for rule tests. */
typedef struct pz_position {
    int ntable;
    pz_card table[PZ_CARDS]; /* in the order the cards were laid */
    int nhand[PZ_MAX_PLAYERS];
    pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS];
    int nstock;
    pz_card stock[PZ_CARDS]; /* top first */
    int turn;                /* the seat to play */
    int deal;                /* 1..D (R2.3) */
    bool tendido_done;
    bool has_last_play; /* false: no play yet this deal */
    int last_play_seat;
    pz_card last_play_card;
    bool last_play_captured;
    int piles[PZ_MAX_SIDES]; /* won cards per side this hand */
    int last_capturer;       /* a seat, or -1 */
} pz_position;

/* Fills *p with an empty position: deal 1, no cards, last_capturer -1. */
void pz_position_default(pz_position *p);

/*
 * Creates a game in phase play at the position *p, with the players,
 * options, dealer (must be a seat), scores and seed of *s (s->pack must be
 * NULL). Validates everything REPLAY.md lists (distinct cards, stock size,
 * turn holding cards, last play on the table, ...). R3 does not score for
 * the deal the position starts in. Returns 0, or PZ_EBAD_SETUP /
 * PZ_EBAD_OPTIONS with a message.
 */
int pz_new_position(pz_game **out, const pz_setup *s, const pz_position *p, char *why,
                    size_t why_len);

/* Releases a game; NULL is allowed. */
void pz_free(pz_game *g);

/* A new, independent copy of g, or NULL when out of memory. */
pz_game *pz_clone(const pz_game *g);

/* sizeof the game object: everything a game holds lives in it. */
size_t pz_game_size(void);

/* ------------------------------------------------------------------------ */
/* Playing                                                                  */

/*
 * Applies one action. On success returns 0 and appends its events to *ev
 * (NULL: events are not recorded; the game advances the same). On failure
 * returns a negative PZ_E code (NOT_YOUR_TURN ... INVALID_ACTION), writes a
 * specific human message to why (NULL allowed), appends no event and
 * leaves the game byte-for-byte as it was. PZ_ENO_SPACE if ev has fewer
 * than PZ_EVENTS_MAX free slots: reset ev->n between actions.
 */
int pz_apply(pz_game *g, const pz_action *a, pz_events *ev, char *why, size_t why_len);

/*
 * Lists the actions the game accepts now, from `seat` (0..n-1), or from
 * everyone when seat is -1 (then next_hand too). Writes at most cap actions
 * to out and returns how many there are (PZ_LEGAL_MAX at most).
 *
 * The list is exact: pz_apply() accepts each one and refuses every other
 * action. A play appears with every mode it accepts (ANY plus the mode the
 * rules impose; CAPTURE and PLACE without ANY when R5.5 gives a choice).
 * Arrangements appear as best and as each of the 16 explicit rows. It is
 * the referee's list: it includes claims that would succeed (R3.6), so a
 * host must never show it to players as it is.
 */
int pz_legal_actions(const pz_game *g, int seat, pz_action *out, int cap);

/*
 * The host's choice for a seat whose time ran out: in play, the legal play
 * that scores most for the seat's side at once (points of its events, plus
 * the porrazo or counter porrazo it leaves pending), ties and no points
 * alike going to the lowest card (by rank, then suit), capture before
 * place; at the tendido choice "now"; arranging, the best row. Writes
 * *out and returns 0, or PZ_EWRONG_PHASE when the seat has nothing to
 * do now (not its turn, hand over, game over).
 */
int pz_default_action(const pz_game *g, int seat, pz_action *out);

/*
 * The tendido points (R4.3) of a row read in direction dir: each A, 2, 3
 * or 4 whose position equals its value scores that value.
 */
int pz_tendido_place_points(const pz_card row[4], pz_direction dir);

/*
 * In phase arrange: writes the best row and direction for the tendido on
 * the table (R4.6; first best in the order: first pair on the left before
 * second, each pair as dealt before reversed, ltr before rtl) and returns
 * its points; PZ_EWRONG_PHASE in any other phase.
 */
int pz_best_arrangement(const pz_game *g, pz_card row[4], pz_direction *dir);

/* ------------------------------------------------------------------------ */
/* Reading the state (referee accessors: they see everything)              */

pz_phase pz_get_phase(const pz_game *g);
int pz_get_players(const pz_game *g);
int pz_get_sides(const pz_game *g);
int pz_side_of(const pz_game *g, int seat); /* R1.5 */
const pz_options *pz_get_options(const pz_game *g);
int pz_get_dealer(const pz_game *g);
int pz_get_deal(const pz_game *g);           /* 1-based deal in the hand */
int pz_get_deals_per_hand(const pz_game *g); /* D of R2.3 */
/* The seat expected to act: the dealer in tendido_choice and arrange, the
   player to move in play, -1 in hand_over and game_over. */
int pz_get_turn(const pz_game *g);
int pz_get_score(const pz_game *g, int side);
int pz_get_pile(const pz_game *g, int side); /* won cards this hand */
int pz_get_stock(const pz_game *g);          /* undealt cards */
int pz_get_table(const pz_game *g, pz_card out[PZ_CARDS]);
int pz_get_hand(const pz_game *g, int seat, pz_card out[PZ_CARDS]);
/* The four tendido cards as dealt while waiting to be arranged: in phase
   arrange, or in game_over when a score ended the game first; else 0. */
int pz_get_tendido(const pz_game *g, pz_card out[4]);
/* The pending porrazo or counter porrazo (R6.2): kind, and *seat. */
pz_pending_kind pz_get_pending(const pz_game *g, int *seat);
/* The cards a pending porrazo holds (its played card first, then what it
   took; a counter porrazo's card last): 0 when none is pending. */
int pz_get_pending_cards(const pz_game *g, pz_card out[16]);
/* The winning side once the game is over, else -1. */
int pz_get_winner(const pz_game *g);

/* ------------------------------------------------------------------------ */
/* What one seat may see                                                    */

typedef struct pz_view {
    int seat, side, players, sides, dealer, deal, deals_per_hand, turn;
    pz_phase phase;
    pz_options options;
    int scores[PZ_MAX_SIDES];
    int piles[PZ_MAX_SIDES];
    int ntable;
    pz_card table[PZ_CARDS];
    int nhand; /* own hand; 0 cards while hand_hidden */
    pz_card hand[PZ_CARDS];
    bool hand_hidden;               /* the dealer before the tendido choice (R4.2) */
    int hand_count[PZ_MAX_PLAYERS]; /* cards each seat holds */
    int stock;
    int ntendido; /* face-up tendido waiting to be arranged */
    pz_card tendido[4];
    pz_pending_kind pending;
    int pending_seat;
    int pending_rank;
    bool has_last_play;
    int last_play_seat;
    pz_card last_play_card;
    bool last_play_captured;
    pz_holding_kind holding; /* own holding this deal (R3.1), with rank */
    int holding_rank;
    bool holding_declared;
    bool may_declare; /* manual mode, window open, not yet declared */
    int winner;       /* -1 until the game is over */
} pz_view;

/*
 * Fills *v with what `seat` may know: public state, its own hand and own
 * holding, and counts of the other hands; never another player's card.
 * Returns 0 or PZ_EINVALID_ACTION for a seat out of range.
 */
int pz_view_seat(const pz_game *g, int seat, pz_view *v);

/* ------------------------------------------------------------------------ */
/* The public record of the hand (what any attentive player knows)          */

/*
 * Everything the table has seen this hand beyond the present state of
 * pz_view: for computer players, which must know no more than a person
 * paying attention. Card sets are bit masks (bit c for card c).
 */
typedef struct pz_record {
    uint64_t gone;         /* cards won or otherwise out of play this hand */
    uint64_t shown;        /* every card seen face up this hand (played, laid, tendido) */
    int last_capturer;     /* the seat that captured last this hand, or -1 (R7.1) */
    int first_play_done;   /* a card has been played in this deal */
    bool tendido_done;     /* the tendido was dealt this hand (R4.1) */
    bool holdings_unknown; /* a position's first deal: no R3 this deal */
    /* Per seat: the cards it played in this deal and in the deal before
       (empty for a game restored from a document older than this record). */
    uint64_t played[PZ_MAX_PLAYERS];
    uint64_t played_prev[PZ_MAX_PLAYERS];
    /* Per seat: the holding it declared this deal and the deal before
       (PZ_HOLD_NONE if none or not declared, and always in silent mode;
       ranks are never announced), and whether the R3.6 claim window on
       the deal before is open. */
    uint8_t declared[PZ_MAX_PLAYERS];
    uint8_t declared_prev[PZ_MAX_PLAYERS];
    bool claim_open;
    /* Per seat: its holding in the deal before (kind and rank), as the cards
       it played in that deal showed it, and whether a claim on it succeeded
       (R3.6); PZ_HOLD_NONE for a position's first deal. */
    uint8_t held_prev[PZ_MAX_PLAYERS];
    uint8_t held_prev_rank[PZ_MAX_PLAYERS];
    bool claimed_prev[PZ_MAX_PLAYERS];
    /* The pending porrazo's cards (played + taken), public as they lie,
       whether it left the table empty (R5.6) and the rank of the last card
       it took (its limpia's value). */
    int npending;
    pz_card pending_cards[16];
    bool pending_limpia;
    int pending_last_rank;
} pz_record;

/*
 * Fills *r with the public record of g's current hand: only what every
 * seat saw. gone, shown, played and the pending cards name no card that is
 * in a hand, the stock or an unseen tendido; played_prev, in the first deal
 * of a hand, names cards of the hand before (reshuffled since). Returns 0.
 */
int pz_public_record(const pz_game *g, pz_record *r);

/*
 * A complete game consistent with what one seat knows: the public state of
 * v and r, with the hidden cards placed as the caller chose: hands[s] for
 * every seat s other than v->seat (v->hand_count[s] cards each; the
 * dealer's hidden hand too while hand_hidden) and stock (v->stock cards,
 * top first; NULL allowed when the stock is empty). The seat's own hand
 * comes from v unless hidden; entries of seats holding no card are not
 * read. Holdings are those of the given hands with the cards r says each
 * seat played this deal; declarations, claims and the pending porrazo
 * those of r; the generator is seeded with seed. With the true hidden
 * cards the game is the real one (every action plays on the same; the
 * generator and fields no rule reads while unused, such as a settled
 * porrazo's seat, may differ). For searching: the caller samples the
 * hidden cards, plays the sampled game out and throws it away (pz_free).
 * Returns 0 and *out, PZ_EBAD_SETUP with a message (why may be NULL) when
 * the cards do not fit (a count that does not add up, a card known to be
 * elsewhere, a duplicate) or the game is over, PZ_ENO_MEMORY.
 */
int pz_new_determinized(pz_game **out, const pz_view *v, const pz_record *r,
                        const pz_card hands[PZ_MAX_PLAYERS][PZ_CARDS], const pz_card *stock,
                        uint64_t seed, char *why, size_t why_len);

/* ------------------------------------------------------------------------ */
/* Saving and restoring                                                     */

/*
 * Writes the whole game as one versioned JSON document ({"porrazo":1,...})
 * and a NUL into buf. Returns its length (without the NUL), or
 * PZ_ENO_SPACE if cap is below what it needs (PZ_SAVE_MAX is always
 * enough). The same game always gives the same bytes.
 */
int pz_save(const pz_game *g, char *buf, size_t cap);

/*
 * Writes the whole game, the same state pz_save() writes, in the packed
 * form: a short string of printable ASCII (digits, letters, '-' and '_'
 * after a first '~' and the version, "~1..."; no space, quote or
 * backslash), a fifth of the JSON or less, and a NUL into buf. It is meant
 * for storing games (a database's TEXT column), not for reading:
 * pz_restore() reads it back. Returns its length (without the NUL), or
 * PZ_ENO_SPACE (buf untouched) if cap is below what it needs (PZ_PACK_MAX
 * is always enough). The same game always gives the same bytes.
 */
int pz_pack(const pz_game *g, char *buf, size_t cap);

/*
 * Rebuilds a game from a document written by pz_save() (whitespace, field
 * order and \u escapes may differ; pz_save() writes it back canonically)
 * or by pz_pack() (exactly as written); the first byte tells which.
 * out must not be NULL. Checks the syntax,
 * the version, every field and the consistency of the whole (the 52 cards
 * each in one place, counts matching the phase and deal, ...), the same
 * for both forms. Returns 0 and sets *out, or PZ_EBAD_DOCUMENT with a
 * message saying what is wrong (starting "packed saved game: " for the
 * packed form); never crashes on any input of any length.
 */
int pz_restore(pz_game **out, const char *doc, size_t len, char *why, size_t why_len);

/* ------------------------------------------------------------------------ */
/* Shuffling                                                                */

/*
 * The engine's generator is xoshiro256** (Blackman and Vigna, 2018) whose
 * 256-bit state is filled by four successive outputs of SplitMix64 started
 * at the seed. A number below bound is drawn by Lemire's multiply-shift
 * with rejection (unbiased). A pack is shuffled by Fisher–Yates: start from
 * the cards in index order (AC AD AH AS 2C ... KS), then for i = 51 down to
 * 1 swap position i with a draw below i + 1. When the first dealer is
 * drawn (dealer -1) it is one draw below the player count, taken before the
 * first shuffle. Every later hand is shuffled from where the generator is,
 * unless NEXT_HAND brings its pack: the bot gives every hand the pack
 * pz_shuffle() makes of a seed of its own (FAIRNESS.md).
 *
 * pz_shuffle() writes the pack a fresh generator seeded with seed deals
 * first (top first), for checks and tools.
 */
void pz_shuffle(uint64_t seed, pz_card out[PZ_CARDS]);

#ifdef __cplusplus
}
#endif

#endif /* PORRAZO_H */
