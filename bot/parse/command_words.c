/*
 * command_words.c — the card and duration words of the command parser:
 * rank, suit and time-unit words in English and Spanish, cmd_parse_card()
 * and cmd_parse_duration() of command.h (config.c reads durations too),
 * and the space-separated word lists of command_int.h that every table of
 * the parser is written in.
 *
 * Text is folded (text.h) before it is compared, so "Rey", "REY" and
 * "trébol" match the words "rey" and "trebol"; text that does not fold
 * into CMD_WORD_MAX bytes is neither a card nor a duration. Also the
 * number words of `new` ("dos", "treinta y uno"): cmd_number_at().
 *
 * "As" is two things: a rank and a suit letter, the ace of spades, as
 * "Ah" is the ace of hearts and "7s" the seven of spades; and the Spanish
 * word for an ace. Decision: "as" alone, in any case ("as", "As", "AS"),
 * is read as the ace of spades, marked spanish_as, everywhere a card is
 * read (a play, a row of `arrange`, a bare card). The host then looks at
 * the cards it is about: where the ace of spades is there (the player's
 * hand, the tendido) it is that card; where it is not, "as" is the
 * Spanish word and works as a bare rank does (a play takes the first ace
 * of the hand; an arrangement takes the tendido's only ace, and asks for
 * the suit when there are two). So "arrange 10h 5c As 4d" is the ace of
 * spades, "play as" with one ace in hand plays it, and no reading plays
 * an ace the player did not name while the ace of spades is in the hand.
 * "as de corazones" is the ace of hearts and "as de picas" (or "a s",
 * "ace of spades") the ace of spades, without the mark.
 *
 * Not here: lines, verbs or their arguments (command.c), or whether a
 * card is in anyone's hand (the host and the engine).
 */
#include <string.h>

#include "command_int.h"
#include "i18n.h"
#include "text.h"

#define DURATION_MAX (366 * 86400) /* the longest duration accepted */

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

/* The Spanish suit letters by suit (C D H S): tréboles, diamantes,
   corazones, picas. */
#define SPANISH_SUIT_LETTERS "tdcp"

/* Durations: words that say none, and the units (days to seconds). */
#define OFF_WORDS "off none 0 no never nunca ninguno apagado sin"
static const char *const UNIT_WORDS[4] = {
    "d day days dia dias",
    "h hr hrs hour hours hora horas",
    "m min mins minute minutes minuto minutos",
    "s sec secs second seconds seg segs segundo segundos",
};
static const int UNIT_SECS[4] = {86400, 3600, 60, 1};

/* Numbers: words and their values, English and Spanish (folded). */
static const struct number_word {
    const char *words;
    int value;
} NUMBER_WORDS[] = {
    {"zero cero", 0},
    {"one uno una un", 1},
    {"two dos", 2},
    {"three tres", 3},
    {"four cuatro", 4},
    {"five cinco", 5},
    {"six seis", 6},
    {"seven siete", 7},
    {"eight ocho", 8},
    {"nine nueve", 9},
    {"ten diez", 10},
    {"eleven once", 11},
    {"twelve doce", 12},
    {"thirteen trece", 13},
    {"fourteen catorce", 14},
    {"fifteen quince", 15},
    {"sixteen dieciseis", 16},
    {"seventeen diecisiete", 17},
    {"eighteen dieciocho", 18},
    {"nineteen diecinueve", 19},
    {"twenty veinte", 20},
    {"veintiuno veintiuna veintiun", 21},
    {"veintidos", 22},
    {"veintitres", 23},
    {"veinticuatro", 24},
    {"veinticinco", 25},
    {"veintiseis", 26},
    {"veintisiete", 27},
    {"veintiocho", 28},
    {"veintinueve", 29},
    {"thirty treinta", 30},
    {"forty fourty cuarenta", 40},
    {"fifty cincuenta", 50},
    {"sixty sesenta", 60},
    {"seventy setenta", 70},
    {"eighty ochenta", 80},
    {"ninety noventa", 90},
    {"hundred cien ciento", 100},
};
#define NNUMBER_WORDS ((int)(sizeof NUMBER_WORDS / sizeof NUMBER_WORDS[0]))
#define NUMBER_AND "and y"
#define NUMBER_CAP 1000000 /* digits past this read as this */

/* ------------------------------------------------------------------------ */
/* Word lists                                                               */

/* The next word of the list at *p, and its length in *k (see command_int.h). */
const char *cmd_list_next(const char **p, size_t *k)
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

