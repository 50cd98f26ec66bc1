/*
 * test_pack.c — pz_pack() and pz_restore() of a packed document: at every
 * step of whole random games of every set-up, the packed form restores to
 * a game that saves to exactly the JSON of the original and packs to the
 * same bytes again; it is printable ASCII without quote or backslash and at
 * most a fifth of the JSON; and every truncation, every single character
 * changed, other versions and trailing bytes are refused with a message
 * (or, for a change that still makes a game, restored to one that round
 * trips). Documents go to pz_restore in heap blocks of exactly their
 * length, so a sanitizer or valgrind sees any overread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "porrazo.h"
#include "save_games.h"

static const setup SETUPS[] = {
    {2, {NULL}},
    {2, {"card_score", "excess26", "target", "150", "wrap", "false"}},
    {2, {"target", "10000", "final_sweep", "dealer", "tendido", "last"}},
    {3, {"declarations", "manual"}},
    {3, {"declarations", "silent", "tendido", "last", "target", "1"}},
    {4, {"partnerships", "true", "declarations", "manual"}},
    {4, {"card_score", "difference", "odd_leftover", "deal"}},
    {4, {"partnerships", "true", "card_score", "excess26", "target", "31"}},
    {5, {"odd_leftover", "deal", "final_sweep", "dealer"}},
    {6, {"tendido", "last", "partnerships", "true"}},
    {7, {"declarations", "silent", "odd_leftover", "deal"}},
    {8, {"partnerships", "true", "target", "31"}},
};
#define NSETUPS ((int)(sizeof SETUPS / sizeof SETUPS[0]))

/* Packs g into doc (PZ_PACK_MAX bytes) and returns the length. */
static size_t pack(const pz_game *g, char *doc)
{
    int n = pz_pack(g, doc, PZ_PACK_MAX);
    assert_true(n > 0 && n < PZ_PACK_MAX);
    assert_int_equal(strlen(doc), (size_t)n);
    return (size_t)n;
}

/* pz_restore on an exact heap copy of doc[0..len). */
static int restore(pz_game **out, const char *doc, size_t len, char *why)
{
    char *copy = malloc(len > 0 ? len : 1);
    assert_non_null(copy);
    memcpy(copy, doc, len);
    int rc = pz_restore(out, copy, len, why, PZ_WHY_MAX);
    free(copy);
    return rc;
}

/*
 * Restores doc and expects bad_document, *out untouched, a message, and
 * the phrase in it when phrase is not NULL.
 */
static void refused(const char *doc, size_t len, const char *phrase)
{
    static pz_game *const untouched = (pz_game *)&SETUPS;
    pz_game *g = untouched;
    char why[PZ_WHY_MAX];
    memset(why, 'x', sizeof why);
    int rc = restore(&g, doc, len, why);
    int said = memchr(why, '\0', sizeof why) != NULL && why[0] != '\0' &&
               (phrase == NULL || strstr(why, phrase) != NULL);
    if (rc != PZ_EBAD_DOCUMENT || g != untouched || !said)
        print_message("document: %.*s\nrc %d, message: %.*s\n", (int)len, doc, rc, (int)sizeof why,
                      why);
    assert_int_equal(rc, PZ_EBAD_DOCUMENT);
    assert_ptr_equal(g, untouched);
    assert_true(said);
}

/* Copies doc with doc[at] replaced by ch, restores it and expects phrase. */
static void refused_at(const char *doc, size_t n, size_t at, char ch, const char *phrase)
{
    char bad[PZ_PACK_MAX];
    assert_true(at < n && n < sizeof bad);
    memcpy(bad, doc, n);
    bad[at] = ch;
    refused(bad, n, phrase);
}

/* A game of set-up s played `steps` actions in, packed into doc. */
static size_t sample(const setup *s, int steps, char *doc)
{
    uint64_t x = 88172645463325252u;
    pz_game *g = sg_new_game(s, 7);
    for (int i = 0; i < steps && sg_step(g, &x); i++)
        ;
    size_t n = pack(g, doc);
    pz_free(g);
    return n;
}

/* Sorts ints in place, for medians. */
static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* ------------------------------------------------------------------------ */
/* Packing                                                                  */

/*
 * Checks that doc[0..n) is a packed document's text: "~1", then only
 * digits, letters, '-' and '_' (no NUL, nothing at or above 0x80, no quote
 * or backslash).
 */
