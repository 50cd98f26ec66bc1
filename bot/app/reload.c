/*
 * reload.c — a running bot takes a new configuration file (see reload.h).
 */
#include "reload.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "log.h"

/* Logs one message of the new file's check (cfg_report_fn). */
static void log_config(void *arg, cfg_level level, const char *msg)
{
    (void)arg;
    log_msg(level == CFG_ERROR ? LOG_ERROR : LOG_WARN, "reload: %s", msg);
}

int reload_web_langs(const cfg *c, web *pages)
{
    if (pages == NULL)
        return 0;
    web_langs wl = cfg_lang_rules(c); /* copied by the pages */
    return web_set_langs(pages, &wl);
}

void reload_host_settings(const cfg *c, host_config *hc)
{
    hc->prefix = c->bot.prefix;
    hc->bot_name = c->bot.name;
    hc->reminder_secs = c->bot.reminder_secs;
    hc->prompt_quiet_secs = c->bot.prompt_quiet_secs;
    hc->deadline_secs = c->bot.deadline_secs;
    hc->max_games = c->bot.max_games;
    hc->flood_commands = c->bot.flood_commands;
    hc->flood_secs = c->bot.flood_secs;
    hc->flood_ignore_secs = c->bot.flood_ignore_secs;
    hc->backlog_max = c->bot.backlog_max;
    hc->restart_recent_secs = c->bot.restart_recent_secs;
    hc->restart_announce_max = c->bot.restart_announce_max;
    hc->robot_level = c->bot.robot_level;
    hc->robot_delay_secs = c->bot.robot_delay_secs;
    hc->robot_iterations = c->bot.robot_iterations;
    hc->absent_after = c->bot.absent_after;
    hc->lobby_expiry_secs = c->bot.lobby_expiry_secs;
    hc->away_max_secs = c->bot.away_max_secs;
    hc->start_countdown_secs = c->bot.start_countdown_secs;
    hc->web_base_url = c->web.base_url;
}

/* The IRC section of c named name, or -1. */
static int irc_named(const cfg *c, const char *name)
{
    for (int i = 0; i < c->nirc; i++)
        if (strcmp(c->irc[i].name, name) == 0)
            return i;
    return -1;
}

/* The Matrix section of c named name, or -1. */
static int matrix_named(const cfg *c, const char *name)
{
    for (int i = 0; i < c->nmatrix; i++)
        if (strcmp(c->matrix[i].name, name) == 0)
            return i;
    return -1;
}

/*
 * Whether a file without errors may replace the running configuration:
 * not an empty file, nothing a start would refuse (no network section),
 * and every running network still in it (a file written half-way lacks
 * its last sections; a network is removed with a restart). 0, or -1 with
 * the reasons logged.
 */
static int judge(const reload_target *t, const cfg *next)
{
    struct stat sb;
    if (stat(t->path, &sb) == 0 && sb.st_size == 0) {
        log_msg(LOG_ERROR,
                "reload refused: %s is empty (written half-way?); the running configuration "
                "stays",
                t->path);
        return -1;
    }
    char why[CFG_WHY_MAX];
    if (cfg_check_runnable(next, t->path, why, sizeof why) != 0) {
        log_msg(LOG_ERROR,
                "reload refused: %s, as a start would refuse it; the running "
                "configuration stays",
                why);
        return -1;
    }
    int missing = 0;
    for (int i = 0; i < t->live->nirc; i++)
        if (irc_named(next, t->live->irc[i].name) < 0) {
            log_msg(LOG_ERROR, "reload: [irc %s] is running and is not in %s", t->live->irc[i].name,
                    t->path);
            missing++;
        }
    for (int i = 0; i < t->live->nmatrix; i++)
        if (matrix_named(next, t->live->matrix[i].name) < 0) {
            log_msg(LOG_ERROR, "reload: [matrix %s] is running and is not in %s",
                    t->live->matrix[i].name, t->path);
            missing++;
        }
    if (missing > 0) {
        log_msg(LOG_ERROR,
                "reload refused: %s lacks %d running network%s (above; written half-way?): a "
                "network is removed with a restart; the running configuration stays",
                t->path, missing, missing == 1 ? "" : "s");
        return -1;
    }
    return 0;
}

/*
 * Takes into live's [matrix] sections the languages of next's sections of
 * the same name: the network's language and its rooms' lang_CODE lists.
 * The host reads them for every line (cfg_room_lang over the rules made
 * again after) and the adapter never does, so they need no restart; the
 * rest of a changed section still waits for one (warn_restart_only).
 */
static void take_matrix_langs(cfg *live, const cfg *next)
{
    for (int i = 0; i < live->nmatrix; i++) {
        int j = matrix_named(next, live->matrix[i].name);
        if (j < 0)
            continue;
        cfg_matrix *to = &live->matrix[i];
        const cfg_matrix *from = &next->matrix[j];
        memcpy(to->language, from->language, sizeof to->language);
        memcpy(to->lang_rooms, from->lang_rooms, sizeof to->lang_rooms);
        to->nlang_rooms = from->nlang_rooms;
    }
}

