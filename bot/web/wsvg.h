/*
 * wsvg.h — a line chart drawn by the server as SVG (no script): one
 * polyline per series with a dot per point, a y axis at round values, a
 * dashed target line, vertical marks where a group starts (a game's
 * hands) numbered below, a title for screen readers, and the legend after
 * it as an HTML list (it wraps on a phone; names isolated). The series'
 * colours are the stylesheet's (classes s0..s7, light and dark). The scores of a
 * game deal by deal, a player's record game by game. Prefix wsvg_.
 */
#ifndef PZ_WSVG_H
#define PZ_WSVG_H

#ifndef PZ_INSIDE_WEB
#error "wsvg.h is the web layer's inside: others include web.h (ARCHITECTURE.md)"
#endif

#include "wbuf.h"

#define WSVG_SERIES_MAX 8

typedef struct wsvg_chart {
    const char *title;                     /* <title>, escaped (marked: wb_mark) */
    int series;                            /* 1..WSVG_SERIES_MAX */
    const char *name[WSVG_SERIES_MAX];     /* legend, escaped (marked: wb_mark) */
    int npoints;                           /* points per series */
    int (*value)(void *arg, int s, int i); /* series s's value at point i */
    int (*group)(void *arg, int i);        /* point i's group (a hand); NULL none */
    const char *group_word;                /* before the groups' numbers ("hand"); NULL none */
    void *arg;
    int target; /* a dashed line at this value; 0: none */
} wsvg_chart;

/* Appends c as an <svg> element (its own viewBox: it scales on a phone)
   and its legend (<ul class="legend">). Each dot is a
   <circle class="pt s<series>"> with a <title>. */
void wsvg_chart_draw(wbuf *b, const wsvg_chart *c);

#endif /* PZ_WSVG_H */
