/*
 * irc_chat.c — what people say and do on an IRC network, as libircclient
 * dispatches it (irc_bridge): messages to the host, channels joined, left
 * and refused, colours turned off where a channel strips them, invitations,
 * an operator's request to leave, nick changes that keep seats, CTCP
 * VERSION. The link and the sending are irc.c's.
 *
 * Player ids live in the store's kv table under "irc:NAME": "id:NICK" (a
 * nick folded by the server's case mapping) gives the id of a player known
 * under another nick before (their first nick, carried over by NICK),
 * "nick:ID" the current nick of a player id, for private messages ("" :
 * unreachable, after a quit), "mask:ID" the user@host a nick id is bound
 * to (ircp_mask_of; the first seen with it, or the last while its player
 * sits at no table), and "warned:ID" whose seat a newcomer with that id
 * was told is not theirs. Without a services account, a nick's seat goes
 * only to the user@host it is bound to (ircp_mask_same); someone else
 * with the nick gets an id of their own, "n:NICK~K".
 */
#include "irc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "command.h"
#include "log.h"

#define KV_MAX 256

/* ---- Channels ------------------------------------------------------------ */

irc_chan *irc__chan_find(irc_net *n, const char *name)
{
    for (int i = 0; i < n->nchans; i++)
        if (ircp_casecmp(n->proto, n->chans[i].name, name) == 0)
            return &n->chans[i];
    return NULL;
}

/* Whether the configuration turns colours off in channel name. */
bool irc__colour_off(irc_net *n, const char *name)
{
    for (int i = 0; i < n->c.nno_colour; i++)
        if (ircp_casecmp(n->proto, n->c.no_colour[i], name) == 0)
            return true;
    return false;
}

int irc__chan_add(irc_net *n, const char *name, bool configured)
{
    irc_chan *ch = irc__chan_find(n, name);
    if (ch == NULL) {
        if (n->nchans == IRC_CHANS_MAX || strlen(name) >= IRC_CHAN_MAX || name[0] == '\0' ||
            strpbrk(name, " ,\x07") != NULL)
            return -1;
        ch = &n->chans[n->nchans++];
        memset(ch, 0, sizeof *ch);
        snprintf(ch->name, sizeof ch->name, "%s", name);
        ch->colour = !irc__colour_off(n, name);
    }
    ch->configured |= configured;
    return 0;
}

/* Forgets channel ch (an invited one we left). */
static void chan_remove(irc_net *n, irc_chan *ch)
{
    *ch = n->chans[--n->nchans];
}

void irc__chans_down(irc_net *n)
{
    for (int i = 0; i < n->nchans; i++)
        n->chans[i].joined = n->chans[i].lost = false;
}

/* Saves the channels joined by invitation, so a restart rejoins them. */
static void save_invited(irc_net *n)
{
    char list[IRC_CHANS_MAX * IRC_CHAN_MAX] = "";
    size_t len = 0;
    for (int i = 0; i < n->nchans; i++) {
        if (n->chans[i].configured)
            continue;
        int w = snprintf(list + len, sizeof list - len, "%s%s", len ? "," : "", n->chans[i].name);
        if (w > 0 && (size_t)w < sizeof list - len)
            len += (size_t)w;
    }
    if (store_kv_set(n->env.store, n->scope, "invited", list) != 0)
        log_msg(LOG_ERROR, "%s: cannot save the channels: %s", n->c.name,
                store_errmsg(n->env.store));
}

void irc__chan_forget(irc_net *n, irc_chan *ch)
{
    chan_remove(n, ch);
    save_invited(n);
    irc__outbox_wake(n); /* messages held for it are dropped */
}

void irc__load_invited(irc_net *n)
{
    char list[IRC_CHANS_MAX * IRC_CHAN_MAX];
    if (store_kv_get(n->env.store, n->scope, "invited", list, sizeof list) != 0)
        return;
    for (char *s = list, *e; *s != '\0'; s = *e ? e + 1 : e) {
        e = s + strcspn(s, ",");
        char save = *e;
        *e = '\0';
        (void)irc__chan_add(n, s, false);
        *e = save;
    }
}

