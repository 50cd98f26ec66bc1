/*
 * prefs.c — a player's own choices, by command: the player's rows of the
 * settings table (settings.def), tz ZONE, quiet HH:MM-HH:MM, away DURATION
 * [bot], reminders on|off, prompts on|off, lang, and every switch whose
 * row words its answers (notices, review: host__verb_switch). Each is kept in the
 * store's kv per network and player, in its row's scope (hprefs.h), and
 * every game of the player is timed again after a change of their clock.
 *
 * Not here: reading the choices (the core's prefs.c), the zone database
 * (tz.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hprefs.h"
#include "hrooms.h"
#include "hseats.h"
#include "hverbs.h"
#include "i18n.h"
#include "text.h"
#include "tz.h"

/* Saves one game of the sender again, so its clock follows their new
   choices (a deadline put off or brought back, a computer player). */
static int retime_one(void *arg, int64_t id, const char *room)
{
    ctx *outer = arg;
    ctx c = {.h = outer->h, .now = outer->now, .m = outer->m, .network = outer->network};
    if (host__game_load(&c, room) > 0 && c.row.id == id && c.row.status == STORE_PLAYING)
        host__game_save(&c);
    host__game_unload(&c);
    if (c.failed)
        outer->failed = c.failed;
    return c.failed;
}

/* Every game of the sender timed again (after tz, quiet or away). */
static void retime(ctx *c)
{
    int err = store_games_of_player(c->h->st, c->network, c->m->sender, retime_one, c);
    if (err != 0 && !c->failed)
        host__failed(c, err);
}

void host__verb_tz(ctx *c, const cmd *k)
{
    char canon[TZ_NAME_MAX], hint[2 * TZ_NAME_MAX + 8], when[64];
    prefs p;
    host__prefs_load(c, c->m->sender, &p);
    if (k->name[0] == '\0' && !k->off) {
        tz_format(c->now, p.tz, false, when, sizeof when);
        host__reply(
            c, N_("your time zone is %s (it is %s there); say %stz Europe/Madrid to change it"),
            p.tz[0] != '\0' ? p.tz : "UTC", when, host__prefix(c));
        return;
    }
    if (k->off) {
        host__prefs_set(c, TZ_SCOPE, "");
        retime(c);
        host__reply(c, N_("your times are shown in UTC again"));
        return;
    }
    if (tz_check(k->name, canon, sizeof canon, hint, sizeof hint) != 0) {
        if (hint[0] != '\0')
            host__reply(c, N_("%s is not a time zone: did you mean %s?"), k->name, hint);
        else
            host__reply(
                c, N_("%s is not a time zone: say a region and city, e.g. %stz America/Chicago"),
                k->name, host__prefix(c));
        return;
    }
    host__prefs_set(c, TZ_SCOPE, canon);
    retime(c);
    tz_format(c->now, canon, false, when, sizeof when);
    host__reply(c, N_("your time zone is %s: it is %s there"), canon, when);
}

void host__verb_quiet(ctx *c, const cmd *k)
{
    tz_quiet q;
    char shown[32];
    prefs p;
    host__prefs_load(c, c->m->sender, &p);
    if (k->off) {
        host__prefs_set(c, QUIET_SCOPE, "");
        retime(c);
        host__reply(c, N_("no quiet hours: reminders come at any time"));
        return;
    }
    if (tz_quiet_parse(k->name, &q) != 0) {
        host__reply(
            c, N_("quiet hours are two times of day: e.g. %squiet 23:00-08:00, or %squiet off"),
            host__prefix(c), host__prefix(c));
        return;
    }
    tz_quiet_format(&q, shown, sizeof shown);
    host__prefs_set(c, QUIET_SCOPE, shown);
    retime(c);
    if (p.tz[0] != '\0')
        host__reply(c, N_("quiet %s %s every day: no reminders then, and your turn deadlines stop"),
                    shown, p.tz);
    else
        host__reply(
            c,
            N_("quiet %s UTC (say tz ZONE for yours) every day: no reminders then, and your "
               "turn deadlines stop"),
            shown);
}

/* Replies with switch row r's answer to on (told, or told_off). */
static void switch_told(ctx *c, const cmd_setting_row *r, bool on)
{
    char text[400];
    {
        I18N_SCOPE(host__lang(c)); /* the row's msgid, in the reply's language */
        snprintf(text, sizeof text, "%s", _(on || r->told_off == NULL ? r->told : r->told_off));
    }
    host__reply(c, "%s", text);
}

/* Keeps the sender's switch (the verb's row) at on, in the row's form. */
static const cmd_setting_row *switch_set(ctx *c, const cmd *k)
{
    const cmd_setting_row *r = cmd_setting_row_of(cmd_setting_of_verb(k->verb));
    host__prefs_set(c, r->stored, cmd_switch_stored(r, k->on));
    return r;
}

void host__verb_switch(ctx *c, const cmd *k)
{
    const cmd_setting_row *r = switch_set(c, k);
    if (!c->failed)
        switch_told(c, r, k->on);
}

