/*
 * hverbs.h — the verbs' handlers (the files of bot/host/cmd), one for each
 * HANDLER of the command table (verbs.def), all of one signature. The
 * host (host.c) runs one only once the checks of its row passed (owner,
 * the room's game, an open table, a seat or the table's management), so a
 * handler checks nothing of those. Prefix host__verb_.
 */
#ifndef PZ_HVERBS_H
#define PZ_HVERBS_H

#ifndef PZ_INSIDE_HOST
#error "hverbs.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "hctx.h"

/* A verb's handler: the sender's command k, in the call's context c. */
typedef void hv_handler(ctx *c, const cmd *k);

/* Each row's handler, declared from the table itself (a handler that
   serves several rows, as host__verb_move does, is declared once per row, which C
   allows), so that adding a verb is its row and its function, nothing
   else. They live in bot/host/cmd/: lobby.c, play.c, moves.c, robots.c,
   absent.c, prefs.c, games.c, admin.c, link.c, stats.c, room.c, help.c. */
#define X(id, name, shown, more, flags, section, list, usage, what, example, refuse, handler)      \
    hv_handler handler;
#include "verbs.def"
#undef X

#endif /* PZ_HVERBS_H */
