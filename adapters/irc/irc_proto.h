/*
 * irc_proto.h — the IRC protocol logic of the IRC adapter, as pure code:
 * raw lines in, lines to send out, with time passed in as milliseconds.
 *
 * It parses server lines (message tags skipped, never interpreted), runs
 * registration (CAP LS 302, CAP REQ of sasl / account-notify /
 * extended-join only, SASL PLAIN, CAP END, NickServ IDENTIFY as the
 * fallback, to the configured services target only), tracks our own
 * nick (433 and friends, 001, NICK) and the
 * server's ISUPPORT (CHANTYPES, NICKLEN, CASEMAPPING), maps nicks to
 * services accounts for stable player ids, answers PING and detects a dead
 * link, and computes the reconnect back-off. It masks secrets in lines it
 * renders for logs. It is not: sockets, DNS, TLS, libircclient, the send
 * queue's pacing (flood control), channels, or games. It never allocates
 * after ircp_new, never calls the clock or rand(), and accepts any bytes.
 *
 * Registration order (a choice): ircp_connect queues CAP LS 302, then PASS
 * (when configured), NICK and USER at once, as most clients do. A server
 * that knows CAP holds registration until our CAP END; one that does not
 * answers 421 and registers us without waiting for a CAP exchange that
 * would never come.
 *
 * Lines to send are queued inside (IRCP_QUEUE_MAX of them) without CR LF;
 * the adapter drains them with ircp_pop after every call that may queue
 * (ircp_connect, ircp_feed, ircp_handle, ircp_tick) and sends each with a
 * constant format ("%s"), never the line as a format.
 */
#ifndef PZ_IRC_PROTO_H
#define PZ_IRC_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IRCP_LINE_MAX 8191     /* longest line accepted from a server, without CR LF */
#define IRCP_OUT_MAX 510       /* longest line we queue, without CR LF (512 with it) */
#define IRCP_PARAMS_MAX 15     /* parameters of one message (RFC 1459) */
#define IRCP_NAME_MAX 256      /* nick, user and host parts of a prefix, NUL included */
#define IRCP_COMMAND_MAX 32    /* a command word, NUL included */
#define IRCP_NICK_MAX 64       /* our nicks and the nicks we map, NUL included */
#define IRCP_ACCOUNT_MAX 64    /* a services account name, NUL included */
#define IRCP_SECRET_MAX 512    /* a password, NUL included */
#define IRCP_REALNAME_MAX 128  /* the USER real name, NUL included */
#define IRCP_CHANTYPES_MAX 16  /* CHANTYPES characters, NUL included */
#define IRCP_ALT_NICKS_MAX 4   /* configured alternative nicks */
#define IRCP_NICK_TRIES_MAX 32 /* nicks tried in one registration before giving up */
#define IRCP_ACCOUNTS_MAX 256  /* nick -> account entries kept (least recently used go) */
#define IRCP_QUEUE_MAX 32      /* queued lines to send */
#define IRCP_TARGET_MAX 128    /* nickserv_target ("NickServ@services.libera.chat"), NUL included */
#define IRCP_ID_MAX 72         /* a player id ("a:account" or "n:nick"), NUL included */
#define IRCP_DIAG_MAX 160      /* a diagnostic message, NUL included */
#define IRCP_LOG_MAX 1024      /* holds any line we send as ircp_log_line renders it */

#define IRCP_NICKLEN_DEFAULT 9        /* NICKLEN assumed before ISUPPORT says (RFC 1459, ngircd) */
#define IRCP_PING_IDLE_MS 120000      /* default: idle this long, we send our own PING */
#define IRCP_PING_TIMEOUT_MS 60000    /* default: no line this long after it, the link is dead */
#define IRCP_CAP_TIMEOUT_MS 30000     /* default: CAP/SASL unanswered this long, we CAP END */
#define IRCP_BACKOFF_MIN_MS 2000      /* first reconnect delay (before jitter) */
#define IRCP_BACKOFF_MAX_MS 300000    /* the delay never exceeds this */
#define IRCP_BACKOFF_STABLE_MS 300000 /* a link up this long resets the back-off */

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

/* Functions return 0 (IRCP_OK) or a negative IRCP_E* value from this table. */
#define IRCP_ERRNO_MAP(XX)                                                                         \
    XX(TOOLONG, -1, "the line or one of its fields is too long")                                   \
    XX(BADBYTE, -2, "the line holds a NUL, CR or LF byte")                                         \
    XX(EMPTY, -3, "the line has no command")                                                       \
    XX(BADCOMMAND, -4, "the command is neither a word nor a 3-digit numeric")                      \
    XX(NOSPACE, -5, "the buffer is too small")                                                     \
    XX(FULL, -6, "the send queue is full")                                                         \
    XX(INVAL, -7, "invalid argument")                                                              \
    XX(CONFIG, -8, "invalid configuration")                                                        \
    XX(NOMEM, -9, "out of memory")                                                                 \
    XX(BADPREFIX, -10, "the prefix is empty")

