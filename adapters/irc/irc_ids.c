/*
 * irc_ids.c — who is who on an IRC network for the host: the stable
 * player id of a nick, the nick to write to for a player id, and the seat
 * of a player without a services account kept from whoever takes their
 * nick. Not here: the account map (irc_proto), what people say (irc_chat).
 *
 * Player ids live in the store's kv table under "irc:NAME": "id:NICK" (a
 * nick folded by the server's case mapping) gives the id of a player known
 * under another nick before (their first nick, carried over by NICK),
 * "nick:ID" the current nick of a player id, for private messages ("" :
 * unreachable, from a quit until they come back), "mask:ID" the user@host
 * a nick id is bound to (ircp_mask_of; the first seen with it, or the last
 * while its player sits at no table), and "warned:ID" whose seat a
 * newcomer with that id was told is not theirs. Without a services
 * account, a nick's seat goes only to the user@host it is bound to
 * (ircp_mask_same); someone else with the nick gets an id of their own,
 * "n:NICK~K". With one, the account decides ("a:ACCOUNT"). A private
 * line to a bound nick id goes only once its player has been seen from
 * their user@host on this connection (irc_net.seen, in memory).
 */
#include "irc_int.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "log.h"
#include "strmap.h"

#define KV_MAX 256

/* The kv key "KIND:NAME" into key (cap bytes; "" if it cannot be written). */
static void kv_key(char *key, size_t cap, const char *kind, const char *name)
{
    if (snprintf(key, cap, "%s:%s", kind, name) < 0 && cap > 0)
        key[0] = '\0';
}

/* Sets a kv value unless it is already that; player_of's remembered
   answers are then stale (a write that fails too: it may have half
   happened in a transaction later undone). */
static void kv_put(irc_net *n, const char *key, const char *value)
{
    char old[KV_MAX];
    if (host_kv_get(n->env.host, n->scope, key, old, sizeof old) == 0 && strcmp(old, value) == 0)
        return;
    n->ids_gen++;
    if (host_kv_set(n->env.host, n->scope, key, value) != 0)
        log_msg(LOG_ERROR, "%s: cannot save a nick: %s", n->c.name, host_errmsg(n->env.host));
}

