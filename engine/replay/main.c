/*
 * main.c — the porrazo-replay command (shared/spec/REPLAY.md).
 *
 * `porrazo-replay FILE.json`, or `porrazo-replay -` for standard input,
 * reads the whole scenario into memory (at most PZR_INPUT_MAX bytes) and
 * hands it to pzr_run(), whose status is the exit status: 0 read, 2
 * malformed (also wrong usage), 1 when the file cannot be read or the
 * output cannot be written. `porrazo-replay --verify RECORD` checks a
 * game's record of fair deals (verify.h; FAIRNESS.md): 0 verified, 1 a
 * difference, 2 malformed, 3 our fault. All the work is in the porrazo_scenario
 * library; this file is only the command line and file reading.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "verify.h"

static const char usage[] =
    "usage: porrazo-replay FILE.json   (or - to read standard input)\n"
    "       porrazo-replay --verify RECORD.json   (a game's record: FAIRNESS.md)\n";

/*
 * Reads all of f into a new buffer (the caller frees *out) of at most cap
 * bytes. Returns 0 with *out and *len set, -1 on a read error or when
 * memory runs out (errno tells), -2 when f holds more than cap bytes.
 */
static int read_all(FILE *f, size_t cap, char **out, size_t *len)
{
    size_t size = 0, have = 0;
    char *buf = NULL;
    for (;;) {
        if (have == size) {
            size_t grow = size ? size * 2 : 65536;
            if (grow > cap + 1)
                grow = cap + 1;
            char *p = realloc(buf, grow);
            if (!p) {
                free(buf);
                return -1;
            }
            buf = p;
            size = grow;
        }
        have += fread(buf + have, 1, size - have, f);
        if (have > cap) {
            free(buf);
            return -2;
        }
        if (have < size) /* end of file or error: fread stops short */
            break;
    }
    if (ferror(f)) {
        free(buf);
        return -1;
    }
    *out = buf;
    *len = have;
    return 0;
}

/*
 * Opens and reads the scenario named by arg ("-": standard input) into
 * *text and *len. Returns 0, or an exit status after a message on stderr.
 */
static int load(const char *arg, char **text, size_t *len)
{
    const char *name = strcmp(arg, "-") == 0 ? "standard input" : arg;
    FILE *f = strcmp(arg, "-") == 0 ? stdin : fopen(arg, "rb");
    if (!f) {
        fprintf(stderr, "porrazo-replay: %s: %s\n", name, strerror(errno));
        return PZR_EXIT_FAILURE;
    }
    int rc = read_all(f, PZR_INPUT_MAX, text, len);
    int saved = errno;
    if (f != stdin)
        fclose(f);
    if (rc == -2) {
        fprintf(stderr,
                "porrazo-replay: malformed scenario: %s is larger than %zu "
                "bytes\n",
                name, PZR_INPUT_MAX);
        return PZR_EXIT_MALFORMED;
    }
    if (rc < 0) {
        fprintf(stderr, "porrazo-replay: %s: cannot read: %s\n", name, strerror(saved));
        return PZR_EXIT_FAILURE;
    }
    return 0;
}

int main(int argc, char **argv)
{
    char *text = NULL;
    size_t len = 0;
    bool verify = argc == 3 && strcmp(argv[1], "--verify") == 0;
    const char *file = argv[argc - 1];
    if ((argc != 2 && !verify) || (file[0] == '-' && file[1] != '\0')) {
        fputs(usage, stderr);
        return PZR_EXIT_MALFORMED;
    }
    int rc = load(file, &text, &len);
    if (rc != 0)
        return verify ? PZR_VERIFY_FAILURE : rc;
    rc = verify ? pzr_verify(text, len, stdout, stderr) : pzr_run(text, len, stdout, stderr);
    free(text);
    return rc;
}
