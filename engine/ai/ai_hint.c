/*
 * ai_hint.c — a decision explained in numbers (porrazo_ai.h: pzai_why_of,
 * pzai_hint, pzai_sample_game): the points a move scores at once and the
 * chances it leaves the next player on the public table, for the host's
 * hint, practice table and hand's review.
 *
 * Each figure is read from a game sampled from the seat's view and the
 * public record: the move's own events (up to the first that belongs to
 * what follows it: a deal, the tendido, the hand's end) and the table
 * after it, against the cards the seat cannot place. Neither depends on
 * where the hidden cards lie. Not here: the words (the host renders them),
 * choosing (the levels).
 */
#include <stdlib.h>
#include <string.h>

#include "ai_int.h"

/* Whether e belongs to what follows move a rather than to a itself: the
   next deal, the tendido, the hand's end and its card score, a declaration
   (but a's own, when a declares) and a holding scored at the deal's end
   (which holding scores depends on every hand: on a sampled game, the
   sample's). */
static bool past_the_move(const pz_event *e, const pz_action *a, bool *declared)
{
    if (e->kind == PZ_EV_DECLARE) {
        bool own = a->kind == PZ_ACT_DECLARE && e->seat == a->seat && !*declared;
        *declared |= own;
        return !own;
    }
    bool holding =
        e->kind == PZ_EV_SCORE && (e->reason == PZ_REASON_RONDA || e->reason == PZ_REASON_RONDINE ||
                                   e->reason == PZ_REASON_FOUR);
    return e->kind == PZ_EV_DEAL || e->kind == PZ_EV_TENDIDO || e->kind == PZ_EV_LEFTOVER ||
           e->kind == PZ_EV_HAND_END || (e->kind == PZ_EV_SCORE && e->reason == PZ_REASON_CARDS) ||
           holding;
}

int pzai_move_events(const pz_events *ev, const pz_action *a)
{
    int n = 0;
    bool declared = false;
    while (n < ev->n && n < PZ_EVENTS_MAX && !past_the_move(&ev->ev[n], a, &declared))
        n++;
    return n;
}

int pzai_sample_game(const pz_view *v, const pz_record *r, uint64_t seed, pz_game **out)
{
    if (v == NULL || r == NULL || out == NULL)
        return PZ_EINVALID_ACTION;
    pzai_rng rng;
    pzai__rng_seed(&rng, seed ^ UINT64_C(0x68696e7421)); /* not the search's own draws */
    return pzai__sample(v, r, &rng, out);
}

/* a on g: its value for its side from its own events, and the threats to
   the next player after it. 0, or PZ_EINVALID_ACTION when g refuses it. */
static int try_move(const pz_game *g, const pz_action *a, uint64_t unseen, int *value,
                    int t[PZAI_THREATS], int *next, unsigned *made)
{
    pz_game *copy = pz_clone(g);
    pz_events ev;
    if (copy == NULL)
        return PZ_ENO_MEMORY;
    ev.n = 0;
    int deal = pz_get_deal(g);
    if (pz_apply(copy, a, &ev, NULL, 0) != 0) {
        pz_free(copy);
        return PZ_EINVALID_ACTION;
    }
    int side = pz_side_of(g, a->seat);
    *value = 0;
    *made = 0;
    for (int i = 0, end = pzai_move_events(&ev, a); i < end; i++) {
        const pz_event *e = &ev.ev[i];
        if (e->kind == PZ_EV_SCORE)
            *value += e->side == side ? e->points : -e->points;
        if (e->seat != a->seat)
            continue;
        if ((e->kind == PZ_EV_CAPTURE && e->pending) ||
            (e->kind == PZ_EV_SCORE &&
             (e->reason == PZ_REASON_PORRAZO || e->reason == PZ_REASON_COUNTER_PORRAZO)))
            *made |= PZAI_MADE_PORRAZO;
        if (e->kind == PZ_EV_SCORE && e->reason == PZ_REASON_LIMPIA)
            *made |= PZAI_MADE_LIMPIA;
        if (e->kind == PZ_EV_SCORE && e->reason == PZ_REASON_IN_PLACE)
            *made |= PZAI_MADE_IN_PLACE;
    }
    int pseat;
    if (pz_get_pending(copy, &pseat) != PZ_PENDING_NONE && pz_get_deal(copy) == deal)
        *value += pz_side_of(copy, pseat) == side ? pzai__pending_points(copy)
                                                  : -pzai__pending_points(copy);
    *next = -1;
    for (int i = 0; i < PZAI_THREATS; i++)
        t[i] = 0;
    if (a->kind == PZ_ACT_PLAY && pz_get_deal(copy) == deal) {
        int n = pzai__threats(copy, a->seat, unseen, t);
        if (n >= 0 && pz_side_of(copy, n) != side)
            *next = n;
        else
            for (int i = 0; i < PZAI_THREATS; i++)
                t[i] = 0; /* a partner's chance is no risk */
    }
    pz_free(copy);
    return 0;
}

