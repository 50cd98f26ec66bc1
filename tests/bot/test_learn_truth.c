/*
 * test_learn_truth.c — the truth checker of the teaching, at the bot
 * (issue 31): practice and review games (several seeds, 2 to 4 players)
 * in which ann asks for a hint at each of her decisions and either types
 * the hint back (the command it names: a card and its mode, tendido now
 * or later, arrange best) or plays the host's default; every fact the bot
 * then says to her (the hint's words, the computer players' moves
 * explained, the judged plays and each hand's review) is parsed out of
 * the text and compared with what the engine recorded for that move:
 * - "X takes Y Z": the cards the capture took;
 * - "limpia +1", "in place +4", "(then bob's porrazo +1)": the scores;
 * - "porrazo pending, +N if it stands", "counter porrazo pending": the
 *   pending kind, and N against the points the engine records when it
 *   stands (the next player's moves that let it stand, tried on the
 *   recorded game; and the one made, when it does);
 * - "arrange best — +N in all: parts": N, the sum of the parts and the
 *   arrangement's scores recorded, all equal;
 * - "yours +N" (a judged play): the points the play made at once;
 * - "you hold none" / "with your 7": the learner's own hand.
 * "tendido now ... on average +N" is an expectation (the four cards are
 * not dealt yet): its mean is printed beside the mean scored, not
 * compared. The figures checked are counted and printed; mismatches 0.
 * A move is found by applying each legal action to the game before it and
 * comparing with the stored game after it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "learn_table.h"

#define DASH " \xE2\x80\x94 "

enum { F_TAKES, F_SCORE, F_PENDING, F_STOOD, F_ARRANGE, F_VALUE, F_HAND, FIGURES };
static const char *const FIGURE_NAME[FIGURES] = {"cards taken",
                                                 "points scored",
                                                 "a pending porrazo's worth if it stands",
                                                 "a porrazo's worth when it stood",
                                                 "the arrangement's total and parts",
                                                 "a judged play's points at once",
                                                 "the learner's own hand"};

typedef struct truth {
    long checked, mismatches, of[FIGURES];
    long tendidos, said, scored; /* the tendido's expectation against its scores */
    long arranges_typed;         /* the arrange hint typed back, accepted */
} truth;
static truth T;

/* One figure compared: stated against recorded, where is the line. */
static void compare(int figure, const char *where, long stated, long recorded)
{
    T.checked++;
    T.of[figure]++;
    if (stated != recorded) {
        T.mismatches++;
        print_error("%s: stated %ld, recorded %ld in \"%s\"\n", FIGURE_NAME[figure], stated,
                    recorded, where);
    }
}

/* A move found on the stored game: its action and the engine's events. */
typedef struct move {
    pz_action a;
    int side, end; /* the mover's side; the move's own events are [0, end) */
    pz_events ev;
    pz_game *after; /* the game it leaves (before the next hand), caller frees */
} move;

/* Whether e belongs to what follows a move (render_moves.c's rule). */
static bool past_the_move(const pz_event *e)
{
    return e->kind == PZ_EV_DEAL || e->kind == PZ_EV_TENDIDO || e->kind == PZ_EV_LEFTOVER ||
           e->kind == PZ_EV_HAND_END || (e->kind == PZ_EV_SCORE && e->reason == PZ_REASON_CARDS);
}

/* Whether game g, a applied to it, is the stored game s (NULL: the game
   is over): the same document, or a hand over whose scores s carries. */
static bool leads_to(const pz_game *g, const pz_game *s)
{
    pz_phase p = pz_get_phase(g);
    if (s == NULL)
        return p == PZ_PHASE_GAME_OVER;
    if (p == PZ_PHASE_HAND_OVER) {
        for (int k = 0; k < pz_get_sides(g); k++)
            if (pz_get_score(g, k) != pz_get_score(s, k))
                return false;
        return true;
    }
    static char x[PZ_SAVE_MAX], y[PZ_SAVE_MAX];
    return pz_save(g, x, sizeof x) > 0 && pz_save(s, y, sizeof y) > 0 && strcmp(x, y) == 0;
}

