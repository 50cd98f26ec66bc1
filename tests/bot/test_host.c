/*
 * test_host.c — the game host through host.h on a real SQLite file: lobby
 * and game flows, private hands, specific replies to bad commands, the
 * clock (reminders, deadlines) driven by a fake time, votes, restarts, and
 * a whole game whose exported scenario replays to the same scores with
 * porrazo-replay's own code; the clock as an index (rebuilt when its
 * settings change, never stuck on a row), flood control, the bound on a
 * target's backlog, purge, and the answers to a locked or full database.
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

#include <sqlite3.h>

#include "host.h"
#include "outq.h"
#include "porrazo.h"
#include "render.h"
#include "scenario.h"
#include "store.h"

#define NET "t"
#define MAX_MSGS 4096

typedef struct world {
    char dir[64], path[96];
    store *st;
    host *h;
    int64_t now;
    int n; /* messages drained since the last clear */
    store_msg msg[MAX_MSGS];
} world;

static world *new_world(int reminder, int deadline)
{
    world *w = calloc(1, sizeof *w);
    char why[256];
    snprintf(w->dir, sizeof w->dir, "/tmp/pz-host-XXXXXX");
    assert_non_null(mkdtemp(w->dir));
    snprintf(w->path, sizeof w->path, "%s/t.db", w->dir);
    assert_int_equal(store_open(&w->st, w->path, why, sizeof why), 0);
    host_config c = {.prefix = "!",
                     .bot_name = "porrazo",
                     .reminder_secs = reminder,
                     .deadline_secs = deadline,
                     .max_games = 10,
                     .fixed_seed = true,
                     .seed = 4242};
    assert_int_equal(host_new(&w->h, w->st, &c, why, sizeof why), 0);
    w->now = 1000000;
    return w;
}

static void free_world(world *w)
{
    char cmd[200];
    host_free(w->h); /* NULL is fine */
    store_close(w->st);
    snprintf(cmd, sizeof cmd, "rm -rf %s", w->dir);
    assert_int_equal(system(cmd), 0);
    free(w);
}

/* Moves every unsent message into w->msg. */
static void drain(world *w)
{
    store_msg batch[32];
    int n;
    do {
        assert_int_equal(store_outbox_peek(w->st, NET, batch, 32, &n), 0);
        for (int i = 0; i < n; i++) {
            if (w->n < MAX_MSGS)
                w->msg[w->n++] = batch[i];
            assert_int_equal(store_outbox_done(w->st, batch[i].id), 0);
        }
    } while (n > 0);
}

/* nick says text in room (NULL: privately), then the outbox is drained. */
static void say(world *w, const char *nick, const char *room, const char *text)
{
    host_msg m = {NET, room, nick, nick, text, strlen(text), NULL, false};
    assert_int_equal(host_handle(w->h, &m, w->now), 0);
    drain(w);
}

/* As say(), for a line with an id: delivered again, it must act once. */
static void say_once(world *w, const char *nick, const char *room, const char *text, const char *id)
{
    host_msg m = {NET, room, nick, nick, text, strlen(text), id, false};
    assert_int_equal(host_handle(w->h, &m, w->now), 0);
    drain(w);
}

static void clear(world *w)
{
    w->n = 0;
}

/* The number of drained messages to target (room or player) containing s. */
static int count(const world *w, store_msg_kind kind, const char *target, const char *s)
{
    int n = 0;
    for (int i = 0; i < w->n; i++)
        if (w->msg[i].kind == kind && (target == NULL || strcmp(w->msg[i].target, target) == 0) &&
            (s == NULL || strstr(w->msg[i].text, s) != NULL))
            n++;
    return n;
}

/* The room's game as the engine sees it (caller frees), or NULL. */
static pz_game *game_of(world *w, const char *room)
{
    store_game g;
    pz_game *game = NULL;
    if (store_game_active(w->st, NET, room, &g) != 0)
        return NULL;
    if (g.state != NULL)
        assert_int_equal(pz_restore(&game, g.state, strlen(g.state), NULL, 0), 0);
    store_game_fini(&g);
    return game;
}

