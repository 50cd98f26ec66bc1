/*
 * cmd_settings.h — the settings table (settings.def): a room's, a
 * player's and a game's settings. For a room's: which key a word names, a
 * value as typed checked and kept, and the row the store keeps
 * ("deadline=600 level=expert colours=off lang=es o.target=31") read and
 * written. The one reader of that row: the host's rooms, its copy in
 * memory and the game pages all call cmd_settings_read. For a player's and
 * a game's: the row of a verb, and a switch's stored form.
 *
 * Not here: what a setting does (the host), how it reads in a "settings"
 * line (render.h's render_setting).
 */
#ifndef PZ_CMD_SETTINGS_H
#define PZ_CMD_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

/* The settings, in the table's order: CMD_SETTING_OPTIONS, ... */
typedef enum cmd_setting {
#define SETTING(id, key, words, more, kind, dflt, scope, who, stored, verb, handler, list,         \
                example, usage, what, shown, shown_off, told, told_off)                            \
    CMD_SETTING_##id,
#include "settings.def"
#undef SETTING
    CMD_SETTING_COUNT /* the number of settings, not one */
} cmd_setting;

typedef enum cmd_setting_scope {
    SS_ROOM,   /* a room's, set by its moderators with "set" */
    SS_PLAYER, /* a player's own, by its verb */
    SS_GAME    /* one game's, by its verb */
} cmd_setting_scope;

/* The number of a room's settings: the table's first rows, 0 to
   CMD_ROOM_SETTINGS - 1 (tests/bot/test_settings.c checks the order). */
enum {
    CMD_ROOM_SETTINGS = 0
#define SETTING(id, key, words, more, kind, dflt, scope, who, stored, verb, handler, list,         \
                example, usage, what, shown, shown_off, told, told_off)                            \
    +(scope == SS_ROOM)
#include "settings.def"
#undef SETTING
};

typedef enum cmd_setting_kind {
    SK_OPTIONS,
    SK_DURATION,
    SK_LEVEL,
    SK_PREFIX,
    SK_SWITCH,
    SK_LANG,
    SK_ZONE,   /* a player's time zone */
    SK_WINDOW, /* a player's daily quiet hours */
    SK_UNTIL   /* a player's absence: a duration, perhaps "bot" */
} cmd_setting_kind;

typedef enum cmd_setting_who {
    SW_MODERATORS, /* the room's moderators and the bot's owners */
    SW_SELF,       /* the player, for themselves */
    SW_MANAGER     /* the table's creator, a room's moderator, an owner */
} cmd_setting_who;

/* One row of the table, as settings.def says it (msgids untranslated;
   the handler is the host's, not seen here). */
typedef struct cmd_setting_row {
    const char *key, *words, *more;
    cmd_setting_kind kind;
    int dflt;
    cmd_setting_scope scope;
    cmd_setting_who who;
    const char *stored;
    int verb; /* command.h's CMD_<verb> */
    const char *list, *example, *usage, *what, *shown, *shown_off, *told, *told_off;
} cmd_setting_row;

#define CMD_PREFIX_MAX 3     /* bytes of a room's own prefix */
#define CMD_SETTINGS_ROW 320 /* bytes of a stored row, NUL included */

/* A room's values (ids below CMD_ROOM_SETTINGS): own[] says which the room set (else the default
   the host put in num[] before reading); num[] is a duration's seconds, a level (porrazo_ai.h's
   order), a switch's 1 or 0, a language (i18n.h), -1 for a language not set; the prefix and options
   kinds keep their text. */
typedef struct cmd_settings {
    bool own[CMD_ROOM_SETTINGS];
    int num[CMD_ROOM_SETTINGS];
    char prefix[CMD_PREFIX_MAX + 1]; /* "" the bot's */
    char options[200];               /* "o.NAME=VALUE" words, "" none */
} cmd_settings;

/* Row id of the table (NULL outside it). */
const cmd_setting_row *cmd_setting_row_of(int id);
/* The room's setting a word names ("deadline", "plazo", "Colores"), or -1. */
int cmd_setting_find(const char *said);
/* The player's or game's setting whose verb is verb (command.h's), or -1. */
int cmd_setting_of_verb(int verb);

/* A switch's stored form (SK_SWITCH row r set to on): "" at its dflt
   (nothing kept), else "on" or "off". */
const char *cmd_switch_stored(const cmd_setting_row *r, bool on);
/* A switch's value from its stored form (NULL: nothing kept): "on" 1,
   "off" 0, anything else its dflt. */
bool cmd_switch_read(const cmd_setting_row *r, const char *stored);

/* Nothing set: switches at their dflt, languages -1, the rest 0. */
void cmd_settings_clear(cmd_settings *s);
/* Reads a stored row into s (over what cmd_settings_clear or the host's
   defaults put there): words it does not know, or values no longer valid,
   are skipped. */
void cmd_settings_read(const char *row, cmd_settings *s);
/* Writes s's own values as a stored row into out (CMD_SETTINGS_ROW
   bytes): 0, or -1 when they do not fit. */
int cmd_settings_write(const cmd_settings *s, char *out, size_t cap);

/* Sets setting id from the value as typed ("24h", "off", "experto", "es",
   "partners to 31"): 0, or -1 with why (in the thread's language), whose
   examples start with p ("!", or "" in private) and which names
   bot_prefix as the bot's own. */
int cmd_setting_set(cmd_settings *s, int id, const char *value, const char *p,
                    const char *bot_prefix, char *why, size_t why_len);

/* Why p cannot be a room's prefix (1 to CMD_PREFIX_MAX ASCII punctuation
   signs, so a command never reads as a word of chat), or NULL. */
const char *cmd_prefix_refused(const char *p);

#endif /* PZ_CMD_SETTINGS_H */