void irc__join_all(irc_net *n)
{
    char line[400];
    size_t len = 0;
    for (int i = 0; i <= n->nchans; i++) {
        const char *name = i < n->nchans ? n->chans[i].name : NULL;
        if (len > 0 && (name == NULL || len + strlen(name) + 2 >= sizeof line)) {
            irc__send_line(n, line);
            len = 0;
        }
        if (name != NULL) {
            int w = snprintf(line + len, sizeof line - len, "%s%s", len ? "," : "JOIN ", name);
            if (w > 0 && (size_t)w < sizeof line - len)
                len += (size_t)w;
        }
    }
}

/* ---- Player ids ---------------------------------------------------------- */

static void kv_key(char *key, size_t cap, const char *kind, const char *name)
{
    if (snprintf(key, cap, "%s:%s", kind, name) < 0 && cap > 0)
        key[0] = '\0';
}

/* Sets a kv value unless it is already that. */
static void kv_put(irc_net *n, const char *key, const char *value)
{
    char old[KV_MAX];
    if (store_kv_get(n->env.store, n->scope, key, old, sizeof old) == 0 && strcmp(old, value) == 0)
        return;
    if (store_kv_set(n->env.store, n->scope, key, value) != 0)
        log_msg(LOG_ERROR, "%s: cannot save a nick: %s", n->c.name, store_errmsg(n->env.store));
}

/* Reads kv key into value; false when unset (value then ""). */
static bool kv_read(irc_net *n, const char *key, char *value, size_t cap)
{
    if (store_kv_get(n->env.store, n->scope, key, value, cap) == 0)
        return true;
    value[0] = '\0';
    return false;
}

/*
 * Whether the player id is held by someone under another nick now: its
 * "nick:" entry names a different nick. Then a newcomer who takes the nick
 * the id was made from is somebody else, and must not get that seat.
 */
static bool held_elsewhere(irc_net *n, const char *id, const char *folded_nick)
{
    char key[KV_MAX], holder[KV_MAX], folded[IRCP_NICK_MAX];
    kv_key(key, sizeof key, "nick", id);
    if (!kv_read(n, key, holder, sizeof holder) || holder[0] == '\0' ||
        ircp_fold(n->proto, holder, folded, sizeof folded) != 0)
        return false;
    return strcmp(folded, folded_nick) != 0;
}

/* How a nick id's binding to a person stands for someone seen with a mask. */
typedef enum bound {
    BOUND_NONE,  /* not bound yet (a new id, or one from before bindings) */
    BOUND_SAME,  /* bound to this user@host (ircp_mask_same) */
    BOUND_OTHER, /* bound to another user@host, or the mask is unknown */
} bound;

/* How id's "mask:" entry stands for mask ("" : unknown, never the same). */
static bound binding(irc_net *n, const char *id, const char *mask)
{
    char key[KV_MAX], held[KV_MAX];
    kv_key(key, sizeof key, "mask", id);
    if (!kv_read(n, key, held, sizeof held) || held[0] == '\0')
        return BOUND_NONE;
    return ircp_mask_same(held, mask) ? BOUND_SAME : BOUND_OTHER;
}

/* Binds nick id to the person seen with mask (kept in the store). */
static void bind_to(irc_net *n, const char *id, const char *mask)
{
    char key[KV_MAX];
    kv_key(key, sizeof key, "mask", id);
    kv_put(n, key, mask);
}

/* store_games_of_player's callback: one game is enough. */
static int any_game(void *arg, int64_t game, const char *room)
{
    (void)arg, (void)game, (void)room;
    return 1;
}

/*
 * Whether player id has a seat at a table of this network: a lobby, a
 * game under way or paused. A store failure counts as a seat, so that a
 * seat is never given away on a doubt.
 */
static bool seated(irc_net *n, const char *id)
{
    return store_games_of_player(n->env.store, n->c.name, id, any_game, NULL) != 0;
}

