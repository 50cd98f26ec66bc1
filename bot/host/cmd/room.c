/*
 * room.c — a room's own settings, set by its moderators (an IRC channel
 * operator, a Matrix member at the moderator power level) or the bot's
 * owners: the rows of the settings table (bot/parse/settings.def) — the
 * options and turn deadline of its new tables, the longest a turn waits
 * for a player who is away, the level of its computer players, its
 * command prefix, colours, hints, pages and language. "set" changes one,
 * "settings" lists them.
 *
 * Kept in the store's kv, scope "room", key "network\x1froom", as the
 * table's stored row (cmd_settings_write: "deadline=SECS level=NAME
 * prefix=P colours=off o.OPTION=VALUE..."); a room without any uses the
 * configuration's.
 * Not here: a table's own settings (lobby.c); the in-memory copy of the
 * prefixes, colours and languages that every line reads (room_map.c); the
 * bot's own prefix (the configuration's).
 */
#include <stdio.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hrooms.h"
#include "hverbs.h"
#include "i18n.h"
#include "render.h"
#include "text.h"

/* Writes rs's own values as the room's row. */
static void room_save(ctx *c, const char *room, const room_settings *rs)
{
    char key[ROOM_KEY_MAX], value[CMD_SETTINGS_ROW];
    host__room_key(c, room, key, sizeof key);
    int err = key[0] == '\0' || cmd_settings_write(&rs->s, value, sizeof value) != 0
                  ? STORE_TOO_BIG
                  : store_kv_set(c->h->st, ROOM_SCOPE, key, value);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    /* what every line reads (room_map.c) follows once this commits */
    c->room_change.pending = true;
    snprintf(c->room_change.room, sizeof c->room_change.room, "%s", room);
    snprintf(c->room_change.prefix, sizeof c->room_change.prefix, "%s", rs->prefix);
    c->room_change.colours_off = rs->colours_off;
    c->room_change.lang = rs->lang;
}

/* The room a set/settings line is about, or NULL (told). */
static const char *room_of(ctx *c, const cmd *k)
{
    if (c->m->room != NULL && c->m->room[0] != '\0')
        return c->m->room;
    if (k->room[0] != '\0')
        return k->room;
    host__reply(c, N_("say it in the room, or name it: settings #friends"));
    return NULL;
}

/* The settings line of room into line (cap bytes): the room, each row's
   item, then how to change them, with examples when short is false. */
static void settings_line(const room_settings *rs, const char *room, const char *p, bool short_,
                          char *line, size_t cap)
{
    char item[400];
    size_t n = (size_t)snprintf(line, cap, "%s", room);
    for (int id = 0; id < CMD_ROOM_SETTINGS && n < cap; id++) {
        render_setting_item(&rs->s, id, p, item, sizeof item);
        n += (size_t)snprintf(line + n, cap - n, " · %s", item);
    }
    if (n >= cap)
        return;
    if (short_)
        snprintf(line + n, cap - n, _(" · moderators: %shelp set"), p);
    else
        snprintf(line + n, cap - n,
                 _(" · moderators change them: %sset options partners to 31, %sset deadline 24h, "
                   "%sset lang es (%shelp set)"),
                 p, p, p, p);
}

void host__verb_settings(ctx *c, const cmd *k)
{
    const char *room = room_of(c, k);
    if (room == NULL)
        return;
    room_settings rs;
    host__room_defaults(c, room, &rs);
    /* the prefix as saved by this call, which the in-memory copy learns
       only once it commits */
    const char *p = rs.prefix[0] != '\0' ? rs.prefix : c->h->prefix;
    char line[1200];
    settings_line(&rs, room, p, false, line, sizeof line);
    /* a long room name and many options: the same without its examples,
       to stay one line of the chat ("nick: " before it) */
    if (strlen(c->m->nick) + 2 + strlen(line) >= RENDER_LINE_MAX)
        settings_line(&rs, room, p, true, line, sizeof line);
    host__reply(c, "%s", line);
}

/* Every key set takes, for a reply: "set options WORDS|off, set deadline
   ...", from the table. */
static void keys_line(char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%s", _("say one of:"));
    for (int id = 0; id < CMD_ROOM_SETTINGS && n < cap; id++)
        n += (size_t)snprintf(out + n, cap - n, "%s set %s", id > 0 ? "," : "",
                              _(cmd_setting_row_of(id)->usage));
}

void host__verb_set(ctx *c, const cmd *k)
{
    const char *room = room_of(c, k);
    if (room == NULL)
        return;
    int id = cmd_setting_find(k->name);
    const cmd_setting_row *row = cmd_setting_row_of(id);
    if (row == NULL) {
        char keys[600];
        keys_line(keys, sizeof keys);
        host__reply(c, "%s", keys);
        return;
    }
    if (row->who == SW_MODERATORS && !c->m->moderator && !host__is_owner(c, c->m->sender)) {
        host__reply(c,
                    N_("only the room's moderators (or the bot's owners) may change its settings"));
        return;
    }
    room_settings rs;
    char why[300];
    host__room_defaults(c, room, &rs);
    if (cmd_setting_set(&rs.s, id, k->name2, host__prompt_prefix(c), c->h->prefix, why,
                        sizeof why) != 0) {
        host__reply(c, "%s", why);
        return;
    }
    if (!rs.s.own[CMD_SETTING_LANG]) /* shown as the configuration's */
        rs.s.num[CMD_SETTING_LANG] = (int)host__room_map_configured(c->h, c->network, room);
    host__room_settings_follow(&rs);
    room_save(c, room, &rs);
    if (c->failed)
        return;
    /* told in the room's new language, which the in-memory copy learns
       once this commits: host__reply's own would be the room's before this
       change (an English line around "las líneas de la sala van en
       español") */
    const char *p = rs.prefix[0] != '\0' ? rs.prefix : c->h->prefix;
    bool in_room = c->m->room != NULL && c->m->room[0] != '\0';
    char what[400], line[600];
    {
        I18N_SCOPE((pz_lang)rs.s.num[CMD_SETTING_LANG]);
        render_setting_told(&rs.s, id, p, what, sizeof what);
        snprintf(line, sizeof line, _("%s: %s · %ssettings lists them all"), room, what,
                 in_room ? p : "");
    }
    host__reply(c, "%s", line);
}
