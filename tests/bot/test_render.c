/*
 * test_render.c — the chat renderer (bot/render/render.h) on real engine games:
 * positions built with pz_new_position() and packs given to pz_new(), so
 * every event rendered is one the engine really emits.
 *
 * Each event kind is checked for its key words and numbers; public lines
 * never show a card of any hand; bars, padding, cut buffers (always valid
 * UTF-8), the line cap of render_lines, help and rules topics. A random
 * simulation at the end renders thousands of actions of games with every
 * option and checks the same invariants on all of them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render.h"

static const char *const NICKS[PZ_MAX_PLAYERS] = {"alice", "bob",   "carol", "dave",
                                                  "erin",  "frank", "gus",   "hana"};

/* A game under test, its last action's events and their lines. */
typedef struct fx {
    pz_game *g;
    render_names names;
    pz_events ev;
    render_lines out;
} fx;

/* A position to start from (REPLAY.md "position"), cards as "7H 10S". */
typedef struct spec {
    int players;
    const char *options; /* R9 words, "target=60 partnerships=true" */
    int deal;            /* 0: the last deal of the hand; dealer is seat 0 */
    int turn;
    const char *table;
    const char *hands[PZ_MAX_PLAYERS];
    const char *stock;
    const char *last; /* the previous play's card, or NULL */
    int last_seat;
    int scores[PZ_MAX_SIDES];
} spec;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* True when s is valid UTF-8: no overlong forms, surrogates or > U+10FFFF. */
static bool utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        int n = c < 0x80                 ? 0
                : c >= 0xC2 && c <= 0xDF ? 1
                : c >= 0xE0 && c <= 0xEF ? 2
                : c >= 0xF0 && c <= 0xF4 ? 3
                                         : -1;
        if (n < 0)
            return false;
        unsigned cp = n == 0 ? c : c & (0x3F >> n);
        for (int k = 1; k <= n; k++) {
            if ((p[k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[k] & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += n + 1;
    }
    return true;
}

/* Parses space-separated cards ("7H TS 10C") into out; returns the count. */
static int parse_cards(const char *list, pz_card *out)
{
    int n = 0;
    while (list != NULL && *list != '\0') {
        size_t len = strcspn(list, " ");
        if (len > 0) {
            assert_int_equal(pz_card_parse(list, len, &out[n]), 0);
            n++;
        }
        list += len;
        while (*list == ' ')
            list++;
    }
    return n;
}

/* snprintf that fails the test when the text does not fit. */
static void format_or_fail(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void format_or_fail(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < cap);
}

/* The one card named by s. */
static pz_card card_of(const char *s)
{
    pz_card c[1];
    assert_int_equal(parse_cards(s, c), 1);
    return c[0];
}

/* A fixture on the heap with players' nicks from NICKS. */
static fx *fx_alloc(int players)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->names.players = players;
    f->names.prefix = "!";
    for (int s = 0; s < players; s++)
        f->names.nick[s] = NICKS[s];
    return f;
}

static void fx_free(fx *f)
{
    pz_free(f->g);
    free(f);
}

/* The defaults of R9 changed by words ("target=60 wrap=false"). */
static pz_options options_of(const char *words)
{
    pz_options o;
    pz_options_default(&o);
    while (words != NULL && *words != '\0') {
        char name[32], value[32];
        size_t len = strcspn(words, " ");
        const char *eq = memchr(words, '=', len);
        assert_non_null(eq);
        assert_true((size_t)(eq - words) < sizeof name &&
                    len - (size_t)(eq - words) < sizeof value);
        memcpy(name, words, (size_t)(eq - words));
        name[eq - words] = '\0';
        memcpy(value, eq + 1, len - (size_t)(eq - words) - 1);
        value[len - (size_t)(eq - words) - 1] = '\0';
        assert_int_equal(pz_options_set(&o, name, value, NULL, 0), 0);
        words += len + (words[len] == ' ');
    }
    return o;
}

/* Starts the game of spec sp (see spec). */
static fx *fx_position(const spec *sp)
{
    fx *f = fx_alloc(sp->players);
    pz_setup su;
    pz_setup_default(&su);
    su.players = sp->players;
    su.options = options_of(sp->options);
    su.has_scores = true;
    memcpy(su.scores, sp->scores, sizeof su.scores);
    pz_position p;
    pz_position_default(&p);
    p.ntable = parse_cards(sp->table, p.table);
    for (int s = 0; s < sp->players; s++)
        p.nhand[s] = parse_cards(sp->hands[s], p.hands[s]);
    p.nstock = parse_cards(sp->stock, p.stock);
    p.turn = sp->turn;
    p.deal = sp->deal > 0 ? sp->deal : 48 / (3 * sp->players);
    p.tendido_done = true;
    if (sp->last != NULL) {
        p.has_last_play = true;
        p.last_play_seat = sp->last_seat;
        p.last_play_card = card_of(sp->last);
    }
    char why[PZ_WHY_MAX] = "";
    int err = pz_new_position(&f->g, &su, &p, why, sizeof why);
    if (err != 0)
        fail_msg("position refused: %s", why);
    return f;
}

/* Applies a (which must succeed) and renders its events into f->out. */
static void act(fx *f, pz_action a)
{
    char why[PZ_WHY_MAX] = "";
    f->ev.n = 0;
    int err = pz_apply(f->g, &a, &f->ev, why, sizeof why);
    if (err != 0)
        fail_msg("action refused: %s", why);
    f->out.n = 0;
    render_events(f->g, &f->names, &f->ev, &f->out);
}

/* Plays the card named by s for seat (mode any). */
static void play(fx *f, int seat, const char *s)
{
    act(f, pz_act_play(seat, card_of(s), PZ_MODE_ANY));
}

/* The index of the first line of out equal to want, or -1. */
static int line_index(const render_lines *out, const char *want)
{
    for (int i = 0; i < out->n; i++)
        if (strcmp(out->line[i], want) == 0)
            return i;
    return -1;
}

/* True when some line of out contains needle. */
static bool any_line_has(const render_lines *out, const char *needle)
{
    for (int i = 0; i < out->n; i++)
        if (strstr(out->line[i], needle) != NULL)
            return true;
    return false;
}

/* Fails unless out holds the line want exactly (shows the lines if not). */
static void expect_line(const render_lines *out, const char *want)
{
    if (line_index(out, want) >= 0)
        return;
    for (int i = 0; i < out->n; i++)
        print_message("  line %d: %s\n", i, out->line[i]);
    fail_msg("missing line: %s", want);
}

/* True when text shows a card some seat of g holds (other than `except`). */
static bool shows_a_hand(const pz_game *g, const char *text, int except)
{
    for (int s = 0; s < pz_get_players(g); s++) {
        pz_card hand[PZ_CARDS];
        int n = pz_get_hand(g, s, hand);
        for (int k = 0; k < n && s != except; k++) {
            char c[8];
            render_card(hand[k], c);
            if (strstr(text, c) != NULL)
                return true;
        }
    }
    return false;
}

/* Fails when a line of f->out or the status shows a card of a hand. */
static void expect_no_hand_shown(const fx *f)
{
    char status[RENDER_LINE_MAX];
    render_status(f->g, &f->names, status, sizeof status);
    assert_false(shows_a_hand(f->g, status, -1));
    for (int i = 0; i < f->out.n; i++)
        if (shows_a_hand(f->g, f->out.line[i], -1))
            fail_msg("line shows a hand's card: %s", f->out.line[i]);
}

/* A pack: the cards of `top` first, then every other card in index order. */
static void make_pack(const char *top, pz_card pack[PZ_CARDS])
{
    int n = parse_cards(top, pack);
    for (int c = 0; c < PZ_CARDS; c++) {
        bool used = false;
        for (int k = 0; k < n; k++)
            used = used || pack[k] == c;
        if (!used)
            pack[n++] = (pz_card)c;
    }
}

/* Starts a new game from a pack (top first) with players and options. */
static fx *fx_pack(int players, const char *options, const char *top)
{
    fx *f = fx_alloc(players);
    pz_setup su;
    pz_setup_default(&su);
    su.players = players;
    su.options = options_of(options);
    pz_card pack[PZ_CARDS];
    make_pack(top, pack);
    su.pack = pack;
    char why[PZ_WHY_MAX] = "";
    if (pz_new(&f->g, &su, &f->ev, why, sizeof why) != 0)
        fail_msg("setup refused: %s", why);
    render_events(f->g, &f->names, &f->ev, &f->out);
    return f;
}

/* ------------------------------------------------------------------------ */
/* Cards and sides                                                          */

static void test_cards_show_rank_and_suit_symbol_with_ten_as_10(void **state)
{
    (void)state;
    char buf[8];
    render_card(card_of("TS"), buf);
    assert_string_equal(buf, "10♠");
    render_card(card_of("7H"), buf);
    assert_string_equal(buf, "7♥");
    render_card(card_of("KC"), buf);
    assert_string_equal(buf, "K♣");
    render_card(card_of("AD"), buf);
    assert_string_equal(buf, "A♦");
    for (int c = 0; c < PZ_CARDS; c++) {
        render_card((pz_card)c, buf);
        assert_null(strchr(buf, 'T'));
        assert_true(utf8_valid(buf));
    }
    render_card(PZ_NO_CARD, buf);
    assert_string_equal(buf, "??");
}

static void test_card_lists_are_spaced_and_empty_says_so(void **state)
{
    (void)state;
    pz_card c[3];
    char buf[64];
    int n = parse_cards("5C 6D QH", c);
    render_cards(c, n, buf, sizeof buf);
    assert_string_equal(buf, "5♣ 6♦ Q♥");
    render_cards(c, 0, buf, sizeof buf);
    assert_string_equal(buf, "(empty)");
}

static void test_card_lists_are_cut_at_whole_cards(void **state)
{
    (void)state;
    pz_card c[4];
    char buf[12];
    int n = parse_cards("TC TD TH TS", c);
    render_cards(c, n, buf, sizeof buf);
    assert_string_equal(buf, "10♣…"); /* never a lone "10" */
}

static void test_partners_are_named_together_as_one_side(void **state)
{
    (void)state;
    const spec sp = {
        .players = 4, .hands = {"2C", "3C", "4C", "5C"}, .options = "partnerships=true"};
    fx *f = fx_position(&sp);
    char buf[64];
    render_side(f->g, &f->names, 0, buf, sizeof buf);
    assert_string_equal(buf, "alice & carol");
    render_side(f->g, &f->names, 1, buf, sizeof buf);
    assert_string_equal(buf, "bob & dave");
    fx_free(f);
}

/* ------------------------------------------------------------------------ */
/* Plays                                                                    */

static void test_a_card_that_takes_nothing_is_just_played(void **state)
{
    (void)state;
    const spec sp = {.players = 2, .table = "5C", .hands = {"9H KD", "2S"}};
    fx *f = fx_position(&sp);
    play(f, 0, "9H");
    assert_int_equal(f->out.n, 1);
    expect_line(&f->out, "alice 9♥");
    expect_no_hand_shown(f);
    fx_free(f);
}

static void test_a_card_in_place_shows_its_points_and_the_new_total(void **state)
{
    (void)state;
    const spec sp = {.players = 2, .table = "5C 6D", .hands = {"3C KD", "2S"}, .scores = {12}};
    fx *f = fx_position(&sp);
    play(f, 0, "3C");
    assert_int_equal(f->out.n, 1);
    expect_line(&f->out, "alice 3♣ in place +3 → 15");
    fx_free(f);
}

static void test_a_capture_lists_the_cards_taken(void **state)
{
    (void)state;
    const spec sp = {.players = 2, .turn = 1, .table = "5C 6H 7S 9D", .hands = {"KD", "5D 2S"}};
    fx *f = fx_position(&sp);
    play(f, 1, "5D");
    assert_int_equal(f->out.n, 1);
    expect_line(&f->out, "bob 5♦ takes 5♣ 6♥ 7♠");
    expect_no_hand_shown(f);
    fx_free(f);
}

static void test_a_limpia_says_so_with_its_point_and_total(void **state)
{
    (void)state;
    const spec sp = {.players = 2,
                     .turn = 1,
                     .table = "KC AD 2S 3C 4H",
                     .hands = {"9C", "KH 8D"},
                     .scores = {0, 21}};
    fx *f = fx_position(&sp);
    play(f, 1, "KH");
    assert_int_equal(f->out.n, 1);
    expect_line(&f->out, "bob K♥ takes K♣ A♦ 2♠ 3♣ 4♥, limpia +1 → 22");
    fx_free(f);
}

/* What render_outcome says of seat playing card s in f's game. */
static void outcome_of(fx *f, int seat, const char *s, char *buf, size_t cap)
{
    pz_action a = pz_act_play(seat, card_of(s), PZ_MODE_ANY);
    f->ev.n = 0;
    assert_int_equal(pz_apply(f->g, &a, &f->ev, NULL, 0), 0);
    render_outcome(f->g, &f->names, &a, &f->ev, buf, cap);
}

static void test_a_move_says_what_it_takes_and_scores_and_nothing_after_it(void **state)
{
    (void)state;
    const spec sp = {.players = 2,
                     .turn = 1,
                     .table = "KC AD 2S 3C 4H",
                     .hands = {"9C", "KH 8D"},
                     .scores = {0, 21}};
    char got[RENDER_LINE_MAX];
    fx *f = fx_position(&sp);
    outcome_of(f, 1, "KH", got, sizeof got);
    assert_string_equal(got, "K\xE2\x99\xA5 takes K\xE2\x99\xA3 A\xE2\x99\xA6 "
                             "2\xE2\x99\xA0 3\xE2\x99\xA3 4\xE2\x99\xA5: limpia +1");
    fx_free(f);
    f = fx_position(&sp);
    outcome_of(f, 1, "8D", got, sizeof got);
    assert_string_equal(got, "8\xE2\x99\xA6 lays");
    fx_free(f);
    /* The last card of the hand: the card score and the next deal that
       follow are not the move's and are not told. */
    const spec last = {.players = 2, .turn = 1, .table = "5C", .hands = {"", "9D"}};
    f = fx_position(&last);
    outcome_of(f, 1, "9D", got, sizeof got);
    assert_string_equal(got, "9\xE2\x99\xA6 lays");
    pz_action tendido = pz_act_tendido(0, true);
    pz_events none = {0};
    render_outcome(f->g, &f->names, &tendido, &none, got, sizeof got);
    assert_string_equal(got, "tendido now");
    fx_free(f);
}

/* Three players: alice laid 7♣ last; carol may porrazo it. */
static fx *fx_porrazo_ready(void)
{
    const spec sp = {.players = 3,
                     .turn = 1,
                     .table = "5S 7C 8D",
                     .last = "7C",
                     .last_seat = 0,
                     .hands = {"9H KS", "7D 2C", "7H QS"}};
    return fx_position(&sp);
}

static void test_a_porrazo_names_the_card_it_hits_and_its_owner(void **state)
{
    (void)state;
    fx *f = fx_porrazo_ready();
    play(f, 1, "7D");
    assert_int_equal(f->out.n, 1);
    expect_line(&f->out, "bob 7♦ PORRAZO on alice's 7♣! takes 7♣ 8♦ (stands unless "
                         "countered)");
    char status[RENDER_LINE_MAX];
    render_status(f->g, &f->names, status, sizeof status);
    assert_string_equal(status, "table 5♠ · bob's porrazo on sevens is pending · carol to play");
    expect_no_hand_shown(f);
    fx_free(f);
}

/* The moves list says a pending porrazo's worth if it stands, and names
   a counter porrazo with its own (the rondine value: 3 for a 7). */
static void test_a_pending_porrazo_says_its_worth_and_a_counter_is_named(void **state)
{
    (void)state;
    char got[RENDER_LINE_MAX];
    fx *f = fx_porrazo_ready();
    outcome_of(f, 1, "7D", got, sizeof got);
    assert_string_equal(got, "7\xE2\x99\xA6 takes 7\xE2\x99\xA3 8\xE2\x99\xA6: porrazo "
                             "pending, +1 if it stands");
    outcome_of(f, 2, "7H", got, sizeof got);
    assert_string_equal(got, "7\xE2\x99\xA5 takes 7\xE2\x99\xA6 7\xE2\x99\xA3 "
                             "8\xE2\x99\xA6: counter porrazo pending, +3 if it stands");
    fx_free(f);
}

static void test_a_porrazo_stands_before_the_next_card_is_played(void **state)
{
    (void)state;
    fx *f = fx_porrazo_ready();
    play(f, 1, "7D");
    play(f, 2, "QS");
    assert_int_equal(f->out.n, 2);
    assert_int_equal(line_index(&f->out, "bob's porrazo stands: +1 → 1"), 0);
    assert_int_equal(line_index(&f->out, "carol Q♠"), 1);
    fx_free(f);
}

static void test_a_counter_porrazo_takes_the_porrazo_and_warns_of_san_benito(void **state)
{
    (void)state;
    fx *f = fx_porrazo_ready();
    play(f, 1, "7D");
    play(f, 2, "7H");
    assert_int_equal(f->out.n, 1);
    expect_line(&f->out, "carol 7♥ COUNTER PORRAZO! takes bob's porrazo 7♦ 7♣ 8♦ "
                         "(a fourth 7 would be a san benito!)");
    char status[RENDER_LINE_MAX];
    render_status(f->g, &f->names, status, sizeof status);
    assert_non_null(strstr(status, "carol's counter porrazo on sevens is pending · alice to play"));
    fx_free(f);
}

static void test_a_counter_porrazo_that_stands_scores_its_rondine_value(void **state)
{
    (void)state;
    fx *f = fx_porrazo_ready();
    play(f, 1, "7D");
    play(f, 2, "7H");
    play(f, 0, "9H");
    expect_line(&f->out, "carol's counter porrazo stands: +3 → 3");
    assert_int_equal(line_index(&f->out, "alice 9♥"), 1);
    fx_free(f);
}

static void test_a_san_benito_wins_the_game_at_once(void **state)
{
    (void)state;
    const spec sp = {.players = 3, .table = "5S 8D", .hands = {"7C 7S", "7D 2C", "7H QS"}};
    fx *f = fx_position(&sp);
    play(f, 0, "7C");
    play(f, 1, "7D");
    play(f, 2, "7H");
    pz_view v;
    assert_int_equal(pz_view_seat(f->g, 0, &v), 0);
    char hand[RENDER_LINE_MAX];
    render_hand(&v, "#friends", hand, sizeof hand);
    assert_non_null(strstr(hand, "a 7 now is a SAN BENITO"));
    play(f, 0, "7S");
    assert_int_equal(f->out.n, 2);
    expect_line(&f->out, "alice 7♠ SAN BENITO!! alice wins the game!");
    assert_non_null(strstr(f->out.line[1], "alice wins by san benito!"));
    char status[RENDER_LINE_MAX];
    render_status(f->g, &f->names, status, sizeof status);
    assert_string_equal(status, "game over: alice wins");
    fx_free(f);
}

static void test_a_porrazo_with_limpia_stands_at_the_end_of_the_deal(void **state)
{
    (void)state;
    const spec sp = {.players = 2,
                     .deal = 7,
                     .turn = 1,
                     .table = "7C 8D",
                     .stock = "2C 5D 9S 3H 6C JD",
                     .last = "7C",
                     .last_seat = 0,
                     .hands = {"", "7D"}};
    fx *f = fx_position(&sp);
    play(f, 1, "7D");
    expect_line(&f->out, "bob 7♦ PORRAZO on alice's 7♣! takes 7♣ 8♦");
    expect_line(&f->out, "bob's porrazo stands: +1, +1 limpia → 2");
    expect_line(&f->out, "Deal 8 of 8"); /* the dealer was named at the hand's first deal */
    expect_no_hand_shown(f);
    fx_free(f);
}

/* ------------------------------------------------------------------------ */
/* Deals, tendido, leftover, declarations                                   */

static void test_a_deal_says_which_and_never_shows_a_hand(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        fx *f = fx_alloc(4);
        pz_setup su;
        pz_setup_default(&su);
        su.players = 4;
        su.seed = seed;
        su.dealer = 1;
        assert_int_equal(pz_new(&f->g, &su, &f->ev, NULL, 0), 0);
        render_events(f->g, &f->names, &f->ev, &f->out);
        expect_line(&f->out, "New hand: deal 1 of 4, bob deals; hands sent privately");
        expect_no_hand_shown(f);
        fx_free(f);
    }
}

