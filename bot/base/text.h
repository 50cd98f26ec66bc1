/*
 * text.h — chat text as bytes: UTF-8 validation and cutting, words folded
 * for comparison (ASCII case, Latin-1 accents), a line cleaned of IRC
 * formatting codes and control characters, and a player's word quoted
 * back safely in a reply.
 *
 * Any bytes are accepted: invalid UTF-8 is measured, marked or replaced,
 * never trusted. Nothing allocates; every function writes only into a
 * caller buffer whose size it states. Not here: what words mean (the
 * command parser), building rendered lines (render_text.h), or any
 * protocol's framing (the adapters). Part of the pz_command library.
 */
#ifndef PZ_TEXT_H
#define PZ_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#define TEXT_BAD_BYTE ((char)0xFF)                /* a byte of invalid UTF-8 in folded text */
#define TEXT_QUOTE_CHARS 24                       /* characters of a word quoted back */
#define TEXT_QUOTE_MAX (TEXT_QUOTE_CHARS * 4 + 4) /* bytes of a quoted word, NUL included */
#define TEXT_ECHO_CHARS 60                        /* characters of a line echoed back */
#define TEXT_ECHO_MAX (TEXT_ECHO_CHARS * 4 + 4)   /* bytes of an echoed line, NUL included */
#define TEXT_ECHO_LINE 512                        /* bytes of a line read for an echo */

/*
 * The length of the valid UTF-8 sequence at s, of which n bytes are
 * available: 1 to 4, or 0 when n is 0 or s[0] starts none (a stray
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF, or a
 * sequence cut short by n). Reads at most four bytes, never past n.
 */
size_t text_utf8_len(const char *s, size_t n);

/* True when s[0..n) is valid UTF-8 throughout (as text_utf8_len); n 0 is. */
bool text_utf8_valid(const char *s, size_t n);

/*
 * Mends a text cut bytewise at len: s holds len bytes then a NUL. When the
 * character that starts last in s is not a whole valid sequence (cut short
 * at len, or an invalid lead byte), ends s before it with a NUL. Returns
 * the new length. A valid UTF-8 text cut anywhere is valid again after.
 */
size_t text_utf8_cut(char *s, size_t len);

/*
 * Writes the folded form of s[0..n) into out (cap bytes, NUL-terminated),
 * for comparing words: ASCII in lower case, accented Latin-1 letters
 * (U+00C0..U+00FF) as their base letter, the right single quote (U+2019)
 * as an apostrophe, variation selectors (U+FE0E, U+FE0F) dropped, each
 * byte of invalid UTF-8 as TEXT_BAD_BYTE (which is in no word list), and
 * everything else as it is. Returns the length, or -1 when the folded text
 * and its NUL do not fit in cap (out then holds a partial text, unended).
 */
int text_fold(const char *s, size_t n, char *out, size_t cap);

/*
 * Copies the line s[0..n) into out (n + 1 bytes at least, NUL-terminated)
 * without IRC formatting codes (bold, italic, underline, strike-through,
 * monospace, reverse, reset; colours \x03 with up to two digits, a comma
 * and two more; \x04 the same with six hex digits), with every other
 * control character (C0 including NUL, DEL, C1) and the no-break space as
 * one space. Other bytes, invalid UTF-8 included, are kept for the words
 * to judge. Returns the new length, at most n.
 */
size_t text_sanitize(const char *s, size_t n, char *out);

/*
 * The length in bytes (3) of the invisible format character at s, of
 * which n bytes are available, or 0 when s starts anything else: the
 * zero-width and direction marks U+200B..U+200F, the bidirectional
 * embeddings and overrides U+202A..U+202E, the word joiner and invisible
 * operators U+2060..U+2064, the bidirectional isolates U+2066..U+2069 and
 * the zero-width no-break space U+FEFF. A word holding one looks like
 * another word, or hides where it ends.
 */
size_t text_invisible_len(const char *s, size_t n);

/*
 * Writes s[0..n) for a reply into out (TEXT_QUOTE_MAX bytes) and returns
 * out: at most TEXT_QUOTE_CHARS characters then "...", with each byte of
 * invalid UTF-8 and each invisible format character (text_invisible_len)
 * as '?', so a reply never carries raw bytes or hidden text back. The
 * result is always valid UTF-8 and NUL-terminated.
 */
const char *text_quote(const char *s, size_t n, char *out);

/*
 * Writes a player's line s[0..n) into out (TEXT_ECHO_MAX bytes) to show
 * it back in an example ("say !play 4"), and returns out: IRC formatting
 * dropped and control characters as spaces (text_sanitize, on the first
 * TEXT_ECHO_LINE bytes), runs of spaces as one, none at either end, then
 * as text_quote() but up to TEXT_ECHO_CHARS characters. Always valid
 * UTF-8 and NUL-terminated.
 */
const char *text_echo(const char *s, size_t n, char *out);

/*
 * Writes secs as people say it, in the largest unit that divides it, else
 * the largest that fits: "45 s", "10 min", "24 h", "3 d" (days from two
 * days up). Negative counts as 0.
 */
void text_duration(long long secs, char *out, size_t cap);

/*
 * The optimal string alignment distance between a[0..an) and b[0..bn),
 * ASCII letters compared without case: inserts, deletes, replacements and
 * swaps of two neighbours ("plya" is one swap from "play"). Either longer
 * than TEXT_DISTANCE_MAX bytes: SIZE_MAX.
 */
#define TEXT_DISTANCE_MAX 64
size_t text_distance(const char *a, size_t an, const char *b, size_t bn);

/*
 * Writes the name s (NULL: "") into out (cap bytes) as text fit for
 * players' lines, and returns out: each byte of invalid UTF-8 and each
 * control character as '?', cut at a whole character to fit. A network's
 * nicks are text already; this keeps a bad one from reaching a line (or
 * a marker of the host's live lines) as raw bytes.
 */
const char *text_clean(const char *s, char *out, size_t cap);

#endif /* PZ_TEXT_H */
