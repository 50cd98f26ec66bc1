/*
 * mx_events.c — what a /sync batch says, turned into actions: m.direct
 * account data; invitations accepted (allow_invites) or declined; for each
 * joined room its state and timeline in order — members and their display
 * names, encryption (told once, then ignored), a tombstone (the bot and
 * the room's game follow the replacement room), messages to the host with
 * the event id as host_msg.once; rooms the bot left.
 *
 * A command said in a thread has its answers sent to that thread (the
 * outbox ids it caused, mx__thread_note); an edit of a command that
 * changed nothing is taken as a new command, once, and an edit of a move
 * is answered that edits do not change moves.
 *
 * Which events may be commands: none in the first sync (the backlog), but
 * after starting afresh (a refused sync token) those after the last event
 * handled in each room; none before the bot's own join in a timeline (a
 * room's history), none from the bot itself, none but m.text (never a
 * notice: that is how bots speak). A limited timeline (and, after starting
 * afresh, a first sync's timeline without an event handled) is paged back
 * with /messages until a command already handled (the store's seen table;
 * not the bot's own messages, sent meanwhile) or the bot's join, at most
 * MX_PAGES_MAX pages, and the gap is handled before the timeline; the
 * host's dedupe by event id makes any overlap harmless. The rooms' events
 * are handled in time order (origin_server_ts), each room's in its own.
 * Not here: sending (mx_send.c), rooms' bookkeeping (mx_rooms.c), joins
 * and leaves kept until done (mx_call.c).
 */
#include "mx_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "i18n.h"
#include "log.h"
#include "mx_format.h"

#define KEY_MAX (2 * MX_ID_MAX + 16)
/* host_say writes it in the room's language */
#define ENCRYPTED_TEXT                                                                             \
    N_("I can't play in encrypted rooms yet: this room is end-to-end encrypted, and I cannot "     \
       "read it. Invite me to an unencrypted room to play.")