/* Reads kv key into value; false when unset (value then ""). */
static bool kv_read(irc_net *n, const char *key, char *value, size_t cap)
{
    int rc = host_kv_get(n->env.host, n->scope, key, value, cap);
    if (rc == 0)
        return true;
    if (rc < 0)
        n->ids_seated++; /* a read that failed: an answer made without it is not remembered */
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

/* host_player_rooms's callback: one game is enough. */
static int any_game(void *arg, const char *room)
{
    (void)arg, (void)room;
    return 1;
}

/*
 * Whether player id has a seat at a table of this network: a lobby, a
 * game under way or paused. A store failure counts as a seat, so that a
 * seat is never given away on a doubt.
 */
static bool seated(irc_net *n, const char *id)
{
    n->ids_seated++; /* an answer that depends on the tables is not remembered */
    return host_player_rooms(n->env.host, n->c.name, id, any_game, NULL) != 0;
}

/* ---- Seen on this connection ---------------------------------------------- */

/* The entry of id in the seen set, or NULL. */
static irc_seen *seen_find(irc_net *n, const char *id)
{
    for (int i = 0; i < IRC_SEEN_MAX; i++)
        if (n->seen[i].used != 0 && strcmp(n->seen[i].id, id) == 0)
            return &n->seen[i];
    return NULL;
}

/*
 * Player id (an "n:" id bound to a user@host) was seen from it under
 * nick on this connection: their private lines may go to nick, and those
 * waiting are offered again. When the set is full the least recently seen
 * player goes (their lines wait until they are seen again).
 */
static void seen_mark(irc_net *n, const char *id, const char *nick)
{
    char folded[IRCP_NICK_MAX];
    if (strlen(id) >= IRCP_ID_MAX || ircp_fold(n->proto, nick, folded, sizeof folded) != 0)
        return;
    irc_seen *e = seen_find(n, id);
    bool fresh = e == NULL || strcmp(e->nick, folded) != 0;
    if (e == NULL) {
        e = &n->seen[0];
        for (int i = 0; i < IRC_SEEN_MAX && e->used != 0; i++)
            if (n->seen[i].used == 0 || n->seen[i].used < e->used)
                e = &n->seen[i];
        memcpy(e->id, id, strlen(id) + 1);
    }
    memcpy(e->nick, folded, strlen(folded) + 1);
    e->used = ++n->seen_clock;
    if (fresh)
        irc__outbox_wake(n);
}

/* Player id is not (or no longer) known to hold their nick here. */
static void seen_forget(irc_net *n, const char *id)
{
    irc_seen *e = seen_find(n, id);
    if (e != NULL)
        memset(e, 0, sizeof *e);
}

void irc__seen_reset(irc_net *n)
{
    memset(n->seen, 0, sizeof n->seen);
    n->seen_clock = 0;
}

/* ---- Player ids -------------------------------------------------------- */

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
    seen_forget(n, id);
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
        if (mask[0] != '\0')
            seen_mark(n, id, nick); /* bound to this mask now */
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

/*
 * The nick to write to for player: its "nick:" entry ("" : unreachable,
 * -1), else for an id never seen the nick it was made from. 0 or -1.
 */
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
 * irc__private_target, held back (1) for an "n:" id bound to a user@host
 * until its player is seen from it under that nick on this connection
 * (seen_mark), so that after our own reconnect, when quits went unseen,
 * a newcomer holding the nick gets nothing. An id without a binding goes
 * as before.
 */
int irc__private_ready(irc_net *n, const char *player, char *nick, size_t cap)
{
    char key[KV_MAX], bound_to[KV_MAX], folded[IRCP_NICK_MAX];
    if (irc__private_target(n, player, nick, cap) != 0)
        return -1;
    kv_key(key, sizeof key, "mask", player);
    if (strncmp(player, "n:", 2) != 0 || !kv_read(n, key, bound_to, sizeof bound_to) ||
        bound_to[0] == '\0')
        return 0;
    const irc_seen *e = seen_find(n, player);
    if (e != NULL && ircp_fold(n->proto, nick, folded, sizeof folded) == 0 &&
        strcmp(e->nick, folded) == 0)
        return 0;
    return 1;
}

/*
 * Someone quit (nick, seen with mask): a nick that carried another
 * player's id lets go of it, and the quitter's id is unreachable until
 * they come back (a JOIN or a line of theirs from their user@host), so
 * that whoever takes the nick meanwhile gets none of their private lines.
 * The seat stays. An account's id keeps its nick.
 */
void irc__player_quit(irc_net *n, const char *nick, const char *mask)
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
    seen_forget(n, id);
}

static void warn_stranger(irc_net *n, const char *id, const char *nick, const char *held);

/*
 * Another user's nick changed (old, seen with mask): the player id
 * follows, and seats keep it; except that someone who takes back their
 * own nick, bound to them (a reconnect as "bob_" while the dead
 * connection held "bob", then NICK bob), is their own id again when the
 * id of old sits at no table. Someone else who takes the nick of a
 * player seated at a table keeps their own id and is told why, as a new
 * connection on that nick is (warn_stranger).
 */
