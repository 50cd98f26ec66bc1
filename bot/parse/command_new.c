/*
 * command_new.c — the arguments of `new` for the command parser: a player
 * count, R9 options as NAME=VALUE or as words ("to 31", "nowrap",
 * "manual", "partners"), shuffled seats and computer players ("new 2 bot
 * strong"), read into struct cmd; and those of `addbot` and `top`.
 *
 * Option names and values are only read and folded here, into the
 * (name, value) words of struct cmd: whether a value is valid for its
 * option is the host's question, except for the numbers: the player count
 * must be 2 to 8 and the target CMD_TARGET_MIN to CMD_TARGET_MAX, said in
 * digits or in words ("new dos", "to treinta y uno", "to sixty-one").
 * Not here: the line and the other verbs (command.c), or the card,
 * number and duration words (command_words.c).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_options.h"
#include "command_int.h"
#include "text.h"

/* The values of a boolean option. */
#define TRUE_WORDS "true yes y on si 1 verdadero"
#define FALSE_WORDS "false no n off 0 falso"

/* `new`: R9 options by name and the words that say it. */
static const struct option_key {
    const char *name;
    const char *words;
    bool boolean;
    const char *example; /* a value, for replies */
} OPTION_KEYS[] = {
    {"target", "target goal objetivo meta", false, "31"},
    {"wrap", "wrap vuelta", true, "false"},
    {"declarations", "declarations declaration declaraciones cantos", false, "manual"},
    {"tendido", "tendido", false, "last"},
    {"odd_leftover", "odd_leftover leftover sobrantes", false, "deal"},
    {"final_sweep", "final_sweep sweep barrida", false, "dealer"},
    {"card_score", "card_score cards cartas", false, "excess26"},
    {"partnerships", "partnerships partnership partners teams parejas equipos", true, "true"},
};
#define NOPTION_KEYS ((int)(sizeof OPTION_KEYS / sizeof OPTION_KEYS[0]))

/* `new`: the Spanish words of the options' values, as the engine's words. */
static const struct option_value {
    const char *name, *value, *words;
} OPTION_VALUES[] = {
    {"declarations", "manual", "a-mano amano cantadas"},
    {"declarations", "silent", "silencioso silenciosos silenciosas calladas"},
    {"declarations", "auto", "automatico automaticos automaticas"},
    {"tendido", "last", "ultimo ultima"},
    {"tendido", "choice", "eleccion elegir escoger"},
    {"odd_leftover", "deal", "reparto repartir"},
    {"odd_leftover", "table", "mesa"},
    {"final_sweep", "dealer", "repartidor reparte"},
    {"final_sweep", "last_capturer", "ultimo ultima"},
    {"card_score", "difference", "diferencia"},
    {"card_score", "excess26", "exceso26"},
};
#define NOPTION_VALUES ((int)(sizeof OPTION_VALUES / sizeof OPTION_VALUES[0]))
#define PLAYERS_KEY "players jugadores seats"
#define SHUFFLE_WORDS "shuffle shuffle_seats random shuffled barajar revolver azar al-azar"
#define TARGET_WORDS "to a hasta"
#define NOWRAP_WORDS "nowrap no-wrap no_wrap sinvuelta sin-vuelta"
#define DECL_VALUES                                                                                \
    "manual silent auto a-mano silencioso silenciosos silenciosas calladas automatico "            \
    "automaticos automaticas"
#define NEW_FILLER "game partida juego players jugadores one un una contra la el con vs"
#define ROBOT_WORDS                                                                                \
    "bot bots robot robots computer computers ai maquina maquinas cpu computadora computadoras"
#define WORDS_MAX 8 /* words of a number, at most ("one hundred and twenty one") */
#define NEW_TAKES                                                                                  \
    N_("new takes 2-8, partners, to 31, nowrap, manual, silent, auto, shuffle or NAME=VALUE")

/* The level (0..3) that the folded word f[0..n) names (CMD_LEVEL_WORDS), or -1. */
static int level_of(const char *f, size_t n)
{
    const char *list = CMD_LEVEL_WORDS;
    for (int level = 0; *list != '\0'; level++) {
        size_t len = strcspn(list, ",");
        char words[96];
        if (len >= sizeof words)
            return -1;
        memcpy(words, list, len);
        words[len] = '\0';
        if (n > 0 && cmd_in_list(f, n, words))
            return level;
        list += len;
        list += strspn(list, ", ");
    }
    return -1;
}

