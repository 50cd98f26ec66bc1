/*
 * hgame.h — the game of a room as one call holds it (game.c): loading and
 * saving it, its seats looked up, its settings as words (settings.c), its
 * lines rendered when they are sent (live.c) and what happened since a
 * seat's last play (recent.c). Prefixes host__game_, host__settings_, host__live_, host__recent_.
 */
#ifndef PZ_HGAME_H
#define PZ_HGAME_H

#ifndef PZ_INSIDE_HOST
#error "hgame.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include "hctx.h"

/* ---- game.c ---- */
/* Loads the active game of (network, room) into c: 1 found, 0 none, -1 error. */
int host__game_load(ctx *c, const char *room);
/* Writes the game row (settings, state; seats are written by their owners)
   with the time the clock next needs it. */
void host__game_save(ctx *c);
/* Frees what host__game_load allocated. */
void host__game_unload(ctx *c);
/* The seat of a player in the loaded game, or -1. */
int host__game_seat_of(const ctx *c, const char *player);
/*
 * Game id saved as state, restored: the one kept beside its row in the
 * store's game cache (store_game_memo) or the host's last restored game
 * when either was restored from the same text (pz_restore gives the same
 * game for the same text), else pz_restore's, which is then given to the
 * cache beside its row, or kept as the last when the cache keeps no such
 * row. Returns a game to read, not to free, valid until the next read of
 * the store; or NULL with a message in why. host__game_forget frees the
 * last (host_free).
 */
const pz_game *host__game_restore(host *h, int64_t id, const char *state, char *why,
                                  size_t why_len);
void host__game_forget(host *h);
/* The seat whose nick is name (case-insensitive) or whose player id is name
   exactly (a Matrix user id, an account), or -1. */
int host__game_seat_named(const ctx *c, const char *name);
/* The names of the seats for render.h. */
render_names host__game_names(const ctx *c);
/* The seat to act in g now: the turn in play, the dealer while the
   tendido is chosen or arranged; -1 otherwise. */
int host__game_actor(const pz_game *g);

/* ---- settings.c: a game's settings as words, and back. 0 or -1. ---- */
int host__settings_parse(settings *s, const char *text);
void host__settings_format(const settings *s, char *buf, size_t cap);
void host__settings_default(settings *s);

/* ---- live.c: lines rendered when they are sent ---- */
/* The seats' names as markers (resolved when a line is sent). */
typedef struct live_nicks {
    char nick[PZ_MAX_PLAYERS][STORE_ID_MAX + 8];
} live_nicks;
/* Names for render.h whose nicks are markers kept in buf. */
render_names host__live_names(const ctx *c, live_nicks *buf);
/*
 * The header that makes a line of the loaded game live, into buf: kind
 * 'E' (events: the state follows when sent; lines in a row merge), 'D'
 * (a deal's events: as 'E', but never merged into the line before), 'S' (a
 * state line: dropped when a newer one waits), 'H' / 'P' (seat's hand /
 * turn prompt, rendered when sent), 'B' (names only). seat -1: none.
 */
void host__live_header(const ctx *c, char kind, int seat, char *buf, size_t cap);
/* The characters of s a player reads: markers' framing left out, names
   counted as the nick they hold, a UTF-8 character as one. */
size_t host__live_shown_chars(const char *s);
/* The marker of the game's state ("table ... · bob to play") when sent. */
const char *host__live_state_token(void);

/* ---- recent.c: what happened since a seat's last play ---- */
#define RECENT_MAX 16         /* entries kept per game */
#define RECENT_TEXT_MAX 400   /* bytes of one entry */
#define RECENT_VALUE_MAX 7000 /* bytes of the stored record */
typedef struct recent {
    int64_t acted[PZ_MAX_PLAYERS]; /* when each seat last acted; 0 never */
    int n;
    struct {
        int seat; /* who acted; -1 nobody (a deal) */
        char text[RECENT_TEXT_MAX];
    } entry[RECENT_MAX];
} recent;
/* Reads the loaded game's record (empty when none). 0 or a store_err. */
int host__recent_load(ctx *c, recent *r);
/* Writes it back (in the caller's transaction). 0 or a store_err. */
int host__recent_save(ctx *c, const recent *r);
/* Adds what the room was told of an action by seat (-1: nobody). */
void host__recent_add(recent *r, int seat, const char *text);
/* Seat acted at now. */
void host__recent_touch(recent *r, int seat, int64_t now);
/* When seat last acted, 0 never. */
int64_t host__recent_acted(const recent *r, int seat);
/* What the room was told since seat's last entry, joined by " · " into
   buf (the newest that fit). */
void host__recent_since(const recent *r, int seat, char *buf, size_t cap);

#endif /* PZ_HGAME_H */
