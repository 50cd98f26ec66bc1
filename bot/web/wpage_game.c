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

static void hand_name(void *arg, int g, char *buf, size_t cap)
{
    (void)arg;
    snprintf(buf, cap, _("hand %d"), g);
}

static void chart(wbuf *b, const wgame *w)
{
    wsvg_chart c = {.title = _("The score after each deal"),
                    .series = w->sides,
                    .npoints = w->npoints,
                    .value = point_value,
                    .group = point_hand,
                    .group_name = hand_name,
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
    pz_card cards[PZ_CARDS];
    pz_view v;
    render_names names = wg_names(w);
    char line[RENDER_LINE_MAX];
    /* the version the live script compares with the server's (/v): a move,
       a pause or the room's language changes it */
    wb_printf(b, "<section id=\"now\" data-version=\"%d.%d.%s\"><h2>%s</h2>", w->actions,
              (int)w->row.status, i18n_code(i18n_lang()),
              w->ended ? _("The end") : _("The table now"));
    if (pz_view_seat(w->g, 0, &v) == 0 && !w->ended) {
        int n = pz_get_table(w->g, cards);
        wb_printf(b, "<p class=\"table\">%s ", _("On the table:"));
        for (int i = 0; i < n; i++) {
            wb_raw(b, i ? " " : "");
            wp_card(b, cards[i]);
        }
        if (n == 0)
            wb_html(b, _("nothing"));
        wb_raw(b, "</p><ul class=\"seats\">");
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
    wb_raw(b, "</p></section>");
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
    for (int i = 0; i < w->nlines; i++) {
        const wg_line *l = &w->line[i];
        if (!wg_shown(w, l))
            continue;
        if (l->hand != hand) {
            if (in_list)
                wb_raw(b, "</ol>");
            if (in_board)
                wb_raw(b, "</pre>");
            in_list = in_board = false;
            wb_raw(b, "<h3>");
            wb_printf(b, _("Hand %d"), l->hand);
            wb_raw(b, "</h3>");
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
            if (l->deal != deal) {
                wb_raw(b, "<h4>");
                wb_printf(b, _("Deal %d"), l->deal);
                wb_raw(b, "</h4>");
            }
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
    wb_raw(b, "</section>");
}

void wp_game(wbuf *b, const wgame *w, const char *path, const char *room_path)
{
    char title[300], live[300], opts[200];
    snprintf(title, sizeof title, _("Porrazo game %lld in %s"), (long long)w->row.id, w->row.room);
    snprintf(live, sizeof live, "%s/v", path);
    wp_head(b, title, w->ended ? NULL : live);
    wb_raw(b, "<header><h1>");
    wb_html(b, title);
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
        wb_raw(b, "</li>");
    }
    wb_raw(b, "</ol>");
    if (pz_options_format(&w->opt, opts, sizeof opts) >= 0) {
        wb_printf(b, "<p class=\"options\">%s <code>", _("Options:"));
        wb_html(b, opts);
        wb_raw(b, "</code></p>");
    }
    wb_raw(b, "</header>");
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
    wb_json(b, line);
    wb_raw(b, "\",\n  \"record\": [");
    bool first = true;
    for (int i = 0; i < w->nlines; i++) {
        const wg_line *l = &w->line[i];
        if (!wg_shown(w, l))
            continue;
        wb_printf(b, "%s\n    {\"hand\": %d, \"deal\": %d, \"%s\": \"", first ? "" : ",", l->hand,
                  l->deal, l->board ? "board" : "text");
        wb_json(b, l->text);
        wb_raw(b, "\"}");
        first = false;
    }
    wb_raw(b, "\n  ]");
    wp_fairness_json_live(b, w);
    wb_raw(b, "\n}\n");
}
