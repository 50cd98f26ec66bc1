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
 * words cut short, with bad bytes as '?'. Not here: whether a command is
 * allowed now, who may give it, or any rule of the game.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "command.h"

#define WORD_MAX 64                       /* bytes of a folded word; longer never matches */
#define QUOTE_CHARS 24                    /* characters of a word quoted back */
#define QUOTE_MAX (QUOTE_CHARS * 4 + 4)   /* bytes of a quoted word, NUL included */
#define TOKENS_MAX (CMD_LINE_MAX / 2 + 1) /* words of a line, at most */
#define DURATION_MAX (366 * 86400)        /* the longest duration accepted */
#define BAD_BYTE ((char)0xFF)             /* a folded invalid byte: in no list */
#define DEFAULT_PREFIX "!"

typedef struct word { /* a word of the sanitized line (not NUL-terminated) */
    const char *s;
    size_t n;
} word;

typedef struct reply { /* the caller's error buffer */
    char *s;
    size_t cap;
} reply;

/* The verbs: canonical name, then aliases (folded: lower case, no accents). */
static const struct verb_words {
    const char *name;
    const char *aliases;
} VERBS[] = {
    [CMD_NEW] = {"new", "nuevo nueva crear create newgame new-game"},
    [CMD_JOIN] = {"join", "unir unirse entrar sit j"},
    [CMD_LEAVE] = {"leave", "salir dejar unjoin"},
    [CMD_START] = {"start", "empezar comenzar go deal repartir begin iniciar"},
    [CMD_KICK] = {"kick", "remove echar sacar"},
    [CMD_PLAY] = {"play", "p jugar tirar juego"},
    [CMD_HAND] = {"hand", "mano cards cartas h"},
    [CMD_TABLE] = {"table", "mesa t board"},
    [CMD_SCORE] = {"score", "scores puntos marcador tanteo points"},
    [CMD_TURN] = {"turn", "turno whose who's whos"},
    [CMD_TENDIDO] = {"tendido", "tend"},
    [CMD_ARRANGE] = {"arrange", "acomodar ordenar row"},
    [CMD_DECLARE] = {"declare", "declarar cantar ronda rondine rondo randa randine rondin"},
    [CMD_CLAIM] = {"claim", "reclamar"},
    [CMD_PAUSE] = {"pause", "pausa"},
    [CMD_RESUME] = {"resume", "seguir continuar reanudar unpause continue"},
    [CMD_STOP] = {"stop", "parar abandon abandonar quit-game end terminar"},
    [CMD_OPTIONS] = {"options", "opciones opts settings"},
    [CMD_RULES] = {"rules", "reglas"},
    [CMD_HELP] = {"help", "ayuda ? commands comandos"},
    [CMD_STATS] = {"stats", "estadisticas"},
    [CMD_TOP] = {"top", "mejores ranking leaderboard"},
    [CMD_PLAYERS] = {"players", "jugadores who seats teams"},
    [CMD_DEADLINE] = {"deadline", "plazo"},
};
#define NVERBS ((int)(sizeof VERBS / sizeof VERBS[0]))

/* Cards: rank words by rank (A..K), suit words by suit (C D H S). */
static const char *const RANK_WORDS[PZ_RANKS] = {
    "a 1 as ace one uno", "2 two dos",     "3 three tres",     "4 four cuatro",
    "5 five cinco",       "6 six seis",    "7 seven siete",    "8 eight ocho",
    "9 nine nueve",       "10 t ten diez", "j jack jota sota", "q queen reina dama caballo",
    "k king rey",
};
static const char *const SUIT_WORDS[PZ_SUITS] = {
    "c ♣ ♧ club clubs trebol treboles",
    "d ♦ ♢ diamond diamonds diamante diamantes",
    "h ♥ ♡ heart hearts corazon corazones",
    "s ♠ ♤ spade spades pica picas",
};

/* Argument words. */
#define CAPTURE_WORDS "capture captura capturar take tomar"
#define PLACE_WORDS "place put poner lugar in-place inplace"
#define NOW_WORDS "now ahora ya"
#define LATER_WORDS "later luego despues"
#define BEST_WORDS "best mejor"
#define LTR_WORDS "ltr l2r left izq izquierda left-to-right"
#define RTL_WORDS "rtl r2l right der derecha right-to-left"
#define OFF_WORDS "off none 0 no never nunca ninguno"
#define TRUE_WORDS "true yes y on si 1"
#define FALSE_WORDS "false no n off 0"
static const char *const UNIT_WORDS[4] = {
    "d day days dia dias",
    "h hr hrs hour hours hora horas",
    "m min mins minute minutes minuto minutos",
    "s sec secs second seconds seg segs segundo segundos",
};
static const int UNIT_SECS[4] = {86400, 3600, 60, 1};

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

