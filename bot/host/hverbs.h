/*
 * hverbs.h — the verbs' handlers (the files of bot/host/cmd), one for each
 * HANDLER of the command table (verbs.def), all of one signature. The
 * host (host.c) runs one only once the checks of its row passed (owner,
 * the room's game, an open table, a seat or the table's management), so a
 * handler checks nothing of those. Prefix hv_.
 */
#ifndef PZ_HVERBS_H
#define PZ_HVERBS_H

#ifndef PZ_INSIDE_HOST
#error "hverbs.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "hctx.h"

/* A verb's handler: the sender's command k, in the call's context c. */
typedef void hv_handler(ctx *c, const cmd *k);

/* cmd/lobby.c */
hv_handler hv_new, hv_join, hv_leave, hv_kick, hv_start, hv_players, hv_options, hv_deadline;
/* cmd/play.c: play, tendido, arrange, declare, claim; hand, table, score,
   turn; pause, resume, stop */
hv_handler hv_move, hv_info, hv_vote;
/* cmd/moves.c */
hv_handler hv_moves;
/* cmd/robots.c, cmd/absent.c */
hv_handler hv_addbot, hv_removebot, hv_back, hv_sub;
/* cmd/prefs.c */
hv_handler hv_tz, hv_quiet, hv_away, hv_reminders, hv_notices, hv_prompts;
/* cmd/games.c, cmd/admin.c, cmd/link.c, cmd/stats.c, cmd/room.c */
hv_handler hv_games, hv_export, hv_fstop, hv_fleave, hv_skip, hv_purge, hv_part;
hv_handler hv_link, hv_stats, hv_top, hv_set, hv_settings;
/* cmd/help.c */
hv_handler hv_help, hv_rules;

#endif /* PZ_HVERBS_H */
