/*
 * irc.c — the IRC adapter's link and output (see irc.h): making the
 * pieces, connecting and reconnecting, registration events, and the path
 * from the host's outbox to the server through the paced send queue.
 * What people say and do on the network is irc_chat.c's.
 */
#include "irc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* ---- Lines to the server ------------------------------------------------ */

/* Sends one protocol line now (registration, PONG, JOIN, QUIT), logged. */
void irc__send_line(irc_net *n, const char *line)
{
    size_t len = strlen(line);
    int r = irc_wire_send(n->wire, line, len);
    if (log_enabled(LOG_DEBUG) || r != 0) {
        char shown[IRCP_LOG_MAX];
        (void)ircp_log_line(line, len, shown, sizeof shown);
        if (r != 0)
            log_msg(LOG_WARN, "%s: cannot send \"%s\": %s", n->c.name, shown, irc_wire_strerror(r));
        else
            log_msg(LOG_DEBUG, "%s: >> %s", n->c.name, shown);
    }
}

/* Sends what irc_proto queued (CAP, AUTHENTICATE, NICK, PONG...). */
static void send_proto(irc_net *n)
{
    char line[IRCP_OUT_MAX + 1];
    int len;
    while ((len = ircp_pop(n->proto, line, sizeof line)) > 0)
        irc__send_line(n, line);
}

/* ---- The outbox ---------------------------------------------------------- */

void irc__forget_pushed(irc_net *n)
{
    n->npushed = 0;
}

static bool was_pushed(const irc_net *n, int64_t id)
{
    for (int i = 0; i < n->npushed; i++)
        if (n->pushed[i] == id)
            return true;
    return false;
}

static void unpush(irc_net *n, int64_t id)
{
    for (int i = 0; i < n->npushed; i++)
        if (n->pushed[i] == id) {
            n->pushed[i] = n->pushed[--n->npushed];
            return;
        }
}

/* Marks outbox message id sent; a store failure leaves it to send again. */
static void outbox_done(irc_net *n, int64_t id)
{
    unpush(n, id);
    if (store_outbox_done(n->env.store, id) != 0)
        log_msg(LOG_ERROR, "%s: cannot mark message %lld sent: %s", n->c.name, (long long)id,
                store_errmsg(n->env.store));
}

/*
 * Queues one outbox message: a room message to its channel (held while we
 * are out of a channel we mean to be in, dropped for a channel we left), a
 * private one to the player's current nick.
 */
static void push_message(irc_net *n, const store_msg *m)
{
    char target[IRC_OUT_TARGET_MAX];
    int colour = 1;
    irc_out_kind kind = IRC_OUT_PRIVMSG;
    if (m->kind == STORE_MSG_ROOM) {
        irc_chan *ch = irc__chan_find(n, m->target);
        if (ch == NULL) {
            log_msg(LOG_WARN, "%s: dropping a message for %s, a channel the bot is not in",
                    n->c.name, m->target);
            outbox_done(n, m->id);
            return;
        }
        if (ch->lost) {
            log_msg(LOG_WARN, "%s: dropping a message for %s: the bot could not stay there",
                    n->c.name, ch->name);
            outbox_done(n, m->id);
            return;
        }
        if (!ch->joined)
            return; /* sent after we join again */
        snprintf(target, sizeof target, "%s", ch->name);
        colour = ch->colour;
    } else {
        if (irc__private_target(n, m->target, target, sizeof target) != 0) {
            log_msg(LOG_WARN, "%s: dropping a private message: no nick known for %s", n->c.name,
                    m->target);
            outbox_done(n, m->id);
            return;
        }
        if (n->c.private_notice)
            kind = IRC_OUT_NOTICE;
    }
    int r = irc_out_push(&n->q, target, kind, m->priority, colour, m->text, m->id);
    if (r == 0) {
        outbox_done(n, m->id); /* nothing to send */
    } else if (r > 0) {
        n->pushed[n->npushed++] = m->id;
    } else if (r != IRC_OUT_EFULL) {
        log_msg(LOG_WARN, "%s: dropping a message to %s: %s", n->c.name, target,
                irc_out_strerror(r));
        outbox_done(n, m->id);
    }
}

