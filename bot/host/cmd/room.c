/*
 * room.c — a room's own defaults, set by its moderators (an IRC channel
 * operator, a Matrix member at the moderator power level) or the bot's
 * owners: the options and turn deadline of its new tables, the longest a turn waits
 * for a player who is away, and the level of its computer players (those
 * seated without a level, and those that play for absent people), its
 * command prefix and whether its lines carry colours. "set" changes one,
 * "settings" lists them.
 *
 * Kept in the store's kv, scope "room", key "network\x1froom", as words
 * "deadline=SECS away=SECS level=NAME prefix=P colours=off o.OPTION=VALUE...";
 * a room without any uses the configuration's.
 * Not here: a table's own settings (lobby.c); the in-memory copy of the
 * prefixes and colours that every line reads (room_map.c); the bot's own
 * prefix (the configuration's).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hctx.h"
#include "hgame.h"
#include "hrooms.h"
#include "hverbs.h"
#include "i18n.h"
#include "porrazo_ai.h"
#include "render.h"
#include "text.h"

/* A level's name as players of this line read it ("strong", "fuerte"). */
static const char *level_shown(int level)
{
    static const char *const names[] = {N_("beginner"), N_("greedy"), N_("expert"), N_("strong")};
    return level >= 0 && level < 4 ? _(names[level]) : pzai_level_name((pzai_level)level);
}

/* set options WORDS (as "new" takes them) | off: checked, then kept. */
static int set_options(ctx *c, const char *words, room_settings *rs)
{
    char line[CMD_LINE_MAX + 8], err[300], why[PZ_WHY_MAX];
    cmd k;
    if (strcasecmp(words, "off") == 0 || strcasecmp(words, "none") == 0) {
        rs->options[0] = '\0';
        return 0;
    }
    snprintf(line, sizeof line, "new %s", words);
    if (cmd_parse(line, strlen(line), false, c->h->prefix, &k, err, sizeof err) != CMD_OK) {
        hc_reply(c, "%s", err);
        return -1;
    }
    pz_options o;
    pz_options_default(&o);
    rs->options[0] = '\0';
    for (int i = 0; i < k.noptions; i++) {
        size_t have = strlen(rs->options);
        if (pz_options_set(&o, k.option_name[i], k.option_value[i], why, sizeof why) != 0) {
            hc_reply(c, "%s", why);
            return -1;
        }
        snprintf(rs->options + have, sizeof rs->options - have, "%so.%s=%s", have ? " " : "",
                 k.option_name[i], k.option_value[i]);
    }
    if (k.players != 0 || k.robots || k.shuffle_seats) {
        hc_reply(c, N_("set options takes the game's options only (e.g. partners, to 31, manual)"));
        return -1;
    }
    return 0;
}

/* Writes rs's own values as the room's words. */
static void room_save(ctx *c, const char *room, const room_settings *rs)
{
    char key[ROOM_KEY_MAX], value[320] = "";
    size_t n = 0;
    room_key(c, room, key, sizeof key);
    if (rs->own_deadline)
        n += (size_t)snprintf(value + n, sizeof value - n, "deadline=%d ", rs->deadline);
    if (rs->own_away && n < sizeof value)
        n += (size_t)snprintf(value + n, sizeof value - n, "away=%d ", rs->away_max);
    if (rs->own_level && n < sizeof value)
        n += (size_t)snprintf(value + n, sizeof value - n, "level=%s ",
                              pzai_level_name((pzai_level)rs->level));
    if (rs->prefix[0] != '\0' && n < sizeof value)
        n += (size_t)snprintf(value + n, sizeof value - n, "prefix=%s ", rs->prefix);
    if (rs->colours_off && n < sizeof value)
        n += (size_t)snprintf(value + n, sizeof value - n, "colours=off ");
    if (rs->hints_off && n < sizeof value)
        n += (size_t)snprintf(value + n, sizeof value - n, "hints=off ");
    if (rs->web_off && n < sizeof value) /* web_keys.h's WEB_OFF_WORD: the pages read it */
        n += (size_t)snprintf(value + n, sizeof value - n, "web=off ");
    if (rs->lang >= 0 && n < sizeof value)
        n +=
            (size_t)snprintf(value + n, sizeof value - n, "lang=%s ", i18n_code((pz_lang)rs->lang));
    if (rs->options[0] != '\0' && n < sizeof value)
        snprintf(value + n, sizeof value - n, "%s", rs->options);
    int err = key[0] == '\0' ? STORE_TOO_BIG : store_kv_set(c->h->st, ROOM_SCOPE, key, value);
    if (err != 0) {
        hc_failed(c, err);
        return;
    }
    /* what every line reads (room_map.c) follows once this commits */
    c->room_change.pending = true;
    snprintf(c->room_change.room, sizeof c->room_change.room, "%s", room);
    snprintf(c->room_change.prefix, sizeof c->room_change.prefix, "%s", rs->prefix);
    c->room_change.colours_off = rs->colours_off;
    c->room_change.lang = rs->lang;
}