static const char *const NICKS[] = {"ann", "bob", "cat", "dan", "eve"};

/* Opens a table in room for n players and fills it (it starts when full). */
static void start_game(world *w, const char *room, int n, const char *options)
{
    char line[200];
    snprintf(line, sizeof line, "!new %d %s", n, options);
    say(w, NICKS[0], room, line);
    for (int i = 1; i < n; i++)
        say(w, NICKS[i], room, "!join");
}

/* The text a player would type for a (no room suffix). */
static void command_for(const pz_action *a, char *buf, size_t cap)
{
    char c[3];
    pz_card_format(a->card, c);
    switch (a->kind) {
    case PZ_ACT_TENDIDO:
        snprintf(buf, cap, "tendido %s", a->now ? "now" : "later");
        break;
    case PZ_ACT_ARRANGE:
        snprintf(buf, cap, "arrange best");
        break;
    default:
        snprintf(buf, cap, "play %s%s", c,
                 a->mode == PZ_MODE_CAPTURE ? " capture"
                 : a->mode == PZ_MODE_PLACE ? " place"
                                            : "");
        break;
    }
}

/* Lets the player to act make the engine's default move, privately. */
static bool play_one(world *w, const char *room)
{
    pz_game *g = game_of(w, room);
    if (g == NULL)
        return false;
    int actor = pz_get_turn(g);
    pz_action a;
    assert_true(actor >= 0);
    assert_int_equal(pz_default_action(g, actor, &a), 0);
    char text[64];
    command_for(&a, text, sizeof text);
    pz_free(g);
    say(w, NICKS[actor], NULL, text);
    return true;
}

static void test_a_full_table_starts_and_hands_are_sent_only_privately(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 3, "");
    pz_game *g = game_of(w, "#t");
    assert_non_null(g);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "opens a Porrazo table"), 1);
    for (int s = 0; s < 3; s++) {
        pz_card hand[PZ_CARDS];
        int n = pz_get_hand(g, s, hand);
        assert_true(count(w, STORE_MSG_PRIVATE, NICKS[s], NULL) >= 1);
        for (int i = 0; i < n; i++) {
            char card[8];
            render_card(hand[i], card);
            assert_int_equal(count(w, STORE_MSG_ROOM, NULL, card), 0);
            if (s != pz_get_dealer(g)) /* R4.2: the dealer's hand waits */
                assert_true(count(w, STORE_MSG_PRIVATE, NICKS[s], card) >= 1);
        }
    }
    pz_free(g);
    free_world(w);
}

static void test_hand_asked_in_the_channel_is_answered_privately(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    clear(w);
    say(w, "bob", "#t", "!hand");
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, NULL), 0);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "bob", NULL), 1);
    free_world(w);
}

static void test_bad_commands_get_one_specific_reply(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    pz_game *g = game_of(w, "#t");
    int idle = (pz_get_turn(g) + 1) % 2;
    pz_free(g);
    clear(w);
    say(w, NICKS[idle], "#t", "!plya 7");
    assert_int_equal(w->n, 1);
    assert_non_null(strstr(w->msg[0].text, "play"));
    clear(w);
    say(w, NICKS[idle], "#t", "!play 7h");
    assert_int_equal(w->n, 1);
    clear(w);
    say(w, "zed", "#t", "!ronda");
    assert_int_equal(w->n, 1);
    assert_non_null(strstr(w->msg[0].text, "not playing"));
    clear(w);
    say(w, "zed", "#t", "just chatting about cards");
    assert_int_equal(w->n, 0);
    free_world(w);
}

static void test_private_commands_ask_which_game_when_in_two(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#a", 2, "");
    start_game(w, "#b", 2, "");
    clear(w);
    say(w, "ann", NULL, "hand");
    assert_int_equal(w->n, 1);
    assert_non_null(strstr(w->msg[0].text, "#a"));
    clear(w);
    say(w, "ann", NULL, "hand #b");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "#b"), 1);
    free_world(w);
}