static const char *str_of(json_object *o)
{
    return json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

/* ---- Once-only effects ---------------------------------------------------- */

/*
 * Records `once` (an event id) as handled and, when it was not before,
 * queues text to room (or privately to user) in the same transaction.
 * Returns 1 when fresh, 0 when handled before, -1 on a store failure.
 */
static int say_once(mx_net *n, const char *once, const char *room, const char *user,
                    const char *text)
{
    host_say_line l = {.network = n->c.name,
                       .target = room != NULL ? room : user,
                       .kind = room != NULL ? MSG_ROOM : MSG_PRIVATE,
                       .text = text,
                       .once = once};
    int r = host_say(n->env.host, &l, (int64_t)time(NULL));
    if (r < 0) {
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
        n->sync.batch_failed = true;
    }
    return r;
}

/* ---- Rooms' state ------------------------------------------------------------ */

/*
 * The room is encrypted. With end-to-end encryption on, it is played in
 * (kv "encrypted:ROOM" remembers it); off, it is told once (kv
 * said_encrypted:ROOM) and never played in.
 */
static void mark_encrypted(mx_net *n, mx_room *r)
{
    char key[KEY_MAX], user[MX_ID_MAX];
    if (n->e2e.ready) {
        if (!r->encrypted) {
            r->encrypted = true;
            snprintf(key, sizeof key, "encrypted:%s", r->id);
            mx__kv_set(n, key, "1");
            log_msg(LOG_INFO, "%s: %s is encrypted: played in with end-to-end encryption",
                    n->c.name, r->id);
        }
        return;
    }
    if (r->said_encrypted)
        return;
    r->encrypted = r->said_encrypted = true;
    mx__dm_user(n, r->id, user, sizeof user);
    if (user[0] != '\0')
        mx__dm_forget(n, user, r->id);
    snprintf(key, sizeof key, "said_encrypted:%s", r->id);
    host_say_line l = {.network = n->c.name,
                       .target = r->id,
                       .kind = MSG_ROOM,
                       .text = ENCRYPTED_TEXT,
                       .scope = n->scope,
                       .key = key,
                       .value = "1"};
    if (host_say(n->env.host, &l, (int64_t)time(NULL)) == 1) {
        log_msg(LOG_INFO, "%s: %s is encrypted: said once that the bot cannot play there",
                n->c.name, r->id);
        return;
    }
    log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
    n->sync.batch_failed = true; /* still never played in; told after a restart */
}

/* An invitation: joined when the inviter is allowed, else declined. */
static bool invite_allowed(mx_net *n, const char *inviter)
{
    size_t il = strlen(inviter);
    for (int i = 0; i < n->c.nallow_invites; i++) {
        const char *a = n->c.allow_invites[i];
        size_t al = strlen(a);
        if (a[0] == ':' ? (il > al && strcmp(inviter + il - al, a) == 0) : strcmp(a, inviter) == 0)
            return true;
    }
    return false;
}

static void on_invite(mx_net *n, const char *room, json_object *entry)
{
    json_object *evs = mx__arr(mx__obj(entry, "invite_state"), "events");
    const char *inviter = NULL;
    bool direct = false;
    size_t len = evs != NULL ? json_object_array_length(evs) : 0;
    for (size_t i = 0; i < len; i++) {
        json_object *ev = json_object_array_get_idx(evs, i), *content = mx__obj(ev, "content"), *d;
        const char *type = mx__str(ev, "type"), *key = mx__str(ev, "state_key");
        const char *m = mx__str(content, "membership");
        if (type != NULL && strcmp(type, "m.room.member") == 0 && key != NULL &&
            strcmp(key, n->me) == 0 && m != NULL && strcmp(m, "invite") == 0) {
            inviter = mx__str(ev, "sender");
            direct =
                json_object_object_get_ex(content, "is_direct", &d) && json_object_get_boolean(d);
        }
    }
    if (!mx__id_ok(room) || !mx__id_ok(inviter) ||
        mx__call_find(n, MX_CALL_JOIN, room, NULL) != NULL)
        return;
    if (!invite_allowed(n, inviter)) {
        log_msg(LOG_INFO, "%s: invited to %s by %s, who is not in allow_invites: declining",
                n->c.name, room, inviter);
        mx__leave_room(n, room, "invitation declined", inviter);
        return;
    }
    log_msg(LOG_INFO, "%s: invited to %s by %s%s: joining", n->c.name, room, inviter,
            direct ? " (a direct room)" : "");
    /* A direct room is the inviter's from now on: the sync may bring the
       player's first words there before the join's own answer. */
    if (direct)
        mx__dm_set(n, inviter, room);
    mx__join_room(n, room, direct ? MX_JOIN_DIRECT : 0, inviter, NULL);
}

/* A tombstone: the game moves to the replacement room, and the bot follows. */
static void on_tombstone(mx_net *n, mx_room *r, json_object *ev)
{
    const char *to = mx__str(mx__obj(ev, "content"), "replacement_room"),
               *id = mx__str(ev, "event_id");
    if (!mx__id_ok(to) || !mx__id_ok(id) || strcmp(to, r->id) == 0)
        return;
    char text[600];
    int64_t game = 0;
    snprintf(text, sizeof text,
             "This room was upgraded: I am moving to %s, and so does any "
             "game under way here.",
             to);
    int fresh =
        host_room_moved(n->env.host, n->c.name, r->id, to, id, text, (int64_t)time(NULL), &game);
    if (fresh < 0) {
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
        n->sync.batch_failed = true;
        return;
    }
    if (game != 0)
        log_msg(LOG_INFO, "%s: game %lld moves from %s to %s", n->c.name, (long long)game, r->id,
                to);
    log_msg(LOG_INFO, "%s: %s was replaced by %s: joining it", n->c.name, r->id, to);
    mx__join_room(n, to, fresh == 1 ? MX_JOIN_UPGRADE : 0, NULL, r->id);
}

/* A member event of another user (or the bot's own). */
static void on_member(mx_net *n, mx_room *r, json_object *ev)
{
    const char *user = mx__str(ev, "state_key");
    json_object *content = mx__obj(ev, "content");
    const char *m = mx__str(content, "membership");
    if (!mx__id_ok(user) || m == NULL || strcmp(user, n->me) == 0)
        return;
    if (strcmp(m, "join") == 0 || strcmp(m, "invite") == 0) {
        const char *name = mx__str(content, "displayname"), *by = mx__str(ev, "sender");
        json_object *d;
        if (strcmp(m, "invite") == 0 && by != NULL && strcmp(by, n->me) == 0 &&
            json_object_object_get_ex(content, "is_direct", &d) && json_object_get_boolean(d))
            mx__dm_set(n, user, r->id); /* a direct room the bot made; maybe not told yet */
        char was[MX_ID_MAX], now[MX_ID_MAX];
        bool changed = mx__member_set(n, r, user, name != NULL ? name : "", was, sizeof was);
        mx__member_invited(r, user, strcmp(m, "invite") == 0);
        mx__base_name(n, r, user, now, sizeof now);
        mx__names_renamed(n, r, user, changed ? was : "", now);
    } else if (strcmp(m, "leave") == 0 || strcmp(m, "ban") == 0) {
        char dm[MX_ID_MAX], was[MX_ID_MAX];
        mx__base_name(n, r, user, was, sizeof was);
        mx__member_remove(r, user);
        mx__names_renamed(n, r, user, was, ""); /* a namesake is alone with the name again */
        mx__dm_user(n, r->id, dm, sizeof dm);
        if (strcmp(dm, user) == 0)
            mx__dm_forget(n, user, r->id);
    }
}

/* A state event, in the state section or the timeline. */
static void on_state(mx_net *n, mx_room *r, json_object *ev)
{
    const char *type = mx__str(ev, "type");
    if (type == NULL)
        return;
    if (strcmp(type, "m.room.member") == 0)
        on_member(n, r, ev);
    else if (strcmp(type, "m.room.encryption") == 0)
        mark_encrypted(n, r);
    else if (strcmp(type, "m.room.name") == 0)
        mx__room_name_take(n, r, mx__obj(ev, "content"));
    else if (strcmp(type, "m.room.history_visibility") == 0)
        mx__e2ee_history(r, mx__obj(ev, "content"));
    else if (strcmp(type, "m.room.canonical_alias") == 0)
        mx__room_alias_take(n, r, mx__obj(ev, "content"));
    else if (strcmp(type, "m.room.power_levels") == 0)
        mx__power_take(n, r, mx__obj(ev, "content"));
    else if (strcmp(type, "m.room.tombstone") == 0)
        on_tombstone(n, r, ev);
}

/* ---- Messages ------------------------------------------------------------------ */

/* Skips a rich reply's fallback ("> <@user> ..." lines then a blank line). */
static const char *skip_reply_fallback(const char *body, json_object *content)
{
    json_object *rel = mx__obj(content, "m.relates_to");
    if (mx__obj(rel, "m.in_reply_to") == NULL || strncmp(body, "> ", 2) != 0)
        return body;
    const char *p = body;
    while (strncmp(p, "> ", 2) == 0 || strncmp(p, ">\n", 2) == 0) {
        const char *nl = strchr(p, '\n');
        if (nl == NULL)
            return body;
        p = nl + 1;
    }
    return *p == '\n' ? p + 1 : body;
}

/*
 * An owner said part (host_config.leave_room, through mx_net_leave): the
 * bot leaves the room. The host runs the command once per event id.
 */
int mx_net_leave(mx_net *n, const char *room, const char *by)
{
    if (!mx__id_ok(room) || room[0] != '!')
        return -1;
    log_msg(LOG_INFO, "%s: leaving %s, asked by %s", n->c.name, room, by);
    mx__leave_room(n, room, "asked by an operator", NULL);
    return 0;
}

/* What the recent commands did: changed (a move was recorded) or not
   (refused, mistyped, chatter, or a command that moves nothing); -1 unknown. */
static int recent_find(mx_net *n, const char *event, const char *sender)
{
    for (int i = 0; i < MX_RECENT_CMDS; i++)
        if (strcmp(n->sync.recent[i].event, event) == 0)
            return strcmp(n->sync.recent[i].sender, sender) == 0 ? n->sync.recent[i].changed : -1;
    return -1;
}

static void recent_note(mx_net *n, const char *event, const char *sender, bool changed)
{
    for (int i = 0; i < MX_RECENT_CMDS; i++)
        if (strcmp(n->sync.recent[i].event, event) == 0) {
            n->sync.recent[i].changed = changed;
            return;
        }
    mx_recent *e = &n->sync.recent[n->sync.recent_next];
    n->sync.recent_next = (n->sync.recent_next + 1) % MX_RECENT_CMDS;
    snprintf(e->event, sizeof e->event, "%s", event);
    snprintf(e->sender, sizeof e->sender, "%s", sender);
    e->changed = changed;
}

/* The actions recorded in the games a command of sender in r (or privately:
   in any of their games) may move ("changed" is their growth). */
static int64_t moves_of(mx_net *n, mx_room *r, bool private, const char *sender)
{
    int64_t total = 0;
    (void)host_moves(n->env.host, n->c.name, private ? NULL : r->id, sender, &total);
    return total;
}

/*
 * Hands text, said by sender in r (or privately) as event id, to the host.
 * `thread` (NULL none) is the root of the thread it was said in: the
 * answers it gets (the lines without a game's header) go there. `edited`
 * (NULL none) is the command an edit replaces: its record now says what
 * the edit did.
 */
static void command(mx_net *n, mx_room *r, bool private, const char *sender, const char *id,
                    const char *text, const char *thread, const char *edited)
{
    char nick[MX_ID_MAX];
    mx__display_name(n, r, sender, nick, sizeof nick);
    host_msg m = {.network = n->c.name,
                  .room = private ? NULL : r->id,
                  .sender = sender,
                  .nick = nick,
                  .text = text,
                  .len = strlen(text),
                  .once = id,
                  .retried = true,
                  .moderator = !private && mx__is_moderator(n, r, sender),
                  .unreachable = mx__unreachable(n, sender, private ? NULL : r->id),
                  .private_waits = !private};
    int64_t before = 0, after = 0, moves = moves_of(n, r, private, sender);
    (void)outq_last_id(n->send.q, &before);
    if (host_handle(n->env.host, &m, (int64_t)time(NULL)) != 0) {
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
        n->sync.batch_failed = true; /* rolled back: handled when the batch comes again */
        return;
    }
    (void)outq_last_id(n->send.q, &after);
    recent_note(n, edited != NULL ? edited : id, sender, moves_of(n, r, private, sender) > moves);
    if (!private) {
        mx__thread_note(n, r, thread, id, before, after);
        mx__dm_prepare(n, r->id, sender);
    }
}

/*
 * An edit of an earlier message (m.replace): when the message it replaces
 * changed nothing (a refused or mistyped command, chatter), the new text is
 * taken as a command, once (by the edit's id); when it made a move, the
 * sender is told once that edits do not change moves; an edit of what the
 * bot never handled is ignored.
 */
static void on_edit(mx_net *n, mx_room *r, bool private, const char *sender, const char *id,
                    json_object *content)
{
    const char *orig = mx__str(mx__obj(content, "m.relates_to"), "event_id");
    const char *text = mx__str(mx__obj(content, "m.new_content"), "body");
    bool seen = false;
    if (!mx__id_ok(orig) || text == NULL)
        return;
    int was = recent_find(n, orig, sender);
    if (was == 0) {
        command(n, r, private, sender, id, text, NULL, orig);
        return;
    }
    if (was < 0 && (host_seen(n->env.host, n->c.name, orig, &seen) != 0 || !seen))
        return;
    (void)say_once(n, id, private ? NULL : r->id, sender,
                   "Edits don't change a move: send the command again as a new message.");
}

static void on_message(mx_net *n, mx_room *r, json_object *ev)
{
    const char *sender = mx__str(ev, "sender"), *id = mx__str(ev, "event_id");
    json_object *content = mx__obj(ev, "content"), *rel = mx__obj(content, "m.relates_to");
    const char *msgtype = mx__str(content, "msgtype"), *body = mx__str(content, "body");
    const char *rel_type = mx__str(rel, "rel_type");
    if (!mx__id_ok(sender) || !mx__id_ok(id) || strcmp(sender, n->me) == 0 || body == NULL ||
        msgtype == NULL || strcmp(msgtype, "m.text") != 0 || (r->encrypted && !n->e2e.ready))
        return;
    char dm[MX_ID_MAX];
    mx__dm_user(n, r->id, dm, sizeof dm);
    bool private = dm[0] != '\0' && strcmp(dm, sender) == 0;
    if (dm[0] != '\0' && !private)
        return; /* a third person in a player's direct room */
    if (rel_type != NULL && strcmp(rel_type, "m.replace") == 0) {
        on_edit(n, r, private, sender, id, content);
        return;
    }
    const char *thread =
        rel_type != NULL && strcmp(rel_type, "m.thread") == 0 ? mx__str(rel, "event_id") : NULL;
    command(n, r, private, sender, id, skip_reply_fallback(body, content),
            mx__id_ok(thread) ? thread : NULL, NULL);
}

/* An encrypted timeline event: decrypted (or waiting for its key) and
   handled as the event it holds. A plain event in an encrypted room is
   not a command (anyone on the server could have sent it). */
static void on_encrypted(mx_net *n, mx_room *r, json_object *ev, bool commands)
{
    mark_encrypted(n, r);
    const char *sender = mx__str(ev, "sender");
    if (!commands || sender == NULL || strcmp(sender, n->me) == 0)
        return; /* history and its own events: nothing to read */
    json_object *dec = mx__e2ee_decrypt(n, r, ev, commands);
    if (dec != NULL)
        mx__event_decrypted(n, r, dec, commands);
    json_object_put(dec);
}

/* One timeline (or gap) event; commands only when `commands`. */
static void on_event(mx_net *n, mx_room *r, json_object *ev, bool commands)
{
    const char *type = mx__str(ev, "type");
    json_object *key;
    if (type == NULL)
        return;
    if (json_object_object_get_ex(ev, "state_key", &key) && str_of(key) != NULL)
        on_state(n, r, ev);
    else if (strcmp(type, "m.room.encrypted") == 0 && n->e2e.ready)
        on_encrypted(n, r, ev, commands);
    else if (strcmp(type, "m.room.encrypted") == 0)
        mark_encrypted(n, r);
    else if (strcmp(type, "m.room.message") == 0 && commands && !r->encrypted)
        on_message(n, r, ev);
}

void mx__event_decrypted(mx_net *n, mx_room *r, json_object *ev, bool commands)
{
    const char *type = mx__str(ev, "type");
    if (type != NULL && strcmp(type, "m.room.message") == 0 && commands)
        on_message(n, r, ev);
}

/* Whether ev is the bot's own join (not a profile change of a member). */
static bool own_join(mx_net *n, json_object *ev)
{
    const char *type = mx__str(ev, "type"), *key = mx__str(ev, "state_key");
    const char *m = mx__str(mx__obj(ev, "content"), "membership");
    const char *prev = mx__str(mx__obj(mx__obj(ev, "unsigned"), "prev_content"), "membership");
    return type != NULL && strcmp(type, "m.room.member") == 0 && key != NULL &&
           strcmp(key, n->me) == 0 && m != NULL && strcmp(m, "join") == 0 &&
           (prev == NULL || strcmp(prev, "join") != 0);
}

/* ---- A batch ------------------------------------------------------------------- */

static mx_gap *gap_of(mx_net *n, const char *room)
{
    for (int i = 0; i < n->sync.ngaps; i++)
        if (strcmp(n->sync.gaps[i].room, room) == 0)
            return &n->sync.gaps[i];
    return NULL;
}

/* Whether ev is a command handled before (the store's seen table). Not the
   bot's own messages (also there): it may have sent some while a command
   said before them waited in a failing sync. A store failure counts as
   handled, and the batch is asked for again. */
static bool handled(mx_net *n, json_object *ev)
{
    const char *id = mx__str(ev, "event_id"), *sender = mx__str(ev, "sender");
    bool seen = false;
    if (id == NULL || sender == NULL || strcmp(sender, n->me) == 0)
        return false;
    if (host_seen(n->env.host, n->c.name, id, &seen) != 0) {
        log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
        n->sync.batch_failed = true;
        return true;
    }
    return seen;
}

/*
 * Where a timeline's commands may start: after the bot's own join (the
 * room's history before it came in is not for it) and, in the first sync
 * after starting afresh, after the last event handled. 0: anywhere (no
 * such event in it).
 */
static size_t timeline_start(mx_net *n, json_object *tl)
{
    for (size_t i = tl != NULL ? json_object_array_length(tl) : 0; i > 0; i--) {
        json_object *ev = json_object_array_get_idx(tl, i - 1);
        if (own_join(n, ev) || (n->sync.first_sync && n->sync.afresh && handled(n, ev)))
            return i;
    }
    return 0;
}

/* An event's origin_server_ts (ms), 0 when it has none. */
static int64_t ts_of(json_object *ev)
{
    json_object *ts = NULL;
    (void)json_object_object_get_ex(ev, "origin_server_ts", &ts);
    return json_object_is_type(ts, json_type_int) ? json_object_get_int64(ts) : 0;
}

/* Whether ev, in a first sync, may be a command: only after starting
   afresh, and not older than the seen table keeps events handled. */
static bool afresh_recent(mx_net *n, json_object *ev)
{
    return n->sync.afresh && ts_of(ev) >= ((int64_t)time(NULL) - MX_SEEN_KEEP_S) * 1000;
}

/* A joined room's events in a batch: the gap read back (oldest first), then
   the timeline; handled in time order with the other rooms' (feeds_run). */
typedef struct mx_feed {
    mx_room *r;
    json_object *gap; /* newest first, as the pages came; NULL none */
    size_t gap_left;  /* its events not handled yet, taken from the end */
    json_object *tl;
    size_t ti, nt, first; /* the next timeline event, their count, commands' start */
    json_object *next;    /* the next event (NULL: done), read back or not */
    bool next_read_back;
    int64_t next_ts;
} mx_feed;

/* Moves the feed's next event on. */
static void feed_next(mx_feed *f)
{
    f->next_read_back = f->gap_left > 0;
    if (f->gap_left > 0)
        f->next = json_object_array_get_idx(f->gap, --f->gap_left);
    else
        f->next = f->ti < f->nt ? json_object_array_get_idx(f->tl, f->ti++) : NULL;
    f->next_ts = ts_of(f->next);
}

/*
 * Opens room's feed: the state section applied (in a first sync the room's
 * state at the timeline's start: a gap's state events, older, are then
 * skipped). false when the room cannot be kept.
 */
static bool feed_open(mx_net *n, mx_feed *f, const char *room, json_object *entry)
{
    memset(f, 0, sizeof *f);
    f->r = mx__id_ok(room) ? mx__room(n, room, true) : NULL;
    if (f->r == NULL)
        return false;
    json_object *state = mx__arr(mx__obj(entry, "state"), "events");
    size_t ns = state != NULL ? json_object_array_length(state) : 0;
    for (size_t i = 0; i < ns; i++)
        on_state(n, f->r, json_object_array_get_idx(state, i));
    mx_gap *g = gap_of(n, room);
    f->gap = g != NULL ? g->events : NULL;
    f->gap_left = f->gap != NULL ? json_object_array_length(f->gap) : 0;
    f->tl = mx__arr(mx__obj(entry, "timeline"), "events");
    f->nt = f->tl != NULL ? json_object_array_length(f->tl) : 0;
    f->first = timeline_start(n, f->tl);
    feed_next(f);
    return true;
}

/* Handles the feed's next event. */
static void feed_take(mx_net *n, mx_feed *f)
{
    json_object *ev = f->next, *key;
    bool after = f->next_read_back || f->ti > f->first; /* ti: past ev */
    bool old_state =
        f->next_read_back && n->sync.first_sync && json_object_object_get_ex(ev, "state_key", &key);
    if (!old_state) /* commands only from `first` on, and in a first sync after starting afresh */
        on_event(n, f->r, ev, after && (!n->sync.first_sync || afresh_recent(n, ev)));
    feed_next(f);
}

/* Handles the feeds' events, each room's in its order, the rooms'
   interleaved by origin_server_ts: a private move said before a room's
   command acts before it, as it did for the players. */
static void feeds_run(mx_net *n, mx_feed *feeds, size_t count)
{
    for (;;) {
        mx_feed *pick = NULL;
        for (size_t i = 0; i < count; i++)
            if (feeds[i].next != NULL && (pick == NULL || feeds[i].next_ts < pick->next_ts))
                pick = &feeds[i];
        if (pick == NULL)
            return;
        feed_take(n, pick);
    }
}

/* The joined rooms of a batch: each room's state, then every room's
   events in time order (room by room when memory is short). */
static void on_joined_rooms(mx_net *n, json_object *join)
{
    size_t count = (size_t)json_object_object_length(join), k = 0;
    mx_feed *feeds = count > 0 ? calloc(count, sizeof *feeds) : NULL;
    json_object_object_foreach(join, id, entry)
    {
        mx_feed one;
        if (feeds != NULL && k < count)
            (void)feed_open(n, &feeds[k++], id, entry);
        else if (feed_open(n, &one, id, entry))
            feeds_run(n, &one, 1);
    }
    if (feeds != NULL)
        feeds_run(n, feeds, k);
    free(feeds);
}

/* A room the bot left (or was removed from). */
static void on_left(mx_net *n, const char *room)
{
    char dm[MX_ID_MAX];
    if (!mx__id_ok(room))
        return;
    log_msg(LOG_INFO, "%s: no longer in %s", n->c.name, room);
    mx__dm_user(n, room, dm, sizeof dm);
    if (dm[0] != '\0')
        mx__dm_forget(n, dm, room);
    mx__room_forget(n, room);
}

/* Handles the rooms of a batch (after any gap was read back). */
static void on_rooms(mx_net *n, json_object *sync)
{
    json_object *rooms = mx__obj(sync, "rooms");
    json_object *join = mx__obj(rooms, "join"), *leave = mx__obj(rooms, "leave");
    if (join != NULL)
        on_joined_rooms(n, join);
    if (leave != NULL) {
        json_object_object_foreach(leave, id, entry)
        {
            (void)entry;
            on_left(n, id);
        }
    }
}

void mx__batch_free(mx_net *n)
{
    for (int i = 0; i < n->sync.ngaps; i++)
        json_object_put(n->sync.gaps[i].events);
    free(n->sync.gaps);
    n->sync.gaps = NULL;
    n->sync.ngaps = 0;
    json_object_put(n->sync.batch);
    n->sync.batch = NULL;
}

/* Asks for the next page of gap g. */
static void gap_fetch(mx_net *n, mx_gap *g)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], room[3 * MX_ID_MAX], from[3 * MX_SINCE_MAX];
    mx_call *c = NULL;
    if (mx__enc(g->room, room, sizeof room) == 0 && mx__enc(g->from, from, sizeof from) == 0 &&
        snprintf(path, sizeof path, "/rooms/%s/messages?dir=b&limit=%d&from=%s", room,
                 MX_PAGE_EVENTS, from) < (int)sizeof path &&
        mx__url(n, url, sizeof url, path) == 0)
        c = mx__call_new(n, MX_CALL_MESSAGES, "GET", url, NULL, true);
    if (c == NULL) {
        g->done = true;
        return;
    }
    snprintf(c->room, sizeof c->room, "%s", g->room);
    mx__call_go(n, c);
}