static void is_packed_text(const char *doc, size_t n)
{
    assert_true(n > 2);
    assert_int_equal(doc[0], '~');
    assert_int_equal(doc[1], '1');
    for (size_t i = 2; i < n; i++) {
        char c = doc[i];
        int ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                 c == '-' || c == '_';
        if (!ok)
            print_message("byte %zu is 0x%02x in %s\n", i, (unsigned)(unsigned char)c, doc);
        assert_true(ok);
    }
}

/* Checks one state g: pack, restore, save and pack again; adds its sizes. */
static void round_trips(const pz_game *g, int *packed, int *json)
{
    char p[PZ_PACK_MAX], p2[PZ_PACK_MAX], j[PZ_SAVE_MAX], j2[PZ_SAVE_MAX], why[PZ_WHY_MAX] = "";
    size_t np = pack(g, p), nj = sg_save(g, j);
    is_packed_text(p, np);
    pz_game *r = NULL;
    int rc = restore(&r, p, np, why);
    if (rc != 0)
        print_message("refused its own packed form: %s\n%s\n%s\n", why, p, j);
    assert_int_equal(rc, 0);
    assert_int_equal(sg_save(r, j2), nj);
    assert_string_equal(j2, j);
    assert_int_equal(pack(r, p2), np);
    assert_string_equal(p2, p);
    pz_free(r);
    *packed = (int)np;
    *json = (int)nj;
}

static void test_pack_restore_save_gives_the_json_of_the_original_through_whole_games(void **state)
{
    (void)state;
    enum { MAXSTATES = 200000 };
    int *packed = malloc(MAXSTATES * sizeof *packed), *json = malloc(MAXSTATES * sizeof *json);
    int states = 0, over = 0, worst = 0;
    double worst_ratio = 0;
    assert_true(packed != NULL && json != NULL);
    for (int s = 0; s < NSETUPS; s++) {
        for (uint64_t seed = 1; seed <= 4; seed++) {
            uint64_t x = seed * 0x9e3779b97f4a7c15u + (uint64_t)s;
            pz_game *g = sg_new_game(&SETUPS[s], seed);
            for (int i = 0; i < 4000 && states < MAXSTATES; i++) {
                round_trips(g, &packed[states], &json[states]);
                double ratio = (double)packed[states] / json[states];
                worst_ratio = ratio > worst_ratio ? ratio : worst_ratio;
                worst = packed[states] > worst ? packed[states] : worst;
                states++;
                if (!sg_step(g, &x))
                    break;
            }
            over += pz_get_phase(g) == PZ_PHASE_GAME_OVER;
            pz_free(g);
        }
    }
    qsort(packed, (size_t)states, sizeof *packed, by_value);
    qsort(json, (size_t)states, sizeof *json, by_value);
    print_message("%d states of %d games (%d finished): packed median %d max %d bytes, "
                  "JSON median %d max %d bytes, packed/JSON at most %.3f\n",
                  states, NSETUPS * 4, over, packed[states / 2], packed[states - 1],
                  json[states / 2], json[states - 1], worst_ratio);
    assert_true(over > NSETUPS); /* most games were played to their end */
    assert_true(worst < PZ_PACK_MAX);
    assert_true(5 * packed[states / 2] <= json[states / 2]);
    free(packed);
    free(json);
}

/*
 * A game of set-up s in phase play at least `steps` actions in, from the
 * first seed whose game lasts that long.
 */
static pz_game *mid_game(const setup *s, int steps)
{
    for (uint64_t seed = 1;; seed++) {
        uint64_t x = 777 + seed;
        pz_game *g = sg_new_game(s, seed);
        int i = 0;
        while ((i < steps || pz_get_phase(g) != PZ_PHASE_PLAY) && sg_step(g, &x))
            i++;
        if (pz_get_phase(g) == PZ_PHASE_PLAY)
            return g;
        pz_free(g); /* over already (a low target): the next seed */
    }
}

static void test_a_mid_game_state_packs_to_at_most_a_fifth_of_its_json(void **state)
{
    (void)state;
    for (int s = 0; s < NSETUPS; s++) {
        if (SETUPS[s].players > 4)
            continue; /* the bot's usual tables: 2 to 4 players */
        char p[PZ_PACK_MAX], j[PZ_SAVE_MAX];
        pz_game *g = mid_game(&SETUPS[s], 25); /* cards won, played, held */
        size_t np = pack(g, p), nj = sg_save(g, j);
        if (5 * np > nj)
            print_message("%zu packed against %zu JSON:\n%s\n%s\n", np, nj, p, j);
        assert_true(5 * np <= nj);
        pz_free(g);
    }
}

static void test_the_same_game_always_packs_to_the_same_bytes(void **state)
{
    (void)state;
    for (int s = 0; s < NSETUPS; s++) {
        char a[PZ_PACK_MAX], b[PZ_PACK_MAX];
        size_t na = sample(&SETUPS[s], 40, a), nb = sample(&SETUPS[s], 40, b);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
    }
}

