/*
 * prefs.c — a player's own choices, by command: the player's rows of the
 * settings table (settings.def), tz ZONE, quiet HH:MM-HH:MM, away DURATION
 * [bot], reminders on|off, prompts on|off, lang, and every switch whose
 * row words its answers (notices, review: hv_switch). Each is kept in the
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
    if (hg_load(&c, room) > 0 && c.row.id == id && c.row.status == STORE_PLAYING)
        hg_save(&c);
    hg_unload(&c);
    if (c.failed)
        outer->failed = c.failed;
    return c.failed;
}

/* Every game of the sender timed again (after tz, quiet or away). */
static void retime(ctx *c)
{
    int err = store_games_of_player(c->h->st, c->network, c->m->sender, retime_one, c);
    if (err != 0 && !c->failed)
        hc_failed(c, err);
}

void hv_tz(ctx *c, const cmd *k)
{
    char canon[TZ_NAME_MAX], hint[2 * TZ_NAME_MAX + 8], when[64];
    prefs p;
    prefs_load(c, c->m->sender, &p);
    if (k->name[0] == '\0' && !k->off) {
        tz_format(c->now, p.tz, false, when, sizeof when);
        hc_reply(c,
                 N_("your time zone is %s (it is %s there); say %stz Europe/Madrid to change it"),
                 p.tz[0] != '\0' ? p.tz : "UTC", when, hc_prefix(c));
        return;
    }
    if (k->off) {
        prefs_set(c, TZ_SCOPE, "");
        retime(c);
        hc_reply(c, N_("your times are shown in UTC again"));
        return;
    }
    if (tz_check(k->name, canon, sizeof canon, hint, sizeof hint) != 0) {
        if (hint[0] != '\0')
            hc_reply(c, N_("%s is not a time zone: did you mean %s?"), k->name, hint);
        else
            hc_reply(c,
                     N_("%s is not a time zone: say a region and city, e.g. %stz America/Chicago"),
                     k->name, hc_prefix(c));
        return;
    }
    prefs_set(c, TZ_SCOPE, canon);
    retime(c);
    tz_format(c->now, canon, false, when, sizeof when);
    hc_reply(c, N_("your time zone is %s: it is %s there"), canon, when);
}

void hv_quiet(ctx *c, const cmd *k)
{
    tz_quiet q;
    char shown[32];
    prefs p;
    prefs_load(c, c->m->sender, &p);
    if (k->off) {
        prefs_set(c, QUIET_SCOPE, "");
        retime(c);
        hc_reply(c, N_("no quiet hours: reminders come at any time"));
        return;
    }
    if (tz_quiet_parse(k->name, &q) != 0) {
        hc_reply(c,
                 N_("quiet hours are two times of day: e.g. %squiet 23:00-08:00, or %squiet off"),
                 hc_prefix(c), hc_prefix(c));
        return;
    }
    tz_quiet_format(&q, shown, sizeof shown);
    prefs_set(c, QUIET_SCOPE, shown);
    retime(c);
    if (p.tz[0] != '\0')
        hc_reply(c, N_("quiet %s %s every day: no reminders then, and your turn deadlines stop"),
                 shown, p.tz);
    else
        hc_reply(c,
                 N_("quiet %s UTC (say tz ZONE for yours) every day: no reminders then, and your "
                    "turn deadlines stop"),
                 shown);
}

/* Replies with switch row r's answer to on (told, or told_off). */
static void switch_told(ctx *c, const cmd_setting_row *r, bool on)
{
    char text[400];
    {
        I18N_SCOPE(hc_lang(c)); /* the row's msgid, in the reply's language */
        snprintf(text, sizeof text, "%s", _(on || r->told_off == NULL ? r->told : r->told_off));
    }
    hc_reply(c, "%s", text);
}

/* Keeps the sender's switch (the verb's row) at on, in the row's form. */
static const cmd_setting_row *switch_set(ctx *c, const cmd *k)
{
    const cmd_setting_row *r = cmd_setting_row_of(cmd_setting_of_verb(k->verb));
    prefs_set(c, r->stored, cmd_switch_stored(r, k->on));
    return r;
}

