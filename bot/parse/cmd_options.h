/*
 * cmd_options.h — the game options (R9) in the reader's words: an option's
 * name and a value's word as players read them ("cantos: silenciosos"),
 * and an option set or a set of options checked with the refusal written
 * in the language of the thread (i18n.h). The engine judges; its own
 * messages are English and for logs, so the host gives players these.
 *
 * Not here: reading options from a line (command_new.c), the options line
 * itself (render.h's render_options).
 */
#ifndef PZ_CMD_OPTIONS_H
#define PZ_CMD_OPTIONS_H

#include <stddef.h>

#include "porrazo.h"

/* The refusal of an option name that is none, its '%s' the name. */
#define CMD_NOT_AN_OPTION                                                                          \
    N_("'%s' is not an option: try target, wrap, declarations, tendido, odd_leftover, "            \
       "final_sweep, card_score or partnerships")

/* The option name (the engine's word, "card_score") in the reader's
   words ("cartas"); an unknown name as it is. */
const char *cmd_option_shown(const char *name);

/* The value word of the engine (value, "excess26") of option name in the
   reader's words ("exceso26"), words the parser takes back; an unknown
   one as it is. */
const char *cmd_option_value_shown(const char *name, const char *value);

/*
 * Sets option name to value in *o as pz_options_set does. Returns 0, or
 * -1 with why (cap bytes, always terminated) saying in the reader's
 * language which option is unknown or which values it takes; *o is
 * untouched on error.
 */
int cmd_option_set(pz_options *o, const char *name, const char *value, char *why, size_t cap);

/*
 * Checks *o for a game of `players` players as pz_options_check does.
 * Returns 0, or -1 with why saying in the reader's language what does not
 * fit (the player count, partners, excess26's two sides, the target).
 */
int cmd_options_check(const pz_options *o, int players, char *why, size_t cap);

#endif