/* True when s[0..n) is one of the words of list (see command_int.h). */
bool cmd_in_list(const char *s, size_t n, const char *list)
{
    size_t k;
    for (const char *w; (w = cmd_list_next(&list, &k)) != NULL;)
        if (k == n && memcmp(w, s, n) == 0)
            return true;
    return false;
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
 * Folds s[0..len) into f (cap bytes) and returns the folded text without
 * leading and trailing spaces, its length in *n; NULL when s is NULL or
 * does not fold into cap bytes.
 */
static const char *fold_strip(const char *s, size_t len, char *f, size_t cap, size_t *n)
{
    int folded;
    if (s == NULL || (folded = text_fold(s, len, f, cap)) < 0)
        return NULL;
    *n = (size_t)folded;
    return strip(f, n);
}

/*
 * The suit said by the folded text s[0..n): 0..3, -1 when s is blank, -2
 * when it says no suit. An "of " or "de " may come first ("of hearts").
 * Read in Spanish (the thread's language, i18n.h: the room's for a room
 * line, the sender's in private), the letters are the Spanish suits'
 * initials: c corazones, d diamantes, p picas, t tréboles ("7c" is the
 * seven of hearts there, of clubs in English); h and s keep their English
 * meaning, which no Spanish letter takes.
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
    if (n == 1 && i18n_lang() == PZ_LANG_ES) {
        const char *at = strchr(SPANISH_SUIT_LETTERS, s[0]);
        if (at != NULL && s[0] != '\0')
            return (int)(at - SPANISH_SUIT_LETTERS);
    }
    for (int suit = 0; suit < PZ_SUITS; suit++)
        if (cmd_in_list(s, n, SUIT_WORDS[suit]))
            return suit;
    return -2;
}

/*
 * Parses a card as players type it. Of the rank words that start the text
 * and leave a valid suit (or none), the longest wins ("10h" is the ten of
 * hearts, "as de picas" the ace of spades); then "as" alone is the ace of
 * spades marked spanish_as (see the head of this file). Returns 0 or -1.
 */
int cmd_parse_card(const char *s, size_t len, cmd_card *out)
{
    char f[CMD_WORD_MAX];
    size_t n, best_len = 0, k;
    const char *p = out != NULL ? fold_strip(s, len, f, sizeof f, &n) : NULL;
    if (p == NULL)
        return -1;
    cmd_card best = {-1, -1, false};
    for (int rank = 0; rank < PZ_RANKS; rank++) {
        const char *list = RANK_WORDS[rank];
        for (const char *w; (w = cmd_list_next(&list, &k)) != NULL;) {
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
    if (n == 2 && memcmp(p, "as", 2) == 0) {
        best.suit = 3;
        best.spanish_as = true;
    }
    *out = best;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                  */

/* Where a number said in words has got to (see number_piece). */
typedef enum number_state {
    NUM_START,   /* nothing yet */
    NUM_UNIT,    /* a unit alone ("one", maybe "one hundred") */
    NUM_HUNDRED, /* "hundred", "cien", "ciento" */
    NUM_AND,     /* "hundred and" */
    NUM_TENS,    /* "thirty", "treinta" */
    NUM_TENS_Y,  /* "treinta y" */
    NUM_DONE     /* a unit after tens, or a teen: nothing more */
} number_state;

/* The value of the folded number word s[0..n), or -1. */
static int number_word(const char *s, size_t n)
{
    for (int i = 0; i < NNUMBER_WORDS; i++)
        if (cmd_in_list(s, n, NUMBER_WORDS[i].words))
            return NUMBER_WORDS[i].value;
    return -1;
}

/*
 * Takes one piece of a number said in words (a word, or a part of a
 * hyphenated one) into *st and *value. Returns false when the piece
 * cannot come next.
 */
static bool number_piece(const char *s, size_t n, number_state *st, int *value)
{
    bool after_hundred = *st == NUM_HUNDRED || *st == NUM_AND;
    int v = number_word(s, n);
    if (cmd_in_list(s, n, NUMBER_AND)) {
        if (*st != NUM_HUNDRED && *st != NUM_TENS)
            return false;
        *st = *st == NUM_HUNDRED ? NUM_AND : NUM_TENS_Y;
        return true;
    }
    if (v == 100 && (*st == NUM_START || (*st == NUM_UNIT && *value == 1))) {
        *value = 100;
        *st = NUM_HUNDRED;
    } else if (v >= 20 && v < 100 && v % 10 == 0 && (*st == NUM_START || after_hundred)) {
        *value += v;
        *st = NUM_TENS;
    } else if (v >= 10 && v < 30 && (*st == NUM_START || after_hundred)) {
        *value += v;
        *st = NUM_DONE;
    } else if (v >= 0 && v < 10 && *st == NUM_START) {
        *value = v;
        *st = NUM_UNIT;
    } else if (v > 0 && v < 10 && (after_hundred || *st == NUM_TENS || *st == NUM_TENS_Y)) {
        *value += v;
        *st = NUM_DONE;
    } else {
        return false;
    }
    return true;
}

/* Reads a number at w[0..n) (see command_int.h): the words taken, or 0. */
int cmd_number_at(const word *w, int n, int *value)
{
    char f[CMD_WORD_MAX];
    number_state st = NUM_START;
    int v = 0, taken = 0, got = 0;
    for (int j = 0; j < n; j++) {
        int k = text_fold(w[j].s, w[j].n, f, sizeof f);
        if (k <= 0)
            break;
        if (j == 0 && f[0] >= '0' && f[0] <= '9') {
            long d = 0;
            for (int i = 0; i < k; i++) {
                if (f[i] < '0' || f[i] > '9')
                    return 0;
                if (d < NUMBER_CAP)
                    d = d * 10 + (f[i] - '0');
            }
            *value = d < NUMBER_CAP ? (int)d : NUMBER_CAP;
            return 1;
        }
        bool ok = true;
        for (const char *p = f, *e = f + k; ok && p <= e;) {
            const char *dash = memchr(p, '-', (size_t)(e - p));
            const char *end = dash != NULL ? dash : e;
            ok = end > p && number_piece(p, (size_t)(end - p), &st, &v);
            p = end + 1;
        }
        if (!ok)
            break;
        if (st != NUM_AND && st != NUM_TENS_Y) {
            taken = j + 1;
            got = v;
        }
    }
    if (taken > 0)
        *value = got;
    return taken;
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
        if (cmd_in_list(u, (size_t)(s - u), UNIT_WORDS[i]))
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
    char f[CMD_WORD_MAX];
    size_t n;
    const char *p = secs != NULL ? fold_strip(s, len, f, sizeof f, &n) : NULL;
    if (p == NULL)
        return -1;
    const char *e = p + n;
    if (cmd_in_list(p, n, OFF_WORDS)) {
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
