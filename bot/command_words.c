/*
 * command_words.c — the card and duration words of the command parser:
 * rank, suit and time-unit words in English and Spanish, cmd_parse_card()
 * and cmd_parse_duration() of command.h (config.c reads durations too),
 * and the space-separated word lists of command_int.h that every table of
 * the parser is written in.
 *
 * Text is folded (text.h) before it is compared, so "Rey", "REY" and
 * "trébol" match the words "rey" and "trebol"; text that does not fold
 * into CMD_WORD_MAX bytes is neither a card nor a duration. Not here:
 * lines, verbs or their arguments (command.c), or whether a card is in
 * anyone's hand (the host and the engine).
 */
#include <string.h>

#include "command_int.h"
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

/* Durations: words that say none, and the units (days to seconds). */
#define OFF_WORDS "off none 0 no never nunca ninguno"
static const char *const UNIT_WORDS[4] = {
    "d day days dia dias",
    "h hr hrs hour hours hora horas",
    "m min mins minute minutes minuto minutos",
    "s sec secs second seconds seg segs segundo segundos",
};
static const int UNIT_SECS[4] = {86400, 3600, 60, 1};

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
        if (cmd_in_list(s, n, SUIT_WORDS[suit]))
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
    char f[CMD_WORD_MAX];
    size_t n, best_len = 0, k;
    const char *p = out != NULL ? fold_strip(s, len, f, sizeof f, &n) : NULL;
    if (p == NULL)
        return -1;
    cmd_card best = {-1, -1};
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
