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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <sqlite3.h>

#include "host.h"
#include "outq.h"
#include "porrazo.h"
#include "render.h"
#include "scenario.h"
#include "store.h"
#include "verify.h"

#define NET "t"
#define MAX_MSGS 4096

typedef struct world {
    char dir[64], path[96];
    store *st;
    host *h;
    int64_t now;
    int n; /* messages drained since the last clear */
    store_msg msg[MAX_MSGS];
    char events[16][400]; /* host_config.log_event's lines since the last clear */
    int nevents;
} world;

/* host_config.log_event: keeps the line. */
static void on_event(void *arg, const char *line)
{
    world *w = arg;
    assert_true(w->nevents < 16);
    snprintf(w->events[w->nevents++], sizeof w->events[0], "%s", line);
}

/* A world whose games' seeds come from the system (sealed, FAIRNESS.md)
   when !fixed, else all from seed 4242. */
static world *new_world_seeded(int reminder, int deadline, bool fixed)
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
                     .fixed_seed = fixed,
                     .seed = 4242,
                     .log_event = on_event,
                     .log_arg = w};
    assert_int_equal(host_new(&w->h, w->st, &c, why, sizeof why), 0);
    w->now = 1000000;
    return w;
}

static world *new_world(int reminder, int deadline)
{
    return new_world_seeded(reminder, deadline, true);
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

static int by_id(const void *a, const void *b)
{
    const store_msg *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Moves every unsent message into w->msg as players would read it: taken
 * through an adapter's queue with the host's expander (live lines
 * rendered, merged or dropped when sent), in the order they were queued
 * (their id here is the queue's order, outq_msg.seq).
 */
static void drain(world *w)
{
    outq *q;
    int start = w->n, rc;
    assert_int_equal(outq_new(&q, w->st, NET), 0);
    outq_set_expander(q, host_expand, w->h);
    do {
        rc = outq_load(q);
        assert_true(rc == 0 || rc == 1);
        outq_msg *m;
        while ((m = outq_take(q, NULL, NULL)) != NULL) {
            assert_true(w->n < MAX_MSGS);
            store_msg *c = &w->msg[w->n++];
            memset(c, 0, sizeof *c);
            c->id = (int64_t)m->seq;
            snprintf(c->target, sizeof c->target, "%s", m->target);
            snprintf(c->text, sizeof c->text, "%s", m->text);
            c->kind = m->kind;
            c->priority = m->priority;
            outq_sent(q, m); /* the target gives its next message only then */
        }
    } while (rc == 1);
    assert_int_equal(outq_flush_done(q), 0);
    outq_free(q);
    qsort(w->msg + start, (size_t)(w->n - start), sizeof w->msg[0], by_id);
}

/* nick says text in room (NULL: privately), then the outbox is drained. */
static void say(world *w, const char *nick, const char *room, const char *text)
{
    host_msg m = {NET, room, nick, nick, text, strlen(text), NULL, false, false, NULL, false};
    assert_int_equal(host_handle(w->h, &m, w->now), 0);
    drain(w);
}

/* As say(), for a line with an id: delivered again, it must act once. */
static void say_once(world *w, const char *nick, const char *room, const char *text, const char *id)
{
    host_msg m = {NET, room, nick, nick, text, strlen(text), id, false, false, NULL, false};
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

static void reopen_host(world *w, host_config c);

/* Plays default moves in room until a card is to be played; the game
   then (caller frees). */
static pz_game *until_a_card(world *w, const char *room)
{
    pz_game *g = game_of(w, room);
    while (pz_get_phase(g) != PZ_PHASE_PLAY) {
        pz_free(g);
        assert_true(play_one(w, room));
        g = game_of(w, room);
    }
    return g;
}

/* Whether hand (n cards) holds card. */
static bool holds(const pz_card *hand, int n, pz_card card)
{
    for (int i = 0; i < n; i++)
        if (hand[i] == card)
            return true;
    return false;
}

static void test_a_card_not_held_is_refused_in_the_room_with_the_hand_only_privately(void **state)
{
    (void)state;
    static const char *const words[PZ_RANKS] = {"A", "2", "3",  "4", "5", "6", "7",
                                                "8", "9", "10", "J", "Q", "K"};
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    pz_game *g = until_a_card(w, "#t");
    int actor = pz_get_turn(g), rank = 0;
    const char *nick = NICKS[actor], *other = NICKS[1 - actor];
    pz_card hand[PZ_CARDS], missing = PZ_NO_CARD;
    int n = pz_get_hand(g, actor, hand);
    for (bool held = true; held && rank < PZ_RANKS; rank += held) {
        held = false;
        for (int i = 0; i < n; i++)
            held = held || pz_card_rank(hand[i]) == rank;
    }
    assert_true(rank < PZ_RANKS);
    for (int k = 0; k < 52 && missing == PZ_NO_CARD; k++)
        if (!holds(hand, n, pz_card_make(k % PZ_RANKS, k / PZ_RANKS)) && k % PZ_RANKS != rank)
            missing = pz_card_make(k % PZ_RANKS, k / PZ_RANKS);
    char line[64], text[64], card[8], wire[3];

    /* a rank not held, in the room: answered there, the hand privately */
    clear(w);
    snprintf(line, sizeof line, "!play %s", words[rank]);
    say(w, nick, "#t", line);
    snprintf(text, sizeof text, "%s: you hold no %s; your cards went to you privately", nick,
             words[rank]);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", text), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, NULL), 1);
    for (int i = 0; i < n; i++) {
        render_card(hand[i], card);
        assert_int_equal(count(w, STORE_MSG_ROOM, NULL, card), 0);
        assert_int_equal(count(w, STORE_MSG_PRIVATE, nick, card), 1);
    }

    /* a card with its suit, refused by the engine: the same rule */
    clear(w);
    pz_card_format(missing, wire);
    render_card(missing, card);
    snprintf(line, sizeof line, "!play %s", wire);
    say(w, nick, "#t", line);
    snprintf(text, sizeof text, "%s: you hold no %s; your cards went to you privately", nick, card);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", text), 1);
    render_card(hand[0], card);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, nick, card), 1);

    /* said privately: one private line, the hand in it */
    clear(w);
    snprintf(line, sizeof line, "play %s", words[rank]);
    say(w, nick, NULL, line);
    assert_int_equal(w->n, 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, nick, "(your hand: "), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, nick, card), 1);

    /* not their turn: in the room too */
    clear(w);
    say(w, other, "#t", "!play 7");
    snprintf(text, sizeof text, "%s: it is %s's turn, not yours", other, nick);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", text), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NULL, NULL), 0);
    pz_free(g);
    free_world(w);
}

static void test_personal_settings_said_in_a_room_are_answered_privately(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "!tz Europe/Madrid", "!quiet 23:00-08:00", "!away 2d", "!away off",     "!reminders off",
        "!notices on",       "!prompts on",        "!link",    "!tz Mars/Base", "!tz"};
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        clear(w);
        say(w, "ann", "#t", lines[i]);
        assert_int_equal(count(w, STORE_MSG_ROOM, NULL, NULL), 1);
        assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "ann: I answered you privately"), 1);
        assert_true(count(w, STORE_MSG_PRIVATE, "ann", NULL) >= 1);
    }
    clear(w);
    say(w, "ann", "#t", "!quiet 23:00-08:00");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "quiet 23:00-08:00 Europe/Madrid"), 1);
    clear(w);
    say(w, "ann", NULL, "tz"); /* privately: nothing in any room */
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, NULL), 0);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "Europe/Madrid"), 1);
    free_world(w);
}

/* The value player's setting keeps in kv scope, into out ("-" unset). */
static void kept(world *w, const char *scope, const char *player, char *out, size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, "%s\x1f%s", NET, player);
    if (store_kv_get(w->st, scope, key, out, cap) != 0)
        snprintf(out, cap, "-");
}

/* Issue 30: a player's settings are rows of the settings table
   (settings.def) now. A database from before it, each value in the kv
   scope and the form the host wrote then, loads as it did; and what the
   verbs write now is that same form in the same scope. */
static void test_players_settings_kept_before_the_table_still_load(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    char key[64], v[64], want[64];
    snprintf(key, sizeof key, "%s\x1f%s", NET, "ann");
    assert_int_equal(store_kv_set(w->st, "tz", key, "Europe/Madrid"), 0);
    assert_int_equal(store_kv_set(w->st, "notice", key, "on"), 0);
    assert_int_equal(store_kv_set(w->st, "lang", key, "es"), 0);
    assert_int_equal(store_kv_set(w->st, "prompts", key, "off"), 0);
    reopen_host(w, (host_config){0}); /* the languages are read at the start */
    assert_true(host_wants_notice(w->h, NET, "ann"));
    assert_false(host_wants_notice(w->h, NET, "bob"));
    assert_int_equal(host_player_lang(w->h, NET, "ann", NULL), PZ_LANG_ES);
    clear(w);
    say(w, "ann", NULL, "tz");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "Europe/Madrid"), 1);

    static const struct {
        const char *line, *scope, *value;
    } WRITES[] = {{"notices off", "notice", ""},
                  {"notices on", "notice", "on"},
                  {"reminders off", "reminders", "off"},
                  {"review on", "review", "on"},
                  {"prompts on", "prompts", "on"},
                  {"quiet 23:00-08:00", "quiet", "23:00-08:00"},
                  {"tz America/Chicago", "tz", "America/Chicago"},
                  {"lang en", "lang", "en"}};
    for (size_t i = 0; i < sizeof WRITES / sizeof WRITES[0]; i++) {
        say(w, "bob", NULL, WRITES[i].line);
        kept(w, WRITES[i].scope, "bob", v, sizeof v);
        if (strcmp(v, WRITES[i].value) != 0)
            fail_msg("%s kept '%s' in %s, not '%s'", WRITES[i].line, v, WRITES[i].scope,
                     WRITES[i].value);
    }
    say(w, "bob", NULL, "away 2d bot");
    kept(w, "away", "bob", v, sizeof v);
    snprintf(want, sizeof want, "%lld bot", (long long)(w->now + 2 * 86400));
    assert_string_equal(v, want);
    free_world(w);
}

/* The state text of the room's game (caller frees), or NULL. */
static char *state_of(world *w, const char *room)
{
    store_game g;
    if (store_game_active(w->st, NET, room, &g) != 0)
        return NULL;
    char *s = g.state != NULL ? strdup(g.state) : NULL;
    store_game_fini(&g);
    return s;
}

/* The host stores its games packed (pz_pack); a game an older bot stored
   as JSON is read as it is, played on, and packed at its next save, the
   same game as it was. */
static void test_a_game_stored_as_json_by_an_older_bot_plays_on_and_is_stored_packed(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#old", 2, "");
    char *packed = state_of(w, "#old");
    assert_non_null(packed);
    assert_true(packed[0] == '~');
    pz_game *g = game_of(w, "#old");
    assert_non_null(g);
    char json[PZ_SAVE_MAX], again[PZ_SAVE_MAX];
    assert_true(pz_save(g, json, sizeof json) > 0);
    assert_true(strlen(packed) * 5 <= strlen(json));
    pz_free(g);

    store_game row;
    assert_int_equal(store_game_active(w->st, NET, "#old", &row), 0);
    free(row.state);
    row.state = strdup(json); /* as a bot before the packed form left it */
    assert_int_equal(store_game_update(w->st, &row), 0);
    store_game_fini(&row);
    reopen_host(w, (host_config){0});
    clear(w);
    say(w, "ann", "#old", "!turn");
    assert_true(count(w, STORE_MSG_ROOM, "#old", NULL) >= 1); /* answered, not failed */
    char *still = state_of(w, "#old");
    assert_string_equal(still, json); /* a read changes nothing */
    g = game_of(w, "#old");
    assert_true(pz_save(g, again, sizeof again) > 0);
    assert_string_equal(again, json);
    pz_free(g);

    assert_true(play_one(w, "#old"));
    char *after = state_of(w, "#old");
    assert_non_null(after);
    assert_true(after[0] == '~');
    g = game_of(w, "#old");
    assert_non_null(g);
    assert_true(pz_save(g, again, sizeof again) > 0);
    assert_string_not_equal(again, json); /* the move is in it */
    pz_free(g);
    free(packed);
    free(still);
    free(after);
    free_world(w);
}

