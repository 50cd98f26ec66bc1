/*
 * test_save.c — pz_save() and pz_restore(): the document round-trips byte
 * for byte through whole games of every set-up, and every kind of broken
 * document (cut short, wrong version, unknown or missing field, duplicate
 * or missing card, seats out of range, bad words, huge numbers, deep
 * nesting, garbage, NUL bytes) is refused with bad_document, a message
 * that names the problem, no game and no leak. Documents go to pz_restore
 * in heap blocks of exactly their length, so valgrind sees any overread.
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
    {3, {"declarations", "manual"}},
    {4, {"partnerships", "true", "declarations", "manual"}},
    {5, {"odd_leftover", "deal", "final_sweep", "dealer"}},
    {6, {"tendido", "last", "partnerships", "true"}},
    {7, {"declarations", "silent", "odd_leftover", "deal"}},
    {8, {"partnerships", "true", "target", "31"}},
};
#define NSETUPS ((int)(sizeof SETUPS / sizeof SETUPS[0]))

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
 * the phrase in it when phrase is not NULL. Returns nothing; fails loudly.
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

/* Restores doc, saves the game again and expects exactly want. */
static void restores_to(const char *doc, size_t len, const char *want)
{
    char why[PZ_WHY_MAX] = "", again[PZ_SAVE_MAX];
    pz_game *g = NULL;
    int rc = restore(&g, doc, len, why);
    if (rc != 0)
        print_message("refused: %s\n", why);
    assert_int_equal(rc, 0);
    sg_save(g, again);
    assert_string_equal(again, want);
    pz_free(g);
}

/*
 * Copies doc to out (cap bytes) with the first `from` replaced by `to`.
 * Returns the new length.
 */
static size_t edit(const char *doc, const char *from, const char *to, char *out, size_t cap)
{
    const char *at = strstr(doc, from);
    if (at == NULL)
        print_message("'%s' not in %s\n", from, doc);
    assert_non_null(at);
    size_t head = (size_t)(at - doc), nf = strlen(from), nt = strlen(to);
    size_t tail = strlen(doc) - head - nf;
    assert_true(head + nt + tail < cap);
    memmove(out, doc, head);
    memmove(out + head + nt, at + nf, tail);
    memcpy(out + head, to, nt);
    out[head + nt + tail] = '\0';
    return head + nt + tail;
}

/* Edits the sample doc and expects the result refused with phrase. */
static void refused_edit(const char *doc, const char *from, const char *to, const char *phrase)
{
    char bad[2 * PZ_SAVE_MAX];
    size_t n = edit(doc, from, to, bad, sizeof bad);
    refused(bad, n, phrase);
}

/* A game of set-up s played `steps` actions in, saved into doc. */
static size_t sample(const setup *s, int steps, char *doc)
{
    uint64_t x = 88172645463325252u;
    pz_game *g = sg_new_game(s, 7);
    for (int i = 0; i < steps && sg_step(g, &x); i++)
        ;
    size_t n = sg_save(g, doc);
    pz_free(g);
    return n;
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                   */

static void test_save_starts_with_the_version_and_writes_no_spaces(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX];
    size_t n = sample(&SETUPS[0], 0, doc);
    static const char head[] =
        "{\"porrazo\":1,\"options\":{\"target\":61,\"wrap\":true,\"declarations\":\"auto\","
        "\"tendido\":\"choice\",\"odd_leftover\":\"table\",\"final_sweep\":\"last_capturer\","
        "\"card_score\":\"difference\",\"partnerships\":false},\"players\":2,"
        "\"phase\":\"tendido_choice\",";
    assert_memory_equal(doc, head, sizeof head - 1);
    assert_null(memchr(doc, ' ', n));
    assert_null(memchr(doc, '\n', n));
    assert_int_equal(doc[n - 1], '}');
    assert_non_null(strstr(doc, "\"rng\":[\""));
}

static void test_the_same_game_always_saves_to_the_same_bytes(void **state)
{
    (void)state;
    for (int s = 0; s < NSETUPS; s++) {
        char a[PZ_SAVE_MAX], b[PZ_SAVE_MAX], c[PZ_SAVE_MAX];
        size_t na = sample(&SETUPS[s], 40, a), nb = sample(&SETUPS[s], 40, b);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
        pz_game *g = sg_new_game(&SETUPS[s], 99);
        sg_save(g, b);
        sg_save(g, c);
        assert_string_equal(b, c);
        pz_free(g);
    }
}