/* Two players, alice deals; the tendido 4♣ Q♦ | 4♥ Q♠ can come now. */
static fx *fx_tendido_ready(void)
{
    return fx_pack(2, NULL, "2C 5D 9S 3H 6C TD 4C QD 4H QS");
}

static void test_the_dealer_chooses_the_tendido_before_seeing_the_hand(void **state)
{
    (void)state;
    fx *f = fx_tendido_ready();
    char status[RENDER_LINE_MAX], hand[RENDER_LINE_MAX];
    render_status(f->g, &f->names, status, sizeof status);
    /* R4.2, R4.4: what the choice is about, once a hand (at its first deal) */
    assert_string_equal(status, "table empty · alice deals and chooses: !tendido now or "
                                "!tendido later (the 4 cards score sets with the table as it "
                                "lies then), before seeing the new cards");
    pz_view v;
    assert_int_equal(pz_view_seat(f->g, 0, &v), 0);
    render_hand(&v, "#friends", hand, sizeof hand);
    assert_string_equal(hand, "Your hand in #friends (deal 1 of 8): you deal: choose the "
                              "tendido first (tendido now or tendido later); your cards follow");
    expect_no_hand_shown(f);
    fx_free(f);
}

static void test_the_tendido_shows_its_pairs_and_how_to_arrange_them(void **state)
{
    (void)state;
    fx *f = fx_tendido_ready();
    act(f, pz_act_tendido(0, true));
    /* the pairs once, in the state; the real constraint (R4.3): each
       pair together, in either order, counted from either end */
    expect_line(&f->out, "alice lays the tendido face up");
    char status[RENDER_LINE_MAX], hand[RENDER_LINE_MAX];
    render_status(f->g, &f->names, status, sizeof status);
    assert_string_equal(status, "table empty · alice arranges the tendido 4♣ Q♦ | 4♥ Q♠: "
                                "!arrange best, or your row, each pair kept together: !arrange "
                                "Q♦ 4♣ 4♥ Q♠ right");
    pz_view v;
    assert_int_equal(pz_view_seat(f->g, 0, &v), 0);
    render_hand(&v, "", hand, sizeof hand);
    assert_non_null(strstr(hand, " · you arrange the tendido: arrange best, or your row, each "
                                 "pair kept together: arrange Q♦ 4♣ 4♥ Q♠ right"));
    expect_no_hand_shown(f);
    fx_free(f);
}

