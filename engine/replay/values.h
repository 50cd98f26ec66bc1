/*
 * values.h — checked reading of JSON values for porrazo-replay.
 *
 * Internal to the porrazo_scenario library. Every pzr_get_* function takes
 * a json-c value and the JSON path it came from ("actions[3].play"),
 * checks its type and range, and either stores the value and returns 0 or
 * writes a message naming the path into a pzr_msg and returns -1, so that
 * the reader of the scenario (scenario.c) is a flat list of checks. It
 * knows cards (through porrazo.h) but not the scenario format.
 */
#ifndef PZR_VALUES_H
#define PZR_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "porrazo.h"

#ifndef PZR_PRINTF
#if defined(__GNUC__)
#define PZR_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PZR_PRINTF(fmt, args)
#endif
#endif

#define PZR_MSG_MAX 512 /* a message on standard error, NUL included */
#define PZR_PATH_MAX 48 /* a JSON path: "actions[12].arrange[3]" */

/* Why reading or playing stopped. */
typedef struct pzr_msg {
    bool internal; /* our fault (memory, output), not the scenario's */
    char text[PZR_MSG_MAX];
} pzr_msg;

/* Where each card was first named, for "appears twice" ("" = not yet). */
typedef struct pzr_seen {
    char where[PZ_CARDS][PZR_PATH_MAX];
} pzr_seen;

/* Writes the message into m (cut with "..." if long) and returns -1. */
int pzr_fail(pzr_msg *m, const char *fmt, ...) PZR_PRINTF(2, 3);
/* As pzr_fail(), marking the fault as ours (m->internal), not the input's. */
int pzr_fail_internal(pzr_msg *m, const char *what);

/* Write the paths parent.key and parent[i] into buf[cap], cut if long. */
void pzr_path_key(char *buf, size_t cap, const char *parent, const char *key);
void pzr_path_index(char *buf, size_t cap, const char *parent, size_t i);

/*
 * Parses text[0..len) (len <= INT_MAX) as one strict JSON document: valid
 * UTF-8, no comments or trailing commas, nothing after it. Returns the
 * tree (the caller releases it with json_object_put()) or NULL with m set.
 */
json_object *pzr_parse_json(pzr_msg *m, const char *text, size_t len);

/* True when the JSON string v is exactly the word w (no NUL inside). */
bool pzr_is_word(json_object *v, const char *w);

/* Fails unless v is an object whose keys are all in allowed (NULL-ended). */
int pzr_check_object(pzr_msg *m, json_object *v, const char *what, const char *const *allowed);

/* v must be a JSON integer from lo to hi. */
int pzr_get_int(pzr_msg *m, json_object *v, const char *path, int64_t lo, int64_t hi, int *out);
/* v must be a JSON integer that an int holds (the engine judges it). */
int pzr_get_any_int(pzr_msg *m, json_object *v, const char *path, int *out);
/* v must be exactly count such integers in a list. */
int pzr_get_ints(pzr_msg *m, json_object *v, const char *path, int count, int *out);
/* v must be true or false; pzr_get_true: v must be true. */
int pzr_get_bool(pzr_msg *m, json_object *v, const char *path, bool *out);
int pzr_get_true(pzr_msg *m, json_object *v, const char *path);
/* v must be one of words (NULL-ended; *out its index); shown lists them. */
int pzr_get_word(pzr_msg *m, json_object *v, const char *path, const char *const *words,
                 const char *shown, int *out);

/* v must be a card string ("7H", "10h", "ts"). */
int pzr_get_card(pzr_msg *m, json_object *v, const char *path, pz_card *out);
/*
 * v must be a list of at most max cards, stored in out[] and *n; each is
 * recorded in seen and must not be there yet (seen NULL: no check).
 */
int pzr_get_cards(pzr_msg *m, json_object *v, const char *path, int max, pzr_seen *seen,
                  pz_card *out, int *n);
/* v must be a whole pack: 52 cards, distinct by way of seen. */
int pzr_get_pack(pzr_msg *m, json_object *v, const char *path, pzr_seen *seen,
                 pz_card out[PZ_CARDS]);

#endif /* PZR_VALUES_H */
