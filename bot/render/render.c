/*
 * render.c — Porrazo in words, part one: the bounded text builder
 * (render_text.h), cards, nicks and sides, and the views of a game at rest:
 * the status line, the score board, a seat's private hand line and the
 * options. Lines are UTF-8 with the suits as ♣ ♦ ♥ ♠ (render.h is the
 * contract).
 *
 * Every text goes through an rtext that cuts at a UTF-8 boundary and ends a
 * cut text with "…", so no caller buffer is ever overrun and no line ends
 * inside a character. Public lines hold public facts only. This file
 * decides nothing about the rules; it reads the engine through porrazo.h.
 * Not here: the events of an action (render_events.c), the help and rules
 * texts (help.c).
 */
#include "cmd_options.h"
#include "i18n.h"
#include "render_text.h"
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ELLIPSIS "\xE2\x80\xA6"       /* "…", written at the end of a cut text */
#define SIDE_NAME_MAX RENDER_LINE_MAX /* a side (up to 4 nicks): cut only as its line */
#define BAR_CELLS 20                  /* cells of a score board bar */

/* ------------------------------------------------------------------------ */
/* UTF-8 and the bounded builder                                            */

/* Shortens the first len bytes of s so that they do not end inside a
   UTF-8 sequence nor inside a marker of the host (bytes 0xFF around a
   name, live.c: an unfinished one would lose the rest of the line when it
   is sent), writes a NUL after them and returns the new length. */
static size_t utf8_trim(char *s, size_t len)
{
    size_t open = len, marks = 0;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] == 0xFF && marks++ % 2 == 0)
            open = i;
    if (marks % 2 != 0)
        len = open;
    s[len] = '\0';
    return text_utf8_cut(s, len);
}

/* Display width of a UTF-8 string: its count of characters. */
static size_t utf8_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

/* Starts an empty text in s[cap]; with cap 0 nothing is ever written. */
void rtext_init(rtext *b, char *s, size_t cap)
{
    b->s = s;
    b->cap = cap;
    b->len = 0;
    b->cut = cap == 0;
    if (cap > 0)
        s[0] = '\0';
}

/*
 * Marks b cut: keeps what is written, shortened at a UTF-8 boundary so
 * that "…" fits after it (when the buffer can hold "…" at all).
 */
static void rtext_cut(rtext *b)
{
    if (b->cap == 0)
        return;
    size_t keep = b->len;
    bool room = b->cap >= sizeof ELLIPSIS;
    size_t most = room ? b->cap - sizeof ELLIPSIS : b->cap - 1;
    if (keep > most)
        keep = most;
    b->len = utf8_trim(b->s, keep);
    if (room) {
        memcpy(b->s + b->len, ELLIPSIS, sizeof ELLIPSIS);
        b->len += sizeof ELLIPSIS - 1;
    }
    b->cut = true;
}

/* Appends printf-style text to b; on overflow b ends cut with "…". */
static void rtext_vaddf(rtext *b, const char *fmt, va_list ap) RENDER_PRINTF(2, 0);
static void rtext_vaddf(rtext *b, const char *fmt, va_list ap)
{
    if (b->cut)
        return;
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->s + b->len, room, fmt, ap);
    if (n < 0) {
        b->s[b->len] = '\0';
        rtext_cut(b);
    } else if ((size_t)n >= room) {
        b->len = b->cap - 1;
        rtext_cut(b);
    } else {
        b->len += (size_t)n;
    }
}

/* Appends printf-style text to b (see rtext_vaddf). */
void rtext_addf(rtext *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rtext_vaddf(b, fmt, ap);
    va_end(ap);
}

/*
 * Appends sep then piece only if both fit whole, else ends b cut: a card
 * is never written in part. To make room for the "…" the cut drops whole
 * space-separated words (cards) from the end, never part of one.
 */
void rtext_whole(rtext *b, const char *sep, const char *piece)
{
    if (b->cut)
        return;
    size_t n = strlen(sep) + strlen(piece);
    if (b->len + n < b->cap) {
        rtext_addf(b, "%s%s", sep, piece);
        return;
    }
    size_t most = b->cap >= sizeof ELLIPSIS ? b->cap - sizeof ELLIPSIS : 0;
    while (b->len > most) {
        size_t k = b->len;
        while (k > 0 && b->s[k - 1] != ' ')
            k--;
        b->len = k > 0 ? k - 1 : 0;
    }
    b->s[b->len] = '\0';
    rtext_cut(b);
}

