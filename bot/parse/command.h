/*
 * command.h — the bot's command parser: one line of chat text in, one
 * structured command out (or a short, specific reason it is not one).
 *
 * It knows the words players type — English and Spanish verbs, aliases,
 * card names in every form (7, 7h, 7♥, 10, T, k, king, rey) — and nothing
 * of games: whether the command is allowed now is the host's question.
 * It never allocates, never writes past its fixed buffers, and accepts any
 * bytes: invalid UTF-8, control characters and over-long lines are parsed
 * or refused, never trusted.
 */
#ifndef PZ_COMMAND_H
#define PZ_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "porrazo.h"

#define CMD_LINE_MAX 512   /* longer input is refused ("too long") */
#define CMD_NAME_MAX 64    /* a nick, a room, a topic */
#define CMD_ERROR_MAX 200  /* a reply to a line that is not a valid command */
#define CMD_OPTIONS_MAX 16 /* option words of a `new` command */
#define CMD_TARGET_MIN 11  /* the targets a chat game may have (the engine takes 1..10000) */
#define CMD_TARGET_MAX 121

typedef enum cmd_verb {
    CMD_NEW,       /* new [players] [option words...]: open a lobby */
    CMD_JOIN,      /* join: take a seat in the lobby */
    CMD_LEAVE,     /* leave: give up a seat in the lobby */
    CMD_START,     /* start: deal (creator; or automatic when full) */
    CMD_KICK,      /* kick NICK: the creator removes a player from the lobby */
    CMD_PLAY,      /* play CARD [capture|place] */
    CMD_HAND,      /* hand: my cards, privately */
    CMD_TABLE,     /* table */
    CMD_SCORE,     /* score: the board */
    CMD_TURN,      /* turn: whose turn */
    CMD_TENDIDO,   /* tendido now|later */
    CMD_ARRANGE,   /* arrange best | arrange C C C C [left|right] */
    CMD_DECLARE,   /* ronda / rondine / declare (manual declarations) */
    CMD_CLAIM,     /* claim NICK (a missed declaration, R3.6) */
    CMD_PAUSE,     /* pause (by agreement) */
    CMD_RESUME,    /* resume (by agreement) */
    CMD_STOP,      /* stop: abandon (creator, owner, or by vote) */
    CMD_OPTIONS,   /* options: this game's options in words */
    CMD_RULES,     /* rules [topic] */
    CMD_HELP,      /* help [command] */
    CMD_STATS,     /* stats [NICK] */
    CMD_TOP,       /* top: the best players here */
    CMD_PLAYERS,   /* players / who: seats and teams */
    CMD_DEADLINE,  /* deadline OFF|DURATION: the creator sets the turn time */
    CMD_PURGE,     /* purge TARGET: an owner empties a channel's or a player's queue */
    CMD_PROMPTS,   /* prompts on|off: a private prompt at every turn, or only after a while */
    CMD_GAMES,     /* games [all]: an owner lists the active games (this network's, or all) */
    CMD_EXPORT,    /* export ID: an owner gets a game's record */
    CMD_FSTOP,     /* fstop ID: an owner stops any game */
    CMD_FLEAVE,    /* fleave NICK: an owner takes a player out of a lobby, or stops their game */
    CMD_SKIP,      /* skip: an owner has the default move play the current turn */
    CMD_ADDBOT,    /* addbot [N] [level]: computer players take seats in the lobby */
    CMD_REMOVEBOT, /* removebot [NAME]: a computer player leaves the lobby */
    CMD_BACK,      /* back: a computer player no longer plays for me */
    CMD_SUB,       /* sub NICK [SEAT]: offer a seat of a game under way to NICK */
    CMD_TZ,        /* tz [ZONE]: my time zone (IANA name) */
    CMD_QUIET,     /* quiet HH:MM-HH:MM|off: no reminders, deadlines paused, daily */
    CMD_AWAY,      /* away DURATION [bot] | off: my games wait (or a computer plays) */
    CMD_SET,       /* set KEY VALUE: a room's default (deadline, level), by its moderators */
    CMD_SETTINGS,  /* settings: the room's defaults */
    CMD_REMINDERS, /* reminders on|off: private reminders when my turn waits */
    CMD_NOTICES,   /* notices on|off: my private lines by NOTICE (IRC) */
    CMD_LINK       /* link [CODE|off]: tie my ids on two networks (games lists both) */
} cmd_verb;

/* The computer players' levels as cmd.level says them (porrazo_ai.h's
   order): -1 when none was said. */
#define CMD_LEVEL_WORDS                                                                            \
    "beginner principiante novato easy facil, greedy codicioso normal medium, expert experto "     \
    "hard dificil, strong fuerte mcts hardest"

/*
 * One card as typed: suit -1 when only the rank was given. "as" alone is
 * the ace of spades with spanish_as set: it is also the Spanish word for
 * an ace, so where the ace of spades is not there (the hand, the
 * tendido), the host reads it as a bare ace (see command_words.c).
 */