typedef enum ircp_errno {
    IRCP_OK = 0,
#define IRCP_ERR_ENUM_(name, val, msg) IRCP_E##name = (val),
    IRCP_ERRNO_MAP(IRCP_ERR_ENUM_)
#undef IRCP_ERR_ENUM_
} ircp_errno;

/* A human message for err ("success" for 0, "unknown error" otherwise). Never NULL. */
const char *ircp_strerror(int err);

/* ------------------------------------------------------------------------ */
/* Parsing one line                                                         */

/*
 * One parsed line. Fields are copies (the struct may be copied by value);
 * the parameters live NUL-separated in text, read them with ircp_param.
 */
typedef struct ircp_msg {
    bool has_tags;                  /* it began with @tags (skipped, never read) */
    char nick[IRCP_NAME_MAX];       /* prefix up to '!' or '@': a nick or a server; "" if none */
    char user[IRCP_NAME_MAX];       /* prefix between '!' and '@', or "" */
    char host[IRCP_NAME_MAX];       /* prefix after '@', or "" */
    char command[IRCP_COMMAND_MAX]; /* upper case: "PRIVMSG", "001" */
    int nparams;                    /* 0..IRCP_PARAMS_MAX */
    bool trailing;                  /* the last parameter came after " :" */
    uint16_t param_off[IRCP_PARAMS_MAX];
    char text[IRCP_LINE_MAX + 1];
} ircp_msg;

/*
 * Parses one line of len bytes ("@tags :prefix COMMAND p1 p2 :trailing"),
 * with or without its final CR LF. Message tags are skipped; spaces
 * between fields may repeat; a 15th parameter takes the rest of the line
 * as it is. Refuses lines over IRCP_LINE_MAX bytes (IRCP_ETOOLONG), NUL,
 * CR or LF inside (IRCP_EBADBYTE), no command (IRCP_EEMPTY), an empty
 * prefix (IRCP_EBADPREFIX), a command
 * that is not letters or 3 digits (IRCP_EBADCOMMAND), and prefix parts or
 * commands longer than their fields (IRCP_ETOOLONG). Any bytes are safe.
 * Returns 0 with *out written, or an error with *out untouched.
 */
int ircp_parse(const char *line, size_t len, ircp_msg *out);

/* Parameter i of m, or "" when i is out of range. Never NULL. */
const char *ircp_param(const ircp_msg *m, int i);

/*
 * Renders a line (received or to send, len bytes) for a log into out (cap
 * bytes, always NUL-terminated when cap > 0): control bytes become '?',
 * the final CR LF is dropped, and secrets become "***": the argument of
 * PASS, IDENTIFY and OPER's password, AUTHENTICATE payloads (anything but
 * "+", "*", "PLAIN", "EXTERNAL"), and everything after the first word of
 * a PRIVMSG or NOTICE to NickServ, of an IDENTIFY to any target but a
 * channel, or of a NICKSERV / NS command. Returns
 * 0, or IRCP_ENOSPACE when the rendering was cut short (still masked).
 */
int ircp_log_line(const char *line, size_t len, char *out, size_t cap);

/* ------------------------------------------------------------------------ */
/* A session: one connection's protocol state, reused across reconnects    */

typedef struct ircp ircp;

/* What ircp_new copies; NULL or 0 fields take the default said. */
typedef struct ircp_config {
    const char *nick;                          /* required: letters, digits, []\`_^{|}- */
    const char *alt_nicks[IRCP_ALT_NICKS_MAX]; /* tried in order after nick; NULLs skipped */
    const char *user;                          /* USER name; default: nick */
    const char *realname;                      /* USER real name; default "Porrazo bot" */
    const char *server_pass;                   /* PASS; default none */
    const char *sasl_user;                     /* SASL PLAIN account; none: no SASL */
    const char *sasl_pass;                     /* its password (required with sasl_user) */
    const char *nickserv_pass;                 /* IDENTIFY fallback when SASL did not log in */
    const char *nickserv_user;   /* "IDENTIFY user pass" if set, else "IDENTIFY pass" */
    const char *nickserv_target; /* where IDENTIFY goes ("NickServ@services.libera.chat");
                                    none: never IDENTIFY, whoever holds the nick NickServ */
    bool require_sasl;           /* a SASL failure ends registration: IRCP_EV_SASL_STOP */
    int nicklen;                 /* NICKLEN before ISUPPORT; 0: IRCP_NICKLEN_DEFAULT */
    int64_t ping_idle_ms;        /* 0: IRCP_PING_IDLE_MS */
    int64_t ping_timeout_ms;     /* 0: IRCP_PING_TIMEOUT_MS */
    int64_t cap_timeout_ms;      /* 0: IRCP_CAP_TIMEOUT_MS */
} ircp_config;

