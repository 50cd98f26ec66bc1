/*
 * help.h — the rules texts of help.c for one game: render_rules() of
 * render.h with the target and the options of the game they are asked
 * about. The list of commands and the general texts are in render.h.
 */
#ifndef PZ_HELP_H
#define PZ_HELP_H

#include "porrazo.h"
#include "render.h"

/*
 * As render_rules(), for the game whose options are *game (NULL: no game,
 * the defaults of the rules): the summary says its target ("the first
 * side to reach 31 points wins") and ends with a line of its options that
 * differ from the defaults; the topic "end" says its target too.
 */
void help_rules(const char *topic, const pz_options *game, render_lines *out);

#endif /* PZ_HELP_H */