/* Starts out empty (render.h). */
void render_init(render_lines *out)
{
    out->n = 0;
}

/* Appends one formatted line to out, cut at a UTF-8 boundary with "…" when
   too long; nothing when out already holds RENDER_LINES_MAX lines. */
void render_add(render_lines *out, const char *fmt, ...)
{
    if (out->n < 0 || out->n >= RENDER_LINES_MAX)
        return;
    rtext b;
    rtext_init(&b, out->line[out->n], RENDER_LINE_MAX);
    va_list ap;
    va_start(ap, fmt);
    rtext_vaddf(&b, fmt, ap);
    va_end(ap);
    out->n++;
}

/* Appends the finished text of b as one line of out. */
void rtext_line(render_lines *out, const rtext *b)
{
    render_add(out, "%s", b->s);
}

/* ------------------------------------------------------------------------ */
/* Cards, names, sides                                                      */

static const char *const RANK_WORD[PZ_RANKS] = {"A", "2", "3",  "4", "5", "6", "7",
                                                "8", "9", "10", "J", "Q", "K"};
static const char *const SUIT_SYMBOL[PZ_SUITS] = {"\xE2\x99\xA3", "\xE2\x99\xA6", "\xE2\x99\xA5",
                                                  "\xE2\x99\xA0"};

/* The word of rank r, "?" out of range (render_text.h). */
const char *rtext_rank_word(int r)
{
    return r >= 0 && r < PZ_RANKS ? RANK_WORD[r] : "?";
}

const char *render_rank(int r)
{
    return rtext_rank_word(r);
}

/* Writes c as rank and suit symbol ("10♠") into buf[8]; "??" for no card. */
void render_card(pz_card c, char buf[8])
{
    if (c >= PZ_CARDS) {
        memcpy(buf, "??", 3);
        return;
    }
    int n = snprintf(buf, 8, "%s%s", RANK_WORD[pz_card_rank(c)], SUIT_SYMBOL[pz_card_suit(c)]);
    if (n < 0 || n >= 8)
        memcpy(buf, "??", 3); /* cannot happen: "10♠" is 5 bytes */
}

/* The rank r in the plural, in words ("sevens", "jacks"), into buf[8]:
   "7s" or "Js" would read as the seven or the jack of spades. */
void rtext_rank_plural(int r, char buf[8])
{
    /* TRANSLATORS: ranks in the plural, at most 7 bytes each ("porrazo on
       sevens"); the cards themselves stay A 2 ... 10 J Q K. */
    static const char *const PLURAL[PZ_RANKS] = {
        N_("aces"),  N_("twos"),   N_("threes"), N_("fours"), N_("fives"),
        N_("sixes"), N_("sevens"), N_("eights"), N_("nines"), N_("tens"),
        N_("jacks"), N_("queens"), N_("kings")};
    int n = r >= 0 && r < PZ_RANKS ? snprintf(buf, 8, "%s", _(PLURAL[r])) : -1;
    if (n < 0 || n >= 8)
        snprintf(buf, 8, "%s", r >= 0 && r < PZ_RANKS ? RANK_WORD[r] : "?");
}

/* Appends cards[0..n) separated by spaces, "(empty)" for none. */
void rtext_cards(rtext *b, const pz_card *cards, int n)
{
    if (n <= 0) {
        rtext_whole(b, "", _("(empty)"));
        return;
    }
    for (int i = 0; i < n; i++) {
        char card[8];
        render_card(cards[i], card);
        rtext_whole(b, i > 0 ? " " : "", card);
    }
}

/* Appends cards sorted by rank, then suit (♣ ♦ ♥ ♠): hands and the table,
   so that runs of ranks (sequences) are easy to see. */
