/*
 * weblinks.c — links to the game pages in chat (hweb.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "hrooms.h"
#include "hweb.h"
#include "web_keys.h"

bool host__web_room_on(ctx *c, const char *room)
{
    const char *base = c->h->cfg.web_base_url;
    if (base == NULL || base[0] == '\0' || room == NULL || room[0] == '\0')
        return false;
    room_settings rs;
    host__room_defaults(c, room, &rs);
    return !rs.web_off;
}

/* A fresh token: WEB_TOKEN_LEN hex characters. 0 or -1. */
static int new_token(char tok[WEB_TOKEN_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[WEB_TOKEN_LEN / 2];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return -1;
    for (size_t i = 0; i < sizeof raw; i++) {
        tok[2 * i] = hex[raw[i] >> 4];
        tok[2 * i + 1] = hex[raw[i] & 15];
    }
    tok[WEB_TOKEN_LEN] = '\0';
    return 0;
}

/* The token under key, made (and, for a room, its way back under
   "t:TOKEN" = back) when there is none. 0 or -1. */
static int token(ctx *c, const char *key, const char *back, char tok[WEB_TOKEN_LEN + 1])
{
    char have[WEB_TOKEN_LEN + 8];
    if (store_kv_get(c->h->st, WEB_KV_SCOPE, key, have, sizeof have) == 0 &&
        strlen(have) == WEB_TOKEN_LEN) {
        memcpy(tok, have, WEB_TOKEN_LEN + 1);
        return 0;
    }
    char tkey[WEB_TOKEN_LEN + 4];
    if (new_token(tok) != 0 || store_kv_set(c->h->st, WEB_KV_SCOPE, key, tok) != 0)
        return -1;
    snprintf(tkey, sizeof tkey, "t:%s", tok);
    if (back != NULL && store_kv_set(c->h->st, WEB_KV_SCOPE, tkey, back) != 0)
        return -1;
    return 0;
}

/* base_url without its trailing slashes: its length. */
static int base_len(const char *base)
{
    size_t n = strlen(base);
    while (n > 0 && base[n - 1] == '/')
        n--;
    return (int)n;
}

bool host__web_game_url(ctx *c, char url[HWEB_URL_MAX])
{
    char key[32], tok[WEB_TOKEN_LEN + 1];
    url[0] = '\0';
    if (!host__web_room_on(c, c->row.room) || c->row.id <= 0)
        return false;
    snprintf(key, sizeof key, "g:%lld", (long long)c->row.id);
    if (token(c, key, NULL, tok) != 0)
        return false;
    const char *base = c->h->cfg.web_base_url;
    int n = snprintf(url, HWEB_URL_MAX, "%.*s/g/%lld-%s", base_len(base), base,
                     (long long)c->row.id, tok);
    if (n < 0 || n >= HWEB_URL_MAX)
        url[0] = '\0';
    return url[0] != '\0';
}

bool host__web_room_url(ctx *c, const char *room, char url[HWEB_URL_MAX])
{
    char key[ROOM_KEY_MAX + 2], back[ROOM_KEY_MAX], tok[WEB_TOKEN_LEN + 1];
    url[0] = '\0';
    if (!host__web_room_on(c, room))
        return false;
    host__room_key(c, room, back, sizeof back);
    if (back[0] == '\0')
        return false;
    snprintf(key, sizeof key, "r:%s", back);
    if (token(c, key, back, tok) != 0)
        return false;
    const char *base = c->h->cfg.web_base_url;
    int n = snprintf(url, HWEB_URL_MAX, "%.*s/r/%s", base_len(base), base, tok);
    if (n < 0 || n >= HWEB_URL_MAX)
        url[0] = '\0';
    return url[0] != '\0';
}
