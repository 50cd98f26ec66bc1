/*
 * learn.c — learning the game from the bot (hlearn.h): the hint a player
 * asks for, the practice table's explanations (why a computer player
 * moved; a stronger play than the learner's), and the hand's review (the
 * largest points a player left on the table). Prefix host__learn_.
 *
 * Every decision is the worker's (think.h: the strong level's choice and
 * its figures, pzai_hint and pzai_why_of), made from the seat's view and
 * the hand's public record as they were when the question arose. The
 * words are the moves list's (render_outcome) for the move tried on a
 * game sampled from that same view: only the move's own events are read,
 * so nothing said depends on a card the player cannot see. Every line
 * goes privately to the player it is for: the room's lines stay the
 * game's own (the chat's line budget), whoever's table it is.
 *
 * A hint counts in the asker's tally of the game (stats, once it is
 * finished); a practice table counts nothing (act.c). A hand's judged
 * plays wait in the store's kv (LEARN_ITEMS_SCOPE) until the hand ends.
 * Not here: the commands (cmd/hint.c), the worker (think.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hgame.h"
#include "hlearn.h"
#include "hprefs.h"
#include "hrooms.h"
#include "hseats.h"
#include "i18n.h"

#define ITEM_MAX 300                                   /* bytes of one judged play's line */
#define ITEMS_MAX (LEARN_REVIEW_MAX * (ITEM_MAX + 16)) /* a hand's judged plays in the kv */

/* The kv key of player's choice on the context's network. */
static void player_key(const ctx *c, const char *player, char *key, size_t cap)
{
    if (snprintf(key, cap, "%s\x1f%s", c->network, player) >= (int)cap)
        key[0] = '\0';
}

/* The kv key of player's judged plays in the loaded game. */
static void items_key(const ctx *c, const char *player, char *key, size_t cap)
{
    if (snprintf(key, cap, "%s\x1f%lld\x1f%s", c->network, (long long)c->row.id, player) >=
        (int)cap)
        key[0] = '\0';
}

bool host__learn_hints_allowed(const ctx *c, const char *room)
{
    room_settings rs;
    host__room_defaults(c, room, &rs);
    return !rs.hints_off;
}

/* Whether player said "review on". */
static bool wants_review(const ctx *c, const char *player)
{
    char key[2 * STORE_ID_MAX + 2], value[8];
    player_key(c, player, key, sizeof key);
    return key[0] != '\0' && !host__is_robot(player) &&
           store_kv_get(c->h->st, LEARN_REVIEW_SCOPE, key, value, sizeof value) == 0 &&
           strcmp(value, "on") == 0;
}

/* Whether seat is a practice table's learner (its creator). */
static bool learner(const ctx *c, int seat)
{
    return c->set.practice && seat >= 0 && seat < c->nseats &&
           strcmp(c->seats[seat].player, c->row.creator) == 0;
}

/* The words of a (v->seat's move from v and r) as the moves list says it,
   from a game sampled with seed. 0, or -1 (buf ""). */
static int words_of(const ctx *c, const pz_view *v, const pz_record *r, uint64_t seed,
                    const pz_action *a, char *buf, size_t cap)
{
    pz_game *g = NULL;
    pz_events *ev = malloc(sizeof *ev);
    buf[0] = '\0';
    if (ev == NULL || pzai_sample_game(v, r, seed, &g) != 0) {
        free(ev);
        return -1;
    }
    ev->n = 0;
    int rc = -1;
    if (pz_apply(g, a, ev, NULL, 0) == 0) {
        render_names names = host__game_names(c);
        ev->n = pzai_move_events(ev, a); /* nothing of the sample's own cards */
        render_outcome(g, &names, a, ev, buf, cap);
        rc = 0;
    }
    pz_free(g);
    free(ev);
    return rc;
}

/* The nick of seat, or "" when out of range. */
static const char *nick_of(const ctx *c, int seat)
{
    return seat >= 0 && seat < c->nseats ? c->seats[seat].nick : "";
}

/* Which risk w's move avoids that another play would have taken. */
typedef enum avoided { AVOIDS_NONE, AVOIDS_PORRAZO, AVOIDS_LIMPIA, AVOIDS_BOTH } avoided;
static avoided avoids(const pzai_why *w)
{
    if (w->next < 0)
        return AVOIDS_NONE;
    bool p = w->porrazo == 0 && w->worst_porrazo > 0, l = w->limpia == 0 && w->worst_limpia > 0;
    return p && l ? AVOIDS_BOTH : p ? AVOIDS_PORRAZO : l ? AVOIDS_LIMPIA : AVOIDS_NONE;
}

