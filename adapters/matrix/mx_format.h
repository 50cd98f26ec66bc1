/*
 * mx_format.h — the host's plain lines as Matrix message content: the
 * JSON of m.notice events with a plain `body` and an HTML
 * `formatted_body` (org.matrix.custom.html), cut into several events when
 * one would be too large.
 *
 * The HTML is the plain text escaped (& < > " '), with the red suits ♥ ♦
 * and the cards that carry them in <font color="#d00000"
 * data-mx-color="#d00000">, each score bar "[██░░]" in <code>, runs of
 * spaces kept (&nbsp;) and line breaks as <br>; the lines of a score
 * board ("NAME  [██░░] 12") become the rows of a <table> (name, bar in
 * <code>, score), so the bars line up in a proportional font. The player to move, found
 * in the host's status phrases ("· NAME to play", "· NAME (dealer)
 * chooses the tendido", "· NAME arranges the tendido") among the people
 * given, becomes a pill <a href="https://matrix.to/#/USER">NAME</a> and
 * the one entry of "m.mentions": {"user_ids": [USER]}; every event carries
 * "m.mentions" (empty when nobody is to move), so clients never guess
 * mentions from the body. Invalid UTF-8 in the text becomes U+FFFD.
 *
 * Pure: no I/O, no clock, no globals; json-c builds the JSON. Not here:
 * sending, rooms, who the people are (the caller reads the game's seats).
 */
#ifndef PZ_MX_FORMAT_H
#define PZ_MX_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#define MX_FORMAT_CONTENT_MAX 60000 /* bytes of one event's content JSON (Synapse: 65536 PDU) */
#define MX_FORMAT_CONTENT_MIN 512   /* the smallest cap mx_format_notice accepts */
#define MX_FORMAT_PARTS_MAX 64      /* events one text may become */
#define MX_FORMAT_RED "#d00000"     /* the colour of hearts and diamonds */

/* Errors: 0 or one of these negative codes. */
#define MX_FORMAT_ERRNO_MAP(XX)                                                                    \
    XX(INVAL, -1,                                                                                  \
       "an argument is out of range: no text or output, a cap under "                              \
       "MX_FORMAT_CONTENT_MIN, or a person without a name or a user id")                           \
    XX(NO_MEMORY, -2, "out of memory")                                                             \
    XX(TOO_BIG, -3, "the text needs more than MX_FORMAT_PARTS_MAX events under the cap")

typedef enum mx_format_errno {
    MX_FORMAT_OK = 0,
#define MX_FORMAT_ERR_ENUM_(name, val, msg) MX_FORMAT_E##name = (val),
    MX_FORMAT_ERRNO_MAP(MX_FORMAT_ERR_ENUM_)
#undef MX_FORMAT_ERR_ENUM_
} mx_format_errno;

/* A human message for err ("ok" for 0, "unknown error" otherwise). Never NULL. */
const char *mx_format_strerror(int err);

/* Someone who may be named in a text: the display name and the user id. */
typedef struct mx_person {
    const char *name;    /* as the host writes it ("Alice") */
    const char *user_id; /* "@alice:example.org" */
} mx_person;

/* The events of one text: n JSON objects, each malloc'd and NUL-terminated. */
typedef struct mx_format_out {
    int n;
    char *content[MX_FORMAT_PARTS_MAX];
    size_t len[MX_FORMAT_PARTS_MAX];
} mx_format_out;

/*
 * The person of people[0..npeople) whom text[0..len) tells to move (the
 * status phrases above, the name whole: not part of a longer word), or
 * NULL. When several match, the last in the text (the state ends a line);
 * a longer name wins over a shorter one at the same place. *at and *name_len
 * (when not NULL) get where the name is in text.
 */
const mx_person *mx_format_to_move(const char *text, size_t len, const mx_person *people,
                                   int npeople, size_t *at, size_t *name_len);

/*
 * Writes the formatted_body of text[0..len) into a malloc'd string (*html,
 * the caller frees), with a pill for `pill` at text offset pill_at (the
 * name pill_len bytes long; pill NULL: none). Returns 0, or
 * MX_FORMAT_EINVAL / MX_FORMAT_ENO_MEMORY with *html untouched.
 */
int mx_format_html(const char *text, size_t len, const mx_person *pill, size_t pill_at,
                   size_t pill_len, char **html);

/*
 * Makes the m.notice content(s) of text[0..len) in *out (its previous
 * contents are not freed: start from a zeroed struct or after
 * mx_format_out_fini). One event when its content JSON is at most cap
 * bytes (MX_FORMAT_CONTENT_MAX in the bot; tests use smaller caps);
 * otherwise the text is cut, at a line break if one is in the second half
 * of what fits, else at a space, else between characters, into events
 * that each fit, in order. The pill and the mention go with the part that
 * holds the name. An empty text gives one event with an empty body.
 * Returns 0, or with *out empty (n 0): MX_FORMAT_EINVAL,
 * MX_FORMAT_ENO_MEMORY, MX_FORMAT_ETOO_BIG.
 */
int mx_format_notice(const char *text, size_t len, const mx_person *people, int npeople, size_t cap,
                     mx_format_out *out);

/*
 * mx_format_notice with the message type `type`: "m.notice" (what the bot
 * says) or "m.text" (what should notify its reader: a private turn
 * prompt); another type: MX_FORMAT_EINVAL. colours false: the red cards
 * and suits without their <font> (a room that said "set colours off").
 */
int mx_format_message(const char *type, bool colours, const char *text, size_t len,
                      const mx_person *people, int npeople, size_t cap, mx_format_out *out);

/*
 * Writes name, cleaned for display, into out (cap bytes, NUL-terminated):
 * without control characters, invalid UTF-8, bidi controls (U+061C,
 * U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), zero-width and other
 * invisible characters (U+200B-U+200D, U+2060-U+2064, U+FEFF, the soft
 * hyphen, Hangul fillers, ...), line and paragraph separators, and blanks
 * at its ends; combining marks and the like only after a character they
 * can extend, at most 8 of them. A name too long is cut between graphemes
 * (never between a letter and its accents, nor inside an emoji's tag
 * sequence) and ends with "…" when that fits. A name where nothing shows
 * (only blanks, marks, invisible characters) is "". Returns its length (0
 * when out is NULL or cap 0).
 */
size_t mx_format_clean_name(const char *name, char *out, size_t cap);

/* Frees what *out holds and sets n to 0. */
void mx_format_out_fini(mx_format_out *out);

#endif /* PZ_MX_FORMAT_H */
