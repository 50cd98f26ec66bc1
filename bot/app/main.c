/*
 * main.c — porrazo-bot: reads the configuration, opens the database and
 * runs the host on the networks of the configuration (IRC, Matrix), on the console
 * (--console), exports a game as a porrazo-replay scenario (--export), or
 * only checks a configuration file (--check-config).
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
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "adapter.h"
#include "config.h"
#include "console.h"
#include "envfile.h"
#include "host.h"
#include "i18n.h"
#include "irc.h"
#include "log.h"
#include "loop.h"
#include "mx.h"
#include "reload.h"
#include "store.h"
#include "web.h"

#ifndef PZ_VERSION
#error "PZ_VERSION (the project's version) comes from the top CMakeLists.txt"
#endif
#define VERSION PZ_VERSION

/* The kinds of network the bot runs (adapter.h), started in this order. */
static const adapter_ops *const kinds[] = {&irc_adapter, &mx_adapter};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static volatile int stop_requested;
static volatile sig_atomic_t reload_requested;
static loop *running_loop; /* set while the networks run: signals stop it */

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
    if (running_loop != NULL)
        loop_stop(running_loop);
}

/* SIGHUP: the loop reloads the configuration in its next iteration. */
static void on_hangup(int sig)
{
    (void)sig;
    reload_requested = 1;
    if (running_loop != NULL)
        loop_wake(running_loop);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: porrazo-bot --config FILE [--env-file FILE] [--db FILE] [--seed N]\n"
               "       porrazo-bot --console [--config FILE] [--db FILE] [--seed N]\n"
               "       porrazo-bot --export GAME_ID [--config FILE] [--db FILE]\n"
               "       porrazo-bot --check-config FILE [--env-file FILE]\n"
               "       porrazo-bot --help | --version\n"
               "\n"
               "  (no mode)    run on the IRC and Matrix networks of the configuration file\n"
               "  --console    play in this terminal: 'NICK: text' speaks in #console,\n"
               "               'NICK> text' speaks to the bot privately\n"
               "  --config     the configuration file, described in porrazo.conf(5); a\n"
               "               commented example is installed as\n"
               "               /etc/porrazo/porrazo.conf.example (PREFIX/etc/porrazo/ when\n"
               "               installed under a PREFIX other than /usr)\n"
               "  --env-file FILE\n"
               "               set the variables of FILE (NAME=VALUE lines, as systemd's\n"
               "               EnvironmentFile= reads them, e.g. /etc/porrazo/porrazo.env)\n"
               "               before reading the configuration, for its ${NAME} values\n"
               "  --db         the SQLite database (overrides [bot] database)\n"
               "  --seed N     every new game uses seed N, not sealed (tests, demos;\n"
               "               default: each hand's seed from the operating system,\n"
               "               sealed until the game ends: FAIRNESS.md)\n"
               "  --export ID  print game ID as a porrazo-replay scenario\n"
               "  --check-config FILE\n"
               "               list every error and warning of FILE, then exit: 0 when it\n"
               "               has no error, 1 otherwise (opens no database, no network);\n"
               "               a ${NAME} whose variable is not set is a warning\n"
               "  --version    print porrazo-bot VERSION\n");
}

typedef struct args {
    bool console, has_seed;
    const char *config, *db, *check, *env_file;
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
        } else if (strcmp(o, "--check-config") == 0 && more) {
            a->check = argv[++i];
        } else if (strcmp(o, "--env-file") == 0 && more) {
            a->env_file = argv[++i];
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
    return 0;
}

/* Where report_config() writes, and what it puts before each line. */
typedef struct config_report {
    FILE *out;
    const char *prefix; /* before each line: "" or "porrazo-bot: " */
} config_report;

/* Writes one error or warning of the configuration (cfg_report_fn). */
static void report_config(void *arg, cfg_level level, const char *msg)
{
    const config_report *r = arg;
    fprintf(r->out, "%s%s: %s\n", r->prefix, level == CFG_ERROR ? "error" : "warning", msg);
}

/*
 * --check-config FILE [--env-file ENV]: every error and warning of ENV
 * (when given, its variables then set) and of FILE on standard output,
 * then a summary line; an unset ${NAME} is a warning (cfg_check_all).
 * Returns the exit status: 0 without errors, else 1.
 */