/* The share of w's sampled deals in which count happened, in per cent. */
static int share_of(const pzai_why *w, int count)
{
    return w->risk_worlds > 0 ? (count * 100 + w->risk_worlds / 2) / w->risk_worlds : 0;
}

/*
 * The porrazo risk w's move runs, in words, into buf ("" when it runs
 * none): an expectation, worded as one, from the deals the strong level's
 * sampler finds consistent with what the seat has seen. A counter of the
 * porrazo the move leaves pending (and a san benito after it), or a
 * porrazo on the card it lays.
 */
static void risk_words(const ctx *c, const pzai_why *w, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (w->risk_rank < 0 || w->risk_worlds == 0 || w->risk_unseen == 0)
        return;
    const char *next = nick_of(c, w->next), *rank = render_rank(w->risk_rank);
    int held = share_of(w, w->risk_held);
    int n;
    if (w->risk_counter)
        n = snprintf(buf, cap,
                     _("%s may counter it with the third %s (+%d to them if it stands): %d unseen, "
                       "held by %s in about %d%% of the deals you cannot tell apart"),
                     next, rank, w->risk_worth > 0 ? w->risk_worth : w->porrazo, w->risk_unseen,
                     next, held);
    else
        n = snprintf(buf, cap,
                     _("%s may porrazo it with another %s (+%d to them if it stands): %d unseen, "
                       "held by %s in "
                       "about %d%% of the deals you cannot tell apart"),
                     next, rank, w->risk_worth > 0 ? w->risk_worth : w->porrazo, w->risk_unseen,
                     next, held);
    if (n > 0 && (size_t)n < cap && w->risk_counter && w->risk_lost > 0)
        n += snprintf(buf + n, cap - (size_t)n,
                      _("; in about %d%% the player after %s then wins the game by a san benito"),
                      share_of(w, w->risk_lost), next);
    if (n < 0 || (size_t)n >= cap)
        buf[0] = '\0';
}

/* ------------------------------------------------------------------------ */
/* A hint                                                                   */

/* The seed of seat's decisions in the loaded game now (robots.c's: the
   same for a hint as for a computer player in that seat). */
static uint64_t learn_seed(const ctx *c, int seat)
{
    return host__robot_fingerprint(c) ^ ((uint64_t)seat << 56);
}

/* A job for seat's decision in the loaded game now. 0, or -1. */
static int job_for(const ctx *c, int seat, think_purpose purpose, think_job *j)
{
    memset(j, 0, sizeof *j);
    j->purpose = purpose;
    j->game = c->row.id;
    snprintf(j->network, sizeof j->network, "%s", c->network);
    snprintf(j->room, sizeof j->room, "%s", c->row.room);
    snprintf(j->player, sizeof j->player, "%s", c->seats[seat].player);
    j->fingerprint = host__robot_fingerprint(c);
    j->level = PZAI_STRONG;
    j->seed = j->fingerprint ^ ((uint64_t)seat << 56);
    j->iterations = c->h->cfg.robot_iterations;
    return pz_view_seat(c->g, seat, &j->view) == 0 && pz_public_record(c->g, &j->record) == 0 ? 0
                                                                                              : -1;
}

/* Counts a hint in the asker's tally of the game (not a practice one). */
static void count_hint(ctx *c, int seat)
{
    if (c->set.practice || c->failed)
        return;
    store_stats d;
    memset(&d, 0, sizeof d);
    d.hints = 1;
    snprintf(d.player, sizeof d.player, "%s", c->seats[seat].player);
    snprintf(d.nick, sizeof d.nick, "%s", c->seats[seat].nick);
    int err = store_stats_tally(c->h->st, c->row.id, &d);
    if (err != 0)
        host__failed(c, err);
}