static void test_save_refuses_every_buffer_too_small_and_leaves_it_untouched(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], buf[PZ_SAVE_MAX];
    uint64_t x = 5;
    pz_game *g = sg_new_game(&SETUPS[3], 3);
    for (int i = 0; i < 25; i++)
        sg_step(g, &x);
    size_t n = sg_save(g, doc);
    for (size_t cap = 0; cap <= n; cap++) {
        memset(buf, '#', sizeof buf);
        assert_int_equal(pz_save(g, buf, cap), PZ_ENO_SPACE);
        for (size_t i = 0; i < sizeof buf; i++)
            assert_int_equal(buf[i], '#');
    }
    assert_int_equal(pz_save(g, buf, n + 1), (int)n);
    assert_string_equal(buf, doc);
    assert_int_equal(pz_save(g, NULL, 0), PZ_ENO_SPACE);
    pz_free(g);
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                              */

static void test_save_restore_save_is_byte_identical_through_whole_games(void **state)
{
    (void)state;
    int steps = 0, longest = 0, over = 0;
    for (int s = 0; s < NSETUPS; s++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            uint64_t x = seed * 0x9e3779b97f4a7c15u;
            pz_game *g = sg_new_game(&SETUPS[s], seed);
            for (int i = 0; i < 4000; i++, steps++) {
                char doc[PZ_SAVE_MAX], why[PZ_WHY_MAX] = "";
                size_t n = sg_save(g, doc);
                longest = n > (size_t)longest ? (int)n : longest;
                pz_game *r = NULL;
                int rc = restore(&r, doc, n, why);
                if (rc != 0)
                    print_message("refused its own save: %s\n%s\n", why, doc);
                assert_int_equal(rc, 0);
                restores_to(doc, n, doc);
                pz_free(g);
                g = r; /* play on from what the document held */
                if (!sg_step(g, &x))
                    break;
            }
            over += pz_get_phase(g) == PZ_PHASE_GAME_OVER;
            pz_free(g);
        }
    }
    print_message("%d states round-tripped, %d games finished, longest document %d bytes\n", steps,
                  over, longest);
    assert_true(over > NSETUPS); /* most games were played to their end */
}

static void test_a_restored_game_plays_on_exactly_like_the_original(void **state)
{
    (void)state;
    for (int s = 0; s < NSETUPS; s++) {
        uint64_t x = 12345 + (uint64_t)s;
        char doc[PZ_SAVE_MAX], why[PZ_WHY_MAX];
        pz_game *g = sg_new_game(&SETUPS[s], 11), *r = NULL;
        for (int i = 0; i < 30; i++)
            sg_step(g, &x);
        assert_int_equal(restore(&r, doc, sg_save(g, doc), why), 0);
        sg_play_on_alike(g, r, x);
        pz_free(g);
        pz_free(r);
    }
}

static void test_restore_accepts_whitespace_and_any_member_order(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], spaced[3 * PZ_SAVE_MAX], moved[2 * PZ_SAVE_MAX];
    size_t n = sample(&SETUPS[2], 20, doc), k = 0;
    for (size_t i = 0; i < n; i++) { /* a space or line break around every separator */
        int sep = doc[i] == ',' || doc[i] == ':' || doc[i] == '{' || doc[i] == '[';
        if (sep && i % 3 == 0)
            spaced[k++] = '\n';
        spaced[k++] = doc[i];
        if (sep)
            spaced[k++] = i % 2 ? ' ' : '\t';
    }
    restores_to(spaced, k, doc);
    /* "players" moved to the end: still the same game */
    char tmp[2 * PZ_SAVE_MAX], from[40];
    const char *p = strstr(doc, "\"players\":");
    assert_non_null(p);
    int m = (int)strcspn(p, ",");
    assert_true(snprintf(from, sizeof from, "%.*s,", m, p) < (int)sizeof from);
    size_t len = edit(doc, from, "", tmp, sizeof tmp);
    int w = snprintf(moved, sizeof moved, "%.*s,%.*s}", (int)len - 1, tmp, m, p);
    assert_true(w > 0 && w < (int)sizeof moved);
    restores_to(moved, (size_t)w, doc);
}

