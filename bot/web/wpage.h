/*
 * wpage.h — the pages' HTML: the frame every page shares (one stylesheet,
 * one external script, no inline code: the Content-Security-Policy allows
 * nothing else), text with its cards marked up (red suits red, each card
 * named for screen readers: aria-label "seven of hearts"), and the pages
 * themselves: a game (wpage_game.c), a room and a player (wpage_room.c).
 * Prefix wp_. Not here: the server, reading the store.
 */
#ifndef PZ_WPAGE_H
#define PZ_WPAGE_H

#ifndef PZ_INSIDE_WEB
#error "wpage.h is the web layer's inside: others include web.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "porrazo.h"
#include "store.h"
#include "wbuf.h"
#include "wgame.h"

/* <!doctype html> ... <main>: title escaped, its names isolated (marked:
   wb_mark); live: the URL of the version
   the script polls ("" or NULL: the page is not live). */
void wp_head(wbuf *b, const char *title, const char *live);
void wp_foot(wbuf *b);
/* Appends plain text (the chat's words) escaped, its cards marked up, its
   names (marked: wb_mark) in <bdi> and never read as cards, a score
   board's bar hidden from screen readers (its number says it). */
void wp_text(wbuf *b, const char *plain);
/* One card, marked up. */
void wp_card(wbuf *b, pz_card c);
/* The spoken name of c ("seven of hearts") into buf. */
void wp_card_name(pz_card c, char *buf, size_t cap);

/* What a game's status is called on its pages ("under way"). */
const char *wp_status_word(store_status s);
/* The day t (unix seconds, UTC) as "28 Nov 2026", in the thread's language. */
void wp_date(int64_t t, char *buf, size_t cap);

/* ---- wpage_game.c ---- */
/* The game's page at path ("/g/ID-TOKEN"); room_path: the room's page or NULL. */
void wp_game(wbuf *b, const wgame *w, const char *path, const char *room_path);
/* The game's public JSON while under way (players, options, scores deal by
   deal, the table now, the seat to act or -1, the scores, the current
   hand's record). */
void wp_game_json_live(wbuf *b, const wgame *w);

/* ---- wpage_fair.c ---- */
/* The game's fair deals: each hand's seal while it is under way; once it
   has ended the commitments, seeds and salt with the server's check of
   each hand. Nothing for a game from before fair deals. */
void wp_fairness(wbuf *b, const wgame *w);
/* The same for the JSON of a game under way: ",\n  \"fairness\": {...}"
   with the seals only. */
void wp_fairness_json_live(wbuf *b, const wgame *w);

/* ---- wpage_room.c ---- */
/* The room's page and JSON: its games and standings. rtok: its token. */
int wp_room(wbuf *b, store *st, const char *network, const char *room, const char *rtok, bool json);
/* A player's page and JSON in a room. */
int wp_player(wbuf *b, store *st, const char *network, const char *room, const char *rtok,
              const char *player, bool json);

#endif /* PZ_WPAGE_H */