/* Flags returned by ircp_feed, ircp_handle and ircp_tick (0: nothing to report). */
enum ircp_event {
    IRCP_EV_WELCOME = 1 << 0,     /* 001: registered; join the channels now */
    IRCP_EV_NICK = 1 << 1,        /* 001 or NICK changed our nick: see ircp_nick */
    IRCP_EV_LOGGED_IN = 1 << 2,   /* 900: services know us as ircp_account */
    IRCP_EV_SASL_FAILED = 1 << 3, /* SASL did not log in (NickServ follows if configured) */
    IRCP_EV_NICK_GIVEUP = 1 << 4, /* every nick refused: disconnect and back off */
    IRCP_EV_DEAD = 1 << 5,        /* no answer to our PING in time: reconnect */
    IRCP_EV_ERROR = 1 << 6,       /* the server sent ERROR: it is closing the link */
    IRCP_EV_SASL_STOP = 1 << 7,   /* SASL failed and require_sasl: close, do not reconnect */
    IRCP_EV_IDENTIFY = 1 << 8     /* 001 without SASL: IDENTIFY went to nickserv_target */
};

/*
 * Checks cfg and makes a session that copies it (the strings may go after
 * the call). Returns 0 with *out set (free it with ircp_free), or
 * IRCP_ECONFIG with why (why_len bytes, may be 0) saying which field is
 * wrong, or IRCP_ENOMEM; *out untouched on error. Secrets are never
 * quoted in why.
 */
int ircp_new(const ircp_config *cfg, ircp **out, char *why, size_t why_len);

/* Wipes the session's secrets and frees it. NULL is fine. */
void ircp_free(ircp *p);

/*
 * Starts a new connection at now_ms: forgets everything of the last one
 * (queue, capabilities, nick tries, accounts) but the ISUPPORT values,
 * which stay those of the network until a new 005 says otherwise; queues
 * CAP LS 302, PASS, NICK and USER. Returns 0 or IRCP_EFULL.
 */
int ircp_connect(ircp *p, int64_t now_ms);

/*
 * Feeds one received line (len bytes, CR LF optional) at now_ms: any line,
 * even a malformed one, proves the link alive. Parses it into *m (or a
 * scratch message when m is NULL) and hands it to ircp_handle. Returns
 * ircp_event flags, or a parse error (the line is ignored, *m untouched)
 * or IRCP_EFULL.
 */
int ircp_feed(ircp *p, const char *line, size_t len, int64_t now_ms, ircp_msg *m);

/*
 * Acts on one parsed line received at now_ms: registration, capabilities,
 * SASL, nick, ISUPPORT, accounts, PING. Lines it does not know are left
 * to the adapter. Returns ircp_event flags or IRCP_EFULL.
 */
int ircp_handle(ircp *p, const ircp_msg *m, int64_t now_ms);

/*
 * Runs the timers at now_ms: ends a CAP/SASL negotiation left unanswered,
 * sends our own PING after the idle time, and returns IRCP_EV_DEAD (on
 * every call until the next ircp_connect) when no line came back within
 * the timeout after it. Returns ircp_event flags or IRCP_EFULL.
 */
int ircp_tick(ircp *p, int64_t now_ms);

/* The time (ms) by which ircp_tick should next run; INT64_MAX when never. */
int64_t ircp_next_tick(const ircp *p);

/*
 * Takes the oldest queued line into buf (cap bytes) without CR LF and
 * wipes it from the queue. Returns its length, 0 when the queue is empty,
 * or IRCP_ENOSPACE (the line stays queued) when cap is too small.
 */
int ircp_pop(ircp *p, char *buf, size_t cap);

/* Lines waiting in the queue. */
int ircp_pending(const ircp *p);

/* Our nick as the server knows it (the one we asked for before 001). */
const char *ircp_nick(const ircp *p);

/* True once 001 arrived on this connection. */
bool ircp_registered(const ircp *p);

/* True when the server acknowledged capability name on this connection. */
bool ircp_has_cap(const ircp *p, const char *name);