static void test_pack_refuses_every_buffer_too_small_and_leaves_it_untouched(void **state)
{
    (void)state;
    char doc[PZ_PACK_MAX], buf[PZ_PACK_MAX];
    uint64_t x = 5;
    pz_game *g = sg_new_game(&SETUPS[5], 3);
    for (int i = 0; i < 25; i++)
        sg_step(g, &x);
    size_t n = pack(g, doc);
    for (size_t cap = 0; cap <= n; cap++) {
        memset(buf, '#', sizeof buf);
        assert_int_equal(pz_pack(g, buf, cap), PZ_ENO_SPACE);
        for (size_t i = 0; i < sizeof buf; i++)
            assert_int_equal(buf[i], '#');
    }
    assert_int_equal(pz_pack(g, buf, n + 1), (int)n);
    assert_string_equal(buf, doc);
    assert_int_equal(pz_pack(g, NULL, 0), PZ_ENO_SPACE);
    pz_free(g);
}

static void test_a_game_restored_from_its_packed_form_plays_on_like_the_original(void **state)
{
    (void)state;
    for (int s = 0; s < NSETUPS; s++) {
        uint64_t x = 4242 + (uint64_t)s;
        char doc[PZ_PACK_MAX], why[PZ_WHY_MAX];
        pz_game *g = sg_new_game(&SETUPS[s], 13), *r = NULL;
        for (int i = 0; i < 30; i++)
            sg_step(g, &x);
        assert_int_equal(restore(&r, doc, pack(g, doc), why), 0);
        sg_play_on_alike(g, r, x);
        pz_free(g);
        pz_free(r);
    }
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                 */

static void test_restore_refuses_every_truncation_of_a_packed_document(void **state)
{
    (void)state;
    for (int s = 0; s < NSETUPS; s += 3) {
        char doc[PZ_PACK_MAX];
        size_t n = sample(&SETUPS[s], 30, doc);
        refused(doc, 0, "empty"); /* no first byte: read as JSON */
        refused(doc, 1, "packed saved game: no version");
        for (size_t len = 2; len < n; len++)
            refused(doc, len, "packed saved game: field '");
        for (size_t len = 2; len < n; len++)
            refused(doc, len, "the document ends inside it");
    }
}

static void test_restore_refuses_other_packed_versions_naming_the_version(void **state)
{
    (void)state;
    char doc[PZ_PACK_MAX];
    size_t n = sample(&SETUPS[0], 5, doc);
    refused_at(doc, n, 1, '2', "packed saved game: version '2' is not supported");
    refused_at(doc, n, 1, '0', "version '0' is not supported: this engine reads version 1");
    refused_at(doc, n, 1, '_', "version '_'");
    refused_at(doc, n, 1, '\0', "version '\\x00'");
    refused_at(doc, n, 1, (char)0xC3, "version '\\xC3'");
}

static void test_restore_refuses_bytes_after_a_packed_document(void **state)
{
    (void)state;
    char doc[2 * PZ_PACK_MAX];
    size_t n = sample(&SETUPS[3], 20, doc);
    memcpy(doc + n, "0", 2);
    refused(doc, n + 1, "packed saved game: characters after the end of the document (1)");
    doc[n] = '\0'; /* a NUL after the document, inside len */
    refused(doc, n + 1, "after the end");
    memcpy(doc + n, doc, n); /* the document twice */
    refused(doc, 2 * n, "after the end");
    doc[n] = ' ';
    refused(doc, n + 1, "after the end"); /* not even whitespace, unlike JSON */
}

static void test_restore_names_the_packed_field_out_of_range(void **state)
{
    (void)state;
    char doc[PZ_PACK_MAX];
    /* "~1", the target (3 digits), 7 options of one digit, then "players" */
    size_t n = sample(&SETUPS[0], 3, doc);
    refused_at(doc, n, 12, '7', "packed saved game: field 'players': the value 9 is not from 2");
    refused_at(doc, n, 12, '!', "field 'players': character 12, '!', is not a digit");
    refused_at(doc, n, 12, '"', "'\"'");
    refused_at(doc, n, 2, 'z', "field 'options.target': the value");
    refused_at(doc, n, 5, '2', "field 'options.wrap': the value 2 is not from 0 to 1");
    refused_at(doc, n, 6, '3', "field 'options.declarations'");
    char zero[PZ_PACK_MAX];
    memcpy(zero, doc, n);
    memcpy(zero + 2, "000", 3);
    refused(zero, n, "'options.target': option target takes a whole number from 1 to 10000");
    refused_at(doc, n, 11, '1', "packed saved game: field 'options': partnerships need");
    n = sample(&SETUPS[3], 3, doc); /* 3 players, three sides */
    refused_at(doc, n, 10, '1', "packed saved game: field 'options': card_score=excess26");
}

/*
 * Restores doc with doc[at] replaced by ch: either refused with a message
 * or a game (which passed pz_restore's checks) whose packed form round
 * trips. Returns 1 when it was a game.
 */
static int changed_at(const char *doc, size_t n, size_t at, char ch)
{
    char bad[PZ_PACK_MAX], why[PZ_WHY_MAX];
    pz_game *g = NULL;
    memcpy(bad, doc, n);
    bad[at] = ch;
    memset(why, 'x', sizeof why);
    int rc = restore(&g, bad, n, why);
    assert_true(rc == 0 || rc == PZ_EBAD_DOCUMENT);
    if (rc != 0) {
        assert_null(g);
        assert_non_null(memchr(why, '\0', sizeof why));
        assert_true(why[0] != '\0');
        if (at > 0) /* a first byte changed makes a JSON document */
            assert_non_null(strstr(why, "packed saved game: "));
        return 0;
    }
    char p[PZ_PACK_MAX], q[PZ_PACK_MAX];
    size_t np = pack(g, p);
    pz_game *r = NULL;
    assert_int_equal(restore(&r, p, np, why), 0);
    assert_int_equal(pack(r, q), np);
    assert_string_equal(p, q);
    pz_free(r);
    pz_free(g);
    return 1;
}

static void test_restore_refuses_or_keeps_a_game_for_every_character_changed(void **state)
{
    (void)state;
    static const char others[] = "0z_-~!\"\\ \x7f\x80\xff";
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
    int tried = 0, games = 0;
    for (int s = 0; s < NSETUPS; s++) {
        char doc[PZ_PACK_MAX];
        size_t n = sample(&SETUPS[s], 10 + 17 * s, doc);
        for (size_t at = 0; at < n; at++) {
            const char *d = strchr(digits, doc[at]);
            int v = d != NULL ? (int)(d - digits) : 0;
            char tries[sizeof others + 2];
            memcpy(tries, others, sizeof others - 1);
            tries[sizeof others - 1] = digits[(v + 1) % 64]; /* the next and previous digit */
            tries[sizeof others] = digits[(v + 63) % 64];
            tries[sizeof others + 1] = '\0'; /* and a NUL */
            for (size_t k = 0; k < sizeof tries; k++) {
                if (tries[k] == doc[at])
                    continue;
                games += changed_at(doc, n, at, tries[k]);
                tried++;
            }
        }
    }
    print_message("%d of %d packed documents with a character changed were still games\n", games,
                  tried);
    assert_true(games < tried / 4);
}

static void test_restore_refuses_random_bytes_after_the_packed_mark(void **state)
{
    (void)state;
    char bad[PZ_PACK_MAX];
    uint64_t x = 0xfeedfacecafebeefu;
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
    for (int round = 0; round < 5000; round++) {
        size_t len = 1 + (size_t)(sg_next(&x) % 400);
        bad[0] = '~';
        for (size_t i = 1; i < len; i++) /* digits mostly, so the reader goes deep */
            bad[i] = round % 4 == 0 ? (char)sg_next(&x) : digits[sg_next(&x) % 64];
        if (len > 1 && round % 2 == 1)
            bad[1] = '1';
        refused(bad, len, "packed saved game: ");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack_restore_save_gives_the_json_of_the_original_through_whole_games),
        cmocka_unit_test(test_a_mid_game_state_packs_to_at_most_a_fifth_of_its_json),
        cmocka_unit_test(test_the_same_game_always_packs_to_the_same_bytes),
        cmocka_unit_test(test_pack_refuses_every_buffer_too_small_and_leaves_it_untouched),
        cmocka_unit_test(test_a_game_restored_from_its_packed_form_plays_on_like_the_original),
        cmocka_unit_test(test_restore_refuses_every_truncation_of_a_packed_document),
        cmocka_unit_test(test_restore_refuses_other_packed_versions_naming_the_version),
        cmocka_unit_test(test_restore_refuses_bytes_after_a_packed_document),
        cmocka_unit_test(test_restore_names_the_packed_field_out_of_range),
        cmocka_unit_test(test_restore_refuses_or_keeps_a_game_for_every_character_changed),
        cmocka_unit_test(test_restore_refuses_random_bytes_after_the_packed_mark),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
