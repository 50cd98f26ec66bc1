/*
 * wsvg.c — the SVG line chart (wsvg.h).
 */
#include <stdio.h>

#include "wsvg.h"

#define W 640
#define H 236
#define LEFT 66
#define RIGHT 16
#define TOP 14
#define BOTTOM 30

static int px(const wsvg_chart *c, int i)
{
    int span = c->npoints > 1 ? c->npoints - 1 : 1;
    return LEFT + (W - LEFT - RIGHT) * i / span;
}

/* The height of value v (drawn from bottom) when the chart spans range. */
static int py(int v, int range)
{
    return TOP + (H - TOP - BOTTOM) * (range - v) / (range > 0 ? range : 1);
}

/* A round step (1, 2, 5, 10, 20, 50, ...) that cuts range into 5 parts at most. */
static int tick_step(int range)
{
    static const int MANTISSA[3] = {1, 2, 5};
    for (int scale = 1; scale < 1000000000 / 10; scale *= 10)
        for (int k = 0; k < 3; k++)
            if (MANTISSA[k] * scale * 5 >= range)
                return MANTISSA[k] * scale;
    return range > 0 ? range : 1;
}

/* The y axis: a labelled line at each round value, the target dashed. */
static void y_axis(wbuf *b, const wsvg_chart *c, int bottom, int range)
{
    int step = tick_step(range);
    int first = bottom >= 0 ? 0 : -((-bottom) / step) * step;
    for (int v = first; v <= bottom + range; v += step) {
        if (c->target > 0 && v != c->target &&
            2 * (v > c->target ? v - c->target : c->target - v) < step)
            continue; /* the target's own label is there */
        int y = py(v - bottom, range);
        wb_printf(b,
                  "<line class=\"%s\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>",
                  v == 0 ? "axis" : "grid", LEFT, y, W - RIGHT, y, LEFT - 6, y + 6, v);
    }
    if (c->target > 0) {
        int y = py(c->target - bottom, range);
        wb_printf(b,
                  "<line class=\"target\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>",
                  LEFT, y, W - RIGHT, y, LEFT - 6, y + 6, c->target);
    }
    wb_printf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", LEFT, TOP, LEFT,
              H - BOTTOM);
}

/* The groups (hands): a mark where each starts, its number in the middle
   of its stretch when there is room for it, the groups' word first. */
static void x_groups(wbuf *b, const wsvg_chart *c)
{
    int y = H - BOTTOM + 24, last_label = -1000;
    if (c->group_word != NULL) {
        wb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 6, y);
        wb_html(b, c->group_word);
        wb_raw(b, "</text>");
    }
    for (int i = 0; i < c->npoints; i++) {
        int g = c->group(c->arg, i);
        if (i > 0 && g == c->group(c->arg, i - 1))
            continue;
        int end = i + 1;
        while (end < c->npoints && c->group(c->arg, end) == g)
            end++;
        int x0 = px(c, i), x1 = end < c->npoints ? px(c, end) : W - RIGHT;
        int mid = (x0 + x1) / 2;
        wb_printf(b, "<line class=\"hand\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", x0, TOP, x0,
                  H - BOTTOM);
        if (mid - last_label < 34)
            continue; /* too close to the last number: read from the marks */
        if (mid > W - 12)
            mid = W - 12;
        wb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>", mid, y, g);
        last_label = mid;
    }
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
    int range = top - bottom; /* values are drawn from bottom (0 or the lowest) */
    wb_printf(b,
              "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" "
              "xmlns=\"http://www.w3.org/2000/svg\" aria-labelledby=\"chart-title\">"
              "<title id=\"chart-title\">",
              W, H);
    wb_marked(b, c->title, false, WB_FSI, WB_PDI);
    wb_raw(b, "</title>");
    y_axis(b, c, bottom, range);
    if (c->group != NULL)
        x_groups(b, c);
    for (int s = 0; s < c->series && s < WSVG_SERIES_MAX; s++) {
        wb_printf(b, "<polyline class=\"line s%d\" points=\"", s);
        for (int i = 0; i < c->npoints; i++)
            wb_printf(b, "%s%d,%d", i ? " " : "", px(c, i),
                      py(c->value(c->arg, s, i) - bottom, range));
        wb_raw(b, "\"/>");
        for (int i = 0; i < c->npoints; i++) {
            int v = c->value(c->arg, s, i);
            wb_printf(b, "<circle class=\"pt s%d\" cx=\"%d\" cy=\"%d\" r=\"4\"><title>", s,
                      px(c, i), py(v - bottom, range));
            wb_marked(b, c->name[s] != NULL ? c->name[s] : "", false, WB_FSI, WB_PDI);
            wb_printf(b, ": %d</title></circle>", v);
        }
    }
    wb_raw(b, "</svg><ul class=\"legend\">");
    for (int s = 0; s < c->series && s < WSVG_SERIES_MAX; s++) {
        wb_printf(b, "<li><span class=\"key s%d\" aria-hidden=\"true\"></span>", s);
        wb_marked(b, c->name[s] != NULL ? c->name[s] : "", false, "<bdi>", "</bdi>");
        wb_raw(b, "</li>");
    }
    wb_raw(b, "</ul>");
}
