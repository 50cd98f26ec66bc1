/*
 * play.c — a game under way, by command: players' moves become engine
 * actions (a card by its rank alone, the tendido's row by ranks), the
 * informational commands (hand, table, score, turn) and the votes (pause,
 * resume, stop).
 *
 * Not here: applying and announcing a move (act.c), the lobby (lobby.c),
 * the clock (clock.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hseats.h"
#include "hverbs.h"

/* The card of seat's hand that k names: the exact card, or with the rank
   alone the first of that rank. PZ_NO_CARD when none. */
static pz_card find_card(const ctx *c, int seat, const cmd_card *k)
{
    pz_card hand[PZ_CARDS];
    int n = pz_get_hand(c->g, seat, hand);
    if (k->suit >= 0)
        return pz_card_make(k->rank, k->suit);
    for (int i = 0; i < n; i++)
        if (pz_card_rank(hand[i]) == k->rank)
            return hand[i];
    return PZ_NO_CARD;
}

/*
 * The card of the tendido t (4 cards, used[] those taken) that the row's
 * card k names: the card itself when it has its suit (the Spanish "as"
 * only while the ace of spades lies there); for a rank alone, the one
 * card of that rank not yet taken. PZ_NO_CARD when the tendido has none,
 * and *twice set when it has two or more.
 */
static pz_card tendido_card(const pz_card t[4], const bool used[4], const cmd_card *k, bool *twice)
{
    pz_card named = k->suit >= 0 ? pz_card_make(k->rank, k->suit) : PZ_NO_CARD, found = PZ_NO_CARD;
    int n = 0;
    *twice = false;
    for (int i = 0; i < 4; i++)
        if (t[i] == named && !used[i])
            return named;
    if (k->suit >= 0 && !k->spanish_as)
        return named; /* not in the tendido: the engine says what is */
    for (int i = 0; i < 4; i++)
        if (!used[i] && pz_card_rank(t[i]) == k->rank && n++ == 0)
            found = t[i];
    *twice = n > 1;
    return n == 1 ? found : PZ_NO_CARD;
}

/*
 * Tells the sender that the tendido t has more than one card of the rank
 * of the row's card i, with the row said again with those cards in their
 * places as the example: "the tendido has 4♥ and 4♣: say which 4 goes
 * where, e.g. arrange 4♥ 4♣ 2 7 left".
 */
static void ask_suits(ctx *c, const pz_card t[4], const cmd *k, int i)
{
    char same[100], example[100], card[8];
    pz_card of_rank[4];
    int n = 0, next = 0, rank = k->row[i].rank;
    size_t len = 0;
    for (int j = 0; j < 4; j++)
        if (pz_card_rank(t[j]) == rank)
            of_rank[n++] = t[j];
    render_cards(of_rank, n, same, sizeof same);
    example[0] = '\0';
    for (int j = 0; j < 4; j++) {
        const cmd_card *r = &k->row[j];
        if (r->rank == rank && (r->suit < 0 || r->spanish_as) && next < n)
            render_card(of_rank[next++], card);
        else if (r->suit >= 0)
            render_card(pz_card_make(r->rank, r->suit), card);
        else
            snprintf(card, sizeof card, "%s", host__rank_word(r->rank));
        int w = snprintf(example + len, sizeof example - len, " %s", card);
        if (w > 0 && (size_t)w < sizeof example - len)
            len += (size_t)w;
    }
    /* TRANSLATORS: the last word of an example of the arrange command */
    const char *dir = !k->has_direction ? "" : k->direction == PZ_RTL ? _(" right") : _(" left");
    host__reply(c, N_("the tendido has %s: say which %s goes where, e.g. %sarrange%s%s"), same,
                host__rank_word(rank), host__prompt_prefix(c), example, dir);
}

/*
 * The action of `arrange C C C C [left|right]` by seat: each card of the
 * row as the tendido card it names, the cards with a suit first, then the
 * bare ranks among the cards left (tendido_card). Outside the dealer's
 * arrangement the cards go as said, for the engine to refuse. Returns 0
 * with *a, or -1 after telling the sender which rank the tendido lacks or
 * has more than once.
 */