/* ------------------------------------------------------------------------ */
/* Bytes and words                                                          */

/*
 * The length of the valid UTF-8 sequence at u, of which n > 0 bytes are
 * available: 1 to 4, or 0 when u[0] starts none (a stray continuation
 * byte, an overlong form, a surrogate, beyond U+10FFFF, or cut short).
 */
static size_t utf8_len(const unsigned char *u, size_t n)
{
    unsigned char b = u[0], lo = 0x80, hi = 0xBF;
    size_t k;
    if (b < 0x80)
        return 1;
    if (b < 0xC2 || b > 0xF4)
        return 0;
    if (b < 0xE0) {
        k = 2;
    } else if (b < 0xF0) {
        k = 3;
        lo = b == 0xE0 ? 0xA0 : 0x80;
        hi = b == 0xED ? 0x9F : 0xBF;
    } else {
        k = 4;
        lo = b == 0xF0 ? 0x90 : 0x80;
        hi = b == 0xF4 ? 0x8F : 0xBF;
    }
    if (n < k || u[1] < lo || u[1] > hi)
        return 0;
    for (size_t i = 2; i < k; i++)
        if ((u[i] & 0xC0) != 0x80)
            return 0;
    return k;
}

/* U+00C0..U+00FF by their second UTF-8 byte: the base letter, or '-'. */
static const char LATIN1_FOLD[] = "aaaaaa-ceeeeiiii-nooooo--uuuuy--"
                                  "aaaaaa-ceeeeiiii-nooooo--uuuuy-y";

/*
 * Writes the folded form of s[0..n) into out (cap bytes, NUL-terminated):
 * ASCII in lower case, accented Latin-1 letters as their base letter, the
 * right single quote as an apostrophe, variation selectors dropped, and
 * each byte of invalid UTF-8 as BAD_BYTE. Returns the length, or -1 when
 * it does not fit.
 */
static int fold(const char *s, size_t n, char *out, size_t cap)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len(u + i, n - i), w = 1;
        char one = 0;
        const char *from = &one;
        if (k == 0) {
            one = BAD_BYTE;
            k = 1;
        } else if (k == 1) {
            one = (char)(u[i] >= 'A' && u[i] <= 'Z' ? u[i] + 32 : u[i]);
        } else if (k == 2 && u[i] == 0xC3 && LATIN1_FOLD[u[i + 1] - 0x80] != '-') {
            one = LATIN1_FOLD[u[i + 1] - 0x80];
        } else if (k == 3 && u[i] == 0xE2 && u[i + 1] == 0x80 && u[i + 2] == 0x99) {
            one = '\'';
        } else if (k == 3 && u[i] == 0xEF && u[i + 1] == 0xB8 && (u[i + 2] & 0xFE) == 0x8E) {
            w = 0; /* U+FE0E, U+FE0F: the text or emoji form of a symbol */
        } else {
            from = s + i;
            w = k;
        }
        if (o + w >= cap)
            return -1;
        memcpy(out + o, from, w);
        o += w;
        i += k;
    }
    out[o] = '\0';
    return (int)o;
}

/*
 * Steps *p through a list of space-separated words: returns the next
 * word's start and sets *k to its length, or returns NULL at the end.
 */
static const char *list_next(const char **p, size_t *k)
{
    while (**p == ' ')
        (*p)++;
    if (**p == '\0')
        return NULL;
    const char *start = *p;
    *k = strcspn(start, " ");
    *p = start + *k;
    return start;
}

/* True when s[0..n) is one of the space-separated words of list. */
static bool in_list(const char *s, size_t n, const char *list)
{
    size_t k;
    for (const char *w; (w = list_next(&list, &k)) != NULL;)
        if (k == n && memcmp(w, s, n) == 0)
            return true;
    return false;
}

/* True when the word w, folded, is one of the words of list. */
static bool is_word(word w, const char *list)
{
    char f[WORD_MAX];
    int n = fold(w.s, w.n, f, sizeof f);
    return n > 0 && in_list(f, (size_t)n, list);
}

/* The word that covers words w[i] to w[j] of one line, spaces included. */
static word span(const word *w, int i, int j)
{
    word s = {w[i].s, (size_t)(w[j].s + w[j].n - w[i].s)};
    return s;
}

/*
 * Writes w for a reply into out (QUOTE_MAX bytes) and returns out: at most
 * QUOTE_CHARS characters then "...", each byte of invalid UTF-8 and each
 * bidirectional control as '?', so a reply never carries raw bytes back.
 */
