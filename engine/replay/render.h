/*
 * render.h — porrazo-replay's output: engine events and state as JSON
 * Lines, in the exact shape of shared/spec/REPLAY.md's event table.
 *
 * Internal to the porrazo_scenario library (scenario.c is its one user).
 * It reads the game only through porrazo.h and knows nothing of the
 * scenario format.
 */
#ifndef PZR_RENDER_H
#define PZR_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "porrazo.h"

/*
 * Prints one line per event of ev, in order (a "score" only when its
 * points are above 0). g gives the seat count for "deal". Returns 0, or -1
 * when a line could not be written or an event kind is unknown (a newer
 * engine); the lines before it are written.
 */
int pzr_print_events(FILE *out, const pz_game *g, const pz_events *ev);

/*
 * Prints {"event":"error","action":i,"code":...,"message":...} for action
 * number i refused with the engine error err (a negative PZ_E code).
 * message is escaped as JSON. Returns 0, or -1 when it could not be written.
 */
int pzr_print_error(FILE *out, size_t i, int err, const char *message);

/* Prints the final "state" line of g. Returns 0 or -1 as above. */
int pzr_print_state(FILE *out, const pz_game *g);

#endif /* PZR_RENDER_H */
