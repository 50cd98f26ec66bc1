/*
 * irc_int.h — the IRC adapter's state, shared by irc.c (the link, the
 * registration, the outbox), irc_chat.c (what people say and do) and
 * irc_ids.c (who is who).
 * Private to the adapter.
 */
#ifndef PZ_IRC_INT_H
#define PZ_IRC_INT_H

#ifndef PZ_INSIDE_IRC
#error "irc_int.h is the IRC adapter's inside: other layers include irc.h (ARCHITECTURE.md)"
#endif

#include "irc.h"
#include "irc_event.h"
#include "irc_out.h"
#include "irc_proto.h"
#include "irc_wire.h"

#define IRC_CHANS_MAX 48        /* channels per network: configured and invited */
#define IRC_CHAN_MAX 64         /* bytes of a channel name, NUL included */
#define IRC_OPS_MAX 32          /* moderators known per channel */
#define IRC_TAKEN_MAX 64        /* outq messages in the send queue at once (707 holds some) */
#define IRC_FLUSH_LINES_MAX 256 /* lines handed to the wire per loop turn, at most */
#define IRC_STORE_RETRY_MS 1000 /* the outbox could not be read or marked: again after this */
#define IRC_WIRE_HIGH 8192      /* bytes in the wire's buffer before we hold lines back */
#define IRC_REQUEUE_MS 10000    /* wait after 707 ERR_TARGCHANGE before that target again */
#define IRC_QUIT_WAIT_MS 1000   /* a QUIT gets this long to leave */
#define IRC_SCOPE_MAX 48        /* "irc:NAME" */
#define IRC_SEEN_MAX 1024       /* players seen from their user@host on this connection */

typedef struct irc_chan {
    char name[IRC_CHAN_MAX]; /* as the server spelled it in our JOIN */
    bool configured;         /* from the configuration: always rejoined */
    bool joined;             /* we are in it now */
    bool colour;             /* mIRC colours allowed */
    bool lost;               /* kicked or refused: its messages are dropped until we rejoin */
    char ops[IRC_OPS_MAX][IRCP_NICK_MAX]; /* its moderators' nicks, folded (irc_ops.c) */
    int nops;
} irc_chan;

/* A player bound to a user@host, seen from it on this connection (irc_ids.c). */
typedef struct irc_seen {
    char id[IRCP_ID_MAX];     /* an "n:" id with a "mask:" binding */
    char nick[IRCP_NICK_MAX]; /* the nick they hold, folded */
    uint64_t used;            /* LRU stamp; 0 = free */
} irc_seen;

/* player_of's answer for a nick seen with a mask, while nothing it read
   changed (irc_ids.c): every line a person says asks it, and its four or
   so kv reads were a fifth of the bot's time per command (issue 34). */
#define IRC_ID_MEMO 64 /* nicks remembered, by hash */
typedef struct irc_id_memo {
    uint64_t gen;             /* irc_net.ids_gen when made; 0 = free */
    char nick[IRCP_NICK_MAX]; /* folded */
    char mask[IRCP_MASK_MAX]; /* the user@host it was asked with */
    char base[IRCP_ID_MAX];   /* ircp_player_id's then (the account, or "n:" and the nick) */
    char id[IRCP_ID_MAX];     /* the answer */
} irc_id_memo;

/* Where the message that outq_take is about to return goes (irc.c's ready()). */
typedef struct irc_dest {
    char target[IRC_OUT_TARGET_MAX]; /* a channel or a nick */
    irc_out_kind kind;               /* PRIVMSG, or NOTICE for private_notice */
    int colour;                      /* mIRC colours allowed */
} irc_dest;

struct irc_net {
    irc_env env;
    cfg_irc c;
    char scope[IRC_SCOPE_MAX]; /* the store's kv scope: "irc:NAME" */
    ircp *proto;
    irc_out q;
    irc_out_ctcp ctcp;
    irc_wire *wire;
    ircp_backoff backoff;
    ircp_rng rng;
    loop_timer reconnect; /* next connection attempt */
    loop_timer tick;      /* irc_proto's timers */
    loop_timer send;      /* the send queue's next line */
    loop_timer quit;      /* closing after QUIT */
    loop_timer more;      /* wakes the loop while a huge outbox loads over turns */
    loop_timer retry;     /* the store failed: read and mark the outbox again then */
    loop_hook hook;       /* before sleeping: outbox in, lines out, marks written */
    irc_chan chans[IRC_CHANS_MAX];
    int nchans;
    outq *outq;                     /* this network's outbox in memory */
    outq_msg *taken[IRC_TAKEN_MAX]; /* by irc_out tag: the messages in the send queue */
    int ntaken;
    irc_dest dest;     /* where the message outq_take returns goes */
    bool load_wait;    /* reading the outbox failed: again when the retry timer fires */
    bool marks_wait;   /* marking messages sent failed: again when the retry timer fires */
    bool store_failed; /* a store failure was logged; the next success says so */
    /* the outbox staying long above its threshold */
    outq_watch backlog;
    adapter_life life; /* the hook and the timers above, started and stopped together */
    bool quitting, closed;
    irc_seen seen[IRC_SEEN_MAX]; /* who is who on this connection (irc_ids.c) */
    uint64_t seen_clock;
    irc_id_memo id_memo[IRC_ID_MEMO]; /* player_of's answers (irc_ids.c) */
    uint64_t ids_gen;                 /* bumped by every write of an id, binding or nick (kv_put) */
    uint64_t ids_seated;              /* counts player_of's questions about the tables (seated) and
                                         its reads that failed: answers not to remember */
    ircp_msg msg;                     /* the line being handled */
    char server_version[64];          /* RPL_MYINFO's, for pace = auto after a reload */
};

