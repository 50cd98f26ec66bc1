/*
 * scenario.h — porrazo-replay as a library: read one scenario of
 * shared/spec/REPLAY.md, play it through the engine's public API and print
 * its events as JSON Lines.
 *
 * The whole run is one call, pzr_run(), so that the command (main.c), the
 * scenario tests and a fuzz target all exercise the same code. It is not a
 * rules engine and not a JSON library: the rules are libporrazo's, the
 * parsing is json-c's. It keeps no global state, never exits and never
 * aborts on any input.
 */
#ifndef PZR_SCENARIO_H
#define PZR_SCENARIO_H

#include <stddef.h>
#include <stdio.h>

/* The largest scenario pzr_run() reads, in bytes (4 MiB). */
#define PZR_INPUT_MAX ((size_t)4 * 1024 * 1024)

/* The exit statuses of porrazo-replay, which pzr_run() returns. */
enum pzr_exit {
    PZR_EXIT_OK = 0,       /* the scenario was read and played */
    PZR_EXIT_FAILURE = 1,  /* our fault, not the scenario's: out of memory,
                              output could not be written */
    PZR_EXIT_MALFORMED = 2 /* the scenario is malformed; nothing on out */
};

/*
 * Reads the scenario in text[0..len) (need not be NUL-terminated; at most
 * PZR_INPUT_MAX bytes), checks all of it, then plays it and writes the
 * events and the final state line to out, one JSON object per line.
 *
 * Returns PZR_EXIT_OK when the scenario was read, even if the engine
 * refused some actions (those print "error" events). Returns
 * PZR_EXIT_MALFORMED, with one line saying what is wrong on err and
 * nothing written to out, when the scenario is not valid JSON, breaks
 * REPLAY.md's format, or the engine refuses its set-up or position.
 * Returns PZR_EXIT_FAILURE with a message on err when memory runs out or
 * out cannot be written (then out may hold part of the output).
 * The caller keeps ownership of text, out and err; neither is closed.
 */
int pzr_run(const char *text, size_t len, FILE *out, FILE *err);

#endif /* PZR_SCENARIO_H */
