/*
 * rules_int.h — what the engine's rule files share: the context of one
 * pz_apply() call (the game and where its events go) and the steps one
 * file calls in another. rules.c holds dealing, plays, porrazos and the end
 * of deals and hands; tendido.c the tendido (R4); declare.c holdings,
 * declarations, their scoring and claims (R3). Internal: hosts see only
 * porrazo.h.
 */
#ifndef PZ_RULES_INT_H
#define PZ_RULES_INT_H

#include "game.h"

/* The state of one pz_apply() call: the game and where events go. */
typedef struct ctx {
    pz_game *g;
    pz_events *ev;
    pz_event scratch; /* the event written when the caller keeps none */
} ctx;

/* rules.c */

/* Appends an event of kind k with every scalar field cleared. */
pz_event *pz__emit(ctx *c, pz_event_kind k);
/* Scores points (> 0) for side, announcing it; true when that wins (R8.2). */
bool pz__add_score(ctx *c, int side, int seat, pz_reason reason, int points);
/* Takes the top card of the stock. */
pz_card pz__draw(pz_game *g);
/* Enters phase play: holdings, automatic declarations, first player. */
void pz__begin_play(ctx *c);
/* R2.4: the leftover cards of the last deal, to the table or dealt. */
void pz__lay_leftover(ctx *c);

/* tendido.c */

/* R4.1: the dealer deals the four tendido cards face up. */
void pz__deal_tendido(ctx *c);
/* The dealer's "now or later" (R4.1–R4.2) and arrangement (R4.3–R4.4). */
int pz__apply_tendido(ctx *c, const pz_action *a, char *why, size_t why_len);
int pz__apply_arrange(ctx *c, const pz_action *a, char *why, size_t why_len);

/* declare.c */

/* R3.1: the best set among cards dealt in one deal. */
pz_holding pz__holding_of(const pz_card *hand, int n);
/* R3.4 at a deal's end; true when that wins. */
bool pz__score_holdings(ctx *c);
/* R3.2 manual declarations and R3.6 claims. */
int pz__apply_declare(ctx *c, const pz_action *a, char *why, size_t why_len);
int pz__apply_claim(ctx *c, const pz_action *a, char *why, size_t why_len);

#endif /* PZ_RULES_INT_H */
