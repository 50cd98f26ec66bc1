/*
 * hlearn.h — learning the game from the bot (learn.c): a hint for the
 * asker's decision, the practice table's explanations, the hand's review.
 * Every decision and figure comes from the think worker (think.h) and what
 * the seat may know (its pz_view and the hand's pz_record); the words are
 * bot/render's, from the move tried on a game sampled from that view.
 * Prefix learn_.
 */
#ifndef PZ_HLEARN_H
#define PZ_HLEARN_H

#ifndef PZ_INSIDE_HOST
#error "hlearn.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "hctx.h"
#include "think.h"

#define LEARN_REVIEW_SCOPE "review"     /* review on: key "network\x1fplayer", value "on" */
#define LEARN_ITEMS_SCOPE "review.hand" /* a hand's judged plays: "network\x1fgame\x1fplayer" */
#define LEARN_REVIEW_MAX 3              /* lines of a hand's review, at most */

/* The seed of seat's decisions in the loaded game now (robots.c's: the
   same for a hint as for a computer player in that seat). */
uint64_t learn_seed(const ctx *c, int seat);
/* Hands seat's hint to the worker (answered by learn_deliver), or answers
   at once without one. 0, or -1 when the worker is full (told). */
int learn_hint(ctx *c, int seat);
/* Whether a's mover in the loaded game gets its plays judged (a practice
   table's learner, or review on). */
bool learn_judges(ctx *c, int seat);
/* seat played a from view v and record r (taken before it, with the seed
   learn_seed gave then): judged on the worker against the strong level's
   choice (a play only). */
void learn_judge(ctx *c, int seat, const pz_view *v, const pz_record *r, uint64_t seed,
                 const pz_action *a);
/* A hand ended in the loaded game: the review of each player who asked. */
void learn_hand_end(ctx *c);
/* The loaded game is stopped: its players' judged plays are forgotten. */
void learn_forget(ctx *c);
/* A computer player's move a on a practice table, decided by j: one line
   to the learner of why. */
void learn_explain_move(ctx *c, const think_job *j, const pz_action *a);
/* An answer of the worker that is not a computer player's move, in its
   own transaction. 0, or -1 when the store failed (h->err). */
int learn_deliver(host *h, const think_job *j, int64_t now);
/* Whether the loaded game's room allows hints (set hints off). */
bool learn_hints_allowed(const ctx *c, const char *room);

#endif /* PZ_HLEARN_H */