/* Moves this network's unsent outbox messages into the send queue. */
static void pull_outbox(irc_net *n)
{
    if (!irc_wire_connected(n->wire) || !ircp_registered(n->proto) || n->quitting ||
        n->npushed >= IRC_PUSHED_MAX)
        return;
    uint64_t version = store_outbox_version(n->env.store);
    if (!n->outbox_stale && version == n->outbox_read)
        return; /* nothing added or sent since the last read */
    n->outbox_stale = false;
    n->outbox_read = version;
    int got = 0;
    if (store_outbox_peek(n->env.store, n->c.name, n->peek, IRC_PUSHED_MAX, &got) != 0) {
        log_msg(LOG_ERROR, "%s: cannot read the outbox: %s", n->c.name, store_errmsg(n->env.store));
        n->outbox_stale = true;
    }
    for (int i = 0; i < got && n->npushed < IRC_PUSHED_MAX; i++)
        if (!was_pushed(n, n->peek[i].id))
            push_message(n, &n->peek[i]);
}

/*
 * Hands the server every line the token bucket allows now, marking a
 * message sent when its last line goes; then sets the send timer.
 */
void irc__flush(irc_net *n)
{
    if (!irc_wire_connected(n->wire) || !ircp_registered(n->proto))
        return;
    char buf[IRC_OUT_LINE_MAX + 1];
    irc_out_sent sent;
    int64_t now = loop_now(n->env.loop);
    while (irc_wire_pending(n->wire) < IRC_WIRE_HIGH &&
           irc_out_next(&n->q, now, buf, sizeof buf, &sent) == 1) {
        buf[sent.len - 2] = '\0'; /* without CR LF */
        irc__send_line(n, buf);
        if (sent.done && sent.tag >= 0)
            outbox_done(n, sent.tag);
    }
    int64_t wait = irc_out_wait_ms(&n->q, now);
    if (wait < 0)
        loop_timer_stop(&n->send);
    else
        (void)loop_timer_start(&n->send, wait > 0 ? wait : 10, 0);
}

static void on_send_timer(loop_timer *t, void *arg)
{
    (void)t;
    irc__flush(arg);
}

/* Before the loop sleeps: new outbox messages in, allowed lines out. */
static void on_hook(loop_hook *h, void *arg)
{
    (void)h;
    irc_net *n = arg;
    pull_outbox(n);
    irc__flush(n);
}

/* ---- The link --------------------------------------------------------- */

/* Arms irc_proto's timer for its next deadline. */
static void arm_tick(irc_net *n)
{
    int64_t next = ircp_next_tick(n->proto);
    if (next == INT64_MAX) {
        loop_timer_stop(&n->tick);
        return;
    }
    int64_t wait = next - loop_now(n->env.loop);
    (void)loop_timer_start(&n->tick, wait > 0 ? wait : 0, 0);
}

/* Forgets the connection's state and, unless quitting, plans the next. */
static void link_down(irc_net *n, const char *why)
{
    irc_wire_close(n->wire);
    irc_out_clear(&n->q);
    irc__forget_pushed(n);
    irc__chans_down(n);
    loop_timer_stop(&n->tick);
    loop_timer_stop(&n->send);
    if (n->quitting) {
        n->closed = true;
        loop_timer_stop(&n->quit);
        log_msg(LOG_INFO, "%s: disconnected", n->c.name);
        return;
    }
    int64_t delay = ircp_backoff_next(&n->backoff, loop_now(n->env.loop), &n->rng);
    log_msg(LOG_WARN, "%s: %s; connecting again in %lld s", n->c.name, why,
            (long long)((delay + 999) / 1000));
    (void)loop_timer_start(&n->reconnect, delay, 0);
}

static void on_connected(void *arg)
{
    irc_net *n = arg;
    log_msg(LOG_INFO, "%s: connected to %s%s", n->c.name, irc_wire_peer(n->wire),
            n->c.tls ? " (TLS)" : "");
    if (ircp_connect(n->proto, loop_now(n->env.loop)) != 0) {
        link_down(n, "cannot start registering");
        return;
    }
    send_proto(n);
    arm_tick(n);
}

