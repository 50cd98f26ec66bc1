/*
 * command_settings.c — the settings table (settings.def) read: the key a
 * word names, a value as typed checked into a room's values, and the row
 * the store keeps read and written (cmd_settings.h). Words are compared
 * folded, as the parser's (command.c).
 *
 * Not here: who said it (the host checks the row's who), what a setting
 * does, how it reads in a line (render).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_options.h"
#include "cmd_settings.h"
#include "command_int.h"
#include "i18n.h"
#include "text.h"

static const cmd_setting_row ROWS[] = {
#define SETTING(id, key, words, more, kind, dflt, scope, who, stored, verb, handler, list,         \
                example, usage, what, shown, shown_off, told, told_off)                            \
    [CMD_SETTING_##id] = {key,  words,   more,  kind, dflt,  scope,     who,  stored,  CMD_##verb, \
                          list, example, usage, what, shown, shown_off, told, told_off},
#include "settings.def"
#undef SETTING
};

#define DURATION_MAX (366L * 86400) /* a stored duration past a year is not one we wrote */

const cmd_setting_row *cmd_setting_row_of(int id)
{
    return id >= 0 && id < CMD_SETTING_COUNT ? &ROWS[id] : NULL;
}

/* The folded form of s into f (CMD_WORD_MAX bytes): its length, or 0. */
static size_t fold(const char *s, char f[CMD_WORD_MAX])
{
    int n = text_fold(s, strlen(s), f, CMD_WORD_MAX);
    return n > 0 ? (size_t)n : 0;
}

int cmd_setting_find(const char *said)
{
    char f[CMD_WORD_MAX];
    size_t n = fold(said, f);
    for (int i = 0; i < CMD_ROOM_SETTINGS && n > 0; i++)
        if (cmd_in_list(f, n, ROWS[i].key) || cmd_in_list(f, n, ROWS[i].words))
            return i;
    return -1;
}

int cmd_setting_of_verb(int verb)
{
    for (int i = CMD_ROOM_SETTINGS; i < CMD_SETTING_COUNT; i++)
        if (ROWS[i].verb == verb)
            return i;
    return -1;
}

const char *cmd_switch_stored(const cmd_setting_row *r, bool on)
{
    return on == (r->dflt != 0) ? "" : on ? "on" : "off";
}

bool cmd_switch_read(const cmd_setting_row *r, const char *stored)
{
    if (stored != NULL && strcmp(stored, "on") == 0)
        return true;
    if (stored != NULL && strcmp(stored, "off") == 0)
        return false;
    return r->dflt != 0;
}

void cmd_settings_clear(cmd_settings *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < CMD_ROOM_SETTINGS; i++)
        s->num[i] = ROWS[i].kind == SK_SWITCH ? ROWS[i].dflt : ROWS[i].kind == SK_LANG ? -1 : 0;
}

const char *cmd_prefix_refused(const char *p)
{
    size_t n = strlen(p);
    if (n == 0 || n > CMD_PREFIX_MAX)
        return _("a prefix is 1 to 3 characters");
    for (size_t i = 0; i < n; i++) {
        unsigned char u = (unsigned char)p[i];
        if (u <= ' ' || u >= 0x7F || (u >= '0' && u <= '9') ||
            ((u | 0x20) >= 'a' && (u | 0x20) <= 'z'))
            return _("a prefix is punctuation only: no letters, digits or spaces");
    }
    return NULL;
}

/* A stored duration ("600") into *secs: 0, or -1 when it is not one. */
static int stored_secs(const char *v, int *secs)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || n < 0 || n > DURATION_MAX)
        return -1;
    *secs = (int)n;
    return 0;
}

/* The level a word names ("expert", "experto"), or -1. */
static int level_named(const char *v)
{
    word w = {v, strlen(v)};
    return cmd_level_at(w);
}

