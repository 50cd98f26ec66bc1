/*
 * reload.h — a running bot takes a new configuration file (SIGHUP).
 *
 * The file is read and checked whole first; with any error the reload is
 * refused, every error is logged and the running configuration stays. So
 * is a file that a start would refuse (no network section), an empty one,
 * and one that lacks a running network's section (a file written
 * half-way; a network is removed with a restart). A valid file is applied without dropping a
 * connection or a game: the bot's settings (owners, prefix, name, reminders, prompts, deadlines of
 * new games, flood and backlog bounds, the log level, the database's size
 * cap) and each IRC network's channels, colours and pacing
 * (the adapters' reconfigure, adapter.h), and the rooms' and networks' languages (lang_CODE,
 * language; the host's lines and the game pages, Matrix's as IRC's).
 * What needs a new connection or a new process (a
 * network added, the rest of a Matrix section changed, the database's path,
 * an IRC link's server, nicks, passwords) waits for a restart, and the log
 * names it. Not here: parsing (config.c), signals (main.c).
 */
#ifndef PZ_RELOAD_H
#define PZ_RELOAD_H

#include "adapter.h"
#include "config.h"
#include "host.h"
#include "store.h"
#include "web.h"

/* What a reload changes: the live configuration and what runs from it. */
typedef struct reload_target {
    const char *path;  /* the configuration file given with --config */
    bool db_from_args; /* --db named the database: the file's is not used */
    cfg *live;         /* the configuration the process runs with (updated) */
    host *host;        /* takes the new settings */
    host_config *hcfg; /* the host's settings, rebuilt from live->bot */
    store *store;      /* takes the new size cap */
    adapter_run *nets; /* the running networks, every kind */
    int nnets;
    web *pages; /* the game pages, NULL when off: take the rooms' languages */
} reload_target;

/*
 * Reads t->path and applies it as above, logging what changed. Returns 0
 * when applied, -1 when refused (errors logged, nothing changed).
 */
int reload_config(reload_target *t);

/* Fills the host settings that come from the [bot] section of c. */
void reload_host_settings(const cfg *c, host_config *hc);

/* Gives the game pages c's languages of the rooms (cfg_room_lang's lists,
   networks' and bot's), copied: the pages' thread never reads c. 0 or -1. */
int reload_web_langs(const cfg *c, web *pages);

#endif /* PZ_RELOAD_H */