/* set prefix P|off: checked (told when refused), into rs. 0 or -1. */
static int set_prefix(ctx *c, const char *p, room_settings *rs)
{
    const char *why = room_prefix_refused(p);
    if (strcasecmp(p, "off") == 0 || strcasecmp(p, "none") == 0) {
        rs->prefix[0] = '\0';
        return 0;
    }
    if (why != NULL) {
        hc_reply(c, N_("%s, such as . or ! or >> (say %sset prefix off for the bot's %s)"), why,
                 hc_prompt_prefix(c), c->h->prefix);
        return -1;
    }
    memcpy(rs->prefix, p, strlen(p) + 1);
    return 0;
}

/* The room a set/settings line is about, or NULL (told). */
static const char *room_of(ctx *c, const cmd *k)
{
    if (c->m->room != NULL && c->m->room[0] != '\0')
        return c->m->room;
    if (k->room[0] != '\0')
        return k->room;
    hc_reply(c, N_("say it in the room, or name it: settings #friends"));
    return NULL;
}

void hv_settings(ctx *c, const cmd *k)
{
    const char *room = room_of(c, k);
    if (room == NULL)
        return;
    room_settings rs;
    char deadline[32], away[32], opts[300], why[PZ_WHY_MAX], a[400], b[200], d[200], e[80];
    snprintf(opts, sizeof opts, "%s", _("default options"));
    room_defaults(c, room, &rs);
    if (rs.deadline > 0)
        text_duration(rs.deadline, deadline, sizeof deadline);
    if (rs.away_max > 0)
        text_duration(rs.away_max, away, sizeof away);
    pz_options o;
    pz_options_default(&o);
    if (rs.options[0] != '\0' && room_options_apply(&rs, &o, why, sizeof why) == 0)
        render_options(&o, opts, sizeof opts);
    /* the prefix as saved by this call, which the in-memory copy learns
       only once it commits */
    const char *p = rs.prefix[0] != '\0' ? rs.prefix : c->h->prefix;
    /* TRANSLATORS: a turn deadline that is off, as in "turn deadline off" */
    const char *dl = rs.deadline > 0 ? deadline : _("off");
    const char *aw = rs.away_max > 0 ? away : _("as long as they say");
    if (rs.own_deadline)
        snprintf(a, sizeof a, _("new tables: %s, turn deadline %s"), opts, dl);
    else
        snprintf(a, sizeof a, _("new tables: %s, turn deadline %s (the bot's)"), opts, dl);
    if (rs.own_away)
        snprintf(b, sizeof b, _("away players are waited for %s"), aw);
    else
        snprintf(b, sizeof b, _("away players are waited for %s (the bot's)"), aw);
    if (rs.own_level)
        snprintf(d, sizeof d, _("computer players %s"), level_shown(rs.level));
    else
        snprintf(d, sizeof d, _("computer players %s (the bot's)"), level_shown(rs.level));
    pz_lang l = rs.lang >= 0 ? (pz_lang)rs.lang : room_map_configured(c->h, c->network, room);
    const char *lang = l == PZ_LANG_ES ? _("Spanish") : _("English");
    if (rs.lang >= 0)
        snprintf(e, sizeof e, _("language %s"), lang);
    else
        snprintf(e, sizeof e, _("language %s (the bot's)"), lang);
    const char *colours = rs.colours_off ? _("colours off") : _("colours on");
    const char *hints = rs.hints_off ? _("hints off") : _("hints on");
    const char *pages = rs.web_off ? _("pages off") : _("pages on");
    bool own = rs.prefix[0] != '\0';
    char line[900];
    pz_lang before = i18n_use(hc_lang(c));
    /* TRANSLATORS: the settings line, "ROOM · NEW TABLES · AWAY · COMPUTER PLAYERS ·
       prefix . (the room's) · colours on · hints on · pages on · LANGUAGE · moderators change them:
       ..." */
    snprintf(line, sizeof line,
             own ? _("%s · %s · %s · %s · prefix %s (the room's) · %s · %s · %s · %s · moderators "
                     "change them: %sset options partners to 31, %sset deadline 24h, %sset "
                     "lang es (%shelp set)")
                 : _("%s · %s · %s · %s · prefix %s (the bot's) · %s · %s · %s · %s · moderators "
                     "change them: %sset options partners to 31, %sset deadline 24h, %sset "
                     "lang es (%shelp set)"),
             room, a, b, d, p, colours, hints, pages, e, p, p, p, p);
    /* a long room name and many options: the same without its examples,
       to stay one line of the chat ("nick: " before it) */
    if (strlen(c->m->nick) + 2 + strlen(line) >= RENDER_LINE_MAX)
        snprintf(line, sizeof line,
                 own ? _("%s · %s · %s · %s · prefix %s (the room's) · %s · %s · %s · %s · "
                         "moderators: %shelp set")
                     : _("%s · %s · %s · %s · prefix %s (the bot's) · %s · %s · %s · %s · "
                         "moderators: %shelp set"),
                 room, a, b, d, p, colours, hints, pages, e, p);
    i18n_use(before);
    hc_reply(c, "%s", line);
}

