/*
 * act.c — a move of a game under way, whoever makes it (a player, the
 * clock, a computer player, an owner's skip): the engine applies it, it is
 * logged (REPLAY.md's action JSON), announced in the room, counted in the
 * statistics, and followed by private hands and the prompt of the seat to
 * act; a refused move is explained to its sender. Also a game's stop.
 * Prefix host__ (with seats.c: seats and acting).
 *
 * Not here: reading players' moves (cmd/play.c), the clock (timers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hfair.h"
#include "hgame.h"
#include "hlisten.h"
#include "hprefs.h"
#include "hseats.h"
#include "hweb.h"
#include "i18n.h"

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
        host__failed(c, -1);
}

/* ------------------------------------------------------------------------ */
/* Statistics                                                               */

/* Adds d to seat's tally in this game: it counts once the game is won
   (store_stats_finish), never if it is stopped. */
static void add_stats(ctx *c, int seat, store_stats *d)
{
    if (c->failed || seat < 0 || seat >= c->nseats || c->set.practice)
        return; /* a practice table counts nothing (learn) */
    snprintf(d->player, sizeof d->player, "%s", c->seats[seat].player);
    snprintf(d->nick, sizeof d->nick, "%s", c->seats[seat].nick);
    if (host__is_robot(d->player)) /* one row per level, not per robot number */
        host__robot_stats_id(c->seats[seat].player, d->player, sizeof d->player, d->nick,
                             sizeof d->nick);
    int err = store_stats_tally(c->h->st, c->row.id, d);
    if (err != 0)
        host__failed(c, err);
}

/*
 * Points, porrazos, limpias and san benitos of one action's events, one
 * row of the statistics per seat that has any. Points are the side's: a
 * score counts for every seat of the side it went to, the card score
 * (which has no seat) and a partner's points included, so that a
 * player's points in a game are their side's final score. A porrazo, a
 * limpia and a san benito count for the seat that made it.
 */
static void count_events(ctx *c, const pz_events *ev)
{
    store_stats d[PZ_MAX_PLAYERS];
    int side_points[PZ_MAX_SIDES] = {0};
    memset(d, 0, sizeof d);
    for (int i = 0; i < ev->n; i++) {
        const pz_event *e = &ev->ev[i];
        bool by_seat = e->seat >= 0 && e->seat < c->nseats;
        if (e->kind == PZ_EV_SAN_BENITO && by_seat) {
            d[e->seat].san_benitos++;
        } else if (e->kind == PZ_EV_SCORE) {
            int side = e->side >= 0 ? e->side : by_seat ? pz_side_of(c->g, e->seat) : -1;
            if (side >= 0 && side < PZ_MAX_SIDES)
                side_points[side] += e->points;
            if (by_seat) {
                d[e->seat].porrazos +=
                    e->reason == PZ_REASON_PORRAZO || e->reason == PZ_REASON_COUNTER_PORRAZO;
                d[e->seat].limpias += e->reason == PZ_REASON_LIMPIA;
            }
        }
    }
    for (int s = 0; s < c->nseats; s++) {
        d[s].points = side_points[pz_side_of(c->g, s)];
        if (d[s].points != 0 || d[s].porrazos != 0 || d[s].limpias != 0 || d[s].san_benitos != 0)
            add_stats(c, s, &d[s]);
    }
}

/* The game is won: status, a game (and maybe a win) for everyone, the
   operator's log the scores and where the game's record is (the room
   reads the end in the board that follows). */
static void finish_game(ctx *c)
{
    int winner = pz_get_winner(c->g);
    c->row.status = STORE_FINISHED;
    c->row.winner = winner;
    bool robots = false;
    for (int s = 0; s < c->nseats; s++)
        robots |= host__is_robot(c->seats[s].player);
    for (int s = 0; s < c->nseats; s++) {
        store_stats d = {0};
        d.games = 1;
        d.wins = pz_side_of(c->g, s) == winner;
        d.robot_games = robots && !host__is_robot(c->seats[s].player);
        add_stats(c, s, &d);
    }
    int err = c->failed ? 0 : store_stats_finish(c->h->st, c->row.id, c->network, c->row.room);
    if (err != 0)
        host__failed(c, err);
    char record[80], score[RENDER_LINE_MAX], status[RENDER_LINE_MAX];
    host__record_hint(c, record, sizeof record);
    render_names names = host__game_names(c);
    pz_lang before = i18n_use(PZ_LANG_EN); /* the operator's log is English */
    render_score_line(c->g, &names, score, sizeof score);
    render_status(c->g, &names, status, sizeof status);
    i18n_use(before);
    host__event(c, "finished: %s; %s; %s", score, status, record);
}

