/*
 * config.h — the bot's configuration file: one commented INI-style file
 * (config/porrazo.example.conf), read and validated at start-up.
 *
 * Sections: [bot] once, [irc NAME] and [matrix NAME] once per network.
 * Every error names the file, the line and what to fix. A value written
 * ${NAME} is read from the environment variable NAME (for secrets), and an
 * unset variable is an error (a warning for cfg_check_all()); envfile.h
 * reads a file of such variables. Secrets are kept in the struct only;
 * nothing here ever prints them. Not here: connecting to anything.
 */
#ifndef PZ_CONFIG_H
#define PZ_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "i18n.h"

#define CFG_STR 256    /* bytes of a string value, NUL included */
#define CFG_LIST 16    /* entries of a list value */
#define CFG_NETWORKS 8 /* [irc ...] or [matrix ...] sections, each */
#define CFG_WHY_MAX 512

typedef struct cfg_bot {
    char name[CFG_STR];             /* how the bot calls itself in messages ("porrazo") */
    char prefix[8];                 /* command prefix in channels ("!") */
    char database[CFG_STR];         /* SQLite file path ("porrazo.db") */
    char owners[CFG_LIST][CFG_STR]; /* "NETWORK:ID" of people who may run admin commands */
    int nowners;
    int reminder_secs;       /* quiet time before the player to move is reminded (600); 0 off */
    int prompt_quiet_secs;   /* "prompt_after": a player quiet this long is prompted at
                                their turn privately (120 s); 0: every turn */
    int deadline_secs;       /* default turn deadline of new games (24 h; 0: none) */
    int max_games;           /* active games at once, over all rooms (100) */
    int flood_commands;      /* commands per flood_secs a player may send (10); 0 off */
    int flood_secs;          /* the flood window ("flood_window", 20 s) */
    int flood_ignore_secs;   /* how long a flooder is ignored ("flood_ignore", 60 s) */
    int backlog_max;         /* replies held back past this many queued to one target (20) */
    int max_database_mb;     /* the database's size cap in MiB (0: none) */
    int database_cache_kib;  /* SQLite's page cache for the database, KiB (2000) */
    int database_mmap_mib;   /* the database file mapped in memory, MiB (1024; 0: none) */
    int database_games_mib;  /* games kept in memory, MiB (256; 0: none) */
    int restart_recent_secs; /* "is back" after a start: games this recent ("restart_recent", 1h) */
    int restart_announce_max; /* ... at most this many (50) */
    char log_level[8];        /* error, warn, info, debug ("info") */
    char robot_level[16];     /* computer players added without a level ("strong") */
    int robot_delay_secs;     /* "robot_delay": a computer player waits this long (2 s) */
    int robot_iterations;     /* their search budget (0: each level's own) */
    int absent_after;         /* missed turns before a computer plays a seat (3); 0 never */
    int lobby_expiry_secs;    /* "lobby_expiry": an idle open table closes (24 h); 0 never */
    int away_max_secs;        /* "away_max": the longest a turn waits for an away player (7 d) */
    int start_countdown_secs; /* "start_countdown": a full lobby is dealt after it (0: at once) */
    char language[8];         /* the lines' language where nothing else says: en, es ("en") */
} cfg_bot;

/* A room given a language by a lang_CODE key ("lang_es = #canal, #mesa":
   one such key for each language of i18n.c's table). */
#define CFG_LANG_ROOMS (2 * CFG_LIST) /* rooms with a language, per network */
typedef struct cfg_lang_room {
    char room[CFG_STR];
    int lang; /* a pz_lang */
} cfg_lang_room;
#define CFG_LANG_RULES (2 * CFG_NETWORKS * (CFG_LANG_ROOMS + 1))

typedef struct cfg_irc {
    char name[32]; /* the section's NAME: the network's id in the database */
    char host[CFG_STR];
    int port;              /* 6697 with tls, else 6667 */
    bool tls;              /* default true */
    bool tls_verify;       /* default true */
    char ca_file[CFG_STR]; /* extra CA bundle, "" = system */
    char nick[32];
    char alt_nicks[CFG_LIST][32];
    int nalt_nicks;
    char username[32];
    char realname[CFG_STR];
    char server_password[CFG_STR]; /* secret */
    char sasl_user[CFG_STR];
    char sasl_password[CFG_STR];     /* secret */
    char nickserv_password[CFG_STR]; /* secret */
    char nickserv_target[CFG_STR];   /* IDENTIFY goes only there; "" : never IDENTIFY */
    bool require_sasl;               /* a SASL failure stops this network (default false) */
    char channels[CFG_LIST][64];
    int nchannels;
    char no_colour[CFG_LIST][64]; /* channels where colours are off */
    int nno_colour;
    bool join_on_invite; /* default false */
    bool private_notice; /* private messages by NOTICE (default PRIVMSG) */
    char pace[16];       /* send queue's model: auto, ngircd, inspircd, solanum, custom ("auto";
                            "custom" when burst or line_ms is given without it) */
    int burst;           /* pace custom: lines at once (4) */
    int line_ms;         /* then one line per line_ms (1500) */
    char language[8];    /* this network's default language ("": the bot's) */
    cfg_lang_room lang_rooms[CFG_LANG_ROOMS]; /* lang_es = #canal: channels' languages */
    int nlang_rooms;
} cfg_irc;