void rtext_cards_sorted(rtext *b, const pz_card *cards, int n)
{
    pz_card sorted[PZ_CARDS];
    if (n > PZ_CARDS)
        n = PZ_CARDS;
    for (int i = 0; i < n; i++) {
        int k = i;
        /* insertion sort by (rank, suit): at most 52 cards */
        while (k > 0 && (pz_card_rank(sorted[k - 1]) > pz_card_rank(cards[i]) ||
                         (pz_card_rank(sorted[k - 1]) == pz_card_rank(cards[i]) &&
                          pz_card_suit(sorted[k - 1]) > pz_card_suit(cards[i])))) {
            sorted[k] = sorted[k - 1];
            k--;
        }
        sorted[k] = cards[i];
    }
    rtext_cards(b, sorted, n);
}

/* Writes cards sorted by rank then suit into buf (render.h). */
void render_cards_sorted(const pz_card *cards, int n, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    rtext_cards_sorted(&b, cards, n);
}

/* Writes cards as "7♥ K♠", whole cards only, "(empty)" for none, into buf. */
void render_cards(const pz_card *cards, int n, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    rtext_cards(&b, cards, n);
}

/* The nick of seat, or "seat N" (1-based) written into tmp[16]. */
const char *rtext_seat_name(const render_names *names, int seat, char tmp[16])
{
    if (names != NULL && seat >= 0 && seat < names->players && seat < PZ_MAX_PLAYERS &&
        names->nick[seat] != NULL && names->nick[seat][0] != '\0')
        return names->nick[seat];
    int n = snprintf(tmp, 16, _("seat %d"), seat + 1);
    if (n < 0 || n >= 16)
        snprintf(tmp, 16, "#%d", seat + 1);
    return tmp;
}

/* Appends the name of side: its seats' nicks joined by " & ". */
void rtext_side(rtext *b, const pz_game *g, const render_names *names, int side)
{
    int found = 0;
    for (int s = 0; s < pz_get_players(g); s++) {
        if (pz_side_of(g, s) != side)
            continue;
        char tmp[16];
        /* TRANSLATORS: between the nicks of a side, "ann & cat" */
        rtext_addf(b, "%s%s", found++ > 0 ? _(" & ") : "", rtext_seat_name(names, s, tmp));
    }
    if (found == 0)
        rtext_addf(b, _("side %d"), side + 1);
}

/* Writes the name of side (nicks joined by " & ") into buf. */
void render_side(const pz_game *g, const render_names *names, int side, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    rtext_side(&b, g, names, side);
}

/* "wins" for a side of one player, "win" for partners (R1.5). */
const char *rtext_wins_word(const pz_game *g)
{
    /* TRANSLATORS: "alice wins" / "alice & carol win": the verb after a side */
    return pz_get_options(g)->partnerships ? _("win") : _("wins");
}

/* ------------------------------------------------------------------------ */
/* Status, board, hand, options                                             */

/* The command prefix of a room's prompts ("!"), "" when none is known. */
static const char *prefix_of(const render_names *names)
{
    return names != NULL && names->prefix != NULL ? names->prefix : "";
}

/* Appends how the tendido t (its two pairs) may be laid (R4.3): each
   pair stays together, in either order, the row counted from either end;
   the example swaps the first pair and counts from the right. */
static void put_arrange_hint(rtext *b, const pz_card t[4], const char *p)
{
    const pz_card example[4] = {t[1], t[0], t[2], t[3]};
    char row[40];
    render_cards(example, 4, row, sizeof row);
    /* TRANSLATORS: the prefix ("!") twice, then four cards; write the
       command words the parser takes (arrange/ordenar, best/mejor...).
       Reorder with %1$s %2$s %3$s. */
    rtext_addf(b,
               _(": %sarrange best, or your row, each pair kept together: %sarrange %s "
                 "right"),
               p, p, row);
}

