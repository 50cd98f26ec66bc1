/*
 * test_live.c — what players read, through host.h and an adapter's queue
 * with the host's expander, on a real SQLite file and a fake clock: one
 * room line per play with the state after it, plays waiting to be sent
 * told in one line, a state answer made needless by a newer line never
 * sent, names as they are when a line is sent, hands and prompts rendered
 * when sent (a prompt whose turn passed is dropped), private prompts only
 * for players who have been quiet, a deal in one room line and one
 * private line per player, sorted hands and tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host.h"
#include "outq.h"
#include "porrazo.h"
#include "render.h"
#include "store.h"

#define NET "t"
#define ROOM "#t"
#define MAX_SEEN 8192
#define RANKS "A23456789_JQK" /* '_': 10 is written "10" */

typedef struct seen {
    store_msg_kind kind;
    char target[64];
    char text[1024];
} seen;

typedef struct world {
    char dir[64], path[96];
    store *st;
    host *h;
    outq *q; /* the adapter's queue: kept between drains, like an adapter's */
    int64_t now;
    int n;
    seen msg[MAX_SEEN];
} world;

static const char *const NICKS[] = {"ann", "bob", "cat", "dan"};

static world *new_world(int prompt_quiet)
{
    world *w = calloc(1, sizeof *w);
    char why[256];
    snprintf(w->dir, sizeof w->dir, "/tmp/pz-live-XXXXXX");
    assert_non_null(mkdtemp(w->dir));
    snprintf(w->path, sizeof w->path, "%s/t.db", w->dir);
    assert_int_equal(store_open(&w->st, w->path, why, sizeof why), 0);
    host_config c = {.prefix = "!",
                     .bot_name = "porrazo",
                     .prompt_quiet_secs = prompt_quiet,
                     .max_games = 10,
                     .fixed_seed = true,
                     .seed = 4242};
    assert_int_equal(host_new(&w->h, w->st, &c, why, sizeof why), 0);
    assert_int_equal(outq_new(&w->q, w->st, NET), 0);
    outq_set_expander(w->q, host_expand, w->h);
    w->now = 1000000;
    return w;
}

static void free_world(world *w)
{
    char cmd[200];
    outq_free(w->q);
    host_free(w->h);
    store_close(w->st);
    snprintf(cmd, sizeof cmd, "rm -rf %s", w->dir);
    assert_int_equal(system(cmd), 0);
    free(w);
}

/* What the adapter would send now, in the order it takes it. */
static void drain(world *w)
{
    int rc;
    do {
        rc = outq_load(w->q);
        assert_true(rc == 0 || rc == 1);
        outq_msg *m;
        while ((m = outq_take(w->q, NULL, NULL)) != NULL) {
            assert_true(w->n < MAX_SEEN);
            seen *s = &w->msg[w->n++];
            s->kind = m->kind;
            snprintf(s->target, sizeof s->target, "%s", m->target);
            snprintf(s->text, sizeof s->text, "%s", m->text);
            assert_null(strchr(m->text, '\xFF')); /* no marker ever reaches a player */
            outq_sent(w->q, m);
        }
    } while (rc == 1);
    assert_int_equal(outq_flush_done(w->q), 0);
}

/* nick says text (room NULL: privately); nothing is sent yet. */
static void say_quietly(world *w, const char *nick, const char *room, const char *text)
{
    host_msg m = {NET, room, nick, nick, text, strlen(text), NULL, false, false, NULL, false};
    assert_int_equal(host_handle(w->h, &m, w->now), 0);
}

static void say(world *w, const char *nick, const char *room, const char *text)
{
    say_quietly(w, nick, room, text);
    drain(w);
}

static int count(const world *w, store_msg_kind kind, const char *target, const char *s)
{
    int n = 0;
    for (int i = 0; i < w->n; i++)
        if (w->msg[i].kind == kind && (target == NULL || strcmp(w->msg[i].target, target) == 0) &&
            (s == NULL || strstr(w->msg[i].text, s) != NULL))
            n++;
    return n;
}

/* The last room line, or "". */
static const char *last_room_line(const world *w)
{
    for (int i = w->n - 1; i >= 0; i--)
        if (w->msg[i].kind == STORE_MSG_ROOM)
            return w->msg[i].text;
    return "";
}

static pz_game *game_of(world *w)
{
    store_game g;
    pz_game *game = NULL;
    if (store_game_active(w->st, NET, ROOM, &g) != 0)
        return NULL;
    if (g.state != NULL)
        assert_int_equal(pz_restore(&game, g.state, strlen(g.state), NULL, 0), 0);
    store_game_fini(&g);
    return game;
}

static void start_game(world *w, int n, const char *options)
{
    char line[200];
    snprintf(line, sizeof line, "!new %d %s", n, options);
    say(w, NICKS[0], ROOM, line);
    for (int i = 1; i < n; i++)
        say(w, NICKS[i], ROOM, "!join");
}

