/*
 * web.c — "web": the address of the room's page (hweb.h), or why there is
 * none. The link's token is made on first use, so the command writes.
 */
#include <stdio.h>

#include "hctx.h"
#include "hrooms.h"
#include "hverbs.h"
#include "hweb.h"
#include "i18n.h"

void host__verb_web(ctx *c, const cmd *k)
{
    (void)k;
    char url[HWEB_URL_MAX];
    const char *room = c->m->room;
    const char *base = c->h->cfg.web_base_url;
    if (base == NULL || base[0] == '\0') {
        host__reply(c, "%s", _("this bot shows no game pages (its owner may set [web] base_url)"));
        return;
    }
    if (room == NULL || room[0] == '\0') {
        host__reply(c, "%s", _("say web in a room for its page"));
        return;
    }
    if (!host__web_room_on(c, room)) {
        host__reply(c, _("this room's pages are off; its moderators may say %sset web on"),
                    host__prompt_prefix(c));
        return;
    }
    if (host__web_room_url(c, room, url))
        host__reply(c, _("this room's games and standings: %s"), url);
    else
        host__failed(c, -1);
}