static void test_an_arranged_tendido_scores_its_places_and_sets(void **state)
{
    (void)state;
    fx *f = fx_tendido_ready();
    act(f, pz_act_tendido(0, true));
    pz_card row[4];
    parse_cards("4C QD QS 4H", row);
    act(f, pz_act_arrange(0, row, PZ_RTL));
    expect_line(&f->out, "alice arranges 4♣ Q♦ Q♠ 4♥ right to left: 4♣ in place +4, sets +4 "
                         "→ 8");
    expect_no_hand_shown(f);
    fx_free(f);
}

/* R4.3, R4.6: a row that scores less than the best says what the best
   would have scored (the "!arrange 5 A 2 J left": no points, best 2). */
static void test_an_arrangement_below_the_best_says_what_the_best_scores(void **state)
{
    (void)state;
    fx *f = fx_pack(2, NULL, "2C 5D 9S 3H 6C TD AH 5C 2S JD");
    act(f, pz_act_tendido(0, true));
    pz_card row[4];
    parse_cards("5C AH 2S JD", row);
    act(f, pz_act_arrange(0, row, PZ_LTR));
    expect_line(&f->out, "alice arranges 5♣ A♥ 2♠ J♦ left to right: no points (the best row "
                         "would have scored 2)");
    fx_free(f);
    f = fx_tendido_ready(); /* sets count whatever the row: best is the places' + the sets */
    act(f, pz_act_tendido(0, true));
    parse_cards("QD 4C 4H QS", row);
    act(f, pz_act_arrange(0, row, PZ_LTR));
    expect_line(&f->out, "alice arranges Q♦ 4♣ 4♥ Q♠ left to right: sets +4 → 4 (the best row "
                         "would have scored 8)");
    fx_free(f);
    f = fx_tendido_ready(); /* the best itself says nothing more */
    act(f, pz_act_tendido(0, true));
    parse_cards("4C QD QS 4H", row);
    act(f, pz_act_arrange(0, row, PZ_RTL));
    for (int i = 0; i < f->out.n; i++)
        assert_null(strstr(f->out.line[i], "best row"));
    fx_free(f);
}

