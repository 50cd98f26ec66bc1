/*
 * fuzz_replay.c — the libFuzzer target for pzr_run(), the scenario reader
 * and runner behind porrazo-replay: any bytes of any length go in as a
 * scenario. It must not crash, leak or read past the input, and must end
 * with status 0 (read) or 2 (malformed); anything else aborts, which
 * libFuzzer reports as a crash. Output and messages go to /dev/null, opened
 * once. With PZ_FUZZ_EXPECT_READ set, status 2 aborts too.
 *
 * It is not a fuzzer by itself: built with -fsanitize=fuzzer it is one;
 * linked with replay_main.c it replays the checked-in corpus as a ctest.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* /dev/null for writing, opened on first use and kept open. */
static FILE *null_file(void)
{
    static FILE *f;
    if (f == NULL) {
        f = fopen("/dev/null", "w");
        if (f == NULL)
            abort();
    }
    return f;
}

/*
 * True when PZ_FUZZ_EXPECT_READ is set: every input must then be read
 * (status 0; the ctest on the corpus's well-formed scenarios).
 */
static bool expect_read(void)
{
    static int cached = -1;
    if (cached < 0)
        cached = getenv("PZ_FUZZ_EXPECT_READ") != NULL;
    return cached != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *out = null_file();
    int rc = pzr_run((const char *)data, size, out, out);
    if (rc != 0 && rc != 2)
        abort();
    if (rc != 0 && expect_read()) {
        fprintf(stderr, "fuzz_replay: a well-formed scenario is malformed (%d)\n", rc);
        abort();
    }
    return 0;
}
