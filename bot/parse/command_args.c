/*
 * command_args.c — the arguments of the verbs that set or name something
 * rather than play: a player's own switches and language, away, the games
 * list, links, a game's number, and set's key and value (the key from the
 * settings table, settings.def). command.c reads the line and calls these
 * by verb (command_int.h).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_settings.h"
#include "command_int.h"
#include "i18n.h"
#include "text.h"

/* lang [WORD|off]: the word is checked by the host (i18n_parse) */
cmd_result cmd_parse_lang(const word *w, int n, cmd *c, reply *r)
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

/* away DURATION [bot] | off */
cmd_result cmd_parse_away(const word *w, int n, cmd *c, reply *r)
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

/* prompts|reminders|notices|review on|off */
cmd_result cmd_parse_switch(const word *w, int n, cmd *c, reply *r)
{
    if (n == 1 && cmd_is_word(w[0], CMD_ON_WORDS)) {
        c->on = true;
        return CMD_OK;
    }
    if (n == 1 && cmd_is_word(w[0], CMD_OFF_WORDS)) {
        c->on = false;
        return CMD_OK;
    }
    if (c->verb == CMD_REMINDERS)
        return cmd_fail(r, _("say %sreminders on or %sreminders off"), r->p, r->p);
    if (c->verb == CMD_REVIEW)
        return cmd_fail(r,
                        _("say %sreview on (the points you left on the table, after each "
                          "hand) or %sreview off"),
                        r->p, r->p);
    if (c->verb == CMD_NOTICES)
        return cmd_fail(r, _("say %snotices on (private lines as NOTICE) or %snotices off"), r->p,
                        r->p);
    return cmd_fail(r,
                    _("say %sprompts on (a private message at each of your turns) or %sprompts "
                      "off (only when you have been away a while)"),
                    r->p, r->p);
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
