/*
 * irc_proto_int.h — what the files of the irc_proto module share and
 * nobody else sees: struct ircp and the helpers that cross files.
 * irc_proto.c holds the session (registration, capabilities, SASL, nick,
 * liveness, the send queue), irc_proto_users.c ISUPPORT, case mapping and
 * the nick -> account map, irc_proto_line.c the line parser, log masking,
 * base64 and the back-off. Not part of the API.
 */
#ifndef PZ_IRC_PROTO_INT_H
#define PZ_IRC_PROTO_INT_H

#ifndef PZ_INSIDE_IRC_PROTO
#error "irc_proto_int.h is irc_proto's inside: other layers include irc_proto.h (ARCHITECTURE.md)"
#endif

#include "irc_proto.h"

/* Capabilities we may request, as bits. */
enum ircp_cap {
    IRCP_CAP_SASL = 1 << 0,
    IRCP_CAP_ACCOUNT_NOTIFY = 1 << 1,
    IRCP_CAP_EXTENDED_JOIN = 1 << 2
};

/* Where registration stands on this connection. */
enum ircp_reg {
    REG_IDLE,         /* before ircp_connect */
    REG_CAP_LS,       /* CAP LS 302 sent, reading the list */
    REG_CAP_REQ,      /* CAP REQ sent, waiting for ACK or NAK */
    REG_SASL_START,   /* AUTHENTICATE PLAIN sent, waiting for "AUTHENTICATE +" */
    REG_SASL_SENT,    /* credentials sent, waiting for 903 or a failure numeric */
    REG_WAIT_WELCOME, /* CAP END sent (or CAP unknown), waiting for 001 */
    REG_DONE          /* 001 received */
};

enum ircp_casemap { CASEMAP_RFC1459, CASEMAP_STRICT_RFC1459, CASEMAP_ASCII };

/* One nick the server told us is logged in to an account. */
typedef struct ircp_acct {
    char nick[IRCP_NICK_MAX];
    char account[IRCP_ACCOUNT_MAX];
    uint64_t used; /* LRU stamp; 0 = free slot */
} ircp_acct;

struct ircp {
    /* configuration, copied and checked */
    char cfg_nick[IRCP_NICK_MAX];
    char cfg_alts[IRCP_ALT_NICKS_MAX][IRCP_NICK_MAX];
    int nalts;
    char cfg_user[IRCP_NICK_MAX];
    char cfg_realname[IRCP_REALNAME_MAX];
    char server_pass[IRCP_SECRET_MAX];
    char sasl_user[IRCP_ACCOUNT_MAX];
    char sasl_pass[IRCP_SECRET_MAX];
    char nickserv_user[IRCP_ACCOUNT_MAX];
    char nickserv_pass[IRCP_SECRET_MAX];
    char nickserv_target[IRCP_TARGET_MAX]; /* "" : no IDENTIFY at all */
    bool require_sasl;
    int cfg_nicklen;
    int64_t idle_ms, timeout_ms, cap_timeout_ms;

    /* ISUPPORT, kept across connections */
    char chantypes[IRCP_CHANTYPES_MAX];
    int nicklen; /* 0 until 005 gives NICKLEN */
    enum ircp_casemap casemap;

    /* this connection */
    enum ircp_reg reg;
    unsigned caps_offered, caps_enabled;
    bool sasl_ok, sasl_failed;
    bool sasl_stop;    /* SASL failed with require_sasl: registration stays on hold */
    char sasl_why[48]; /* why SASL failed, for ircp_sasl_failure */
    int nick_try;      /* index of the nick candidate last sent */
    char nick[IRCP_NICK_MAX];
    char account[IRCP_ACCOUNT_MAX];
    int64_t cap_deadline_ms;
    int64_t last_rx_ms;
    bool ping_out; /* a PING of ours is unanswered, sent at ping_sent_ms */
    int64_t ping_sent_ms;
    unsigned ping_seq;
    char diag[IRCP_DIAG_MAX];

    /* the send queue: a ring */
    char queue[IRCP_QUEUE_MAX][IRCP_OUT_MAX + 1];
    int qhead, qlen;

    /* nick -> account */
    ircp_acct accts[IRCP_ACCOUNTS_MAX];
    uint64_t acct_clock;

    ircp_msg scratch; /* ircp_feed's message when the caller gives none */
};

/* Writes a diagnostic (never a secret) for ircp_diag. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void ircp__diag(ircp *p, const char *fmt, ...);

/* Zeroes n bytes at s in a way the compiler keeps. */
void ircp__wipe(void *s, size_t n);

/*
 * Base64 (RFC 4648, padded) of len bytes into out (cap bytes). Returns the
 * length written without the NUL, or IRCP_ENOSPACE.
 */
int ircp__base64(const unsigned char *in, size_t len, char *out, size_t cap);

/* ASCII case-insensitive equality (for commands, tokens, service names). */
bool ircp__ascii_eq(const char *a, const char *b);

/* irc_proto_users.c: the ISUPPORT defaults (used at ircp_new). */
void ircp__isupport_reset(ircp *p);

/* irc_proto_users.c: reads the tokens of a 005 line. */
void ircp__isupport(ircp *p, const ircp_msg *m);

/* irc_proto_users.c: JOIN, ACCOUNT, NICK, QUIT, PART and KICK for the account map. */
void ircp__accounts_on(ircp *p, const ircp_msg *m);

/* irc_proto_users.c: forgets every nick -> account entry. */
void ircp__accounts_clear(ircp *p);

#endif /* PZ_IRC_PROTO_INT_H */
