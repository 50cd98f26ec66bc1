/*
 * learn_table.h — a host over a real SQLite file with a fake clock, for
 * the tests of learning from the bot (test_learn, test_learn_truth): one
 * room's table, every message the host queues read raw from the store's
 * outbox (the live markers left in).
 */
#ifndef PZ_TEST_LEARN_TABLE_H
#define PZ_TEST_LEARN_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host.h"
#include "porrazo.h"
#include "store.h"

#define NET "t"
#define ROOM "#t"
#define MSGS_MAX 8000
#define ITERATIONS 50 /* host_config.robot_iterations: the hints' budget too */

typedef struct table {
    char dir[64], path[96];
    store *st;
    host *h;
    int64_t now;
    int64_t read_after;
    int nmsg;
    store_msg *msg;
} table;

/* A new host over a fresh store, its deals from seed. */
table *open_table_seeded(uint64_t seed);
void close_table(table *t);
/* The messages the host queued since the last read, appended to t->msg. */
void read_outbox(table *t);
/* nick says text in the room (as a moderator when moderator). */
void say_as(table *t, const char *nick, const char *text, bool moderator);
void say(table *t, const char *nick, const char *text);
/* The fake clock secs on, and the host's tick. */
void tick(table *t, int secs);
/* Messages to target (NULL: any) holding s, from message `from` on. */
int count_from(const table *t, int from, const char *target, const char *s);
/* The room's stored game (caller frees), or NULL when none is active. */
pz_game *game_now(table *t);
/* The seat to act in g (turn, or the dealer choosing/arranging), or -1. */
int to_act(const pz_game *g);
/* How a player reads card c: "7♥", "10♠", "K♣". */
void card_words(pz_card c, char *buf, size_t cap);

#endif
