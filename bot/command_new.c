/*
 * command_new.c — the arguments of `new` for the command parser: a player
 * count, R9 options as NAME=VALUE or as words ("to 31", "nowrap",
 * "manual", "partners"), and shuffled seats, read into struct cmd.
 *
 * Option names and values are only read and folded here, into the
 * (name, value) words of struct cmd: whether a value is valid for its
 * option is the host's question, except for the player count, which must
 * be 2 to 8. Not here: the line and the other verbs (command.c), or the
 * card and duration words (command_words.c).
 */
#include <string.h>

#include "command_int.h"
#include "text.h"

/* The values of a boolean option. */
#define TRUE_WORDS "true yes y on si 1"
#define FALSE_WORDS "false no n off 0"

/* `new`: R9 options by name and the words that say it. */
static const struct option_key {
    const char *name;
    const char *words;
    bool boolean;
    const char *example; /* a value, for replies */
} OPTION_KEYS[] = {
    {"target", "target goal objetivo meta", false, "31"},
    {"wrap", "wrap vuelta", true, "false"},
    {"declarations", "declarations declaration declaraciones", false, "manual"},
    {"tendido", "tendido", false, "last"},
    {"odd_leftover", "odd_leftover leftover sobrantes", false, "deal"},
    {"final_sweep", "final_sweep sweep barrida", false, "dealer"},
    {"card_score", "card_score cards cartas", false, "excess26"},
    {"partnerships", "partnerships partnership partners teams parejas equipos", true, "true"},
};
#define NOPTION_KEYS ((int)(sizeof OPTION_KEYS / sizeof OPTION_KEYS[0]))
#define PLAYERS_KEY "players jugadores seats"
#define SHUFFLE_WORDS "shuffle shuffle_seats random shuffled barajar"
#define TARGET_WORDS "to a hasta"
#define NOWRAP_WORDS "nowrap no-wrap no_wrap"
#define DECL_VALUES "manual silent auto"
#define NEW_FILLER "game partida juego players jugadores"
#define NEW_TAKES                                                                                  \
    "new takes 2-8, partners, to 31, nowrap, manual, silent, auto, shuffle or NAME=VALUE"

/*
 * Records the option name=value in c, replacing an earlier value of the
 * same name. The value is folded; for a boolean option yes/no/on/off/si
 * become "true"/"false". Values must be printable ASCII that fits.
 */
static cmd_result set_option(cmd *c, const char *name, bool boolean, word value, reply *r)
{
    char q[TEXT_QUOTE_MAX], f[CMD_WORD_MAX];
    int n = text_fold(value.s, value.n, f, sizeof f), i;
    for (i = 0; n > 0 && i < n; i++)
        if (f[i] < 0x21 || f[i] > 0x7E)
            break;
    if (n <= 0 || i < n || n >= (int)sizeof c->option_value[0])
        return cmd_fail(r, "'%s' is not a value for %s", cmd_quote(value, q), name);
    if (boolean && cmd_in_list(f, (size_t)n, TRUE_WORDS))
        memcpy(f, "true", 5);
    else if (boolean && cmd_in_list(f, (size_t)n, FALSE_WORDS))
        memcpy(f, "false", 6);
    n = (int)strlen(f);
    for (i = 0; i < c->noptions && strcmp(c->option_name[i], name) != 0; i++)
        ;
    if (i == CMD_OPTIONS_MAX)
        return cmd_fail(r, "too many options: %s", NEW_TAKES);
    c->noptions += i == c->noptions;
    memcpy(c->option_name[i], name, strlen(name) + 1); /* R9 names are short */
    memcpy(c->option_value[i], f, (size_t)n + 1);
    return CMD_OK;
}

/* Reads a player count from w (decimal digits, 2..8) into c. */
static cmd_result set_players(cmd *c, word w, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    int v = 0;
    for (size_t i = 0; i < w.n && v < 100; i++) {
        if (w.s[i] < '0' || w.s[i] > '9')
            return cmd_fail(r, "'%s' is not a player count: say 2 to 8", cmd_quote(w, q));
        v = v * 10 + (w.s[i] - '0');
    }
    if (v < PZ_MIN_PLAYERS || v > PZ_MAX_PLAYERS)
        return cmd_fail(r, "a game has 2 to 8 players, not %s (for a target, say to %s)",
                        cmd_quote(w, q), q);
    c->players = v;
    return CMD_OK;
}

