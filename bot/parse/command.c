/*
 * command.c — the command parser of command.h: one line of chat in, one
 * struct cmd out, or one short reply saying what would be valid.
 *
 * A line goes through four steps: sanitize (IRC formatting codes dropped,
 * every other control character made a space, other bytes kept for the
 * words to judge), find who it is addressed to (the prefix), split it into
 * words, then read the verb and its arguments against word lists. Words are
 * compared folded: ASCII lower case, Latin-1 accents dropped, each byte of
 * invalid UTF-8 marked so that it never matches. Replies quote the player's
 * words cut short, with bad bytes as '?'. The bytes are handled by text.h,
 * the arguments of `new` by command_new.c, cards and durations by
 * command_words.c. Not here: whether a command is allowed now, who may
 * give it, or any rule of the game.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd_settings.h"
#include "command_int.h"
#include "i18n.h"
#include "text.h"

#define TOKENS_MAX (CMD_LINE_MAX / 2 + 1) /* words of a line, at most */
#define DEFAULT_PREFIX "!"

/* The verbs' words, from the command table (verbs.def): the canonical
   name, then the other words (folded: lower case, no accents), those help
   shows and those it does not. */
static const struct verb_words {
    const char *name;
    const char *words[2];
    const char *list; /* its help entry, a msgid whose first word is the verb said */
} VERBS[] = {
#define X(id, name, shown, more, flags, section, list, usage, what, example, refuse, handler)      \
    [CMD_##id] = {name, {shown, more}, list},
#include "verbs.def"
#undef X
};
#define NVERBS ((int)(sizeof VERBS / sizeof VERBS[0]))

/* Argument words. */
#define CAPTURE_WORDS "capture captura capturar capturo take tomar llevar"
#define PLACE_WORDS "place put poner pongo colocar coloco lugar in-place inplace en-su-lugar"
#define NOW_WORDS "now ahora ya ahorita"
#define LATER_WORDS "later luego despues mas-tarde"
#define BEST_WORDS "best mejor"
#define PASS_WORDS "pass paso pasar pasa pase"
#define LTR_WORDS "ltr l2r left izq izquierda left-to-right izquierda-a-derecha"
#define RTL_WORDS "rtl r2l right der derecha right-to-left derecha-a-izquierda"

/* ------------------------------------------------------------------------ */
/* Words and replies                                                        */

/* True when the word w, folded, is one of the words of list. */
bool cmd_is_word(word w, const char *list)
{
    char f[CMD_WORD_MAX];
    int n = text_fold(w.s, w.n, f, sizeof f);
    return n > 0 && cmd_in_list(f, (size_t)n, list);
}

/* The word that covers words w[i] to w[j] of one line, spaces included. */
word cmd_span(const word *w, int i, int j)
{
    word s = {w[i].s, (size_t)(w[j].s + w[j].n - w[i].s)};
    return s;
}

/* Writes w for a reply into out (TEXT_QUOTE_MAX bytes) and returns out. */
const char *cmd_quote(word w, char *out)
{
    return text_quote(w.s, w.n, out);
}

/*
 * Writes a formatted reply into r and returns CMD_ERROR (see
 * command_int.h): vsnprintf cuts it, text_utf8_cut() mends the cut.
 */
cmd_result cmd_fail(reply *r, const char *fmt, ...)
{
    if (r->s == NULL || r->cap == 0)
        return CMD_ERROR;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->s, r->cap, fmt, ap);
    va_end(ap);
    if (n < 0) {
        /* a fixed ASCII line: cut to the cap, it stays valid */
        (void)snprintf(r->s, r->cap, "%s", _("say help for the commands"));
    } else if ((size_t)n >= r->cap) {
        text_utf8_cut(r->s, strlen(r->s));
    }
    return CMD_ERROR;
}

/* ------------------------------------------------------------------------ */
/* The line: address, split                                                 */