/* Starts the gaps not asked for yet, MX_GAPS_LIVE at most on the wire: the
   call table is the sends' and the sync's too (after starting afresh every
   room may have one). */
static void gaps_start(mx_net *n)
{
    int live = 0;
    for (int i = 0; i < n->sync.ngaps; i++)
        live += n->sync.gaps[i].started && !n->sync.gaps[i].done;
    for (int i = 0; i < n->sync.ngaps && live < MX_GAPS_LIVE; i++) {
        mx_gap *g = &n->sync.gaps[i];
        if (g->started || g->done)
            continue;
        g->started = true;
        gap_fetch(n, g);
        live += !g->done;
    }
}

/* Finishes the batch once every gap is read back. */
static void gaps_check(mx_net *n)
{
    gaps_start(n);
    for (int i = 0; i < n->sync.ngaps; i++)
        if (!n->sync.gaps[i].done)
            return;
    json_object *batch = n->sync.batch;
    n->sync.batch = NULL;
    on_rooms(n, batch);
    json_object_put(batch);
    mx__batch_free(n);
    mx__sync_next(n);
}

void mx__gap_page(mx_net *n, mx_call *c, json_object *page)
{
    mx_gap *g = c != NULL ? gap_of(n, c->room) : NULL;
    if (g == NULL || n->sync.batch == NULL)
        return;
    json_object *chunk = mx__arr(page, "chunk");
    size_t len = chunk != NULL ? json_object_array_length(chunk) : 0;
    bool stop = page == NULL;
    for (size_t i = 0; i < len && !stop; i++) {
        json_object *ev = json_object_array_get_idx(chunk, i);
        stop = handled(n, ev) || own_join(n, ev);
        if (!stop)
            json_object_array_add(g->events, json_object_get(ev));
    }
    const char *end = mx__str(page, "end");
    g->pages++;
    if (!stop && end != NULL && strlen(end) < sizeof g->from && len > 0) {
        if (g->pages < MX_PAGES_MAX) {
            snprintf(g->from, sizeof g->from, "%s", end);
            gap_fetch(n, g);
            if (!g->done)
                return;
        } else {
            log_msg(LOG_WARN,
                    "%s: more than %d events were missed in %s; older ones are "
                    "skipped",
                    n->c.name, MX_PAGES_MAX * MX_PAGE_EVENTS, g->room);
        }
    }
    g->done = true;
    if (json_object_array_length(g->events) > 0)
        log_msg(LOG_INFO, "%s: read back %zu missed events in %s", n->c.name,
                json_object_array_length(g->events), g->room);
    gaps_check(n);
}