/*
 * The id of someone seen with mask who took the nick (folded) of a player
 * who sits at a table and is bound to another user@host: "n:NICK~K" for
 * the first K already bound to mask; else the first K that nobody online
 * under another nick holds and that is unbound or bound to someone seated
 * nowhere, bound to mask now. The search ends at the first K never used.
 * Writes id (cap bytes); 0, or -1 when no K up to 999 fits.
 */
static int stranger_id(irc_net *n, const char *folded, const char *mask, char *id, size_t cap)
{
    char alt[IRCP_ID_MAX], spare[IRCP_ID_MAX] = "", key[KV_MAX], holder[KV_MAX];
    for (int k = 1; k < 1000; k++) {
        if (snprintf(alt, sizeof alt, "n:%s~%d", folded, k) >= (int)sizeof alt)
            break;
        bound b = binding(n, alt, mask);
        if (b == BOUND_SAME) {
            snprintf(spare, sizeof spare, "%s", alt);
            break;
        }
        kv_key(key, sizeof key, "nick", alt);
        bool used = kv_read(n, key, holder, sizeof holder) || b != BOUND_NONE;
        if (spare[0] == '\0' && !held_elsewhere(n, alt, folded) &&
            (b == BOUND_NONE || !seated(n, alt)))
            snprintf(spare, sizeof spare, "%s", alt);
        if (!used)
            break;
    }
    if (spare[0] == '\0' || strlen(spare) >= cap)
        return -1;
    bind_to(n, spare, mask);
    memcpy(id, spare, strlen(spare) + 1);
    return 0;
}

/*
 * Binds nick id (made from the folded nick) to the person seen with mask,
 * or keeps its seat from them. An unbound id is bound to mask (when
 * known); one bound to this person stays; one bound to another user@host
 * whose player sits at no table is bound to mask instead (a nick is not
 * owned for ever). Otherwise the seat is kept: id becomes the newcomer's
 * own (stranger_id), held (held_cap bytes) names the id kept from them,
 * and that id's nick is forgotten, so that its private lines never reach
 * the newcomer. 0, or -1 when the newcomer can have no id (no mask).
 */
static int keep_seat(irc_net *n, const char *nick, const char *folded, const char *mask, char *id,
                     size_t cap, char *held, size_t held_cap)
{
    char key[KV_MAX];
    switch (binding(n, id, mask)) {
    case BOUND_SAME:
        return 0;
    case BOUND_NONE:
        if (mask[0] != '\0')
            bind_to(n, id, mask);
        return 0;
    case BOUND_OTHER:
        break;
    }
    if (mask[0] != '\0' && !seated(n, id)) {
        log_msg(LOG_INFO, "%s: %s (%s) takes over the id %s, whose player sits at no table",
                n->c.name, nick, mask, id);
        bind_to(n, id, mask);
        return 0;
    }
    kv_key(key, sizeof key, "nick", id);
    kv_put(n, key, "");
    snprintf(held, held_cap, "%s", id);
    if (mask[0] == '\0' || stranger_id(n, folded, mask, id, cap) != 0) {
        log_msg(LOG_WARN, "%s: ignoring %s: the nick's player sits at a table, and this is %s",
                n->c.name, nick, mask[0] != '\0' ? "someone else" : "someone without a user@host");
        return -1;
    }
    log_msg(LOG_INFO, "%s: %s (%s) is not the player %s, who sits at a table: known as %s",
            n->c.name, nick, mask, held, id);
    return 0;
}

/*
 * The player id of nick seen with mask (its user@host, "" unknown): its
 * account when known; else the id its nick carried over by NICK; else
 * "n:" and the folded nick, unless that id follows someone who changed
 * nick away from it and is still around (then "n:NICK~K", a new player).
 * A carried id bound to someone else gives way to the nick's own id
 * bound to this person. A nick id then goes through keep_seat, which
 * sets held (held_cap bytes, else "") when it kept a seat from this
 * person. Remembers the nick as the id's current one. 0, or -1 for a nick
 * that cannot be an id.
 */