/* The first word of a level's list, for replies ("strong"). */
static const char *level_word(int level)
{
    static const char *const names[] = {"beginner", "greedy", "expert", "strong"};
    return level >= 0 && level < 4 ? names[level] : "strong";
}

/* The level a word names, and a level's English word: see command_int.h. */
int cmd_level_at(word w)
{
    char f[CMD_WORD_MAX];
    int n = text_fold(w.s, w.n, f, sizeof f);
    return n > 0 ? level_of(f, (size_t)n) : -1;
}

const char *cmd_level_name(int level)
{
    return level_word(level);
}

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
        return cmd_fail(r, _("'%s' is not a value for %s"), cmd_quote(value, q),
                        cmd_option_shown(name));
    if (boolean && cmd_in_list(f, (size_t)n, TRUE_WORDS))
        memcpy(f, "true", 5);
    else if (boolean && cmd_in_list(f, (size_t)n, FALSE_WORDS))
        memcpy(f, "false", 6);
    for (i = 0; i < NOPTION_VALUES; i++)
        if (strcmp(OPTION_VALUES[i].name, name) == 0 &&
            cmd_in_list(f, (size_t)n, OPTION_VALUES[i].words)) {
            snprintf(f, sizeof f, "%s", OPTION_VALUES[i].value);
            break;
        }
    n = (int)strlen(f);
    for (i = 0; i < c->noptions && strcmp(c->option_name[i], name) != 0; i++)
        ;
    if (i == CMD_OPTIONS_MAX)
        return cmd_fail(r, _("too many options: %s"), _(NEW_TAKES));
    c->noptions += i == c->noptions;
    memcpy(c->option_name[i], name, strlen(name) + 1); /* R9 names are short */
    memcpy(c->option_value[i], f, (size_t)n + 1);
    return CMD_OK;
}

/* The word that covers w[0..k), spaces included (k >= 1). */
static word words_span(const word *w, int k)
{
    word s = {w[0].s, (size_t)(w[k - 1].s + w[k - 1].n - w[0].s)};
    return s;
}

/*
 * Reads a player count at w[0..n) (digits or number words, 2..8) into c.
 * Returns the words taken, or -1 after writing a reply.
 */
static int set_players(cmd *c, const word *w, int n, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    int v = 0, k = cmd_number_at(w, n, &v);
    if (k == 0) {
        cmd_fail(r, _("'%s' is not a player count: say 2 to 8"), cmd_quote(w[0], q));
        return -1;
    }
    if ((v < PZ_MIN_PLAYERS || v > PZ_MAX_PLAYERS) && v >= CMD_TARGET_MIN && v <= CMD_TARGET_MAX) {
        cmd_fail(r, _("a game has 2 to 8 players, not %s (for a target, say %snew to %s)"),
                 cmd_quote(words_span(w, k), q), r->p, q);
        return -1;
    }
    if (v < PZ_MIN_PLAYERS || v > PZ_MAX_PLAYERS) {
        cmd_fail(r, _("a game has 2 to 8 players, not %s"), cmd_quote(words_span(w, k), q));
        return -1;
    }
    c->players = v;
    return k;
}

/*
 * Reads a target at w[0..n) (digits or number words, CMD_TARGET_MIN to
 * CMD_TARGET_MAX) into c as the option target, in digits. Returns the
 * words taken, or -1 after writing a reply.
 */
static int set_target(cmd *c, const word *w, int n, reply *r)
{
    char q[TEXT_QUOTE_MAX], digits[16];
    int v = 0, k = cmd_number_at(w, n, &v);
    if (k == 0) {
        cmd_fail(r, _("'%s' is not a value for target: say a number from %d to %d"),
                 cmd_quote(w[0], q), CMD_TARGET_MIN, CMD_TARGET_MAX);
        return -1;
    }
    if (v < CMD_TARGET_MIN || v > CMD_TARGET_MAX) {
        cmd_fail(r, _("the target must be between %d and %d, not %s"), CMD_TARGET_MIN,
                 CMD_TARGET_MAX, cmd_quote(words_span(w, k), q));
        return -1;
    }
    snprintf(digits, sizeof digits, "%d", v);
    return set_option(c, "target", false, (word){digits, strlen(digits)}, r) == CMD_OK ? k : -1;
}

