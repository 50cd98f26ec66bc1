/*
 * print_shuffle.c — prints pz_shuffle(seed) for each seed argument, one
 * line per seed ("SEED: AC 7H ..."), for shuffle_reference.py to compare
 * with its own implementation of the documented algorithm.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "porrazo.h"

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        char *end;
        errno = 0;
        uint64_t seed = strtoull(argv[i], &end, 10);
        if (errno != 0 || *end != '\0' || argv[i][0] == '-') {
            fprintf(stderr, "print_shuffle: '%s' is not an unsigned 64-bit seed\n", argv[i]);
            return 2;
        }
        pz_card pack[PZ_CARDS];
        pz_shuffle(seed, pack);
        printf("%" PRIu64 ":", seed);
        for (int c = 0; c < PZ_CARDS; c++) {
            char name[3];
            pz_card_format(pack[c], name);
            printf(" %s", name);
        }
        printf("\n");
    }
    return 0;
}
