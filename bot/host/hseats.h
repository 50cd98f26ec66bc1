/*
 * hseats.h — seats and acting, owned by the core: taking and leaving a
 * seat and the deal (seats.c), a move applied and announced, a game
 * stopped (act.c), absent people (absent.c), computer players
 * (robots.c) and private prompts (prompts.c). Prefixes host__, host__absent_,
 * host__robot_, host__prompt_.
 */
#ifndef PZ_HSEATS_H
#define PZ_HSEATS_H

#ifndef PZ_INSIDE_HOST
#error "hseats.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "hgame.h"

/* ---- seats.c ---- */
/* Writes the loaded game's seats (the call fails when the store does). */
void host__write_seats(ctx *c);
/* Seats player (nick) at the open table's next seat, says so, and deals
   when the table is full (or counts down to it). */
void host__add(ctx *c, const char *player, const char *nick);
/* Removes seat i from the open table: the next person runs it if its
   creator left; closed when no person is left. */
void host__unseat(ctx *c, int i);
/* Deals the open table's first hand (seats drawn first when asked): the
   game starts. Says why not (fewer than 2, options). */
void host__deal(ctx *c);
/* Says who sits where (and the teams, once dealt) in the game's room. */
void host__say_seats(ctx *c);

/* A person leaves a game under way (remover NULL), or is removed by the
   nick remover: a computer player takes the seat (the sender's own: theirs
   to take back, host__take_back); with no person left the game stops. */
void host__leave_game(ctx *c, int seat, const char *remover);
/* leave in a game under way asks once: true when the sender confirms (a
   second leave within two minutes, kept in the store); else asked. */
bool host__leave_confirmed(ctx *c);
/* join or back in a game under way by a person who left it: they take
   their seat back from the computer player holding it, with their hand
   privately (told why not when a person holds it now). True when the
   line was such a join (answered). */
bool host__take_back(ctx *c);
/* Offers seat to nick, who takes it with join (seat -1: no offer). */
void host__offer(ctx *c, int seat, const char *nick);
/* join in a game under way: the sender takes the seat offered to them.
   True when the line was such a join (answered). */
bool host__take_offer(ctx *c);

/* ---- act.c ---- */
/* Applies an engine action for the loaded game and announces it all;
   `forced` names a player the clock (or an owner's skip) played for.
   Returns the engine error (already explained to the sender) or 0. */
int host__act(ctx *c, const pz_action *a, const char *forced);

/*
 * Announces the events of an action `a` (NULL: the first deal of pz_new)
 * already applied to c->g: public lines, private hands after a deal, the
 * score board after a deal and a hand, statistics, the end of the game,
 * the next hand dealt at once, and the prompt of the seat to act. Saves.
 */
void host__announce(ctx *c, const pz_action *a, const pz_events *ev, const char *forced);
/* Refuses a card seat does not hold (card as named: "9", "7♥"), where
   the command was said; the hand itself only privately. */
void host__refuse_not_held(ctx *c, int seat, const char *card);
/* Records the start of a new turn (deadline and reminders restart). */
void host__new_turn(ctx *c);
/* A rank as players write it ("A", "10", "K"); "?" outside 0..12. */
const char *host__rank_word(int rank);
/* The tendido waiting to be arranged as "4♥ 2♣ and 3♦ 7♠" (its pairs). */
void host__tendido_pairs(const ctx *c, char *buf, size_t cap);
/* Stops the loaded game, the operator's log told by whom (by: "by ann (its
   creator)"). The caller has told the room why, in a whole sentence ("The
   game is abandoned (by vote). Say !new for another."), in its language. */
void host__stop(ctx *c, const char *by);

/* ---- absent.c: absent people, leaving mid-game, substitutes ---- */
/* Whether a computer player plays seat: its own, or for an absent person. */
bool host__absent_computer(ctx *c, int seat);
/* The deadline played seat's turn: one more missed in a row; at
   absent_after a computer player takes over until the person is back. */
void host__absent_missed(ctx *c, int seat);
/* The person at seat acted: no turn missed; back if they were away. */
void host__absent_acted(ctx *c, int seat);
/* The person at seat says they are back: true when a computer player
   played for them (no longer); false when none did (missed turns reset). */
bool host__absent_back(ctx *c, int seat);
/* seat changes hands (a computer player for good, a substitute): no turn
   missed, nobody plays for it as for an absent person. */
void host__absent_forget(ctx *c, int seat);

/* ---- robots.c: computer players at the table ---- */
/* A computer player of level takes the open table's next seat. */
void host__robot_seat(ctx *c, int level);
/* new ... bot [level]: the open table's free seats go to computer players. */
void host__robot_fill(ctx *c, int level);
/* The seat of the computer player to act in the loaded game, or -1. */
int host__robot_to_act(ctx *c);
/* The clock found the loaded game due and a computer player to act at
   seat: its move now (inline, or handed to the worker). */
void host__robot_turn(ctx *c, int seat);
/* FNV-1a of the loaded game's saved state: the same game, the same number
   (a decision's seed; the worker's answer is for this game only if the
   number is the same when it comes). */
uint64_t host__robot_fingerprint(const ctx *c);
/* Applies the worker's decisions (and learn.c's answers) ready now, each in its transaction.
   0, or -1 when the store failed (h->err). */
int host__robot_collect(host *h, int64_t now);
/* A move for a person who cannot make it (an owner's skip, a deadline
   passed): the expert computer player's choice from the seat's view, else
   the engine's default. 0 and *out, or the engine's error. */
int host__robot_choose(const ctx *c, int seat, pz_action *out);
/* A new computer player's id and name at the loaded table ("bot:LEVEL#K",
   "Robot K (LEVEL)", K the smallest number not seated). */
void host__robot_identity(const ctx *c, int level, char *id, size_t id_cap, char *nick,
                          size_t nick_cap);
/* The seat named name (host__game_seat_named), or the computer player "Robot
   name" ("2" for Robot 2), or -1. */
int host__robot_named(const ctx *c, const char *name);
/* The level (pzai_level) of a computer player's id: 0 and *out, or -1. */
int host__robot_level_of(const char *player, int *out);
/* A computer player's statistics row: one per level ("bot:strong"). */
void host__robot_stats_id(const char *player, char *id, size_t id_cap, char *nick, size_t nick_cap);

/* ---- prompts.c: the private lines of the seat to act ---- */
/* Sends seat its hand privately (rendered when sent). */
void host__prompt_hand(ctx *c, int seat);
/* Sends the seat to act its private prompt: what happened since its last
   play, its hand, the table, what to do (rendered when sent). */
void host__prompt_actor(ctx *c);
/* host__prompt_actor with what the room saw, from rec (read by host__announce). */
void host__prompt_with(ctx *c, const recent *rec);
/* The same, as a reminder ("Reminder: Your turn in ..."). */
void host__prompt_remind(ctx *c);
/* host__prompt_actor for a player quiet for prompt_quiet_secs (the others
   follow the room). */
void host__prompt_if_quiet(ctx *c);
/* Whether seat, to act, is sent its turn prompt now: quiet for
   prompt_quiet_secs (by rec), or it said "prompts on". */
bool host__prompt_needed(const ctx *c, const recent *rec, int seat);
/* prompts on|off: the sender's choice (kv scope PROMPTS_SCOPE, key
   "network\x1fplayer"). 0, 1 when the sender's id is too long to keep,
   or the store's error (the call failed). */
#define PROMPTS_SCOPE (cmd_setting_row_of(CMD_SETTING_PROMPTS)->stored)
int host__prompt_choose(ctx *c, bool every);

#endif /* PZ_HSEATS_H */
