/*
 * wpage_game.c — a game's page: its players and options, the score chart,
 * the table now and whose turn (a game under way), the record deal by deal
 * with the boards at each hand's end; and its public JSON while under way.
 * Everything shown is public (wgame.h): the table, never a hand.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "render.h"
#include "wpage.h"
#include "wsvg.h"

static int point_value(void *arg, int s, int i)
{
    const wgame *w = arg;
    return w->point[i].score[s];
}

static int point_hand(void *arg, int i)
{
    const wgame *w = arg;
    return w->point[i].hand;
}

static void chart(wbuf *b, const wgame *w)
{
    wsvg_chart c = {.title = _("The score after each deal"),
                    .series = w->sides,
                    .npoints = w->npoints,
                    .value = point_value,
                    .group = point_hand,
                    /* TRANSLATORS: below the score chart, before the hands' numbers */
                    .group_word = C_("chart", "hand"),
                    .arg = (void *)w,
                    .target = w->opt.target};
    for (int s = 0; s < w->sides && s < WSVG_SERIES_MAX; s++)
        c.name[s] = w->side_name[s];
    wb_printf(b, "<section id=\"chart\"><h2>%s</h2>", _("Score"));
    wsvg_chart_draw(b, &c);
    wb_raw(b, "</section>");
}

/* The table now, public only: the cards face up, how many each holds,
   the stock, and who is to act (render_status, the room's own line). */
static void now(wbuf *b, const wgame *w)
{
    pz_view v;
    render_names names = wg_names(w);
    char line[RENDER_LINE_MAX];
    /* the version the live script compares with the server's (/v): a move,
       a pause or the room's language changes it */
    wb_printf(b, "<section id=\"now\" data-version=\"%d.%d.%s\"><h2>%s</h2>", w->actions,
              (int)w->row.status, i18n_code(i18n_lang()),
              w->ended ? _("The end") : _("The table now"));
    if (pz_view_seat(w->g, 0, &v) == 0 && !w->ended) { /* the table: the status line's */
        wb_raw(b, "<ul class=\"seats\">");
        for (int s = 0; s < w->nseats; s++) {
            wb_raw(b, "<li><bdi>");
            wb_html(b, w->seat[s].nick);
            wb_raw(b, "</bdi> ");
            wb_printf(b, P_("%d card", "%d cards", (unsigned long)v.hand_count[s]),
                      v.hand_count[s]);
            wb_raw(b, "</li>");
        }
        wb_raw(b, "</ul><p>");
        wb_printf(b, P_("%d card to deal", "%d cards to deal", (unsigned long)v.stock), v.stock);
        wb_raw(b, "</p>");
    }
    render_status(w->g, &names, line, sizeof line);
    wb_raw(b, "<p class=\"status\">");
    wp_text(b, line);
    wb_raw(b, "</p><p class=\"scores\">");
    render_score_line(w->g, &names, line, sizeof line);
    wp_text(b, line);
    wb_raw(b, "</p>");
    if (w->ended && w->end_reason == PZ_END_SAN_BENITO)
        wb_printf(b, "<p class=\"why\">%s</p>",
                  _("Won by san benito: the fourth card of a rank after a counter porrazo "
                    "ends the game at once, and its side wins whatever the scores."));
    wb_raw(b, "</section>");
}

/* Opens hand h's part of the record: folded, but for the last one shown. */
static void hand_open(wbuf *b, const wgame *w, int h)
{
    wb_printf(b, "<details id=\"hand-%d\"%s><summary id=\"hand-%d-fold\"><h3>", h,
              h == w->hand ? " open" : "", h);
    wb_printf(b, _("Hand %d"), h);
    wb_raw(b, "</h3></summary>");
}

/* A deal's heading: "Deal 2" seen, "Hand 3, deal 2" heard (one of many). */
static void deal_heading(wbuf *b, int hand, int deal)
{
    wb_raw(b, "<h4><span aria-hidden=\"true\">");
    wb_printf(b, _("Deal %d"), deal);
    wb_raw(b, "</span><span class=\"vh\">");
    wb_printf(b, _("Hand %d, deal %d"), hand, deal);
    wb_raw(b, "</span></h4>");
}

