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

void hv_web(ctx *c, const cmd *k)
{
    (void)k;
    char url[HWEB_URL_MAX];
    const char *room = c->m->room;
    const char *base = c->h->cfg.web_base_url;
    if (base == NULL || base[0] == '\0') {
        hc_reply(c, "%s", _("this bot shows no game pages (its owner may set [web] base_url)"));
        return;
    }
    if (room == NULL || room[0] == '\0') {
        hc_reply(c, "%s", _("say web in a room for its page"));
        return;
    }
    if (!hweb_room_on(c, room)) {
        hc_reply(c, _("this room's pages are off; its moderators may say %sset web on"),
                 hc_prompt_prefix(c));
        return;
    }
    if (hweb_room_url(c, room, url))
        hc_reply(c, _("this room's games and standings: %s"), url);
    else
        hc_failed(c, -1);
}
