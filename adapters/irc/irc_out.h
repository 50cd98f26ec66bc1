/*
 * irc_out.h — the outgoing side of an IRC connection, as a pure module: text
 * made safe for a raw line, mIRC colours for the suits, messages split into
 * lines that fit in 512 bytes once the server adds its prefix, a send queue
 * with flood control (paced by what the server counts: ngircd, InspIRCd,
 * Solanum or a fixed token bucket, see adapters/irc/PACING.md; fair across
 * targets, priority first, requeue on 707 ERR_TARGCHANGE) and the CTCP
 * VERSION answer.
 *
 * It opens no socket and reads no clock: the caller passes the time in
 * milliseconds from any monotonic source, writes the lines irc_out_next()
 * hands it, and calls again after irc_out_wait_ms(). Not here: parsing what
 * the server sends (irc_proto), the connection, the rules or the commands.
 *
 * Delivery contract with the host's outbox: a message is pushed with a tag
 * (the caller's handle of its outbox message); the tag is reported once,
 * when the LAST line of the message is handed out, and only then may the
 * message be marked sent. irc_out_clear() (on disconnect) drops every
 * unsent line without reporting its tag, so those messages stay unsent and
 * are pushed again after reconnecting: nothing is lost, though the first
 * parts of a message cut by the disconnect are sent twice. A line that a
 * 707 sends back after its tag was reported is resent from memory only
 * (lost if the link drops before).
 */
#ifndef PZ_IRC_OUT_H
#define PZ_IRC_OUT_H

#include <stddef.h>
#include <stdint.h>

#define IRC_OUT_LINE_MAX 512         /* bytes of a relayed line, CRLF included (RFC 1459) */
#define IRC_OUT_HOST_UNKNOWN 63      /* host length assumed while ours is unknown */
#define IRC_OUT_TARGET_MAX 128       /* bytes of a target, NUL included */
#define IRC_OUT_TEXT_MAX 2048        /* bytes of a pushed text, NUL excluded */
#define IRC_OUT_BUDGET_MIN 100       /* fewer text bytes per line than this: refused */
#define IRC_OUT_REOPEN_MAX 16        /* bytes of the codes that reopen a format, NUL incl. */
#define IRC_OUT_LINES_MAX 2000       /* lines queued at most */
#define IRC_OUT_TARGETS_MAX 256      /* targets known at once */
#define IRC_OUT_BURST_DEFAULT 4      /* lines sent back to back after a quiet spell */
#define IRC_OUT_BURST_MAX 1000       /* the largest burst irc_out_init takes */
#define IRC_OUT_LINE_MS_DEFAULT 1500 /* then one line per this many ms */
#define IRC_OUT_LINE_MS_MAX 60000    /* the longest interval irc_out_init takes */

/* The pacing models' figures: adapters/irc/PACING.md derives each from the
   server's source, with its safety margin. */
#define IRC_OUT_NGIRCD_WINDOW_MS 1100  /* ngircd counts bytes per second of its clock: 1 s + 0.1 */
#define IRC_OUT_NGIRCD_BYTES 230       /* bytes a window may hold besides its first line (256) */
#define IRC_OUT_NGIRCD_LINES 3         /* lines one read may hold (MAX_COMMANDS) ... */
#define IRC_OUT_NGIRCD_LINES_MS 300    /* ... counted over this many ms */
#define IRC_OUT_NGIRCD_WELCOME_MS 1000 /* its penalty for registering */
#define IRC_OUT_NGIRCD_ERROR_MS 2000   /* its penalty for each error reply */
#define IRC_OUT_NGIRCD_SLOW_MS 1000    /* its penalty for MODE, WHO, WHOIS, NAMES, TOPIC */
#define IRC_OUT_INSPIRCD_CAP 8000      /* InspIRCd: penalty ms we let build up (threshold 10 s) */
#define IRC_OUT_INSPIRCD_DECAY 900     /* ... and let go per second (commandrate 1000) */
#define IRC_OUT_SOLANUM_BURST 4        /* Solanum: lines at once (client_flood_burst_max 5) */
#define IRC_OUT_SOLANUM_PER_10S 18     /* ... then this many per 10 s (2 a second) */
#define IRC_OUT_RECENT_MAX 64          /* lines remembered for the windows (older ones merge) */
#define IRC_OUT_PROBE_LEN 64           /* irc_out_bucket_wait_ms's line when none is picked */
#define IRC_OUT_CTCP_MS_DEFAULT 10000
#define IRC_OUT_VERSION_MAX 128 /* bytes of the version a CTCP VERSION answers, NUL incl. */