#define RISK_SAMPLES 32 /* sampled deals for the porrazo risk's expectation */

/* Whether seat holds a card of rank in g; *card receives it. */
static bool holds_rank(const pz_game *g, int seat, int rank, pz_card *card)
{
    pz_card hand[PZ_CARDS];
    int n = pz_get_hand(g, seat, hand);
    for (int i = 0; i < n; i++)
        if (pz_card_rank(hand[i]) == rank) {
            *card = hand[i];
            return true;
        }
    return false;
}

/*
 * The porrazo risk of a (pzai_why's risk_* fields): which rank threatens
 * what the move leaves, from the public table after it on g, then how
 * often the next player holds it over sampled deals, and for a counter
 * whether the player after it could then win by a san benito.
 */
static void porrazo_risk(const pz_view *v, const pz_record *r, const pz_game *g, const pz_action *a,
                         uint64_t unseen, uint64_t seed, pzai_why *w)
{
    w->risk_rank = -1;
    if (a->kind != PZ_ACT_PLAY || w->next < 0 || w->porrazo <= 0)
        return;
    pz_game *after = pz_clone(g);
    if (after == NULL || pz_apply(after, a, NULL, NULL, 0) != 0) {
        pz_free(after);
        return;
    }
    int pseat, side = pz_side_of(g, a->seat);
    if (pz_get_pending(after, &pseat) != PZ_PENDING_NONE && pseat == a->seat) {
        pz_card cards[16];
        pz_get_pending_cards(after, cards);
        w->risk_rank = pz_card_rank(cards[0]);
        w->risk_counter = true;
    } else {
        w->risk_rank = pz_card_rank(a->card);
    }
    pz_free(after);
    w->risk_unseen = pzai__count(unseen >> (4 * w->risk_rank) & 15);
    pzai_rng rng;
    pzai__rng_seed(&rng, seed ^ UINT64_C(0x7269736b));
    for (int k = 0; k < RISK_SAMPLES; k++) {
        pz_game *s = NULL;
        if (pzai__sample(v, r, &rng, &s) != 0)
            break;
        pz_card card;
        w->risk_worlds++;
        if (pz_apply(s, a, NULL, NULL, 0) == 0 && holds_rank(s, w->next, w->risk_rank, &card)) {
            w->risk_held++;
            pz_action counter = pz_act_play(w->next, card, PZ_MODE_ANY);
            int then = -1;
            if (pz_apply(s, &counter, NULL, NULL, 0) != 0) { /* a porrazo that could lie in place */
                counter.mode = PZ_MODE_CAPTURE;
                if (pz_apply(s, &counter, NULL, NULL, 0) != 0) {
                    pz_free(s);
                    continue;
                }
            }
            if (pz_get_pending(s, &then) != PZ_PENDING_NONE && then == w->next)
                w->risk_worth = pzai__pending_points(s);
            if (w->risk_counter && pz_get_phase(s) == PZ_PHASE_PLAY &&
                (then = pz_get_turn(s)) >= 0 && pz_side_of(s, then) != side &&
                holds_rank(s, then, w->risk_rank, &card))
                w->risk_lost++;
        }
        pz_free(s);
    }
}

#define TENDIDO_SAMPLES 16 /* sampled deals for the tendido's expected points */

/* The points of ev's tendido scores (its cards in place, the sets they
   make) for side: the arrangement's own, not a holding scored with it. */
static int tendido_points(const pz_events *ev, int side)
{
    int points = 0;
    for (int i = 0; i < ev->n; i++)
        if (ev->ev[i].kind == PZ_EV_SCORE && ev->ev[i].side == side &&
            (ev->ev[i].reason == PZ_REASON_TENDIDO_PLACE ||
             ev->ev[i].reason == PZ_REASON_TENDIDO_SETS))
            points += ev->ev[i].points;
    return points;
}