/* The command for the engine's default move of the player to act, and
   who that is; false when the game is over. */
static bool next_move(world *w, char *text, size_t cap, const char **who)
{
    pz_game *g = game_of(w);
    if (g == NULL)
        return false;
    pz_phase ph = pz_get_phase(g);
    int actor = ph == PZ_PHASE_PLAY ? pz_get_turn(g) : pz_get_dealer(g);
    pz_action a;
    assert_int_equal(pz_default_action(g, actor, &a), 0);
    char c[3];
    pz_card_format(a.card, c);
    if (a.kind == PZ_ACT_TENDIDO)
        snprintf(text, cap, "!tendido %s", a.now ? "now" : "later");
    else if (a.kind == PZ_ACT_ARRANGE)
        snprintf(text, cap, "!arrange best");
    else
        snprintf(text, cap, "!play %s%s", c,
                 a.mode == PZ_MODE_CAPTURE ? " capture"
                 : a.mode == PZ_MODE_PLACE ? " place"
                                           : "");
    *who = NICKS[actor];
    pz_free(g);
    return true;
}

/* Whether the game's phase is play (not a tendido choice). */
static bool in_play(world *w)
{
    pz_game *g = game_of(w);
    bool play = g != NULL && pz_get_phase(g) == PZ_PHASE_PLAY;
    pz_free(g);
    return play;
}

/* Opens a table of n players, fills it and plays the dealer's tendido
   choices until a card is to be played. */
static void start_playing(world *w, int n)
{
    char text[64];
    const char *who;
    start_game(w, n, "");
    while (!in_play(w)) {
        assert_true(next_move(w, text, sizeof text, &who));
        say(w, who, ROOM, text);
    }
}

static void test_each_play_is_one_room_line_with_the_state_after_it(void **state)
{
    (void)state;
    world *w = new_world(120);
    start_game(w, 2, "to 21");
    int plays = 0, room_before = count(w, STORE_MSG_ROOM, ROOM, NULL);
    char text[64];
    const char *who;
    while (next_move(w, text, sizeof text, &who)) {
        bool play = strncmp(text, "!play", 5) == 0;
        int before = count(w, STORE_MSG_ROOM, ROOM, NULL);
        int board_before = count(w, STORE_MSG_ROOM, ROOM, "░");
        int deals_before = count(w, STORE_MSG_ROOM, ROOM, "Deal ");
        say(w, who, ROOM, text);
        int lines = count(w, STORE_MSG_ROOM, ROOM, NULL) - before;
        assert_true(lines >= 1);
        if (play)
            plays++;
        /* a play is one line, unless it ended a deal: then the next
           deal's line ("Deal 3 of 8 · table ..."), or a hand: then the
           board's header and bars, and the new hand's first line (none
           at the end of the game) */
        bool board = count(w, STORE_MSG_ROOM, ROOM, "░") > board_before;
        if (play && lines > 1 && !board)
            assert_true(lines == 2 && count(w, STORE_MSG_ROOM, ROOM, "Deal ") > deals_before);
        if (play && lines > 1 && board)
            assert_true(lines == 1 + 1 + 2 + 1 || lines == 1 + 1 + 2);
        w->now += 5;
        assert_true(plays < 5000);
    }
    int room = count(w, STORE_MSG_ROOM, ROOM, NULL) - room_before;
    /* ≤ 1.2 room lines per play over a whole game, the boards included */
    assert_true(plays > 0);
    assert_true(room * 10 <= plays * 12);
    free_world(w);
}

static void test_plays_waiting_to_be_sent_go_out_as_one_line(void **state)
{
    (void)state;
    world *w = new_world(120);
    start_playing(w, 3);
    char text[64];
    const char *who;
    int before = w->n;
    char played[2][64];
    for (int i = 0; i < 2; i++) {
        assert_true(next_move(w, text, sizeof text, &who));
        snprintf(played[i], sizeof played[i], "%s", who);
        say_quietly(w, who, ROOM, text);
    }
    drain(w);
    int room = 0;
    const char *line = NULL;
    for (int i = before; i < w->n; i++)
        if (w->msg[i].kind == STORE_MSG_ROOM)
            room++, line = w->msg[i].text;
    assert_int_equal(room, 1);
    /* both plays, in order, then the state once */
    const char *first = strstr(line, played[0]);
    assert_non_null(first);
    assert_non_null(strstr(first + strlen(played[0]), played[1]));
    const char *to_play = strstr(line, " to play");
    assert_non_null(to_play);
    assert_null(strstr(to_play + 1, " to play"));
    assert_non_null(strstr(line, "· table "));
    free_world(w);
}