/* Errors: 0 or one of these negative codes. */
#define IRC_OUT_ERRNO_MAP(XX)                                                                      \
    XX(INVAL, -1, "an argument is out of range (burst, interval, length or delay)")                \
    XX(BAD_TARGET, -2,                                                                             \
       "the target is empty, too long, starts with ':' or holds a space, a comma "                 \
       "or a control character")                                                                   \
    XX(TOO_LONG, -3, "the text is longer than IRC_OUT_TEXT_MAX bytes")                             \
    XX(NO_ROOM, -4, "the prefix and the target leave too little room for text on a line")          \
    XX(FULL, -5,                                                                                   \
       "the send queue is full (IRC_OUT_LINES_MAX lines or IRC_OUT_TARGETS_MAX targets)")          \
    XX(NO_SPACE, -6, "the buffer is too small")                                                    \
    XX(NOT_FOUND, -7, "no line was sent to that target since the last requeue or clear")           \
    XX(NO_MEMORY, -8, "out of memory")

typedef enum irc_out_errno {
    IRC_OUT_OK = 0,
#define IRC_OUT_ERR_ENUM_(name, val, msg) IRC_OUT_E##name = (val),
    IRC_OUT_ERRNO_MAP(IRC_OUT_ERR_ENUM_)
#undef IRC_OUT_ERR_ENUM_
} irc_out_errno;

/* A human message for err ("ok" for 0, "unknown error" otherwise). Never NULL. */
const char *irc_out_strerror(int err);

/* ---- Text ------------------------------------------------------------- */

/*
 * Copies len bytes of src (which may hold NULs: they are dropped) into
 * dst[cap], replacing CR and LF by a space and each byte that does not
 * belong to a valid UTF-8 character by '?'; cuts at a character boundary
 * when dst is too small. dst is always NUL-terminated (cap > 0). Returns
 * the bytes written, NUL excluded. The result never holds CR, LF or NUL
 * and is never longer than src.
 */
size_t irc_out_sanitize(char *dst, size_t cap, const char *src, size_t len);

/*
 * Writes src with mIRC colours into dst[cap]: each ♥ ♦ ♡ ♢ red (\x0304 ...
 * \x03), together with the card rank written just before it ("10♦", "K♥")
 * when the rank starts a word; ♣ ♠ keep the default colour. When a closing
 * \x03 is followed by a digit or a comma, \x02\x02 is put between so the
 * text is not read as a colour. Returns the length written (at most three
 * times strlen(src)), or IRC_OUT_ENO_SPACE with dst untouched.
 */
int irc_out_colour(char *dst, size_t cap, const char *src);

/* The command of a line. */
typedef enum irc_out_kind { IRC_OUT_PRIVMSG = 0, IRC_OUT_NOTICE = 1 } irc_out_kind;

/*
 * The text bytes one line may carry: 512 minus CRLF, the prefix the server
 * adds when relaying (":nick!user@host ", host_len 0 meaning unknown:
 * IRC_OUT_HOST_UNKNOWN) and "PRIVMSG target :" or "NOTICE target :".
 * user_len is the user name as the server shows it (count a '~' it may
 * add). 0 when nothing fits.
 */
size_t irc_out_budget(size_t nick_len, size_t user_len, size_t host_len, irc_out_kind kind,
                      size_t target_len);

/* One line's share of a split text. */
typedef struct irc_out_part {
    size_t off;                      /* where the part starts in the text */
    size_t len;                      /* its length in the text */
    char reopen[IRC_OUT_REOPEN_MAX]; /* codes restoring the format in effect at off */
} irc_out_part;

