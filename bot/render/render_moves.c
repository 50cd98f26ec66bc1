/*
 * render_moves.c — what one move would do, as the player who may make it
 * reads it in their list of moves: "7♥ takes 7♣ 8♦: limpia +1", "K♠
 * lays", "4♦ in place +4", "tendido now", "arrange best — +3 in all: tendido in
 * place +2, tendido sets +1", "ronda".
 *
 * Only the move itself is told: the events pz_apply() gave on a copy of
 * the game are read up to the first one that belongs to what follows it
 * (the next deal, the tendido, the hand's end and its card score), so
 * the list never tells a card the player could not see. Not here:
 * which moves are legal or applying them (the engine, the host's
 * cmd/moves.c).
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "render_text.h"

/* A score's reason in the players' words. */
static const char *reason_word(int reason)
{
    static const char *const words[] = {
        [PZ_REASON_PORRAZO] = N_("porrazo"),
        [PZ_REASON_COUNTER_PORRAZO] = N_("counter porrazo"),
        [PZ_REASON_LIMPIA] = N_("limpia"),
        [PZ_REASON_IN_PLACE] = N_("in place"),
        [PZ_REASON_TENDIDO_PLACE] = N_("tendido in place"),
        [PZ_REASON_TENDIDO_SETS] = N_("tendido sets"),
        [PZ_REASON_RONDA] = N_("ronda"),
        [PZ_REASON_RONDINE] = N_("rondine"),
        [PZ_REASON_FOUR] = N_("four of a kind"),
        [PZ_REASON_MISSED_DECLARATION] = N_("missed declaration"),
        [PZ_REASON_CARDS] = N_("cards"),
    };
    return reason >= 0 && (size_t)reason < sizeof words / sizeof words[0] && words[reason] != NULL
               ? _(words[reason])
               : _("points");
}

/* Whether e belongs to what follows the move rather than to the move. */
static bool past_the_move(const pz_event *e)
{
    return e->kind == PZ_EV_DEAL || e->kind == PZ_EV_TENDIDO || e->kind == PZ_EV_LEFTOVER ||
           e->kind == PZ_EV_HAND_END || (e->kind == PZ_EV_SCORE && e->reason == PZ_REASON_CARDS);
}

/* Whether events [from, end) score the porrazo seat left pending. */
static bool settled(const pz_events *ev, int from, int end, int seat)
{
    for (int i = from; i < end; i++)
        if (ev->ev[i].kind == PZ_EV_SCORE && ev->ev[i].seat == seat &&
            (ev->ev[i].reason == PZ_REASON_PORRAZO ||
             ev->ev[i].reason == PZ_REASON_COUNTER_PORRAZO))
            return true;
    return false;
}

/* What the porrazo (or counter porrazo: *counter) left pending in after
   will score when it stands (R6.2, R6.4): the rank's ronda value (rondine
   for a counter), plus a limpia's when the table is left empty (the last
   card the porrazo took). 0 when nothing is pending. */
static int pending_worth(const pz_game *after, bool *counter)
{
    int seat;
    pz_pending_kind kind = pz_get_pending(after, &seat);
    pz_card taken[16], table[PZ_CARDS];
    int n = kind == PZ_PENDING_NONE ? 0 : pz_get_pending_cards(after, taken);
    *counter = kind == PZ_PENDING_COUNTER;
    if (n <= 0)
        return 0;
    int rank = pz_card_rank(taken[0]);
    int worth = *counter ? pz_rondine_value(rank) : pz_ronda_value(rank);
    if (n >= 2 && pz_get_table(after, table) == 0)
        worth += pz_ronda_value(pz_card_rank(taken[*counter ? n - 2 : n - 1]));
    return worth;
}

/* The mode a play was asked with, when the player must say it. */
static const char *chosen_mode(const pz_action *a)
{
    /* TRANSLATORS: the words of "play 4 capture" / "play 4 place" */
    return a->mode == PZ_MODE_CAPTURE ? _(" capture") : a->mode == PZ_MODE_PLACE ? _(" place") : "";
}

