/*
 * wpage_room.c — a room's page (its games, newest first, and its
 * standings) and a player's page in a room (games, wins, averages and the
 * share of games won over time as a chart), each also as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "web_keys.h"
#include "wpage.h"
#include "wsvg.h"

#define ROOM_GAMES_MAX 50
#define PLAYER_GAMES_MAX 100
#define STANDINGS_MAX 20

typedef struct glist {
    int n;
    store_game_brief g[PLAYER_GAMES_MAX];
} glist;

static int collect(void *arg, const store_game_brief *g)
{
    glist *l = arg;
    if (l->n < PLAYER_GAMES_MAX)
        l->g[l->n++] = *g;
    return 0;
}

static const char *status_code(store_status s)
{
    static const char *const CODE[] = {"lobby", "playing", "paused", "finished", "stopped"};
    return CODE[s >= STORE_LOBBY && s <= STORE_STOPPED ? s : STORE_STOPPED];
}

/* The game's link ("/g/ID-TOKEN") into path, or "" when it has no token. */
static void game_path(store *st, int64_t id, char *path, size_t cap)
{
    char key[32], tok[WEB_TOKEN_LEN + 8];
    snprintf(key, sizeof key, "g:%lld", (long long)id);
    if (store_kv_get(st, WEB_KV_SCOPE, key, tok, sizeof tok) == 0)
        snprintf(path, cap, "/g/%lld-%s", (long long)id, tok);
    else
        path[0] = '\0';
}

/* The JSON's date: "2026-11-28" (UTC), the same in every language. */
static void date_of(int64_t t, char *buf, size_t cap)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (gmtime_r(&tt, &tm) == NULL || strftime(buf, cap, "%Y-%m-%d", &tm) == 0)
        snprintf(buf, cap, "?");
}

/* One game's row: date, link, players, status. */
static void game_row(wbuf *b, store *st, const store_game_brief *g, bool json, bool first)
{
    char path[96], date[64];
    store_seat seat[PZ_MAX_PLAYERS];
    int n = 0;
    game_path(st, g->id, path, sizeof path);
    date_of(g->created, date, sizeof date);
    if (store_seats_get(st, g->id, seat, PZ_MAX_PLAYERS, &n) != 0)
        n = 0;
    if (json) {
        wb_printf(b,
                  "%s\n    {\"game\": %lld, \"date\": \"%s\", \"status\": \"%s\", \"winner\": %d, "
                  "\"page\": \"",
                  first ? "" : ",", (long long)g->id, date, status_code(g->status), g->winner);
        wb_json(b, path);
        wb_raw(b, "\", \"players\": [");
        for (int i = 0; i < n; i++) {
            wb_raw(b, i ? ", \"" : "\"");
            wb_json(b, seat[i].nick);
            wb_raw(b, "\"");
        }
        wb_raw(b, "]}");
        return;
    }
    wp_date(g->created, date, sizeof date);
    wb_raw(b, "<tr><td>");
    wb_html(b, date);
    wb_raw(b, "</td><td>");
    if (path[0] != '\0') {
        wb_raw(b, "<a href=\"");
        wb_html(b, path);
        wb_printf(b, "\">%lld</a>", (long long)g->id);
    } else {
        wb_printf(b, "%lld", (long long)g->id);
    }
    wb_raw(b, "</td><td>");
    for (int i = 0; i < n; i++) {
        wb_raw(b, i ? ", <bdi" : "<bdi");
        bool won = i == g->winner && g->status == STORE_FINISHED;
        wb_raw(b, won ? " class=\"won\">" : ">");
        wb_html(b, seat[i].nick);
        wb_raw(b, "</bdi>");
        if (won) /* said, not only bold */
            wb_printf(b, " <span class=\"won\">(%s)</span>", _("won"));
    }
    wb_raw(b, "</td><td>");
    wb_html(b, wp_status_word(g->status));
    wb_raw(b, "</td></tr>");
}

