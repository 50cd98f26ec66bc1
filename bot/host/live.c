/*
 * live.c — lines rendered when they are sent, not when they are queued.
 *
 * A game's lines are stored in the outbox with markers instead of the
 * parts that can change before they are sent: the names of the seats
 * (a player may change nick), the state of the game ("table ... · bob to
 * play"), a seat's hand. When an adapter takes such a line, outq calls
 * host_expand() (its expander), which reads the game as it is then and
 * writes the line players will read, so that every line is true when it
 * is read. The expander also keeps the channel from falling behind:
 *
 *   - event lines ('E') of one game waiting in a row for a room are told
 *     in one line ("ann 7♥ takes 7♣ · bob 3♠ · table ... · ann to play"),
 *     and the state is written only on the last event line still queued;
 *     a deal's line ('D': "Deal 3 of 8 · score: ...") is an event line
 *     that starts a line of its own, so the end of a deal and the next
 *     deal are two lines a player can read, not one of 300 characters;
 *   - a state line ('S', the answer to !turn) is dropped when a newer
 *     line of the same game waits behind it in the same room;
 *   - a seat's hand ('H'), turn prompt ('P') or reminder ('R') is dropped
 *     when a newer one waits behind it, and a prompt or reminder also when
 *     the turn has passed.
 *
 * The format, all of it between bytes 0xFF (which never occur in UTF-8,
 * so no player's text can forge one):
 *   header  FF 'G' <game id> ':' <kind> [<seat>] FF   at the start only
 *   name    FF 'n' <seat> <nick when queued> FF        the seat's name
 *   state   FF 's' FF                                   render_status
 * A line without a header is sent as it is (messages queued before this
 * format existed, lobby talk, help). Not here: what is said (act.c, seats.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hrooms.h"
#include "hseats.h"
#include "i18n.h"
#include "text.h"

#define MARK '\xFF'
#define LIVE_OUT_MAX 1000  /* bytes of a rendered line */
#define LIVE_MERGE_MAX 300 /* a merged line stops growing past this many bytes */

/* ------------------------------------------------------------------------ */
/* Writing markers                                                          */

render_names host__live_names(const ctx *c, live_nicks *buf)
{
    render_names n = {c->nseats, {NULL}, host__prefix(c)};
    for (int i = 0; i < c->nseats && i < PZ_MAX_PLAYERS; i++) {
        int k = snprintf(buf->nick[i], sizeof buf->nick[i], "%cn%d%s%c", MARK, i, c->seats[i].nick,
                         MARK);
        if (k < 0 || (size_t)k >= sizeof buf->nick[i]) /* cannot happen: sized for it */
            snprintf(buf->nick[i], sizeof buf->nick[i], "%cn%d%c", MARK, i, MARK);
        /* a nick is text, so never holds 0xFF; should bytes from a network
           ever do, they must not end the marker early */
        for (char *p = buf->nick[i] + 3; p[0] != '\0' && p[1] != '\0'; p++)
            if (*p == MARK)
                *p = '?';
        n.nick[i] = buf->nick[i];
    }
    return n;
}

void host__live_header(const ctx *c, char kind, int seat, char *buf, size_t cap)
{
    int k = seat >= 0
                ? snprintf(buf, cap, "%cG%" PRId64 ":%c%d%c", MARK, c->row.id, kind, seat, MARK)
                : snprintf(buf, cap, "%cG%" PRId64 ":%c%c", MARK, c->row.id, kind, MARK);
    if (k < 0 || (size_t)k >= cap)
        buf[0] = '\0';
}

size_t host__live_shown_chars(const char *s)
{
    size_t n = 0;
    bool in_mark = false;
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == (unsigned char)MARK) {
            in_mark = !in_mark;
            if (in_mark && p[1] == 'n') /* a name: FF 'n' <seat> <nick> FF */
                for (p++; p[1] >= '0' && p[1] <= '9'; p++)
                    ;
            continue;
        }
        if ((*p & 0xC0) != 0x80) /* not a UTF-8 continuation byte */
            n++;
    }
    return n;
}

const char *host__live_state_token(void)
{
    return "\xFFs\xFF";
}

/* ------------------------------------------------------------------------ */
/* Reading markers                                                          */

/* A parsed header. */
typedef struct live_head {
    int64_t game;
    char kind; /* E S H P B */
    int seat;  /* H P: the seat; else -1 */
    const char *body;
} live_head;

