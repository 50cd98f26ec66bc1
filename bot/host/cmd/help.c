/*
 * help.c — help [command] and rules [topic]: the texts of render.h and
 * help.h, sent to the sender privately wherever they asked; the rules of
 * the room's game (or the one named) say its target and options.
 */
#include "hctx.h"
#include "hgame.h"
#include "hverbs.h"

#include "help.h"

/* Help and rules go to the sender privately when asked in a room. */
static void send_text(ctx *c, const render_lines *lines)
{
    c->bounded = true;
    for (int i = 0; i < lines->n; i++)
        hc_say_private(c, c->m->sender, 0, "%s", lines->line[i]);
    c->bounded = false;
}

/*
 * rules [topic]: about the game of the room where it is asked (or that it
 * names) when there is one, with that game's target and options.
 */
void hv_rules(ctx *c, const cmd *k)
{
    render_lines lines = {0};
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : k->room[0] != '\0'                        ? k->room
                                                                   : NULL;
    bool game = room != NULL && hg_load(c, room) > 0;
    help_rules(k->name, game ? &c->set.opt : NULL, &lines);
    send_text(c, &lines);
}

/* help [command]: the list, or one command's usage, privately. */
void hv_help(ctx *c, const cmd *k)
{
    render_lines lines = {0};
    render_help(k->name, hc_prefix(c), &lines);
    send_text(c, &lines);
}
