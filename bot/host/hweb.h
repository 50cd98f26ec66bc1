/*
 * hweb.h — the links to the game pages that the host writes in chat: a
 * game's (its opening and final lines) and a room's ("web"), made under
 * the configuration's [web] base_url with the tokens of web_keys.h, which
 * are created here on first use (in the call's write transaction). A
 * room's moderators turn its pages off ("set web off": room_settings).
 * Prefix host__web_.
 */
#ifndef PZ_HWEB_H
#define PZ_HWEB_H

#ifndef PZ_INSIDE_HOST
#error "hweb.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "hctx.h"

#define HWEB_URL_MAX 320

/* Whether room (on the call's network) shows its pages: base_url is set
   and its moderators did not turn them off. */
bool host__web_room_on(ctx *c, const char *room);
/* The loaded game's page into url: true, or false (and "") when the room
   shows no pages or the token cannot be made. */
bool host__web_game_url(ctx *c, char url[HWEB_URL_MAX]);
/* The room's page into url, as host__web_game_url. */
bool host__web_room_url(ctx *c, const char *room, char url[HWEB_URL_MAX]);

#endif /* PZ_HWEB_H */