/* The answer to a hint, privately to its asker. */
static void tell_hint(ctx *c, const think_job *j)
{
    int seat = host__game_seat_of(c, j->player);
    char words[RENDER_LINE_MAX];
    if (seat < 0)
        return;
    if (j->result != 1) {
        host__say_private(c, j->player, 0, _("Hint in %s: nothing for you to do now"), c->row.room);
        return;
    }
    if (words_of(c, &j->view, &j->record, j->seed, &j->action, words, sizeof words) != 0)
        return;
    const char *next = nick_of(c, j->why.next);
    if (j->action.kind == PZ_ACT_TENDIDO) {
        host__say_private(
            c, j->player, 0,
            j->action.now
                ? _("Hint in %s: %s \xE2\x80\x94 laid now and arranged at its "
                    "best it scores on average +%d at once (its 4 cards are not dealt yet)")
                : _("Hint in %s: %s \xE2\x80\x94 laid now it would score on average only +%d "
                    "at once"),
            c->row.room, words, j->why.expected);
        count_hint(c, seat);
        return;
    }
    if (j->action.kind == PZ_ACT_DECLARE || j->action.kind == PZ_ACT_CLAIM) {
        /* a declaration's reason is the rule itself (R3.2, R3.4, R3.6): said, so that
           "Hint: ronda" never comes without its why */
        host__say_private(
            c, j->player, 0,
            j->action.kind == PZ_ACT_DECLARE
                ? _("Hint in %s: %s \xE2\x80\x94 say it before the deal's first card: the best "
                    "holding declared scores when the deal ends, one not declared scores "
                    "nothing and another side may claim it")
                : _("Hint in %s: %s \xE2\x80\x94 that holding went undeclared: the claim scores "
                    "its value for your side"),
            c->row.room, words);
        count_hint(c, seat);
        return;
    }
    char risk[RENDER_LINE_MAX];
    risk_words(c, &j->why, risk, sizeof risk);
    if (risk[0] != '\0') {
        host__say_private(c, j->player, 0, _("Hint in %s: %s \xE2\x80\x94 the risk: %s"),
                          c->row.room, words, risk);
        count_hint(c, seat);
        return;
    }
    switch (avoids(&j->why)) {
    case AVOIDS_BOTH:
        host__say_private(c, j->player, 0,
                          _("Hint in %s: %s \xE2\x80\x94 and it leaves %s no porrazo and no "
                            "limpia"),
                          c->row.room, words, next);
        break;
    case AVOIDS_PORRAZO:
        host__say_private(c, j->player, 0,
                          _("Hint in %s: %s \xE2\x80\x94 and it leaves %s no porrazo"), c->row.room,
                          words, next);
        break;
    case AVOIDS_LIMPIA:
        host__say_private(c, j->player, 0,
                          _("Hint in %s: %s \xE2\x80\x94 and it leaves %s no limpia"), c->row.room,
                          words, next);
        break;
    default:
        host__say_private(c, j->player, 0, _("Hint in %s: %s"), c->row.room, words);
        break;
    }
    count_hint(c, seat);
}