/* Every line of the room, in order, into out (NUL-separated is not needed:
   joined with newlines). */
static void room_text(const world *w, const char *room, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < w->n; i++)
        if (w->msg[i].kind == STORE_MSG_ROOM && strcmp(w->msg[i].target, room) == 0) {
            int n = snprintf(out + k, cap - k, "%s\n", w->msg[i].text);
            assert_true(n > 0 && (size_t)n < cap - k);
            k += (size_t)n;
        }
}

/* The host keeps the last game it restored, by the text it came from: a
   row changed behind its back (another program, a restore from a backup)
   is read as the store has it, never as the host last saw it. */
static void test_a_game_changed_in_the_store_is_read_as_the_store_has_it(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#kept", 2, "");
    char first[2000], changed[2000], fresh[2000];
    clear(w);
    say(w, "ann", "#kept", "!turn"); /* restored, and kept */
    room_text(w, "#kept", first, sizeof first);
    assert_true(first[0] != '\0');

    pz_game *g = game_of(w, "#kept"); /* the next move, made behind the host */
    pz_action a;
    assert_int_equal(pz_default_action(g, pz_get_turn(g), &a), 0);
    assert_int_equal(pz_apply(g, &a, NULL, NULL, 0), 0);
    char next[PZ_PACK_MAX];
    assert_true(pz_pack(g, next, sizeof next) > 0);
    pz_free(g);
    store_game row;
    assert_int_equal(store_game_active(w->st, NET, "#kept", &row), 0);
    free(row.state);
    row.state = strdup(next);
    assert_int_equal(store_game_update(w->st, &row), 0);
    store_game_fini(&row);

    clear(w);
    say(w, "ann", "#kept", "!turn");
    room_text(w, "#kept", changed, sizeof changed);
    assert_string_not_equal(changed, first);
    reopen_host(w, (host_config){0}); /* a host that never saw the game */
    clear(w);
    say(w, "ann", "#kept", "!turn");
    room_text(w, "#kept", fresh, sizeof fresh);
    assert_string_equal(changed, fresh);
    free_world(w);
}

/* The players' own languages are a hash table in memory (lang_map.c):
   2,000 read at the start grow it, then every third one's "lang off"
   takes them out (the entries after each in its probe run move back) and
   every seventh one's "lang en" changes theirs; each player reads the
   language the store says, those who never chose one the bot's. */
static void test_many_players_languages_in_and_out_of_memory(void **state)
{
    (void)state;
    enum { PLAYERS = 2000 };
    world *w = new_world(0, 0);
    char key[64], nick[32], value[8];
    assert_int_equal(store_begin(w->st), 0);
    for (int i = 0; i < PLAYERS; i++) {
        snprintf(key, sizeof key, "%s\x1fp%d", NET, i);
        assert_int_equal(store_kv_set(w->st, "lang", key, "es"), 0);
    }
    assert_int_equal(store_commit(w->st), 0);
    reopen_host(w, (host_config){0});
    for (int i = 0; i < PLAYERS; i += 3) {
        snprintf(nick, sizeof nick, "p%d", i);
        say(w, nick, NULL, "lang off");
    }
    for (int i = 0; i < PLAYERS; i += 7) {
        snprintf(nick, sizeof nick, "p%d", i);
        say(w, nick, NULL, "lang en");
    }
    for (int pass = 0; pass < 2; pass++) { /* in memory, then read again */
        for (int i = 0; i < PLAYERS + 10; i++) {
            snprintf(nick, sizeof nick, "p%d", i);
            snprintf(key, sizeof key, "%s\x1f%s", NET, nick);
            if (store_kv_get(w->st, "lang", key, value, sizeof value) != 0)
                value[0] = '\0';
            pz_lang want = strcmp(value, "es") == 0 ? PZ_LANG_ES : PZ_LANG_EN;
            if (host_player_lang(w->h, NET, nick, NULL) != want)
                fail_msg("pass %d: %s reads %d, the store says '%s'", pass, nick,
                         (int)host_player_lang(w->h, NET, nick, NULL), value);
            assert_int_equal(strcmp(value, "es") == 0, i < PLAYERS && i % 3 != 0 && i % 7 != 0);
        }
        reopen_host(w, (host_config){0});
    }
    free_world(w);
}

/* The player at seat of room's game, in the store. */
static void seat_player(world *w, const char *room, int seat, char *out, size_t cap)
{
    store_game row;
    store_seat seats[PZ_MAX_PLAYERS];
    int n = 0;
    assert_int_equal(store_game_active(w->st, NET, room, &row), 0);
    assert_int_equal(store_seats_get(w->st, row.id, seats, PZ_MAX_PLAYERS, &n), 0);
    store_game_fini(&row);
    assert_true(seat < n);
    snprintf(out, cap, "%s", seats[seat].player);
}

/* Issue 30: one !leave mid-game only asks to confirm; it used to add "you
   are not playing in this game" to the question. Someone not seated still
   hears that, and only that. */
static void test_one_leave_mid_game_only_asks_to_confirm(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 3, "");
    pz_free(until_a_card(w, "#t"));
    clear(w);
    say(w, "bob", "#t", "!leave");
    assert_int_equal(w->n, 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "say !leave again within 2 min to confirm"), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, "not playing"), 0);
    clear(w);
    say(w, "zed", "#t", "!leave");
    assert_int_equal(w->n, 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "you are not playing in this game"), 1);
    free_world(w);
}

static void test_leaving_mid_game_asks_once_and_the_seat_can_be_taken_back(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    char who[STORE_ID_MAX], save[PZ_SAVE_MAX], later[PZ_SAVE_MAX];
    start_game(w, "#t", 3, "");
    pz_game *g = until_a_card(w, "#t");
    int actor = pz_get_turn(g);
    const char *nick = NICKS[actor];
    pz_card hand[PZ_CARDS];
    int n = pz_get_hand(g, actor, hand);
    pz_free(g);

    clear(w);
    say(w, nick, "#t", "!leave"); /* asked, not done */
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "say !leave again within 2 min to confirm"), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "leaves"), 0);
    w->now += 121; /* too late: asked again */
    say(w, nick, "#t", "!leave");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "again within 2 min"), 2);
    seat_player(w, "#t", actor, who, sizeof who);
    assert_string_equal(who, nick);
    reopen_host(w, (host_config){0}); /* a restart keeps the question */
    w->now += 60;
    clear(w);
    say(w, nick, "#t", "!leave");
    char text[200];
    snprintf(text, sizeof text,
             "%s leaves; Robot 1 (strong) takes the seat and the game goes on (%s may take it "
             "back: !join)",
             nick, nick);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", text), 1);
    seat_player(w, "#t", actor, who, sizeof who);
    assert_non_null(strstr(who, "bot:"));

    /* join takes it back, with the hand and the turn, before the robot moves */
    g = game_of(w, "#t");
    assert_true(pz_save(g, save, sizeof save) > 0);
    pz_free(g);
    clear(w);
    say(w, nick, "#t", "!join");
    snprintf(text, sizeof text, "%s takes their seat back from Robot 1 (strong)", nick);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", text), 1);
    seat_player(w, "#t", actor, who, sizeof who);
    assert_string_equal(who, nick);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, nick, "Your turn"), 1);
    for (int i = 0; i < n; i++) {
        char card[8];
        render_card(hand[i], card);
        assert_int_equal(count(w, STORE_MSG_ROOM, NULL, card), 0);
        assert_int_equal(count(w, STORE_MSG_PRIVATE, nick, card), 1);
    }
    assert_int_equal(host_tick(w->h, w->now + 3600), 0); /* no deadline: it waits for them */
    g = game_of(w, "#t");
    assert_true(pz_save(g, later, sizeof later) > 0);
    assert_int_equal(pz_get_turn(g), actor);
    pz_free(g);
    assert_string_equal(save, later);
    clear(w);
    say(w, nick, "#t", "!join"); /* once back, seated */
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "has started already"), 1);

    /* back works too; a seat given to another person stays theirs */
    const char *bob = actor == 1 ? "cat" : "bob";
    say(w, bob, "#t", "!leave");
    say(w, bob, "#t", "!leave");
    clear(w);
    say(w, bob, "#t", "!back");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "takes their seat back from Robot"), 1);
    say(w, bob, "#t", "!leave");
    say(w, bob, "#t", "!leave");
    say(w, "ann", "#t", "!sub dan 1");
    say(w, "dan", "#t", "!join");
    clear(w);
    say(w, bob, "#t", "!join");
    snprintf(text, sizeof text, "%s: your seat went to dan", bob);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", text), 1);

    /* removed by the table's creator: not theirs to take back */
    say(w, "ann", "#t", "!kick dan");
    clear(w);
    say(w, "dan", "#t", "!join");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "has started already"), 1);
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

static void test_a_room_moderator_stops_a_game_they_do_not_play_in(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    clear(w);
    say(w, "cat", "#t", "!stop"); /* neither seated nor a moderator */
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "abandoned"), 0);
    pz_game *g = game_of(w, "#t");
    assert_non_null(g); /* still there */
    pz_free(g);
    host_msg m = {NET, "#t", "mod", "mod", "!stop", 5, NULL, false, true, NULL, false};
    assert_int_equal(host_handle(w->h, &m, w->now), 0);
    drain(w);
    assert_int_equal(
        count(w, STORE_MSG_ROOM, "#t", "abandoned (stopped by a moderator of the room)"), 1);
    assert_null(game_of(w, "#t"));
    free_world(w);
}

static void test_a_player_the_bot_cannot_reach_privately_is_not_seated(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    const char *why = "this server encrypts direct rooms and the bot cannot send hands there";
    host_msg open = {NET, "#t", "eve", "eve", "!new 2", 6, NULL, false, false, why, false};
    assert_int_equal(host_handle(w->h, &open, w->now), 0);
    drain(w);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "you cannot sit: this server encrypts"), 1);
    assert_null(game_of(w, "#t"));
    say(w, "ann", "#t", "!new 2");
    host_msg join = {NET, "#t", "eve", "eve", "!join", 5, NULL, false, false, why, false};
    assert_int_equal(host_handle(w->h, &join, w->now), 0);
    drain(w);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "you cannot sit"), 2);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "eve sits down"), 0);
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

/* The index of the event line that starts with want, or -1. */
static int event_at(const world *w, const char *want)
{
    for (int i = 0; i < w->nevents; i++)
        if (strncmp(w->events[i], want, strlen(want)) == 0)
            return i;
    return -1;
}

