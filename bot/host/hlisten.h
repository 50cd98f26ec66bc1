/*
 * hlisten.h — who listens to a game's moves (act.c tells them): learning
 * (learn.c) today, so that act.c names none of them. Prefix host__ (act.c's).
 */
#ifndef PZ_HLISTEN_H
#define PZ_HLISTEN_H

#ifndef PZ_INSIDE_HOST
#error "hlisten.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>

#include "hctx.h"

/*
 * What a game's moves tell whoever listens (learning: learn.c), so that
 * act.c names none of them. host__act calls each listener's before() with the
 * move about to be applied in the loaded game (forced: as for host__act);
 * what it returns, unless NULL, goes back to its after() once the move was
 * applied or refused (applied), which owns it then. hand_end: a hand (or
 * the game) ended in the loaded game; stopped: the game was stopped
 * (host__stop). Any hook may be NULL, after only when before is.
 */
struct hs_listener {
    void *(*before)(ctx *c, const pz_action *a, const char *forced);
    void (*after)(ctx *c, const pz_action *a, void *taken, bool applied);
    void (*hand_end)(ctx *c);
    void (*stopped)(ctx *c);
};
/* Adds l (static: never freed) to h's listeners. 0, or -1 when
   HS_LISTENERS_MAX listen already (a programmer's error). */
int host__listen(host *h, const hs_listener *l);

#endif /* PZ_HLISTEN_H */
