/*
 * verify.c — porrazo-replay --verify (FAIRNESS.md): a record's fair deals
 * checked in the order a reader would: the record's shape, then for each
 * hand its commitment (SHA-256 of "porrazo-commit-v1:SEED:SALT") and its
 * pack (pz_shuffle of its seed, card by card), then the moves replayed by
 * pzr_run, any refused one a mismatch. The first difference ends it.
 *
 * Not here: the scenario format (scenario.c), the rules (the engine).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "verify.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "commit.h"
#include "porrazo.h"
#include "scenario.h"
#include "values.h"

/* What went wrong: a PZR_VERIFY_* code and its line. */
typedef struct vmsg {
    int code;
    char text[PZR_MSG_MAX];
} vmsg;

static int say(vmsg *v, int code, const char *fmt, ...) PZR_PRINTF(3, 4);
static int say(vmsg *v, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->text, sizeof v->text, fmt, ap);
    va_end(ap);
    v->code = code;
    return -1;
}

/* true if s is 1..max lowercase hex digits (exactly max when exact). */
static bool is_hex(const char *s, size_t max, bool exact)
{
    size_t n = strlen(s);
    if (n == 0 || n > max || (exact && n != max))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* The string member key of o, or NULL. */
static const char *str_of(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

/*
 * Checks hand k's (1-based) commitment entry h under salt, its seed into
 * *seed. 0, or -1 with v set.
 */
static int check_hand(vmsg *v, json_object *h, int k, const char *salt, uint64_t *seed)
{
    json_object *x = NULL;
    char want[PZF_COMMIT_HEX + 1];
    const char *commit = str_of(h, "commit");
    if (!json_object_is_type(h, json_type_object) || !json_object_object_get_ex(h, "hand", &x) ||
        !json_object_is_type(x, json_type_int) || json_object_get_int64(x) != k)
        return say(v, PZR_VERIFY_MALFORMED, "fairness.hands[%d] is not hand %d's entry", k - 1, k);
    if (commit == NULL || !is_hex(commit, PZF_COMMIT_HEX, true))
        return say(v, PZR_VERIFY_MALFORMED, "hand %d: \"commit\" is not 64 lowercase hex digits",
                   k);
    if (!json_object_object_get_ex(h, "seed", &x) || !json_object_is_type(x, json_type_int) ||
        (json_object_get_int64(x) < 0 && json_object_get_uint64(x) == 0))
        return say(v, PZR_VERIFY_MALFORMED, "hand %d: no \"seed\" from 0 to %" PRIu64, k,
                   UINT64_MAX);
    *seed = json_object_get_uint64(x);
    if (pzf_commit(*seed, salt, want) != 0)
        return say(v, PZR_VERIFY_FAILURE, "OpenSSL's SHA-256 failed");
    if (strcmp(want, commit) != 0)
        return say(v, PZR_VERIFY_MISMATCH,
                   "hand %d: its commitment %s is not SHA-256 of "
                   "\"porrazo-commit-v1:%" PRIu64 ":%s\", which is %s",
                   k, commit, *seed, salt, want);
    return 0;
}

/* Checks hand k's pack v (a JSON list) against the shuffle of seed. */
static int check_pack(vmsg *v, json_object *pack, int k, uint64_t seed)
{
    pz_card want[PZ_CARDS];
    pzr_msg m = {0};
    if (pack == NULL)
        return say(v, PZR_VERIFY_MISMATCH, "hand %d: the record gives no pack (\"deck\")", k);
    if (!json_object_is_type(pack, json_type_array) || json_object_array_length(pack) != PZ_CARDS)
        return say(v, PZR_VERIFY_MALFORMED, "hand %d: its pack is not a list of 52 cards", k);
    pz_shuffle(seed, want);
    for (int i = 0; i < PZ_CARDS; i++) {
        pz_card got;
        char a[3], b[3];
        if (pzr_get_card(&m, json_object_array_get_idx(pack, (size_t)i), "deck", &got) < 0)
            return say(v, PZR_VERIFY_MALFORMED, "hand %d, card %d of its pack: %s", k, i + 1,
                       m.text);
        if (got != want[i]) {
            pz_card_format(got, a);
            pz_card_format(want[i], b);
            return say(v, PZR_VERIFY_MISMATCH,
                       "hand %d: card %d of its pack is %s, but seed %" PRIu64 " deals %s there", k,
                       i + 1, a, seed, b);
        }
    }
    return 0;
}

/*
 * Checks the fairness of root: the salt, each hand's commitment and pack
 * (hand 1's the top-level "deck", hand k's the (k-1)th next_hand's).
 * *hands gets their number. 0, or -1 with v set.
 */
static int check_deals(vmsg *v, json_object *root, int *hands)
{
    json_object *fair = NULL, *x = NULL, *list = NULL, *actions = NULL;
    if (!json_object_object_get_ex(root, "fairness", &fair) ||
        !json_object_is_type(fair, json_type_object))
        return say(v, PZR_VERIFY_MALFORMED,
                   "no \"fairness\": not the record of a game with fair deals (FAIRNESS.md)");
    if (!json_object_object_get_ex(fair, "version", &x) || !json_object_is_type(x, json_type_int) ||
        json_object_get_int64(x) != 1)
        return say(v, PZR_VERIFY_MALFORMED, "fairness.version is not 1");
    if (!json_object_object_get_ex(fair, "revealed", &x) ||
        !json_object_is_type(x, json_type_boolean))
        return say(v, PZR_VERIFY_MALFORMED, "fairness.revealed is not true or false");
    if (!json_object_get_boolean(x))
        return say(v, PZR_VERIFY_MISMATCH,
                   "the game is under way: its seeds and salt stay sealed until it ends");
    const char *salt = str_of(fair, "salt");
    if (salt == NULL || !is_hex(salt, 128, false))
        return say(v, PZR_VERIFY_MALFORMED, "fairness.salt is not lowercase hex digits");
    if (!json_object_object_get_ex(fair, "hands", &list) ||
        !json_object_is_type(list, json_type_array) || json_object_array_length(list) == 0)
        return say(v, PZR_VERIFY_MALFORMED, "fairness.hands is not a list of hands");
    if (!json_object_object_get_ex(root, "actions", &actions) ||
        !json_object_is_type(actions, json_type_array))
        actions = NULL;
    int n = (int)json_object_array_length(list);
    size_t a = 0, na = actions != NULL ? json_object_array_length(actions) : 0;
    for (int k = 1; k <= n; k++) {
        uint64_t seed = 0;
        json_object *pack = NULL;
        if (check_hand(v, json_object_array_get_idx(list, (size_t)k - 1), k, salt, &seed) < 0)
            return -1;
        if (k == 1) {
            json_object_object_get_ex(root, "deck", &pack);
        } else { /* the next next_hand action deals hand k */
            while (a < na && !json_object_object_get_ex(json_object_array_get_idx(actions, a),
                                                        "next_hand", NULL))
                a++;
            if (a == na)
                return say(v, PZR_VERIFY_MISMATCH,
                           "hand %d: the record has a commitment for it but no next hand", k);
            json_object_object_get_ex(json_object_array_get_idx(actions, a++), "deck", &pack);
        }
        if (check_pack(v, pack, k, seed) < 0)
            return -1;
    }
    for (; a < na; a++)
        if (json_object_object_get_ex(json_object_array_get_idx(actions, a), "next_hand", NULL))
            return say(v, PZR_VERIFY_MISMATCH,
                       "action %zu deals hand %d, which has no commitment in the record", a, n + 1);
    *hands = n;
    return 0;
}

/*
 * Replays text with pzr_run: any refused action is a mismatch. The final
 * state line is kept in state[cap]. 0, or -1 with v set.
 */
static int check_moves(vmsg *v, const char *text, size_t len, FILE *err, char *state, size_t cap)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *ms = open_memstream(&buf, &size);
    if (ms == NULL)
        return say(v, PZR_VERIFY_FAILURE, "out of memory");
    int rc = pzr_run(text, len, ms, err);
    if (fclose(ms) != 0 || rc == PZR_EXIT_FAILURE) {
        free(buf);
        return say(v, PZR_VERIFY_FAILURE, "the replay failed (out of memory?)");
    }
    if (rc == PZR_EXIT_MALFORMED) {
        free(buf);
        return say(v, PZR_VERIFY_MALFORMED, "the record is not a scenario porrazo-replay plays");
    }
    int result = 0;
    for (char *line = buf, *next; line != NULL && *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        json_object *e = json_tokener_parse(line);
        const char *kind = e != NULL ? str_of(e, "event") : NULL;
        if (kind != NULL && strcmp(kind, "error") == 0) {
            json_object *i = NULL;
            json_object_object_get_ex(e, "action", &i);
            const char *code = str_of(e, "code"), *message = str_of(e, "message");
            result = say(v, PZR_VERIFY_MISMATCH, "action %d is refused when replayed: %s (%s)",
                         json_object_get_int(i), message ? message : "?", code ? code : "?");
        } else if (kind != NULL && strcmp(kind, "state") == 0) {
            snprintf(state, cap, "%s", line);
        }
        json_object_put(e);
        if (result != 0)
            break;
    }
    free(buf);
    return result;
}

/* The phase and scores of a state line, for the summary. */
static void summary(const char *state, char *buf, size_t cap)
{
    json_object *e = json_tokener_parse(state), *scores = NULL;
    const char *phase = e != NULL ? str_of(e, "phase") : NULL;
    if (e != NULL)
        json_object_object_get_ex(e, "scores", &scores);
    snprintf(buf, cap, "%s, scores %s", phase ? phase : "?",
             scores ? json_object_to_json_string_ext(scores, JSON_C_TO_STRING_PLAIN) : "?");
    json_object_put(e);
}

int pzr_verify(const char *text, size_t len, FILE *out, FILE *err)
{
    vmsg v = {0};
    pzr_msg m = {0};
    int hands = 0;
    char state[4096] = "", end[200];
    json_object *root = len <= PZR_INPUT_MAX ? pzr_parse_json(&m, text, len) : NULL;
    if (root == NULL)
        say(&v, PZR_VERIFY_MALFORMED, "%s",
            len > PZR_INPUT_MAX ? "the record is too large" : m.text);
    else if (check_deals(&v, root, &hands) == 0)
        check_moves(&v, text, len, err, state, sizeof state);
    json_object_put(root);
    if (v.code != 0) {
        fprintf(err, "porrazo-replay: %s: %s\n",
                v.code == PZR_VERIFY_MISMATCH    ? "not verified"
                : v.code == PZR_VERIFY_MALFORMED ? "malformed record"
                                                 : "cannot verify",
                v.text);
        return v.code;
    }
    summary(state, end, sizeof end);
    if (fprintf(out,
                "verified: %d hands, each commitment is its seed's and the salt's, each pack "
                "its seed's shuffle, and every move replays (%s)\n",
                hands, end) < 0)
        return PZR_VERIFY_FAILURE;
    return PZR_VERIFY_OK;
}