/* Reads one "key=value" word of a stored row into s (unknown: skipped). */
static void read_word(const char *key, size_t klen, const char *v, cmd_settings *s)
{
    for (int i = 0; i < CMD_ROOM_SETTINGS; i++) {
        const cmd_setting_row *r = &ROWS[i];
        if (strlen(r->stored) != klen || strncmp(r->stored, key, klen) != 0)
            continue;
        pz_lang l;
        int n;
        switch (r->kind) {
        case SK_DURATION:
            if (stored_secs(v, &n) == 0)
                s->num[i] = n, s->own[i] = true;
            break;
        case SK_LEVEL:
            if ((n = level_named(v)) >= 0)
                s->num[i] = n, s->own[i] = true;
            break;
        case SK_PREFIX:
            if (cmd_prefix_refused(v) == NULL) {
                memcpy(s->prefix, v, strlen(v) + 1);
                s->own[i] = true;
            }
            break;
        case SK_SWITCH:
            if (strcmp(v, "on") == 0 || strcmp(v, "off") == 0) {
                s->num[i] = strcmp(v, "on") == 0;
                s->own[i] = s->num[i] != r->dflt;
            }
            break;
        case SK_LANG:
            if (i18n_parse(v, &l))
                s->num[i] = (int)l, s->own[i] = true;
            break;
        case SK_OPTIONS: /* its words are "o.NAME=VALUE", read by the caller */
        case SK_ZONE:    /* a player's kinds: never a room's */
        case SK_WINDOW:
        case SK_UNTIL:
            break;
        }
        return;
    }
}

void cmd_settings_read(const char *row, cmd_settings *s)
{
    for (const char *p = row != NULL ? row : ""; *p != '\0'; p += strspn(p, " ")) {
        size_t len = strcspn(p, " "), have = strlen(s->options);
        const char *eq = memchr(p, '=', len);
        if (strncmp(p, "o.", 2) == 0 && eq != NULL && have + len + 2 < sizeof s->options) {
            snprintf(s->options + have, sizeof s->options - have, "%s%.*s", have ? " " : "",
                     (int)len, p);
            s->own[CMD_SETTING_OPTIONS] = true;
        } else if (eq != NULL && (size_t)(p + len - eq) <= 64) {
            char v[64];
            memcpy(v, eq + 1, (size_t)(p + len - eq - 1));
            v[p + len - eq - 1] = '\0';
            read_word(p, (size_t)(eq - p), v, s);
        }
        p += len;
    }
}

int cmd_settings_write(const cmd_settings *s, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < CMD_ROOM_SETTINGS; i++) {
        const cmd_setting_row *r = &ROWS[i];
        char v[64] = "";
        if (!s->own[i])
            continue;
        if (r->kind == SK_DURATION)
            snprintf(v, sizeof v, "%d", s->num[i]);
        else if (r->kind == SK_LEVEL)
            snprintf(v, sizeof v, "%s", cmd_level_name(s->num[i]));
        else if (r->kind == SK_PREFIX)
            snprintf(v, sizeof v, "%s", s->prefix);
        else if (r->kind == SK_SWITCH)
            snprintf(v, sizeof v, "%s", s->num[i] ? "on" : "off");
        else if (r->kind == SK_LANG)
            snprintf(v, sizeof v, "%s", i18n_code((pz_lang)s->num[i]));
        if (v[0] == '\0')
            continue;
        int k = snprintf(out + n, cap - n, "%s=%s ", r->stored, v);
        if (k < 0 || (size_t)k >= cap - n)
            return -1;
        n += (size_t)k;
    }
    int k = snprintf(out + n, cap - n, "%s", s->options); /* the options last, as always */
    if (k < 0 || (size_t)k >= cap - n)
        return -1;
    if (k == 0 && n > 0)
        out[n - 1] = '\0'; /* no trailing space */
    return 0;
}

/* True when the folded value is one of list's words. */
static bool value_is(const char *value, const char *list)
{
    char f[CMD_WORD_MAX];
    size_t n = fold(value, f);
    return n > 0 && cmd_in_list(f, n, list);
}