static void test_a_tendido_later_adds_no_line(void **state)
{
    (void)state;
    fx *f = fx_tendido_ready();
    act(f, pz_act_tendido(0, false));
    assert_int_equal(f->out.n, 0);
    fx_free(f);
}

/* Three players at deal 4 of 5, one card each; the next deal has leftovers. */
static fx *fx_leftover_ready(const char *options)
{
    const spec sp = {.players = 3,
                     .deal = 4,
                     .turn = 1,
                     .table = "KS",
                     .stock = "3C 4D 6H 8C JD 2H TS QC 7D AH 3S 6S",
                     .hands = {"9H", "2C", "5D"},
                     .options = options};
    fx *f = fx_position(&sp);
    play(f, 1, "2C");
    play(f, 2, "5D");
    play(f, 0, "9H");
    return f;
}

static void test_leftover_cards_on_the_table_are_shown(void **state)
{
    (void)state;
    fx *f = fx_leftover_ready("odd_leftover=table");
    expect_line(&f->out, "Deal 5 of 5");
    expect_line(&f->out, "the 3 leftover cards go face up to the table: A♥ 3♠ 6♠");
    expect_no_hand_shown(f);
    fx_free(f);
}

static void test_leftover_cards_dealt_to_players_stay_private(void **state)
{
    (void)state;
    fx *f = fx_leftover_ready("odd_leftover=deal");
    expect_line(&f->out, "the 3 leftover cards are dealt: bob +1, carol +1, alice +1 "
                         "(privately)");
    expect_no_hand_shown(f);
    assert_false(any_line_has(&f->out, "A♥"));
    fx_free(f);
}

/* Two players at deal 7: bob is dealt 7♣ 7♥ 2♦ next (a ronda). */
static fx *fx_ronda_ready(const char *options)
{
    const spec sp = {.players = 2,
                     .deal = 7,
                     .turn = 1,
                     .table = "5S",
                     .stock = "7C 7H 2D 9S JD 4C",
                     .hands = {"KC", "QD"},
                     .options = options};
    fx *f = fx_position(&sp);
    play(f, 1, "QD");
    play(f, 0, "KC");
    return f;
}

/* Plays out the hand with the host's default actions; returns at its end. */
static void play_out_hand(fx *f)
{
    while (pz_get_phase(f->g) == PZ_PHASE_PLAY) {
        pz_action a;
        assert_int_equal(pz_default_action(f->g, pz_get_turn(f->g), &a), 0);
        act(f, a);
    }
}

static void test_a_declaration_says_the_kind_but_never_the_rank(void **state)
{
    (void)state;
    fx *f = fx_ronda_ready("declarations=auto");
    expect_line(&f->out, "bob declares a ronda");
    assert_false(any_line_has(&f->out, "7"));
    expect_no_hand_shown(f);
    fx_free(f);
}