/*
 * Reads the number of a NAME=VALUE word whose value starts a number and
 * may go on in the next words ("target=treinta y uno"): the value, then
 * w[1..n), to set (set_players or set_target). Returns the words of w
 * taken (at least 1), or -1 after writing a reply.
 */
static int assigned_number(const word *w, int n, word value, cmd *c, reply *r,
                           int (*set)(cmd *, const word *, int, reply *))
{
    word v[WORDS_MAX];
    int m = n < WORDS_MAX ? n : WORDS_MAX;
    if (value.n == 0) {
        cmd_fail(r, _("'' is not a value for %s"),
                 set == set_target ? cmd_option_shown("target") : C_("option", "players"));
        return -1;
    }
    v[0] = value;
    for (int j = 1; j < m; j++)
        v[j] = w[j];
    return set(c, v, m, r);
}

/* The R9 option key that the folded k[0..n) names, or -1. */
static int option_key(const char *k, size_t n)
{
    for (int i = 0; i < NOPTION_KEYS; i++)
        if (cmd_in_list(k, n, OPTION_KEYS[i].words))
            return i;
    return -1;
}

/*
 * One NAME=VALUE word of `new` at w[0], split at its first '='; a number
 * may go on in the next words. Returns the words taken, or -1 after
 * writing a reply.
 */
static int new_assignment(cmd *c, const word *w, int nw, const char *eq, reply *r)
{
    char q[TEXT_QUOTE_MAX], f[CMD_WORD_MAX];
    word key = {w[0].s, (size_t)(eq - w[0].s)}, value = {eq + 1, w[0].n - key.n - 1};
    int n = text_fold(key.s, key.n, f, sizeof f), i = n > 0 ? option_key(f, (size_t)n) : -1;
    if (i >= 0 && strcmp(OPTION_KEYS[i].name, "target") == 0)
        return assigned_number(w, nw, value, c, r, set_target);
    if (i >= 0)
        return set_option(c, OPTION_KEYS[i].name, OPTION_KEYS[i].boolean, value, r) == CMD_OK ? 1
                                                                                              : -1;
    if (n > 0 && cmd_in_list(f, (size_t)n, PLAYERS_KEY))
        return assigned_number(w, nw, value, c, r, set_players);
    if (n > 0 && cmd_in_list(f, (size_t)n, SHUFFLE_WORDS)) {
        if (cmd_is_word(value, TRUE_WORDS) || cmd_is_word(value, FALSE_WORDS)) {
            c->shuffle_seats = cmd_is_word(value, TRUE_WORDS);
            return 1;
        }
        cmd_fail(r, _("shuffle takes yes or no, not '%s'"), cmd_quote(value, q));
        return -1;
    }
    cmd_fail(r, _(CMD_NOT_AN_OPTION), cmd_quote(key.n > 0 ? key : w[0], q));
    return -1;
}

/*
 * Reads "to 31", "target treinta y uno", "tendido last": the option word
 * at w[i] (key as OPTION_KEYS, -1 for "to") and its value, the next word
 * (or words, for a target). Returns the words taken, or -1 after writing
 * a reply.
 */