/* a tried on before into m; true when it leads to after. */
static bool try_move(const pz_game *before, const pz_game *after, const pz_action *a, move *m)
{
    pz_game *g = pz_clone(before);
    assert_non_null(g);
    m->ev.n = 0;
    if (pz_apply(g, a, &m->ev, NULL, 0) != 0 || !leads_to(g, after)) {
        pz_free(g);
        return false;
    }
    m->a = *a;
    m->side = pz_side_of(before, a->seat);
    m->end = 0;
    while (m->end < m->ev.n && !past_the_move(&m->ev.ev[m->end]))
        m->end++;
    m->after = g;
    return true;
}

/* The move seat made from before to after into m (typed first: what ann
   said), found among the legal actions. */
static bool find_move(const pz_game *before, const pz_game *after, int seat, const pz_action *typed,
                      move *m)
{
    static pz_action legal[PZ_LEGAL_MAX];
    if (typed != NULL && try_move(before, after, typed, m))
        return true;
    int n = pz_legal_actions(before, seat, legal, PZ_LEGAL_MAX);
    for (int i = 0; i < n; i++)
        if (legal[i].kind != PZ_ACT_NEXT_HAND && try_move(before, after, &legal[i], m))
            return true;
    return false;
}

/* Whether m's event e is its side's score (the words' "reason +N"). */
static bool own_score(const move *m, const pz_event *e)
{
    return e->kind == PZ_EV_SCORE && (e->side == m->side || (e->side < 0 && e->seat == m->a.seat));
}

/* The points the porrazo seat left pending on g scores when it stands:
   each next move that lets it stand tried on g, the porrazo, counter and
   limpia points the engine records for seat then (-1: none lets it). */
static int worth_if_it_stands(const pz_game *g, int seat)
{
    static pz_action legal[PZ_LEGAL_MAX];
    static pz_events ev;
    int worth = -1, n = pz_legal_actions(g, pz_get_turn(g), legal, PZ_LEGAL_MAX);
    for (int i = 0; i < n && worth < 0; i++) {
        pz_game *c = pz_clone(g);
        ev.n = 0;
        if (legal[i].kind == PZ_ACT_PLAY && pz_apply(c, &legal[i], &ev, NULL, 0) == 0) {
            int got = 0;
            bool stood = false;
            for (int k = 0; k < ev.n; k++)
                if (ev.ev[k].kind == PZ_EV_SCORE && ev.ev[k].seat == seat &&
                    (ev.ev[k].reason == PZ_REASON_PORRAZO ||
                     ev.ev[k].reason == PZ_REASON_COUNTER_PORRAZO ||
                     ev.ev[k].reason == PZ_REASON_LIMPIA)) {
                    stood |= ev.ev[k].reason != PZ_REASON_LIMPIA;
                    got += ev.ev[k].points;
                }
            if (stood)
                worth = got;
        }
        pz_free(c);
    }
    return worth;
}

/* A score's reason from its words, or -1. */
static int reason_of(const char *w, size_t len)
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
    };
    for (size_t r = 0; r < sizeof words / sizeof words[0]; r++)
        if (words[r] != NULL && strlen(words[r]) == len && strncmp(words[r], w, len) == 0)
            return (int)r;
    return -1;
}

/* A pending porrazo the words said ann's move left: compared when it
   stands (or forgotten when it is countered). */
static struct {
    bool open;
    int seat, worth;
    char line[512];
} claim;

/* One "reason +N" segment of m's words against m's scores (taken once). */
static void check_score(const move *m, bool used[], const char *seg, size_t len, bool other,
                        const char *line)
{
    const char *plus = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (seg[i] == ' ' && seg[i + 1] == '+')
            plus = seg + i;
    if (plus == NULL) {
        compare(F_SCORE, line, 1, 0); /* words the checker cannot read are a mismatch */
        return;
    }
    int reason = reason_of(seg, (size_t)(plus - seg)), stated = (int)strtol(plus + 2, NULL, 10);
    int found = -1;
    for (int i = 0; i < m->end && found < 0; i++) {
        const pz_event *e = &m->ev.ev[i];
        if (!used[i] && e->kind == PZ_EV_SCORE && e->reason == reason && own_score(m, e) != other &&
            (other || reason != PZ_REASON_IN_PLACE || e->seat == m->a.seat))
            found = i;
    }
    if (found >= 0)
        used[found] = true;
    compare(F_SCORE, line, stated, found >= 0 ? m->ev.ev[found].points : -1);
}