static int player_of(irc_net *n, const char *nick, const char *mask, char *id, size_t cap,
                     char *held, size_t held_cap)
{
    char folded[IRCP_NICK_MAX], key[KV_MAX], mapped[KV_MAX];
    held[0] = '\0';
    if (ircp_fold(n->proto, nick, folded, sizeof folded) != 0 ||
        ircp_player_id(n->proto, nick, id, cap) != 0)
        return -1;
    if (strncmp(id, "n:", 2) == 0) {
        kv_key(key, sizeof key, "id", folded);
        if (kv_read(n, key, mapped, sizeof mapped) && mapped[0] != '\0' && strlen(mapped) < cap) {
            if (binding(n, mapped, mask) != BOUND_OTHER || binding(n, id, mask) != BOUND_SAME)
                memcpy(id, mapped, strlen(mapped) + 1);
            else
                kv_put(n, key, ""); /* this person's own id, not the one carried here */
        } else if (held_elsewhere(n, id, folded)) {
            for (int k = 1; k < 1000; k++) {
                if (snprintf(id, cap, "n:%s~%d", folded, k) >= (int)cap)
                    return -1;
                char holder[KV_MAX], nkey[KV_MAX];
                kv_key(nkey, sizeof nkey, "nick", id);
                if (!kv_read(n, nkey, holder, sizeof holder) || holder[0] == '\0')
                    break;
            }
            kv_put(n, key, id);
            log_msg(LOG_INFO,
                    "%s: %s is a new player (the seat of that nick follows someone "
                    "who changed nick)",
                    n->c.name, nick);
        }
        if (keep_seat(n, nick, folded, mask, id, cap, held, held_cap) != 0)
            return -1;
    }
    kv_key(key, sizeof key, "nick", id);
    kv_put(n, key, nick);
    return 0;
}

/*
 * The id nick seen with mask has now, looked up and never made: its
 * account; the id its nick carried, unless bound to someone else; the
 * nick's own id, unless held under another nick or bound to someone
 * else; else the "n:NICK~K" bound to mask. 0, or -1 when there is none
 * (a stranger who has not spoken yet).
 */
static int known_player(irc_net *n, const char *nick, const char *mask, char *id, size_t cap)
{
    char folded[IRCP_NICK_MAX], key[KV_MAX], mapped[KV_MAX];
    if (ircp_fold(n->proto, nick, folded, sizeof folded) != 0 ||
        ircp_player_id(n->proto, nick, id, cap) != 0)
        return -1;
    if (strncmp(id, "n:", 2) != 0)
        return 0;
    kv_key(key, sizeof key, "id", folded);
    if (kv_read(n, key, mapped, sizeof mapped) && mapped[0] != '\0' && strlen(mapped) < cap &&
        binding(n, mapped, mask) != BOUND_OTHER) {
        memcpy(id, mapped, strlen(mapped) + 1);
        return 0;
    }
    if (!held_elsewhere(n, id, folded) && binding(n, id, mask) != BOUND_OTHER)
        return 0;
    for (int k = 1; k < 1000; k++) {
        char alt[IRCP_ID_MAX], nkey[KV_MAX], holder[KV_MAX];
        if (snprintf(alt, sizeof alt, "n:%s~%d", folded, k) >= (int)sizeof alt)
            return -1;
        bound b = binding(n, alt, mask);
        if (b == BOUND_SAME && strlen(alt) < cap) {
            memcpy(id, alt, strlen(alt) + 1);
            return 0;
        }
        kv_key(nkey, sizeof nkey, "nick", alt);
        if (b == BOUND_NONE && !kv_read(n, nkey, holder, sizeof holder))
            return -1; /* never used: none further */
    }
    return -1;
}

int irc__private_target(irc_net *n, const char *player, char *nick, size_t cap)
{
    char key[KV_MAX], value[KV_MAX];
    kv_key(key, sizeof key, "nick", player);
    if (kv_read(n, key, value, sizeof value)) {
        /* "" : the player quit under a nick that is no longer theirs. */
        if (value[0] == '\0' || strlen(value) >= cap)
            return -1;
        memcpy(nick, value, strlen(value) + 1);
        return 0;
    }
    if (strncmp(player, "n:", 2) == 0 && strlen(player + 2) < cap) {
        snprintf(nick, cap, "%s", player + 2);
        return 0;
    }
    return -1;
}