static const char *quote(word w, char *out)
{
    const unsigned char *u = (const unsigned char *)w.s;
    size_t o = 0, chars = 0;
    for (size_t i = 0; i < w.n; chars++) {
        if (chars == QUOTE_CHARS) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        size_t k = utf8_len(u + i, w.n - i);
        bool bidi = k == 3 && u[i] == 0xE2 &&
                    ((u[i + 1] == 0x80 && u[i + 2] >= 0xAA && u[i + 2] <= 0xAE) ||
                     (u[i + 1] == 0x81 && u[i + 2] >= 0xA6 && u[i + 2] <= 0xA9));
        if (k == 0 || bidi) {
            out[o++] = '?';
            i += k == 0 ? 1 : k;
        } else {
            memcpy(out + o, w.s + i, k);
            o += k;
            i += k;
        }
    }
    out[o] = '\0';
    return out;
}

/*
 * Writes a formatted reply into r and returns CMD_ERROR. A reply longer
 * than the buffer is cut at a whole UTF-8 character; a failed format
 * leaves a generic reply.
 */
static cmd_result fail(reply *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static cmd_result fail(reply *r, const char *fmt, ...)
{
    if (r->s == NULL || r->cap == 0)
        return CMD_ERROR;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->s, r->cap, fmt, ap);
    va_end(ap);
    if (n < 0) {
        r->s[0] = '\0';
        strncat(r->s, "say help for the commands", r->cap - 1);
    } else if ((size_t)n >= r->cap) {
        size_t len = strlen(r->s), i = len;
        while (i > 0 && ((unsigned char)r->s[i - 1] & 0xC0) == 0x80)
            i--;
        if (i > 0 && utf8_len((const unsigned char *)r->s + i - 1, len - i + 1) == 0)
            r->s[i - 1] = '\0';
    }
    return CMD_ERROR;
}

/* ------------------------------------------------------------------------ */
/* The line: sanitize, address, split                                       */

/* How many of u[i..n) are digits (hex digits when hex), at most max. */
static size_t count_digits(const unsigned char *u, size_t n, size_t i, size_t max, bool hex)
{
    size_t d = 0;
    while (i + d < n && d < max &&
           ((u[i + d] >= '0' && u[i + d] <= '9') ||
            (hex && ((u[i + d] | 0x20) >= 'a' && (u[i + d] | 0x20) <= 'f'))))
        d++;
    return d;
}

/*
 * The index just past the colour code at u[i]: \x03 with up to two digits,
 * then optionally a comma and up to two more; \x04 the same with six hex
 * digits. A comma not followed by a digit is text.
 */
static size_t skip_colour(const unsigned char *u, size_t n, size_t i)
{
    bool hex = u[i] == 0x04;
    size_t max = hex ? 6 : 2, d = count_digits(u, n, i + 1, max, hex);
    i += 1 + d;
    if (d > 0 && i < n && u[i] == ',') {
        size_t d2 = count_digits(u, n, i + 1, max, hex);
        if (d2 > 0)
            i += 1 + d2;
    }
    return i;
}

/*
 * Copies s[0..n) into out (n + 1 bytes, NUL-terminated) without IRC
 * formatting codes, with every other control character (C0, DEL, C1) and
 * the no-break space as a space. Other bytes, invalid UTF-8 included, are
 * kept. Returns the new length.
 */
static size_t sanitize(const char *s, size_t n, char *out)
{
    static const char FORMAT[] = "\x02\x0f\x11\x16\x1d\x1e\x1f";
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned char b = u[i];
        if (b == 0x03 || b == 0x04) {
            i = skip_colour(u, n, i);
        } else if (memchr(FORMAT, b, sizeof FORMAT - 1) != NULL) {
            i++;
        } else if (b < 0x20 || b == 0x7F) {
            out[o++] = ' ';
            i++;
        } else if (b == 0xC2 && utf8_len(u + i, n - i) == 2 && u[i + 1] <= 0xA0) {
            out[o++] = ' ';
            i += 2;
        } else {
            out[o++] = (char)b;
            i++;
        }
    }
    out[o] = '\0';
    return o;
}

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
        size_t k = utf8_len(u + i, w.n - i);
        if (k == 0 || (k == 1 && !is_alnum((char)u[i]) && strchr("-_.:+=~&@", u[i]) == NULL))
            return false;
        i += k;
    }
    return true;
}

/* True when w is a name (a nick): valid UTF-8 shorter than CMD_NAME_MAX. */
static bool is_name(word w)
{
    if (w.n == 0 || w.n >= CMD_NAME_MAX)
        return false;
    for (size_t i = 0, k; i < w.n; i += k)
        if ((k = utf8_len((const unsigned char *)w.s + i, w.n - i)) == 0)
            return false;
    return true;
}