/* set colours on|off, into rs: 0, or -1 (told). */
static int set_colours(ctx *c, const char *v, room_settings *rs)
{
    if (strcasecmp(v, "off") == 0 || strcasecmp(v, "no") == 0)
        rs->colours_off = true;
    else if (strcasecmp(v, "on") == 0 || strcasecmp(v, "yes") == 0)
        rs->colours_off = false;
    else {
        hc_reply(c, N_("set colours on, or set colours off"));
        return -1;
    }
    return 0;
}

/* set hints on|off, into rs: 0, or -1 (told). */
static int set_hints(ctx *c, const char *v, room_settings *rs)
{
    if (strcasecmp(v, "off") == 0 || strcasecmp(v, "no") == 0)
        rs->hints_off = true;
    else if (strcasecmp(v, "on") == 0 || strcasecmp(v, "yes") == 0)
        rs->hints_off = false;
    else {
        hc_reply(c, _("set hints on, or set hints off"));
        return -1;
    }
    return 0;
}

/* "lang", or a word for it ("idioma"). */
static bool is_lang_key(const char *key)
{
    return strcasecmp(key, "lang") == 0 || strcasecmp(key, "language") == 0 ||
           strcasecmp(key, "idioma") == 0;
}

/* set lang es|en|off, into rs: 0, or -1 (told). */
static int set_lang(ctx *c, const char *v, room_settings *rs)
{
    pz_lang l;
    if (strcasecmp(v, "off") == 0 || strcasecmp(v, "none") == 0)
        rs->lang = -1;
    else if (i18n_parse(v, &l))
        rs->lang = (int)l;
    else {
        hc_reply(c, N_("set lang es (Spanish), set lang en (English), or set lang off (the "
                       "bot's)"));
        return -1;
    }
    return 0;
}

/* The one change a "set" made, said back: the whole list is "settings"'
   (one line of the chat's budget for a change of one value). */
