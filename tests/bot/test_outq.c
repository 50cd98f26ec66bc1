/*
 * test_outq.c — the outbox in memory over a real SQLite file: round robin
 * across every target (not a window of the oldest rows), hands first,
 * rooms before private text (a crowd's help never delays a room), one
 * message taken per target, parking, drops, marks written in one
 * batch (and kept when the store refuses them), with the caller's own
 * writes in the same transaction, loading only what is new,
 * volatile messages, purge, a backlog far larger than one load, and the
 * expander: lines rendered when taken, merged, dropped, given back.
 */
#define _POSIX_C_SOURCE 200809L

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

#include "outq.h"
#include "store.h"

typedef struct fx {
    char dir[64];
    char path[96];
    store *st;
    outq *q;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->dir, sizeof f->dir, "/tmp/pz-outq-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/bot.db", f->dir);
    char why[STORE_WHY_MAX];
    assert_int_equal(store_open(&f->st, f->path, why, sizeof why), 0);
    assert_int_equal(outq_new(&f->q, f->st, "net"), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    outq_free(f->q);
    store_close(f->st);
    char name[160];
    const char *suffix[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "%s%s", f->path, suffix[i]);
        unlink(name);
    }
    rmdir(f->dir);
    free(f);
    return 0;
}

static int64_t add(fx *f, const char *target, int priority, const char *text)
{
    int64_t id = 0;
    store_msg_kind kind = target[0] == '#' ? STORE_MSG_ROOM : STORE_MSG_PRIVATE;
    assert_int_equal(store_outbox_add(f->st, "net", target, kind, priority, text, 1, &id), 0);
    return id;
}

/* Takes the next message, checks its text, and marks it sent. */
static void expect_next(fx *f, const char *text)
{
    outq_msg *m = outq_take(f->q, NULL, NULL);
    assert_non_null(m);
    assert_string_equal(m->text, text);
    outq_sent(f->q, m);
}

static void test_every_target_gets_a_turn_however_long_one_backlog_is(void **state)
{
    fx *f = *state;
    char text[32];
    for (int i = 0; i < 500; i++) {
        snprintf(text, sizeof text, "flood %d", i);
        add(f, "#flooded", 0, text);
    }
    add(f, "#quiet", 0, "your turn");
    add(f, "#other", 0, "other turn");
    assert_int_equal(outq_load(f->q), 0);
    assert_int_equal(outq_count(f->q), 502);
    assert_int_equal(outq_targets(f->q), 3);
    /* The 501st row in outbox order goes out second, the 502nd third. */
    expect_next(f, "flood 0");
    expect_next(f, "your turn");
    expect_next(f, "other turn");
    expect_next(f, "flood 1");
    expect_next(f, "flood 2");
    assert_int_equal(outq_targets(f->q), 1);
}

static void test_a_rooms_line_goes_before_private_text_for_a_crowd(void **state)
{
    fx *f = *state;
    char target[16], text[32];
    for (int line = 0; line < 5; line++) /* 20 players asked for help: 5 lines each */
        for (int i = 0; i < 20; i++) {
            snprintf(target, sizeof target, "p%02d", i);
            snprintf(text, sizeof text, "help %d for %s", line, target);
            add(f, target, 0, text);
        }
    add(f, "#quiet", 0, "ann: your turn");
    add(f, "#quiet", 0, "ann plays 7h");
    assert_int_equal(outq_load(f->q), 0);
    expect_next(f, "ann: your turn");
    expect_next(f, "ann plays 7h");
    /* then the players in turn, each one's lines in order */
    for (int line = 0; line < 5; line++)
        for (int i = 0; i < 20; i++) {
            snprintf(text, sizeof text, "help %d for p%02d", line, i);
            expect_next(f, text);
        }
    assert_null(outq_take(f->q, NULL, NULL));
}

