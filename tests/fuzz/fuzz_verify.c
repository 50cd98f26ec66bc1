/*
 * fuzz_verify.c — the libFuzzer target for pzr_verify(), porrazo-replay
 * --verify (FAIRNESS.md): any bytes of any length go in as a record. It
 * must not crash, leak or read past the input, and must end with one of
 * verify.h's statuses but PZR_VERIFY_FAILURE (which only memory or OpenSSL
 * failing can give); anything else aborts, which libFuzzer reports as a
 * crash. With PZ_FUZZ_EXPECT_VERIFIED set, every input must verify (the
 * corpus's verified-* records).
 *
 * Built with -fsanitize=fuzzer it is a fuzzer; linked with replay_main.c it
 * replays the checked-in corpus as a ctest.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
        abort();
    int rc = pzr_verify((const char *)data, size, null, null);
    if (rc != PZR_VERIFY_OK && rc != PZR_VERIFY_MISMATCH && rc != PZR_VERIFY_MALFORMED)
        abort();
    if (rc != PZR_VERIFY_OK && getenv("PZ_FUZZ_EXPECT_VERIFIED") != NULL) {
        fprintf(stderr, "fuzz_verify: a verified record does not verify (%d)\n", rc);
        abort();
    }
    return 0;
}
