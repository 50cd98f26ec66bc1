/*
 * stats.c — the players' statistics as the room reads them: stats [NICK]
 * (games, with computer players among them, wins, points, porrazos,
 * limpias, san benitos, hints asked for) and top [bots] (people, or computer players by
 * level). Not here: counting them (play.c), keeping them (store_stats.c).
 */
#include <stdio.h>
#include <string.h>

#include "hctx.h"
#include "hverbs.h"
#include "i18n.h"

/* "1 game", "2 games": n and the word for it, into buf. */
static const char *counted(int n, const char *one, const char *many, char *buf, size_t cap)
{
    snprintf(buf, cap, "%d %s", n, n == 1 ? one : many);
    return buf;
}

void hv_stats(ctx *c, const cmd *k)
{
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : k->room[0] != '\0'                        ? k->room
                                                                   : NULL;
    store_stats s;
    const char *who = k->name[0] != '\0' ? k->name : c->m->sender;
    const char *shown = k->name[0] != '\0' ? k->name : c->m->nick;
    int err = store_stats_get(c->h->st, c->network, room, who, &s);
    if (err != 0) {
        hc_failed(c, err);
        return;
    }
    if (s.games == 0) {
        hc_reply(c, "%s has no finished games%s%s yet", shown, room ? " in " : "",
                 room ? room : "");
        return;
    }
    char w[6][40], with[64] = "", hints[64] = "";
    if (s.robot_games > 0)
        snprintf(with, sizeof with, " (%d with computer players)", s.robot_games);
    if (s.hints > 0)
        snprintf(hints, sizeof hints, P_(", %d hint asked for", ", %d hints asked for", s.hints),
                 s.hints);
    hc_reply(c, "%s%s%s: %s%s, %s, %s, %s, %s, %s%s", shown, room ? " in " : "", room ? room : "",
             counted(s.games, "game", "games", w[0], sizeof w[0]), with,
             counted(s.wins, "win", "wins", w[1], sizeof w[1]),
             counted(s.points, "point", "points", w[2], sizeof w[2]),
             counted(s.porrazos, "porrazo", "porrazos", w[3], sizeof w[3]),
             counted(s.limpias, "limpia", "limpias", w[4], sizeof w[4]),
             counted(s.san_benitos, "san benito", "san benitos", w[5], sizeof w[5]), hints);
}

void hv_top(ctx *c, const cmd *k)
{
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : k->room[0] != '\0'                        ? k->room
                                                                   : NULL;
    store_stats top[5];
    int n = 0;
    int err = store_stats_top(c->h->st, c->network, room, k->robots ? STORE_ROBOTS : STORE_PEOPLE,
                              top, 5, &n);
    if (err != 0) {
        hc_failed(c, err);
        return;
    }
    if (n == 0) {
        hc_reply(c, "no finished games%s%s%s yet", k->robots ? " of computer players" : "",
                 room ? " in " : "", room ? room : "");
        return;
    }
    char line[800];
    int len = snprintf(line, sizeof line, "Top%s%s%s:", k->robots ? " computer players" : "",
                       room ? " in " : "", room ? room : "");
    for (int i = 0; i < n && len > 0 && (size_t)len < sizeof line; i++) {
        char wins[40], points[40];
        len += snprintf(line + len, sizeof line - (size_t)len, " %d. %s (%s, %s)", i + 1,
                        top[i].nick, counted(top[i].wins, "win", "wins", wins, sizeof wins),
                        counted(top[i].points, "point", "points", points, sizeof points));
    }
    hc_reply(c, "%s", line);
}