/* Whether a limited timeline needs its gap read back: not when the bot
   just joined, nor in a first sync but after starting afresh, nor when the
   last event handled is in it then. */
static bool needs_gap(mx_net *n, json_object *entry, const char **from)
{
    json_object *tl = mx__obj(entry, "timeline"), *lim;
    *from = mx__str(tl, "prev_batch");
    if ((n->sync.first_sync && !n->sync.afresh) || *from == NULL || strlen(*from) >= MX_SINCE_MAX ||
        !json_object_object_get_ex(tl, "limited", &lim) || !json_object_get_boolean(lim))
        return false;
    return timeline_start(n, mx__arr(tl, "events")) == 0;
}

int mx__batch_begin(mx_net *n, json_object *sync)
{
    json_object *ad = mx__arr(mx__obj(sync, "account_data"), "events");
    size_t len = ad != NULL ? json_object_array_length(ad) : 0;
    for (size_t i = 0; i < len; i++) {
        json_object *ev = json_object_array_get_idx(ad, i);
        const char *type = mx__str(ev, "type");
        if (type != NULL && strcmp(type, "m.direct") == 0)
            mx__direct_take(n, mx__obj(ev, "content"));
    }
    json_object *rooms = mx__obj(sync, "rooms");
    json_object *invite = mx__obj(rooms, "invite"), *join = mx__obj(rooms, "join");
    if (invite != NULL) {
        json_object_object_foreach(invite, id, entry) on_invite(n, id, entry);
    }
    mx__batch_free(n);
    int count = 0;
    if (join != NULL) {
        json_object_object_foreach(join, id, entry)
        {
            const char *from;
            if (mx__id_ok(id) && needs_gap(n, entry, &from))
                count++;
            (void)from;
        }
    }
    if (count > 0)
        n->sync.gaps = calloc((size_t)count, sizeof *n->sync.gaps);
    if (count == 0 || n->sync.gaps == NULL) {
        on_rooms(n, sync);
        return 0;
    }
    n->sync.batch = json_object_get(sync);
    json_object_object_foreach(join, id, entry)
    {
        const char *from;
        if (!mx__id_ok(id) || !needs_gap(n, entry, &from) || n->sync.ngaps == count)
            continue;
        mx_gap *g = &n->sync.gaps[n->sync.ngaps++];
        snprintf(g->room, sizeof g->room, "%s", id);
        snprintf(g->from, sizeof g->from, "%s", from);
        g->events = json_object_new_array();
        if (g->events == NULL)
            g->done = true;
    }
    gaps_start(n);
    for (int i = 0; i < n->sync.ngaps; i++)
        if (!n->sync.gaps[i].done)
            return 1;
    json_object_put(n->sync.batch); /* nothing could be asked: handle it now */
    n->sync.batch = NULL;
    on_rooms(n, sync);
    mx__batch_free(n);
    return 0;
}