static void test_the_clock_reminds_then_plays_for_the_absent_player(void **state)
{
    (void)state;
    world *w = new_world(60, 0);
    start_game(w, "#t", 2, "");
    say(w, "ann", "#t", "!deadline 5m");
    pz_game *g = game_of(w, "#t");
    const char *actor = NICKS[pz_get_turn(g)];
    pz_free(g);
    int64_t t0 = w->now;
    clear(w);
    assert_int_equal(host_tick(w->h, t0 + 30), 0);
    drain(w);
    assert_int_equal(w->n, 0);
    assert_true(host_next_tick(w->h, t0 + 30) <= t0 + 60);
    assert_int_equal(host_tick(w->h, t0 + 61), 0);
    drain(w);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, actor, "Reminder"), 1);
    clear(w);
    assert_int_equal(host_tick(w->h, t0 + 301), 0);
    drain(w);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "time ran out"), 1);
    free_world(w);
}

static void test_pause_and_resume_need_a_majority_and_block_plays(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 3, "");
    clear(w);
    say(w, "bob", "#t", "!pause");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "votes"), 1);
    say(w, "cat", "#t", "!pause");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "paused"), 1);
    clear(w);
    play_one(w, "#t");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NULL, "paused"), 1);
    say(w, "ann", "#t", "!resume");
    say(w, "bob", "#t", "!resume");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "goes on"), 1);
    free_world(w);
}

static void test_the_creator_stops_and_the_room_is_free_again(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    clear(w);
    say(w, "bob", "#t", "!stop");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "votes"), 1);
    say(w, "ann", "#t", "!stop");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "abandoned"), 1);
    assert_null(game_of(w, "#t"));
    say(w, "bob", "#t", "!new");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "opens"), 1);
    free_world(w);
}

static void test_lobby_leave_kick_and_creator_handover(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    say(w, "ann", "#t", "!new 4");
    say(w, "bob", "#t", "!join");
    say(w, "cat", "#t", "!join");
    clear(w);
    say(w, "bob", "#t", "!kick cat");
    assert_non_null(strstr(w->msg[0].text, "creator"));
    say(w, "ann", "#t", "!kick cat");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "cat leaves"), 1);
    say(w, "ann", "#t", "!leave");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "bob now runs"), 1);
    clear(w);
    say(w, "bob", "#t", "!start");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "at least 2"), 1);
    free_world(w);
}

/* Runs a scenario through porrazo-replay's code; returns its last line. */
static void replay_last_line(const char *scenario, char *last, size_t cap)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    FILE *err = fopen("/dev/null", "w");
    assert_int_equal(pzr_run(scenario, strlen(scenario), f, err), 0);
    fclose(f);
    fclose(err);
    out[len - 1] = '\0';
    const char *nl = strrchr(out, '\n');
    snprintf(last, cap, "%s", nl != NULL ? nl + 1 : out);
    free(out);
}

static void test_a_whole_game_replays_to_the_same_scores_from_its_export(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 3, "target=21");
    int64_t id = 0;
    store_game row;
    assert_int_equal(store_game_active(w->st, NET, "#t", &row), 0);
    id = row.id;
    store_game_fini(&row);
    int steps = 0;
    while (play_one(w, "#t"))
        assert_true(++steps < 5000);
    assert_int_equal(store_game_get(w->st, id, &row), 0);
    assert_int_equal(row.status, STORE_FINISHED);
    pz_game *g;
    assert_int_equal(pz_restore(&g, row.state, strlen(row.state), NULL, 0), 0);
    char want[64];
    snprintf(want, sizeof want, "\"scores\":[%d,%d,%d]", pz_get_score(g, 0), pz_get_score(g, 1),
             pz_get_score(g, 2));
    char *scenario, why[200], last[4096];
    assert_int_equal(host_export(w->st, id, &scenario, why, sizeof why), 0);
    replay_last_line(scenario, last, sizeof last);
    assert_non_null(strstr(last, "\"phase\":\"game_over\""));
    assert_non_null(strstr(last, want));
    store_stats top[3];
    int n;
    assert_int_equal(store_stats_top(w->st, NET, "#t", top, 3, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(top[0].wins, 1);
    assert_string_equal(top[0].player, NICKS[pz_get_winner(g)]);
    free(scenario);
    pz_free(g);
    store_game_fini(&row);
    free_world(w);
}

static void test_a_restart_tells_the_room_the_game_is_back(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    clear(w);
    assert_int_equal(host_announce_restart(w->h, w->now), 0);
    drain(w);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "back"), 1);
    free_world(w);
}