/* Our services account (from 900), or "" when not logged in. */
const char *ircp_account(const ircp *p);

/* The last notable thing the session noticed, for a log; "" if none. No secrets. */
const char *ircp_diag(const ircp *p);

/*
 * Why SASL did not log us in on this connection, for a log ("904", "the
 * server offers no SASL"), or "" while it has not failed. No secrets.
 */
const char *ircp_sasl_failure(const ircp *p);

/* ------------------------------------------------------------------------ */
/* ISUPPORT, case mapping, accounts and player ids (irc_proto_users.c)      */

/*
 * Writes s folded to lower case as the server's CASEMAPPING does into out
 * (cap bytes). Returns 0, or IRCP_ENOSPACE (out untouched) when it does
 * not fit. Two names are the same for the server when their folds are.
 */
int ircp_fold(const ircp *p, const char *s, char *out, size_t cap);

/* True when target starts with one of the server's CHANTYPES (default "#&"). */
bool ircp_is_channel(const ircp *p, const char *target);

/* The CHANTYPES in force ("#&" until ISUPPORT says otherwise). */
const char *ircp_chantypes(const ircp *p);

/* The NICKLEN in force (the configured guess until ISUPPORT says). */
int ircp_nicklen(const ircp *p);

/* Compares two names as the server does (CASEMAPPING rfc1459, strict-rfc1459 or ascii). */
int ircp_casecmp(const ircp *p, const char *a, const char *b);

/* The services account the server told us for nick, or NULL when unknown. */
const char *ircp_account_of(ircp *p, const char *nick);

/*
 * The id the host should use for the player called nick: "a:" and the
 * account, case-folded, when the server told us nick's account (by
 * extended-join or account-notify); otherwise "n:" and the nick,
 * case-folded. The two forms cannot collide. Writes out (cap bytes) and
 * returns 0, or IRCP_EINVAL (empty or too long nick) or IRCP_ENOSPACE.
 */
int ircp_player_id(ircp *p, const char *nick, char *out, size_t cap);

#define IRCP_MASK_MAX 192 /* a user@host as ircp_mask_of writes it, NUL included */

/*
 * The user@host of a message's origin ("nick!user@host") in the form that
 * ircp_mask_same compares, into out (cap bytes): the user without the
 * leading "~" a server adds when no ident answered, and both parts in
 * ASCII lower case ("Bob!~Bob@Host.Example" -> "bob@host.example").
 * Returns 0, IRCP_EINVAL when origin has no non-empty user and host (a
 * server, a bare nick, a space or control byte) or IRCP_ENOSPACE when it
 * does not fit (never cut: a cut mask could match someone else's); out is
 * then "".
 */
int ircp_mask_of(const char *origin, char *out, size_t cap);

/*
 * Whether two masks from ircp_mask_of are the same person to the bot:
 * the users are equal and the hosts are equal, or both hosts are IPv6
 * addresses in the same /64 (privacy extensions change the rest every
 * day; a /64 is one subscriber's line). Nothing else is loosened: another
 * IPv4 address, another reverse name or another cloak is someone else.
 * False when either is empty or not a mask.
 */
bool ircp_mask_same(const char *a, const char *b);

/* ------------------------------------------------------------------------ */
/* Reconnect back-off (irc_proto_line.c)                                    */

/* A small seeded generator (SplitMix64): the caller owns the seed. */
typedef struct ircp_rng {
    uint64_t state;
} ircp_rng;

void ircp_rng_seed(ircp_rng *r, uint64_t seed);
uint64_t ircp_rng_next(ircp_rng *r);

/* The reconnect delay: caller memory, no allocation. */
typedef struct ircp_backoff {
    int attempt;         /* delays handed out since the last reset */
    bool up;             /* the link came up since the last delay */
    int64_t up_since_ms; /* when it came up */
} ircp_backoff;

/* A back-off whose next delay is the first. */
void ircp_backoff_init(ircp_backoff *b);

/* Says the link came up (registered) at now_ms. */
void ircp_backoff_up(ircp_backoff *b, int64_t now_ms);

/*
 * The delay (ms) before the next connection attempt, after a loss at
 * now_ms. The nominal delay doubles from IRCP_BACKOFF_MIN_MS to
 * IRCP_BACKOFF_MAX_MS; jitter from rng takes up to a quarter off it, so
 * the delay lies in [3/4 nominal, nominal]. A link that had stayed up
 * IRCP_BACKOFF_STABLE_MS or more starts the sequence again.
 */
int64_t ircp_backoff_next(ircp_backoff *b, int64_t now_ms, ircp_rng *rng);

#endif /* PZ_IRC_PROTO_H */
