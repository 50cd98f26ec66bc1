/*
 * play.c — a game under way: players' commands become engine actions,
 * and what each action did is logged (REPLAY.md's action JSON), announced
 * in the room, counted in the statistics, and followed by private hands
 * and the prompt of the seat to act. Also the informational commands
 * (hand, table, score, turn) and the votes (pause, resume, stop).
 *
 * Not here: the lobby (lobby.c), the clock (timers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_int.h"

/* ------------------------------------------------------------------------ */
/* The action log                                                           */

/* Writes a as REPLAY.md's action JSON; 0, or -1 when it does not fit. */
static int action_json(const pz_action *a, char *buf, size_t cap)
{
    char c[3], row[4][3];
    int n;
    switch (a->kind) {
    case PZ_ACT_PLAY:
        pz_card_format(a->card, c);
        if (a->mode == PZ_MODE_ANY)
            n = snprintf(buf, cap, "{\"seat\":%d,\"play\":\"%s\"}", a->seat, c);
        else
            n = snprintf(buf, cap, "{\"seat\":%d,\"play\":\"%s\",\"mode\":\"%s\"}", a->seat, c,
                         pz_mode_name(a->mode));
        break;
    case PZ_ACT_TENDIDO:
        n = snprintf(buf, cap, "{\"seat\":%d,\"tendido\":\"%s\"}", a->seat,
                     a->now ? "now" : "later");
        break;
    case PZ_ACT_ARRANGE:
        if (a->best) {
            n = snprintf(buf, cap, "{\"seat\":%d,\"arrange\":\"best\"}", a->seat);
            break;
        }
        for (int i = 0; i < 4; i++)
            pz_card_format(a->row[i], row[i]);
        n = snprintf(buf, cap,
                     "{\"seat\":%d,\"arrange\":[\"%s\",\"%s\",\"%s\",\"%s\"],\"direction\":\"%s\"}",
                     a->seat, row[0], row[1], row[2], row[3], pz_direction_name(a->direction));
        break;
    case PZ_ACT_DECLARE:
        n = snprintf(buf, cap, "{\"seat\":%d,\"declare\":true}", a->seat);
        break;
    case PZ_ACT_CLAIM:
        n = snprintf(buf, cap, "{\"seat\":%d,\"claim\":%d}", a->seat, a->claimed);
        break;
    default:
        n = snprintf(buf, cap, "{\"next_hand\":true}");
        break;
    }
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* Appends a to the game's action log. */
static void log_action(ctx *c, const pz_action *a)
{
    char json[200];
    int n = 0, err;
    if (c->failed)
        return;
    if (action_json(a, json, sizeof json) != 0 ||
        (err = store_action_count(c->h->st, c->row.id, &n)) != 0 ||
        (err = store_action_append(c->h->st, c->row.id, n, json, c->now)) != 0)
        store_failed(c, -1);
}

/* ------------------------------------------------------------------------ */
/* Statistics                                                               */

static void add_stats(ctx *c, int seat, store_stats *d)
{
    if (c->failed || seat < 0 || seat >= c->nseats)
        return;
    snprintf(d->player, sizeof d->player, "%s", c->seats[seat].player);
    snprintf(d->nick, sizeof d->nick, "%s", c->seats[seat].nick);
    int err = store_stats_add(c->h->st, c->network, c->row.room, d);
    if (err != 0)
        store_failed(c, err);
}

/* Points, porrazos, limpias and san benitos of one action's events. */
static void count_events(ctx *c, const pz_events *ev)
{
    for (int i = 0; i < ev->n; i++) {
        const pz_event *e = &ev->ev[i];
        store_stats d = {0};
        if (e->kind == PZ_EV_SAN_BENITO) {
            d.san_benitos = 1;
            add_stats(c, e->seat, &d);
        } else if (e->kind == PZ_EV_SCORE && e->seat >= 0) {
            d.points = e->points;
            d.porrazos = e->reason == PZ_REASON_PORRAZO || e->reason == PZ_REASON_COUNTER_PORRAZO;
            d.limpias = e->reason == PZ_REASON_LIMPIA;
            add_stats(c, e->seat, &d);
        }
    }
}

/* The game is won: status, and a game (and maybe a win) for everyone. */
static void finish_game(ctx *c)
{
    int winner = pz_get_winner(c->g);
    c->row.status = STORE_FINISHED;
    c->row.winner = winner;
    for (int s = 0; s < c->nseats; s++) {
        store_stats d = {0};
        d.games = 1;
        d.wins = pz_side_of(c->g, s) == winner;
        add_stats(c, s, &d);
    }
}

/* ------------------------------------------------------------------------ */
/* Announcing                                                               */

void new_turn(ctx *c)
{
    c->row.turn_since = c->now;
    c->row.reminded = 0;
    c->set.reminders = 0;
}

/* Sends seat its hand (or the R4.2 notice) privately. */
static void send_hand(ctx *c, int seat)
{
    pz_view v;
    char line[RENDER_LINE_MAX];
    if (c->g == NULL || pz_view_seat(c->g, seat, &v) != 0)
        return;
    render_hand(&v, c->row.room, line, sizeof line);
    say_private(c, c->seats[seat].player, 1, "%s", line);
}

void prompt_actor(ctx *c)
{
    int seat = c->g != NULL ? pz_get_turn(c->g) : -1;
    if (seat >= 0)
        send_hand(c, seat);
}

static bool has_event(const pz_events *ev, pz_event_kind k)
{
    for (int i = 0; i < ev->n; i++)
        if (ev->ev[i].kind == k)
            return true;
    return false;
}

/* Deals the next hand at once when one ends (R2.1). */
static void deal_next_hand(ctx *c)
{
    pz_action nh = pz_act_next_hand(NULL);
    pz_events ev = {0};
    if (pz_apply(c->g, &nh, &ev, NULL, 0) != 0) {
        store_failed(c, -1);
        return;
    }
    log_action(c, &nh);
    announce(c, &nh, &ev, NULL);
}

void announce(ctx *c, const pz_action *a, const pz_events *ev, const char *forced)
{
    render_names names = names_of(c);
    render_lines lines = {0};
    bool dealt = has_event(ev, PZ_EV_DEAL);
    bool over = pz_get_phase(c->g) == PZ_PHASE_GAME_OVER;
    if (forced != NULL)
        render_add(&lines, "%s's time ran out: %s plays for them.", forced, c->h->bot_name);
    render_events(c->g, &names, ev, &lines);
    count_events(c, ev);
    /* The board after every deal that ended and every hand (not the first deal). */
    if (over || has_event(ev, PZ_EV_HAND_END) ||
        (dealt && a != NULL && a->kind != PZ_ACT_NEXT_HAND))
        render_board(c->g, &names, &lines);
    if (!over && pz_get_phase(c->g) != PZ_PHASE_HAND_OVER) {
        char status[RENDER_LINE_MAX];
        render_status(c->g, &names, status, sizeof status);
        render_add(&lines, "%s", status);
    }
    say_lines(c, &lines);
    if (over) {
        finish_game(c);
        save_game(c);
        return;
    }
    if (pz_get_phase(c->g) == PZ_PHASE_HAND_OVER) {
        deal_next_hand(c);
        return;
    }
    if (dealt) {
        for (int s = 0; s < c->nseats; s++)
            send_hand(c, s);
    } else {
        /* R4.2: the dealer's new hand, held back until the choice */
        int dealer = pz_get_dealer(c->g);
        if (a != NULL && a->kind == PZ_ACT_TENDIDO && pz_get_turn(c->g) != dealer)
            send_hand(c, dealer);
        prompt_actor(c);
    }
    save_game(c);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

/* A refused action, explained to the sender in the room's words. */
static void explain(ctx *c, int err, const char *why, const pz_action *a)
{
    render_names names = names_of(c);
    char status[RENDER_LINE_MAX], card[8], hand[200];
    pz_card cards[PZ_CARDS];
    int turn = pz_get_turn(c->g);
    switch (err) {
    case PZ_ENOT_YOUR_TURN:
        reply(c, "it is %s's turn, not yours", turn >= 0 ? c->seats[turn].nick : "nobody");
        return;
    case PZ_ECARD_NOT_IN_HAND: /* the hand goes privately, never to the room */
        render_card(a->card, card);
        render_cards(cards, pz_get_hand(c->g, a->seat, cards), hand, sizeof hand);
        say_private(c, c->m->sender, 1, "you do not hold %s (your hand: %s)", card, hand);
        return;
    case PZ_ECHOICE_REQUIRED:
        render_card(a->card, card);
        reply(c,
              "%s can capture or be played in place for %d points: say play %s capture, or "
              "play %s place",
              card, pz_card_rank(a->card) + 1, card, card);
        return;
    case PZ_EWRONG_PHASE:
    case PZ_ENOT_DEALER:
        render_status(c->g, &names, status, sizeof status);
        reply(c, "not now — %s", status);
        return;
    default:
        reply(c, "%s", why);
        return;
    }
}

int act(ctx *c, const pz_action *a, const char *forced)
{
    char why[PZ_WHY_MAX] = "";
    pz_events ev = {0};
    int before = pz_get_turn(c->g);
    int err = pz_apply(c->g, a, &ev, why, sizeof why);
    if (err != 0) {
        explain(c, err, why, a);
        return err;
    }
    log_action(c, a);
    if (pz_get_turn(c->g) != before || forced != NULL)
        new_turn(c);
    announce(c, a, &ev, forced);
    return 0;
}

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

/* Checks the game can take a move from the sender; its seat, or -1. */
static int mover_seat(ctx *c)
{
    int seat = seat_of(c, c->m->sender);
    if (c->row.status == STORE_LOBBY) {
        reply(c, "the game has not started: %d seated; the creator says %sstart", c->nseats,
              c->h->prefix);
        return -1;
    }
    if (c->row.status == STORE_PAUSED) {
        reply(c, "the game is paused: say %sresume (a majority of players must agree)",
              c->h->prefix);
        return -1;
    }
    if (seat < 0)
        reply(c, "you are not playing in this game");
    return seat;
}

void cmd_game(ctx *c, const cmd *k)
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
        if (card == PZ_NO_CARD) { /* the hand goes privately, never to the room */
            char hand[200];
            pz_card cards[PZ_CARDS];
            render_cards(cards, pz_get_hand(c->g, seat, cards), hand, sizeof hand);
            say_private(c, c->m->sender, 1, "you hold no %s (your hand: %s)",
                        k->card.rank == 9 ? "10" : (char[2]){pz_rank_char(k->card.rank), 0}, hand);
            return;
        }
        a = pz_act_play(seat, card, k->mode);
        break;
    }
    case CMD_TENDIDO:
        a = pz_act_tendido(seat, k->now);
        break;
    case CMD_ARRANGE:
        if (k->best) {
            a = pz_act_arrange_best(seat);
        } else {
            pz_card row[4];
            for (int i = 0; i < 4; i++)
                row[i] = pz_card_make(k->row[i].rank, k->row[i].suit < 0 ? 0 : k->row[i].suit);
            a = pz_act_arrange(seat, row, k->has_direction ? k->direction : PZ_LTR);
        }
        break;
    case CMD_DECLARE:
        a = pz_act_declare(seat);
        break;
    case CMD_CLAIM: {
        int target = seat_named(c, k->name);
        if (target < 0) {
            reply(c, "nobody called %s plays here", k->name);
            return;
        }
        a = pz_act_claim(seat, target);
        break;
    }
    default:
        return;
    }
    act(c, &a, NULL);
}