/* The worth a "porrazo pending, +N if it stands" segment states for m. */
static void check_pending(const move *m, const char *seg, const char *line)
{
    const char *plus = strstr(seg, "+");
    int stated = plus != NULL ? (int)strtol(plus + 1, NULL, 10) : -1, seat = -1;
    pz_pending_kind kind = pz_get_pending(m->after, &seat);
    bool counter = strncmp(seg, "counter ", 8) == 0;
    compare(F_PENDING, line, counter ? PZ_PENDING_COUNTER : PZ_PENDING_PORRAZO, kind);
    compare(F_PENDING, line, stated, worth_if_it_stands(m->after, m->a.seat));
    claim.open = true;
    claim.seat = m->a.seat;
    claim.worth = stated;
    snprintf(claim.line, sizeof claim.line, "%s", line);
}

/* The cards m's capture took, as the words say them ("7♣ 8♦"). */
static void taken_words(const move *m, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < m->end; i++)
        for (int k = 0; m->ev.ev[i].kind == PZ_EV_CAPTURE && k < m->ev.ev[i].ncards; k++) {
            char card[8];
            card_words(m->ev.ev[i].cards[k], card, sizeof card);
            int n = snprintf(buf + len, cap - len, "%s%s", len > 0 ? " " : "", card);
            if (n > 0 && (size_t)n < cap - len)
                len += (size_t)n;
        }
}

/* The points m's own scores make for its side (reasons, or any: -1). */
static int own_points(const move *m, int r1, int r2)
{
    int points = 0;
    for (int i = 0; i < m->end; i++)
        if (own_score(m, &m->ev.ev[i]) &&
            (r1 < 0 || m->ev.ev[i].reason == r1 || m->ev.ev[i].reason == r2))
            points += m->ev.ev[i].points;
    return points;
}

/* The segments of s (len bytes) split at ", " but not inside "pending, +". */
static void check_tail(const move *m, bool used[], const char *s, size_t len, const char *line)
{
    while (len > 0) {
        size_t n = 0;
        while (n + 1 < len && !(s[n] == ',' && s[n + 1] == ' ' && strncmp(s + n + 2, "+", 1) != 0))
            n++;
        if (n + 1 >= len)
            n = len;
        char seg[256];
        snprintf(seg, sizeof seg, "%.*s", (int)n, s);
        if (strstr(seg, "pending") != NULL)
            check_pending(m, seg, line);
        else if (strcmp(seg, "san benito") == 0)
            compare(F_SCORE, line, 1, m->end > 0 && pz_get_winner(m->after) >= 0);
        else
            check_score(m, used, seg, n, false, line);
        s += n < len ? n + 2 : n;
        len -= n < len ? n + 2 : n;
    }
}

/* Every fact of w (a move's words, render_outcome's) against m. */
static void check_words(const move *m, const char *w, const char *line)
{
    bool used[PZ_EVENTS_MAX] = {false};
    char main[512];
    snprintf(main, sizeof main, "%s", w);
    char *then = strstr(main, " (then ");
    if (then != NULL) { /* another side's scores: "NAME's reason +N, ..." */
        char *close = strrchr(then, ')');
        if (close != NULL)
            *close = '\0';
        for (char *p = then + 7; p != NULL && *p != '\0';) {
            char *next = strstr(p, ", "), *s = strstr(p, "'s ");
            if (next != NULL)
                *next = '\0';
            if (s != NULL)
                check_score(m, used, s + 3, strlen(s + 3), true, line);
            else
                compare(F_SCORE, line, 1, 0);
            p = next != NULL ? next + 2 : NULL;
        }
        *then = '\0';
    }
    char *end = strstr(main, DASH "you win");
    if (end == NULL)
        end = strstr(main, DASH "the game ends");
    if (end != NULL)
        *end = '\0';
    char *colon = strstr(main, ": ");
    size_t head = colon != NULL ? (size_t)(colon - main) : strlen(main);
    if (strncmp(main, "arrange best" DASH, strlen("arrange best" DASH)) == 0) {
        int total = (int)strtol(main + strlen("arrange best" DASH), NULL, 10), parts = 0;
        for (char *p = colon != NULL ? colon + 2 : NULL; p != NULL;) {
            char *plus = strstr(p, " +");
            parts += plus != NULL ? (int)strtol(plus + 2, NULL, 10) : 0;
            p = strstr(p, ", ");
            p = p != NULL ? p + 2 : NULL;
        }
        compare(F_ARRANGE, line, total, parts);
        compare(F_ARRANGE, line, total,
                own_points(m, PZ_REASON_TENDIDO_PLACE, PZ_REASON_TENDIDO_SETS));
    }
    char *takes = strstr(main, " takes ");
    if (takes != NULL && (size_t)(takes - main) < head) {
        char stated[128], recorded[128];
        snprintf(stated, sizeof stated, "%.*s", (int)(head - (size_t)(takes + 7 - main)),
                 takes + 7);
        taken_words(m, recorded, sizeof recorded);
        compare(F_TAKES, line, strcmp(stated, recorded) == 0, 1);
    }
    char *place = strstr(main, " in place +");
    if (place != NULL && (size_t)(place - main) < head)
        check_score(m, used, place + 1, head - (size_t)(place + 1 - main), false, line);
    if (colon != NULL && strncmp(main, "arrange best", 12) != 0)
        check_tail(m, used, colon + 2, strlen(colon + 2), line);
    else if (colon != NULL) /* the parts, each a score of its own */
        check_tail(m, used, colon + 2, strlen(colon + 2), line);
}