static void test_game_events_are_logged_with_the_game_id_and_the_room_names_it(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    say(w, "ann", "#t", "!new 2 to 21");
    assert_int_equal(w->nevents, 1);
    /* the record's commands are the operator's and owners' words: the
       log has them, the players read the game's number only */
    assert_string_equal(w->events[0], "game #1 (t #t) opened by ann (up to 2 players \xC2\xB7 "
                                      "first to 21); its record: porrazo-bot --export 1 or "
                                      "!export 1 (owners)");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "ann says !start to deal. Game #1."), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "export"), 0);
    say(w, "bob", "#t", "!join");
    assert_int_equal(event_at(w, "game #1 (t #t) started: 2 players (ann, bob)"), 1);
    w->nevents = 0;
    clear(w);
    int steps = 0;
    while (play_one(w, "#t"))
        assert_true(++steps < 5000);
    assert_int_equal(w->nevents, 1);
    assert_true(event_at(w, "game #1 (t #t) finished: ") == 0);
    assert_non_null(strstr(w->events[0], "; game over: "));
    store_game row;
    assert_int_equal(store_game_get(w->st, 1, &row), 0);
    pz_game *g;
    assert_int_equal(pz_restore(&g, row.state, strlen(row.state), NULL, 0), 0);
    char score[64];
    snprintf(score, sizeof score, " %d", pz_get_score(g, 0));
    assert_non_null(strstr(w->events[0], score));
    pz_free(g);
    store_game_fini(&row);
    assert_non_null(strstr(w->events[0], "; its record: porrazo-bot --export 1 or !export 1"));
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "export"), 0);

    /* Stopped by its creator, by vote, and a lobby everyone left. */
    w->nevents = 0;
    say(w, "ann", "#t", "!new 2");
    say(w, "bob", "#t", "!join");
    say(w, "ann", "#t", "!stop");
    assert_int_equal(event_at(w, "game #2 (t #t) stopped by ann (its creator)"), 2);
    start_game(w, "#t", 3, "");
    say(w, "bob", "#t", "!stop");
    say(w, "cat", "#t", "!stop");
    assert_true(event_at(w, "game #3 (t #t) stopped by the players' vote") > 0);
    say(w, "ann", "#t", "!new 3");
    say(w, "ann", "#t", "!leave");
    assert_true(event_at(w, "game #4 (t #t) abandoned: ann left and nobody is seated") > 0);
    free_world(w);
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
    assert_int_equal(store_stats_top(w->st, NET, "#t", STORE_EVERYONE, top, 3, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(top[0].wins, 1);
    assert_string_equal(top[0].player, NICKS[pz_get_winner(g)]);
    free(scenario);
    pz_free(g);
    store_game_fini(&row);
    free_world(w);
}

/* Runs sql on the world's database file through a second connection. */
static void world_sql(world *w, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(w->path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* The seal ("pack sealed X") of room line i of w, into seal[13]; false if none. */
static bool seal_of(const world *w, int i, char seal[13])
{
    const char *p = strstr(w->msg[i].text, "pack sealed ");
    if (w->msg[i].kind != STORE_MSG_ROOM || p == NULL)
        return false;
    snprintf(seal, 13, "%s", p + strlen("pack sealed "));
    return strspn(seal, "0123456789abcdef") == 12;
}

static void test_sealed_deals_show_each_seal_first_and_reveal_seeds_only_at_the_end(void **state)
{
    (void)state;
    world *w = new_world_seeded(0, 0, false);
    start_game(w, "#t", 2, ""); /* to 61: several hands, each with its seal */
    char seal[13], *json, why[200];
    int first = -1;
    for (int i = 0; i < w->n && first < 0; i++)
        if (seal_of(w, i, seal))
            first = i;
    assert_true(first >= 0);
    assert_non_null(strstr(w->msg[first].text, "New hand: deal 1 of"));
    for (int i = 0; i < first; i++) /* no card before it: no hand sent yet */
        assert_null(strstr(w->msg[i].text, "Your hand"));
    /* Under way: the commitment whose start the room read, nothing else. */
    assert_int_equal(host_export(w->st, 1, &json, why, sizeof why), 0);
    char want[64];
    snprintf(want, sizeof want, "\"commit\": \"%s", seal);
    assert_non_null(strstr(json, want));
    assert_non_null(strstr(json, "\"revealed\": false"));
    assert_null(strstr(json, "\"seed\""));
    assert_null(strstr(json, "\"salt\""));
    assert_null(strstr(json, "\"deck\""));
    FILE *null = fopen("/dev/null", "w");
    assert_int_equal(pzr_verify(json, strlen(json), null, null), PZR_VERIFY_MISMATCH);
    free(json);
    int seals = 1, steps = 0;
    clear(w);
    while (play_one(w, "#t")) {
        assert_true(++steps < 5000);
        for (int i = 0; i < w->n; i++)
            seals += seal_of(w, i, seal);
        clear(w);
    }
    /* Over: seeds, salt and packs, a hand per seal the room read; all checks pass. */
    assert_int_equal(host_export(w->st, 1, &json, why, sizeof why), 0);
    assert_non_null(strstr(json, "\"revealed\": true"));
    assert_non_null(strstr(json, "\"salt\": \""));
    char hands[32];
    snprintf(hands, sizeof hands, "{\"hand\": %d, ", seals);
    assert_non_null(strstr(json, hands));
    snprintf(hands, sizeof hands, "{\"hand\": %d, ", seals + 1);
    assert_null(strstr(json, hands));
    assert_int_equal(pzr_verify(json, strlen(json), null, null), PZR_VERIFY_OK);
    fclose(null);
    free(json);
    free_world(w);
}

static void test_a_stopped_sealed_game_reveals_its_seeds_and_verifies(void **state)
{
    (void)state;
    world *w = new_world_seeded(0, 0, false);
    start_game(w, "#t", 2, "");
    for (int i = 0; i < 5; i++)
        assert_true(play_one(w, "#t"));
    char *json, why[200];
    assert_int_equal(host_export(w->st, 1, &json, why, sizeof why), 0);
    assert_null(strstr(json, "\"salt\""));
    free(json);
    say(w, "ann", "#t", "!stop");
    say(w, "bob", "#t", "!stop");
    assert_null(game_of(w, "#t"));
    assert_int_equal(host_export(w->st, 1, &json, why, sizeof why), 0);
    assert_non_null(strstr(json, "\"revealed\": true"));
    assert_non_null(strstr(json, "\"salt\": \""));
    FILE *null = fopen("/dev/null", "w");
    assert_int_equal(pzr_verify(json, strlen(json), null, null), PZR_VERIFY_OK);
    fclose(null);
    free(json);
    free_world(w);
}

static void test_a_game_from_before_fair_deals_deals_on_and_exports_as_before(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 3, "target=21");
    world_sql(w, "DELETE FROM hand_seeds; DELETE FROM fair;"); /* as schema 5 left it */
    int steps = 0, seals = 0;
    clear(w);
    while (play_one(w, "#t")) {
        assert_true(++steps < 5000);
        for (int i = 0; i < w->n; i++)
            seals += strstr(w->msg[i].text, "pack sealed") != NULL;
        clear(w);
    }
    assert_int_equal(seals, 0);
    char *json, why[200], last[4096];
    assert_int_equal(host_export(w->st, 1, &json, why, sizeof why), 0);
    assert_non_null(strstr(json, "\"seed\": 4242,"));
    assert_null(strstr(json, "fairness"));
    assert_null(strstr(json, "\"deck\""));
    assert_non_null(strstr(json, "{\"next_hand\":true}"));
    replay_last_line(json, last, sizeof last);
    assert_non_null(strstr(last, "\"phase\":\"game_over\""));
    free(json);
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
    host_msg m = {NET, "#t", "cat", "cat", "!frobnicate", 11, NULL, false, false, NULL, false};
    for (int i = 0; i < 20; i++)
        assert_int_equal(host_handle(w->h, &m, w->now), 0);
    int n = 0;
    assert_int_equal(store_outbox_target_count(w->st, NET, "#t", 100, &n), 0);
    assert_int_equal(n, 4);
    /* Game announcements are never held back. */
    host_msg open = {NET, "#t", "ann", "ann", "!new 2", 6, NULL, false, false, NULL, false};
    host_msg join = {NET, "#t", "bob", "bob", "!join", 5, NULL, false, false, NULL, false};
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

/* The game of room as the store has it (its id and status). */
static store_game row_of(world *w, int64_t id)
{
    store_game g;
    assert_int_equal(store_game_get(w->st, id, &g), 0);
    store_game_fini(&g);
    return g;
}

static void test_an_owner_lists_the_active_games_privately(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    reopen_host(w, (host_config){.is_owner = only_root});
    start_game(w, "#t", 2, "");
    say(w, "cat", "#u", "!new 3");
    host_msg other = {"other", "#x", "dan", "dan", "!new 2", 6, NULL, false, false, NULL, false};
    assert_int_equal(host_handle(w->h, &other, w->now), 0);
    pz_game *g = game_of(w, "#t");
    char want[200];
    snprintf(want, sizeof want, "#1 t #t, under way: ann, bob; %s to play", NICKS[pz_get_turn(g)]);
    pz_free(g);
    clear(w);
    say(w, "cat", NULL, "games"); /* not an owner: cat's own games */
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "cat", "#2 #u: open table, 1 of 3 seated"), 1);
    say(w, "eve", NULL, "games");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "eve", "you sit in no game on t"), 1);
    say(w, "ann", NULL, "games");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "#1 #t: "), 1);
    clear(w);
    say(w, "root", "#t", "!games");
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, NULL), 0);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", want), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "#2 t #u, open table: cat"), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "other"), 0);
    clear(w);
    say(w, "root", NULL, "games all");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "#3 other #x, open table: dan"), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", want), 1);
    free_world(w);
}

static void test_an_owner_exports_a_record_to_a_file_only_the_bot_reads(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    reopen_host(w, (host_config){.is_owner = only_root, .export_dir = w->dir});
    start_game(w, "#t", 2, "");
    play_one(w, "#t");
    clear(w);
    say(w, "bob", NULL, "export 1");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "bob", "only the bot's owners"), 1);
    clear(w);
    say(w, "root", "#t", "!export #1");
    char path[200], want[300];
    snprintf(path, sizeof path, "%s/porrazo-game-1.json", w->dir);
    snprintf(want, sizeof want, "is in %s, readable by the bot's user only", path);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", want), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, NULL), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    char *json, why[200];
    assert_int_equal(host_export(w->st, 1, &json, why, sizeof why), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *got = calloc(1, strlen(json) + 2);
    assert_int_equal(fread(got, 1, strlen(json) + 1, f), strlen(json));
    fclose(f);
    assert_string_equal(got, json);
    free(got);
    clear(w);
    say(w, "root", NULL, "export 99");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "no record of game #99"), 1);

    /* Without a folder: the record in private lines. */
    reopen_host(w, (host_config){.is_owner = only_root});
    clear(w);
    say(w, "root", NULL, "export 1");
    assert_true(w->n >= 1);
    size_t len = 0;
    for (int i = 0; i < w->n; i++) {
        assert_int_equal(w->msg[i].kind, STORE_MSG_PRIVATE);
        assert_string_equal(w->msg[i].target, "root");
        assert_true(strlen(w->msg[i].text) <= 400);
        len += strlen(w->msg[i].text);
    }
    assert_true(w->msg[0].text[0] == '{');
    assert_true(len > strlen(json) / 2 && len <= strlen(json));
    free(json);
    free_world(w);
}

static void test_an_owner_stops_any_game_by_its_number(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    reopen_host(w, (host_config){.is_owner = only_root});
    start_game(w, "#t", 2, "");
    clear(w);
    say(w, "bob", NULL, "fstop 1");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "bob", "only the bot's owners"), 1);
    assert_int_equal(row_of(w, 1).status, STORE_PLAYING);
    say(w, "root", NULL, "fstop 1");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "The game is abandoned (stopped by an owner)"),
                     1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "game #1 in t #t is stopped"), 1);
    assert_int_equal(row_of(w, 1).status, STORE_STOPPED);
    clear(w);
    say(w, "root", NULL, "fstop 1");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "game #1 in #t is over already"), 1);
    say(w, "root", NULL, "fstop 42");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "there is no game #42"), 1);
    free_world(w);
}