/* Copies w into dst (CMD_NAME_MAX bytes); the caller checked its length. */
static void copy_name(char *dst, word w)
{
    memcpy(dst, w.s, w.n);
    dst[w.n] = '\0';
}

/* ------------------------------------------------------------------------ */
/* Cards and durations                                                      */

/* Narrows s[0..*n) to its part without leading and trailing spaces. */
static const char *strip(const char *s, size_t *n)
{
    while (*n > 0 && *s == ' ') {
        s++;
        (*n)--;
    }
    while (*n > 0 && s[*n - 1] == ' ')
        (*n)--;
    return s;
}

/*
 * The suit said by the folded text s[0..n): 0..3, -1 when s is blank, -2
 * when it says no suit. An "of " or "de " may come first ("of hearts").
 */
static int parse_suit(const char *s, size_t n)
{
    s = strip(s, &n);
    if (n == 0)
        return -1;
    if (n > 3 && (memcmp(s, "of ", 3) == 0 || memcmp(s, "de ", 3) == 0)) {
        n -= 3;
        s = strip(s + 3, &n);
    }
    for (int suit = 0; suit < PZ_SUITS; suit++)
        if (in_list(s, n, SUIT_WORDS[suit]))
            return suit;
    return -2;
}

/*
 * Parses a card as players type it. Of the rank words that start the text
 * and leave a valid suit (or none), the longest wins: "as" is the ace, not
 * the ace of spades; "10h" is the ten of hearts. Returns 0 or -1.
 */
int cmd_parse_card(const char *s, size_t len, cmd_card *out)
{
    char f[WORD_MAX];
    int folded;
    if (s == NULL || out == NULL || (folded = fold(s, len, f, sizeof f)) < 0)
        return -1;
    size_t n = (size_t)folded;
    const char *p = strip(f, &n);
    cmd_card best = {-1, -1};
    size_t best_len = 0, k;
    for (int rank = 0; rank < PZ_RANKS; rank++) {
        const char *list = RANK_WORDS[rank];
        for (const char *w; (w = list_next(&list, &k)) != NULL;) {
            if (k <= best_len || k > n || memcmp(p, w, k) != 0)
                continue;
            int suit = parse_suit(p + k, n - k);
            if (suit >= -1) {
                best.rank = rank;
                best.suit = suit;
                best_len = k;
            }
        }
    }
    if (best.rank < 0)
        return -1;
    *out = best;
    return 0;
}

/*
 * Reads one group of a duration at *p (before e): a number, then a unit
 * word or none. Sets *value and *unit (0..3 as UNIT_WORDS, -1 for none).
 * Returns 0, or -1 when it is not a group or the number is too big.
 */
static int duration_group(const char **p, const char *e, long *value, int *unit)
{
    const char *s = *p;
    long v = 0;
    if (s == e || *s < '0' || *s > '9')
        return -1;
    for (; s < e && *s >= '0' && *s <= '9'; s++)
        if ((v = v * 10 + (*s - '0')) > DURATION_MAX)
            return -1;
    while (s < e && *s == ' ')
        s++;
    const char *u = s;
    while (s < e && *s >= 'a' && *s <= 'z')
        s++;
    *unit = -1;
    for (int i = 0; i < 4 && s > u; i++)
        if (in_list(u, (size_t)(s - u), UNIT_WORDS[i]))
            *unit = i;
    if (s > u && *unit < 0)
        return -1;
    while (s < e && *s == ' ')
        s++;
    *p = s;
    *value = v;
    return 0;
}

/*
 * Parses a duration into seconds: groups of a number and a unit (s, m, h,
 * d or their words, English and Spanish), in any order. A number alone is
 * seconds; a number after a group is the next smaller unit ("1h30" is
 * 1h30m). "off", "none", "0" give 0. At most DURATION_MAX (366 days).
 * Returns 0, or -1 with *secs untouched.
 */
int cmd_parse_duration(const char *s, size_t len, int *secs)
{
    char f[WORD_MAX];
    int folded;
    if (s == NULL || secs == NULL || (folded = fold(s, len, f, sizeof f)) < 0)
        return -1;
    size_t n = (size_t)folded;
    const char *p = strip(f, &n), *e = p + n;
    if (in_list(p, n, OFF_WORDS)) {
        *secs = 0;
        return 0;
    }
    long total = 0, v;
    int last = -1, unit;
    bool bare = false;
    if (p == e)
        return -1;
    while (p < e) {
        if (bare || duration_group(&p, e, &v, &unit) != 0)
            return -1;
        if (unit < 0) {
            bare = true;
            unit = last < 0 ? 3 : last + 1;
            if (unit > 3)
                return -1;
        }
        if (v > DURATION_MAX / UNIT_SECS[unit])
            return -1;
        total += v * UNIT_SECS[unit];
        if (total > DURATION_MAX)
            return -1;
        last = unit;
    }
    *secs = (int)total;
    return 0;
}