void irc__nick_changed(irc_net *n, const char *old, const char *mask, const char *new_nick)
{
    char id[IRCP_ID_MAX], key[KV_MAX], fold_old[IRCP_NICK_MAX], fold_new[IRCP_NICK_MAX];
    char held[IRCP_ID_MAX], own[IRCP_ID_MAX];
    if (ircp_fold(n->proto, old, fold_old, sizeof fold_old) != 0 ||
        ircp_fold(n->proto, new_nick, fold_new, sizeof fold_new) != 0)
        return;
    if (ircp_account_of(n->proto, new_nick) != NULL) {
        if (ircp_player_id(n->proto, new_nick, id, sizeof id) != 0)
            return;
    } else {
        if (player_of(n, old, mask, id, sizeof id, held, sizeof held) != 0)
            return;
        if (snprintf(own, sizeof own, "n:%s", fold_new) >= (int)sizeof own)
            own[0] = '\0'; /* cannot be: a folded nick is shorter than an id */
        bound b = own[0] != '\0' && strcmp(own, id) != 0 ? binding(n, own, mask) : BOUND_NONE;
        if (b == BOUND_SAME && !seated(n, id)) {
            kv_key(key, sizeof key, "nick", id);
            kv_put(n, key, ""); /* old's id is nobody's now */
            memcpy(id, own, strlen(own) + 1);
        } else if (b == BOUND_OTHER && seated(n, own)) {
            log_msg(LOG_INFO,
                    "%s: %s (%s) took the nick of the player %s, who sits at a "
                    "table: still known as %s",
                    n->c.name, new_nick, mask, own, id);
            warn_stranger(n, id, new_nick, own);
        }
        kv_key(key, sizeof key, "id", fold_old);
        kv_put(n, key, "");
        kv_key(key, sizeof key, "id", fold_new);
        kv_put(n, key, strcmp(id, own) == 0 ? "" : id); /* own id: no mapping */
    }
    kv_key(key, sizeof key, "nick", id);
    kv_put(n, key, new_nick);
    if (strncmp(id, "n:", 2) == 0 && binding(n, id, mask) == BOUND_SAME)
        seen_mark(n, id, new_nick);
    if (host_rename(n->env.host, n->c.name, id, new_nick) != 0)
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
}

/*
 * Tells nick (player id) privately, once per pair of ids ("warned:ID"),
 * that the nick is a seated player's (held) whom the bot does not take
 * them for, and what to do about it.
 */
static void warn_stranger(irc_net *n, const char *id, const char *nick, const char *held)
{
    char key[KV_MAX], told[KV_MAX], text[400];
    kv_key(key, sizeof key, "warned", id);
    if (kv_read(n, key, told, sizeof told) && strcmp(told, held) == 0)
        return;
    kv_put(n, key, held);
    pz_lang before = i18n_use(host_reader_lang(n->env.host, n->c.name, id, MSG_PRIVATE));
    snprintf(text, sizeof text,
             _("The nick %s belongs to a player seated at a table here, who used it from another "
               "connection (user@host), so I do not take you for them: you have no seat, hand or "
               "say in their games. If you are that player on a new connection, ask your table "
               "for a substitute; identifying with services (NickServ) keeps your seats by "
               "account."),
             nick);
    i18n_use(before);
    host_say_line l = {.network = n->c.name, .target = id, .kind = MSG_PRIVATE, .text = text};
    if (host_say(n->env.host, &l, (int64_t)time(NULL)) != 1)
        log_msg(LOG_ERROR, "%s: cannot queue a reply: %s", n->c.name, host_errmsg(n->env.host));
}

/*
 * player_of, and the newcomer kept from a seat told why (warn_stranger).
 * player_of's writes (a first contact's nick and binding) are held into
 * one transaction without an fsync of its own (host_kv_hold): on the way
 * to the reply, a first contact costs no more fsyncs than the command it
 * brings, whose commit, if it writes, makes the binding safe from a power
 * cut with it.
 */
/* The memo slot of a folded nick. */
static irc_id_memo *memo_slot(irc_net *n, const char *folded)
{
    return &n->id_memo[strmap_hash(folded) % IRC_ID_MEMO];
}

/*
 * player_of from memory: the answer it gave nick (folded, its
 * ircp_player_id base) seen with mask, if nothing it read has changed
 * since — no id, binding or nick written on this network (ids_gen), the
 * same account or none (base) — and it wrote nothing, kept no seat and
 * asked nothing of the tables then. What player_of does in memory besides
 * (seen_mark) is done again. true with id; false: ask player_of.
 */