static void test_a_line_delivered_twice_with_its_id_acts_once(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    say_once(w, "ann", "#p", "!new 2", "$ev1");
    int replies = w->n;
    assert_true(replies > 0);
    say_once(w, "ann", "#p", "!new 2", "$ev1"); /* a retried sync: ignored */
    assert_int_equal(w->n, replies);
    say_once(w, "bob", "#p", "!join", "$ev2"); /* a new id acts */
    assert_true(w->n > replies);
    pz_game *g = game_of(w, "#p");
    assert_non_null(g);
    pz_free(g);
    clear(w);
    say_once(w, "bob", "#p", "!join", "$ev2");
    assert_int_equal(w->n, 0);
    bool seen = false;
    assert_int_equal(store_seen_has(w->st, NET, "$ev1", &seen), 0);
    assert_true(seen);
    assert_int_equal(store_seen_has(w->st, "other", "$ev1", &seen), 0);
    assert_false(seen);
    int pruned = 0;
    assert_int_equal(store_seen_prune(w->st, w->now + 1, &pruned), 0);
    assert_int_equal(pruned, 2);
    free_world(w);
}

/* Replaces w's host by one with c (prefix, name, seed filled in). */
static void reopen_host(world *w, host_config c)
{
    char why[256];
    c.prefix = "!";
    c.bot_name = "porrazo";
    c.fixed_seed = true;
    c.seed = 4242;
    if (c.max_games == 0)
        c.max_games = 10;
    host_free(w->h);
    assert_int_equal(host_new(&w->h, w->st, &c, why, sizeof why), 0);
}

static void test_the_clock_is_rebuilt_when_the_reminder_time_changes(void **state)
{
    (void)state;
    world *w = new_world(600, 0);
    start_game(w, "#t", 2, "");
    int64_t t0 = w->now;
    assert_int_equal(host_next_tick(w->h, t0), t0 + 600);
    reopen_host(w, (host_config){.reminder_secs = 60});
    assert_int_equal(host_next_tick(w->h, t0), t0 + 60);
    reopen_host(w, (host_config){.reminder_secs = 0});
    assert_int_equal(host_next_tick(w->h, t0), INT64_MAX);
    free_world(w);
}

static void test_the_clock_reads_only_due_games_and_never_sticks(void **state)
{
    (void)state;
    world *w = new_world(60, 0);
    char room[16];
    for (int i = 0; i < 8; i++) {
        snprintf(room, sizeof room, "#g%d", i);
        start_game(w, room, 2, "");
        w->now += 10; /* each game's reminder 10 s after the last's */
    }
    int64_t first = w->now - 80 + 60;
    assert_int_equal(host_next_tick(w->h, w->now), first);
    clear(w);
    assert_int_equal(host_tick(w->h, first + 25), 0); /* three games are due */
    drain(w);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NULL, "Reminder"), 3);
    assert_int_equal(host_next_tick(w->h, first + 25), first + 30);
    /* A due row whose game is gone (the room's game ended meanwhile) is
       cleared, not taken again at every turn of the loop. */
    store_game g;
    assert_int_equal(store_game_active(w->st, NET, "#g7", &g), 0);
    g.status = STORE_STOPPED;
    g.next_due = first + 26;
    assert_int_equal(store_game_update(w->st, &g), 0);
    store_game_fini(&g);
    reopen_host(w, (host_config){.reminder_secs = 60});
    clear(w);
    assert_int_equal(host_tick(w->h, first + 200), 0);
    assert_int_equal(host_tick(w->h, first + 200), 0);
    drain(w);
    /* #g0..#g2 a second time, #g3..#g6 a first; #g7 ended. */
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NULL, "Reminder"), 7);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NULL, "Reminder: #g7"), 0);
    assert_true(host_next_tick(w->h, first + 200) > first + 200);
    free_world(w);
}

