/*
 * render_text.h — private to the pz_render library (render.c,
 * render_events.c, render_moves.c): the bounded text builder every
 * rendered line is written with, and the small pieces the renderers
 * share (cards, nicks, sides).
 *
 * An rtext writes into a caller buffer and never past its cap: a text that
 * does not fit is cut at a UTF-8 boundary and ends with "…", and a card is
 * never written in part. Not a public API: the host uses render.h only.
 */
#ifndef PZ_RENDER_TEXT_H
#define PZ_RENDER_TEXT_H

#ifndef PZ_INSIDE_RENDER
#error "render_text.h is the renderer's inside: other layers include render.h or help.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "render.h"

#if defined(__GNUC__)
#define RENDER_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RENDER_PRINTF(f, a)
#endif

/* A text being written into a caller buffer of cap bytes. */
typedef struct rtext {
    char *s;
    size_t cap;
    size_t len;
    bool cut; /* something did not fit: nothing more is written */
} rtext;

/* Starts an empty text in s[cap]; with cap 0 nothing is ever written. */
void rtext_init(rtext *b, char *s, size_t cap);
/* Appends printf-style text; on overflow b ends cut with "…". */
void rtext_addf(rtext *b, const char *fmt, ...) RENDER_PRINTF(2, 3);
/* Appends sep then piece only if both fit whole, else ends b cut. */
void rtext_whole(rtext *b, const char *sep, const char *piece);
/* Appends cards separated by spaces, whole cards only; "(empty)" for none. */
void rtext_cards(rtext *b, const pz_card *cards, int n);
/* Appends cards sorted by rank then suit (hands, the table). */
void rtext_cards_sorted(rtext *b, const pz_card *cards, int n);
/* Appends the name of side: its seats' nicks joined by " & ". */
void rtext_side(rtext *b, const pz_game *g, const render_names *names, int side);
/* Appends b's text as one line of out (nothing when out is full). */
void rtext_line(render_lines *out, const rtext *b);

/* The nick of seat, or "seat N" (1-based) written into tmp[16]. */
const char *rtext_seat_name(const render_names *names, int seat, char tmp[16]);
/* The word of rank r: "A", "2", ..., "10", "J", "Q", "K" ("?" if none). */
const char *rtext_rank_word(int r);
/* The rank in the plural, in words ("sevens", "kings"), into buf[8]. */
void rtext_rank_plural(int r, char buf[8]);
/* "wins" for a side of one player, "win" for partners (R1.5). */
const char *rtext_wins_word(const pz_game *g);

#endif /* PZ_RENDER_TEXT_H */