void hv_switch(ctx *c, const cmd *k)
{
    const cmd_setting_row *r = switch_set(c, k);
    if (!c->failed)
        switch_told(c, r, k->on);
}

void hv_reminders(ctx *c, const cmd *k)
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
    const char *seat = room != NULL ? room : lang_map_room(c->h, c->network, c->m->sender);
    const char *name = _(i18n_name(host_player_lang(c->h, c->network, c->m->sender, room)));
    codes(list, sizeof list);
    if (lang_map_own(c->h, c->network, c->m->sender) >= 0)
        hc_reply(c,
                 N_("your private lines are in %s, as you chose; say %slang off to follow your "
                    "room's"),
                 name, hc_prompt_prefix(c));
    else if (seat != NULL)
        hc_reply(c,
                 N_("your private lines are in %s, as %s's lines are; say %slang CODE for your "
                    "own (%s)"),
                 name, seat, hc_prompt_prefix(c), list);
    else
        hc_reply(c,
                 N_("your private lines are in %s, the bot's; say %slang CODE for your own (%s)"),
                 name, hc_prompt_prefix(c), list);
}

/* lang [es|en|off]: the language of the sender's private lines, kept in
   the kv (LANG_SCOPE) and in memory once the call commits (lang_map.c). */
void hv_lang(ctx *c, const cmd *k)
{
    pz_lang l;
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room : NULL;
    if (k->name[0] == '\0' && !k->off) {
        lang_told(c, room);
        return;
    }
    if (!k->off && !i18n_parse(k->name, &l)) {
        hc_reply(c, N_("%s is not a language here: say %slang es (Spanish) or %slang en (English)"),
                 k->name, hc_prompt_prefix(c), hc_prompt_prefix(c));
        return;
    }
    if (!k->off && !i18n_available(l)) {
        hc_reply(c, N_("%s is not installed here: its catalogue was not found"), _(i18n_name(l)));
        return;
    }
    prefs_set(c, LANG_SCOPE, k->off ? "" : i18n_code(l));
    if (c->failed)
        return;
    c->lang_change.pending = true;
    c->lang_change.lang = k->off ? -1 : (int)l;
    /* told in the new language, which the in-memory copy learns only once
       this commits: without their own, the rule's next step (their room's) */
    pz_lang now = k->off ? lang_map_without_own(c->h, c->network, c->m->sender, room) : l;
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
    hc_say_private(c, c->m->sender, 0, "%s", text);
}

void hv_away(ctx *c, const cmd *k)
{
    char value[48], until[64], how[32];
    prefs p;
    prefs_load(c, c->m->sender, &p);
    if (k->off) {
        prefs_set(c, AWAY_SCOPE, "");
        retime(c);
        hc_reply(c, N_("welcome back: your games count on you again"));
        return;
    }
    int64_t at = c->now + k->deadline_secs;
    snprintf(value, sizeof value, "%lld%s", (long long)at, k->robots ? " bot" : "");
    prefs_set(c, AWAY_SCOPE, value);
    retime(c);
    tz_format(at, p.tz, true, until, sizeof until);
    if (k->robots) {
        hc_reply(
            c, N_("away until %s: a computer player plays for you meanwhile (%saway off ends it)"),
            until, hc_prefix(c));
        return;
    }
    text_duration(c->h->cfg.away_max_secs, how, sizeof how);
    if (c->h->cfg.away_max_secs > 0)
        hc_reply(
            c, N_("away until %s: your games wait for you (at most %s a turn), with no reminders"),
            until, how);
    else
        hc_reply(c,
                 N_("away until %s: your games wait for you (at most as long as you are away a "
                    "turn), with no reminders"),
                 until);
}

void hv_prompts(ctx *c, const cmd *k)
{
    int rc = prompt_choose(c, k->on);
    if (rc == 1)
        hc_reply(c, N_("your name is too long for me to keep that"));
    if (rc != 0)
        return;
    int quiet = c->h->cfg.prompt_quiet_secs;
    if (k->on || quiet <= 0)
        switch_told(c, cmd_setting_row_of(CMD_SETTING_PROMPTS), true);
    else
        hc_reply(c,
                 N_("you get a private message at your turn only when you have not played for "
                    "%d min; the room's line says whose turn it is"),
                 (quiet + 59) / 60);
}