static int new_valued(const word *w, int n, int i, int key, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    const struct option_key *o = &OPTION_KEYS[key >= 0 ? key : 0];
    if (i + 1 >= n) {
        cmd_fail(r, _("%s what? e.g. %snew %s=%s"), cmd_quote(w[i], q), r->p,
                 cmd_option_shown(o->name), cmd_option_value_shown(o->name, o->example));
        return -1;
    }
    if (strcmp(o->name, "target") == 0) {
        int k = set_target(c, w + i + 1, n - i - 1, r);
        return k < 0 ? -1 : k + 1;
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
    int count = 0;
    const char *eq = memchr(w[i].s, '=', w[i].n);
    cmd_result res = CMD_OK;
    size_t fn = k > 0 ? (size_t)k : 0;
    if (eq != NULL)
        return new_assignment(c, w + i, n - i, eq, r);
    else if ((w[i].s[0] >= '0' && w[i].s[0] <= '9') ||
             (cmd_number_at(w + i, n - i, &count) > 0 && count >= PZ_MIN_PLAYERS))
        return set_players(c, w + i, n - i, r);
    else if (cmd_in_list(f, fn, TARGET_WORDS) || (key >= 0 && !OPTION_KEYS[key].boolean))
        return new_valued(w, n, i, key, c, r);
    else if (key >= 0)
        res = set_option(c, OPTION_KEYS[key].name, true, (word){"true", 4}, r);
    else if (cmd_in_list(f, fn, NOWRAP_WORDS))
        res = set_option(c, "wrap", true, (word){"false", 5}, r);
    else if (cmd_in_list(f, fn, DECL_VALUES))
        res = set_option(c, "declarations", false, w[i], r); /* Spanish: OPTION_VALUES */
    else if (cmd_in_list(f, fn, "excess26 exceso26"))
        res = set_option(c, "card_score", false, w[i], r);
    else if (cmd_in_list(f, fn, SHUFFLE_WORDS))
        c->shuffle_seats = true;
    else if (cmd_in_list(f, fn, ROBOT_WORDS))
        c->robots = true;
    else if (cmd_in_list(f, fn, "practice practica learn aprender"))
        c->practice = true;
    else if (level_of(f, fn) >= 0)
        c->level = level_of(f, fn);
    else if (!cmd_in_list(f, fn, NEW_FILLER))
        res = cmd_fail(r,
                       _("new takes 2-8, partners, to 31, nowrap, manual, silent, auto, shuffle or "
                         "NAME=VALUE, not '%s'"),
                       cmd_quote(w[i], q));
    return res == CMD_OK ? 1 : -1;
}

/* new [players] [option words...]: see command_int.h. */
cmd_result cmd_parse_new(const word *w, int n, cmd *c, reply *r)
{
    for (int i = 0, k; i < n; i += k)
        if ((k = new_word(w, n, i, c, r)) < 0)
            return CMD_ERROR;
    if (c->practice) {
        c->robots = true; /* a practice table: the learner against computer players */
        if (c->players == 0)
            c->players = 3;
    }
    if (c->level >= 0 && !c->robots)
        return cmd_fail(r, _("a level is for computer players: say %snew 2 bot %s"), r->p,
                        level_word(c->level));
    if (c->robots && c->players == 0)
        c->players = 2; /* "new bot": one person against one computer player */
    return CMD_OK;
}

/* addbot [N] [level]: see command_int.h. */
cmd_result cmd_parse_addbot(const word *w, int n, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX], f[CMD_WORD_MAX];
    c->count = 0;
    for (int i = 0; i < n; i++) {
        int k = text_fold(w[i].s, w[i].n, f, sizeof f), count = 0;
        size_t fn = k > 0 ? (size_t)k : 0;
        if (level_of(f, fn) >= 0 && c->level < 0)
            c->level = level_of(f, fn);
        else if (cmd_in_list(f, fn, ROBOT_WORDS))
            continue;
        else if (c->count == 0 && cmd_number_at(w + i, 1, &count) > 0 && count >= 1 &&
                 count < PZ_MAX_PLAYERS)
            c->count = count;
        else
            return cmd_fail(r,
                            _("addbot takes how many (1-7) and a level (beginner, greedy, expert, "
                              "strong), not '%s': e.g. %saddbot 2 expert"),
                            cmd_quote(w[i], q), r->p);
    }
    if (c->count == 0)
        c->count = 1;
    return CMD_OK;
}

/* top [bots]: see command_int.h. */
cmd_result cmd_parse_top(const word *w, int n, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    if (n == 1 && cmd_is_word(w[0], ROBOT_WORDS)) {
        c->robots = true;
        return CMD_OK;
    }
    if (n == 0)
        return CMD_OK;
    return cmd_fail(
        r, _("top takes nothing after it but bots: say just %stop, or %stop bots, not '%s'"), r->p,
        r->p, cmd_quote(w[0], q));
}
