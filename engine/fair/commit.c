/*
 * commit.c — the commitment of a fair deal (commit.h), OpenSSL's SHA-256.
 */
#include "commit.h"

#include <inttypes.h>
#include <stdio.h>

#include <openssl/evp.h>

int pzf_commit(uint64_t seed, const char *salt, char out[PZF_COMMIT_HEX + 1])
{
    char text[200];
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    int n = snprintf(text, sizeof text, "porrazo-commit-v1:%" PRIu64 ":%s", seed, salt);
    if (n < 0 || (size_t)n >= sizeof text ||
        EVP_Digest(text, (size_t)n, md, &len, EVP_sha256(), NULL) != 1 || len != 32)
        return -1;
    for (unsigned i = 0; i < len; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    return 0;
}
