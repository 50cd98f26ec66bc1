/*
 * console.h — the console adapter: one terminal speaks as several players
 * in one channel, so a whole game can be played (or scripted) on standard
 * input.
 *
 * Input lines: "NICK: TEXT" says TEXT in the channel #console as NICK;
 * "NICK> TEXT" sends TEXT to the bot privately. Output lines: channel
 * messages as "#console <BOT> TEXT", private ones as "-> NICK: TEXT".
 * Not here: the rules or the commands (the host's).
 */
#ifndef PZ_CONSOLE_H
#define PZ_CONSOLE_H

#include <stdio.h>

#include "host.h"
#include "outq.h"

#define CONSOLE_NETWORK "console"
#define CONSOLE_ROOM "#console"

/*
 * Reads fd_in until end of file (or *stop becomes nonzero), handing each
 * line to the host and printing the console network's queue q (an outq of
 * CONSOLE_NETWORK over the host's store) to out; runs the host's clock
 * between lines. A store failure is told on stderr and the console goes
 * on (the host tells the player; a full disk or a lock passes). Returns 0
 * at end of input, -1 when reading or writing the terminal fails.
 */
int console_run(host *h, outq *q, int fd_in, FILE *out, const char *bot_name, volatile int *stop);

/* Prints every queued console message to out, marks them sent (one batch).
   0, or -1 when out cannot be written. */
int console_drain(outq *q, FILE *out, const char *bot_name);

#endif /* PZ_CONSOLE_H */