/* ASCII letters or digits. */
static bool is_alnum(char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* True when s starts with prefix, ASCII letters compared in any case. */
static bool starts_with(const char *s, const char *prefix)
{
    for (; *prefix != '\0'; s++, prefix++) {
        char a = *s, b = *prefix;
        if (a >= 'A' && a <= 'Z')
            a = (char)(a + 32);
        if (b >= 'A' && b <= 'Z')
            b = (char)(b + 32);
        if (a != b)
            return false;
    }
    return true;
}

/*
 * The command part of the sanitized line s. In a channel: what follows the
 * prefix at the start, or NULL when the line is not for the bot (no
 * prefix; a one-character punctuation prefix followed by a space, as in
 * "! wow"; or a first word that starts with neither a letter, a digit nor
 * '?', as in "!!!"). In private: the line, without a leading prefix.
 */
static const char *address(const char *s, bool in_channel, const char *prefix)
{
    size_t pn = strlen(prefix);
    while (*s == ' ')
        s++;
    bool has = pn > 0 && starts_with(s, prefix);
    if (!in_channel)
        return has ? s + pn : s;
    if (!has)
        return NULL;
    s += pn;
    if (*s == ' ' && pn == 1 && !is_alnum(prefix[0]))
        return NULL;
    while (*s == ' ')
        s++;
    if (*s != '\0' && !is_alnum(*s) && *s != '?')
        return NULL;
    return s;
}

/*
 * A word without trailing punctuation (. , ! ? ; :) or a leading ¿ or ¡,
 * unless that would leave it empty.
 */
static word trim_word(word t)
{
    while (t.n > 2 && (unsigned char)t.s[0] == 0xC2 &&
           ((unsigned char)t.s[1] == 0xBF || (unsigned char)t.s[1] == 0xA1)) {
        t.s += 2;
        t.n -= 2;
    }
    while (t.n > 1 && memchr(".,!?;:", t.s[t.n - 1], 6) != NULL)
        t.n--;
    return t;
}

/* Splits s (NUL-terminated, words between spaces) into w. Returns the count. */
static int split(const char *s, word *w)
{
    int n = 0;
    while (*s != '\0' && n < TOKENS_MAX) {
        if (*s == ' ') {
            s++;
            continue;
        }
        word t = {s, strcspn(s, " ")};
        s += t.n;
        w[n++] = trim_word(t);
    }
    return n;
}

/*
 * True when w names a room: '#' or '!', then letters, digits, - _ . : + =
 * ~ & @ or non-ASCII UTF-8, shorter than CMD_NAME_MAX ("#friends",
 * "#porrazo:example.org", "!abc:example.org"). A '!' room needs its
 * ":server", as Matrix room ids have, so "help !play" stays a topic.
 */
static bool is_room(word w)
{
    const unsigned char *u = (const unsigned char *)w.s;
    if (w.n < 2 || w.n >= CMD_NAME_MAX || (u[0] != '#' && u[0] != '!'))
        return false;
    if (u[0] == '!' && memchr(w.s, ':', w.n) == NULL)
        return false;
    for (size_t i = 1; i < w.n;) {
        size_t k = text_utf8_len(w.s + i, w.n - i);
        if (k == 0 || (k == 1 && !is_alnum((char)u[i]) && strchr("-_.:+=~&@", u[i]) == NULL))
            return false;
        i += k;
    }
    return true;
}

/* True when w is a name (a nick): valid UTF-8 shorter than CMD_NAME_MAX. */
bool cmd_is_name(word w)
{
    return w.n > 0 && w.n < CMD_NAME_MAX && text_utf8_valid(w.s, w.n);
}

/* Copies w into dst (CMD_NAME_MAX bytes); the caller checked its length. */
void cmd_copy_name(char *dst, word w)
{
    memcpy(dst, w.s, w.n);
    dst[w.n] = '\0';
}

/* ------------------------------------------------------------------------ */
/* Cards and verbs                                                          */

/*
 * Reads a card at w[i], of one to three words ("7h", "7 h", "7 of
 * hearts"), the longest that is a card. Returns the words taken, or 0.
 */
static int card_at(const word *w, int n, int i, cmd_card *card)
{
    for (int k = n - i < 3 ? n - i : 3; k > 0; k--) {
        word s = cmd_span(w, i, i + k - 1);
        if (cmd_parse_card(s.s, s.n, card) == 0)
            return k;
    }
    return 0;
}

/* The reply to a word that should have been a card. */
static cmd_result bad_card(word w, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    return cmd_fail(r, _("'%s' is not a card: try 7, 7h, 7♥ or king"), cmd_quote(w, q));
}

/* The verb w says, or -1. */
static int verb_of(word w)
{
    char f[CMD_WORD_MAX];
    int n = text_fold(w.s, w.n, f, sizeof f);
    for (int v = 0; v < NVERBS && n > 0; v++)
        if (cmd_in_list(f, (size_t)n, VERBS[v].name) ||
            cmd_in_list(f, (size_t)n, VERBS[v].words[0]) ||
            cmd_in_list(f, (size_t)n, VERBS[v].words[1]))
            return v;
    return -1;
}

/*
 * Writes into best (CMD_WORD_MAX bytes) the verb word closest to w, when
 * it is close: one edit for words of up to four letters, two for longer
 * ones. One-letter aliases are never suggested. Returns whether it found
 * one.
 */
static bool suggest(word w, char *best)
{
    char f[CMD_WORD_MAX];
    int n = text_fold(w.s, w.n, f, sizeof f), best_d = n <= 4 ? 2 : 3;
    for (int v = 0; v < NVERBS && n > 1; v++) {
        const char *lists[3] = {VERBS[v].name, VERBS[v].words[0], VERBS[v].words[1]};
        for (int l = 0; l < 3; l++) {
            size_t k;
            for (const char *c; (c = cmd_list_next(&lists[l], &k)) != NULL;) {
                int d = k < 2 ? best_d : (int)text_distance(f, (size_t)n, c, k);
                if (d < best_d) {
                    best_d = d;
                    memcpy(best, c, k);
                    best[k] = '\0';
                }
            }
        }
    }
    return best_d <= (n <= 4 ? 1 : 2) && n > 1;
}

/* The reply to a first word that is neither a verb nor a card. */
static cmd_result unknown_verb(word w, reply *r)
{
    char q[TEXT_QUOTE_MAX], best[CMD_WORD_MAX];
    if (w.n > 0 && w.s[0] >= '0' && w.s[0] <= '9')
        return bad_card(w, r);
    if (cmd_is_word(w, PASS_WORDS)) /* "paso": a player's own turn, never the owners' skip */
        return cmd_fail(r,
                        _("nobody passes in Porrazo: on your turn you play a card (say %smoves "
                          "for yours)"),
                        r->p);
    if (suggest(w, best))
        return cmd_fail(r, _("unknown command '%s' — did you mean %s%s? Try %shelp."),
                        cmd_quote(w, q), r->p, best, r->p);
    return cmd_fail(r, _("unknown command '%s': say %shelp for the commands"), cmd_quote(w, q),
                    r->p);
}

/* ------------------------------------------------------------------------ */
/* Arguments                                                                */

/* Reads a play mode at w[i] ("capture", "in place", "en su lugar"). Returns
   the words taken, or 0. */
static int mode_at(const word *w, int n, int i, pz_mode *mode)
{
    if (cmd_is_word(w[i], CAPTURE_WORDS)) {
        *mode = PZ_MODE_CAPTURE;
        return 1;
    }
    if (cmd_is_word(w[i], PLACE_WORDS)) {
        *mode = PZ_MODE_PLACE;
        return 1;
    }
    int j = i + 1;
    if (!cmd_is_word(w[i], "in en"))
        return 0;
    if (j < n && cmd_is_word(w[j], "su"))
        j++;
    if (j < n && cmd_is_word(w[j], "place lugar")) {
        *mode = PZ_MODE_PLACE;
        return j - i + 1;
    }
    return 0;
}

/* play CARD [capture|place], in any order. */
static cmd_result parse_play(const word *w, int n, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    int first = -1;
    for (int i = 0, k; i < n; i += k) {
        pz_mode mode;
        cmd_card card;
        if ((k = mode_at(w, n, i, &mode)) > 0) {
            if (c->mode != PZ_MODE_ANY && c->mode != mode)
                return cmd_fail(r, "%s", _("say capture or place, not both"));
            c->mode = mode;
        } else if ((k = card_at(w, n, i, &card)) > 0) {
            if (first >= 0)
                return cmd_fail(r, _("play one card at a time, e.g. %splay 7h"), r->p);
            first = i;
            c->card = card;
        } else if (first >= 0 && cmd_is_word(w[i], "of de")) {
            return bad_card(cmd_span(w, first, i + 1 < n ? i + 1 : i), r);
        } else if (first >= 0) {
            return cmd_fail(r, _("play takes a card, then capture or place if you like: not '%s'"),
                            cmd_quote(w[i], q));
        } else {
            return bad_card(w[i], r);
        }
    }
    if (first < 0)
        return cmd_fail(r, _("play what? e.g. %splay 7h"), r->p);
    return CMD_OK;
}

/* tendido now|later */
static cmd_result parse_tendido(const word *w, int n, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    if (n == 0)
        return cmd_fail(r, _("tendido now or later? say %stendido now or %stendido later"), r->p,
                        r->p);
    bool now = cmd_is_word(w[0], NOW_WORDS), later = cmd_is_word(w[0], LATER_WORDS);
    if (n == 2 && cmd_is_word(w[0], "mas") && cmd_is_word(w[1], "tarde"))
        n = 1, later = true; /* "más tarde" */
    if (n == 1 && (now || later)) {
        c->now = now;
        return CMD_OK;
    }
    return cmd_fail(r, _("say %stendido now or %stendido later, not '%s'"), r->p, r->p,
                    cmd_quote(now || later ? cmd_span(w, 1, n - 1) : w[0], q));
}

/* Reads a direction word. Returns whether w is one. */
static bool direction_of(word w, pz_direction *d)
{
    if (cmd_is_word(w, LTR_WORDS))
        *d = PZ_LTR;
    else if (cmd_is_word(w, RTL_WORDS))
        *d = PZ_RTL;
    else
        return false;
    return true;
}

/*
 * arrange best | arrange C C C C [left|right]: the row from left to right,
 * counted from the left (ltr, left, izquierda...) or from the right. A
 * card may be a bare rank ("arrange 10 5 A 4"): the host matches it to
 * the tendido.
 */
static cmd_result parse_arrange(const word *w, int n, cmd *c, reply *r)
{
    int ncards = 0;
    if (n == 0)
        return cmd_fail(r,
                        _("arrange how? say %sarrange best, or the row of four: %sarrange 4 2 3 7 "
                          "left (or right)"),
                        r->p, r->p);
    for (int i = 0, k = 1; i < n; i += k) {
        pz_direction d;
        cmd_card card;
        k = 1;
        if (cmd_is_word(w[i], BEST_WORDS)) {
            c->best = true;
        } else if (direction_of(w[i], &d)) {
            if (c->has_direction && c->direction != d)
                return cmd_fail(r, "%s", _("count from the left or from the right, not both"));
            c->has_direction = true;
            c->direction = d;
        } else if ((k = card_at(w, n, i, &card)) > 0) {
            if (ncards == 4)
                return cmd_fail(r, "%s", _("arrange takes four cards, not more"));
            c->row[ncards++] = card;
        } else {
            return bad_card(w[i], r);
        }
    }
    if (c->best && (ncards > 0 || c->has_direction))
        return cmd_fail(r,
                        _("say %sarrange best alone, or the row of four: %sarrange 4 2 3 7 left"),
                        r->p, r->p);
    if (!c->best && ncards != 4)
        return cmd_fail(r, _("arrange takes four cards, not %d: e.g. %sarrange 4h 2c 3d 7s left"),
                        ncards, r->p);
    return CMD_OK;
}

/* kick NICK, claim NICK, stats [NICK] */
static cmd_result parse_nick(const word *w, int n, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX], said[CMD_WORD_MAX];
    const char *name = cmd_verb_said(c->verb, said, sizeof said);
    if (n == 0 && c->verb == CMD_STATS)
        return CMD_OK;
    if (n == 0)
        return cmd_fail(r, _("%s whom? e.g. %s%s bob"), name, r->p, name);
    if (n > 1)
        return cmd_fail(r, _("%s takes one nick, e.g. %s%s bob"), name, r->p, name);
    if (!cmd_is_name(w[0]))
        return cmd_fail(r, _("'%s' is not a nick"), cmd_quote(w[0], q));
    cmd_copy_name(c->name, w[0]);
    return CMD_OK;
}