/* Appends who acts in the tendido phases: choose, or arrange (R4.1, R4.3). */
static void put_tendido_turn(rtext *b, const pz_game *g, const render_names *names)
{
    char tmp[16];
    const char *dealer = rtext_seat_name(names, pz_get_dealer(g), tmp);
    const char *p = prefix_of(names);
    pz_card t[4];
    if (pz_get_phase(g) == PZ_PHASE_TENDIDO_CHOICE) {
        if (pz_get_deal(g) == 1) /* once a hand: what the choice is about */
            rtext_addf(b,
                       _("%s deals and chooses: %stendido now or %stendido later (the 4 "
                         "cards score sets with the table as it lies then), before seeing the "
                         "new cards"),
                       dealer, p, p);
        else
            rtext_addf(b, _("%s deals and chooses: %stendido now or %stendido later"), dealer, p,
                       p);
        return;
    }
    int n = pz_get_tendido(g, t);
    char left[24], right[24];
    render_cards(t, n < 2 ? n : 2, left, sizeof left);
    render_cards(t + 2, n - 2 > 0 ? n - 2 : 0, right, sizeof right);
    rtext_addf(b, _("%s arranges the tendido %s | %s"), dealer, left, right);
    if (n == 4)
        put_arrange_hint(b, t, p);
}

/* Appends the pending porrazo or counter porrazo, if any (R6.2). */
static void put_pending(rtext *b, const pz_game *g, const render_names *names)
{
    int seat = -1;
    pz_pending_kind kind = pz_get_pending(g, &seat);
    pz_view v;
    if (kind == PZ_PENDING_NONE || pz_view_seat(g, 0, &v) != 0)
        return;
    char tmp[16], rank[8];
    rtext_rank_plural(v.pending_rank, rank);
    rtext_addf(b, " · ");
    if (kind == PZ_PENDING_COUNTER)
        rtext_addf(b, _("%s's counter porrazo on %s is pending"), rtext_seat_name(names, seat, tmp),
                   rank);
    else
        rtext_addf(b, _("%s's porrazo on %s is pending"), rtext_seat_name(names, seat, tmp), rank);
}

/* Writes the one status line of g (render.h): the table, then who acts
   and how, or the end of the hand or of the game. */
void render_status(const pz_game *g, const render_names *names, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    pz_phase phase = pz_get_phase(g);
    if (phase == PZ_PHASE_GAME_OVER) {
        char side[SIDE_NAME_MAX];
        render_side(g, names, pz_get_winner(g), side, sizeof side);
        /* TRANSLATORS: the winning side, then "wins" or "win" */
        rtext_addf(&b, _("game over: %s %s"), side, rtext_wins_word(g));
        return;
    }
    pz_card table[PZ_CARDS];
    int n = pz_get_table(g, table);
    if (n == 0) {
        rtext_addf(&b, "%s", _("table empty"));
    } else {
        rtext_addf(&b, "%s ", _("table"));
        rtext_cards_sorted(&b, table, n);
    }
    if (phase == PZ_PHASE_HAND_OVER) {
        rtext_addf(&b, " · %s", _("the hand is over"));
        return;
    }
    if (phase != PZ_PHASE_PLAY) {
        rtext_addf(&b, " · ");
        put_tendido_turn(&b, g, names);
        return;
    }
    char tmp[16];
    put_pending(&b, g, names);
    rtext_addf(&b, " · ");
    rtext_addf(&b, _("%s to play"), rtext_seat_name(names, pz_get_turn(g), tmp));
}

/* Appends a bar of BAR_CELLS cells, score/target of them full. */
static void put_bar(rtext *b, int score, int target)
{
    int full = score <= 0 || target <= 0 ? 0
               : score >= target         ? BAR_CELLS
                                         : (int)((long)score * BAR_CELLS / target);
    rtext_addf(b, "[");
    for (int k = 0; k < BAR_CELLS; k++)
        rtext_addf(b, "%s", k < full ? "\xE2\x96\x88" : "\xE2\x96\x91");
    rtext_addf(b, "]");
}

/* Writes the score in one line: "ann 12, bob 9 (to 61)". */
void render_score_line(const pz_game *g, const render_names *names, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    for (int s = 0; s < pz_get_sides(g) && s < PZ_MAX_SIDES; s++) {
        rtext_addf(&b, "%s", s > 0 ? ", " : "");
        rtext_side(&b, g, names, s);
        rtext_addf(&b, " %d", pz_get_score(g, s));
    }
    rtext_addf(&b, " ");
    rtext_addf(&b, _("(to %d)"), pz_get_options(g)->target);
}

/* Appends the score board to out: a header, then a padded line with a
   bar of BAR_CELLS cells per side. */