/* irc.c */
/* Queues a protocol line on the wire, logged: 0 or an irc_wire error. */
int irc__send_line(irc_net *n, const char *line);
/* A channel was joined, left or lost: messages held for channels go,
   wait again or are dropped, as ready() decides. */
void irc__outbox_wake(irc_net *n);

/* irc_chat.c */
/* Acts on one event of the server's (irc_event). */
void irc__on_event(irc_net *n, const irc_ev *ev);
void irc__join_all(irc_net *n);
void irc__chans_down(irc_net *n);

/* irc_ops.c: a channel's moderators (operators, admins, owners) */
/* A WHO reply: nick in chan with flags ("H@"). */
void irc__ops_who(irc_net *n, const char *chan, const char *nick, const char *flags);
/* A MODE on chan: modes ("+o-v") and their arguments. */
void irc__ops_mode(irc_net *n, const char *chan, const char *modes, const char *const *args,
                   int nargs);
/* nick left chan (PART, KICK), or every channel when chan is NULL (QUIT). */
void irc__ops_gone(irc_net *n, const char *chan, const char *nick);
/* nick is now new_nick. */
void irc__ops_rename(irc_net *n, const char *old, const char *new_nick);
/* Forgets chan's moderators (we join it again), or all when chan is NULL. */
void irc__ops_clear(irc_net *n, const char *chan);
/* Whether nick moderates chan (NULL: no). */
bool irc__is_op(irc_net *n, const char *chan, const char *nick);
/* Forgets channel ch (left), saving the invited ones that remain. */
void irc__chan_forget(irc_net *n, irc_chan *ch);
/* Whether channel name has colours off in the configuration. */
bool irc__colour_off(irc_net *n, const char *name);
irc_chan *irc__chan_find(irc_net *n, const char *name);
int irc__chan_add(irc_net *n, const char *name, bool configured);
void irc__load_invited(irc_net *n);

/* irc_ids.c: who is who (player ids, the nicks to write to, seats kept
   from newcomers on a seated player's nick). mask: the user@host of the
   line (ircp_mask_of), "" when it had none. */
/*
 * The player id of nick, seen with mask, saying something (0), made when
 * new and bound to mask; a newcomer on the nick of a seated player bound
 * to another user@host gets an id of their own and is told once why.
 * -1 for a nick that cannot be an id, or a newcomer without a user@host.
 */
int irc__player_of(irc_net *n, const char *nick, const char *mask, char *id, size_t cap);
/*
 * nick is in a channel of ours, seen with mask (a JOIN, a WHO reply): a
 * seat bound to another user@host is no longer reachable under that nick;
 * their own id, looked up and never made, is reachable under it again.
 * Returns 0 with that id, or -1 when they have none yet.
 */
int irc__player_seen(irc_net *n, const char *nick, const char *mask, char *id, size_t cap);
/* nick (seen with mask) quit: their id is unreachable until they come back. */
void irc__player_quit(irc_net *n, const char *nick, const char *mask);
/* Another user's nick changed from old (seen with mask): the id follows. */
void irc__nick_changed(irc_net *n, const char *old, const char *mask, const char *new_nick);
/* The nick to write to for player, into nick (cap bytes): 0, or -1 when
   unreachable (quit, or the nick is someone else's now). */
int irc__private_target(irc_net *n, const char *player, char *nick, size_t cap);
/*
 * Whether a private line for player may go now, to the nick written into
 * nick (cap bytes): 0 yes; 1 not yet: player is bound to a user@host and
 * has not been seen from it under that nick on this connection (the
 * message waits, parked, until they are: a JOIN, a WHO reply, a line of
 * theirs); -1 never (no nick: drop it).
 */
int irc__private_ready(irc_net *n, const char *player, char *nick, size_t cap);
/* A new connection: nobody has been seen on it yet. */
void irc__seen_reset(irc_net *n);

#endif /* PZ_IRC_INT_H */
