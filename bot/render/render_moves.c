/*
 * render_moves.c — what one move would do, as the player who may make it
 * reads it in their list of moves: "7♥ takes 7♣ 8♦: limpia +1", "K♠
 * lays", "4♦ in place +4", "tendido now", "arrange best +3", "ronda".
 *
 * Only the move itself is told: the events pz_apply() gave on a copy of
 * the game are read up to the first one that belongs to what follows it
 * (the next deal, the tendido, the hand's end and its card score), so
 * the list never tells a card the player could not see. Not here:
 * which moves are legal or applying them (the engine, the host's
 * cmd/moves.c).
 */
#include <string.h>

#include "render_text.h"

/* A score's reason in the players' words. */
static const char *reason_word(int reason)
{
    static const char *const words[] = {
        [PZ_REASON_PORRAZO] = "porrazo",
        [PZ_REASON_COUNTER_PORRAZO] = "counter porrazo",
        [PZ_REASON_LIMPIA] = "limpia",
        [PZ_REASON_IN_PLACE] = "in place",
        [PZ_REASON_TENDIDO_PLACE] = "tendido in place",
        [PZ_REASON_TENDIDO_SETS] = "tendido sets",
        [PZ_REASON_RONDA] = "ronda",
        [PZ_REASON_RONDINE] = "rondine",
        [PZ_REASON_FOUR] = "four of a kind",
        [PZ_REASON_MISSED_DECLARATION] = "missed declaration",
        [PZ_REASON_CARDS] = "cards",
    };
    return reason >= 0 && (size_t)reason < sizeof words / sizeof words[0] && words[reason] != NULL
               ? words[reason]
               : "points";
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

/* The mode a play was asked with, when the player must say it. */
static const char *chosen_mode(const pz_action *a)
{
    return a->mode == PZ_MODE_CAPTURE ? " capture" : a->mode == PZ_MODE_PLACE ? " place" : "";
}

void render_outcome(const pz_game *after, const render_names *names, const pz_action *a,
                    const pz_events *ev, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    char card[8], tmp[16];
    switch (a->kind) {
    case PZ_ACT_TENDIDO:
        rtext_addf(&b, "tendido %s", a->now ? "now" : "later");
        return;
    case PZ_ACT_ARRANGE:
        rtext_addf(&b, "arrange best");
        break;
    case PZ_ACT_DECLARE:
        break;
    case PZ_ACT_CLAIM:
        rtext_addf(&b, "claim %s", rtext_seat_name(names, a->claimed, tmp));
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
                rtext_addf(&b, " in place");
            else if (e->mode == PZ_MODE_LAY)
                rtext_addf(&b, " lays");
            break;
        case PZ_EV_CAPTURE:
            rtext_addf(&b, " takes");
            for (int k = 0; k < e->ncards; k++) {
                render_card(e->cards[k], card);
                rtext_whole(&b, " ", card);
            }
            if (e->pending && !settled(ev, i + 1, end, e->seat))
                rtext_addf(&b, "%s porrazo pending", scores++ == 0 ? ":" : ",");
            break;
        case PZ_EV_DECLARE:
            rtext_addf(&b, "%s",
                       e->holding == PZ_HOLD_RONDINE ? "rondine"
                       : e->holding == PZ_HOLD_FOUR  ? "four of a kind"
                                                     : "ronda");
            break;
        case PZ_EV_ARRANGED:
            rtext_addf(&b, " +%d", e->points);
            break;
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
            rtext_addf(&b,
                       e->side == side ? " \xE2\x80\x94 you win" : " \xE2\x80\x94 the game ends");
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
        rtext_addf(&b, "%s", others++ == 0 ? " (then " : ", ");
        if (e->seat >= 0)
            rtext_addf(&b, "%s", rtext_seat_name(names, e->seat, tmp));
        else
            rtext_side(&b, after, names, e->side);
        rtext_addf(&b, "'s %s +%d", reason_word(e->reason), e->points);
    }
    if (others > 0)
        rtext_addf(&b, ")");
}