/* Acts on what irc_proto noticed in a line or on its timer. */
static void proto_events(irc_net *n, int ev)
{
    const char *diag = ircp_diag(n->proto);
    if (ev & IRCP_EV_WELCOME) {
        log_msg(LOG_INFO, "%s: registered as %s", n->c.name, ircp_nick(n->proto));
        ircp_backoff_up(&n->backoff, loop_now(n->env.loop));
        n->outbox_stale = true;
        irc__join_all(n);
    }
    if (ev & (IRCP_EV_WELCOME | IRCP_EV_NICK)) {
        size_t user = strlen(n->c.username[0] ? n->c.username : n->c.nick) + 1; /* a '~' */
        (void)irc_out_set_prefix(&n->q, strlen(ircp_nick(n->proto)), user, 0);
    }
    if (ev & IRCP_EV_LOGGED_IN)
        log_msg(LOG_INFO, "%s: logged in as %s", n->c.name, ircp_account(n->proto));
    if (ev & IRCP_EV_SASL_FAILED)
        log_msg(LOG_WARN, "%s: SASL log-in failed: %s", n->c.name, diag);
    if (ev & IRCP_EV_NICK_GIVEUP)
        link_down(n, "every configured nick is taken or refused");
    else if (ev & IRCP_EV_DEAD)
        link_down(n, "the server stopped answering (ping timeout)");
    else if (ev & IRCP_EV_ERROR)
        log_msg(n->quitting ? LOG_INFO : LOG_WARN, "%s: the server is closing the link: %s",
                n->c.name, diag);
}

static void on_line(void *arg, const char *line, size_t len)
{
    irc_net *n = arg;
    if (log_enabled(LOG_DEBUG)) {
        char shown[IRCP_LOG_MAX];
        (void)ircp_log_line(line, len, shown, sizeof shown);
        log_msg(LOG_DEBUG, "%s: << %s", n->c.name, shown);
    }
    int ev = ircp_feed(n->proto, line, len, loop_now(n->env.loop), &n->msg);
    send_proto(n);
    if (ev < 0) {
        log_msg(LOG_DEBUG, "%s: ignoring a line: %s", n->c.name, ircp_strerror(ev));
        return;
    }
    if (irc__wants_bridge(&n->msg)) {
        char why[256];
        if (irc_bridge_deliver(n->bridge, &n->msg) < 0 &&
            irc_bridge_reset(n->bridge, why, sizeof why) != 0)
            log_msg(LOG_ERROR, "%s: %s", n->c.name, why);
    }
    proto_events(n, ev);
    if (irc_wire_connected(n->wire))
        arm_tick(n);
}

static void on_closed(void *arg, const char *why)
{
    link_down(arg, why);
}

static void on_tick(loop_timer *t, void *arg)
{
    (void)t;
    irc_net *n = arg;
    int ev = ircp_tick(n->proto, loop_now(n->env.loop));
    send_proto(n);
    if (ev > 0)
        proto_events(n, ev);
    if (irc_wire_connected(n->wire))
        arm_tick(n);
}

static void on_reconnect(loop_timer *t, void *arg)
{
    (void)t;
    irc_net *n = arg;
    if (n->quitting)
        return;
    log_msg(LOG_INFO, "%s: connecting to %s port %d%s", n->c.name, n->c.host, n->c.port,
            n->c.tls ? " with TLS" : "");
    if (irc_wire_connect(n->wire) != 0)
        link_down(n, "cannot start connecting");
}

static void on_quit_timer(loop_timer *t, void *arg)
{
    (void)t;
    link_down(arg, "closing"); /* the QUIT had its time */
}

/* ---- Lifecycle ------------------------------------------------------------ */

static const char *opt(const char *s)
{
    return s != NULL && s[0] != '\0' ? s : NULL;
}

/* Makes irc_proto's session from the configuration. */
static int make_proto(irc_net *n, char *why, size_t why_len)
{
    ircp_config pc;
    memset(&pc, 0, sizeof pc);
    pc.nick = n->c.nick;
    for (int i = 0; i < n->c.nalt_nicks && i < IRCP_ALT_NICKS_MAX; i++)
        pc.alt_nicks[i] = n->c.alt_nicks[i];
    pc.user = opt(n->c.username);
    pc.realname = opt(n->c.realname);
    pc.server_pass = opt(n->c.server_password);
    pc.sasl_user = opt(n->c.sasl_user);
    pc.sasl_pass = opt(n->c.sasl_password);
    pc.nickserv_pass = opt(n->c.nickserv_password);
    char sub[200];
    if (ircp_new(&pc, &n->proto, sub, sizeof sub) != 0) {
        /* irc_proto names its fields; the operator knows the config keys. */
        static const char *const keys[][2] = {
            {"user:", "username:"},
            {"server_pass:", "server_password:"},
            {"sasl_pass:", "sasl_password:"},
            {"nickserv_pass:", "nickserv_password:"},
        };
        const char *key = NULL, *rest = sub;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (strncmp(sub, keys[i][0], strlen(keys[i][0])) == 0) {
                key = keys[i][1];
                rest = sub + strlen(keys[i][0]);
            }
        snprintf(why, why_len, "[irc %s]: %s%s", n->c.name, key != NULL ? key : "", rest);
        return -1;
    }
    return 0;
}