/* set options WORDS|off: read as "new" reads them, checked by the engine. */
static int set_options(cmd_settings *s, const char *value, char *why, size_t why_len)
{
    char line[CMD_LINE_MAX + 8];
    cmd k;
    if (value_is(value, CMD_OFF_WORDS " none ninguna")) {
        s->options[0] = '\0';
        s->own[CMD_SETTING_OPTIONS] = false;
        return 0;
    }
    snprintf(line, sizeof line, "new %s", value);
    if (cmd_parse(line, strlen(line), false, NULL, &k, why, why_len) != CMD_OK)
        return -1;
    if (k.players != 0 || k.robots || k.shuffle_seats) {
        snprintf(why, why_len, "%s",
                 _("set options takes the game's options only (e.g. partners, to 31, manual)"));
        return -1;
    }
    pz_options o;
    char kept[sizeof s->options] = "";
    pz_options_default(&o);
    for (int i = 0; i < k.noptions; i++) {
        size_t have = strlen(kept);
        if (cmd_option_set(&o, k.option_name[i], k.option_value[i], why, why_len) != 0)
            return -1;
        snprintf(kept + have, sizeof kept - have, "%so.%s=%s", have ? " " : "", k.option_name[i],
                 k.option_value[i]);
    }
    memcpy(s->options, kept, sizeof kept);
    s->own[CMD_SETTING_OPTIONS] = kept[0] != '\0';
    return 0;
}

int cmd_setting_set(cmd_settings *s, int id, const char *value, const char *p,
                    const char *bot_prefix, char *why, size_t why_len)
{
    char q[TEXT_QUOTE_MAX];
    const cmd_setting_row *r = cmd_setting_row_of(id);
    bool off = value_is(value, CMD_OFF_WORDS " none ninguno ninguna");
    int n;
    pz_lang l;
    text_quote(value, strlen(value), q);
    if (r == NULL || r->scope != SS_ROOM) {
        snprintf(why, why_len, "%s", _("there is no such setting: say help set"));
        return -1;
    }
    switch (r->kind) {
    case SK_OPTIONS:
        return set_options(s, value, why, why_len);
    case SK_DURATION:
        if (cmd_parse_duration(value, strlen(value), &n) != 0) {
            snprintf(why, why_len, _("'%s' is not a time: say e.g. %sset %s 24h, 90s or off"), q, p,
                     r->key);
            return -1;
        }
        s->num[id] = n;
        s->own[id] = true;
        return 0;
    case SK_LEVEL:
        if ((n = level_named(value)) < 0) {
            snprintf(why, why_len, _("'%s' is not a level: beginner, greedy, expert or strong"), q);
            return -1;
        }
        s->num[id] = n;
        s->own[id] = true;
        return 0;
    case SK_PREFIX: {
        const char *refused = cmd_prefix_refused(value);
        if (off) {
            s->prefix[0] = '\0';
            s->own[id] = false;
            return 0;
        }
        if (refused != NULL) {
            snprintf(why, why_len,
                     _("%s, such as . or ! or >> (say %sset prefix off for the bot's %s)"), refused,
                     p, bot_prefix);
            return -1;
        }
        memcpy(s->prefix, value, strlen(value) + 1);
        s->own[id] = true;
        return 0;
    }
    case SK_SWITCH:
        if (!off && !value_is(value, CMD_ON_WORDS)) {
            snprintf(why, why_len, _("say %sset %s on, or %sset %s off"), p, r->key, p, r->key);
            return -1;
        }
        s->num[id] = !off;
        s->own[id] = s->num[id] != r->dflt;
        return 0;
    case SK_LANG:
        if (off) {
            s->num[id] = -1;
            s->own[id] = false;
            return 0;
        }
        if (!i18n_parse(value, &l)) {
            snprintf(why, why_len,
                     _("'%s' is not a language here: say %sset lang es (Spanish), %sset lang en "
                       "(English), or %sset lang off (the bot's)"),
                     q, p, p, p);
            return -1;
        }
        if (!i18n_available(l)) {
            snprintf(why, why_len, _("%s is not installed here: its catalogue was not found"),
                     _(i18n_name(l)));
            return -1;
        }
        s->num[id] = (int)l;
        s->own[id] = true;
        return 0;
    case SK_ZONE: /* a player's kinds, set by their verbs: never a room's */
    case SK_WINDOW:
    case SK_UNTIL:
        break;
    }
    return -1;
}