static int check_config(const char *path, const char *env_file)
{
    static cfg c;
    config_report r = {stdout, ""};
    int env_warn = 0, env_err = 0, nwarn = 0, nerr;
    if (env_file != NULL)
        env_err = envfile_load(env_file, report_config, &r, &env_warn);
    nerr = cfg_check_all(&c, path, report_config, &r, &nwarn) + env_err;
    nwarn += env_warn;
    int nnets = 0;
    for (size_t k = 0; k < NKINDS; k++)
        nnets += kinds[k]->count(&c);
    if (nerr == 0 && nnets == 0) {
        printf("warning: %s: no [irc NAME] or [matrix NAME] section, so porrazo-bot --config "
               "would refuse to start; the file is usable with --console only\n",
               path);
        nwarn++;
    }
    printf("%s: %d error%s, %d warning%s%s\n", path, nerr, nerr == 1 ? "" : "s", nwarn,
           nwarn == 1 ? "" : "s", nerr == 0 ? ": the configuration is valid" : "");
    return nerr == 0 ? 0 : 1;
}

/* The host's game events (host_config.log_event), at info. */
static void log_game_event(void *arg, const char *line)
{
    (void)arg;
    log_msg(LOG_INFO, "%s", line);
}

/* The store's word on its files (store_set_alert): a lost -wal saved, a
   moved database, modes made private. */
static void alert_operator(void *arg, bool serious, const char *msg)
{
    (void)arg;
    log_msg(serious ? LOG_ERROR : LOG_WARN, "database: %s", msg);
}

/* Whether player is an owner on network (host_config.is_owner): by the
   rule of the network's kind, or the file's plain list (the console). */
static bool owner_check(void *arg, const char *network, const char *player)
{
    const cfg *c = arg;
    for (size_t k = 0; k < NKINDS; k++)
        for (int i = 0; i < kinds[k]->count(c); i++)
            if (strcmp(kinds[k]->section(c, i), network) == 0)
                return kinds[k]->is_owner(c, network, player);
    return cfg_is_owner(c, network, player);
}

/* The configured language of a room (host_config.lang_of): the file's
   lang_es/lang_en lists, the network's and the bot's language; read
   again from the reloaded file after a SIGHUP. */
static int configured_lang(void *arg, const char *network, const char *room)
{
    return cfg_room_lang(arg, network, room);
}

/* The adapters' send queues by network, for the host (host_config.outq_of). */
typedef struct queues {
    int n;
    const char *network[NKINDS * CFG_NETWORKS + 1];
    outq *q[NKINDS * CFG_NETWORKS + 1];
    host *h; /* renders the queues' live lines when they are sent */
} queues;

static queues all_queues;

static void queues_add(queues *qs, const char *network, outq *q)
{
    if (q != NULL && qs->n < (int)(sizeof qs->q / sizeof qs->q[0])) {
        qs->network[qs->n] = network;
        qs->q[qs->n++] = q;
        if (qs->h != NULL)
            outq_set_expander(q, host_expand, qs->h);
    }
}

static outq *queue_of(void *arg, const char *network)
{
    queues *qs = arg;
    for (int i = 0; i < qs->n; i++)
        if (strcmp(qs->network[i], network) == 0)
            return qs->q[i];
    return NULL;
}

/* The running networks of every kind (run_networks), for an owner's part
   (host_config.leave_room) and a reload. */
typedef struct networks {
    int n;
    adapter_run run[NKINDS * CFG_NETWORKS];
} networks;

static networks all_nets;

static int leave_room(void *arg, const char *network, const char *room, const char *by)
{
    networks *ns = arg;
    for (int i = 0; i < ns->n; i++) {
        const adapter_run *a = &ns->run[i];
        if (strcmp(a->ops->name(a->net), network) == 0)
            return a->ops->leave(a->net, room, by);
    }
    return -1; /* the console has no rooms to leave */
}

/* The host's clock, run from the loop: a timer armed before each sleep. */
typedef struct host_clock {
    host *h;
    loop_timer timer;
    loop_hook hook;
    int64_t armed_for;     /* unix seconds the timer is set for, or INT64_MAX */
    reload_target *reload; /* what SIGHUP reloads; NULL: no file to reload */
    loop_timer log_timer;  /* a count of repeated log lines is due (log_tick) */
} host_clock;

static void on_host_timer(loop_timer *t, void *arg)
{
    (void)t;
    host_clock *hc = arg;
    hc->armed_for = INT64_MAX;
    if (host_tick(hc->h, (int64_t)time(NULL)) != 0)
        log_msg(LOG_ERROR, "%s", host_errmsg(hc->h));
}

static void on_log_timer(loop_timer *t, void *arg)
{
    (void)t, (void)arg;
    log_tick(false);
}

