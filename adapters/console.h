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
#include "store.h"

#define CONSOLE_NETWORK "console"
#define CONSOLE_ROOM "#console"

/*
 * Reads fd_in until end of file (or *stop becomes nonzero), handing each
 * line to the host and printing the outbox to out; runs the host's clock
 * between lines. Returns 0 at end of input, -1 on a store failure (with a
 * message on stderr).
 */
int console_run(host *h, store *st, int fd_in, FILE *out, const char *bot_name, volatile int *stop);

/* Prints every unsent console message to out and marks it sent. */
int console_drain(store *st, FILE *out, const char *bot_name);

#endif /* PZ_CONSOLE_H */
