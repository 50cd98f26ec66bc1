/*
 * command_args.c — the arguments of the verbs that set or name something
 * rather than play: a player's and a game's settings, by their row's kind
 * in the settings table (settings.def), the games list, links, a game's
 * number, and set's key and value (the key from the same table).
 * command.c reads the line and calls these by verb (command_int.h).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_settings.h"
#include "command_int.h"
#include "i18n.h"
#include "text.h"

/* A player's SK_LANG, lang [WORD|off]: the word is checked by the host
   (i18n_parse). */
static cmd_result parse_lang(const word *w, int n, cmd *c, reply *r)
{
    if (n == 0)
        return CMD_OK; /* says the language in use */
    if (n == 1 && cmd_is_word(w[0], CMD_OFF_WORDS)) {
        c->off = true;
        return CMD_OK;
    }
    if (n != 1 || !cmd_is_name(w[0]))
        return cmd_fail(r, _("lang takes one word: %slang es or %slang en"), r->p, r->p);
    cmd_copy_name(c->name, w[0]);
    return CMD_OK;
}

/* A player's SK_UNTIL, away DURATION [bot] | off. */
static cmd_result parse_until(const word *w, int n, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    if (n == 1 && cmd_is_word(w[0], CMD_OFF_WORDS)) {
        c->off = true;
        return CMD_OK;
    }
    if (n >= 1 && cmd_is_word(w[n - 1], "bot bots robot computer maquina computadora")) {
        c->robots = true;
        n--;
    }
    word all = n > 0 ? cmd_span(w, 0, n - 1) : (word){"", 0};
    if (n == 0 || cmd_parse_duration(all.s, all.n, &c->deadline_secs) != 0 || c->deadline_secs <= 0)
        return cmd_fail(r,
                        _("away how long? e.g. %saway 3d (your games wait), %saway 3d bot (a "
                          "computer player plays for you), %saway off; not '%s'"),
                        r->p, r->p, r->p, cmd_quote(all, q));
    return CMD_OK;
}

/* An SK_SWITCH, row r's verb on|off: c->on. */
static cmd_result parse_switch(const cmd_setting_row *r, const word *w, int n, cmd *c, reply *rp)
{
    if (n == 1 && cmd_is_word(w[0], CMD_ON_WORDS)) {
        c->on = true;
        return CMD_OK;
    }
    if (n == 1 && cmd_is_word(w[0], CMD_OFF_WORDS)) {
        c->on = false;
        return CMD_OK;
    }
    return cmd_fail(rp, _("say %s%s on or %s%s off (%shelp %s says what each does)"), rp->p, r->key,
                    rp->p, r->key, rp->p, r->key);
}

/* An SK_ZONE (nothing: the one in use) or SK_WINDOW: one word as typed,
   or off (c->off); the host checks the word. */
static cmd_result parse_one_word(const cmd_setting_row *r, const word *w, int n, cmd *c, reply *rp)
{
    if (n == 0 && r->kind == SK_ZONE)
        return CMD_OK; /* says the zone in use */
    if (n == 1 && cmd_is_word(w[0], CMD_OFF_WORDS)) {
        c->off = true;
        return CMD_OK;
    }
    if (n != 1 || !cmd_is_name(w[0]))
        return cmd_fail(rp, _("%s takes one word: e.g. %s%s, or %s%s off"), r->key, rp->p,
                        _(r->example), rp->p, r->key);
    cmd_copy_name(c->name, w[0]);
    return CMD_OK;
}

/* An SK_DURATION, row r's verb off|DURATION: c->deadline_secs. */
static cmd_result parse_duration(const cmd_setting_row *r, const word *w, int n, cmd *c, reply *rp)
{
    char q[TEXT_QUOTE_MAX];
    if (n == 0)
        return cmd_fail(rp, _("%s off, or how long? e.g. %s%s"), r->key, rp->p, _(r->example));
    word all = cmd_span(w, 0, n - 1);
    if (cmd_parse_duration(all.s, all.n, &c->deadline_secs) != 0)
        return cmd_fail(rp, _("'%s' is not a time: say %s%s off, or e.g. %s%s 90s, 10m or 1h30m"),
                        cmd_quote(all, q), rp->p, r->key, rp->p, r->key);
    return CMD_OK;
}