static void test_busy_rooms_let_one_private_message_through_every_four(void **state)
{
    fx *f = *state;
    char text[32];
    for (int i = 0; i < 4; i++) {
        snprintf(text, sizeof text, "private %d", i);
        add(f, "ann", 0, text);
    }
    for (int i = 0; i < 6; i++) {
        snprintf(text, sizeof text, "a %d", i);
        add(f, "#a", 0, text);
        snprintf(text, sizeof text, "b %d", i);
        add(f, "#b", 0, text);
    }
    assert_int_equal(outq_load(f->q), 0);
    static const char *const order[] = {"a 0", "b 0",       "a 1", "private 0", "b 1", "a 2",
                                        "b 2", "private 1", "a 3", "b 3",       "a 4", "private 2",
                                        "b 4", "a 5",       "b 5", "private 3"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        expect_next(f, order[i]);
    assert_null(outq_take(f->q, NULL, NULL));
}

static void test_hands_go_before_other_lines_within_and_across_targets(void **state)
{
    fx *f = *state;
    add(f, "#room", 0, "table");
    add(f, "ann", 0, "reply to ann");
    add(f, "bob", 1, "bob's hand");
    add(f, "ann", 1, "ann's hand");
    assert_int_equal(outq_load(f->q), 0);
    expect_next(f, "bob's hand");
    expect_next(f, "ann's hand");
    expect_next(f, "table");
    expect_next(f, "reply to ann");
    assert_null(outq_take(f->q, NULL, NULL));
}

static void test_a_backlog_of_hands_lets_one_other_line_through_every_five(void **state)
{
    fx *f = *state;
    char target[16];
    for (int i = 0; i < 12; i++) {
        snprintf(target, sizeof target, "p%d", i);
        add(f, target, 1, "hand");
    }
    add(f, "#room", 0, "your turn");
    assert_int_equal(outq_load(f->q), 0);
    for (int i = 0; i < 4; i++)
        expect_next(f, "hand");
    expect_next(f, "your turn");
    for (int i = 0; i < 8; i++)
        expect_next(f, "hand");
    assert_null(outq_take(f->q, NULL, NULL));
}

static void test_a_target_gives_one_message_at_a_time(void **state)
{
    fx *f = *state;
    add(f, "#room", 0, "one");
    add(f, "#room", 0, "two");
    assert_int_equal(outq_load(f->q), 0);
    outq_msg *m = outq_take(f->q, NULL, NULL);
    assert_non_null(m);
    assert_string_equal(m->text, "one");
    assert_null(outq_take(f->q, NULL, NULL)); /* "two" waits for "one" */
    outq_untake(f->q, m);                     /* a disconnect */
    expect_next(f, "one");
    expect_next(f, "two");
}

static outq_verdict park_rooms(void *arg, const outq_msg *m)
{
    (*(int *)arg)++;
    return m->kind == STORE_MSG_ROOM ? OUTQ_PARK : OUTQ_SEND;
}

static outq_verdict drop_all(void *arg, const outq_msg *m)
{
    (void)m;
    (*(int *)arg)++;
    return OUTQ_DROP;
}

static void test_parked_targets_are_skipped_until_unparked(void **state)
{
    fx *f = *state;
    add(f, "#notyet", 0, "held");
    add(f, "ann", 0, "private");
    assert_int_equal(outq_load(f->q), 0);
    int asked = 0;
    outq_msg *m = outq_take(f->q, park_rooms, &asked);
    assert_non_null(m);
    assert_string_equal(m->text, "private");
    outq_sent(f->q, m);
    assert_null(outq_take(f->q, park_rooms, &asked));
    assert_int_equal(asked, 2); /* the parked room is not asked again */
    outq_unpark_all(f->q);
    expect_next(f, "held");
}

static void test_dropped_messages_are_marked_sent_in_the_store(void **state)
{
    fx *f = *state;
    add(f, "#gone", 0, "a");
    add(f, "#gone", 0, "b");
    assert_int_equal(outq_load(f->q), 0);
    int asked = 0;
    assert_null(outq_take(f->q, drop_all, &asked));
    assert_int_equal(asked, 2);
    assert_int_equal(outq_done_pending(f->q), 2);
    assert_int_equal(outq_flush_done(f->q), 0);
    int n = -1;
    assert_int_equal(store_outbox_count(f->st, "net", &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(outq_count(f->q), 0);
}

static void test_marks_are_written_in_one_batch_and_kept_when_refused(void **state)
{
    fx *f = *state;
    for (int i = 0; i < 10; i++)
        add(f, "#room", 0, "line");
    assert_int_equal(outq_load(f->q), 0);
    for (int i = 0; i < 10; i++)
        expect_next(f, "line");
    assert_int_equal(outq_done_pending(f->q), 10);
    /* Another connection holds the write lock: the batch is refused whole. */
    sqlite3 *other;
    assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    int rc = outq_flush_done(f->q);
    assert_true(store_err_transient(rc));
    assert_int_equal(rc, STORE_BUSY);
    assert_int_equal(outq_done_pending(f->q), 10);
    assert_null(outq_take(f->q, NULL, NULL)); /* not sent twice meanwhile */
    assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    assert_int_equal(outq_flush_done(f->q), 0);
    assert_int_equal(outq_done_pending(f->q), 0);
    int n = -1;
    assert_int_equal(store_outbox_count(f->st, "net", &n), 0);
    assert_int_equal(n, 0);
}

/* outq_flush_done_with's also: records an event id as seen, then says rc. */
typedef struct also_arg {
    int calls;
    int rc;
} also_arg;

static int also_seen(void *arg, store *st)
{
    also_arg *a = arg;
    bool fresh = false;
    a->calls++;
    int rc = store_seen_add(st, "net", "$sent", 1, &fresh);
    return rc != 0 ? rc : a->rc;
}

static void test_marks_and_the_callers_writes_commit_together_or_not_at_all(void **state)
{
    fx *f = *state;
    for (int i = 0; i < 3; i++)
        add(f, "#room", 0, "line");
    assert_int_equal(outq_load(f->q), 0);
    for (int i = 0; i < 3; i++)
        expect_next(f, "line");
    int n = -1;
    bool seen = true;
    /* The caller's writes fail: nothing is written, the marks are kept. */
    also_arg a = {0, STORE_FULL};
    assert_int_equal(outq_flush_done_with(f->q, also_seen, &a), STORE_FULL);
    assert_int_equal(a.calls, 1);
    assert_int_equal(outq_done_pending(f->q), 3);
    assert_int_equal(store_outbox_count(f->st, "net", &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(store_seen_has(f->st, "net", "$sent", &seen), 0);
    assert_false(seen);
    /* The store is busy: the caller's writes are not even tried. */
    sqlite3 *other;
    assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    a.rc = 0;
    assert_int_equal(outq_flush_done_with(f->q, also_seen, &a), STORE_BUSY);
    assert_int_equal(a.calls, 1);
    assert_int_equal(outq_done_pending(f->q), 3);
    assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    /* Both land together. */
    assert_int_equal(outq_flush_done_with(f->q, also_seen, &a), 0);
    assert_int_equal(a.calls, 2);
    assert_int_equal(outq_done_pending(f->q), 0);
    assert_int_equal(store_outbox_count(f->st, "net", &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(store_seen_has(f->st, "net", "$sent", &seen), 0);
    assert_true(seen);
    /* With no marks pending the caller's writes still run. */
    assert_int_equal(outq_flush_done_with(f->q, also_seen, &a), 0);
    assert_int_equal(a.calls, 3);
    assert_int_equal(outq_load(f->q), 0);
    assert_int_equal(outq_count(f->q), 0);
}

static void test_loading_reads_only_new_rows_and_other_networks_never(void **state)
{
    fx *f = *state;
    add(f, "#room", 0, "first");
    assert_int_equal(
        store_outbox_add(f->st, "elsewhere", "#room", STORE_MSG_ROOM, 0, "no", 1, NULL), 0);
    assert_int_equal(outq_load(f->q), 0);
    assert_int_equal(outq_count(f->q), 1);
    assert_int_equal(outq_load(f->q), 0); /* nothing new: nothing doubled */
    assert_int_equal(outq_count(f->q), 1);
    add(f, "#room", 0, "second");
    assert_int_equal(outq_load(f->q), 0);
    assert_int_equal(outq_count(f->q), 2);
    expect_next(f, "first");
    expect_next(f, "second");
}

static void test_a_backlog_larger_than_one_load_comes_in_over_several(void **state)
{
    fx *f = *state;
    assert_int_equal(store_begin(f->st), 0);
    for (int i = 0; i < 20000; i++) {
        char target[16];
        snprintf(target, sizeof target, "#r%d", i);
        add(f, target, 0, "is back");
    }
    assert_int_equal(store_commit(f->st), 0);
    int loads = 0, rc;
    while ((rc = outq_load(f->q)) == 1)
        loads++;
    assert_int_equal(rc, 0);
    assert_true(loads >= 2);
    assert_int_equal(outq_count(f->q), 20000);
    assert_int_equal(outq_targets(f->q), 20000);
    outq_msg *m;
    int sent = 0;
    while ((m = outq_take(f->q, NULL, NULL)) != NULL) {
        outq_sent(f->q, m);
        sent++;
    }
    assert_int_equal(sent, 20000);
    assert_int_equal(outq_flush_done(f->q), 0);
    int n = -1;
    assert_int_equal(store_outbox_count(f->st, "net", &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(outq_targets(f->q), 0);
}

static void test_a_new_row_is_read_before_a_restarts_backlog_and_keeps_target_order(void **state)
{
    fx *f = *state;
    assert_int_equal(store_begin(f->st), 0);
    add(f, "#busy", 0, "old 0");
    for (int i = 0; i < 20000; i++) {
        char target[16];
        snprintf(target, sizeof target, "#r%d", i);
        add(f, target, 0, "is back");
    }
    add(f, "#busy", 0, "old 1");
    assert_int_equal(store_commit(f->st), 0);
    assert_int_equal(outq_load(f->q), 1); /* the backlog's first part */
    size_t first = outq_count(f->q);
    assert_true(first < 20002);
    add(f, "#reply", 0, "your turn"); /* a command answered meanwhile */
    add(f, "#busy", 0, "new");
    assert_int_equal(outq_load(f->q), 1);
    assert_int_equal(outq_target_count(f->q, "#reply"), 1); /* read at once */
    int rc;
    while ((rc = outq_load(f->q)) == 1)
        ;
    assert_int_equal(rc, 0);
    assert_int_equal(outq_count(f->q), 20004);
    /* #busy's messages stay in outbox order although "new" was read before
       "old 1". */
    const char *busy[] = {"old 0", "old 1", "new"};
    int next = 0;
    outq_msg *m;
    while ((m = outq_take(f->q, NULL, NULL)) != NULL) {
        if (strcmp(m->target, "#busy") == 0) {
            assert_true(next < 3);
            assert_string_equal(m->text, busy[next++]);
        }
        outq_sent(f->q, m);
    }
    assert_int_equal(next, 3);
}

static void test_volatile_messages_are_bounded_and_never_touch_the_store(void **state)
{
    fx *f = *state;
    int accepted = 0;
    for (int i = 0; i < OUTQ_VOLATILE_MAX + 10; i++)
        accepted += outq_add_volatile(f->q, "ann", STORE_MSG_PRIVATE, 0, "cannot save") == 0;
    assert_int_equal(accepted, OUTQ_VOLATILE_MAX);
    outq_msg *m = outq_take(f->q, NULL, NULL);
    assert_non_null(m);
    assert_true(m->id < 0);
    assert_memory_equal(m->txn, "pzv", 3);
    outq_sent(f->q, m);
    assert_int_equal(outq_done_pending(f->q), 0);
    assert_int_equal(outq_add_volatile(f->q, "ann", STORE_MSG_PRIVATE, 0, "again"), 0);
}

/* A read-only command's reply (volatile) after a row committed for its
   target comes after it; with no row added since the last read, the load
   before it has nothing to read and the reply goes alone. */
static void test_a_volatile_reply_comes_after_every_row_committed_before_it(void **state)
{
    fx *f = *state;
    assert_int_equal(outq_load(f->q), 0);
    assert_int_equal(outq_load_fresh(f->q), 0);
    assert_int_equal(outq_add_volatile(f->q, "ann", STORE_MSG_PRIVATE, 0, "v1"), 0);
    expect_next(f, "v1");
    add(f, "ann", 0, "row");
    assert_int_equal(outq_load_fresh(f->q), 0);
    assert_int_equal(outq_add_volatile(f->q, "ann", STORE_MSG_PRIVATE, 0, "v2"), 0);
    expect_next(f, "row");
    expect_next(f, "v2");
    assert_int_equal(outq_flush_done(f->q), 0);
    assert_int_equal(outq_load(f->q), 0);
    assert_int_equal(outq_load_fresh(f->q), 0); /* nothing new: the row is not read twice */
    assert_int_equal(outq_add_volatile(f->q, "ann", STORE_MSG_PRIVATE, 0, "v3"), 0);
    expect_next(f, "v3");
    assert_null(outq_take(f->q, NULL, NULL));
}

static void test_purge_forgets_a_targets_queue_in_memory_and_store(void **state)
{
    fx *f = *state;
    for (int i = 0; i < 5; i++)
        add(f, "flooder", 0, "reply");
    add(f, "#room", 0, "announcement");
    assert_int_equal(outq_load(f->q), 0);
    int n = 0;
    assert_int_equal(outq_purge(f->q, "flooder", &n), 0);
    assert_int_equal(n, 5);
    assert_int_equal(outq_target_count(f->q, "flooder"), 0);
    assert_int_equal(store_outbox_target_count(f->st, "net", "flooder", 100, &n), 0);
    assert_int_equal(n, 0);
    expect_next(f, "announcement");
    assert_null(outq_take(f->q, NULL, NULL));
}

/*
 * A toy expander: "drop..." is obsolete; "+x" lines in a row are told in
 * one ("+a+b+c"); "up..." is written in capitals; anything else as it is.
 */
static outq_expand_result toy_expand(void *arg, const outq_msg *m, char **text, int *merged)
{
    int *calls = arg;
    (*calls)++;
    if (strncmp(m->raw, "drop", 4) == 0)
        return OUTQ_EXPAND_DROP;
    if (m->raw[0] == '+') {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", m->raw);
        int n = 0;
        for (const outq_msg *k = m->next; k != NULL && k->raw[0] == '+'; k = k->next, n++)
            strncat(buf, k->raw, sizeof buf - strlen(buf) - 1);
        *merged = n;
        *text = strdup(buf);
        return OUTQ_EXPAND_TEXT;
    }
    if (strncmp(m->raw, "up", 2) == 0) {
        *text = strdup(m->raw);
        for (char *c = *text; *c; c++)
            if (*c >= 'a' && *c <= 'z')
                *c = (char)(*c - 'a' + 'A');
        *merged = 0;
        return OUTQ_EXPAND_TEXT;
    }
    return OUTQ_EXPAND_ASIS;
}

static int outbox_rows(fx *f)
{
    int n = -1;
    assert_int_equal(store_outbox_count(f->st, "net", &n), 0);
    return n;
}

static void test_lines_in_a_row_are_merged_and_all_marked_sent_with_the_one(void **state)
{
    fx *f = *state;
    int calls = 0;
    outq_set_expander(f->q, toy_expand, &calls);
    add(f, "#c", 0, "+a");
    add(f, "#c", 0, "+b");
    add(f, "#c", 0, "+c");
    add(f, "#c", 0, "plain");
    add(f, "#c", 0, "+d");
    assert_int_equal(outq_load(f->q), 0);
    assert_int_equal(outq_count(f->q), 5);
    outq_msg *m = outq_take(f->q, NULL, NULL);
    assert_string_equal(m->text, "+a+b+c");
    assert_string_equal(m->raw, "+a");
    assert_int_equal(outq_target_count(f->q, "#c"), 5); /* not sent yet */
    outq_sent(f->q, m);
    assert_int_equal(outq_count(f->q), 2);
    assert_int_equal(outq_flush_done(f->q), 0);
    assert_int_equal(outbox_rows(f), 2); /* the three told in one line are gone */
    expect_next(f, "plain");
    expect_next(f, "+d");
    assert_null(outq_take(f->q, NULL, NULL));
    assert_int_equal(outq_flush_done(f->q), 0);
    assert_int_equal(outbox_rows(f), 0);
}

static void test_a_merged_line_given_back_returns_its_lines_in_order(void **state)
{
    fx *f = *state;
    int calls = 0;
    outq_set_expander(f->q, toy_expand, &calls);
    add(f, "#c", 0, "+a");
    add(f, "#c", 0, "+b");
    add(f, "#c", 0, "plain");
    assert_int_equal(outq_load(f->q), 0);
    outq_msg *m = outq_take(f->q, NULL, NULL);
    assert_string_equal(m->text, "+a+b");
    outq_untake(f->q, m); /* a disconnect: nothing was written */
    assert_int_equal(outq_count(f->q), 3);
    add(f, "#c", 0, "+late"); /* comes after "plain": not merged with "+a+b" */
    assert_int_equal(outq_load(f->q), 0);
    m = outq_take(f->q, NULL, NULL);
    assert_string_equal(m->text, "+a+b"); /* rendered again when taken again */
    outq_untake_all(f->q);
    expect_next(f, "+a+b");
    expect_next(f, "plain");
    expect_next(f, "+late");
    assert_int_equal(outq_count(f->q), 0);
}

static void test_an_obsolete_line_is_marked_sent_unwritten_and_the_next_offered(void **state)
{
    fx *f = *state;
    int calls = 0;
    outq_set_expander(f->q, toy_expand, &calls);
    add(f, "#c", 0, "drop me");
    add(f, "#c", 0, "up to date");
    assert_int_equal(outq_load(f->q), 0);
    outq_msg *m = outq_take(f->q, NULL, NULL);
    assert_non_null(m);
    assert_string_equal(m->text, "UP TO DATE");
    assert_string_equal(m->raw, "up to date");
    outq_sent(f->q, m);
    assert_int_equal(outq_flush_done(f->q), 0);
    assert_int_equal(outbox_rows(f), 0);
    assert_int_equal(calls, 2);
}

static outq_verdict park_all(void *arg, const outq_msg *m)
{
    (void)arg;
    (void)m;
    return OUTQ_PARK;
}

static void test_a_parked_target_keeps_its_lines_and_renders_them_again(void **state)
{
    fx *f = *state;
    int calls = 0;
    outq_set_expander(f->q, toy_expand, &calls);
    add(f, "#c", 0, "+a");
    add(f, "#c", 0, "+b");
    assert_int_equal(outq_load(f->q), 0);
    assert_null(outq_take(f->q, park_all, NULL));
    assert_int_equal(outq_count(f->q), 2);
    outq_unpark_all(f->q);
    add(f, "#c", 0, "+c");
    assert_int_equal(outq_load(f->q), 0);
    expect_next(f, "+a+b+c");
    assert_int_equal(calls, 2);
    assert_int_equal(outq_count(f->q), 0);
}

static void test_volatile_lines_merged_are_counted_out_with_the_one(void **state)
{
    fx *f = *state;
    int calls = 0;
    outq_set_expander(f->q, toy_expand, &calls);
    assert_int_equal(outq_add_volatile(f->q, "ann", STORE_MSG_PRIVATE, 0, "+x"), 0);
    assert_int_equal(outq_add_volatile(f->q, "ann", STORE_MSG_PRIVATE, 0, "+y"), 0);
    expect_next(f, "+x+y");
    assert_int_equal(outq_count(f->q), 0);
    for (int i = 0; i < OUTQ_VOLATILE_MAX; i++) /* both were given back to the bound */
        assert_int_equal(outq_add_volatile(f->q, "bob", STORE_MSG_PRIVATE, 0, "v"), 0);
    assert_int_equal(outq_add_volatile(f->q, "bob", STORE_MSG_PRIVATE, 0, "v"), -1);
}

static void test_a_queue_above_its_threshold_for_a_minute_warns_once_per_episode(void **state)
{
    (void)state;
    outq_watch w;
    outq_watch_init(&w);
    assert_int_equal(outq_watch_check(&w, OUTQ_WATCH_COUNT, 0), 0); /* at it: not above */
    assert_int_equal(outq_watch_check(&w, OUTQ_WATCH_COUNT + 1, 1000), 0);
    assert_int_equal(outq_watch_check(&w, 9000, 1000 + OUTQ_WATCH_MS - 1), 0);
    assert_int_equal(outq_watch_check(&w, 9000, 1000 + OUTQ_WATCH_MS), 1);
    assert_int_equal(outq_watch_check(&w, 9000, 1000 + 5 * OUTQ_WATCH_MS), 0); /* once */
    assert_int_equal(outq_watch_check(&w, 12, 1000 + 6 * OUTQ_WATCH_MS), -1);  /* over */
    assert_int_equal(outq_watch_check(&w, 12, 1000 + 7 * OUTQ_WATCH_MS), 0);
    /* A dip under the threshold starts the minute again. */
    assert_int_equal(outq_watch_check(&w, 600, 0), 0);
    assert_int_equal(outq_watch_check(&w, 10, OUTQ_WATCH_MS / 2), 0);
    assert_int_equal(outq_watch_check(&w, 600, OUTQ_WATCH_MS / 2 + 1), 0);
    assert_int_equal(outq_watch_check(&w, 600, OUTQ_WATCH_MS + 1), 0);
    assert_int_equal(outq_watch_check(&w, 600, OUTQ_WATCH_MS * 3 / 2 + 1), 1);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_every_target_gets_a_turn_however_long_one_backlog_is),
        cmocka_unit_test(test_a_queue_above_its_threshold_for_a_minute_warns_once_per_episode),
        T(test_a_rooms_line_goes_before_private_text_for_a_crowd),
        T(test_busy_rooms_let_one_private_message_through_every_four),
        T(test_hands_go_before_other_lines_within_and_across_targets),
        T(test_a_backlog_of_hands_lets_one_other_line_through_every_five),
        T(test_a_target_gives_one_message_at_a_time),
        T(test_parked_targets_are_skipped_until_unparked),
        T(test_dropped_messages_are_marked_sent_in_the_store),
        T(test_marks_are_written_in_one_batch_and_kept_when_refused),
        T(test_marks_and_the_callers_writes_commit_together_or_not_at_all),
        T(test_loading_reads_only_new_rows_and_other_networks_never),
        T(test_a_backlog_larger_than_one_load_comes_in_over_several),
        T(test_a_new_row_is_read_before_a_restarts_backlog_and_keeps_target_order),
        T(test_volatile_messages_are_bounded_and_never_touch_the_store),
        T(test_a_volatile_reply_comes_after_every_row_committed_before_it),
        T(test_purge_forgets_a_targets_queue_in_memory_and_store),
        T(test_lines_in_a_row_are_merged_and_all_marked_sent_with_the_one),
        T(test_a_merged_line_given_back_returns_its_lines_in_order),
        T(test_an_obsolete_line_is_marked_sent_unwritten_and_the_next_offered),
        T(test_a_parked_target_keeps_its_lines_and_renders_them_again),
        T(test_volatile_lines_merged_are_counted_out_with_the_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