static void on_host_hook(loop_hook *hk, void *arg)
{
    (void)hk;
    host_clock *hc = arg;
    int64_t log_wait = log_repeat_wait_ms(); /* a quiet log still says how many */
    if (log_wait >= 0 && !loop_timer_active(&hc->log_timer))
        (void)loop_timer_start(&hc->log_timer, log_wait, 0);
    if (reload_requested) {
        reload_requested = 0;
        if (hc->reload == NULL)
            log_msg(LOG_WARN, "SIGHUP: no configuration file to reload (started without --config)");
        else
            (void)reload_config(hc->reload);
    }
    int64_t now = (int64_t)time(NULL), next = host_next_tick(hc->h, now);
    if (next == hc->armed_for)
        return;
    hc->armed_for = next;
    if (next == INT64_MAX)
        loop_timer_stop(&hc->timer);
    else
        (void)loop_timer_start(&hc->timer, next <= now ? 0 : (next - now) * 1000, 0);
}

/*
 * The database's folder, watched with inotify while the networks run: a
 * -wal or -shm deleted, moved or replaced while the bot is idle is saved
 * at once (store_check_files), not at the next write, which a kill -9
 * might never let come. Which file changed does not matter: the store's
 * check is three stat() calls.
 */
typedef struct db_watch {
    int fd; /* -1: not watching */
    loop_io io;
    store *st;
} db_watch;

static void on_db_folder(loop_io *w, int fd, unsigned events, void *arg)
{
    (void)w, (void)events;
    db_watch *dw = arg;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    while (read(fd, buf, sizeof buf) > 0)
        ; /* drained: one check for them all */
    store_check_files(dw->st);
}

/* Starts watching folder for dw->st; without inotify a loss is noticed at
   the next write, as the log says. */
static void db_watch_start(db_watch *dw, loop *l, const char *folder)
{
    const char *why;
    dw->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (dw->fd < 0) {
        why = strerror(errno);
    } else if (inotify_add_watch(dw->fd, folder,
                                 IN_DELETE | IN_CREATE | IN_MOVED_FROM | IN_MOVED_TO) < 0) {
        why = strerror(errno);
    } else {
        loop_io_init(l, &dw->io, dw->fd, on_db_folder, dw);
        if (loop_io_start(&dw->io, LOOP_READ) == 0)
            return;
        why = "the event loop is full";
    }
    log_msg(LOG_WARN,
            "cannot watch the database's folder %s (%s): a deleted -wal is noticed at the next "
            "write only",
            folder, why);
    if (dw->fd >= 0)
        close(dw->fd);
    dw->fd = -1;
}

static void db_watch_stop(db_watch *dw)
{
    if (dw->fd < 0)
        return;
    loop_io_stop(&dw->io);
    close(dw->fd);
    dw->fd = -1;
}

/* The computer players' worker has a decision (host_think_async). */
static void wake_loop(void *arg)
{
    loop_wake(arg);
}

static void on_shutdown_timer(loop_timer *t, void *arg)
{
    (void)t, (void)arg; /* its end is the signal: see run_networks */
}

/*
 * Makes the network of c's i-th section of kind ops, gives the host its
 * queue and starts it, recorded in ns (freed by run_networks whatever
 * happens). 0, or 1 with the reason on standard error.
 */
static int start_network(networks *ns, const adapter_ops *ops, const adapter_env *env, const cfg *c,
                         int i)
{
    char why[512];
    void *net;
    if (ns->n >= (int)(sizeof ns->run / sizeof ns->run[0]) ||
        ops->make(&net, env, c, i, why, sizeof why) != 0) {
        if (ns->n >= (int)(sizeof ns->run / sizeof ns->run[0]))
            snprintf(why, sizeof why, "[%s %s]: too many networks", ops->kind, ops->section(c, i));
        fprintf(stderr, "porrazo-bot: %s\n", why);
        return 1;
    }
    ns->run[ns->n++] = (adapter_run){ops, net};
    queues_add(&all_queues, ops->name(net), ops->outq(net));
    if (ops->start(net) != 0) {
        fprintf(stderr, "porrazo-bot: [%s %s]: cannot start: the event loop is full\n", ops->kind,
                ops->name(net));
        return 1;
    }
    return 0;
}

/* Says goodbye on every network and waits, up to two seconds, for the
   goodbyes to be on the wire. */