/* ------------------------------------------------------------------------ */
/* Announcing                                                               */

void host__new_turn(ctx *c)
{
    c->row.turn_since = c->now;
    c->row.reminded = 0;
    c->set.reminders = 0;
}

static bool has_event(const pz_events *ev, pz_event_kind k)
{
    for (int i = 0; i < ev->n; i++)
        if (ev->ev[i].kind == k)
            return true;
    return false;
}

/* Characters a player reads in one line, past which a play that ends a
   deal and the next deal are told in two lines (~200: what reads at a
   glance on IRC; longer lines come with long nicks and many players). */
#define DEAL_LINE_MAX 200

/* The index of the first event of kind k in ev, or -1. */
static int first_event(const pz_events *ev, pz_event_kind k)
{
    for (int i = 0; i < ev->n; i++)
        if (ev->ev[i].kind == k)
            return i;
    return -1;
}

static void tell_listeners(ctx *c, bool stopped);

/* Deals the next hand at once when one ends (R2.1). */
static void deal_next_hand(ctx *c)
{
    pz_card pack[PZ_CARDS];
    uint64_t seed;
    int fresh = host__fair_next_hand(c, &seed);
    if (fresh < 0)
        return;
    if (fresh == 0) /* a seed of its own; else a game from before fair deals */
        pz_shuffle(seed, pack);
    pz_action nh = pz_act_next_hand(fresh == 0 ? pack : NULL);
    pz_events ev = {0};
    if (pz_apply(c->g, &nh, &ev, NULL, 0) != 0) {
        host__failed(c, -1);
        return;
    }
    log_action(c, &nh);
    host__announce(c, &nh, &ev, NULL);
}

/* Joins the segments of lines with " · " into buf. */
static void join_segments(const render_lines *lines, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < lines->n; i++) {
        int n = snprintf(buf + len, cap - len, "%s%s", len > 0 ? " \xC2\xB7 " : "", lines->line[i]);
        if (n < 0 || (size_t)n >= cap - len) {
            buf[len] = '\0'; /* what does not fit is left out whole */
            return;
        }
        len += (size_t)n;
    }
}

/* The seat whose action a is, or -1 (the next hand, a first deal). */
static int seat_of_action(const pz_action *a)
{
    return a != NULL && a->kind != PZ_ACT_NEXT_HAND ? a->seat : -1;
}

/*
 * A hand's first line tells its commitment (FAIRNESS.md) right after
 * "New hand: ...", before any card is played: the pack is sealed.
 */
static void add_seal(ctx *c, const pz_events *ev, render_lines *seg)
{
    if (c->seal[0] == '\0' || ev->n == 0 || ev->ev[0].kind != PZ_EV_DEAL || ev->ev[0].deal != 1 ||
        seg->n < 1 || seg->n >= RENDER_LINES_MAX)
        return;
    memmove(seg->line + 2, seg->line + 1, (size_t)(seg->n - 1) * sizeof seg->line[0]);
    snprintf(seg->line[1], sizeof seg->line[1], _("pack sealed %s"), c->seal);
    seg->n++;
    c->seal[0] = '\0';
}

/*
 * The room's line of one action: its events as segments, the tendido
 * kept for later, a deal's score in one line; queued as a live event
 * line (the state follows it when it is sent, and event lines waiting in
 * a row go out as one). The board follows the end of a hand or game.
 */