/*
 * Someone quit (nick, seen with mask): a nick that carried another
 * player's id lets go of it, and the quitter's id is unreachable until
 * they come back (a JOIN or a line of theirs from their user@host), so
 * that whoever takes the nick meanwhile gets none of their private lines.
 * The seat stays. An account's id keeps its nick.
 */
static void player_quit(irc_net *n, const char *nick, const char *mask)
{
    char folded[IRCP_NICK_MAX], key[KV_MAX], mapped[KV_MAX], id[IRCP_ID_MAX];
    if (ircp_fold(n->proto, nick, folded, sizeof folded) != 0)
        return;
    bool known = known_player(n, nick, mask, id, sizeof id) == 0 && strncmp(id, "n:", 2) == 0;
    kv_key(key, sizeof key, "id", folded);
    if (kv_read(n, key, mapped, sizeof mapped) && mapped[0] != '\0' &&
        (!known || strcmp(mapped, id) == 0))
        kv_put(n, key, "");
    if (!known)
        return;
    kv_key(key, sizeof key, "nick", id);
    kv_put(n, key, "");
}

/* Another user's nick changed (old, seen with mask): the player id
   follows, and seats keep it. */
static void nick_changed(irc_net *n, const char *old, const char *mask, const char *new_nick)
{
    char id[IRCP_ID_MAX], key[KV_MAX], fold_old[IRCP_NICK_MAX], fold_new[IRCP_NICK_MAX];
    char held[IRCP_ID_MAX];
    if (ircp_fold(n->proto, old, fold_old, sizeof fold_old) != 0 ||
        ircp_fold(n->proto, new_nick, fold_new, sizeof fold_new) != 0)
        return;
    if (ircp_account_of(n->proto, new_nick) != NULL) {
        if (ircp_player_id(n->proto, new_nick, id, sizeof id) != 0)
            return;
    } else {
        if (player_of(n, old, mask, id, sizeof id, held, sizeof held) != 0)
            return;
        kv_key(key, sizeof key, "id", fold_old);
        kv_put(n, key, "");
        kv_key(key, sizeof key, "id", fold_new);
        bool own = strncmp(id, "n:", 2) == 0 && strcmp(id + 2, fold_new) == 0;
        kv_put(n, key, own ? "" : id);
    }
    kv_key(key, sizeof key, "nick", id);
    kv_put(n, key, new_nick);
    if (host_rename(n->env.host, n->c.name, id, new_nick) != 0)
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
}

/* ---- Messages -------------------------------------------------------------- */

/* Queues a reply of the adapter's own (not the host's) in the outbox,
   addressed to nick in a channel as the host's replies are. */
static void reply(irc_net *n, const char *room, const char *player, const char *nick,
                  const char *text)
{
    store_msg_kind kind = room != NULL ? STORE_MSG_ROOM : STORE_MSG_PRIVATE;
    char line[512];
    snprintf(line, sizeof line, "%s%s%s", room != NULL ? nick : "", room != NULL ? ": " : "", text);
    if (store_outbox_add(n->env.store, n->c.name, room != NULL ? room : player, kind, 0, line,
                         (int64_t)time(NULL), NULL) != 0)
        log_msg(LOG_ERROR, "%s: cannot queue a reply: %s", n->c.name, store_errmsg(n->env.store));
}

/*
 * Tells nick (player id) privately, once per pair of ids ("warned:ID" in
 * the store), that the nick is a seated player's (held) whom the bot does
 * not take them for, and what to do about it.
 */
static void warn_stranger(irc_net *n, const char *id, const char *nick, const char *held)
{
    char key[KV_MAX], told[KV_MAX], text[400];
    kv_key(key, sizeof key, "warned", id);
    if (kv_read(n, key, told, sizeof told) && strcmp(told, held) == 0)
        return;
    kv_put(n, key, held);
    snprintf(text, sizeof text,
             "The nick %s belongs to a player seated at a table here, who used it from another "
             "connection (user@host), so I do not take you for them: you have no seat, hand or "
             "say in their games. If you are that player on a new connection, ask your table for "
             "a substitute; identifying with services (NickServ) keeps your seats by account.",
             nick);
    reply(n, NULL, id, nick, text);
}