static void test_restore_reads_escaped_strings_as_their_text(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], bad[2 * PZ_SAVE_MAX];
    sample(&SETUPS[0], 0, doc);
    size_t n = edit(doc, "\"tendido_choice\"", "\"tendido\\u005fchoice\"", bad, sizeof bad);
    restores_to(bad, n, doc);
    n = edit(doc, "\"porrazo\"", "\"\\u0070orrazo\"", bad, sizeof bad);
    restores_to(bad, n, doc);
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                 */

static void test_restore_refuses_every_truncation_of_a_valid_document(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX];
    size_t n = sample(&SETUPS[4], 30, doc);
    for (size_t len = 0; len < n; len++)
        refused(doc, len, len == 0 ? "empty" : "not valid JSON");
    char why[PZ_WHY_MAX];
    pz_game *g = NULL;
    assert_int_equal(pz_restore(&g, NULL, 0, why, sizeof why), PZ_EBAD_DOCUMENT);
    assert_null(g);
    assert_non_null(strstr(why, "empty"));
}

static void test_restore_refuses_other_versions_naming_the_version(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX];
    sample(&SETUPS[0], 5, doc);
    refused_edit(doc, "\"porrazo\":1", "\"porrazo\":2", "version 2 is not supported");
    refused_edit(doc, "\"porrazo\":1", "\"porrazo\":0", "version 0");
    refused_edit(doc, "\"porrazo\":1", "\"porrazo\":-1", "version -1");
    refused_edit(doc, "\"porrazo\":1", "\"porrazo\":1.0", "version 1.0");
    refused_edit(doc, "\"porrazo\":1", "\"porrazo\":99999999999999999999999",
                 "version 99999999999999999999999");
    refused_edit(doc, "\"porrazo\":1", "\"porrazo\":\"1\"", "'porrazo'");
    refused_edit(doc, "{\"porrazo\":1,", "{", "starts {\"porrazo\":1");
    refused_edit(doc, "{\"porrazo\":1,\"options\"", "{\"options\"", "starts");
    refused("[]", 2, "starts");
    refused("{}", 2, "starts");
}

static void test_restore_refuses_unknown_missing_and_repeated_fields(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX];
    sample(&SETUPS[3], 12, doc);
    refused_edit(doc, "\"players\":", "\"colour\":\"red\",\"players\":", "'colour'");
    refused_edit(doc, "\"target\":", "\"speed\":3,\"target\":", "'options.speed'");
    refused_edit(doc, "\"claimed\":", "\"why\":null,\"claimed\":", "'holdings[0].why'");
    refused_edit(doc, "\"r3_off\":false,", "", "'r3_off': is missing");
    refused_edit(doc, "\"wrap\":true,", "", "'options.wrap': is missing");
    refused_edit(doc, "\"claim_open\":", "\"dealer\":0,\"claim_open\":", "'dealer': appears twice");
    refused_edit(doc, "\"players\":", "\"porrazo\":1,\"players\":", "appears twice");
    refused_edit(doc, "\"players\":", "\"\\u0000\\u0001\\u00e9\":1,\"players\":", "'???");
}

/* The first two cards of hand `seat` in doc. */
static void hand_cards(const char *doc, int seat, char out[5])
{
    const char *p = strstr(doc, "\"hands\":[\"");
    assert_non_null(p);
    p += strlen("\"hands\":[\"");
    for (int s = 0; s < seat; s++)
        p = strstr(p, "\",\"") + 3;
    memcpy(out, p, 4);
    out[4] = '\0';
}

static void test_restore_refuses_a_duplicate_or_missing_card(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], h0[5], h1[5], to[5], won[8];
    sample(&SETUPS[0], 0, doc); /* every hand holds 3 cards */
    hand_cards(doc, 0, h0);
    hand_cards(doc, 1, h1);
    memcpy(to, h0, 2);
    memcpy(to + 2, h1 + 2, 3); /* seat 1's first card becomes seat 0's */
    char from[16], into[16];
    assert_true(snprintf(from, sizeof from, "\",\"%s", h1) < (int)sizeof from);
    assert_true(snprintf(into, sizeof into, "\",\"%s", to) < (int)sizeof into);
    refused_edit(doc, from, into, "two places");

    sample(&SETUPS[0], 60, doc);
    const char *w = strstr(doc, "\"won\":\"");
    assert_non_null(w);
    w += strlen("\"won\":\"");
    assert_true(*w != '"'); /* 60 actions in, cards have been won */
    memcpy(won, w, 2);
    assert_true(snprintf(from, sizeof from, "\"won\":\"%.2s", won) < (int)sizeof from);
    refused_edit(doc, from, "\"won\":\"", "nowhere"); /* 51 cards */
    assert_true(snprintf(into, sizeof into, "\"won\":\"%.2s%.2s", won, won) < (int)sizeof into);
    refused_edit(doc, from, into, "'won': names a card twice");
    refused_edit(doc, "\"stock\":\"", "\"stock\":\"ZZ", "'stock'");
}