/* Warns of the sections that only a restart adds or changes. */
static void warn_restart_only(const cfg *live, const cfg *next, bool db_from_args)
{
    for (int i = 0; i < next->nirc; i++)
        if (irc_named(live, next->irc[i].name) < 0)
            log_msg(LOG_WARN, "reload: [irc %s] is new; it connects at the next restart",
                    next->irc[i].name);
    for (int i = 0; i < live->nmatrix; i++) {
        int j = matrix_named(next, live->matrix[i].name);
        if (j >= 0 && memcmp(&live->matrix[i], &next->matrix[j], sizeof next->matrix[j]) != 0)
            log_msg(LOG_WARN, "reload: changes to [matrix %s] take effect at the next restart",
                    live->matrix[i].name);
    }
    for (int i = 0; i < next->nmatrix; i++)
        if (matrix_named(live, next->matrix[i].name) < 0)
            log_msg(LOG_WARN, "reload: [matrix %s] is new; it connects at the next restart",
                    next->matrix[i].name);
    if (!db_from_args && strcmp(live->bot.database, next->bot.database) != 0)
        log_msg(LOG_WARN, "reload: the database stays %s until a restart", live->bot.database);
    if (strcmp(live->web.listen, next->web.listen) != 0)
        log_msg(LOG_WARN, "reload: [web] listen changes at the next restart");
    if (strcmp(live->web.trusted_proxy, next->web.trusted_proxy) != 0 ||
        live->web.header_secs != next->web.header_secs)
        log_msg(LOG_WARN, "reload: [web] trusted_proxy and header_secs change at the next restart");
}

int reload_config(reload_target *t)
{
    static cfg next; /* large: not on the stack; only the loop's thread reloads */
    cfg_defaults(&next);
    int nwarn = 0, nerr = cfg_load_all(&next, t->path, log_config, NULL, &nwarn);
    if (nerr > 0) {
        log_msg(LOG_ERROR,
                "reload refused: %s has %d error%s (above); the running configuration stays",
                t->path, nerr, nerr == 1 ? "" : "s");
        return -1;
    }
    if (judge(t, &next) != 0)
        return -1;
    take_matrix_langs(t->live, &next); /* before the warning: not a change it names */
    warn_restart_only(t->live, &next, t->db_from_args);
    for (int i = 0; i < t->nnets; i++) {
        const adapter_run *a = &t->nets[i];
        if (a->ops->reconfigure != NULL)
            (void)a->ops->reconfigure(a->net, t->live, &next); /* a refusal is logged */
    }
    char database[sizeof next.bot.database];
    memcpy(database, t->live->bot.database, sizeof database);
    int old_cap = t->live->bot.max_database_mb;
    int old_cache = t->live->bot.database_cache_kib, old_map = t->live->bot.database_mmap_mib;
    int old_games = t->live->bot.database_games_mib;
    t->live->bot = next.bot;
    memcpy(t->live->bot.database, database, sizeof database);
    /* the pages' links follow base_url at once; where they are served waits */
    memcpy(t->live->web.base_url, next.web.base_url, sizeof next.web.base_url);
    if (next.bot.max_database_mb != old_cap &&
        store_set_max_bytes(t->store, (int64_t)next.bot.max_database_mb << 20) != 0) {
        log_msg(LOG_WARN, "reload: cannot cap the database at %d MiB: %s; the cap stays",
                next.bot.max_database_mb, store_errmsg(t->store));
        t->live->bot.max_database_mb = old_cap;
    }
    if ((next.bot.database_cache_kib != old_cache || next.bot.database_mmap_mib != old_map) &&
        store_set_cache(t->store, next.bot.database_cache_kib, next.bot.database_mmap_mib) != 0) {
        log_msg(LOG_WARN, "reload: %s; the database's cache stays as it was",
                store_errmsg(t->store));
        (void)store_set_cache(t->store, old_cache, old_map);
        t->live->bot.database_cache_kib = old_cache;
        t->live->bot.database_mmap_mib = old_map;
    }
    if (next.bot.database_games_mib != old_games) {
        if (store_set_game_cache(t->store, next.bot.database_games_mib) != 0) {
            log_msg(LOG_WARN, "reload: %s; the games kept in memory stay as they were",
                    store_errmsg(t->store));
            t->live->bot.database_games_mib = old_games;
        } else {
            log_msg(LOG_INFO, "reload: games kept in memory: up to %d MiB%s",
                    next.bot.database_games_mib, next.bot.database_games_mib == 0 ? " (none)" : "");
        }
    }
    log_set_level(log_level_named(t->live->bot.log_level));
    cfg_make_lang_rules(t->live); /* its [irc] sections and its languages are the file's now */
    reload_host_settings(t->live, t->hcfg);
    if (host_reconfigure(t->host, t->hcfg) != 0)
        log_msg(LOG_WARN, "reload: %s", host_errmsg(t->host));
    if (reload_web_langs(t->live, t->pages) != 0)
        log_msg(LOG_WARN, "reload: out of memory: the game pages keep the rooms' languages");
    log_msg(LOG_INFO, "configuration reloaded from %s (%d warning%s)", t->path, nwarn,
            nwarn == 1 ? "" : "s");
    return 0;
}