int irc_net_new(irc_net **out, const irc_env *env, const cfg_irc *c, char *why, size_t why_len)
{
    irc_net *n = calloc(1, sizeof *n);
    if (n == NULL) {
        snprintf(why, why_len, "[irc %s]: out of memory", c->name);
        return -1;
    }
    n->env = *env;
    n->c = *c;
    snprintf(n->scope, sizeof n->scope, "irc:%s", c->name);
    ircp_backoff_init(&n->backoff);
    ircp_rng_seed(&n->rng, env->seed ^ (uint64_t)(uintptr_t)n);
    irc_out_ctcp_init(&n->ctcp, IRC_OUT_CTCP_MS_DEFAULT);
    char sub[IRC_WIRE_WHY_MAX];
    irc_wire_config wc = {c->host, c->port, c->tls, c->tls_verify, opt(c->ca_file), 0};
    irc_wire_callbacks cb = {on_connected, on_line, on_closed};
    if (irc_out_init(&n->q, c->burst, c->line_ms) != 0) {
        snprintf(why, why_len, "[irc %s]: burst or line_ms out of range", c->name);
        free(n);
        return -1;
    }
    if (make_proto(n, why, why_len) != 0 ||
        irc_wire_new(&n->wire, env->loop, &wc, &cb, n, sub, sizeof sub) != 0 ||
        irc_bridge_new(&n->bridge, irc__on_event, n, sub, sizeof sub) != 0) {
        if (n->proto != NULL && (n->wire == NULL || n->bridge == NULL))
            snprintf(why, why_len, "[irc %s]: %s", c->name, sub);
        irc_net_free(n);
        return -1;
    }
    for (int i = 0; i < c->nchannels; i++)
        (void)irc__chan_add(n, c->channels[i], true);
    irc__load_invited(n);
    loop_timer_init(env->loop, &n->reconnect, on_reconnect, n);
    loop_timer_init(env->loop, &n->tick, on_tick, n);
    loop_timer_init(env->loop, &n->send, on_send_timer, n);
    loop_timer_init(env->loop, &n->quit, on_quit_timer, n);
    loop_hook_init(env->loop, &n->hook, on_hook, n);
    *out = n;
    return 0;
}

int irc_net_start(irc_net *n)
{
    if (loop_hook_start(&n->hook) != 0 || loop_timer_start(&n->reconnect, 0, 0) != 0)
        return -1;
    n->started = true;
    return 0;
}

void irc_net_quit(irc_net *n, const char *reason)
{
    if (n->quitting)
        return;
    n->quitting = true;
    loop_timer_stop(&n->reconnect);
    if (!irc_wire_connected(n->wire)) {
        link_down(n, "closing");
        return;
    }
    char line[IRCP_OUT_MAX + 1];
    snprintf(line, sizeof line, "QUIT :%s", reason);
    irc__send_line(n, line);
    (void)loop_timer_start(&n->quit, IRC_QUIT_WAIT_MS, 0);
}

bool irc_net_closed(const irc_net *n)
{
    return n->closed;
}

const char *irc_net_name(const irc_net *n)
{
    return n->c.name;
}

void irc_net_free(irc_net *n)
{
    if (n == NULL)
        return;
    if (n->started) {
        loop_hook_stop(&n->hook);
        loop_timer_stop(&n->reconnect);
        loop_timer_stop(&n->tick);
        loop_timer_stop(&n->send);
        loop_timer_stop(&n->quit);
    }
    irc_bridge_free(n->bridge);
    irc_wire_free(n->wire);
    irc_out_fini(&n->q);
    ircp_free(n->proto);
    memset(&n->c, 0, sizeof n->c); /* the passwords */
    free(n);
}

bool irc_is_owner(const cfg *c, const char *network, const char *player)
{
    if (player == NULL)
        return false;
    if (strncmp(player, "a:", 2) == 0 && cfg_is_owner(c, network, player + 2))
        return true;
    return cfg_is_owner(c, network, player);
}
