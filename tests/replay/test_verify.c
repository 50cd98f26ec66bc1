/*
 * test_verify.c — cmocka tests of pzr_verify() (engine/replay/verify.h,
 * FAIRNESS.md): a record made here from a seed and a salt verifies; each
 * thing a record can get wrong is named with its hand, card or action and
 * the right exit status; what is not a record is malformed, not a
 * mismatch. Commitments are computed with OpenSSL here, so the test checks
 * the formula, not verify.c against itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/sha.h>

#include "porrazo.h"
#include "verify.h"

#define SALT "00112233445566778899aabbccddeeff"
#define DOC_MAX 8192

typedef struct result {
    int status;
    char out[1024], err[1024];
} result;

static void slurp(FILE *f, char *buf, size_t cap)
{
    rewind(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static result verify(const char *doc)
{
    result r;
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    r.status = pzr_verify(doc, strlen(doc), out, err);
    slurp(out, r.out, sizeof r.out);
    slurp(err, r.err, sizeof r.err);
    return r;
}

/* SHA-256 of "porrazo-commit-v1:SEED:SALT" in hex, by SHA256() directly. */
static void commit_of(uint64_t seed, const char *salt, char hex[65])
{
    char text[128];
    unsigned char md[SHA256_DIGEST_LENGTH];
    int n =
        snprintf(text, sizeof text, "porrazo-commit-v1:%llu:%s", (unsigned long long)seed, salt);
    SHA256((const unsigned char *)text, (size_t)n, md);
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

/* Appends the pack of seed as a JSON list to buf. */
static void add_pack(char *buf, size_t cap, uint64_t seed)
{
    pz_card pack[PZ_CARDS];
    pz_shuffle(seed, pack);
    strncat(buf, "[", cap - strlen(buf) - 1);
    for (int i = 0; i < PZ_CARDS; i++) {
        char c[3], item[8];
        pz_card_format(pack[i], c);
        snprintf(item, sizeof item, "%s\"%s\"", i ? "," : "", c);
        strncat(buf, item, cap - strlen(buf) - 1);
    }
    strncat(buf, "]", cap - strlen(buf) - 1);
}

/* A one-hand record of seed (dealer 0) with its commitment (NULL: the
   right one) and the actions text. */
static void one_hand(char *doc, uint64_t seed, const char *commit, const char *actions)
{
    char c[65];
    if (commit == NULL) {
        commit_of(seed, SALT, c);
        commit = c;
    }
    snprintf(doc, DOC_MAX, "{\"players\": 2, \"dealer\": 0, \"deck\": ");
    add_pack(doc, DOC_MAX, seed);
    size_t len = strlen(doc);
    snprintf(doc + len, DOC_MAX - len,
             ", \"actions\": [%s], \"fairness\": {\"version\": 1, \"revealed\": true, "
             "\"salt\": \"" SALT "\", \"hands\": [{\"hand\": 1, \"commit\": \"%s\", "
             "\"seed\": %llu}]}}",
             actions, commit, (unsigned long long)seed);
}

static void test_a_record_made_from_its_seed_and_salt_verifies(void **state)
{
    (void)state;
    char doc[DOC_MAX];
    one_hand(doc, UINT64_MAX, NULL, "{\"seat\": 0, \"tendido\": \"later\"}");
    result r = verify(doc);
    assert_int_equal(r.status, PZR_VERIFY_OK);
    assert_non_null(strstr(r.out, "verified: 1 hands"));
    assert_string_equal(r.err, "");
}

static void test_a_commitment_of_another_seed_is_named_with_its_hand(void **state)
{
    (void)state;
    char doc[DOC_MAX], other[65];
    commit_of(12, SALT, other);
    one_hand(doc, 11, other, "");
    result r = verify(doc);
    assert_int_equal(r.status, PZR_VERIFY_MISMATCH);
    assert_non_null(strstr(r.err, "hand 1: its commitment"));
    assert_non_null(strstr(r.err, "porrazo-commit-v1:11:" SALT));
    assert_string_equal(r.out, "");
}

static void test_a_pack_that_is_not_the_seeds_names_the_card(void **state)
{
    (void)state;
    char doc[DOC_MAX], c[65];
    pz_card pack[PZ_CARDS];
    char first[3], second[3], swapped[16], orig[16];
    pz_shuffle(11, pack);
    pz_card_format(pack[0], first);
    pz_card_format(pack[1], second);
    commit_of(11, SALT, c);
    one_hand(doc, 11, c, "");
    snprintf(orig, sizeof orig, "[\"%s\",\"%s\"", first, second);
    snprintf(swapped, sizeof swapped, "[\"%s\",\"%s\"", second, first);
    char *p = strstr(doc, orig);
    assert_non_null(p);
    memcpy(p, swapped, strlen(swapped));
    result r = verify(doc);
    assert_int_equal(r.status, PZR_VERIFY_MISMATCH);
    char want[80];
    snprintf(want, sizeof want, "hand 1: card 1 of its pack is %s, but seed 11 deals %s", second,
             first);
    assert_non_null(strstr(r.err, want));
}

static void test_a_refused_move_is_named_with_its_action(void **state)
{
    (void)state;
    char doc[DOC_MAX];
    /* the dealer (seat 0) chooses the tendido once: a second choice is refused */
    one_hand(doc, 11, NULL,
             "{\"seat\": 0, \"tendido\": \"later\"}, {\"seat\": 0, \"tendido\": \"now\"}");
    result r = verify(doc);
    assert_int_equal(r.status, PZR_VERIFY_MISMATCH);
    assert_non_null(strstr(r.err, "action 1 is refused when replayed"));
}

static void test_a_game_under_way_is_not_verified_and_says_so(void **state)
{
    (void)state;
    char c[65], doc[512];
    commit_of(11, SALT, c);
    snprintf(doc, sizeof doc,
             "{\"players\": 2, \"dealer\": 0, \"actions\": [], \"fairness\": {\"version\": 1, "
             "\"revealed\": false, \"hands\": [{\"hand\": 1, \"commit\": \"%s\"}]}}",
             c);
    result r = verify(doc);
    assert_int_equal(r.status, PZR_VERIFY_MISMATCH);
    assert_non_null(strstr(r.err, "under way"));
}

static void test_a_next_hand_without_a_commitment_is_a_mismatch(void **state)
{
    (void)state;
    char doc[DOC_MAX];
    one_hand(doc, 11, NULL, "{\"next_hand\": true}");
    result r = verify(doc);
    assert_int_equal(r.status, PZR_VERIFY_MISMATCH);
    assert_non_null(strstr(r.err, "deals hand 2, which has no commitment"));
}

static void test_what_is_not_a_record_is_malformed(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"not json", "malformed record"},
        {"{\"players\": 2, \"seed\": 7}", "no \"fairness\""},
        {"{\"players\": 2, \"seed\": 7, \"fairness\": {\"version\": 2}}", "version is not 1"},
        {"{\"players\": 2, \"seed\": 7, \"fairness\": {\"version\": 1, \"revealed\": true, "
         "\"salt\": \"XYZ\", \"hands\": []}}",
         "salt is not lowercase hex"},
        {"{\"players\": 2, \"seed\": 7, \"fairness\": {\"version\": 1, \"revealed\": true, "
         "\"salt\": \"ab\", \"hands\": []}}",
         "not a list of hands"},
        {"{\"players\": 2, \"seed\": 7, \"fairness\": {\"version\": 1, \"revealed\": true, "
         "\"salt\": \"ab\", \"hands\": [{\"hand\": 2}]}}",
         "is not hand 1's entry"},
        {"{\"players\": 2, \"seed\": 7, \"fairness\": {\"version\": 1, \"revealed\": true, "
         "\"salt\": \"ab\", \"hands\": [{\"hand\": 1, \"commit\": \"00\"}]}}",
         "not 64 lowercase hex digits"},
        {"{\"players\": 2, \"seed\": 7, \"fairness\": {\"version\": 1, \"revealed\": true, "
         "\"salt\": \"ab\", \"hands\": [{\"hand\": 1, \"commit\": "
         "\"0000000000000000000000000000000000000000000000000000000000000000\", \"seed\": -1}]}}",
         "no \"seed\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        result r = verify(bad[i][0]);
        if (r.status != PZR_VERIFY_MALFORMED || strstr(r.err, bad[i][1]) == NULL)
            fail_msg("record %zu: status %d, \"%s\"", i, r.status, r.err);
        assert_string_equal(r.out, "");
    }
}

static void test_a_record_without_a_pack_for_its_hand_says_so(void **state)
{
    (void)state;
    char doc[DOC_MAX], *p;
    one_hand(doc, 11, NULL, "");
    p = strstr(doc, "\"deck\"");
    memcpy(p, "\"seed\"", 6); /* the list is now "seed": [...] */
    result r = verify(doc);
    assert_int_equal(r.status, PZR_VERIFY_MISMATCH);
    assert_non_null(strstr(r.err, "hand 1: the record gives no pack"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_record_made_from_its_seed_and_salt_verifies),
        cmocka_unit_test(test_a_commitment_of_another_seed_is_named_with_its_hand),
        cmocka_unit_test(test_a_pack_that_is_not_the_seeds_names_the_card),
        cmocka_unit_test(test_a_refused_move_is_named_with_its_action),
        cmocka_unit_test(test_a_game_under_way_is_not_verified_and_says_so),
        cmocka_unit_test(test_a_next_hand_without_a_commitment_is_a_mismatch),
        cmocka_unit_test(test_what_is_not_a_record_is_malformed),
        cmocka_unit_test(test_a_record_without_a_pack_for_its_hand_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