typedef struct cmd_card {
    int rank;        /* 0 = A ... 12 = K, as porrazo.h */
    int suit;        /* 0..3 = C D H S, or -1 */
    bool spanish_as; /* typed "as" alone: A♠, or any ace (Spanish) */
} cmd_card;

typedef struct cmd {
    cmd_verb verb;
    char room[CMD_NAME_MAX]; /* a room named in the command ("#friends"), or "" */
    cmd_card card;           /* PLAY */
    pz_mode mode;            /* PLAY: ANY unless "capture"/"place" was said */
    bool now;                /* TENDIDO */
    bool on;                 /* PROMPTS */
    bool best;               /* ARRANGE */
    cmd_card row[4];         /* ARRANGE when !best: four cards; a bare rank (suit -1) is
                                matched to the tendido by the host */
    bool has_direction;      /* ARRANGE: left/right given (default left to right) */
    pz_direction direction;
    char name[CMD_NAME_MAX];  /* KICK, CLAIM, STATS nick; HELP command; RULES topic;
                                 PURGE target (or in room when it was a room name); SUB nick */
    char name2[CMD_NAME_MAX]; /* SUB: the seat offered (its player's name), or "" */
    int players;              /* NEW: seats wanted, 0 when not said */
    bool shuffle_seats;       /* NEW: seats drawn at random, not in join order */
    int noptions;             /* NEW: R9 options as (name, value) words */
    char option_name[CMD_OPTIONS_MAX][24];
    char option_value[CMD_OPTIONS_MAX][24];
    int deadline_secs; /* DEADLINE: 0 = off */
    bool all;          /* GAMES: every network's, not only this one's */
    int64_t game;      /* EXPORT, FSTOP: the game's id (> 0) */
    bool robots;       /* NEW: the other seats go to computer players; TOP: list them */
    int level;         /* NEW, ADDBOT: the computer players' level (0..3), -1 unsaid */
    int count;         /* ADDBOT: how many (1 when unsaid) */
    /* TZ: the zone as typed (name); QUIET: the window as typed (name), or
       off; AWAY: deadline_secs, robots ("bot"), or off. */
    bool off;
} cmd;

typedef enum cmd_result {
    CMD_OK = 0,      /* *out holds a command */
    CMD_IGNORED = 1, /* channel talk not addressed to the bot: stay silent */
    CMD_ERROR = 2    /* addressed to the bot but not valid: reply with error */
} cmd_result;

/*
 * Parses one line. In a channel (in_channel) only lines starting with
 * prefix (e.g. "!") are commands, others are CMD_IGNORED; in private no
 * prefix is needed (one is tolerated). Verbs and words are
 * case-insensitive. A bare card ("7h", "!k") is a play. On CMD_ERROR,
 * error holds a short reply that says what would be valid (never NULL
 * error unless error_len is 0); in a channel the commands it suggests
 * carry the prefix ("say !tendido now"), in private they do not. *out is
 * fully written on CMD_OK.
 */
cmd_result cmd_parse(const char *text, size_t len, bool in_channel, const char *prefix, cmd *out,
                     char *error, size_t error_len);

/*
 * For a channel line that cmd_parse() ignored for want of the prefix:
 * whether it is a whole, valid game move all the same ("play 4",
 * "tendido now", "arrange best", "claim bob"), its verb said in a word of
 * two letters or more, so that the host may remind the player of the
 * prefix. Bare cards, one-letter verbs, other verbs and anything that is
 * not a valid command are chat: false. Writes *out (as cmd_parse) only
 * when true.
 */
bool cmd_move_without_prefix(const char *text, size_t len, const char *prefix, cmd *out);

/* The canonical verb word ("play") of v. */
const char *cmd_verb_name(cmd_verb v);

/*
 * An owner's request that the bot leave a room, which the adapters handle
 * themselves (it is not a game command): "PREFIX part [ROOM]" in a room,
 * "part [ROOM]" in private, "part" in any case. Returns the room named
 * after it (blanks skipped; "" when none), or NULL when text is not such a
 * request.
 */
const char *cmd_part_request(const char *text, bool in_room, const char *prefix);

/*
 * Parses a card as players type it (exactly len bytes): rank as A 1 2..10
 * T J Q K or words (ace/as, jack/jota/sota, queen/reina/dama, king/rey),
 * then an optional suit as a letter (c d h s, or Spanish b o c e is NOT
 * accepted: only c d h s), a symbol (♣ ♦ ♥ ♠, ♧ ♢ ♡ ♤) or a word (clubs,
 * diamonds, hearts, spades, "of hearts"). "as" alone (any case) is the
 * ace of spades with spanish_as set. Returns 0 or -1.
 */
int cmd_parse_card(const char *s, size_t len, cmd_card *out);

/*
 * Parses a duration ("90", "90s", "10m", "2h", "1d", "1h30m") into
 * seconds; "off"/"none"/"0" give 0. Returns 0 or -1. Shared with config.
 */
int cmd_parse_duration(const char *s, size_t len, int *secs);

#endif /* PZ_COMMAND_H */