void render_board(const pz_game *g, const render_names *names, render_lines *out)
{
    int sides = pz_get_sides(g), target = pz_get_options(g)->target;
    char name[PZ_MAX_SIDES][SIDE_NAME_MAX];
    size_t width = 0;
    for (int s = 0; s < sides && s < PZ_MAX_SIDES; s++) {
        render_side(g, names, s, name[s], sizeof name[s]);
        if (utf8_width(name[s]) > width)
            width = utf8_width(name[s]);
    }
    render_add(out, _("Score — first to %d"), target);
    for (int s = 0; s < sides && s < PZ_MAX_SIDES; s++) {
        char line[RENDER_LINE_MAX];
        rtext b;
        rtext_init(&b, line, sizeof line);
        rtext_addf(&b, "%s", name[s]);
        rtext_addf(&b, "%*s", (int)(width - utf8_width(name[s]) + 2), "");
        put_bar(&b, pz_get_score(g, s), target);
        rtext_addf(&b, " %d", pz_get_score(g, s));
        rtext_line(out, &b);
    }
}

/*
 * Appends, at the seat's turn, what its cards can do against a pending
 * porrazo (a counter porrazo, R6.2) or counter porrazo (a san benito,
 * R6.3): both are choices (R6.6), so the player is told.
 */
static void put_pending_chance(rtext *b, const pz_view *v)
{
    bool holds = false;
    for (int k = 0; k < v->nhand; k++)
        holds = holds || pz_card_rank(v->hand[k]) == v->pending_rank;
    if (v->pending == PZ_PENDING_NONE || !holds)
        return;
    const char *rank = rtext_rank_word(v->pending_rank);
    rtext_addf(b, " · ");
    if (v->pending == PZ_PENDING_PORRAZO)
        rtext_addf(b, _("a %s now is a counter porrazo"), rank);
    else
        rtext_addf(b, _("a %s now is a SAN BENITO: you win"), rank);
}

/* Appends what the seat of v is to do now, if anything, to its hand line. */
static void put_hand_turn(rtext *b, const pz_view *v)
{
    if (v->phase == PZ_PHASE_ARRANGE && v->seat == v->dealer) {
        rtext_addf(b, " · %s", _("you arrange the tendido"));
        if (v->ntendido == 4)
            put_arrange_hint(b, v->tendido, "");
    } else if (v->phase == PZ_PHASE_TENDIDO_CHOICE && v->seat == v->dealer) {
        rtext_addf(b, " · %s", _("you deal: tendido now or tendido later"));
    } else if (v->phase == PZ_PHASE_PLAY && v->turn == v->seat && v->nhand > 0) {
        rtext_addf(b, " · ");
        rtext_addf(b, _("your turn: play a card, e.g. play %s"),
                   rtext_rank_word(pz_card_rank(v->hand[0])));
        put_pending_chance(b, v);
    } else if (v->phase == PZ_PHASE_GAME_OVER) {
        rtext_addf(b, " · %s", _("the game is over"));
    }
}

/* Appends the seat's own holding (R3.1) with its rank: private. */
static void put_holding(rtext *b, const pz_view *v)
{
    if (v->holding == PZ_HOLD_NONE || v->phase != PZ_PHASE_PLAY)
        return;
    char rank[8];
    rtext_rank_plural(v->holding_rank, rank);
    rtext_addf(b, " · ");
    if (v->holding == PZ_HOLD_RONDINE)
        rtext_addf(b, _("you hold a rondine of %s"), rank);
    else if (v->holding == PZ_HOLD_FOUR)
        rtext_addf(b, _("you hold a four of %s"), rank);
    else
        rtext_addf(b, _("you hold a ronda of %s"), rank);
    rtext_addf(b, " ");
    if (v->may_declare)
        rtext_addf(b, "%s",
                   v->holding == PZ_HOLD_RONDINE ? _("(say rondine to declare it)")
                                                 : _("(say ronda to declare it)"));
    else if (v->holding_declared)
        rtext_addf(b, "%s", _("(declared)"));
    else if (v->options.declarations == PZ_DECL_MANUAL)
        rtext_addf(b, "%s", _("(not declared)"));
}