void host__verb_reminders(ctx *c, const cmd *k)
{
    const cmd_setting_row *r = switch_set(c, k);
    retime(c);
    if (!c->failed)
        switch_told(c, r, k->on);
}

/* The codes of the bot's languages, for a reply: "en, es". */
static void codes(char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (int l = 0; l < PZ_LANG_COUNT && n < cap; l++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s", l > 0 ? ", " : "", i18n_code((pz_lang)l));
}

/* lang: the language of the sender's private lines and why, as
   host_player_lang decides it (their own, their room's, the bot's). */
static void lang_told(ctx *c, const char *room)
{
    char list[64];
    const char *seat = room != NULL ? room : host__lang_map_room(c->h, c->network, c->m->sender);
    const char *name = _(i18n_name(host_player_lang(c->h, c->network, c->m->sender, room)));
    codes(list, sizeof list);
    if (host__lang_map_own(c->h, c->network, c->m->sender) >= 0)
        host__reply(c,
                    N_("your private lines are in %s, as you chose; say %slang off to follow your "
                       "room's"),
                    name, host__prompt_prefix(c));
    else if (seat != NULL)
        host__reply(c,
                    N_("your private lines are in %s, as %s's lines are; say %slang CODE for your "
                       "own (%s)"),
                    name, seat, host__prompt_prefix(c), list);
    else
        host__reply(
            c, N_("your private lines are in %s, the bot's; say %slang CODE for your own (%s)"),
            name, host__prompt_prefix(c), list);
}

/* lang [es|en|off]: the language of the sender's private lines, kept in
   the kv (LANG_SCOPE) and in memory once the call commits (lang_map.c). */
void host__verb_lang(ctx *c, const cmd *k)
{
    pz_lang l;
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room : NULL;
    if (k->name[0] == '\0' && !k->off) {
        lang_told(c, room);
        return;
    }
    if (!k->off && !i18n_parse(k->name, &l)) {
        host__reply(c,
                    N_("%s is not a language here: say %slang es (Spanish) or %slang en (English)"),
                    k->name, host__prompt_prefix(c), host__prompt_prefix(c));
        return;
    }
    if (!k->off && !i18n_available(l)) {
        host__reply(c, N_("%s is not installed here: its catalogue was not found"),
                    _(i18n_name(l)));
        return;
    }
    host__prefs_set(c, LANG_SCOPE, k->off ? "" : i18n_code(l));
    if (c->failed)
        return;
    c->lang_change.pending = true;
    c->lang_change.lang = k->off ? -1 : (int)l;
    /* told in the new language, which the in-memory copy learns only once
       this commits: without their own, the rule's next step (their room's) */
    pz_lang now = k->off ? host__lang_map_without_own(c->h, c->network, c->m->sender, room) : l;
    char text[300];
    {
        I18N_SCOPE(now);
        if (k->off)
            snprintf(text, sizeof text, "%s",
                     _("your private lines follow the room's language again"));
        else
            snprintf(text, sizeof text, _("your private lines are in %s from now on"),
                     _(i18n_name(now)));
    }
    host__say_private(c, c->m->sender, 0, "%s", text);
}

void host__verb_away(ctx *c, const cmd *k)
{
    char value[48], until[64], how[32];
    prefs p;
    host__prefs_load(c, c->m->sender, &p);
    if (k->off) {
        host__prefs_set(c, AWAY_SCOPE, "");
        retime(c);
        host__reply(c, N_("welcome back: your games count on you again"));
        return;
    }
    int64_t at = c->now + k->deadline_secs;
    snprintf(value, sizeof value, "%lld%s", (long long)at, k->robots ? " bot" : "");
    host__prefs_set(c, AWAY_SCOPE, value);
    retime(c);
    tz_format(at, p.tz, true, until, sizeof until);
    if (k->robots) {
        host__reply(
            c, N_("away until %s: a computer player plays for you meanwhile (%saway off ends it)"),
            until, host__prefix(c));
        return;
    }
    text_duration(c->h->cfg.away_max_secs, how, sizeof how);
    if (c->h->cfg.away_max_secs > 0)
        host__reply(
            c, N_("away until %s: your games wait for you (at most %s a turn), with no reminders"),
            until, how);
    else
        host__reply(c,
                    N_("away until %s: your games wait for you (at most as long as you are away a "
                       "turn), with no reminders"),
                    until);
}

void host__verb_prompts(ctx *c, const cmd *k)
{
    int rc = host__prompt_choose(c, k->on);
    if (rc == 1)
        host__reply(c, N_("your name is too long for me to keep that"));
    if (rc != 0)
        return;
    int quiet = c->h->cfg.prompt_quiet_secs;
    if (k->on || quiet <= 0)
        switch_told(c, cmd_setting_row_of(CMD_SETTING_PROMPTS), true);
    else
        host__reply(c,
                    N_("you get a private message at your turn only when you have not played for "
                       "%d min; the room's line says whose turn it is"),
                    (quiet + 59) / 60);
}
