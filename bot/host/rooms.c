/*
 * rooms.c — a room's defaults as its moderators set them ("set"): new
 * tables' options and turn deadline, how long a turn waits for an away
 * player, the computer players' level, its own prefix, colours and language,
 * whether hints are given and pages shown; read from the store's kv
 * (scope ROOM_SCOPE, key "network\x1froom") through the settings table
 * (settings.def, cmd_settings_read) with the configuration's where the
 * room has none. Prefix host__room_.
 *
 * Not here: the commands (cmd/room.c), the copy in memory of prefixes and
 * colours (room_map.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hrooms.h"
#include "porrazo_ai.h"
#include "text.h"

void host__room_key(const ctx *c, const char *room, char *key, size_t cap)
{
    if (snprintf(key, cap, "%s\x1f%s", c->network, room) >= (int)cap)
        key[0] = '\0';
}

void host__room_words_own(const char *words, char prefix[ROOM_PREFIX_MAX + 1], bool *colours_off,
                          int *lang)
{
    cmd_settings s;
    cmd_settings_clear(&s);
    cmd_settings_read(words, &s);
    memcpy(prefix, s.prefix, sizeof s.prefix);
    *colours_off = s.num[CMD_SETTING_COLOURS] == 0;
    *lang = s.own[CMD_SETTING_LANG] ? s.num[CMD_SETTING_LANG] : -1;
}

void host__room_settings_follow(room_settings *rs)
{
    const cmd_settings *s = &rs->s;
    rs->deadline = s->num[CMD_SETTING_DEADLINE];
    rs->own_deadline = s->own[CMD_SETTING_DEADLINE];
    rs->away_max = s->num[CMD_SETTING_AWAY];
    rs->own_away = s->own[CMD_SETTING_AWAY];
    rs->level = s->num[CMD_SETTING_LEVEL];
    rs->own_level = s->own[CMD_SETTING_LEVEL];
    snprintf(rs->options, sizeof rs->options, "%s", s->options);
    memcpy(rs->prefix, s->prefix, sizeof rs->prefix);
    rs->colours_off = s->num[CMD_SETTING_COLOURS] == 0;
    rs->hints_off = s->num[CMD_SETTING_HINTS] == 0;
    rs->web_off = s->num[CMD_SETTING_WEB] == 0;
    rs->lang = s->own[CMD_SETTING_LANG] ? s->num[CMD_SETTING_LANG] : -1;
}

void host__room_defaults(const ctx *c, const char *room, room_settings *rs)
{
    char key[ROOM_KEY_MAX], row[CMD_SETTINGS_ROW];
    cmd_settings *s = &rs->s;
    cmd_settings_clear(s);
    s->num[CMD_SETTING_DEADLINE] = c->h->cfg.deadline_secs;
    s->num[CMD_SETTING_AWAY] = c->h->cfg.away_max_secs;
    s->num[CMD_SETTING_LEVEL] = c->h->robot_level;
    if (room != NULL && room[0] != '\0') {
        host__room_key(c, room, key, sizeof key);
        if (key[0] != '\0' && store_kv_get(c->h->st, ROOM_SCOPE, key, row, sizeof row) == 0)
            cmd_settings_read(row, s);
    }
    if (!s->own[CMD_SETTING_LANG]) /* shown as the configuration's */
        s->num[CMD_SETTING_LANG] = (int)host__room_map_configured(c->h, c->network, room);
    host__room_settings_follow(rs);
}

int host__room_level(const ctx *c)
{
    room_settings rs;
    host__room_defaults(c, c->row.room, &rs);
    return rs.level;
}

int host__room_options_apply(const room_settings *rs, pz_options *o, char *why, size_t why_len)
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