int wp_room(wbuf *b, store *st, const char *network, const char *room, const char *rtok, bool json)
{
    glist *l = calloc(1, sizeof *l);
    store_stats *top = calloc(STANDINGS_MAX, sizeof *top);
    int ntop = 0;
    if (l == NULL || top == NULL ||
        store_ro_games(st, network, room, NULL, ROOM_GAMES_MAX, collect, l) != 0 ||
        store_stats_top(st, network, room, STORE_EVERYONE, top, STANDINGS_MAX, &ntop) != 0) {
        free(l);
        free(top);
        return -1;
    }
    char title[400], mroom[STORE_ID_MAX + 3];
    wb_mark(room, mroom, sizeof mroom);
    snprintf(title, sizeof title, _("Porrazo in %s"), mroom);
    if (json) {
        wb_raw(b, "{\n  \"room\": \"");
        wb_json(b, room);
        wb_raw(b, "\",\n  \"games\": [");
    } else {
        wp_head(b, title, NULL);
        wb_raw(b, "<h1>");
        wb_marked(b, title, false, "<bdi>", "</bdi>");
        wb_printf(b, "</h1><p><a href=\"/r/%s.json\">%s</a></p>", rtok, _("JSON"));
        wb_printf(b,
                  "<h2>%s</h2><table class=\"games\"><tr><th>%s</th><th>%s</th><th>%s</th>"
                  "<th>%s</th></tr>",
                  _("Games"), C_("column", "date"), C_("column", "game"), C_("column", "players"),
                  C_("column", "status"));
    }
    for (int i = 0; i < l->n; i++)
        game_row(b, st, &l->g[i], json, i == 0);
    if (json)
        wb_raw(b, "\n  ],\n  \"standings\": [");
    else
        wb_printf(b,
                  "</table><h2>%s</h2><table class=\"standings\"><tr><th>%s</th><th>%s</th>"
                  "<th>%s</th><th>%s</th><th>%s</th></tr>",
                  /* TRANSLATORS: the headings of the tables of games and standings */
                  _("Standings"), C_("column", "player"), C_("column", "games"),
                  C_("column", "wins"), C_("column", "points"), C_("column", "porrazos"));
    for (int i = 0; i < ntop; i++) {
        const store_stats *s = &top[i];
        if (json) {
            wb_printf(b, "%s\n    {\"player\": \"", i ? "," : "");
            wb_json(b, s->player);
            wb_raw(b, "\", \"nick\": \"");
            wb_json(b, s->nick);
            wb_printf(b,
                      "\", \"games\": %d, \"wins\": %d, \"points\": %d, \"porrazos\": %d, "
                      "\"limpias\": %d}",
                      s->games, s->wins, s->points, s->porrazos, s->limpias);
            continue;
        }
        wb_printf(b, "<tr><td><a href=\"/r/%s/p/", rtok);
        wb_hex(b, s->player);
        wb_raw(b, "\"><bdi>");
        wb_html(b, s->nick);
        wb_printf(b, "</bdi></a></td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>", s->games,
                  s->wins, s->points, s->porrazos);
    }
    if (json)
        wb_raw(b, "\n  ]\n}\n");
    else {
        wb_raw(b, "</table>");
        wp_foot(b);
    }
    free(l);
    free(top);
    return 0;
}

/* Whether the player sitting at seat won game g (its state says the sides). */
static int won(store *st, const store_game_brief *g)
{
    store_game row;
    if (g->status != STORE_FINISHED || store_game_get(st, g->id, &row) != 0)
        return 0;
    pz_game *pg = NULL;
    int side = -1;
    if (row.state != NULL && pz_restore(&pg, row.state, strlen(row.state), NULL, 0) == 0) {
        side = pz_side_of(pg, g->seat);
        pz_free(pg);
    }
    store_game_fini(&row);
    return side >= 0 && side == g->winner;
}

typedef struct rate {
    int n;
    int pct[PLAYER_GAMES_MAX];
} rate;

static int rate_value(void *arg, int s, int i)
{
    (void)s;
    return ((rate *)arg)->pct[i];
}