/* ------------------------------------------------------------------------ */
/* Information                                                              */

void cmd_info(ctx *c, const cmd *k)
{
    render_names names = names_of(c);
    render_lines lines = {0};
    char status[RENDER_LINE_MAX];
    if (c->g == NULL) {
        reply(c, "the game has not started: %d seated; the creator says %sstart", c->nseats,
              c->h->prefix);
        return;
    }
    switch (k->verb) {
    case CMD_HAND: {
        int seat = seat_of(c, c->m->sender);
        if (seat < 0) {
            reply(c, "you are not playing in this game");
            return;
        }
        send_hand(c, seat); /* always privately, wherever it was asked */
        return;
    }
    case CMD_SCORE: /* several lines: in the room as they are, else privately */
        render_board(c->g, &names, &lines);
        for (int i = 0; i < lines.n; i++) {
            if (c->m->room != NULL && c->m->room[0] != '\0')
                say_room(c, c->m->room, "%s", lines.line[i]);
            else
                say_private(c, c->m->sender, 0, "%s", lines.line[i]);
        }
        return;
    default:
        render_status(c->g, &names, status, sizeof status);
        reply(c, "%s", status);
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

/* Records seat's vote; true when a majority of the seats agrees. */
static bool vote(ctx *c, unsigned *votes, int seat, const char *what)
{
    *votes |= 1u << seat;
    int have = count_votes(*votes), need = c->nseats / 2 + 1;
    if (have >= need)
        return true;
    say_room(c, c->row.room, "%s votes to %s (%d of %d needed).", c->seats[seat].nick, what, have,
             need);
    save_game(c);
    return false;
}

static void stop_game(ctx *c, const char *who)
{
    c->row.status = STORE_STOPPED;
    save_game(c);
    say_room(c, c->row.room, "The game is abandoned (%s). Say %snew for another.", who,
             c->h->prefix);
}

void cmd_vote(ctx *c, const cmd *k)
{
    int seat = seat_of(c, c->m->sender);
    bool boss = strcmp(c->row.creator, c->m->sender) == 0 || is_owner(c, c->m->sender);
    if (k->verb == CMD_STOP && boss) {
        stop_game(c,
                  c->row.status == STORE_LOBBY ? "the table is closed" : "stopped by its creator");
        return;
    }
    if (seat < 0) {
        reply(c, "only the players can do that");
        return;
    }
    if (c->row.status == STORE_LOBBY) {
        reply(c, "the game has not started");
        return;
    }
    if (k->verb == CMD_STOP) {
        if (vote(c, &c->set.stop_votes, seat, "abandon the game"))
            stop_game(c, "by vote");
    } else if (k->verb == CMD_PAUSE) {
        if (c->row.status == STORE_PAUSED) {
            reply(c, "the game is already paused");
        } else if (vote(c, &c->set.pause_votes, seat, "pause")) {
            c->row.status = STORE_PAUSED;
            c->set.pause_votes = c->set.resume_votes = 0;
            save_game(c);
            say_room(c, c->row.room, "The game is paused. Say %sresume to go on.", c->h->prefix);
        }
    } else if (c->row.status != STORE_PAUSED) {
        reply(c, "the game is not paused");
    } else if (vote(c, &c->set.resume_votes, seat, "resume")) {
        render_names names = names_of(c);
        char status[RENDER_LINE_MAX];
        c->row.status = STORE_PLAYING;
        c->set.pause_votes = c->set.resume_votes = 0;
        new_turn(c);
        save_game(c);
        render_status(c->g, &names, status, sizeof status);
        say_room(c, c->row.room, "The game goes on. %s", status);
        prompt_actor(c);
    }
}
