/*
 * help.c — help [command] and rules [topic]: the texts of render.h and
 * help.h, sent to the sender privately wherever they asked (help in a
 * room, where private lines wait for an invitation: the short part in the
 * room); the rules of the room's game (or the one named) say its target
 * and options.
 */
#include "hctx.h"
#include "hgame.h"
#include "hverbs.h"
#include "i18n.h"

#include "help.h"

/* Help and rules go to the sender privately when asked in a room. */
static void send_text(ctx *c, const render_lines *lines)
{
    c->bounded = true;
    for (int i = 0; i < lines->n; i++)
        host__say_private(c, c->m->sender, 0, "%s", lines->line[i]);
    c->bounded = false;
}

/*
 * rules [topic]: about the game of the room where it is asked (or that it
 * names) when there is one, with that game's target and options.
 */
void host__verb_rules(ctx *c, const cmd *k)
{
    render_lines lines;
    render_init(&lines);
    const char *room = c->m->room != NULL && c->m->room[0] != '\0' ? c->m->room
                       : k->room[0] != '\0'                        ? k->room
                                                                   : NULL;
    bool game = room != NULL && host__game_load(c, room) > 0;
    /* private lines: in the sender's own language (else the room's) */
    {
        I18N_SCOPE(host_player_lang(c->h, c->network, c->m->sender, room));
        help_rules(k->name, game ? &c->set.opt : NULL, &lines);
    }
    send_text(c, &lines);
}

/* The most lines of help that are said in the room itself when the
   sender's private lines may wait (host_msg.private_waits). */
#define HELP_IN_ROOM 3

/*
 * help [command]: the list, or one command's usage, privately. Where
 * private lines may wait unread for an invitation to be accepted (Matrix),
 * help asked in a room is answered there when it is short (help COMMAND);
 * the list's first line is said there with where the rest went, and the
 * rest is sent privately.
 */
void host__verb_help(ctx *c, const cmd *k)
{
    render_lines lines;
    render_init(&lines);
    bool in_room = c->m->room != NULL && c->m->room[0] != '\0';
    /* all of it privately: in the sender's own language (else the room's);
       else the room's, as the part said there */
    bool private = !in_room || !c->m->private_waits;
    {
        I18N_SCOPE(private ? host_player_lang(c->h, c->network, c->m->sender, c->m->room)
                           : i18n_lang());
        render_help(k->name, host__prefix(c), &lines);
    }
    if (private || lines.n == 0) {
        send_text(c, &lines);
        return;
    }
    if (lines.n <= HELP_IN_ROOM) {
        for (int i = 0; i < lines.n; i++)
            host__say_room(c, c->m->room, "%s", lines.line[i]);
        return;
    }
    host__say_room(c, c->m->room, N_("%s \xE2\x80\x94 the rest in our direct room"), lines.line[0]);
    render_lines rest;
    render_init(&rest);
    for (int i = 1; i < lines.n; i++)
        render_add(&rest, "%s", lines.line[i]);
    send_text(c, &rest);
}