static void set_told(ctx *c, const char *room, const char *key, const room_settings *rs)
{
    char what[400], v[300], why[PZ_WHY_MAX];
    snprintf(v, sizeof v, "%s", _("default options"));
    /* as saved by this call: the in-memory copy learns it once it commits */
    const char *p = rs->prefix[0] != '\0' ? rs->prefix : c->h->prefix;
    if (strcasecmp(key, "deadline") == 0) {
        if (rs->deadline > 0)
            text_duration(rs->deadline, v, sizeof v);
        if (rs->deadline > 0)
            snprintf(what, sizeof what, _("new tables have a turn deadline of %s"), v);
        else
            snprintf(what, sizeof what, "%s", _("new tables have no turn deadline"));
    } else if (strcasecmp(key, "away") == 0) {
        if (rs->away_max > 0)
            text_duration(rs->away_max, v, sizeof v);
        if (rs->away_max > 0)
            snprintf(what, sizeof what, _("a turn waits for an away player up to %s"), v);
        else
            snprintf(what, sizeof what, "%s",
                     _("a turn waits for an away player as long as they say"));
    } else if (strcasecmp(key, "options") == 0) {
        pz_options o;
        pz_options_default(&o);
        if (rs->options[0] != '\0' && room_options_apply(rs, &o, why, sizeof why) == 0)
            render_options(&o, v, sizeof v);
        snprintf(what, sizeof what, _("new tables: %s"), v);
    } else if (strcasecmp(key, "level") == 0) {
        snprintf(what, sizeof what, _("computer players are %s"), level_shown(rs->level));
    } else if (strcasecmp(key, "prefix") == 0) {
        snprintf(what, sizeof what,
                 rs->prefix[0] != '\0' ? _("commands start with %s here")
                                       : _("commands start with %s here (the bot's)"),
                 p);
    } else if (strcasecmp(key, "hints") == 0) {
        snprintf(what, sizeof what, "%s",
                 rs->hints_off ? _("no hints here") : _("players may ask for hints here"));
    } else if (strcasecmp(key, "web") == 0) {
        snprintf(what, sizeof what, "%s",
                 rs->web_off ? _("game pages off: no links, and the pages answer 404")
                             : _("game pages on"));
    } else if (strcasecmp(key, "lang") == 0) {
        pz_lang l = rs->lang >= 0 ? (pz_lang)rs->lang : room_map_configured(c->h, c->network, room);
        snprintf(what, sizeof what, "%s",
                 rs->lang < 0      ? _("the room's lines follow the bot's language again")
                 : l == PZ_LANG_ES ? _("the room's lines are in Spanish")
                                   : _("the room's lines are in English"));
    } else {
        snprintf(what, sizeof what, "%s", rs->colours_off ? _("colours off") : _("colours on"));
    }
    bool in_room = c->m->room != NULL && c->m->room[0] != '\0';
    /* the whole line in the language chosen just now: hc_reply's own
       would be the room's before this change (an English line around
       "las líneas de la sala van en español") */
    char line[600];
    snprintf(line, sizeof line, _("%s: %s · %ssettings lists them all"), room, what,
             in_room ? p : "");
    hc_reply(c, "%s", line);
}

void hv_set(ctx *c, const cmd *k)
{
    const char *room = room_of(c, k);
    if (room == NULL)
        return;
    if (!c->m->moderator && !hc_is_owner(c, c->m->sender)) {
        hc_reply(c, N_("only the room's moderators (or the bot's owners) may change its settings"));
        return;
    }
    room_settings rs;
    room_defaults(c, room, &rs);
    int secs;
    pzai_level lv;
    if (strcasecmp(k->name, "deadline") == 0 &&
        cmd_parse_duration(k->name2, strlen(k->name2), &secs) == 0) {
        rs.deadline = secs;
        rs.own_deadline = true;
    } else if (strcasecmp(k->name, "away") == 0 &&
               cmd_parse_duration(k->name2, strlen(k->name2), &secs) == 0) {
        rs.away_max = secs;
        rs.own_away = true;
    } else if (strcasecmp(k->name, "options") == 0) {
        if (set_options(c, k->name2, &rs) != 0)
            return;
    } else if (strcasecmp(k->name, "level") == 0 && pzai_level_parse(k->name2, &lv) == 0) {
        rs.level = (int)lv;
        rs.own_level = true;
    } else if (strcasecmp(k->name, "prefix") == 0) {
        if (set_prefix(c, k->name2, &rs) != 0)
            return;
    } else if (strcasecmp(k->name, "colours") == 0 || strcasecmp(k->name, "colors") == 0) {
        if (set_colours(c, k->name2, &rs) != 0)
            return;
    } else if (strcasecmp(k->name, "hints") == 0) {
        if (set_hints(c, k->name2, &rs) != 0)
            return;
    } else if (strcasecmp(k->name, "web") == 0 &&
               (strcasecmp(k->name2, "on") == 0 || strcasecmp(k->name2, "off") == 0)) {
        rs.web_off = strcasecmp(k->name2, "off") == 0;
    } else if (is_lang_key(k->name)) {
        if (set_lang(c, k->name2, &rs) != 0)
            return;
    } else {
        hc_reply(c, N_("set options WORDS|off, set deadline 24h|off, set away 3d|off, set level "
                       "beginner|greedy|expert|strong, set prefix .|off, set colours on|off, set "
                       "hints on|off, set web on|off, or set lang es|en|off"));
        return;
    }
    room_save(c, room, &rs);
    if (c->failed)
        return;
    /* told in the room's new language, which the in-memory copy learns
       once this commits */
    pz_lang before =
        i18n_use(rs.lang >= 0 ? (pz_lang)rs.lang : room_map_configured(c->h, c->network, room));
    set_told(c, room, is_lang_key(k->name) ? "lang" : k->name, &rs);
    i18n_use(before);
}
