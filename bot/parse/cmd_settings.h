/*
 * cmd_settings.h — a room's settings (settings.def): which key a word
 * names, a value as typed checked and kept, and the row the store keeps
 * ("deadline=600 level=expert colours=off lang=es o.target=31") read and
 * written. The one reader of that row: the host's rooms, its copy in
 * memory and the game pages all call cmd_settings_read.
 *
 * Not here: what a setting does (the host), how it reads in a "settings"
 * line (render.h's render_setting).
 */
#ifndef PZ_CMD_SETTINGS_H
#define PZ_CMD_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

/* The settings, in the table's order: CMD_SETTING_DEADLINE, ... */
typedef enum cmd_setting {
#define X(id, key, words, kind, dflt, who, usage, what, shown, shown_off, told, told_off)          \
    CMD_SETTING_##id,
#include "settings.def"
#undef X
    CMD_SETTING_COUNT /* the number of settings, not one */
} cmd_setting;

typedef enum cmd_setting_kind {
    SK_OPTIONS,
    SK_DURATION,
    SK_LEVEL,
    SK_PREFIX,
    SK_SWITCH,
    SK_LANG
} cmd_setting_kind;

typedef enum cmd_setting_who {
    SW_MODERATORS /* the room's moderators and the bot's owners */
} cmd_setting_who;

/* One row of the table, as settings.def says it (msgids untranslated). */
typedef struct cmd_setting_row {
    const char *key, *words;
    cmd_setting_kind kind;
    int dflt;
    cmd_setting_who who;
    const char *usage, *what, *shown, *shown_off, *told, *told_off;
} cmd_setting_row;

#define CMD_PREFIX_MAX 3     /* bytes of a room's own prefix */
#define CMD_SETTINGS_ROW 320 /* bytes of a stored row, NUL included */

/* A room's values: own[] says which the room set (else the default the
   host put in num[] before reading); num[] is a duration's seconds, a
   level (porrazo_ai.h's order), a switch's 1 or 0, a language (i18n.h), -1
   for a language not set; the prefix and options kinds keep their text. */
typedef struct cmd_settings {
    bool own[CMD_SETTING_COUNT];
    int num[CMD_SETTING_COUNT];
    char prefix[CMD_PREFIX_MAX + 1]; /* "" the bot's */
    char options[200];               /* "o.NAME=VALUE" words, "" none */
} cmd_settings;

/* Row id of the table (NULL outside it). */
const cmd_setting_row *cmd_setting_row_of(int id);
/* The setting a word names ("deadline", "plazo", "Colores"), or -1. */
int cmd_setting_find(const char *said);

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