/* The R9 option key that the folded k[0..n) names, or -1. */
static int option_key(const char *k, size_t n)
{
    for (int i = 0; i < NOPTION_KEYS; i++)
        if (cmd_in_list(k, n, OPTION_KEYS[i].words))
            return i;
    return -1;
}

/* One NAME=VALUE word of `new`, split at its first '='. */
static cmd_result new_assignment(cmd *c, word w, const char *eq, reply *r)
{
    char q[TEXT_QUOTE_MAX], f[CMD_WORD_MAX];
    word key = {w.s, (size_t)(eq - w.s)}, value = {eq + 1, w.n - key.n - 1};
    int n = text_fold(key.s, key.n, f, sizeof f), i = n > 0 ? option_key(f, (size_t)n) : -1;
    if (i >= 0)
        return set_option(c, OPTION_KEYS[i].name, OPTION_KEYS[i].boolean, value, r);
    if (n > 0 && cmd_in_list(f, (size_t)n, PLAYERS_KEY))
        return set_players(c, value, r);
    if (n > 0 && cmd_in_list(f, (size_t)n, SHUFFLE_WORDS)) {
        if (cmd_is_word(value, TRUE_WORDS) || cmd_is_word(value, FALSE_WORDS)) {
            c->shuffle_seats = cmd_is_word(value, TRUE_WORDS);
            return CMD_OK;
        }
        return cmd_fail(r, "shuffle takes yes or no, not '%s'", cmd_quote(value, q));
    }
    return cmd_fail(r,
                    "'%s' is not an option: try target, wrap, declarations, tendido, "
                    "odd_leftover, final_sweep, card_score or partnerships",
                    cmd_quote(key.n > 0 ? key : w, q));
}

/*
 * Reads "to 31", "target 31", "tendido last": the option word at w[i] (key
 * as OPTION_KEYS, -1 for "to") and its value, the next word. Returns 2, or
 * -1 after writing a reply.
 */
static int new_valued(const word *w, int n, int i, int key, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    const struct option_key *o = &OPTION_KEYS[key >= 0 ? key : 0];
    if (i + 1 >= n) {
        cmd_fail(r, "%s what? e.g. new %s=%s", cmd_quote(w[i], q), o->name, o->example);
        return -1;
    }
    return set_option(c, o->name, false, w[i + 1], r) == CMD_OK ? 2 : -1;
}

/*
 * Reads the word of `new` at w[i] into c. Returns the words taken (a key
 * or "to" takes the next word as its value), or -1 after writing a reply.
 */
static int new_word(const word *w, int n, int i, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX], f[CMD_WORD_MAX];
    int k = text_fold(w[i].s, w[i].n, f, sizeof f), key = k > 0 ? option_key(f, (size_t)k) : -1;
    const char *eq = memchr(w[i].s, '=', w[i].n);
    cmd_result res = CMD_OK;
    size_t fn = k > 0 ? (size_t)k : 0;
    if (eq != NULL)
        res = new_assignment(c, w[i], eq, r);
    else if (w[i].s[0] >= '0' && w[i].s[0] <= '9')
        res = set_players(c, w[i], r);
    else if (cmd_in_list(f, fn, TARGET_WORDS) || (key >= 0 && !OPTION_KEYS[key].boolean))
        return new_valued(w, n, i, key, c, r);
    else if (key >= 0)
        res = set_option(c, OPTION_KEYS[key].name, true, (word){"true", 4}, r);
    else if (cmd_in_list(f, fn, NOWRAP_WORDS))
        res = set_option(c, "wrap", true, (word){"false", 5}, r);
    else if (cmd_in_list(f, fn, DECL_VALUES))
        res = set_option(c, "declarations", false, w[i], r);
    else if (cmd_in_list(f, fn, "excess26"))
        res = set_option(c, "card_score", false, w[i], r);
    else if (cmd_in_list(f, fn, SHUFFLE_WORDS))
        c->shuffle_seats = true;
    else if (!cmd_in_list(f, fn, NEW_FILLER))
        res = cmd_fail(r, NEW_TAKES ", not '%s'", cmd_quote(w[i], q));
    return res == CMD_OK ? 1 : -1;
}

/* new [players] [option words...]: see command_int.h. */
cmd_result cmd_parse_new(const word *w, int n, cmd *c, reply *r)
{
    for (int i = 0, k; i < n; i += k)
        if ((k = new_word(w, n, i, c, r)) < 0)
            return CMD_ERROR;
    return CMD_OK;
}