/* The value of m at once for its side, as pzai_why's: its side's points
   less another's, a porrazo it leaves pending at what it scores if it
   stands. */
static int value_of(const move *m)
{
    int value = 0, seat = -1;
    for (int i = 0; i < m->end; i++)
        if (m->ev.ev[i].kind == PZ_EV_SCORE)
            value += m->ev.ev[i].side == m->side ? m->ev.ev[i].points : -m->ev.ev[i].points;
    if (pz_get_phase(m->after) == PZ_PHASE_PLAY && pz_get_pending(m->after, &seat) != 0 &&
        seat == m->a.seat) {
        int worth = worth_if_it_stands(m->after, seat);
        value += worth > 0 ? worth : 0;
    }
    return value;
}

/* A rank as the words say it ("7", "K"), or -1. */
static int rank_of(const char *w)
{
    static const char *const rank[] = {"A", "2", "3",  "4", "5", "6", "7",
                                       "8", "9", "10", "J", "Q", "K"};
    for (int r = 12; r >= 0; r--)
        if (strncmp(w, rank[r], strlen(rank[r])) == 0)
            return r;
    return -1;
}

/* Whether seat holds a card of rank on g. */
static bool holds(const pz_game *g, int seat, int rank)
{
    pz_card hand[PZ_CARDS];
    int n = pz_get_hand(g, seat, hand);
    for (int i = 0; i < n; i++)
        if (pz_card_rank(hand[i]) == rank)
            return true;
    return false;
}

/* The tendido's stated expectation waiting for its arrangement, a seat's. */
static int tendido_said[PZ_MAX_PLAYERS] = {-1, -1, -1, -1, -1, -1, -1, -1};

/* "... about N at once" / "on average +N": the expectation for seat. */
static void note_tendido(int seat, const char *line)
{
    const char *at = strstr(line, "on average +");
    if (at != NULL && strstr(line, "laid now and arranged") != NULL)
        tendido_said[seat] = (int)strtol(at + strlen("on average +"), NULL, 10);
}

/* m arranged a tendido: its scores beside the expectation said. */
static void note_arranged(const move *m)
{
    if (m->a.kind != PZ_ACT_ARRANGE || tendido_said[m->a.seat] < 0)
        return;
    T.tendidos++;
    T.said += tendido_said[m->a.seat];
    T.scored += own_points(m, PZ_REASON_TENDIDO_PLACE, PZ_REASON_TENDIDO_SETS);
    tendido_said[m->a.seat] = -1;
}

/* The move after ann's left her pending porrazo standing or countered. */
static void settle_claim(const move *m)
{
    if (!claim.open || m->a.seat == claim.seat)
        return;
    int got = 0;
    bool stood = false;
    for (int i = 0; i < m->ev.n; i++)
        if (m->ev.ev[i].kind == PZ_EV_SCORE && m->ev.ev[i].seat == claim.seat &&
            (m->ev.ev[i].reason == PZ_REASON_PORRAZO ||
             m->ev.ev[i].reason == PZ_REASON_COUNTER_PORRAZO ||
             m->ev.ev[i].reason == PZ_REASON_LIMPIA)) {
            stood |= m->ev.ev[i].reason != PZ_REASON_LIMPIA;
            got += m->ev.ev[i].points;
        }
    if (stood)
        compare(F_STOOD, claim.line, claim.worth, got);
    claim.open = false;
}