/* The rooms a fake adapter was asked to leave (host_config.leave_room):
   it knows #t and #u only. */
static struct {
    int n;
    char room[4][32], by[4][32];
} left;

/* Owners: root on IRC's terms, @root:x on Matrix's. */
static bool roots(void *arg, const char *network, const char *player)
{
    return only_root(arg, network, player) || strcmp(player, "@root:x") == 0;
}

static int fake_leave(void *arg, const char *network, const char *room, const char *by)
{
    (void)arg;
    assert_string_equal(network, NET);
    if (strcmp(room, "#t") != 0 && strcmp(room, "#u") != 0)
        return -1;
    assert_true(left.n < 4);
    snprintf(left.room[left.n], sizeof left.room[0], "%s", room);
    snprintf(left.by[left.n++], sizeof left.by[0], "%s", by);
    return 0;
}

static void test_an_owner_makes_the_bot_leave_a_room_and_others_cannot(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    memset(&left, 0, sizeof left);
    reopen_host(w, (host_config){.is_owner = roots, .leave_room = fake_leave});
    say(w, "cat", "#t", "!part"); /* not an owner: told, nothing left */
    assert_int_equal(
        count(w, STORE_MSG_ROOM, "#t", "cat: Only an operator of the bot can make it leave"), 1);
    say(w, "cat", NULL, "part #t");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "cat", "Only an operator of the bot"), 1);
    assert_int_equal(left.n, 0);
    clear(w);
    say(w, "root", NULL, "part"); /* privately, the room must be named */
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "Say which channel: part #channel"), 1);
    say(w, "root", NULL, "part #nowhere"); /* a room the adapter does not know */
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "Say which channel"), 2);
    assert_int_equal(left.n, 0);
    say(w, "root", "#t", "!part"); /* in a room: that room */
    say(w, "root", NULL, "part #u");
    assert_int_equal(left.n, 2);
    assert_string_equal(left.room[0], "#t");
    assert_string_equal(left.room[1], "#u");
    assert_string_equal(left.by[0], "root");
    /* a Matrix event delivered twice acts once, in Matrix's words */
    say_once(w, "@root:x", "!r:x", "!part", "$e1");
    say_once(w, "@root:x", "!r:x", "!part", "$e1");
    assert_int_equal(count(w, STORE_MSG_ROOM, "!r:x", "Say which room: part !room:server"), 1);
    say_once(w, "@cat:x", "!r:x", "!part", "$e2");
    assert_int_equal(count(w, STORE_MSG_ROOM, "!r:x", "Only an operator"), 1);
    for (int i = 0; i < w->n; i++) /* Matrix's answers are not addressed */
        if (strcmp(w->msg[i].target, "!r:x") == 0)
            assert_true(w->msg[i].text[0] != '@');
    free_world(w);
}

static void test_an_owner_takes_a_player_out_of_a_lobby_or_stops_the_game(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    reopen_host(w, (host_config){.is_owner = only_root});
    say(w, "ann", "#t", "!new 3");
    say(w, "bob", "#t", "!join");
    clear(w);
    say(w, "cat", "#t", "!fleave bob");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "only the bot's owners"), 1);
    say(w, "root", "#t", "!fleave bob");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "bob leaves the table (1 seated)"), 1);
    say(w, "root", "#t", "!fleave zed");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "nobody called zed"), 1);
    start_game(w, "#u", 2, "");
    clear(w);
    say(w, "root", NULL, "fleave bob");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "which room?"), 1);
    say(w, "root", NULL, "fleave bob #u");
    assert_int_equal(
        count(w, STORE_MSG_ROOM, "#u", "The game is abandoned (an owner took bob out)"), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "was under way"), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "root", "it is stopped"), 1);
    assert_null(game_of(w, "#u"));
    free_world(w);
}

static void test_an_owner_skips_a_turn_with_the_default_move(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    reopen_host(w, (host_config){.is_owner = only_root});
    say(w, "ann", "#t", "!new 2");
    clear(w);
    say(w, "root", "#t", "!skip");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "not dealt yet"), 1);
    say(w, "bob", "#t", "!join");
    int before = 0, after = 0;
    assert_int_equal(store_action_count(w->st, 1, &before), 0);
    clear(w);
    say(w, "bob", "#t", "!skip");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "only the bot's owners"), 1);
    pz_game *g = game_of(w, "#t");
    char want[100];
    snprintf(want, sizeof want, "root skips %s's turn, porrazo plays for them",
             NICKS[pz_get_turn(g)]);
    pz_free(g);
    say(w, "root", "#t", "!skip");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", want), 1);
    assert_int_equal(store_action_count(w->st, 1, &after), 0);
    assert_int_equal(after, before + 1);
    clear(w);
    say(w, "root", NULL, "skip #t");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "root skips "), 1);
    free_world(w);
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
    host_msg m = {NET, "#t", actor, actor, "!tendido now", 12, NULL, false, false, NULL, false};
    assert_int_equal(host_handle(w->h, &m, w->now), -1);
    assert_non_null(strstr(host_errmsg(w->h), "locked"));
    char text[2000];
    take_volatile(text, sizeof text);
    assert_non_null(strstr(text, "can't save right now: your command was not taken"));
    assert_int_equal(host_handle(w->h, &m, w->now + 1), -1); /* told once a minute */
    take_volatile(text, sizeof text);
    assert_string_equal(text, "");
    /* once a minute per player, not once for the whole bot */
    host_msg cats = {NET, "#t", "cat", "cat", "!pause", 6, NULL, false, false, NULL, false};
    assert_int_equal(host_handle(w->h, &cats, w->now + 1), -1);
    take_volatile(text, sizeof text);
    assert_non_null(strstr(text, "cat: I can't save right now: your command was not taken"));
    assert_int_equal(host_handle(w->h, &cats, w->now + 2), -1);
    take_volatile(text, sizeof text);
    assert_string_equal(text, "");
    /* A command that only reads is answered even while the lock is held. */
    host_msg turn = {NET, "#t", "bob", "bob", "!turn", 5, NULL, false, false, NULL, false};
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
    host_msg join = {NET, "#t", "bob", "bob", "!join", 5, NULL, false, false, NULL, false};
    assert_int_equal(host_handle(w->h, &join, w->now), 0);
    int rows = 0;
    assert_int_equal(store_outbox_count(w->st, NET, &rows), 0);
    assert_true(rows > 0);
    host_msg hand = {NET, NULL, "ann", "ann", "hand", 4, NULL, false, false, NULL, false};
    host_msg bad = {NET, "#t", "bob", "bob", "!frobnicate", 11, NULL, false, false, NULL, false};
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
    assert_int_equal(store_set_max_bytes(w->st, (int64_t)(page + 4) * STORE_PAGE_BYTES), 0);
    char room[16], text[4000];
    int refused = -1;
    for (int i = 0; i < 200 && refused < 0; i++) {
        snprintf(room, sizeof room, "#f%d", i);
        host_msg m = {NET, room, "ann", "ann", "!new 2", 6, NULL, false, false, NULL, false};
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

/* ------------------------------------------------------------------------ */
/* Players' words                                                           */

/* Replaces w's host by one dealing from seed (prefix, name filled in). */
static void reseed(world *w, uint64_t seed)
{
    char why[256];
    host_config c = {.prefix = "!",
                     .bot_name = "porrazo",
                     .max_games = 100000,
                     .fixed_seed = true,
                     .seed = seed};
    host_free(w->h);
    assert_int_equal(host_new(&w->h, w->st, &c, why, sizeof why), 0);
}

/* The first message to target (room or player) containing s, or NULL. */
static const char *find_text(const world *w, const char *target, const char *s)
{
    for (int i = 0; i < w->n; i++)
        if (strcmp(w->msg[i].target, target) == 0 && strstr(w->msg[i].text, s) != NULL)
            return w->msg[i].text;
    return NULL;
}

/* Fails when a drained message shows a seat number, a rule ID or an
   engine direction. */
static void expect_players_words(const world *w)
{
    for (int i = 0; i < w->n; i++) {
        const char *t = w->msg[i].text;
        if (strstr(t, "seat ") != NULL || strstr(t, "ltr") != NULL || strstr(t, "rtl") != NULL)
            fail_msg("a player read \"%s\"", t);
        for (const char *p = t; *p != '\0'; p++)
            if (p[0] == 'R' && p[1] >= '0' && p[1] <= '9')
                fail_msg("a player read a rule ID in \"%s\"", t);
    }
}

/*
 * Opens a 2-player game in room dealt from seed and lets its dealer lay
 * the tendido now: the game waits for the arrangement. Returns the game
 * (caller frees) with the tendido in t.
 */
static pz_game *at_arrangement(world *w, const char *room, uint64_t seed, pz_card t[4])
{
    char cmdline[64];
    reseed(w, seed);
    start_game(w, room, 2, "");
    pz_game *g = game_of(w, room);
    snprintf(cmdline, sizeof cmdline, "tendido now %s", room);
    say(w, NICKS[pz_get_dealer(g)], NULL, cmdline);
    pz_free(g);
    g = game_of(w, room);
    assert_int_equal(pz_get_phase(g), PZ_PHASE_ARRANGE);
    assert_int_equal(pz_get_tendido(g, t), 4);
    return g;
}

/* The word a player types for the rank of c ("10", "k", "a"). */
static const char *rank_typed(pz_card c)
{
    static const char *const words[PZ_RANKS] = {"a", "2", "3",  "4", "5", "6", "7",
                                                "8", "9", "10", "j", "q", "k"};
    return words[pz_card_rank(c)];
}

static void test_an_arrangement_by_bare_ranks_is_matched_to_the_tendido(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    bool distinct_done = false, twice_done = false;
    char room[16], line[80];
    for (uint64_t seed = 1; seed < 400 && !(distinct_done && twice_done); seed++) {
        pz_card t[4];
        snprintf(room, sizeof room, "#r%d", (int)seed);
        pz_game *g = at_arrangement(w, room, seed, t);
        int dealer = pz_get_dealer(g), same = 0;
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++)
                same += pz_card_rank(t[i]) == pz_card_rank(t[j]);
        pz_free(g);
        if (same == 0 && !distinct_done) {
            /* the second pair on the left, reversed, counted from the right */
            snprintf(line, sizeof line, "!arrange %s %s %s %s right", rank_typed(t[3]),
                     rank_typed(t[2]), rank_typed(t[0]), rank_typed(t[1]));
            clear(w);
            say(w, NICKS[dealer], room, line);
            g = game_of(w, room);
            pz_card table[PZ_CARDS];
            int n = pz_get_table(g, table);
            assert_true(pz_get_phase(g) != PZ_PHASE_ARRANGE);
            assert_true(n >= 4);
            assert_int_equal(table[n - 4], t[3]);
            assert_int_equal(table[n - 3], t[2]);
            assert_int_equal(table[n - 2], t[0]);
            assert_int_equal(table[n - 1], t[1]);
            pz_free(g);
            distinct_done = true;
        } else if (same > 0 && !twice_done) {
            int a = 0, b = 1; /* two cards of one rank */
            for (int i = 0; i < 4; i++)
                for (int j = i + 1; j < 4; j++)
                    if (pz_card_rank(t[i]) == pz_card_rank(t[j]))
                        a = i, b = j;
            (void)b;
            snprintf(line, sizeof line, "!arrange %s %s %s %s", rank_typed(t[0]), rank_typed(t[1]),
                     rank_typed(t[2]), rank_typed(t[3]));
            clear(w);
            say(w, NICKS[dealer], room, line);
            char want[64];
            snprintf(want, sizeof want, "%s: the tendido has ", NICKS[dealer]);
            assert_non_null(find_text(w, room, want));
            assert_non_null(find_text(w, room, "goes where, e.g. !arrange "));
            expect_players_words(w);
            g = game_of(w, room);
            assert_int_equal(pz_get_phase(g), PZ_PHASE_ARRANGE); /* nothing done */
            pz_free(g);
            (void)a;
            twice_done = true;
        }
    }
    assert_true(distinct_done);
    assert_true(twice_done);
    free_world(w);
}

