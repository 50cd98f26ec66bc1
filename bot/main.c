/*
 * main.c — porrazo-bot: reads the configuration, opens the database and
 * runs the host on the console (--console) or exports a game as a
 * porrazo-replay scenario (--export).
 *
 * Fatal errors happen only here, at start-up, each with a message that
 * says what to fix. Not here: games, commands, protocols.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "console.h"
#include "host.h"
#include "store.h"

#define VERSION "0.1.0"

static volatile int stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: porrazo-bot --console [--config FILE] [--db FILE] [--seed N]\n"
               "       porrazo-bot --export GAME_ID [--config FILE] [--db FILE]\n"
               "       porrazo-bot --help | --version\n"
               "\n"
               "  --console    play in this terminal: 'NICK: text' speaks in #console,\n"
               "               'NICK> text' speaks to the bot privately\n"
               "  --config     the configuration file (see config/porrazo.example.conf)\n"
               "  --db         the SQLite database (overrides [bot] database)\n"
               "  --seed N     every new game uses seed N (tests, demos; default: the\n"
               "               operating system's random source)\n"
               "  --export ID  print game ID as a porrazo-replay scenario\n");
}

typedef struct args {
    bool console, has_seed;
    const char *config, *db;
    uint64_t seed;
    long long export_id;
} args;

/* Parses a whole unsigned decimal number; 0 or -1. */
static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (s[0] == '\0' || s[0] == '-' || *end != '\0' || errno != 0)
        return -1;
    *out = v;
    return 0;
}

/* 0 ok, 1 exit 0 (help, version), 2 usage error. */
static int parse_args(int argc, char **argv, args *a)
{
    a->export_id = -1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        bool more = i + 1 < argc;
        uint64_t v;
        if (strcmp(o, "--console") == 0) {
            a->console = true;
        } else if (strcmp(o, "--config") == 0 && more) {
            a->config = argv[++i];
        } else if (strcmp(o, "--db") == 0 && more) {
            a->db = argv[++i];
        } else if (strcmp(o, "--seed") == 0 && more && parse_u64(argv[i + 1], &a->seed) == 0) {
            a->has_seed = true;
            i++;
        } else if (strcmp(o, "--export") == 0 && more && parse_u64(argv[i + 1], &v) == 0) {
            a->export_id = (long long)v;
            i++;
        } else if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (strcmp(o, "--version") == 0) {
            printf("porrazo-bot %s\n", VERSION);
            return 1;
        } else {
            fprintf(stderr, "porrazo-bot: unknown or incomplete option '%s'\n", o);
            usage(stderr);
            return 2;
        }
    }
    if (!a->console && a->export_id < 0) {
        fprintf(stderr, "porrazo-bot: this build hosts games on the console: use --console "
                        "(IRC and Matrix adapters are not part of it yet)\n");
        return 2;
    }
    return 0;
}

static bool owner_check(void *arg, const char *network, const char *player)
{
    return cfg_is_owner(arg, network, player);
}

static int export_game(store *st, long long id)
{
    char *doc = NULL, why[256];
    if (host_export(st, id, &doc, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bot: %s\n", why);
        return 1;
    }
    fputs(doc, stdout);
    free(doc);
    return 0;
}

int main(int argc, char **argv)
{
    static cfg c;
    args a = {0};
    char why[CFG_WHY_MAX];
    int r = parse_args(argc, argv, &a);
    if (r != 0)
        return r == 1 ? 0 : 2;
    cfg_defaults(&c);
    if (a.config != NULL && cfg_load(&c, a.config, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bot: %s\n", why);
        return 2;
    }
    if (a.db != NULL)
        snprintf(c.bot.database, sizeof c.bot.database, "%s", a.db);
    store *st;
    if (store_open(&st, c.bot.database, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bot: %s\n", why);
        return 1;
    }
    if (a.export_id >= 0) {
        r = export_game(st, a.export_id);
        store_close(st);
        return r;
    }
    host_config hc = {c.bot.prefix,
                      c.bot.name,
                      c.bot.reminder_secs,
                      c.bot.deadline_secs,
                      c.bot.max_games,
                      owner_check,
                      &c,
                      a.has_seed,
                      a.seed};
    host *h;
    if (host_new(&h, st, &hc, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bot: %s\n", why);
        store_close(st);
        return 1;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    r = host_announce_restart(h, (int64_t)time(NULL));
    if (r == 0)
        r = console_run(h, st, STDIN_FILENO, stdout, c.bot.name, &stop_requested);
    if (r != 0)
        fprintf(stderr, "porrazo-bot: %s\n", host_errmsg(h));
    host_free(h);
    store_close(st);
    return r == 0 ? 0 : 1;
}
