/*
 * irc_int.h — the IRC adapter's state, shared by irc.c (the link, the
 * registration, the outbox) and irc_chat.c (what people say and do).
 * Private to the adapter.
 */
#ifndef PZ_IRC_INT_H
#define PZ_IRC_INT_H

#include "irc.h"
#include "irc_bridge.h"
#include "irc_out.h"
#include "irc_proto.h"
#include "irc_wire.h"

#define IRC_CHANS_MAX 48      /* channels per network: configured and invited */
#define IRC_CHAN_MAX 64       /* bytes of a channel name, NUL included */
#define IRC_PUSHED_MAX 64     /* outbox messages in the send queue at once */
#define IRC_WIRE_HIGH 8192    /* bytes in the wire's buffer before we hold lines back */
#define IRC_REQUEUE_MS 10000  /* wait after 707 ERR_TARGCHANGE before that target again */
#define IRC_QUIT_WAIT_MS 1000 /* a QUIT gets this long to leave */
#define IRC_SCOPE_MAX 48      /* "irc:NAME" */

typedef struct irc_chan {
    char name[IRC_CHAN_MAX]; /* as the server spelled it in our JOIN */
    bool configured;         /* from the configuration: always rejoined */
    bool joined;             /* we are in it now */
    bool colour;             /* mIRC colours allowed */
    bool lost;               /* kicked or refused: its messages are dropped until we rejoin */
} irc_chan;

struct irc_net {
    irc_env env;
    cfg_irc c;
    char scope[IRC_SCOPE_MAX]; /* the store's kv scope: "irc:NAME" */
    ircp *proto;
    irc_out q;
    irc_out_ctcp ctcp;
    irc_wire *wire;
    irc_bridge *bridge;
    ircp_backoff backoff;
    ircp_rng rng;
    loop_timer reconnect; /* next connection attempt */
    loop_timer tick;      /* irc_proto's timers */
    loop_timer send;      /* the send queue's next line */
    loop_timer quit;      /* closing after QUIT */
    loop_hook hook;       /* before sleeping: outbox in, lines out */
    irc_chan chans[IRC_CHANS_MAX];
    int nchans;
    int64_t pushed[IRC_PUSHED_MAX]; /* outbox ids in the send queue */
    int npushed;
    store_msg peek[IRC_PUSHED_MAX]; /* the outbox as last read */
    uint64_t outbox_read;           /* store_outbox_version when it was read */
    bool outbox_stale;              /* read it again anyway: a channel joined, a welcome */
    bool started, quitting, closed;
    ircp_msg msg; /* the line being handled */
};

/* irc.c */
void irc__send_line(irc_net *n, const char *line);
void irc__flush(irc_net *n);
void irc__forget_pushed(irc_net *n);

/* irc_chat.c */
void irc__on_event(void *arg, const irc_bridge_event *ev);
bool irc__wants_bridge(const ircp_msg *m);
void irc__join_all(irc_net *n);
void irc__chans_down(irc_net *n);
irc_chan *irc__chan_find(irc_net *n, const char *name);
int irc__chan_add(irc_net *n, const char *name, bool configured);
int irc__private_target(irc_net *n, const char *player, char *nick, size_t cap);
void irc__load_invited(irc_net *n);

#endif /* PZ_IRC_INT_H */