static void test_a_rank_missing_from_the_tendido_is_named_with_its_pairs(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    pz_card t[4];
    pz_game *g = at_arrangement(w, "#t", 4242, t);
    int dealer = pz_get_dealer(g), missing = 0;
    for (int r = 0; r < PZ_RANKS; r++) {
        bool in = false;
        for (int i = 0; i < 4; i++)
            in |= pz_card_rank(t[i]) == r;
        if (!in) {
            missing = r;
            break;
        }
    }
    pz_free(g);
    char line[80];
    snprintf(line, sizeof line, "!arrange %s %s %s %s left", rank_typed(pz_card_make(missing, 0)),
             rank_typed(t[1]), rank_typed(t[2]), rank_typed(t[3]));
    clear(w);
    say(w, NICKS[dealer], "#t", line);
    assert_non_null(find_text(w, "#t", "the tendido has no "));
    assert_non_null(find_text(w, "#t", "its pairs are "));
    clear(w); /* a wrong row of whole cards: the engine's refusal in words */
    char a[4], b[4], c[4], d[4];
    pz_card_format(t[0], a);
    pz_card_format(t[2], b);
    pz_card_format(t[1], c);
    pz_card_format(t[3], d);
    snprintf(line, sizeof line, "!arrange %s %s %s %s", a, b, c, d);
    say(w, NICKS[dealer], "#t", line);
    assert_non_null(find_text(w, "#t", "lay one pair of the tendido on the left"));
    assert_non_null(find_text(w, "#t", "!arrange best"));
    expect_players_words(w);
    free_world(w);
}

static void test_as_plays_the_ace_of_spades_or_in_spanish_the_only_ace(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    bool spades_done = false, spanish_done = false;
    char room[16];
    for (uint64_t seed = 1; seed < 600 && !(spades_done && spanish_done); seed++) {
        snprintf(room, sizeof room, "#s%d", (int)seed);
        reseed(w, seed);
        start_game(w, room, 2, "");
        pz_game *g = game_of(w, room);
        char text[64];
        snprintf(text, sizeof text, "tendido later %s", room);
        say(w, NICKS[pz_get_dealer(g)], NULL, text);
        pz_free(g);
        g = game_of(w, room);
        int actor = pz_get_turn(g), aces = 0;
        pz_card hand[PZ_CARDS], ace = PZ_NO_CARD;
        int n = pz_get_hand(g, actor, hand);
        bool spades = false;
        for (int i = 0; i < n; i++)
            if (pz_card_rank(hand[i]) == 0) {
                aces++;
                ace = hand[i];
                spades |= pz_card_suit(hand[i]) == 3;
            }
        pz_free(g);
        bool want_spades = spades && aces == 2 && !spades_done;
        bool want_spanish = !spades && aces == 1 && !spanish_done;
        if (!want_spades && !want_spanish)
            continue;
        clear(w);
        snprintf(text, sizeof text, "%s %s", want_spades ? "play As" : "jugar as", room);
        say(w, NICKS[actor], NULL, text);
        g = game_of(w, room);
        n = pz_get_hand(g, actor, hand);
        for (int i = 0; i < n; i++) /* the card meant is gone from the hand */
            assert_true(hand[i] != (want_spades ? pz_card_make(0, 3) : ace));
        pz_free(g);
        spades_done |= want_spades;
        spanish_done |= want_spanish;
    }
    assert_true(spades_done);
    assert_true(spanish_done);
    free_world(w);
}

static void test_a_move_without_the_prefix_gets_one_hint_in_a_while(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    say(w, "ann", "#u", "!new 2");
    pz_game *g = game_of(w, "#t");
    const char *actor = NICKS[pz_get_turn(g)];
    char *before = malloc(PZ_SAVE_MAX);
    assert_true(pz_save(g, before, PZ_SAVE_MAX) > 0);
    pz_free(g);
    clear(w);
    say(w, "bob", "#t", "play 4");
    assert_int_equal(
        count(w, STORE_MSG_ROOM, "#t", "bob: commands start with ! here — say !play 4"), 1);
    assert_int_equal(w->n, 1);
    clear(w);
    say(w, "bob", "#t", "play 4"); /* again at once: nothing */
    say(w, "bob", "#t", "tendido   now");
    assert_int_equal(w->n, 0);
    say(w, "ann", "#t", "tendido now"); /* another player: their own hint */
    assert_int_equal(
        count(w, STORE_MSG_ROOM, "#t", "ann: commands start with ! here — say !tendido now"), 1);
    clear(w);
    static const char *const chat[] = {"hello", "7h",  "k",     "play with me",
                                       "as",    "p 4", "score", "i play 4"};
    for (size_t i = 0; i < sizeof chat / sizeof chat[0]; i++)
        say(w, actor, "#t", chat[i]); /* conversation is never answered */
    say(w, "zed", "#t", "play 4");    /* not a player */
    say(w, "ann", "#u", "play 4");    /* a table that has not started */
    say(w, "ann", "#none", "play 4"); /* no game */
    assert_int_equal(w->n, 0);
    g = game_of(w, "#t");
    char *after = malloc(PZ_SAVE_MAX);
    assert_true(pz_save(g, after, PZ_SAVE_MAX) > 0);
    assert_string_equal(before, after); /* a hint plays nothing */
    pz_free(g);
    w->now += 299;
    say(w, "bob", "#t", "play 4"); /* not yet five minutes */
    assert_int_equal(w->n, 0);
    w->now += 1;
    say(w, "bob", "#t", "play 4"); /* five minutes later: told again */
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "bob: commands start with !"), 1);
    free(before);
    free(after);
    free_world(w);
}

static void test_a_player_in_two_games_is_shown_their_command_with_a_room(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#a", 2, "");
    start_game(w, "#b", 2, "");
    clear(w);
    say(w, "ann", NULL, "play 7");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "you play in #a and #b: say play 7 #a"), 1);
    start_game(w, "#c", 2, "");
    clear(w);
    say(w, "ann", NULL, "  tendido   now ");
    assert_int_equal(
        count(w, STORE_MSG_PRIVATE, "ann", "you play in #a, #b and #c: say tendido now #a"), 1);
    clear(w); /* an answer about a room named privately names it */
    say(w, "ann", NULL, "table #b");
    say(w, "ann", NULL, "turn #c");
    assert_int_equal(w->n, 2);
    assert_int_equal(strncmp(w->msg[0].text, "#b: ", 4), 0);
    assert_int_equal(strncmp(w->msg[1].text, "#c: ", 4), 0);
    free_world(w);
}

static void test_top_and_stats_count_every_point_of_the_side(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "to 21");
    int steps = 0;
    while (play_one(w, "#t"))
        assert_true(++steps < 5000);
    store_game row;
    store_stats top[2];
    int n = 0;
    assert_int_equal(store_stats_top(w->st, NET, "#t", STORE_EVERYONE, top, 2, &n), 0);
    assert_int_equal(n, 2);
    /* The last game of the room, finished: its final scores. */
    sqlite3 *raw;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(w->path, &raw), SQLITE_OK);
    assert_int_equal(
        sqlite3_prepare_v2(raw, "SELECT id FROM games ORDER BY id DESC LIMIT 1", -1, &st, NULL),
        SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(raw);
    assert_int_equal(store_game_get(w->st, id, &row), 0);
    pz_game *g;
    assert_int_equal(pz_restore(&g, row.state, strlen(row.state), NULL, 0), 0);
    for (int i = 0; i < n; i++) {
        int seat = strcmp(top[i].player, NICKS[0]) == 0 ? 0 : 1;
        assert_int_equal(top[i].points, pz_get_score(g, pz_side_of(g, seat)));
        assert_int_equal(top[i].games, 1);
    }
    clear(w);
    say(w, "ann", "#t", "!top");
    char want[200];
    snprintf(want, sizeof want, "1. %s (1 win, %d point%s)", top[0].nick, top[0].points,
             top[0].points == 1 ? "" : "s");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", want), 1);
    clear(w);
    say(w, "ann", "#t", "!stats");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "ann in #t: 1 game, "), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "1 games"), 0);
    pz_free(g);
    store_game_fini(&row);
    free_world(w);
}

/* The points both sides have in room's game under way. */
static int points_so_far(world *w, const char *room)
{
    pz_game *g = game_of(w, room);
    assert_non_null(g);
    int sum = 0;
    for (int side = 0; side < pz_get_sides(g); side++)
        sum += pz_get_score(g, side);
    pz_free(g);
    return sum;
}

/* Plays room's game until somebody has scored. */
static void play_until_points(world *w, const char *room)
{
    int steps = 0;
    while (points_so_far(w, room) == 0) {
        assert_true(play_one(w, room));
        assert_true(++steps < 500);
    }
}

static void test_stats_and_top_count_finished_games_only(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    /* #t: a game that scored and was stopped counts nothing, then one won. */
    start_game(w, "#t", 2, "to 121");
    play_until_points(w, "#t");
    say(w, "ann", "#t", "!stop");
    assert_null(game_of(w, "#t"));
    clear(w);
    say(w, "ann", "#t", "!top");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "no finished games in #t yet"), 1);
    start_game(w, "#t", 2, "to 11");
    int steps = 0;
    while (play_one(w, "#t"))
        assert_true(++steps < 5000);
    store_game row;
    assert_int_equal(store_game_get(w->st, 2, &row), 0);
    assert_int_equal(row.status, STORE_FINISHED);
    pz_game *g;
    assert_int_equal(pz_restore(&g, row.state, strlen(row.state), NULL, 0), 0);
    store_game_fini(&row);
    store_stats s[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(store_stats_get(w->st, NET, "#t", NICKS[i], &s[i]), 0);
        assert_int_equal(s[i].games, 1);
        assert_int_equal(s[i].points, pz_get_score(g, pz_side_of(g, i))); /* this game's only */
    }
    /* #u: a game under way that has scored counts nowhere yet (the same
       players play privately in one game at a time here). */
    start_game(w, "#u", 2, "to 121");
    play_until_points(w, "#u");
    clear(w);
    say(w, "ann", "#u", "!top");
    say(w, "ann", "#u", "!stats");
    say(w, "bob", "#u", "!stats");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#u", "no finished games in #u yet"), 3);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#u", "Top"), 0);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#u", "ann has no finished games in #u yet"), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#u", "bob has no finished games in #u yet"), 1);
    /* Over the network: the same, #u's game under way adds nothing. */
    store_stats all;
    assert_int_equal(store_stats_get(w->st, NET, NULL, NICKS[0], &all), 0);
    assert_int_equal(all.points, s[0].points);
    store_stats top[4];
    int n = 0;
    assert_int_equal(store_stats_top(w->st, NET, NULL, STORE_EVERYONE, top, 4, &n), 0);
    assert_int_equal(n, 2);
    for (int i = 0; i < n; i++)
        assert_int_equal(top[i].points, s[strcmp(top[i].player, NICKS[0]) == 0 ? 0 : 1].points);
    clear(w);
    say(w, "ann", "#t", "!stats");
    char want[120];
    snprintf(want, sizeof want, "ann in #t: 1 game, %d win%s, %d point%s", s[0].wins,
             s[0].wins == 1 ? "" : "s", s[0].points, s[0].points == 1 ? "" : "s");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", want), 1);
    assert_int_equal(store_game_get(w->st, 1, &row), 0);
    assert_int_equal(row.status, STORE_STOPPED);
    store_game_fini(&row);
    pz_free(g);
    free_world(w);
}

