/*
 * web_keys.h — where the game pages' links live in the store's kv, shared
 * by the host (which makes them, in its write transactions) and the web
 * layer (which only reads them). Each token is WEB_TOKEN_LEN lowercase hex
 * characters from getrandom: unguessable, one per game and per room.
 *
 *   scope WEB_KV_SCOPE, key "g:<game id>"           → the game's token
 *   scope WEB_KV_SCOPE, key "r:<network>\x1f<room>"  → the room's token
 *   scope WEB_KV_SCOPE, key "t:<room token>"         → "<network>\x1f<room>"
 *
 * A room's pages are off when its settings (scope WEB_ROOM_SCOPE, the
 * host's room defaults, key "<network>\x1f<room>") say so: the row of
 * settings.def's web, read by cmd_settings_read as the host reads it.
 */
#ifndef PZ_WEB_KEYS_H
#define PZ_WEB_KEYS_H

#define WEB_KV_SCOPE "web"
#define WEB_ROOM_SCOPE "room" /* the host's ROOM_SCOPE (hrooms.h) */
#define WEB_TOKEN_LEN 32

#endif /* PZ_WEB_KEYS_H */
