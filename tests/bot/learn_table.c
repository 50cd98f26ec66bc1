/*
 * learn_table.c — the tests' table of learning (learn_table.h): a host
 * with the fixed seed asked for, greedy computer players a second apart,
 * hints and judgements searched with ITERATIONS.
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

#include "learn_table.h"

table *open_table_seeded(uint64_t seed)
{
    table *t = calloc(1, sizeof *t);
    char why[256];
    assert_non_null(t);
    t->msg = calloc(MSGS_MAX, sizeof *t->msg);
    assert_non_null(t->msg);
    snprintf(t->dir, sizeof t->dir, "/tmp/pz-learn-XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    snprintf(t->path, sizeof t->path, "%s/t.db", t->dir);
    assert_int_equal(store_open(&t->st, t->path, why, sizeof why), 0);
    host_config c = {.prefix = "!",
                     .bot_name = "porrazo",
                     .max_games = 10,
                     .fixed_seed = true,
                     .seed = seed,
                     .robot_level = "greedy",
                     .robot_delay_secs = 1,
                     .robot_iterations = ITERATIONS,
                     .absent_after = 3,
                     .lobby_expiry_secs = 3600,
                     .away_max_secs = 7 * 86400};
    assert_int_equal(host_new(&t->h, t->st, &c, why, sizeof why), 0);
    t->now = 2000000;
    return t;
}

void close_table(table *t)
{
    char cmd[128];
    host_free(t->h);
    store_close(t->st);
    snprintf(cmd, sizeof cmd, "rm -rf %s", t->dir);
    assert_int_equal(system(cmd), 0);
    free(t->msg);
    free(t);
}

void read_outbox(table *t)
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

void say_as(table *t, const char *nick, const char *text, bool moderator)
{
    host_msg m = {NET, ROOM, nick, nick, text, strlen(text), NULL, false, moderator, NULL, false};
    assert_int_equal(host_handle(t->h, &m, t->now), 0);
    read_outbox(t);
}

void say(table *t, const char *nick, const char *text)
{
    say_as(t, nick, text, false);
}

void tick(table *t, int secs)
{
    t->now += secs;
    assert_int_equal(host_tick(t->h, t->now), 0);
    read_outbox(t);
}

int count_from(const table *t, int from, const char *target, const char *s)
{
    int n = 0;
    for (int i = from; i < t->nmsg; i++)
        if ((target == NULL || strcmp(t->msg[i].target, target) == 0) &&
            strstr(t->msg[i].text, s) != NULL)
            n++;
    return n;
}

pz_game *game_now(table *t)
{
    store_game g;
    pz_game *game = NULL;
    if (store_game_active(t->st, NET, ROOM, &g) != 0)
        return NULL;
    if (g.state != NULL)
        assert_int_equal(pz_restore(&game, g.state, strlen(g.state), NULL, 0), 0);
    store_game_fini(&g);
    return game;
}

int to_act(const pz_game *g)
{
    pz_phase p = pz_get_phase(g);
    if (p == PZ_PHASE_PLAY)
        return pz_get_turn(g);
    if (p == PZ_PHASE_TENDIDO_CHOICE || p == PZ_PHASE_ARRANGE)
        return pz_get_dealer(g);
    return -1;
}

void card_words(pz_card c, char *buf, size_t cap)
{
    static const char *const rank[] = {"A", "2", "3",  "4", "5", "6", "7",
                                       "8", "9", "10", "J", "Q", "K"};
    static const char *const suit[] = {"\xE2\x99\xA3", "\xE2\x99\xA6", "\xE2\x99\xA5",
                                       "\xE2\x99\xA0"};
    snprintf(buf, cap, "%s%s", rank[pz_card_rank(c)], suit[pz_card_suit(c)]);
}