static void quit_networks(loop *l, networks *ns)
{
    for (int i = 0; i < ns->n; i++)
        ns->run[i].ops->quit(ns->run[i].net, "porrazo-bot stopping; games are saved");
    loop_timer bye;
    loop_timer_init(l, &bye, on_shutdown_timer, NULL);
    (void)loop_timer_start(&bye, 2000, 0);
    for (;;) {
        bool open = false;
        for (int i = 0; i < ns->n; i++)
            open |= !ns->run[i].ops->closed(ns->run[i].net);
        if (!open || !loop_timer_active(&bye) || loop_run_once(l, true) < 0)
            break;
    }
    loop_timer_stop(&bye);
}

/*
 * Runs every network of the configuration in one loop until SIGINT or
 * SIGTERM, then says goodbye to each. 0, or 1 after a start-up failure.
 */
static int run_networks(cfg *c, host *h, store *st, const char *db_folder, uint64_t seed,
                        reload_target *rt)
{
    loop *l;
    if (loop_new(&l, NULL, NULL) != 0) {
        fprintf(stderr, "porrazo-bot: cannot make the event loop\n");
        return 1;
    }
    networks *ns = &all_nets;
    int r = 0;
    adapter_env env = {l, h, st, c, "porrazo-bot " VERSION, seed};
    for (size_t k = 0; k < NKINDS && r == 0; k++)
        for (int i = 0; i < kinds[k]->count(c) && r == 0; i++)
            r = start_network(ns, kinds[k], &env, c, i);
    if (rt != NULL) {
        rt->nets = ns->run;
        rt->nnets = ns->n;
    }
    /* Computer players think on a worker thread that wakes the loop. */
    if (r == 0 && host_think_async(h, wake_loop, l) != 0)
        log_msg(LOG_WARN, "no thread for the computer players: they think inside the loop");
    host_clock hc = {h, {0}, {0}, INT64_MAX, rt, {0}};
    db_watch dw = {-1, {0}, st};
    if (r == 0)
        db_watch_start(&dw, l, db_folder);
    loop_timer_init(l, &hc.timer, on_host_timer, &hc);
    loop_timer_init(l, &hc.log_timer, on_log_timer, &hc);
    loop_hook_init(l, &hc.hook, on_host_hook, &hc);
    if (r == 0 && loop_hook_start(&hc.hook) == 0) {
        running_loop = l;
        log_msg(LOG_INFO, "porrazo-bot %s running on %d network%s", VERSION, ns->n,
                ns->n == 1 ? "" : "s");
        if (loop_run(l) != 0)
            log_msg(LOG_ERROR, "the event loop failed");
        log_msg(LOG_INFO, "stopping");
        loop_hook_stop(&hc.hook);
        loop_timer_stop(&hc.timer);
        quit_networks(l, ns);
        running_loop = NULL;
    }
    loop_hook_stop(&hc.hook);
    loop_timer_stop(&hc.timer);
    db_watch_stop(&dw);
    loop_timer_stop(&hc.log_timer);
    host_think_stop(h); /* its wake-ups go to the loop freed below */
    int n = ns->n;
    ns->n = 0; /* nor may a part reach the networks freed below */
    for (int i = 0; i < n; i++)
        ns->run[i].ops->free(ns->run[i].net);
    loop_free(l);
    return r;
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
    i18n_init(); /* before any thread: it sets LANGUAGE (i18n.c) */
    int r = parse_args(argc, argv, &a);
    if (r != 0)
        return r == 1 ? 0 : 2;
    if (a.check != NULL)
        return check_config(a.check, a.env_file);
    cfg_defaults(&c);
    config_report rep = {stderr, "porrazo-bot: "};
    /* The variables first: the file's ${NAME} values, now and at a reload. */
    if (a.env_file != NULL && envfile_load(a.env_file, report_config, &rep, NULL) != 0)
        return 2; /* every error is written */
    if (a.config != NULL && cfg_load_all(&c, a.config, report_config, &rep, NULL) != 0)
        return 2; /* every error is written */
    if (a.db != NULL)
        snprintf(c.bot.database, sizeof c.bot.database, "%s", a.db);
    log_set_level(log_level_named(c.bot.log_level));
    if (!a.console && a.export_id < 0 &&
        cfg_check_runnable(&c,
                           a.config != NULL ? a.config : "the configuration (no --config given)",
                           why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bot: %s, or play in this terminal with --console\n", why);
        return 2;
    }
    store *st;
    if (store_open(&st, c.bot.database, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bot: %s\n", why);
        return 1;
    }
    store_set_alert(st, alert_operator, NULL);
    if (a.export_id >= 0) {
        r = export_game(st, a.export_id);
        store_close(st);
        return r;
    }
    /* One bot per database; the size cap, if any. */
    int lr = store_lock_instance(st, why, sizeof why);
    if (lr == 0 && c.bot.max_database_mb > 0 &&
        store_set_max_bytes(st, (int64_t)c.bot.max_database_mb << 20) != 0) {
        snprintf(why, sizeof why, "cannot cap the database at %d MiB: %s", c.bot.max_database_mb,
                 store_errmsg(st));
        lr = -1;
    }
    if (lr == 0 && (store_set_cache(st, c.bot.database_cache_kib, c.bot.database_mmap_mib) != 0 ||
                    store_set_game_cache(st, c.bot.database_games_mib) != 0)) {
        snprintf(why, sizeof why, "cannot size the database's cache: %s", store_errmsg(st));
        lr = -1;
    }
    if (lr != 0) {
        fprintf(stderr, "porrazo-bot: %s\n", why);
        store_close(st);
        return 1;
    }
    if (a.console)
        c.bot.flood_commands = 0; /* one trusted person speaks for every player */
    /* An owner's export writes next to the database. */
    char export_dir[sizeof c.bot.database];
    snprintf(export_dir, sizeof export_dir, "%s", c.bot.database);
    char *slash = strrchr(export_dir, '/');
    if (slash == NULL)
        snprintf(export_dir, sizeof export_dir, ".");
    else
        slash[slash == export_dir ? 1 : 0] = '\0';
    /* The settings of the [bot] section (a reload sets them again), then
       what the process gives the host. */
    static host_config hc;
    reload_host_settings(&c, &hc);
    hc.is_owner = owner_check;
    hc.owner_arg = &c;
    hc.lang_of = configured_lang;
    hc.lang_arg = &c;
    hc.fixed_seed = a.has_seed;
    hc.seed = a.seed;
    hc.outq_of = queue_of;
    hc.outq_arg = &all_queues;
    hc.leave_room = leave_room;
    hc.leave_arg = &all_nets;
    hc.log_event = log_game_event;
    hc.export_dir = export_dir;
    host *h;
    if (host_new(&h, st, &hc, why, sizeof why) != 0) {
        fprintf(stderr, "porrazo-bot: %s\n", why);
        store_close(st);
        return 1;
    }
    all_queues.h = h;
    /* The game pages, on their own thread with a read-only connection. */
    web *pages = NULL;
    if (c.web.listen[0] != '\0') {
        web_limits lim = {.header_secs = (unsigned)c.web.header_secs};
        snprintf(lim.trusted_proxy, sizeof lim.trusted_proxy, "%s", c.web.trusted_proxy);
        if (web_start(&pages, c.bot.database, c.web.listen, &lim, NULL, why, sizeof why) != 0 ||
            reload_web_langs(&c, pages) != 0) {
            if (pages != NULL)
                snprintf(why, sizeof why, "out of memory");
            web_stop(pages);
            fprintf(stderr, "porrazo-bot: %s\n", why);
            host_free(h);
            store_close(st);
            return 1;
        }
        char shown[sizeof c.web.listen + 16];
        snprintf(shown, sizeof shown, "%s", c.web.listen);
        char *colon = strrchr(shown, ':');
        if (colon != NULL)
            snprintf(colon, sizeof shown - (size_t)(colon - shown), ":%d", web_port(pages));
        log_msg(LOG_INFO, "the game pages are served on http://%s/", shown);
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, on_hangup);
    outq *console_q = NULL;
    if (a.console && outq_new(&console_q, st, CONSOLE_NETWORK) != 0) {
        fprintf(stderr, "porrazo-bot: out of memory\n");
        host_free(h);
        store_close(st);
        return 1;
    }
    queues_add(&all_queues, CONSOLE_NETWORK, console_q);
    if (host_announce_restart(h, (int64_t)time(NULL)) != 0)
        log_msg(LOG_WARN, "cannot announce the restart: %s", host_errmsg(h));
    r = 0;
    if (a.console &&
        console_run(h, console_q, STDIN_FILENO, stdout, c.bot.name, &stop_requested) != 0)
        r = 1, fprintf(stderr, "porrazo-bot: cannot read or write the terminal\n");
    else if (!a.console) {
        reload_target rt = {a.config, a.db != NULL, &c, h, &hc, st, NULL, 0, pages};
        r = run_networks(&c, h, st, export_dir,
                         a.has_seed ? a.seed : (uint64_t)time(NULL) ^ (uint64_t)getpid(),
                         a.config != NULL ? &rt : NULL);
    }
    web_stop(pages);
    host_free(h);
    outq_free(console_q);
    store_close(st);
    log_tick(true); /* how many times the last line was repeated, if it was */
    return r == 0 ? 0 : 1;
}