/* A computer player's move m explained to ann (line): the move's words
   between the player's name and the explanation, and what it says of
   ann's hand. */
static void check_explained(const move *m, const char *line)
{
    static const char *const ends[] = {": it leaves ", ": you may ", ": a player holding ",
                                       ", the last card of the ", ": laid now"};
    const char *w = strstr(line, " played ");
    w = w != NULL ? w + 8 : strstr(line, " chose ") ? strstr(line, " chose ") + 7 : NULL;
    if (w == NULL && (w = strstr(line, "): ")) != NULL)
        w += 3;
    if (w == NULL)
        return;
    const char *end = w + strlen(w);
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        const char *e = strstr(w, ends[i]);
        if (e != NULL && e < end)
            end = e;
    }
    const char *may = strstr(w, " may counter it (");
    if (may == NULL)
        may = strstr(w, " may porrazo it (");
    for (const char *p = w; may != NULL && (p = strstr(p, ": ")) != NULL && p < may; p += 2)
        if (p < end && strstr(p + 2, ": ") == NULL)
            end = p;
    char words[512];
    snprintf(words, sizeof words, "%.*s", (int)(end - w), w);
    check_words(m, words, line);
    note_tendido(m->a.seat, line);
    const char *with = strstr(line, "with your "), *none = strstr(line, "; you hold none");
    if (with != NULL)
        compare(F_HAND, line, 1, holds(m->after, 0, rank_of(with + 10)));
    if (none != NULL) {
        const char *r = strstr(line, "the third ");
        r = r != NULL ? r + 10 : strstr(line, "another ") ? strstr(line, "another ") + 8 : NULL;
        compare(F_HAND, line, 0, r != NULL ? holds(m->after, 0, rank_of(r)) : 1);
    }
}

/* ann's judged play: "...yours +N" / "...against your +N". */
static void check_judged(const move *m, const char *line)
{
    const char *y = strstr(line, "at once, yours ");
    const char *a = strstr(line, "at once against your ");
    if (y != NULL)
        compare(F_VALUE, line, strtol(y + 15, NULL, 10), value_of(m));
    else if (a != NULL)
        compare(F_VALUE, line, strtol(a + 21, NULL, 10), value_of(m));
}

/* ann's plays this game: hand (1-based), deal, card, value at once. */
static struct played {
    int hand, deal, value;
    char card[8];
} plays[600];
static int nplays, hands;

/* "Review of hand H in #t: deal D, your W: ..." against ann's play. */
static void check_review(const char *line)
{
    const char *at = strstr(line, "Review of hand "), *d = strstr(line, ": deal ");
    const char *y = strstr(line, "at once, yours ");
    if (at == NULL || d == NULL || y == NULL)
        return;
    int hand = (int)strtol(at + 15, NULL, 10), deal = (int)strtol(d + 7, NULL, 10);
    const char *card = strstr(d, ", your ");
    for (int i = 0; card != NULL && i < nplays; i++)
        if (plays[i].hand == hand && plays[i].deal == deal &&
            strncmp(card + 7, plays[i].card, strlen(plays[i].card)) == 0 &&
            card[7 + strlen(plays[i].card)] == ' ') {
            compare(F_VALUE, line, strtol(y + 15, NULL, 10), plays[i].value);
            return;
        }
    compare(F_VALUE, line, 1, 0); /* a review of a play ann did not make */
}

/* The lines to ann from `from` on: the judged plays, explanations of m
   (a computer player's move) and the reviews; "New hand" counted. */
static void read_lines(const table *t, int from, const move *m)
{
    for (int i = from; i < t->nmsg; i++) {
        const char *text = t->msg[i].text;
        if (strcmp(t->msg[i].target, ROOM) == 0 && strstr(text, "New hand") != NULL)
            hands++;
        if (strcmp(t->msg[i].target, "ann") != 0)
            continue;
        if (strstr(text, "Review of hand ") != NULL)
            check_review(text);
        else if (m->a.seat == 0 && (strstr(text, "Stronger than your ") != NULL ||
                                    strstr(text, "The strong level would") != NULL))
            check_judged(m, text);
        else if (m->a.seat != 0 && strncmp(text, "Hint in", 7) != 0)
            check_explained(m, text);
    }
}

