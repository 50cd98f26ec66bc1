/*
 * render_events.c — Porrazo in words, part two: the public segments of
 * one action's engine events (render_events() of render.h), as the room
 * sees them: one short segment per play ("ann 7♥ takes 7♣ 8♦, limpia +1
 * → 12"), with points, reasons and new totals; the host joins segments
 * with " · " into as few lines as it can.
 *
 * Events that belong together are told together: a play with its capture
 * and its limpia or in-place score, a porrazo with its cards, an
 * arrangement with its tendido scores, a settled porrazo with its limpia.
 * A deal's hands and cards dealt to players are never written; a
 * declaration never shows its rank. Not here: the status line, the board
 * and hands (render.c).
 */
#include <string.h>

#include "i18n.h"
#include "render_text.h"

/* ------------------------------------------------------------------------ */
/* Events                                                                   */

/* What render_events() works with. */
typedef struct ev_ctx {
    const pz_game *g;
    const render_names *names;
    const pz_events *ev;
    render_lines *out;
} ev_ctx;

/* The event at index i, or NULL past the end. */
static const pz_event *ev_at(const ev_ctx *c, int i)
{
    return i >= 0 && i < c->ev->n && i < PZ_EVENTS_MAX ? &c->ev->ev[i] : NULL;
}

/* The event at i if it is a score for `reason` by seat, else NULL. */
static const pz_event *score_at(const ev_ctx *c, int i, pz_reason reason, int seat)
{
    const pz_event *e = ev_at(c, i);
    if (e == NULL || e->kind != PZ_EV_SCORE || e->reason != reason || e->seat != seat)
        return NULL;
    return e;
}

/* Appends the nick of seat. */
static void put_seat(rtext *b, const ev_ctx *c, int seat)
{
    char tmp[16];
    rtext_addf(b, "%s", rtext_seat_name(c->names, seat, tmp));
}

/* The nick of seat (see rtext_seat_name). */
static const char *seat_name(const ev_ctx *c, int seat, char tmp[16])
{
    return rtext_seat_name(c->names, seat, tmp);
}

/* The name of side into buf[RENDER_LINE_MAX / 2]. */
static const char *side_name(const ev_ctx *c, int side, char *buf)
{
    render_side(c->g, c->names, side, buf, RENDER_LINE_MAX / 2);
    return buf;
}

/* Appends " → total" (one player a side: their own) or " → SIDE total"
   (partners), the side's new total after a score. */
static void put_total(rtext *b, const ev_ctx *c, int side, int total)
{
    rtext_addf(b, " \xE2\x86\x92 ");
    if (pz_get_options(c->g)->partnerships) {
        rtext_side(b, c->g, c->names, side);
        rtext_addf(b, " ");
    }
    rtext_addf(b, "%d", total);
}

/* DEAL: which deal of the hand (and at the first, who deals); the hands
   are never shown. */
static int ev_deal(const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    if (e->deal == 1) {
        char tmp[16];
        rtext_addf(&b, _("New hand: deal 1 of %d, %s deals; hands sent privately"),
                   pz_get_deals_per_hand(c->g), seat_name(c, e->dealer, tmp));
    } else { /* the hand's dealer and where hands go were told at its first deal */
        rtext_addf(&b, _("Deal %d of %d"), e->deal, pz_get_deals_per_hand(c->g));
    }
    rtext_line(c->out, &b);
    return 1;
}

/* TENDIDO: the four cards are laid face up (R4.1). Their pairs are told
   once, by the state that follows ("bob arranges the tendido 4♥ 2♣ |
   3♦ 7♠: ...") or by the arrangement's line. */
static int ev_tendido(const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    char tmp[16];
    rtext_addf(&b, _("%s lays the tendido face up"), seat_name(c, e->seat, tmp));
    rtext_line(c->out, &b);
    return 1;
}

/* Appends the cards of an arranged row that lie in place (R4.3). */
static void put_in_place(rtext *b, const pz_event *e)
{
    int found = 0;
    for (int k = 0; k < e->ncards && k < 4; k++) {
        int pos = e->direction == PZ_LTR ? k + 1 : 4 - k;
        if (pz_card_rank(e->cards[k]) + 1 != pos)
            continue;
        char card[8];
        render_card(e->cards[k], card);
        rtext_whole(b, found++ > 0 ? " " : "", card);
    }
}

