/*
 * irc.c — the IRC adapter's link and output (see irc.h): making the
 * pieces, connecting and reconnecting, registration events, and the path
 * from the host's outbox to the server: outq (the outbox in memory, fair
 * across targets) feeds the paced send queue of irc_out one message at a
 * time, the wire writes in the same loop turn, and the marks of what was
 * sent go to the store once per turn. What people say and do on the
 * network is irc_chat.c's.
 */
#include "irc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* ---- Lines to the server ------------------------------------------------ */

/*
 * Queues one protocol line on the wire (a line of the send queue, or
 * registration, PONG, JOIN, QUIT...), logged; it leaves at the end of the
 * loop turn (flush). Returns 0, or an irc_wire error (logged): the link is
 * down or ending.
 */
static int wire_line(irc_net *n, const char *line)
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
    return r;
}

/* A line that does not come from the send queue: the server counts it
   too, so the queue's pacing does (irc_out_charge). */
int irc__send_line(irc_net *n, const char *line)
{
    int r = wire_line(n, line);
    if (r == 0)
        irc_out_charge(&n->q, loop_now(n->env.loop), line, strlen(line) + 2); /* CR LF */
    return r;
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

_Static_assert(IRC_CHAN_MAX <= IRC_OUT_TARGET_MAX, "a channel name is a send queue target");

/*
 * outq's ready callback: whether message m may go now, and where (then in
 * n->dest). A room message goes to its channel while we are in it, waits
 * (its target parked) while we are out of a channel we mean to be in, and
 * is dropped for a channel we left or could not stay in; a private one
 * goes to the player's current nick once the player has been seen under it
 * on this connection (irc__private_ready), and is dropped when none is
 * known.
 */
static outq_verdict ready(void *arg, const outq_msg *m)
{
    irc_net *n = arg;
    irc_dest *d = &n->dest;
    d->kind = IRC_OUT_PRIVMSG;
    d->colour = 1;
    if (m->kind == MSG_ROOM) {
        irc_chan *ch = irc__chan_find(n, m->target);
        if (ch == NULL) {
            log_msg(LOG_WARN, "%s: dropping a message for %s, a channel the bot is not in",
                    n->c.name, m->target);
            return OUTQ_DROP;
        }
        if (ch->lost) {
            log_msg(LOG_WARN, "%s: dropping a message for %s: the bot could not stay there",
                    n->c.name, ch->name);
            return OUTQ_DROP;
        }
        if (!ch->joined)
            return OUTQ_PARK; /* sent after we join again (irc__outbox_wake) */
        memcpy(d->target, ch->name, strlen(ch->name) + 1); /* IRC_CHAN_MAX: it fits */
        /* asked here, not cached in ch: a "set colours" holds from its next line */
        d->colour = ch->colour &&
                    (n->env.host == NULL || host_room_colours(n->env.host, n->c.name, ch->name));
        return OUTQ_SEND;
    }
    int verdict = irc__private_ready(n, m->target, d->target, sizeof d->target);
    if (verdict < 0) {
        log_msg(LOG_WARN, "%s: dropping a private message: no nick known for %s", n->c.name,
                m->target);
        return OUTQ_DROP;
    }
    if (verdict > 0)
        return OUTQ_PARK; /* until the player is seen from their user@host */
    if (n->c.private_notice || host_wants_notice(n->env.host, n->c.name, m->target))
        d->kind = IRC_OUT_NOTICE;
    return OUTQ_SEND;
}

/* Offers every parked target again (a channel joined, left or lost): the
   next take sends, parks again or drops its messages. */
void irc__outbox_wake(irc_net *n)
{
    outq_unpark_all(n->outq); /* ready() parks again those still waiting */
}

/* A free tag (an index of n->taken), or -1. */
static int free_tag(const irc_net *n)
{
    for (int i = 0; i < IRC_TAKEN_MAX; i++)
        if (n->taken[i] == NULL)
            return i;
    return -1;
}

/*
 * Moves outq's next message (hands first, then rooms, round robin) into
 * the send queue, split into lines. Returns true when one was taken: queued,
 * or done at once (an empty text, or one irc_out refuses: logged and
 * dropped); false when none may go now.
 */
static bool take_next(irc_net *n)
{
    int tag = free_tag(n);
    if (tag < 0)
        return false;
    outq_msg *m = outq_take(n->outq, ready, n);
    if (m == NULL)
        return false;
    const irc_dest *d = &n->dest;
    int r = irc_out_push(&n->q, d->target, d->kind, m->priority, d->colour, m->text, tag);
    if (r > 0) {
        n->taken[tag] = m;
        n->ntaken++;
        return true;
    }
    if (r == IRC_OUT_EFULL || r == IRC_OUT_ENO_MEMORY) {
        outq_untake(n->outq, m); /* later, when the queue has room */
        return false;
    }
    if (r < 0)
        log_msg(LOG_WARN, "%s: dropping a message to %s: %s", n->c.name, d->target,
                irc_out_strerror(r));
    outq_sent(n->outq, m); /* nothing to send, or it never can be */
    return true;
}

/* A line of the send queue was handed to the wire: when it was the last
   line of an outq message, that message is sent. */
static void line_sent(irc_net *n, const irc_out_sent *s)
{
    if (!s->done || s->tag < 0 || s->tag >= IRC_TAKEN_MAX || n->taken[s->tag] == NULL)
        return; /* a CTCP answer (tag -1), or not the last line */
    outq_sent(n->outq, n->taken[s->tag]);
    n->taken[s->tag] = NULL;
    n->ntaken--;
}

/* On disconnect: the send queue's lines are dropped and its messages go
   back to outq, whole, to be sent again after reconnecting. */
static void untake_all(irc_net *n)
{
    irc_out_clear(&n->q);
    outq_untake_all(n->outq);
    memset(n->taken, 0, sizeof n->taken);
    n->ntaken = 0;
}

/* Whether the wire's buffer takes more lines, once the socket has taken
   what it can. */
static bool wire_has_room(irc_net *n)
{
    if (irc_wire_pending(n->wire) < IRC_WIRE_HIGH)
        return true;
    (void)irc_wire_write_now(n->wire);
    return irc_wire_pending(n->wire) < IRC_WIRE_HIGH;
}

/*
 * Sets the send timer after a flush that handed out lines lines, when the
 * send queue next has a line to give, or the bucket credit for outq's next
 * message (bucket_empty: the flush stopped for it), or at once when the
 * turn's budget ran out. A full wire buffer wakes the loop by itself.
 */
static void arm_send(irc_net *n, int64_t now, int lines, bool bucket_empty)
{
    int64_t wait = irc_out_wait_ms(&n->q, now);
    if (bucket_empty && outq_count(n->outq) > (size_t)n->ntaken) {
        int64_t credit = irc_out_bucket_wait_ms(&n->q, now);
        wait = wait < 0 || credit < wait ? credit : wait;
    }
    if (lines >= IRC_FLUSH_LINES_MAX)
        wait = 0;
    else if (wait == 0)
        wait = 10; /* the wire is full: its write event comes first */
    if (wait < 0)
        loop_timer_stop(&n->send);
    else
        (void)loop_timer_start(&n->send, wait, 0);
}

/*
 * Hands the wire every line the token bucket allows now. The send queue
 * holds at most the message being written (and those a 707 holds back):
 * only when none of its lines may go is outq asked for the next message,
 * so the order across targets is outq's (hands first, then rooms before
 * players, each target in turn). A message is sent once its last line is
 * handed to the wire.
 */
static void send_queue(irc_net *n)
{
    char buf[IRC_OUT_LINE_MAX + 1];
    irc_out_sent sent;
    int64_t now = loop_now(n->env.loop);
    int lines = 0;
    bool bucket_empty = false;
    while (lines < IRC_FLUSH_LINES_MAX && wire_has_room(n)) {
        if (irc_out_next(&n->q, now, buf, sizeof buf, &sent) == 1) {
            buf[sent.len - 2] = '\0'; /* without CR LF */
            if (wire_line(n, buf) != 0)
                break; /* the link is ending: link_down gives its message back */
            line_sent(n, &sent);
            lines++;
        } else if (irc_out_bucket_wait_ms(&n->q, now) > 0) {
            bucket_empty = true;
            break;
        } else if (!take_next(n)) {
            break;
        }
    }
    arm_send(n, now, lines, bucket_empty);
}

/*
 * Sends what may go now (once registered, and never after our QUIT), then
 * writes the wire's buffer to the socket at once, not at the next poll.
 */
static void flush(irc_net *n)
{
    if (!irc_wire_connected(n->wire))
        return;
    if (ircp_registered(n->proto) && !n->quitting)
        send_queue(n);
    (void)irc_wire_write_now(n->wire);
}

static void on_send_timer(loop_timer *t, void *arg)
{
    (void)t;
    flush(arg);
}

/*
 * The store could not read the outbox or mark messages sent (busy, full
 * disk...): logged once until it works again, and that step (*wait) is
 * left alone for IRC_STORE_RETRY_MS, so the loop does not wait on a lock
 * every turn. Nothing is lost: rows are read again, marks are kept, and
 * what is in memory goes on being sent.
 */
static void store_trouble(irc_net *n, const char *what, int rc, bool *wait)
{
    if (!n->store_failed)
        log_msg(outq_err_transient(rc) ? LOG_WARN : LOG_ERROR,
                "%s: cannot %s (trying again every %d s): %s", n->c.name, what,
                IRC_STORE_RETRY_MS / 1000, outq_errmsg(n->outq));
    n->store_failed = true;
    *wait = loop_timer_active(&n->retry) || loop_timer_start(&n->retry, IRC_STORE_RETRY_MS, 0) == 0;
}

static void on_retry_timer(loop_timer *t, void *arg)
{
    (void)t;
    irc_net *n = arg;
    n->load_wait = n->marks_wait = false; /* the hook tries again before the loop sleeps */
}

/* Wakes the loop so that the hook loads more of a huge outbox. */
static void on_more_timer(loop_timer *t, void *arg)
{
    (void)t;
    (void)arg;
}

/*
 * Reads the outbox rows added since the last turn into outq; a huge
 * backlog loads over several turns, the loop woken for each, so it drains
 * with no traffic at all. false when the store failed.
 */
static bool outbox_load(irc_net *n)
{
    int rc = outq_load(n->outq);
    if (rc < 0) {
        store_trouble(n, "read the outbox", rc, &n->load_wait);
        return false;
    }
    if (rc == 1)
        (void)loop_timer_start(&n->more, 0, 0);
    return true;
}

/* Deletes the messages sent since the last time from the store: one
   transaction. false when the store failed. */
static bool outbox_marks(irc_net *n)
{
    int rc = outq_flush_done(n->outq);
    if (rc != 0) {
        store_trouble(n, "mark messages sent", rc, &n->marks_wait);
        return false;
    }
    return true;
}

/* Before the loop sleeps: the outbox's new rows in, allowed lines out, and
   the marks of the messages sent written together, once per turn. */
static void on_hook(loop_hook *h, void *arg)
{
    (void)h;
    irc_net *n = arg;
    bool loaded = !n->load_wait && outbox_load(n);
    flush(n);
    bool marked = !n->marks_wait && outbox_marks(n);
    if (loaded && marked && n->store_failed) {
        log_msg(LOG_INFO, "%s: the outbox is read and marked again", n->c.name);
        n->store_failed = false;
    }
    size_t count = outq_count(n->outq);
    int watch = outq_watch_check(&n->backlog, count, loop_now(n->env.loop));
    if (watch > 0)
        log_msg(LOG_WARN,
                "[irc %s]: the send queue has held over %d messages for %d s (%zu now): the "
                "server takes lines more slowly than the games make them%s",
                n->c.name, OUTQ_WATCH_COUNT, OUTQ_WATCH_MS / 1000, count,
                irc_wire_connected(n->wire) ? "" : " (and the bot is not connected)");
    else if (watch < 0)
        log_msg(LOG_INFO, "[irc %s]: the send queue is back to %zu messages", n->c.name, count);
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
    untake_all(n);
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

/* SASL did not log us in, and the network goes on: one line says how it
   goes on (IDENTIFY to the services target, or without an account). */
static void sasl_failed(irc_net *n)
{
    const char *how = "going on without an account (no nickserv_password)";
    if (n->c.nickserv_password[0] != '\0')
        how = n->c.nickserv_target[0] != '\0'
                  ? "IDENTIFY to nickserv_target follows after registration"
                  : "going on without an account (no nickserv_target to IDENTIFY to)";
    log_msg(LOG_WARN, "[irc %s]: SASL log-in failed (%s): %s", n->c.name,
            ircp_sasl_failure(n->proto), how);
}

/* SASL failed and require_sasl is set: this network closes for good, the
   others and the games go on. */
static void sasl_stop(irc_net *n)
{
    log_msg(LOG_ERROR,
            "[irc %s]: SASL log-in failed (%s): stopping this network, as require_sasl "
            "says",
            n->c.name, ircp_sasl_failure(n->proto));
    irc_net_quit(n, "SASL log-in failed");
}

/* Acts on what irc_proto noticed in a line or on its timer. */
static void proto_events(irc_net *n, int ev)
{
    const char *diag = ircp_diag(n->proto);
    if (ev & IRCP_EV_WELCOME) {
        log_msg(LOG_INFO, "%s: registered as %s", n->c.name, ircp_nick(n->proto));
        irc_out_welcome(&n->q, loop_now(n->env.loop));
        ircp_backoff_up(&n->backoff, loop_now(n->env.loop));
        irc__seen_reset(n);
        irc__outbox_wake(n);
        irc__join_all(n);
    }
    if (ev & (IRCP_EV_WELCOME | IRCP_EV_NICK)) {
        size_t user = strlen(n->c.username[0] ? n->c.username : n->c.nick) + 1; /* a '~' */
        (void)irc_out_set_prefix(&n->q, strlen(ircp_nick(n->proto)), user, 0);
    }
    if (ev & IRCP_EV_LOGGED_IN)
        log_msg(LOG_INFO, "%s: logged in as %s", n->c.name, ircp_account(n->proto));
    if (ev & IRCP_EV_IDENTIFY)
        log_msg(LOG_INFO, "[irc %s]: not logged in by SASL: identifying by IDENTIFY to %s",
                n->c.name, n->c.nickserv_target);
    if (ev & IRCP_EV_SASL_STOP) {
        sasl_stop(n);
        return;
    }
    if (ev & IRCP_EV_SASL_FAILED)
        sasl_failed(n);
    if (ev & IRCP_EV_NICK_GIVEUP)
        link_down(n, "every configured nick is taken or refused");
    else if (ev & IRCP_EV_DEAD)
        link_down(n, "the server stopped answering (ping timeout)");
    else if (ev & IRCP_EV_ERROR)
        log_msg(n->quitting ? LOG_INFO : LOG_WARN, "%s: %s", n->c.name, diag);
}

/*
 * What the pacing learns from a server line: its version (RPL_MYINFO, 004:
 * "<me> <server> <version> ...") picks the model of pace = auto, and an
 * error numeric costs a penalty on ngircd.
 */
static void pace_learn(irc_net *n, const ircp_msg *m)
{
    const char *c = m->command;
    if (strcmp(c, "004") == 0 && m->nparams >= 3) {
        snprintf(n->server_version, sizeof n->server_version, "%s", ircp_param(m, 2));
        if (irc_out_server_version(&n->q, ircp_param(m, 2)) == 1)
            log_msg(LOG_INFO, "%s: the server runs %s: pacing as %s", n->c.name, ircp_param(m, 2),
                    irc_out_pace_name(irc_out_model(&n->q)));
    } else if ((c[0] == '4' || c[0] == '5') && c[1] >= '0' && c[1] <= '9' && c[2] >= '0' &&
               c[2] <= '9' && c[3] == '\0') {
        irc_out_error_reply(&n->q, loop_now(n->env.loop));
    }
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
    pace_learn(n, &n->msg);
    irc_ev e; /* the line's one event, from irc_proto's parse */
    if (irc_ev_classify(&n->msg, &e) != IRC_EV_NONE)
        irc__on_event(n, &e);
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
    pc.nickserv_target = opt(n->c.nickserv_target);
    pc.require_sasl = n->c.require_sasl;
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
    outq_watch_init(&n->backlog);
    ircp_rng_seed(&n->rng, env->seed ^ (uint64_t)(uintptr_t)n);
    irc_out_ctcp_init(&n->ctcp, IRC_OUT_CTCP_MS_DEFAULT);
    char sub[IRC_WIRE_WHY_MAX];
    irc_wire_config wc = {c->host, c->port, c->tls, c->tls_verify, opt(c->ca_file), 0};
    irc_wire_callbacks cb = {on_connected, on_line, on_closed};
    irc_out_pace pace;
    if (irc_out_pace_parse(c->pace, &pace) != 0 ||
        irc_out_init_pace(&n->q, pace, c->burst, c->line_ms) != 0) {
        snprintf(why, why_len, "[irc %s]: pace, burst or line_ms out of range", c->name);
        free(n);
        return -1;
    }
    if (outq_new(&n->outq, env->store, c->name) != 0) {
        snprintf(why, why_len, "[irc %s]: out of memory for the outbox", c->name);
        irc_net_free(n);
        return -1;
    }
    if (make_proto(n, why, why_len) != 0 ||
        irc_wire_new(&n->wire, env->loop, &wc, &cb, n, sub, sizeof sub) != 0) {
        if (n->proto != NULL && n->wire == NULL)
            snprintf(why, why_len, "[irc %s]: %s", c->name, sub);
        irc_net_free(n);
        return -1;
    }
    if (c->nickserv_password[0] != '\0' && c->nickserv_target[0] == '\0')
        log_msg(LOG_WARN,
                "[irc %s]: nickserv_password is set but nickserv_target is not, so the bot "
                "never sends IDENTIFY (anyone holding the nick NickServ would read it); set "
                "nickserv_target = NickServ@services.example.net to the services' full address",
                c->name);
    for (int i = 0; i < c->nchannels; i++)
        (void)irc__chan_add(n, c->channels[i], true);
    irc__load_invited(n);
    adapter_life_init(&n->life, env->loop, &n->hook, on_hook, n);
    adapter_life_timer(&n->life, &n->reconnect, on_reconnect, n);
    adapter_life_timer(&n->life, &n->tick, on_tick, n);
    adapter_life_timer(&n->life, &n->send, on_send_timer, n);
    adapter_life_timer(&n->life, &n->quit, on_quit_timer, n);
    adapter_life_timer(&n->life, &n->more, on_more_timer, n);
    adapter_life_timer(&n->life, &n->retry, on_retry_timer, n);
    *out = n;
    return 0;
}

int irc_net_start(irc_net *n)
{
    return adapter_life_start(&n->life, &n->reconnect); /* connecting at once */
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

outq *irc_net_outq(irc_net *n)
{
    return n->outq;
}

void irc_net_free(irc_net *n)
{
    if (n == NULL)
        return;
    adapter_life_stop(&n->life);
    irc_wire_free(n->wire);
    irc_out_fini(&n->q);
    outq_free(n->outq);
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