/* The hint's words (up to its explanation), and the command they name
   into cmd with the action typed (a card of g's seat 0 and its mode). */
static void hint_command(const pz_game *g, const char *hint, char *words, size_t cap, char *cmd,
                         size_t cmdcap, pz_action *a)
{
    static const char *const ends[] = {DASH "the risk: ", DASH "and it leaves ", DASH "laid now"};
    const char *w = hint + strlen("Hint in #t: "), *end = w + strlen(w);
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        if (strstr(w, ends[i]) != NULL && strstr(w, ends[i]) < end)
            end = strstr(w, ends[i]);
    snprintf(words, cap, "%.*s", (int)(end - w), w);
    if (strncmp(words, "tendido ", 8) == 0) {
        *a = pz_act_tendido(0, strcmp(words, "tendido now") == 0);
        snprintf(cmd, cmdcap, "!%s", words);
        return;
    }
    if (strncmp(words, "arrange best", 12) == 0) { /* the command, typed as read */
        const char *dash = strstr(words, DASH);
        *a = pz_act_arrange_best(0);
        snprintf(cmd, cmdcap, "!%.*s", dash ? (int)(dash - words) : (int)strlen(words), words);
        T.arranges_typed++;
        return;
    }
    pz_card hand[PZ_CARDS];
    int n = pz_get_hand(g, 0, hand);
    size_t len = strcspn(words, " ");
    for (int i = 0; i < n; i++) {
        char card[8];
        card_words(hand[i], card, sizeof card);
        if (strlen(card) == len && strncmp(card, words, len) == 0) {
            const char *mode = words + len;
            pz_mode md = strncmp(mode, " capture", 8) == 0  ? PZ_MODE_CAPTURE
                         : strncmp(mode, " place ", 7) == 0 ? PZ_MODE_PLACE
                                                            : PZ_MODE_ANY;
            *a = pz_act_play(0, hand[i], md);
            snprintf(cmd, cmdcap, "!play %s%s", card,
                     md == PZ_MODE_CAPTURE ? " capture"
                     : md == PZ_MODE_PLACE ? " place"
                                           : "");
            return;
        }
    }
    fail_msg("the hint names no card of ann's hand: %s", hint);
}

/* What ann types for the engine's default action (weak: the first play
   of the legal list instead, often giving points away), into cmd and *a. */
static void default_command(const pz_game *g, bool weak, char *cmd, size_t cap, pz_action *a)
{
    static pz_action legal[PZ_LEGAL_MAX];
    char card[8];
    assert_int_equal(pz_default_action(g, 0, a), 0);
    int n = weak && a->kind == PZ_ACT_PLAY ? pz_legal_actions(g, 0, legal, PZ_LEGAL_MAX) : 0;
    for (int i = 0; i < n; i++)
        if (legal[i].kind == PZ_ACT_PLAY) {
            *a = legal[i];
            break;
        }
    if (a->kind == PZ_ACT_TENDIDO)
        snprintf(cmd, cap, "!tendido %s", a->now ? "now" : "later");
    else if (a->kind == PZ_ACT_ARRANGE)
        snprintf(cmd, cap, "!arrange best");
    else {
        card_words(a->card, card, sizeof card);
        snprintf(cmd, cap, "!play %s%s", card,
                 a->mode == PZ_MODE_CAPTURE ? " capture"
                 : a->mode == PZ_MODE_PLACE ? " place"
                                            : "");
    }
}

/* ann decides on g (step of the game): a hint asked for and typed back
   (follow), or the default played (a weak play when weak); every line
   then checked. */
