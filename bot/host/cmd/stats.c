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
void host__verb_stats(ctx *c, const cmd *k)
{
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : k->room[0] != '\0'                        ? k->room
                                                                   : NULL;
    store_stats s;
    const char *who = k->name[0] != '\0' ? k->name : c->m->sender;
    const char *shown = k->name[0] != '\0' ? k->name : c->m->nick;
    int err = store_stats_get(c->h->st, c->network, room, who, &s);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    if (s.games == 0) {
        if (room != NULL)
            host__reply(c, N_("%s has no finished games in %s yet"), shown, room);
        else
            host__reply(c, N_("%s has no finished games yet"), shown);
        return;
    }
    char w[6][40], with[64] = "", hints[64] = "";
    if (s.robot_games > 0)
        snprintf(with, sizeof with, _(" (%d with computer players)"), s.robot_games);
    if (s.hints > 0)
        snprintf(hints, sizeof hints,
                 P_(", %d hint asked for", ", %d hints asked for", (unsigned long)s.hints),
                 s.hints);
    unsigned long games = (unsigned long)s.games, wins = (unsigned long)s.wins,
                  points = (unsigned long)s.points, porrazos = (unsigned long)s.porrazos,
                  limpias = (unsigned long)s.limpias, benitos = (unsigned long)s.san_benitos;
    snprintf(w[0], sizeof w[0], P_("%d game", "%d games", games), s.games);
    snprintf(w[1], sizeof w[1], P_("%d win", "%d wins", wins), s.wins);
    snprintf(w[2], sizeof w[2], P_("%d point", "%d points", points), s.points);
    snprintf(w[3], sizeof w[3], P_("%d porrazo", "%d porrazos", porrazos), s.porrazos);
    snprintf(w[4], sizeof w[4], P_("%d limpia", "%d limpias", limpias), s.limpias);
    snprintf(w[5], sizeof w[5], P_("%d san benito", "%d san benitos", benitos), s.san_benitos);
    if (room != NULL)
        host__reply(c, N_("%s in %s: %s%s, %s, %s, %s, %s, %s%s"), shown, room, w[0], with, w[1],
                    w[2], w[3], w[4], w[5], hints);
    else
        host__reply(c, N_("%s: %s%s, %s, %s, %s, %s, %s%s"), shown, w[0], with, w[1], w[2], w[3],
                    w[4], w[5], hints);
}

void host__verb_top(ctx *c, const cmd *k)
{
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : k->room[0] != '\0'                        ? k->room
                                                                   : NULL;
    store_stats top[5];
    int n = 0;
    int err = store_stats_top(c->h->st, c->network, room, k->robots ? STORE_ROBOTS : STORE_PEOPLE,
                              top, 5, &n);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    if (n == 0) {
        if (k->robots && room != NULL)
            host__reply(c, N_("no finished games of computer players in %s yet"), room);
        else if (k->robots)
            host__reply(c, N_("no finished games of computer players yet"));
        else if (room != NULL)
            host__reply(c, N_("no finished games in %s yet"), room);
        else
            host__reply(c, N_("no finished games yet"));
        return;
    }
    char line[800];
    int len = k->robots && room != NULL
                  ? snprintf(line, sizeof line, _("Top computer players in %s:"), room)
              : k->robots    ? snprintf(line, sizeof line, "%s", _("Top computer players:"))
              : room != NULL ? snprintf(line, sizeof line, _("Top in %s:"), room)
                             : snprintf(line, sizeof line, "%s", _("Top:"));
    for (int i = 0; i < n && len > 0 && (size_t)len < sizeof line; i++) {
        char wins[40], points[40];
        snprintf(wins, sizeof wins, P_("%d win", "%d wins", (unsigned long)top[i].wins),
                 top[i].wins);
        snprintf(points, sizeof points, P_("%d point", "%d points", (unsigned long)top[i].points),
                 top[i].points);
        len += snprintf(line + len, sizeof line - (size_t)len, _(" %d. %s (%s, %s)"), i + 1,
                        top[i].nick, wins, points);
    }
    host__reply(c, "%s", line);
}