int host__learn_hint(ctx *c, int seat)
{
    think_job j;
    if (job_for(c, seat, THINK_HINT, &j) != 0)
        return -1;
    if (c->h->think == NULL) {
        host__think_run(&j);
        tell_hint(c, &j);
        return 0;
    }
    if (host__think_submit(c->h->think, &j) != 0) {
        host__reply(c, _("the bot is busy thinking: ask for your hint again in a moment"));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Judging a play: the practice table and the review                        */

/* store_hand_each's callback: the highest hand recorded, into arg. */
static int last_hand(void *arg, int hand, uint64_t seed, const char *digest)
{
    (void)seed;
    (void)digest;
    int *n = arg;
    if (hand > *n)
        *n = hand;
    return 0;
}

/* The hand the loaded game is in (1-based: the fair-deal record's last
   hand), 0 when it has no record. */
static int hand_now(ctx *c)
{
    int n = 0;
    int err = store_hand_each(c->h->st, c->row.id, last_hand, &n);
    if (err != 0)
        host__failed(c, err);
    return err == 0 ? n : 0;
}

/* Whether seat of the loaded game gets its plays judged (a practice
   table's learner, or review on). */
static bool learn_judges(ctx *c, int seat)
{
    if (seat < 0 || seat >= c->nseats || host__is_robot(c->seats[seat].player))
        return false;
    return learner(c, seat) || wants_review(c, c->seats[seat].player);
}

/* Adds a judged play (its points lost, its hand, its line) to player's
   items, keeping the LEARN_REVIEW_MAX largest ("points\thand\tline\n"
   each, a line cut at ITEM_MAX bytes). */
static void keep_item(ctx *c, const char *player, int lost, int hand, const char *text)
{
    char line[ITEM_MAX + 16];
    snprintf(line, sizeof line, "%d\t%.*s", hand, ITEM_MAX, text);
    char key[3 * STORE_ID_MAX], value[ITEMS_MAX] = "", out[ITEMS_MAX] = "";
    char items[LEARN_REVIEW_MAX + 1][ITEM_MAX + 16];
    int n = 0;
    items_key(c, player, key, sizeof key);
    if (key[0] == '\0')
        return;
    if (store_kv_get(c->h->st, LEARN_ITEMS_SCOPE, key, value, sizeof value) != 0)
        value[0] = '\0';
    bool placed = false;
    for (const char *p = value; *p != '\0' && n < LEARN_REVIEW_MAX;) {
        size_t len = strcspn(p, "\n");
        if (!placed && lost > (int)strtol(p, NULL, 10)) {
            snprintf(items[n++], sizeof items[0], "%d\t%.*s", lost, ITEM_MAX, line);
            placed = true;
        }
        if (n < LEARN_REVIEW_MAX && len < sizeof items[0])
            snprintf(items[n++], sizeof items[0], "%.*s", (int)len, p);
        p += len + (p[len] == '\n');
    }
    if (!placed && n < LEARN_REVIEW_MAX)
        snprintf(items[n++], sizeof items[0], "%d\t%.*s", lost, ITEM_MAX, line);
    size_t used = 0;
    for (int i = 0; i < n && used < sizeof out; i++) {
        int w = snprintf(out + used, sizeof out - used, "%s\n", items[i]);
        if (w < 0 || (size_t)w >= sizeof out - used)
            break;
        used += (size_t)w;
    }
    int err = store_kv_set(c->h->st, LEARN_ITEMS_SCOPE, key, out);
    if (err != 0)
        host__failed(c, err);
}

/* Whether two plays are one (the same card, the same outcome words). */
static bool same_play(const pz_action *a, const pz_action *b, const char *wa, const char *wb)
{
    return a->kind == b->kind && a->card == b->card && strcmp(wa, wb) == 0;
}

/* A judged play: the practice table's line, the review's item. */
/*
 * Why the strong level's play w beats the player's p, when it is a fact
 * (what each scores at once) or a risk worded as one (the porrazo p let a
 * holder of the rank make, w not), into buf: 1, or 0 (buf "") when the
 * difference is only the search's view of what follows.
 */
static int judged_reason(const ctx *c, const pzai_why *w, const pzai_why *p, char *buf, size_t cap)
{
    const char *next = nick_of(c, p->next);
    int n = 0;
    if (w->value > p->value)
        n = snprintf(buf, cap, _("%+d at once, yours %+d"), w->value, p->value);
    else if (w->value == p->value && p->risk_rank >= 0 && w->risk_rank < 0 && p->next >= 0)
        n = snprintf(
            buf, cap,
            p->risk_counter ? _("the same at once, and it leaves %s nothing to counter; yours let "
                                "%s counter it (+%d if it stands) if holding the third %s")
                            : _("the same at once, and it leaves %s no porrazo; yours let %s "
                                "porrazo it (+%d if it stands) if holding another %s"),
            next, next, p->risk_worth > 0 ? p->risk_worth : p->porrazo, render_rank(p->risk_rank));
    else
        buf[0] = '\0';
    if (n < 0 || (size_t)n >= cap)
        buf[0] = '\0';
    return buf[0] != '\0';
}

/* A judged play: the practice table's line, the review's item. */
static void tell_judged(ctx *c, const think_job *j)
{
    int seat = host__game_seat_of(c, j->player);
    char best[RENDER_LINE_MAX], mine[RENDER_LINE_MAX], line[2 * RENDER_LINE_MAX];
    char reason[RENDER_LINE_MAX];
    if (seat < 0 || j->result != 1 || j->action.kind != PZ_ACT_PLAY ||
        words_of(c, &j->view, &j->record, j->seed, &j->action, best, sizeof best) != 0 ||
        words_of(c, &j->view, &j->record, j->seed, &j->played, mine, sizeof mine) != 0 ||
        same_play(&j->action, &j->played, best, mine))
        return;
    const pzai_why *w = &j->why, *p = &j->why_played;
    bool told = judged_reason(c, w, p, reason, sizeof reason);
    if (learner(c, seat)) {
        if (told)
            host__say_private(c, j->player, 0, _("Stronger than your %s: %s \xE2\x80\x94 %s"), mine,
                              best, reason);
        else if (w->value == p->value)
            host__say_private(c, j->player, 0,
                              _("The strong level would have played %s rather than your %s: the "
                                "same at once, better further on by its search"),
                              best, mine);
        else
            host__say_private(c, j->player, 0,
                              _("The strong level would have played %s rather than your %s: %+d at "
                                "once against your %+d, but better further on by its search"),
                              best, mine, w->value, p->value);
    }
    if (!told || !wants_review(c, j->player))
        return;
    snprintf(line, sizeof line, _("deal %d, your %s: %s \xE2\x80\x94 %s"), j->view.deal, mine, best,
             reason);
    keep_item(c, j->player, w->value - p->value + (p->risk_rank >= 0 ? p->porrazo : 0), j->hand,
              line);
}

/* seat played a from view v and record r (taken before it, with the seed
   learn_seed gave then) in hand: judged against the strong level's play,
   on the worker but in the hand's last deal. */
static void learn_judge(ctx *c, int seat, const pz_view *v, const pz_record *r, uint64_t seed,
                        const pz_action *a, int hand)
{
    think_job j;
    if (a->kind != PZ_ACT_PLAY || seat < 0 || seat >= c->nseats)
        return;
    memset(&j, 0, sizeof j);
    j.purpose = THINK_JUDGE;
    j.game = c->row.id;
    snprintf(j.network, sizeof j.network, "%s", c->network);
    snprintf(j.room, sizeof j.room, "%s", c->row.room);
    snprintf(j.player, sizeof j.player, "%s", c->seats[seat].player);
    j.view = *v;
    j.record = *r;
    j.played = *a;
    j.level = PZAI_STRONG;
    j.seed = seed;
    j.iterations = c->h->cfg.robot_iterations;
    j.hand = hand;
    /* The hand's last deal is judged at once: its review follows the
       hand's last play, before the next hand's first line. */
    if (c->h->think == NULL || v->deal == v->deals_per_hand) {
        host__think_run(&j);
        tell_judged(c, &j);
    } else {
        (void)host__think_submit(c->h->think, &j); /* a full worker: this play goes unjudged */
    }
}

/* The review of player's hand (hand, 1-based; 0 unknown): its kept items
   (those of another hand, judged late, are dropped), then forgotten. Sent
   with the hands' priority, so it comes before the next hand's lines. */
static void tell_review(ctx *c, const char *player, int hand)
{
    char key[3 * STORE_ID_MAX], value[ITEMS_MAX], where[STORE_ID_MAX + 32];
    items_key(c, player, key, sizeof key);
    if (key[0] == '\0')
        return;
    if (store_kv_get(c->h->st, LEARN_ITEMS_SCOPE, key, value, sizeof value) != 0)
        value[0] = '\0';
    if (hand > 0)
        snprintf(where, sizeof where, _("hand %d in %s"), hand, c->row.room);
    else
        snprintf(where, sizeof where, "%s", c->row.room);
    int told = 0;
    for (const char *p = value; *p != '\0';) {
        size_t n = strcspn(p, "\n");
        char item[ITEMS_MAX];
        snprintf(item, sizeof item, "%.*s", (int)n, p);
        char *tab = strchr(item, '\t'), *text = tab ? strchr(tab + 1, '\t') : NULL;
        if (text != NULL && told < LEARN_REVIEW_MAX &&
            (hand == 0 || strtol(tab + 1, NULL, 10) == hand)) {
            host__say_private(c, player, 1, _("Review of %s: %s"), where, text + 1);
            told++;
        }
        p += n + (p[n] == '\n');
    }
    if (told == 0)
        host__say_private(c, player, 1,
                          _("Review of %s: the strong level found no points you left on the table"),
                          where);
    int err = store_kv_del(c->h->st, LEARN_ITEMS_SCOPE, key);
    if (err != 0)
        host__failed(c, err);
}

/* The loaded game is stopped: its players' judged plays are forgotten. */
static void learn_forget(ctx *c)
{
    char key[3 * STORE_ID_MAX];
    for (int s = 0; s < c->nseats && !c->failed; s++) {
        items_key(c, c->seats[s].player, key, sizeof key);
        int err = key[0] == '\0' || host__is_robot(c->seats[s].player)
                      ? 0
                      : store_kv_del(c->h->st, LEARN_ITEMS_SCOPE, key);
        if (err != 0)
            host__failed(c, err);
    }
}

/* A hand ended in the loaded game: the review of each player who asked,
   at once (the hand's last deal was judged as it was played). */
static void learn_hand_end(ctx *c)
{
    int hand = -1;
    for (int s = 0; s < c->nseats && !c->failed; s++) {
        if (host__is_robot(c->seats[s].player) || !wants_review(c, c->seats[s].player))
            continue;
        if (hand < 0)
            hand = hand_now(c);
        tell_review(c, c->seats[s].player, hand);
    }
}

/* ------------------------------------------------------------------------ */
/* A computer player's move on a practice table                             */

/* Whether seat of the loaded game holds a card of rank (its own view). */
static bool seat_holds(const ctx *c, int seat, int rank)
{
    pz_view v;
    if (c->g == NULL || pz_view_seat(c->g, seat, &v) != 0)
        return false;
    for (int i = 0; i < v.nhand; i++)
        if (pz_card_rank(v.hand[i]) == rank)
            return true;
    return false;
}

/*
 * What a computer player's move w leaves the next player, told to the
 * learner of a practice table: of the learner's own chance only what the
 * learner's hand allows; of another player's, what a player holding the
 * right card could do.
 */
static void explain_next(ctx *c, const pzai_why *w, const char *who, const char *words)
{
    const char *to = c->row.creator, *next = nick_of(c, w->next);
    bool to_learner = w->next >= 0 && learner(c, w->next), counter = w->risk_counter;
    if (w->porrazo > 0 && w->risk_rank >= 0) {
        const char *rank = render_rank(w->risk_rank);
        int worth = w->risk_worth > 0 ? w->risk_worth : w->porrazo;
        if (to_learner && seat_holds(c, w->next, w->risk_rank))
            host__say_private(c, to, 0,
                              counter
                                  ? _("%s played %s: you may counter it with your %s (+%d if it "
                                      "stands)")
                                  : _("%s played %s: you may porrazo it with your %s (+%d if it "
                                      "stands)"),
                              who, words, rank, worth);
        else if (to_learner)
            host__say_private(c, to, 0,
                              counter ? _("%s played %s: a player holding the third %s could "
                                          "counter it; you hold none")
                                      : _("%s played %s: a player holding another %s could porrazo "
                                          "it; you hold none"),
                              who, words, rank);
        else
            host__say_private(c, to, 0,
                              counter ? _("%s played %s: %s may counter it (+%d if it stands) if "
                                          "holding the third %s")
                                      : _("%s played %s: %s may porrazo it (+%d if it stands) if "
                                          "holding another %s"),
                              who, words, next, worth, rank);
    } else if (w->porrazo == 0 && w->limpia == 0 && w->in_place == 0) {
        host__say_private(c, to, 0,
                          _("%s played %s: it leaves %s no porrazo, limpia or card in place to "
                            "score"),
                          who, words, next);
    } else {
        host__say_private(c, to, 0,
                          _("%s played %s: a player holding the right card could score at once "
                            "next (a limpia or a card in place)"),
                          who, words);
    }
}

/* Whether v's seat is about to play the last card of the deal. */
static bool last_card(const pz_view *v)
{
    int cards = 0;
    for (int s = 0; s < v->players; s++)
        cards += v->hand_count[s];
    return cards == 1;
}

void host__learn_explain_move(ctx *c, const think_job *j, const pz_action *a)
{
    int seat = j->view.seat;
    char words[RENDER_LINE_MAX];
    if (!c->set.practice || !j->explain || j->result != 1 || a->kind != j->action.kind ||
        a->card != j->action.card ||
        words_of(c, &j->view, &j->record, j->seed, a, words, sizeof words) != 0)
        return;
    const char *who = nick_of(c, seat), *to = c->row.creator, *next = nick_of(c, j->why.next);
    const pzai_why *w = &j->why;
    if (a->kind == PZ_ACT_TENDIDO)
        host__say_private(c, to, 0,
                          a->now ? _("Why %s chose %s: laid now and arranged at its best it scores "
                                     "on average +%d at once, over the deals it cannot tell apart")
                                 : _("Why %s chose %s: laid now it would score on average only +%d "
                                     "at once, over the deals it cannot tell apart"),
                          who, words, w->expected);
    else if (avoids(w) != AVOIDS_NONE)
        host__say_private(c, to, 0,
                          avoids(w) == AVOIDS_LIMPIA
                              ? _("Why %s played %s: it leaves %s no limpia")
                              : _("Why %s played %s: it leaves %s no porrazo"),
                          who, words, next);
    else if (w->next >= 0)
        explain_next(c, w, who, words);
    else if (a->kind == PZ_ACT_PLAY && last_card(&j->view))
        host__say_private(c, to, 0,
                          j->view.deal == j->view.deals_per_hand
                              ? _("%s: %s, the last card of the hand")
                              : _("%s: %s, the last card of the deal"),
                          who, words);
    else
        host__say_private(c, to, 0, _("%s: %s"), who, words);
}

/* ------------------------------------------------------------------------ */
/* The worker's answers                                                     */

/* Loads game id into c whatever its status (a review comes after the
   game's last hand too): row, seats, settings; not the engine state. 1, 0
   when it is gone, -1 on a store error. */
static int load_by_id(ctx *c, int64_t id)
{
    int err = store_game_get(c->h->st, id, &c->row);
    if (err == STORE_NOT_FOUND)
        return 0;
    c->have_game = err == 0;
    if (err == 0)
        err = store_seats_get(c->h->st, id, c->seats, PZ_MAX_PLAYERS, &c->nseats);
    if (err != 0) {
        host__failed(c, err);
        return -1;
    }
    return host__settings_parse(&c->set, c->row.settings) == 0 ? 1 : 0;
}

int host__learn_deliver(host *h, const think_job *j, int64_t now)
{
    if (store_begin(h->st) != 0) {
        snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        return -1;
    }
    ctx c = {.h = h, .now = now, .network = j->network};
    if (j->purpose == THINK_HINT) { /* for the game as it is, if it still is */
        if (host__game_load(&c, j->room) > 0 && c.row.id == j->game && c.g != NULL) {
            if (host__robot_fingerprint(&c) != j->fingerprint)
                host__say_private(&c, j->player, 0,
                                  _("Hint in %s: the game moved on before it was ready; ask again"),
                                  c.row.room);
            else
                tell_hint(&c, j);
        }
    } else if (load_by_id(&c, j->game) > 0) { /* judged from the job's view */
        if (j->purpose == THINK_JUDGE)
            tell_judged(&c, j);
    }
    host__game_unload(&c);
    if (c.failed || store_commit(h->st) != 0) {
        if (!c.failed)
            snprintf(h->err, sizeof h->err, "%s", store_errmsg(h->st));
        store_rollback(h->st);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Listening to the moves (hlisten.h)                                       */

/* What learning takes of the game before a judged play. */
typedef struct learn_taken {
    int seat, hand;
    uint64_t seed;
    pz_view view;
    pz_record record;
} learn_taken;

/* A person's play about to be applied, judged: what they knew before it
   (the view and the record, in one allocation). NULL for anything else,
   and when memory is short (that play goes unjudged). */
static void *before_move(ctx *c, const pz_action *a, const char *forced)
{
    if (forced != NULL || a->kind != PZ_ACT_PLAY || !learn_judges(c, a->seat) ||
        host__absent_computer(c, a->seat))
        return NULL;
    learn_taken *t = malloc(sizeof *t);
    if (t == NULL)
        return NULL;
    t->seat = a->seat;
    t->hand = hand_now(c);
    t->seed = learn_seed(c, a->seat);
    if (pz_view_seat(c->g, a->seat, &t->view) != 0 || pz_public_record(c->g, &t->record) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

/* The play before_move took is applied (judged) or refused (forgotten). */
static void after_move(ctx *c, const pz_action *a, void *taken, bool applied)
{
    learn_taken *t = taken;
    if (applied)
        learn_judge(c, t->seat, &t->view, &t->record, t->seed, a, t->hand);
    free(t);
}

const hs_listener host__learn_listener = {before_move, after_move, learn_hand_end, learn_forget};