static void test_a_turn_answer_made_needless_by_a_newer_line_is_never_sent(void **state)
{
    (void)state;
    world *w = new_world(120);
    start_playing(w, 2);
    char text[64];
    const char *who;
    int before = w->n;
    say_quietly(w, "bob", ROOM, "!turn");
    assert_true(next_move(w, text, sizeof text, &who));
    say_quietly(w, who, ROOM, text);
    drain(w);
    for (int i = before; i < w->n; i++)
        assert_null(strstr(w->msg[i].text, "bob: table")); /* the stale answer */
    assert_non_null(strstr(last_room_line(w), " to play"));
    /* asked alone, it is answered with the state when it is sent */
    before = w->n;
    say(w, "bob", ROOM, "!turn");
    assert_int_equal(w->n - before, 1);
    assert_non_null(strstr(w->msg[w->n - 1].text, "bob: table "));
    free_world(w);
}

static void test_names_are_the_ones_players_have_when_a_line_is_sent(void **state)
{
    (void)state;
    world *w = new_world(120);
    start_playing(w, 2);
    char text[64];
    const char *who;
    assert_true(next_move(w, text, sizeof text, &who));
    say_quietly(w, who, ROOM, text); /* queued: "... · X to play" */
    const char *next = strcmp(who, "ann") == 0 ? "bob" : "ann";
    assert_int_equal(host_rename(w->h, NET, next, "newname"), 0);
    drain(w);
    const char *line = last_room_line(w);
    char want[64];
    snprintf(want, sizeof want, "newname to play");
    assert_non_null(strstr(line, want));
    snprintf(want, sizeof want, "%s to play", next);
    assert_null(strstr(line, want));
    free_world(w);
}

static void test_a_nick_with_a_marker_byte_cannot_break_a_line(void **state)
{
    (void)state;
    world *w = new_world(120);
    say(w, "ann", ROOM, "!new 2");
    host_msg m = {NET, ROOM, "bad", "b\xFF\xFF" "d", "!join", 5, NULL, false, false, NULL, false};
    assert_int_equal(host_handle(w->h, &m, w->now), 0);
    drain(w); /* drain() fails on any 0xFF reaching a player */
    char text[64];
    const char *who;
    while (!in_play(w)) {
        assert_true(next_move(w, text, sizeof text, &who));
        host_msg mv = {NET, ROOM, strcmp(who, "ann") == 0 ? "ann" : "bad", who, text,
                       strlen(text), NULL, false, false, NULL, false};
        assert_int_equal(host_handle(w->h, &mv, w->now), 0);
        drain(w);
    }
    assert_non_null(strstr(last_room_line(w), " to play"));
    free_world(w);
}

static void test_quiet_players_are_prompted_privately_and_active_ones_are_not(void **state)
{
    (void)state;
    world *w = new_world(120);
    start_playing(w, 2);
    char text[64];
    const char *who;
    /* both act within seconds: the room's line is enough */
    for (int i = 0; i < 2; i++) {
        assert_true(next_move(w, text, sizeof text, &who));
        int before = w->n;
        say(w, who, ROOM, text);
        for (int k = before; k < w->n; k++)
            assert_int_not_equal(w->msg[k].kind, STORE_MSG_PRIVATE);
        w->now += 5;
    }
    /* the next player then waits an hour before playing; the one after
       them has been quiet as long: a prompt, saying what happened */
    w->now += 3600;
    assert_true(next_move(w, text, sizeof text, &who));
    pz_game *g = game_of(w);
    int to_be_prompted = (pz_get_turn(g) + 1) % 2;
    pz_free(g);
    int before = w->n;
    say(w, who, ROOM, text);
    int prompts = 0;
    for (int k = before; k < w->n; k++) {
        if (w->msg[k].kind != STORE_MSG_PRIVATE)
            continue;
        assert_string_equal(w->msg[k].target, NICKS[to_be_prompted]);
        assert_non_null(strstr(w->msg[k].text, "Your turn in #t"));
        assert_non_null(strstr(w->msg[k].text, "since your last play: "));
        assert_non_null(strstr(w->msg[k].text, who)); /* who played since */
        prompts++;
    }
    assert_int_equal(prompts, 1);
    free_world(w);
}

