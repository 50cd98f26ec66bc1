/*
 * envfile.h — a file of environment variables in the syntax of systemd's
 * EnvironmentFile= (systemd.exec(5)), such as /etc/porrazo/porrazo.env:
 * what porrazo-bot --env-file FILE reads, so that --check-config and a
 * start see the ${NAME} values the service would get from systemd.
 *
 * The syntax, as systemd reads it: one NAME=VALUE per line; lines starting
 * with # or ; are comments, blank lines and lines without '=' are ignored;
 * blanks around the name and an unquoted value are dropped; an unquoted
 * value takes backslash escapes as a shell does (a backslash at the end of
 * a line continues it); a '...' value is taken verbatim, a "..." value
 * takes \" \\ \` \$ and a backslash-newline, both may span lines; quoted
 * and unquoted parts after '=' are joined. A later assignment of a name
 * wins. A name that is not letters, digits and _ (not starting with a
 * digit) is ignored, as systemd ignores it. Messages name the file and the
 * line, never a value nor a name (either may be a pasted secret). Not
 * here: the configuration file (config.h).
 */
#ifndef PZ_ENVFILE_H
#define PZ_ENVFILE_H

#include <stddef.h>

#include "config.h"

/* Receives one assignment; name and value are valid only during the call. */
typedef void (*envfile_set_fn)(void *arg, const char *name, const char *value);

/*
 * Reads text (len bytes) as an environment file called name in messages
 * and hands each assignment, in order, to set. Lines systemd ignores are
 * warnings for report (NULL: none): "NAME:LINE: what systemd does with
 * it". Returns 0, or -1 when out of memory (reported as an error).
 * *nwarnings (when not NULL) gets the number of warnings.
 */
int envfile_parse(const char *name, const char *text, size_t len, envfile_set_fn set, void *arg,
                  cfg_report_fn report, void *report_arg, int *nwarnings);

/*
 * Reads the file at path (at most 1 MiB) with envfile_parse() and sets each
 * variable in this process's environment (replacing one already set, as
 * EnvironmentFile= does for Environment=). A file other users may read is
 * a warning (it should hold secrets only its owner reads). Returns the
 * number of errors (cannot open or read the file, too large, no memory):
 * 0 when every assignment was set. *nwarnings as above.
 */
int envfile_load(const char *path, cfg_report_fn report, void *report_arg, int *nwarnings);

#endif /* PZ_ENVFILE_H */
