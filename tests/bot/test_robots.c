/*
 * test_robots.c — computer players at the host's tables: seated by
 * "new 2 bot" and addbot, removed by removebot, moving when the fake clock
 * says so (after robot_delay_secs), inline or on the worker thread, never
 * sent a private line, and kept apart in the statistics; and the absent
 * people they stand in for: turns missed at the deadline, a seat played by
 * a computer player until its person is back, leaving or being removed
 * mid-game, and a substitute taking a seat.
 *
 * Every message the host queues is read raw from the store's outbox (the
 * live markers left in): the checks look for plain phrases in them.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "host.h"
#include "porrazo.h"
#include "store.h"

#define NET "t"
#define ROOM "#t"
#define MSGS_MAX 4000

typedef struct table {
    char dir[64], path[96];
    store *st;
    host *h;
    int64_t now;
    int64_t read_after; /* the outbox id read up to */
    int nmsg;
    store_msg *msg; /* every message queued, in order */
} table;

static int reminder_secs;  /* host_config.reminder_secs of the tables opened next */
static int countdown_secs; /* host_config.start_countdown_secs of the tables opened next */

static table *open_table_with(int delay, int deadline)
{
    table *t = calloc(1, sizeof *t);
    char why[256];
    assert_non_null(t);
    t->msg = calloc(MSGS_MAX, sizeof *t->msg);
    assert_non_null(t->msg);
    snprintf(t->dir, sizeof t->dir, "/tmp/pz-robots-XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    snprintf(t->path, sizeof t->path, "%s/t.db", t->dir);
    assert_int_equal(store_open(&t->st, t->path, why, sizeof why), 0);
    host_config c = {.prefix = "!",
                     .bot_name = "porrazo",
                     .max_games = 10,
                     .fixed_seed = true,
                     .seed = 77,
                     .robot_level = "greedy",
                     .robot_delay_secs = delay,
                     .robot_iterations = 50,
                     .deadline_secs = deadline,
                     .reminder_secs = reminder_secs,
                     .start_countdown_secs = countdown_secs,
                     .absent_after = 3,
                     .lobby_expiry_secs = 3600,
                     .away_max_secs = 7 * 86400};
    assert_int_equal(host_new(&t->h, t->st, &c, why, sizeof why), 0);
    t->now = 2000000;
    return t;
}

static table *open_table(int delay)
{
    return open_table_with(delay, 0);
}

static void close_table(table *t)
{
    char cmd[128];
    host_free(t->h);
    store_close(t->st);
    snprintf(cmd, sizeof cmd, "rm -rf %s", t->dir);
    assert_int_equal(system(cmd), 0);
    free(t->msg);
    free(t);
}

/* Reads what was queued since the last read into t->msg. */
static void read_outbox(table *t)
{
    store_msg batch[64];
    int n;
    do {
        assert_int_equal(store_outbox_since(t->st, NET, t->read_after, batch, 64, &n), 0);
        for (int i = 0; i < n; i++) {
            assert_true(t->nmsg < MSGS_MAX);
            t->msg[t->nmsg++] = batch[i];
            t->read_after = batch[i].id;
        }
    } while (n == 64);
}

static void say(table *t, const char *nick, const char *text)
{
    host_msg m = {NET, ROOM, nick, nick, text, strlen(text), NULL, false, false, NULL, false};
    assert_int_equal(host_handle(t->h, &m, t->now), 0);
    read_outbox(t);
}

/* As say(), from a moderator of the room. */
static void say_mod(table *t, const char *nick, const char *text)
{
    host_msg m = {NET, ROOM, nick, nick, text, strlen(text), NULL, false, true, NULL, false};
    assert_int_equal(host_handle(t->h, &m, t->now), 0);
    read_outbox(t);
}

static void tick(table *t, int secs)
{
    t->now += secs;
    assert_int_equal(host_tick(t->h, t->now), 0);
    read_outbox(t);
}

/* Messages to target (NULL: any) holding s. */
static int count(const table *t, const char *target, const char *s)
{
    int n = 0;
    for (int i = 0; i < t->nmsg; i++)
        if ((target == NULL || strcmp(t->msg[i].target, target) == 0) &&
            strstr(t->msg[i].text, s) != NULL)
            n++;
    return n;
}

/* Messages to any computer player (their ids start "bot:"). */
static int to_robots(const table *t)
{
    int n = 0;
    for (int i = 0; i < t->nmsg; i++)
        n += strncmp(t->msg[i].target, "bot:", 4) == 0;
    return n;
}

/* The room's game (caller frees), or NULL when none is active. */
static pz_game *game_now(table *t, int *status)
{
    store_game g;
    pz_game *game = NULL;
    if (store_game_active(t->st, NET, ROOM, &g) != 0)
        return NULL;
    *status = (int)g.status;
    if (g.state != NULL)
        assert_int_equal(pz_restore(&game, g.state, strlen(g.state), NULL, 0), 0);
    store_game_fini(&g);
    return game;
}

/* What seat's person types for the engine's default action in g. */
static void person_move(table *t, const pz_game *g, int seat, const char *nick)
{
    pz_action a;
    char line[64], card[3];
    assert_int_equal(pz_default_action(g, seat, &a), 0);
    if (a.kind == PZ_ACT_TENDIDO)
        snprintf(line, sizeof line, "!tendido %s", a.now ? "now" : "later");
    else if (a.kind == PZ_ACT_ARRANGE)
        snprintf(line, sizeof line, "!arrange best");
    else {
        pz_card_format(a.card, card);
        snprintf(line, sizeof line, "!play %s%s", card,
                 a.mode == PZ_MODE_CAPTURE ? " capture"
                 : a.mode == PZ_MODE_PLACE ? " place"
                                           : "");
    }
    say(t, nick, line);
}

/* The seat to act in g (turn, or the dealer choosing/arranging), or -1. */
static int to_act(const pz_game *g)
{
    pz_phase p = pz_get_phase(g);
    if (p == PZ_PHASE_PLAY)
        return pz_get_turn(g);
    if (p == PZ_PHASE_TENDIDO_CHOICE || p == PZ_PHASE_ARRANGE)
        return pz_get_dealer(g);
    return -1;
}

/*
 * Plays the room's game to its end: ann (seat `ann_seat`) types the
 * default move at her turns, the clock runs at the robots'. Returns the
 * number of clock ticks that moved a robot.
 */
static int play_out(table *t, int ann_seat, int delay)
{
    int robot_moves = 0;
    for (int step = 0; step < 3000; step++) {
        int status = -1;
        pz_game *g = game_now(t, &status);
        if (g == NULL)
            return robot_moves;
        int seat = to_act(g);
        if (seat == ann_seat) {
            person_move(t, g, seat, "ann");
        } else {
            char before[PZ_SAVE_MAX], after[PZ_SAVE_MAX];
            assert_true(pz_save(g, before, sizeof before) > 0);
            if (delay > 0) { /* not before its delay */
                tick(t, delay - 1);
                pz_free(g);
                g = game_now(t, &status);
                assert_non_null(g);
                assert_true(pz_save(g, after, sizeof after) > 0);
                assert_string_equal(before, after);
            }
            tick(t, 1);
            robot_moves++;
        }
        pz_free(g);
    }
    fail_msg("the game did not end in 3000 steps");
    return robot_moves;
}

static void test_a_person_plays_a_whole_game_against_a_computer_player(void **state)
{
    (void)state;
    table *t = open_table(2);
    say(t, "ann", "!new 2 bot expert to 11");
    assert_int_equal(count(t, ROOM, "Robot 1 (expert) sits down (2 of 2)"), 1);
    int moves = play_out(t, 0, 2);
    assert_true(moves > 5);
    assert_true(count(t, ROOM, "wins") + count(t, ROOM, "Game over") >= 1);
    assert_int_equal(to_robots(t), 0); /* never a private line to a computer player */
    say(t, "ann", "!top");
    assert_int_equal(count(t, ROOM, "Top in #t: 1. ann ("), 1); /* people only */
    say(t, "ann", "!top bots");
    assert_int_equal(count(t, ROOM, "Top computer players in #t: 1. Robot (expert) ("), 1);
    say(t, "ann", "!stats");
    assert_int_equal(count(t, ROOM, "ann in #t: 1 game (1 with computer players), "), 1);
    close_table(t);
}

static void test_computer_players_are_added_and_removed_in_a_lobby(void **state)
{
    (void)state;
    table *t = open_table(0);
    say(t, "ann", "!new 4");
    say(t, "ann", "!addbot 2 beginner");
    assert_int_equal(count(t, ROOM, "Robot 1 (beginner) sits down (2 of 4)"), 1);
    assert_int_equal(count(t, ROOM, "Robot 2 (beginner) sits down (3 of 4)"), 1);
    say(t, "ann", "!addbot 2");
    assert_int_equal(count(t, ROOM, "the table has 1 free seat, not 2"), 1);
    say(t, "ann", "!removebot ann");
    assert_int_equal(count(t, ROOM, "ann is a person"), 1);
    say(t, "ann", "!removebot 1");
    assert_int_equal(count(t, ROOM, "Robot 1 (beginner) leaves the table (2 seated)"), 1);
    say(t, "ann", "!removebot");
    assert_int_equal(count(t, ROOM, "Robot 2 (beginner) leaves the table (1 seated)"), 1);
    say(t, "ann", "!removebot");
    assert_int_equal(count(t, ROOM, "no computer player is seated here"), 1);
    say(t, "cat", "!addbot");
    assert_int_equal(count(t, ROOM, "only the table's creator can do that"), 1);
    say(t, "ann", "!addbot greedy");
    assert_int_equal(count(t, ROOM, "Robot 1 (greedy) sits down"), 1);
    say(t, "ann", "!leave"); /* only a computer player would be left: closed */
    assert_int_equal(count(t, ROOM, "the table is closed"), 1);
    int status;
    assert_null(game_now(t, &status));
    close_table(t);
}

static void test_a_table_of_computer_players_and_one_person_plays_on(void **state)
{
    (void)state;
    table *t = open_table(1);
    say(t, "ann", "!new 4 bots strong partners to 11");
    assert_int_equal(count(t, ROOM, "sits down (4 of 4)"), 1);
    assert_true(play_out(t, 0, 1) > 10);
    assert_int_equal(to_robots(t), 0);
    say(t, "ann", "!top bots");
    assert_int_equal(count(t, ROOM, "Robot (strong)"), 1);
    close_table(t);
}

/* host_think_async's wake: counts. */
static int wakes;
static void on_wake(void *arg)
{
    (void)arg;
    __atomic_add_fetch(&wakes, 1, __ATOMIC_SEQ_CST);
}

/* Ticks until the worker's decision is applied (the game changed). */
static void tick_until_moved(table *t, const char *before)
{
    for (int i = 0; i < 2000; i++) {
        if (host_next_tick(t->h, t->now) <= t->now)
            tick(t, 0);
        int status;
        pz_game *g = game_now(t, &status);
        char now[PZ_SAVE_MAX];
        bool moved = g == NULL || (pz_save(g, now, sizeof now) > 0 && strcmp(now, before) != 0);
        pz_free(g);
        if (moved)
            return;
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    fail_msg("the worker's decision was never applied");
}

static void test_the_worker_thread_decides_and_the_clock_applies(void **state)
{
    (void)state;
    table *t = open_table(0);
    assert_int_equal(host_think_async(t->h, on_wake, NULL), 0);
    say(t, "ann", "!new 2 bot strong to 121");
    for (int moves = 0; moves < 6;) {
        int status;
        pz_game *g = game_now(t, &status);
        assert_non_null(g);
        int seat = to_act(g);
        if (seat == 0) {
            person_move(t, g, 0, "ann");
        } else {
            char before[PZ_SAVE_MAX];
            assert_true(pz_save(g, before, sizeof before) > 0);
            tick(t, 0); /* hands the decision to the worker */
            tick_until_moved(t, before);
            moves++;
        }
        pz_free(g);
    }
    assert_true(__atomic_load_n(&wakes, __ATOMIC_SEQ_CST) >= 6);
    host_think_stop(t->h);
    close_table(t);
}

static void test_a_decision_for_a_game_that_moved_on_is_not_applied(void **state)
{
    (void)state;
    table *t = open_table(0);
    assert_int_equal(host_think_async(t->h, on_wake, NULL), 0);
    say(t, "ann", "!new 2 bot to 11");
    int status;
    pz_game *g = game_now(t, &status);
    assert_non_null(g);
    int robot_acts = to_act(g) == 1;
    pz_free(g);
    if (!robot_acts) { /* make it the robot's turn */
        g = game_now(t, &status);
        person_move(t, g, 0, "ann");
        pz_free(g);
    }
    tick(t, 0);             /* the robot's decision goes to the worker */
    say(t, "ann", "!stop"); /* the creator stops the game meanwhile */
    assert_int_equal(count(t, ROOM, "abandoned"), 1);
    int before = t->nmsg;
    for (int i = 0; i < 400 && !(host_next_tick(t->h, t->now) <= t->now); i++) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    tick(t, 0);
    assert_int_equal(t->nmsg, before); /* nothing played, nothing said */
    host_think_stop(t->h);
    close_table(t);
}

/* A game of ann and bob (seats 0 and 1) to 61, dealt. */
static table *two_people(int deadline)
{
    table *t = open_table_with(1, deadline);
    say(t, "ann", "!new 2");
    say(t, "bob", "!join");
    assert_int_equal(count(t, ROOM, "bob sits down (2 of 2)"), 1);
    return t;
}

/* The seat to act now in the room's game, its game in *g (caller frees). */
static int acting(table *t, pz_game **g)
{
    int status;
    *g = game_now(t, &status);
    assert_non_null(*g);
    return to_act(*g);
}

/* ann plays whenever it is her turn; returns when bob (seat 1) is to act. */
static void until_bob(table *t)
{
    for (int i = 0; i < 50; i++) {
        pz_game *g;
        int seat = acting(t, &g);
        if (seat == 1) {
            pz_free(g);
            return;
        }
        person_move(t, g, seat, "ann");
        pz_free(g);
    }
    fail_msg("bob never came to act");
}

static void test_a_person_who_misses_three_turns_is_played_for_until_back(void **state)
{
    (void)state;
    table *t = two_people(600);
    for (int missed = 1; missed <= 3; missed++) {
        until_bob(t);
        tick(t, 599);
        assert_int_equal(count(t, ROOM, "time ran out"), missed - 1);
        tick(t, 1); /* the deadline: the computer moves for bob */
        assert_int_equal(count(t, ROOM, "time ran out"), missed);
    }
    assert_int_equal(count(t, ROOM, "bob has missed 3 turns in a row: a computer player plays"), 1);
    until_bob(t);
    pz_game *g;
    char before[PZ_SAVE_MAX], after[PZ_SAVE_MAX];
    acting(t, &g);
    assert_true(pz_save(g, before, sizeof before) > 0);
    pz_free(g);
    tick(t, 1); /* now at the computer players' pace, not the deadline's */
    acting(t, &g);
    assert_true(pz_save(g, after, sizeof after) > 0);
    pz_free(g);
    assert_string_not_equal(before, after);
    assert_int_equal(count(t, ROOM, "time ran out"), 3);
    say(t, "bob", "!back");
    assert_int_equal(count(t, ROOM, "bob is back and plays again"), 1);
    until_bob(t);
    tick(t, 30); /* bob is waited for again */
    assert_int_equal(acting(t, &g), 1);
    person_move(t, g, 1, "bob");
    pz_free(g);
    say(t, "bob", "!back");
    assert_int_equal(count(t, ROOM, "you are playing already"), 1);
    close_table(t);
}

static void test_a_move_of_an_away_person_brings_them_back(void **state)
{
    (void)state;
    table *t = two_people(60);
    for (int missed = 1; missed <= 3; missed++) {
        until_bob(t);
        tick(t, 60);
    }
    assert_int_equal(count(t, ROOM, "bob has missed 3 turns"), 1);
    until_bob(t);
    pz_game *g;
    assert_int_equal(acting(t, &g), 1);
    person_move(t, g, 1, "bob"); /* before the computer's pause is over */
    pz_free(g);
    assert_int_equal(count(t, ROOM, "bob is back and plays again"), 1);
    close_table(t);
}

static void test_leaving_or_being_removed_mid_game_gives_the_seat_to_a_computer(void **state)
{
    (void)state;
    table *t = open_table(1);
    say(t, "ann", "!new 3 to 11");
    say(t, "bob", "!join");
    say(t, "cat", "!join");
    say(t, "bob", "!kick cat");
    assert_int_equal(count(t, ROOM, "only the table's creator can do that"), 1);
    say(t, "ann", "!kick cat");
    assert_int_equal(
        count(t, ROOM,
              "cat is removed by ann; Robot 1 (greedy) takes the seat and the game goes on"),
        1);
    say(t, "ann", "!leave"); /* asks first */
    assert_int_equal(count(t, ROOM, "say !leave again within 2 min to confirm"), 1);
    assert_int_equal(count(t, ROOM, "ann leaves"), 0);
    say(t, "ann", "!leave");
    assert_int_equal(count(t, ROOM, "ann leaves; Robot 2 (greedy) takes the seat"), 1);
    say(t, "bob", "!stop"); /* bob now runs the table */
    assert_int_equal(count(t, ROOM, "abandoned (stopped by its creator)"), 1);
    close_table(t);

    t = open_table(1);
    say(t, "ann", "!new 2 bot");
    /* the computer player sits and the cards are dealt: nobody is asked
       to join or start */
    assert_int_equal(count(t, ROOM, "ann opens a Porrazo table (up to 2 players"), 1);
    assert_int_equal(count(t, ROOM, ") with a computer player in the other seat. Game #1."), 1);
    assert_int_equal(count(t, ROOM, "!join"), 0);
    assert_int_equal(count(t, ROOM, "!start"), 0);
    say(t, "ann", "!leave");
    say(t, "ann", "!leave"); /* confirmed: the last person, nobody would play */
    assert_int_equal(count(t, ROOM, "abandoned (nobody but computer players is left)"), 1);
    assert_int_equal(count(t, ROOM, "may take it back"), 0); /* no game to come back to */
    int status;
    assert_null(game_now(t, &status));
    close_table(t);
}

static void test_a_substitute_takes_a_seat_with_its_hand(void **state)
{
    (void)state;
    table *t = two_people(0);
    say(t, "cat", "!join");
    assert_int_equal(count(t, ROOM, "has started already"), 1);
    say(t, "bob", "!sub cat");
    assert_int_equal(count(t, ROOM, "bob's seat is offered to cat: cat, say !join to take it"), 1);
    say(t, "dan", "!join"); /* not offered to dan */
    assert_int_equal(count(t, ROOM, "has started already"), 2);
    say(t, "cat", "!join");
    assert_int_equal(count(t, ROOM, "cat takes bob's seat"), 1);
    assert_int_equal(count(t, "cat", ""), 1); /* its hand (rendered when sent) */
    until_bob(t);                             /* seat 1 is cat's now */
    pz_game *g;
    assert_int_equal(acting(t, &g), 1);
    person_move(t, g, 1, "cat");
    pz_free(g);
    say(t, "bob", "!hand");
    assert_int_equal(count(t, ROOM, "bob: you are not playing"), 1);
    /* the creator hands a computer player's seat to a person */
    say(t, "ann", "!kick cat");
    say(t, "ann", "!sub dan 1");
    assert_int_equal(count(t, ROOM, "Robot 1 (greedy)'s seat is offered to dan"), 1);
    say(t, "dan", "!join");
    assert_int_equal(count(t, ROOM, "dan takes Robot 1 (greedy)'s seat"), 1);
    /* the creator gives a person's seat to someone else (its player back under
       another id); a player may not give away another's */
    say(t, "dan", "!sub eve ann");
    assert_int_equal(count(t, ROOM, "only the table's creator can do that"), 1);
    say(t, "ann", "!sub eve dan");
    assert_int_equal(count(t, ROOM, "dan's seat is offered to eve"), 1);
    say(t, "eve", "!join");
    assert_int_equal(count(t, ROOM, "eve takes dan's seat"), 1);
    close_table(t);
}

/* The body of a live line (after its header), or the text itself. */
static const char *body_of(const char *text)
{
    if (text[0] != '\xFF')
        return text;
    const char *end = strchr(text + 1, '\xFF');
    return end != NULL ? end + 1 : text;
}

/* Whether a player's turn prompt tells what happened before they sat: it
   must not. bob's seat is taken by dan while ann is to act, after cat's
   play; dan's first prompt tells ann's play, never cat's. */
static void test_a_new_player_s_first_prompt_tells_only_what_happened_since_they_sat(void **state)
{
    (void)state;
    table *t = open_table(1);
    const char *nick[3] = {"ann", "bob", "cat"};
    say(t, "ann", "!new 3");
    say(t, "bob", "!join");
    say(t, "cat", "!join");
    int last = -1, cat_line = -1;
    for (int i = 0; i < 200; i++) {
        pz_game *g;
        int seat = acting(t, &g);
        if (seat == 0 && last == 2 && pz_get_phase(g) == PZ_PHASE_PLAY) {
            pz_free(g);
            break;
        }
        int before = t->nmsg;
        person_move(t, g, seat, nick[seat]);
        pz_free(g);
        if (seat == 2)
            for (int k = before; k < t->nmsg; k++)
                if (strcmp(t->msg[k].target, ROOM) == 0 && t->msg[k].text[0] == '\xFF')
                    cat_line = k;
        last = seat;
    }
    assert_true(last == 2 && cat_line >= 0);
    say(t, "bob", "!sub dan");
    say(t, "dan", "!join");
    assert_int_equal(count(t, ROOM, "dan takes bob's seat"), 1);
    pz_game *g;
    assert_int_equal(acting(t, &g), 0);
    int before = t->nmsg;
    person_move(t, g, 0, "ann");
    pz_free(g);
    assert_int_equal(acting(t, &g), 1);
    pz_free(g);
    int ann_line = -1, prompt = -1;
    for (int k = before; k < t->nmsg; k++) {
        if (strcmp(t->msg[k].target, ROOM) == 0 && t->msg[k].text[0] == '\xFF' && ann_line < 0)
            ann_line = k;
        if (strcmp(t->msg[k].target, "dan") == 0)
            prompt = k;
    }
    assert_true(ann_line >= 0 && prompt >= 0);
    const char *since = body_of(t->msg[prompt].text);
    assert_non_null(strstr(since, body_of(t->msg[ann_line].text)));
    assert_null(strstr(since, body_of(t->msg[cat_line].text)));
    close_table(t);
}

static void test_an_open_table_nobody_joins_closes_after_its_expiry(void **state)
{
    (void)state;
    table *t = open_table(1);
    say(t, "ann", "!new 4");
    tick(t, 3000);
    say(t, "bob", "!join"); /* the hour counts from the last join */
    tick(t, 3599);
    int status;
    pz_game *g = game_now(t, &status);
    assert_null(g); /* a lobby has no engine state yet */
    assert_int_equal(status, 0);
    assert_int_equal(count(t, ROOM, "abandoned"), 0);
    tick(t, 1);
    assert_int_equal(count(t, ROOM, "The game is abandoned (nobody joined for 1 h)"), 1);
    status = -1;
    assert_null(game_now(t, &status));
    assert_int_equal(status, -1); /* no active game: the room is free */
    say(t, "cat", "!new 2");
    assert_int_equal(count(t, ROOM, "cat opens a Porrazo table"), 1);
    close_table(t);
}

static void test_time_zones_are_checked_with_suggestions(void **state)
{
    (void)state;
    table *t = open_table(1);
    t->now = 1795732200; /* Thu 26 Nov 2026 22:30 UTC */
    say(t, "ann", "!tz Europe/Madird");
    assert_int_equal(
        count(t, "ann", "Europe/Madird is not a time zone: did you mean Europe/Madrid"), 1);
    say(t, "ann", "!tz Mars/Olympus_Mons");
    assert_int_equal(count(t, "ann", "is not a time zone"), 2);
    say(t, "ann", "!tz ../../etc/passwd");
    assert_int_equal(count(t, "ann", "is not a time zone"), 3);
    say(t, "ann", "!tz europe/madrid");
    assert_int_equal(count(t, "ann", "your time zone is Europe/Madrid: it is Thu 23:30 CET there"),
                     1);
    say(t, "ann", "!tz");
    assert_int_equal(count(t, ROOM, "ann: I answered you privately"), 5);
    assert_int_equal(count(t, ROOM, "Europe"), 0); /* nobody else reads a zone */
    assert_int_equal(count(t, "ann", "your time zone is Europe/Madrid (it is Thu 23:30 CET there)"),
                     1);
    close_table(t);
}

/* Makes it bob's turn from now on: if it is his already, he moves first. */
static void bob_turn_now(table *t)
{
    pz_game *g;
    if (acting(t, &g) == 1)
        person_move(t, g, 1, "bob");
    pz_free(g);
    until_bob(t);
    assert_int_equal(acting(t, &g), 1);
    pz_free(g);
}

/* ann and bob with a 1 h deadline: bob's turn from 22:30 UTC. */
static table *late_game(void)
{
    table *t = two_people(3600);
    t->now = 1795732200;
    bob_turn_now(t);
    return t;
}

static void test_quiet_hours_stop_the_deadline_clock(void **state)
{
    (void)state;
    table *t = two_people(3600);
    say(t, "bob", "!quiet 23:00-08:00");
    assert_int_equal(count(t, "bob", "quiet 23:00-08:00 UTC"), 1);
    assert_int_equal(count(t, ROOM, "23:00"), 0); /* his hours are his */
    assert_int_equal(count(t, ROOM, "bob: I answered you privately"), 1);
    t->now = 1795732200; /* 22:30 */
    bob_turn_now(t);     /* bob's clock runs 30 min, then stops */
    tick(t, 3600);       /* 23:30: without quiet hours, his time would be out */
    assert_int_equal(count(t, ROOM, "time ran out"), 0);
    tick(t, 9 * 3600 - 1); /* 08:29:59: 30 min before 23:00 and 30 after 08:00, less 1 s */
    assert_int_equal(count(t, ROOM, "time ran out"), 0);
    tick(t, 1); /* 08:30 */
    assert_int_equal(count(t, ROOM, "time ran out"), 1);
    say(t, "bob", "!quiet 9pm");
    assert_int_equal(count(t, "bob", "quiet hours are two times of day"), 1);
    say(t, "bob", "!quiet off");
    assert_int_equal(count(t, "bob", "no quiet hours"), 1);
    close_table(t);
}

static void test_an_away_player_is_waited_for_or_played_for(void **state)
{
    (void)state;
    table *t = late_game();
    say(t, "bob", "!away 2d");
    assert_int_equal(count(t, "bob", "away until Sat 28 Nov 22:30 UTC: your games wait"), 1);
    assert_int_equal(count(t, ROOM, "away until"), 0);
    say(t, "bob", "!games");
    assert_int_equal(count(t, "bob", "#1 #t: your turn, deadline Sat 28 Nov 22:30 UTC"), 1);
    tick(t, 86400);
    assert_int_equal(count(t, ROOM, "time ran out"), 0);
    tick(t, 86400); /* his vacation is over, and so is the turn */
    assert_int_equal(count(t, ROOM, "time ran out"), 1);
    close_table(t);

    t = late_game();
    say(t, "bob", "!away 3d bot");
    assert_int_equal(count(t, "bob", "a computer player plays for you meanwhile"), 1);
    pz_game *g;
    char before[PZ_SAVE_MAX], after[PZ_SAVE_MAX];
    acting(t, &g);
    assert_true(pz_save(g, before, sizeof before) > 0);
    pz_free(g);
    tick(t, 1); /* at the computer players' pace */
    acting(t, &g);
    assert_true(pz_save(g, after, sizeof after) > 0);
    pz_free(g);
    assert_string_not_equal(before, after);
    assert_int_equal(count(t, ROOM, "time ran out"), 0);
    say(t, "bob", "!away off");
    assert_int_equal(count(t, "bob", "welcome back"), 1);
    close_table(t);

    t = late_game(); /* the room bounds the wait */
    say_mod(t, "mod", "!set away 1d");
    say(t, "bob", "!away 3d");
    tick(t, 86400 - 1);
    assert_int_equal(count(t, ROOM, "time ran out"), 0);
    tick(t, 1);
    assert_int_equal(count(t, ROOM, "time ran out"), 1);
    close_table(t);
}

/* A line said on another network (a private one when room is NULL). */
static void say_on(table *t, const char *net, const char *room, const char *who, const char *text)
{
    host_msg m = {net, room, who, who, text, strlen(text), NULL, false, false, NULL, false};
    assert_int_equal(host_handle(t->h, &m, t->now), 0);
    read_outbox(t);
}

/* Messages queued on network net to target holding s, since the start. */
static int count_on(table *t, const char *net, const char *target, const char *s)
{
    store_msg batch[64];
    int n, found = 0;
    int64_t after = 0;
    do {
        assert_int_equal(store_outbox_since(t->st, net, after, batch, 64, &n), 0);
        for (int i = 0; i < n; i++) {
            found += strcmp(batch[i].target, target) == 0 && strstr(batch[i].text, s) != NULL;
            after = batch[i].id;
        }
    } while (n == 64);
    return found;
}

/* The code in the last "say link CODE" sent to bob on NET. */
static void last_code(const table *t, char code[16])
{
    code[0] = '\0';
    for (int i = 0; i < t->nmsg; i++) {
        const char *p = strstr(t->msg[i].text, "say link ");
        if (strcmp(t->msg[i].target, "bob") == 0 && p != NULL)
            assert_int_equal(sscanf(p, "say link %15s", code), 1);
    }
    assert_int_equal(strlen(code), 8);
}

static void test_games_lists_the_games_of_ids_tied_on_other_networks(void **state)
{
    (void)state;
    table *t = late_game();
    char code[16], line[64];
    say_on(t, "mx", NULL, "@bob:test", "games");
    assert_int_equal(count_on(t, "mx", "@bob:test", "you sit in no game on mx"), 1);

    say(t, "bob", "!link"); /* in the room: the code goes privately, never to the room */
    assert_int_equal(count(t, ROOM, "bob: I answered you privately"), 1);
    last_code(t, code);
    assert_int_equal(count(t, ROOM, code), 0);

    say_on(t, "mx", NULL, "@eve:test", "link abcdefgh");
    assert_int_equal(count_on(t, "mx", "@eve:test", "abcdefgh is not a code I gave"), 1);
    /* said on its own network: not a link */
    snprintf(line, sizeof line, "link %s", code);
    say_on(t, NET, NULL, "bob", line);
    assert_int_equal(count(t, "bob", "that code is for your other network"), 1);
    for (char *p = line + 5; *p != '\0'; p++) /* as typed in capitals */
        *p = (char)toupper((unsigned char)*p);
    say_on(t, "mx", NULL, "@bob:test", line);
    assert_int_equal(count_on(t, "mx", "@bob:test", "tied to bob on " NET), 1);
    say_on(t, "mx", NULL, "@bob:test", "games");
    assert_int_equal(count_on(t, "mx", "@bob:test", "#1 " NET " #t: your turn, deadline"), 1);
    say(t, "bob", "!games"); /* from either side */
    assert_int_equal(count(t, "bob", "#1 " NET " #t: your turn, deadline"), 1);

    say_on(t, "mx", NULL, "@eve:test", line); /* a code is used once */
    assert_int_equal(count_on(t, "mx", "@eve:test", "is not a code I gave"), 2);

    say(t, "bob", "!link"); /* a code not used in time is void */
    last_code(t, code);
    tick(t, 601);
    snprintf(line, sizeof line, "link %s", code);
    say_on(t, "mx", NULL, "@bob2:test", line);
    assert_int_equal(count_on(t, "mx", "@bob2:test", "more than 10 minutes old"), 1);

    say_on(t, "mx", NULL, "@bob:test", "link off");
    assert_int_equal(count_on(t, "mx", "@bob:test", "tied to no other now"), 1);
    say_on(t, "mx", NULL, "@bob:test", "games");
    assert_int_equal(count_on(t, "mx", "@bob:test", "you sit in no game on mx"), 2);
    say(t, "bob", "!games");
    assert_int_equal(count(t, "bob", "#1 #t: your turn"), 1); /* his own network's: unnamed */
    close_table(t);
}

static void test_a_rooms_moderators_set_its_deadline_and_computer_level(void **state)
{
    (void)state;
    table *t = open_table_with(1, 3600);
    say(t, "ann", "!settings");
    assert_int_equal(
        count(t, ROOM,
              "#t · new tables: default options · turn deadline 1 h (the bot's) · away players "
              "are waited for 7 d (the bot's) · computer players greedy (the bot's)"),
        1);
    say(t, "ann", "!set level beginner");
    assert_int_equal(count(t, ROOM, "only the room's moderators"), 1);
    say_mod(t, "mod", "!set level expert"); /* each said back alone, in one line */
    assert_int_equal(
        count(t, ROOM, "mod: #t: computer players are expert · !settings lists them all"), 1);
    say_mod(t, "mod", "!set deadline 10m");
    assert_int_equal(count(t, ROOM, "mod: #t: new tables have a turn deadline of 10 min ·"), 1);
    say_mod(t, "mod", "!set away 2d");
    assert_int_equal(count(t, ROOM, "mod: #t: a turn waits for an away player up to 2 d ·"), 1);
    say(t, "ann", "!settings");
    assert_int_equal(count(t, ROOM,
                           "#t · new tables: default options · turn deadline 10 min · away "
                           "players are waited for 2 d · computer players expert ·"),
                     1);
    say_mod(t, "mod", "!set colour red");
    assert_int_equal(count(t, ROOM,
                           "say one of: set options WORDS|off, set deadline DURATION|off, set "
                           "away DURATION|off, set level"),
                     1);
    say_mod(t, "mod", "!set options partners to 200");
    assert_int_equal(count(t, ROOM, "the target must be"), 1);
    say_mod(t, "mod", "!set options 3 partners");
    assert_int_equal(count(t, ROOM, "set options takes the game's options only"), 1);
    say_mod(t, "mod", "!set options to 31 manual");
    assert_int_equal(count(t, ROOM, "mod: #t: new tables: first to 31 · declarations: manual ·"),
                     1);
    say_mod(t, "mod", "!set deadline off");
    assert_int_equal(count(t, ROOM, "mod: #t: new tables have no turn deadline ·"), 1);
    say_mod(t, "mod", "!set deadline 10m");
    say(t, "ann", "!new 2 bot"); /* the room's level, options and deadline */
    assert_int_equal(count(t, ROOM, "Robot 1 (expert) sits down"), 1);
    say(t, "ann", "!options");
    assert_int_equal(count(t, ROOM, "ann: up to 2 players · first to 31 · declarations: manual"),
                     1);
    assert_int_equal(count(t, ROOM, "declarations: manual · turn deadline 10 min"), 1);
    close_table(t);
}

/* As say() in another room, by a moderator or not. */
static void say_in(table *t, const char *room, const char *nick, const char *text, bool mod)
{
    host_msg m = {NET, room, nick, nick, text, strlen(text), NULL, false, mod, NULL, false};
    assert_int_equal(host_handle(t->h, &m, t->now), 0);
    read_outbox(t);
}

/* A restart: a new host on the same store (what it keeps in memory is
   read again from there). */
static void restart_host(table *t)
{
    char why[256];
    host_config c = {.prefix = "!", .bot_name = "porrazo", .max_games = 10, .fixed_seed = true};
    host_free(t->h);
    assert_int_equal(host_new(&t->h, t->st, &c, why, sizeof why), 0);
}

/* set lang: moderators only; the room's lines are Spanish from then on
   (the reply to the change already), whatever language a command is typed
   in, and after a restart; off gives the bot's back. */
static void test_a_rooms_moderators_set_its_language(void **state)
{
    (void)state;
    table *t = open_table(0);
    say(t, "ann", "!set lang es");
    assert_int_equal(count(t, ROOM, "only the room's moderators"), 1);
    say_mod(t, "mod", "!set lang es");
    assert_int_equal(count(t, ROOM, "mod: #t: las líneas de la sala van en español"), 1);
    /* a player's own language, privately or in the room (answered privately) */
    say_in(t, NULL, "bob", "lang en", false);
    assert_int_equal(count(t, "bob", "your private lines are in English from now on"), 1);
    say_in(t, NULL, "bob", "lang", false);
    assert_int_equal(count(t, "bob", "your private lines are in English, as you chose"), 1);
    say(t, "cat", "!idioma klingon");
    assert_int_equal(count(t, "cat", "klingon no es un idioma de aquí"), 1); /* the room's */
    restart_host(t);
    say_in(t, NULL, "bob", "lang", false); /* kept */
    assert_int_equal(count(t, "bob", "your private lines are in English, as you chose"), 2);
    say(t, "bob", "!reglas fin"); /* asked in the room, sent privately: bob's language */
    assert_int_equal(count(t, "bob", "The first side to reach 61 points wins"), 1);
    say(t, "ann", "!rules end"); /* ann chose none: the room's */
    assert_int_equal(count(t, "ann", "El primer bando que llega a 61 puntos gana"), 1);
    say(t, "ann", "!new 2");
    say(t, "bob", "!unirse"); /* typed in Spanish or English: the room's language */
    say(t, "ann", "!start");
    assert_int_equal(count(t, ROOM, "Mano nueva: reparto 1 de "), 1);
    assert_int_equal(count(t, ROOM, "New hand"), 0);
    say(t, "ann", "!reglas fin");
    assert_int_equal(count(t, "ann", "El primer bando que llega a 61 puntos gana"), 2);
    say(t, "ann", "!rules end");
    assert_int_equal(count(t, "ann", "El primer bando que llega a 61 puntos gana"), 3);
    say(t, "ann", "!settings");
    assert_int_equal(
        count(t, ROOM, "· con pistas · con páginas · idioma español · los moderadores"), 1);
    say_mod(t, "mod", "!set idioma off");
    assert_int_equal(count(t, ROOM, "the room's lines follow the bot's language again"), 1);
    say(t, "ann", "!rules end");
    assert_int_equal(count(t, "ann", "The first side to reach 61 points wins"), 1);
    say_mod(t, "mod", "!set lang klingon");
    assert_int_equal(
        count(t, ROOM, "not a language here: say !set lang es (Spanish), !set lang en (English)"),
        1);
    close_table(t);
}

/* The rule of every private line: a player seated in a Spanish room, with
   no language of their own, gets every private reply in Spanish — help,
   rules, stats, settings, an error, lang itself — and still after a
   restart (the seats of the active games); so does one who only gave a
   command there; their own English wins; a player who never came to the
   room keeps the bot's English. */
static void test_a_player_seated_in_a_spanish_room_reads_spanish_privately(void **state)
{
    (void)state;
    table *t = open_table(0);
    say_mod(t, "mod", "!set lang es");
    say(t, "ann", "!new 2"); /* ann is seated in #t */
    say_in(t, NULL, "ann", "ayuda", false);
    assert_int_equal(count(t, "ann", "Mesa: "), 1);
    assert_int_equal(count(t, "ann", "Lobby: "), 0);
    say_in(t, NULL, "ann", "rules end", false);
    assert_int_equal(count(t, "ann", "El primer bando que llega a 61 puntos gana"), 1);
    say_in(t, NULL, "ann", "stats", false);
    assert_int_equal(count(t, "ann", "ann todavía no tiene partidas terminadas"), 1);
    say_in(t, NULL, "ann", "settings", false);
    assert_int_equal(count(t, "ann", "dilo en la sala, o nómbrala: ajustes #amigos"), 1);
    say_in(t, NULL, "ann", "bogus", false);
    assert_int_equal(count(t, "ann", "no conozco el comando 'bogus'"), 1);
    say_in(t, NULL, "ann", "idioma", false); /* the truth, and why */
    assert_int_equal(count(t, "ann", "tus líneas privadas van en español, como las de #t"), 1);
    say(t, "cat", "!table"); /* cat only spoke in #t */
    say_in(t, NULL, "cat", "rules end", false);
    assert_int_equal(count(t, "cat", "El primer bando que llega a 61 puntos gana"), 1);
    say_in(t, NULL, "zed", "rules end", false); /* never in #t: the bot's */
    assert_int_equal(count(t, "zed", "The first side to reach 61 points wins"), 1);
    assert_int_equal(count(t, "zed", "El primer bando"), 0);
    restart_host(t); /* the seats tell again where ann sits */
    say_in(t, NULL, "ann", "rules end", false);
    assert_int_equal(count(t, "ann", "El primer bando que llega a 61 puntos gana"), 2);
    say_in(t, NULL, "ann", "lang en", false); /* her own wins */
    say_in(t, NULL, "ann", "rules end", false);
    assert_int_equal(count(t, "ann", "The first side to reach 61 points wins"), 1);
    say_in(t, NULL, "ann", "lang", false);
    assert_int_equal(count(t, "ann", "your private lines are in English, as you chose"), 1);
    say_in(t, NULL, "ann", "lang off", false); /* the room's again, told in it */
    assert_int_equal(count(t, "ann", "tus líneas privadas vuelven a seguir el idioma de la sala"),
                     1);
    close_table(t);
}

/* lang_of as a configuration gives it: #es speaks Spanish when
   config_spanish is set, every other room the bot's English. */
static bool config_spanish;
static int lang_of_config(void *arg, const char *network, const char *room)
{
    (void)arg;
    (void)network;
    return config_spanish && room != NULL && strcmp(room, "#es") == 0 ? (int)PZ_LANG_ES : -1;
}

/* The players' map keeps a room only when its language is not the
   network's (lang_map.c), so a room that comes to speak another language
   must take its seated players along: by "set lang" at once, by a
   reloaded configuration (host_reconfigure), and after a restart; a word
   said in a room that speaks as the network gives the network's back;
   "lang off" and "set lang off" the same. */
static void test_a_room_that_changes_its_language_takes_its_seated_players(void **state)
{
    (void)state;
    table *t = open_table(0);
    say(t, "ann", "!new 2"); /* seated in #t, English */
    say(t, "bob", "!join");
    say_in(t, NULL, "ann", "rules end", false);
    assert_int_equal(count(t, "ann", "The first side to reach 61 points wins"), 1);
    say_mod(t, "mod", "!set lang es"); /* ann said nothing since, and follows */
    say_in(t, NULL, "ann", "rules end", false);
    assert_int_equal(count(t, "ann", "El primer bando que llega a 61 puntos gana"), 1);
    say_in(t, NULL, "bob", "rules end", false);
    assert_int_equal(count(t, "bob", "El primer bando que llega a 61 puntos gana"), 1);
    say_in(t, "#u", "ann", "!table", false); /* last spoke in an English room */
    say_in(t, NULL, "ann", "rules end", false);
    assert_int_equal(count(t, "ann", "The first side to reach 61 points wins"), 2);
    say_in(t, NULL, "ann", "lang", false);
    assert_int_equal(count(t, "ann", "your private lines are in English, the bot's"), 1);
    say(t, "ann", "!table"); /* back in #t */
    say_in(t, NULL, "ann", "rules end", false);
    assert_int_equal(count(t, "ann", "El primer bando que llega a 61 puntos gana"), 2);
    restart_host(t); /* the rooms' index and #t's seats: bob sits in a Spanish room */
    say_in(t, NULL, "bob", "rules end", false);
    assert_int_equal(count(t, "bob", "El primer bando que llega a 61 puntos gana"), 2);
    say_mod(t, "mod", "!set idioma off");
    say_in(t, NULL, "bob", "rules end", false);
    assert_int_equal(count(t, "bob", "The first side to reach 61 points wins"), 1);

    /* a reload that makes #es Spanish: cat, seated there, follows it; a
       reload that makes it English again gives the bot's back */
    say_in(t, "#es", "cat", "!new 2", false);
    say_in(t, "#es", "dan", "!join", false);
    config_spanish = true;
    host_config c = {.prefix = "!",
                     .bot_name = "porrazo",
                     .max_games = 10,
                     .fixed_seed = true,
                     .lang_of = lang_of_config};
    assert_int_equal(host_reconfigure(t->h, &c), 0);
    say_in(t, NULL, "cat", "rules end", false);
    assert_int_equal(count(t, "cat", "El primer bando que llega a 61 puntos gana"), 1);
    say_in(t, NULL, "ann", "rules end", false); /* #t speaks as the network */
    assert_int_equal(count(t, "ann", "The first side to reach 61 points wins"), 3);
    config_spanish = false;
    assert_int_equal(host_reconfigure(t->h, &c), 0);
    say_in(t, NULL, "cat", "rules end", false);
    assert_int_equal(count(t, "cat", "The first side to reach 61 points wins"), 1);
    close_table(t);
}

/* The settings line at its longest (a 50-character channel, every option
   away from its default, long durations, a 3-character prefix, everything
   off): one IRC line in English and in Spanish. */
static void test_the_longest_settings_line_is_one_irc_line(void **state)
{
    (void)state;
    static const char room[] = "#porrazo-de-la-familia-gonzalez-los-domingos-tarde";
    static const char *const set[] = {
        "!set options partners to 121 silent excess26 nowrap final_sweep=dealer",
        "!set deadline 23h 59m",
        "!set away 6d 23h",
        "!set level beginner",
        "!set colours off",
        "!set hints off",
        "!set web off",
        "!set prefix >>>"};
    table *t = open_table(0);
    assert_int_equal(strlen(room), 50);
    for (int lang = 0; lang < 2; lang++) {
        for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
            say_in(t, room, "moderator-nick",
                   lang == 0 || i + 1 < sizeof set / sizeof set[0] ? set[i]
                                                                   : ">>>ajustar prefijo >>>",
                   true);
        say_in(t, room, "moderator-nick", ">>>set lang es", true);
        if (lang == 0)
            say_in(t, room, "moderator-nick", ">>>set lang en", true);
        int before = t->nmsg;
        say_in(t, room, "moderator-nick", lang == 0 ? ">>>settings" : ">>>ajustes", false);
        assert_int_equal(t->nmsg, before + 1);
        const char *line = t->msg[before].text;
        print_message("%zu bytes: %s\n", strlen(line), line);
        assert_non_null(strstr(line, lang == 0 ? "pages off · language English ·"
                                               : "sin páginas · idioma español ·"));
        assert_non_null(strstr(line, lang == 0 ? "· moderators: >>>help set"
                                               : "· moderadores: >>>ayuda ajustar"));
        assert_true(strlen(line) <= 400);
    }
    close_table(t);
}

static void test_a_rooms_moderators_set_its_own_command_prefix(void **state)
{
    (void)state;
    table *t = open_table(0);
    say(t, "ann", "!settings");
    assert_int_equal(count(t, ROOM, "prefix ! (the bot's) · colours on"), 1);
    say(t, "ann", "!set prefix .");
    assert_int_equal(count(t, ROOM, "only the room's moderators"), 1);
    say_mod(t, "mod", "!set prefix .");
    assert_int_equal(
        count(t, ROOM, "mod: #t: commands start with . here · .settings lists them all"), 1);
    say(t, "ann", ".settings");
    assert_int_equal(count(t, ROOM,
                           "prefix . (the room's) · colours on · hints on · pages on · language "
                           "English (the bot's) · moderators change them: .set options partners "
                           "to 31, .set deadline 24h, .set lang es (.help set)"),
                     1);
    int before = t->nmsg;
    say(t, "ann", "!turn"); /* the bot's prefix is chat here now */
    assert_int_equal(t->nmsg, before);
    say(t, "ann", ".turn");
    assert_int_equal(count(t, ROOM, "ann: there is no game in #t: say .new there"), 1);
    say_in(t, "#u", "ann", ".turn", false); /* another room keeps the bot's */
    assert_int_equal(t->nmsg, before + 1);
    say_in(t, "#u", "ann", "!turn", false);
    assert_int_equal(count(t, "#u", "ann: there is no game in #u: say !new there"), 1);
    say(t, "ann", ".help"); /* privately, as asked in #t */
    assert_true(count(t, "ann", ".join") > 0);
    assert_int_equal(count(t, "ann", "!join"), 0);

    /* refused, and the room keeps its prefix */
    static const char *const bad[] = {".set prefix a", ".set prefix 1", ".set prefix ....",
                                      ".set prefix . .", ".set prefix .a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        say_mod(t, "mod", bad[i]);
    assert_int_equal(count(t, ROOM,
                           "mod: a prefix is punctuation only: no letters, digits or "
                           "spaces, such as . or ! or >> (say .set prefix off for the "
                           "bot's !)"),
                     4);
    assert_int_equal(count(t, ROOM, "mod: a prefix is 1 to 3 characters"), 1);
    say(t, "ann", ".turn");
    assert_int_equal(count(t, ROOM, "ann: there is no game in #t: say .new there"), 2);

    /* it lasts past a restart; its games suggest it */
    restart_host(t);
    say(t, "ann", ".new 2");
    assert_int_equal(count(t, ROOM, "Say .join to sit; ann says .start to deal"), 1);
    say(t, "bob", ".join");
    assert_int_equal(count(t, ROOM, "bob sits down (2 of 2)"), 1);
    say(t, "bob", "play 4");
    assert_int_equal(count(t, ROOM, "bob: commands start with . here — say .play 4"), 1);

    /* punctuation at a word's end is the prefix too; off: the bot's again */
    say_mod(t, "mod", ".set prefix !!");
    assert_int_equal(count(t, ROOM, "commands start with !! here · !!settings"), 1);
    say_mod(t, "mod", "!!set prefix off");
    assert_int_equal(count(t, ROOM, "commands start with ! here (the bot's) · !settings"), 1);
    restart_host(t);
    say(t, "ann", "!settings");
    assert_int_equal(count(t, ROOM, "prefix ! (the bot's)"), 2);
    assert_string_equal(host_room_prefix(t->h, NET, ROOM), "!");
    close_table(t);
}

static void test_a_rooms_moderators_turn_its_colours_off(void **state)
{
    (void)state;
    table *t = open_table(0);
    assert_true(host_room_colours(t->h, NET, ROOM));
    say(t, "ann", "!set colours off");
    assert_int_equal(count(t, ROOM, "only the room's moderators"), 1);
    assert_true(host_room_colours(t->h, NET, ROOM));
    say_mod(t, "mod", "!set colours red");
    assert_int_equal(count(t, ROOM, "mod: say !set colours on, or !set colours off"), 1);
    say_mod(t, "mod", "!set colours off");
    assert_int_equal(count(t, ROOM, "mod: #t: colours off · !settings lists them all"), 1);
    assert_false(host_room_colours(t->h, NET, ROOM));
    assert_true(host_room_colours(t->h, NET, "#u"));
    assert_true(host_room_colours(t->h, "other", ROOM));
    assert_string_equal(host_room_prefix(t->h, NET, ROOM), "!"); /* the prefix is apart */
    restart_host(t);
    assert_false(host_room_colours(t->h, NET, ROOM));
    say_mod(t, "mod", "!set colors on");
    assert_true(host_room_colours(t->h, NET, ROOM));
    restart_host(t);
    assert_true(host_room_colours(t->h, NET, ROOM));
    close_table(t);
}

static void test_a_player_who_turns_reminders_off_gets_none(void **state)
{
    (void)state;
    reminder_secs = 600;
    table *t = two_people(0);
    reminder_secs = 0;
    bob_turn_now(t);
    tick(t, 600);
    assert_int_equal(count(t, "bob",
                           "\xFF"
                           "G1:R"),
                     1); /* a reminder (rendered when sent) */
    say(t, "bob", "!reminders off");
    assert_int_equal(count(t, "bob", "reminders off: no private line"), 1);
    assert_int_equal(count(t, ROOM, "reminders"), 0);
    tick(t, 3 * 600);
    assert_int_equal(count(t, "bob",
                           "\xFF"
                           "G1:R"),
                     1);
    say(t, "bob", "!reminders on");
    tick(t, 1); /* owed since long: the next one comes at once */
    assert_int_equal(count(t, "bob",
                           "\xFF"
                           "G1:R"),
                     2);
    close_table(t);
}

static void test_a_full_table_is_dealt_after_its_countdown(void **state)
{
    (void)state;
    countdown_secs = 30;
    table *t = open_table(1);
    countdown_secs = 0;
    say(t, "ann", "!new 3");
    say(t, "bob", "!join");
    say(t, "cat", "!join");
    assert_int_equal(count(t, ROOM, "The table is full: the cards are dealt in 30 s"), 1);
    say(t, "cat", "!leave"); /* not full: no countdown */
    tick(t, 30);
    int status;
    assert_null(game_now(t, &status));
    assert_int_equal(status, 0);
    say(t, "dan", "!join");
    assert_int_equal(count(t, ROOM, "The table is full"), 2);
    tick(t, 29);
    assert_null(game_now(t, &status));
    tick(t, 1);
    pz_game *g = game_now(t, &status);
    assert_non_null(g); /* dealt */
    pz_free(g);
    assert_int_equal(count(t, ROOM, "Seats: 1. ann 2. bob 3. dan"), 1);
    close_table(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_person_plays_a_whole_game_against_a_computer_player),
        cmocka_unit_test(test_computer_players_are_added_and_removed_in_a_lobby),
        cmocka_unit_test(test_a_table_of_computer_players_and_one_person_plays_on),
        cmocka_unit_test(test_the_worker_thread_decides_and_the_clock_applies),
        cmocka_unit_test(test_a_decision_for_a_game_that_moved_on_is_not_applied),
        cmocka_unit_test(test_a_person_who_misses_three_turns_is_played_for_until_back),
        cmocka_unit_test(test_a_move_of_an_away_person_brings_them_back),
        cmocka_unit_test(test_leaving_or_being_removed_mid_game_gives_the_seat_to_a_computer),
        cmocka_unit_test(test_a_substitute_takes_a_seat_with_its_hand),
        cmocka_unit_test(test_a_new_player_s_first_prompt_tells_only_what_happened_since_they_sat),
        cmocka_unit_test(test_an_open_table_nobody_joins_closes_after_its_expiry),
        cmocka_unit_test(test_time_zones_are_checked_with_suggestions),
        cmocka_unit_test(test_quiet_hours_stop_the_deadline_clock),
        cmocka_unit_test(test_an_away_player_is_waited_for_or_played_for),
        cmocka_unit_test(test_games_lists_the_games_of_ids_tied_on_other_networks),
        cmocka_unit_test(test_a_rooms_moderators_set_its_deadline_and_computer_level),
        cmocka_unit_test(test_a_rooms_moderators_set_its_own_command_prefix),
        cmocka_unit_test(test_the_longest_settings_line_is_one_irc_line),
        cmocka_unit_test(test_a_rooms_moderators_set_its_language),
        cmocka_unit_test(test_a_player_seated_in_a_spanish_room_reads_spanish_privately),
        cmocka_unit_test(test_a_room_that_changes_its_language_takes_its_seated_players),
        cmocka_unit_test(test_a_rooms_moderators_turn_its_colours_off),
        cmocka_unit_test(test_a_player_who_turns_reminders_off_gets_none),
        cmocka_unit_test(test_a_full_table_is_dealt_after_its_countdown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
