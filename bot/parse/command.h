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

/* The verbs, in the order of the command table (verbs.def), which says
   each one's words, usage and meaning: CMD_NEW, CMD_JOIN, ... */
typedef enum cmd_verb {
#define X(id, name, shown, more, flags, section, list, usage, what, example, refuse, handler)      \
    CMD_##id,
#include "verbs.def"
#undef X
    CMD_NVERBS /* the number of verbs, not one */
} cmd_verb;

/* The computer players' levels as cmd.level says them (porrazo_ai.h's
   order): -1 when none was said. */
#define CMD_LEVEL_WORDS                                                                            \
    "beginner principiante novato easy facil, greedy codicioso normal medium intermedio, "         \
    "expert experto avanzado "                                                                     \
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
    bool practice;     /* NEW, LEARN: a practice table (learn, new practice) */
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
/* The word of v a reader of the thread's language types ("quitarbot"),
   the first of its help entry, in out (cap bytes) or cmd_verb_name's
   when it does not fit; returns out or that name. */
const char *cmd_verb_said(cmd_verb v, char *out, size_t cap);

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