/*
 * The most points in place (R4.3) of the tendido laid as row: its pairs
 * (cards 1-2 and 3-4) either way round, either pair on the left, counted
 * from either end. Sets (R4.4) do not depend on the row.
 */
static int best_place_points(const pz_card row[4])
{
    int best = 0;
    for (int k = 0; k < 8; k++) {
        pz_card a0 = row[k & 1 ? 1 : 0], a1 = row[k & 1 ? 0 : 1];
        pz_card b0 = row[k & 2 ? 3 : 2], b1 = row[k & 2 ? 2 : 3];
        pz_card r[4] = {a0, a1, b0, b1};
        if (k & 4) {
            pz_card swapped[4] = {b0, b1, a0, a1};
            memcpy(r, swapped, sizeof r);
        }
        for (int d = 0; d < 2; d++) {
            int pts = pz_tendido_place_points(r, d == 0 ? PZ_LTR : PZ_RTL);
            if (pts > best)
                best = pts;
        }
    }
    return best;
}

/* ARRANGED and its tendido_place / tendido_sets scores (R4.3, R4.4), and
   what the best row would have scored when this one scored less. */
static int ev_arranged(const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    const pz_event *place = score_at(c, i + 1, PZ_REASON_TENDIDO_PLACE, e->seat);
    const pz_event *sets = score_at(c, i + 1 + (place != NULL), PZ_REASON_TENDIDO_SETS, e->seat);
    const pz_event *last = sets != NULL ? sets : place;
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    char tmp[16], row[40];
    render_cards(e->cards, e->ncards, row, sizeof row);
    if (e->direction == PZ_LTR)
        rtext_addf(&b, _("%s arranges %s left to right: "), seat_name(c, e->seat, tmp), row);
    else
        rtext_addf(&b, _("%s arranges %s right to left: "), seat_name(c, e->seat, tmp), row);
    if (place != NULL) {
        char in_place[40];
        rtext p;
        rtext_init(&p, in_place, sizeof in_place);
        put_in_place(&p, e);
        rtext_addf(&b, _("%s in place +%d"), in_place, place->points);
        rtext_addf(&b, "%s", sets != NULL ? ", " : "");
    }
    if (sets != NULL)
        rtext_addf(&b, _("sets +%d"), sets->points);
    if (last != NULL)
        put_total(&b, c, last->side, last->total);
    else
        rtext_addf(&b, "%s", _("no points"));
    int got = place != NULL ? place->points : 0;
    int best = e->ncards == 4 ? best_place_points(e->cards) : 0;
    if (best > got) {
        rtext_addf(&b, " ");
        rtext_addf(&b, _("(the best row would have scored %d)"),
                   best + (sets != NULL ? sets->points : 0));
    }
    rtext_line(c->out, &b);
    return 1 + (place != NULL) + (sets != NULL);
}

/* LEFTOVER on the table (face up: shown) or dealt (private: counted). */
static int ev_leftover(const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    int per_seat[PZ_MAX_PLAYERS] = {0};
    pz_card table[PZ_CARDS];
    int ntable = 0;
    for (int k = 0; k < e->ncards; k++) {
        if (e->card_seat[k] >= 0 && e->card_seat[k] < PZ_MAX_PLAYERS)
            per_seat[e->card_seat[k]]++;
        else
            table[ntable++] = e->cards[k];
    }
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    if (ntable > 0) {
        char cards[RENDER_LINE_MAX / 2];
        render_cards_sorted(table, ntable, cards, sizeof cards);
        rtext_addf(&b,
                   P_("the %d leftover card goes face up to the table: %s",
                      "the %d leftover cards go face up to the table: %s", ntable),
                   ntable, cards);
        rtext_line(c->out, &b);
        rtext_init(&b, line, sizeof line);
    }
    if (ntable == e->ncards)
        return 1;
    rtext_addf(&b,
               P_("the %d leftover card is dealt:", "the %d leftover cards are dealt:",
                  e->ncards - ntable),
               e->ncards - ntable);
    int players = pz_get_players(c->g);
    for (int k = 1, listed = 0; k <= players; k++) {
        int s = (e->dealer + k) % players;
        if (per_seat[s] == 0)
            continue;
        rtext_addf(&b, "%s ", listed++ > 0 ? "," : "");
        put_seat(&b, c, s);
        rtext_addf(&b, " +%d", per_seat[s]);
    }
    rtext_addf(&b, " %s", _("(privately)"));
    rtext_line(c->out, &b);
    return 1;
}

