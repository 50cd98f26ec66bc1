/*
 * wgame.h — a game as its page shows it: read from the read-only store and
 * replayed with the engine from its seed and logged actions, into the
 * room's lines deal by deal (render_events: the chat's words), the scores
 * at the end of every deal, the boards at every hand's end and the game as
 * it is now. Prefix wg_. Not here: HTML (wpage_game.c), the server.
 *
 * What is public: the record holds only what the room was told, and the
 * table now comes from the engine's public state (never pz_get_hand nor a
 * seat's view of its hand). A game under way shows the cards of its
 * current hand only: an earlier hand's cards were shuffled back and may be
 * in someone's hand now.
 */
#ifndef PZ_WGAME_H
#define PZ_WGAME_H

#ifndef PZ_INSIDE_WEB
#error "wgame.h is the web layer's inside: others include web.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>

#include "commit.h"
#include "porrazo.h"
#include "render.h"
#include "store.h"
#include "wbuf.h"

/* A line of the record: an event segment of deal (hand, deal), or a line of
   the board at the end of hand. */
typedef struct wg_line {
    int hand, deal;
    bool board;
    char text[RENDER_LINE_MAX];
} wg_line;

/* The scores at the end of a deal (the last one of a game under way: now). */
typedef struct wg_point {
    int hand, deal;
    int score[PZ_MAX_SIDES];
} wg_point;

/* A hand's fair deal (FAIRNESS.md). Its seed is a secret until the game
   ends: only wpage_game.c's revealed part may show it. */
typedef struct wg_hand {
    uint64_t seed;
    char commit[PZF_COMMIT_HEX + 1]; /* as sealed; computed from the seed if not kept */
    bool checked;                    /* the commitment was kept: the check means something */
    bool verified; /* SHA-256 of seed and salt is the kept commitment (and hand 1's
                      seed is the game's first) */
} wg_hand;

typedef struct wgame {
    store_game row;
    int nseats;
    store_seat seat[PZ_MAX_PLAYERS];
    char mark[PZ_MAX_PLAYERS][STORE_ID_MAX + 3]; /* each nick marked (wb_mark) */
    pz_options opt;
    int dealer;
    pz_game *g; /* the game after its last action */
    int sides;
    char side_name[PZ_MAX_SIDES][2 * STORE_ID_MAX + 16]; /* its nicks marked */
    int nlines, nlines_cap;
    wg_line *line;
    int npoints, npoints_cap;
    wg_point *point;
    int hand; /* the hand now (1-based) */
    int actions;
    bool ended;     /* finished or stopped: everything may be shown */
    int end_reason; /* a pz_end_reason once the game is over, else -1 */
    bool fair;      /* dealt fairly: salt and hands below (else from before fair deals) */
    char salt[STORE_SALT_HEX + 1];
    int nhands, nhands_cap;
    wg_hand *fair_hand; /* fair_hand[k]: hand k + 1's */
} wgame;

/* Loads and replays game id (past its lobby) from st. 0, or -1 (no such
   game, never started, or its log does not replay). */
int wg_load(store *st, int64_t id, wgame *out);
void wg_free(wgame *w);

/* The names of the seats for render.h, marked (wb_mark): the lines, the
   status and the sides' names carry them so that each page can isolate
   every name (wb_marked, wp_text). */
render_names wg_names(const wgame *w);

/* Whether line l may be shown now (all of an ended game; of a game under
   way, the current hand's lines and every board). */
bool wg_shown(const wgame *w, const wg_line *l);

/* Parses one action of the log (REPLAY.md's JSON) into *a: 0 or -1. */
int wg_parse_action(const char *json, pz_action *a);

#endif /* PZ_WGAME_H */