/*
 * Splits text (valid UTF-8 without CR/LF, as irc_out_sanitize makes it)
 * into parts of at most budget bytes each, reopen included: after a space
 * when one lies in the second half of the line, else at the last character
 * boundary that fits; never inside a UTF-8 character or a colour code
 * (\x03 with its digits and ",NN"). Each part after the first carries the
 * codes that restore the colours, bold, italics, underline, strike-through,
 * monospace and reverse in effect where it starts. The parts' slices, put
 * together, are the text. Returns 0 and *n, or IRC_OUT_EINVAL (budget below
 * IRC_OUT_BUDGET_MIN) or IRC_OUT_ENO_SPACE (more than max parts) with parts
 * and *n untouched. An empty text has no part.
 */
int irc_out_split(const char *text, size_t budget, irc_out_part *parts, size_t max, size_t *n);

/* ---- The send queue ---------------------------------------------------- */

typedef struct irc_out_line irc_out_line;
typedef struct irc_out_target irc_out_target;

/*
 * How the queue paces its lines (adapters/irc/PACING.md has each server's
 * rules, from its source, and the margins):
 *   NGIRCD    bytes per second of the server's clock (the first line of a
 *             second free), at most 3 lines per read, and the penalty time
 *             it adds after registering, an error reply or MODE;
 *   INSPIRCD  its command penalty: 1 s a PRIVMSG, 2 s a JOIN..., let go at
 *             commandrate; fake lag from 10 s on;
 *   SOLANUM   lines: a burst of 5, then 2 a second (also charybdis);
 *   CUSTOM    burst lines, then one per line_ms (only the queue's lines);
 *   AUTO      the safe default (CUSTOM's 4 + one per 1.5 s, and ngircd's
 *             byte count) until irc_out_server_version names a model.
 */
typedef enum irc_out_pace {
    IRC_OUT_PACE_AUTO = 0,
    IRC_OUT_PACE_NGIRCD = 1,
    IRC_OUT_PACE_INSPIRCD = 2,
    IRC_OUT_PACE_SOLANUM = 3,
    IRC_OUT_PACE_CUSTOM = 4
} irc_out_pace;

/* A token bucket: level gains gain units a ms up to cap (each model's own
   units, irc_out.c); a line may go when level holds its cost. */
typedef struct irc_out_bucket {
    int64_t level, cap, gain;
} irc_out_bucket;

/* Lines sent lately (for ngircd's windows); a merged entry holds several. */
typedef struct irc_out_recent {
    int64_t at_ms;  /* when its last line went */
    uint32_t bytes; /* all its bytes, CR LF included */
    uint32_t first; /* the bytes of its first line */
    uint32_t lines;
} irc_out_recent;

/* A send queue in caller memory. Read it only through the functions. */
typedef struct irc_out {
    irc_out_pace pace;  /* as configured */
    irc_out_pace model; /* in effect: AUTO is the safe default */
    int64_t line_ms;    /* CUSTOM: one line per this many ms once the burst is spent */
    /* Every model keeps its books from the start, so a switch is exact. */
    irc_out_bucket custom, fallback, inspircd, solanum;
    int64_t clock_ms; /* the time of the last refill */
    int clock_set;
    int64_t hold_until; /* ngircd's penalty time: nothing before */
    irc_out_recent recent[IRC_OUT_RECENT_MAX];
    size_t recent_first, nrecent;
    size_t nick_len, user_len, host_len; /* the prefix the server adds */
    irc_out_target *targets[IRC_OUT_TARGETS_MAX];
    size_t ntargets;
    size_t cursor; /* the target whose turn is next in the round robin */
    size_t nlines;
} irc_out;

/*
 * Starts an empty queue in *q paced by pace (IRC_OUT_PACE_AUTO: the safe
 * default until irc_out_server_version names the server); burst and
 * line_ms shape IRC_OUT_PACE_CUSTOM: burst lines back to back, then one
 * every line_ms (line_ms 0 means no limit), and are checked whatever the
 * pace. Every bucket starts full, no window holds a line. The prefix
 * assumed is a 30-byte nick, an 11-byte user and an unknown host. Returns
 * 0, or IRC_OUT_EINVAL (pace unknown, burst outside 1..IRC_OUT_BURST_MAX,
 * line_ms outside 0..IRC_OUT_LINE_MS_MAX) with *q untouched. Pair with
 * irc_out_fini.
 */
int irc_out_init_pace(irc_out *q, irc_out_pace pace, int burst, int64_t line_ms);
/* irc_out_init_pace(q, IRC_OUT_PACE_CUSTOM, burst, line_ms): the fixed token bucket. */
int irc_out_init(irc_out *q, int burst, int64_t line_ms);
/* Frees every line and target of q (as irc_out_clear). */
void irc_out_fini(irc_out *q);