static void test_the_end_of_a_hand_sweeps_scores_holdings_and_cards(void **state)
{
    (void)state;
    fx *f = fx_ronda_ready("declarations=auto");
    play_out_hand(f);
    assert_int_equal(pz_get_phase(f->g), PZ_PHASE_HAND_OVER);
    int sweep = -1, ronda = -1, cards = -1, over = -1;
    for (int i = 0; i < f->out.n; i++) {
        const char *l = f->out.line[i];
        if (strncmp(l, "the last ", 9) == 0)
            sweep = i;
        if (strncmp(l, "bob's ronda scores +1 → ", 26) == 0)
            ronda = i;
        /* the cards won and their score tell the end of the hand */
        if (strncmp(l, "cards won: alice ", 17) == 0 && strstr(l, ", so ") != NULL)
            cards = over = i;
        else if (strncmp(l, "the hand is over (cards won: alice ", 35) == 0)
            over = i;
    }
    assert_true(ronda >= 0 && over > ronda);
    assert_true(sweep < 0 || sweep < ronda);
    assert_true(cards < 0 || (cards > ronda && cards <= over));
    char status[RENDER_LINE_MAX];
    render_status(f->g, &f->names, status, sizeof status);
    assert_string_equal(status, "table empty · the hand is over");
    fx_free(f);
}

static void test_a_missed_declaration_can_be_claimed_for_points(void **state)
{
    (void)state;
    fx *f = fx_ronda_ready("declarations=manual");
    assert_false(any_line_has(&f->out, "declares"));
    pz_view v;
    assert_int_equal(pz_view_seat(f->g, 1, &v), 0);
    char hand[RENDER_LINE_MAX];
    render_hand(&v, "", hand, sizeof hand);
    assert_non_null(strstr(hand, "you hold a ronda of sevens (say ronda to declare it)"));
    assert_non_null(strstr(hand, "Your hand (deal 8 of 8): "));
    play_out_hand(f);
    int before = pz_get_score(f->g, 0);
    act(f, pz_act_claim(0, 1));
    char want[RENDER_LINE_MAX];
    format_or_fail(want, sizeof want, "alice's claim is upheld (a missed declaration): +1 → %d",
                   before + 1);
    expect_line(&f->out, want);
    fx_free(f);
}

/* ------------------------------------------------------------------------ */
/* Winning, partners, board                                                 */

static void test_a_winning_score_ends_with_the_winner_and_the_score(void **state)
{
    (void)state;
    const spec sp = {.players = 2, .hands = {"AC 5D", "9S"}, .scores = {60, 48}};
    fx *f = fx_position(&sp);
    play(f, 0, "AC");
    assert_int_equal(f->out.n, 2);
    expect_line(&f->out, "alice A♣ in place +1 → 61");
    expect_line(&f->out, "\xF0\x9F\x8F\x86 alice wins, 61 to 48!");
    fx_free(f);
}

static void test_partnership_scores_name_the_side(void **state)
{
    (void)state;
    const spec sp = {.players = 4,
                     .table = "5C 6D",
                     .hands = {"3C", "9C", "JD", "KS"},
                     .scores = {58},
                     .options = "partnerships=true"};
    fx *f = fx_position(&sp);
    play(f, 0, "3C");
    expect_line(&f->out, "alice 3♣ in place +3 → alice & carol 61");
    expect_line(&f->out, "\xF0\x9F\x8F\x86 alice & carol win, 61 to 0!");
    fx_free(f);
}

/* The count of s in text. */
static int count_of(const char *text, const char *s)
{
    int n = 0;
    for (const char *p = strstr(text, s); p != NULL; p = strstr(p + strlen(s), s))
        n++;
    return n;
}

/* The character (not byte) index of the first '[' in line. */
static int bar_column(const char *line)
{
    int col = 0;
    for (const char *p = line; *p != '\0' && *p != '['; p++)
        if (((unsigned char)*p & 0xC0) != 0x80)
            col++;
    return col;
}

static void test_board_bars_are_empty_at_zero_half_at_half_and_full_past_the_target(void **state)
{
    (void)state;
    const spec sp = {.players = 2,
                     .table = "5C 6D 9S",
                     .hands = {"4C 8H", "9C"},
                     .scores = {58, 30},
                     .options = "target=60"};
    fx *f = fx_position(&sp);
    render_lines board = {0};
    render_board(f->g, &f->names, &board);
    assert_int_equal(board.n, 3);
    assert_string_equal(board.line[0], "Score — first to 60");
    assert_int_equal(count_of(board.line[2], "█"), 10);
    assert_int_equal(count_of(board.line[2], "░"), 10);
    assert_string_equal(board.line[2], "bob    [██████████░░░░░░░░░░] 30");
    play(f, 0, "4C"); /* in place: 62, past the target */
    board.n = 0;
    render_board(f->g, &f->names, &board);
    assert_int_equal(count_of(board.line[1], "█"), 20);
    assert_non_null(strstr(board.line[1], "] 62"));
    fx_free(f);

    const spec zero = {.players = 3, .hands = {"4C", "9C", "KD"}};
    f = fx_position(&zero);
    f->names.nick[2] = "carolina_ñ";
    board.n = 0;
    render_board(f->g, &f->names, &board);
    assert_int_equal(count_of(board.line[1], "░"), 20);
    assert_int_equal(bar_column(board.line[1]), bar_column(board.line[3]));
    assert_int_equal(bar_column(board.line[2]), bar_column(board.line[3]));
    fx_free(f);
}

/* The count of bytes 0xFF (the host's name markers, live.c) in s. */
static int markers_in(const char *s)
{
    int n = 0;
    for (; *s != '\0'; s++)
        n += (unsigned char)*s == 0xFF;
    return n;
}

static void test_a_board_row_keeps_a_long_marked_name_whole_with_its_bar(void **state)
{
    (void)state;
    /* a nick of 127 bytes (the most a network gives) inside the host's
       marker, as live.c writes a queued line: 131 bytes in all */
    char nick[132];
    nick[0] = '\xFF';
    nick[1] = 'n';
    nick[2] = '0';
    for (int i = 0; i < 42; i++) /* 42 x "Z̶" (1 + 2 bytes) = 126 bytes, and "e" */
        memcpy(nick + 3 + 3 * i, "Z\xCC\xB6", 3);
    memcpy(nick + 129, "e\xFF", 3);
    assert_int_equal(strlen(nick), 131);
    const spec sp = {.players = 2, .hands = {"4C", "9C"}, .scores = {12, 30}};
    fx *f = fx_position(&sp);
    f->names.nick[0] = nick;
    render_lines board = {0};
    render_board(f->g, &f->names, &board);
    assert_int_equal(board.n, 3);
    assert_non_null(strstr(board.line[1], nick));
    assert_int_equal(markers_in(board.line[1]), 2);
    assert_int_equal(count_of(board.line[1], "░") + count_of(board.line[1], "█"), 20);
    assert_non_null(strstr(board.line[1], "] 12"));
    assert_non_null(strstr(board.line[2], "] 30"));
    fx_free(f);
}

