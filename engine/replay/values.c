/*
 * values.c — checked reading of JSON values for porrazo-replay (see
 * values.h): strict parsing of the text, then one function per kind of
 * value, each failing with a message that names the JSON path.
 *
 * It leans on json-c for the syntax and on porrazo.h for cards, and knows
 * nothing of the scenario format or the rules. Two leniencies of json-c
 * 0.16 remain even in strict mode: an object with a key twice keeps the
 * last value, and an integer beyond 64 bits saturates.
 */
#include "values.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Messages and paths                                                       */

/*
 * Ends buf, which snprintf cut at cap bytes (cap >= 4), with "...", or
 * empties it when snprintf failed outright (failed). Used only for
 * messages and paths, where a cut text is still a useful text.
 */
static void mark_cut(char *buf, size_t cap, bool failed)
{
    if (failed)
        buf[0] = '\0';
    else
        memcpy(buf + cap - 4, "...", 4);
}

/*
 * Writes the printf-style message into m and returns -1, so that a check
 * reads `return pzr_fail(m, ...)`. A message too long for m is cut with "...".
 */
int pzr_fail(pzr_msg *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(m->text, sizeof m->text, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof m->text)
        mark_cut(m->text, sizeof m->text, n < 0);
    return -1;
}

/* As pzr_fail(), for faults that are ours (memory, output), not the scenario's.
 */
int pzr_fail_internal(pzr_msg *m, const char *what)
{
    m->internal = true;
    return pzr_fail(m, "%s", what);
}

/* Writes the path parent.key ("position.hands") into buf[cap]; cut if long. */
void pzr_path_key(char *buf, size_t cap, const char *parent, const char *key)
{
    int n = snprintf(buf, cap, "%s%s%s", parent, parent[0] ? "." : "", key);
    if (n < 0 || (size_t)n >= cap)
        mark_cut(buf, cap, n < 0);
}

/* Writes the path parent[i] ("actions[3]") into buf[cap]; cut if long. */
void pzr_path_index(char *buf, size_t cap, const char *parent, size_t i)
{
    int n = snprintf(buf, cap, "%s[%zu]", parent, i);
    if (n < 0 || (size_t)n >= cap)
        mark_cut(buf, cap, n < 0);
}

/* ------------------------------------------------------------------------ */
/* JSON values                                                              */

/* True when the JSON string v is exactly the word w (no NUL inside). */
bool pzr_is_word(json_object *v, const char *w)
{
    size_t len = (size_t)json_object_get_string_len(v);
    return len == strlen(w) && memcmp(json_object_get_string(v), w, len) == 0;
}

/* Returns the index of name in the NULL-terminated list, or -1. */
static int find_name(const char *const *list, const char *name)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return i;
    return -1;
}

/* Writes the NULL-terminated list as "a, b, c" into buf[cap]; cut if long. */
static void join_names(char *buf, size_t cap, const char *const *list)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; list[i]; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", list[i]);
        if (n < 0 || (size_t)n >= cap - used) {
            mark_cut(buf, cap, n < 0);
            return;
        }
        used += (size_t)n;
    }
}

/*
 * Fails unless v is a JSON object whose keys are all in allowed (a
 * NULL-terminated list); the message on an unknown key lists the known
 * ones. what names the object in the message.
 */
int pzr_check_object(pzr_msg *m, json_object *v, const char *what, const char *const *allowed)
{
    if (!json_object_is_type(v, json_type_object))
        return pzr_fail(m, "%s must be a JSON object", what);
    struct json_object_iterator it = json_object_iter_begin(v);
    struct json_object_iterator end = json_object_iter_end(v);
    for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
        const char *key = json_object_iter_peek_name(&it);
        if (find_name(allowed, key) < 0) {
            char known[160];
            join_names(known, sizeof known, allowed);
            return pzr_fail(m, "%s: unknown key \"%.40s\" (known: %s)", what, key, known);
        }
    }
    return 0;
}

/*
 * Reads v, which must be a JSON integer from lo to hi, into *out.
 * (json-c saturates integers beyond 64 bits; those fail the range.)
 */
int pzr_get_int(pzr_msg *m, json_object *v, const char *path, int64_t lo, int64_t hi, int *out)
{
    if (!json_object_is_type(v, json_type_int))
        return pzr_fail(m, "%s must be an integer", path);
    int64_t x = json_object_get_int64(v);
    if (x < lo || x > hi)
        return pzr_fail(m, "%s must be an integer from %" PRId64 " to %" PRId64, path, lo, hi);
    *out = (int)x;
    return 0;
}

/* Reads an integer that the engine will judge: anything an int holds. */
int pzr_get_any_int(pzr_msg *m, json_object *v, const char *path, int *out)
{
    return pzr_get_int(m, v, path, INT_MIN, INT_MAX, out);
}

/* Reads v, which must be true or false, into *out. */
int pzr_get_bool(pzr_msg *m, json_object *v, const char *path, bool *out)
{
    if (!json_object_is_type(v, json_type_boolean))
        return pzr_fail(m, "%s must be true or false", path);
    *out = json_object_get_boolean(v);
    return 0;
}

/* Fails unless v is true (the verbs "declare" and "next_hand"). */
int pzr_get_true(pzr_msg *m, json_object *v, const char *path)
{
    if (!json_object_is_type(v, json_type_boolean) || !json_object_get_boolean(v))
        return pzr_fail(m, "%s must be true", path);
    return 0;
}