cmd_result cmd_parse_setting(int id, const word *w, int n, cmd *c, reply *rp)
{
    const cmd_setting_row *r = cmd_setting_row_of(id);
    switch (r->kind) {
    case SK_SWITCH:
        return parse_switch(r, w, n, c, rp);
    case SK_ZONE:
    case SK_WINDOW:
        return parse_one_word(r, w, n, c, rp);
    case SK_DURATION:
        return parse_duration(r, w, n, c, rp);
    case SK_UNTIL:
        return parse_until(w, n, c, rp);
    case SK_LANG:
        return parse_lang(w, n, c, rp);
    case SK_OPTIONS: /* a room's kinds, said through set */
    case SK_LEVEL:
    case SK_PREFIX:
        break;
    }
    return cmd_fail(rp, "%s", _("there is no such setting: say help set"));
}

/* games [all] */
cmd_result cmd_parse_games(const word *w, int n, cmd *c, reply *r)
{
    if (n == 0)
        return CMD_OK;
    if (n == 1 && cmd_is_word(w[0], "all todas todos")) {
        c->all = true;
        return CMD_OK;
    }
    return cmd_fail(r, _("say %sgames (this network's) or %sgames all"), r->p, r->p);
}

/* link | link off | link CODE (the code as typed, in lower case) */
cmd_result cmd_parse_link(const word *w, int n, cmd *c, reply *r)
{
    if (n == 0)
        return CMD_OK;
    if (n == 1 && cmd_is_word(w[0], "off no unlink desvincular")) {
        c->off = true;
        return CMD_OK;
    }
    if (n != 1 || !cmd_is_name(w[0]) || w[0].n > 32)
        return cmd_fail(r, _("say %slink for a code, then link CODE on your other network"), r->p);
    cmd_copy_name(c->name, w[0]);
    for (char *p = c->name; *p != '\0'; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    return CMD_OK;
}

/*
 * export ID, fstop ID: a game's number, as the opening line names it ("12",
 * or "#12", which cmd_parse took for a room name).
 */
cmd_result cmd_parse_game_id(const word *w, int n, cmd *c, reply *r)
{
    const char *name = cmd_verb_name(c->verb);
    word num = {NULL, 0};
    if (n == 1)
        num = w[0];
    else if (n == 0 && c->room[0] == '#')
        num = (word){c->room + 1, strlen(c->room + 1)};
    if (num.n > 0 && num.s[0] == '#') {
        num.s++;
        num.n--;
    }
    int64_t id = 0;
    size_t i = 0;
    if (num.n > 0 && num.n <= 15)
        for (; i < num.n && num.s[i] >= '0' && num.s[i] <= '9'; i++)
            id = id * 10 + (num.s[i] - '0');
    if (num.n == 0 || i != num.n || id <= 0)
        return cmd_fail(r, _("%s which game? its number, e.g. %s%s 12 (%sgames lists them)"), name,
                        r->p, name, r->p);
    if (n == 0)
        c->room[0] = '\0'; /* "#12" was the game, not a room */
    c->game = id;
    return CMD_OK;
}

/*
 * set KEY VALUE...: c->name is the key's English word (settings.def) when a
 * word of the table names it, else the word as typed (the host says which
 * keys there are); c->name2 the value's words as typed, one word of on/off
 * or a level made its English word.
 */
cmd_result cmd_parse_set(const word *w, int n, cmd *c, reply *r)
{
    word value = {"", 0};
    if (n >= 2)
        value = cmd_span(w, 1, n - 1);
    char key[CMD_NAME_MAX] = "";
    if (n >= 1 && cmd_is_name(w[0]))
        cmd_copy_name(key, w[0]);
    int id = key[0] != '\0' ? cmd_setting_find(key) : -1;
    const cmd_setting_row *row = cmd_setting_row_of(id);
    /* a prefix is punctuation, which split() trims from a word's end: "!!" */
    if (n >= 2 && row != NULL && row->kind == SK_PREFIX)
        value.n += strcspn(value.s + value.n, " ");
    if (n < 2 || key[0] == '\0' || !cmd_is_name(value))
        return cmd_fail(r, _("set what? %sset deadline 24h, %sset level expert, or %sset prefix ."),
                        r->p, r->p, r->p);
    (void)snprintf(c->name, sizeof c->name, "%s", row != NULL ? row->key : key);
    cmd_copy_name(c->name2, value);
    int level = n == 2 ? cmd_level_at(w[1]) : -1;
    if (n == 2 && row != NULL && row->kind == SK_LEVEL && level >= 0)
        (void)snprintf(c->name2, sizeof c->name2, "%s", cmd_level_name(level));
    else if (n == 2 && cmd_is_word(w[1], CMD_OFF_WORDS) && !cmd_is_word(w[1], "auto normal"))
        (void)snprintf(c->name2, sizeof c->name2, "off");
    else if (n == 2 && cmd_is_word(w[1], CMD_ON_WORDS))
        (void)snprintf(c->name2, sizeof c->name2, "on");
    return CMD_OK;
}