/* The seat to act in room's game: the turn, or the dealer choosing. */
static int actor_in(world *w, const char *room)
{
    pz_game *g = game_of(w, room);
    assert_non_null(g);
    int seat = pz_get_turn(g);
    pz_free(g);
    return seat;
}

static void test_moves_lists_each_legal_move_privately_with_what_it_does(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "");
    pz_game *g = game_of(w, "#t");
    int actor = actor_in(w, "#t"), other = 1 - actor;
    bool choosing = pz_get_phase(g) == PZ_PHASE_TENDIDO_CHOICE;
    pz_free(g);
    clear(w);
    say(w, NICKS[other], "#t", "!moves"); /* not their turn: who is to act */
    char want[120];
    snprintf(want, sizeof want, "nothing for you to do now: it is %s's turn", NICKS[actor]);
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, want) + count(w, STORE_MSG_PRIVATE, NULL, want),
                     1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NULL, "Your moves"), 0);
    clear(w);
    say(w, "cat", "#t", "!moves");
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, "you are not playing in this game") +
                         count(w, STORE_MSG_PRIVATE, NULL, "you are not playing in this game"),
                     1);
    if (choosing) { /* the dealer's choice first: both ways, nothing of the tendido's cards */
        clear(w);
        say(w, NICKS[actor], "#t", "!moves");
        assert_int_equal(w->n, 1);
        assert_int_equal(w->msg[0].kind, STORE_MSG_PRIVATE);
        assert_string_equal(w->msg[0].target, NICKS[actor]);
        assert_string_equal(w->msg[0].text, "Your moves in #t: tendido now \xC2\xB7 tendido later");
    }
    /* In play: every card of the hand once, with what it would do. */
    int steps = 0;
    for (;;) {
        g = game_of(w, "#t");
        pz_phase phase = pz_get_phase(g);
        pz_free(g);
        if (phase == PZ_PHASE_PLAY)
            break;
        assert_true(play_one(w, "#t"));
        assert_true(++steps < 10);
    }
    actor = actor_in(w, "#t");
    g = game_of(w, "#t");
    pz_card hand[PZ_CARDS];
    int n = pz_get_hand(g, actor, hand);
    clear(w);
    say(w, NICKS[actor], NULL, "moves");
    assert_true(w->n >= 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NICKS[actor], "Your moves in #t: "), w->n);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NICKS[actor], "claim"), 0);
    for (int i = 0; i < n; i++) {
        char card[8], lays[24], takes[24];
        render_card(hand[i], card);
        snprintf(lays, sizeof lays, "%s lays", card);
        snprintf(takes, sizeof takes, "%s takes ", card);
        assert_true(count(w, STORE_MSG_PRIVATE, NICKS[actor], card) >= 1);
        /* a card the table cannot match is laid; one it can is said to take */
        pz_action a = pz_act_play(actor, hand[i], PZ_MODE_ANY);
        pz_game *copy = pz_clone(g);
        pz_events ev = {0};
        if (pz_apply(copy, &a, &ev, NULL, 0) == 0 && ev.n >= 1 && ev.ev[0].mode == PZ_MODE_LAY)
            assert_int_equal(count(w, STORE_MSG_PRIVATE, NICKS[actor], lays), 1);
        else if (ev.n >= 2 && ev.ev[1].kind == PZ_EV_CAPTURE)
            assert_int_equal(count(w, STORE_MSG_PRIVATE, NICKS[actor], takes), 1);
        pz_free(copy);
    }
    pz_free(g);
    /* The short words: m is moves; p, h and t were play, hand and table. */
    clear(w);
    say(w, NICKS[actor], "#t", "!m");
    assert_true(count(w, STORE_MSG_PRIVATE, NICKS[actor], "Your moves in #t: ") >= 1);
    free_world(w);
}

/* As say(), from a network whose private lines may wait for an invitation
   to be accepted (Matrix). */
static void say_waiting(world *w, const char *nick, const char *room, const char *text)
{
    host_msg m = {NET, room, nick, nick, text, strlen(text), NULL, false, false, NULL, true};
    assert_int_equal(host_handle(w->h, &m, w->now), 0);
    drain(w);
}

static void test_help_in_a_room_says_the_short_part_there_where_private_lines_wait(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    /* Where private lines arrive at once (IRC): all of it privately. */
    say(w, "ann", "#t", "!help");
    int n = w->n;
    assert_true(n > 3);
    assert_int_equal(count(w, STORE_MSG_ROOM, NULL, NULL), 0);
    /* Where they wait: the first line in the room, saying where the rest went. */
    clear(w);
    say_waiting(w, "ann", "#t", "!help");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", NULL), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "Lobby: !new"), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "\xE2\x80\x94 the rest in our direct room"), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", NULL), n - 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "Lobby: "), 0);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "Play: "), 1);
    /* One command's help is short: all of it in the room. */
    clear(w);
    say_waiting(w, "ann", "#t", "!help moves");
    assert_true(count(w, STORE_MSG_ROOM, "#t", "moves") >= 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, NULL, NULL), 0);
    /* Asked privately: privately. */
    clear(w);
    say_waiting(w, "ann", NULL, "help");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", NULL), n);
    free_world(w);
}

static void test_partners_both_count_their_sides_points(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 4, "partners to 11");
    int steps = 0;
    while (play_one(w, "#t"))
        assert_true(++steps < 5000);
    store_stats s[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(store_stats_get(w->st, NET, "#t", NICKS[i], &s[i]), 0);
    assert_int_equal(s[0].points, s[2].points); /* partners sit opposite */
    assert_int_equal(s[1].points, s[3].points);
    assert_true(s[0].points + s[1].points > 0);
    assert_true(s[0].wins == s[2].wins && s[1].wins == s[3].wins && s[0].wins != s[1].wins);
    free_world(w);
}

static void test_rules_in_a_room_with_a_game_say_its_target(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "to treinta y uno manual");
    clear(w);
    say(w, "cat", "#t", "!rules");
    assert_true(count(w, STORE_MSG_PRIVATE, "cat", "the first side to reach 31 points wins") == 1);
    assert_true(count(w, STORE_MSG_PRIVATE, "cat", "This game: first to 31") == 1);
    assert_true(count(w, STORE_MSG_PRIVATE, "cat", "manual") >= 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "cat", "61"), 0);
    expect_players_words(w);
    clear(w);
    say(w, "cat", NULL, "rules end #t");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "cat", "reach 31 points"), 1);
    clear(w);
    say(w, "cat", "#other", "!rules");
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "cat", "reach 61 points"), 1);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "cat", "This game"), 0);
    free_world(w);
}

/* Moves every unsent message into w->msg in the order an adapter sends
   them (drain() gives them in the order they were queued). */
static void drain_as_sent(world *w)
{
    outq *q;
    int rc;
    assert_int_equal(outq_new(&q, w->st, NET), 0);
    outq_set_expander(q, host_expand, w->h);
    do {
        rc = outq_load(q);
        assert_true(rc == 0 || rc == 1);
        outq_msg *m;
        while ((m = outq_take(q, NULL, NULL)) != NULL) {
            assert_true(w->n < MAX_MSGS);
            store_msg *c = &w->msg[w->n++];
            memset(c, 0, sizeof *c);
            snprintf(c->target, sizeof c->target, "%s", m->target);
            snprintf(c->text, sizeof c->text, "%s", m->text);
            c->kind = m->kind;
            outq_sent(q, m);
        }
    } while (rc == 1);
    assert_int_equal(outq_flush_done(q), 0);
    outq_free(q);
}

/* The index of the first drained message containing s, or -1. */
static int first_with(const world *w, const char *s)
{
    for (int i = 0; i < w->n; i++)
        if (strstr(w->msg[i].text, s) != NULL)
            return i;
    return -1;
}

static void test_the_last_seat_is_announced_before_the_hands_it_deals(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    say(w, "ann", "#t", "!new 3");
    say(w, "bob", "#t", "!join");
    clear(w);
    host_msg m = {NET, "#t", "cat", "cat", "!join", 5, NULL, false, false, NULL, false};
    assert_int_equal(host_handle(w->h, &m, w->now), 0);
    drain_as_sent(w);
    int seat = first_with(w, "cat sits down (3 of 3)");
    int hand = first_with(w, "Your hand in #t");
    assert_true(seat >= 0 && hand >= 0);
    assert_true(seat < hand);
    free_world(w);
}

/* The characters of a UTF-8 line. */
static size_t chars_of(const char *s)
{
    size_t n = 0;
    for (; *s != '\0'; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Four long nicks: a play that ends a deal and the next deal would make
   a line of ~300 characters; they are two lines then, each under 200. */
static void test_a_deal_that_would_make_a_long_line_is_told_in_two(void **state)
{
    (void)state;
    static const char *const longnick[4] = {"annabelle_long", "bartholomew_lo", "catalina_longn",
                                            "dominique_long"};
    world *w = new_world(0, 0);
    say(w, longnick[0], "#t", "!new 4 to 121");
    for (int s = 1; s < 4; s++)
        say(w, longnick[s], "#t", "!join");
    int split = 0, new_hands = 0;
    for (int steps = 0; steps < 400; steps++) {
        pz_game *g = game_of(w, "#t");
        if (g == NULL)
            break;
        pz_phase ph = pz_get_phase(g);
        int actor = ph == PZ_PHASE_PLAY ? pz_get_turn(g) : pz_get_dealer(g);
        pz_action a;
        assert_int_equal(pz_default_action(g, actor, &a), 0);
        char text[64];
        command_for(&a, text, sizeof text);
        pz_free(g);
        clear(w);
        say(w, longnick[actor], NULL, text);
        for (int i = 0; i < w->n; i++) {
            /* a hand's first line, its seal included, stays one line */
            if (w->msg[i].kind == STORE_MSG_ROOM && strstr(w->msg[i].text, "New hand: ") != NULL) {
                assert_non_null(strstr(w->msg[i].text, " \xC2\xB7 pack sealed "));
                assert_true(chars_of(w->msg[i].text) <= 280);
                new_hands++;
            }
            if (w->msg[i].kind != STORE_MSG_ROOM || strstr(w->msg[i].text, "Deal ") == NULL)
                continue;
            assert_true(chars_of(w->msg[i].text) <= 200);
            if (strncmp(w->msg[i].text, "Deal ", 5) == 0) { /* its own line: after the deal's end */
                assert_true(i > 0 && strstr(w->msg[i - 1].text, "score: ") != NULL);
                split++;
            }
        }
    }
    assert_true(split > 0);
    assert_true(new_hands > 0);
    free_world(w);
}

static void test_options_and_deadlines_say_durations_in_words(void **state)
{
    (void)state;
    world *w = new_world(0, 86400);
    say(w, "ann", "#t", "!new 2");
    clear(w);
    say(w, "ann", "#t", "!options");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "turn deadline 24 h"), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "min"), 0);
    clear(w);
    say(w, "ann", "#t", "!deadline 90m");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "Turn deadline: 90 min;"), 1);
    free_world(w);
}

static void test_new_takes_spanish_counts_and_refuses_a_target_out_of_range(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    say(w, "ann", "#t", "!new dos");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "opens a Porrazo table (up to 2 players"), 1);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "Say !join to sit"), 1);
    clear(w);
    say(w, "bob", "#t", "!new 3");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "say !join to sit"), 1);
    clear(w);
    say(w, "ann", "#u", "!new 2 to 500");
    assert_int_equal(
        count(w, STORE_MSG_ROOM, "#u", "the target must be between 11 and 121, not 500"), 1);
    assert_null(game_of(w, "#u"));
    say(w, "ann", "#u", "!new 2 target=10");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#u", "not 10"), 1);
    assert_null(game_of(w, "#u"));
    free_world(w);
}