static void test_restore_refuses_cards_not_in_canonical_form(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], h0[5], from[16], to[16];
    sample(&SETUPS[0], 0, doc);
    hand_cards(doc, 0, h0);
    const char *forms[] = {"xx", "1", "10C", "\\u0000C", "?C"};
    char lower[3] = {h0[0], (char)(h0[1] - 'A' + 'a'), '\0'};
    assert_true(snprintf(from, sizeof from, "[\"%.2s", h0) < (int)sizeof from);
    assert_true(snprintf(to, sizeof to, "[\"%s", lower) < (int)sizeof to);
    refused_edit(doc, from, to, "not a card");
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        assert_true(snprintf(to, sizeof to, "[\"%s", forms[i]) < (int)sizeof to);
        refused_edit(doc, from, to, "'hands[0]'");
    }
    refused_edit(doc, "\"last_play_card\":\"", "\"last_play_card\":\"T", "'last_play_card'");
    refused_edit(doc, "\"tendido\":\"\",", "\"tendido\":\"2C3C4C5C6C\",", "at most 4 cards");
}

static void test_restore_refuses_seats_out_of_range(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], when[PZ_SAVE_MAX];
    sample(&SETUPS[0], 3, doc);
    assert_non_null(strstr(doc, "\"dealer\":"));
    const char *d = strstr(doc, "\"dealer\":") + strlen("\"dealer\":");
    char from[16];
    assert_true(snprintf(from, sizeof from, "\"dealer\":%c", *d) < (int)sizeof from);
    refused_edit(doc, from, "\"dealer\":8", "'dealer': must be a whole number from 0 to 7");
    refused_edit(doc, from, "\"dealer\":2", "dealer is not a seat");
    refused_edit(doc, from, "\"dealer\":-1", "'dealer'");
    sample(&SETUPS[2], 0, when); /* 3 players: the turn is -1 at the tendido choice */
    refused_edit(when, "\"turn\":-1", "\"turn\":-2", "'turn'");
    refused_edit(when, "\"turn\":-1", "\"turn\":2", "player to move");
    refused_edit(when, "\"winner\":-1", "\"winner\":3", "winner");
    refused_edit(when, "\"players\":3", "\"players\":9", "'players'");
}

static void test_restore_refuses_a_bad_phase_word(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX];
    sample(&SETUPS[0], 0, doc);
    refused_edit(doc, "\"phase\":\"tendido_choice\"", "\"phase\":\"lunch\"",
                 "'phase': must be tendido_choice, arrange, play, hand_over or game_over");
    refused_edit(doc, "\"phase\":\"tendido_choice\"", "\"phase\":\"PLAY\"", "'phase'");
    refused_edit(doc, "\"phase\":\"tendido_choice\"", "\"phase\":2", "'phase'");
    refused_edit(doc, "\"phase\":\"tendido_choice\"", "\"phase\":\"play\\u0000\"", "'phase'");
    refused_edit(doc, "\"phase\":\"tendido_choice\"", "\"phase\":\"game_over\"", "winner");
    refused_edit(doc, "\"pending\":\"none\"", "\"pending\":\"counter\"", "'pending'");
    refused_edit(doc, "\"declarations\":\"auto\"", "\"declarations\":\"loud\"",
                 "option declarations takes auto, manual or silent");
    refused_edit(doc, "\"declarations\":\"auto\"", "\"declarations\":\"auto\\u0000x\"",
                 "'options.declarations'");
}

static void test_restore_refuses_wrong_json_types(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX];
    sample(&SETUPS[0], 0, doc);
    refused_edit(doc, "\"players\":2", "\"players\":\"2\"", "'players'");
    refused_edit(doc, "\"wrap\":true", "\"wrap\":1", "'options.wrap': must be true or false");
    refused_edit(doc, "\"target\":61", "\"target\":\"61\"", "'options.target'");
    refused_edit(doc, "\"claim_open\":false", "\"claim_open\":null", "'claim_open'");
    refused_edit(doc, "\"scores\":[", "\"scores\":{\"a\":1},\"x\":[", "'scores': must be an array");
    refused_edit(doc, "\"options\":{", "\"options\":[{", "'options': must be an object");
    refused_edit(doc, "\"holdings\":[{", "\"holdings\":[7,{", "'holdings[0]': must be an object");
    refused_edit(doc, "\"rng\":[\"", "\"rng\":[\"0\",\"", "'rng[0]'");
}