/*
 * An operator's "part" (in a channel: PREFIX part; privately: part
 * #channel): leaves the channel and forgets it until configured or invited
 * again. Returns true when text was such a request (handled here).
 */
static bool part_request(irc_net *n, irc_chan *here, const char *id, const char *nick,
                         const char *text)
{
    const char *arg = cmd_part_request(text, here != NULL, n->env.cfg->bot.prefix);
    if (arg == NULL)
        return false;
    irc_chan *ch = *arg != '\0' ? irc__chan_find(n, arg) : here;
    const char *room = here != NULL ? here->name : NULL;
    if (!irc_is_owner(n->env.cfg, n->c.name, id)) {
        reply(n, room, id, nick, "Only an operator of the bot can make it leave a channel.");
        return true;
    }
    if (ch == NULL) {
        reply(n, room, id, nick, "Say which channel: part #channel");
        return true;
    }
    char line[IRCP_OUT_MAX + 1];
    snprintf(line, sizeof line, "PART %s :asked by %s", ch->name, nick);
    log_msg(LOG_INFO, "%s: leaving %s, asked by %s", n->c.name, ch->name, nick);
    irc__send_line(n, line);
    irc__chan_forget(n, ch);
    return true;
}

/* A PRIVMSG to a channel we are in or to us: a line for the host. */
static void on_message(irc_net *n, const irc_bridge_event *ev)
{
    const char *target = ev->params[0], *text = ev->params[1];
    if (ev->count < 2 || ev->nick[0] == '\0' ||
        ircp_casecmp(n->proto, ev->nick, ircp_nick(n->proto)) == 0)
        return;
    irc_chan *ch = NULL;
    if (ircp_is_channel(n->proto, target)) {
        ch = irc__chan_find(n, target);
        if (ch == NULL || !ch->joined)
            return;
    }
    char id[IRCP_ID_MAX], mask[IRCP_MASK_MAX], held[IRCP_ID_MAX];
    (void)ircp_mask_of(ev->origin, mask, sizeof mask);
    if (player_of(n, ev->nick, mask, id, sizeof id, held, sizeof held) != 0)
        return;
    if (held[0] != '\0')
        warn_stranger(n, id, ev->nick, held);
    if (part_request(n, ch, id, ev->nick, text))
        return;
    host_msg m = {n->c.name, ch != NULL ? ch->name : NULL,
                  id,        ev->nick,
                  text,      strlen(text),
                  NULL,      false,
                  false,     NULL};
    if (host_handle(n->env.host, &m, (int64_t)time(NULL)) != 0)
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
}

/* A CTCP request: VERSION is answered (rate-limited), the rest ignored. */
static void on_ctcp(irc_net *n, const irc_bridge_event *ev)
{
    char text[IRC_BRIDGE_LINE_MAX + 3], out[IRC_OUT_VERSION_MAX + 16];
    if (ev->count < 1 || ev->nick[0] == '\0')
        return;
    snprintf(text, sizeof text, "\x01%s\x01", ev->params[0]);
    int v =
        irc_out_ctcp_decide(&n->ctcp, text, loop_now(n->env.loop), n->env.version, out, sizeof out);
    if (v == IRC_OUT_CTCP_REPLY)
        (void)irc_out_push(&n->q, ev->nick, IRC_OUT_NOTICE, 0, 0, out, -1);
}

/*
 * Someone else's JOIN: a player coming back (a reconnect, a netsplit
 * healed) is reachable again under this nick, and if it is their turn in
 * that channel's game they get their turn prompt again. The player's id
 * is looked up, never made (known_player): a stranger's JOIN, and one
 * who took a seated player's nick from another user@host, write nothing.
 */
