/*
 * replay_main.c — a main() for a fuzz target without libFuzzer: feeds every
 * file of the directories (or the files) named on the command line to
 * LLVMFuzzerTestOneInput(), in name order, each in a buffer of exactly its
 * size so that a sanitizer build catches reads past the end. It turns the
 * checked-in corpus into an ordinary ctest with any compiler. It does not
 * mutate anything; a crash is the target's abort(). Exits 0 when at least
 * one file was fed and every file could be read, else 1.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define REPLAY_FILE_MAX (1L << 20) /* corpus files are small; cap at 1 MiB */
#define REPLAY_NAMES_MAX 4096      /* files per directory */
#define REPLAY_PATH_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Reads the file at path and feeds it to the target. Returns 0, or -1 with
 * a message when it cannot be read or is larger than REPLAY_FILE_MAX.
 */
static int feed_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    uint8_t *buf = malloc(REPLAY_FILE_MAX + 1);
    size_t n = buf == NULL ? 0 : fread(buf, 1, REPLAY_FILE_MAX + 1, f);
    bool bad = buf == NULL || ferror(f) || n > REPLAY_FILE_MAX;
    fclose(f);
    uint8_t *exact = bad ? NULL : malloc(n ? n : 1);
    if (exact == NULL) {
        fprintf(stderr, "replay: cannot read %s (or above 1 MiB)\n", path);
        free(buf);
        return -1;
    }
    if (n > 0)
        memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Feeds every regular file of directory dir (names not starting with a dot)
 * in name order. Adds the count to *fed. Returns 0 or -1.
 */
static int feed_dir(const char *dir, long *fed)
{
    static char *names[REPLAY_NAMES_MAX];
    char path[REPLAY_PATH_MAX];
    struct stat st;
    int n = 0, rc = 0;
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir);
        return -1;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL && n < REPLAY_NAMES_MAX;)
        if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)) != NULL)
            n++;
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], compare_names);
    for (int i = 0; i < n; i++) {
        int len = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (len < 0 || (size_t)len >= sizeof path) {
            fprintf(stderr, "replay: path too long in %s\n", dir);
            rc = -1;
        } else if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            rc |= feed_file(path);
            ++*fed;
        }
        free(names[i]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    struct stat st;
    long fed = 0;
    int rc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            rc |= feed_dir(argv[i], &fed);
        } else {
            rc |= feed_file(argv[i]);
            fed++;
        }
    }
    printf("replayed %ld inputs\n", fed);
    return rc != 0 || fed == 0 ? 1 : 0;
}