/*
 * Changes the pacing of a running queue (a configuration reload): the
 * lines queued and every model's books stay, so nothing is lost and no
 * burst is granted twice. pace AUTO goes back to the safe default until
 * irc_out_server_version names the server again (the caller passes the
 * version it learned). A smaller custom bucket keeps at most its new cap.
 * Returns 0, or IRC_OUT_EINVAL (as irc_out_init_pace) with *q untouched.
 */
int irc_out_set_pace(irc_out *q, irc_out_pace pace, int burst, int64_t line_ms);

/* The name of pace ("auto", "ngircd", "inspircd", "solanum", "custom"), or
   "unknown". Never NULL. */
const char *irc_out_pace_name(irc_out_pace pace);
/* The pace called name (as irc_out_pace_name writes it): 0 and *pace, or
   IRC_OUT_EINVAL with *pace untouched. */
int irc_out_pace_parse(const char *name, irc_out_pace *pace);
/* The model in effect: the configured pace, or for IRC_OUT_PACE_AUTO the
   one the server's version named (IRC_OUT_PACE_AUTO: the safe default). */
irc_out_pace irc_out_model(const irc_out *q);

/*
 * With pace IRC_OUT_PACE_AUTO, takes the model named by the server's
 * version (RPL_MYINFO's third parameter; a case-insensitive prefix):
 * "ngircd" NGIRCD, "InspIRCd" INSPIRCD, "solanum" or "charybdis" SOLANUM,
 * anything else the safe default. Any other pace stays. Every model has
 * kept its books all along, so the new one starts exact. Returns 1 when
 * the model in effect changed, else 0.
 */
int irc_out_server_version(irc_out *q, const char *version);

/*
 * Counts a line of len bytes (CR LF included) written to the server at
 * now_ms outside the queue (registration, PONG, JOIN, MODE...): the
 * servers count those too, so the queue's next lines wait for them. The
 * custom bucket (and the default's) counts only the queue's lines, as
 * before. line starts with its command; it needs no NUL within len.
 */
void irc_out_charge(irc_out *q, int64_t now_ms, const char *line, size_t len);

/* We are registered (001) at now_ms: ngircd leaves our input unread for a
   second then (IRC_OUT_NGIRCD_WELCOME_MS). */
void irc_out_welcome(irc_out *q, int64_t now_ms);

/* The server answered an error numeric (400-599) at now_ms: ngircd leaves
   our input unread for IRC_OUT_NGIRCD_ERROR_MS more. */
void irc_out_error_reply(irc_out *q, int64_t now_ms);

/*
 * Sets the lengths of our nick, user and host (0: unknown, counted as
 * IRC_OUT_HOST_UNKNOWN) used to split the messages pushed from now on;
 * call it on welcome, on our nick change and when the server shows our
 * host. Returns 0, or IRC_OUT_EINVAL (a length over 255) with q untouched.
 */
int irc_out_set_prefix(irc_out *q, size_t nick_len, size_t user_len, size_t host_len);

/*
 * Queues text for target as PRIVMSG or NOTICE lines: made safe
 * (irc_out_sanitize, and each \x01 turned into a space unless the whole
 * text is one CTCP message "\x01...\x01"), coloured when colour is nonzero
 * (irc_out_colour),
 * split (irc_out_split) to the budget of the current prefix. Within a
 * target, lines go out in order of priority (higher first), then in the
 * order pushed, and a message's lines stay together. Returns the number of
 * lines queued — 0 for an empty text: nothing to send, the message counts as
 * sent and its tag is not reported — or a negative error with q untouched:
 * IRC_OUT_EBAD_TARGET, IRC_OUT_ETOO_LONG, IRC_OUT_ENO_ROOM, IRC_OUT_EFULL
 * (the whole message is refused when its lines would pass
 * IRC_OUT_LINES_MAX), IRC_OUT_ENO_MEMORY. text is never used as a format.
 */
int irc_out_push(irc_out *q, const char *target, irc_out_kind kind, int priority, int colour,
                 const char *text, int64_t tag);