static void test_a_cut_line_never_ends_inside_a_name_marker(void **state)
{
    (void)state;
    char text[RENDER_LINE_MAX + 64];
    memset(text, 'a', RENDER_LINE_MAX - 20);
    int k = snprintf(text + RENDER_LINE_MAX - 20, 64, "%s", "\xFFn1bob the long named\xFF tail");
    assert_true(k > 0 && k < 64);
    render_lines out = {0};
    render_add(&out, "%s", text);
    assert_int_equal(out.n, 1);
    assert_int_equal(markers_in(out.line[0]), 0);
    assert_non_null(strstr(out.line[0], "…"));
    assert_true(strlen(out.line[0]) < RENDER_LINE_MAX);
}

/* ------------------------------------------------------------------------ */
/* Hands and options                                                        */

static void test_a_hand_line_shows_own_cards_the_table_and_the_turn(void **state)
{
    (void)state;
    const spec sp = {.players = 2, .table = "5C", .hands = {"9H KD", "2S JC"}};
    fx *f = fx_position(&sp);
    pz_view v;
    char hand[RENDER_LINE_MAX];
    assert_int_equal(pz_view_seat(f->g, 0, &v), 0);
    render_hand(&v, "#friends", hand, sizeof hand);
    assert_string_equal(hand, "Your hand in #friends (deal 8 of 8): 9♥ K♦ · table 5♣ · your "
                              "turn: play a card, e.g. play 9");
    assert_int_equal(pz_view_seat(f->g, 1, &v), 0);
    render_hand(&v, "#friends", hand, sizeof hand);
    assert_string_equal(hand, "Your hand in #friends (deal 8 of 8): 2♠ J♣ · table 5♣");
    assert_false(shows_a_hand(f->g, hand, 1));
    fx_free(f);
}

static void test_options_show_the_target_and_only_what_differs(void **state)
{
    (void)state;
    pz_options o;
    char buf[RENDER_LINE_MAX];
    pz_options_default(&o);
    render_options(&o, buf, sizeof buf);
    assert_string_equal(buf, "first to 61");
    o.target = 100;
    o.partnerships = true;
    o.declarations = PZ_DECL_MANUAL;
    o.tendido = PZ_TENDIDO_LAST;
    o.wrap = false;
    o.odd_leftover = PZ_LEFTOVER_DEAL;
    o.final_sweep = PZ_SWEEP_DEALER;
    o.card_score = PZ_CARD_SCORE_EXCESS26;
    render_options(&o, buf, sizeof buf);
    assert_string_equal(buf, "first to 100 · partners · declarations: manual · tendido: last · "
                             "wrap: off · leftover: deal · final sweep: dealer · card score: "
                             "excess26");
}

/* ------------------------------------------------------------------------ */
/* Bounds                                                                   */

static void test_render_add_keeps_at_most_RENDER_LINES_MAX_lines(void **state)
{
    (void)state;
    render_lines *out = calloc(1, sizeof *out);
    assert_non_null(out);
    for (int i = 0; i < RENDER_LINES_MAX + 10; i++)
        render_add(out, "line %d", i);
    assert_int_equal(out->n, RENDER_LINES_MAX);
    char want[32];
    format_or_fail(want, sizeof want, "line %d", RENDER_LINES_MAX - 1);
    assert_string_equal(out->line[RENDER_LINES_MAX - 1], want);
    free(out);
}

static void test_render_add_cuts_a_long_line_at_a_utf8_boundary(void **state)
{
    (void)state;
    static char big[4 * RENDER_LINE_MAX];
    for (int shift = 0; shift < 4; shift++) {
        size_t n = 0;
        for (int k = 0; k < shift; k++)
            big[n++] = 'x';
        while (n + 4 < sizeof big) {
            memcpy(big + n, "♥", 3);
            n += 3;
        }
        big[n] = '\0';
        render_lines out = {0};
        render_add(&out, "%s", big);
        assert_int_equal(out.n, 1);
        assert_true(strlen(out.line[0]) < RENDER_LINE_MAX);
        assert_true(strlen(out.line[0]) > RENDER_LINE_MAX - 8);
        assert_true(utf8_valid(out.line[0]));
        assert_non_null(strstr(out.line[0], "…"));
    }
}

/* Checks a rendering cut at every cap from 0 up: valid UTF-8 within the
   cap, and not one byte written at or past it. */
