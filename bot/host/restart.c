/*
 * restart.c — the host after a start and when people come and go: "is
 * back" in the rooms whose game moved lately, a returning player's turn
 * prompt (an IRC JOIN), and a display name changed on a network. Not
 * here: the clock (clock.c), commands (host.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hseats.h"
#include "i18n.h"
#include "text.h"

/* Announces the game of one room after a restart. 0 or the store_err. */
static int announce_one(host *h, const store_due *d, int64_t now)
{
    ctx c = {.h = h, .now = now, .network = d->network};
    if (host__game_load(&c, d->room) <= 0 ||
        (c.row.status != STORE_PLAYING && c.row.status != STORE_PAUSED)) {
        host__game_unload(&c);
        return c.failed;
    }
    char head[48];
    I18N_SCOPE(host_room_lang(h, d->network, d->room));
    host__live_header(&c, 'S', -1, head, sizeof head);
    if (c.row.status == STORE_PAUSED)
        host__say_room(&c, c.row.room,
                       N_("%s%s is back: the game goes on (paused: say %sresume to go on): %s"),
                       head, h->bot_name, host__prefix(&c), host__live_state_token());
    else
        host__say_room(&c, c.row.room, N_("%s%s is back: the game goes on: %s"), head, h->bot_name,
                       host__live_state_token());
    if (c.row.status == STORE_PLAYING)
        host__prompt_if_quiet(&c); /* the room's line says whose turn it is */
    host__game_unload(&c);
    return c.failed;
}

/*
 * Tells the rooms whose game was live just before the restart (moved in
 * the last restart_recent_secs; the restart_announce_max most recent) that
 * the bot is back and whose turn it is. The others stay quiet: on a real
 * network "is back" in every room of 100,000 would be hours of paced
 * output, and their players learn it from the next reminder or command.
 */
int host_announce_restart(host *h, int64_t now)
{
    int max = h->cfg.restart_announce_max, n = 0;
    store_due *live = calloc((size_t)max, sizeof *live);
    if (live == NULL) {
        snprintf(h->err, sizeof h->err, "out of memory");
        return -1;
    }
    int err = store_game_recent(h->st, now - h->cfg.restart_recent_secs, max, live, &n);
    if (err == 0)
        err = store_begin(h->st);
    for (int i = 0; i < n && err == 0; i++)
        err = announce_one(h, &live[i], now);
    free(live);
    if (err == 0 && store_commit(h->st) == 0)
        return 0;
    snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
    store_rollback(h->st);
    return -1;
}

typedef struct rename_arg {
    host *h;
    const char *network, *player, *nick;
    int err;
} rename_arg;

static int rename_in(void *arg, int64_t game, const char *room)
{
    rename_arg *a = arg;
    store_seat seats[PZ_MAX_PLAYERS];
    int n = 0;
    (void)room;
    if ((a->err = store_seats_get(a->h->st, game, seats, PZ_MAX_PLAYERS, &n)) != 0)
        return a->err;
    for (int i = 0; i < n; i++)
        if (strcmp(seats[i].player, a->player) == 0)
            snprintf(seats[i].nick, sizeof seats[i].nick, "%s", a->nick);
    return a->err = store_seats_set(a->h->st, game, seats, n);
}

int host_returned(host *h, const char *network, const char *room, const char *player, int64_t now)
{
    ctx c = {.h = h, .now = now, .network = network};
    if (store_begin(h->st) != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        return -1;
    }
    if (host__game_load(&c, room) > 0 && c.row.status == STORE_PLAYING && c.g != NULL) {
        int seat = host__game_seat_of(&c, player);
        if (seat >= 0 && seat == host__game_actor(c.g))
            host__prompt_actor(&c);
    }
    host__game_unload(&c);
    if (c.failed == 0 && store_commit(h->st) == 0)
        return 0;
    snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
    store_rollback(h->st);
    return -1;
}

int host_rename(host *h, const char *network, const char *player, const char *nick)
{
    char clean[STORE_ID_MAX];
    rename_arg a = {h, network, player, text_clean(nick, clean, sizeof clean), 0};
    if (store_begin(h->st) != 0)
        return -1;
    int err = store_games_of_player(h->st, network, player, rename_in, &a);
    if (err != 0 || a.err != 0) {
        store_rollback(h->st);
        return -1;
    }
    return store_commit(h->st) == 0 ? 0 : -1;
}