/* What irc_out_next handed out. */
typedef struct irc_out_sent {
    size_t len;  /* bytes of the raw line, CRLF included */
    int64_t tag; /* the tag of its message */
    int done;    /* 1: the last line of its message: the tag is fully sent */
} irc_out_sent;

/*
 * Takes the next line — highest priority first among the targets that are
 * not paused, round robin among targets of equal priority — when the model
 * in effect lets it go at now_ms, and writes it, raw with its CRLF, into
 * buf[cap] (cap at least IRC_OUT_LINE_MAX + 1). Returns 1 and *sent; 0 when
 * nothing may go now (see irc_out_wait_ms); IRC_OUT_ENO_SPACE for a small
 * buf, with q untouched. The line is kept as its target's last sent line
 * for irc_out_requeue. A line's tag is reported done at most once.
 */
int irc_out_next(irc_out *q, int64_t now_ms, char *buf, size_t cap, irc_out_sent *sent);

/*
 * Milliseconds from now_ms until irc_out_next may hand out a line: 0 now,
 * -1 when nothing is queued.
 */
int64_t irc_out_wait_ms(const irc_out *q, int64_t now_ms);

/*
 * Milliseconds from now_ms until the model lets the line go that
 * irc_out_next would take at now_ms, or, when no target may send now
 * (nothing queued, or paused), a PRIVMSG of IRC_OUT_PROBE_LEN bytes: 0
 * now (always 0 for CUSTOM with line_ms 0). A caller that feeds the queue
 * one message at a time asks it before choosing the next.
 */
int64_t irc_out_bucket_wait_ms(const irc_out *q, int64_t now_ms);

/*
 * On 707 ERR_TARGCHANGE for target (compared as IRC does, case-insensitively
 * under rfc1459): puts the last line sent to it back at the front of its
 * queue and sends nothing to it before now_ms + delay_ms (other targets go
 * on). Returns 0, IRC_OUT_ENOT_FOUND when no line was sent to it since the
 * last requeue, or IRC_OUT_EINVAL for a delay outside 0..600000 ms.
 */
int irc_out_requeue(irc_out *q, const char *target, int64_t now_ms, int64_t delay_ms);

/*
 * On disconnect: drops every queued line, without reporting any tag (their
 * outbox rows stay unsent and are pushed again after reconnecting), every
 * pause and every last sent line. The pacing (buckets, windows, model) and
 * the prefix are kept.
 */
void irc_out_clear(irc_out *q);

/* Lines queued. */
size_t irc_out_count(const irc_out *q);
/* 1 when a line of a message with this tag is still queued, else 0. */
int irc_out_has_tag(const irc_out *q, int64_t tag);

/* ---- CTCP --------------------------------------------------------------- */

typedef struct irc_out_ctcp {
    int64_t interval_ms; /* one answer at most per this many ms, overall */
    int64_t last_ms;     /* when the last answer was given */
    int answered;        /* whether one was */
} irc_out_ctcp;

typedef enum irc_out_ctcp_verdict {
    IRC_OUT_CTCP_NONE = 0,   /* not CTCP: an ordinary message */
    IRC_OUT_CTCP_IGNORE = 1, /* CTCP that gets no answer: drop it */
    IRC_OUT_CTCP_REPLY = 2   /* send reply as a NOTICE to the sender */
} irc_out_ctcp_verdict;

/* Starts a CTCP answerer that answers at most once per interval_ms. */
void irc_out_ctcp_init(irc_out_ctcp *c, int64_t interval_ms);

/*
 * Decides on the text of an incoming PRIVMSG (never call it for a NOTICE):
 * not starting with \x01, IRC_OUT_CTCP_NONE; \x01VERSION...\x01 (any case)
 * when no answer was given in the last interval, IRC_OUT_CTCP_REPLY with
 * "\x01VERSION <version>\x01" in reply[cap] (version, e.g. "porrazo-bot
 * 0.1.0", without its control characters); any other CTCP, or VERSION too
 * soon, IRC_OUT_CTCP_IGNORE. IRC_OUT_ENO_SPACE when reply is too small,
 * with c untouched.
 */
int irc_out_ctcp_decide(irc_out_ctcp *c, const char *text, int64_t now_ms, const char *version,
                        char *reply, size_t cap);

#endif /* PZ_IRC_OUT_H */