static void test_restore_refuses_huge_and_fractional_numbers(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX];
    sample(&SETUPS[0], 0, doc);
    refused_edit(doc, "\"target\":61", "\"target\":1e400", "'options.target'");
    refused_edit(doc, "\"target\":61", "\"target\":10001", "from 1 to 10000");
    refused_edit(doc, "\"target\":61", "\"target\":61.0", "'options.target'");
    refused_edit(doc, "\"players\":2", "\"players\":99999999999999999999999999999", "'players'");
    refused_edit(doc, "\"players\":2", "\"players\":-9223372036854775809", "'players'");
    refused_edit(doc, "\"players\":2", "\"players\":-9223372036854775808", "'players'");
    refused_edit(doc, "\"scores\":[0", "\"scores\":[32768", "'scores[0]'");
    refused_edit(doc, "\"scores\":[0", "\"scores\":[-1", "'scores[0]'");
    refused_edit(doc, "\"piles\":[0", "\"piles\":[53", "'piles[0]'");
}

static void test_restore_refuses_arrays_of_the_wrong_length(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX];
    sample(&SETUPS[0], 0, doc);
    refused_edit(doc, "\"scores\":[0,0]", "\"scores\":[0,0,0]", "'scores': has 3 entries");
    refused_edit(doc, "\"piles\":[0,0]", "\"piles\":[0]", "one per side (2)");
    refused_edit(doc, "\"hands\":[", "\"hands\":[\"\",", "one per seat (2)");
    refused_edit(doc, "\"scores\":[0,0]", "\"scores\":[0,0,0,0,0,0,0,0,0]", "too many");
    refused_edit(doc, "\"rng\":[", "\"rng\":[\"0000000000000000\",", "too many");
    refused_edit(doc, "\"partnerships\":false", "\"partnerships\":true",
                 "partnerships need an even number of players");
}

static void test_restore_refuses_a_malformed_generator_state(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], from[24], to[24];
    sample(&SETUPS[0], 0, doc);
    const char *h = strstr(doc, "\"rng\":[\"") + strlen("\"rng\":[\"");
    assert_true(snprintf(from, sizeof from, "\"%.16s\"", h) < (int)sizeof from);
    assert_true(snprintf(to, sizeof to, "\"%.15s\"", h) < (int)sizeof to);
    refused_edit(doc, from, to, "16 lowercase hex digits");
    assert_true(snprintf(to, sizeof to, "\"%.15sG\"", h) < (int)sizeof to);
    refused_edit(doc, from, to, "'rng[0]'");
    assert_true(snprintf(to, sizeof to, "\"%.15sA\"", h) < (int)sizeof to);
    refused_edit(doc, from, to, "'rng[0]'");
    refused_edit(doc, from, "", "not valid JSON");
}

/* Copies prefix then `depth` times c into a heap block; restores it refused. */
static void refused_nested(const char *prefix, char c, size_t depth, const char *phrase)
{
    size_t n = strlen(prefix);
    char *doc = malloc(n + depth);
    assert_non_null(doc);
    memcpy(doc, prefix, n);
    memset(doc + n, c, depth);
    refused(doc, n + depth, phrase);
    free(doc);
}

static void test_restore_refuses_deep_nesting(void **state)
{
    (void)state;
    size_t depth = 100000; /* restore reads only the shapes it expects: no descent */
    refused_nested("", '[', depth, "starts");
    refused_nested("", '{', depth, "not valid JSON");
    refused_nested("{\"porrazo\":1,\"options\":", '[', depth, "'options': must be an object");
    refused_nested("{\"porrazo\":1,\"hands\":[", '[', depth, "'hands[0]'");
    refused_nested("{\"porrazo\":1,\"holdings\":[{\"kind\":", '{', depth, "'holdings[0].kind'");
}