/* DECLARE: the kind of holding, never its rank (R3.2). */
static int ev_declare(const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    char line[RENDER_LINE_MAX], tmp[16];
    rtext b;
    rtext_init(&b, line, sizeof line);
    const char *who = seat_name(c, e->seat, tmp);
    if (e->holding == PZ_HOLD_RONDINE)
        rtext_addf(&b, _("%s declares a rondine"), who);
    else if (e->holding == PZ_HOLD_FOUR)
        rtext_addf(&b, _("%s declares four of a kind"), who);
    else
        rtext_addf(&b, _("%s declares a ronda"), who);
    rtext_line(c->out, &b);
    return 1;
}

/*
 * Appends a porrazo or counter porrazo (R6.1, R6.2) by the player of e.
 * The previous play was by the seat to the right: in a dealt game every
 * hand holds the same count, or (R2.4 deal) the extra cards sit together
 * from the dealer's left, so nobody in between is ever skipped (R2.5).
 */
static void put_porrazo(rtext *b, const ev_ctx *c, const pz_event *play, const pz_event *cap,
                        bool settled)
{
    int players = pz_get_players(c->g);
    int prev = (play->seat + players - 1) % players;
    int r = pz_card_rank(play->card);
    bool counter =
        cap->ncards >= 2 && pz_card_rank(cap->cards[0]) == r && pz_card_rank(cap->cards[1]) == r;
    char card[8], tmp[16], cards[RENDER_LINE_MAX / 2];
    render_cards(cap->cards, cap->ncards, cards, sizeof cards);
    rtext_addf(b, " ");
    if (counter) {
        rtext_addf(b, _("COUNTER PORRAZO! takes %s's porrazo %s"), seat_name(c, prev, tmp), cards);
        if (!settled) {
            rtext_addf(b, " ");
            rtext_addf(b, _("(a fourth %s would be a san benito!)"), rtext_rank_word(r));
        }
    } else {
        render_card(cap->ncards > 0 ? cap->cards[0] : PZ_NO_CARD, card);
        rtext_addf(b, _("PORRAZO on %s's %s! takes %s"), seat_name(c, prev, tmp), card, cards);
        if (!settled)
            rtext_addf(b, " %s", _("(stands unless countered)"));
    }
}

/* PLAY + CAPTURE (+ its limpia score), a plain capture or a porrazo. */
static int ev_capture(const ev_ctx *c, int i, rtext *b)
{
    const pz_event *play = ev_at(c, i);
    const pz_event *cap = ev_at(c, i + 1);
    if (cap->pending) {
        bool settled = score_at(c, i + 2, PZ_REASON_PORRAZO, play->seat) != NULL ||
                       score_at(c, i + 2, PZ_REASON_COUNTER_PORRAZO, play->seat) != NULL;
        put_porrazo(b, c, play, cap, settled);
        return 2;
    }
    char cards[RENDER_LINE_MAX / 2];
    render_cards(cap->cards, cap->ncards, cards, sizeof cards);
    rtext_addf(b, " ");
    rtext_addf(b, _("takes %s"), cards);
    const pz_event *limpia = score_at(c, i + 2, PZ_REASON_LIMPIA, play->seat);
    if (limpia == NULL)
        return 2;
    rtext_addf(b, ", ");
    rtext_addf(b, _("limpia +%d"), limpia->points);
    put_total(b, c, limpia->side, limpia->total);
    return 3;
}

/* PLAY and what belongs to it: capture, porrazo, san benito, in place. */
static int ev_play(const ev_ctx *c, int i)
{
    const pz_event *play = ev_at(c, i);
    const pz_event *next = ev_at(c, i + 1);
    int used = 1;
    char line[RENDER_LINE_MAX], card[8];
    rtext b;
    rtext_init(&b, line, sizeof line);
    render_card(play->card, card);
    put_seat(&b, c, play->seat);
    rtext_addf(&b, " %s", card);
    if (next != NULL && next->kind == PZ_EV_CAPTURE && next->seat == play->seat) {
        used = ev_capture(c, i, &b);
    } else if (next != NULL && next->kind == PZ_EV_SAN_BENITO) {
        char side[RENDER_LINE_MAX / 2];
        rtext_addf(&b, " ");
        /* TRANSLATORS: the side, then "wins" or "win" */
        rtext_addf(&b, _("SAN BENITO!! %s %s the game!"), side_name(c, next->side, side),
                   rtext_wins_word(c->g));
        used = 2;
    } else if (play->mode == PZ_MODE_PLACE) {
        const pz_event *s = score_at(c, i + 1, PZ_REASON_IN_PLACE, play->seat);
        rtext_addf(&b, " %s", _("in place"));
        if (s != NULL) {
            rtext_addf(&b, " +%d", s->points);
            put_total(&b, c, s->side, s->total);
            used = 2;
        }
    }
    rtext_line(c->out, &b);
    return used;
}