/* Parses the header of text into *h: true when there is one. */
static bool parse_head(const char *text, live_head *h)
{
    if (text[0] != MARK || text[1] != 'G')
        return false;
    char *end;
    long long id = strtoll(text + 2, &end, 10);
    if (end == text + 2 || *end != ':' || end[1] == '\0' || end[1] == MARK)
        return false;
    h->game = id;
    h->kind = end[1];
    h->seat = -1;
    const char *p = end + 2;
    if (*p >= '0' && *p <= '9')
        h->seat = *p++ - '0';
    if (*p != MARK)
        return false;
    h->body = p + 1;
    return true;
}

/* The game a line is about, as the expander reads it. */
typedef struct live_game {
    bool loaded;
    store_game row;
    store_seat seats[PZ_MAX_PLAYERS];
    int nseats;
    const pz_game *g; /* the host's (host__game_restore), read only */
} live_game;

/* Reads game id; false when the store cannot say (names then fall back
   to those the line was written with, and no state is shown). */
static bool load(host *h, int64_t id, live_game *lg)
{
    memset(lg, 0, sizeof *lg);
    char why[PZ_WHY_MAX];
    if (store_game_get(h->st, id, &lg->row) == 0) {
        lg->loaded = true;
        if (store_seats_get(h->st, id, lg->seats, PZ_MAX_PLAYERS, &lg->nseats) != 0)
            lg->nseats = 0;
    }
    if (lg->loaded && lg->row.state != NULL)
        lg->g = host__game_restore(h, id, lg->row.state, why, sizeof why);
    return lg->loaded;
}

static void unload(live_game *lg)
{
    if (lg->loaded)
        store_game_fini(&lg->row);
    lg->g = NULL;
    lg->loaded = false;
}

/* The names of lg's seats now, for render.h; prefix as given. */
static render_names names_now(const live_game *lg, const char *prefix)
{
    render_names n = {lg->nseats, {NULL}, prefix};
    for (int i = 0; i < lg->nseats && i < PZ_MAX_PLAYERS; i++)
        n.nick[i] = lg->seats[i].nick;
    return n;
}

/* A bounded output buffer. */
typedef struct obuf {
    char s[LIVE_OUT_MAX];
    size_t len;
} obuf;

static void put(obuf *o, const char *s, size_t n)
{
    if (o->len + n >= sizeof o->s)
        n = sizeof o->s - 1 - o->len;
    memcpy(o->s + o->len, s, n);
    o->len += n;
    o->s[o->len] = '\0';
}

static void puts_(obuf *o, const char *s)
{
    put(o, s, strlen(s));
}

/*
 * Appends body to o with its name tokens resolved (the nick now, else the
 * one it was written with) and its state token rendered (when the game's
 * state could be read; else left out). An unfinished token is dropped.
 */
static void expand_body(obuf *o, const char *body, const live_game *lg, const char *prefix)
{
    const char *p = body;
    while (*p != '\0') {
        const char *mark = strchr(p, MARK);
        if (mark == NULL) {
            puts_(o, p);
            return;
        }
        put(o, p, (size_t)(mark - p));
        const char *end = strchr(mark + 1, MARK);
        if (end == NULL)
            return;
        if (mark[1] == 'n' && mark[2] >= '0' && mark[2] <= '9') {
            int seat = mark[2] - '0';
            if (lg->loaded && seat < lg->nseats)
                puts_(o, lg->seats[seat].nick);
            else
                put(o, mark + 3, (size_t)(end - mark - 3));
        } else if (mark[1] == 's' && lg->g != NULL) {
            render_names names = names_now(lg, prefix);
            char status[RENDER_LINE_MAX];
            render_status(lg->g, &names, status, sizeof status);
            puts_(o, status);
        }
        p = end + 1;
    }
}

/* Whether a line of game `game` that tells the state ('E' or 'S') waits
   in the list from m on. */
static bool state_later(const outq_msg *m, int64_t game)
{
    for (; m != NULL; m = m->next) {
        live_head h;
        if (parse_head(m->raw, &h) && h.game == game &&
            (h.kind == 'E' || h.kind == 'D' || h.kind == 'S'))
            return true;
    }
    return false;
}

/* Whether a hand or prompt for the same game and seat waits from m on. */
static bool hand_later(const outq_msg *m, int64_t game, int seat)
{
    for (; m != NULL; m = m->next) {
        live_head h;
        if (parse_head(m->raw, &h) && h.game == game && h.seat == seat &&
            (h.kind == 'H' || h.kind == 'P' || h.kind == 'R'))
            return true;
    }
    return false;
}

