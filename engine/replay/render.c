/*
 * render.c — porrazo-replay's JSON Lines output (shared/spec/REPLAY.md,
 * "Output events").
 *
 * Each line is built in a fixed buffer (struct pzr_line) with its keys in
 * exactly the order of REPLAY.md's table, "event" first, no spaces, then
 * written whole; a line that would not fit is never written cut. It turns
 * engine events and state (read through porrazo.h only) into text and
 * decides nothing about the rules. No JSON library is needed for writing:
 * the only free text is the engine's messages, escaped here.
 */
#include "render.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "values.h" /* PZR_PRINTF */

/*
 * One output line. The longest real line (a "deal" of 52 cards, or an
 * error message of PZ_WHY_MAX bytes escaped six-fold) stays under 2 KB.
 */
#define PZR_LINE_MAX 4096

typedef struct pzr_line {
    size_t len;
    bool cut; /* something did not fit: the line is not written */
    char buf[PZR_LINE_MAX];
} pzr_line;

/* ------------------------------------------------------------------------ */
/* Building a line                                                          */

/* Appends n bytes of s to l, or marks l cut when they do not fit. */
static void put_n(pzr_line *l, const char *s, size_t n)
{
    if (l->cut || n > sizeof l->buf - l->len) {
        l->cut = true;
        return;
    }
    memcpy(l->buf + l->len, s, n);
    l->len += n;
}

/* Appends the NUL-terminated s to l. */
static void put(pzr_line *l, const char *s)
{
    put_n(l, s, strlen(s));
}

/* Appends printf-style text to l, marking l cut if it does not fit. */
static void putf(pzr_line *l, const char *fmt, ...) PZR_PRINTF(2, 3);
static void putf(pzr_line *l, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp)
        l->cut = true;
    else
        put_n(l, tmp, (size_t)n);
}

/*
 * Appends s as a JSON string, quotes included: '"' and '\' escaped,
 * control characters as \n, \r, \t or \u00XX; other bytes (UTF-8) as is.
 * NULL is written as null.
 */
static void put_string(pzr_line *l, const char *s)
{
    if (!s) {
        put(l, "null");
        return;
    }
    put(l, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            putf(l, "\\%c", c);
        else if (c == '\n')
            put(l, "\\n");
        else if (c == '\r')
            put(l, "\\r");
        else if (c == '\t')
            put(l, "\\t");
        else if (c < 0x20 || c == 0x7f)
            putf(l, "\\u%04x", c);
        else
            put_n(l, (const char *)&c, 1);
    }
    put(l, "\"");
}

/* Starts l as {"event":"<event>" — the fields follow, each with key(). */
static void begin(pzr_line *l, const char *event)
{
    l->len = 0;
    l->cut = false;
    put(l, "{\"event\":");
    put_string(l, event);
}

/* Appends ,"k": — the value comes next. */
static void key(pzr_line *l, const char *k)
{
    put(l, ",");
    put_string(l, k);
    put(l, ":");
}

/* Appends ,"k":v */
static void kv_int(pzr_line *l, const char *k, int v)
{
    key(l, k);
    putf(l, "%d", v);
}

/* Appends ,"k":v, or ,"k":null when v is negative (no seat, no turn). */
static void kv_seat(pzr_line *l, const char *k, int v)
{
    key(l, k);
    if (v < 0)
        put(l, "null");
    else
        putf(l, "%d", v);
}

/* Appends ,"k":"word" (a name from porrazo.h). */
static void kv_word(pzr_line *l, const char *k, const char *word)
{
    key(l, k);
    put_string(l, word);
}

/* Appends ,"k":true or false. */
static void kv_bool(pzr_line *l, const char *k, bool v)
{
    key(l, k);
    put(l, v ? "true" : "false");
}

/* Appends card c as a canonical JSON string ("TH"). */
static void put_card(pzr_line *l, pz_card c)
{
    char name[3];
    pz_card_format(c, name);
    put_string(l, name);
}

/* Appends the n cards as a JSON list. */
static void put_cards(pzr_line *l, const pz_card *cards, int n)
{
    put(l, "[");
    for (int i = 0; i < n; i++) {
        if (i > 0)
            put(l, ",");
        put_card(l, cards[i]);
    }
    put(l, "]");
}

/* Appends ,"k":[cards] */
static void kv_cards(pzr_line *l, const char *k, const pz_card *cards, int n)
{
    key(l, k);
    put_cards(l, cards, n);
}

/* Appends ,"k":[v0,v1,...] of n ints. */
static void kv_ints(pzr_line *l, const char *k, const int *v, int n)
{
    key(l, k);
    put(l, "[");
    for (int i = 0; i < n; i++)
        putf(l, i > 0 ? ",%d" : "%d", v[i]);
    put(l, "]");
}