static void record(wbuf *b, const wgame *w)
{
    int hand = 0, deal = 0;
    bool in_list = false, in_board = false;
    wb_printf(b, "<section id=\"record\"><h2>%s</h2>", _("Deal by deal"));
    if (!w->ended)
        wb_printf(b, "<p class=\"note\">%s</p>",
                  _("While the game is under way, only this hand's cards are shown: the "
                    "cards of earlier hands were shuffled back. The whole record follows "
                    "when the game ends."));
    else if (w->hand > 1) {
        wb_printf(b, "<nav class=\"hands\" aria-label=\"%s\"><p>%s", _("Hands"), _("Hands:"));
        for (int h = 1; h <= w->hand; h++)
            wb_printf(b, " <a href=\"#hand-%d\">%d</a>", h, h);
        wb_raw(b, "</p></nav>");
    }
    for (int i = 0; i < w->nlines; i++) {
        const wg_line *l = &w->line[i];
        if (!wg_shown(w, l))
            continue;
        if (l->hand != hand) {
            if (in_list)
                wb_raw(b, "</ol>");
            if (in_board)
                wb_raw(b, "</pre>");
            if (hand != 0)
                wb_raw(b, "</details>");
            in_list = in_board = false;
            hand_open(b, w, l->hand);
            hand = l->hand;
            deal = 0;
        }
        if (l->board) {
            if (in_list)
                wb_raw(b, "</ol>");
            in_list = false;
            if (!in_board)
                wb_raw(b, "<pre class=\"board\">");
            in_board = true;
            wp_text(b, l->text);
            wb_raw(b, "\n");
            continue;
        }
        if (in_board)
            wb_raw(b, "</pre>");
        in_board = false;
        if (l->deal != deal || !in_list) {
            if (in_list)
                wb_raw(b, "</ol>");
            if (l->deal != deal)
                deal_heading(b, l->hand, l->deal);
            wb_raw(b, "<ol class=\"plays\">");
            in_list = true;
            deal = l->deal;
        }
        wb_raw(b, "<li>");
        wp_text(b, l->text);
        wb_raw(b, "</li>");
    }
    if (in_list)
        wb_raw(b, "</ol>");
    if (in_board)
        wb_raw(b, "</pre>");
    if (hand != 0)
        wb_raw(b, "</details>");
    wb_raw(b, "</section>");
}

/* The last play the room read, for the live line screen readers announce
   (aria-live): empty until the first, and on a page that is not live. */
static void last_play(wbuf *b, const wgame *w)
{
    wb_raw(b, "<p id=\"last\" aria-live=\"polite\" aria-atomic=\"true\">");
    for (int i = w->nlines - 1; i >= 0 && !w->ended; i--)
        if (!w->line[i].board && wg_shown(w, &w->line[i])) {
            wb_printf(b, "<span class=\"vh\">%s </span>", _("Last:"));
            wp_text(b, w->line[i].text);
            break;
        }
    wb_raw(b, "</p>");
}

/* Whether seat s is on the side that won the (finished) game. */
static bool winner(const wgame *w, int s)
{
    return w->row.status == STORE_FINISHED && pz_get_phase(w->g) == PZ_PHASE_GAME_OVER &&
           pz_side_of(w->g, s) == pz_get_winner(w->g);
}

void wp_game(wbuf *b, const wgame *w, const char *path, const char *room_path)
{
    char title[400], live[300], opts[200], room[STORE_ID_MAX + 3];
    wb_mark(w->row.room, room, sizeof room);
    snprintf(title, sizeof title, _("Porrazo game %lld in %s"), (long long)w->row.id, room);
    snprintf(live, sizeof live, "%s/v", path);
    wp_head(b, title, w->ended ? NULL : live);
    wb_raw(b, "<header id=\"about\"><h1>");
    wb_marked(b, title, false, "<bdi>", "</bdi>");
    wb_raw(b, "</h1><p>");
    wb_html(b, wp_status_word(w->row.status));
    if (room_path != NULL) {
        wb_raw(b, " · <a href=\"");
        wb_html(b, room_path);
        wb_printf(b, "\">%s</a>", _("the room's games"));
    }
    wb_raw(b, " · <a href=\"");
    wb_html(b, path);
    wb_printf(b, ".json\">%s</a></p>", _("JSON"));
    wb_printf(b,
              "<nav class=\"jump\" aria-label=\"%s\"><a href=\"#now\">%s</a> "
              "<a href=\"#chart\">%s</a> <a href=\"#record\">%s</a></nav>",
              _("On this page"), w->ended ? _("The end") : _("The table now"), _("Score"),
              _("Deal by deal"));
    wb_printf(b, "<h2>%s</h2><ol class=\"players\">", _("Players"));
    for (int s = 0; s < w->nseats; s++) {
        wb_raw(b, "<li>");
        if (room_path != NULL) { /* the player's page in this room */
            wb_raw(b, "<a href=\"");
            wb_html(b, room_path);
            wb_raw(b, "/p/");
            wb_hex(b, w->seat[s].player);
            wb_raw(b, "\">");
        }
        wb_raw(b, "<bdi>");
        wb_html(b, w->seat[s].nick);
        wb_raw(b, room_path != NULL ? "</bdi></a>" : "</bdi>");
        if (w->sides < w->nseats)
            wb_printf(b, _(" (side %d)"), pz_side_of(w->g, s) + 1);
        if (winner(w, s))
            wb_printf(b, " <strong class=\"won\">%s</strong>", _("won"));
        wb_raw(b, "</li>");
    }
    wb_raw(b, "</ol>");
    if (pz_options_format(&w->opt, opts, sizeof opts) >= 0) {
        wb_printf(b, "<p class=\"options\">%s <code>", _("Options:"));
        wb_html(b, opts);
        wb_raw(b, "</code></p>");
    }
    wb_raw(b, "</header>");
    last_play(b, w);
    chart(b, w);
    now(b, w);
    wp_fairness(b, w);
    record(b, w);
    wp_foot(b);
}