/* An 'E' or 'D' line and the 'E' lines of its game right behind it. */
static outq_expand_result expand_events(const outq_msg *m, const live_head *h, const live_game *lg,
                                        const char *prefix, obuf *o, int *merged)
{
    expand_body(o, h->body, lg, prefix);
    const outq_msg *k = m->next;
    for (; k != NULL; k = k->next) {
        live_head kh;
        if (!parse_head(k->raw, &kh) || kh.game != h->game || kh.kind != 'E')
            break;
        obuf next = {{0}, 0};
        expand_body(&next, kh.body, lg, prefix);
        if (o->len + 3 + next.len > LIVE_MERGE_MAX)
            break;
        if (o->len > 0 && next.len > 0)
            puts_(o, " \xC2\xB7 ");
        puts_(o, next.s);
        (*merged)++;
    }
    if (lg->g != NULL && !state_later(k, h->game)) {
        pz_phase ph = pz_get_phase(lg->g);
        if (ph != PZ_PHASE_GAME_OVER && ph != PZ_PHASE_HAND_OVER) {
            if (o->len > 0)
                puts_(o, " \xC2\xB7 ");
            expand_body(o, host__live_state_token(), lg, prefix);
        }
    }
    return o->len > 0 ? OUTQ_EXPAND_TEXT : OUTQ_EXPAND_DROP;
}

/* An 'H' (hand) or 'P' (turn prompt) line for seat, rendered now. What
   the room saw since the seat's last play was written in the room's
   language: told only to a reader of that language (same_lang), so that
   no line mixes two. */
static outq_expand_result expand_hand(const live_head *h, const live_game *lg, bool same_lang,
                                      obuf *o)
{
    pz_view v;
    if (lg->g == NULL || pz_view_seat(lg->g, h->seat, &v) != 0)
        return OUTQ_EXPAND_DROP; /* the game is gone: nothing true to say */
    char line[LIVE_OUT_MAX];
    if (h->kind == 'P' || h->kind == 'R') {
        if (host__game_actor(lg->g) != h->seat)
            return OUTQ_EXPAND_DROP; /* the turn has passed */
        obuf since = {{0}, 0};
        if (same_lang)
            expand_body(&since, h->body, lg, "");
        render_prompt(&v, lg->row.room, since.s, line, sizeof line);
        if (h->kind == 'R')
            puts_(o, _("Reminder: "));
    } else {
        render_hand(&v, lg->row.room, line, sizeof line);
    }
    puts_(o, line);
    return OUTQ_EXPAND_TEXT;
}

outq_expand_result host_expand(void *arg, const outq_msg *m, char **text, int *merged)
{
    host *hst = arg;
    live_head h;
    *merged = 0;
    if (!parse_head(m->raw, &h))
        return OUTQ_EXPAND_ASIS;
    if (h.kind == 'S' && state_later(m->next, h.game))
        return OUTQ_EXPAND_DROP;
    if ((h.kind == 'H' || h.kind == 'P' || h.kind == 'R') && hand_later(m->next, h.game, h.seat))
        return OUTQ_EXPAND_DROP;
    live_game lg;
    load(hst, h.game, &lg);
    /* the room's own when it set one (host_room_prefix: from memory) */
    const char *prefix = m->kind != STORE_MSG_ROOM ? ""
                         : lg.loaded ? host_room_prefix(hst, lg.row.network, m->target)
                                     : hst->prefix;
    /* written in its reader's language: the room's, or the player's own
       (else their game's room's) */
    const char *network = lg.loaded ? lg.row.network : NULL;
    pz_lang lang = network == NULL ? i18n_lang()
                   : m->kind == STORE_MSG_ROOM
                       ? host_room_lang(hst, network, m->target)
                       : host_player_lang(hst, network, m->target, lg.row.room);
    I18N_SCOPE(lang);
    obuf o = {{0}, 0};
    outq_expand_result r;
    if (h.kind == 'E' || h.kind == 'D') {
        r = expand_events(m, &h, &lg, prefix, &o, merged);
    } else if (h.kind == 'H' || h.kind == 'P' || h.kind == 'R') {
        r = expand_hand(&h, &lg,
                        network == NULL || lang == host_room_lang(hst, network, lg.row.room), &o);
    } else {
        expand_body(&o, h.body, &lg, prefix);
        r = OUTQ_EXPAND_TEXT;
    }
    unload(&lg);
    if (r == OUTQ_EXPAND_TEXT) {
        o.len = text_utf8_cut(o.s, o.len);
        *text = strdup(o.s);
        if (*text == NULL)
            r = OUTQ_EXPAND_DROP; /* out of memory: the line is lost, never garbled */
    }
    if (r != OUTQ_EXPAND_TEXT)
        *merged = 0;
    return r;
}