void render_outcome(const pz_game *after, const render_names *names, const pz_action *a,
                    const pz_events *ev, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    char card[8], tmp[16];
    switch (a->kind) {
    case PZ_ACT_TENDIDO:
        rtext_addf(&b, "%s", a->now ? _("tendido now") : _("tendido later"));
        return;
    case PZ_ACT_ARRANGE:
        rtext_addf(&b, "%s", _("arrange best"));
        break;
    case PZ_ACT_DECLARE:
        break;
    case PZ_ACT_CLAIM:
        rtext_addf(&b, _("claim %s"), rtext_seat_name(names, a->claimed, tmp));
        break;
    default:
        render_card(a->card, card);
        rtext_addf(&b, "%s%s", card, chosen_mode(a));
        break;
    }
    int side = pz_side_of(after, a->seat);
    int scores = 0, end = 0;
    while (end < ev->n && end < PZ_EVENTS_MAX && !past_the_move(&ev->ev[end]))
        end++;
    for (int i = 0; i < end; i++) {
        const pz_event *e = &ev->ev[i];
        switch (e->kind) {
        case PZ_EV_PLAY:
            if (e->mode == PZ_MODE_PLACE)
                rtext_addf(&b, " %s", _("in place"));
            else if (e->mode == PZ_MODE_LAY)
                rtext_addf(&b, " %s", _("lays"));
            break;
        case PZ_EV_CAPTURE:
            rtext_addf(&b, " %s", _("takes"));
            for (int k = 0; k < e->ncards; k++) {
                render_card(e->cards[k], card);
                rtext_whole(&b, " ", card);
            }
            if (e->pending && !settled(ev, i + 1, end, e->seat)) {
                bool counter;
                int worth = pending_worth(after, &counter);
                /* TRANSLATORS: what the engine records if the next player
                   does not counter: "porrazo pending, +3 if it stands" */
                rtext_addf(&b,
                           counter ? _("%s counter porrazo pending, +%d if it stands")
                                   : _("%s porrazo pending, +%d if it stands"),
                           scores++ == 0 ? ":" : ",", worth);
            }
            break;
        case PZ_EV_DECLARE:
            rtext_addf(&b, "%s%s", b.len > 0 ? " " : "",
                       e->holding == PZ_HOLD_RONDINE ? _("rondine")
                       : e->holding == PZ_HOLD_FOUR  ? _("four of a kind")
                                                     : _("ronda"));
            break;
        case PZ_EV_ARRANGED: {
            /* The total first, its parts (the scores below) after it. */
            int total = 0;
            for (int k = i + 1; k < end; k++)
                if (ev->ev[k].kind == PZ_EV_SCORE && ev->ev[k].seat == a->seat &&
                    (ev->ev[k].reason == PZ_REASON_TENDIDO_PLACE ||
                     ev->ev[k].reason == PZ_REASON_TENDIDO_SETS))
                    total += ev->ev[k].points;
            /* TRANSLATORS: the arrangement's points in all, its parts follow */
            rtext_addf(&b, _(" \xE2\x80\x94 %+d in all"), total);
            break;
        }
        case PZ_EV_SCORE:
            if (e->reason == PZ_REASON_IN_PLACE && e->seat == a->seat) {
                rtext_addf(&b, " +%d", e->points);
            } else if (e->side == side || (e->side < 0 && e->seat == a->seat)) {
                rtext_addf(&b, "%s %s +%d", scores++ == 0 ? ":" : ",", reason_word(e->reason),
                           e->points);
            } /* another side's: told after the move (below) */
            break;
        case PZ_EV_SAN_BENITO:
            rtext_addf(&b, "%s san benito", scores++ == 0 ? ":" : ",");
            break;
        case PZ_EV_GAME_END:
            rtext_addf(&b, " \xE2\x80\x94 %s", e->side == side ? _("you win") : _("the game ends"));
            break;
        default:
            break;
        }
    }
    /* What the move settles for another side: its porrazo counts now. */
    int others = 0;
    for (int i = 0; i < end; i++) {
        const pz_event *e = &ev->ev[i];
        if (e->kind != PZ_EV_SCORE || e->side == side || (e->side < 0 && e->seat == a->seat))
            continue;
        char who[RENDER_LINE_MAX / 2];
        if (e->seat >= 0)
            snprintf(who, sizeof who, "%s", rtext_seat_name(names, e->seat, tmp));
        else
            render_side(after, names, e->side, who, sizeof who);
        rtext_addf(&b, "%s", others++ == 0 ? " (" : ", ");
        /* TRANSLATORS: what a move settles for another player: "then bob's
           porrazo +1" */
        rtext_addf(&b, others == 1 ? _("then %s's %s +%d") : _("%s's %s +%d"), who,
                   reason_word(e->reason), e->points);
    }
    if (others > 0)
        rtext_addf(&b, ")");
}
