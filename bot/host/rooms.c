/*
 * rooms.c — a room's defaults as its moderators set them ("set"): new
 * tables' options and turn deadline, how long a turn waits for an away
 * player, the computer players' level, its own prefix, colours and language,
 * whether hints are given and pages shown; read
 * from the store's kv (scope ROOM_SCOPE, key "network\x1froom") with the
 * configuration's where the room has none. Prefix room_.
 *
 * Not here: the commands (cmd/room.c), the copy in memory of prefixes and
 * colours (room_map.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hrooms.h"
#include "porrazo_ai.h"
#include "text.h"

void room_key(const ctx *c, const char *room, char *key, size_t cap)
{
    if (snprintf(key, cap, "%s\x1f%s", c->network, room) >= (int)cap)
        key[0] = '\0';
}

/* Why p cannot be a room's prefix, or NULL when it can: 1 to
   ROOM_PREFIX_MAX ASCII punctuation characters, so that a command never
   reads as a word of chat that starts with a letter or a digit. */
const char *room_prefix_refused(const char *p)
{
    size_t n = strlen(p);
    if (n == 0 || n > ROOM_PREFIX_MAX)
        return _("a prefix is 1 to 3 characters");
    for (size_t i = 0; i < n; i++)
        if (p[i] <= ' ' || p[i] >= 0x7F || isalnum((unsigned char)p[i]))
            return _("a prefix is punctuation only: no letters, digits or spaces");
    return NULL;
}

/* The value of word "name=" in words, into out: 0, or -1 when absent. */
static int word_value(const char *words, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    for (const char *p = words; *p != '\0'; p += strspn(p, " ")) {
        size_t len = strcspn(p, " ");
        if (len > n && strncmp(p, name, n) == 0 && p[n] == '=' && len - n - 1 < cap) {
            memcpy(out, p + n + 1, len - n - 1);
            out[len - n - 1] = '\0';
            return 0;
        }
        p += len;
    }
    return -1;
}

void room_words_own(const char *words, char prefix[ROOM_PREFIX_MAX + 1], bool *colours_off,
                    int *lang)
{
    char v[16];
    prefix[0] = '\0';
    if (word_value(words, "prefix", v, sizeof v) == 0 && room_prefix_refused(v) == NULL)
        memcpy(prefix, v, strlen(v) + 1);
    *colours_off = word_value(words, "colours", v, sizeof v) == 0 && strcmp(v, "off") == 0;
    pz_lang l;
    *lang = word_value(words, "lang", v, sizeof v) == 0 && i18n_parse(v, &l) ? (int)l : -1;
}

void room_defaults(const ctx *c, const char *room, room_settings *rs)
{
    char key[ROOM_KEY_MAX], value[320], v[32];
    rs->deadline = c->h->cfg.deadline_secs;
    rs->away_max = c->h->cfg.away_max_secs;
    rs->level = c->h->robot_level;
    rs->own_deadline = rs->own_level = rs->own_away = false;
    rs->options[0] = rs->prefix[0] = '\0';
    rs->colours_off = rs->hints_off = rs->web_off = false;
    rs->lang = -1;
    if (room == NULL || room[0] == '\0')
        return;
    room_key(c, room, key, sizeof key);
    if (key[0] == '\0' || store_kv_get(c->h->st, ROOM_SCOPE, key, value, sizeof value) != 0)
        return;
    char *end;
    pzai_level lv;
    room_words_own(value, rs->prefix, &rs->colours_off, &rs->lang);
    rs->hints_off = word_value(value, "hints", v, sizeof v) == 0 && strcmp(v, "off") == 0;
    rs->web_off = word_value(value, "web", v, sizeof v) == 0 && strcmp(v, "off") == 0;
    if (word_value(value, "deadline", v, sizeof v) == 0) {
        long secs = strtol(v, &end, 10);
        if (end != v && *end == '\0' && secs >= 0 && secs <= 366L * 86400) {
            rs->deadline = (int)secs;
            rs->own_deadline = true;
        }
    }
    if (word_value(value, "away", v, sizeof v) == 0) {
        long secs = strtol(v, &end, 10);
        if (end != v && *end == '\0' && secs >= 0 && secs <= 366L * 86400) {
            rs->away_max = (int)secs;
            rs->own_away = true;
        }
    }
    rs->options[0] = '\0';
    for (const char *p = value; *p != '\0'; p += strspn(p, " ")) { /* the o.NAME=VALUE words */
        size_t len = strcspn(p, " "), have = strlen(rs->options);
        if (strncmp(p, "o.", 2) == 0 && have + len + 2 < sizeof rs->options)
            snprintf(rs->options + have, sizeof rs->options - have, "%s%.*s", have ? " " : "",
                     (int)len, p);
        p += len;
    }
    if (word_value(value, "level", v, sizeof v) == 0 && pzai_level_parse(v, &lv) == 0) {
        rs->level = (int)lv;
        rs->own_level = true;
    }
}

int room_level(const ctx *c)
{
    room_settings rs;
    room_defaults(c, c->row.room, &rs);
    return rs.level;
}

int room_options_apply(const room_settings *rs, pz_options *o, char *why, size_t why_len)
{
    for (const char *p = rs->options; *p != '\0'; p += strspn(p, " ")) {
        size_t len = strcspn(p, " ");
        char word[64], *eq;
        if (len < sizeof word && len > 2) {
            memcpy(word, p + 2, len - 2);
            word[len - 2] = '\0';
            if ((eq = strchr(word, '=')) != NULL) {
                *eq = '\0';
                if (pz_options_set(o, word, eq + 1, why, why_len) != 0)
                    return -1;
            }
        }
        p += len;
    }
    return 0;
}
