/*
 * irc.h — the IRC adapter: puts the game host on one IRC network.
 *
 * One irc_net per [irc NAME] section, all in the bot's event loop. It
 * connects through irc_wire (DNS without blocking, TLS), registers with
 * irc_proto (CAP LS 302, SASL PLAIN or NickServ, nick retries, PING),
 * classifies each parsed server line into one event (irc_event), turns
 * chat lines into host_msg for the host, and sends the host's outbox for
 * this network (kept in memory by outq: round robin across every target,
 * hands first) through the paced queue of irc_out, marking a message sent
 * once its last line is handed to the server (the marks of a loop turn
 * written in one transaction). On a lost link it
 * reconnects with doubling back-off and jitter, rejoins its channels and
 * sends what the outbox still holds: nothing is lost, nothing announced
 * twice (a message cut by the disconnect has its first lines resent).
 *
 * Players are nicks bound to their services account when the server tells
 * us accounts (extended-join, account-notify): player id "a:ACCOUNT";
 * otherwise "n:NICK" of the nick first seen, which a nick change carries
 * over, bound to the user@host first seen with it: while that player sits
 * at a table, someone else who takes the nick (after a quit, a netsplit)
 * is a new player, "n:NICK~K", told once why (all kept in the store, so
 * across restarts). Not here: rules, commands, rendering (the host's).
 */
#ifndef PZ_IRC_H
#define PZ_IRC_H

#include <stdbool.h>
#include <stdint.h>

#include "adapter.h"
#include "config.h"
#include "host.h"
#include "loop.h"
#include "outq.h"

typedef struct irc_net irc_net;

/* What every network of the process shares (version: answered to CTCP
   VERSION; seed: the reconnect jitter). */
typedef adapter_env irc_env;

/* The IRC networks as the program runs them: one per [irc NAME] section
   (irc_adapter.c, over the functions below). */
extern const adapter_ops irc_adapter;

/*
 * Makes the adapter for network c (checked by the config module) without
 * connecting. Returns 0 with *out, or -1 with why (a start-up error: TLS
 * CA file unreadable, out of memory).
 */
int irc_net_new(irc_net **out, const irc_env *env, const cfg_irc *c, char *why, size_t why_len);

/* Starts connecting; the adapter then runs by itself in the loop. 0 or -1. */
int irc_net_start(irc_net *n);

/*
 * Says goodbye: sends QUIT with reason (after nothing else) and closes the
 * link once it is written or after a second. Stops reconnecting.
 */
void irc_net_quit(irc_net *n, const char *reason);

/* True when the link is down and nothing is pending (after irc_net_quit). */
bool irc_net_closed(const irc_net *n);

/* Frees the adapter (the link is closed without QUIT if still open). */
void irc_net_free(irc_net *n);

/*
 * Takes a reloaded configuration c for this network (same name) without
 * dropping the link: channels added are joined and removed ones parted,
 * colours, invites, NOTICE and pacing change at once; the link's own keys
 * (server, TLS, nicks, passwords, SASL) wait for a restart, with a warning
 * in the log naming them. Returns 0, or -1 (logged) with nothing changed.
 */
int irc_net_reconfigure(irc_net *n, const cfg_irc *c);

/* The network's name (its id in the database). */
const char *irc_net_name(const irc_net *n);

/*
 * The network's outbox in memory (owned by n, valid until irc_net_free):
 * the adapter reads the store's outbox into it and sends from it. The host
 * may queue volatile messages there (outq_add_volatile) when the store
 * cannot take them; they go out like any other.
 */
outq *irc_net_outq(irc_net *n);

/*
 * An owner said part (the host's host_config.leave_room): sends PART for
 * room, saying who asked (by), and forgets the channel until it is
 * configured or the bot is invited again. 0, or -1 when the bot is not in
 * room on this network.
 */
int irc_net_leave(irc_net *n, const char *room, const char *by);

/*
 * Whether player (an id of this adapter) is one of the bot's owners:
 * "a:ACCOUNT" matches owners "NETWORK:ACCOUNT" and "NETWORK:a:ACCOUNT";
 * "n:NICK" only "NETWORK:n:NICK" (a nick is trusted only when written so).
 */
bool irc_is_owner(const cfg *c, const char *network, const char *player);

#endif /* PZ_IRC_H */