static void test_a_flooding_player_is_ignored_and_told_once(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    reopen_host(w, (host_config){.flood_commands = 5, .flood_secs = 10, .flood_ignore_secs = 60});
    start_game(w, "#t", 2, "");
    clear(w);
    w->now += 100; /* full buckets */
    for (int i = 0; i < 40; i++) {
        say(w, "cat", "#t", "!frobnicate");
        say(w, "cat", NULL, "help");
    }
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "cat:"), 3);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "cat", "ignore you for 60 s"), 1);
    say(w, "ann", "#t", "!turn"); /* another player is not held back */
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "ann:"), 1);
    clear(w);
    w->now += 61;
    say(w, "cat", "#t", "!frobnicate");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "cat:"), 1);
    free_world(w);
}

static void test_replies_to_a_target_that_is_behind_are_bounded(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    reopen_host(w, (host_config){.backlog_max = 4});
    host_msg m = {NET, "#t", "cat", "cat", "!frobnicate", 11, NULL, false};
    for (int i = 0; i < 20; i++)
        assert_int_equal(host_handle(w->h, &m, w->now), 0);
    int n = 0;
    assert_int_equal(store_outbox_target_count(w->st, NET, "#t", 100, &n), 0);
    assert_int_equal(n, 4);
    /* Game announcements are never held back. */
    host_msg open = {NET, "#t", "ann", "ann", "!new 2", 6, NULL, false};
    host_msg join = {NET, "#t", "bob", "bob", "!join", 5, NULL, false};
    assert_int_equal(host_handle(w->h, &open, w->now), 0);
    assert_int_equal(host_handle(w->h, &join, w->now), 0);
    assert_int_equal(store_outbox_target_count(w->st, NET, "#t", 100, &n), 0);
    assert_true(n > 5);
    free_world(w);
}

static bool only_root(void *arg, const char *network, const char *player)
{
    (void)arg, (void)network;
    return strcmp(player, "root") == 0;
}

static outq *the_queue;

/* free_world() for the tests that gave the host the_queue. */
static void free_world_and_queue(world *w)
{
    host_free(w->h);
    w->h = NULL;
    outq_free(the_queue);
    the_queue = NULL;
    free_world(w);
}

static outq *queue_of(void *arg, const char *network)
{
    (void)arg;
    return strcmp(network, NET) == 0 ? the_queue : NULL;
}

static void test_an_owner_purges_a_targets_queue(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    assert_int_equal(outq_new(&the_queue, w->st, NET), 0);
    reopen_host(w, (host_config){.is_owner = only_root, .outq_of = queue_of});
    for (int i = 0; i < 6; i++)
        assert_int_equal(store_outbox_add(w->st, NET, "#busy", STORE_MSG_ROOM, 0, "x", 1, NULL), 0);
    assert_int_equal(outq_load(the_queue), 0);
    assert_int_equal(outq_target_count(the_queue, "#busy"), 6);
    say(w, "cat", NULL, "purge #busy");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "cat", "only the bot's owners"), 1);
    assert_int_equal(outq_load(the_queue), 0);
    assert_int_equal(outq_target_count(the_queue, "#busy"), 6);
    clear(w);
    say(w, "root", NULL, "purge #busy");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "purged 6 queued messages to #busy"), 1);
    assert_int_equal(outq_target_count(the_queue, "#busy"), 0);
    int n = -1;
    assert_int_equal(store_outbox_target_count(w->st, NET, "#busy", 100, &n), 0);
    assert_int_equal(n, 0);
    free_world_and_queue(w);
}