/* The cards score (R7.2): every side's won cards, then the points. */
static void put_cards_score(rtext *b, const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    const pz_event *end = ev_at(c, i + 1);
    bool has_piles = end != NULL && end->kind == PZ_EV_HAND_END;
    rtext_addf(b, "%s ", _("cards won:"));
    for (int s = 0; s < pz_get_sides(c->g); s++) {
        int pile = has_piles && s < end->nvalues ? end->values[s] : pz_get_pile(c->g, s);
        rtext_addf(b, "%s", s > 0 ? ", " : "");
        rtext_side(b, c->g, c->names, s);
        rtext_addf(b, " %d", pile);
    }
    char side[RENDER_LINE_MAX / 2];
    rtext_addf(b, ", ");
    if (pz_get_options(c->g)->card_score == PZ_CARD_SCORE_EXCESS26)
        rtext_addf(b, _("so %s +%d over 26"), side_name(c, e->side, side), e->points);
    else
        rtext_addf(b, _("so %s +%d"), side_name(c, e->side, side), e->points);
}

/* Appends the sentence of a score for reason r: the nick, the points. */
static void put_score(rtext *b, pz_reason r, const char *who, int points)
{
    switch (r) {
    case PZ_REASON_RONDA:
        rtext_addf(b, _("%s's ronda scores +%d"), who, points);
        return;
    case PZ_REASON_RONDINE:
        rtext_addf(b, _("%s's rondine scores +%d"), who, points);
        return;
    case PZ_REASON_FOUR:
        rtext_addf(b, _("%s's four of a kind scores +%d"), who, points);
        return;
    case PZ_REASON_MISSED_DECLARATION:
        rtext_addf(b, _("%s's claim is upheld (a missed declaration): +%d"), who, points);
        return;
    case PZ_REASON_LIMPIA:
        rtext_addf(b, _("%s scores a limpia: +%d"), who, points);
        return;
    case PZ_REASON_IN_PLACE:
        rtext_addf(b, _("%s scores in place: +%d"), who, points);
        return;
    case PZ_REASON_TENDIDO_PLACE:
    case PZ_REASON_TENDIDO_SETS:
        rtext_addf(b, _("%s's tendido scores +%d"), who, points);
        return;
    default:
        rtext_addf(b, _("%s scores +%d"), who, points);
        return;
    }
}

/* SCORE lines not told with their play: settlements, R3, claims, cards. */
static int ev_score(const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    const pz_event *last = e;
    int used = 1;
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    if (e->reason == PZ_REASON_CARDS) {
        put_cards_score(&b, c, i);
    } else if (e->reason == PZ_REASON_PORRAZO || e->reason == PZ_REASON_COUNTER_PORRAZO) {
        const pz_event *limpia = score_at(c, i + 1, PZ_REASON_LIMPIA, e->seat);
        char tmp[16];
        if (e->reason == PZ_REASON_COUNTER_PORRAZO)
            rtext_addf(&b, _("%s's counter porrazo stands: +%d"), seat_name(c, e->seat, tmp),
                       e->points);
        else
            rtext_addf(&b, _("%s's porrazo stands: +%d"), seat_name(c, e->seat, tmp), e->points);
        if (limpia != NULL) {
            rtext_addf(&b, ", ");
            rtext_addf(&b, _("+%d limpia"), limpia->points);
            last = limpia;
            used = 2;
        }
    } else {
        char tmp[16];
        put_score(&b, (pz_reason)e->reason, seat_name(c, e->seat, tmp), e->points);
    }
    put_total(&b, c, last->side, last->total);
    rtext_line(c->out, &b);
    return used;
}