/*
 * Reads a card at w[i], of one to three words ("7h", "7 h", "7 of
 * hearts"), the longest that is a card. Returns the words taken, or 0.
 */
static int card_at(const word *w, int n, int i, cmd_card *card)
{
    for (int k = n - i < 3 ? n - i : 3; k > 0; k--) {
        word s = span(w, i, i + k - 1);
        if (cmd_parse_card(s.s, s.n, card) == 0)
            return k;
    }
    return 0;
}

/* The reply to a word that should have been a card. */
static cmd_result bad_card(word w, reply *r)
{
    char q[QUOTE_MAX];
    return fail(r, "'%s' is not a card: try 7, 7h, 7♥ or king", quote(w, q));
}

/* ------------------------------------------------------------------------ */
/* Verbs                                                                    */

/* The verb w says, or -1. */
static int verb_of(word w)
{
    char f[WORD_MAX];
    int n = fold(w.s, w.n, f, sizeof f);
    for (int v = 0; v < NVERBS && n > 0; v++)
        if ((strlen(VERBS[v].name) == (size_t)n && memcmp(f, VERBS[v].name, (size_t)n) == 0) ||
            in_list(f, (size_t)n, VERBS[v].aliases))
            return v;
    return -1;
}

/*
 * The optimal string alignment distance between a[0..an) and b[0..bn),
 * both at most WORD_MAX bytes: inserts, deletes, replacements and swaps of
 * two neighbours ("plya" is one swap from "play").
 */
static int edit_distance(const char *a, size_t an, const char *b, size_t bn)
{
    int rows[3][WORD_MAX + 1] = {{0}};
    int *pp = rows[0], *p = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= bn; j++)
        p[j] = (int)j;
    for (size_t i = 1; i <= an; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= bn; j++) {
            int v = p[j - 1] + (a[i - 1] != b[j - 1]);
            if (p[j] + 1 < v)
                v = p[j] + 1;
            if (cur[j - 1] + 1 < v)
                v = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
                v = pp[j - 2] + 1;
            cur[j] = v;
        }
        int *t = pp;
        pp = p;
        p = cur;
        cur = t;
    }
    return p[bn];
}

/*
 * Writes into best (WORD_MAX bytes) the verb word closest to w, when it is
 * close: one edit for words of up to four letters, two for longer ones.
 * One-letter aliases are never suggested. Returns whether it found one.
 */