static void test_refused_moves_are_explained_with_nicks_not_seats(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "#t", 2, "manual");
    pz_game *g = game_of(w, "#t");
    const char *dealer = NICKS[pz_get_dealer(g)], *other = NICKS[1 - pz_get_dealer(g)];
    pz_free(g);
    clear(w);
    say(w, other, "#t", "!tendido now");
    char want[80];
    snprintf(want, sizeof want, "only the dealer, %s, chooses the tendido", dealer);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", want), 1);
    say(w, other, "#t", "!arrange best");
    say(w, dealer, "#t", "!play 7h");
    say(w, other, "#t", "!claim ann");
    say(w, other, "#t", "!claim bob");
    say(w, dealer, "#t", "!ronda");
    assert_true(count(w, STORE_MSG_ROOM, "#t", "you cannot claim against yourself") == 1);
    expect_players_words(w);
    say(w, dealer, "#t", "!tendido later");
    clear(w);
    g = game_of(w, "#t");
    const char *actor = NICKS[pz_get_turn(g)], *idle = NICKS[1 - pz_get_turn(g)];
    pz_free(g);
    say(w, idle, "#t", "!play 7h");
    snprintf(want, sizeof want, "it is %s's turn, not yours", actor);
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", want), 1);
    say(w, actor, "#t", "!claim bob");
    say(w, actor, "#t", "!claim ann");
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "claims are made after a deal ends"), 1);
    expect_players_words(w);
    free_world(w);
}

/* ---- What the adapters ask of the host (adapter.c) ---------------------- */

/* Holds the database's write lock from another connection (*other), so
   that every write of the host fails as "locked". */
static void lock_out(world *w, sqlite3 **other)
{
    assert_int_equal(sqlite3_open(w->path, other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(*other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
}

static void unlock(sqlite3 *other)
{
    assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
}

static void test_a_room_moved_takes_its_game_and_tells_the_old_room_once(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "!old", 2, "");
    pz_game *before = game_of(w, "!old");
    assert_non_null(before);
    int64_t moves_before = 0, game = -1;
    assert_int_equal(host_moves(w->h, NET, "!old", NULL, &moves_before), 0);
    clear(w);
    assert_int_equal(
        host_room_moved(w->h, NET, "!old", "!new", "$tomb", "upgraded: moving", w->now, &game), 1);
    assert_true(game > 0);
    drain(w);
    assert_int_equal(count(w, STORE_MSG_ROOM, "!old", "upgraded: moving"), 1);
    assert_null(game_of(w, "!old"));
    pz_game *after = game_of(w, "!new");
    assert_non_null(after); /* the same game: its turn, seats and history */
    assert_int_equal(pz_get_turn(after), pz_get_turn(before));
    pz_free(before);
    pz_free(after);
    int64_t moves_after = -1;
    assert_int_equal(host_moves(w->h, NET, "!new", NULL, &moves_after), 0);
    assert_int_equal(moves_after, moves_before);
    host_player p[8];
    int n = 0;
    assert_int_equal(host_room_players(w->h, NET, "!new", p, 8, &n), 1);
    assert_int_equal(n, 2);
    /* The same tombstone again (a retried sync): nothing. */
    clear(w);
    game = -1;
    assert_int_equal(
        host_room_moved(w->h, NET, "!new", "!newer", "$tomb", "upgraded: moving", w->now, &game),
        0);
    assert_int_equal(game, 0);
    drain(w);
    assert_int_equal(w->n, 0);
    pz_game *still = game_of(w, "!new");
    assert_non_null(still);
    pz_free(still);
    /* The game is played on in its new room. */
    clear(w);
    assert_true(play_one(w, "!new"));
    assert_true(count(w, STORE_MSG_ROOM, "!new", NULL) > 0);
    free_world(w);
}

static void test_a_room_moved_leaves_the_game_when_the_new_room_has_one(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "!old", 2, "");
    say(w, "cat", "!new", "!new 3"); /* a lobby of its own in the new room */
    int64_t game = -1;
    assert_int_equal(host_room_moved(w->h, NET, "!old", "!new", "$tomb", "upgraded", w->now, &game),
                     1);
    assert_int_equal(game, 0);
    pz_game *g = game_of(w, "!old"); /* it stays where it was */
    assert_non_null(g);
    pz_free(g);
    host_player p[8];
    int n = 0;
    assert_int_equal(host_room_players(w->h, NET, "!new", p, 8, &n), 1);
    assert_int_equal(n, 1);
    assert_string_equal(p[0].id, "cat");
    /* A room with no game moves nothing, and says so by *game. */
    game = -1;
    assert_int_equal(host_room_moved(w->h, NET, "!empty", "!elsewhere", NULL, NULL, w->now, &game),
                     1);
    assert_int_equal(game, 0);
    free_world(w);
}

static void test_a_room_moved_on_a_locked_database_changes_nothing(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    start_game(w, "!old", 2, "");
    sqlite3 *other;
    lock_out(w, &other);
    int64_t game = 77;
    assert_int_equal(host_room_moved(w->h, NET, "!old", "!new", "$tomb", "upgraded", w->now, &game),
                     -1);
    assert_int_equal(game, 77);
    assert_non_null(strstr(host_errmsg(w->h), "locked"));
    unlock(other);
    pz_game *g = game_of(w, "!old");
    assert_non_null(g);
    pz_free(g);
    bool seen = true;
    assert_int_equal(host_seen(w->h, NET, "$tomb", &seen), 0);
    assert_false(seen); /* so the tombstone is handled when it comes again */
    free_world(w);
}

static void test_room_players_are_the_seats_in_order_and_bounded(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    host_player p[8];
    int n = 5;
    assert_int_equal(host_room_players(w->h, NET, "#t", p, 8, &n), 0);
    assert_int_equal(n, 0);
    say(w, "ann", "#t", "!new 3");
    say(w, "bob", "#t", "!join");
    say(w, "cat", "#t", "!join");
    assert_int_equal(host_rename(w->h, NET, "bob", "Bobby"), 0);
    assert_int_equal(host_room_players(w->h, NET, "#t", p, 8, &n), 1);
    assert_int_equal(n, 3);
    assert_string_equal(p[0].id, "ann"); /* a lobby's seats: the join order */
    assert_string_equal(p[0].nick, "ann");
    assert_string_equal(p[1].id, "bob");
    assert_string_equal(p[1].nick, "Bobby");
    assert_string_equal(p[2].id, "cat");
    host_player two[2];
    assert_int_equal(host_room_players(w->h, NET, "#t", two, 2, &n), 1);
    assert_int_equal(n, 2);
    assert_string_equal(two[0].id, p[0].id);
    assert_int_equal(host_room_players(w->h, NET, "#t", NULL, 0, &n), 1); /* a game? yes */
    assert_int_equal(n, 0);
    assert_int_equal(host_room_players(w->h, "other", "#t", p, 8, &n), 0); /* per network */
    free_world(w);
}

/* host_player_rooms's callback: collects the rooms; stops at "#stop". */
typedef struct rooms_seen {
    char rooms[4][64];
    int n;
} rooms_seen;

static int collect_room(void *arg, const char *room)
{
    rooms_seen *r = arg;
    assert_true(r->n < 4);
    snprintf(r->rooms[r->n++], sizeof r->rooms[0], "%s", room);
    return strcmp(room, "#stop") == 0 ? 7 : 0;
}

static void test_a_players_rooms_are_those_of_their_active_games(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    say(w, "ann", "#a", "!new 2");
    say(w, "ann", "#b", "!new 2");
    say(w, "bob", "#c", "!new 2");
    rooms_seen r = {0};
    assert_int_equal(host_player_rooms(w->h, NET, "ann", collect_room, &r), 0);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.rooms[0], "#a");
    assert_string_equal(r.rooms[1], "#b");
    memset(&r, 0, sizeof r);
    assert_int_equal(host_player_rooms(w->h, NET, "cat", collect_room, &r), 0);
    assert_int_equal(r.n, 0);
    say(w, "ann", "#stop", "!new 2");
    say(w, "ann", "#z", "!new 2");
    memset(&r, 0, sizeof r);
    assert_int_equal(host_player_rooms(w->h, NET, "ann", collect_room, &r), 7);
    assert_int_equal(r.n, 3); /* stopped at #stop, #z never seen */
    say(w, "ann", "#a", "!stop");
    memset(&r, 0, sizeof r);
    assert_int_equal(host_player_rooms(w->h, NET, "ann", collect_room, &r), 7);
    assert_string_equal(r.rooms[0], "#b"); /* a stopped game is nobody's room */
    free_world(w);
}

static void test_moves_count_the_actions_of_the_room_or_of_the_players_games(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    int64_t room = -1, mine = -1;
    assert_int_equal(host_moves(w->h, NET, "#t", NULL, &room), 0);
    assert_int_equal(room, 0);
    start_game(w, "#t", 2, "");
    assert_int_equal(host_moves(w->h, NET, "#t", NULL, &room), 0);
    pz_game *g = game_of(w, "#t");
    const char *actor = NICKS[pz_get_turn(g)];
    pz_free(g);
    assert_int_equal(host_moves(w->h, NET, NULL, actor, &mine), 0);
    assert_int_equal(mine, room);
    assert_true(play_one(w, "#t"));
    int64_t after = -1;
    assert_int_equal(host_moves(w->h, NET, "#t", NULL, &after), 0);
    assert_true(after > room);
    assert_int_equal(host_moves(w->h, NET, NULL, actor, &mine), 0);
    assert_int_equal(mine, after);
    say(w, "ann", "#t", "!hand"); /* a command that moves nothing */
    assert_int_equal(host_moves(w->h, NET, "#t", NULL, &room), 0);
    assert_int_equal(room, after);
    assert_int_equal(host_moves(w->h, NET, NULL, "zed", &mine), 0);
    assert_int_equal(mine, 0);
    free_world(w);
}

static void test_say_queues_a_line_once_with_its_kv_value(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    host_say_line l = {.network = NET,
                       .target = "!enc",
                       .kind = MSG_ROOM,
                       .text = "this room is encrypted",
                       .once = "$ev",
                       .scope = "matrix:t",
                       .key = "said_encrypted:!enc",
                       .value = "1"};
    assert_int_equal(host_say(w->h, &l, w->now), 1);
    assert_int_equal(host_say(w->h, &l, w->now), 0); /* the same id: nothing */
    drain(w);
    assert_int_equal(count(w, STORE_MSG_ROOM, "!enc", "this room is encrypted"), 1);
    char v[8];
    assert_int_equal(host_kv_get(w->h, "matrix:t", "said_encrypted:!enc", v, sizeof v), 0);
    assert_string_equal(v, "1");
    bool seen = false;
    assert_int_equal(host_seen(w->h, NET, "$ev", &seen), 0);
    assert_true(seen);
    /* Without an id: every call queues; privately to a player. */
    host_say_line p = {.network = NET, .target = "ann", .kind = MSG_PRIVATE, .text = "hi"};
    assert_int_equal(host_say(w->h, &p, w->now), 1);
    assert_int_equal(host_say(w->h, &p, w->now), 1);
    clear(w);
    drain(w);
    assert_int_equal(count(w, STORE_MSG_PRIVATE, "ann", "hi"), 2);
    /* An id alone records it, and queues nothing. */
    host_say_line o = {.network = NET, .target = "!x", .kind = MSG_ROOM, .once = "$only"};
    assert_int_equal(host_say(w->h, &o, w->now), 1);
    assert_int_equal(host_seen(w->h, NET, "$only", &seen), 0);
    assert_true(seen);
    /* A locked database: nothing at all, neither line, id nor value. */
    sqlite3 *other;
    lock_out(w, &other);
    host_say_line k = l;
    k.once = "$ev2";
    k.key = "said_encrypted:!other";
    assert_int_equal(host_say(w->h, &k, w->now), -1);
    assert_non_null(strstr(host_errmsg(w->h), "locked"));
    unlock(other);
    assert_int_equal(host_seen(w->h, NET, "$ev2", &seen), 0);
    assert_false(seen);
    assert_int_equal(host_kv_get(w->h, "matrix:t", "said_encrypted:!other", v, sizeof v), 1);
    clear(w);
    drain(w);
    assert_int_equal(w->n, 0);
    free_world(w);
}