#define CHECK_CAPS(call_with_buf_cap)                                                              \
    do {                                                                                           \
        for (size_t cap = 0; cap < 160; cap++) {                                                   \
            char buf[200];                                                                         \
            memset(buf, 'Z', sizeof buf);                                                          \
            call_with_buf_cap;                                                                     \
            for (size_t k = cap; k < sizeof buf; k++)                                              \
                assert_int_equal(buf[k], 'Z');                                                     \
            if (cap > 0) {                                                                         \
                assert_true(strlen(buf) < cap);                                                    \
                assert_true(utf8_valid(buf));                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static void test_small_buffers_always_hold_valid_utf8(void **state)
{
    (void)state;
    pz_card c[13];
    int n = parse_cards("TC TD TH TS 2C 3D 4H 5S 6C 7D 8H 9S KC", c);
    CHECK_CAPS(render_cards(c, n, buf, cap));
    fx *f = fx_porrazo_ready();
    play(f, 1, "7D");
    CHECK_CAPS(render_status(f->g, &f->names, buf, cap));
    CHECK_CAPS(render_side(f->g, &f->names, 1, buf, cap));
    pz_view v;
    assert_int_equal(pz_view_seat(f->g, 2, &v), 0);
    CHECK_CAPS(render_hand(&v, "#amigos-ñ", buf, cap));
    pz_options o;
    pz_options_default(&o);
    o.partnerships = true;
    o.card_score = PZ_CARD_SCORE_EXCESS26;
    CHECK_CAPS(render_options(&o, buf, cap));
    fx_free(f);
}

/* ------------------------------------------------------------------------ */
/* Help and rules                                                           */

static const char *const COMMAND_WORDS[] = {
    "new",      "join",    "leave",   "start", "kick",    "play",  "hand",  "table",  "score",
    "turn",     "tendido", "arrange", "ronda", "rondine", "claim", "pause", "resume", "stop",
    "deadline", "options", "players", "rules", "help",    "stats", "top"};
#define NWORDS (sizeof COMMAND_WORDS / sizeof COMMAND_WORDS[0])

static void test_help_lists_every_command_with_the_prefix(void **state)
{
    (void)state;
    render_lines out = {0};
    render_help("", "!", &out);
    assert_true(out.n >= 3 && out.n <= 5);
    for (size_t i = 0; i < NWORDS; i++) {
        char want[32];
        format_or_fail(want, sizeof want, "!%s", COMMAND_WORDS[i]);
        if (!any_line_has(&out, want))
            fail_msg("the list lacks %s", want);
    }
    for (int i = 0; i < out.n; i++)
        assert_true(utf8_valid(out.line[i]));
}

static void test_help_for_each_command_gives_usage_and_one_example(void **state)
{
    (void)state;
    for (size_t i = 0; i < NWORDS; i++) {
        render_lines out = {0};
        render_help(COMMAND_WORDS[i], "!", &out);
        assert_int_equal(out.n, 2);
        assert_int_equal(out.line[0][0], '!');
        assert_non_null(strstr(out.line[0], " — "));
        assert_int_equal(strncmp(out.line[1], "Example: !", 10), 0);
    }
}

static void test_help_accepts_aliases_case_and_the_prefix(void **state)
{
    (void)state;
    render_lines play = {0}, other = {0};
    render_help("play", ".", &play);
    assert_int_equal(strncmp(play.line[0], ".play CARD", 10), 0);
    const char *same[] = {"jugar", "PLAY", ".play", " Play ", "juega"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        other.n = 0;
        render_help(same[i], ".", &other);
        assert_int_equal(other.n, 2);
        assert_string_equal(other.line[0], play.line[0]);
    }
    other.n = 0;
    render_help("arrange", "!", &other);
    assert_non_null(strstr(other.line[0], "!arrange best | !arrange CARD"));
}

static void test_help_for_an_unknown_topic_says_so_and_lists_the_commands(void **state)
{
    (void)state;
    render_lines out = {0};
    render_help("xyzzy", "!", &out);
    assert_string_equal(out.line[0], "There is no command \"xyzzy\". The commands are:");
    assert_true(any_line_has(&out, "!play"));
    out.n = 0;
    render_help("\x03"
                "4bad\x01\xff\xfe\xe2\x99",
                "!", &out);
    assert_string_equal(out.line[0], "There is no command \"4bad\". The commands are:");
    for (int i = 0; i < out.n; i++)
        assert_true(utf8_valid(out.line[i]));
}

static void test_rules_summary_is_short_and_names_the_target(void **state)
{
    (void)state;
    render_lines out = {0};
    render_rules("", &out);
    assert_true(out.n >= 4 && out.n <= 6);
    assert_true(any_line_has(&out, "a 5 takes 5 6 7"));
    assert_true(any_line_has(&out, "porrazo"));
    assert_true(any_line_has(&out, "to reach 61 points"));
}

static void test_every_rules_topic_has_its_own_words(void **state)
{
    (void)state;
    const char *topics[] = {"capture", "place",   "limpia", "porrazo", "tendido",
                            "ronda",   "scoring", "end",    "counter", "RONDINE"};
    const char *ids[] = {
        "a 5 takes 5 6 7", "play 4 place", "limpia",   "Porrazo:",        "two pairs",
        "ronda",           "most cards",   "reach 61", "counter porrazo", "rondine"};
    for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++) {
        render_lines out = {0};
        render_rules(topics[i], &out);
        assert_true(out.n >= 2 && out.n <= 5); /* at most 4 of rules, then its worked example */
        assert_non_null(strstr(out.line[out.n - 1], "Example: "));
        if (!any_line_has(&out, ids[i]))
            fail_msg("rules %s lacks %s", topics[i], ids[i]);
    }
    render_lines out = {0};
    render_rules("bidding", &out);
    assert_int_equal(out.n, 1);
    assert_non_null(strstr(out.line[0], "\"bidding\""));
    assert_non_null(strstr(out.line[0], "capture, place, limpia, porrazo, tendido, ronda, "
                                        "scoring, end"));
}

/* ------------------------------------------------------------------------ */
/* Random games                                                             */

/* xorshift64: the test's own generator. */
static uint64_t next_random(uint64_t *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 7;
    *r ^= *r << 17;
    return *r;
}

/* Fails unless some line of out contains the text printf'd from fmt. */
static void expect_mention(const render_lines *out, const char *fmt, ...)
{
    char want[RENDER_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof want);
    if (!any_line_has(out, want)) {
        for (int i = 0; i < out->n; i++)
            print_message("  line %d: %s\n", i, out->line[i]);
        fail_msg("no line mentions: %s", want);
    }
}

/* How many events of each kind the random games rendered. */
static int kinds_seen[PZ_EV_GAME_END + 1];

/* Checks that every event of f->ev left its trace in f->out. */
static void expect_every_event_told(const fx *f, int prev_seat)
{
    for (int i = 0; i < f->ev.n; i++) {
        const pz_event *e = &f->ev.ev[i];
        char c[8];
        kinds_seen[e->kind]++;
        switch (e->kind) {
        case PZ_EV_DEAL:
            if (e->deal == 1) /* the hand's dealer, named once */
                expect_mention(&f->out, "deal 1 of %d, %s deals", pz_get_deals_per_hand(f->g),
                               NICKS[e->dealer]);
            else
                expect_mention(&f->out, "Deal %d of %d", e->deal, pz_get_deals_per_hand(f->g));
            break;
        case PZ_EV_PLAY:
            render_card(e->card, c);
            expect_mention(&f->out, "%s %s", NICKS[e->seat], c);
            break;
        case PZ_EV_CAPTURE:
            expect_mention(&f->out, e->pending ? "PORRAZO" : " takes ");
            if (e->pending &&
                (e->ncards < 2 || pz_card_rank(e->cards[1]) != pz_card_rank(e->cards[0])))
                expect_mention(&f->out, " PORRAZO on %s's", NICKS[prev_seat]);
            break;
        case PZ_EV_SCORE:
            expect_mention(&f->out, "+%d", e->points);
            if (i + 1 == f->ev.n || f->ev.ev[i + 1].kind != PZ_EV_SCORE ||
                f->ev.ev[i + 1].seat !=
                    e->seat) { /* told with the last: "→ 12", or "→ ann & cat 12" */
                expect_mention(&f->out, "→ ");
                expect_mention(&f->out, " %d", e->total);
            }
            break;
        case PZ_EV_TENDIDO:
            expect_mention(&f->out, "%s lays the tendido face up", NICKS[e->seat]);
            break;
        case PZ_EV_ARRANGED:
            expect_mention(&f->out, "%s arranges ", NICKS[e->seat]);
            break;
        case PZ_EV_LEFTOVER:
            expect_mention(&f->out, "leftover card");
            break;
        case PZ_EV_DECLARE:
            expect_mention(&f->out, "%s declares ", NICKS[e->seat]);
            break;
        case PZ_EV_SWEEP:
            expect_mention(&f->out, "the last ");
            break;
        case PZ_EV_SAN_BENITO:
            expect_mention(&f->out, "SAN BENITO!!");
            break;
        case PZ_EV_HAND_END:
            expect_mention(&f->out, "cards won: ");
            break;
        case PZ_EV_GAME_END:
            expect_mention(&f->out, "\xF0\x9F\x8F\x86 ");
            break;
        }
    }
}

/* Checks every public and private text of f's game after an action. */
static void expect_clean_texts(const fx *f)
{
    render_lines board = {0};
    render_board(f->g, &f->names, &board);
    for (int i = 0; i < f->out.n; i++) {
        assert_true(utf8_valid(f->out.line[i]));
        assert_true(f->out.line[i][0] != '\0');
        assert_true(strlen(f->out.line[i]) < RENDER_LINE_MAX - 8); /* never cut */
    }
    for (int i = 0; i < board.n; i++)
        assert_true(utf8_valid(board.line[i]));
    expect_no_hand_shown(f);
    for (int s = 0; s < pz_get_players(f->g); s++) {
        pz_view v;
        char hand[RENDER_LINE_MAX];
        assert_int_equal(pz_view_seat(f->g, s, &v), 0);
        render_hand(&v, "#friends", hand, sizeof hand);
        assert_true(utf8_valid(hand));
        assert_false(shows_a_hand(f->g, hand, s));
    }
}

/* Options for random game number k: every variant appears. */
static pz_setup random_setup(int k)
{
    pz_setup su;
    pz_setup_default(&su);
    su.players = 2 + k % 7;
    su.seed = (uint64_t)k * 7919 + 1;
    su.dealer = -1;
    su.options.target = 31 + k % 5 * 20;
    su.options.declarations = (pz_declarations)(k / 7 % 3);
    su.options.tendido = (pz_tendido_mode)(k / 3 % 2);
    su.options.odd_leftover = (pz_leftover_mode)(k / 5 % 2);
    su.options.final_sweep = (pz_sweep_mode)(k / 11 % 2);
    su.options.wrap = k % 13 != 0;
    su.options.partnerships = su.players >= 4 && su.players % 2 == 0 && k % 4 == 0;
    su.options.card_score =
        su.players == 2 && k % 6 == 0 ? PZ_CARD_SCORE_EXCESS26 : PZ_CARD_SCORE_DIFFERENCE;
    return su;
}

static void test_random_games_tell_every_event_and_never_show_a_hand(void **state)
{
    (void)state;
    static pz_action legal[PZ_LEGAL_MAX];
    uint64_t r = 0x9E3779B97F4A7C15u;
    for (int k = 0; k < 100; k++) {
        pz_setup su = random_setup(k);
        fx *f = fx_alloc(su.players);
        assert_int_equal(pz_new(&f->g, &su, &f->ev, NULL, 0), 0);
        render_events(f->g, &f->names, &f->ev, &f->out);
        expect_every_event_told(f, -1);
        expect_clean_texts(f);
        for (int step = 0; step < 400 && pz_get_phase(f->g) != PZ_PHASE_GAME_OVER; step++) {
            int n = pz_legal_actions(f->g, -1, legal, PZ_LEGAL_MAX);
            assert_true(n > 0);
            pz_action a = legal[next_random(&r) % (uint64_t)n];
            pz_view before;
            assert_int_equal(pz_view_seat(f->g, 0, &before), 0);
            act(f, a);
            expect_every_event_told(f, before.has_last_play ? before.last_play_seat : -1);
            expect_clean_texts(f);
        }
        fx_free(f);
    }
    for (int k = 0; k <= PZ_EV_GAME_END; k++)
        if (kinds_seen[k] == 0)
            fail_msg("no event of kind %d in the random games", k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cards_show_rank_and_suit_symbol_with_ten_as_10),
        cmocka_unit_test(test_card_lists_are_spaced_and_empty_says_so),
        cmocka_unit_test(test_card_lists_are_cut_at_whole_cards),
        cmocka_unit_test(test_partners_are_named_together_as_one_side),
        cmocka_unit_test(test_a_card_that_takes_nothing_is_just_played),
        cmocka_unit_test(test_a_card_in_place_shows_its_points_and_the_new_total),
        cmocka_unit_test(test_a_capture_lists_the_cards_taken),
        cmocka_unit_test(test_a_limpia_says_so_with_its_point_and_total),
        cmocka_unit_test(test_a_move_says_what_it_takes_and_scores_and_nothing_after_it),
        cmocka_unit_test(test_a_porrazo_names_the_card_it_hits_and_its_owner),
        cmocka_unit_test(test_a_pending_porrazo_says_its_worth_and_a_counter_is_named),
        cmocka_unit_test(test_a_porrazo_stands_before_the_next_card_is_played),
        cmocka_unit_test(test_a_counter_porrazo_takes_the_porrazo_and_warns_of_san_benito),
        cmocka_unit_test(test_a_counter_porrazo_that_stands_scores_its_rondine_value),
        cmocka_unit_test(test_a_san_benito_wins_the_game_at_once),
        cmocka_unit_test(test_a_porrazo_with_limpia_stands_at_the_end_of_the_deal),
        cmocka_unit_test(test_a_deal_says_which_and_never_shows_a_hand),
        cmocka_unit_test(test_the_dealer_chooses_the_tendido_before_seeing_the_hand),
        cmocka_unit_test(test_the_tendido_shows_its_pairs_and_how_to_arrange_them),
        cmocka_unit_test(test_an_arranged_tendido_scores_its_places_and_sets),
        cmocka_unit_test(test_an_arrangement_below_the_best_says_what_the_best_scores),
        cmocka_unit_test(test_a_tendido_later_adds_no_line),
        cmocka_unit_test(test_leftover_cards_on_the_table_are_shown),
        cmocka_unit_test(test_leftover_cards_dealt_to_players_stay_private),
        cmocka_unit_test(test_a_declaration_says_the_kind_but_never_the_rank),
        cmocka_unit_test(test_the_end_of_a_hand_sweeps_scores_holdings_and_cards),
        cmocka_unit_test(test_a_missed_declaration_can_be_claimed_for_points),
        cmocka_unit_test(test_a_winning_score_ends_with_the_winner_and_the_score),
        cmocka_unit_test(test_partnership_scores_name_the_side),
        cmocka_unit_test(test_board_bars_are_empty_at_zero_half_at_half_and_full_past_the_target),
        cmocka_unit_test(test_a_board_row_keeps_a_long_marked_name_whole_with_its_bar),
        cmocka_unit_test(test_a_cut_line_never_ends_inside_a_name_marker),
        cmocka_unit_test(test_a_hand_line_shows_own_cards_the_table_and_the_turn),
        cmocka_unit_test(test_options_show_the_target_and_only_what_differs),
        cmocka_unit_test(test_render_add_keeps_at_most_RENDER_LINES_MAX_lines),
        cmocka_unit_test(test_render_add_cuts_a_long_line_at_a_utf8_boundary),
        cmocka_unit_test(test_small_buffers_always_hold_valid_utf8),
        cmocka_unit_test(test_help_lists_every_command_with_the_prefix),
        cmocka_unit_test(test_help_for_each_command_gives_usage_and_one_example),
        cmocka_unit_test(test_help_accepts_aliases_case_and_the_prefix),
        cmocka_unit_test(test_help_for_an_unknown_topic_says_so_and_lists_the_commands),
        cmocka_unit_test(test_rules_summary_is_short_and_names_the_target),
        cmocka_unit_test(test_every_rules_topic_has_its_own_words),
        cmocka_unit_test(test_random_games_tell_every_event_and_never_show_a_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