/* sub NICK [SEAT]: who takes the seat, and whose seat (default: mine). */
static cmd_result parse_sub(const word *w, int n, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    if (n < 1 || n > 2)
        return cmd_fail(r,
                        _("sub whom? e.g. %ssub bob (bob takes your seat), or %ssub bob "
                          "ROBOT (the creator gives bob a computer player's seat)"),
                        r->p, r->p);
    for (int i = 0; i < n; i++)
        if (!cmd_is_name(w[i]))
            return cmd_fail(r, _("'%s' is not a nick"), cmd_quote(w[i], q));
    cmd_copy_name(c->name, w[0]);
    if (n == 2)
        cmd_copy_name(c->name2, w[1]);
    return CMD_OK;
}

/*
 * help [command], rules [topic]: a verb's canonical name for help on one
 * verb word (a leading prefix allowed: "help !play"), else the folded
 * words joined by single spaces.
 */
static cmd_result parse_topic(const word *w, int n, const char *prefix, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX], f[CMD_WORD_MAX];
    const char *name = cmd_verb_name(c->verb);
    size_t o = 0, pn = strlen(prefix);
    word first = n > 0 ? w[0] : (word){"", 0};
    if (first.n > pn && pn > 0 && starts_with(first.s, prefix)) {
        first.s += pn;
        first.n -= pn;
    }
    int v = verb_of(first);
    if (c->verb == CMD_HELP && n == 1 && v >= 0) {
        (void)snprintf(c->name, sizeof c->name, "%s", VERBS[v].name); /* verb words are short */
        return CMD_OK;
    }
    for (int i = 0; i < n; i++) {
        int k = text_fold(w[i].s, w[i].n, f, sizeof f);
        if (k < 0 || memchr(f, TEXT_BAD_BYTE, (size_t)k) != NULL)
            return cmd_fail(r, _("'%s' is not a topic: say just %s%s"), cmd_quote(w[i], q), r->p,
                            name);
        if (o + (o > 0) + (size_t)k >= CMD_NAME_MAX)
            return cmd_fail(r, _("that topic is too long: say just %s%s"), r->p, name);
        if (o > 0)
            c->name[o++] = ' ';
        memcpy(c->name + o, f, (size_t)k + 1);
        o += (size_t)k;
    }
    return CMD_OK;
}