static void tell_room(ctx *c, const pz_action *a, const pz_events *ev, const char *forced,
                      recent *rec)
{
    live_nicks nb;
    render_names names = host__live_names(c, &nb);
    render_lines seg;
    render_init(&seg);
    int actor = seat_of_action(a);
    char head[48], text[1000];
    if (forced != NULL && actor >= 0 && c->m != NULL) /* an owner's skip */
        render_add(&seg, _("%s skips %s's turn, %s plays for them"), c->m->nick, names.nick[actor],
                   c->h->bot_name);
    else if (forced != NULL && actor >= 0)
        render_add(&seg, _("%s's time ran out, %s plays for them"), names.nick[actor],
                   c->h->bot_name);
    if (a != NULL && a->kind == PZ_ACT_TENDIDO && !a->now && actor >= 0)
        render_add(&seg, _("%s keeps the tendido for later"), names.nick[actor]);
    bool over = pz_get_phase(c->g) == PZ_PHASE_GAME_OVER;
    bool hand_end = has_event(ev, PZ_EV_HAND_END);
    int deal = first_event(ev, PZ_EV_DEAL);
    if (deal > 0 && !hand_end && a != NULL && a->kind != PZ_ACT_NEXT_HAND) {
        /* a play that ends a deal: the play, the deal's end and the score,
           then the next deal and the state; one line when it reads at a
           glance, else the next deal in a line of its own ('D') */
        static pz_events part; /* the loop's thread only: too big for the stack */
        char score[RENDER_LINE_MAX], next_text[1000], status[RENDER_LINE_MAX];
        part.n = deal;
        memcpy(part.ev, ev->ev, (size_t)deal * sizeof part.ev[0]);
        render_events(c->g, &names, &part, &seg);
        render_score_line(c->g, &names, score, sizeof score);
        render_add(&seg, _("score: %s"), score);
        join_segments(&seg, text, sizeof text);
        part.n = ev->n - deal;
        memcpy(part.ev, ev->ev + deal, (size_t)part.n * sizeof part.ev[0]);
        render_lines next;
        render_init(&next);
        render_events(c->g, &names, &part, &next);
        join_segments(&next, next_text, sizeof next_text);
        render_status(c->g, &names, status, sizeof status);
        size_t shown = host__live_shown_chars(text) + host__live_shown_chars(next_text) +
                       host__live_shown_chars(status) + 6;
        if (shown <= DEAL_LINE_MAX) {
            size_t len = strlen(text);
            int n = snprintf(text + len, sizeof text - len, " \xC2\xB7 %s", next_text);
            if (n < 0 || (size_t)n >= sizeof text - len)
                text[len] = '\0'; /* cannot happen: both halves are short */
        }
        host__recent_add(rec, actor, text);
        host__live_header(c, 'E', -1, head, sizeof head);
        host__say_room(c, c->row.room, "%s%s", head, text);
        if (shown > DEAL_LINE_MAX) {
            host__recent_add(rec, -1, next_text);
            host__live_header(c, 'D', -1, head, sizeof head);
            host__say_room(c, c->row.room, "%s%s", head, next_text);
        }
        return;
    }
    render_events(c->g, &names, ev, &seg);
    add_seal(c, ev, &seg);
    join_segments(&seg, text, sizeof text);
    if (actor >= 0) /* a hand's first deal is no news in a turn prompt */
        host__recent_add(rec, actor, text);
    host__live_header(c, 'E', -1, head, sizeof head);
    host__say_room(c, c->row.room, "%s%s", head, text);
    if (over || hand_end) {
        render_lines board;
        render_init(&board);
        render_board(c->g, &names, &board);
        host__live_header(c, 'B', -1, head, sizeof head);
        char url[HWEB_URL_MAX] = ""; /* the final line carries the game's page */
        if (over)
            (void)host__web_game_url(c, url);
        for (int i = 0; i < board.n; i++) {
            bool link = i == board.n - 1 && url[0] != '\0';
            host__say_room(c, c->row.room, "%s%s%s%s", head, board.line[i],
                           link ? " \xC2\xB7 " : "", link ? url : "");
        }
    }
}