static void ann_decides(table *t, const pz_game *g, bool follow, bool weak)
{
    int from = t->nmsg;
    say(t, "ann", "!hint");
    const char *hint = NULL;
    for (int i = from; i < t->nmsg; i++)
        if (strcmp(t->msg[i].target, "ann") == 0 &&
            strncmp(t->msg[i].text, "Hint in #t: ", 12) == 0)
            hint = t->msg[i].text;
    assert_non_null(hint);
    static char words[512], line[1024], cmd[600];
    pz_action typed;
    snprintf(line, sizeof line, "%s", hint);
    if (follow)
        hint_command(g, line, words, sizeof words, cmd, sizeof cmd, &typed);
    else
        default_command(g, weak, cmd, sizeof cmd, &typed);
    from = t->nmsg;
    say(t, "ann", cmd);
    pz_game *after = game_now(t);
    static move m;
    if (!find_move(g, after, 0, &typed, &m))
        fail_msg("\"%s\" was not accepted (hint: %s)", cmd, line);
    if (follow && m.a.kind == typed.kind) {
        check_words(&m, words, line);
        note_tendido(0, line);
    }
    note_arranged(&m);
    if (m.a.kind == PZ_ACT_PLAY && nplays < (int)(sizeof plays / sizeof plays[0])) {
        struct played *p = &plays[nplays++];
        p->hand = hands;
        p->deal = pz_get_deal(g);
        p->value = value_of(&m);
        card_words(m.a.card, p->card, sizeof p->card);
    }
    read_lines(t, from, &m);
    pz_free(m.after);
    pz_free(after);
}

/* The computer players move (a tick): each move found and its lines
   checked. */
static void robots_move(table *t, const pz_game *g)
{
    int from = t->nmsg, seat = to_act(g);
    tick(t, 1);
    pz_game *after = game_now(t);
    static char a[PZ_SAVE_MAX], b[PZ_SAVE_MAX];
    if (after != NULL && pz_save(g, a, sizeof a) > 0 && pz_save(after, b, sizeof b) > 0 &&
        strcmp(a, b) == 0) {
        read_lines(t, from, &(move){.a = {.seat = -1}});
        pz_free(after);
        return;
    }
    static move m;
    if (!find_move(g, after, seat, NULL, &m))
        fail_msg("a computer player's move not found among the legal actions");
    settle_claim(&m);
    note_arranged(&m);
    read_lines(t, from, &m);
    pz_free(m.after);
    pz_free(after);
}

/* One game opened by `open` with `review` on; ann follows every hint when
   follow is 2, every other one when 1, none when 0 (and plays weakly when
   -1). */
static void play_game(uint64_t seed, const char *open, bool review, int follow)
{
    table *t = open_table_seeded(seed);
    nplays = hands = 0;
    claim.open = false;
    if (review)
        say(t, "ann", "!review on");
    int from = t->nmsg;
    say(t, "ann", open);
    read_lines(t, from, &(move){.a = {.seat = -1}});
    int decisions = 0;
    for (int step = 0; step < 6000; step++) {
        pz_game *g = game_now(t);
        if (g == NULL)
            break;
        if (to_act(g) == 0)
            ann_decides(t, g, follow == 2 || (follow == 1 && decisions++ % 2 == 0), follow < 0);
        else
            robots_move(t, g);
        pz_free(g);
    }
    assert_null(game_now(t));
    close_table(t);
}

static void test_every_fact_said_is_what_the_engine_records(void **state)
{
    (void)state;
    memset(&T, 0, sizeof T);
    for (uint64_t seed = 77; seed < 77 + 3; seed++) {
        play_game(seed, "!learn to 21", true, 2);                /* 3 players, practice */
        play_game(seed + 10, "!new 2 practice to 21", true, 0);  /* judged, reviewed */
        play_game(seed + 20, "!new 4 practice to 21", false, 2); /* 4 players */
        play_game(seed + 30, "!new 2 bot to 21", true, 1);       /* half the hints, reviewed */
        play_game(seed + 40, "!new 3 practice to 21", true, 1);
        play_game(seed + 50, "!new 2 practice to 21", true, -1); /* weak plays, judged */
    }
    printf("truth at the bot: %ld figures checked, %ld mismatches\n", T.checked, T.mismatches);
    for (int f = 0; f < FIGURES; f++)
        printf("  %-45s %ld\n", FIGURE_NAME[f], T.of[f]);
    printf("  arrange hints typed back and accepted: %ld\n", T.arranges_typed);
    if (T.tendidos > 0)
        printf("  tendido now, the expectation said: %ld tendidos, mean %.2f said, %.2f "
               "scored\n",
               T.tendidos, (double)T.said / (double)T.tendidos,
               (double)T.scored / (double)T.tendidos);
    assert_int_equal(T.mismatches, 0);
    for (int f = 0; f < FIGURES; f++)
        assert_true(T.of[f] > 0); /* each kind of figure met and checked */
    assert_true(T.arranges_typed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_fact_said_is_what_the_engine_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