static void test_a_player_who_asked_for_prompts_gets_one_at_every_turn(void **state)
{
    (void)state;
    world *w = new_world(120);
    start_playing(w, 2);
    char text[64];
    const char *who;
    say(w, "ann", NULL, "prompts on");
    assert_non_null(strstr(w->msg[w->n - 1].text, "each of your turns"));
    int before = w->n;
    for (int i = 0; i < 6 && next_move(w, text, sizeof text, &who); i++)
        say(w, who, ROOM, text); /* everyone plays at once: nobody is quiet */
    /* ann's turns came after bob's plays: a prompt each time, bob none */
    assert_true(count(w, STORE_MSG_PRIVATE, "ann", "Your turn in #t") >= 2);
    for (int k = before; k < w->n; k++)
        if (w->msg[k].kind == STORE_MSG_PRIVATE && strcmp(w->msg[k].target, "bob") == 0)
            assert_null(strstr(w->msg[k].text, "Your turn"));
    say(w, "ann", NULL, "prompts off");
    assert_non_null(strstr(w->msg[w->n - 1].text, "only when you have not played for 2 min"));
    before = w->n;
    int ann_turns = 0;
    for (int i = 0; i < 4 && next_move(w, text, sizeof text, &who); i++) {
        say(w, who, ROOM, text);
        ann_turns += strcmp(who, "bob") == 0; /* ann's turn comes next */
    }
    assert_true(ann_turns >= 1); /* she had turns, and no prompt for them: */
    for (int k = before; k < w->n; k++)
        if (w->msg[k].kind == STORE_MSG_PRIVATE && strcmp(w->msg[k].target, "ann") == 0)
            assert_null(strstr(w->msg[k].text, "Your turn"));
    free_world(w);
}

static void test_a_prompt_whose_turn_has_passed_is_never_sent(void **state)
{
    (void)state;
    world *w = new_world(120);
    start_playing(w, 2);
    char text[64];
    const char *who;
    w->now += 3600; /* everyone quiet: every turn is prompted */
    assert_true(next_move(w, text, sizeof text, &who));
    say_quietly(w, who, ROOM, text); /* prompts the next player... */
    w->now += 1;
    assert_true(next_move(w, text, sizeof text, &who));
    const char *prompted = who;
    say_quietly(w, who, ROOM, text); /* ...who plays before it was sent */
    int before = w->n;
    drain(w);
    for (int k = before; k < w->n; k++)
        if (w->msg[k].kind == STORE_MSG_PRIVATE)
            assert_string_not_equal(w->msg[k].target, prompted);
    free_world(w);
}

static void test_a_deal_is_one_room_line_and_one_private_line_each(void **state)
{
    (void)state;
    world *w = new_world(120);
    say(w, "ann", ROOM, "!new 4 partners");
    say(w, "bob", ROOM, "!join");
    say(w, "cat", ROOM, "!join");
    int before = w->n;
    say(w, "dan", ROOM, "!join"); /* full: dealt at once */
    int room = 0, priv[4] = {0};
    for (int k = before; k < w->n; k++) {
        if (w->msg[k].kind == STORE_MSG_ROOM) {
            room++;
            continue;
        }
        for (int p = 0; p < 4; p++)
            priv[p] += strcmp(w->msg[k].target, NICKS[p]) == 0;
    }
    assert_true(room <= 3); /* "dan sits down", the seats, the deal */
    assert_int_equal(count(w, STORE_MSG_ROOM, ROOM, "deal 1 of "), 1);
    pz_game *g = game_of(w);
    int dealer = pz_get_dealer(g);
    for (int p = 0; p < 4; p++) /* the dealer learns of the choice in the room */
        assert_int_equal(priv[p], p == dealer ? 0 : 1);
    /* hands are sorted by rank: "Your hand in #t (deal 1 of 4): 2♣ 5♦ 9♥ · ..." */
    for (int k = before; k < w->n; k++) {
        if (w->msg[k].kind != STORE_MSG_PRIVATE)
            continue;
        const char *p = strstr(w->msg[k].text, "): ");
        assert_non_null(p);
        int last = -1, cards = 0;
        for (p += 3; *p != '\0' && *p != '\xC2' /* the "·" */; cards++) {
            int r = strncmp(p, "10", 2) == 0 ? 9 : (int)(strchr(RANKS, *p) - RANKS);
            assert_true(r >= last && r < 13);
            last = r;
            p = strchr(p, ' ');
            assert_non_null(p);
            p++;
        }
        assert_true(cards >= 3);
    }
    pz_free(g);
    free_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_play_is_one_room_line_with_the_state_after_it),
        cmocka_unit_test(test_plays_waiting_to_be_sent_go_out_as_one_line),
        cmocka_unit_test(test_a_turn_answer_made_needless_by_a_newer_line_is_never_sent),
        cmocka_unit_test(test_names_are_the_ones_players_have_when_a_line_is_sent),
        cmocka_unit_test(test_a_nick_with_a_marker_byte_cannot_break_a_line),
        cmocka_unit_test(test_quiet_players_are_prompted_privately_and_active_ones_are_not),
        cmocka_unit_test(test_a_player_who_asked_for_prompts_gets_one_at_every_turn),
        cmocka_unit_test(test_a_prompt_whose_turn_has_passed_is_never_sent),
        cmocka_unit_test(test_a_deal_is_one_room_line_and_one_private_line_each),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