typedef struct cfg_matrix {
    char name[32];
    char homeserver[CFG_STR];              /* https://example.org */
    char user[CFG_STR];                    /* @bot:example.org */
    char password[CFG_STR];                /* secret; or access_token */
    char access_token[CFG_STR];            /* secret */
    char allow_invites[CFG_LIST][CFG_STR]; /* user ids or ":server" suffixes */
    int nallow_invites;
    bool notify_turn; /* the private "your turn" prompt as m.text, so it notifies (default true) */
    char language[8]; /* this network's default language ("": the bot's) */
    cfg_lang_room lang_rooms[CFG_LANG_ROOMS]; /* lang_es = #sala:example.org (ids or aliases) */
    int nlang_rooms;
    bool crypto; /* end-to-end encrypted rooms (default true; needs libolm and crypto_key) */
    char crypto_key[CFG_STR]; /* secret: encrypts the device's keys in the store */
} cfg_matrix;

/* [web]: the game pages (bot/web). Off unless listen is set. */
typedef struct cfg_web {
    char listen[CFG_STR];   /* "127.0.0.1:8090"; "" : no pages */
    char base_url[CFG_STR]; /* "https://porrazo.example.org": links in chat; "" : none */
    char trusted_proxy[46]; /* INET6_ADDRSTRLEN: the proxy in front ("127.0.0.1"), its requests
                               count for the client it forwards; "" : none */
    int header_secs;        /* a request's headers all in within (default 5) */
} cfg_web;

typedef struct cfg {
    cfg_bot bot;
    cfg_web web;
    cfg_irc irc[CFG_NETWORKS];
    int nirc;
    cfg_matrix matrix[CFG_NETWORKS];
    int nmatrix;
    /* The languages of rooms and networks as rules (i18n.h), made from
       the sections once the file is read: what cfg_room_lang and the
       pages read (cfg_lang_rules). */
    i18n_rule lang_rules[CFG_LANG_RULES];
    int nlang_rules;
} cfg;

/* Fills *c with the defaults (no networks). */
void cfg_defaults(cfg *c);

/*
 * Reads and validates the file at path over the defaults. Returns 0, or -1
 * with why = "FILE:LINE: what is wrong and how to fix it" (the first
 * error; cfg_load_all() gives them all; warnings are not reported).
 * Unknown sections and keys, bad values, missing required keys (irc:
 * host, nick, at least one channel; matrix: homeserver, user, and a
 * password or access_token), duplicate network names and unset ${VARS}
 * are errors.
 */
int cfg_load(cfg *c, const char *path, char *why, size_t why_len);

/* Same as cfg_load() from a string (name is used in messages). */
int cfg_parse(cfg *c, const char *name, const char *text, size_t len, char *why, size_t why_len);

/* How bad a message of cfg_load_all() is: an error makes the file unusable;
 * a warning is a valid setting that is probably not what was meant (a
 * password sent in clear, an owner on a network no section defines). */
typedef enum cfg_level { CFG_ERROR, CFG_WARNING } cfg_level;

/* Receives each message of cfg_load_all(): "FILE:LINE: what is wrong and
 * how to fix it" (or "FILE: ..."), valid only during the call. */
typedef void (*cfg_report_fn)(void *arg, cfg_level level, const char *msg);

/*
 * Like cfg_load(), but goes on after an error (with the next line, or the
 * next section after a header it cannot use; a section whose header is in
 * error still has its keys checked) and hands every error and warning to
 * report (NULL: none), as they are found, up to 50 errors. Returns the
 * number of errors: 0 when *c was filled (warnings allowed); *c is
 * untouched otherwise. *nwarnings (when not NULL) gets the number of
 * warnings.
 */
int cfg_load_all(cfg *c, const char *path, cfg_report_fn report, void *arg, int *nwarnings);

/*
 * Like cfg_load_all(), for porrazo-bot --check-config: a value written
 * ${NAME} whose variable is unset (or empty) here is a warning naming NAME,
 * which a start would need, not an error; its key counts as set and its
 * value is not checked. Returns the number of errors.
 */
int cfg_check_all(cfg *c, const char *path, cfg_report_fn report, void *arg, int *nwarnings);

/* Same as cfg_load_all() from a string (name is used in messages). */
int cfg_parse_all(cfg *c, const char *name, const char *text, size_t len, cfg_report_fn report,
                  void *arg, int *nwarnings);

/*
 * What running on the networks (porrazo-bot --config, and a reload of
 * that file) asks of a valid file besides: at least one [irc NAME] or
 * [matrix NAME] section. Returns 0, or -1 with why = "no [irc NAME] or
 * [matrix NAME] section in FILE: add one ..." (path names the file).
 */
int cfg_check_runnable(const cfg *c, const char *path, char *why, size_t why_len);

/* The configuration's languages as i18n.h's rules (c's own: valid while c
   is), for i18n_rules_lang and the pages' web_set_langs. */
i18n_rules cfg_lang_rules(const cfg *c);
/* Makes c's lang_rules again from its networks' rooms and languages:
   done by reading a file, and by whoever changes its sections after (a
   reload). */
void cfg_make_lang_rules(cfg *c);
/* The language (a pz_lang of i18n.h) of room on network: i18n_rules_lang
   over cfg_lang_rules: the room's lang_CODE list, else the network's
   language, else the bot's;
   room NULL: the network's. */
int cfg_room_lang(const cfg *c, const char *network, const char *room);

/* True when "NETWORK:ID" is listed in owners (case-insensitive ID). */
bool cfg_is_owner(const cfg *c, const char *network, const char *id);

#endif /* PZ_CONFIG_H */