/* SWEEP (R7.1): the cards left on the table and who gets them. */
static int ev_sweep(const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    char side[RENDER_LINE_MAX / 2], cards[RENDER_LINE_MAX / 2];
    render_cards_sorted(e->cards, e->ncards, cards, sizeof cards);
    side_name(c, e->side, side);
    if (e->ncards == 1)
        rtext_addf(&b, _("the last card goes to %s: %s"), side, cards);
    else
        rtext_addf(&b, _("the last %d cards go to %s: %s"), e->ncards, side, cards);
    rtext_line(c->out, &b);
    return 1;
}

/* Appends "SIDE n, SIDE n" for the values of e, skipping side `skip`. */
static void put_side_values(rtext *b, const ev_ctx *c, const pz_event *e, int skip)
{
    for (int s = 0, listed = 0; s < e->nvalues && s < PZ_MAX_SIDES; s++) {
        if (s == skip)
            continue;
        rtext_addf(b, "%s", listed++ > 0 ? ", " : "");
        rtext_side(b, c->g, c->names, s);
        rtext_addf(b, " %d", e->values[s]);
    }
}

/* HAND_END: told by the card score just before it ("cards won: ..."),
   and by the board that follows; said here only when there was no card
   score (a game won before it). */
static int ev_hand_end(const ev_ctx *c, int i)
{
    const pz_event *prev = ev_at(c, i - 1);
    if (prev != NULL && prev->kind == PZ_EV_SCORE && prev->reason == PZ_REASON_CARDS)
        return 1;
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    char values[RENDER_LINE_MAX / 2];
    rtext v;
    rtext_init(&v, values, sizeof values);
    put_side_values(&v, c, ev_at(c, i), -1);
    rtext_addf(&b, _("the hand is over (cards won: %s)"), values);
    rtext_line(c->out, &b);
    return 1;
}

/* GAME_END: the winner and the final scores (R8.2, R6.3). */
static int ev_game_end(const ev_ctx *c, int i)
{
    const pz_event *e = ev_at(c, i);
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    char side[RENDER_LINE_MAX / 2], values[RENDER_LINE_MAX / 2];
    rtext v;
    rtext_init(&v, values, sizeof values);
    rtext_addf(&b, "\xF0\x9F\x8F\x86 ");
    side_name(c, e->side, side);
    const char *wins = rtext_wins_word(c->g);
    int own = e->side >= 0 && e->side < e->nvalues ? e->values[e->side] : 0;
    /* TRANSLATORS: the winning side, then "wins" or "win" */
    if (e->reason == PZ_END_SAN_BENITO) {
        put_side_values(&v, c, e, -1);
        rtext_addf(&b, _("%s %s by san benito! (%s)"), side, wins, values);
    } else if (e->nvalues == 2) {
        rtext_addf(&b, _("%s %s, %d to %d!"), side, wins, own, e->values[1 - e->side]);
    } else {
        put_side_values(&v, c, e, e->side);
        rtext_addf(&b, _("%s %s with %d! (%s)"), side, wins, own, values);
    }
    rtext_line(c->out, &b);
    return 1;
}

/* Renders the events from index i; returns how many it told. */
static int ev_one(const ev_ctx *c, int i)
{
    switch (ev_at(c, i)->kind) {
    case PZ_EV_DEAL:
        return ev_deal(c, i);
    case PZ_EV_TENDIDO:
        return ev_tendido(c, i);
    case PZ_EV_ARRANGED:
        return ev_arranged(c, i);
    case PZ_EV_LEFTOVER:
        return ev_leftover(c, i);
    case PZ_EV_DECLARE:
        return ev_declare(c, i);
    case PZ_EV_PLAY:
        return ev_play(c, i);
    case PZ_EV_SCORE:
        return ev_score(c, i);
    case PZ_EV_SWEEP:
        return ev_sweep(c, i);
    case PZ_EV_HAND_END:
        return ev_hand_end(c, i);
    case PZ_EV_GAME_END:
        return ev_game_end(c, i);
    default:
        return 1; /* CAPTURE and SAN_BENITO are told with their PLAY */
    }
}

/* Appends the public lines of the events in ev (render.h); after is the
   game after the action, for names, sides and the count of deals. */
void render_events(const pz_game *after, const render_names *names, const pz_events *ev,
                   render_lines *out)
{
    ev_ctx c = {after, names, ev, out};
    for (int i = 0; i < ev->n && i < PZ_EVENTS_MAX;)
        i += ev_one(&c, i);
}