/* The tendido laid now and arranged at its best: its points at once for
   the seat's side (the arrangement's scores only), on average over
   sampled deals (rounded). */
static int tendido_expected(const pz_view *v, const pz_record *r, uint64_t seed)
{
    pzai_rng rng;
    pzai__rng_seed(&rng, seed ^ UINT64_C(0x74656e6469646f));
    pz_events *ev = malloc(sizeof *ev);
    int total = 0, n = 0;
    for (int k = 0; ev != NULL && k < TENDIDO_SAMPLES; k++) {
        pz_game *g = NULL;
        if (pzai__sample(v, r, &rng, &g) != 0)
            break;
        pz_action now = pz_act_tendido(v->seat, true), best = pz_act_arrange_best(v->seat);
        ev->n = 0;
        if (pz_apply(g, &now, NULL, NULL, 0) == 0 && pz_apply(g, &best, ev, NULL, 0) == 0) {
            total += tendido_points(ev, v->side);
            n++;
        }
        pz_free(g);
    }
    free(ev);
    return n > 0 ? (total + n / 2) / n : 0;
}

int pzai_why_of(const pz_view *v, const pz_record *r, const pz_action *a, uint64_t seed,
                pzai_why *out)
{
    if (v == NULL || r == NULL || a == NULL || out == NULL)
        return PZ_EINVALID_ACTION;
    pz_game *g = NULL;
    int err = pzai_sample_game(v, r, seed, &g);
    if (err != 0)
        return err;
    uint64_t unseen = pzai__unseen(v, r);
    pzai_why w;
    int t[PZAI_THREATS];
    memset(&w, 0, sizeof w);
    err = try_move(g, a, unseen, &w.value, t, &w.next, &w.made);
    if (err == 0) {
        w.porrazo = t[PZAI_THREAT_PORRAZO] + t[PZAI_THREAT_COUNTER];
        w.limpia = t[PZAI_THREAT_LIMPIA];
        w.in_place = t[PZAI_THREAT_IN_PLACE];
        pz_action plays[PZ_LEGAL_MAX];
        int n = a->kind == PZ_ACT_PLAY ? pzai__plays(g, a->seat, plays) : 0;
        for (int i = 0; i < n && err == 0; i++) {
            int value, next;
            unsigned made;
            if (plays[i].card == a->card && plays[i].mode == a->mode)
                continue;
            err = try_move(g, &plays[i], unseen, &value, t, &next, &made);
            int p = t[PZAI_THREAT_PORRAZO] + t[PZAI_THREAT_COUNTER];
            if (p > w.worst_porrazo)
                w.worst_porrazo = p;
            if (t[PZAI_THREAT_LIMPIA] > w.worst_limpia)
                w.worst_limpia = t[PZAI_THREAT_LIMPIA];
        }
    }
    if (err == 0)
        porrazo_risk(v, r, g, a, unseen, seed, &w);
    pz_free(g);
    if (err == 0 && a->kind == PZ_ACT_TENDIDO)
        w.expected = tendido_expected(v, r, seed);
    if (err == 0)
        *out = w;
    return err;
}

/* The hint a's reason, both written to action and why only when the reason
   could be made: 1, or pzai_why_of's error with both untouched. */
static int hint_with_why(const pz_view *v, const pz_record *r, uint64_t seed, const pz_action *a,
                         pz_action *action, pzai_why *why)
{
    pzai_why w;
    int err = pzai_why_of(v, r, a, seed, &w);
    if (err != 0)
        return err;
    *action = *a;
    *why = w;
    return 1;
}

int pzai_hint(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
              pz_action *action, pzai_why *why)
{
    pz_action a;
    int rc = pzai_decide(v, r, PZAI_STRONG, seed, budget, &a);
    if (rc != 1)
        return rc;
    return hint_with_why(v, r, seed, &a, action, why);
}

int pzai_hint_play(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                   pz_action *action, pzai_why *why)
{
    pz_action a;
    int rc = pzai_decide(v, r, PZAI_STRONG, seed, budget, &a); /* checks the inputs too */
    if (rc == 1 && a.kind != PZ_ACT_PLAY)
        rc = v->phase == PZ_PHASE_PLAY && v->turn == v->seat && v->nhand > 0
                 ? pzai__strong(v, r, seed, budget, &a)
                 : 0;
    if (rc != 1)
        return rc;
    return hint_with_why(v, r, seed, &a, action, why);
}