static void on_join(irc_net *n, const irc_bridge_event *ev)
{
    char id[IRCP_ID_MAX], mask[IRCP_MASK_MAX], key[KV_MAX];
    (void)ircp_mask_of(ev->origin, mask, sizeof mask);
    if (ev->nick[0] == '\0' || known_player(n, ev->nick, mask, id, sizeof id) != 0)
        return;
    if (strncmp(id, "n:", 2) == 0) {
        kv_key(key, sizeof key, "nick", id);
        kv_put(n, key, ev->nick);
    }
    if (host_returned(n->env.host, n->c.name, ev->params[0], id, (int64_t)time(NULL)) != 0)
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
}

/* Our own JOIN: the channel as the server spells it, and our host. */
static void on_own_join(irc_net *n, const irc_bridge_event *ev)
{
    const char *name = ev->params[0];
    if (irc__chan_find(n, name) == NULL && irc__chan_add(n, name, false) != 0)
        return;
    irc_chan *ch = irc__chan_find(n, name);
    if (ch == NULL)
        return;
    snprintf(ch->name, sizeof ch->name, "%s", name);
    ch->joined = true;
    ch->lost = false;
    irc__outbox_wake(n); /* its held messages may go now */
    log_msg(LOG_INFO, "%s: joined %s", n->c.name, ch->name);
    const char *user = strchr(ev->origin, '!'), *at = strchr(ev->origin, '@');
    if (user != NULL && at != NULL && at > user)
        (void)irc_out_set_prefix(&n->q, strlen(ircp_nick(n->proto)), (size_t)(at - user - 1),
                                 strlen(at + 1));
    char line[IRCP_OUT_MAX + 1];
    snprintf(line, sizeof line, "MODE %s", ch->name); /* 324 says whether it strips colours */
    irc__send_line(n, line);
}

/* Channel modes: +c strips or blocks colours on the networks we know. */
static void modes_seen(irc_net *n, const char *chan, const char *modes)
{
    irc_chan *ch = irc__chan_find(n, chan);
    if (ch == NULL)
        return;
    bool plus = true;
    for (const char *m = modes; *m != '\0' && *m != ' '; m++) {
        if (*m == '+' || *m == '-')
            plus = *m == '+';
        else if (*m == 'c') {
            bool colour = !plus && !irc__colour_off(n, ch->name);
            if (colour != ch->colour)
                log_msg(LOG_INFO, "%s: colours %s in %s (mode %cc)", n->c.name,
                        colour ? "back on" : "off", ch->name, plus ? '+' : '-');
            ch->colour = colour;
        }
    }
}

/* Replies of the server that the adapter acts on. */
static void on_numeric(irc_net *n, const irc_bridge_event *ev)
{
    const char *what = ev->count > 1 ? ev->params[1] : "";
    const char *reason = ev->count > 2 ? ev->params[ev->count - 1] : "";
    irc_chan *ch = irc__chan_find(n, what);
    switch (ev->code) {
    case 324: /* RPL_CHANNELMODEIS */
        if (ev->count > 2)
            modes_seen(n, what, ev->params[2]);
        break;
    case 404: /* ERR_CANNOTSENDTOCHAN */
        if (ch != NULL && ch->colour && (strstr(reason, "olo") != NULL)) {
            ch->colour = false;
            log_msg(LOG_INFO, "%s: colours off in %s (the server refused a coloured line)",
                    n->c.name, ch->name);
        }
        log_msg(LOG_WARN, "%s: cannot send to %s: %s", n->c.name, what, reason);
        break;
    case 707: /* ERR_TARGCHANGE */
        if (irc_out_requeue(&n->q, what, loop_now(n->env.loop), IRC_REQUEUE_MS) == 0)
            log_msg(LOG_INFO, "%s: the server holds messages to %s back; trying again in %d s",
                    n->c.name, what, IRC_REQUEUE_MS / 1000);
        break;
    case 403: /* ERR_NOSUCHCHANNEL */
    case 405: /* ERR_TOOMANYCHANNELS */
    case 471: /* ERR_CHANNELISFULL */
    case 473: /* ERR_INVITEONLYCHAN */
    case 474: /* ERR_BANNEDFROMCHAN */
    case 475: /* ERR_BADCHANNELKEY */
    case 477: /* ERR_NEEDREGGEDNICK */
        if (ch != NULL && !ch->joined) {
            ch->lost = true;
            log_msg(LOG_WARN, "%s: cannot join %s: %s", n->c.name, what, reason);
            irc__outbox_wake(n); /* its held messages are dropped */
        }
        break;
    case 442: /* ERR_NOTONCHANNEL */
        if (ch != NULL)
            ch->joined = false;
        break;
    default:
        break;
    }
}