/* What the dealer reads while their hand is hidden (R4.2). */
#define HIDDEN_HAND                                                                                \
    N_("you deal: choose the tendido first (tendido now or tendido later); your cards follow")

/* Appends the seat's hand, the table, its own holding and what to do now
   ("2♣ 5♦ 9♥ · table 3♠ J♦ · your turn: ..."); the dealer's hidden hand is
   not shown (R4.2). */
static void put_hand(rtext *b, const pz_view *v)
{
    if (v->hand_hidden) {
        rtext_addf(b, "%s", _(HIDDEN_HAND));
        return;
    }
    rtext_cards_sorted(b, v->hand, v->nhand);
    if (v->ntable == 0) {
        rtext_addf(b, " · %s", _("table empty"));
    } else {
        rtext_addf(b, " · %s ", _("table"));
        rtext_cards_sorted(b, v->table, v->ntable);
    }
    put_holding(b, v);
    put_hand_turn(b, v);
}

/* Writes seat v->seat's private hand line from its view: its cards, the
   table, its own holding and what to do now. */
void render_hand(const pz_view *v, const char *room, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    if (room != NULL && room[0] != '\0')
        rtext_addf(&b, _("Your hand in %s (deal %d of %d): "), room, v->deal, v->deals_per_hand);
    else
        rtext_addf(&b, _("Your hand (deal %d of %d): "), v->deal, v->deals_per_hand);
    put_hand(&b, v);
}

/* Writes the private turn prompt (render.h): what happened since the
   seat's last turn, then its hand, the table and what to do. */
void render_prompt(const pz_view *v, const char *room, const char *since, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    if (room != NULL && room[0] != '\0')
        rtext_addf(&b, _("Your turn in %s (deal %d of %d)"), room, v->deal, v->deals_per_hand);
    else
        rtext_addf(&b, _("Your turn (deal %d of %d)"), v->deal, v->deals_per_hand);
    bool since_told = since != NULL && since[0] != '\0';
    if (since_told) {
        rtext_addf(&b, " — ");
        rtext_addf(&b, _("since your last play: %s"), since);
        rtext_addf(&b, " —");
    }
    if (v->hand_hidden) {
        rtext_addf(&b, "%s %s", since_told ? "" : ":", _(HIDDEN_HAND));
        return;
    }
    rtext_addf(&b, " %s ", _("hand"));
    put_hand(&b, v);
}

/* Writes the options in words: the target, then what differs from R9. */
void render_options(const pz_options *o, char *buf, size_t cap)
{
    rtext b;
    rtext_init(&b, buf, cap);
    rtext_addf(&b, _("first to %d"), o->target);
    if (o->partnerships)
        rtext_addf(&b, " · %s", _("partners"));
    /* the values in the reader's words, those "set options" takes back */
    if (o->declarations != PZ_DECL_AUTO) {
        rtext_addf(&b, " · ");
        rtext_addf(&b, _("declarations: %s"),
                   cmd_option_value_shown("declarations", pz_declarations_name(o->declarations)));
    }
    if (o->tendido != PZ_TENDIDO_CHOICE) {
        rtext_addf(&b, " · ");
        rtext_addf(&b, _("tendido: %s"),
                   cmd_option_value_shown("tendido", pz_tendido_name(o->tendido)));
    }
    if (!o->wrap)
        rtext_addf(&b, " · %s", _("wrap: off"));
    if (o->odd_leftover != PZ_LEFTOVER_TABLE) {
        rtext_addf(&b, " · ");
        rtext_addf(&b, _("leftover: %s"),
                   cmd_option_value_shown("odd_leftover", pz_leftover_name(o->odd_leftover)));
    }
    if (o->final_sweep != PZ_SWEEP_LAST_CAPTURER) {
        rtext_addf(&b, " · ");
        rtext_addf(&b, _("final sweep: %s"),
                   cmd_option_value_shown("final_sweep", pz_sweep_name(o->final_sweep)));
    }
    if (o->card_score != PZ_CARD_SCORE_DIFFERENCE) {
        rtext_addf(&b, " · ");
        rtext_addf(&b, _("card score: %s"),
                   cmd_option_value_shown("card_score", pz_card_score_name(o->card_score)));
    }
}