/* The volatile messages in the_queue, concatenated. */
static void take_volatile(char *buf, size_t cap)
{
    buf[0] = '\0';
    outq_msg *m;
    while ((m = outq_take(the_queue, NULL, NULL)) != NULL) {
        if (m->id < 0)
            strncat(buf, m->text, cap - strlen(buf) - 1);
        outq_sent(the_queue, m);
    }
}

static void test_a_locked_database_is_answered_and_loses_nothing(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    assert_int_equal(outq_new(&the_queue, w->st, NET), 0);
    reopen_host(w, (host_config){.outq_of = queue_of});
    start_game(w, "#t", 2, "");
    pz_game *g = game_of(w, "#t");
    const char *actor = NICKS[pz_get_turn(g)];
    pz_free(g);
    sqlite3 *other;
    assert_int_equal(sqlite3_open(w->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    host_msg m = {NET, "#t", actor, actor, "!tendido now", 12, NULL, false};
    assert_int_equal(host_handle(w->h, &m, w->now), -1);
    assert_non_null(strstr(host_errmsg(w->h), "locked"));
    char text[2000];
    take_volatile(text, sizeof text);
    assert_non_null(strstr(text, "can't save right now: your command was not taken"));
    assert_int_equal(host_handle(w->h, &m, w->now + 1), -1); /* told once a minute */
    take_volatile(text, sizeof text);
    assert_string_equal(text, "");
    /* A command that only reads is answered even while the lock is held. */
    host_msg turn = {NET, "#t", "bob", "bob", "!turn", 5, NULL, false};
    assert_int_equal(host_handle(w->h, &turn, w->now + 2), 0);
    take_volatile(text, sizeof text);
    assert_non_null(strstr(text, "bob: "));
    assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    clear(w);
    say(w, actor, "#t", "!tendido now"); /* the lock is gone: the game goes on */
    assert_true(count(w, STORE_MSG_ROOM, "#t", "tendido") > 0);
    free_world_and_queue(w);
}

static void test_a_command_that_only_reads_is_answered_without_a_write(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    assert_int_equal(outq_new(&the_queue, w->st, NET), 0);
    reopen_host(w, (host_config){.outq_of = queue_of});
    say(w, "ann", "#t", "!new 2");
    /* An announcement committed and not yet read by the adapter's queue,
       then a reply that is never stored: it still comes after it. */
    host_msg join = {NET, "#t", "bob", "bob", "!join", 5, NULL, false};
    assert_int_equal(host_handle(w->h, &join, w->now), 0);
    int rows = 0;
    assert_int_equal(store_outbox_count(w->st, NET, &rows), 0);
    assert_true(rows > 0);
    host_msg hand = {NET, NULL, "ann", "ann", "hand", 4, NULL, false};
    host_msg bad = {NET, "#t", "bob", "bob", "!frobnicate", 11, NULL, false};
    assert_int_equal(host_handle(w->h, &hand, w->now), 0);
    assert_int_equal(host_handle(w->h, &bad, w->now), 0);
    int after = 0;
    assert_int_equal(store_outbox_count(w->st, NET, &after), 0);
    assert_int_equal(after, rows); /* nothing written for either */
    /* The adapter reads the rest (rows from before its first read come
       before the replies in each target's queue, whenever they are read). */
    while (outq_load(the_queue) == 1)
        ;
    outq_msg *msg;
    int stored = 0, volatiles = 0;
    bool order_ok = true, ann_replied = false;
    while ((msg = outq_take(the_queue, NULL, NULL)) != NULL) {
        bool to_ann = strcmp(msg->target, "ann") == 0;
        if (msg->id > 0)
            stored++;
        else
            volatiles++;
        if (msg->id > 0 && to_ann && ann_replied)
            order_ok = false; /* ann's hand from the deal after the reply to "hand" */
        ann_replied |= msg->id < 0 && to_ann;
        outq_sent(the_queue, msg);
    }
    assert_int_equal(stored, rows);
    assert_int_equal(volatiles, 2);
    assert_true(order_ok);
    free_world_and_queue(w);
}

static void test_a_full_database_is_answered_and_recovers(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    assert_int_equal(outq_new(&the_queue, w->st, NET), 0);
    reopen_host(w, (host_config){.outq_of = queue_of, .max_games = 1000});
    int page = 0;
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(w->path, &raw), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA page_count", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    page = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(raw);
    assert_int_equal(store_set_max_bytes(w->st, (int64_t)(page + 4) * 4096), 0);
    char room[16], text[4000];
    int refused = -1;
    for (int i = 0; i < 200 && refused < 0; i++) {
        snprintf(room, sizeof room, "#f%d", i);
        host_msg m = {NET, room, "ann", "ann", "!new 2", 6, NULL, false};
        if (host_handle(w->h, &m, w->now) != 0)
            refused = i;
        drain(w);
    }
    assert_true(refused > 0);
    assert_non_null(strstr(host_errmsg(w->h), "full"));
    take_volatile(text, sizeof text);
    assert_non_null(strstr(text, "ann: I can't save right now"));
    /* Room again: the refused command works when said again. */
    assert_int_equal(store_set_max_bytes(w->st, 0), 0);
    snprintf(room, sizeof room, "#f%d", refused);
    clear(w);
    say(w, "ann", room, "!new 2");
    assert_int_equal(count(w, STORE_MSG_ROOM, room, "opens a Porrazo table"), 1);
    free_world_and_queue(w);
}

static void test_a_restart_announces_only_recent_games(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    reopen_host(w, (host_config){.restart_recent_secs = 3600, .restart_announce_max = 2});
    start_game(w, "#old", 2, "");
    w->now += 7200;
    start_game(w, "#a", 2, "");
    start_game(w, "#b", 2, "");
    w->now += 1;
    start_game(w, "#c", 2, "");
    clear(w);
    assert_int_equal(host_announce_restart(w->h, w->now), 0);
    drain(w);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#old", "back"), 0);
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, "back"), 2);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#c", "back"), 1);
    free_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_full_table_starts_and_hands_are_sent_only_privately),
        cmocka_unit_test(test_a_line_delivered_twice_with_its_id_acts_once),
        cmocka_unit_test(test_hand_asked_in_the_channel_is_answered_privately),
        cmocka_unit_test(test_bad_commands_get_one_specific_reply),
        cmocka_unit_test(test_private_commands_ask_which_game_when_in_two),
        cmocka_unit_test(test_the_clock_reminds_then_plays_for_the_absent_player),
        cmocka_unit_test(test_pause_and_resume_need_a_majority_and_block_plays),
        cmocka_unit_test(test_the_creator_stops_and_the_room_is_free_again),
        cmocka_unit_test(test_lobby_leave_kick_and_creator_handover),
        cmocka_unit_test(test_a_whole_game_replays_to_the_same_scores_from_its_export),
        cmocka_unit_test(test_a_restart_tells_the_room_the_game_is_back),
        cmocka_unit_test(test_the_clock_is_rebuilt_when_the_reminder_time_changes),
        cmocka_unit_test(test_the_clock_reads_only_due_games_and_never_sticks),
        cmocka_unit_test(test_a_flooding_player_is_ignored_and_told_once),
        cmocka_unit_test(test_replies_to_a_target_that_is_behind_are_bounded),
        cmocka_unit_test(test_an_owner_purges_a_targets_queue),
        cmocka_unit_test(test_a_locked_database_is_answered_and_loses_nothing),
        cmocka_unit_test(test_a_full_database_is_answered_and_recovers),
        cmocka_unit_test(test_a_command_that_only_reads_is_answered_without_a_write),
        cmocka_unit_test(test_a_restart_announces_only_recent_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