void host__announce(ctx *c, const pz_action *a, const pz_events *ev, const char *forced)
{
    recent rec;
    int err = host__recent_load(c, &rec);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    bool dealt = has_event(ev, PZ_EV_DEAL);
    bool over = pz_get_phase(c->g) == PZ_PHASE_GAME_OVER;
    if (forced == NULL)
        host__recent_touch(&rec, seat_of_action(a), c->now);
    /* the room's line in the room's language, whoever acted and wherever */
    pz_lang before = i18n_use(host_room_lang(c->h, c->network, c->row.room));
    tell_room(c, a, ev, forced, &rec);
    i18n_use(before);
    count_events(c, ev);
    if ((err = host__recent_save(c, &rec)) != 0)
        host__failed(c, err);
    /* once (a game may end mid-hand), before the next hand's first line:
       a hand's review comes before the cards of the next */
    if (has_event(ev, PZ_EV_HAND_END) || has_event(ev, PZ_EV_GAME_END))
        tell_listeners(c, false);
    if (over) {
        finish_game(c);
        host__game_save(c);
        return;
    }
    if (pz_get_phase(c->g) == PZ_PHASE_HAND_OVER) {
        deal_next_hand(c);
        return;
    }
    if (dealt) {
        /* One private line each: the hand, with "your turn" for the
           actor. The dealer whose hand waits for the tendido choice
           (R4.2) is told by the room's line, or prompted when quiet. */
        for (int s = 0; s < c->nseats; s++) {
            pz_view v;
            if (pz_view_seat(c->g, s, &v) == 0 && v.hand_hidden) {
                if (host__prompt_needed(c, &rec, s))
                    host__prompt_with(c, &rec);
            } else {
                host__prompt_hand(c, s);
            }
        }
    } else {
        /* R4.2: the dealer's new hand, held back until the choice (it
           says what to do when the dealer arranges the tendido next) */
        int dealer = pz_get_dealer(c->g), seat = host__game_actor(c->g);
        bool dealer_told = a != NULL && a->kind == PZ_ACT_TENDIDO;
        if (dealer_told)
            host__prompt_hand(c, dealer);
        if (seat >= 0 && !(dealer_told && seat == dealer) && host__prompt_needed(c, &rec, seat))
            host__prompt_with(c, &rec);
    }
    host__game_save(c);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

/* The word of a rank: "A", "2", ..., "10", "J", "Q", "K". */
const char *host__rank_word(int rank)
{
    static const char *const words[PZ_RANKS] = {"A", "2", "3",  "4", "5", "6", "7",
                                                "8", "9", "10", "J", "Q", "K"};
    return rank >= 0 && rank < PZ_RANKS ? words[rank] : "?";
}

/* The tendido waiting to be arranged as "4♥ 2♣ and 3♦ 7♠" (its pairs). */
void host__tendido_pairs(const ctx *c, char *buf, size_t cap)
{
    pz_card t[4];
    char a[100], b[100];
    if (pz_get_tendido(c->g, t) != 4) {
        snprintf(buf, cap, "%s", _("not on the table"));
        return;
    }
    render_cards(t, 2, a, sizeof a);
    render_cards(t + 2, 2, b, sizeof b);
    /* TRANSLATORS: the tendido's two pairs, "4♥ 2♣ and 3♦ 7♠" */
    snprintf(buf, cap, _("%s and %s"), a, b);
}

/* A refused play of a card that cannot be played in place (mode place). */
static void explain_place(ctx *c, const pz_action *a, const char *p)
{
    char card[8];
    pz_card pend[16];
    int rank = pz_card_rank(a->card), seat;
    render_card(a->card, card);
    if (pz_get_pending(c->g, &seat) != PZ_PENDING_NONE && pz_get_pending_cards(c->g, pend) > 0 &&
        pz_card_rank(pend[0]) == rank)
        host__reply(
            c,
            N_("%s answers the porrazo on the table, so it is not played in place: say %splay %s"),
            card, p, card);
    else if (rank > 3)
        host__reply(c, N_("only an A, 2, 3 or 4 is played in place: say %splay %s"), p, card);
    else
        host__reply(
            c, N_("%s is in place only as card number %d on the table, not now: say %splay %s"),
            card, rank + 1, p, card);
}

/* A refused claim against the seat a->claimed. */
static void explain_claim(ctx *c, const char *why, const pz_action *a)
{
    int t = a->claimed;
    if (t < 0 || t >= c->nseats)
        host__reply(c, N_("nobody by that name plays here"));
    else if (t == a->seat)
        host__reply(c, N_("you cannot claim against yourself: claim against the other side"));
    else if (pz_side_of(c->g, t) == pz_side_of(c->g, a->seat))
        host__reply(c, N_("%s is your partner: claim against the other side"), c->seats[t].nick);
    else if (strstr(why, "already claimed") != NULL)
        host__reply(c, N_("%s's missed declaration was claimed already"), c->seats[t].nick);
    else if (strstr(why, "did not miss") != NULL)
        host__reply(c, N_("%s did not miss a declaration in the last deal"), c->seats[t].nick);
    else
        host__reply(c, N_("claims are made after a deal ends, before the next deal's first card"));
}

/*
 * Refuses a card seat does not hold (card as the player named it: "9",
 * "7♥"). The answer goes where the command was said, as every refusal
 * does; the hand itself only ever privately: in a room, "nick: you hold
 * no 9; your cards went to you privately" and the hand line (rendered
 * when sent); in private, one line with the hand.
 */
void host__refuse_not_held(ctx *c, int seat, const char *card)
{
    char hand[200];
    pz_card cards[PZ_CARDS];
    if (c->m == NULL)
        return;
    if (c->m->room == NULL || c->m->room[0] == '\0') {
        render_cards(cards, pz_get_hand(c->g, seat, cards), hand, sizeof hand);
        host__reply(c, N_("you hold no %s (your hand: %s)"), card, hand);
        return;
    }
    host__reply(c, N_("you hold no %s; your cards went to you privately"), card);
    host__prompt_hand(c, seat);
}

/*
 * A refused action, explained to the sender in the room's words: every
 * engine error in words of the game, with nicks, never the engine's own
 * message (it names seats by number and speaks the engine's words); a
 * command it suggests carries the prefix in a room. why, the engine's
 * message, only tells apart the kinds of a refused claim.
 */
static void explain(ctx *c, int err, const char *why, const pz_action *a)
{
    render_names names = host__game_names(c);
    const char *p = host__prompt_prefix(c);
    char status[RENDER_LINE_MAX], card[8], text[300];
    pz_view v;
    int turn = pz_get_turn(c->g), dealer = pz_get_dealer(c->g);
    switch (err) {
    case PZ_ENOT_YOUR_TURN:
        if (turn >= 0 && turn < c->nseats)
            host__reply(c, N_("it is %s's turn, not yours"), c->seats[turn].nick);
        else
            host__reply(c, N_("nobody is to play now"));
        return;
    case PZ_ECARD_NOT_IN_HAND:
        render_card(a->card, card);
        host__refuse_not_held(c, a->seat, card);
        return;
    case PZ_ECHOICE_REQUIRED:
        render_card(a->card, card);
        host__reply(
            c,
            N_("%s can capture or be played in place for %d points: say %splay %s capture, or "
               "%splay %s place"),
            card, pz_card_rank(a->card) + 1, p, card, p, card);
        return;
    case PZ_ECANNOT_PLACE:
        explain_place(c, a, p);
        return;
    case PZ_ENOT_DEALER:
        if (dealer >= 0 && dealer < c->nseats) {
            host__reply(c,
                        a->kind == PZ_ACT_TENDIDO ? N_("only the dealer, %s, chooses the tendido")
                                                  : N_("only the dealer, %s, arranges the tendido"),
                        c->seats[dealer].nick);
            return;
        }
        /* fall through */
    case PZ_EWRONG_PHASE:
        render_status(c->g, &names, status, sizeof status);
        host__reply(c, N_("not now — %s"), status);
        return;
    case PZ_EBAD_ARRANGEMENT:
        host__tendido_pairs(c, text, sizeof text);
        host__reply(
            c,
            N_("lay one pair of the tendido on the left and the other on the right, each pair in "
               "either order; the pairs are %s (or say %sarrange best)"),
            text, p);
        return;
    case PZ_ENOTHING_TO_DECLARE:
        if (pz_view_seat(c->g, a->seat, &v) == 0 && v.holding_declared)
            host__reply(c, N_("you have declared already"));
        else
            host__reply(c, N_("you hold no ronda or rondine this deal: nothing to declare"));
        return;
    case PZ_EDECLARATION_CLOSED:
        host__reply(c, N_("too late: declarations closed with this deal's first card"));
        return;
    case PZ_EBAD_CLAIM:
        explain_claim(c, why, a);
        return;
    case PZ_EGAME_OVER:
        render_side(c->g, &names, pz_get_winner(c->g), text, sizeof text);
        host__reply(c, N_("the game is over: %s won"), text);
        return;
    case PZ_EINVALID_ACTION:
        if (a->kind == PZ_ACT_PLAY && a->mode == PZ_MODE_CAPTURE) {
            render_card(a->card, card);
            host__reply(c, N_("%s captures nothing: there is no %s on the table; say %splay %s"),
                        card, host__rank_word(pz_card_rank(a->card)), p, card);
        } else if (a->kind == PZ_ACT_DECLARE) {
            host__reply(c, pz_get_options(c->g)->declarations == PZ_DECL_SILENT
                               ? N_("declarations are silent in this game: nothing to declare")
                               : N_("declarations are automatic in this game: nothing to declare"));
        } else if (a->kind == PZ_ACT_CLAIM) {
            host__reply(c, N_("claims are made only in a game with manual declarations"));
        } else {
            host__reply(c, N_("that is not a move you can make now"));
        }
        return;
    default: /* options, documents, memory: not a player's doing */
        host__reply(c, N_("something went wrong on my side: your move was not taken; try again"));
        return;
    }
}

int host__listen(host *h, const hs_listener *l)
{
    if (h->nlisteners >= HS_LISTENERS_MAX)
        return -1;
    h->listeners[h->nlisteners++] = l;
    return 0;
}

/* Tells every listener of c's host that a hand ended (stopped false) or
   that the game was stopped (true). */
static void tell_listeners(ctx *c, bool stopped)
{
    for (int i = 0; i < c->h->nlisteners; i++) {
        void (*hook)(ctx *) = stopped ? c->h->listeners[i]->stopped : c->h->listeners[i]->hand_end;
        if (hook != NULL)
            hook(c);
    }
}

int host__act(ctx *c, const pz_action *a, const char *forced)
{
    char why[PZ_WHY_MAX] = "";
    pz_events ev = {0};
    int before = host__game_actor(c->g);
    pz_phase phase = pz_get_phase(c->g);
    /* the listeners take what they need of the game before the move */
    void *taken[HS_LISTENERS_MAX] = {0};
    for (int i = 0; i < c->h->nlisteners; i++)
        if (c->h->listeners[i]->before != NULL)
            taken[i] = c->h->listeners[i]->before(c, a, forced);
    int err = pz_apply(c->g, a, &ev, why, sizeof why);
    for (int i = 0; i < c->h->nlisteners; i++)
        if (taken[i] != NULL)
            c->h->listeners[i]->after(c, a, taken[i], err == 0);
    if (err != 0) {
        explain(c, err, why, a);
        return err;
    }
    log_action(c, a);
    c->acted = true;
    if (forced == NULL && c->m != NULL && seat_of_action(a) >= 0 &&
        seat_of_action(a) == host__game_seat_of(c, c->m->sender))
        host__absent_acted(c, seat_of_action(a)); /* their own move: not absent */
    /* a new actor, or the same one at a new step (the dealer's tendido
       choice, then the arrangement): their clock starts again */
    if (host__game_actor(c->g) != before || pz_get_phase(c->g) != phase || forced != NULL)
        host__new_turn(c);
    host__announce(c, a, &ev, forced); /* the listeners hear a hand's end there */
    return 0;
}

/* Stops the loaded game: the room is told why (who), the operator's log
   by whom (by). */
void host__stop(ctx *c, const char *by)
{
    bool lobby = c->row.status == STORE_LOBBY;
    c->row.status = STORE_STOPPED;
    host__game_save(c);
    tell_listeners(c, true);
    host__event(c, "%s %s", lobby ? "closed before it started," : "stopped", by);
}
