/*
 * command_int.h — what the files of the command parser share and nobody
 * else sees: the words of a line, the reply buffer, the space-separated
 * word lists every table of the parser is written in, and the entry to
 * the arguments of `new`. command.c reads the line, verbs and their
 * arguments; command_args.c the arguments of the verbs that set or name
 * something (set's key from settings.def); command_new.c the arguments of
 * `new`; command_words.c holds the card and duration words and the word
 * lists; command_settings.c the settings table (cmd_settings.h); text.h
 * the byte-level routines they all use. Not part of the API: other
 * modules use command.h and cmd_settings.h.
 */
#ifndef PZ_COMMAND_INT_H
#define PZ_COMMAND_INT_H

#ifndef PZ_INSIDE_PARSE
#error "command_int.h is the parser's inside: other layers include command.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "command.h"
#include "i18n.h"

#define CMD_WORD_MAX 64 /* bytes of a folded word, NUL included; longer never matches */

/* Argument words the parser's files share. */
#define CMD_ON_WORDS "on yes si always siempre prendido activado encendido"
#define CMD_OFF_WORDS "off no auto normal apagado desactivado"

typedef struct word { /* a word of the sanitized line (not NUL-terminated) */
    const char *s;
    size_t n;
} word;

typedef struct reply { /* the caller's error buffer */
    char *s;
    size_t cap;
    const char *p; /* written before a command a reply suggests: the prefix in
                      a channel ("say !tendido now"), "" in private */
} reply;

/*
 * Steps *p through a list of space-separated words: returns the next
 * word's start (inside the list) and sets *k to its length, or returns
 * NULL at the end of the list.
 */
const char *cmd_list_next(const char **p, size_t *k);

/* True when s[0..n) is one of the space-separated words of list, exactly. */
bool cmd_in_list(const char *s, size_t n, const char *list);

/* True when the word w, folded (text_fold), is one of the words of list. */
bool cmd_is_word(word w, const char *list);

/*
 * Writes w for a reply into out (TEXT_QUOTE_MAX bytes of text.h) and
 * returns out: cut short, bad bytes as '?' (text_quote).
 */
const char *cmd_quote(word w, char *out);

/*
 * Writes a formatted reply into r and returns CMD_ERROR. A reply longer
 * than the buffer is cut at a whole UTF-8 character; a failed format
 * leaves a generic reply. With no buffer (NULL or cap 0) writes nothing.
 */
cmd_result cmd_fail(reply *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Reads a whole number at w[0..n): decimal digits in one word ("31"), or
 * number words in English or Spanish, in one word or several ("dos",
 * "thirty-one", "thirty one", "treinta y uno", "veintiuno", "ciento
 * veinte", "one hundred and twenty"). Sets *value (digits past a million
 * read as a million) and returns the words taken, or 0 when w[0] starts
 * no number.
 */
int cmd_number_at(const word *w, int n, int *value);

/*
 * Reads the arguments w[0..n) of `new` (a player count, option words,
 * NAME=VALUE) into c. Returns CMD_OK, or CMD_ERROR after writing a reply.
 */
cmd_result cmd_parse_new(const word *w, int n, cmd *c, reply *r);
/* addbot [N] [level], in either order: into c->count and c->level. */
cmd_result cmd_parse_addbot(const word *w, int n, cmd *c, reply *r);
/* The level (0..3) the word w names (CMD_LEVEL_WORDS, English or Spanish),
   or -1; and a level's English word ("strong"), which the host reads. */
int cmd_level_at(word w);
const char *cmd_level_name(int level);
/* top [bots]: c->robots for the computer players' table. */
cmd_result cmd_parse_top(const word *w, int n, cmd *c, reply *r);

/* The arguments of the verbs of command_args.c (the players' own
   settings, the owners' and the games' words), w[0..n) into c: CMD_OK, or
   CMD_ERROR after writing a reply. */
cmd_result cmd_parse_games(const word *w, int n, cmd *c, reply *r);
cmd_result cmd_parse_link(const word *w, int n, cmd *c, reply *r);
cmd_result cmd_parse_game_id(const word *w, int n, cmd *c, reply *r);
/* The value of a player's or a game's setting id (settings.def), by its
   row's kind: c->on, c->off, c->name or c->deadline_secs. */
cmd_result cmd_parse_setting(int id, const word *w, int n, cmd *c, reply *r);
cmd_result cmd_parse_set(const word *w, int n, cmd *c, reply *r);

/* The word covering w[i] to w[j] of one line, spaces included. */
word cmd_span(const word *w, int i, int j);
/* True when w is a nick: valid UTF-8 shorter than CMD_NAME_MAX. */
bool cmd_is_name(word w);
/* Copies w into dst (CMD_NAME_MAX bytes); the caller checked its length. */
void cmd_copy_name(char *dst, word w);

#endif /* PZ_COMMAND_INT_H */
