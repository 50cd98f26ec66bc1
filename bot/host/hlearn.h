/*
 * hlearn.h — learning the game from the bot (learn.c): a hint for the
 * asker's decision, the practice table's explanations, the hand's review.
 * Every decision and figure comes from the think worker (think.h) and what
 * the seat may know (its pz_view and the hand's pz_record); the words are
 * bot/render's, from the move tried on a game sampled from that view.
 * Prefix host__learn_.
 */
#ifndef PZ_HLEARN_H
#define PZ_HLEARN_H

#ifndef PZ_INSIDE_HOST
#error "hlearn.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "hctx.h"
#include "hlisten.h"
#include "think.h"

/* review on: key "network\x1fplayer", value "on" (settings.def's review) */
#define LEARN_REVIEW_SCOPE (cmd_setting_row_of(CMD_SETTING_REVIEW)->stored)
#define LEARN_ITEMS_SCOPE "review.hand" /* a hand's judged plays: "network\x1fgame\x1fplayer" */
#define LEARN_REVIEW_MAX 3              /* lines of a hand's review, at most */

/* What learning hears of the games' moves (hlisten.h; host_new makes it
   listen): a person's play judged by the strong level from what they knew
   before it (a practice table's learner, or review on), a hand's review
   for those who asked at its end, the judged plays forgotten at a stop. */
extern const hs_listener host__learn_listener;
/* Hands seat's hint to the worker (answered by host__learn_deliver), or answers
   at once without one. 0, or -1 when the worker is full (told). */
int host__learn_hint(ctx *c, int seat);
/* A computer player's move a on a practice table, decided by j: one line
   to the learner of why. */
void host__learn_explain_move(ctx *c, const think_job *j, const pz_action *a);
/* An answer of the worker that is not a computer player's move, in its
   own transaction. 0, or -1 when the store failed (h->err). */
int host__learn_deliver(host *h, const think_job *j, int64_t now);
/* Whether the loaded game's room allows hints (set hints off). */
bool host__learn_hints_allowed(const ctx *c, const char *room);

#endif /* PZ_HLEARN_H */
