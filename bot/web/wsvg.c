/*
 * wsvg.c — the SVG line chart (wsvg.h).
 */
#include <stdio.h>

#include "wsvg.h"

#define W 640
#define H 260
#define LEFT 40
#define RIGHT 12
#define TOP 14
#define BOTTOM 50

/* Colours that read apart, also for the common colour blindnesses. */
static const char *const COLOUR[WSVG_SERIES_MAX] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                                    "#e69f00", "#56b4e9", "#000000", "#f0e442"};

static int px(const wsvg_chart *c, int i)
{
    int span = c->npoints > 1 ? c->npoints - 1 : 1;
    return LEFT + (W - LEFT - RIGHT) * i / span;
}

static int py(int v, int top)
{
    return TOP + (H - TOP - BOTTOM) * (top - v) / (top > 0 ? top : 1);
}

void wsvg_chart_draw(wbuf *b, const wsvg_chart *c)
{
    int top = c->target > 0 ? c->target : 1, bottom = 0;
    for (int s = 0; s < c->series; s++)
        for (int i = 0; i < c->npoints; i++) {
            int v = c->value(c->arg, s, i);
            top = v > top ? v : top;
            bottom = v < bottom ? v : bottom;
        }
    top -= bottom; /* values are drawn from bottom (0 or the lowest) */
    wb_printf(b,
              "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" "
              "xmlns=\"http://www.w3.org/2000/svg\" aria-labelledby=\"chart-title\">"
              "<title id=\"chart-title\">",
              W, H);
    wb_html(b, c->title);
    wb_raw(b, "</title>");
    /* axes */
    wb_printf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", LEFT, TOP, LEFT,
              H - BOTTOM);
    wb_printf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", LEFT,
              py(0 - bottom, top), W - RIGHT, py(0 - bottom, top));
    wb_printf(b, "<text class=\"lbl\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>", LEFT - 4,
              py(0 - bottom, top) + 4, 0);
    if (c->target > 0) {
        int y = py(c->target - bottom, top);
        wb_printf(b,
                  "<line class=\"target\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
                  "<text class=\"lbl\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>",
                  LEFT, y, W - RIGHT, y, LEFT - 4, y + 4, c->target);
    }
    /* group marks: where a new group (hand) starts */
    if (c->group != NULL)
        for (int i = 0; i < c->npoints; i++) {
            int g = c->group(c->arg, i);
            if (i > 0 && g == c->group(c->arg, i - 1))
                continue;
            int x = px(c, i);
            wb_printf(b,
                      "<line class=\"hand\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
                      "<text class=\"lbl\" x=\"%d\" y=\"%d\">",
                      x, TOP, x, H - BOTTOM, x + 2, H - BOTTOM + 14);
            char label[64];
            if (c->group_name != NULL)
                c->group_name(c->arg, g, label, sizeof label);
            else
                snprintf(label, sizeof label, "%d", g);
            wb_html(b, label);
            wb_raw(b, "</text>");
        }
    for (int s = 0; s < c->series; s++) {
        wb_printf(b, "<polyline class=\"line\" stroke=\"%s\" points=\"", COLOUR[s]);
        for (int i = 0; i < c->npoints; i++)
            wb_printf(b, "%s%d,%d", i ? " " : "", px(c, i),
                      py(c->value(c->arg, s, i) - bottom, top));
        wb_raw(b, "\"/>");
        for (int i = 0; i < c->npoints; i++) {
            int v = c->value(c->arg, s, i);
            wb_printf(b, "<circle class=\"pt s%d\" cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"><title>",
                      s, px(c, i), py(v - bottom, top), COLOUR[s]);
            wb_html(b, c->name[s] != NULL ? c->name[s] : "");
            wb_printf(b, ": %d</title></circle>", v);
        }
    }
    /* the legend */
    for (int s = 0; s < c->series; s++) {
        int x = LEFT + s * ((W - LEFT) / (c->series > 0 ? c->series : 1));
        wb_printf(b,
                  "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  "<text class=\"legend\" x=\"%d\" y=\"%d\">",
                  x, H - 20, COLOUR[s], x + 14, H - 11);
        wb_html(b, c->name[s] != NULL ? c->name[s] : "");
        wb_raw(b, "</text>");
    }
    wb_raw(b, "</svg>");
}
