/*
 * mx.h — the Matrix adapter: puts the game host on one Matrix account, in
 * the bot's single event loop next to the IRC networks.
 *
 * One mx_net per [matrix NAME] section. It logs in (a ready access token,
 * or user and password; the token and the device id are kept in the
 * store's kv table under "matrix:NAME" and sent only in the Authorization
 * header), creates its /sync filter once, and long-polls /sync through
 * mx_http (libcurl's multi interface inside the loop), so IRC never waits
 * for Matrix. Each batch is handled before its `since` is saved; commands
 * go to the host with the event id as host_msg.once, so a batch delivered
 * twice — a retried sync, a restart — acts once; the first sync's backlog
 * and a newly joined room's history are never taken for commands; a
 * `limited` timeline is paged back to the last event already handled.
 *
 * It joins rooms it is invited to by the allow-list (allow_invites), follows
 * room upgrades, leaves a room when an owner says "!part" there, and makes
 * one unencrypted direct room per player for private hands, recorded in
 * m.direct. It sends the host's outbox as m.notice with an HTML body
 * (mx_format.h) from a queue in memory (outq.h: one queue per room or
 * player, round robin across all of them, hands first), one request at a
 * time per room in outbox order, each with the outbox row's transaction
 * id, and marks a message sent only once the homeserver returned its event
 * id, the marks of a loop turn in one transaction: a retry after an error
 * or a restart can never post twice. 429 waits for Retry-After; 5xx, time-outs and
 * dropped connections are retried with back-off; 401 M_UNKNOWN_TOKEN logs
 * in again with the password (keeping the device), or, with only a token,
 * stops this network with a log line that says the token was revoked.
 *
 * Players are Matrix user ids; their display names (from the rooms'
 * m.room.member state) are the nicks the host writes. Encrypted rooms are
 * detected and told once that the bot cannot play there yet. Not here:
 * rules, commands, rendering (the host's), HTTP itself (mx_http.h).
 */
#ifndef PZ_MX_H
#define PZ_MX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter.h"
#include "config.h"
#include "host.h"
#include "loop.h"
#include "outq.h"

typedef struct mx_net mx_net;

/* What every network of the process shares (version: the HTTP user
   agent; seed: the back-off jitter). */
typedef adapter_env mx_env;

/* The Matrix accounts as the program runs them: one per [matrix NAME]
   section (mx_adapter.c, over the functions below). */
extern const adapter_ops mx_adapter;

/*
 * Makes the adapter for network c (checked by the config module) without
 * connecting. Returns 0 with *out, or -1 with why (out of memory, libcurl
 * refusing to start, a homeserver URL that is not http(s)).
 */
int mx_net_new(mx_net **out, const mx_env *env, const cfg_matrix *c, char *why, size_t why_len);

/* Starts logging in; the adapter then runs by itself in the loop. 0 or -1. */
int mx_net_start(mx_net *n);

/*
 * Winds down: the long poll is cancelled, nothing new is sent, and sends
 * already on the wire may finish (their messages are then marked sent).
 */
void mx_net_quit(mx_net *n);

/* True once mx_net_quit was called and no request is on the wire. */
bool mx_net_closed(const mx_net *n);

/* True when the network stopped for good (a revoked token, a refused
   password): the others go on. */
bool mx_net_dead(const mx_net *n);

/* Frees the adapter; requests still on the wire are abandoned. */
void mx_net_free(mx_net *n);

/* The network's name (its id in the database). */
const char *mx_net_name(const mx_net *n);

/*
 * The network's send queue (owned by n, valid until mx_net_free): the host
 * adds to it the replies it could not store (outq_add_volatile); they go
 * out in turn with the outbox's messages.
 */
outq *mx_net_outq(mx_net *n);

/*
 * An owner said part (the host's host_config.leave_room): the bot leaves
 * room (a room id, "!id:server"), saying who asked (by) in the log. 0, or
 * -1 when room is no room id.
 */
int mx_net_leave(mx_net *n, const char *room, const char *by);

/* Whether player (a Matrix user id) is one of the bot's owners on network:
   owners "NETWORK:@user:server". */
bool mx_is_owner(const cfg *c, const char *network, const char *player);

#endif /* PZ_MX_H */