static int arrangement_of(ctx *c, int seat, const cmd *k, pz_action *a)
{
    pz_card t[4], row[4];
    bool used[4] = {false}, twice, spades_ace = false;
    pz_direction dir = k->has_direction ? k->direction : PZ_LTR;
    char pairs[300];
    if (pz_get_phase(c->g) != PZ_PHASE_ARRANGE || pz_get_dealer(c->g) != seat ||
        pz_get_tendido(c->g, t) != 4) {
        for (int i = 0; i < 4; i++)
            row[i] = pz_card_make(k->row[i].rank, k->row[i].suit < 0 ? 0 : k->row[i].suit);
        *a = pz_act_arrange(seat, row, dir);
        return 0;
    }
    for (int j = 0; j < 4; j++)
        spades_ace |= t[j] == pz_card_make(0, 3);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 4; i++) {
            const cmd_card *r = &k->row[i];
            bool bare = r->suit < 0 || (r->spanish_as && !spades_ace);
            if (bare != (pass == 1))
                continue;
            row[i] = tendido_card(t, used, r, &twice);
            if (row[i] == PZ_NO_CARD && twice) {
                ask_suits(c, t, k, i);
                return -1;
            }
            if (row[i] == PZ_NO_CARD) {
                bool some = false;
                for (int j = 0; j < 4; j++)
                    some |= pz_card_rank(t[j]) == r->rank;
                host__tendido_pairs(c, pairs, sizeof pairs);
                host__reply(c,
                            some ? N_("the tendido has no other %s: its pairs are %s")
                                 : N_("the tendido has no %s: its pairs are %s"),
                            host__rank_word(r->rank), pairs);
                return -1;
            }
            for (int j = 0; j < 4; j++)
                if (t[j] == row[i] && !used[j]) {
                    used[j] = true;
                    break;
                }
        }
    *a = pz_act_arrange(seat, row, dir);
    return 0;
}

/* Checks the game can take a move from the sender; its seat, or -1. */
static int mover_seat(ctx *c)
{
    int seat = host__game_seat_of(c, c->m->sender);
    if (c->row.status == STORE_LOBBY) {
        host__reply(c, N_("the game has not started: %d seated; the creator says %sstart"),
                    c->nseats, host__prefix(c));
        return -1;
    }
    if (c->row.status == STORE_PAUSED) {
        host__reply(c, N_("the game is paused: say %sresume (a majority of players must agree)"),
                    host__prefix(c));
        return -1;
    }
    if (seat < 0)
        host__reply(c, N_("you are not playing in this game"));
    return seat;
}

void host__verb_move(ctx *c, const cmd *k)
{
    int seat = mover_seat(c);
    pz_action a;
    if (seat < 0)
        return;
    switch (k->verb) {
    case CMD_PLAY: {
        pz_card card = find_card(c, seat, &k->card);
        if (pz_get_phase(c->g) != PZ_PHASE_PLAY || pz_get_turn(c->g) != seat) {
            a = pz_act_play(seat, card == PZ_NO_CARD ? 0 : card, k->mode);
            break; /* the engine says whose turn or what phase it is */
        }
        if (card == PZ_NO_CARD) {
            host__refuse_not_held(c, seat, host__rank_word(k->card.rank));
            return;
        }
        a = pz_act_play(seat, card, k->mode);
        break;
    }
    case CMD_TENDIDO:
        a = pz_act_tendido(seat, k->now);
        break;
    case CMD_ARRANGE:
        if (k->best)
            a = pz_act_arrange_best(seat);
        else if (arrangement_of(c, seat, k, &a) != 0)
            return; /* a rank the tendido lacks, or has twice: answered */
        break;
    case CMD_DECLARE:
        a = pz_act_declare(seat);
        break;
    case CMD_CLAIM: {
        int target = host__game_seat_named(c, k->name);
        if (target < 0) {
            host__reply(c, N_("nobody called %s plays here"), k->name);
            return;
        }
        a = pz_act_claim(seat, target);
        break;
    }
    default:
        return;
    }
    host__act(c, &a, NULL);
}

/* ------------------------------------------------------------------------ */
/* Information                                                              */

void host__verb_info(ctx *c, const cmd *k)
{
    live_nicks nb;
    render_names names = host__live_names(c, &nb);
    render_lines lines;
    render_init(&lines);
    char head[48];
    if (c->g == NULL) {
        host__reply(c, N_("the game has not started: %d seated; the creator says %sstart"),
                    c->nseats, host__prefix(c));
        return;
    }
    bool in_room = c->m->room != NULL && c->m->room[0] != '\0';
    switch (k->verb) {
    case CMD_HAND: {
        int seat = host__game_seat_of(c, c->m->sender);
        if (seat < 0) {
            host__reply(c, N_("you are not playing in this game"));
            return;
        }
        host__prompt_hand(c, seat); /* always privately, wherever it was asked */
        return;
    }
    case CMD_SCORE: /* several lines: in the room as they are, else privately */
        render_board(c->g, &names, &lines);
        host__live_header(c, 'B', -1, head, sizeof head);
        for (int i = 0; i < lines.n; i++) {
            if (in_room)
                host__say_room(c, c->m->room, "%s%s", head, lines.line[i]);
            else
                host__say_private(c, c->m->sender, 0, "%s%s%s%s", head, c->row.room, ": ",
                                  lines.line[i]);
        }
        return;
    default:
        /* the state as it is when the answer is sent (a newer line of the
           game waiting in the room makes it needless: it is dropped) */
        host__live_header(c, 'S', -1, head, sizeof head);
        if (in_room)
            host__say_room(c, c->m->room, "%s%s: %s", head, c->m->nick, host__live_state_token());
        else
            host__say_private(c, c->m->sender, 0, "%s%s: %s", head, c->row.room,
                              host__live_state_token());
        return;
    }
}

