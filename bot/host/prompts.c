/*
 * prompts.c — what a player is sent privately about their turn: the hand
 * of a deal, and the turn prompt (what happened since their last play,
 * their hand, the table, what to do; one line, rendered when sent) to the
 * player to act when they have been quiet for prompt_after or said
 * "prompts on", and the same line as a reminder. Not here: when reminders
 * are due (timers.c), the room's lines (act.c). Prefix host__prompt_.
 */
#include <stdio.h>
#include <string.h>

#include "hctx.h"
#include "hgame.h"
#include "hprefs.h"
#include "hseats.h"

/* Bytes of what a turn prompt tells of the plays since the player's last:
   the newest that fit, so that the prompt stays one line on IRC. */
#define PROMPT_SINCE_MAX 180

/* Queues a private line of kind 'H' (seat's hand) or 'P' (its turn
   prompt, with what happened since its last play), rendered when sent. */
static void queue_hand(ctx *c, int seat, char kind, const char *since)
{
    char head[48];
    if (c->g == NULL || seat < 0 || seat >= c->nseats)
        return;
    host__live_header(c, kind, seat, head, sizeof head);
    host__say_private(c, c->seats[seat].player, 1, "%s%s", head, since != NULL ? since : "");
}

/* Sends seat its hand (or the R4.2 notice) privately. */
void host__prompt_hand(ctx *c, int seat)
{
    queue_hand(c, seat, 'H', NULL);
}

/* Sends the seat to act its turn prompt (kind 'P', or 'R' for a
   reminder), with what the room saw since its last play (rec, or read from
   the store when NULL). */
static void prompt_kind(ctx *c, const recent *rec, char kind)
{
    int seat = c->g != NULL ? host__game_actor(c->g) : -1;
    if (seat < 0)
        return;
    recent own;
    if (rec == NULL) {
        int err = host__recent_load(c, &own);
        if (err != 0) {
            host__failed(c, err);
            return;
        }
        rec = &own;
    }
    char since[PROMPT_SINCE_MAX];
    host__recent_since(rec, seat, since, sizeof since);
    queue_hand(c, seat, kind, since);
}

void host__prompt_with(ctx *c, const recent *rec)
{
    prompt_kind(c, rec, 'P');
}

void host__prompt_actor(ctx *c)
{
    prompt_kind(c, NULL, 'P');
}

void host__prompt_if_quiet(ctx *c)
{
    recent rec;
    int seat = c->g != NULL ? host__game_actor(c->g) : -1;
    if (seat < 0)
        return;
    int err = host__recent_load(c, &rec);
    if (err != 0)
        host__failed(c, err);
    else if (host__prompt_needed(c, &rec, seat))
        prompt_kind(c, &rec, 'P');
}

void host__prompt_remind(ctx *c)
{
    prompt_kind(c, NULL, 'R');
}

/* The kv key of a player's prompts preference on the context's network. */
static void prompts_key(const ctx *c, const char *player, char *key, size_t cap)
{
    if (snprintf(key, cap, "%s\x1f%s", c->network, player) >= (int)cap)
        key[0] = '\0';
}

/* Whether player asked for a prompt at every turn (prompts on). */
static bool wants_every_prompt(const ctx *c, const char *player)
{
    return host__prefs_switch(c->h, c->network, player, CMD_SETTING_PROMPTS);
}

int host__prompt_choose(ctx *c, bool every)
{
    char key[2 * STORE_ID_MAX + 2];
    prompts_key(c, c->m->sender, key, sizeof key);
    if (key[0] == '\0')
        return 1;
    const cmd_setting_row *r = cmd_setting_row_of(CMD_SETTING_PROMPTS);
    int err = store_kv_set(c->h->st, r->stored, key, cmd_switch_stored(r, every));
    if (err != 0)
        host__failed(c, err);
    return err;
}

/*
 * Whether the seat to act gets a private prompt: a player who acted in
 * this game less than prompt_quiet_secs ago is following the room, where
 * the line of the last play says whose turn it is; one who has been quiet
 * longer (or never acted, since the game's start), or who said prompts
 * on, gets one line privately.
 */
bool host__prompt_needed(const ctx *c, const recent *rec, int seat)
{
    int quiet = c->h->cfg.prompt_quiet_secs;
    if (quiet <= 0 || (seat < c->nseats && wants_every_prompt(c, c->seats[seat].player)))
        return true;
    int64_t last = host__recent_acted(rec, seat);
    if (last == 0)
        last = c->row.created;
    return c->now - last >= quiet;
}
