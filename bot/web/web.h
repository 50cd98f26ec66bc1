/*
 * web.h — the game pages, served by the bot itself (libmicrohttpd) from
 * its database on a thread of their own with a read-only connection: a
 * page never blocks the game loop and never writes. Routes:
 *
 *   /g/ID-TOKEN[.json]       a game (its JSON: the export once it ended,
 *                            the public state while under way)
 *   /g/ID-TOKEN/v            the game's version (the live page polls it)
 *   /r/TOKEN[.json]          a room: its games and standings
 *   /r/TOKEN/p/HEX[.json]    a player in that room (HEX: the player id)
 *   /static/...              the stylesheet, the script, the icon
 *   /                        a word on where the pages are linked
 *
 * Everything else, a wrong token, a room whose pages are off: the same
 * 404, which says nothing about which ids exist. GET and HEAD only; no
 * cookies; a strict Content-Security-Policy; limits on connections (in
 * all and per address), on a request's size and on its time. Prefix web_.
 *
 * A room's pages (its games', its players') are in the room's language: its
 * own "set lang" (the room's settings in the store), else the
 * configuration's (web_langs: the room's list, its network's, the bot's).
 * The 404 and the front page, which name no room, are in the bot's.
 */
#ifndef PZ_WEB_H
#define PZ_WEB_H

#include <stddef.h>

#include "i18n.h"

typedef struct web web;

typedef struct web_limits {
    unsigned connections;  /* at once, in all (0: 256); at the limit the one
                              that waited longest for its headers goes */
    unsigned per_address;  /* at once, from one client (0: 16) */
    unsigned timeout_secs; /* an idle connection is closed after (0: 10) */
    unsigned header_secs;  /* a request's headers all in within (0: 5) */
    /* the reverse proxy in front ("127.0.0.1"; "" none): its requests
       count for the client it forwards (X-Forwarded-For, Forwarded) */
    char trusted_proxy[46]; /* INET6_ADDRSTRLEN */
} web_limits;

/* The configuration's languages of rooms that set none of their own: the
   rules of i18n.h (cfg_lang_rules), read with i18n_rules_lang. */
typedef i18n_rule web_lang_rule;
typedef i18n_rules web_langs;

/*
 * Opens db_path read-only and serves the pages on listen ("127.0.0.1:8090",
 * "[::1]:8090"; port 0: any free port, see web_port) from a thread of its
 * own. limits NULL: the defaults; langs as web_set_langs. 0 and *out, or -1 with why.
 */
int web_start(web **out, const char *db_path, const char *listen, const web_limits *limits,
              const web_langs *langs, char *why, size_t why_len);
/* The configuration's languages again (a reload): the next page has them.
   langs NULL: English everywhere. 0, or -1 out of memory (the old stay). */
int web_set_langs(web *w, const web_langs *langs);
/* The port the pages are served on. */
int web_port(const web *w);
/* Stops serving (waits for the thread) and closes the database. NULL ok. */
void web_stop(web *w);

#endif /* PZ_WEB_H */