static void test_seen_ids_are_per_network_and_pruned_by_age(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    bool seen = true;
    assert_int_equal(host_seen(w->h, NET, "$a", &seen), 0);
    assert_false(seen);
    host_say_line a = {.network = NET, .once = "$a"};
    assert_int_equal(host_say(w->h, &a, w->now - 100), 1);
    host_say_line b = {.network = NET, .once = "$b"};
    assert_int_equal(host_say(w->h, &b, w->now), 1);
    assert_int_equal(host_seen(w->h, NET, "$a", &seen), 0);
    assert_true(seen);
    assert_int_equal(host_seen(w->h, "other", "$a", &seen), 0);
    assert_false(seen);
    int pruned = -1;
    assert_int_equal(host_seen_prune(w->h, w->now - 50, &pruned), 0);
    assert_int_equal(pruned, 1);
    assert_int_equal(host_seen(w->h, NET, "$a", &seen), 0);
    assert_false(seen);
    assert_int_equal(host_seen(w->h, NET, "$b", &seen), 0);
    assert_true(seen);
    assert_int_equal(host_seen_prune(w->h, w->now - 50, NULL), 0);
    free_world(w);
}

/* Issue 30: the host's own kv scopes are fenced from the adapters in code:
   a scope without a colon is refused, nothing read or written. */
static void test_kv_refuses_the_hosts_own_scopes(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    char v[16] = "junk";
    start_game(w, "#t", 3, "");
    pz_free(until_a_card(w, "#t"));
    say(w, "bob", "#t", "!leave"); /* the host keeps the question in "leaving" */
    assert_int_equal(host_kv_set(w->h, "leaving", "x", "1"), -1);
    assert_non_null(strstr(host_errmsg(w->h), "the kv scope 'leaving' is the host's own"));
    assert_int_equal(host_kv_get(w->h, "leaving", "x", v, sizeof v), -1);
    assert_string_equal(v, "");
    assert_int_equal(host_kv_get(w->h, "review", "any key", v, sizeof v), -1);
    assert_int_equal(host_kv_set(w->h, "irc:t", "invited", "#a"), 0); /* an adapter's: taken */
    assert_int_equal(host_kv_get(w->h, "irc:t", "invited", v, sizeof v), 0);
    assert_string_equal(v, "#a");
    clear(w);
    say(w, "bob", "#t", "!leave"); /* the host's own question was kept, untouched */
    assert_int_equal(count(w, STORE_MSG_ROOM, "#t", "bob leaves"), 1);
    free_world(w);
}

static void test_kv_keeps_an_adapters_values_and_says_unset_or_too_long(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    char v[16] = "junk";
    assert_int_equal(host_kv_get(w->h, "matrix:t", "since", v, sizeof v), 1);
    assert_string_equal(v, "");
    assert_int_equal(host_kv_set(w->h, "matrix:t", "since", "s72_3"), 0);
    assert_int_equal(host_kv_set(w->h, "irc:t", "since", "other"), 0);
    assert_int_equal(host_kv_get(w->h, "matrix:t", "since", v, sizeof v), 0);
    assert_string_equal(v, "s72_3");
    assert_int_equal(host_kv_set(w->h, "matrix:t", "since", ""), 0); /* "" is a value */
    assert_int_equal(host_kv_get(w->h, "matrix:t", "since", v, sizeof v), 0);
    assert_string_equal(v, "");
    assert_int_equal(host_kv_set(w->h, "matrix:t", "token", "syt_a_very_long_token_value"), 0);
    assert_int_equal(host_kv_get(w->h, "matrix:t", "token", v, sizeof v), -1);
    assert_string_equal(v, "");
    /* The message names what did not fit, never the value (a secret). */
    assert_null(strstr(host_errmsg(w->h), "syt_"));
    assert_non_null(strstr(host_errmsg(w->h), "token"));
    sqlite3 *other;
    lock_out(w, &other);
    assert_int_equal(host_kv_set(w->h, "matrix:t", "since", "s80"), -1);
    unlock(other);
    assert_int_equal(host_kv_get(w->h, "matrix:t", "since", v, sizeof v), 0);
    assert_string_equal(v, "");
    free_world(w);
}

static void test_notices_are_wanted_once_a_player_says_notices_on(void **state)
{
    (void)state;
    world *w = new_world(0, 0);
    assert_false(host_wants_notice(w->h, NET, "ann"));
    say(w, "ann", NULL, "notices on");
    assert_true(host_wants_notice(w->h, NET, "ann"));
    assert_false(host_wants_notice(w->h, NET, "bob"));
    assert_false(host_wants_notice(w->h, "other", "ann")); /* per network */
    say(w, "ann", NULL, "notices off");
    assert_false(host_wants_notice(w->h, NET, "ann"));
    free_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_full_table_starts_and_hands_are_sent_only_privately),
        cmocka_unit_test(test_a_line_delivered_twice_with_its_id_acts_once),
        cmocka_unit_test(test_hand_asked_in_the_channel_is_answered_privately),
        cmocka_unit_test(test_bad_commands_get_one_specific_reply),
        cmocka_unit_test(test_a_card_not_held_is_refused_in_the_room_with_the_hand_only_privately),
        cmocka_unit_test(test_personal_settings_said_in_a_room_are_answered_privately),
        cmocka_unit_test(test_players_settings_kept_before_the_table_still_load),
        cmocka_unit_test(test_a_game_stored_as_json_by_an_older_bot_plays_on_and_is_stored_packed),
        cmocka_unit_test(test_a_game_changed_in_the_store_is_read_as_the_store_has_it),
        cmocka_unit_test(test_many_players_languages_in_and_out_of_memory),
        cmocka_unit_test(test_one_leave_mid_game_only_asks_to_confirm),
        cmocka_unit_test(test_leaving_mid_game_asks_once_and_the_seat_can_be_taken_back),
        cmocka_unit_test(test_private_commands_ask_which_game_when_in_two),
        cmocka_unit_test(test_the_clock_reminds_then_plays_for_the_absent_player),
        cmocka_unit_test(test_pause_and_resume_need_a_majority_and_block_plays),
        cmocka_unit_test(test_the_creator_stops_and_the_room_is_free_again),
        cmocka_unit_test(test_a_room_moderator_stops_a_game_they_do_not_play_in),
        cmocka_unit_test(test_a_player_the_bot_cannot_reach_privately_is_not_seated),
        cmocka_unit_test(test_lobby_leave_kick_and_creator_handover),
        cmocka_unit_test(test_game_events_are_logged_with_the_game_id_and_the_room_names_it),
        cmocka_unit_test(test_the_last_seat_is_announced_before_the_hands_it_deals),
        cmocka_unit_test(test_options_and_deadlines_say_durations_in_words),
        cmocka_unit_test(test_a_deal_that_would_make_a_long_line_is_told_in_two),
        cmocka_unit_test(test_a_whole_game_replays_to_the_same_scores_from_its_export),
        cmocka_unit_test(test_sealed_deals_show_each_seal_first_and_reveal_seeds_only_at_the_end),
        cmocka_unit_test(test_a_stopped_sealed_game_reveals_its_seeds_and_verifies),
        cmocka_unit_test(test_a_game_from_before_fair_deals_deals_on_and_exports_as_before),
        cmocka_unit_test(test_a_restart_tells_the_room_the_game_is_back),
        cmocka_unit_test(test_the_clock_is_rebuilt_when_the_reminder_time_changes),
        cmocka_unit_test(test_the_clock_reads_only_due_games_and_never_sticks),
        cmocka_unit_test(test_a_flooding_player_is_ignored_and_told_once),
        cmocka_unit_test(test_replies_to_a_target_that_is_behind_are_bounded),
        cmocka_unit_test(test_an_owner_purges_a_targets_queue),
        cmocka_unit_test(test_an_owner_lists_the_active_games_privately),
        cmocka_unit_test(test_an_owner_exports_a_record_to_a_file_only_the_bot_reads),
        cmocka_unit_test(test_an_owner_stops_any_game_by_its_number),
        cmocka_unit_test(test_an_owner_makes_the_bot_leave_a_room_and_others_cannot),
        cmocka_unit_test(test_an_owner_takes_a_player_out_of_a_lobby_or_stops_the_game),
        cmocka_unit_test(test_an_owner_skips_a_turn_with_the_default_move),
        cmocka_unit_test(test_a_locked_database_is_answered_and_loses_nothing),
        cmocka_unit_test(test_a_full_database_is_answered_and_recovers),
        cmocka_unit_test(test_a_command_that_only_reads_is_answered_without_a_write),
        cmocka_unit_test(test_a_restart_announces_only_recent_games),
        cmocka_unit_test(test_an_arrangement_by_bare_ranks_is_matched_to_the_tendido),
        cmocka_unit_test(test_a_rank_missing_from_the_tendido_is_named_with_its_pairs),
        cmocka_unit_test(test_as_plays_the_ace_of_spades_or_in_spanish_the_only_ace),
        cmocka_unit_test(test_a_move_without_the_prefix_gets_one_hint_in_a_while),
        cmocka_unit_test(test_a_player_in_two_games_is_shown_their_command_with_a_room),
        cmocka_unit_test(test_top_and_stats_count_every_point_of_the_side),
        cmocka_unit_test(test_stats_and_top_count_finished_games_only),
        cmocka_unit_test(test_help_in_a_room_says_the_short_part_there_where_private_lines_wait),
        cmocka_unit_test(test_moves_lists_each_legal_move_privately_with_what_it_does),
        cmocka_unit_test(test_partners_both_count_their_sides_points),
        cmocka_unit_test(test_rules_in_a_room_with_a_game_say_its_target),
        cmocka_unit_test(test_new_takes_spanish_counts_and_refuses_a_target_out_of_range),
        cmocka_unit_test(test_refused_moves_are_explained_with_nicks_not_seats),
        cmocka_unit_test(test_a_room_moved_takes_its_game_and_tells_the_old_room_once),
        cmocka_unit_test(test_a_room_moved_leaves_the_game_when_the_new_room_has_one),
        cmocka_unit_test(test_a_room_moved_on_a_locked_database_changes_nothing),
        cmocka_unit_test(test_room_players_are_the_seats_in_order_and_bounded),
        cmocka_unit_test(test_a_players_rooms_are_those_of_their_active_games),
        cmocka_unit_test(test_moves_count_the_actions_of_the_room_or_of_the_players_games),
        cmocka_unit_test(test_say_queues_a_line_once_with_its_kv_value),
        cmocka_unit_test(test_seen_ids_are_per_network_and_pruned_by_age),
        cmocka_unit_test(test_kv_keeps_an_adapters_values_and_says_unset_or_too_long),
        cmocka_unit_test(test_kv_refuses_the_hosts_own_scopes),
        cmocka_unit_test(test_notices_are_wanted_once_a_player_says_notices_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