static bool memo_get(irc_net *n, const char *nick, const char *folded, const char *base,
                     const char *mask, char *id, size_t cap)
{
    const irc_id_memo *m = memo_slot(n, folded);
    if (m->gen != n->ids_gen || strcmp(m->nick, folded) != 0 || strcmp(m->mask, mask) != 0 ||
        strcmp(m->base, base) != 0 || strlen(m->id) >= cap)
        return false;
    memcpy(id, m->id, strlen(m->id) + 1);
    if (strncmp(base, "n:", 2) == 0 && mask[0] != '\0')
        seen_mark(n, id, nick);
    return true;
}

/* Remembers player_of's answer id for folded (with base) seen with mask. */
static void memo_put(irc_net *n, const char *folded, const char *base, const char *mask,
                     const char *id)
{
    if (strlen(mask) >= IRCP_MASK_MAX || strlen(id) >= IRCP_ID_MAX)
        return;
    irc_id_memo *m = memo_slot(n, folded);
    m->gen = n->ids_gen;
    memcpy(m->nick, folded, strlen(folded) + 1);
    memcpy(m->mask, mask, strlen(mask) + 1);
    memcpy(m->base, base, strlen(base) + 1);
    memcpy(m->id, id, strlen(id) + 1);
}

int irc__player_of(irc_net *n, const char *nick, const char *mask, char *id, size_t cap)
{
    char held[IRCP_ID_MAX];
    char folded[IRCP_NICK_MAX], base[IRCP_ID_MAX];
    bool memo = ircp_fold(n->proto, nick, folded, sizeof folded) == 0 &&
                ircp_player_id(n->proto, nick, base, sizeof base) == 0;
    if (n->ids_gen == 0)
        n->ids_gen = 1; /* 0 marks a free memo slot */
    if (memo && memo_get(n, nick, folded, base, mask, id, cap))
        return 0;
    uint64_t gen = n->ids_gen, asked = n->ids_seated;
    host_kv_hold(n->env.host);
    int rc = player_of(n, nick, mask, id, cap, held, sizeof held);
    if (host_kv_release(n->env.host) != 0) {
        n->ids_gen++; /* the writes held may be lost */
        log_msg(LOG_ERROR, "%s: cannot save a nick: %s", n->c.name, host_errmsg(n->env.host));
    }
    if (memo && rc == 0 && held[0] == '\0' && gen == n->ids_gen && asked == n->ids_seated)
        memo_put(n, folded, base, mask, id);
    if (rc != 0)
        return -1;
    if (held[0] != '\0')
        warn_stranger(n, id, nick, held);
    return 0;
}

/*
 * nick seen with mask in a channel: the nick's own id, if bound to
 * someone else and written to under this nick, is not any more; then the
 * id they have (known_player), if seen before, is written to under this
 * nick again. 0 with that id, or -1 when they have none yet.
 */
int irc__player_seen(irc_net *n, const char *nick, const char *mask, char *id, size_t cap)
{
    char folded[IRCP_NICK_MAX], key[KV_MAX], holder[KV_MAX], fold_holder[IRCP_NICK_MAX];
    char own[IRCP_ID_MAX];
    if (ircp_account_of(n->proto, nick) == NULL && mask[0] != '\0' &&
        ircp_fold(n->proto, nick, folded, sizeof folded) == 0 &&
        snprintf(own, sizeof own, "n:%s", folded) < (int)sizeof own &&
        binding(n, own, mask) == BOUND_OTHER) {
        /* the nick's own seat is someone else's: not theirs to read */
        kv_key(key, sizeof key, "nick", own);
        if (kv_read(n, key, holder, sizeof holder) &&
            ircp_fold(n->proto, holder, fold_holder, sizeof fold_holder) == 0 &&
            strcmp(fold_holder, folded) == 0)
            kv_put(n, key, "");
        seen_forget(n, own);
    }
    if (known_player(n, nick, mask, id, cap) != 0)
        return -1;
    kv_key(key, sizeof key, "nick", id);
    if (strncmp(id, "n:", 2) == 0 && kv_read(n, key, holder, sizeof holder))
        kv_put(n, key, nick); /* an id seen before: reachable here again */
    if (strncmp(id, "n:", 2) == 0 && binding(n, id, mask) == BOUND_SAME)
        seen_mark(n, id, nick);
    return 0;
}