/*
 * Writes l and a newline to out. Returns 0, or -1 when l was cut (it is
 * then not written at all) or the write failed.
 */
static int finish(pzr_line *l, FILE *out)
{
    put(l, "}\n");
    if (l->cut)
        return -1;
    return fwrite(l->buf, 1, l->len, out) == l->len ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* Events                                                                   */

/* Returns n bounded to 0..max (a count read from the engine). */
static int clamp(int n, int max)
{
    return n < 0 ? 0 : n > max ? max : n;
}

/* The card count of e, bounded by its array. */
static int ncards(const pz_event *e)
{
    return clamp(e->ncards, PZ_CARDS);
}

/* Appends ,"k":[values] from the event's per-side values. */
static void kv_values(pzr_line *l, const char *k, const pz_event *e)
{
    int v[PZ_MAX_SIDES];
    int n = clamp(e->nvalues, PZ_MAX_SIDES);
    for (int i = 0; i < n; i++)
        v[i] = e->values[i];
    kv_ints(l, k, v, n);
}

/* deal: dealer, deal, hands (the cards grouped by card_seat, in order). */
static void render_deal(pzr_line *l, const pz_game *g, const pz_event *e)
{
    int players = clamp(pz_get_players(g), PZ_MAX_PLAYERS), n = ncards(e);
    kv_int(l, "dealer", e->dealer);
    kv_int(l, "deal", e->deal);
    key(l, "hands");
    put(l, "[");
    for (int seat = 0; seat < players; seat++) {
        pz_card hand[PZ_CARDS];
        int nhand = 0;
        for (int i = 0; i < n; i++)
            if (e->card_seat[i] == seat)
                hand[nhand++] = e->cards[i];
        put(l, seat > 0 ? "," : "");
        put_cards(l, hand, nhand);
    }
    put(l, "]");
}

/* leftover: cards, seats (null when every card went to the table). */
static void render_leftover(pzr_line *l, const pz_event *e)
{
    int n = ncards(e), seats[PZ_CARDS];
    bool dealt = false;
    kv_cards(l, "cards", e->cards, n);
    for (int i = 0; i < n; i++) {
        seats[i] = e->card_seat[i];
        dealt = dealt || seats[i] >= 0;
    }
    if (dealt) {
        kv_ints(l, "seats", seats, n);
    } else {
        key(l, "seats");
        put(l, "null");
    }
}

/* score: side, seat (or null), reason, points, total. */
static void render_score(pzr_line *l, const pz_event *e)
{
    kv_int(l, "side", e->side);
    kv_seat(l, "seat", e->seat);
    kv_word(l, "reason", pz_reason_name((pz_reason)e->reason));
    kv_int(l, "points", e->points);
    kv_int(l, "total", e->total);
}

/* The events whose fields need no more than a line or two each. */
static void render_simple(pzr_line *l, const pz_event *e)
{
    switch (e->kind) {
    case PZ_EV_TENDIDO:
        kv_int(l, "seat", e->seat);
        kv_cards(l, "cards", e->cards, ncards(e));
        break;
    case PZ_EV_ARRANGED:
        kv_int(l, "seat", e->seat);
        kv_cards(l, "row", e->cards, ncards(e));
        kv_word(l, "direction", pz_direction_name((pz_direction)e->direction));
        kv_int(l, "points", e->points);
        break;
    case PZ_EV_DECLARE:
        kv_int(l, "seat", e->seat);
        kv_word(l, "kind", pz_holding_name((pz_holding_kind)e->holding));
        break;
    case PZ_EV_PLAY:
        kv_int(l, "seat", e->seat);
        key(l, "card");
        put_card(l, e->card);
        kv_word(l, "mode", pz_mode_name((pz_mode)e->mode));
        break;
    case PZ_EV_CAPTURE:
        kv_int(l, "seat", e->seat);
        kv_cards(l, "cards", e->cards, ncards(e));
        kv_bool(l, "pending", e->pending);
        break;
    case PZ_EV_SWEEP:
        kv_int(l, "side", e->side);
        kv_cards(l, "cards", e->cards, ncards(e));
        break;
    case PZ_EV_SAN_BENITO:
        kv_int(l, "seat", e->seat);
        kv_int(l, "side", e->side);
        break;
    case PZ_EV_HAND_END:
        kv_values(l, "piles", e);
        break;
    default: /* PZ_EV_GAME_END; the others are handled by the caller */
        kv_int(l, "winner", e->side);
        kv_word(l, "reason", pz_end_reason_name((pz_end_reason)e->reason));
        kv_values(l, "scores", e);
        break;
    }
}

/* The "event" word of an event kind, or NULL for a kind we do not know. */
static const char *event_name(pz_event_kind k)
{
    static const char *const names[] = {
        [PZ_EV_DEAL] = "deal",         [PZ_EV_TENDIDO] = "tendido",
        [PZ_EV_ARRANGED] = "arranged", [PZ_EV_LEFTOVER] = "leftover",
        [PZ_EV_DECLARE] = "declare",   [PZ_EV_PLAY] = "play",
        [PZ_EV_CAPTURE] = "capture",   [PZ_EV_SCORE] = "score",
        [PZ_EV_SWEEP] = "sweep",       [PZ_EV_SAN_BENITO] = "san_benito",
        [PZ_EV_HAND_END] = "hand_end", [PZ_EV_GAME_END] = "game_end"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : NULL;
}

/* Prints one event as one line; -1 for an unknown kind or a failed write. */
static int print_event(FILE *out, const pz_game *g, const pz_event *e)
{
    pzr_line l;
    const char *name = event_name(e->kind);
    if (!name)
        return -1;
    begin(&l, name);
    if (e->kind == PZ_EV_DEAL)
        render_deal(&l, g, e);
    else if (e->kind == PZ_EV_LEFTOVER)
        render_leftover(&l, e);
    else if (e->kind == PZ_EV_SCORE)
        render_score(&l, e);
    else
        render_simple(&l, e);
    return finish(&l, out);
}

int pzr_print_events(FILE *out, const pz_game *g, const pz_events *ev)
{
    int n = clamp(ev->n, PZ_EVENTS_MAX);
    for (int i = 0; i < n; i++) {
        const pz_event *e = &ev->ev[i];
        if (e->kind == PZ_EV_SCORE && e->points <= 0)
            continue; /* REPLAY.md: a score line only for points > 0 */
        if (print_event(out, g, e) < 0)
            return -1;
    }
    return 0;
}

int pzr_print_error(FILE *out, size_t i, int err, const char *message)
{
    pzr_line l;
    begin(&l, "error");
    key(&l, "action");
    putf(&l, "%zu", i);
    kv_word(&l, "code", pz_err_name(err));
    kv_word(&l, "message", message);
    return finish(&l, out);
}

/* ------------------------------------------------------------------------ */
/* State                                                                    */

/* Appends ,"hands":[[...],...]: every seat's whole hand. */
static void kv_hands(pzr_line *l, const pz_game *g, int players)
{
    key(l, "hands");
    put(l, "[");
    for (int seat = 0; seat < players; seat++) {
        pz_card hand[PZ_CARDS];
        int n = pz_get_hand(g, seat, hand);
        put(l, seat > 0 ? "," : "");
        put_cards(l, hand, n < 0 ? 0 : n);
    }
    put(l, "]");
}

/* Appends ,"pending":null or {"seat":s,"kind":"porrazo"}. */
static void kv_pending(pzr_line *l, const pz_game *g)
{
    int seat = -1;
    pz_pending_kind kind = pz_get_pending(g, &seat);
    key(l, "pending");
    if (kind == PZ_PENDING_NONE) {
        put(l, "null");
        return;
    }
    putf(l, "{\"seat\":%d,\"kind\":", seat);
    put_string(l, pz_pending_name(kind));
    put(l, "}");
}

int pzr_print_state(FILE *out, const pz_game *g)
{
    pzr_line l;
    pz_card table[PZ_CARDS];
    int scores[PZ_MAX_SIDES], piles[PZ_MAX_SIDES];
    int sides = clamp(pz_get_sides(g), PZ_MAX_SIDES);
    int players = clamp(pz_get_players(g), PZ_MAX_PLAYERS);
    for (int s = 0; s < sides; s++) {
        scores[s] = pz_get_score(g, s);
        piles[s] = pz_get_pile(g, s);
    }
    int ntable = pz_get_table(g, table);
    begin(&l, "state");
    kv_word(&l, "phase", pz_phase_name(pz_get_phase(g)));
    kv_int(&l, "dealer", pz_get_dealer(g));
    kv_int(&l, "deal", pz_get_deal(g));
    kv_seat(&l, "turn", pz_get_turn(g));
    kv_ints(&l, "scores", scores, sides);
    kv_cards(&l, "table", table, ntable < 0 ? 0 : ntable);
    kv_hands(&l, g, players);
    kv_ints(&l, "piles", piles, sides);
    kv_int(&l, "stock", pz_get_stock(g));
    kv_pending(&l, g);
    return finish(&l, out);
}