static void test_restore_refuses_nul_bytes_anywhere_in_the_document(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], bad[PZ_SAVE_MAX];
    size_t n = sample(&SETUPS[1], 10, doc);
    for (size_t i = 0; i < n; i++) {
        memcpy(bad, doc, n);
        bad[i] = '\0';
        refused(bad, n, NULL);
    }
    memcpy(bad, doc, n);
    bad[n] = '\0'; /* a NUL after the document, inside len */
    refused(bad, n + 1, "not valid JSON");
}

static void test_restore_refuses_garbage_and_survives_mutations(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX], bad[PZ_SAVE_MAX], why[PZ_WHY_MAX];
    uint64_t x = 0xdeadbeefcafef00du;
    for (int round = 0; round < 2000; round++) { /* random bytes */
        size_t len = (size_t)(sg_next(&x) % 300);
        for (size_t i = 0; i < len; i++)
            bad[i] = (char)sg_next(&x);
        refused(bad, len, NULL);
    }
    static const char bytes[] = "0123456789\"{}[],:tfnACDHSKQJT-\\ \x80";
    size_t n = sample(&SETUPS[5], 50, doc);
    int accepted = 0;
    for (int round = 0; round < 20000; round++) { /* a few bytes changed */
        memcpy(bad, doc, n);
        for (int k = 1 + (int)(sg_next(&x) % 3); k > 0; k--)
            bad[sg_next(&x) % n] = bytes[sg_next(&x) % (sizeof bytes - 1)];
        pz_game *g = NULL;
        why[0] = '\0';
        int rc = restore(&g, bad, n, why);
        assert_true(rc == 0 || rc == PZ_EBAD_DOCUMENT);
        assert_non_null(memchr(why, '\0', sizeof why));
        if (rc == 0) { /* still a game: it must save as it reads */
            char again[PZ_SAVE_MAX];
            size_t m = sg_save(g, again);
            restores_to(again, m, again);
            pz_free(g);
            accepted++;
        } else {
            assert_true(why[0] != '\0');
        }
    }
    print_message("%d of 20000 mutated documents were still games\n", accepted);
}

static void test_restore_refuses_bytes_after_the_document(void **state)
{
    (void)state;
    char doc[PZ_SAVE_MAX + 8];
    size_t n = sample(&SETUPS[0], 0, doc);
    memcpy(doc + n, " {}", 4);
    refused(doc, n + 3, "after the document");
    char spaced[PZ_SAVE_MAX + 8];
    memcpy(spaced, doc, n);
    memcpy(spaced + n, "\n\t ", 3);
    doc[n] = '\0';
    restores_to(spaced, n + 3, doc); /* trailing whitespace is fine */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_starts_with_the_version_and_writes_no_spaces),
        cmocka_unit_test(test_the_same_game_always_saves_to_the_same_bytes),
        cmocka_unit_test(test_save_refuses_every_buffer_too_small_and_leaves_it_untouched),
        cmocka_unit_test(test_save_restore_save_is_byte_identical_through_whole_games),
        cmocka_unit_test(test_a_restored_game_plays_on_exactly_like_the_original),
        cmocka_unit_test(test_restore_accepts_whitespace_and_any_member_order),
        cmocka_unit_test(test_restore_reads_escaped_strings_as_their_text),
        cmocka_unit_test(test_restore_refuses_every_truncation_of_a_valid_document),
        cmocka_unit_test(test_restore_refuses_other_versions_naming_the_version),
        cmocka_unit_test(test_restore_refuses_unknown_missing_and_repeated_fields),
        cmocka_unit_test(test_restore_refuses_a_duplicate_or_missing_card),
        cmocka_unit_test(test_restore_refuses_cards_not_in_canonical_form),
        cmocka_unit_test(test_restore_refuses_seats_out_of_range),
        cmocka_unit_test(test_restore_refuses_a_bad_phase_word),
        cmocka_unit_test(test_restore_refuses_wrong_json_types),
        cmocka_unit_test(test_restore_refuses_huge_and_fractional_numbers),
        cmocka_unit_test(test_restore_refuses_arrays_of_the_wrong_length),
        cmocka_unit_test(test_restore_refuses_a_malformed_generator_state),
        cmocka_unit_test(test_restore_refuses_deep_nesting),
        cmocka_unit_test(test_restore_refuses_nul_bytes_anywhere_in_the_document),
        cmocka_unit_test(test_restore_refuses_garbage_and_survives_mutations),
        cmocka_unit_test(test_restore_refuses_bytes_after_the_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