bool irc__wants_bridge(const ircp_msg *m)
{
    static const char *const words[] = {"PRIVMSG", "NOTICE", "JOIN",   "PART", "KICK",
                                        "QUIT",    "NICK",   "INVITE", "MODE"};
    static const char *const codes[] = {"324", "403", "404", "405", "442", "471",
                                        "473", "474", "475", "477", "707"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(m->command, words[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(m->command, codes[i]) == 0)
            return true;
    return false;
}

void irc__on_event(void *arg, const irc_bridge_event *ev)
{
    irc_net *n = arg;
    bool me = ev->nick[0] != '\0' && ircp_casecmp(n->proto, ev->nick, ircp_nick(n->proto)) == 0;
    const char *p0 = ev->count > 0 ? ev->params[0] : "";
    irc_chan *ch = irc__chan_find(n, p0);
    char mask[IRCP_MASK_MAX]; /* the sender's user@host, "" when none */
    (void)ircp_mask_of(ev->origin, mask, sizeof mask);
    switch (ev->kind) {
    case IRC_BRIDGE_MESSAGE:
        on_message(n, ev);
        break;
    case IRC_BRIDGE_CTCP:
        on_ctcp(n, ev);
        break;
    case IRC_BRIDGE_NOTICE: /* never answered, whoever sends it */
    case IRC_BRIDGE_ACTION:
        break;
    case IRC_BRIDGE_JOIN:
        if (me && ev->count > 0)
            on_own_join(n, ev);
        else if (ev->count > 0)
            on_join(n, ev);
        break;
    case IRC_BRIDGE_PART:
        if (me && ch != NULL)
            ch->joined = false;
        break;
    case IRC_BRIDGE_KICK:
        if (ch != NULL && ev->count > 1 &&
            ircp_casecmp(n->proto, ev->params[1], ircp_nick(n->proto)) == 0) {
            log_msg(LOG_WARN, "%s: kicked from %s by %s", n->c.name, ch->name, ev->nick);
            ch->joined = false;
            ch->lost = true;
            irc__outbox_wake(n); /* its held messages are dropped */
        }
        break;
    case IRC_BRIDGE_NICK:
        if (!me && ev->count > 0 && ev->nick[0] != '\0')
            nick_changed(n, ev->nick, mask, p0);
        break;
    case IRC_BRIDGE_INVITE:
        if (ev->count > 1 && n->c.join_on_invite && irc__chan_add(n, ev->params[1], false) == 0) {
            char line[IRCP_OUT_MAX + 1];
            log_msg(LOG_INFO, "%s: invited to %s by %s", n->c.name, ev->params[1], ev->nick);
            snprintf(line, sizeof line, "JOIN %s", ev->params[1]);
            irc__send_line(n, line);
            save_invited(n);
        } else if (ev->count > 1) {
            log_msg(LOG_INFO, "%s: invited to %s by %s (%s)", n->c.name, ev->params[1], ev->nick,
                    n->c.join_on_invite ? "not joined: a bad channel name, or too many channels"
                                        : "join_on_invite is off");
        }
        break;
    case IRC_BRIDGE_NUMERIC:
        on_numeric(n, ev);
        break;
    case IRC_BRIDGE_OTHER:
        if (strcmp(ev->name, "MODE") == 0 && ev->count > 1)
            modes_seen(n, p0, ev->params[1]);
        break;
    case IRC_BRIDGE_QUIT: /* the seat stays; the game waits */
        if (!me && ev->nick[0] != '\0')
            player_quit(n, ev->nick, mask);
        break;
    }
}