/* declare, optionally with declaration words ("cantar ronda"). */
static cmd_result parse_declare(const word *w, int n, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    for (int i = 0; i < n; i++)
        if (verb_of(w[i]) != CMD_DECLARE)
            return cmd_fail(r, _("say just %sronda, or %sdeclare: not '%s'"), r->p, r->p,
                            cmd_quote(w[i], q));
    return CMD_OK;
}

/* purge TARGET: a room name was already taken into c->room by cmd_parse. */
static cmd_result parse_purge(const word *w, int n, cmd *c, reply *r)
{
    char q[TEXT_QUOTE_MAX];
    if (n == 0 && c->room[0] != '\0')
        return CMD_OK;
    if (n != 1)
        return cmd_fail(r, _("purge one queue: %spurge #channel or %spurge NICK"), r->p, r->p);
    if (!cmd_is_name(w[0]))
        return cmd_fail(r, _("'%s' is not a channel or a nick"), cmd_quote(w[0], q));
    cmd_copy_name(c->name, w[0]);
    return CMD_OK;
}

/* ------------------------------------------------------------------------ */
/* The line                                                                 */

/* Reads the arguments w[0..n) of c's verb into c. */
static cmd_result parse_args(const word *w, int n, const char *prefix, cmd *c, reply *r)
{
    const char *name = cmd_verb_name(c->verb);
    int setting = cmd_setting_of_verb(c->verb); /* a player's or a game's: its row says how */
    if (setting >= 0)
        return cmd_parse_setting(setting, w, n, c, r);
    switch (c->verb) {
    case CMD_NEW:
        return cmd_parse_new(w, n, c, r);
    case CMD_PLAY:
        return parse_play(w, n, c, r);
    case CMD_TENDIDO:
        return parse_tendido(w, n, c, r);
    case CMD_ARRANGE:
        return parse_arrange(w, n, c, r);
    case CMD_DECLARE:
        return parse_declare(w, n, r);
    case CMD_KICK:
    case CMD_CLAIM:
    case CMD_STATS:
    case CMD_FLEAVE:
        return parse_nick(w, n, c, r);
    case CMD_GAMES:
        return cmd_parse_games(w, n, c, r);
    case CMD_LINK:
        return cmd_parse_link(w, n, c, r);
    case CMD_EXPORT:
    case CMD_FSTOP:
        return cmd_parse_game_id(w, n, c, r);
    case CMD_HELP:
    case CMD_RULES:
        return parse_topic(w, n, prefix, c, r);
    case CMD_PURGE:
        return parse_purge(w, n, c, r);
    case CMD_LEARN:
        c->practice = true;
        return cmd_parse_new(w, n, c, r);
    case CMD_ADDBOT:
        return cmd_parse_addbot(w, n, c, r);
    case CMD_REMOVEBOT: /* "Robot 2" as the table names it: the 2 */
        if (n == 2 && cmd_is_word(w[0], "robot bot") && w[1].n > 0 &&
            strspn(w[1].s, "0123456789") == w[1].n)
            return parse_nick(w + 1, 1, c, r);
        return n == 0 ? CMD_OK : parse_nick(w, n, c, r);
    case CMD_SUB:
        return parse_sub(w, n, c, r);
    case CMD_SET: /* set KEY VALUE...: the value's words as typed */
        return cmd_parse_set(w, n, c, r);
    case CMD_TOP:
        return cmd_parse_top(w, n, c, r);
    default:
        return n == 0
                   ? CMD_OK
                   : cmd_fail(r, _("%s takes nothing after it: say just %s%s"), name, r->p, name);
    }
}