void wp_game_json_live(wbuf *b, const wgame *w)
{
    char opts[200], line[RENDER_LINE_MAX], card[8];
    render_names names = wg_names(w);
    wb_printf(b, "{\n  \"game\": %lld,\n  \"status\": \"%s\",\n  \"room\": \"",
              (long long)w->row.id, w->row.status == STORE_PAUSED ? "paused" : "playing");
    wb_json(b, w->row.room);
    wb_raw(b, "\",\n  \"players\": [");
    for (int s = 0; s < w->nseats; s++) {
        wb_printf(b, "%s{\"seat\": %d, \"side\": %d, \"nick\": \"", s ? ", " : "", s,
                  pz_side_of(w->g, s));
        wb_json(b, w->seat[s].nick);
        wb_raw(b, "\"}");
    }
    if (pz_options_format(&w->opt, opts, sizeof opts) < 0)
        opts[0] = '\0';
    wb_raw(b, "],\n  \"options\": \"");
    wb_json(b, opts);
    wb_raw(b, "\",\n  \"deals\": [");
    for (int i = 0; i < w->npoints; i++) {
        wb_printf(b, "%s\n    {\"hand\": %d, \"deal\": %d, \"scores\": [", i ? "," : "",
                  w->point[i].hand, w->point[i].deal);
        for (int s = 0; s < w->sides; s++)
            wb_printf(b, "%s%d", s ? ", " : "", w->point[i].score[s]);
        wb_raw(b, "]}");
    }
    pz_card cards[PZ_CARDS];
    int n = pz_get_table(w->g, cards);
    wb_raw(b, "\n  ],\n  \"table\": [");
    for (int i = 0; i < n; i++) {
        render_card(cards[i], card);
        wb_printf(b, "%s\"", i ? ", " : "");
        wb_json(b, card);
        wb_raw(b, "\"");
    }
    pz_phase phase = pz_get_phase(w->g);
    int actor = phase == PZ_PHASE_PLAY ? pz_get_turn(w->g)
                : phase == PZ_PHASE_TENDIDO_CHOICE || phase == PZ_PHASE_ARRANGE
                    ? pz_get_dealer(w->g)
                    : -1;
    wb_printf(b, "],\n  \"to_act\": %d,\n  \"scores\": [", actor);
    for (int s = 0; s < w->sides; s++)
        wb_printf(b, "%s%d", s ? ", " : "", pz_get_score(w->g, s));
    render_status(w->g, &names, line, sizeof line);
    wb_raw(b, "],\n  \"now\": \"");
    wb_marked(b, line, true, "", "");
    wb_raw(b, "\",\n  \"record\": [");
    bool first = true;
    for (int i = 0; i < w->nlines; i++) {
        const wg_line *l = &w->line[i];
        if (!wg_shown(w, l))
            continue;
        wb_printf(b, "%s\n    {\"hand\": %d, \"deal\": %d, \"%s\": \"", first ? "" : ",", l->hand,
                  l->deal, l->board ? "board" : "text");
        wb_marked(b, l->text, true, "", "");
        wb_raw(b, "\"}");
        first = false;
    }
    wb_raw(b, "\n  ]");
    wp_fairness_json_live(b, w);
    wb_raw(b, "\n}\n");
}