/* ------------------------------------------------------------------------ */
/* Votes                                                                    */

static int count_votes(unsigned votes)
{
    int n = 0;
    for (; votes != 0; votes &= votes - 1)
        n++;
    return n;
}

/* Records seat's vote for the verb (stop, pause, resume); true when a
   majority of the seats agrees. */
static bool vote(ctx *c, unsigned *votes, int seat, cmd_verb verb)
{
    *votes |= 1u << seat;
    int have = count_votes(*votes), need = c->nseats / 2 + 1;
    if (have >= need)
        return true;
    const char *nick = c->seats[seat].nick;
    if (verb == CMD_STOP)
        host__say_room(c, c->row.room, N_("%s votes to abandon the game (%d of %d needed)."), nick,
                       have, need);
    else if (verb == CMD_PAUSE)
        host__say_room(c, c->row.room, N_("%s votes to pause (%d of %d needed)."), nick, have,
                       need);
    else
        host__say_room(c, c->row.room, N_("%s votes to resume (%d of %d needed)."), nick, have,
                       need);
    host__game_save(c);
    return false;
}

void host__verb_vote(ctx *c, const cmd *k)
{
    int seat = host__game_seat_of(c, c->m->sender);
    bool creator = strcmp(c->row.creator, c->m->sender) == 0;
    bool boss = creator || c->m->moderator || host__is_owner(c, c->m->sender);
    if (k->verb == CMD_STOP && boss) {
        const char *role = creator           ? "its creator"
                           : c->m->moderator ? "a moderator of the room"
                                             : "an owner";
        char by[STORE_ID_MAX + 48];
        snprintf(by, sizeof by, "by %s (%s)", c->m->nick, role);
        const char *p = host__prefix(c);
        const char *room = c->row.room;
        if (c->row.status == STORE_LOBBY)
            host__say_room(
                c, room, N_("The game is abandoned (the table is closed). Say %snew for another."),
                p);
        else if (creator)
            host__say_room(
                c, room,
                N_("The game is abandoned (stopped by its creator). Say %snew for another."), p);
        else if (c->m->moderator)
            host__say_room(
                c, room,
                N_("The game is abandoned (stopped by a moderator of the room). Say %snew "
                   "for another."),
                p);
        else
            host__say_room(
                c, room, N_("The game is abandoned (stopped by an owner). Say %snew for another."),
                p);
        host__stop(c, by);
        return;
    }
    if (seat < 0) {
        host__reply(c, N_("only the players can do that"));
        return;
    }
    if (c->row.status == STORE_LOBBY) {
        host__reply(c, N_("the game has not started"));
        return;
    }
    if (k->verb == CMD_STOP) {
        if (vote(c, &c->set.stop_votes, seat, CMD_STOP)) {
            host__say_room(c, c->row.room,
                           N_("The game is abandoned (by vote). Say %snew for another."),
                           host__prefix(c));
            host__stop(c, "by the players' vote");
        }
    } else if (k->verb == CMD_PAUSE) {
        if (c->row.status == STORE_PAUSED) {
            host__reply(c, N_("the game is already paused"));
        } else if (vote(c, &c->set.pause_votes, seat, CMD_PAUSE)) {
            c->row.status = STORE_PAUSED;
            c->set.pause_votes = c->set.resume_votes = 0;
            host__game_save(c);
            host__say_room(c, c->row.room, N_("The game is paused. Say %sresume to go on."),
                           host__prefix(c));
        }
    } else if (c->row.status != STORE_PAUSED) {
        host__reply(c, N_("the game is not paused"));
    } else if (vote(c, &c->set.resume_votes, seat, CMD_RESUME)) {
        char head[48];
        c->row.status = STORE_PLAYING;
        c->set.pause_votes = c->set.resume_votes = 0;
        host__new_turn(c);
        host__game_save(c);
        host__live_header(c, 'S', -1, head, sizeof head);
        host__say_room(c, c->row.room, N_("%sThe game goes on: %s"), head,
                       host__live_state_token());
        host__prompt_actor(c);
    }
}