/* A command with nothing said: no card (rank and suit -1), mode ANY, ltr. */
static void cmd_init(cmd *c)
{
    memset(c, 0, sizeof *c);
    c->card.rank = c->card.suit = -1;
    for (int i = 0; i < 4; i++)
        c->row[i] = c->card;
    c->mode = PZ_MODE_ANY;
    c->direction = PZ_LTR;
    c->level = -1;
}

/*
 * Parses one line (see command.h). The prefix defaults to "!" when NULL or
 * empty. In a channel a line is judged addressed before it is judged too
 * long, so long chatter stays silent. *out is written only on CMD_OK;
 * error only on CMD_ERROR.
 */
cmd_result cmd_parse(const char *text, size_t len, bool in_channel, const char *prefix, cmd *out,
                     char *error, size_t error_len)
{
    char buf[CMD_LINE_MAX + 1];
    word w[TOKENS_MAX];
    cmd c;
    if (prefix == NULL || prefix[0] == '\0')
        prefix = DEFAULT_PREFIX;
    reply r = {error, error_len, in_channel ? prefix : ""};
    if (text == NULL) {
        text = "";
        len = 0;
    }
    text_sanitize(text, len < CMD_LINE_MAX ? len : CMD_LINE_MAX, buf);
    const char *body = address(buf, in_channel, prefix);
    if (body == NULL)
        return CMD_IGNORED;
    if (len > CMD_LINE_MAX)
        return cmd_fail(&r, _("that line is too long: %d bytes at most"), CMD_LINE_MAX);
    int n = split(body, w);
    if (n == 0)
        return in_channel ? CMD_IGNORED : cmd_fail(&r, "%s", _("say help for the commands"));
    cmd_init(&c);
    if (n > 1 && is_room(w[n - 1]))
        cmd_copy_name(c.room, w[--n]);
    int v = verb_of(w[0]);
    cmd_result res;
    if (v >= 0) {
        c.verb = (cmd_verb)v;
        res = parse_args(w + 1, n - 1, prefix, &c, &r);
    } else if (card_at(w, n, 0, &c.card) > 0) {
        c.verb = CMD_PLAY;
        res = parse_play(w, n, &c, &r);
    } else {
        res = unknown_verb(w[0], &r);
    }
    if (res == CMD_OK && out != NULL)
        *out = c;
    return res;
}

