/*
 * command_options.c — the game options (R9) in the reader's words
 * (cmd_options.h): their names and values as players type them in the
 * language of the thread, and the engine's refusals told in that
 * language. The engine stays the judge: an option is set and a set of
 * options checked by pz_options_set and pz_options_check, and what was
 * refused is found by asking the engine again about a part of it, so no
 * rule of R9 is written twice.
 *
 * Not here: reading the option words of a line (command_new.c), the
 * options line of a table (render.c).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_options.h"
#include "command.h"
#include "i18n.h"
#include "text.h"

/* An option of R9: its name (the engine's word, a msgid of context
   "option"), the values it takes (msgids of context "option value",
   NULL-terminated) and the sentence listing them for a refusal. */
static const struct option_row {
    const char *name;
    const char *takes;
    const char *values[4];
} OPTIONS[] = {
    {NC_("option", "target"), NULL, {NULL}},
    {NC_("option", "wrap"),
     N_("true or false"),
     {NC_("option value", "false"), NC_("option value", "true"), NULL}},
    {NC_("option", "declarations"),
     N_("auto, manual or silent"),
     {NC_("option value", "auto"), NC_("option value", "manual"), NC_("option value", "silent"),
      NULL}},
    {NC_("option", "tendido"),
     N_("choice or last"),
     {NC_("option value", "choice"), NC_("option value", "last"), NULL}},
    {NC_("option", "odd_leftover"),
     N_("table or deal"),
     {NC_("option value", "table"), NC_("option value", "deal"), NULL}},
    {NC_("option", "final_sweep"),
     N_("last_capturer or dealer"),
     {NC_("option value", "last_capturer"), NC_("option value", "dealer"), NULL}},
    {NC_("option", "card_score"),
     N_("difference or excess26"),
     {NC_("option value", "difference"), NC_("option value", "excess26"), NULL}},
    {NC_("option", "partnerships"),
     N_("true or false"),
     {NC_("option value", "false"), NC_("option value", "true"), NULL}},
};
#define NOPTIONS ((int)(sizeof OPTIONS / sizeof OPTIONS[0]))

/* The row of the engine's option name, or NULL. */
static const struct option_row *row_of(const char *name)
{
    for (int i = 0; name != NULL && i < NOPTIONS; i++)
        if (strcmp(OPTIONS[i].name, name) == 0)
            return &OPTIONS[i];
    return NULL;
}

const char *cmd_option_shown(const char *name)
{
    const struct option_row *r = row_of(name);
    return r != NULL ? C_("option", r->name) : name;
}

const char *cmd_option_value_shown(const char *name, const char *value)
{
    const struct option_row *r = row_of(name);
    for (int i = 0; r != NULL && value != NULL && r->values[i] != NULL; i++)
        if (strcmp(r->values[i], value) == 0)
            return C_("option value", r->values[i]);
    return value;
}

int cmd_option_set(pz_options *o, const char *name, const char *value, char *why, size_t cap)
{
    char q[TEXT_QUOTE_MAX];
    if (pz_options_set(o, name, value, NULL, 0) == 0)
        return 0;
    const struct option_row *r = row_of(name);
    if (r == NULL) {
        text_quote(name != NULL ? name : "", name != NULL ? strlen(name) : 0, q);
        snprintf(why, cap, _(CMD_NOT_AN_OPTION), q);
        return -1;
    }
    text_quote(value != NULL ? value : "", value != NULL ? strlen(value) : 0, q);
    if (r->takes == NULL)
        snprintf(why, cap, _("option %s takes a whole number from %d to %d, not '%s'"),
                 C_("option", r->name), CMD_TARGET_MIN, CMD_TARGET_MAX, q);
    else
        snprintf(why, cap, _("option %s takes %s, not '%s'"), C_("option", r->name), _(r->takes),
                 q);
    return -1;
}

int cmd_options_check(const pz_options *o, int players, char *why, size_t cap)
{
    if (pz_options_check(o, players, NULL, 0) == 0)
        return 0;
    pz_options t;
    pz_options_default(&t);
    if (pz_options_check(&t, players, NULL, 0) != 0) {
        snprintf(why, cap, _("a game has %d to %d players, not %d"), PZ_MIN_PLAYERS, PZ_MAX_PLAYERS,
                 players);
        return -1;
    }
    t = *o;
    t.partnerships = false;
    t.card_score = PZ_CARD_SCORE_DIFFERENCE;
    if (pz_options_check(&t, players, NULL, 0) != 0) {
        snprintf(why, cap, _("the target must be between %d and %d, not %d"), CMD_TARGET_MIN,
                 CMD_TARGET_MAX, o->target);
        return -1;
    }
    t.partnerships = o->partnerships;
    if (pz_options_check(&t, players, NULL, 0) != 0) {
        snprintf(why, cap,
                 _("partners need an even number of players, at least 4 (this game has %d)"),
                 players);
        return -1;
    }
    int sides = o->partnerships ? players / 2 : players;
    snprintf(why, cap, _("%s needs exactly two sides (this game has %d)"),
             cmd_option_value_shown("card_score", "excess26"), sides);
    return -1;
}