/*
 * Reads v, which must be one of the strings in words (NULL-terminated),
 * into *out as its index; shown lists them for the message.
 */
int pzr_get_word(pzr_msg *m, json_object *v, const char *path, const char *const *words,
                 const char *shown, int *out)
{
    if (json_object_is_type(v, json_type_string))
        for (int i = 0; words[i]; i++)
            if (pzr_is_word(v, words[i])) {
                *out = i;
                return 0;
            }
    return pzr_fail(m, "%s must be %s", path, shown);
}

/* Reads exactly count integers (each an int) from the JSON array v. */
int pzr_get_ints(pzr_msg *m, json_object *v, const char *path, int count, int *out)
{
    if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) != (size_t)count)
        return pzr_fail(m, "%s must be a list of %d integers (one per side)", path, count);
    for (int i = 0; i < count; i++) {
        char p[PZR_PATH_MAX];
        pzr_path_index(p, sizeof p, path, (size_t)i);
        if (pzr_get_any_int(m, json_object_array_get_idx(v, (size_t)i), p, &out[i]) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Cards                                                                    */

/* Reads v, a card string ("7H", "10h", "ts"), into *out. */
int pzr_get_card(pzr_msg *m, json_object *v, const char *path, pz_card *out)
{
    if (!json_object_is_type(v, json_type_string))
        return pzr_fail(m, "%s must be a card such as \"7H\"", path);
    const char *s = json_object_get_string(v);
    size_t len = (size_t)json_object_get_string_len(v);
    if (pz_card_parse(s, len, out) != 0 || *out >= PZ_CARDS)
        return pzr_fail(m,
                        "%s: \"%.12s\" is not a card (rank A 2-9 T or 10 J Q K, "
                        "then suit C D H S)",
                        path, s);
    return 0;
}

/* Records that card c is named at path; fails if it was named before. */
static int see_card(pzr_msg *m, pzr_seen *seen, pz_card c, const char *path)
{
    char name[3];
    pz_card_format(c, name);
    if (seen->where[c][0] != '\0')
        return pzr_fail(m, "%s: card %s appears twice in the scenario (also at %s)", path, name,
                        seen->where[c]);
    int n = snprintf(seen->where[c], PZR_PATH_MAX, "%s", path);
    if (n < 0 || n >= PZR_PATH_MAX)
        mark_cut(seen->where[c], PZR_PATH_MAX, n < 0);
    return 0;
}

/*
 * Reads the JSON array v of at most max cards into out[] and *n, recording
 * each in seen (NULL: the cards only refer to cards named elsewhere).
 */
int pzr_get_cards(pzr_msg *m, json_object *v, const char *path, int max, pzr_seen *seen,
                  pz_card *out, int *n)
{
    if (!json_object_is_type(v, json_type_array))
        return pzr_fail(m, "%s must be a list of cards", path);
    size_t len = json_object_array_length(v);
    if (len > (size_t)max)
        return pzr_fail(m, "%s holds %zu cards; at most %d fit", path, len, max);
    for (size_t i = 0; i < len; i++) {
        char p[PZR_PATH_MAX];
        pzr_path_index(p, sizeof p, path, i);
        if (pzr_get_card(m, json_object_array_get_idx(v, i), p, &out[i]) < 0)
            return -1;
        if (seen && see_card(m, seen, out[i], p) < 0)
            return -1;
    }
    *n = (int)len;
    return 0;
}

/* Reads a whole pack: exactly 52 distinct cards, top first. */
int pzr_get_pack(pzr_msg *m, json_object *v, const char *path, pzr_seen *seen,
                 pz_card out[PZ_CARDS])
{
    int n = 0;
    if (pzr_get_cards(m, v, path, PZ_CARDS, seen, out, &n) < 0)
        return -1;
    if (n != PZ_CARDS)
        return pzr_fail(m, "%s must be the whole pack: 52 cards, not %d", path, n);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Parsing the text                                                         */

/* Writes where offset off of text is as "line L, column C" into buf. */
static void where_in(const char *text, size_t off, char *buf, size_t cap)
{
    size_t line = 1, col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    int n = snprintf(buf, cap, "line %zu, column %zu", line, col);
    if (n < 0 || (size_t)n >= cap)
        mark_cut(buf, cap, n < 0);
}

/*
 * Parses text[0..len) as one strict JSON document (valid UTF-8, nothing
 * after it). Returns the new tree, which the caller releases with
 * json_object_put(), or NULL with the reason in m.
 */
json_object *pzr_parse_json(pzr_msg *m, const char *text, size_t len)
{
    char where[64];
    if (len > INT_MAX) {
        pzr_fail(m, "the text is too long for the JSON parser");
        return NULL;
    }
    struct json_tokener *tok = json_tokener_new();
    if (!tok) {
        pzr_fail_internal(m, "out of memory");
        return NULL;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    where_in(text, end < len ? end : len, where, sizeof where);
    if (!root && e == json_tokener_success)
        pzr_fail(m, "the scenario must be a JSON object, not null");
    else if (!root && e == json_tokener_continue)
        pzr_fail(m, "bad JSON: the text ends before the scenario does");
    else if (!root)
        pzr_fail(m, "bad JSON at %s: %s", where, json_tokener_error_desc(e));
    else if (end != len) {
        pzr_fail(m, "bad JSON at %s: text after the scenario", where);
        json_object_put(root);
        root = NULL;
    }
    return root;
}