/*
 * A move said without the prefix (see command.h): the line read as in
 * private, when its first word is a move's verb of two letters or more.
 */
bool cmd_move_without_prefix(const char *text, size_t len, const char *prefix, cmd *out)
{
    char buf[CMD_LINE_MAX + 1];
    word w[TOKENS_MAX];
    cmd c;
    if (text == NULL || len > CMD_LINE_MAX)
        return false;
    if (prefix == NULL || prefix[0] == '\0')
        prefix = DEFAULT_PREFIX;
    text_sanitize(text, len, buf);
    int n = split(buf, w), v = n > 0 ? verb_of(w[0]) : -1;
    if (n == 0 || w[0].n < 2 ||
        (v != CMD_PLAY && v != CMD_TENDIDO && v != CMD_ARRANGE && v != CMD_CLAIM))
        return false;
    if (cmd_parse(text, len, false, prefix, &c, NULL, 0) != CMD_OK || (int)c.verb != v)
        return false;
    *out = c;
    return true;
}

/* The canonical verb word of v ("play"), or "unknown" outside the enum. */
const char *cmd_verb_name(cmd_verb v)
{
    if ((int)v < 0 || (int)v >= NVERBS)
        return "unknown";
    return VERBS[v].name;
}

const char *cmd_verb_said(cmd_verb v, char *out, size_t cap)
{
    const char *list = (int)v >= 0 && (int)v < NVERBS ? _(VERBS[v].list) : "";
    size_t n = strcspn(list, " ");
    if (n == 0 || n >= cap)
        return cmd_verb_name(v);
    memcpy(out, list, n);
    out[n] = '\0';
    return out;
}