int wp_player(wbuf *b, store *st, const char *network, const char *room, const char *rtok,
              const char *player, bool json)
{
    glist *l = calloc(1, sizeof *l);
    rate *r = calloc(1, sizeof *r);
    store_stats s;
    if (l == NULL || r == NULL ||
        store_ro_games(st, network, room, player, PLAYER_GAMES_MAX, collect, l) != 0 ||
        store_stats_get(st, network, room, player, &s) != 0 || l->n == 0) {
        free(l);
        free(r);
        return -1;
    }
    int wins = 0, finished = 0;
    for (int i = l->n - 1; i >= 0; i--) { /* oldest first */
        if (l->g[i].status != STORE_FINISHED)
            continue;
        wins += won(st, &l->g[i]);
        finished++;
        r->pct[r->n++] = 100 * wins / finished;
    }
    const char *nick = s.nick[0] != '\0' ? s.nick : player;
    char title[400], mnick[STORE_ID_MAX + 3], mroom[STORE_ID_MAX + 3];
    wb_mark(nick, mnick, sizeof mnick);
    wb_mark(room, mroom, sizeof mroom);
    snprintf(title, sizeof title, _("%s in %s"), mnick, mroom);
    double avg = s.games > 0 ? (double)s.points / s.games : 0;
    if (json) {
        wb_raw(b, "{\n  \"player\": \"");
        wb_json(b, player);
        wb_raw(b, "\",\n  \"nick\": \"");
        wb_json(b, nick);
        wb_printf(b,
                  "\",\n  \"games\": %d, \"wins\": %d, \"points\": %d, \"average\": %.1f, "
                  "\"porrazos\": %d, \"limpias\": %d,\n  \"list\": [",
                  s.games, s.wins, s.points, avg, s.porrazos, s.limpias);
        for (int i = 0; i < l->n; i++)
            game_row(b, st, &l->g[i], true, i == 0);
        wb_raw(b, "\n  ]\n}\n");
        free(l);
        free(r);
        return 0;
    }
    wp_head(b, title, NULL);
    wb_raw(b, "<h1>");
    wb_marked(b, title, false, "<bdi>", "</bdi>");
    wb_printf(b, "</h1><p><a href=\"/r/%s\">%s</a></p><p>", rtok, _("the room's games"));
    /* TRANSLATORS: a player's record, in parts: "3 games, 1 won, 10.5 points
       a game on average, 2 porrazos, 1 limpia." */
    wb_printf(b,
              P_("%d game, %d won, %.1f points a game on average",
                 "%d games, %d won, %.1f points a game on average", (unsigned long)s.games),
              s.games, s.wins, avg);
    wb_raw(b, ", ");
    wb_printf(b, P_("%d porrazo", "%d porrazos", (unsigned long)s.porrazos), s.porrazos);
    wb_raw(b, ", ");
    wb_printf(b, P_("%d limpia", "%d limpias", (unsigned long)s.limpias), s.limpias);
    wb_raw(b, ".</p>");
    if (r->n > 0) {
        wsvg_chart c = {.title = _("Share of games won so far, game by game (%)"),
                        .series = 1,
                        .name = {mnick},
                        .npoints = r->n,
                        .value = rate_value,
                        .arg = r,
                        .target = 100};
        wb_printf(b, "<section id=\"chart\"><h2>%s</h2>", _("Record over time"));
        wsvg_chart_draw(b, &c);
        wb_raw(b, "</section>");
    }
    wb_printf(b,
              "<h2>%s</h2><table class=\"games\"><tr><th>%s</th><th>%s</th><th>%s</th>"
              "<th>%s</th></tr>",
              _("Games"), C_("column", "date"), C_("column", "game"), C_("column", "players"),
              C_("column", "status"));
    for (int i = 0; i < l->n; i++)
        game_row(b, st, &l->g[i], false, false);
    wb_raw(b, "</table>");
    wp_foot(b);
    free(l);
    free(r);
    return 0;
}