static bool suggest(word w, char *best)
{
    char f[WORD_MAX];
    int n = fold(w.s, w.n, f, sizeof f), best_d = n <= 4 ? 2 : 3;
    for (int v = 0; v < NVERBS && n > 1; v++) {
        const char *lists[2] = {VERBS[v].name, VERBS[v].aliases};
        for (int l = 0; l < 2; l++) {
            size_t k;
            for (const char *c; (c = list_next(&lists[l], &k)) != NULL;) {
                int d = k < 2 ? best_d : edit_distance(f, (size_t)n, c, k);
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
    char q[QUOTE_MAX], best[WORD_MAX];
    if (w.n > 0 && w.s[0] >= '0' && w.s[0] <= '9')
        return bad_card(w, r);
    if (suggest(w, best))
        return fail(r, "unknown command '%s' — did you mean %s? Try help.", quote(w, q), best);
    return fail(r, "unknown command '%s': say help for the commands", quote(w, q));
}

/* ------------------------------------------------------------------------ */
/* Arguments                                                                */

/* Reads a play mode at w[i] ("capture", "in place", "en su lugar"). Returns
   the words taken, or 0. */
static int mode_at(const word *w, int n, int i, pz_mode *mode)
{
    if (is_word(w[i], CAPTURE_WORDS)) {
        *mode = PZ_MODE_CAPTURE;
        return 1;
    }
    if (is_word(w[i], PLACE_WORDS)) {
        *mode = PZ_MODE_PLACE;
        return 1;
    }
    int j = i + 1;
    if (!is_word(w[i], "in en"))
        return 0;
    if (j < n && is_word(w[j], "su"))
        j++;
    if (j < n && is_word(w[j], "place lugar")) {
        *mode = PZ_MODE_PLACE;
        return j - i + 1;
    }
    return 0;
}

/* play CARD [capture|place], in any order. */
static cmd_result parse_play(const word *w, int n, cmd *c, reply *r)
{
    char q[QUOTE_MAX];
    int first = -1;
    for (int i = 0, k; i < n; i += k) {
        pz_mode mode;
        cmd_card card;
        if ((k = mode_at(w, n, i, &mode)) > 0) {
            if (c->mode != PZ_MODE_ANY && c->mode != mode)
                return fail(r, "say capture or place, not both");
            c->mode = mode;
        } else if ((k = card_at(w, n, i, &card)) > 0) {
            if (first >= 0)
                return fail(r, "play one card at a time, e.g. play 7h");
            first = i;
            c->card = card;
        } else if (first >= 0 && is_word(w[i], "of de")) {
            return bad_card(span(w, first, i + 1 < n ? i + 1 : i), r);
        } else if (first >= 0) {
            return fail(r, "play takes a card, then capture or place if you like: not '%s'",
                        quote(w[i], q));
        } else {
            return bad_card(w[i], r);
        }
    }
    if (first < 0)
        return fail(r, "play what? e.g. play 7h");
    return CMD_OK;
}

/* tendido now|later */
static cmd_result parse_tendido(const word *w, int n, cmd *c, reply *r)
{
    char q[QUOTE_MAX];
    if (n == 0)
        return fail(r, "tendido now or later? e.g. tendido now");
    bool now = is_word(w[0], NOW_WORDS), later = is_word(w[0], LATER_WORDS);
    if (n == 1 && (now || later)) {
        c->now = now;
        return CMD_OK;
    }
    return fail(r, "say tendido now or tendido later, not '%s'",
                quote(now || later ? span(w, 1, n - 1) : w[0], q));
}

/* Reads a direction word. Returns whether w is one. */
static bool direction_of(word w, pz_direction *d)
{
    if (is_word(w, LTR_WORDS))
        *d = PZ_LTR;
    else if (is_word(w, RTL_WORDS))
        *d = PZ_RTL;
    else
        return false;
    return true;
}

/* arrange best | arrange C C C C [ltr|rtl] */
static cmd_result parse_arrange(const word *w, int n, cmd *c, reply *r)
{
    char q[QUOTE_MAX];
    int ncards = 0;
    if (n == 0)
        return fail(r, "arrange how? say arrange best, or four cards: arrange 4h 2c 3d 7s ltr");
    for (int i = 0, k = 1; i < n; i += k) {
        pz_direction d;
        cmd_card card;
        k = 1;
        if (is_word(w[i], BEST_WORDS)) {
            c->best = true;
        } else if (direction_of(w[i], &d)) {
            if (c->has_direction && c->direction != d)
                return fail(r, "say ltr or rtl, not both");
            c->has_direction = true;
            c->direction = d;
        } else if ((k = card_at(w, n, i, &card)) > 0) {
            if (card.suit < 0)
                return fail(r, "say each card's suit to arrange: '%s' as in 4h or 4♥",
                            quote(span(w, i, i + k - 1), q));
            if (ncards == 4)
                return fail(r, "arrange takes four cards, not more");
            c->row[ncards++] = card;
        } else {
            return bad_card(w[i], r);
        }
    }
    if (c->best && (ncards > 0 || c->has_direction))
        return fail(r, "say arrange best alone, or four cards: arrange 4h 2c 3d 7s");
    if (!c->best && ncards != 4)
        return fail(r, "arrange takes four cards, not %d: e.g. arrange 4h 2c 3d 7s ltr", ncards);
    return CMD_OK;
}

/* kick NICK, claim NICK, stats [NICK] */
static cmd_result parse_nick(const word *w, int n, cmd *c, reply *r)
{
    char q[QUOTE_MAX];
    const char *name = cmd_verb_name(c->verb);
    if (n == 0 && c->verb == CMD_STATS)
        return CMD_OK;
    if (n == 0)
        return fail(r, "%s whom? e.g. %s bob", name, name);
    if (n > 1)
        return fail(r, "%s takes one nick, e.g. %s bob", name, name);
    if (!is_name(w[0]))
        return fail(r, "'%s' is not a nick", quote(w[0], q));
    copy_name(c->name, w[0]);
    return CMD_OK;
}

/*
 * help [command], rules [topic]: a verb's canonical name for help on one
 * verb word (a leading prefix allowed: "help !play"), else the folded
 * words joined by single spaces.
 */
static cmd_result parse_topic(const word *w, int n, const char *prefix, cmd *c, reply *r)
{
    char q[QUOTE_MAX], f[WORD_MAX];
    const char *name = cmd_verb_name(c->verb);
    size_t o = 0, pn = strlen(prefix);
    word first = n > 0 ? w[0] : (word){"", 0};
    if (first.n > pn && pn > 0 && starts_with(first.s, prefix)) {
        first.s += pn;
        first.n -= pn;
    }
    int v = verb_of(first);
    if (c->verb == CMD_HELP && n == 1 && v >= 0) {
        strncat(c->name, VERBS[v].name, CMD_NAME_MAX - 1);
        return CMD_OK;
    }
    for (int i = 0; i < n; i++) {
        int k = fold(w[i].s, w[i].n, f, sizeof f);
        if (k < 0 || memchr(f, BAD_BYTE, (size_t)k) != NULL)
            return fail(r, "'%s' is not a topic: say just %s", quote(w[i], q), name);
        if (o + (o > 0) + (size_t)k >= CMD_NAME_MAX)
            return fail(r, "that topic is too long: say just %s", name);
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
    char q[QUOTE_MAX];
    for (int i = 0; i < n; i++)
        if (verb_of(w[i]) != CMD_DECLARE)
            return fail(r, "say just ronda, or declare: not '%s'", quote(w[i], q));
    return CMD_OK;
}

/* deadline off|DURATION */
static cmd_result parse_deadline(const word *w, int n, cmd *c, reply *r)
{
    char q[QUOTE_MAX];
    if (n == 0)
        return fail(r, "deadline off, or how long? e.g. deadline 10m");
    word all = span(w, 0, n - 1);
    if (cmd_parse_duration(all.s, all.n, &c->deadline_secs) != 0)
        return fail(r, "'%s' is not a time: say deadline off, or e.g. deadline 90s, 10m or 1h30m",
                    quote(all, q));
    return CMD_OK;
}

/* ------------------------------------------------------------------------ */
/* new                                                                      */

/*
 * Records the option name=value in c, replacing an earlier value of the
 * same name. The value is folded; for a boolean option yes/no/on/off/si
 * become "true"/"false". Values must be printable ASCII that fits.
 */
static cmd_result set_option(cmd *c, const char *name, bool boolean, word value, reply *r)
{
    char q[QUOTE_MAX], f[WORD_MAX];
    int n = fold(value.s, value.n, f, sizeof f), i;
    for (i = 0; n > 0 && i < n; i++)
        if (f[i] < 0x21 || f[i] > 0x7E)
            break;
    if (n <= 0 || i < n || n >= (int)sizeof c->option_value[0])
        return fail(r, "'%s' is not a value for %s", quote(value, q), name);
    if (boolean && in_list(f, (size_t)n, TRUE_WORDS))
        memcpy(f, "true", 5);
    else if (boolean && in_list(f, (size_t)n, FALSE_WORDS))
        memcpy(f, "false", 6);
    n = (int)strlen(f);
    for (i = 0; i < c->noptions && strcmp(c->option_name[i], name) != 0; i++)
        ;
    if (i == CMD_OPTIONS_MAX)
        return fail(r, "too many options: %s", NEW_TAKES);
    c->noptions += i == c->noptions;
    memcpy(c->option_name[i], name, strlen(name) + 1); /* R9 names are short */
    memcpy(c->option_value[i], f, (size_t)n + 1);
    return CMD_OK;
}

/* Reads a player count from w (decimal digits, 2..8) into c. */
static cmd_result set_players(cmd *c, word w, reply *r)
{
    char q[QUOTE_MAX];
    int v = 0;
    for (size_t i = 0; i < w.n && v < 100; i++) {
        if (w.s[i] < '0' || w.s[i] > '9')
            return fail(r, "'%s' is not a player count: say 2 to 8", quote(w, q));
        v = v * 10 + (w.s[i] - '0');
    }
    if (v < PZ_MIN_PLAYERS || v > PZ_MAX_PLAYERS)
        return fail(r, "a game has 2 to 8 players, not %s (for a target, say to %s)", quote(w, q),
                    q);
    c->players = v;
    return CMD_OK;
}

/* The R9 option key that the folded k[0..n) names, or -1. */
static int option_key(const char *k, size_t n)
{
    for (int i = 0; i < NOPTION_KEYS; i++)
        if (in_list(k, n, OPTION_KEYS[i].words))
            return i;
    return -1;
}

/* One NAME=VALUE word of `new`, split at its first '='. */
static cmd_result new_assignment(cmd *c, word w, const char *eq, reply *r)
{
    char q[QUOTE_MAX], f[WORD_MAX];
    word key = {w.s, (size_t)(eq - w.s)}, value = {eq + 1, w.n - key.n - 1};
    int n = fold(key.s, key.n, f, sizeof f), i = n > 0 ? option_key(f, (size_t)n) : -1;
    if (i >= 0)
        return set_option(c, OPTION_KEYS[i].name, OPTION_KEYS[i].boolean, value, r);
    if (n > 0 && in_list(f, (size_t)n, PLAYERS_KEY))
        return set_players(c, value, r);
    if (n > 0 && in_list(f, (size_t)n, SHUFFLE_WORDS)) {
        if (is_word(value, TRUE_WORDS) || is_word(value, FALSE_WORDS)) {
            c->shuffle_seats = is_word(value, TRUE_WORDS);
            return CMD_OK;
        }
        return fail(r, "shuffle takes yes or no, not '%s'", quote(value, q));
    }
    return fail(r,
                "'%s' is not an option: try target, wrap, declarations, tendido, "
                "odd_leftover, final_sweep, card_score or partnerships",
                quote(key.n > 0 ? key : w, q));
}

/*
 * Reads "to 31", "target 31", "tendido last": the option word at w[i] (key
 * as OPTION_KEYS, -1 for "to") and its value, the next word. Returns 2, or
 * -1 after writing a reply.
 */
static int new_valued(const word *w, int n, int i, int key, cmd *c, reply *r)
{
    char q[QUOTE_MAX];
    const struct option_key *o = &OPTION_KEYS[key >= 0 ? key : 0];
    if (i + 1 >= n) {
        fail(r, "%s what? e.g. new %s=%s", quote(w[i], q), o->name, o->example);
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
    char q[QUOTE_MAX], f[WORD_MAX];
    int k = fold(w[i].s, w[i].n, f, sizeof f), key = k > 0 ? option_key(f, (size_t)k) : -1;
    const char *eq = memchr(w[i].s, '=', w[i].n);
    cmd_result res = CMD_OK;
    size_t fn = k > 0 ? (size_t)k : 0;
    if (eq != NULL)
        res = new_assignment(c, w[i], eq, r);
    else if (w[i].s[0] >= '0' && w[i].s[0] <= '9')
        res = set_players(c, w[i], r);
    else if (in_list(f, fn, TARGET_WORDS) || (key >= 0 && !OPTION_KEYS[key].boolean))
        return new_valued(w, n, i, key, c, r);
    else if (key >= 0)
        res = set_option(c, OPTION_KEYS[key].name, true, (word){"true", 4}, r);
    else if (in_list(f, fn, NOWRAP_WORDS))
        res = set_option(c, "wrap", true, (word){"false", 5}, r);
    else if (in_list(f, fn, DECL_VALUES))
        res = set_option(c, "declarations", false, w[i], r);
    else if (in_list(f, fn, "excess26"))
        res = set_option(c, "card_score", false, w[i], r);
    else if (in_list(f, fn, SHUFFLE_WORDS))
        c->shuffle_seats = true;
    else if (!in_list(f, fn, NEW_FILLER))
        res = fail(r, NEW_TAKES ", not '%s'", quote(w[i], q));
    return res == CMD_OK ? 1 : -1;
}

/* new [players] [option words...] */
static cmd_result parse_new(const word *w, int n, cmd *c, reply *r)
{
    for (int i = 0, k; i < n; i += k)
        if ((k = new_word(w, n, i, c, r)) < 0)
            return CMD_ERROR;
    return CMD_OK;
}

/* ------------------------------------------------------------------------ */
/* The line                                                                 */

/* Reads the arguments w[0..n) of c's verb into c. */
static cmd_result parse_args(const word *w, int n, const char *prefix, cmd *c, reply *r)
{
    const char *name = cmd_verb_name(c->verb);
    switch (c->verb) {
    case CMD_NEW:
        return parse_new(w, n, c, r);
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
        return parse_nick(w, n, c, r);
    case CMD_HELP:
    case CMD_RULES:
        return parse_topic(w, n, prefix, c, r);
    case CMD_DEADLINE:
        return parse_deadline(w, n, c, r);
    default:
        return n == 0 ? CMD_OK : fail(r, "%s takes nothing after it: say just %s", name, name);
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
    reply r = {error, error_len};
    cmd c;
    if (prefix == NULL || prefix[0] == '\0')
        prefix = DEFAULT_PREFIX;
    if (text == NULL) {
        text = "";
        len = 0;
    }
    sanitize(text, len < CMD_LINE_MAX ? len : CMD_LINE_MAX, buf);
    const char *body = address(buf, in_channel, prefix);
    if (body == NULL)
        return CMD_IGNORED;
    if (len > CMD_LINE_MAX)
        return fail(&r, "that line is too long: %d bytes at most", CMD_LINE_MAX);
    int n = split(body, w);
    if (n == 0)
        return in_channel ? CMD_IGNORED : fail(&r, "say help for the commands");
    cmd_init(&c);
    if (n > 1 && is_room(w[n - 1]))
        copy_name(c.room, w[--n]);
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

/* The canonical verb word of v ("play"), or "unknown" outside the enum. */
const char *cmd_verb_name(cmd_verb v)
{
    if ((int)v < 0 || (int)v >= NVERBS)
        return "unknown";
    return VERBS[v].name;
}
